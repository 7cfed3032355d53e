"""An assignment's settings, edited after it was assigned (mode, attempts, time limit, open, close
and due dates, shuffles: :mod:`tutor.domain.settings`), and the release of a test's results.

A change applies from the next answer on; nothing a learner answered is changed by it."""

from __future__ import annotations

from datetime import datetime, time

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required
from sqlalchemy.orm import Session

from tutor.domain import settings as S
from tutor.domain.db import now
from tutor.domain.models import Assignment, Classroom
from tutor.web.record import write

from ...forms import Form
from ...settings_form import SettingsForm, check, fill
from ._common import assignment_of, bp, mine


@bp.route("/classes/<int:cid>/assignments/<int:aid>/settings", methods=["GET", "POST"])
@login_required
def settings(cid: int, aid: int) -> ResponseReturnValue:
    cls = mine(Classroom, cid)
    a = assignment_of(cls, aid)
    form = SettingsForm()
    if request.method == "GET":
        fill(form, S.settings_of(a))
        form.due.data = a.due.date() if a.due else None
        return _page(cls, a, form)
    chosen = check(form, now=now(), new=False) if form.validate() else None
    if chosen is None:
        return _page(cls, a, form, 400)
    due = datetime.combine(form.due.data, time(23, 59)) if form.due.data else None

    def work(db: Session) -> None:
        row = db.get(Assignment, a.id)
        assert row is not None
        S.apply(row, chosen)
        row.due = due
    write(work)
    return redirect(url_for("teach.classroom", cid=cid))


def _page(cls: Classroom, a: Assignment, form: SettingsForm, status: int = 200) -> ResponseReturnValue:
    return render_template("teach/settings.html", cls=cls, a=a, form=form, release=Form(),
                           visible=S.results_visible(a, now())), status


@bp.post("/classes/<int:cid>/assignments/<int:aid>/release")
@login_required
def release(cid: int, aid: int) -> ResponseReturnValue:
    """Release a test's results to its learners now (the keys, verdicts and reasons); the CSRF
    token is checked by the app's CSRFProtect before this runs."""
    cls = mine(Classroom, cid)
    a = assignment_of(cls, aid)

    def work(db: Session) -> None:
        row = db.get(Assignment, a.id)
        assert row is not None
        if row.released_at is None:
            row.released_at = now()
    write(work)
    return redirect(url_for("teach.settings", cid=cid, aid=aid))

