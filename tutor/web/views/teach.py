"""Teacher pages (``/<lang>/teach/...``): log-in, quizzes, lessons, classes and results.

Every page but log-in and sign-up needs a logged-in teacher (:func:`flask_login.login_required`;
a visitor is sent to the log-in page). Each teacher's quizzes, lessons and classes are found
only among their own (:func:`_mine`): another teacher's id is a 404, as is an id that does not
exist. Bad form input is answered with the page again (status 400), the message beside the
field and the teacher's input kept; nothing is written.
"""

from __future__ import annotations

import io
import secrets
from collections.abc import Callable
from datetime import datetime, time
from typing import Any, TypeVar, cast

import segno
from babel.dates import format_date as babel_date
from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException

from tutor import i18n
from tutor.content.kinds import KINDS
from tutor.content.problems import ContentError
from tutor.domain import classes as C
from tutor.domain import ratings
from tutor.domain.db import id_from_request, locked, now
from tutor.domain.models import (
    Assignment,
    Classroom,
    Membership,
    StepProgress,
    Teacher,
    TeacherLesson,
    TeacherQuiz,
)
from tutor.export.files import check_document, dump_lesson, dump_quiz, import_lesson, import_quiz
from tutor.export.lms import gift, moodle_xml
from tutor.export.worksheet import worksheet_html, worksheet_pdf
from tutor.rules import UnknownRulePoint
from tutor.rules import get as rule_point

from .. import accounts
from .. import exercises as X
from ..authoring import (
    MAX_QUESTIONS,
    FieldErrors,
    authored_question,
    edit_fields,
    edited,
    exercise_of,
    files_of,
    generated_question,
    imported_questions,
    move,
)
from ..db import get_session
from ..exercises import content
from ..forms import (
    AssignForm,
    AuthoredForm,
    ClassForm,
    GeneratedForm,
    ImportForm,
    LessonForm,
    LessonImportForm,
    LoginForm,
    NewLessonFileForm,
    PointsForm,
    QuizForm,
    SignupForm,
    choices,
)
from ..limits import limited
from ..record import write
from ..security import http_error
from .common import RULESET_NAMES, exercise_context, ruleset_name, safe_next

bp = Blueprint("teach", __name__, url_prefix="/<lang>/teach")

M = TypeVar("M", TeacherQuiz, TeacherLesson, Classroom)
R = TypeVar("R")


def _me() -> Teacher:
    """The logged-in teacher (only called behind :func:`login_required`)."""
    return cast(Teacher, current_user._get_current_object())


def _mine(model: type[M], key: int) -> M:
    """The current teacher's row ``key`` of ``model``; 404 for anyone else's or none."""
    row = get_session().get(model, key)
    if row is None or row.teacher_id != _me().id:
        abort(404)
    return row


def _assignment(classroom: Classroom, aid: int) -> Assignment:
    a = get_session().get(Assignment, aid)
    if a is None or a.classroom_id != classroom.id:
        abort(404)
    return a


# ------------------------------------------------------------------------------------------ log-in

@bp.get("/login")
def login(form: LoginForm | None = None, error: str | None = None, status: int = 200):
    form = form or LoginForm()
    return render_template("teach/login.html", form=form, error=error,
                           asked=bool(request.args.get("next")),
                           signup=current_app.config.get("TEACHER_SIGNUP")), status


@bp.post("/login")
@limited("login", "login-name")
def login_post():
    form = LoginForm()
    if not form.validate():
        return login(form, status=400)
    db = get_session()
    teacher = accounts.find_teacher(db, form.name.data or "")
    if not accounts.check_password(teacher.password_hash if teacher else None, form.password.data or ""):
        return login(form, error=_("The name or the password is wrong."), status=400)
    login_user(teacher)
    return redirect(safe_next(request.args.get("next"), url_for("teach.home")))


@bp.errorhandler(429)
def too_many(e: HTTPException):
    """A log-in over its limit: the log-in page again (429, with Retry-After) with the message
    above the form and the name kept, so the teacher stays in place; other views of these
    pages: the app's error page (:mod:`tutor.web.security`)."""
    if request.endpoint != "teach.login_post":
        return http_error(e)
    form = LoginForm()
    form.password.data = ""
    return login(form, error=_("Too many log-in attempts in a short time. Wait a little, then try again."),
                 status=429)


@bp.post("/logout")
def logout():
    logout_user()
    return redirect(url_for("teach.login"))


@bp.get("/signup")
def signup_page():
    return signup()


@bp.post("/signup")
@limited("login")
def signup():
    if not current_app.config.get("TEACHER_SIGNUP"):
        abort(404)
    form = SignupForm()
    if request.method == "POST" and form.validate():
        def work(db):
            return accounts.add_teacher(db, form.name.data or "", form.password.data or "")
        try:
            teacher = write(work)
        except (accounts.AccountError, IntegrityError):
            form.name.errors = [_("This name is taken.")]
        else:
            login_user(teacher)
            return redirect(url_for("teach.home"))
    status = 400 if request.method == "POST" else 200
    return render_template("teach/signup.html", form=form), status


# ------------------------------------------------------------------------------------------ home

