"""An assignment's settings and what they allow: practice or test mode, attempts, time limit,
open and close dates, shuffles (Moodle's quiz settings are the reference).

The settings live on :class:`~tutor.domain.models.Assignment` (``mode``, ``attempts_allowed``,
``time_limit``, ``opens_at``, ``closes_at``, ``released_at``, ``shuffle_questions``,
``shuffle_options``); this module is their one home: the views ask it, never the columns.

* **Mode.** ``practice`` (the default, the behaviour before settings): the verdict, the right
  answer and the engine's reasons right after each answer. ``test``: an answer is recorded and
  the learner reads only "Answer saved"; the verdicts, key and reasons of every question (pages
  and API alike) are held back until the close date has passed or the teacher released the
  results (:func:`results_visible`).
* **Attempts allowed** (``attempts_allowed``): how many times a learner may answer each question
  of the assignment, counted per learner, assignment and question; None (practice only): as
  often as they like. The first answer at each question is the one that scores, as before (Moodle's
  grading method "first attempt"); "Try again" shows only while attempts remain
  (:func:`attempts_left`), and in test mode only once the results are visible.
* **Time limit** (``time_limit``, minutes): runs from the learner's start
  (:class:`~tutor.domain.models.AssignmentStart`, made by the start button); an answer later than
  the limit plus :data:`GRACE` is refused (:func:`refusal`), so is one before the start.
* **Open and close dates** (naive UTC): not answerable before ``opens_at`` nor after
  ``closes_at`` (:func:`state`); ``due`` stays the soft due date ("late" after it).
* **Shuffles**: the questions (:func:`order`) and a question's options (:func:`shuffled`) in an
  order of each learner's own, seeded by assignment, learner (and question), so the same on
  every reload and different between learners.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.kinds.base import N_

from .models import Assignment, AssignmentStart, ClassAttempt, Classroom

__all__ = [
    "GRACE",
    "MAX_ATTEMPTS",
    "MAX_TIME_LIMIT",
    "MODES",
    "Refusal",
    "Settings",
    "apply",
    "attempts_left",
    "deadline",
    "order",
    "problems",
    "refusal",
    "results_visible",
    "settings_of",
    "shuffled",
    "start",
    "start_of",
    "state",
]

#: The modes, the default first.
MODES = ("practice", "test")
#: An answer sent this long after the time limit is still taken (the page's clock, the network).
GRACE = timedelta(seconds=30)
#: The most attempts a teacher may allow (more: choose unlimited, in practice mode).
MAX_ATTEMPTS = 20
#: The longest time limit, in minutes (a school day).
MAX_TIME_LIMIT = 600

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """An assignment's settings as a teacher chooses them (see the module docstring); dates naive UTC."""

    mode: str = "practice"
    attempts: int | None = None
    time_limit: int | None = None
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    shuffle_questions: bool = False
    shuffle_options: bool = False


def settings_of(a: Assignment) -> Settings:
    """The settings of ``a``."""
    return Settings(a.mode or "practice", a.attempts_allowed, a.time_limit, a.opens_at, a.closes_at,
                    bool(a.shuffle_questions), bool(a.shuffle_options))


def problems(s: Settings, *, now: datetime, new: bool) -> dict[str, str]:
    """What is wrong with ``s``: field name (``mode``, ``attempts``, ``time_limit``, ``opens_at``,
    ``closes_at``) -> its message in the current language; empty when they can be saved. ``new``:
    for an assignment being made, where a close date already passed is refused (a teacher editing
    one may close it now by choosing a past date)."""
    out: dict[str, str] = {}
    if s.mode not in MODES:
        out["mode"] = i18n.gettext(N_("Choose practice or test mode."))
    if s.attempts is not None and not 1 <= s.attempts <= MAX_ATTEMPTS:
        out["attempts"] = i18n.gettext(N_("A whole number from %(low)s to %(high)s."), low=i18n.fmt_number(1),
                                       high=i18n.fmt_number(MAX_ATTEMPTS, group=False))
    elif s.attempts is None and s.mode == "test":
        out["attempts"] = i18n.gettext(N_("A test needs a number of attempts (unlimited is for practice)."))
    if s.time_limit is not None and not 1 <= s.time_limit <= MAX_TIME_LIMIT:
        out["time_limit"] = i18n.gettext(N_("A whole number from %(low)s to %(high)s."), low=i18n.fmt_number(1),
                                         high=i18n.fmt_number(MAX_TIME_LIMIT, group=False))
    if s.opens_at is not None and s.closes_at is not None and s.closes_at <= s.opens_at:
        out["closes_at"] = i18n.gettext(N_("The close date must be after the open date."))
    elif new and s.closes_at is not None and s.closes_at <= now:
        out["closes_at"] = i18n.gettext(N_("This close date has passed: choose a later one."))
    return out


def apply(a: Assignment, s: Settings) -> None:
    """Put the settings ``s`` (checked by :func:`problems`) on ``a``."""
    a.mode, a.attempts_allowed, a.time_limit = s.mode, s.attempts, s.time_limit
    a.opens_at, a.closes_at = s.opens_at, s.closes_at
    a.shuffle_questions, a.shuffle_options = s.shuffle_questions, s.shuffle_options


