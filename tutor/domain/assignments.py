"""Assignment kinds: one class per kind of thing a teacher gives a class, one registry (:data:`KINDS`).

An :class:`~tutor.web.db.Assignment` is one of

* ``quiz`` — a teacher's quiz, its document copied into ``quiz_doc`` (:class:`QuizAssignment`);
* ``lesson`` — a teacher's lesson, its fields copied into ``lesson_doc`` (:class:`LessonAssignment`);
* ``unit`` — a unit of a game's lesson path, ``ruleset`` + ``unit`` (:class:`UnitAssignment`);
* ``draw`` — a random draw: ``n`` questions drawn for each learner from a category of the
  teacher's question bank, the whole category copied into ``quiz_doc`` (:class:`DrawAssignment`,
  :mod:`tutor.domain.bank`).

Each kind brings everything that differs between them: the choices a teacher assigns from
(:meth:`AssignmentKind.choices`, values ``<kind>:<...>``), how a choice becomes an assignment
(:meth:`~AssignmentKind.fill`, with the reason it cannot be assigned), when two assignments give
the class the same thing (:meth:`~AssignmentKind.same`), the fingerprints of its scenarios
(:meth:`~AssignmentKind.fingerprints`), a learner's progress in words
(:meth:`~AssignmentKind.progress`), where a learner does it (:meth:`~AssignmentKind.learner_link`),
whether it has per-question results (``per_question``), whether the teacher may run it as a live
quiz (``can_run_live``: every learner answers the same questions in the same order) and, if so, which questions each learner
answers (:meth:`~AssignmentKind.learner_questions`). :func:`kind_of` tells an assignment's
kind; nothing else in the project branches on the kinds' names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.kinds.base import N_
from tutor.content.store import ContentStore
from tutor.domain import bank as B
from tutor.domain import classes as C
from tutor.domain import settings as S
from tutor.domain.models import (
    Assignment,
    ClassAttempt,
    ClassFingerprint,
    StepProgress,
    TeacherLesson,
    TeacherQuiz,
)
from tutor.engine.rulesets import RULESETS
from tutor.registry import Registry

__all__ = ["KINDS", "AssignmentKind", "DrawAssignment", "GradeItem", "LessonAssignment", "NotFound", "QuizAssignment",
           "Refused", "UnitAssignment", "add_fingerprints", "assigned_already", "isolated", "kind_of",
           "learner_order", "parse_choice", "register", "title_of"]


class NotFound(LookupError):
    """A choice names a quiz or lesson that does not exist or is another teacher's (a 404)."""


class Refused(ValueError):
    """A choice that cannot be assigned; ``str(e)`` is the message for the form's field (translated)."""


def isolated(text: object) -> str:
    """A name someone typed (a title) between the Unicode first-strong isolate and pop directional
    isolate marks, so that it keeps its own direction inside a label in another script."""
    return f"\u2068{text}\u2069"


@dataclass(frozen=True)
class GradeItem:
    """One learner's mark on one item of an assignment (a quiz's question, a teacher's lesson's
    exercise, a lesson unit's step), for the gradebook (:mod:`tutor.domain.gradebook`): ``item`` its
    place (from 1) or step id, ``available`` and ``scored`` points, ``attempts`` made (0 for a step),
    the first and last answer's times (naive UTC; None if none, a step: its last change)."""

    item: str
    available: int
    scored: int
    attempts: int
    first_at: datetime | None
    last_at: datetime | None