@bp.get("/")
@login_required
def home(refused: QuizForm | ClassForm | LessonForm | NewLessonFileForm | None = None):
    """The teacher's quizzes, classes and lessons, each with its form to make a new one. After a
    form that did not validate (``refused``), the page again with 400: that form as sent, its
    messages beside its fields, the others empty."""
    db = get_session()
    tid = _me().id
    quizzes = db.scalars(select(TeacherQuiz).where(TeacherQuiz.teacher_id == tid).order_by(TeacherQuiz.id)).all()
    lessons = db.scalars(select(TeacherLesson).where(TeacherLesson.teacher_id == tid)
                         .order_by(TeacherLesson.id)).all()
    classes = db.scalars(select(Classroom).where(Classroom.teacher_id == tid).order_by(Classroom.id)).all()
    forms = {"quiz_form": QuizForm, "class_form": ClassForm, "lesson_form": LessonForm, "lfile_form": NewLessonFileForm}
    shown = {name: refused if isinstance(refused, cls) else cls(prefix=name.removesuffix("_form"), formdata=None)
             for name, cls in forms.items()}
    return render_template("teach/home.html", quizzes=quizzes, lessons=lessons, classes=classes,
                           **shown), 200 if refused is None else 400


# ------------------------------------------------------------------------------------------ quizzes

@bp.post("/quizzes/")
@login_required
def new_quiz():
    form = QuizForm(prefix="quiz")
    if not form.validate():
        return home(refused=form)
    title = (form.title.data or "").strip()

    def work(db):
        q = TeacherQuiz(teacher_id=_me().id, title=title, doc={"title": title, "questions": []})
        db.add(q)
        db.flush()
        return q.id
    return redirect(url_for("teach.quiz", qid=write(work)))


def _questions(quiz: TeacherQuiz) -> list[dict]:
    return list((quiz.doc or {}).get("questions") or [])


class _Full(Exception):
    """The questions to add would make the quiz hold more than :data:`MAX_QUESTIONS`."""


def _edit_questions(qid: int, change: Callable[[list[dict]], R], *, title: str | None = None) -> R:
    """Change quiz ``qid``'s questions: ``change(questions)`` edits the list as it is now, in
    place, and the list is written back (with ``title``, if given), all in one write transaction
    holding the quiz's row from the read to the commit (:func:`~tutor.domain.db.locked`). Two edits
    at once (a double submit, two tabs) so take turns, and neither drops the other's question.
    Returns what ``change`` returns; an exception from it (``abort(404)``, :class:`_Full`)
    writes nothing."""
    def work(db):
        row = locked(db, TeacherQuiz, qid)
        if row is None:
            abort(404)
        doc = dict(row.doc or {})
        questions = list(doc.get("questions") or [])
        result = change(questions)
        doc["questions"] = questions
        if title is not None:
            doc["title"] = title
            row.title = title
        row.doc = doc
        return result
    return write(work)


def _append(qid: int, count: int, new: Callable[[list[dict]], list[dict]]) -> int:
    """Add the ``count`` questions ``new(questions as they are now)`` at the end of quiz ``qid``
    (see :func:`_edit_questions`); the place of the first one (from 1). Raises :class:`_Full`."""
    def change(questions: list[dict]) -> int:
        if len(questions) + count > MAX_QUESTIONS:
            raise _Full
        first = len(questions) + 1
        questions.extend(new(questions))
        return first
    return _edit_questions(qid, change)


