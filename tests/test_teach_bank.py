"""The question bank and the random draw (issue 18): the bank page's categories (game, exercise
kind, rule point, the teacher's tags), tags, isolation between teachers, a draw of N questions per
learner (each learner their own seeded set, the same on every reload, graded by the engine,
refused by the public API, in the results), and bad input. Helpers: teach_support.
"""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys

import pytest
from sqlalchemy import select
from teach_support import (  # noqa: F401
    DUE,
    TRICK,
    add_authored,
    add_generated,
    answer,
    join,
    login,
    new_class,
    new_quiz,
    post,
    teachers,
)
from web_support import expected, form_for, wrong_value

from tutor.domain import assignments as A
from tutor.domain import bank as B
from tutor.domain.models import Assignment, ClassAttempt, ClassFingerprint, Membership, QuestionTag
from tutor.domain.quizdoc import exercise_of
from tutor.solve.fingerprint import fingerprint

#: Three trick-winner questions: Hokm (trump wins: H16), Hokm (the suit led wins: H16), Trinidad (T16).
HOKM_LED = {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "KD", "QD", "JD"]}
TRINIDAD = {"ruleset": "trinidad", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}
#: Seeds of the generated Hokm legal-cards questions (six of them: the pool of the draws).
SEEDS = (11, 12, 13, 14, 15, 16)


def _db(app):
    return app.extensions["tutor_db"]()


def _ana_bank(app):
    """Ana (logged in) with two quizzes: "Tricks" (the two Hokm trick-winner questions and the
    six generated Hokm legal-cards ones) and "Trinidad" (one trick-winner question)."""
    t = login(app.test_client(), "ana")
    qid = new_quiz(t, "Tricks")
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    assert add_authored(t, qid, HOKM_LED, "1").status_code == 302
    for seed in SEEDS:
        assert add_generated(t, qid, seed=seed, points=1).status_code == 302
    other = new_quiz(t, "Trinidad")
    assert add_authored(t, other, TRINIDAD, "4").status_code == 302
    return t, qid, other


def _count(page: str) -> tuple[int, int]:
    """``(questions shown, questions in the bank)`` from the page's count line."""
    m = re.search(r'id="bank-count">(\d+) of your (\d+) questions<', page)
    assert m, page[:2000]
    return int(m.group(1)), int(m.group(2))


def _shown(page: str) -> list[tuple[str, int]]:
    """``(quiz title, place)`` of each question listed, in order."""
    return [(q, int(n)) for q, n in re.findall(r"<bdi>([^<]+)</bdi>, question (\d+)</a>", page)]


def _question_ids(app, qid):
    with app.app_context():
        db = _db(app)
        from tutor.domain.models import TeacherQuiz
        ids = [q["id"] for q in db.get(TeacherQuiz, qid).doc["questions"]]
        db.close()
    return ids


def _tag(client, quiz, question, tag, action="add", query=""):
    return post(client, f"/en/teach/bank/tags{query}", {"quiz": str(quiz), "question": question, "tag": tag,
                                                         "action": action}, page="/en/teach/bank")