class AssignmentKind:
    """One kind of assignment (see the module docstring); :func:`register` adds one instance."""

    #: The kind's name: the first part of its choices' values.
    name: ClassVar[str]
    #: Whether it has per-question results (the results page, its CSV, a learner's answers).
    per_question: ClassVar[bool] = False
    #: Whether the teacher may run it as a live quiz (:mod:`tutor.domain.live`): one question at a
    #: time on every learner's screen, so every learner must have the same questions.
    can_run_live: ClassVar[bool] = False

    def owns(self, a: Assignment) -> bool:
        """Whether ``a`` is of this kind."""
        raise NotImplementedError

    def choices(self, db: Session, teacher_id: int, store: ContentStore, lang: str) -> list[tuple[str, str]]:
        """``(value, label)`` of everything of this kind the teacher may assign, labels in ``lang``
        (the current language: :func:`tutor.i18n.current_lang`)."""
        raise NotImplementedError

    def fill(self, a: Assignment, db: Session, teacher_id: int, parts: Sequence[str], label: str) -> None:
        """Make ``a`` (new, not stored) give the choice ``parts`` (its value split at ``:``;
        ``label``: the choice's label). Raises :class:`NotFound` for a quiz or lesson that is not
        the teacher's, :class:`Refused` for one that cannot be assigned as it is."""
        raise NotImplementedError

    def same(self, a: Assignment, b: Assignment) -> bool:
        """Whether ``a`` and ``b`` (both of this kind) give the class the same thing."""
        raise NotImplementedError

    def fingerprints(self, a: Assignment) -> list[tuple[int, str]]:
        """``(place, fingerprint)`` of the scenarios the learners answer (places from 1;
        :func:`tutor.web.classes.fingerprints_of`); the stateless endpoints refuse them."""
        return []

    def progress(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, str]:
        """Each learner's progress on ``a`` in words (current language), by learner id."""
        raise NotImplementedError

    def items(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, list[GradeItem]]:
        """Each learner's mark on each item of ``a`` (:class:`GradeItem`), by learner id, items in
        their order: the gradebook's cells are their sums."""
        raise NotImplementedError

    def learner_link(self, a: Assignment, classroom_id: int) -> tuple[str, dict[str, Any], str]:
        """Where a learner of class ``classroom_id`` does ``a``: ``(endpoint, its values, fragment)``
        for ``url_for`` (the fragment with its ``#``, or "")."""
        raise NotImplementedError

    def learner_summary(self, db: Session, a: Assignment, learner_id: int) -> dict[str, Any]:
        """What the learner's class page shows beside ``a`` for learner ``learner_id``: for a
        quiz ``{"answered", "total", "score"}``, for a lesson ``{"right": (right, total)}``;
        ``{}`` for a kind done elsewhere (a unit: the path shows it)."""
        return {}

    def learner_questions(self, a: Assignment, learner_id: int) -> list[tuple[int, Mapping[str, Any]]]:
        """The questions learner ``learner_id`` answers, in their order: ``(place, stored
        question)``, the place (from 1, in ``quiz_doc["questions"]``) what their attempts'
        ``position`` holds; ``[]`` for a kind without per-question results."""
        return []

    def title(self, a: Assignment) -> str:
        """The title ``a`` is shown with (pages, the class API, the gradebook): the stored one."""
        return a.title


def title_of(a: Assignment) -> str:
    """The title assignment ``a`` is shown with, in the current language where its kind makes it
    (:meth:`AssignmentKind.title`; the templates' ``title_of``)."""
    return kind_of(a).title(a)


#: Every assignment kind, by name, in the order they are offered to a teacher.
KINDS: Registry[AssignmentKind] = Registry("assignment kind")

#: Class decorator: add one instance of the kind to :data:`KINDS` (a name used twice is a bug).
register = KINDS.register


def _questions(a: Assignment) -> list[Mapping[str, Any]]:
    return list((a.quiz_doc or {}).get("questions") or [])


def _id(parts: Sequence[str]) -> int:
    """The row id of a ``<kind>:<id>`` choice; :class:`NotFound` if it is not one."""
    try:
        return int(parts[1])
    except (IndexError, ValueError):
        raise NotFound(":".join(parts)) from None