@bp.get("/quizzes/<int:qid>")
@login_required
def quiz(qid: int, authored: AuthoredForm | None = None, generated: GeneratedForm | None = None,
         preview: dict | None = None, imported: ImportForm | None = None, title_form: QuizForm | None = None,
         points: tuple[int, PointsForm] | None = None, status: int = 200):
    """The quiz page. After a form that did not validate, the page again with ``status`` 400: that
    form as sent with its messages (``points``: question n's points form), the others as they
    are (never filled from the request, whose fields may share their names)."""
    row = _mine(TeacherQuiz, qid)
    sheet = request.args.get("sheet", "")
    sheet_lang = sheet if sheet in i18n.LANGUAGES else i18n.current_lang()
    files = [{"ruleset": r, "game": ruleset_name(r), "count": len(d["questions"])} for r, d in files_of(row.doc or {})]
    items = []
    for n, q in enumerate(_questions(row), 1):
        ex = exercise_of(q)
        refused = points[1] if points is not None and points[0] == n else None
        items.append({"n": n, "q": q, "kind": _kind_label(q["kind"]), "game": ruleset_name(ex.ruleset or ""),
                      "prompt": _prompt_shown(ex),
                      "points": refused or PointsForm(formdata=None, data={"points": q.get("points") or 1})})
    return render_template("teach/quiz.html", quiz=row, items=items, kind_guide=_kind_guide(),
                           title_form=title_form or QuizForm(prefix="quiz", formdata=None, data={"title": row.title}),
                           authored=authored or AuthoredForm(formdata=None),
                           generated=generated or GeneratedForm(prefix="g", formdata=None), preview=preview,
                           full=len(items) >= MAX_QUESTIONS, files=files, sheet_lang=sheet_lang,
                           languages=[(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
                           imported=imported or ImportForm(prefix="import", formdata=None)), status


def _kind_guide() -> list[dict]:
    """Per kind, from the kinds registry: its label, the ask(s) its scenario takes and the scenario
    fields its editor asks for (``editor_fields``), for the authoring form's guide."""
    return [{"label": _(k.label), "asks": " / ".join(k.asks),
             "fields": [(f.name, _(f.label), f.required) for f in k.editor_fields]} for k in KINDS.values()]


def _kind_label(kind: str) -> str:
    k = KINDS.get(kind)
    return _(k.label) if k is not None else kind


def _prompt_shown(ex) -> str:
    return X.prompt_of(ex)


@bp.post("/quizzes/<int:qid>/title")
@login_required
def quiz_title(qid: int):
    row = _mine(TeacherQuiz, qid)
    form = QuizForm(prefix="quiz")
    if not form.validate():
        return quiz(qid, title_form=form, status=400)
    _edit_questions(row.id, lambda questions: None, title=(form.title.data or "").strip())
    return redirect(url_for("teach.quiz", qid=qid))


def _add(row: TeacherQuiz, q: dict):
    """Add question ``q`` at the end of the quiz (400 if it is full: its forms are not shown then)."""
    try:
        n = _append(row.id, 1, lambda questions: [q])
    except _Full:
        abort(400)
    return redirect(url_for("teach.quiz", qid=row.id) + f"#question-{n}")


def _posted_question(form: AuthoredForm) -> dict | None:
    """The question of a posted authoring form, checked by the engine; None with the messages put
    beside the form's fields."""
    if not form.validate():
        return None
    try:
        return authored_question(form.kind.data or "", form.scenario.data or "", form.key.data or "",
                                 difficulty=int(form.difficulty.data or 1), points=form.points.data or 1,
                                 prompts=form.prompts())
    except FieldErrors as e:
        for name, message in e.errors.items():
            getattr(form, name).errors = [message]
        return None


@bp.post("/quizzes/<int:qid>/authored")
@login_required
def add_authored(qid: int):
    row = _mine(TeacherQuiz, qid)
    form = AuthoredForm()
    q = _posted_question(form)
    if q is None:
        return quiz(qid, authored=form, status=400)
    return _add(row, q)


@bp.post("/quizzes/<int:qid>/generated")
@login_required
def add_generated(qid: int):
    row = _mine(TeacherQuiz, qid)
    form = GeneratedForm(prefix="g")
    if not form.validate():
        return quiz(qid, generated=form, status=400)
    if form.seed.data is None:  # a random one, put in the field: "Add" after a preview adds the question previewed
        form.seed.data, form.seed.raw_data = secrets.randbelow(10**6), None
    try:
        q = generated_question(form.ruleset.data or "", form.gkind.data or "", int(form.difficulty.data or 1),
                               form.seed.data, points=form.points.data or 1, prompts=form.prompts())
    except FieldErrors as e:
        form.gkind.errors = list(e.errors.values())
        return quiz(qid, generated=form, status=400)
    if request.form.get("action") != "add":
        ex = exercise_of(q)
        return quiz(qid, generated=form, preview=exercise_context(ex, "preview"))
    return _add(row, q)


def _question_at(questions: list[dict], n: int) -> dict:
    """Question ``n`` (from 1) of ``questions``; 404 if there is none."""
    if not 1 <= n <= len(questions):
        abort(404)
    return questions[n - 1]


@bp.post("/quizzes/<int:qid>/questions/<int:n>")
@login_required
def question_action(qid: int, n: int):
    """Question ``n``'s buttons on the quiz page: move it up or down, delete it, or save its points
    (points that are not a whole number from 1 to ``MAX_POINTS``: the quiz page again with 400,
    the message beside that question's points, what was typed kept)."""
    row = _mine(TeacherQuiz, qid)
    _question_at(_questions(row), n)
    action = request.form.get("action", "")
    points = PointsForm()
    if action == "points" and not points.validate():
        return quiz(qid, points=(n, points), status=400)
    if action not in ("up", "down", "delete", "points"):
        abort(400)

    def change(questions: list[dict]) -> int:
        """The question's new place, the anchor of the page (the one after it, once it is deleted)."""
        q = _question_at(questions, n)  # the list as it is now: another edit may have come first
        if action == "points":
            questions[n - 1] = {**q, "points": points.points.data}
            return n
        if action == "delete":
            questions.pop(n - 1)
            return min(n, len(questions))
        step = -1 if action == "up" else 1
        questions[:] = move(questions, n - 1, step)
        return max(1, min(len(questions), n + step))
    anchor = _edit_questions(qid, change)
    return redirect(url_for("teach.quiz", qid=qid) + (f"#question-{anchor}" if anchor else ""))


@bp.route("/quizzes/<int:qid>/questions/<int:n>/edit", methods=["GET", "POST"])
@login_required
def question_edit(qid: int, n: int):
    """Question ``n`` on the authoring form (its key as the teacher types it, seats from 1); a
    save checks it by the engine as when it was added and puts it in the same place, same id."""
    row = _mine(TeacherQuiz, qid)
    questions = _questions(row)
    old = _question_at(questions, n)
    if request.method == "GET":
        form, status = AuthoredForm(data=edit_fields(old)), 200
    else:
        form, status = AuthoredForm(), 400
        q = _posted_question(form)
        if q is not None:
            def change(now: list[dict]) -> None:  # in place of the question at n as it is now
                now[n - 1] = edited(_question_at(now, n), q)
            _edit_questions(qid, change)
            return redirect(url_for("teach.quiz", qid=qid) + f"#question-{n}")
    return render_template("teach/question_edit.html", quiz=row, n=n, total=len(questions), form=form,
                           kind_guide=_kind_guide()), status


@bp.get("/quizzes/<int:qid>/questions/<int:n>/preview")
@login_required
def question_preview(qid: int, n: int):
    row = _mine(TeacherQuiz, qid)
    questions = _questions(row)
    if not 1 <= n <= len(questions):
        abort(404)
    ex = exercise_of(questions[n - 1])
    return render_template("teach/preview.html", quiz=row, n=n, total=len(questions), x=exercise_context(ex, "preview"),
                           game=ruleset_name(ex.ruleset or ""))


# ------------------------------------------------------------------------------------------ export

def _quiz_file(row: TeacherQuiz, ruleset: str) -> dict:
    """The quiz-file document of the teacher's quiz's questions of ``ruleset``; 404 for a game
    the quiz has no question of."""
    for r, doc in files_of(row.doc or {}):
        if r == ruleset:
            return doc
    abort(404)


def _checked(row: TeacherQuiz, ruleset: str):
    """The :class:`Quiz` of :func:`_quiz_file`, checked by the engine (a stored question the engine
    now rejects is a 409 with the problems, never a 500)."""
    try:
        return check_document(_quiz_file(row, ruleset), f"{ruleset}.yaml")
    except ContentError as e:
        abort(Response("\n".join(str(p) for p in e.problems), status=409, mimetype="text/plain"))


def _download_name(row: TeacherQuiz, ruleset: str, what: str, ext: str) -> str:
    return f"quiz-{row.id}-{ruleset}-{what}.{ext}"


def _attachment(body: str | bytes, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"',
                                                      "Cache-Control": "no-store"})


@bp.get("/quizzes/<int:qid>/export/<ruleset>.yaml")
@login_required
def export_yaml(qid: int, ruleset: str):
    """The quiz's questions of one game as a quiz file (the ``quizzes/`` format, lossless)."""
    row = _mine(TeacherQuiz, qid)
    _checked(row, ruleset)
    return _attachment(dump_quiz(_quiz_file(row, ruleset)), "application/yaml",
                       _download_name(row, ruleset, "quiz", "yaml"))


@bp.get("/quizzes/<int:qid>/export/<ruleset>/moodle.xml")
@login_required
def export_moodle(qid: int, ruleset: str):
    """Moodle XML in the page's language, each key and feedback from the engine."""
    row = _mine(TeacherQuiz, qid)
    lang = i18n.current_lang()
    body = moodle_xml(_checked(row, ruleset), lang, category=f"$course$/top/tutor/{row.title[:60]}")
    return _attachment(body, "application/xml", _download_name(row, ruleset, f"moodle-{lang}", "xml"))


@bp.get("/quizzes/<int:qid>/export/<ruleset>/gift.txt")
@login_required
def export_gift(qid: int, ruleset: str):
    """GIFT in the page's language."""
    row = _mine(TeacherQuiz, qid)
    lang = i18n.current_lang()
    body = gift(_checked(row, ruleset), lang, category=f"$course$/top/tutor/{row.title[:60]}")
    return _attachment(body, "text/plain", _download_name(row, ruleset, f"gift-{lang}", "txt"))


def _sheet_title(row: TeacherQuiz, ruleset: str, key: bool) -> str:
    title = row.title
    if len(files_of(row.doc or {})) > 1:
        title = f"{title}{i18n.separator()}{ruleset_name(ruleset)}"
    return _("%(title)s: answer key", title=title) if key else title


@bp.get("/quizzes/<int:qid>/worksheet/<ruleset>")
@login_required
def worksheet(qid: int, ruleset: str):
    """The printable worksheet (``?key=1``: the answer key) in the page's language."""
    row = _mine(TeacherQuiz, qid)
    key = request.args.get("key") == "1"
    page = worksheet_html(_checked(row, ruleset), i18n.current_lang(), key, title=_sheet_title(row, ruleset, key),
                          static=url_for("static", filename=""),
                          pdf_href=url_for("teach.worksheet_pdf_view", qid=qid, ruleset=ruleset, key=1) if key
                          else url_for("teach.worksheet_pdf_view", qid=qid, ruleset=ruleset),
                          key_href=None if key else url_for("teach.worksheet", qid=qid, ruleset=ruleset, key=1))
    return Response(page, mimetype="text/html")


@bp.get("/quizzes/<int:qid>/worksheet/<ruleset>/pdf")
@login_required
@limited("pdf")
@limited("pdf-all")
def worksheet_pdf_view(qid: int, ruleset: str):
    """The worksheet or its key as a PDF (rate-limited: actions ``pdf``, per address, and
    ``pdf-all``, all clients together)."""
    row = _mine(TeacherQuiz, qid)
    key = request.args.get("key") == "1"
    lang = i18n.current_lang()
    data = worksheet_pdf(_checked(row, ruleset), lang, key, title=_sheet_title(row, ruleset, key))
    return _attachment(data, "application/pdf", _download_name(row, ruleset, f"{'key' if key else 'worksheet'}-{lang}", "pdf"))


def _import_text(form: ImportForm | LessonImportForm, empty: str) -> tuple[Any, str | None]:
    """``(the field that holds the file, its text)`` of an import form (the upload wins over the
    pasted text); the text is None, with the message put on the field, when the upload is not
    UTF-8 or there is nothing (``empty``)."""
    upload = form.upload.data
    field_: Any = form.text
    text = form.text.data or ""
    if upload is not None and getattr(upload, "filename", None):
        field_ = form.upload
        raw = upload.read(200001)
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


def _line_errors(problems) -> list[Markup]:
    """The checker's problems as ``Line N: message``, one a line (the message is English, as
    ``tutor check`` gives it, kept left to right inside a right-to-left page); at most 20."""
    in_order = sorted(problems, key=lambda p: p.line)  # the checker finds them pass by pass, not line by line
    return [Markup('<span class="problem">{}</span>').format(Markup(_(
        "Line %(n)s: %(message)s", n=i18n.fmt_number(p.line),
        message=Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(p.message)))) for p in in_order[:20]]


@bp.post("/quizzes/<int:qid>/import")
@login_required
def import_file(qid: int):
    """Add the questions of a quiz file (uploaded or pasted) to the quiz, after the same checks as
    ``tutor check`` (structure, then every question by the engine); problems are listed beside
    the field as ``Line N: message`` and nothing is added."""
    _mine(TeacherQuiz, qid)  # 404 for another teacher's quiz; the questions are read under the lock
    form = ImportForm(prefix="import")
    if not form.validate():
        return quiz(qid, imported=form, status=400)
    field_, text = _import_text(form, _("Choose a quiz file or paste its text."))
    if text is None:
        return quiz(qid, imported=form, status=400)
    try:
        found = import_quiz(text, "quiz.yaml")
    except ContentError as e:
        field_.errors = _line_errors(e.problems)
        return quiz(qid, imported=form, status=400)
    if not found.questions:
        field_.errors = [_("This file has no questions.")]
        return quiz(qid, imported=form, status=400)

    try:  # an id already in the quiz (as it is when they are added) gets a fresh one
        first = _append(qid, len(found.questions),
                        lambda questions: imported_questions(found, {str(q.get("id")) for q in questions}))
    except _Full:
        field_.errors = [_("A quiz holds at most %(n)s questions.", n=i18n.fmt_number(MAX_QUESTIONS))]
        return quiz(qid, imported=form, status=400)
    return redirect(url_for("teach.quiz", qid=qid) + f"#question-{first}")


# ------------------------------------------------------------------------------------------ lessons

def _lesson_doc(row: TeacherLesson) -> dict:
    """A saved lesson as :func:`tutor.domain.classes.lesson_step` reads it (and a lesson assignment keeps it)."""
    return {"ruleset": row.ruleset, "lang": row.lang, "title": row.title, "goal": row.goal, "body": row.body}


def _body_problems(doc: dict, problems) -> list[Markup]:
    """The problems of a teacher's lesson as ``Line N: message``, N the line of the lesson's text
    box (a problem of the title, goal or card game: the message alone); at most 20."""
    out = []
    for p in problems[:20]:
        message = Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(p.message)
        n = C.body_line(doc, p.line)
        out.append(Markup('<span class="problem">{}</span>').format(
            Markup(_("Line %(n)s: %(message)s", n=i18n.fmt_number(n), message=message)) if n is not None else message))
    return out


def _lesson_preview(values: dict):
    """``(parts for the step template, problems as 'Line N: message', whether the lesson has problems)``;
    an exercise that cannot be drawn is a note in its place."""
    step, problems = C.lesson_step(values, engine=True)
    shown: list[str] = [*_body_problems(values, problems)]  # Markup, or plain text escaped when drawn
    parts: list[dict] = []
    bad = bool(problems) or step is None
    if step is not None:
        for i, (what, item) in enumerate(step.parts()):
            if isinstance(item, str):
                parts.append({"html": item})
            else:
                try:
                    with i18n.using(values["lang"]):  # the exercise as a learner of the lesson's language sees it
                        html = render_template("teach/_preview_exercise.html",
                                               x=exercise_context(item, f"preview-{i}"))
                    parts.append({"exercise": Markup(html)})
                except Exception:  # noqa: BLE001 - a block the engine cannot draw is a problem shown, not a 500
                    parts.append({"note": _("This exercise cannot be drawn: see the problems listed above.")})
                    if not problems:
                        shown.append(_("An exercise block cannot be shown: check its scenario."))
                    bad = True
    return parts, shown, bad


@bp.post("/lessons/")
@login_required
def new_lesson():
    form = LessonForm(prefix="lesson")
    if not form.validate():
        return home(refused=form)

    def work(db):
        row = TeacherLesson(teacher_id=_me().id, ruleset=form.ruleset.data, lang=form.lang.data,
                            title=(form.title.data or "").strip(), goal=(form.goal.data or "").strip(),
                            body=form.body.data or "")
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.lesson", lid=write(work)))


@bp.route("/lessons/<int:lid>", methods=["GET", "POST"])
@login_required
def lesson(lid: int, imported: LessonImportForm | None = None, status: int = 200):
    row = _mine(TeacherLesson, lid)
    # after an import that failed, the editor shows the lesson as saved (the POST was the import's)
    form = LessonForm(prefix="lesson", obj=row, formdata=None) if imported is not None else \
        LessonForm(prefix="lesson", obj=row)
    if request.method == "POST" and imported is None:
        if form.validate():
            def work(db):
                r = db.get(TeacherLesson, lid)
                r.title, r.goal = (form.title.data or "").strip(), (form.goal.data or "").strip()
                r.ruleset, r.lang, r.body = form.ruleset.data, form.lang.data, form.body.data or ""
            write(work)
            return redirect(url_for("teach.lesson", lid=lid))
        status = 400
    values = {"ruleset": form.ruleset.data or row.ruleset, "lang": form.lang.data or row.lang,
              "title": form.title.data or row.title, "goal": form.goal.data or row.goal, "body": form.body.data or ""}
    parts, problems, bad = _lesson_preview(values)
    saved = _lesson_doc(row)
    if values != saved:  # a form refused: the file offered is the lesson as saved
        step, found = C.lesson_step(saved, engine=True)
        bad = step is None or bool(found)
    return render_template("teach/lesson.html", lesson=row, form=form, parts=parts, problems=problems,
                           exportable=not bad, preview_dir=i18n.text_direction(values["lang"]), preview_lang=values["lang"],
                           imported=imported or LessonImportForm(prefix="limport")), status


def _lesson_file_name(row: TeacherLesson) -> str:
    return f"lesson-{row.id}-{row.ruleset}-{row.lang}.md"


@bp.get("/lessons/<int:lid>/export.md")
@login_required
def export_lesson(lid: int):
    """The lesson as a file of the ``lessons/`` format (:func:`tutor.export.files.dump_lesson`);
    404 for another teacher's lesson. While the lesson has problems (those an import of the file
    would refuse), the lesson's page instead, where they are listed and the download is not offered."""
    row = _mine(TeacherLesson, lid)
    step, problems = C.lesson_step(_lesson_doc(row), engine=True)
    if step is None or problems:
        return redirect(url_for("teach.lesson", lid=lid) + "#h-lfile")
    return _attachment(dump_lesson(step), "text/markdown; charset=utf-8", _lesson_file_name(row))


def _file_body(text: str) -> str:
    """The Markdown after a lesson file's front matter (the text after its second ``---`` line)."""
    lines = text.split("\n")
    ends = [i for i, line in enumerate(lines) if line.rstrip() == "---"]
    return "\n".join(lines[ends[1] + 1:]) if len(ends) > 1 and ends[0] == 0 else text


def _lesson_file(form: LessonImportForm, lang: str):
    """The lesson step of an import form's file (uploaded or pasted) in ``lang``, after the same
    checks as ``tutor check`` (structure, then every exercise by the engine); None, with the
    problems put beside the form's field as ``Line N: message`` (lines of the file), if it has any."""
    field_, text = _import_text(form, _("Choose a lesson file or paste its text."))
    if text is None:
        return None
    try:
        step = import_lesson(text.replace("\r\n", "\n"), "lesson.md", lang=lang)
    except ContentError as e:
        field_.errors = _line_errors(e.problems)
        return None
    if step.ruleset not in RULESET_NAMES or len(step.title) > 120 or len(step.goal) > 300:
        field_.errors = [_("The title (at most 120 characters), goal (at most 300) or card game of this file "
                           "cannot be used here.")]
        return None
    return step


@bp.post("/lessons/<int:lid>/import")
@login_required
def import_lesson_file(lid: int):
    """Replace the lesson's title, goal, card game and text with a lesson file's (see
    :func:`_lesson_file`); on a problem, the lesson page again (400) with it beside the field and
    nothing changed. The file is stored as :func:`~tutor.export.files.dump_lesson` writes it, so
    exporting it again gives the same file."""
    row = _mine(TeacherLesson, lid)
    form = LessonImportForm(prefix="limport")
    step = _lesson_file(form, row.lang) if form.validate() else None
    if step is None:
        return lesson(lid, imported=form, status=400)
    body = _file_body(dump_lesson(step))

    def work(db):
        r = db.get(TeacherLesson, lid)
        r.title, r.goal, r.ruleset, r.body = step.title, step.goal, step.ruleset, body
    write(work)
    return redirect(url_for("teach.lesson", lid=lid))


@bp.post("/lessons/file")
@login_required
def new_lesson_from_file():
    """A new lesson from a lesson file in the language chosen (see :func:`_lesson_file`); on a
    problem, the teaching home again (400) with it beside the field and nothing made."""
    form = NewLessonFileForm(prefix="lfile")
    step = _lesson_file(form, form.lang.data) if form.validate() else None
    if step is None:
        return home(refused=form)
    body = _file_body(dump_lesson(step))

    def work(db):
        row = TeacherLesson(teacher_id=_me().id, ruleset=step.ruleset, lang=form.lang.data, title=step.title,
                            goal=step.goal, body=body)
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.lesson", lid=write(work)))


# ------------------------------------------------------------------------------------------ classes

@bp.post("/classes/")
@login_required
def new_class():
    form = ClassForm(prefix="class")
    if not form.validate():
        return home(refused=form)

    def work(db):
        row = Classroom(teacher_id=_me().id, name=(form.name.data or "").strip(), code=C.new_code())
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.classroom", cid=write(work)))


def _assign_choices() -> list[tuple[str, str]]:
    db = get_session()
    out = [(f"quiz:{q.id}", _("Quiz: %(title)s", title=isolated(q.title)))
           for q in db.scalars(select(TeacherQuiz).where(TeacherQuiz.teacher_id == _me().id)
                               .order_by(TeacherQuiz.id))]
    out += [(f"lesson:{t.id}", _("Your lesson: %(title)s", title=isolated(t.title)))
            for t in db.scalars(select(TeacherLesson).where(TeacherLesson.teacher_id == _me().id)
                                .order_by(TeacherLesson.id))]
    for r in RULESET_NAMES:
        for unit in content().lesson_path(r, i18n.current_lang()).units:
            out.append((f"unit:{r}:{unit.number}", _("Lesson unit: %(game)s %(n)s, %(title)s", game=ruleset_name(r),
                                                     n=i18n.fmt_number(unit.number), title=unit.title)))
    return out


def _join_url(row: Classroom) -> str:
    return url_for("classes.join", code=row.code, _external=True)


@bp.route("/classes/<int:cid>", methods=["GET", "POST"])
@login_required
def classroom(cid: int):
    row = _mine(Classroom, cid)
    db = get_session()
    form = AssignForm()
    options = _assign_choices()
    form.what.choices = choices(options)
    status = 200
    assignments = db.scalars(select(Assignment).where(Assignment.classroom_id == cid).order_by(Assignment.id)).all()
    if request.method == "POST":
        if form.validate():
            what = (form.what.data or "").split(":")
            due = datetime.combine(form.due.data, time(23, 59)) if form.due.data else None
            if form.due.data and form.due.data < now().date():  # due at the end of the day (UTC), as "late" counts
                form.due.errors = [_("The due date has passed: choose today or a later day.")]
            assignment = Assignment(classroom_id=cid, due=due, title="")
            if what[0] == "quiz":
                qrow = _mine(TeacherQuiz, int(what[1]))
                if not _questions(qrow):
                    form.what.errors = [_("This quiz has no questions yet.")]
                else:
                    assignment.quiz_id, assignment.quiz_doc, assignment.title = qrow.id, dict(qrow.doc), qrow.title
            elif what[0] == "lesson":
                lrow = _mine(TeacherLesson, int(what[1]))
                doc = _lesson_doc(lrow) | {"lesson_id": lrow.id}  # the id: the same lesson is not assigned twice
                step, problems = C.lesson_step(doc, engine=True)
                if step is None or problems or not step.exercises:
                    form.what.errors = [_("This lesson has problems or no exercises: fix it in its preview first.")]
                else:
                    assignment.lesson_doc, assignment.title = doc, lrow.title
            else:
                assignment.ruleset, assignment.unit = what[1], int(what[2])
                assignment.title = dict(options).get(form.what.data or "", "")
            if not form.what.errors and C.assigned_already(assignments, assignment):
                form.what.errors = [_("This is already assigned to this class.")]
            if not form.what.errors and not form.due.errors:
                def work(d):
                    d.add(assignment)
                    d.flush()
                    C.add_fingerprints(d, assignment)
                write(work)
                return redirect(url_for("teach.classroom", cid=cid))
        status = 400
    members = db.scalars(select(Membership).where(Membership.classroom_id == cid).order_by(Membership.id)).all()
    return render_template("teach/class.html", cls=row, members=members, assignments=assignments, form=form,
                           join_url=_join_url(row), progress=_progress(members, assignments)), status


def _progress(members, assignments) -> list[dict]:
    """Each learner's progress on each assignment: a quiz's score and questions answered, a
    teacher's lesson's exercises answered right, or the steps of a lesson unit done (in the order of ``assignments``)."""

    db = get_session()
    ids = [m.learner_id for m in members]
    done_steps = {(p.learner_id, p.step_id) for p in db.scalars(
        select(StepProgress).where(StepProgress.learner_id.in_(ids), StepProgress.done.is_(True)))} if ids else set()
    cols = []
    for a in assignments:
        if a.quiz_doc is not None:
            cols.append(("quiz", a, a.quiz_doc.get("questions") or [], C.attempts_of(get_session(), a.id)))
        elif a.lesson_doc is not None:
            cols.append(("lesson", a, C.lesson_exercises(a), C.attempts_of(get_session(), a.id)))
        else:
            path = content().lesson_path(a.ruleset or "", "en")
            steps = [s.id for u in path.units if u.number == a.unit for s in u.steps]
            cols.append(("unit", a, steps, []))
    rows = []
    for m in members:
        cells = []
        for what, _a, items, attempts in cols:
            if what == "quiz":
                got, total = C.score(items, attempts, m.learner_id)
                answered = len({t.position for t in attempts if t.learner_id == m.learner_id})
                cells.append(i18n.ngettext("%(got)s of %(num)s point, %(answered)s of %(questions)s answered",
                                           "%(got)s of %(num)s points, %(answered)s of %(questions)s answered", total,
                                           got=i18n.fmt_number(got), answered=i18n.fmt_number(answered),
                                           questions=i18n.fmt_number(len(items))))
            elif what == "lesson":
                cells.append(i18n.exercises_right_label(*C.lesson_progress(len(items), attempts, m.learner_id)))
            else:
                done = sum(1 for sid in items if (m.learner_id, sid) in done_steps)
                cells.append(i18n.steps_done_label(done, len(items)))
        rows.append({"m": m, "cells": cells})
    return rows


@bp.get("/classes/<int:cid>/qr.svg")
@login_required
def qr(cid: int):
    row = _mine(Classroom, cid)
    buf = io.BytesIO()
    segno.make(_join_url(row), error="m").save(buf, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
    return Response(buf.getvalue(), mimetype="image/svg+xml")


# ------------------------------------------------------------------------------------------ results

def _results_data(row: Classroom, a: Assignment):
    db = get_session()
    members = db.scalars(select(Membership).where(Membership.classroom_id == row.id).order_by(Membership.id)).all()
    attempts = C.attempts_of(get_session(), a.id)
    return members, attempts


@bp.get("/classes/<int:cid>/assignments/<int:aid>")
@login_required
def results(cid: int, aid: int):
    row = _mine(Classroom, cid)
    a = _assignment(row, aid)
    if a.quiz_doc is None:
        abort(404)
    questions = a.quiz_doc.get("questions") or []
    members, attempts = _results_data(row, a)
    firsts = C.first_attempts(attempts)
    learners = []
    for m in members:
        got, total = C.score(questions, attempts, m.learner_id)
        cells = []
        for n, q in enumerate(questions, 1):
            first = firsts.get((m.learner_id, n))
            cells.append({"answered": first is not None, "correct": first.correct if first else None,
                          "text": C.given_text(q, first.given) if first else ""})
        learners.append({"m": m, "got": got, "total": total, "cells": cells,
                         "done": sum(1 for c in cells if c["answered"])})
    stats = []
    db = get_session()
    for s in C.question_stats(questions, attempts):
        q = questions[s.n - 1]
        r = ratings.question_rating(db, C.rating_ref(a, q), exercise_of(q))
        stats.append({"s": s, "kind": _kind_label(q["kind"]),
                      "wrong": C.given_text(q, s.wrong) if s.wrong_count else None,
                      "rating": i18n.fmt_number(round(r.rating)), "rd": i18n.fmt_number(round(r.rd)),
                      "rated": r.games})
    weak = []
    for w in C.weak_spots(attempts):
        try:
            text = rule_point(w.rule).title_in(_lang())
        except (UnknownRulePoint, AttributeError):
            text = ""
        weak.append({"w": w, "text": text})
    return render_template("teach/results.html", cls=row, a=a, questions=questions, learners=learners, stats=stats,
                           weak=weak)


def _lang() -> str:
    return i18n.current_lang()


@bp.get("/classes/<int:cid>/assignments/<int:aid>/results.csv")
@login_required
def results_csv(cid: int, aid: int):
    row = _mine(Classroom, cid)
    a = _assignment(row, aid)
    if a.quiz_doc is None:
        abort(404)
    members, attempts = _results_data(row, a)
    body = C.csv_rows(row, a, members, attempts)
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="results-{cid}-{aid}.csv"', "Cache-Control": "no-store"})


@bp.get("/classes/<int:cid>/assignments/<int:aid>/learners/<mid>")
@login_required
def learner_answers(cid: int, aid: int, mid: str):
    row = _mine(Classroom, cid)
    a = _assignment(row, aid)
    key = id_from_request(mid)
    m = get_session().get(Membership, key) if key else None
    if m is None or m.classroom_id != row.id or a.quiz_doc is None:
        abort(404)
    questions = a.quiz_doc.get("questions") or []
    rows = []
    for t in C.attempts_of(get_session(), a.id, m.learner_id):
        q = questions[t.position - 1] if 1 <= t.position <= len(questions) else None
        if q is not None:
            rows.append({"t": t, "kind": _kind_label(q["kind"]), "text": C.given_text(q, t.given)})
    got, total = C.score(questions, C.attempts_of(get_session(), a.id, m.learner_id), m.learner_id)
    return render_template("teach/learner.html", cls=row, a=a, m=m, rows=rows, got=got, total=total)





def bdi(text: object) -> Markup:
    """A name someone typed (a nickname, a class's name, a quiz's or lesson's title) in ``<bdi>``,
    so that it keeps its own direction inside the page's: in Persian, ``=HYPERLINK("x")`` is not
    drawn as ``HYPERLINK("x")=``."""
    return Markup("<bdi>{}</bdi>").format(text)


def isolated(text: object) -> str:
    """:func:`bdi` for plain text (a page's ``<title>``, a menu's option): the name between the
    Unicode first-strong isolate and pop directional isolate marks."""
    return f"\u2068{text}\u2069"


@bp.app_context_processor
def _formats() -> dict:
    """``percent(0.5)``, ``format_date(d)`` and ``format_datetime(d)`` in the page's language
    (Persian digits and percent sign in Persian), ``bdi(name)`` and ``isolated(name)``, for the
    teacher and class pages."""

    def format_date(d) -> str:
        text = babel_date(d, format="medium", locale=i18n.current_lang())
        return text.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) if i18n.current_lang() == "fa" else text

    return {"percent": i18n.fmt_percent, "format_date": format_date, "format_datetime": i18n.fmt_datetime,
            "bdi": bdi, "isolated": isolated}
