"""The progress dashboard of one learner: figures from SQL, charts drawn as SVG on the server.

Everything here is bounded whatever the learner's history: each figure is one aggregate query
(``COUNT``/``SUM``/``AVG`` ... ``GROUP BY``), and the mistakes list is one page of
:data:`PAGE_SIZE` rows (``LIMIT``/``OFFSET``, on the index ``mistake (learner_id, streak, due)``).
Nothing is built per attempt in Python. Skills and their mastery are those of
:mod:`tutor.domain.mastery` (a learner has at most one row per kind x ruleset x rule point).

The charts (:func:`bars_svg`, :func:`columns_svg`) are plain SVG text: no script, no style
attribute (colours come from classes in ``tutor.css``), ``aria-hidden`` because each one is
followed on the page by a table holding the same numbers for screen readers. Right-to-left
languages get mirrored charts: bars grow from the right and time runs from right to left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import ColumnElement, Integer, Select, case, cast, func, select
from sqlalchemy.orm import Session

from tutor import i18n

from .mastery import MASTERED, WEAK
from .models import Attempt, Learner, Mistake, SkillMastery
from .review import LEAVE_AFTER

__all__ = ["PAGE_SIZE", "WEEKS", "Bar", "Column", "Filters", "Forecast", "accuracy_weeks", "bars_svg",
           "columns_svg", "daily", "forecast", "mastery_by_game", "mistakes_page", "next_change", "rule_mastery",
           "skills", "streak", "totals", "week_label"]

#: Mistakes shown per page of the list.
PAGE_SIZE = 20
#: Weeks of the accuracy chart (7-day windows, the last ending today).
WEEKS = 8
#: Most strong and most weak rules listed.
TOP_RULES = 5


# ---------------------------------------------------------------------------------------------- figures

def totals(db: Session, learner: Learner) -> tuple[int, int]:
    """(answers, right answers) of the learner: one query."""
    row = db.execute(select(func.count(), func.coalesce(func.sum(cast(Attempt.correct, Integer)), 0))
                     .where(Attempt.learner_id == learner.id)).one()
    return int(row[0]), int(row[1])


def _day(value: object) -> date:
    """A ``DATE(...)`` result as a date: PostgreSQL gives a date, SQLite a ``YYYY-MM-DD`` string."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def daily(db: Session, learner: Learner, at: datetime, days: int) -> dict[date, tuple[int, int]]:
    """Day (UTC) -> (answers, right answers) over the last ``days`` days up to today: one query
    grouped by day (at most ``days`` rows), on the index ``attempt (learner_id, created_at)``."""
    start = at.date() - timedelta(days=days - 1)
    rows = db.execute(
        select(func.date(Attempt.created_at), func.count(), func.sum(cast(Attempt.correct, Integer)))
        .where(Attempt.learner_id == learner.id,
               Attempt.created_at >= datetime(start.year, start.month, start.day))
        .group_by(func.date(Attempt.created_at)))
    return {_day(d): (int(n), int(right or 0)) for d, n, right in rows}


def streak(db: Session, learner: Learner, at: datetime, per_day: dict[date, tuple[int, int]] | None = None,
           days: int = 7 * WEEKS) -> int:
    """Days in a row (UTC) with at least one answer, up to today; a streak whose last day is
    yesterday still counts (today is not over). ``per_day`` is :func:`daily` over ``days`` days
    (read here if not given); only a streak that fills them reads further, up to 400 days."""
    for window in (days, 400):
        if per_day is None or window != days:
            per_day = daily(db, learner, at, window)
        today = at.date()
        day = today if today in per_day else today - timedelta(days=1)
        n = 0
        while day in per_day:
            n += 1
            day -= timedelta(days=1)
        if n < window - 1 or window == 400:
            return n
    return n


@dataclass(frozen=True)
class Column:
    """One week of the accuracy chart: its first and last day, answers and right answers."""

    first: date
    last: date
    answered: int
    right: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None


def accuracy_weeks(db: Session, learner: Learner, at: datetime, weeks: int = WEEKS,
                   per_day: dict[date, tuple[int, int]] | None = None) -> list[Column]:
    """Answers and right answers in each of the last ``weeks`` 7-day windows (oldest first, the
    last one ending today, UTC), from ``per_day`` (:func:`daily` over ``7 * weeks`` days; read
    here if not given)."""
    if per_day is None:
        per_day = daily(db, learner, at, 7 * weeks)
    start = at.date() - timedelta(days=7 * weeks - 1)
    cols = [[0, 0] for _ in range(weeks)]
    for d, (n, right) in per_day.items():
        i = (d - start).days // 7
        if 0 <= i < weeks:
            cols[i][0] += n
            cols[i][1] += right
    return [Column(start + timedelta(days=7 * i), start + timedelta(days=7 * i + 6), n, r)
            for i, (n, r) in enumerate(cols)]


@dataclass(frozen=True)
class Forecast:
    """The review forecast: cards in the mistakes list, due now, due by the end of today (UTC),
    due within 7 days from now."""

    listed: int
    now: int
    today: int
    week: int


