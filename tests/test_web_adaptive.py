"""Skills and mastery, Glicko-2 ratings, adaptive practice and the progress dashboard (issue 11).

Every answer goes through the app's own pages (a lesson step's form or a quiz question's form), so
what is checked is what a learner's answers write; the expected values are computed here from
the documented models (Bayesian knowledge tracing, the ``glicko2`` package, the ``fsrs``
scheduler) with the same inputs. The app's clock (``CLOCK``) is moved by hand.

The dashboard, mistakes replay and the bounded progress page are in test_web_adaptive_dashboard;
the helpers and the ``clock`` / ``app_config`` fixtures it uses are here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import glicko2
import pytest
from fsrs import Card, Rating, Scheduler
from sqlalchemy import select
from web_support import Clock, csrf_of, expected, form_for
from web_support import wrong_value as wrong_of

from tutor.domain import mastery as skills
from tutor.domain import ratings
from tutor.domain.models import Attempt, LearnerRating, Mistake, QuestionRating, Quiz, SkillMastery
from tutor.web import adaptive
from tutor.web import exercises as X

pytestmark = pytest.mark.both_databases

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday



@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
def app_config(clock):
    return {"CLOCK": clock}


def query(app, stmt):
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return list(db.scalars(stmt))
        finally:
            db.close()


def lesson_exercises(ruleset: str, kind: str):
    """(step, exercise) of every lesson exercise of ``kind`` in ``ruleset``."""
    return [(s, e) for s in X.lesson_path(ruleset).steps for e in s.exercises if e.kind == kind]


def rules_of(ex) -> tuple[str, ...]:
    return skills.rules_of(X.engine_solution(ex)["why"])


def answer_step(client, step, ex, right: bool, lang: str = "en"):
    page = client.get(f"/{lang}/learn/{step.ruleset}/{step.id}").get_data(as_text=True)
    value = expected(ex) if right else wrong_of(ex, expected(ex))
    r = client.post(f"/{lang}/learn/{step.ruleset}/{step.id}/{ex.id}",
                    data=form_for(ex, value) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302


def answer_quiz(client, token: str, n: int, right: bool, lang: str = "en") -> str:
    """Answer question ``n`` of a quiz through its page; returns the exercise's ref."""
    page = client.get(f"/{lang}/quiz/{token}/{n}")
    assert page.status_code == 200
    with client.application.test_request_context(f"/{lang}/"):
        ref = query(client.application, select(Quiz).where(Quiz.token == token))[0].refs[n - 1]
        ex = X.resolve(ref)
    value = expected(ex) if right else wrong_of(ex, expected(ex))
    r = client.post(f"/{lang}/quiz/{token}/{n}",
                    data=form_for(ex, value) | {"csrf_token": csrf_of(page.get_data(as_text=True))})
    assert r.status_code == 302 and r.location.endswith(f"/quiz/{token}/{n}/feedback")
    return ref


def start_adaptive(client, lang: str = "en", **form) -> str:
    page = client.get(f"/{lang}/practice/").get_data(as_text=True)
    r = client.post(f"/{lang}/practice/adaptive", data={"csrf_token": csrf_of(page), **form})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    m = re.search(r"/quiz/([^/]+)/1$", r.location)
    assert m, r.location
    return m.group(1)


def quiz_row(app, token: str) -> Quiz:
    return query(app, select(Quiz).where(Quiz.token == token))[0]


# ---------------------------------------------------------------------------------------------- mastery

def test_bkt_right_raises_wrong_lowers():
    p = skills.PRIOR
    up = skills.bkt_update(p, True)
    down = skills.bkt_update(p, False)
    assert down < p < up
    # the documented formula, by hand: P(L|right) then learning
    post = p * 0.9 / (p * 0.9 + (1 - p) * 0.2)
    assert up == pytest.approx(post + (1 - post) * 0.15)
    for _ in range(4):
        up = skills.bkt_update(up, True)
    assert up >= skills.MASTERED