@register
class QuizAssignment(AssignmentKind):
    """A teacher's quiz: its questions copied when assigned, answered on the class's pages, the
    first attempt at each question scored."""

    name = "quiz"
    per_question = True
    can_run_live = True

    def owns(self, a: Assignment) -> bool:
        return a.quiz_doc is not None and _DRAW not in a.quiz_doc  # a random draw's copy has its rule

    def choices(self, db: Session, teacher_id: int, store: ContentStore, lang: str) -> list[tuple[str, str]]:
        rows = db.scalars(select(TeacherQuiz).where(TeacherQuiz.teacher_id == teacher_id,
                                                    TeacherQuiz.archived_at.is_(None)).order_by(TeacherQuiz.id))
        return [(f"{self.name}:{q.id}", i18n.gettext(N_("Quiz: %(title)s"), title=isolated(q.title))) for q in rows]

    def fill(self, a: Assignment, db: Session, teacher_id: int, parts: Sequence[str], label: str) -> None:
        row = db.get(TeacherQuiz, _id(parts))
        if row is None or row.teacher_id != teacher_id:
            raise NotFound(":".join(parts))
        if not (row.doc or {}).get("questions"):
            raise Refused(i18n.gettext(N_("This quiz has no questions yet.")))
        if row.archived_at is not None:
            raise Refused(i18n.gettext(N_("This quiz is archived: unarchive it first.")))
        a.quiz_id, a.quiz_doc, a.title = row.id, dict(row.doc), row.title

    def same(self, a: Assignment, b: Assignment) -> bool:
        return a.quiz_id == b.quiz_id

    def fingerprints(self, a: Assignment) -> list[tuple[int, str]]:
        return C.fingerprints_of(a.quiz_doc, None)

    def progress(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, str]:
        attempts = C.attempts_of(db, a.id)
        out = {}
        for lid in learners:
            questions = self.learner_questions(a, lid)
            got, total = C.score_at(questions, attempts, lid)
            places = {n for n, _q in questions}
            answered = len({t.position for t in attempts if t.learner_id == lid and t.position in places})
            out[lid] = i18n.ngettext("%(got)s of %(num)s point, %(answered)s of %(questions)s answered",
                                     "%(got)s of %(num)s points, %(answered)s of %(questions)s answered", total,
                                     got=i18n.fmt_number(got), answered=i18n.fmt_number(answered),
                                     questions=i18n.fmt_number(len(questions)))
        return out

    def items(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, list[GradeItem]]:
        questions, attempts = _questions(a), C.attempts_of(db, a.id)
        points, mine = [C.points_of(q) for q in questions], _by_learner(attempts)
        return {lid: _attempt_items(points, mine.get(lid, []), first_scores=True) for lid in learners}

    def learner_link(self, a: Assignment, classroom_id: int) -> tuple[str, dict[str, Any], str]:
        return "classes.overview", {"cid": classroom_id, "aid": a.id}, ""

    def learner_summary(self, db: Session, a: Assignment, learner_id: int) -> dict[str, Any]:
        questions, attempts = self.learner_questions(a, learner_id), C.attempts_of(db, a.id, learner_id)
        places = {n for n, _q in questions}
        return {"answered": len({t.position for t in attempts if t.position in places}), "total": len(questions),
                "score": C.score_at(questions, attempts, learner_id)}

    def learner_questions(self, a: Assignment, learner_id: int) -> list[tuple[int, Mapping[str, Any]]]:
        return list(enumerate(_questions(a), 1))


#: The key of a random draw's rule in its ``quiz_doc``: ``{"n": int, "filter": Filter.as_dict()}``.
_DRAW = "draw"
#: The key in a draw's ``quiz_doc`` that says its title is the default one, made in the language of
#: each page that shows it (:func:`tutor.domain.bank.draw_title`), not a title of the teacher's own.
_DEFAULT_TITLE = "default_title"


