"""Management of a teacher's things (:mod:`tutor.domain.manage` holds the rules): archive and
unarchive a quiz, lesson or class and the page of the archived ones; delete one, or an
assignment, after a confirmation page; unassign and restore an assignment; remove and restore a
learner; a class's new join code.

Every action is a POST with the CSRF token (:class:`~tutor.web.forms.ActionForm`,
:class:`~tutor.web.forms.DeleteForm`), on the teacher's own rows only (another teacher's id, or
one that does not exist, is a 404). A delete that is not confirmed, or confirmed for fewer
answers than would be destroyed now, is the confirmation page again (400) with the message
beside the box, and nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.domain import manage as M
from tutor.domain.assignments import title_of
from tutor.domain.models import Assignment, Classroom, Membership, TeacherLesson, TeacherQuiz
from tutor.web.record import write

from ...db import get_session
from ...forms import ActionForm, DeleteForm
from ._common import assignment_of, bdi, bp, me, mine

Archivable = type[TeacherQuiz] | type[TeacherLesson] | type[Classroom]


def _action(allowed: tuple[str, ...]) -> str:
    """The posted button's ``action`` (one of ``allowed``) of a form with a valid CSRF token
    (Flask-WTF refuses a missing or wrong token with 400 before this); 400 for any other action."""
    if not ActionForm().validate():
        abort(400)
    action = request.form.get("action", "")
    if action not in allowed:
        abort(400)
    return action


@bp.get("/archived")
@login_required
def archived() -> ResponseReturnValue:
    """The teacher's archived quizzes, lessons and classes, each with its Unarchive button."""
    db, tid = get_session(), me().id

    def rows(model: Archivable) -> list[Any]:
        return list(db.scalars(select(model).where(model.teacher_id == tid, model.archived_at.is_not(None))
                               .order_by(model.id)))
    return render_template("teach/archived.html", quizzes=rows(TeacherQuiz), lessons=rows(TeacherLesson),
                           classes=rows(Classroom))


def _archive(row: TeacherQuiz | TeacherLesson | Classroom, done: str) -> ResponseReturnValue:
    """Archive or unarchive the teacher's ``row`` (the posted ``action``), then to ``done``."""
    action, model, key = _action(("archive", "unarchive")), type(row), row.id

    def work(db: Session) -> None:
        found = db.get(model, key)
        if isinstance(found, TeacherQuiz | TeacherLesson | Classroom):
            M.archive(found, action == "archive")
    write(work)
    return redirect(done)


@bp.post("/quizzes/<int:qid>/archive")
@login_required
def archive_quiz(qid: int) -> ResponseReturnValue:
    return _archive(mine(TeacherQuiz, qid), url_for("teach.quiz", qid=qid))


@bp.post("/lessons/<int:lid>/archive")
@login_required
def archive_lesson(lid: int) -> ResponseReturnValue:
    return _archive(mine(TeacherLesson, lid), url_for("teach.lesson", lid=lid))


@bp.post("/classes/<int:cid>/archive")
@login_required
def archive_class(cid: int) -> ResponseReturnValue:
    return _archive(mine(Classroom, cid), url_for("teach.classroom", cid=cid))


def _impact_lines(row: object, found: M.Impact) -> list[str]:
    """What the delete does, in words (current language), one sentence a line."""
    out = []
    if isinstance(row, TeacherQuiz | TeacherLesson):
        if found.assignments:
            out.append(i18n.ngettext("%(num)s assignment keeps its own copy, with its answers: no class loses a result.",
                                "%(num)s assignments keep their own copy, with their answers: no class loses a result.",
                                found.assignments))
        else:
            out.append(_("It is not assigned to any class."))
        return out
    if isinstance(row, Classroom):
        out.append(i18n.ngettext("%(num)s learner leaves the class.", "%(num)s learners leave the class.",
                            found.members))
        out.append(i18n.ngettext("%(num)s assignment is deleted.", "%(num)s assignments are deleted.",
                            found.assignments))
    if found.answers:
        out.append(i18n.ngettext("%(num)s answer will be lost.", "%(num)s answers will be lost.",
                            found.answers))
        out.append(i18n.ngettext("They were given by %(num)s learner.", "They were given by %(num)s learners.",
                            found.learners))
    else:
        out.append(_("No learner has answered it: no answer is lost."))
    return out


class _Changed(Exception):
    """Answers were given between the check of a delete and its transaction: nothing deleted."""


