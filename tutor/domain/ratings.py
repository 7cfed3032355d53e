"""Glicko-2 ratings of learners and questions (the ``glicko2`` package), from attempts.

Every answer is one game between the learner and the question: a right answer is a win for the
learner and a loss for the question, a wrong one the reverse (as chess-puzzle sites rate puzzles).
Each game is its own rating period, so both ratings move at once, from the other's rating
*before* the game. New learners start at 1500 (deviation 350, volatility 0.06, Glicko-2's
defaults). A question without a rating row starts from the **prior of its difficulty**
(:data:`PRIORS`: difficulty 1, 2, 3 -> 1300, 1500, 1700, deviation 250), so generated questions,
which have a difficulty and no history, are ranked before anyone answered them.

A learner has **one rating per game** (ruleset), as Lichess keeps one puzzle rating per variant:
an answer moves the rating of its question's game only. Pages show it rounded, with the change
since the quiz began (:func:`snapshot` at its start, :func:`change`).

Practice aims at a **band** around the learner's rating (:data:`BANDS`): "easier" 200 below,
"about right" at it, "harder" 200 above. :func:`question_rating` gives a question's rating for
teacher statistics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import glicko2
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from tutor.content.exercise import Exercise

from .db import now, table_of
from .models import Learner, LearnerRating, QuestionRating

__all__ = [
    "BANDS",
    "PRIORS",
    "PROVISIONAL_RD",
    "Rating",
    "Shown",
    "change",
    "learner_rating",
    "learner_ratings",
    "prior",
    "question_rating",
    "question_ratings",
    "rate",
    "snapshot",
    "target",
]

#: Rating prior of a question by difficulty (1 easy, 2 middle, 3 hard).
PRIORS = {1: 1300.0, 2: 1500.0, 3: 1700.0}
#: Deviation of a question's prior (less sure than a new learner's 350: the difficulty says something).
PRIOR_RD = 250.0
#: A new learner.
START = (1500.0, 350.0, 0.06)
#: Above this deviation a learner's rating is provisional (too few answers to be sure of it), as on Lichess.
PROVISIONAL_RD = 110.0
#: Target offset from the learner's rating, per band.
BANDS = {"easier": -200.0, "right": 0.0, "harder": 200.0}


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` (1500 scale), deviation ``rd``, volatility ``vol``; ``games``
    answers it was rated from (0 for a prior); ``right`` of them answered right (questions)."""

    rating: float
    rd: float
    vol: float
    games: int = 0
    right: int = 0


def prior(difficulty: int | None) -> Rating:
    """The rating of a question nobody has answered, from its difficulty (1-3; other values: 2)."""
    return Rating(PRIORS.get(difficulty or 2, PRIORS[2]), PRIOR_RD, 0.06)


def _difficulty(ref: str, ex: Exercise | None) -> int | None:
    if ex is not None:
        return ex.difficulty
    parts = ref.split(":")
    if parts[0] == "gen" and len(parts) == 5 and parts[3].isdigit():
        return int(parts[3])
    return None


def question_rating(db: Session, ref: str, ex: Exercise | None = None) -> Rating:
    """The rating of the question ``ref`` (for teacher statistics and practice): its row, or the
    prior of its difficulty (``ex.difficulty``, or a generated ref's difficulty field)."""
    row = db.get(QuestionRating, ref)
    if row is None:
        return prior(_difficulty(ref, ex))
    return Rating(row.rating, row.rd, row.vol, row.attempts, row.right)


def question_ratings(db: Session, refs: list[str]) -> dict[str, Rating]:
    """The rated questions among ``refs`` (one query); refs without a row are left out."""
    if not refs:
        return {}
    rows = db.scalars(select(QuestionRating).where(QuestionRating.exercise_ref.in_(refs)))
    return {r.exercise_ref: Rating(r.rating, r.rd, r.vol, r.attempts, r.right) for r in rows}


def learner_ratings(db: Session, learner: Learner | int | None) -> dict[str, Rating]:
    """The learner's rating in each game they have answered in, by ruleset (one query; ``learner``
    a learner or its id)."""
    if learner is None:
        return {}
    learner_id = learner if isinstance(learner, int) else learner.id
    rows = db.scalars(select(LearnerRating).where(LearnerRating.learner_id == learner_id))
    return {r.ruleset: Rating(r.rating, r.rd, r.vol, r.games) for r in rows}


def learner_rating(db: Session, learner: Learner | None, ruleset: str) -> Rating:
    """The learner's rating in ``ruleset`` (a new learner's for None or no row)."""
    row = db.get(LearnerRating, (learner.id, ruleset)) if learner is not None else None
    if row is None:
        return Rating(*START)
    return Rating(row.rating, row.rd, row.vol, row.games)


def snapshot(db: Session, learner: Learner | None) -> dict[str, float]:
    """The learner's ratings now, ``{ruleset: rating}`` (what a quiz keeps in ``ratings_before``)."""
    return {g: r.rating for g, r in learner_ratings(db, learner).items()}


