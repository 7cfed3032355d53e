"""A teacher's quizzes: making one, its page, its questions (written, generated, imported from a
quiz file), each question's buttons (move, delete, points), its editor and its preview.

Every change to a quiz's questions is one write transaction holding the quiz's row
(:func:`_edit_questions`), so two edits at once take turns and neither is lost.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS
from tutor.domain.db import locked
from tutor.domain.models import TeacherQuiz
from tutor.export.lmsread import import_any
from tutor.problems import ContentError
from tutor.web.record import write

from ... import exercises as X
from ...authoring import (
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
    situation,
    stored_you,
)
from ...forms import AuthoredForm, GeneratedForm, ImportForm, PointsForm, QuizForm
from ..common import exercise_context, ruleset_name
from ._common import bp, import_text, kind_label, line_errors, me, mine
from .home import home

R = TypeVar("R")


@bp.post("/quizzes/")
@login_required
def new_quiz() -> ResponseReturnValue:
    form = QuizForm(prefix="quiz")
    if not form.validate():
        return home(refused=form)
    title = (form.title.data or "").strip()

    def work(db: Session) -> int:
        q = TeacherQuiz(teacher_id=me().id, title=title, doc={"title": title, "questions": []})
        db.add(q)
        db.flush()
        return q.id
    return redirect(url_for("teach.quiz", qid=write(work)))


def _questions(quiz: TeacherQuiz) -> list[dict[str, Any]]:
    return list((quiz.doc or {}).get("questions") or [])


class _Full(Exception):
    """The questions to add would make the quiz hold more than :data:`MAX_QUESTIONS`."""


def _edit_questions(qid: int, change: Callable[[list[dict[str, Any]]], R], *, title: str | None = None) -> R:
    """Change quiz ``qid``'s questions: ``change(questions)`` edits the list as it is now, in
    place, and the list is written back (with ``title``, if given), all in one write transaction
    holding the quiz's row from the read to the commit (:func:`~tutor.domain.models.locked`). Two edits
    at once (a double submit, two tabs) so take turns, and neither drops the other's question.
    Returns what ``change`` returns; an exception from it (``abort(404)``, :class:`_Full`)
    writes nothing."""
    def work(db: Session) -> R:
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


def _append(qid: int, count: int, new: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> int:
    """Add the ``count`` questions ``new(questions as they are now)`` at the end of quiz ``qid``
    (see :func:`_edit_questions`); the place of the first one (from 1). Raises :class:`_Full`."""
    def change(questions: list[dict[str, Any]]) -> int:
        if len(questions) + count > MAX_QUESTIONS:
            raise _Full
        first = len(questions) + 1
        questions.extend(new(questions))
        return first
    return _edit_questions(qid, change)


@bp.get("/quizzes/<int:qid>")
@login_required
def quiz(qid: int, authored: AuthoredForm | None = None, generated: GeneratedForm | None = None,
         preview: dict[str, Any] | None = None, imported: ImportForm | None = None, title_form: QuizForm | None = None,
         points: tuple[int, PointsForm] | None = None, status: int = 200) -> ResponseReturnValue:
    """The quiz page. After a form that did not validate, the page again with ``status`` 400: that
    form as sent with its messages (``points``: question n's points form), the others as they
    are (never filled from the request, whose fields may share their names)."""
    row = mine(TeacherQuiz, qid)
    sheet = request.args.get("sheet", "")
    sheet_lang = sheet if sheet in i18n.LANGUAGES else i18n.current_lang()
    files = [{"ruleset": r, "game": ruleset_name(r), "count": len(d["questions"])} for r, d in files_of(row.doc or {})]
    items = []
    for n, q in enumerate(_questions(row), 1):
        ex = exercise_of(q)
        refused = points[1] if points is not None and points[0] == n else None
        items.append({"n": n, "q": q, "kind": kind_label(q["kind"]), "game": ruleset_name(ex.ruleset or ""),
                      "prompt": _prompt_shown(ex), "situation": situation(q),
                      "points": refused or PointsForm(formdata=None, data={"points": q.get("points") or 1})})
    return render_template("teach/quiz.html", quiz=row, items=items, kind_guide=_kind_guide(),
                           title_form=title_form or QuizForm(prefix="quiz", formdata=None, data={"title": row.title}),
                           authored=authored or AuthoredForm(formdata=None),
                           generated=generated or GeneratedForm(prefix="g", formdata=None), preview=preview,
                           full=len(items) >= MAX_QUESTIONS, files=files, sheet_lang=sheet_lang,
                           languages=[(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
                           imported=imported or ImportForm(prefix="import", formdata=None)), status


def _kind_guide() -> list[dict[str, Any]]:
    """Per kind, from the kinds registry: its label, the ask(s) its scenario takes and the scenario
    fields its editor asks for (``editor_fields``), for the authoring form's guide."""
    return [{"label": _(k.label), "asks": " / ".join(k.asks),
             "fields": [(f.name, _(f.label), f.required) for f in k.editor_fields]} for k in KINDS.values()]


def _prompt_shown(ex: Exercise) -> str:
    return X.prompt_of(ex)


@bp.post("/quizzes/<int:qid>/title")
@login_required
def quiz_title(qid: int) -> ResponseReturnValue:
    row = mine(TeacherQuiz, qid)
    form = QuizForm(prefix="quiz")
    if not form.validate():
        return quiz(qid, title_form=form, status=400)
    _edit_questions(row.id, lambda questions: None, title=(form.title.data or "").strip())
    return redirect(url_for("teach.quiz", qid=qid))


def _add(row: TeacherQuiz, q: dict[str, Any]) -> ResponseReturnValue:
    """Add question ``q`` at the end of the quiz (400 if it is full: its forms are not shown then)."""
    try:
        n = _append(row.id, 1, lambda questions: [q])
    except _Full:
        abort(400)
    return redirect(url_for("teach.quiz", qid=row.id) + f"#question-{n}")


def _posted_question(form: AuthoredForm) -> dict[str, Any] | None:
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
def add_authored(qid: int) -> ResponseReturnValue:
    row = mine(TeacherQuiz, qid)
    form = AuthoredForm()
    q = _posted_question(form)
    if q is None:
        return quiz(qid, authored=form, status=400)
    return _add(row, q)


@bp.post("/quizzes/<int:qid>/generated")
@login_required
def add_generated(qid: int) -> ResponseReturnValue:
    row = mine(TeacherQuiz, qid)
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


def _question_at(questions: list[dict[str, Any]], n: int) -> dict[str, Any]:
    """Question ``n`` (from 1) of ``questions``; 404 if there is none."""
    if not 1 <= n <= len(questions):
        abort(404)
    return questions[n - 1]


@bp.post("/quizzes/<int:qid>/questions/<int:n>")
@login_required
def question_action(qid: int, n: int) -> ResponseReturnValue:
    """Question ``n``'s buttons on the quiz page: move it up or down, delete it, or save its points
    (points that are not a whole number from 1 to ``MAX_POINTS``: the quiz page again with 400,
    the message beside that question's points, what was typed kept)."""
    row = mine(TeacherQuiz, qid)
    _question_at(_questions(row), n)
    action = request.form.get("action", "")
    points = PointsForm()
    if action == "points" and not points.validate():
        return quiz(qid, points=(n, points), status=400)
    if action not in ("up", "down", "delete", "points"):
        abort(400)

    def change(questions: list[dict[str, Any]]) -> int:
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
def question_edit(qid: int, n: int) -> ResponseReturnValue:
    """Question ``n`` on the authoring form (its key as the teacher types it, seats from 1); a
    save checks it by the engine as when it was added and puts it in the same place, same id."""
    row = mine(TeacherQuiz, qid)
    questions = _questions(row)
    old = _question_at(questions, n)
    if request.method == "GET":
        form, status = AuthoredForm(data=edit_fields(old)), 200
    else:
        form, status = AuthoredForm(), 400
        q = _posted_question(form)
        if q is not None:
            def change(now: list[dict[str, Any]]) -> None:  # in place of the question at n as it is now
                now[n - 1] = edited(_question_at(now, n), q)
            _edit_questions(qid, change)
            return redirect(url_for("teach.quiz", qid=qid) + f"#question-{n}")
    return render_template("teach/question_edit.html", quiz=row, n=n, total=len(questions), form=form,
                           kind_guide=_kind_guide(), fixed_you=stored_you(old)), status


@bp.get("/quizzes/<int:qid>/questions/<int:n>/preview")
@login_required
def question_preview(qid: int, n: int) -> ResponseReturnValue:
    row = mine(TeacherQuiz, qid)
    questions = _questions(row)
    if not 1 <= n <= len(questions):
        abort(404)
    ex = exercise_of(questions[n - 1])
    return render_template("teach/preview.html", quiz=row, n=n, total=len(questions), x=exercise_context(ex, "preview"),
                           game=ruleset_name(ex.ruleset or ""))


@bp.post("/quizzes/<int:qid>/import")
@login_required
def import_file(qid: int) -> ResponseReturnValue:
    """Add the questions of a quiz file (uploaded or pasted: the quiz YAML, Moodle XML or GIFT,
    :func:`~tutor.export.lmsread.import_any`) to the quiz, after the same checks as ``tutor
    check`` (structure, then every question by the engine); problems are listed beside the field
    as ``Line N: message`` and nothing is added."""
    mine(TeacherQuiz, qid)  # 404 for another teacher's quiz; the questions are read under the lock
    form = ImportForm(prefix="import")
    if not form.validate():
        return quiz(qid, imported=form, status=400)
    field_, text = import_text(form, _("Choose a quiz file or paste its text."))
    if text is None:
        return quiz(qid, imported=form, status=400)
    upload = form.upload.data
    name = getattr(upload, "filename", None) or "quiz"  # the extension, or else the text, says its format
    try:
        found = import_any(text, name)
    except ContentError as e:
        field_.errors = line_errors(e.problems)
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
