"""The question bank: every question of a teacher's quizzes in one list, in categories, and the
seeded random draw of a "random draw" assignment (:class:`tutor.domain.assignments.DrawAssignment`).

Moodle's question bank and its "random question" are the reference. A teacher's questions live in
their quizzes (:class:`~tutor.domain.models.TeacherQuiz` ``doc["questions"]``); the bank reads
them there (:func:`questions_of`, only the teacher's own quizzes) and sorts them into four
categories, each a :class:`Filter` field:

* ``ruleset`` — the game (the scenario's ``ruleset``);
* ``kind`` — the exercise kind (:data:`tutor.content.kinds.KINDS`);
* ``rule`` — a rule point (``H16``, ``C21``; ``tutor/rules/points.yaml``) that decides the
  question: the ``rule`` of every reason the engine gives for the right answer
  (:func:`rules_of`; every kind's answer cites them, so a question's ``teaches``, a lesson step
  whose rule points these are, adds nothing);
* ``tag`` — the teacher's own tags (:class:`~tutor.domain.models.QuestionTag`, :func:`add_tag`,
  :func:`remove_tag`), compared with case ignored.

The draw (:func:`draw`) picks ``n`` places of a pool with a :class:`random.Random` seeded by the
SHA-256 of ``"draw:<assignment id>:<learner id>"``: each learner of an assignment gets their own
set, the same one on every request, on every worker and after a restart.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.kinds import ExerciseError, expected_answer
from tutor.content.kinds.base import N_
from tutor.content.kinds.values import reasons_of
from tutor.engine.errors import BadFieldError, TutorError

from .mastery import kind_label
from .models import QuestionTag, TeacherQuiz
from .quizdoc import exercise_of

__all__ = [
    "MAX_TAG",
    "BankQuestion",
    "Filter",
    "add_tag",
    "draw",
    "draw_title",
    "drawn_questions",
    "normal_tag",
    "questions_of",
    "remove_tag",
    "rules_of",
    "select_questions",
    "tags_of",
]

#: The longest tag, in characters.
MAX_TAG = 40


@dataclass(frozen=True)
class Filter:
    """A category of the bank: each field empty (any) or the value a question must have (see the
    module docstring); ``tag`` is compared with case ignored."""

    ruleset: str = ""
    kind: str = ""
    rule: str = ""
    tag: str = ""

    def as_dict(self) -> dict[str, str]:
        """The filter as stored in a draw assignment (``quiz_doc["draw"]["filter"]``)."""
        return {"ruleset": self.ruleset, "kind": self.kind, "rule": self.rule, "tag": self.tag}

    @classmethod
    def of(cls, doc: Mapping[str, Any] | None) -> Filter:
        """The filter of :meth:`as_dict`'s shape (missing or non-text fields: any)."""
        doc = doc or {}
        return cls(**{k: str(doc.get(k) or "") for k in ("ruleset", "kind", "rule", "tag")})


@dataclass(frozen=True)
class BankQuestion:
    """One question of the bank: its quiz (row id and title), its place there (from 1), the stored
    question (``q``, the quiz document's shape), its game, kind, rule points and tags."""

    quiz_id: int
    quiz_title: str
    n: int
    q: Mapping[str, Any]
    ruleset: str
    kind: str
    rules: tuple[str, ...]
    tags: tuple[str, ...] = field(default=())

    @property
    def question_id(self) -> str:
        return str(self.q.get("id"))

    def matches(self, f: Filter) -> bool:
        """Whether the question is in the category ``f``."""
        return ((not f.ruleset or self.ruleset == f.ruleset) and (not f.kind or self.kind == f.kind)
                and (not f.rule or f.rule in self.rules)
                and (not f.tag or f.tag.casefold() in {t.casefold() for t in self.tags}))


@lru_cache(maxsize=4096)
def _engine_rules(kind: str, scenario_json: str) -> tuple[str, ...]:
    q = {"id": "bank", "kind": kind, "scenario": json.loads(scenario_json)}
    try:
        _expected, answer = expected_answer(exercise_of(q))
    except (TutorError, ExerciseError, BadFieldError, KeyError, TypeError, ValueError):
        return ()
    out: list[str] = []
    for reason in reasons_of(answer):
        for rule in str(reason.get("rule") or "").split(","):
            if rule.strip() and rule.strip() not in out:
                out.append(rule.strip())
    return tuple(out)


def rules_of(q: Mapping[str, Any]) -> tuple[str, ...]:
    """The rule points that decide stored question ``q``: the ``rule`` ids of the engine's reasons
    for its right answer (a reason citing ``"C21,K20"`` gives both), computed now and cached by
    kind and scenario, in the engine's order; ``()`` for a question the engine cannot answer."""
    scenario = q.get("scenario")
    if not isinstance(scenario, Mapping):
        return ()
    return _engine_rules(str(q.get("kind")), json.dumps(scenario, sort_keys=True))


def normal_tag(text: str) -> str:
    """A typed tag as stored: spaces collapsed (``""`` for none)."""
    return " ".join(text.split())


