"""The teaching home: the teacher's quizzes, classes and lessons, each with its form to make a new one."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue
from flask_login import login_required
from sqlalchemy import select

from tutor.domain.models import Classroom, TeacherLesson, TeacherQuiz

from ...db import get_session
from ...forms import ClassForm, LessonForm, NewLessonFileForm, QuizForm
from ._common import bp, me


@bp.get("/")
@login_required
def home(refused: QuizForm | ClassForm | LessonForm | NewLessonFileForm | None = None) -> ResponseReturnValue:
    """The teacher's quizzes, classes and lessons (not the archived ones: :func:`.manage.archived`
    lists them), each with its form to make a new one. After a
    form that did not validate (``refused``), the page again with 400: that form as sent, its
    messages beside its fields, the others empty."""
    db = get_session()
    tid = me().id
    quizzes = db.scalars(select(TeacherQuiz).where(TeacherQuiz.teacher_id == tid, TeacherQuiz.archived_at.is_(None))
                         .order_by(TeacherQuiz.id)).all()
    lessons = db.scalars(select(TeacherLesson).where(TeacherLesson.teacher_id == tid,
                                                     TeacherLesson.archived_at.is_(None))
                         .order_by(TeacherLesson.id)).all()
    classes = db.scalars(select(Classroom).where(Classroom.teacher_id == tid, Classroom.archived_at.is_(None))
                         .order_by(Classroom.id)).all()
    forms: dict[str, type[QuizForm | ClassForm | LessonForm | NewLessonFileForm]] = {
        "quiz_form": QuizForm, "class_form": ClassForm, "lesson_form": LessonForm, "lfile_form": NewLessonFileForm}
    shown = {name: refused if isinstance(refused, cls) else cls(prefix=name.removesuffix("_form"), formdata=None)
             for name, cls in forms.items()}
    return render_template("teach/home.html", quizzes=quizzes, lessons=lessons, classes=classes,
                           **shown), 200 if refused is None else 400