def test_the_bank_lists_the_teachers_questions_by_each_category(app):
    t, qid, other = _ana_bank(app)
    page = t.get("/en/teach/bank")
    assert page.status_code == 200 and _count(page.text) == (9, 9)
    assert _shown(page.text) == [("Tricks", n) for n in range(1, 9)] + [("Trinidad", 1)]
    # game
    assert _count(t.get("/en/teach/bank?ruleset=trinidad").text) == (1, 9)
    assert _count(t.get("/en/teach/bank?ruleset=hokm").text) == (8, 9)
    assert _count(t.get("/en/teach/bank?ruleset=all-fours").text) == (0, 9)
    # exercise kind
    assert _count(t.get("/en/teach/bank?kind=legal-cards").text) == (6, 9)
    assert _count(t.get("/en/teach/bank?kind=trick-winner").text) == (3, 9)
    assert _count(t.get("/en/teach/bank?kind=trick-winner&ruleset=hokm").text) == (2, 9)
    # rule point, as the engine's reasons cite it: the rule chips and the filter agree
    shown = t.get("/en/teach/bank?rule=T16").text
    assert _count(shown) == (1, 9) and _shown(shown) == [("Trinidad", 1)]
    hokm_trick = t.get("/en/teach/bank?rule=H16").text
    assert _count(hokm_trick) == (2, 9) and _shown(hokm_trick) == [("Tricks", 1), ("Tricks", 2)]
    assert '<option value="T16">T16 ' in page.text  # the rule points of the bank are the choices
    legal = B.rules_of({"kind": "legal-cards", "scenario": exercise_of(
        {"id": "x", "kind": "legal-cards", "scenario": _scenario(app, qid, 3)}).scenario})
    assert legal and "H16" not in legal
    # a tag: on two questions of two quizzes
    ids = _question_ids(app, qid)
    assert _tag(t, qid, ids[2], "Follow suit").status_code == 302
    assert _tag(t, other, _question_ids(app, other)[0], "follow suit").status_code == 302
    tagged = t.get("/en/teach/bank?tag=Follow+suit").text
    assert _count(tagged) == (2, 9) and _shown(tagged) == [("Tricks", 3), ("Trinidad", 1)]
    assert _count(t.get("/en/teach/bank?tag=Follow+suit&ruleset=hokm").text) == (1, 9)


def _scenario(app, qid, n):
    with app.app_context():
        db = _db(app)
        from tutor.domain.models import TeacherQuiz
        sc = db.get(TeacherQuiz, qid).doc["questions"][n - 1]["scenario"]
        db.close()
    return sc


@pytest.mark.both_databases
def test_tags_are_added_once_removed_and_checked(app):
    t, qid, _other = _ana_bank(app)
    first = _question_ids(app, qid)[0]
    r = _tag(t, qid, first, "  trumps   first ", query="?kind=trick-winner")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/en/teach/bank?kind=trick-winner#q-{qid}-{first}")
    assert _tag(t, qid, first, "TRUMPS FIRST").status_code == 302  # the same tag, case ignored: not twice
    with app.app_context():
        db = _db(app)
        assert [x.tag for x in db.scalars(select(QuestionTag))] == ["trumps first"]
        db.close()
    page = t.get("/en/teach/bank").text
    assert "<bdi>trumps first</bdi>" in page and '<option value="trumps first">trumps first</option>' in page
    # empty or too long: the message beside that question's field, 400, nothing written
    r = _tag(t, qid, first, "   ")
    assert r.status_code == 400 and "This field is required." in r.text and 'id="tag-1-error"' in r.text
    r = _tag(t, qid, first, "x" * 41)
    assert r.status_code == 400 and "At most 40 characters." in r.text
    # a question id that is not in the quiz: 404
    assert _tag(t, qid, "no-such-question", "x").status_code == 404
    assert _tag(t, qid, first, "x", action="rename").status_code == 400
    # removed (case ignored)
    assert _tag(t, qid, first, "Trumps First", action="remove").status_code == 302
    with app.app_context():
        db = _db(app)
        assert db.scalars(select(QuestionTag)).all() == []
        db.close()
    assert _count(t.get("/en/teach/bank?tag=").text) == (9, 9)