@register
class DrawAssignment(QuizAssignment):
    """A random draw from the teacher's question bank (:mod:`tutor.domain.bank`; Moodle's "random
    question"): every question of one category copied when assigned (``quiz_doc["questions"]``,
    the pool; each question's ``id`` prefixed with its quiz's row id, so that two quizzes' ids
    never meet), the rule in ``quiz_doc["draw"]`` (``n`` and the category); each learner answers
    their own ``n`` of the pool (:func:`tutor.domain.bank.draw`, seeded by the assignment and the
    learner), on the class quiz pages, scored as a quiz. Given no title (``label`` empty), it is
    named by its rule in the language of each page that shows it (:meth:`title`). Every question of the pool is
    fingerprinted, drawn or not, so the stateless endpoints refuse them all.

    It is not among the class page's choices (it needs a count and a category): the bank page
    assigns it, its choice's parts ``["draw", n, ruleset, kind, rule, tag]`` (empty: any).

    It cannot run live: its learners have different questions."""

    name = _DRAW
    can_run_live = False

    def owns(self, a: Assignment) -> bool:
        return a.quiz_doc is not None and _DRAW in a.quiz_doc

    def choices(self, db: Session, teacher_id: int, store: ContentStore, lang: str) -> list[tuple[str, str]]:
        return []

    def fill(self, a: Assignment, db: Session, teacher_id: int, parts: Sequence[str], label: str) -> None:
        try:
            n = int(parts[1])
            f = B.Filter(*(str(p) for p in parts[2:6]))
        except (IndexError, ValueError, TypeError):
            raise NotFound(":".join(parts)) from None
        pool = B.select_questions(B.questions_of(db, teacher_id), f)
        if not pool:
            raise Refused(i18n.gettext(N_("None of your questions is in this category.")))
        if not 1 <= n <= len(pool):
            raise Refused(i18n.ngettext("This category holds %(num)s question: draw from 1 to %(num)s.",
                                        "This category holds %(num)s questions: draw from 1 to %(num)s.",
                                        len(pool)))
        questions = [dict(b.q) | {"id": f"{b.quiz_id}-{b.question_id}"} for b in pool]
        default = not label.strip()
        title = B.draw_title(n, len(pool), f) if default else label.strip()  # stored too: read where no page is
        a.quiz_id, a.title = None, title
        a.quiz_doc = {"title": title, "questions": questions, _DRAW: {"n": n, "filter": f.as_dict()}}
        if default:
            a.quiz_doc[_DEFAULT_TITLE] = True

    def same(self, a: Assignment, b: Assignment) -> bool:
        return bool((a.quiz_doc or {}).get(_DRAW) == (b.quiz_doc or {}).get(_DRAW))

    def learner_questions(self, a: Assignment, learner_id: int) -> list[tuple[int, Mapping[str, Any]]]:
        rule = (a.quiz_doc or {}).get(_DRAW) or {}
        n = rule.get("n") if isinstance(rule, Mapping) else None
        return B.drawn_questions(_questions(a), n if isinstance(n, int) else 0, a.id, learner_id)

    def title(self, a: Assignment) -> str:
        if not (a.quiz_doc or {}).get(_DEFAULT_TITLE):
            return a.title
        n, f = self.rule(a)
        return B.draw_title(n, len(_questions(a)), f)

    @staticmethod
    def rule(a: Assignment) -> tuple[int, B.Filter]:
        """``(n, category)`` of a draw assignment ``a``."""
        rule = (a.quiz_doc or {}).get(_DRAW) or {}
        n = rule.get("n")
        return (n if isinstance(n, int) else 0), B.Filter.of(rule.get("filter"))


#: The fields of a teacher's lesson an older lesson assignment (without ``lesson_id``) is told by.
_LESSON_FIELDS = ("ruleset", "lang", "title", "goal", "body")


