"""Teacher tools (issue 8): log-in, per-teacher isolation, quiz authoring checked by the engine,
classes, class quizzes that record every attempt, results, statistics and CSV.

Every test that writes runs on SQLite and on PostgreSQL (``both_databases``)."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from web_support import (
    app_with_teachers,
    counted,
    csrf_of,
    dispose,
    expected,
    form_for,
    make_app,
    wrong_value,
)

from tutor.content import kinds
from tutor.domain import classes as C
from tutor.domain.models import Assignment, ClassAttempt, Membership, TeacherQuiz
from tutor.web.accounts import check_password, hash_password
from tutor.web.authoring import FieldErrors, authored_question, exercise_of

pytestmark = pytest.mark.both_databases

PASSWORDS = {"ana": "ana-password-1", "bob": "bob-password-2"}
#: A due date some weeks ahead (a day gone by is refused).
DUE = (datetime.now(UTC).date() + timedelta(days=60)).isoformat()
TRICK = {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}


@pytest.fixture
def teachers():
    """The teacher accounts of the app (conftest's ``app``): name -> password."""
    return PASSWORDS


def login(client, name: str):
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": name,
                                              "password": PASSWORDS[name]})
    assert r.status_code == 302, r.text
    return client


def post(client, url: str, data: dict, page: str | None = None):
    token = csrf_of(client.get(page or url).text)
    return client.post(url, data={"csrf_token": token, **data})


def new_quiz(client, title="Trumps") -> int:
    r = post(client, "/en/teach/quizzes/", {"quiz-title": title}, page="/en/teach/")
    assert r.status_code == 302
    return int(re.search(r"/quizzes/(\d+)", r.headers["Location"]).group(1))


def add_authored(client, qid: int, scenario: dict, key: str, **extra):
    data = {"kind": "trick-winner", "scenario": json.dumps(scenario), "key": key, "difficulty": "1",
            "points": "1", **extra}
    return post(client, f"/en/teach/quizzes/{qid}/authored", data, page=f"/en/teach/quizzes/{qid}")


def add_generated(client, qid: int, seed: int, points: int = 2, action: str = "add"):
    data = {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1", "g-seed": str(seed),
            "g-points": str(points), "action": action}
    return post(client, f"/en/teach/quizzes/{qid}/generated", data, page=f"/en/teach/quizzes/{qid}")


def add_generated_form(client, qid: int, changed: dict, lang: str = "en"):
    """POST the generated-question form of quiz ``qid`` in ``lang`` with ``changed`` fields."""
    data = {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1", "g-seed": "5", "g-points": "1",
            "action": "preview", **changed}
    return post(client, f"/{lang}/teach/quizzes/{qid}/generated", data, page=f"/{lang}/teach/quizzes/{qid}")


def new_class(client, name="7B") -> tuple[int, str]:
    r = post(client, "/en/teach/classes/", {"class-name": name}, page="/en/teach/")
    cid = int(re.search(r"/classes/(\d+)", r.headers["Location"]).group(1))
    code = re.search(r'class="join-code">([A-Z0-9]+)<', client.get(f"/en/teach/classes/{cid}").text).group(1)
    return cid, code


def assign(client, cid: int, qid: int) -> int:
    r = post(client, f"/en/teach/classes/{cid}", {"what": f"quiz:{qid}", "due": DUE})
    assert r.status_code == 302, r.text
    with client.application.app_context():
        db = client.application.extensions["tutor_db"]()
        aid = db.scalars(select(Assignment.id).where(Assignment.classroom_id == cid)).all()[-1]
        db.close()
    return aid


def join(client, code: str, nickname: str):
    r = post(client, "/en/join", {"code": code.lower(), "nickname": nickname})
    assert r.status_code == 302, r.text


def quiz_doc(app, qid: int) -> dict:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        doc = db.get(TeacherQuiz, qid).doc
        db.close()
    return doc


def answer(client, cid, aid, n, fields):
    url = f"/en/classes/{cid}/assignments/{aid}/{n}"
    return client.post(url, data={"csrf_token": csrf_of(client.get(url).text), **fields})


# ------------------------------------------------------------------------------------------ accounts

def test_password_hashes_are_argon2_and_checked():
    h = hash_password("a long password")
    assert h.startswith("$argon2id$")
    assert check_password(h, "a long password") and not check_password(h, "another password")
    assert not check_password(None, "a long password")


def test_every_teacher_page_sends_a_visitor_to_log_in(app):
    """Walk the url_map: every teacher endpoint but log-in and sign-up redirects a visitor."""
    client = app.test_client()
    token = csrf_of(client.get("/en/teach/login").text)
    seen = 0
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("teach.") or rule.endpoint in (
                "teach.login", "teach.login_post", "teach.signup", "teach.signup_page"):
            continue
        url = rule.rule.replace("<lang>", "en")
        url = re.sub(r"<(?:int:)?[a-z]+>", "1", url)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            r = client.open(url, method=method, data={"csrf_token": token} if method == "POST" else None)
            assert r.status_code == 302, (method, url, r.status_code)
            assert r.headers["Location"].startswith("/en/teach/login"), (method, url)
            seen += 1
    assert seen >= 15


