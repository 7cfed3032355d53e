"""A class's gradebook: every member × every assignment of the class, and its files.

Each cell sums the learner's :class:`~tutor.domain.assignments.GradeItem` marks on the assignment,
as its kind gives them (:meth:`tutor.domain.assignments.AssignmentKind.items`): a quiz's points
of the first tries, a teacher's lesson's exercises answered right, a lesson unit's steps done.

Files (the same numbers as the page; headers in English, as the results CSV):

* **wide** — one row per learner: :data:`WIDE_FIXED` then one column per assignment, headed
  ``<title> (of <points available>)``, holding the points scored (empty before the learner's first
  answer to it);
* **long** — one row per learner × assignment × item (question, exercise or step):
  :data:`LONG_COLUMNS`, the times in UTC (ISO 8601 with ``Z`` in the CSV, date-times in the XLSX).

CSV (:func:`csv_text`) starts with a byte order mark (Excel reads it as UTF-8) and quotes a text
cell that a spreadsheet would read as a formula with a leading apostrophe
(:func:`tutor.domain.classes.csv_rows` does the same); the XLSX (:func:`xlsx_bytes`, openpyxl)
keeps such a text as text (never a formula) unchanged.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.orm import Session

from tutor.content.store import ContentStore

from .assignments import GradeItem, kind_of, title_of
from .classes import CSV_BOM
from .models import Assignment, Classroom, Membership

__all__ = ["LONG_COLUMNS", "WIDE_FIXED", "Gradebook", "Mark", "Shape", "csv_text", "gradebook", "long_rows", "wide_rows",
           "xlsx_bytes"]

#: The wide file's first columns (then one per assignment).
WIDE_FIXED = ("learner", "joined_at")
#: The long file's columns.
LONG_COLUMNS = ("class", "learner", "assignment", "assignment_kind", "item", "points_available", "points_scored",
                "attempts", "first_answer_at", "last_answer_at")

#: The two shapes of the files (see the module docstring).
Shape = Literal["wide", "long"]
Value = str | int | datetime | None


@dataclass(frozen=True)
class Mark:
    """One gradebook cell: ``scored`` of ``available`` over ``items``; ``started`` once any item
    has an answer (or a step was seen); ``last_at`` the latest time of its items."""

    items: tuple[GradeItem, ...]

    @property
    def scored(self) -> int:
        return sum(i.scored for i in self.items)

    @property
    def available(self) -> int:
        return sum(i.available for i in self.items)

    @property
    def started(self) -> bool:
        return any(i.attempts or i.last_at is not None for i in self.items)

    @property
    def last_at(self) -> datetime | None:
        times = [i.last_at for i in self.items if i.last_at is not None]
        return max(times) if times else None


@dataclass(frozen=True)
class Gradebook:
    """``classroom``'s ``members`` (rows) × ``assignments`` (columns), ``marks[(membership id,
    assignment id)]``."""

    classroom: Classroom
    members: tuple[Membership, ...]
    assignments: tuple[Assignment, ...]
    marks: dict[tuple[int, int], Mark]

    def mark(self, m: Membership, a: Assignment) -> Mark:
        return self.marks[(m.id, a.id)]

    def available(self, a: Assignment) -> int:
        """The points of ``a`` (the most any member can score: the same for all of them)."""
        return max((self.marks[(m.id, a.id)].available for m in self.members), default=0)


def gradebook(db: Session, classroom: Classroom, members: Sequence[Membership], assignments: Sequence[Assignment],
              store: ContentStore) -> Gradebook:
    """The gradebook of ``classroom`` (its ``members`` and ``assignments`` in the order given)."""
    ids = [m.learner_id for m in members]
    marks: dict[tuple[int, int], Mark] = {}
    for a in assignments:
        items = kind_of(a).items(db, a, ids, store)
        for m in members:
            marks[(m.id, a.id)] = Mark(tuple(items.get(m.learner_id, ())))
    return Gradebook(classroom, tuple(members), tuple(assignments), marks)


def _header(book: Gradebook, a: Assignment) -> str:
    return f"{title_of(a)} (of {book.available(a)})"


def wide_rows(book: Gradebook) -> list[list[Value]]:
    """The wide table, header first (see the module docstring)."""
    out: list[list[Value]] = [[*WIDE_FIXED, *(_header(book, a) for a in book.assignments)]]
    for m in book.members:
        marks = [book.mark(m, a) for a in book.assignments]
        out.append([m.nickname, m.joined_at, *(k.scored if k.started else None for k in marks)])
    return out


def long_rows(book: Gradebook) -> list[list[Value]]:
    """The long table, header first (see the module docstring)."""
    out: list[list[Value]] = [list(LONG_COLUMNS)]
    for m in book.members:
        for a in book.assignments:
            for i in book.mark(m, a).items:
                out.append([book.classroom.name, m.nickname, title_of(a), kind_of(a).name, i.item, i.available, i.scored,
                            i.attempts, i.first_at, i.last_at])
    return out


def _rows(book: Gradebook, shape: Shape) -> list[list[Value]]:
    return wide_rows(book) if shape == "wide" else long_rows(book)


def _csv_cell(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.replace(microsecond=0, tzinfo=None).isoformat() + "Z"
    if isinstance(value, int):
        return str(value)
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_text(book: Gradebook, shape: Shape) -> str:
    """The ``wide`` or ``long`` table as the text of a CSV file (see the module docstring)."""
    buf = io.StringIO()
    buf.write(CSV_BOM)
    w = csv.writer(buf, lineterminator="\r\n")
    for row in _rows(book, shape):
        w.writerow([_csv_cell(v) for v in row])
    return buf.getvalue()


def xlsx_bytes(book: Gradebook, shape: Shape) -> bytes:
    """The ``wide`` or ``long`` table as an Excel workbook (one sheet, its header row bold and
    frozen), written by openpyxl."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Gradebook" if shape == "wide" else "Answers"
    for r, row in enumerate(_rows(book, shape), 1):
        for c, value in enumerate(row, 1):
            cell = ws.cell(row=r, column=c)
            cell.value = value.replace(tzinfo=None) if isinstance(value, datetime) else value
            if isinstance(value, str):
                cell.data_type = "s"  # text stays text: a nickname "=SUM(A1)" is not a formula
            elif isinstance(value, datetime):
                cell.number_format = "yyyy-mm-dd hh:mm:ss"
            if r == 1:
                cell.font = Font(bold=True)
    ws.freeze_panes = "B2" if shape == "wide" else "A2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