@register
class LessonAssignment(AssignmentKind):
    """A teacher's lesson: its text copied when assigned, its exercises answered on the class's
    pages (an exercise counts once one attempt at it was right)."""

    name = "lesson"

    def owns(self, a: Assignment) -> bool:
        return a.quiz_doc is None and a.lesson_doc is not None

    def choices(self, db: Session, teacher_id: int, store: ContentStore, lang: str) -> list[tuple[str, str]]:
        rows = db.scalars(select(TeacherLesson).where(TeacherLesson.teacher_id == teacher_id,
                                                      TeacherLesson.archived_at.is_(None))
                          .order_by(TeacherLesson.id))
        return [(f"{self.name}:{t.id}", i18n.gettext(N_("Your lesson: %(title)s"), title=isolated(t.title)))
                for t in rows]

    def fill(self, a: Assignment, db: Session, teacher_id: int, parts: Sequence[str], label: str) -> None:
        row = db.get(TeacherLesson, _id(parts))
        if row is None or row.teacher_id != teacher_id:
            raise NotFound(":".join(parts))
        if row.archived_at is not None:
            raise Refused(i18n.gettext(N_("This lesson is archived: unarchive it first.")))
        doc = C.lesson_fields(row) | {"lesson_id": row.id}  # the id: the same lesson is not assigned twice
        step, problems = C.lesson_step(doc, engine=True)
        if step is None or problems or not step.exercises:
            raise Refused(i18n.gettext(N_("This lesson has problems or no exercises: fix it in its preview first.")))
        a.lesson_doc, a.title = doc, row.title

    def same(self, a: Assignment, b: Assignment) -> bool:
        old, new = a.lesson_doc or {}, b.lesson_doc or {}
        if "lesson_id" in old:
            return bool(old["lesson_id"] == new.get("lesson_id"))
        return all(old.get(k) == new.get(k) for k in _LESSON_FIELDS)

    def fingerprints(self, a: Assignment) -> list[tuple[int, str]]:
        return C.fingerprints_of(None, a.lesson_doc)

    def progress(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, str]:
        exercises, attempts = len(C.lesson_exercises(a)), C.attempts_of(db, a.id)
        return {lid: i18n.exercises_right_label(*C.lesson_progress(exercises, attempts, lid)) for lid in learners}

    def items(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, list[GradeItem]]:
        exercises, attempts = len(C.lesson_exercises(a)), C.attempts_of(db, a.id)
        mine = _by_learner(attempts)
        return {lid: _attempt_items([1] * exercises, mine.get(lid, []), first_scores=False) for lid in learners}

    def learner_link(self, a: Assignment, classroom_id: int) -> tuple[str, dict[str, Any], str]:
        return "classes.lesson", {"cid": classroom_id, "aid": a.id}, ""

    def learner_summary(self, db: Session, a: Assignment, learner_id: int) -> dict[str, Any]:
        return {"right": C.lesson_progress(len(C.lesson_exercises(a)), C.attempts_of(db, a.id, learner_id),
                                           learner_id)}


@register
class UnitAssignment(AssignmentKind):
    """A unit of a game's lesson path: done on the lesson pages, its steps done counted."""

    name = "unit"

    def owns(self, a: Assignment) -> bool:
        return a.quiz_doc is None and a.lesson_doc is None

    def choices(self, db: Session, teacher_id: int, store: ContentStore, lang: str) -> list[tuple[str, str]]:
        out = []
        for r, ruleset in RULESETS.items():
            for unit in store.lesson_path(r, lang).units:
                out.append((f"{self.name}:{r}:{unit.number}",
                            i18n.gettext(N_("Lesson unit: %(game)s %(n)s, %(title)s"), game=i18n.gettext(ruleset.title),
                                         n=i18n.fmt_number(unit.number), title=unit.title)))
        return out

    def fill(self, a: Assignment, db: Session, teacher_id: int, parts: Sequence[str], label: str) -> None:
        try:
            a.ruleset, a.unit = parts[1], int(parts[2])
        except (IndexError, ValueError):
            raise NotFound(":".join(parts)) from None
        a.title = label

    def same(self, a: Assignment, b: Assignment) -> bool:
        return (a.ruleset, a.unit) == (b.ruleset, b.unit)

    def progress(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, str]:
        path = store.lesson_path(a.ruleset or "", "en")
        steps = [s.id for u in path.units if u.number == a.unit for s in u.steps]
        done = {(p.learner_id, p.step_id) for p in db.scalars(
            select(StepProgress).where(StepProgress.learner_id.in_(learners), StepProgress.done.is_(True)))} \
            if learners else set()
        return {lid: i18n.steps_done_label(sum(1 for sid in steps if (lid, sid) in done), len(steps))
                for lid in learners}

    def items(self, db: Session, a: Assignment, learners: Sequence[int], store: ContentStore) -> dict[int, list[GradeItem]]:
        steps = self._steps(a, store)
        rows = {(p.learner_id, p.step_id): p for p in db.scalars(
            select(StepProgress).where(StepProgress.learner_id.in_(learners), StepProgress.step_id.in_(steps)))} \
            if learners and steps else {}
        out: dict[int, list[GradeItem]] = {}
        for lid in learners:
            out[lid] = []
            for sid in steps:
                p = rows.get((lid, sid))
                out[lid].append(GradeItem(sid, 1, 1 if p is not None and p.done else 0, 0, None,
                                          p.updated_at if p is not None else None))
        return out

    def _steps(self, a: Assignment, store: ContentStore) -> list[str]:
        path = store.lesson_path(a.ruleset or "", "en")
        return [s.id for u in path.units if u.number == a.unit for s in u.steps]

    def learner_link(self, a: Assignment, classroom_id: int) -> tuple[str, dict[str, Any], str]:
        return "lessons.path", {"ruleset": a.ruleset}, f"#unit-{a.unit}"