def test_wrong_password_is_refused_beside_the_form(app):
    client = app.test_client()
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": "ana", "password": "nope"})
    assert r.status_code == 400 and "The name or the password is wrong." in r.text
    r = client.post("/en/teach/login", data={"name": "ana", "password": PASSWORDS["ana"]})
    assert r.status_code == 400  # no CSRF token
    assert client.get("/en/teach/").status_code == 302
    for evil in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        r = client.post(f"/en/teach/login?next={evil}", data={"csrf_token": csrf_of(page.text), "name": "ana",
                                                              "password": PASSWORDS["ana"]})
        assert r.status_code == 302 and r.headers["Location"] == "/en/teach/", evil


def test_signup_is_off_by_default(app):
    assert app.test_client().get("/en/teach/signup").status_code == 404


def test_teacher_cli_adds_a_teacher(app, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setenv("TUTOR_DATABASE_URL", app.config["DATABASE_URL"])
    assert cli.main(["teacher", "add", "carla", "--generate"]) == 0
    out = capsys.readouterr().out
    password = re.search(r"password: (\S+)", out).group(1)
    assert len(password) >= 16
    assert cli.main(["teacher", "add", "carla", "--generate"]) == 2
    assert "already a teacher called 'carla'" in capsys.readouterr().err
    client = app.test_client()
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": "carla", "password": password})
    assert r.status_code == 302 and r.headers["Location"] == "/en/teach/"


# ------------------------------------------------------------------------------------------ isolation

def test_teacher_a_gets_404_for_teacher_b(app):
    a = login(app.test_client(), "ana")
    qid = new_quiz(a)
    assert add_authored(a, qid, TRICK, "4").status_code == 302
    cid, _code = new_class(a)
    aid = assign(a, cid, qid)
    b = login(app.test_client(), "bob")
    for url in (f"/en/teach/quizzes/{qid}", f"/en/teach/quizzes/{qid}/questions/1/preview",
                f"/en/teach/classes/{cid}", f"/en/teach/classes/{cid}/qr.svg",
                f"/en/teach/classes/{cid}/assignments/{aid}", f"/en/teach/classes/{cid}/assignments/{aid}/results.csv"):
        assert a.get(url).status_code == 200, url
        assert b.get(url).status_code == 404, url
    r = post(b, f"/en/teach/quizzes/{qid}/questions/1", {"action": "delete"}, page="/en/teach/")
    assert r.status_code == 404
    assert len(quiz_doc(app, qid)["questions"]) == 1
    qr = a.get(f"/en/teach/classes/{cid}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and b'xmlns="http://www.w3.org/2000/svg"' in qr.data
    # bob cannot assign ana's quiz to his own class either
    bcid, _ = new_class(b, "bob's")
    r = post(b, f"/en/teach/classes/{bcid}", {"what": f"quiz:{qid}"})
    assert r.status_code == 400  # not one of his choices: a message beside the field
    assert "Not a valid choice" in r.text


def test_a_learner_cannot_see_another_class(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4")
    c1, code1 = new_class(t, "Class Alpha")
    c2, _code2 = new_class(t, "Class Beta")
    a1, a2 = assign(t, c1, qid), assign(t, c2, qid)
    learner = app.test_client()
    join(learner, code1, "Zari")
    assert learner.get(f"/en/classes/{c1}/assignments/{a1}/results").status_code == 200
    for url in (f"/en/classes/{c2}/assignments/{a2}/results", f"/en/classes/{c2}/assignments/{a2}/1",
                f"/en/classes/{c1}/assignments/{a2}/1", f"/en/classes/{c2}/assignments/{a2}/"):
        assert learner.get(url).status_code == 404, url
    # and the teacher's results pages are behind the log-in
    r = learner.get(f"/en/teach/classes/{c1}/assignments/{a1}")
    assert r.status_code == 302 and "/teach/login" in r.headers["Location"]
    r = learner.get("/en/classes/")
    assert "Class Alpha" in r.text and "Class Beta" not in r.text


# ------------------------------------------------------------------------------------------ authoring

def test_a_wrong_answer_key_is_flagged_at_the_field(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = add_authored(t, qid, TRICK, "1")  # the engine: seat 4 (the jack of spades) wins, not seat 1
    assert r.status_code == 400
    m = re.search(r'<p class="field-error" id="key-error" role="alert">([^<]*)</p>', r.text)
    assert m and "The engine disagrees with this key" in m.group(1)
    assert "Jack of Spades" in m.group(1) or "J♠" in m.group(1) or "jack" in m.group(1).lower()
    assert re.search(r'<textarea[^>]* name="scenario"', r.text) and re.search(r'<select[^>]* name="kind"', r.text)
    assert 'aria-invalid="true"' in r.text and json.dumps(TRICK).replace('"', "&#34;") in r.text  # input kept
    assert quiz_doc(app, qid)["questions"] == []
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    q = quiz_doc(app, qid)["questions"][0]
    assert q["kind"] == "trick-winner" and q["expect"] == {"winner": 3, "card": "JS"} and q["points"] == 1
    assert q["scenario"] == TRICK and q["teaches"]


@pytest.mark.parametrize(("scenario", "key", "field", "message"), [
    ("{not json", "1", "scenario", "not valid JSON"),
    ('["a list"]', "1", "scenario", "must be a JSON object"),
    (json.dumps({**TRICK, "ask": "legal-plays"}), "1", "scenario", "needs the ask trick-winner"),
    (json.dumps({**TRICK, "trick": ["AD", "AD", "KD", "JS"]}), "1", "scenario", "The engine rejects this scenario"),
    (json.dumps(TRICK), "seven", "key", "cannot be read"),
])
def test_bad_scenarios_and_keys_are_flagged(scenario, key, field, message):
    from flask import Flask
    from flask_babel import Babel
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context(), pytest.raises(FieldErrors) as e:
        authored_question("trick-winner", scenario, key)
    assert list(e.value.errors) == [field] and message in e.value.errors[field]


def test_generated_question_preview_is_the_learners_question_and_reorder_points(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = add_generated(t, qid, seed=42, action="preview")
    assert r.status_code == 200 and "What learners will see" in r.text
    assert quiz_doc(app, qid)["questions"] == []
    assert add_generated(t, qid, seed=42).status_code == 302
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    doc = quiz_doc(app, qid)
    gen = doc["questions"][0]
    assert gen["kind"] == "legal-cards" and gen["points"] == 2 and "seed" not in json.dumps(gen)
    from tutor.content import generators
    assert gen["scenario"] == generators.generate("hokm", "legal-cards", 42, 1).scenario
    # the preview of the stored question shows the same hand as the generator's preview did
    hand = re.findall(r'name="card" value="([0-9A-Z]+)"', t.get(f"/en/teach/quizzes/{qid}/questions/1/preview").text)
    assert set(gen["scenario"]["hand"]) <= set(hand)
    post(t, f"/en/teach/quizzes/{qid}/questions/2", {"action": "up"}, page="/en/teach/")
    assert [q["kind"] for q in quiz_doc(app, qid)["questions"]] == ["trick-winner", "legal-cards"]
    post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "points", "points": "5"}, page="/en/teach/")
    assert quiz_doc(app, qid)["questions"][0]["points"] == 5
    assert post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "points", "points": "0"},
                page="/en/teach/").status_code == 400
    post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "delete"}, page="/en/teach/")
    assert [q["kind"] for q in quiz_doc(app, qid)["questions"]] == ["legal-cards"]