def forecast(db: Session, learner: Learner, at: datetime) -> Forecast:
    """One query over the learner's mistakes list."""
    end_of_day = datetime(at.year, at.month, at.day) + timedelta(days=1)
    week = at + timedelta(days=7)

    def upto(t: datetime) -> ColumnElement[Any]:
        return func.coalesce(func.sum(case((Mistake.due <= t, 1), else_=0)), 0)
    row = db.execute(select(func.count(), upto(at), upto(end_of_day), upto(week))
                     .where(Mistake.learner_id == learner.id, Mistake.streak < LEAVE_AFTER)).one()
    return Forecast(*(int(v) for v in row))


def next_change(db: Session, learner: Learner, at: datetime) -> datetime:
    """The first moment after ``at`` (naive UTC) at which the figures of :func:`forecast`, the
    mistakes' "due now" and the per-day figures change with no new answer: the next card to
    fall due, the next to come within :func:`forecast`'s week, or the end of the day (UTC).
    One query."""
    week = timedelta(days=7)
    end_of_day = datetime(at.year, at.month, at.day) + timedelta(days=1)
    row = db.execute(select(func.min(case((Mistake.due > at, Mistake.due))),
                            func.min(case((Mistake.due > at + week, Mistake.due))))
                     .where(Mistake.learner_id == learner.id, Mistake.streak < LEAVE_AFTER)).one()
    times: list[datetime] = [end_of_day] + [t for t in (row[0], row[1] - week if row[1] is not None else None) if t is not None]
    return min(times)


def skills(db: Session, learner: Learner) -> list[SkillMastery]:
    """Every skill the learner has practised (ruleset, kind, rule order)."""
    return list(db.scalars(select(SkillMastery).where(SkillMastery.learner_id == learner.id)
                           .order_by(SkillMastery.ruleset, SkillMastery.kind, SkillMastery.rule)))


def mastery_by_game(db: Session, learner: Learner) -> dict[str, tuple[float, int]]:
    """Ruleset -> (mean mastery of its practised skills, number of skills): one grouped query."""
    rows = db.execute(select(SkillMastery.ruleset, func.avg(SkillMastery.p_known), func.count())
                      .where(SkillMastery.learner_id == learner.id).group_by(SkillMastery.ruleset))
    return {r: (float(avg), int(n)) for r, avg, n in rows}


@dataclass(frozen=True)
class RuleMastery:
    """A rule point of a ruleset over every kind that exercised it: mean mastery, answers, right."""

    ruleset: str
    rule: str
    p: float
    attempts: int
    right: int


def rule_mastery(db: Session, learner: Learner) -> tuple[list[RuleMastery], list[RuleMastery]]:
    """(strong rules, weak rules): rules at or above :data:`~tutor.domain.mastery.MASTERED` mean mastery,
    best first, and below :data:`~tutor.domain.mastery.WEAK`, weakest first; at most
    :data:`TOP_RULES` of each. One grouped query."""
    rows = [RuleMastery(r, rule, float(p), int(n), int(right or 0)) for r, rule, p, n, right in db.execute(
        select(SkillMastery.ruleset, SkillMastery.rule, func.avg(SkillMastery.p_known),
               func.sum(SkillMastery.attempts), func.sum(SkillMastery.right))
        .where(SkillMastery.learner_id == learner.id).group_by(SkillMastery.ruleset, SkillMastery.rule))]
    strong = sorted((x for x in rows if x.p >= MASTERED), key=lambda x: (-x.p, x.ruleset, x.rule))[:TOP_RULES]
    weak = sorted((x for x in rows if x.p < WEAK), key=lambda x: (x.p, x.ruleset, x.rule))[:TOP_RULES]
    return strong, weak


@dataclass(frozen=True)
class Filters:
    """Filters of the mistakes list and its replay: ruleset, kind, rule point (None: any)."""

    game: str | None = None
    kind: str | None = None
    rule: str | None = None

    def apply(self, q: Select[Mistake]) -> Select[Mistake]:
        if self.game:
            q = q.where(Mistake.ruleset == self.game)
        if self.kind:
            q = q.where(Mistake.kind == self.kind)
        if self.rule:
            q = q.where(Mistake.rules.like(f"% {self.rule} %"))
        return q

    def args(self) -> dict[str, str]:
        return {k: v for k, v in (("game", self.game), ("kind", self.kind), ("rule", self.rule)) if v}


@dataclass
class Page:
    """One page of the mistakes list: its rows (soonest due first), whether more follow, how many
    match the filters."""

    rows: list[Mistake]
    more: bool
    total: int
    number: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def mistakes_page(db: Session, learner: Learner, filters: Filters, number: int = 0, *,
                  due_before: datetime | None = None, size: int = PAGE_SIZE) -> Page:
    """Page ``number`` (from 0) of the learner's mistakes list matching ``filters``, soonest due
    first: one ``LIMIT size + 1`` query and one count (``due_before``: only cards due by then)."""
    base = select(Mistake).where(Mistake.learner_id == learner.id, Mistake.streak < LEAVE_AFTER)
    base = filters.apply(base)
    if due_before is not None:
        base = base.where(Mistake.due <= due_before)
    rows = list(db.scalars(base.order_by(Mistake.due, Mistake.added_at, Mistake.id)
                           .limit(size + 1).offset(number * size)))
    total = db.scalar(select(func.count()).select_from(base.subquery()))
    return Page(rows[:size], len(rows) > size, int(total or 0), number)


