"""A class's results on a quiz assignment at class size: one row per learner (a cell per question),
sorting and filtering them, the class summary and each question's figures. Pure Python over the
rows the views read (:class:`~tutor.domain.models.Membership`,
:class:`~tutor.domain.models.ClassAttempt`); no Flask.

**Cells** (:class:`Cell`): the learner's *first* attempt at each question scores (as
:func:`tutor.domain.classes.score`): right gives the question's ``points``, wrong 0.

**Status** of a learner (:attr:`LearnerRow.status`): ``not-started`` (no answer), ``not-finished``
(some questions without an answer), ``finished`` (every question answered at least once).

**Time** (:attr:`LearnerRow.seconds`): seconds from the learner's first answer to their last first
answer (the time it took them to answer every question they answered once); None before a first
answer, 0 with one answer.

**Summary** (:func:`summary`), over the learners who started (the ones with a score; Moodle's quiz
report averages the attempts made, too): ``mean`` and ``median`` of their points (the median of an
even count is the mean of the two middle scores), and the **distribution**: how many of them scored
in each tenth of the points available, ``[0 %, 10 %)``, ``[10 %, 20 %)`` ... ``[90 %, 100 %]``
(full marks fall in the last bin).

**Per question** (:func:`question_figures`):

* ``facility`` — the facility index: the share of the learners who answered it who were right at
  their first try, 0..1 (:class:`tutor.domain.classes.QuestionStats` ``facility``: the mean
  first-try mark over the points, the same number as the marks are all or nothing);
* ``discrimination`` — the discrimination index D of classical test theory with Kelley's
  upper and lower 27 % groups (T. L. Kelley, "The selection of upper and lower groups for the
  validation of test items", J. Educ. Psychol. 30 (1939) 17-24): the learners who started, ranked by
  their total points (ties: the earlier member first), ``k = max(1, round(0.27 × N))`` from the top
  and from the bottom; ``D = (right in the upper group − right in the lower group) / k``, where
  right is a right first try (no answer counts as not right). −1..1: near 1 the learners who did
  well overall got it right and the others did not; 0 or below, the question does not tell them
  apart (or misleads). None with fewer than 2 learners started;
* ``wrong`` — the most common wrong answer over every attempt and how many times it was given
  (ties go to the one given first), as :func:`tutor.domain.classes.question_stats` counts it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from .classes import first_attempts, points_of, question_stats
from .models import ClassAttempt, Membership

__all__ = [
    "BINS",
    "SORTS",
    "STATUSES",
    "Cell",
    "LearnerRow",
    "QuestionFigures",
    "Summary",
    "discrimination",
    "filter_rows",
    "learner_rows",
    "question_figures",
    "sort_rows",
    "summary",
]

#: The sort keys of the grid (query parameter ``sort``).
SORTS = ("name", "score", "time")
#: The status filters (query parameter ``show``); ``all`` keeps every row.
STATUSES = ("all", "not-started", "not-finished", "finished")
#: Bins of the score distribution (tenths of the points available).
BINS = 10
#: Kelley's share of the learners in each of the upper and lower groups.
GROUP_SHARE = 0.27

Status = Literal["not-started", "not-finished", "finished"]


@dataclass(frozen=True)
class Cell:
    """One learner at question ``n`` (from 1): ``first`` is their first attempt (None: not
    answered), ``attempts`` how many they made, ``points`` scored by the first one of
    ``available``; ``drawn`` False for a question of a random draw's pool not drawn for them."""

    n: int
    first: ClassAttempt | None
    attempts: int
    points: int
    available: int
    drawn: bool = True

    @property
    def answered(self) -> bool:
        return self.first is not None

    @property
    def correct(self) -> bool | None:
        """True or False for the first try; None if not answered."""
        return self.first.correct if self.first is not None else None


@dataclass(frozen=True)
class LearnerRow:
    """One learner's row of the grid (see the module docstring for ``status`` and ``seconds``)."""

    member: Membership
    cells: tuple[Cell, ...]
    got: int
    total: int
    first_at: datetime | None
    last_at: datetime | None

    @property
    def answered(self) -> int:
        return sum(1 for c in self.cells if c.answered)

    @property
    def status(self) -> Status:
        if self.answered == 0:
            return "not-started"
        return "finished" if self.answered >= sum(1 for c in self.cells if c.drawn) else "not-finished"

    @property
    def seconds(self) -> int | None:
        if self.first_at is None or self.last_at is None:
            return None
        return max(0, round((self.last_at - self.first_at).total_seconds()))

    @property
    def share(self) -> float:
        """Points scored over points available, 0..1 (0 for a quiz without points)."""
        return self.got / self.total if self.total else 0.0


def learner_rows(questions: Sequence[Mapping[str, Any]], members: Sequence[Membership],
                 attempts: Sequence[ClassAttempt],
                 drawn: Callable[[int], Collection[int] | None] | None = None) -> list[LearnerRow]:
    """A row per member, in the order of ``members``; ``attempts`` oldest first (any learner's:
    only the members' count). ``drawn(learner id)``: the places (from 1) of the questions that
    learner was given, when not all of them (a random draw, :class:`~tutor.domain.assignments.
    DrawAssignment`); their score and total count those places only."""
    firsts = first_attempts(attempts)
    counts: dict[tuple[int, int], int] = {}
    for t in attempts:
        counts[(t.learner_id, t.position)] = counts.get((t.learner_id, t.position), 0) + 1
    out = []
    for m in members:
        given = drawn(m.learner_id) if drawn is not None else None
        cells = []
        for n, q in enumerate(questions, 1):
            first = firsts.get((m.learner_id, n))
            pts = points_of(q)
            cells.append(Cell(n, first, counts.get((m.learner_id, n), 0),
                              pts if first is not None and first.correct else 0, pts,
                              given is None or n in given))
        times = [c.first.created_at for c in cells if c.first is not None and c.first.created_at is not None]
        out.append(LearnerRow(m, tuple(cells), sum(c.points for c in cells), sum(c.available for c in cells if c.drawn),
                              min(times) if times else None, max(times) if times else None))
    return out


