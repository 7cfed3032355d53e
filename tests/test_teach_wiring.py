"""The teacher's journey wired together (issue 8): class-quiz questions refused by the stateless
endpoints (however the scenario is written), the teacher quiz's exports, worksheets and import,
a typed answer key judged live by the table editor's check, and Glicko-2 ratings in the class
statistics. Every test that writes runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import yaml
from lxml import etree
from sqlalchemy import select
from teach_support import (
    PASSWORDS,
    TRICK,
    add_authored,
    add_generated,
    answer,
    assign,
    join,
    login,
    new_class,
    new_quiz,
    post,
    quiz_doc,
    teachers,  # noqa: F401 - the fixture
)
from web_support import (
    counted,
    csrf_of,
    dispose,
    expected,
    fetch_pdf,
    form_for,
    make_app,
    unavailable,
    wrong_value,
)

from tutor.domain.models import ClassFingerprint
from tutor.export.files import check_document, same_value
from tutor.solve.fingerprint import fingerprint
from tutor.web.accounts import add_teacher
from tutor.web.authoring import exercise_of, files_of

pytestmark = pytest.mark.both_databases


def _teacher_quiz(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t, "Trumps and tricks")
    assert add_authored(t, qid, TRICK, "4", points="4").status_code == 302
    assert add_generated(t, qid, seed=7, points=2).status_code == 302
    return t, qid


# ------------------------------------------------------------------------------ fingerprints

def test_fingerprint_is_canonical():
    hand = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["QH", "4H", "KS"], "trick": ["10H"]}
    same = {"ruleset": "hokm", "ask": "legal-plays", "trump": "s", "hand": ["ks", "QH", "4H"], "trick": ["10H"],
            "options": {}}
    assert fingerprint(hand) == fingerprint(same) and re.fullmatch(r"[0-9a-f]{64}", fingerprint(hand) or "")
    # the order of a trick counts: it is another question
    assert fingerprint(TRICK) != fingerprint({**TRICK, "trick": ["2S", "AD", "KD", "JS"]})
    assert fingerprint({**TRICK, "leader": 0}) == fingerprint(TRICK)  # a default written out
    assert fingerprint({**TRICK, "leader": 1}) != fingerprint(TRICK)
    assert fingerprint({"ruleset": "hokm"}) is None and fingerprint([1]) is None
    # the table's options are not part of the question: a target or a scoring rule beside the
    # same cards was a way round the refusal of a class question
    assert fingerprint({**hand, "target": 3}) == fingerprint(hand)
    assert fingerprint({**hand, "options": {"stop_at_seven": False}}) == fingerprint(hand)


def test_stateless_endpoints_refuse_class_questions(app):
    t, qid = _teacher_quiz(app)
    generated = quiz_doc(app, qid)["questions"][1]["scenario"]
    learner = app.test_client()
    assert learner.post("/api/v1/solve", json=TRICK).status_code == 200  # not yet a class question
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    with app.app_context():
        db = app.extensions["tutor_db"]()
        stored = db.scalars(select(ClassFingerprint).where(ClassFingerprint.assignment_id == aid)
                            .order_by(ClassFingerprint.position)).all()
        assert [(f.position, f.fingerprint) for f in stored] == [(1, fingerprint(TRICK)), (2, fingerprint(generated))]
        db.close()
    join(learner, code, "Zari")
    reordered = {**generated, "hand": list(reversed(generated["hand"])), "options": {}}
    lowered = {**TRICK, "trick": [c.lower() for c in TRICK["trick"]], "leader": 0}
    optioned = [{**TRICK, "target": 3}, {**generated, "options": {"stop_at_seven": False}}]
    for scenario in (TRICK, lowered, generated, reordered, *optioned):
        r = learner.post("/api/v1/solve", json=scenario)
        assert r.status_code == 403, scenario
        assert r.get_json()["error"]["code"] == "class-question" and "winner" not in r.get_json()
        r = learner.post("/api/v1/table/check", json={"scenario": scenario, "lang": "fa"})
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "class-question"
        assert r.get_json()["error"]["message"].startswith("این وضعیت پرسشی از آزمون کلاس است")
        assert "answer" not in r.get_json()
    # another situation is answered as before
    other = {**TRICK, "trick": ["2S", "AD", "KD", "JS"]}
    assert learner.post("/api/v1/solve", json=other).get_json()["winner"] == 3
    # the Ask the rules page: 403, the message beside the field, no answer
    page = learner.get("/en/ask").text
    r = learner.post("/en/ask", data={"csrf_token": csrf_of(page), "scenario": json.dumps(reordered)})
    assert r.status_code == 403 and "a question of a class quiz" in r.text and "The engine's answer" not in r.text
    assert "data-seating" not in r.text  # nor its seating (a transcript's leaders are its trick winners)
    # the teacher authoring on the editor is not refused
    r = t.post("/api/v1/table/check", json={"scenario": TRICK, "kind": "trick-winner", "key": "4"})
    assert r.status_code == 200 and r.get_json()["ok"] is True
    # the OpenAPI document lists the code
    doc = learner.get("/api/v1/openapi.json").get_json()
    assert "class-question" in json.dumps(doc["paths"]["/api/v1/solve"]["post"]["responses"]["403"])


def test_a_typed_key_is_judged_live_at_the_key(app):
    t = login(app.test_client(), "ana")
    r = t.post("/api/v1/table/check", json={"scenario": TRICK, "kind": "trick-winner", "key": "2", "lang": "en"})
    body = r.get_json()
    assert r.status_code == 200 and body["ok"] is False
    assert body["errors"]["expect"].startswith("The engine disagrees with this key. Its answer:")
    assert body["answer"]["winner"] == 3  # the engine's answer is still shown on the table
    # the same message as on save
    qid = new_quiz(t)
    saved = add_authored(t, qid, TRICK, "2")
    assert saved.status_code == 400 and "The engine disagrees with this key" in saved.text
    assert t.post("/api/v1/table/check", json={"scenario": TRICK, "key": "4"}).status_code == 400  # key needs kind
    ok = t.post("/api/v1/table/check", json={"scenario": TRICK, "kind": "trick-winner", "key": "4"}).get_json()
    assert ok["ok"] is True and ok["errors"] == {}


# ------------------------------------------------------------------------------ export / import

def test_stored_teacher_quizzes_are_valid_quiz_files(app):
    _t, qid = _teacher_quiz(app)
    doc = quiz_doc(app, qid)
    files = files_of(doc)
    assert [r for r, _d in files] == ["hokm"]
    quiz = check_document(files[0][1])
    assert [q.points for q in quiz.questions] == [4, 2]


def _pdf_text(data: bytes, tmp_path) -> str:
    assert data.startswith(b"%PDF-")
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    if not shutil.which("pdftotext"):
        unavailable("pdftotext", "not on PATH", "install poppler-utils (apt-get install poppler-utils)")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_teacher_quiz_downloads(app, tmp_path):
    t, qid = _teacher_quiz(app)
    doc = quiz_doc(app, qid)
    page = t.get(f"/fa/teach/quizzes/{qid}?sheet=te").text
    for path in (f"/te/teach/quizzes/{qid}/worksheet/hokm", f"/te/teach/quizzes/{qid}/worksheet/hokm/pdf",
                 f"/te/teach/quizzes/{qid}/export/hokm/moodle.xml", f"/fa/teach/quizzes/{qid}/export/hokm.yaml"):
        assert f'href="{path}' in page, path
    assert 'class="pdf-link"' in page and "worksheet.js" in page and 'class="pdf-status"' in page
    # YAML: the stored questions, value for value (points too)
    r = t.get(f"/en/teach/quizzes/{qid}/export/hokm.yaml")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    back = yaml.safe_load(r.text)
    assert back["ruleset"] == "hokm" and same_value(back["questions"], doc["questions"])
    # Moodle XML: two questions, keyed by the engine, grades = points
    r = t.get(f"/en/teach/quizzes/{qid}/export/hokm/moodle.xml")
    root = etree.fromstring(r.data)
    questions = [q for q in root.findall("question") if q.get("type") != "category"]
    assert len(questions) == 2
    assert [q.findtext("defaultgrade") for q in questions] == ["4", "2"]
    assert questions[0].get("type") == "multichoice"
    right = [a.findtext("text") for a in questions[0].findall("answer") if float(a.get("fraction")) > 0]
    assert right == ["your left-hand opponent — jack of spades"]  # seat 3 wins with the jack of trumps
    r = t.get(f"/en/teach/quizzes/{qid}/export/hokm/gift.txt")
    assert r.status_code == 200 and r.text.count("::") >= 4 and "$CATEGORY:" in r.text
    # worksheet and key in Persian: right to left, the progress script, the key's reasons
    r = t.get(f"/fa/teach/quizzes/{qid}/worksheet/hokm")
    assert 'dir="rtl"' in r.text and "worksheet.js" in r.text and "Trumps and tricks" in r.text
    assert 'class="key-box"' not in r.text
    key = t.get(f"/fa/teach/quizzes/{qid}/worksheet/hokm?key=1").text
    assert key.count('class="key-box"') == 2 and key.count('class="reasons"') == 2 and 'dir="rtl"' in key
    text = " ".join(_pdf_text(fetch_pdf(t, f"/en/teach/quizzes/{qid}/worksheet/hokm/pdf").data, tmp_path).split())
    assert "Trumps and tricks" in text and "highest trump" not in text
    key_text = " ".join(_pdf_text(fetch_pdf(t, f"/en/teach/quizzes/{qid}/worksheet/hokm/pdf?key=1").data,
                                  tmp_path).split())
    assert "Trumps and tricks: answer key" in key_text and "The jack of spades is the highest trump" in key_text
    # isolation: another teacher gets 404 for every one; a visitor is sent to log in
    bob = login(app.test_client(), "bob")
    visitor = app.test_client()
    for path in (f"/en/teach/quizzes/{qid}/export/hokm.yaml", f"/en/teach/quizzes/{qid}/export/hokm/moodle.xml",
                 f"/en/teach/quizzes/{qid}/export/hokm/gift.txt", f"/en/teach/quizzes/{qid}/worksheet/hokm",
                 f"/en/teach/quizzes/{qid}/worksheet/hokm/pdf?key=1"):
        assert bob.get(path).status_code == 404, path
        r = visitor.get(path)
        assert r.status_code == 302 and "/teach/login" in r.headers["Location"], path
    assert t.get(f"/en/teach/quizzes/{qid}/export/trinidad.yaml").status_code == 404  # no question of that game


def test_import_a_quiz_file(app):
    t, qid = _teacher_quiz(app)
    text = t.get(f"/en/teach/quizzes/{qid}/export/hokm.yaml").text
    other = new_quiz(t, "Copy")
    r = post(t, f"/en/teach/quizzes/{other}/import", {"import-text": text}, page=f"/en/teach/quizzes/{other}")
    assert r.status_code == 302, r.text
    a, b = quiz_doc(app, qid)["questions"], quiz_doc(app, other)["questions"]
    assert same_value(a, b)
    # an upload, into the same quiz: ids already there get fresh ones
    from io import BytesIO
    url = f"/en/teach/quizzes/{other}/import"
    token = csrf_of(t.get(f"/en/teach/quizzes/{other}").text)
    r = t.post(url, data={"csrf_token": token, "import-upload": (BytesIO(text.encode()), "quiz.yaml")},
               content_type="multipart/form-data")
    assert r.status_code == 302
    b = quiz_doc(app, other)["questions"]
    assert len(b) == 4 and len({q["id"] for q in b}) == 4
    # a wrong key: the engine's problem beside the field, with its line; nothing added
    bad = text.replace('"winner": 3', '"winner": 1', 1)
    assert bad != text
    line = next(i for i, ln in enumerate(bad.splitlines(), 1) if '"winner": 1' in ln)
    r = post(t, url, {"import-text": bad}, page=f"/en/teach/quizzes/{other}")
    assert r.status_code == 400
    error = re.search(r'id="import-text-error"[^>]*>(.*?)</p>', r.text).group(1)
    problems = re.findall(r'<span class="problem">(.*?)</span>', error)
    assert problems and all(p.startswith("Line ") for p in problems), error
    assert f'Line {line}: <bdi lang="en" dir="ltr">question' in error and "the engine says 3" in error, error
    assert len(quiz_doc(app, other)["questions"]) == 4
    r = post(t, url, {"import-text": "ruleset: hokm\nquestions: [\n"}, page=f"/en/teach/quizzes/{other}")
    assert r.status_code == 400 and 'id="import-text-error"' in r.text
    assert login(app.test_client(), "bob").post(url).status_code in (400, 404)


# ------------------------------------------------------------------------------ ratings

def test_class_statistics_show_glicko2_ratings(app):
    t, qid = _teacher_quiz(app)
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    doc = quiz_doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])
    for name, seat, right in (("Zari", "0", False), ("Omid", "3", True), ("Sara", "1", False)):
        c = app.test_client()
        join(c, code, name)
        answer(c, cid, aid, 1, {"seat": seat})
        answer(c, cid, aid, 1, {"seat": "3"})  # a second try does not rate again
        answer(c, cid, aid, 2, form_for(ex2, expected(ex2) if right else wrong_value(ex2, expected(ex2))))
    page = t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    assert "Rating (Glicko-2)" in page
    cells = re.findall(r'<td class="rating">([^<]*)', page)
    assert len(cells) == 2
    ratings = [int(c.split("±")[0].replace(",", "").strip()) for c in cells]
    # two of three first tries wrong: both questions rated above the prior of difficulty 1
    from tutor.domain.ratings import prior
    assert all(r > prior(1).rating for r in ratings), (ratings, prior(1))
    with app.app_context():
        from tutor.domain.models import QuestionRating
        db = app.extensions["tutor_db"]()
        row = db.get(QuestionRating, f"class:{aid}:{doc['questions'][0]['id']}")
        assert (row.attempts, row.right) == (3, 1)
        db.close()


def _fingerprints_after_upgrade(tmp_path, revision: str, rows: list[tuple[str, dict]]) -> list[tuple]:
    """Upgrade a database made at ``revision`` holding a teacher, a class and ``rows`` (SQL, params)
    to the head; the class_fingerprint rows then, by assignment and place."""
    import sqlalchemy as sa

    from tutor.migrations import upgrade

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    assert upgrade(url, revision)[1] == revision
    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO teacher (id, name, password_hash, created_at) VALUES (1, 'ana', 'x', '2026-12-01')"))
        c.execute(sa.text("INSERT INTO classroom (id, teacher_id, name, code, created_at) "
                          "VALUES (1, 1, '7B', 'ABCDEFGH', '2026-12-01')"))
        for sql, params in rows:
            c.execute(sa.text(sql), params)
    upgrade(url)
    with engine.connect() as c:
        found = c.execute(sa.text("SELECT assignment_id, position, fingerprint FROM class_fingerprint "
                                  "ORDER BY assignment_id, position")).all()
    engine.dispose()
    return [tuple(r) for r in found]


def test_the_fingerprints_revision_fills_in_quizzes_assigned_before_it(tmp_path):
    """A database at the teacher revision with a quiz already assigned: upgrading stores the
    fingerprints of its questions, so the refusal holds for it too."""
    generated = {"ruleset": "hokm", "ask": "legal-plays", "trump": "C", "hand": ["3S", "QD", "3H"], "trick": ["9H"]}
    doc = {"title": "Old", "questions": [{"id": "a", "kind": "trick-winner", "scenario": TRICK},
                                         {"id": "b", "kind": "legal-cards", "scenario": generated}]}
    rows = _fingerprints_after_upgrade(tmp_path, "teacher", [
        ("INSERT INTO assignment (id, classroom_id, title, quiz_doc, created_at) VALUES (5, 1, 'Old', :doc, '2026-12-01')",
         {"doc": json.dumps(doc)}),
        (("INSERT INTO assignment (id, classroom_id, title, ruleset, unit, created_at) "
          "VALUES (6, 1, 'Unit', 'hokm', 1, '2026-12-01')"), {})])
    assert rows == [(5, 1, fingerprint(TRICK)), (5, 2, fingerprint(generated))]


def test_the_fingerprints_are_made_again_without_the_options(tmp_path):
    """A database at the revision before: its fingerprints were made with the table's options;
    upgrading makes every one again as the code makes it now, for quizzes and lessons."""
    doc = {"title": "Old", "questions": [{"id": "a", "kind": "trick-winner", "scenario": TRICK}]}
    lesson = {"ruleset": "hokm", "lang": "en", "title": "T", "goal": "G",
              "body": "Who wins?\n\n```exercise\nid: e1\nkind: trick-winner\nprompt: Who wins?\ndifficulty: 1\n"
                      f"scenario: {json.dumps(TRICK)}\nexpect: {{winner: 3}}\n```\n"}
    rows = _fingerprints_after_upgrade(tmp_path, "played", [
        ("INSERT INTO assignment (id, classroom_id, title, quiz_doc, created_at) VALUES (5, 1, 'Old', :doc, '2026-12-01')",
         {"doc": json.dumps(doc)}),
        (("INSERT INTO assignment (id, classroom_id, title, lesson_doc, created_at) "
          "VALUES (6, 1, 'Lesson', :doc, '2026-12-01')"), {"doc": json.dumps(lesson)}),
        ("INSERT INTO class_fingerprint (assignment_id, position, fingerprint) VALUES (5, 1, :fp)",
         {"fp": "0" * 64})])  # as an older code made it
    assert rows == [(5, 1, fingerprint(TRICK)), (6, 1, fingerprint(TRICK))]


def test_the_teacher_pdf_is_rate_limited(tmp_path, app_database):
    app = make_app(tmp_path, DATABASE_URL=app_database, RATE_LIMITS={"pdf": counted("1/day")})
    with app.app_context():
        db = app.extensions["tutor_db"]()
        add_teacher(db, "ana", PASSWORDS["ana"])
        db.commit()
        db.close()
    try:
        t, qid = _teacher_quiz(app)
        assert fetch_pdf(t, f"/en/teach/quizzes/{qid}/worksheet/hokm/pdf").status_code == 200
        r = t.get(f"/en/teach/quizzes/{qid}/worksheet/hokm/pdf?key=1")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        assert t.get(f"/en/teach/quizzes/{qid}/worksheet/hokm?key=1").status_code == 200  # the page is not limited
    finally:
        dispose(app)


def test_a_quiz_of_two_games_exports_one_file_per_game(app):
    t, qid = _teacher_quiz(app)
    data = {"g-ruleset": "trinidad", "g-gkind": "turn-up", "g-difficulty": "1", "g-seed": "3", "g-points": "5",
            "action": "add"}
    assert post(t, f"/en/teach/quizzes/{qid}/generated", data, page=f"/en/teach/quizzes/{qid}").status_code == 302
    doc = quiz_doc(app, qid)
    assert [r for r, _d in files_of(doc)] == ["hokm", "trinidad"]
    page = t.get(f"/en/teach/quizzes/{qid}").text
    assert page.count('class="download-group"') == 2 and "1 question" in page and "2 questions" in page
    hokm = yaml.safe_load(t.get(f"/en/teach/quizzes/{qid}/export/hokm.yaml").text)
    trinidad = yaml.safe_load(t.get(f"/en/teach/quizzes/{qid}/export/trinidad.yaml").text)
    assert same_value(hokm["questions"] + trinidad["questions"], doc["questions"])
    assert trinidad["ruleset"] == "trinidad" and trinidad["questions"][0]["points"] == 5
    sheet = t.get(f"/en/teach/quizzes/{qid}/worksheet/trinidad").text
    assert "<h1>Trumps and tricks · All Fours (Trinidad)</h1>" in sheet