def test_each_teacher_sees_and_tags_only_their_own_questions(app):
    t, qid, _other = _ana_bank(app)
    first = _question_ids(app, qid)[0]
    assert _tag(t, qid, first, "ana-only").status_code == 302
    bob = login(app.test_client(), "bob")
    page = bob.get("/en/teach/bank")
    assert page.status_code == 200 and _count(page.text) == (0, 0) and "Tricks" not in page.text
    assert "ana-only" not in page.text
    bq = new_quiz(bob, "Bob's")
    assert add_authored(bob, bq, HOKM_LED, "1").status_code == 302
    page = bob.get("/en/teach/bank").text
    assert _count(page) == (1, 1) and _shown(page) == [("Bob&#39;s", 1)]
    # Ana's tag is not one of Bob's choices: a bad filter, the message beside the field
    r = bob.get("/en/teach/bank?tag=ana-only")
    assert r.status_code == 400 and "Not a valid choice." in r.text
    # Bob cannot tag Ana's question, nor take her tag off
    assert _tag(bob, qid, first, "mine now").status_code == 404
    assert _tag(bob, qid, first, "ana-only", action="remove").status_code == 404
    with app.app_context():
        db = _db(app)
        assert [(x.teacher_id, x.tag) for x in db.scalars(select(QuestionTag))] == [(1, "ana-only")]
        db.close()
    # Ana's bank is still hers alone
    assert _count(t.get("/en/teach/bank").text) == (9, 9)
    # nor assign a draw to Ana's class (not among his classes: the message beside the field)
    cid, _code = new_class(t, "Ana's class")
    new_class(bob, "Bob's class")
    r = post(bob, "/en/teach/bank/draw", {"classroom": str(cid), "n": "1"}, page="/en/teach/bank")
    assert r.status_code == 400 and re.search(r'id="classroom-error" role="alert">Not a valid choice.', r.text)
    r = post(bob, "/en/teach/bank/draw", {"n": "1"}, page="/en/teach/bank")
    assert r.status_code == 400
    assert _assignments(app) == []


def _assignments(app):
    with app.app_context():
        db = _db(app)
        rows = db.scalars(select(Assignment)).all()
        db.close()
    return rows


def _draw(t, cid, n, query="?kind=legal-cards", **extra):
    return post(t, f"/en/teach/bank/draw{query}", {"classroom": str(cid), "n": str(n), "due": DUE, **extra},
                page=f"/en/teach/bank{query}")


NICKS = ("Zari", "Omid", "Sara", "Navid", "Lale", "Reza")


def _learners(app, code):
    clients = {}
    for nick in NICKS:
        c = app.test_client()
        join(c, code, nick)
        clients[nick] = c
    with app.app_context():
        db = _db(app)
        ids = {m.nickname: m.learner_id for m in db.scalars(select(Membership))}
        db.close()
    return clients, ids


def _the_draw(app):
    with app.app_context():
        db = _db(app)
        a = db.scalars(select(Assignment)).one()
        db.expunge(a)
        db.close()
    return a


def _without_tokens(html: str) -> str:
    """A page with its CSRF tokens blanked: a token carries the second it was signed in, so two
    requests a second apart differ there and nowhere else."""
    return re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value=""', html)


