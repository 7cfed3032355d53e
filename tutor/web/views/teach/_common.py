"""What the teacher pages share: the blueprint, the logged-in teacher and their rows, file
downloads, an import form's text and its problems, and the page helpers (``percent``,
``format_date``, ``bdi``...) the teacher and class templates use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, abort
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup

from tutor import i18n
from tutor.content.kinds import KINDS
from tutor.domain.assignments import isolated, title_of
from tutor.domain.models import Assignment, Classroom, Teacher, TeacherLesson, TeacherQuiz
from tutor.problems import Problem

from ...db import get_session
from ...forms import ImportForm, LessonImportForm

__all__ = ["bdi", "bp", "isolated"]

bp = Blueprint("teach", __name__, url_prefix="/<lang>/teach")

M = TypeVar("M", TeacherQuiz, TeacherLesson, Classroom)


def me() -> Teacher:
    """The logged-in teacher (only called behind :func:`login_required`)."""
    return cast(Teacher, current_user._get_current_object())


def mine(model: type[M], key: int) -> M:
    """The current teacher's row ``key`` of ``model``; 404 for anyone else's or none."""
    row = get_session().get(model, key)
    if row is None or row.teacher_id != me().id:
        abort(404)
    return row


def assignment_of(classroom: Classroom, aid: int) -> Assignment:
    """Assignment ``aid`` of ``classroom``; 404 for another class's or none."""
    a = get_session().get(Assignment, aid)
    if a is None or a.classroom_id != classroom.id:
        abort(404)
    return a


def attachment(body: str | bytes, mimetype: str, name: str) -> Response:
    """A download called ``name``, never cached."""
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"',
                                                      "Cache-Control": "no-store"})


def kind_label(kind: str) -> str:
    """An exercise kind's label in the page's language (its name, for a kind not registered)."""
    k = KINDS.get(kind)
    return _(k.label) if k is not None else kind


#: The most bytes of an uploaded quiz or lesson file (the pasted text's limit, in characters).
MAX_UPLOAD = 200000


def import_text(form: ImportForm | LessonImportForm, empty: str) -> tuple[Any, str | None]:
    """``(the field that holds the file, its text)`` of an import form (the upload wins over the
    pasted text); the text is None, with the message put on the field, when the upload is
    bigger than :data:`MAX_UPLOAD` bytes, is not UTF-8 or there is nothing (``empty``)."""
    upload = form.upload.data
    field_: Any = form.text
    text = form.text.data or ""
    if upload is not None and getattr(upload, "filename", None):
        field_ = form.upload
        raw = upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            field_.errors = [_("The file is too big: at most %(n)s bytes.", n=i18n.fmt_number(MAX_UPLOAD))]
            return field_, None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            field_.errors = [_("The file is not UTF-8 text.")]
            return field_, None
        if "\x00" in text:  # as in a form (security._refuse_nul): no text file holds one
            field_.errors = [_("The file contains a character that is not allowed (NUL).")]
            return field_, None
    if not text.strip():
        form.text.errors = [empty]
        return form.text, None
    return field_, text


def line_errors(problems: Iterable[Problem]) -> list[Markup]:
    """The checker's problems as ``Line N: message``, one a line (the message is English, as
    ``tutor check`` gives it, kept left to right inside a right-to-left page); at most 20."""
    in_order = sorted(problems, key=lambda p: p.line)  # the checker finds them pass by pass, not line by line
    return [Markup('<span class="problem">{}</span>').format(Markup(_(
        "Line %(n)s: %(message)s", n=i18n.fmt_number(p.line),
        message=Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(p.message)))) for p in in_order[:20]]


def bdi(text: object) -> Markup:
    """A name someone typed (a nickname, a class's name, a quiz's or lesson's title) in ``<bdi>``,
    so that it keeps its own direction inside the page's: in Persian, ``=HYPERLINK("x")`` is not
    drawn as ``HYPERLINK("x")=``."""
    return Markup("<bdi>{}</bdi>").format(text)


@bp.app_context_processor
def _formats() -> dict[str, Any]:
    """``percent(0.5)``, ``format_date(d)`` and ``format_datetime(d)`` in the page's language
    (Persian digits and percent sign in Persian), ``bdi(name)``, ``isolated(name)``
    (:func:`tutor.domain.assignments.isolated`) and ``title_of(assignment)``
    (:func:`tutor.domain.assignments.title_of`), for the teacher and class pages."""

    return {"percent": i18n.fmt_percent, "format_date": i18n.fmt_date, "format_datetime": i18n.fmt_datetime,
            "bdi": bdi, "isolated": isolated, "title_of": title_of}