def _delete(row: TeacherQuiz | TeacherLesson | Classroom | Assignment, heading: Markup, back: str, done: str,
            remove: Callable[[Session, Any], None], archive_url: str | None) -> ResponseReturnValue:
    """The confirmation page of deleting ``row`` (GET) or the delete (POST, confirmed; see
    :func:`tutor.domain.manage.confirmed`); ``remove(db, row)`` deletes it in the write transaction,
    which counts the answers again (one given since: the page again, nothing deleted), then the
    teacher is sent to ``done``. ``archive_url``: where the page offers to archive instead."""
    found = M.impact(get_session(), row)
    form = DeleteForm() if request.method == "POST" else DeleteForm(formdata=None)
    status = 200
    if request.method == "POST":
        if form.validate() and M.confirmed(found, form.shown(), bool(form.confirm.data)):
            model, key = type(row), row.id

            def work(db: Session) -> None:
                fresh = db.get(model, key)
                if not isinstance(fresh, TeacherQuiz | TeacherLesson | Classroom | Assignment):
                    return  # deleted already (a second click)
                if M.impact(db, fresh).answers != found.answers:  # answered since the check above
                    raise _Changed
                remove(db, fresh)
            try:
                write(work)
                return redirect(done)
            except _Changed:
                found = M.impact(get_session(), row)
        status = 400
        if form.shown() is not None and form.shown() != found.answers:
            form.confirm.errors = [_("Answers were given since this page was shown: check the new count "
                                     "and confirm again.")]
        else:
            form.confirm.errors = [_("Tick the box to confirm: the answers will be lost.")]
    form.answers.data = str(found.answers)
    form.confirm.data = False
    form.confirm.label.text = i18n.ngettext("Yes, delete it and lose %(num)s answer",
                                       "Yes, delete it and lose %(num)s answers", found.answers)
    return render_template("teach/delete.html", heading=heading, lines=_impact_lines(row, found), found=found,
                           form=form, back=back, archive_url=archive_url,
                           archived=getattr(row, "archived_at", None) is not None), status


@bp.route("/quizzes/<int:qid>/delete", methods=["GET", "POST"])
@login_required
def delete_quiz(qid: int) -> ResponseReturnValue:
    row = mine(TeacherQuiz, qid)
    return _delete(row, Markup(_("Delete the quiz %(title)s?")) % {"title": bdi(row.title)}, url_for("teach.quiz", qid=qid),
                   url_for("teach.home"), M.delete_quiz,
                   url_for("teach.archive_quiz", qid=qid))


@bp.route("/lessons/<int:lid>/delete", methods=["GET", "POST"])
@login_required
def delete_lesson(lid: int) -> ResponseReturnValue:
    row = mine(TeacherLesson, lid)
    return _delete(row, Markup(_("Delete the lesson %(title)s?")) % {"title": bdi(row.title)}, url_for("teach.lesson", lid=lid),
                   url_for("teach.home"), M.delete_lesson,
                   url_for("teach.archive_lesson", lid=lid))


@bp.route("/classes/<int:cid>/delete", methods=["GET", "POST"])
@login_required
def delete_class(cid: int) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    return _delete(row, Markup(_("Delete the class %(title)s?")) % {"title": bdi(row.name)}, url_for("teach.classroom", cid=cid),
                   url_for("teach.home"), M.delete_class,
                   url_for("teach.archive_class", cid=cid))


@bp.route("/classes/<int:cid>/assignments/<int:aid>/delete", methods=["GET", "POST"])
@login_required
def delete_assignment(cid: int, aid: int) -> ResponseReturnValue:
    a = assignment_of(mine(Classroom, cid), aid)
    return _delete(a, Markup(_("Delete the assignment %(title)s?")) % {"title": bdi(title_of(a))}, url_for("teach.classroom", cid=cid),
                   url_for("teach.classroom", cid=cid), M.delete_assignment, None)


@bp.post("/classes/<int:cid>/assignments/<int:aid>/assigned")
@login_required
def unassign(cid: int, aid: int) -> ResponseReturnValue:
    """Unassign the assignment (``action=unassign``: the learners no longer see it, its answers
    are kept) or restore it (``action=restore``)."""
    assignment_of(mine(Classroom, cid), aid)
    action = _action(("unassign", "restore"))

    def work(db: Session) -> None:
        a = db.get(Assignment, aid)
        if a is not None:
            M.set_assigned(a, action == "restore")
    write(work)
    return redirect(url_for("teach.classroom", cid=cid) + "#h-assign")


@bp.post("/classes/<int:cid>/members/<int:mid>")
@login_required
def member(cid: int, mid: int) -> ResponseReturnValue:
    """Remove the learner from the class (``action=remove``: their answers are kept) or restore
    them (``action=restore``)."""
    mine(Classroom, cid)
    m = get_session().get(Membership, mid)
    if m is None or m.classroom_id != cid:
        abort(404)
    action = _action(("remove", "restore"))

    def work(db: Session) -> None:
        row = db.get_one(Membership, mid)
        (M.remove_member if action == "remove" else M.restore_member)(row)
    write(work)
    return redirect(url_for("teach.classroom", cid=cid) + "#h-members")


@bp.post("/classes/<int:cid>/code")
@login_required
def renew_code(cid: int) -> ResponseReturnValue:
    """A new join code for the class; the old one no longer names it."""
    mine(Classroom, cid)
    _action(("renew",))
    write(lambda db: M.renew_code(db, db.get_one(Classroom, cid)))
    return redirect(url_for("teach.classroom", cid=cid) + "#h-join")