def test_a_draw_gives_each_learner_their_own_n_questions_the_same_on_reload(app):
    t, _qid, _other = _ana_bank(app)
    cid, code = new_class(t)
    r = _draw(t, cid, 3)
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/en/teach/classes/{cid}")
    a = _the_draw(app)
    kind = A.kind_of(a)
    assert isinstance(kind, A.DrawAssignment) and kind.rule(a) == (3, B.Filter(kind="legal-cards"))
    assert a.title == "Random draw: 3 of 6 (Legal cards)" and len(a.quiz_doc["questions"]) == 6
    assert {q["kind"] for q in a.quiz_doc["questions"]} == {"legal-cards"}
    clients, ids = _learners(app, code)
    sets = {}
    for nick, c in clients.items():
        mine = kind.learner_questions(a, ids[nick])
        places = [p for p, _q in mine]
        assert len(places) == 3 and len(set(places)) == 3 and all(1 <= p <= 6 for p in places)
        assert places == [p for p, _q in kind.learner_questions(a, ids[nick])]  # the same each time
        sets[nick] = frozenset(places)
        # the learner's pages: questions 1..3 of 3, a fourth is a 404, the same page on reload
        first = c.get(f"/en/classes/{cid}/assignments/{a.id}/1")
        assert first.status_code == 200 and "Question 1 of 3" in first.text
        again = c.get(f"/en/classes/{cid}/assignments/{a.id}/1")
        assert _without_tokens(again.text) == _without_tokens(first.text)  # a token is signed with the second
        assert c.get(f"/en/classes/{cid}/assignments/{a.id}/4").status_code == 404
        overview = c.get(f"/en/classes/{cid}/assignments/{a.id}/")
        assert overview.headers["Location"].endswith(f"/assignments/{a.id}/1")
    assert len(set(sets.values())) >= 3, sets  # six learners: different sets (20 possible)
    assert len(frozenset().union(*sets.values())) > 3
    # the draw itself: seeded by assignment and learner, n different places
    assert B.draw(6, 3, a.id, ids["Zari"]) == B.draw(6, 3, a.id, ids["Zari"])
    assert B.draw(6, 3, a.id, ids["Zari"]) != B.draw(6, 3, a.id + 1, ids["Zari"]) or \
        B.draw(6, 3, a.id + 2, ids["Zari"]) != B.draw(6, 3, a.id, ids["Zari"])
    assert sorted(B.draw(6, 9, 1, 1)) == [1, 2, 3, 4, 5, 6] and B.draw(6, 0, 1, 1) == []


def test_drawn_answers_are_graded_by_the_engine_and_scored_in_the_results(app):
    t, _qid, _other = _ana_bank(app)
    cid, code = new_class(t)
    assert _draw(t, cid, 2).status_code == 302
    a = _the_draw(app)
    kind = A.kind_of(a)
    clients, ids = _learners(app, code)
    zari, omid = clients["Zari"], clients["Omid"]
    z = kind.learner_questions(a, ids["Zari"])
    ex1, ex2 = exercise_of(z[0][1]), exercise_of(z[1][1])
    right = expected(ex1)
    assert answer(zari, cid, a.id, 1, form_for(ex1, right)).status_code == 302
    assert answer(zari, cid, a.id, 2, form_for(ex2, wrong_value(ex2, expected(ex2)))).status_code == 302
    with app.app_context():
        db = _db(app)
        got = [(x.position, x.correct) for x in db.scalars(select(ClassAttempt).order_by(ClassAttempt.id))]
        db.close()
    assert got == [(z[0][0], True), (z[1][0], False)]  # stored at their places in the pool
    fb = zari.get(f"/en/classes/{cid}/assignments/{a.id}/2/feedback")
    assert fb.status_code == 200 and "Question 2 of 2" in fb.text
    res = zari.get(f"/en/classes/{cid}/assignments/{a.id}/results")
    assert res.status_code == 200 and "1 of 2" in res.text
    # Omid's question 1 is his own: Zari's right answer is graded against his question
    o = kind.learner_questions(a, ids["Omid"])
    oex = exercise_of(o[0][1])
    assert answer(omid, cid, a.id, 1, form_for(oex, expected(oex))).status_code == 302
    # the class page and the teacher's results: each learner's score out of their own 2 questions
    page = t.get(f"/en/teach/classes/{cid}").text
    assert "1 of 2 points, 2 of 2 answered" in page and "1 of 2 points, 1 of 2 answered" in page
    results = t.get(f"/en/teach/classes/{cid}/assignments/{a.id}")
    assert results.status_code == 200 and results.text.count("not drawn for this learner") == 6 * (6 - 2)
    # the CSV: each learner's own two questions, by their place in the pool
    text = t.get(f"/en/teach/classes/{cid}/assignments/{a.id}/results.csv").text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 1 + len(NICKS) * 2
    assert [(r[3], r[8]) for r in rows if r[2] == "Zari"] == [(str(z[0][0]), "yes"), (str(z[1][0]), "no")]
    # the learner's class page: their score out of their own questions
    mine = zari.get("/en/classes/").text
    assert "2 of 2 answered" in mine and "score 1 of 2" in mine