def sort_rows(rows: Sequence[LearnerRow], key: str, descending: bool = False) -> list[LearnerRow]:
    """``rows`` sorted by ``key`` (one of :data:`SORTS`; another is read as ``name``): ``name``
    (case ignored), ``score`` (points, then name) or ``time`` (:attr:`LearnerRow.seconds`, then
    name; learners without a time come last either way). ``descending`` reverses the order of the
    key (names stay A to Z within a tie)."""
    def name(r: LearnerRow) -> tuple[str, int]:
        return r.member.nickname.casefold(), r.member.id

    by_name = sorted(rows, key=name, reverse=descending and key not in ("score", "time"))
    if key == "score":
        return sorted(by_name, key=lambda r: r.got, reverse=descending)
    if key == "time":
        timed = sorted((r for r in by_name if r.seconds is not None), key=lambda r: r.seconds or 0, reverse=descending)
        return timed + [r for r in by_name if r.seconds is None]
    return by_name


def filter_rows(rows: Sequence[LearnerRow], status: str = "all", text: str = "") -> list[LearnerRow]:
    """The rows of ``status`` (one of :data:`STATUSES`; ``all`` or another value keeps them all)
    whose nickname contains ``text`` (case ignored; blank keeps them all)."""
    needle = text.strip().casefold()
    return [r for r in rows if (status not in STATUSES[1:] or r.status == status)
            and (not needle or needle in r.member.nickname.casefold())]


@dataclass(frozen=True)
class Summary:
    """The class summary (see the module docstring): ``learners`` members, ``started`` and
    ``finished`` counts, ``mean`` and ``median`` points of the learners who started (None if
    nobody did) of ``total``, ``bins`` (:data:`BINS` counts, lowest tenth first), and the members
    who have not started and who have not finished."""

    learners: int
    started: int
    finished: int
    total: int
    mean: float | None
    median: float | None
    bins: tuple[int, ...]
    not_started: tuple[Membership, ...]
    not_finished: tuple[Membership, ...]

    @property
    def largest_bin(self) -> int:
        return max(self.bins) if self.bins else 0


def _bin(got: int, total: int) -> int:
    if total <= 0:
        return 0
    return min(BINS - 1, int(got * BINS // total))


def summary(rows: Sequence[LearnerRow], total: int) -> Summary:
    """The summary of ``rows`` (every member's, :func:`learner_rows`) of a quiz of ``total`` points."""
    started = [r for r in rows if r.status != "not-started"]
    scores = [r.got for r in started]
    bins = [0] * BINS
    for r in started:
        bins[_bin(r.got, r.total)] += 1
    return Summary(len(rows), len(started), sum(1 for r in rows if r.status == "finished"), total,
                   statistics.fmean(scores) if scores else None, statistics.median(scores) if scores else None,
                   tuple(bins), tuple(r.member for r in rows if r.status == "not-started"),
                   tuple(r.member for r in rows if r.status == "not-finished"))


def discrimination(rows: Sequence[LearnerRow], n: int) -> float | None:
    """Kelley's upper-lower discrimination index of question ``n`` (from 1) over ``rows`` (see
    the module docstring); None with fewer than 2 learners started."""
    groups = _groups(rows)
    return _index(groups, n) if groups is not None else None


def _groups(rows: Sequence[LearnerRow]) -> tuple[list[LearnerRow], list[LearnerRow]] | None:
    """Kelley's upper and lower groups of ``rows`` (None with fewer than 2 learners started)."""
    started = [r for r in rows if r.status != "not-started"]
    if len(started) < 2:
        return None
    ranked = sorted(started, key=lambda r: (-r.got, r.member.id))
    k = max(1, round(GROUP_SHARE * len(started)))
    return ranked[:k], ranked[-k:]


def _index(groups: tuple[list[LearnerRow], list[LearnerRow]], n: int) -> float:
    upper, lower = groups
    return (sum(1 for r in upper if r.cells[n - 1].correct) - sum(1 for r in lower if r.cells[n - 1].correct)) / len(upper)


@dataclass(frozen=True)
class QuestionFigures:
    """One question's figures (see the module docstring): ``n`` from 1, ``answered`` learners,
    ``attempts`` in all, ``share`` right of all attempts, ``facility``, ``discrimination`` and the
    most common ``wrong`` answer (the kind's normalised value) given ``wrong_count`` times."""

    n: int
    points: int
    answered: int
    attempts: int
    share: float | None
    facility: float | None
    discrimination: float | None
    wrong: Any
    wrong_count: int


def question_figures(questions: Sequence[Mapping[str, Any]], rows: Sequence[LearnerRow],
                     attempts: Sequence[ClassAttempt]) -> list[QuestionFigures]:
    """The figures of every question; ``attempts`` oldest first, the members' only."""
    groups = _groups(rows)
    return [QuestionFigures(s.n, points_of(q), s.learners, s.attempts, s.share, s.facility,
                            _index(groups, s.n) if groups is not None else None, s.wrong, s.wrong_count)
            for q, s in zip(questions, question_stats(questions, attempts), strict=True)]