def test_mastery_moves_with_attempts(client, app):
    step, ex = lesson_exercises("hokm", "legal-cards")[0]
    rules = rules_of(ex)
    assert rules, "a legal-cards verdict cites a rule point"
    answer_step(client, step, ex, right=True)
    rows = query(app, select(SkillMastery).order_by(SkillMastery.rule))
    assert {(r.ruleset, r.kind, r.rule) for r in rows} == {("hokm", "legal-cards", r) for r in rules}
    p1 = skills.bkt_update(skills.PRIOR, True)
    assert all(r.p_known == pytest.approx(p1) and (r.attempts, r.right) == (1, 1) for r in rows)
    answer_step(client, step, ex, right=False)
    rows = query(app, select(SkillMastery))
    p2 = skills.bkt_update(p1, False)
    assert p2 < p1
    assert all(r.p_known == pytest.approx(p2) and (r.attempts, r.right) == (2, 1) for r in rows)
    attempts = query(app, select(Attempt).order_by(Attempt.id))
    assert [a.rules for a in attempts] == [skills.rules_column(rules)] * 2
    assert query(app, select(Mistake.rules)) == [skills.rules_column(rules)]


# ---------------------------------------------------------------------------------------------- ratings

def test_ratings_move_the_right_way(client, app):
    (s1, e1), (s2, e2) = lesson_exercises("hokm", "trick-winner")[:2]
    answer_step(client, s1, e1, right=True)
    learner = query(app, select(LearnerRating))[0]
    q1 = query(app, select(QuestionRating).where(QuestionRating.exercise_ref == X.ref_of(e1)))[0]
    prior = ratings.prior(e1.difficulty)
    assert learner.rating > 1500 and q1.rating < prior.rating
    # the same numbers as the glicko2 package gives for that game
    want_l = glicko2.Player()
    want_l.update_player([prior.rating], [prior.rd], [1])
    want_q = glicko2.Player(rating=prior.rating, rd=prior.rd, vol=prior.vol)
    want_q.update_player([1500], [350], [0])
    assert learner.rating == pytest.approx(want_l.rating) and learner.rd == pytest.approx(want_l.rd)
    assert q1.rating == pytest.approx(want_q.rating) and (q1.attempts, q1.right) == (1, 1)
    before = learner.rating
    answer_step(client, s2, e2, right=False)
    learner = query(app, select(LearnerRating))[0]
    q2 = query(app, select(QuestionRating).where(QuestionRating.exercise_ref == X.ref_of(e2)))[0]
    assert learner.rating < before and q2.rating > ratings.prior(e2.difficulty).rating
    assert (learner.games, q2.attempts, q2.right) == (2, 1, 0)


def test_generated_questions_start_from_the_prior_of_their_difficulty(app):
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            for d, want in ((1, 1300.0), (2, 1500.0), (3, 1700.0)):
                r = ratings.question_rating(db, f"gen:hokm:legal-cards:{d}:7")
                assert (r.rating, r.rd, r.games) == (want, ratings.PRIOR_RD, 0)
        finally:
            db.close()


# ---------------------------------------------------------------------------------------------- practice order

def test_due_reviews_come_in_the_order_fsrs_gives(client, app, clock):
    """Three mistakes answered again at different times: the due step serves them in the order of
    the due dates the fsrs scheduler computes for the same history."""
    exs = lesson_exercises("hokm", "trick-winner")[:3]
    sched = Scheduler(enable_fuzzing=False)
    cards = {}
    for s, e in exs:  # all wrong at T0: new cards due at once
        answer_step(client, s, e, right=False)
        cards[X.ref_of(e)] = Card(due=T0)
    # a scripted history: the first right after 5 minutes, the third right after 2 minutes, the second wrong
    for (s, e), right, minutes in ((exs[0], True, 5), (exs[2], True, 2), (exs[1], False, 1)):
        at = clock.advance(minutes=minutes)
        answer_step(client, s, e, right=right)
        ref = X.ref_of(e)
        cards[ref], _ = sched.review_card(cards[ref], Rating.Good if right else Rating.Again, at)
    clock.advance(days=3)  # all due
    want = sorted(cards, key=lambda ref: cards[ref].due)
    got = [m.exercise_ref for m in query(app, select(Mistake))]
    assert {m.exercise_ref: m.due for m in query(app, select(Mistake))} == {
        ref: c.due.replace(tzinfo=None) for ref, c in cards.items()}
    token = start_adaptive(client, game="hokm", band="right", count="5")
    served = []
    for n in range(1, 4):
        served.append(answer_quiz(client, token, n, right=True))
        assert client.get(f"/en/quiz/{token}/next").status_code == 302
    assert served == want and sorted(got) == sorted(want)
    assert quiz_row(app, token).target["steps"][:3] == ["due", "due", "due"]


