"""Spaced-repetition reviews of mistakes (FSRS): cards, due dates, replay order, progress page.

Expected due dates are computed here by calling the ``fsrs`` scheduler directly with the same
card, rating and time as the app; the app's clock (``CLOCK``) is moved forward by the test.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler, State
from markupsafe import escape
from sqlalchemy import select
from web_support import (
    Clock,
    all_rows,
    csrf_of,
    expected,
    form_for,
    listed_mistakes,
    make_app,
    rows,
)
from web_support import wrong_value as wrong_of

from tutor import i18n
from tutor.domain import review
from tutor.domain.models import Attempt, Mistake, Quiz
from tutor.migrations import head, upgrade
from tutor.web import exercises as X

#: Every review test that answers through the app runs on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_databases

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)



@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
def app_config(clock):
    return {"CLOCK": clock}


def fsrs_scheduler() -> Scheduler:
    """The scheduler the app is documented to use: FSRS defaults, no fuzzing."""
    return Scheduler(enable_fuzzing=False)


def naive(dt: datetime) -> datetime:
    return dt.astimezone(UTC).replace(tzinfo=None)


def exercises(n: int):
    """``n`` hokm trick-winner lesson exercises, (step, exercise) each, from different steps if possible."""
    out = []
    for s in X.lesson_path("hokm").steps:
        for e in s.exercises:
            if e.kind == "trick-winner":
                out.append((s, e))
    assert len(out) >= n
    return out[:n]


def answer(client, step, ex, right: bool, lang: str = "en", status: int = 302):
    page = client.get(f"/{lang}/learn/{step.ruleset}/{step.id}").get_data(as_text=True)
    value = expected(ex) if right else wrong_of(ex, expected(ex))
    r = client.post(f"/{lang}/learn/{step.ruleset}/{step.id}/{ex.id}",
                    data=form_for(ex, value) | {"csrf_token": csrf_of(page)})
    assert r.status_code == status
    return r


def card_row(app, ex) -> Mistake:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return db.scalar(select(Mistake).where(Mistake.exercise_ref == X.ref_of(ex)))
        finally:
            db.close()


def test_the_app_schedules_with_the_documented_scheduler():
    assert review.SCHEDULER.to_dict() == fsrs_scheduler().to_dict()
    assert review.LEAVE_AFTER == 2


def test_wrong_answer_makes_a_new_card_due_now(client, app):
    step, ex = exercises(1)[0]
    answer(client, step, ex, right=False)
    row = card_row(app, ex)
    assert row.due == naive(T0) and row.streak == 0
    card = Card.from_dict(row.card)
    assert card.due == T0 and card.state == State.Learning and card.step == 0
    assert card.stability is None and card.last_review is None
    assert (row.ruleset, row.kind) == ("hokm", "trick-winner")
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "1 review due now" in html and "due now" in html


def test_right_answer_moves_due_later_wrong_again_resets(client, app, clock):
    step, ex = exercises(1)[0]
    sched = fsrs_scheduler()
    answer(client, step, ex, right=False)
    before = Card.from_dict(card_row(app, ex).card)

    # right five minutes later: Good, the card stays with a later due date
    t1 = clock.advance(minutes=5)
    answer(client, step, ex, right=True)
    want, _ = sched.review_card(before, Rating.Good, t1)
    row = card_row(app, ex)
    assert row.due == naive(want.due) and row.due - naive(t1) == want.due - t1
    assert want.due - t1 == sched.learning_steps[1] and want.due > t1
    assert row.card == want.to_dict() and row.streak == 1
    assert listed_mistakes(app) == 1
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "0 reviews due now" in html
    assert f"Next review {i18n.fmt_timedelta(want.due - t1)}" in html
    assert str(escape(i18n.fmt_datetime(want.due))) in html

    # wrong again once it is due: Again resets the card to the first learning step and the streak
    t2 = clock.advance(minutes=20)
    answer(client, step, ex, right=False)
    again, _ = sched.review_card(want, Rating.Again, t2)
    row = card_row(app, ex)
    assert row.card == again.to_dict() and row.due == naive(again.due) and row.streak == 0
    assert again.step == 0 and again.due - t2 == sched.learning_steps[0]
    assert row.due < naive(want.due) + (t2 - t1)  # sooner than the interval it had reached
    assert rows(app, Mistake) == 1 and rows(app, Attempt) == 3


def test_right_twice_in_a_row_leaves_the_list_and_a_lapse_brings_it_back(client, app, clock):
    step, ex = exercises(1)[0]
    sched = fsrs_scheduler()
    answer(client, step, ex, right=False)
    card = Card.from_dict(card_row(app, ex).card)
    for minutes in (3, 15):
        t = clock.advance(minutes=minutes)
        answer(client, step, ex, right=True)
        card, _ = sched.review_card(card, Rating.Good, t)
    row = card_row(app, ex)
    assert row.card == card.to_dict() and row.streak == 2 and card.state == State.Review
    assert row.due == naive(card.due) and card.due - t >= timedelta(days=1)
    assert listed_mistakes(app) == 0 and rows(app, Mistake) == 1
    html = client.get("/en/progress/").get_data(as_text=True)
    assert 'class="mistake-list"' not in html and "No mistakes waiting" in html

    # got wrong again a week later: a lapse (relearning) of the same card, back in the list
    t = clock.advance(days=7)
    answer(client, step, ex, right=False)
    lapsed, _ = sched.review_card(card, Rating.Again, t)
    row = card_row(app, ex)
    assert row.card == lapsed.to_dict() and lapsed.state == State.Relearning
    assert row.due == naive(lapsed.due) and lapsed.due - t == sched.relearning_steps[0]
    assert row.streak == 0 and listed_mistakes(app) == 1


def replay(client, more: bool = False):
    page = client.get("/en/progress/").get_data(as_text=True)
    data = {"csrf_token": csrf_of(page)} | ({"more": "1"} if more else {})
    return client.post("/en/mistakes/replay", data=data)


def quiz_refs(app, location: str) -> list[str]:
    token = re.search(r"/quiz/([^/]+)/1$", location).group(1)
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return db.scalar(select(Quiz).where(Quiz.token == token)).refs
        finally:
            db.close()


def test_replay_serves_due_cards_first_then_the_soonest(client, app, clock):
    (sa, a), (sb, b), (sc, c) = exercises(3)
    answer(client, sa, a, right=False)           # due T0
    clock.advance(seconds=30)
    answer(client, sb, b, right=False)           # due T0+30s
    clock.advance(seconds=30)
    answer(client, sc, c, right=False)           # due T0+60s
    clock.advance(minutes=1)
    answer(client, sa, a, right=True)            # a: Good, due in 10 minutes
    clock.advance(minutes=1)
    a_due = card_row(app, a).due
    assert a_due > naive(clock.at)

    r = replay(client)                            # only the due ones, soonest due first
    assert r.status_code == 302
    assert quiz_refs(app, r.headers["Location"]) == [X.ref_of(b), X.ref_of(c)]
    q = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Question 1 of 2" in q and str(escape(X.prompt_of(b))) in q
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "2 reviews due now" in html and "Replay more" in html

    r = replay(client, more=True)                 # asked for more: then the one due next
    assert quiz_refs(app, r.headers["Location"]) == [X.ref_of(b), X.ref_of(c), X.ref_of(a)]

    # answering the replayed ones right: nothing due now, replay goes back to the progress page
    for ex in (b, c):
        loc = f"/en/quiz/{re.search(r'/quiz/([^/]+)/', r.headers['Location']).group(1)}/"
        n = 1 if ex is b else 2
        page = client.get(f"{loc}{n}").get_data(as_text=True)
        client.post(f"{loc}{n}", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)})
    assert card_row(app, b).streak == 1 and card_row(app, c).streak == 1
    r = replay(client)
    assert r.status_code == 302 and r.headers["Location"].endswith("/en/progress/")
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "0 reviews due now" in html and "Review ahead" in html

    # time passes: the earliest one falls due again and is served alone
    clock.at = a_due.replace(tzinfo=UTC)
    assert quiz_refs(app, replay(client).headers["Location"]) == [X.ref_of(a)]


def test_progress_page_due_count_and_next_review_localised(client, app, clock):
    (sa, a), (sb, b) = exercises(2)
    answer(client, sa, a, right=False)
    answer(client, sb, b, right=False)
    clock.advance(minutes=2)
    answer(client, sb, b, right=True)
    b_due = card_row(app, b).due
    clock.advance(minutes=1)
    for lang in i18n.LANGUAGES:
        html = client.get(f"/{lang}/progress/").get_data(as_text=True)
        with i18n.using(lang):
            count = i18n.ngettext("%(num)s review due now", "%(num)s reviews due now", 1)
            nxt = i18n.gettext("Next review %(when)s", when=i18n.fmt_timedelta(b_due - naive(clock.at)))
            assert str(escape(count)) in html and str(escape(nxt)) in html
            assert str(escape(i18n.fmt_datetime(b_due))) in html
        assert f'datetime="{b_due.isoformat()}Z"' in html
        if lang != "en":
            assert count != "1 review due now" and "Next review" not in nxt
    fa = client.get("/fa/progress/").get_data(as_text=True)
    with i18n.using("fa"):
        assert "۱" in i18n.fmt_number(1) and i18n.fmt_timedelta(timedelta(minutes=9)) in fa


def test_rejected_answer_writes_nothing(client, app, clock):
    step, ex = exercises(1)[0]
    page = client.get(f"/en/learn/{step.ruleset}/{step.id}").get_data(as_text=True)
    bad = {"seat": "9", "csrf_token": csrf_of(page)}
    r = client.post(f"/en/learn/{step.ruleset}/{step.id}/{ex.id}", data=bad)
    assert r.status_code == 400
    assert set(all_rows(app).values()) == {0}
    # with a card already there, a rejected answer leaves it as it was
    answer(client, step, ex, right=False)
    before = card_row(app, ex)
    clock.advance(minutes=30)
    r = client.post(f"/en/learn/{step.ruleset}/{step.id}/{ex.id}", data=bad)
    assert r.status_code == 400
    after = card_row(app, ex)
    assert (after.card, after.due, after.streak) == (before.card, before.due, before.streak)
    assert rows(app, Attempt) == 1


def test_one_transaction_per_answer(client, app, clock, monkeypatch):
    step, ex = exercises(1)[0]
    answer(client, step, ex, right=False)
    before = card_row(app, ex)
    clock.advance(minutes=5)

    def boom(*_a, **_k):
        raise RuntimeError("scheduler failed")

    monkeypatch.setattr(review.SCHEDULER, "review_card", boom)
    answer(client, step, ex, right=True, status=500)
    after = card_row(app, ex)
    assert rows(app, Attempt) == 1  # the attempt of the failed answer was rolled back with the card
    assert (after.card, after.due, after.streak) == (before.card, before.due, before.streak)


def test_a_database_from_before_reviews_keeps_working(tmp_path, clock):
    path = tmp_path / "test.sqlite3"
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE learner (id INTEGER PRIMARY KEY, anon_id VARCHAR(64) UNIQUE, display_name VARCHAR(40),
                              created_at DATETIME);
        CREATE TABLE mistake (id INTEGER PRIMARY KEY, learner_id INTEGER REFERENCES learner(id),
                              exercise_ref VARCHAR(200), ruleset VARCHAR(16), kind VARCHAR(20), added_at DATETIME,
                              UNIQUE (learner_id, exercise_ref));
        INSERT INTO learner VALUES (1, 'old-learner', NULL, '2026-02-01 10:00:00');
    """)
    step, ex = exercises(1)[0]
    con.execute("INSERT INTO mistake VALUES (1, 1, ?, 'hokm', 'trick-winner', '2026-02-01 10:00:00')",
                (X.ref_of(ex),))
    con.commit()
    con.close()
    url = f"sqlite:///{path}"
    assert upgrade(url) == (None, head())  # made before migrations: adopted in place
    assert upgrade(url) == (head(), head())  # a second upgrade finds the columns there
    app = make_app(tmp_path, CLOCK=clock)
    con = sqlite3.connect(path)
    cols = {r[1] for r in con.execute("PRAGMA table_info(mistake)")}
    indexes = {r[1] for r in con.execute("PRAGMA index_list(mistake)")}
    con.close()
    assert {"card", "due", "streak"} <= cols and "ix_mistake_due" in indexes
    row = card_row(app, ex)
    assert row.due == datetime(2026, 2, 1, 10, 0) and row.streak == 0 and row.card is None
    client = app.test_client()
    with client.session_transaction() as s:
        s["learner"] = "old-learner"
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "1 review due now" in html and str(escape(X.prompt_of(ex))) in html
    answer(client, step, ex, right=True)  # the old row becomes a card: a new one, due when it was added
    want, _ = fsrs_scheduler().review_card(Card(card_id=1, due=datetime(2026, 2, 1, 10, 0, tzinfo=UTC)),
                                           Rating.Good, T0)
    row = card_row(app, ex)
    assert row.card == want.to_dict() and row.due == naive(want.due) and row.streak == 1
