"""Adaptive practice that adapts (issue 19): what a session chooses, what its results count.

* The selection (:func:`tutor.web.adaptive.choose`, :func:`~tutor.web.adaptive.open_kinds`) on
  hand-made candidates with fixed seeds: the basics of a game first, kinds mixed, no kind three
  times in a row, the same seed the same question.
* First tries, retries and the streak (:mod:`tutor.domain.firsttry`) on scripted quizzes.
* A new learner's "Practice made for you" of 10 in every game, answered through the app's pages:
  it starts with legal cards, has at least 3 kinds, at most 2 retries (never right after their
  mistake), and the results count a retry of a shown answer neither in the score nor by kind; the
  learner's rating is that of the game, and the streak on the feedback page is the one counted
  from the answers.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from test_migrations import pg_url  # noqa: F401  (a fixture)
from test_web_adaptive import answer_quiz, query, quiz_row, start_adaptive

from tutor.content.kinds import kinds_for
from tutor.domain import firsttry, ratings
from tutor.domain.models import LearnerRating
from tutor.web import adaptive
from tutor.web import exercises as X
from tutor.web.adaptive import Candidate

GAMES = ("hokm", "all-fours", "trinidad")


def _cands(kinds: dict[str, int], ruleset: str = "hokm") -> list[Candidate]:
    """Candidates: ``n`` of each kind, difficulties 1, 2, 3 in turn."""
    return [Candidate(f"gen:{ruleset}:{k}:{i % 3 + 1}:{i}", ruleset, k, i % 3 + 1, (f"R-{k}",))
            for k, n in kinds.items() for i in range(n)]


# ---------------------------------------------------------------------------------------------- selection

def test_a_new_learner_meets_the_basics_first():
    for game in GAMES:
        path = kinds_for(game)
        opened = adaptive.open_kinds(game, set())
        assert opened == path[:adaptive.NEW_KINDS]
        assert opened[:2] == ["legal-cards", "trick-winner"]
        # once legal cards are answered, the next kind of the path opens
        assert adaptive.open_kinds(game, {"legal-cards"}) == path[:adaptive.NEW_KINDS + 1]
        # a kind shown known further on stays open, and three unknown ones beside it
        last = path[-1]
        assert adaptive.open_kinds(game, {last}) == [*path[:adaptive.NEW_KINDS], last]


def test_choose_spreads_kinds_and_is_seeded():
    cands = _cands({"legal-cards": 6, "trick-winner": 6, "next-leader": 6})
    aims = {"hokm": 1500.0}
    first = adaptive.choose(cands, {}, aims, [], seed=7)
    assert first is not None and first.kind == "legal-cards" and first.difficulty == 2  # the path's first kind, at 1500
    assert adaptive.choose(cands, {}, aims, [], seed=7) == first  # the same seed, the same question
    seeds = {adaptive.choose(cands, {}, aims, [], seed=s).ref for s in range(20)}  # type: ignore[union-attr]
    assert len(seeds) == 2  # two legal-cards questions at difficulty 2: the seed picks between them
    served: list[str] = []
    left = list(cands)
    for _ in range(9):
        c = adaptive.choose(left, {}, aims, served, seed=3)
        assert c is not None
        served.append(c.kind)
        left.remove(c)
    assert served == ["legal-cards", "trick-winner", "next-leader"] * 3
    # the aim moves the difficulty: easier aims at difficulty 1, harder at 3
    assert adaptive.choose(cands, {}, {"hokm": 1300.0}, [], seed=7).difficulty == 1  # type: ignore[union-attr]
    assert adaptive.choose(cands, {}, {"hokm": 1700.0}, [], seed=7).difficulty == 3  # type: ignore[union-attr]
    # a rated question is placed by its rating, not by its difficulty's prior
    rated = {cands[0].ref: ratings.Rating(1390.0, 80.0, 0.06, 5, 3)}  # difficulty 1 (prior 1300), rated 1390
    assert adaptive.choose(cands, rated, {"hokm": 1400.0}, [], seed=7) == cands[0]
    assert adaptive.choose(cands, {}, {"hokm": 1400.0}, [], seed=7) != cands[0]


def test_no_kind_three_times_running_while_another_has_a_question():
    cands = _cands({"legal-cards": 4, "trick-winner": 1})
    aims = {"hokm": 1500.0}
    # weak-skill order (spread off) would take legal cards a third time: another kind comes
    c = adaptive.choose(cands, {}, aims, ["legal-cards", "legal-cards"], seed=1, spread=False)
    assert c is not None and c.kind == "trick-winner"
    c = adaptive.choose(cands, {}, aims, ["trick-winner", "legal-cards"], seed=1, spread=False)
    assert c is not None and c.kind == "legal-cards"
    only = _cands({"legal-cards": 3})
    c = adaptive.choose(only, {}, aims, ["legal-cards", "legal-cards"], seed=1, spread=False)
    assert c is not None and c.kind == "legal-cards"  # nothing else to give


def test_at_most_one_retry_in_five():
    assert [adaptive.retry_max(n) for n in adaptive.SIZES] == [1, 2, 4]


# ---------------------------------------------------------------------------------------------- first tries

def test_a_retry_of_a_shown_answer_is_not_a_first_try():
    refs = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "i"]  # Q10 = Q9, as in the issue
    tries = {n: [n % 2 == 0] for n in range(1, 10)}  # right at even places: 4 of the first 9
    tries[9] = [False, True]  # wrong, then "Try again" at the same place: the first try counts
    tries[10] = [True]  # the retry, right
    quiz = firsttry.places(refs, tries)
    assert [p.retry for p in quiz] == [False] * 9 + [True]
    assert quiz[8].first is False and quiz[8].tries == 2
    assert quiz[9].first is True and not quiz[9].counts
    assert firsttry.score(quiz) == (4, 9)  # not "5 of 10"


def test_a_question_not_answered_before_is_not_a_retry():
    quiz = firsttry.places(["a", "b", "a"], {2: [True], 3: [False]})  # place 1 skipped: its answer never shown
    assert [p.retry for p in quiz] == [False, False, False]
    assert firsttry.score(quiz) == (1, 3)


def test_the_streak():
    refs = ["a", "b", "c", "d", "b", "e", "f"]
    tries = {1: [True], 2: [False, True], 3: [True], 4: [True], 5: [True], 6: [True], 7: [False]}
    quiz = firsttry.places(refs, tries)
    assert quiz[4].retry  # b again
    got = [firsttry.streak(quiz, n) for n in range(0, 8)]
    # 1 right; 2 wrong (its second try does not mend it); 3, 4 right; 5 a retry (neither adds nor ends);
    # 6 right; 7 wrong
    assert got == [0, 1, 0, 1, 2, 2, 3, 0]
    assert firsttry.streak(firsttry.places(["a", "b"], {1: [True]})) == 0  # a place not answered ends it
    assert firsttry.streak(firsttry.places(["a", "b"], {1: [True]}), 1) == 1


# ---------------------------------------------------------------------------------------------- a session

def _kind(app, ref: str) -> str:
    with app.test_request_context("/en/"):
        return X.resolve(ref).kind


#: Which first tries the scripted learner gets wrong (place numbers).
WRONG = {2, 3, 6}


@pytest.mark.parametrize("game", GAMES)
def test_a_new_learners_session_of_ten(client, app, game):
    token = start_adaptive(client, game=game, band="right", count="10")
    refs: list[str] = []
    streaks = []
    for n in range(1, 11):
        refs.append(answer_quiz(client, token, n, right=n not in WRONG))
        fb = client.get(f"/en/quiz/{token}/{n}/feedback").get_data(as_text=True)
        streaks.append(int(re.search(r'data-streak="(\d+)"', fb).group(1)))
        r = client.get(f"/en/quiz/{token}/next")
        assert r.status_code == 302
    assert r.location.endswith(f"/quiz/{token}/results")
    quiz = quiz_row(app, token)
    kinds = [_kind(app, ref) for ref in refs]
    steps = quiz.target["steps"]
    assert kinds[0] == "legal-cards" and steps[0] == "new"  # the basics first
    assert len(set(kinds)) >= 3, kinds
    retries = [n for n, ref in enumerate(refs, 1) if ref in refs[: n - 1]]
    assert retries == [n for n, s in enumerate(steps, 1) if s == "retry"]
    assert 1 <= len(retries) <= adaptive.retry_max(10) == 2
    for n in retries:  # a retry is of a mistake, and never in the place right after it
        first = refs.index(refs[n - 1]) + 1
        assert first in WRONG and n - first >= 2
    assert not any(kinds[i] == kinds[i + 1] == kinds[i + 2] for i in range(8)), " ".join(f"{k}/{s}" for k, s in zip(kinds, steps, strict=True))
    # the streak on each feedback page: first tries right in a row, retries passed over
    want, run = [], 0
    for n in range(1, 11):
        if n not in retries:
            run = 0 if n in WRONG else run + 1
        want.append(run)
    assert streaks == want
    # the results: the retries marked, not counted
    html = client.get(f"/en/quiz/{token}/results").get_data(as_text=True)
    firsts = [n for n in range(1, 11) if n not in retries]
    right = sum(1 for n in firsts if n not in WRONG)
    assert f"{right} of {len(firsts)} right at the first try" in html
    assert html.count('class="retry-badge"') == len(retries)
    assert f"Retries of a question whose answer you had seen: {len(retries)} (not counted)" in html
    assert f"Best streak: {max(want)}" in html
    # by kind: the questions counted are the first tries only
    counted = [int(x) for x in re.findall(r"<tr><th scope=\"row\">[^<]+</th><td>\d+</td><td>(\d+)</td></tr>", html)]
    assert sum(counted) == len(firsts)
    # the rating is the game's, moved by the first tries only (a retry does not rate)
    rows = query(app, select(LearnerRating))
    assert [(r.ruleset, r.games) for r in rows] == [(game, len(firsts))]
    m = re.search(r'data-change="(-?\d+)"', html)
    assert m and f"rating: {round(rows[0].rating)}" in html
    assert int(m.group(1)) == round(rows[0].rating) - 1500
    with app.test_request_context("/en/"):
        from tutor.web.views.common import ruleset_name

        name = ruleset_name(game)
    progress = client.get("/en/progress/").get_data(as_text=True)
    shown = f'<p class="game-rating">Your {name} rating: {round(rows[0].rating)}'
    provisional = '<abbr class="provisional" title="Provisional: too few answers yet to be sure of it">?</abbr>'
    assert shown + (provisional if rows[0].rd > ratings.PROVISIONAL_RD else "") + "</p>" in progress
    # the question page of a retry says so
    page = client.get(f"/en/quiz/{token}/{retries[0]}").get_data(as_text=True)
    assert 'id="quiz-retry"' in page and "it does not count as a first try" in page
    assert 'id="quiz-retry"' not in client.get(f"/en/quiz/{token}/1").get_data(as_text=True)


def test_a_weak_skill_does_not_take_three_places_running(client, app):
    """Wrong at the first two places: the weak step serves the weak legal-cards skill, but not a
    third time running while another kind has a question."""
    token = start_adaptive(client, game="hokm", band="right", count="10")
    refs = []
    for n in range(1, 6):
        refs.append(answer_quiz(client, token, n, right=n > 2))
        client.get(f"/en/quiz/{token}/next")
    kinds = [_kind(app, ref) for ref in refs]
    steps = quiz_row(app, token).target["steps"]
    assert not any(kinds[i] == kinds[i + 1] == kinds[i + 2] for i in range(3)), list(zip(kinds, steps, strict=True))
    assert "weak" in steps, list(zip(kinds, steps, strict=True))


# ---------------------------------------------------------------------------------------------- migration

@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_migration_gives_each_game_its_rating(tmp_path, request, database):
    """A learner's one rating from before ratings per game becomes their rating in every game
    they have answered in; a learner with no answers keeps none; down again, one rating each."""
    from datetime import datetime

    from sqlalchemy import create_engine, text

    from tutor.migrations import head, upgrade

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}" if database == "sqlite" else request.getfixturevalue("pg_url")
    upgrade(url, "testmode")
    engine = create_engine(url)
    at = datetime(2026, 12, 1, 9, 0)
    with engine.begin() as conn:
        for i in (1, 2):
            conn.execute(text("INSERT INTO learner (id, anon_id, created_at) VALUES (:i, :a, :t)"),
                         {"i": i, "a": f"anon-{i}", "t": at})
            conn.execute(text("INSERT INTO learner_rating (learner_id, rating, rd, vol, games, updated_at) "
                              "VALUES (:i, :r, 90.0, 0.06, 12, :t)"), {"i": i, "r": 1600.0 + i, "t": at})
        for ruleset in ("hokm", "trinidad", "hokm"):
            conn.execute(text("INSERT INTO attempt (learner_id, exercise_ref, ruleset, kind, given, correct, created_at) "
                              "VALUES (1, 'x', :r, 'legal-cards', CAST('[]' AS JSON), :c, :t)"),
                         {"r": ruleset, "c": True, "t": at})
    assert upgrade(url) == ("testmode", head())
    with engine.connect() as conn:
        got = conn.execute(text("SELECT learner_id, ruleset, rating, games FROM learner_rating ORDER BY 1, 2")).all()
        assert [tuple(r) for r in got] == [(1, "hokm", 1601.0, 12), (1, "trinidad", 1601.0, 12)]
        assert conn.execute(text("SELECT ratings_before FROM quiz")).all() == []
    from alembic import command

    from tutor.migrations import alembic_config, current

    command.downgrade(alembic_config(url), "testmode")
    assert current(url) == "testmode"
    with engine.connect() as conn:
        got = conn.execute(text("SELECT learner_id, rating FROM learner_rating")).all()
        assert [tuple(r) for r in got] == [(1, 1601.0)]
    engine.dispose()
