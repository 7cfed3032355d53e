"""A class's gradebook (:mod:`tutor.domain.gradebook`): every learner × every assignment of the
class on one page, and its files, CSV and XLSX, wide (one row per learner) and long (one row per
learner × assignment × question, with the answers' times)."""

from __future__ import annotations

from flask import abort, render_template
from flask.typing import ResponseReturnValue
from flask_login import login_required
from sqlalchemy import select

from tutor.domain import assignments as A
from tutor.domain import gradebook as G
from tutor.domain.models import Assignment, Classroom, Membership

from ...db import get_session
from ...exercises import content
from ._common import attachment, bp, mine

#: The files: extension -> media type.
MEDIA = {"csv": "text/csv",
         "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
SHAPES = ("wide", "long")


def _book(cid: int) -> G.Gradebook:
    row = mine(Classroom, cid)
    db = get_session()
    # removed learners and unassigned assignments keep their answers but leave the gradebook
    members = db.scalars(select(Membership).where(Membership.classroom_id == cid, Membership.removed_at.is_(None))
                         .order_by(Membership.id)).all()
    assignments = db.scalars(select(Assignment).where(Assignment.classroom_id == cid, Assignment.archived_at.is_(None))
                             .order_by(Assignment.id)).all()
    return G.gradebook(db, row, members, assignments, content())


@bp.get("/classes/<int:cid>/gradebook")
@login_required
def gradebook(cid: int) -> ResponseReturnValue:
    book = _book(cid)
    columns = [{"a": a, "available": book.available(a), "results": A.kind_of(a).per_question} for a in book.assignments]
    return render_template("teach/gradebook.html", cls=book.classroom, book=book, columns=columns,
                           shapes=SHAPES, media=MEDIA)


@bp.get("/classes/<int:cid>/gradebook-<shape>.<ext>")
@login_required
def gradebook_file(cid: int, shape: str, ext: str) -> ResponseReturnValue:
    """The gradebook as ``ext`` (``csv`` or ``xlsx``), ``shape`` ``wide`` or ``long``; 404 for another."""
    if shape not in SHAPES or ext not in MEDIA:
        abort(404)
    book = _book(cid)
    shaped: G.Shape = "wide" if shape == "wide" else "long"
    body: str | bytes = G.csv_text(book, shaped) if ext == "csv" else G.xlsx_bytes(book, shaped)
    return attachment(body, MEDIA[ext], f"gradebook-{cid}-{shape}.{ext}")