def state(a: Assignment, now: datetime) -> str:
    """``"not-open"`` before its open date, ``"closed"`` from its close date on, else ``"open"``."""
    if a.opens_at is not None and now < a.opens_at:
        return "not-open"
    if a.closes_at is not None and now >= a.closes_at:
        return "closed"
    return "open"


def results_visible(a: Assignment, now: datetime) -> bool:
    """Whether the learners may see the verdicts, keys and reasons of ``a``: always in practice
    mode; in test mode once the teacher released them or the close date has passed."""
    if (a.mode or "practice") != "test":
        return True
    return a.released_at is not None or (a.closes_at is not None and now >= a.closes_at)


def attempts_left(a: Assignment, used: int) -> int | None:
    """Attempts a learner has left at a question they answered ``used`` times; None: no limit."""
    if a.attempts_allowed is None:
        return None
    return max(0, a.attempts_allowed - used)


def start_of(db: Session, a: Assignment, learner_id: int) -> AssignmentStart | None:
    """The learner's start of ``a`` (None: not started)."""
    return db.scalar(select(AssignmentStart).where(AssignmentStart.assignment_id == a.id,
                                                   AssignmentStart.learner_id == learner_id))


def start(db: Session, a: Assignment, learner_id: int, now: datetime) -> AssignmentStart:
    """The learner's start of ``a``, made now if there is none yet (not committed)."""
    row = start_of(db, a, learner_id)
    if row is None:
        row = AssignmentStart(assignment_id=a.id, learner_id=learner_id, started_at=now)
        db.add(row)
    return row


def deadline(a: Assignment, started: AssignmentStart | None) -> datetime | None:
    """When the learner's time is up (naive UTC, without :data:`GRACE`): their start plus the time
    limit, or the close date if sooner; None when neither applies."""
    ends = [t for t in (started.started_at + timedelta(minutes=a.time_limit)
                        if started is not None and a.time_limit else None, a.closes_at) if t is not None]
    return min(ends) if ends else None


@dataclass(frozen=True)
class Refusal:
    """Why an answer is not taken: ``code`` (the API's error code) and ``message`` (current language)."""

    code: str
    message: str


def archived(cls: Classroom | None) -> Refusal | None:
    """Why nothing of class ``cls`` may be answered (code ``archived``: the teacher archived the
    class; its answers are kept, it takes no more), or None. Every way a learner answers a class's
    work asks it: the quiz pages and the class API (:func:`refusal`), a teacher's lesson's page and
    the live quiz (:func:`tutor.domain.live.answer`)."""
    if cls is not None and cls.archived_at is not None:
        return Refusal("archived", i18n.gettext(N_("This class is archived: its assignments take no more answers.")))
    return None


def refusal(db: Session, a: Assignment, learner_id: int, position: int, now: datetime) -> Refusal | None:
    """Why the learner may not answer question ``position`` (its stored place) of ``a`` now, or None:
    its class archived (:func:`archived`), not open yet, closed, not started (a timed assignment), time up (after the limit plus
    :data:`GRACE`), no attempts left, or (test mode) answered already and its results not shown yet."""
    shut = archived(db.get(Classroom, a.classroom_id))
    if shut is not None:
        return shut
    when = state(a, now)
    if when == "not-open":
        return Refusal("not-open", i18n.gettext(N_("This assignment is not open yet.")))
    if when == "closed":
        return Refusal("closed", i18n.gettext(N_("This assignment is closed: answers are no longer taken.")))
    if a.time_limit:
        started = start_of(db, a, learner_id)
        if started is None:
            return Refusal("not-started", i18n.gettext(N_("Start the assignment first: its time runs from then.")))
        if now > started.started_at + timedelta(minutes=a.time_limit) + GRACE:
            return Refusal("time-up", i18n.gettext(N_("Your time is up: answers after the time limit are not "
                                                      "recorded.")))
    used = len(db.scalars(select(ClassAttempt.id).where(
        ClassAttempt.assignment_id == a.id, ClassAttempt.learner_id == learner_id,
        ClassAttempt.position == position)).all())
    left = attempts_left(a, used)
    if left == 0:
        return Refusal("no-attempts-left", i18n.gettext(N_("You have used every attempt at this question.")))
    if used and not results_visible(a, now):
        return Refusal("answered", i18n.gettext(N_("Your answer to this question is saved; you cannot change it "
                                                   "in a test.")))
    return None


def _rng(*parts: object) -> random.Random:
    """A random generator seeded by ``parts`` (stable across processes, unlike ``hash``)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def order(a: Assignment, learner_id: int, count: int) -> list[int]:
    """The stored places (1-based) of the ``count`` questions of ``a`` in the order learner
    ``learner_id`` sees them: shuffled, seeded by assignment and learner, if ``shuffle_questions``."""
    places = list(range(1, count + 1))
    if a.shuffle_questions:
        _rng("questions", a.id, learner_id).shuffle(places)
    return places


def shuffled(a: Assignment, learner_id: int, position: int, options: Sequence[T]) -> list[T]:
    """The options of question ``position`` in the learner's order: shuffled, seeded by assignment,
    learner and question, if ``shuffle_options``; as they are otherwise."""
    out = list(options)
    if a.shuffle_options:
        _rng("options", a.id, learner_id, position).shuffle(out)
    return out
