"""Spaced-repetition reviews of the learner's mistakes, scheduled with FSRS (the ``fsrs`` package).

Like a deck in Anki, every exercise the learner gets wrong becomes a review card (one
:class:`~tutor.domain.models.Mistake` row, the card state kept as ``fsrs.Card.to_dict()`` JSON):

* The first wrong answer adds a **new card, due at once** (as Anki adds a new card: its first
  review is the next time the learner meets the exercise).
* Every later answer to the same exercise is a review: a wrong answer is ``Rating.Again`` (the card
  goes back to the first learning step, or lapses into relearning, and the right-answer streak
  restarts), a right answer is ``Rating.Good`` (the card stays, due later).
* A card **leaves the mistakes list** once it has been answered right :data:`LEAVE_AFTER` times in a
  row. Its row and card state stay in the table, so if the learner gets the exercise wrong again
  later the card comes back with its memory state (as a lapse) rather than as a new card.

"Replay my mistakes" serves the cards in the list that are due now, soonest first; asked for
more, it goes on with those due next. Times come from :func:`tutor.domain.db.now`, the app's one clock
(``CLOCK`` in the app config), so tests can move time forward. Fuzzing of intervals is off: the
same answers at the same times always give the same due dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from fsrs import Card, Rating, Scheduler
from sqlalchemy import Row, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from .db import now, table_of
from .models import Learner, Mistake

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


def card_of(row: Mistake | Row[*tuple[Any, ...]]) -> Card:
    """The row's scheduler card (a :class:`~tutor.domain.models.Mistake` or a row of its ``id``,
    ``card``, ``due`` and ``added_at``); a row from before spaced repetition is a new card, due
    when added."""
    if row.card:
        return Card.from_dict(cast("CardDict", row.card))  # the JSON that Card.to_dict() gave
    due = (row.due or row.added_at or now()).replace(tzinfo=UTC)
    return Card(card_id=row.id, due=due)


def due_of(row: Mistake) -> datetime:
    """When the row's card is due (naive UTC): ``due``, which every row has since the baseline
    migration; the day it was added for a row without one, as :func:`card_of` reads it."""
    return row.due or row.added_at


_MISTAKE = table_of(Mistake)
#: The card of one learner's exercise, as :func:`review` reads it (built once).
_CARD = (select(_MISTAKE.c.id, _MISTAKE.c.card, _MISTAKE.c.due, _MISTAKE.c.added_at, _MISTAKE.c.streak,
                _MISTAKE.c.rules)
         .where(_MISTAKE.c.learner_id == bindparam("learner"), _MISTAKE.c.exercise_ref == bindparam("ref")))


_INSERT = insert(_MISTAKE)
#: A card reviewed (parameters ``row`` and the columns set; built once).
_UPDATE = update(_MISTAKE).where(_MISTAKE.c.id == bindparam("row"))


def review(conn: Connection, learner_id: int, ref: str, ruleset: str, kind: str, correct: bool,
           rules: str | None = None) -> bool:
    """Schedule ``ref`` after an answer of the learner ``learner_id``, on ``conn`` inside the
    caller's transaction (nothing is committed): a first wrong answer adds a card, any later
    answer reviews it. ``rules``: the exercise's rule points (``Mistake.rules``), kept on the card.

    Returns whether the exercise has a card (False: a right answer that concerns none). Core
    statements, two at most: the card read, then its insert or update.
    """
    at = clock()
    row = conn.execute(_CARD, {"learner": learner_id, "ref": ref}).first()
    if row is None:
        if correct:
            return False
        card = Card(card_id=int(at.timestamp() * 1000), due=at)
        conn.execute(_INSERT, {"learner_id": learner_id, "exercise_ref": ref, "ruleset": ruleset, "kind": kind,
                               "added_at": _naive(at), "card": card.to_dict(), "due": _naive(card.due),
                               "streak": 0, "rules": rules})
        return True
    card, _log = SCHEDULER.review_card(card_of(row), Rating.Good if correct else Rating.Again, at)
    conn.execute(_UPDATE, {"row": row.id, "card": dict(card.to_dict()), "due": _naive(card.due),
                           "streak": (row.streak or 0) + 1 if correct else 0,
                           "rules": rules if rules and row.rules != rules else row.rules})
    return True


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