def tags_of(db: Session, teacher_id: int) -> dict[tuple[int, str], tuple[str, ...]]:
    """The teacher's tags by ``(quiz row id, question id)``, each question's in the order added."""
    out: dict[tuple[int, str], list[str]] = {}
    for t in db.scalars(select(QuestionTag).where(QuestionTag.teacher_id == teacher_id).order_by(QuestionTag.id)):
        out.setdefault((t.quiz_id, t.question_id), []).append(t.tag)
    return {k: tuple(v) for k, v in out.items()}


def questions_of(db: Session, teacher_id: int) -> list[BankQuestion]:
    """Every question of the teacher's own quizzes (quiz by quiz, oldest quiz first, in each quiz's
    order), with its categories."""
    tags = tags_of(db, teacher_id)
    out = []
    for quiz in db.scalars(select(TeacherQuiz).where(TeacherQuiz.teacher_id == teacher_id).order_by(TeacherQuiz.id)):
        for n, q in enumerate((quiz.doc or {}).get("questions") or [], 1):
            if not isinstance(q, Mapping):
                continue
            scenario = q.get("scenario")
            ruleset = str(scenario.get("ruleset") or "") if isinstance(scenario, Mapping) else ""
            out.append(BankQuestion(quiz.id, quiz.title, n, q, ruleset, str(q.get("kind") or ""),
                                    rules_of(q), tags.get((quiz.id, str(q.get("id"))), ())))
    return out


def select_questions(questions: Iterable[BankQuestion], f: Filter) -> list[BankQuestion]:
    """The questions in category ``f``, in the bank's order."""
    return [b for b in questions if b.matches(f)]


def _question_ids(quiz: TeacherQuiz) -> set[str]:
    return {str(q.get("id")) for q in (quiz.doc or {}).get("questions") or [] if isinstance(q, Mapping)}


def add_tag(db: Session, quiz: TeacherQuiz, question_id: str, tag: str) -> bool:
    """Tag question ``question_id`` of the teacher's ``quiz`` (the caller checked it is theirs)
    with ``tag`` (:func:`normal_tag`d, 1..:data:`MAX_TAG` characters: ``ValueError`` otherwise);
    not committed. False if the question is not in the quiz (nothing added); True if it is
    tagged now (a tag it has already, case ignored, is not added twice)."""
    tag = normal_tag(tag)
    if not 1 <= len(tag) <= MAX_TAG:
        raise ValueError(tag)
    if question_id not in _question_ids(quiz):
        return False
    have = db.scalars(select(QuestionTag.tag).where(QuestionTag.quiz_id == quiz.id,
                                                   QuestionTag.question_id == question_id)).all()
    if tag.casefold() not in {t.casefold() for t in have}:
        db.add(QuestionTag(teacher_id=quiz.teacher_id, quiz_id=quiz.id, question_id=question_id, tag=tag))
    return True


def remove_tag(db: Session, quiz: TeacherQuiz, question_id: str, tag: str) -> int:
    """Take ``tag`` (case ignored) off question ``question_id`` of ``quiz``; not committed.
    Returns how many rows were removed (0 or 1)."""
    key = normal_tag(tag).casefold()
    rows = [t for t in db.scalars(select(QuestionTag).where(QuestionTag.quiz_id == quiz.id,
                                                            QuestionTag.question_id == question_id))
            if t.tag.casefold() == key]
    for t in rows:
        db.delete(t)
    return len(rows)


def draw(pool: int, n: int, assignment_id: int, learner_id: int) -> list[int]:
    """``n`` different places (from 1) of a pool of ``pool`` questions, in the order the learner
    answers them, seeded by the assignment and the learner (see the module docstring); all of
    them (``min(n, pool)``) when the pool is smaller."""
    seed = int.from_bytes(hashlib.sha256(f"draw:{assignment_id}:{learner_id}".encode()).digest()[:8], "big")
    return random.Random(seed).sample(range(1, pool + 1), min(max(n, 0), pool))


def drawn_questions(questions: Sequence[Mapping[str, Any]], n: int, assignment_id: int,
                    learner_id: int) -> list[tuple[int, Mapping[str, Any]]]:
    """``(place in the pool, question)`` of the learner's draw of ``n`` from ``questions``."""
    return [(p, questions[p - 1]) for p in draw(len(questions), n, assignment_id, learner_id)]


def draw_title(n: int, pool: int, f: Filter) -> str:
    """The default title of a draw of ``n`` of the ``pool`` questions of category ``f``, in the
    current language (:func:`tutor.i18n.current_lang`: the teacher's or learner's page): a draw
    without a title of the teacher's own is named so each time it is shown
    (:meth:`tutor.domain.assignments.DrawAssignment.title`)."""
    from tutor.engine.rulesets import RULESETS

    parts = []
    if f.ruleset:
        r = RULESETS.get(f.ruleset)
        parts.append(i18n.gettext(r.title) if r is not None else f.ruleset)
    if f.kind:
        parts.append(kind_label(f.kind))
    if f.rule:
        parts.append(f.rule)
    if f.tag:
        parts.append(f.tag)
    category = ", ".join(parts) if parts else i18n.gettext(N_("all your questions"))
    return i18n.gettext(N_("Random draw: %(n)s of %(pool)s (%(category)s)"), n=i18n.fmt_number(n),
                        pool=i18n.fmt_number(pool), category=category)