def test_prompts_in_four_languages_are_kept_and_shown(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4", prompt_en="Who takes it?", prompt_fa="کی می‌برد؟")
    q = quiz_doc(app, qid)["questions"][0]
    assert q["prompt"] == {"en": "Who takes it?", "fa": "کی می‌برد؟"}
    assert "کی می‌برد؟" in t.get(f"/fa/teach/quizzes/{qid}/questions/1/preview").text
    bg = t.get(f"/bg/teach/quizzes/{qid}/questions/1/preview").text
    assert "Who takes it?" not in bg and "کی" not in bg  # no prompt in Bulgarian: the kind's own, in Bulgarian


def test_lesson_preview_is_sanitised_and_shows_exercises(app):
    t = login(app.test_client(), "ana")
    body = ("Follow **suit** <script>alert(1)</script> <a href=\"javascript:alert(1)\">x</a>\n\n"
            "```exercise\nid: e1\nkind: trick-winner\nprompt: Who wins?\ndifficulty: 1\n"
            f"scenario: {json.dumps(TRICK)}\nexpect: {{winner: 3}}\n```\n")
    r = post(t, "/en/teach/lessons/", {"lesson-title": "Trumps", "lesson-goal": "Know trumps", "lesson-ruleset": "hokm",
                                        "lesson-lang": "en", "lesson-body": body}, page="/en/teach/")
    assert r.status_code == 302
    page = t.get(r.headers["Location"]).text
    page = page[page.index('id="h-lpreview"'):]
    assert "<strong>suit</strong>" in page and "<script>alert" not in page and "javascript:" not in page
    assert "Who wins?" in page and 'class="exercise kind-trick-winner' in page


# ------------------------------------------------------------------------------------------ class quiz

def _class_with_quiz(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    assert add_generated(t, qid, seed=7).status_code == 302
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    return t, qid, cid, code, aid


def test_class_quiz_questions_get_no_verdict_from_the_stateless_apis(app):
    _t, qid, cid, code, aid = _class_with_quiz(app)
    learner = app.test_client()
    join(learner, code, "Zari")
    doc = quiz_doc(app, qid)
    page = learner.get(f"/en/classes/{cid}/assignments/{aid}/1").text
    # the page shows the table, never the stored key or a ref of the exercise API
    assert "expect" not in page and '"winner"' not in page and "&#34;winner" not in page
    assert "gen:" not in page and "quiz:" not in page and "lesson:" not in page
    for ref in (f"class:{aid}:1", f"class-{aid}-1", doc["questions"][0]["id"], doc["questions"][1]["id"],
                f"quiz:{doc['questions'][0]['id']}", "gen:hokm:legal-cards:1:7"):
        r = learner.post(f"/api/v1/exercises/{ref}/answer", json={"answer": 3})
        if ref.startswith("gen:"):
            # the public generator's question of that seed is not the class's: the class stored its own
            # scenario, and a class question is never named by a gen ref (no seed on the page)
            continue
        assert r.status_code in (400, 404), ref
        assert "correct" not in r.get_json(), ref
        r = learner.get(f"/api/v1/exercises/{ref}")
        assert r.status_code in (400, 404), ref
    # nothing of the class quiz was recorded by those calls
    with app.app_context():
        db = app.extensions["tutor_db"]()
        assert db.scalars(select(ClassAttempt)).all() == []
        db.close()


def test_every_attempt_is_recorded_and_the_first_one_scores(app):
    _t, qid, cid, code, aid = _class_with_quiz(app)
    learner = app.test_client()
    join(learner, code, "Zari")
    doc = quiz_doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])
    assert answer(learner, cid, aid, 1, {"seat": "0"}).status_code == 302  # wrong
    assert answer(learner, cid, aid, 1, {"seat": "3"}).status_code == 302  # right, too late
    r = answer(learner, cid, aid, 2, form_for(ex2, expected(ex2)))
    assert r.status_code == 302
    fb = learner.get(r.headers["Location"]).text
    assert "Right!" in fb
    res = learner.get(f"/en/classes/{cid}/assignments/{aid}/results").text
    points2 = doc["questions"][1]["points"]
    assert f"Score: {points2} of {1 + points2} points" in res
    with app.app_context():
        db = app.extensions["tutor_db"]()
        rows = db.scalars(select(ClassAttempt).order_by(ClassAttempt.id)).all()
        assert [(a.position, a.correct, a.given) for a in rows] == [(1, False, 0), (1, True, 3), (2, True, expected(ex2))]
        assert rows[0].rules  # the engine's reasons name their rule points
        db.close()
    # a malformed answer is a message beside the question, nothing recorded
    r = answer(learner, cid, aid, 1, {})
    assert r.status_code == 400 and "Choose the winning card first." in r.text
    with app.app_context():
        db = app.extensions["tutor_db"]()
        assert len(db.scalars(select(ClassAttempt)).all()) == 3
        db.close()