# ---------------------------------------------------------------------------------------------- charts

@dataclass(frozen=True)
class Bar:
    """One bar: its label, value from 0 to 1, and the value as text."""

    label: str
    value: float
    text: str
    css: str = ""


def _text(x: float, y: float, s: str, side: str, rtl: bool, css: str = "") -> str:
    """A text element whose ``side`` end ("left" or "right") is at ``x`` (absolute page sides)."""
    if rtl:
        anchor = "start" if side == "right" else "end"
        extra = ' direction="rtl"'
    else:
        anchor = "start" if side == "left" else "end"
        extra = ""
    cls = f' class="{css}"' if css else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{extra}{cls}>{escape(s)}</text>'


def bars_svg(bars: Sequence[Bar], rtl: bool, width: int = 400) -> Markup:
    """Horizontal bars, one per row: its label and value text above a track filled to the value
    (from the left, or from the right when ``rtl``). Decorative: the page puts the same numbers in
    a table."""
    row = 40
    height = max(row * len(bars), row)
    parts = [f'<svg class="chart bars" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" direction="ltr" aria-hidden="true" focusable="false">']
    start_side, end_side = ("right", "left") if rtl else ("left", "right")
    x0, x1 = (width - 2, 2) if rtl else (2, width - 2)
    for i, b in enumerate(bars):
        y = i * row
        parts.append(_text(x0, y + 15, b.label, start_side, rtl, "label"))
        parts.append(_text(x1, y + 15, b.text, end_side, rtl, "value"))
        track = width - 4
        w = max(0.0, min(1.0, b.value)) * track
        parts.append(f'<rect class="track" x="2" y="{y + 21}" width="{track}" height="12" rx="3"/>')
        bx = width - 2 - w if rtl else 2
        parts.append(f'<rect class="bar {b.css}" x="{bx:.1f}" y="{y + 21}" width="{w:.1f}" height="12" rx="3"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def columns_svg(cols: Sequence[tuple[str, float | None, str]], rtl: bool, width: int = 400,
                height: int = 176, label_every: int = 2) -> Markup:
    """Columns over time, oldest first (at the left, or the right when ``rtl``): each
    ``(label, value 0..1 or None for no data, value text)``; the value text above the column, and
    the label under every ``label_every``-th column counting back from the newest, marked by a
    tick on the axis. So that labels as long as a week's ("28 Nov – 4 Dec") fit on a phone, they
    take two rows in turn (the newest's on the upper one), and a label under an outermost column
    ends at the chart's edge; they read right to left when ``rtl``. Each column is titled with its
    label and value (shown on hover). Decorative: the page puts the same labels and numbers in a
    table."""
    n = max(len(cols), 1)
    slot = width / n
    line = 16  # one row of labels
    base = height - 6 - 2 * line
    top = 18
    parts = [f'<svg class="chart columns" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" direction="ltr" aria-hidden="true" focusable="false">',
             f'<line class="axis" x1="0" y1="{base}" x2="{width}" y2="{base}"/>']
    for i, (label, value, text) in enumerate(cols):
        j = n - 1 - i if rtl else i
        cx = slot * j + slot / 2
        if value is not None:
            h = max(0.0, min(1.0, value)) * (base - top)
            parts.append(f'<g><title>{escape(label)}: {escape(text)}</title>'
                         f'<rect class="bar" x="{cx - slot * 0.3:.1f}" y="{base - h:.1f}" width="{slot * 0.6:.1f}" '
                         f'height="{h:.1f}" rx="2"/></g>')
            parts.append(f'<text class="value" x="{cx:.1f}" y="{base - h - 4:.1f}" text-anchor="middle">'
                         f'{escape(text)}</text>')
        back, rest = divmod(n - 1 - i, label_every)
        if rest:
            continue  # the newest column always has its label
        y = height - 6 - (line if back % 2 == 0 else 0)
        parts.append(f'<line class="axis" x1="{cx:.1f}" y1="{base}" x2="{cx:.1f}" y2="{base + 4}"/>')
        if n > 1 and j in (0, n - 1):  # at the chart's edge, the label ends there
            parts.append(_text(1 if j == 0 else width - 1, y, label, "left" if j == 0 else "right", rtl, "label"))
        else:
            extra = ' direction="rtl"' if rtl else ""
            parts.append(f'<text class="label" x="{cx:.1f}" y="{y}" text-anchor="middle"{extra}>{escape(label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def percent(p: float) -> str:
    """``p`` (0..1) as a whole percentage in the current language's digits and sign ("۸۰٪")."""
    return i18n.fmt_percent(p)


def week_label(c: Column) -> str:
    """A week of the accuracy chart as the days it spans ("24 – 30 Nov") in the current language
    and digits: the label of its column and of its row in the table beside the chart."""
    return i18n.fmt_day_range(c.first, c.last)
