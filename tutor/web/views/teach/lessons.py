"""A teacher's lessons: making one (written, or from a lesson file), its editor with the lesson
previewed as a learner of its language sees it and its problems listed by the lines of its text
box, and replacing it with a lesson file."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from markupsafe import Markup
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.lessons import LessonStep
from tutor.domain import classes as C
from tutor.domain.models import TeacherLesson
from tutor.export.files import dump_lesson, import_lesson
from tutor.problems import ContentError, Problems
from tutor.web.record import write

from ...forms import LessonForm, LessonImportForm, NewLessonFileForm
from ..common import RULESET_NAMES, exercise_context
from ._common import bp, import_text, line_errors, me, mine
from .home import home


def _body_problems(doc: dict[str, Any], problems: Problems) -> list[Markup]:
    """The problems of a teacher's lesson as ``Line N: message``, N the line of the lesson's text
    box (a problem of the title, goal or card game: the message alone); at most 20."""
    out = []
    for p in problems[:20]:
        message = Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(p.message)
        n = C.body_line(doc, p.line)
        out.append(Markup('<span class="problem">{}</span>').format(
            Markup(_("Line %(n)s: %(message)s", n=i18n.fmt_number(n), message=message)) if n is not None else message))
    return out


def _lesson_preview(values: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str], bool]:
    """``(parts for the step template, problems as 'Line N: message', whether the lesson has problems)``;
    an exercise that cannot be drawn is a note in its place."""
    step, problems = C.lesson_step(values, engine=True)
    shown: list[str] = [*_body_problems(values, problems)]  # Markup, or plain text escaped when drawn
    parts: list[dict] = []
    bad = bool(problems) or step is None
    if step is not None:
        for i, (_what, item) in enumerate(step.parts()):
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
def new_lesson() -> ResponseReturnValue:
    form = LessonForm(prefix="lesson")
    if not form.validate():
        return home(refused=form)

    def work(db: Session) -> int:
        row = TeacherLesson(teacher_id=me().id, ruleset=form.ruleset.data, lang=form.lang.data,
                            title=(form.title.data or "").strip(), goal=(form.goal.data or "").strip(),
                            body=form.body.data or "")
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.lesson", lid=write(work)))


@bp.route("/lessons/<int:lid>", methods=["GET", "POST"])
@login_required
def lesson(lid: int, imported: LessonImportForm | None = None, status: int = 200) -> ResponseReturnValue:
    row = mine(TeacherLesson, lid)
    # after an import that failed, the editor shows the lesson as saved (the POST was the import's)
    form = LessonForm(prefix="lesson", obj=row, formdata=None) if imported is not None else \
        LessonForm(prefix="lesson", obj=row)
    if request.method == "POST" and imported is None:
        if form.validate():
            def work(db: Session) -> None:
                r = db.get_one(TeacherLesson, lid)
                r.title, r.goal = (form.title.data or "").strip(), (form.goal.data or "").strip()
                r.ruleset, r.lang, r.body = form.ruleset.data, form.lang.data, form.body.data or ""
            write(work)
            return redirect(url_for("teach.lesson", lid=lid))
        status = 400
    values = {"ruleset": form.ruleset.data or row.ruleset, "lang": form.lang.data or row.lang,
              "title": form.title.data or row.title, "goal": form.goal.data or row.goal, "body": form.body.data or ""}
    parts, problems, bad = _lesson_preview(values)
    saved = C.lesson_fields(row)
    if values != saved:  # a form refused: the file offered is the lesson as saved
        step, found = C.lesson_step(saved, engine=True)
        bad = step is None or bool(found)
    return render_template("teach/lesson.html", lesson=row, form=form, parts=parts, problems=problems,
                           exportable=not bad, preview_dir=i18n.text_direction(values["lang"]), preview_lang=values["lang"],
                           imported=imported or LessonImportForm(prefix="limport")), status




def _file_body(text: str) -> str:
    """The Markdown after a lesson file's front matter (the text after its second ``---`` line)."""
    lines = text.split("\n")
    ends = [i for i, line in enumerate(lines) if line.rstrip() == "---"]
    return "\n".join(lines[ends[1] + 1:]) if len(ends) > 1 and ends[0] == 0 else text


def _lesson_file(form: LessonImportForm | NewLessonFileForm, lang: str) -> LessonStep | None:
    """The lesson step of an import form's file (uploaded or pasted) in ``lang``, after the same
    checks as ``tutor check`` (structure, then every exercise by the engine); None, with the
    problems put beside the form's field as ``Line N: message`` (lines of the file), if it has any."""
    field_, text = import_text(form, _("Choose a lesson file or paste its text."))
    if text is None:
        return None
    try:
        step = import_lesson(text.replace("\r\n", "\n"), "lesson.md", lang=lang)
    except ContentError as e:
        field_.errors = line_errors(e.problems)
        return None
    if step.ruleset not in RULESET_NAMES or len(step.title) > 120 or len(step.goal) > 300:
        field_.errors = [_("The title (at most 120 characters), goal (at most 300) or card game of this file "
                           "cannot be used here.")]
        return None
    return step


@bp.post("/lessons/<int:lid>/import")
@login_required
def import_lesson_file(lid: int) -> ResponseReturnValue:
    """Replace the lesson's title, goal, card game and text with a lesson file's (see
    :func:`_lesson_file`); on a problem, the lesson page again (400) with it beside the field and
    nothing changed. The file is stored as :func:`~tutor.export.files.dump_lesson` writes it, so
    exporting it again gives the same file."""
    row = mine(TeacherLesson, lid)
    form = LessonImportForm(prefix="limport")
    step = _lesson_file(form, row.lang) if form.validate() else None
    if step is None:
        return lesson(lid, imported=form, status=400)
    body = _file_body(dump_lesson(step))

    def work(db: Session) -> None:
        r = db.get_one(TeacherLesson, lid)
        r.title, r.goal, r.ruleset, r.body = step.title, step.goal, step.ruleset, body
    write(work)
    return redirect(url_for("teach.lesson", lid=lid))


@bp.post("/lessons/file")
@login_required
def new_lesson_from_file() -> ResponseReturnValue:
    """A new lesson from a lesson file in the language chosen (see :func:`_lesson_file`); on a
    problem, the teaching home again (400) with it beside the field and nothing made."""
    form = NewLessonFileForm(prefix="lfile")
    step = _lesson_file(form, form.lang.data) if form.validate() else None
    if step is None:
        return home(refused=form)
    body = _file_body(dump_lesson(step))

    def work(db: Session) -> int:
        row = TeacherLesson(teacher_id=me().id, ruleset=step.ruleset, lang=form.lang.data, title=step.title,
                            goal=step.goal, body=body)
        db.add(row)
        db.flush()
        return row.id
    return redirect(url_for("teach.lesson", lid=write(work)))
