"""Spaced-repetition reviews of the learner's mistakes, scheduled with FSRS (the ``fsrs`` package).

Like a deck in Anki, every exercise the learner gets wrong becomes a review card (one
:class:`~tutor.web.db.Mistake` row, the card state kept as ``fsrs.Card.to_dict()`` JSON):

* The first wrong answer adds a **new card, due at once** (as Anki adds a new card: its first
  review is the next time the learner meets the exercise).
* Every later answer to the same exercise is a review: a wrong answer is ``Rating.Again`` (the card
  goes back to the first learning step, or lapses into relearning, and the right-answer streak
  restarts), a right answer is ``Rating.Good`` (the card stays, due later).
* A card **leaves the mistakes list** once it has been answered right :data:`LEAVE_AFTER` times in a
  row. Its row and card state stay in the table, so if the learner gets the exercise wrong again
  later the card comes back with its memory state (as a lapse) rather than as a new card.

"Replay my mistakes" serves the cards in the list that are due now, soonest first; asked for
more, it goes on with those due next. Times come from :func:`tutor.web.db.now`, the app's one clock
(``CLOCK`` in the app config), so tests can move time forward. Fuzzing of intervals is off: the
same answers at the same times always give the same due dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

from fsrs import Card, Rating, Scheduler
from sqlalchemy import select
from sqlalchemy.orm import Session

from .db import Learner, Mistake, now

if TYPE_CHECKING:
    from fsrs.card import CardDict

__all__ = ["LEAVE_AFTER", "REPLAY_SIZE", "SCHEDULER", "Queue", "clock", "queue", "review"]

#: Right answers in a row that take a card out of the mistakes list.
LEAVE_AFTER = 2
#: Most questions in one replay.
REPLAY_SIZE = 20
#: The scheduler of every review card: FSRS's default parameters, learning steps (1 and 10 minutes),
#: relearning step (10 minutes) and desired retention (0.9); no fuzzing, so due dates are reproducible.
SCHEDULER = Scheduler(enable_fuzzing=False)


def clock() -> datetime:
    """Now, timezone-aware UTC (what the scheduler wants), from the app's clock."""
    return now().replace(tzinfo=UTC)


def _naive(dt: datetime) -> datetime:
    return dt.astimezone(UTC).replace(tzinfo=None)


def card_of(row: Mistake) -> Card:
    """The row's scheduler card; a row from before spaced repetition is a new card, due when added."""
    if row.card:
        return Card.from_dict(cast("CardDict", row.card))  # the JSON that Card.to_dict() gave
    due = (row.due or row.added_at or now()).replace(tzinfo=UTC)
    return Card(card_id=row.id, due=due)


def due_of(row: Mistake) -> datetime:
    """When the row's card is due (naive UTC): ``due``, which every row has since the baseline
    migration; the day it was added for a row without one, as :func:`card_of` reads it."""
    return row.due or row.added_at


def review(db: Session, learner: Learner, ref: str, ruleset: str, kind: str, correct: bool) -> Mistake | None:
    """Schedule ``ref`` after an answer, inside the caller's transaction (nothing is committed).

    Returns the card's row, or None when a right answer concerns no card.
    """
    at = clock()
    row = db.scalar(select(Mistake).where(Mistake.learner_id == learner.id, Mistake.exercise_ref == ref))
    if row is None:
        if correct:
            return None
        card = Card(card_id=int(at.timestamp() * 1000), due=at)
        row = Mistake(learner_id=learner.id, exercise_ref=ref, ruleset=ruleset, kind=kind, added_at=_naive(at),
                      card=card.to_dict(), due=_naive(card.due), streak=0)
        db.add(row)
        return row
    card, _log = SCHEDULER.review_card(card_of(row), Rating.Good if correct else Rating.Again, at)
    row.card = dict(card.to_dict())
    row.due = _naive(card.due)
    row.streak = (row.streak or 0) + 1 if correct else 0
    return row


@dataclass(frozen=True)
class Queue:
    """The learner's mistakes list at one moment: every card still in it, soonest due first."""

    cards: list[Mistake]
    at: datetime

    @property
    def due(self) -> list[Mistake]:
        """Cards due now."""
        return [m for m in self.cards if due_of(m) <= self.at]

    @property
    def later(self) -> list[Mistake]:
        """Cards not due yet, soonest first."""
        return [m for m in self.cards if due_of(m) > self.at]

    @property
    def next_due(self) -> datetime | None:
        """When the next card that is not due yet becomes due (naive UTC), or None."""
        later = self.later
        return due_of(later[0]) if later else None

    def replay(self, more: bool = False) -> list[Mistake]:
        """The cards to replay, in order: those due now; with ``more`` then the others, soonest due first
        (a replay takes the first :data:`REPLAY_SIZE`)."""
        return self.cards if more else self.due


def queue(db: Session, learner: Learner | None) -> Queue:
    at = now()
    if learner is None:
        return Queue([], at)
    rows = db.scalars(select(Mistake).where(Mistake.learner_id == learner.id, Mistake.streak < LEAVE_AFTER)
                      .order_by(Mistake.due, Mistake.added_at, Mistake.id))
    return Queue(list(rows), at)
