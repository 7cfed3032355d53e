"""Classes: join codes, class quizzes and their results.

**A class quiz is answered only here.** Its questions are copied into the assignment when the
teacher assigns the quiz (:class:`~tutor.domain.models.Assignment` ``quiz_doc``) and are named on the
learner's pages only by their place (``/classes/<class>/assignments/<id>/<n>``): they have no
exercise ref (``lesson:``, ``quiz:``, ``gen:``; :func:`tutor.web.exercises.resolve`), so the
exercise API (``GET/POST /api/v1/exercises/<ref>``) can neither show nor check them, and every
answer to them goes through :func:`record`, which keeps every attempt (the first one at each
question is the score). A generated question is stored with its scenario, never with its seed or
``gen:`` ref, so it cannot be looked up in the exercise API either. The page shows only the
question's public view (:func:`tutor.content.kinds.public_view`'s fields drawn on the table),
never the stored ``expect``; no endpoint returns it.

**Nor through the stateless endpoints.** When a quiz is assigned, the canonical fingerprint of
each question's scenario (:func:`tutor.solve.fingerprint.fingerprint`: the scenario parsed by the
contract's models, a hand's cards sorted, canonical JSON, SHA-256) is stored
(:class:`~tutor.domain.models.ClassFingerprint`, :func:`tutor.domain.assignments.add_fingerprints`). ``POST /api/v1/solve``,
``POST /api/v1/table/check`` and the "Ask the rules" page refuse a scenario whose fingerprint
belongs to an assignment (:func:`is_class_question`): 403 with the error code
:data:`CLASS_QUESTION` (a page: the message beside the field). Writing the scenario differently
(the hand's cards in another order, a default written out, lower-case cards) gives the same
fingerprint. A logged-in teacher's table editor is not refused (they author the questions).

Every first attempt also rates the question and the learner (Glicko-2, :mod:`tutor.domain.ratings`)
under the ref :func:`rating_ref` (``class:<assignment>:<question id>``), shown in the results.

Statistics (:func:`question_stats`), per question, over the members' attempts:

* ``share`` — the share of all attempts (first and later ones) that were right, 0..1;
* ``facility`` — the facility index: the mean of the marks the learners scored on it (their
  first attempt: ``points`` if right, else 0) divided by the question's ``points``, 0..1 (only
  learners who answered it are counted);
* ``wrong`` — the most common wrong answer (the kind's normalised value; ties go to the one given
  first) and how many times it was given.

Weak spots (:func:`weak_spots`): for every rule point cited by the engine's reasons on wrong
first attempts, how many wrong first attempts cited it and by how many learners.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.content import kinds
from tutor.content.check import check_step_exercises
from tutor.content.exercise import Exercise
from tutor.content.kinds import Verdict
from tutor.content.lessons import LessonStep, parse_step
from tutor.problems import Problems
from tutor.solve.fingerprint import fingerprint

from .db import now
from .models import Assignment, ClassAttempt, ClassFingerprint, Classroom, Membership, TeacherLesson
from .quizdoc import answer_text, exercise_of

__all__ = [
    "CLASS_QUESTION",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "QuestionStats",
    "WeakSpot",
    "answer_as_key",
    "class_exercise",
    "csv_rows",
    "fingerprints_of",
    "first_attempts",
    "is_class_question",
    "lesson_fields",
    "new_code",
    "nickname_taken",
    "question_stats",
    "rating_ref",
    "record",
    "score",
    "score_at",
    "weak_spots",
]

#: Join codes: letters and digits that are not mistaken for one another (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_code() -> str:
    """A random join code (``CODE_LENGTH`` characters of ``CODE_ALPHABET``, about 40 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A typed join code as stored: capitals, spaces and dashes dropped."""
    return "".join(ch for ch in text.upper() if ch not in " -")[:16]


#: The API error code of a scenario that is a class-quiz question (status 403).
CLASS_QUESTION = "class-question"


def _front_matter(doc: Mapping[str, Any]) -> str:
    """The front matter of :func:`lesson_text`, from its first ``---`` line to its second, with
    the line end after it (a long title or goal is wrapped by the YAML dump onto several lines)."""
    import yaml
    fm = {"id": "teacher-lesson", "ruleset": doc["ruleset"], "unit": 1, "unit_title": doc["title"],
          "order": 1, "title": doc["title"], "goal": doc["goal"], "rules": [], "source": "teacher"}
    return "---\n" + yaml.safe_dump(fm, allow_unicode=True, sort_keys=False) + "---\n"


def lesson_fields(row: TeacherLesson) -> dict[str, Any]:
    """A teacher's saved lesson as :func:`lesson_step` reads it (and a lesson assignment keeps it):
    its ``ruleset``, ``lang``, ``title``, ``goal`` and ``body``."""
    return {"ruleset": row.ruleset, "lang": row.lang, "title": row.title, "goal": row.goal, "body": row.body}


def lesson_text(doc: Mapping[str, Any]) -> str:
    """The step file (front matter, then the Markdown body) of a teacher's lesson in the
    ``lessons/`` syntax; ``doc`` has ``ruleset``, ``title``, ``goal`` and ``body`` (a
    :class:`~tutor.domain.models.TeacherLesson`'s fields, or an assignment's ``lesson_doc``)."""
    return _front_matter(doc) + str(doc["body"])


def body_line(doc: Mapping[str, Any], line: int) -> int | None:
    """The line of the lesson's body (1-based, as in its text box) that is ``line`` of
    :func:`lesson_text`; None for a line of the front matter (the title, goal or card game)."""
    n = line - _front_matter(doc).count("\n")
    return n if n >= 1 else None


def lesson_step(doc: Mapping[str, Any], *, engine: bool = False) -> tuple[LessonStep | None, Problems]:
    """A teacher's lesson (see :func:`lesson_text`; ``doc["lang"]`` its language) parsed as a
    lesson step, with the problems found: its structure, and with ``engine`` every exercise
    checked by the engine as an import or ``tutor check`` checks it
    (:func:`tutor.content.check.check_step_exercises`). A teacher's lesson with problems is
    neither assigned nor exported."""
    problems = Problems()
    step = parse_step(lesson_text(doc), "lesson.md", problems, lang=str(doc["lang"]))
    if step is not None and engine:
        check_step_exercises(step, problems)
    return step, problems


def lesson_exercises(assignment: Assignment) -> list[Exercise]:
    """The exercises of a lesson assignment's copy, in page order (place n is ``[n - 1]``)."""
    if assignment.lesson_doc is None:
        return []
    step, _problems = lesson_step(assignment.lesson_doc)
    return list(step.exercises) if step is not None else []


def fingerprints_of(quiz_doc: Mapping[str, Any] | None, lesson_doc: Mapping[str, Any] | None) -> list[tuple[int, str]]:
    """``(place, fingerprint)`` of each question of a quiz assignment's copy, or of each exercise of
    a lesson assignment's copy, whose scenario the engine reads (places from 1)."""
    scenarios = [q.get("scenario") if isinstance(q, Mapping) else None
                 for q in (quiz_doc or {}).get("questions") or []]
    if lesson_doc is not None:
        step, _problems = lesson_step(lesson_doc)
        scenarios += [ex.scenario for ex in (step.exercises if step is not None else ())]
    out = []
    for n, scenario in enumerate(scenarios, 1):
        fp = fingerprint(scenario) if scenario is not None else None
        if fp is not None:
            out.append((n, fp))
    return out


def is_class_question(db: Session, scenario: object) -> bool:
    """Whether ``scenario`` (any JSON value) is, written any way, the scenario of a question of an
    assigned class quiz (one indexed query; False for a scenario the engine refuses)."""
    fp = fingerprint(scenario)
    if fp is None:
        return False
    return db.scalar(select(ClassFingerprint.id).where(ClassFingerprint.fingerprint == fp).limit(1)) is not None


def rating_ref(assignment: Assignment, q: Mapping[str, Any]) -> str:
    """The Glicko-2 ref of a class-quiz question: ``class:<assignment id>:<question id>``."""
    return f"class:{assignment.id}:{q.get('id')}"


def class_exercise(assignment: Assignment, n: int) -> tuple[Exercise, dict[str, Any]] | None:
    """``(exercise, stored question)`` at place ``n`` (1-based) of a quiz assignment, or None."""
    questions = (assignment.quiz_doc or {}).get("questions") or []
    if not 1 <= n <= len(questions):
        return None
    q = questions[n - 1]
    return exercise_of(q), q


def record(db: Session, assignment: Assignment, learner_id: int, n: int, verdict: Verdict[Any]) -> ClassAttempt:
    """Keep one attempt (not committed): the normalised answer, right or not, and the rule ids of
    the engine's reasons."""
    rules = sorted({str(r["rule"]) for r in verdict.why if isinstance(r, Mapping) and r.get("rule")})
    attempt = ClassAttempt(assignment_id=assignment.id, learner_id=learner_id, position=n,
                           given=verdict.given, correct=verdict.correct, rules=rules, created_at=now())
    db.add(attempt)
    return attempt


def attempts_of(db: Session, assignment_id: int, learner_id: int | None = None) -> list[ClassAttempt]:
    """The attempts at an assignment (of one learner), oldest first, read on ``db``."""
    q = select(ClassAttempt).where(ClassAttempt.assignment_id == assignment_id)
    if learner_id is not None:
        q = q.where(ClassAttempt.learner_id == learner_id)
    return list(db.scalars(q.order_by(ClassAttempt.id)))


def first_attempts(attempts: Iterable[ClassAttempt]) -> dict[tuple[int, int], ClassAttempt]:
    """``(learner id, position) -> first attempt`` (``attempts`` oldest first)."""
    out: dict[tuple[int, int], ClassAttempt] = {}
    for a in attempts:
        out.setdefault((a.learner_id, a.position), a)
    return out


def lesson_progress(exercises: int, attempts: Iterable[ClassAttempt], learner_id: int) -> tuple[int, int]:
    """``(exercises answered right, exercises)`` of one learner on a lesson assignment: an
    exercise counts once any of the learner's attempts at it was right."""
    right = {a.position for a in attempts if a.learner_id == learner_id and a.correct and 1 <= a.position <= exercises}
    return len(right), exercises


def points_of(q: Mapping[str, Any]) -> int:
    p = q.get("points", 1)
    return p if isinstance(p, int) and not isinstance(p, bool) and p > 0 else 1


def score(questions: Sequence[Mapping[str, Any]], attempts: Iterable[ClassAttempt], learner_id: int) -> tuple[int, int]:
    """``(points scored, points available)`` of one learner: the first attempt at each question."""
    return score_at(list(enumerate(questions, 1)), attempts, learner_id)


def score_at(placed: Sequence[tuple[int, Mapping[str, Any]]], attempts: Iterable[ClassAttempt],
             learner_id: int) -> tuple[int, int]:
    """:func:`score` over the learner's own questions ``placed``: ``(place, question)`` pairs,
    the place an attempt's ``position`` (a random draw's learner answers some places of its pool)."""
    firsts = first_attempts(a for a in attempts if a.learner_id == learner_id)
    got = sum(points_of(q) for n, q in placed if (a := firsts.get((learner_id, n))) is not None and a.correct)
    return got, sum(points_of(q) for _n, q in placed)


@dataclass(frozen=True)
class QuestionStats:
    """Statistics of one question (see the module docstring)."""

    n: int
    attempts: int
    learners: int
    share: float | None
    facility: float | None
    wrong: Any
    wrong_count: int


def _key(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def question_stats(questions: Sequence[Mapping[str, Any]], attempts: Sequence[ClassAttempt]) -> list[QuestionStats]:
    """Statistics of every question of a quiz (``attempts`` oldest first)."""
    firsts = first_attempts(attempts)
    out = []
    for n, q in enumerate(questions, 1):
        mine = [a for a in attempts if a.position == n]
        learners = [a for (_, pos), a in firsts.items() if pos == n]
        pts = points_of(q)
        wrong = Counter(_key(a.given) for a in mine if not a.correct)
        top = None
        count = 0
        if wrong:
            best = max(wrong.values())
            key = next(_key(a.given) for a in mine if not a.correct and wrong[_key(a.given)] == best)
            top, count = json.loads(key), best
        out.append(QuestionStats(
            n, len(mine), len(learners),
            sum(a.correct for a in mine) / len(mine) if mine else None,
            sum(pts if a.correct else 0 for a in learners) / (pts * len(learners)) if learners else None,
            top, count))
    return out


@dataclass(frozen=True)
class WeakSpot:
    """A rule point cited by the engine's reasons on ``wrong`` wrong first attempts, by ``learners``."""

    rule: str
    wrong: int
    learners: int


def weak_spots(attempts: Sequence[ClassAttempt]) -> list[WeakSpot]:
    """Rule points of the wrong first attempts, most cited first (then by rule id)."""
    wrong: Counter[str] = Counter()
    who: dict[str, set[int]] = {}
    for a in first_attempts(attempts).values():
        if a.correct:
            continue
        for rule in a.rules or []:
            wrong[rule] += 1
            who.setdefault(rule, set()).add(a.learner_id)
    return [WeakSpot(r, c, len(who[r])) for r, c in sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0]))]


