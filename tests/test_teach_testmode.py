"""Assignment settings and test mode (issue 18; tutor/domain/settings.py): the settings saved and
checked on the assign form and on their own page, a test's verdicts, keys and reasons held back
in the pages and the JSON API until the close date or the teacher's release, attempts, time
limit, open and close dates, and the shuffles, seeded per learner.

Times are moved in the database (a start or a close date in the past), never waited for."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select
from teach_support import (  # noqa: F401
    DUE,
    TRICK,
    add_authored,
    add_generated,
    join,
    login,
    new_class,
    new_quiz,
    post,
    quiz_doc,
    teachers,
)
from web_support import csrf_of, expected, form_for

from tutor.domain import settings as S
from tutor.domain.db import now
from tutor.domain.models import Assignment, AssignmentStart, ClassAttempt, Membership
from tutor.web.authoring import exercise_of

pytestmark = pytest.mark.both_databases

RIGHT, WRONG = {"seat": "3"}, {"seat": "0"}  # TRICK: the jack of spades, seat 4, wins


def _quiz(t, generated: tuple[int, ...] = (7,)) -> int:
    qid = new_quiz(t)
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    for seed in generated:
        assert add_generated(t, qid, seed=seed).status_code == 302
    return qid


def _assign(t, cid: int, qid: int, **settings) -> object:
    data = {"what": f"quiz:{qid}", "due": DUE, "mode": "practice", **settings}
    return post(t, f"/en/teach/classes/{cid}", data)


def _setup(app, generated: tuple[int, ...] = (7,), **settings):
    """ana's quiz (TRICK and generated questions) assigned to a new class with ``settings``:
    ``(teacher client, quiz id, class id, code, assignment id)``."""
    t = login(app.test_client(), "ana")
    qid = _quiz(t, generated)
    cid, code = new_class(t)
    r = _assign(t, cid, qid, **settings)
    assert r.status_code == 302, r.text
    return t, qid, cid, code, _assignment(app, cid).id


def _assignment(app, cid: int) -> Assignment:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        a = db.scalars(select(Assignment).where(Assignment.classroom_id == cid).order_by(Assignment.id)).all()[-1]
        db.expunge(a)
        db.close()
    return a


def _change(app, aid: int, **values) -> None:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        a = db.get(Assignment, aid)
        for k, v in values.items():
            setattr(a, k, v)
        db.commit()
        db.close()


def _count(app, model) -> int:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        n = db.scalar(select(func.count()).select_from(model))
        db.close()
    return int(n or 0)


def _answer(client, cid: int, aid: int, n: int, fields: dict):
    """POST an answer with a token from a page that always has one (a test's question page may redirect)."""
    token = csrf_of(client.get("/en/classes/").text)
    return client.post(f"/en/classes/{cid}/assignments/{aid}/{n}", data={"csrf_token": token, **fields})


def _learner(app, code: str, nickname: str):
    c = app.test_client()
    join(c, code, nickname)
    return c


def _learner_id(app, cid: int, nickname: str) -> int:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        lid = db.scalar(select(Membership.learner_id).where(Membership.classroom_id == cid,
                                                            Membership.nickname == nickname))
        db.close()
    return int(lid)


KEY_WORDS = ("The right answer", "The full explanation", "Right!", "Not quite.", "Try again")


# --------------------------------------------------------------------------------------- settings

def test_settings_are_saved_when_assigning_and_shown_on_the_class_page(app):
    opens = (now() + timedelta(days=1)).replace(second=0, microsecond=0)
    closes = opens + timedelta(days=2)
    t, _qid, cid, _code, aid = _setup(app, mode="test", attempts="2", time_limit="10",
                                      opens_at=opens.strftime("%Y-%m-%dT%H:%M"),
                                      closes_at=closes.strftime("%Y-%m-%dT%H:%M"),
                                      shuffle_questions="y", shuffle_options="y")
    a = _assignment(app, cid)
    assert (a.mode, a.attempts_allowed, a.time_limit, a.opens_at, a.closes_at, a.shuffle_questions,
            a.shuffle_options, a.released_at) == ("test", 2, 10, opens, closes, True, True, None)
    page = t.get(f"/en/teach/classes/{cid}").text
    assert "Test · 2 attempts · 10 minutes" in page
    assert f"/en/teach/classes/{cid}/assignments/{aid}/settings" in page
    # the defaults: today's practice mode, nothing limited
    t2 = login(app.test_client(), "bob")
    qid = _quiz(t2, ())
    cid2, _ = new_class(t2, "8A")
    assert _assign(t2, cid2, qid).status_code == 302
    b = _assignment(app, cid2)
    assert S.settings_of(b) == S.Settings()


@pytest.mark.parametrize(("changed", "field", "message"), [
    ({"mode": "test"}, "attempts", "A test needs a number of attempts (unlimited is for practice)."),
    ({"attempts": "0"}, "attempts", "A whole number from 1 to 20."),
    ({"attempts": "two"}, "attempts", "Not a valid integer value."),
    ({"time_limit": "601"}, "time_limit", "A whole number from 1 to 600."),
    ({"opens_at": "2030-05-02T10:00", "closes_at": "2030-05-01T10:00"}, "closes_at",
     "The close date must be after the open date."),
    ({"closes_at": "2020-01-01T10:00"}, "closes_at", "This close date has passed: choose a later one."),
    ({"closes_at": "next tuesday"}, "closes_at", "Not a valid datetime value."),
    ({"mode": "exam"}, "mode", "Not a valid choice."),
])
def test_bad_settings_are_a_message_beside_the_field_and_nothing_is_assigned(app, changed, field, message):
    t = login(app.test_client(), "ana")
    qid = _quiz(t, ())
    cid, _ = new_class(t)
    r = _assign(t, cid, qid, **changed)
    assert r.status_code == 400
    m = re.search(rf'<p class="field-error" id="{field}-error" role="alert">([^<]*)</p>', r.text)
    assert m and m.group(1) == message, r.text[-3000:]
    assert f'id="{field}"' in r.text and 'aria-invalid="true"' in r.text
    assert _count(app, Assignment) == 0


def test_the_teacher_edits_the_settings_later_and_only_their_own(app):
    t, _qid, cid, _code, aid = _setup(app, generated=())
    url = f"/en/teach/classes/{cid}/assignments/{aid}/settings"
    page = t.get(url)
    assert page.status_code == 200 and 'name="csrf_token"' in page.text
    assert f'value="{DUE}"' in page.text  # the due date shown as it is
    r = post(t, url, {"due": "", "mode": "test", "attempts": "1", "time_limit": "", "opens_at": "",
                      "closes_at": "2020-01-01T08:30"})  # a past close date: the teacher closes it now
    assert r.status_code == 302
    a = _assignment(app, cid)
    assert (a.mode, a.attempts_allowed, a.closes_at, a.due) == ("test", 1, datetime(2020, 1, 1, 8, 30), None)
    r = post(t, url, {"mode": "test", "attempts": "", "opens_at": "2030-01-02T00:00", "closes_at": "2030-01-01T00:00"})
    assert r.status_code == 400
    assert "The close date must be after the open date." in r.text
    assert "A test needs a number of attempts" in r.text
    assert _assignment(app, cid).attempts_allowed == 1  # nothing written
    bob = login(app.test_client(), "bob")
    assert bob.get(url).status_code == 404
    assert post(bob, url, {"mode": "practice"}, page="/en/teach/").status_code == 404
    assert post(bob, f"/en/teach/classes/{cid}/assignments/{aid}/release", {}, page="/en/teach/").status_code == 404


# ------------------------------------------------------------------------------------------ test mode

def test_a_test_shows_no_key_before_the_close_and_everything_after(app):
    closes = (now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    _t, qid, cid, code, aid = _setup(app, mode="test", attempts="2", closes_at=closes)
    learner = _learner(app, code, "Zari")
    base = f"/en/classes/{cid}/assignments/{aid}"
    r = _answer(learner, cid, aid, 1, WRONG)
    assert r.status_code == 302 and r.headers["Location"].endswith(f"{base}/1/feedback")
    saved = learner.get(f"{base}/1/feedback").text
    assert "Answer saved." in saved
    for word in KEY_WORDS:
        assert word not in saved, word
    assert "your left-hand opponent" not in saved  # the winner, in words
    # a second answer in a test is refused while its results are held (nothing recorded)
    assert learner.get(f"{base}/1").headers["Location"].endswith("/1/feedback")  # the page: saved, no form
    r = _answer(learner, cid, aid, 1, RIGHT)
    assert r.status_code == 403 and "you cannot change it in a test" in r.text
    assert _count(app, ClassAttempt) == 1
    results = learner.get(f"{base}/results").text
    assert "Score:" not in results and "✓" not in results and "✗" not in results
    assert "Answer saved." in results
    assert "score" not in learner.get("/en/classes/").text
    # the JSON API holds them back too
    api = learner.get(f"/api/v1/classes/{cid}/assignments/{aid}").get_json()
    assert api["results_visible"] is False and api["score"] is None and api["mode"] == "test"
    assert api["questions"][0]["answered"] is True
    for q in api["questions"]:
        assert not {"correct", "expected", "why"} & set(q)
        assert "expect" not in q["exercise"] and "key" not in q["exercise"]
    ex2 = exercise_of(quiz_doc(app, qid)["questions"][1])
    r = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/2/answer", json={"answer": expected(ex2)})
    assert r.status_code == 200 and r.get_json() == {"n": 2, "saved": True, "results_visible": False}
    r = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/2/answer", json={"answer": expected(ex2)})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "answered"
    # the close date passes: the verdicts, the key and the reasons are shown
    _change(app, aid, closes_at=now() - timedelta(minutes=1))
    after = learner.get(f"{base}/1/feedback").text
    assert "Not quite." in after and "The right answer" in after and "Why" in after
    assert "Try again" not in after  # closed: no more answers
    assert "Score: 2 of 3 points" in learner.get(f"{base}/results").text
    api = learner.get(f"/api/v1/classes/{cid}/assignments/{aid}").get_json()
    assert api["results_visible"] is True and api["state"] == "closed"
    assert api["questions"][0]["correct"] is False and api["questions"][0]["expected"] == 3
    assert api["questions"][0]["why"] and api["score"] == {"got": 2, "total": 3}
    r = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/1/answer", json={"answer": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "closed"


def test_the_teacher_releases_a_tests_results(app):
    t, _qid, cid, code, aid = _setup(app, generated=(), mode="test", attempts="2")
    learner = _learner(app, code, "Zari")
    base = f"/en/classes/{cid}/assignments/{aid}"
    _answer(learner, cid, aid, 1, WRONG)
    assert "Not quite." not in learner.get(f"{base}/1/feedback").text
    settings = t.get(f"/en/teach/classes/{cid}/assignments/{aid}/settings").text
    assert "Release results" in settings
    r = post(t, f"/en/teach/classes/{cid}/assignments/{aid}/release", {},
             page=f"/en/teach/classes/{cid}/assignments/{aid}/settings")
    assert r.status_code == 302
    assert _assignment(app, cid).released_at is not None
    assert "Release results" not in t.get(f"/en/teach/classes/{cid}/assignments/{aid}/settings").text
    fb = learner.get(f"{base}/1/feedback").text
    assert "Not quite." in fb and "The right answer" in fb
    assert "Try again" in fb  # released before the close, one attempt of two left
    assert _answer(learner, cid, aid, 1, RIGHT).status_code == 302
    fb = learner.get(f"{base}/1/feedback").text
    assert "Right!" in fb and "Try again" not in fb  # both attempts used
    assert _answer(learner, cid, aid, 1, RIGHT).status_code == 403


def test_practice_mode_attempts_are_limited_per_learner_and_question(app):
    _t, _qid, cid, code, aid = _setup(app, generated=(), attempts="2")
    zari, omid = _learner(app, code, "Zari"), _learner(app, code, "Omid")
    base = f"/en/classes/{cid}/assignments/{aid}"
    _answer(zari, cid, aid, 1, WRONG)
    fb = zari.get(f"{base}/1/feedback").text
    assert "Not quite." in fb and "Try again" in fb  # practice: the feedback at once, one attempt left
    _answer(zari, cid, aid, 1, WRONG)
    assert "Try again" not in zari.get(f"{base}/1/feedback").text
    r = _answer(zari, cid, aid, 1, RIGHT)
    assert r.status_code == 403 and "You have used every attempt at this question." in r.text
    assert _answer(omid, cid, aid, 1, WRONG).status_code == 302  # another learner has their own
    assert _count(app, ClassAttempt) == 3


def test_the_time_limit_is_kept_by_the_server(app):
    _t, _qid, cid, code, aid = _setup(app, generated=(), time_limit="10")
    learner = _learner(app, code, "Zari")
    base = f"/en/classes/{cid}/assignments/{aid}"
    start = learner.get(f"{base}/")
    assert start.status_code == 200 and "You have 10 minutes from the moment you start." in start.text
    assert learner.get(f"{base}/1").status_code == 302  # not started: back to the start page
    r = _answer(learner, cid, aid, 1, WRONG)
    assert r.status_code == 403 and "Start the assignment first" in r.text
    assert _count(app, ClassAttempt) == 0
    token = re.search(r'name="csrf_token" value="([^"]+)"', start.text).group(1)
    assert learner.post(f"{base}/start", data={"csrf_token": token}).status_code == 302
    page = learner.get(f"{base}/1").text
    assert 'role="timer"' in page and "testmode.js" in page
    lid = _learner_id(app, cid, "Zari")

    def started(minutes_ago: float) -> None:
        with app.app_context():
            db = app.extensions["tutor_db"]()
            row = db.scalar(select(AssignmentStart).where(AssignmentStart.learner_id == lid))
            row.started_at = now() - timedelta(minutes=minutes_ago)
            db.commit()
            db.close()
    started(10.25)  # over the limit, within the grace
    assert _answer(learner, cid, aid, 1, WRONG).status_code == 302
    started(11)
    r = _answer(learner, cid, aid, 1, RIGHT)
    assert r.status_code == 403 and "Your time is up: answers after the time limit are not recorded." in r.text
    assert _count(app, ClassAttempt) == 1
    r = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/1/answer", json={"answer": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "time-up"


def test_open_and_close_dates_are_kept(app):
    opens = (now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    _t, _qid, cid, code, aid = _setup(app, generated=(), opens_at=opens)
    learner = _learner(app, code, "Zari")
    base = f"/en/classes/{cid}/assignments/{aid}"
    page = learner.get(f"{base}/")
    assert page.status_code == 200 and "This assignment opens" in page.text and "Start" not in page.text
    assert learner.get(f"{base}/1").status_code == 302
    r = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/1/answer", json={"answer": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "not-open"
    _change(app, aid, opens_at=now() - timedelta(minutes=5), closes_at=now() + timedelta(hours=1))
    assert _answer(learner, cid, aid, 1, WRONG).status_code == 302
    _change(app, aid, closes_at=now() - timedelta(seconds=1))
    r = _answer(learner, cid, aid, 1, RIGHT)
    assert r.status_code == 403 and "This assignment is closed" in r.text
    assert learner.get(f"{base}/").headers["Location"].endswith(f"{base}/results")
    assert _count(app, ClassAttempt) == 1


def test_shuffles_are_stable_for_a_learner_and_differ_between_learners(app):
    t = login(app.test_client(), "ana")
    qid = _quiz(t, (3, 5, 7))
    r = post(t, f"/en/teach/quizzes/{qid}/generated", {"g-ruleset": "hokm", "g-gkind": "next-leader",
                                                       "g-difficulty": "1", "g-seed": "4", "g-points": "1",
                                                       "action": "add"}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 302
    cid, code = new_class(t)
    assert _assign(t, cid, qid, shuffle_questions="y", shuffle_options="y").status_code == 302
    aid = _assignment(app, cid).id
    names = ("Zari", "Omid", "Sara", "Nima")
    learners = {name: _learner(app, code, name) for name in names}
    stored = [q["scenario"] for q in quiz_doc(app, qid)["questions"]]

    def order(client) -> list[int]:
        api = client.get(f"/api/v1/classes/{cid}/assignments/{aid}").get_json()
        return [stored.index(q["exercise"]["scenario"]) + 1 for q in api["questions"]]
    orders = {name: order(c) for name, c in learners.items()}
    for name, c in learners.items():
        assert sorted(orders[name]) == [1, 2, 3, 4, 5]  # the trick, three generated, the next leader
        assert order(c) == orders[name]  # the same on every reload
    assert len({tuple(o) for o in orders.values()}) > 1
    a = _assignment(app, cid)
    for name in learners:
        assert orders[name] == S.order(a, _learner_id(app, cid, name), 5)
    # the next-leader question's seat options, in each learner's own order, the same on a reload
    seats = {}
    for name, c in learners.items():
        n = orders[name].index(5) + 1
        html = c.get(f"/en/classes/{cid}/assignments/{aid}/{n}").text
        seats[name] = re.findall(r'name="seat" value="(\d)"', html)
        assert seats[name] == re.findall(r'name="seat" value="(\d)"',
                                         c.get(f"/en/classes/{cid}/assignments/{aid}/{n}").text)
        assert sorted(seats[name]) == ["0", "1", "2", "3"]
    assert len({tuple(s) for s in seats.values()}) > 1
    # an answer is kept under the question's stored place, whatever the learner's order
    zari = learners["Zari"]
    n = orders["Zari"].index(1) + 1
    assert _answer(zari, cid, aid, n, RIGHT).status_code == 302
    with app.app_context():
        db = app.extensions["tutor_db"]()
        row = db.scalar(select(ClassAttempt))
        assert (row.position, row.correct) == (1, True)
        db.close()
    ex = exercise_of(quiz_doc(app, qid)["questions"][orders["Zari"][0] - 1])
    assert _answer(zari, cid, aid, 1, form_for(ex, expected(ex))).status_code == 302