class Shown(NamedTuple):
    """A learner's rating in one game as pages show it: ``rating`` rounded, its ``change`` since
    the quiz began (rounded), and whether it is still ``provisional`` (deviation above
    :data:`PROVISIONAL_RD`: Lichess writes such a rating with a question mark)."""

    rating: int
    change: int
    provisional: bool


def change(before: dict[str, float] | None, current: dict[str, Rating], ruleset: str) -> Shown | None:
    """The learner's rating in ``ruleset`` as shown (:class:`Shown`), its change counted from the
    ratings ``before`` a quiz (a game missing there had the new learner's 1500) to ``current``;
    None when the learner has no rating in that game yet."""
    after = current.get(ruleset)
    if after is None:
        return None
    start = (before or {}).get(ruleset, START[0])
    return Shown(round(after.rating), round(after.rating) - round(float(start)), after.rd > PROVISIONAL_RD)


def target(db: Session, learner: Learner | None, band: str, ruleset: str) -> float:
    """The question rating practice aims at in ``ruleset`` for ``band`` (a key of :data:`BANDS`)."""
    return learner_rating(db, learner, ruleset).rating + BANDS.get(band, 0.0)


_LEARNER = table_of(LearnerRating)
_QUESTION = table_of(QuestionRating)

# The statements of :func:`rate`, built once (parameters ``learner``, ``ref`` and the columns set).
_LEARNER_ROW = (select(_LEARNER.c.rating, _LEARNER.c.rd, _LEARNER.c.vol, _LEARNER.c.games)
                .where(_LEARNER.c.learner_id == bindparam("learner"), _LEARNER.c.ruleset == bindparam("ruleset")))
_QUESTION_ROW = (select(_QUESTION.c.rating, _QUESTION.c.rd, _QUESTION.c.vol, _QUESTION.c.attempts, _QUESTION.c.right)
                 .where(_QUESTION.c.exercise_ref == bindparam("ref")))
_INSERT_LEARNER = insert(_LEARNER)
_UPDATE_LEARNER = update(_LEARNER).where(_LEARNER.c.learner_id == bindparam("learner"),
                                         _LEARNER.c.ruleset == bindparam("game"))
_INSERT_QUESTION = insert(_QUESTION)
_UPDATE_QUESTION = update(_QUESTION).where(_QUESTION.c.exercise_ref == bindparam("ref"))


def rate(conn: Connection, learner_id: int, ref: str, ex: Exercise, correct: bool) -> tuple[Rating, Rating]:
    """Rate one answer of the learner ``learner_id`` to the question ``ref``, on ``conn`` inside
    the caller's transaction: returns the learner's and the question's new ratings (both computed
    from the ratings before this answer); the learner's rating is that of the question's game.
    Core statements: two reads, an insert or update each."""
    game = ex.ruleset or ""
    lrow = conn.execute(_LEARNER_ROW, {"learner": learner_id, "ruleset": game}).first()
    qrow = conn.execute(_QUESTION_ROW, {"ref": ref}).first()
    before_l = Rating(lrow.rating, lrow.rd, lrow.vol, lrow.games or 0) if lrow is not None else Rating(*START)
    before_q = (Rating(qrow.rating, qrow.rd, qrow.vol, qrow.attempts or 0, qrow.right or 0) if qrow is not None
                else prior(ex.difficulty))
    player = glicko2.Player(rating=before_l.rating, rd=before_l.rd, vol=before_l.vol)  # type: ignore[no-untyped-call]  # glicko2 has no annotations
    question = glicko2.Player(rating=before_q.rating, rd=before_q.rd, vol=before_q.vol)  # type: ignore[no-untyped-call]  # glicko2 has no annotations
    player.update_player([before_q.rating], [before_q.rd], [1 if correct else 0])  # type: ignore[no-untyped-call]  # glicko2 has no annotations
    question.update_player([before_l.rating], [before_l.rd], [0 if correct else 1])  # type: ignore[no-untyped-call]  # glicko2 has no annotations
    at = now()
    after_l = Rating(player.rating, player.rd, player.vol, before_l.games + 1)
    after_q = Rating(question.rating, question.rd, question.vol, before_q.games + 1,
                     before_q.right + (1 if correct else 0))
    lvalues = {"rating": after_l.rating, "rd": after_l.rd, "vol": after_l.vol, "games": after_l.games,
               "updated_at": at}
    qvalues = {"rating": after_q.rating, "rd": after_q.rd, "vol": after_q.vol, "attempts": after_q.games,
               "right": after_q.right, "updated_at": at}
    if lrow is None:
        conn.execute(_INSERT_LEARNER, dict(lvalues, learner_id=learner_id, ruleset=game))
    else:
        conn.execute(_UPDATE_LEARNER, dict(lvalues, learner=learner_id, game=game))
    if qrow is None:
        conn.execute(_INSERT_QUESTION, dict(qvalues, exercise_ref=ref, ruleset=ex.ruleset or "", kind=ex.kind))
    else:
        conn.execute(_UPDATE_QUESTION, dict(qvalues, ref=ref))
    return after_l, after_q