def test_practice_order_due_weak_new_retry(client, app, clock):
    """A scripted learner: one review due and its skill weak. A session of five serves the due
    review, then a question on the weak skill, then new material; the new question answered wrong
    makes its skill weak and joins the retry queue, which takes the last place."""
    step, a = lesson_exercises("hokm", "legal-cards")[0]
    answer_step(client, step, a, right=False)
    clock.advance(days=2)
    token = start_adaptive(client, game="hokm", band="right", count="5")
    ref1 = answer_quiz(client, token, 1, right=True)          # 1: the due review
    assert ref1 == X.ref_of(a)
    client.get(f"/en/quiz/{token}/next")
    ref2 = answer_quiz(client, token, 2, right=True)          # 2: the weak skill, another question
    with app.test_request_context("/en/"):
        ex2 = X.resolve(ref2)
    assert ref2 != ref1 and ex2.kind == "legal-cards" and set(rules_of(ex2)) & set(rules_of(a))
    known = {(m.ruleset, m.kind, m.rule) for m in query(app, select(SkillMastery))}
    assert all(m.p_known >= skills.WEAK for m in query(app, select(SkillMastery)))
    client.get(f"/en/quiz/{token}/next")
    ref3 = answer_quiz(client, token, 3, right=False)         # 3: new material, answered wrong
    with app.test_request_context("/en/"):
        ex3 = X.resolve(ref3)
    assert any(("hokm", ex3.kind, r) not in known for r in rules_of(ex3))
    assert quiz_row(app, token).target["retry"] == [ref3]
    client.get(f"/en/quiz/{token}/next")
    answer_quiz(client, token, 4, right=True)                 # 4: that skill is weak now
    client.get(f"/en/quiz/{token}/next")
    ref5 = answer_quiz(client, token, 5, right=True)          # 5: the retry, in the last place
    quiz = quiz_row(app, token)
    assert quiz.target["steps"] == ["due", "weak", "new", "weak", "retry"]
    assert ref5 == ref3 and quiz.target["retry"] == []
    r = client.get(f"/en/quiz/{token}/next")                  # the session is over
    assert r.location.endswith(f"/quiz/{token}/results")
    page = client.get(f"/en/quiz/{token}/4").get_data(as_text=True)
    assert "A rule you find hard" in page


def test_bands_aim_at_easier_and_harder_questions(client, app):
    tokens = {band: start_adaptive(client, game="all-fours", band=band, count="5") for band in adaptive.BANDS}
    first = {}
    with app.test_request_context("/en/"):
        for band, token in tokens.items():
            ex = X.resolve(quiz_row(app, token).refs[0])
            first[band] = ratings.prior(ex.difficulty).rating
    assert first["easier"] < first["right"] < first["harder"]


def test_practise_this_rule(client, app):
    page = client.get("/fa/practice/rule/H14")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "H14" in html and 'name="rule" value="H14"' in html
    assert client.get("/en/practice/rule/NOPE").status_code == 404
    r = client.post("/en/practice/adaptive", data={"csrf_token": csrf_of(html), "rule": "h14", "band": "harder"})
    token = re.search(r"/quiz/([^/]+)/1$", r.location).group(1)
    for n in range(1, 4):
        answer_quiz(client, token, n, right=n != 2)
        client.get(f"/en/quiz/{token}/next")
    quiz = quiz_row(app, token)
    assert quiz.target["rule"] == "H14" and len(quiz.refs) >= 3
    with app.test_request_context("/en/"):
        assert all("H14" in rules_of(X.resolve(ref)) for ref in quiz.refs)
    # every feedback links to "Practise this rule" for the rules its reasons cite
    fb = client.get(f"/en/quiz/{token}/2/feedback").get_data(as_text=True)
    assert "/en/practice/rule/H14" in fb and "Practise rule H14" in fb