# ------------------------------------------------------------------------------------------ statistics

def _attempt(learner, n, given, correct, rules=()):
    return ClassAttempt(assignment_id=1, learner_id=learner, position=n, given=given, correct=correct,
                        rules=list(rules))


def test_statistics_of_a_scripted_class():
    """Three learners, two questions (1 and 3 points).

    Q1: L1 wrong (0) then right; L2 right; L3 wrong (0), wrong (2).
        attempts 5, right 2 -> share 2/5 = 0.4; first tries: L1 0, L2 1, L3 0 -> facility 1/3;
        wrong answers: 0, 0, 2 -> most common 0 (twice).
    Q2 (3 points): L1 right; L2 wrong ["AS"]; (L3 did not answer).
        share 1/2; facility (3 + 0) / (3 * 2) = 0.5; most common wrong ["AS"] once.
    Scores: L1 0 + 3 = 3 of 4; L2 1 + 0 = 1 of 4; L3 0 of 4.
    Weak spots over wrong first tries: Q1 L1 [H17], L3 [H17, H18]; Q2 L2 [H14]
        -> H17 2 (2 learners), H14 1, H18 1.
    """
    questions = [{"kind": "trick-winner", "points": 1}, {"kind": "legal-cards", "points": 3}]
    attempts = [
        _attempt(1, 1, 0, False, ["H17"]), _attempt(2, 1, 3, True), _attempt(1, 1, 3, True),
        _attempt(3, 1, 0, False, ["H17", "H18"]), _attempt(1, 2, ["KS"], True),
        _attempt(2, 2, ["AS"], False, ["H14"]), _attempt(3, 1, 2, False, ["H17"]),
    ]
    s1, s2 = C.question_stats(questions, attempts)
    assert (s1.attempts, s1.learners, s1.share, s1.wrong, s1.wrong_count) == (5, 3, 0.4, 0, 2)
    assert s1.facility == pytest.approx(1 / 3)
    assert (s2.attempts, s2.learners, s2.share, s2.facility, s2.wrong, s2.wrong_count) == (2, 2, 0.5, 0.5, ["AS"], 1)
    assert [C.score(questions, attempts, i) for i in (1, 2, 3)] == [(3, 4), (1, 4), (0, 4)]
    assert [(w.rule, w.wrong, w.learners) for w in C.weak_spots(attempts)] == [("H17", 2, 2), ("H14", 1, 1), ("H18", 1, 1)]
    assert C.question_stats([{"kind": "beg", "points": 2}], []) == [C.QuestionStats(1, 0, 0, None, None, None, 0)]


