"""Management of a teacher's things (issue 18; Moodle and Google Classroom are the references):
archive and delete quizzes, lessons and classes; remove a learner from a class; unassign an
assignment; renew a class's join code.

**Nothing a learner answered is lost by an edit.** Archiving, removing a learner and unassigning
only set a time (``archived_at``, :attr:`~tutor.domain.models.Membership.removed_at`); every
:class:`~tutor.domain.models.ClassAttempt` stays, and undoing it (unarchive, restore, the learner
joining again) brings everything back. Only a delete destroys answers, and only these:

* deleting a **quiz** or a **lesson** destroys none: every assignment holds its own copy
  (``quiz_doc``, ``lesson_doc``), so the classes' questions and results stay as they were; the
  assignments' link to the deleted quiz (``quiz_id``) is cleared;
* deleting an **assignment** destroys its answers, its scenario fingerprints and its questions'
  ratings (refs ``class:<id>:...``);
* deleting a **class** destroys all of that for each of its assignments, and its memberships.

:func:`impact` counts what a delete destroys, for the confirmation page; :func:`confirmed` tells
whether what the teacher confirmed is what would be destroyed now (answers given since the page
was drawn ask for a new confirmation).

The functions take the caller's session and do not commit (the web layer's write transaction).
Who owns what is the caller's check (:func:`tutor.web.views.teach._common.mine`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from .classes import new_code
from .db import now
from .models import (
    Assignment,
    AssignmentStart,
    ClassAttempt,
    ClassFingerprint,
    Classroom,
    LiveAnswer,
    LiveSession,
    Membership,
    QuestionRating,
    TeacherLesson,
    TeacherQuiz,
)

__all__ = [
    "Impact",
    "archive",
    "confirmed",
    "delete_assignment",
    "delete_class",
    "delete_lesson",
    "delete_quiz",
    "impact",
    "remove_member",
    "renew_code",
    "restore_member",
    "set_assigned",
]

Archivable = TeacherQuiz | TeacherLesson | Classroom


@dataclass(frozen=True)
class Impact:
    """What deleting something destroys or touches.

    ``answers``: the class answers (:class:`ClassAttempt` rows) destroyed; ``learners``: how many
    learners gave them; ``assignments``: the assignments that are deleted (a class's, or the one)
    or, for a quiz or a lesson, the assignments that keep their own copy of it; ``members``: the
    memberships deleted (a class's); ``kept``: for a quiz or a lesson, the answers to the
    assignments that keep their copy (none of them is destroyed).
    """

    answers: int = 0
    learners: int = 0
    assignments: int = 0
    members: int = 0
    kept: int = 0


def _answers(db: Session, assignment_ids: list[int]) -> tuple[int, int]:
    if not assignment_ids:
        return 0, 0
    row = db.execute(select(func.count(ClassAttempt.id), func.count(func.distinct(ClassAttempt.learner_id)))
                     .where(ClassAttempt.assignment_id.in_(assignment_ids))).one()
    return int(row[0]), int(row[1])


def _class_assignments(db: Session, classroom_id: int) -> list[int]:
    return list(db.scalars(select(Assignment.id).where(Assignment.classroom_id == classroom_id)))


def _copies_of(db: Session, row: TeacherQuiz | TeacherLesson) -> list[int]:
    """The assignments that hold a copy of the quiz or lesson ``row`` (of its teacher's classes)."""
    if isinstance(row, TeacherQuiz):
        return list(db.scalars(select(Assignment.id).where(Assignment.quiz_id == row.id)))
    mine = select(Classroom.id).where(Classroom.teacher_id == row.teacher_id)
    return [aid for aid, doc in db.execute(select(Assignment.id, Assignment.lesson_doc).where(
        Assignment.classroom_id.in_(mine), Assignment.lesson_doc.is_not(None)))
        if isinstance(doc, dict) and doc.get("lesson_id") == row.id]


def impact(db: Session, row: TeacherQuiz | TeacherLesson | Classroom | Assignment) -> Impact:
    """What deleting ``row`` destroys (see :class:`Impact` and the module docstring): nothing
    but the row for a quiz or a lesson (``assignments``: how many keep a copy, ``kept``: their
    answers), the answers of the
    assignment, or of every assignment and membership of the class."""
    if isinstance(row, TeacherQuiz | TeacherLesson):
        copies = _copies_of(db, row)
        return Impact(assignments=len(copies), kept=_answers(db, copies)[0])
    if isinstance(row, Assignment):
        answers, learners = _answers(db, [row.id])
        return Impact(answers=answers, learners=learners, assignments=1)
    ids = _class_assignments(db, row.id)
    answers, learners = _answers(db, ids)
    members = int(db.scalar(select(func.count(Membership.id)).where(Membership.classroom_id == row.id)) or 0)
    return Impact(answers=answers, learners=learners, assignments=len(ids), members=members)


def confirmed(found: Impact, shown: int | None, ticked: bool) -> bool:
    """Whether a delete may go ahead: the teacher sent the confirmation page's form (``shown``,
    the count of answers that page named; None when the form was not sent from it) and, if any
    answer would be destroyed, ticked the box that names how many, and that count is still the
    one destroyed now (``found.answers``)."""
    if shown is None or shown != found.answers:
        return False
    return ticked or found.answers == 0


def archive(row: Archivable, archived: bool) -> None:
    """Archive ``row`` (a quiz, lesson or class: out of the default lists, still readable, its
    results kept) or, ``archived`` False, bring it back. Archiving again keeps the first time."""
    if archived and row.archived_at is None:
        row.archived_at = now()
    elif not archived:
        row.archived_at = None


def set_assigned(a: Assignment, assigned: bool) -> None:
    """Unassign ``a`` (``assigned`` False: the learners no longer see it, its answers are kept) or
    restore it."""
    if not assigned and a.archived_at is None:
        a.archived_at = now()
    elif assigned:
        a.archived_at = None


def remove_member(m: Membership) -> None:
    """Remove a learner from the class: they no longer see it; their answers are kept; joining
    again (:func:`restore_member`) or the teacher's restore brings them back with their answers."""
    if m.removed_at is None:
        m.removed_at = now()


def restore_member(m: Membership) -> None:
    """Undo :func:`remove_member` (the nickname and the answers are the ones kept)."""
    m.removed_at = None


def renew_code(db: Session, c: Classroom) -> str:
    """Give class ``c`` a new join code (:func:`tutor.domain.classes.new_code`, different from its
    old one and from every class's); the old code names no class from then on. Returns it."""
    while True:
        code = new_code()
        if code != c.code and db.scalar(select(Classroom.id).where(Classroom.code == code)) is None:
            c.code = code
            return code


def _delete_assignments(db: Session, ids: list[int]) -> None:
    """Delete the assignments ``ids`` with their answers, live sessions, fingerprints and question
    ratings."""
    if not ids:
        return
    db.execute(delete(ClassAttempt).where(ClassAttempt.assignment_id.in_(ids)))
    db.execute(delete(AssignmentStart).where(AssignmentStart.assignment_id.in_(ids)))
    sessions = select(LiveSession.id).where(LiveSession.assignment_id.in_(ids)).scalar_subquery()
    db.execute(delete(LiveAnswer).where(LiveAnswer.session_id.in_(sessions)))
    db.execute(delete(LiveSession).where(LiveSession.assignment_id.in_(ids)))
    db.execute(delete(ClassFingerprint).where(ClassFingerprint.assignment_id.in_(ids)))
    for aid in ids:  # the ratings of its questions: refs class:<id>:<question id> (classes.rating_ref)
        db.execute(delete(QuestionRating).where(QuestionRating.exercise_ref.like(f"class:{aid}:%")))
    db.execute(delete(Assignment).where(Assignment.id.in_(ids)))


def delete_assignment(db: Session, a: Assignment) -> None:
    """Delete assignment ``a`` and everything answered to it (see the module docstring)."""
    _delete_assignments(db, [a.id])


def delete_class(db: Session, c: Classroom) -> None:
    """Delete class ``c``: its assignments with their answers, its memberships, the class."""
    _delete_assignments(db, _class_assignments(db, c.id))
    db.execute(delete(Membership).where(Membership.classroom_id == c.id))
    db.delete(c)


def delete_quiz(db: Session, q: TeacherQuiz) -> None:
    """Delete quiz ``q``; the assignments of it keep their copy (``quiz_doc``) and their answers,
    their link to it (``quiz_id``) cleared."""
    db.execute(update(Assignment).where(Assignment.quiz_id == q.id).values(quiz_id=None))
    db.delete(q)


def delete_lesson(db: Session, lesson: TeacherLesson) -> None:
    """Delete lesson ``lesson``; the assignments of it keep their copy (``lesson_doc``) and answers."""
    db.delete(lesson)
