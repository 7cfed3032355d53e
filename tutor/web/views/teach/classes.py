"""A teacher's classes: making one, its page (its join code and QR code, its members, what is
assigned to it and each learner's progress on each) and assigning it something, a kind of
:data:`tutor.domain.assignments.KINDS` (a quiz, a teacher's lesson, a lesson unit)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime, time
from typing import Any

import segno
from flask import Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.domain import assignments as A
from tutor.domain import classes as C
from tutor.domain import settings as S
from tutor.domain.db import now
from tutor.domain.models import Assignment, Classroom, Membership
from tutor.web.record import write

from ...db import get_session
from ...exercises import content
from ...forms import ClassForm, choices
from ...settings_form import AssignSettingsForm, check
from ._common import bp, me, mine
from .home import home


@bp.post("/classes/")
@login_required
def new_class() -> ResponseReturnValue:
    form = ClassForm(prefix="class")
    if not form.validate():
        return home(refused=form)

    def work(db: Session) -> int:
        row = Classroom(teacher_id=me().id, name=(form.name.data or "").strip(), code=C.new_code())
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.classroom", cid=write(work)))


def _assign_choices() -> list[tuple[str, str]]:
    """``(value, label)`` of everything the teacher may assign, kind by kind."""
    db, tid, lang = get_session(), me().id, i18n.current_lang()
    return [option for kind in A.KINDS.values() for option in kind.choices(db, tid, content(), lang)]


def _join_url(row: Classroom) -> str:
    return url_for("classes.join", code=row.code, _external=True)


def _assign(form: AssignSettingsForm, cid: int, label: str, assignments: Sequence[Assignment],
            unassigned: Sequence[Assignment] = ()) -> bool:
    """Assign the class ``cid`` the choice of a validated ``form`` (``label``: the choice's);
    False, with the messages put beside the form's fields, if it cannot be (nothing written then):
    among ``assignments`` already, or among the ``unassigned`` ones (restore it instead).
    404 for another teacher's quiz or lesson."""
    due = datetime.combine(form.due.data, time(23, 59)) if form.due.data else None
    if form.due.data and form.due.data < now().date():  # due at the end of the day (UTC), as "late" counts
        form.due.errors = [_("The due date has passed: choose today or a later day.")]
    chosen = check(form, now=now(), new=True)  # the settings (domain.settings), messages beside their fields
    assignment = Assignment(classroom_id=cid, due=due, title="")
    if chosen is not None:
        S.apply(assignment, chosen)
    try:
        kind, parts = A.parse_choice(form.what.data or "")
        kind.fill(assignment, get_session(), me().id, parts, label)
    except A.NotFound:
        abort(404)
    except A.Refused as e:
        form.what.errors = [str(e)]
    if not form.what.errors and A.assigned_already(assignments, assignment):
        form.what.errors = [_("This is already assigned to this class.")]
    elif not form.what.errors and A.assigned_already(unassigned, assignment):
        form.what.errors = [_("This was unassigned from this class: restore it below.")]
    if form.what.errors or form.due.errors or chosen is None:
        return False

    def work(d: Session) -> None:
        d.add(assignment)
        d.flush()
        A.add_fingerprints(d, assignment)
    write(work)
    return True


@bp.route("/classes/<int:cid>", methods=["GET", "POST"])
@login_required
def classroom(cid: int) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    db = get_session()
    form = AssignSettingsForm()
    options = _assign_choices()
    form.what.choices = choices(options)
    status = 200
    every = db.scalars(select(Assignment).where(Assignment.classroom_id == cid).order_by(Assignment.id)).all()
    assignments = [a for a in every if a.archived_at is None]
    unassigned = [a for a in every if a.archived_at is not None]
    if request.method == "POST":
        if form.validate() and _assign(form, cid, dict(options).get(form.what.data or "", ""), assignments,
                                       unassigned):
            return redirect(url_for("teach.classroom", cid=cid))
        status = 400
    everyone = db.scalars(select(Membership).where(Membership.classroom_id == cid).order_by(Membership.id)).all()
    members = [m for m in everyone if m.removed_at is None]
    removed = [m for m in everyone if m.removed_at is not None]
    return render_template("teach/class.html", cls=row, members=members, removed=removed, assignments=assignments,
                           unassigned=unassigned, form=form, join_url=_join_url(row),
                           progress=_progress(members, assignments),
                           live={a.id for a in assignments if A.kind_of(a).can_run_live}), status


def _progress(members: Sequence[Membership], assignments: Sequence[Assignment]) -> list[dict[str, Any]]:
    """Each learner's progress on each assignment, in words, by its kind
    (:meth:`tutor.domain.assignments.AssignmentKind.progress`: a quiz's score and questions
    answered, a teacher's lesson's exercises answered right, a lesson unit's steps done), in the
    order of ``assignments``."""
    db, store = get_session(), content()
    ids = [m.learner_id for m in members]
    cols = [A.kind_of(a).progress(db, a, ids, store) for a in assignments]
    return [{"m": m, "cells": [col[m.learner_id] for col in cols]} for m in members]


@bp.get("/classes/<int:cid>/qr.svg")
@login_required
def qr(cid: int) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    buf = io.BytesIO()
    segno.make(_join_url(row), error="m").save(buf, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
    return Response(buf.getvalue(), mimetype="image/svg+xml")