def _by_learner(attempts: Sequence[ClassAttempt]) -> dict[int, list[ClassAttempt]]:
    out: dict[int, list[ClassAttempt]] = {}
    for t in attempts:
        out.setdefault(t.learner_id, []).append(t)
    return out


def _attempt_items(points: Sequence[int], attempts: Sequence[ClassAttempt], *, first_scores: bool) -> list[GradeItem]:
    """One learner's :class:`GradeItem` at each place of ``points`` (the places' points, from 1)
    from their class attempts (oldest first): with ``first_scores`` the first attempt scores (a
    quiz), else a place scores once any attempt at it was right (a teacher's lesson)."""
    out = []
    for n, pts in enumerate(points, 1):
        mine = [t for t in attempts if t.position == n]
        right = (mine[0].correct if mine else False) if first_scores else any(t.correct for t in mine)
        out.append(GradeItem(str(n), pts, pts if right else 0, len(mine), mine[0].created_at if mine else None,
                             mine[-1].created_at if mine else None))
    return out


def kind_of(a: Assignment) -> AssignmentKind:
    """The kind of assignment ``a`` (the first in :data:`KINDS` that owns it)."""
    return next(k for k in KINDS.values() if k.owns(a))


def learner_order(a: Assignment, learner_id: int) -> list[int]:
    """The stored places of learner ``learner_id``'s questions of ``a`` in the order they see them:
    the kind's questions for them (all of a quiz's; a random draw's learner their own drawn ones:
    :meth:`AssignmentKind.learner_questions`), shuffled if the assignment says so
    (:func:`tutor.domain.settings.order`). The class pages and the class API both name a
    question ``n`` by its place in this list."""
    places = [p for p, _q in kind_of(a).learner_questions(a, learner_id)]
    return [places[i - 1] for i in S.order(a, learner_id, len(places))]


def parse_choice(value: str) -> tuple[AssignmentKind, list[str]]:
    """The kind of a choice's value (``quiz:3``, ``unit:hokm:2``) and the value split at ``:``.
    Raises :class:`NotFound` for a value of no kind."""
    parts = value.split(":")
    kind = KINDS.get(parts[0])
    if kind is None:
        raise NotFound(value)
    return kind, parts


def assigned_already(assignments: Sequence[Assignment], what: Assignment) -> bool:
    """Whether ``what`` (an assignment not yet stored) gives the class again something among its
    ``assignments``: of the same kind and the same by the kind (:meth:`AssignmentKind.same`: the
    same teacher's quiz; the same teacher's lesson, ``lesson_doc["lesson_id"]``, or for an older
    copy without it the same lesson text; the same lesson unit)."""
    kind = kind_of(what)
    return any(kind_of(a) is kind and kind.same(a, what) for a in assignments)


def add_fingerprints(db: Session, a: Assignment) -> int:
    """Store the fingerprints of the scenarios of ``a`` (:meth:`AssignmentKind.fingerprints`;
    inside the caller's transaction, after ``a`` is flushed); returns how many."""
    found = kind_of(a).fingerprints(a)
    for n, fp in found:
        db.add(ClassFingerprint(assignment_id=a.id, position=n, fingerprint=fp))
    return len(found)