def test_the_public_api_refuses_every_scenario_of_the_draws_pool(app):
    t, _qid, _other = _ana_bank(app)
    cid, code = new_class(t)
    learner = app.test_client()
    assert learner.post("/api/v1/solve", json=HOKM_LED).status_code == 200  # not yet a class question
    assert _draw(t, cid, 1, query="?kind=trick-winner&ruleset=hokm").status_code == 302
    a = _the_draw(app)
    pool = [q["scenario"] for q in a.quiz_doc["questions"]]
    assert len(pool) == 2
    with app.app_context():
        db = _db(app)
        stored = {f.fingerprint for f in db.scalars(select(ClassFingerprint))}
        db.close()
    assert stored == {fingerprint(s) for s in pool}
    join(learner, code, "Zari")
    for scenario in pool:  # drawn for this learner or not: refused
        r = learner.post("/api/v1/solve", json=scenario)
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "class-question"
    assert learner.post("/api/v1/solve", json=TRINIDAD).status_code == 200  # not in the category


@pytest.mark.parametrize(("query", "n", "field", "message"), [
    ("?kind=legal-cards", "7", "n", "This category holds 6 questions: draw from 1 to 6."),
    ("?ruleset=all-fours", "1", "n", "None of your questions is in this category."),
    ("?kind=no-such-kind", "1", "kind", "Not a valid choice."),
    ("?rule=Z99", "1", "rule", "Not a valid choice."),
    ("?kind=legal-cards", "0", "n", "A whole number from 1 to 50."),
    ("?kind=legal-cards", "three", "n", "Not a valid integer value."),
    ("?kind=legal-cards", "", "n", "This field is required."),
])
def test_bad_draws_come_back_with_the_message_beside_the_field(app, query, n, field, message):
    t, _qid, _other = _ana_bank(app)
    cid, _code = new_class(t)
    r = _draw(t, cid, n, query=query)
    assert r.status_code == 400
    assert re.search(rf'id="{field}-error" role="alert">[^<]*{re.escape(message)}', r.text), r.text[-3000:]
    assert _assignments(app) == []


def test_a_draw_assigned_again_or_due_in_the_past_is_refused(app):
    t, _qid, _other = _ana_bank(app)
    cid, _code = new_class(t)
    assert _draw(t, cid, 2).status_code == 302
    r = _draw(t, cid, 2)
    assert r.status_code == 400 and "This is already assigned to this class." in r.text
    r = _draw(t, cid, 3, due="2001-01-01")
    assert r.status_code == 400 and "The due date has passed" in r.text
    assert len(_assignments(app)) == 1
    # another count of the same category is another draw; a title of the teacher's own
    assert _draw(t, cid, 3, title="Week 3 practice").status_code == 302
    assert [x.title for x in _assignments(app)] == ["Random draw: 2 of 6 (Legal cards)", "Week 3 practice"]


def test_a_bad_filter_on_the_bank_page_is_a_message_not_a_500(app):
    t, _qid, _other = _ana_bank(app)
    r = t.get("/en/teach/bank?ruleset=poker")
    assert r.status_code == 400 and re.search(r'id="ruleset-error" role="alert">Not a valid choice.', r.text)
    assert _count(r.text) == (9, 9)  # the whole bank shown
    assert t.get("/fa/teach/bank?kind=beg").status_code == 200
    # behind log-in
    assert app.test_client().get("/en/teach/bank").status_code == 302