def test_results_page_and_csv(app):
    t, qid, cid, code, aid = _class_with_quiz(app)
    doc = quiz_doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])
    right2 = expected(ex2)
    wrong2 = wrong_value(ex2, right2)
    zari = app.test_client()
    join(zari, code, "=Zari")  # a nickname a spreadsheet would read as a formula
    answer(zari, cid, aid, 1, {"seat": "0"})
    answer(zari, cid, aid, 2, form_for(ex2, right2))
    omid = app.test_client()
    join(omid, code, "Omid")
    answer(omid, cid, aid, 1, {"seat": "3"})
    answer(omid, cid, aid, 2, form_for(ex2, wrong2))
    answer(omid, cid, aid, 2, form_for(ex2, right2))
    page = t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    assert "Omid" in page and "=Zari" in page
    assert "Winner: your left-hand opponent" in page or "Winner:" in page  # Zari's wrong answer in words
    # Q1: 2 answers, 1 right -> 50%; facility 50%; Q2: 3 answers, 2 right -> 67%, facility 50%
    stats = re.findall(r"<td>([^<]*%)</td>", page)
    assert stats == ["50%", "50%", "67%", "50%"]
    assert "H17" in page or "H" in page
    r = t.get(f"/en/teach/classes/{cid}/assignments/{aid}/results.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and r.mimetype_params["charset"] == "utf-8"
    assert r.data.startswith(codecs.BOM_UTF8)  # so that Excel reads it as UTF-8
    reader = csv.DictReader(io.StringIO(r.data.decode("utf-8-sig")))
    rows = list(reader)
    assert reader.fieldnames == list(C.CSV_COLUMNS)
    assert [(x["learner"], x["question"], x["attempts"], x["first_correct"], x["points_scored"]) for x in rows] == [
        ("'=Zari", "1", "1", "no", "0"), ("'=Zari", "2", "1", "yes", str(doc["questions"][1]["points"])),
        ("Omid", "1", "1", "yes", "1"), ("Omid", "2", "2", "no", "0")]
    # answers as the teacher writes keys: seats from 1 (the page's "seat 1" and "seat 4"), cards by spaces
    assert [(x["first_answer"], x["last_answer"]) for x in rows if x["question"] == "1"] == [("1", "1"), ("4", "4")]
    assert rows[3]["first_answer"] == " ".join(wrong2) and rows[3]["last_answer"] == " ".join(right2)
    assert rows[3]["last_correct"] == "yes"
    # each learner's every answer
    with app.app_context():
        db = app.extensions["tutor_db"]()
        mid = db.scalar(select(Membership.id).where(Membership.nickname == "Omid"))
        db.close()
    page = t.get(f"/en/teach/classes/{cid}/assignments/{aid}/learners/{mid}").text
    assert page.count('class="good"') == 2 and page.count('class="wrong"') == 1


def _errors(page: str) -> dict[str, str]:
    """The messages beside the fields of a page: field error id -> its text."""
    from lxml import html as lxml_html

    return {e.get("id"): e.text_content() for e in lxml_html.fromstring(page).cssselect(".field-error")}


def _members(app, cid: int) -> list[tuple[int, str]]:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        out = [(m.learner_id, m.nickname) for m in db.scalars(
            select(Membership).where(Membership.classroom_id == cid).order_by(Membership.id))]
        db.close()
    return out


def test_a_nickname_taken_in_the_class_is_refused_and_joining_again_still_works(app):
    """Two learners under one nickname could not be told apart on the results page or in the CSV:
    another learner taking a nickname of the class (whatever its case) is refused beside the
    nickname, in the page's language, what was typed kept. The learner who has it joining again
    from the same browser is still let in, as before (still one membership, the nickname kept)."""
    from lxml import html as lxml_html

    t = login(app.test_client(), "ana")
    cid, code = new_class(t)
    zari = app.test_client()
    join(zari, code, "Zari")
    join(zari, code, "Zari")  # again, from the same browser
    join(zari, code, "Someone else")  # a member joining again keeps the nickname they have
    assert [n for _lid, n in _members(app, cid)] == ["Zari"]
    other = app.test_client()
    for lang, typed, message in (
            ("en", "Zari", "Another learner in this class goes by this nickname: choose another one."),
            ("fa", "zari", "یادگیرندهٔ دیگری در این کلاس همین نام مستعار را دارد: نام دیگری برگزینید."),
            ("bg", "  ZARI ", "Друг ученик в този клас вече използва този прякор: изберете друг."),
            ("te", "Zari", "ఈ తరగతిలో మరో అభ్యాసకుడు ఇదే ముద్దుపేరుతో ఉన్నారు: వేరొకటి ఎంచుకోండి.")):
        r = post(other, f"/{lang}/join", {"code": code.lower(), "nickname": typed}, page=f"/{lang}/join")
        assert r.status_code == 400, lang
        assert _errors(r.text) == {"nickname-error": message}, lang
        doc = lxml_html.fromstring(r.text)
        assert doc.get_element_by_id("nickname").get("value") == typed
        assert doc.get_element_by_id("code").get("value") == code.lower()
        assert doc.get_element_by_id("nickname").get("aria-invalid") == "true"
    assert len(_members(app, cid)) == 1
    join(other, code, "Zari B")  # another nickname is welcome
    assert [n for _lid, n in _members(app, cid)] == ["Zari", "Zari B"]
    # the nickname is one class's: the same one in another class is fine
    cid2, code2 = new_class(t, "8A")
    join(other, code2, "Zari")
    assert [n for _lid, n in _members(app, cid2)] == ["Zari"]


def test_assigning_again_or_a_due_date_gone_by_is_refused_beside_the_field(app):
    """What a class has already (a quiz, a lesson unit) assigned again would be two identical
    columns: refused beside the choice. A due date before today is refused beside the date. Both
    in the page's language, the choice and the date typed kept, nothing assigned; today is fine."""
    from lxml import html as lxml_html

    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4")
    cid, _code = new_class(t)
    assign(t, cid, qid)
    url = f"/{{}}/teach/classes/{cid}"
    r = post(t, url.format("bg"), {"what": f"quiz:{qid}", "due": DUE})
    assert r.status_code == 400 and _errors(r.text) == {"what-error": "Това вече е зададено на този клас."}
    doc = lxml_html.fromstring(r.text)
    assert doc.cssselect("#what option[selected]")[0].get("value") == f"quiz:{qid}"
    assert doc.get_element_by_id("due").get("value") == DUE
    assert post(t, url.format("en"), {"what": "unit:hokm:1"}).status_code == 302
    r = post(t, url.format("en"), {"what": "unit:hokm:1"})
    assert r.status_code == 400 and _errors(r.text) == {"what-error": "This is already assigned to this class."}
    today = datetime.now(UTC).date()
    yesterday = (today - timedelta(days=1)).isoformat()
    messages = {"en": "The due date has passed: choose today or a later day.",
                "fa": "این مهلت گذشته است: امروز یا روزی پس از آن را برگزینید.",
                "te": "ఈ గడువు తేదీ దాటిపోయింది: ఈ రోజు లేదా తర్వాతి రోజును ఎంచుకోండి."}
    for lang, message in messages.items():
        r = post(t, url.format(lang), {"what": "unit:hokm:2", "due": yesterday})
        assert r.status_code == 400 and _errors(r.text) == {"due-error": message}, lang
        doc = lxml_html.fromstring(r.text)
        assert doc.get_element_by_id("due").get("value") == yesterday
        assert doc.cssselect("#what option[selected]")[0].get("value") == "unit:hokm:2"
    # both at once: each message beside its field
    r = post(t, url.format("en"), {"what": f"quiz:{qid}", "due": yesterday})
    assert r.status_code == 400 and set(_errors(r.text)) == {"what-error", "due-error"}
    with app.app_context():
        db = app.extensions["tutor_db"]()
        assert len(db.scalars(select(Assignment).where(Assignment.classroom_id == cid)).all()) == 2
        db.close()
    assert post(t, url.format("en"), {"what": "unit:hokm:2", "due": today.isoformat()}).status_code == 302


def test_counts_percentages_and_names_in_each_language(app):
    """Counts are plural-aware in every language ("1 point", "1 wrong first answer by 1 learner",
    Bulgarian "1 грешен първи отговор от 1 ученик"); Persian percentages have the Persian percent
    sign and the facility index has one name; typed names (nickname, class, quiz) are in <bdi>, so
    a nickname starting with "=" keeps its own direction in Persian."""
    from lxml import html as lxml_html

    t, qid, cid, code, aid = _class_with_quiz(app)
    points2 = quiz_doc(app, qid)["questions"][1]["points"]
    zari = app.test_client()
    join(zari, code, '=HYPERLINK("http://x")')
    page = lxml_html.fromstring(zari.get(f"/en/classes/{cid}/assignments/{aid}/1").text)
    assert page.cssselect(".quiz-head p.meta")[0].text_content().split(" · ")[-1] == "1 point"
    assert page.cssselect(".quiz-head h1 bdi")[0].text_content() == "Trumps"
    answer(zari, cid, aid, 1, {"seat": "0"})  # wrong
    page = lxml_html.fromstring(zari.get(f"/en/classes/{cid}/assignments/{aid}/results").text)
    assert page.cssselect(".score-big")[0].text_content() == f"Score: 0 of {1 + points2} points"
    assert [m.text_content().strip("· ") for m in page.cssselect(".review .meta")] == [
        "1 point", f"{points2} points"]

    def results(lang):
        return lxml_html.fromstring(t.get(f"/{lang}/teach/classes/{cid}/assignments/{aid}").text)

    weak = {"en": "1 wrong first answer by 1 learner", "bg": "1 грешен първи отговор от 1 ученик",
            "fa": "۱ پاسخ نخستِ نادرست از ۱ یادگیرنده", "te": "1 అభ్యాసకుడు ఇచ్చిన 1 తప్పు మొదటి జవాబు"}
    for lang, text in weak.items():
        spots = [li.cssselect(".meta")[0].text_content() for li in results(lang).cssselect(".weak li")]
        assert spots and set(spots) == {text}, (lang, spots)
    fa = results("fa")
    assert fa.cssselect(".stats-table thead th")[3].text_content() == "شاخص سهولت"
    assert "شاخص سهولت" in fa.cssselect("#h-stats + p")[0].text_content()
    first = fa.cssselect(".stats-table tbody tr")[0].cssselect("td")
    assert [first[1].text_content(), first[2].text_content()] == ["۰٪", "۰٪"]  # share correct, facility
    assert [b.text_content() for b in fa.cssselect(".results-table tbody th bdi")] == ['=HYPERLINK("http://x")']
    assert fa.cssselect("h1 bdi")[0].text_content() == "Trumps"
    assert [b.text_content() for b in fa.cssselect(".crumbs bdi")] == ["7B", "Trumps"]
    cls = lxml_html.fromstring(t.get(f"/en/teach/classes/{cid}").text)
    assert cls.cssselect(".progress-table tbody td")[0].text_content() == f"0 of {1 + points2} points, 1 of 2 answered"
    assert [b.text_content() for b in cls.cssselect(".plain-list bdi")][:1] == ['=HYPERLINK("http://x")']
    region = cls.cssselect(".table-scroll")[0]
    assert (region.get("tabindex"), region.get("role"), region.get("aria-labelledby")) == ("0", "region", "h-progress")


# ------------------------------------------------------------------------------------------ more

def test_signup_when_turned_on_and_the_login_limit(tmp_path, app_database):
    app = make_app(tmp_path, DATABASE_URL=app_database, TEACHER_SIGNUP=True,
                   RATE_LIMITS={"login": counted("3/day"), "redeem": counted("2/day")})
    try:
        c = app.test_client()
        page = c.get("/en/teach/signup")
        assert page.status_code == 200
        r = c.post("/en/teach/signup", data={"csrf_token": csrf_of(page.text), "name": "dina", "password": "short"})
        assert r.status_code == 400 and 'id="password-error"' in r.text
        r = c.post("/en/teach/signup", data={"csrf_token": csrf_of(page.text), "name": "dina",
                                              "password": "dina-password-1"})
        assert r.status_code == 302 and c.get("/en/teach/").status_code == 200
        other = app.test_client()
        token = csrf_of(other.get("/en/teach/login").text)
        r = other.post("/en/teach/login", data={"csrf_token": token, "name": "dina", "password": "wrong-password"})
        assert r.status_code == 400  # the two sign-up POSTs and this one: 3 of 3 from this address
        r = other.post("/en/teach/login", data={"csrf_token": token, "name": "dina", "password": "dina-password-1"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        # the log-in page again, the message above the form, the name kept and the password not
        from lxml import html as lxml_html

        doc = lxml_html.fromstring(r.text)
        assert doc.cssselect(".form-error")[0].text_content() == (
            "Too many log-in attempts in a short time. Wait a little, then try again.")
        assert doc.get_element_by_id("name").get("value") == "dina"
        assert doc.get_element_by_id("password").get("value") in (None, "")
        # joining with a code is limited too, and an unknown code is a message beside the field
        learner = app.test_client()
        token = csrf_of(learner.get("/en/join").text)
        for _ in range(2):
            r = learner.post("/en/join", data={"csrf_token": token, "code": "NOPE", "nickname": "Zari"})
            assert r.status_code == 400 and "There is no class with this code." in r.text
        r = learner.post("/en/join", data={"csrf_token": token, "code": "NOPE", "nickname": "Zari"})
        assert r.status_code == 429 and "Retry-After" in r.headers
    finally:
        dispose(app)


def test_teacher_cli_asks_for_the_password(app, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setenv("TUTOR_DATABASE_URL", app.config["DATABASE_URL"])
    answers = iter(["a-typed-password", "a-typed-password"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    assert cli.main(["teacher", "add", "emil"]) == 0
    assert capsys.readouterr().out == "teacher emil added\n"
    answers = iter(["one-password-1", "another-password"])
    assert cli.main(["teacher", "add", "fred"]) == 2
    assert "the two passwords differ" in capsys.readouterr().err
    answers = iter(["short", "short"])
    assert cli.main(["teacher", "add", "fred"]) == 2
    assert "at least 10 characters" in capsys.readouterr().err


def test_lessons_are_per_teacher_and_units_can_be_assigned(app):
    a = login(app.test_client(), "ana")
    r = post(a, "/en/teach/lessons/", {"lesson-title": "Mine", "lesson-goal": "g", "lesson-ruleset": "hokm",
                                        "lesson-lang": "fa", "lesson-body": "سلام"}, page="/en/teach/")
    url = r.headers["Location"]
    assert a.get(url).status_code == 200
    b = login(app.test_client(), "bob")
    assert b.get(url).status_code == 404
    assert post(b, url, {"lesson-title": "x", "lesson-goal": "g", "lesson-ruleset": "hokm", "lesson-lang": "en",
                         "lesson-body": "x"}, page="/en/teach/").status_code == 404
    assert "Mine" not in b.get("/en/teach/").text
    cid, code = new_class(a)
    r = post(a, f"/en/teach/classes/{cid}", {"what": "unit:hokm:1"})
    assert r.status_code == 302
    learner = app.test_client()
    join(learner, code, "Zari")
    page = learner.get("/en/classes/").text
    assert "/en/learn/hokm/#unit-1" in page
    # the learner does the first step of unit 1: the teacher's progress table counts it
    from tutor.web import exercises as X
    with app.test_request_context("/en/"):
        unit = next(u for u in X.lesson_path("hokm").units if u.number == 1)
    step = unit.steps[0]
    form_page = learner.get(f"/en/learn/hokm/{step.id}")
    if step.exercises:
        for ex in step.exercises:
            learner.post(f"/en/learn/hokm/{step.id}/{ex.id}",
                         data={"csrf_token": csrf_of(form_page.text), **form_for(ex, expected(ex))})
    else:
        learner.post(f"/en/learn/hokm/{step.id}/done", data={"csrf_token": csrf_of(form_page.text)})
    page = a.get(f"/en/teach/classes/{cid}").text
    assert f"1 of {len(unit.steps)} steps done" in page


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(["hokm", "trick-winner", "legal-plays", "S", "AD",
                                                                        "JS", "10H", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["ruleset", "ask", "trump", "trick", "hand", "leader", "players", "options", "x"]),
        inner, max_size=5),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=json_values, key=json_values, kind=st.sampled_from(sorted(kinds.KINDS)))
def test_any_scenario_and_key_is_a_question_or_a_message_at_a_field(scenario, key, kind):
    """Odd input gives a question the engine agrees with, or a message at one field: nothing else."""
    from flask import Flask
    from flask_babel import Babel
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context():
        base = {"ruleset": "hokm", "ask": kinds.KINDS[kind].asks[0]}
        sc = {**base, **scenario} if isinstance(scenario, dict) else scenario
        try:
            q = authored_question(kind, json.dumps(sc), json.dumps(key))
        except FieldErrors as e:
            assert len(e.errors) == 1 and set(e.errors) <= {"kind", "scenario", "key"}
        else:  # the key counts seats and sides from 1, the learner's raw answer from 0
            ex = exercise_of(q)
            assert kinds.grade(ex, kinds.from_key(ex, kinds.KINDS[kind].typed(key))).correct


def test_guesses_at_one_teacher_from_many_addresses_share_one_budget(tmp_path, app_database):
    """The per-address log-in limit does not stop guesses spread over many addresses; the per-name
    budget does (names compared trimmed and case-folded), and another teacher's log-in is not
    affected."""

    app = app_with_teachers(tmp_path, app_database, {"dina": "dina-password-1", "omid": "omid-password-1"},
                            RATE_LIMITS={"login": "100/minute", "login-name": counted("3/day")})
    try:
        statuses = []
        for i, name in enumerate(["dina", " DINA", "Dina ", "dina"]):
            c = app.test_client()
            token = csrf_of(c.get("/en/teach/login").text)
            r = c.post("/en/teach/login", data={"csrf_token": token, "name": name, "password": "wrong-password"},
                       environ_base={"REMOTE_ADDR": f"198.51.100.{i + 1}"})
            statuses.append(r.status_code)
        assert statuses == [400, 400, 400, 429]  # four addresses, one name: the fourth guess refused
        c = app.test_client()
        token = csrf_of(c.get("/en/teach/login").text)
        r = c.post("/en/teach/login", data={"csrf_token": token, "name": "omid", "password": "omid-password-1"},
                   environ_base={"REMOTE_ADDR": "198.51.100.9"})
        assert r.status_code == 302  # another name: its own budget
    finally:
        dispose(app)


def test_a_new_quiz_class_or_lesson_that_fails_its_checks_comes_back_with_the_message(app):
    """A form on the teaching home that does not validate is the page again (400) with the
    message beside its field, what was typed kept, the other forms empty and nothing made; a
    quiz title that does not validate is the quiz page again with the message, the title kept."""
    from lxml import html as lxml_html

    c = login(app.test_client(), "ana")

    def errors(page) -> dict[str, str]:
        doc = lxml_html.fromstring(page)
        return {e.get("id"): e.text_content() for e in doc.cssselect(".field-error")}

    r = post(c, "/fa/teach/quizzes/", {"quiz-title": "   "}, page="/fa/teach/")
    assert r.status_code == 400 and errors(r.text) == {"quiz-title-error": "پر کردن این فیلد لازم است."}
    assert 'dir="rtl"' in r.text and 'aria-invalid="true"' in r.text
    body = "Trumps beat every other suit.\n"
    r = post(c, "/en/teach/lessons/", {"lesson-title": "Ruffing", "lesson-goal": "", "lesson-ruleset": "hokm",
                                       "lesson-lang": "en", "lesson-body": body}, page="/en/teach/")
    assert r.status_code == 400 and errors(r.text) == {"lesson-goal-error": "This field is required."}
    doc = lxml_html.fromstring(r.text)
    assert doc.get_element_by_id("lesson-title").get("value") == "Ruffing"
    assert doc.get_element_by_id("lesson-body").text_content().strip() == body.strip()  # the text typed is not lost
    assert doc.get_element_by_id("quiz-title").get("value") in (None, "")
    # the messages WTForms would give in its own words (and not at all in Telugu) are the app's
    too_long = {"en": "At most 80 characters.", "fa": "حداکثر ۸۰ نویسه.", "bg": "Най-много 80 знака.",
                "te": "గరిష్ఠంగా 80 అక్షరాలు."}
    for lang, message in too_long.items():
        r = post(c, f"/{lang}/teach/classes/", {"class-name": "x" * 81}, page=f"/{lang}/teach/")
        assert r.status_code == 400 and errors(r.text) == {"class-name-error": message}, lang
        assert lxml_html.fromstring(r.text).get_element_by_id("class-name").get("value") == "x" * 81
    home = c.get("/en/teach/").text
    assert "No quizzes yet." in home and "No classes yet." in home and "No lessons yet." in home
    qid = new_quiz(c, "Trumps")
    r = post(c, f"/en/teach/quizzes/{qid}/title", {"quiz-title": ""}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 400 and errors(r.text) == {"quiz-title-error": "This field is required."}
    assert "<h1>Trumps</h1>" in r.text or ">Trumps<" in r.text
    assert post(c, f"/en/teach/quizzes/{qid}/title", {"quiz-title": "Ruffs"}, page=f"/en/teach/quizzes/{qid}").status_code == 302
    # numbers: one that is not a number, and one out of range, in the page's digits
    r = add_generated_form(c, qid, {"g-seed": "seven"}, lang="te")
    assert r.status_code == 400 and errors(r.text) == {"g-seed-error": "ఇది పూర్ణసంఖ్య కాదు."}
    r = add_generated_form(c, qid, {"g-points": "0"}, lang="fa")
    assert r.status_code == 400 and errors(r.text)["g-points-error"] == "عددی صحیح از ۱ تا ۱۰۰."
    r = add_generated_form(c, qid, {"g-ruleset": "bridge"}, lang="bg")
    assert r.status_code == 400 and errors(r.text)["g-ruleset-error"] == "Този избор не е сред предложените."
    assert ">Ruffs<" in c.get("/en/teach/").text


def test_the_scenario_example_keeps_its_own_direction_in_persian(app):
    """The authoring form's example scenario is code, left to right inside the Persian sentence
    (it was scrambled by the right-to-left layout)."""
    from lxml import html as lxml_html

    c = login(app.test_client(), "ana")
    qid = new_quiz(c)
    doc = lxml_html.fromstring(c.get(f"/fa/teach/quizzes/{qid}").text)
    hint = doc.get_element_by_id("scenario-hint")
    assert hint.text_content().startswith("سناریویی در قالب JSON رابط solve، مثلاً ")
    code = hint.cssselect("code")[0]
    assert code.get("dir") == "ltr"
    assert json.loads(code.text_content()) == {"ruleset": "hokm", "ask": "trick-winner", "trump": "S",
                                               "trick": ["AD", "2S", "KD", "JS"]}