def nickname_taken(db: Session, classroom_id: int, nickname: str) -> bool:
    """Whether a member of the class already goes by ``nickname`` (a :func:`display_name`; case
    ignored): two learners under one name could not be told apart in the results or the CSV."""
    key = nickname.casefold()
    return any(n.casefold() == key for n in db.scalars(
        select(Membership.nickname).where(Membership.classroom_id == classroom_id)))


#: The CSV export's columns.
CSV_COLUMNS = ("class", "assignment", "learner", "question", "kind", "points_available", "attempts",
               "first_answer", "first_correct", "points_scored", "last_answer", "last_correct")


def _cell(value: object) -> str:
    """A CSV cell that a spreadsheet never reads as a formula (a leading ``= + - @`` is quoted
    with an apostrophe)."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def answer_as_key(q: Mapping[str, Any], given: object) -> str:
    """A learner's answer to the stored question ``q`` as the teacher writes the question's key
    (:func:`tutor.content.kinds.key_text`: seats and sides from 1, cards separated by spaces); the
    answer as JSON if the kind cannot write it so."""
    try:
        return kinds.key_text(exercise_of(q), given)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, kinds.ExerciseError):
        return _key(given)


#: The byte order mark the CSV starts with, so that a spreadsheet (Excel) reads it as UTF-8.
CSV_BOM = "\ufeff"


def csv_rows(classroom: Classroom, assignment: Assignment, members: Sequence[Membership],
             attempts: Sequence[ClassAttempt],
             learner_questions: Callable[[int], Sequence[tuple[int, Mapping[str, Any]]]] | None = None) -> str:
    """The results as the text of a CSV file (:data:`CSV_COLUMNS`), starting with
    :data:`CSV_BOM`: one row per learner and question, answers as the teacher writes the
    question's key (:func:`answer_as_key`); a question not answered has empty answer cells.
    ``learner_questions(learner id)``: each learner's own ``(place, question)`` (a random draw's;
    :meth:`tutor.domain.assignments.AssignmentKind.learner_questions`), else every question."""
    questions = (assignment.quiz_doc or {}).get("questions") or []
    buf = io.StringIO()
    buf.write(CSV_BOM)
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for m in members:
        theirs = learner_questions(m.learner_id) if learner_questions else list(enumerate(questions, 1))
        for n, q in theirs:
            mine = [a for a in attempts if a.learner_id == m.learner_id and a.position == n]
            first, last = (mine[0], mine[-1]) if mine else (None, None)
            w.writerow([_cell(classroom.name), _cell(assignment.title), _cell(m.nickname), n, q.get("kind"),
                        points_of(q), len(mine),
                        _cell(answer_as_key(q, first.given)) if first else "",
                        ("yes" if first.correct else "no") if first else "",
                        (points_of(q) if first.correct else 0) if first else "",
                        _cell(answer_as_key(q, last.given)) if last else "",
                        ("yes" if last.correct else "no") if last else ""])
    return buf.getvalue()


def given_text(q: Mapping[str, Any], given: object) -> str:
    """A learner's answer in words (the kind's feedback wording), current language."""
    return answer_text(exercise_of(q), given)


def membership(db: Session, classroom_id: int, learner_id: int) -> Membership | None:
    """The learner's membership of the class, removed by the teacher or not (None: never joined)."""
    return db.scalar(select(Membership).where(Membership.classroom_id == classroom_id,
                                              Membership.learner_id == learner_id))


def active_membership(db: Session, classroom_id: int, learner_id: int) -> Membership | None:
    """The learner's membership of the class unless the teacher removed them
    (:func:`tutor.domain.manage.remove_member`): what lets a learner see the class."""
    m = membership(db, classroom_id, learner_id)
    return m if m is not None and m.removed_at is None else None
