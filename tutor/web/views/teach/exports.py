"""A teacher's quizzes and lessons out of the app: a quiz's questions of one game as a quiz file,
Moodle XML, GIFT, or a printable worksheet (HTML, PDF) with its answer key, each written by its
format of :data:`tutor.export.formats.FORMATS`; a lesson as a lesson file.

Every export is checked by the engine first: a stored question the engine now rejects is a 409
with the problems, never a 500.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Response, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required

from tutor import i18n
from tutor.content.quizzes import Quiz
from tutor.domain import classes as C
from tutor.domain.models import TeacherLesson, TeacherQuiz
from tutor.export.files import check_document, dump_lesson
from tutor.export.formats import FORMATS, ExportFormat, ExportOptions
from tutor.problems import ContentError

from ...authoring import files_of
from ...limits import limited
from ...pdfjobs import pdf_download
from ..common import ruleset_name
from ._common import attachment, bp, mine


def _quiz_file(row: TeacherQuiz, ruleset: str) -> dict[str, Any]:
    """The quiz-file document of the teacher's quiz's questions of ``ruleset``; 404 for a game
    the quiz has no question of."""
    for r, doc in files_of(row.doc or {}):
        if r == ruleset:
            return doc
    abort(404)


def _refused(e: ContentError) -> NoReturn:
    abort(Response("\n".join(str(p) for p in e.problems), status=409, mimetype="text/plain"))


def _checked(row: TeacherQuiz, ruleset: str) -> Quiz:
    """The :class:`Quiz` of :func:`_quiz_file`, checked by the engine (a stored question the engine
    now rejects is a 409 with the problems, never a 500)."""
    try:
        return check_document(_quiz_file(row, ruleset), f"{ruleset}.yaml")
    except ContentError as e:
        _refused(e)


def _sheet_title(row: TeacherQuiz, ruleset: str, key: bool) -> str:
    title = row.title
    if len(files_of(row.doc or {})) > 1:
        title = f"{title}{i18n.separator()}{ruleset_name(ruleset)}"
    return _("%(title)s: answer key", title=title) if key else title


def _options(row: TeacherQuiz, ruleset: str, fmt: ExportFormat, **links: Any) -> ExportOptions:
    """How the teacher's pages write ``fmt``: in the page's language, the answer key with
    ``?key=1``, a worksheet titled by the quiz, LMS questions in the quiz's category."""
    key = fmt.takes_key and request.args.get("key") == "1"
    return ExportOptions(lang=i18n.current_lang(), key=key, title=_sheet_title(row, ruleset, key),
                         category=f"$course$/top/tutor/{row.title[:60]}", **links)


def _download(qid: int, ruleset: str, name: str) -> Response:
    """The teacher's quiz ``qid``'s questions of ``ruleset`` written as format ``name``, as a
    download (``quiz-<id>-<ruleset>-<stem>[-<lang>].<extension>``)."""
    row = mine(TeacherQuiz, qid)
    fmt = FORMATS[name]
    quiz = _checked(row, ruleset)
    options = _options(row, ruleset, fmt)
    try:  # a quiz file is the teacher's document itself (lossless), checked above
        body = fmt.write(_quiz_file(row, ruleset) if fmt.writes_document else quiz, options)
    except ContentError as e:
        _refused(e)
    return attachment(body, fmt.media_type, fmt.file_name(f"quiz-{row.id}-{ruleset}", options))


@bp.get("/quizzes/<int:qid>/export/<ruleset>.yaml")
@login_required
def export_yaml(qid: int, ruleset: str) -> ResponseReturnValue:
    """The quiz's questions of one game as a quiz file (the ``quizzes/`` format, lossless)."""
    return _download(qid, ruleset, "yaml")


@bp.get("/quizzes/<int:qid>/export/<ruleset>/moodle.xml")
@login_required
def export_moodle(qid: int, ruleset: str) -> ResponseReturnValue:
    """Moodle XML in the page's language, each key and feedback from the engine."""
    return _download(qid, ruleset, "moodle")


@bp.get("/quizzes/<int:qid>/export/<ruleset>/gift.txt")
@login_required
def export_gift(qid: int, ruleset: str) -> ResponseReturnValue:
    """GIFT in the page's language."""
    return _download(qid, ruleset, "gift")


@bp.get("/quizzes/<int:qid>/worksheet/<ruleset>")
@login_required
def worksheet(qid: int, ruleset: str) -> ResponseReturnValue:
    """The printable worksheet (``?key=1``: the answer key) in the page's language."""
    row = mine(TeacherQuiz, qid)
    fmt = FORMATS["html"]
    key = request.args.get("key") == "1"
    pdf = url_for("teach.worksheet_pdf_view", qid=qid, ruleset=ruleset, key=1) if key \
        else url_for("teach.worksheet_pdf_view", qid=qid, ruleset=ruleset)
    options = _options(row, ruleset, fmt, static=url_for("static", filename=""), pdf_href=pdf,
                       key_href=None if key else url_for("teach.worksheet", qid=qid, ruleset=ruleset, key=1))
    return Response(fmt.write(_checked(row, ruleset), options), mimetype=fmt.media_type)


@bp.get("/quizzes/<int:qid>/worksheet/<ruleset>/pdf")
@login_required
@limited("pdf")
@limited("pdf-all")
def worksheet_pdf_view(qid: int, ruleset: str) -> ResponseReturnValue:
    """The worksheet or its key as a PDF, built once in the background with a progress page
    (:func:`tutor.web.pdfjobs.pdf_download`; rate-limited: actions ``pdf``, per address, and
    ``pdf-all``, all clients together, the builds)."""
    row = mine(TeacherQuiz, qid)
    fmt = FORMATS["pdf"]
    options = _options(row, ruleset, fmt)
    return pdf_download(_checked(row, ruleset), options.lang, options.key,
                        fmt.file_name(f"quiz-{row.id}-{ruleset}", options), title=options.title)


def lesson_file_name(row: TeacherLesson) -> str:
    """A teacher's lesson's file name: ``lesson-<id>-<ruleset>-<lang>.md``."""
    return f"lesson-{row.id}-{row.ruleset}-{row.lang}.md"


@bp.get("/lessons/<int:lid>/export.md")
@login_required
def export_lesson(lid: int) -> ResponseReturnValue:
    """The lesson as a file of the ``lessons/`` format (:func:`tutor.export.files.dump_lesson`);
    404 for another teacher's lesson. While the lesson has problems (those an import of the file
    would refuse), the lesson's page instead, where they are listed and the download is not offered."""
    row = mine(TeacherLesson, lid)
    step, problems = C.lesson_step(C.lesson_fields(row), engine=True)
    if step is None or problems:
        return redirect(url_for("teach.lesson", lid=lid) + "#h-lfile")
    return attachment(dump_lesson(step), "text/markdown; charset=utf-8", lesson_file_name(row))