def test_the_draw_is_the_same_in_every_process():
    """The seed is SHA-256 of ``draw:<assignment>:<learner>``, not Python's salted ``hash``: a
    learner keeps their questions after a restart and on another worker. These values are pinned:
    a change of the seeding would give learners other questions in the middle of an assignment."""
    assert B.draw(6, 3, 1, 1) == [5, 4, 6]
    assert B.draw(6, 3, 1, 2) == [3, 5, 2]
    assert B.draw(10, 4, 7, 42) == [6, 3, 5, 7]
    out = subprocess.run([sys.executable, "-c", "from tutor.domain.bank import draw; print(draw(10, 4, 7, 42))"],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "987"}).stdout
    assert out.strip() == "[6, 3, 5, 7]"


def test_a_draw_cannot_run_live_a_quiz_can(app):
    """Whether an assignment can run live is its kind's (``can_run_live``): the class page offers
    "Run it live" for the quiz and not for the draw, and the live start refuses the draw (400, the
    message on the error page, no session)."""
    from teach_support import assign

    from tutor.domain.models import LiveSession

    t, qid, _other = _ana_bank(app)
    cid, _code = new_class(t)
    quiz = assign(t, cid, qid)
    assert _draw(t, cid, 2).status_code == 302
    draw = next(a for a in _assignments(app) if a.id != quiz)
    assert A.KINDS["quiz"].can_run_live and not A.KINDS["draw"].can_run_live
    assert A.kind_of(draw).can_run_live is False
    page = t.get(f"/en/teach/classes/{cid}").text
    assert f'action="/en/teach/classes/{cid}/assignments/{quiz}/live"' in page
    assert f"/assignments/{draw.id}/live" not in page
    r = post(t, f"/en/teach/classes/{cid}/assignments/{draw.id}/live", {}, page=f"/en/teach/classes/{cid}")
    assert r.status_code == 400
    assert "This assignment cannot run live: a live quiz shows every learner the same question" in r.text
    r = post(t, f"/fa/teach/classes/{cid}/assignments/{draw.id}/live", {}, page=f"/fa/teach/classes/{cid}")
    assert r.status_code == 400, r.text
    assert "این تکلیف زنده اجرا نمی‌شود" in r.text
    with app.app_context():
        db = _db(app)
        assert db.scalars(select(LiveSession)).all() == []
        db.close()
    assert post(t, f"/en/teach/classes/{cid}/assignments/{quiz}/live", {},
                page=f"/en/teach/classes/{cid}").status_code == 302


def test_a_draws_default_title_is_in_the_language_of_the_page(app):
    """A draw given no title of the teacher's own is named by its rule in the language of each page
    that shows it (made in English, read in Persian and Bulgarian); a title of the teacher's own
    stays as typed."""
    t, _qid, _other = _ana_bank(app)
    cid, code = new_class(t)
    assert _draw(t, cid, 2).status_code == 302
    assert _draw(t, cid, 3, title="Week 3 practice").status_code == 302
    default, own = _assignments(app)
    assert A.title_of(default) == default.title == "Random draw: 2 of 6 (Legal cards)"
    fa = t.get(f"/fa/teach/classes/{cid}").text
    assert "قرعهٔ تصادفی: ۲ از ۶ (کارت‌های مجاز)" in fa and "Random draw" not in fa and "Week 3 practice" in fa
    bg = t.get(f"/bg/teach/classes/{cid}/assignments/{default.id}").text
    assert "Random draw" not in bg and "(of 6)" not in bg
    learner = app.test_client()
    join(learner, code, "Zari")
    book = t.get(f"/fa/teach/classes/{cid}/gradebook").text
    assert "قرعهٔ تصادفی: ۲ از ۶" in book
    assert "قرعهٔ تصادفی: ۲ از ۶ (کارت‌های مجاز)" in learner.get("/fa/classes/").text
    api = learner.get(f"/api/v1/classes/{cid}/assignments/{default.id}?lang=fa").json
    assert api["title"] == "قرعهٔ تصادفی: ۲ از ۶ (کارت‌های مجاز)"
    assert learner.get(f"/api/v1/classes/{cid}/assignments/{own.id}?lang=fa").json["title"] == "Week 3 practice"
