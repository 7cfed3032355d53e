"""Glicko-2 ratings of learners and questions (the ``glicko2`` package), from attempts.

Every answer is one game between the learner and the question: a right answer is a win for the
learner and a loss for the question, a wrong one the reverse (as chess-puzzle sites rate puzzles).
Each game is its own rating period, so both ratings move at once, from the other's rating
*before* the game. New learners start at 1500 (deviation 350, volatility 0.06, Glicko-2's
defaults). A question without a rating row starts from the **prior of its difficulty**
(:data:`PRIORS`: difficulty 1, 2, 3 -> 1300, 1500, 1700, deviation 250), so generated questions,
which have a difficulty and no history, are ranked before anyone answered them.

Practice aims at a **band** around the learner's rating (:data:`BANDS`): "easier" 200 below,
"about right" at it, "harder" 200 above. :func:`question_rating` gives a question's rating for
teacher statistics.
"""

from __future__ import annotations

from dataclasses import dataclass

import glicko2
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.content.exercise import Exercise

from .db import Learner, LearnerRating, QuestionRating, now

__all__ = ["BANDS", "PRIORS", "Rating", "learner_rating", "prior", "question_rating", "question_ratings",
           "rate", "target"]

#: Rating prior of a question by difficulty (1 easy, 2 middle, 3 hard).
PRIORS = {1: 1300.0, 2: 1500.0, 3: 1700.0}
#: Deviation of a question's prior (less sure than a new learner's 350: the difficulty says something).
PRIOR_RD = 250.0
#: A new learner.
START = (1500.0, 350.0, 0.06)
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


def learner_rating(db: Session, learner: Learner | None) -> Rating:
    """The learner's rating (a new learner's for None or no row)."""
    row = db.get(LearnerRating, learner.id) if learner is not None else None
    if row is None:
        return Rating(*START)
    return Rating(row.rating, row.rd, row.vol, row.games)


def target(db: Session, learner: Learner | None, band: str) -> float:
    """The question rating practice aims at for ``band`` (a key of :data:`BANDS`)."""
    return learner_rating(db, learner).rating + BANDS.get(band, 0.0)


def rate(db: Session, learner: Learner, ref: str, ex: Exercise, correct: bool) -> tuple[Rating, Rating]:
    """Rate one answer, inside the caller's transaction: returns the learner's and the question's
    new ratings (both computed from the ratings before this answer)."""
    lrow = db.get(LearnerRating, learner.id)
    if lrow is None:
        lrow = LearnerRating(learner_id=learner.id, rating=START[0], rd=START[1], vol=START[2], games=0)
        db.add(lrow)
    qrow = db.get(QuestionRating, ref)
    if qrow is None:
        p = prior(ex.difficulty)
        qrow = QuestionRating(exercise_ref=ref, ruleset=ex.ruleset or "", kind=ex.kind, rating=p.rating, rd=p.rd,
                              vol=p.vol, attempts=0, right=0)
        db.add(qrow)
    player = glicko2.Player(rating=lrow.rating, rd=lrow.rd, vol=lrow.vol)
    question = glicko2.Player(rating=qrow.rating, rd=qrow.rd, vol=qrow.vol)
    before_l, before_q = (lrow.rating, lrow.rd), (qrow.rating, qrow.rd)
    player.update_player([before_q[0]], [before_q[1]], [1 if correct else 0])
    question.update_player([before_l[0]], [before_l[1]], [0 if correct else 1])
    at = now()
    lrow.rating, lrow.rd, lrow.vol = player.rating, player.rd, player.vol
    lrow.games = (lrow.games or 0) + 1
    lrow.updated_at = at
    qrow.rating, qrow.rd, qrow.vol = question.rating, question.rd, question.vol
    qrow.attempts = (qrow.attempts or 0) + 1
    qrow.right = (qrow.right or 0) + (1 if correct else 0)
    qrow.updated_at = at
    return (Rating(lrow.rating, lrow.rd, lrow.vol, lrow.games),
            Rating(qrow.rating, qrow.rd, qrow.vol, qrow.attempts, qrow.right))
