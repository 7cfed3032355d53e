"""Database models (SQLAlchemy 2): learners, their answers, progress, mistakes, mastery and
ratings; teachers, their quizzes and lessons, classes and what is assigned to them.

A *learner* is anonymous: a random id kept in the signed session cookie (:mod:`tutor.web.db`),
with an optional display name. Every answer given on a page is one :class:`Attempt`, written in
one transaction together with the lesson progress and the mistakes queue it changes
(:mod:`tutor.domain.record`). The JSON API keeps nothing.

The tables are made and changed only by the migrations (:mod:`tutor.migrations`, ``tutor db
upgrade``); a change to these models needs a new migration script (``tutor db revision
--autogenerate``), and a test compares the models with the migrations' head.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, now

__all__ = [
    "Assignment",
    "AssignmentStart",
    "Attempt",
    "ClassAttempt",
    "ClassFingerprint",
    "Classroom",
    "DeviceCode",
    "Learner",
    "LearnerRating",
    "LiveAnswer",
    "LiveSession",
    "Membership",
    "Mistake",
    "PlayedDeal",
    "QuestionRating",
    "QuestionTag",
    "Quiz",
    "SkillMastery",
    "StepProgress",
    "Teacher",
    "TeacherLesson",
    "TeacherQuiz",
]


class Learner(Base):
    __tablename__ = "learner"

    id: Mapped[int] = mapped_column(primary_key=True)
    anon_id: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    display_name: Mapped[str | None] = mapped_column(String(40), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Quiz(Base):
    """A practice quiz: the exercise refs drawn for it (seeded, so it can be drawn again)."""

    __tablename__ = "quiz"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(Integer)
    difficulty: Mapped[int] = mapped_column(Integer)
    kinds: Mapped[list[Any]] = mapped_column(JSON)
    refs: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    #: ``None`` for a drawn quiz; ``"adaptive"`` for adaptive practice, whose ``refs`` grow one
    #: question at a time (:mod:`tutor.web.adaptive`), with its settings in ``target``.
    mode: Mapped[str | None] = mapped_column(String(16), default=None)
    #: Adaptive practice: ``{"band": "easier"|"right"|"harder", "rule": id or None, "size": n,
    #: "rulesets": [...], "retry": [refs of fresh mistakes waiting], "steps": [the step each question
    #: came from: "due", "weak", "new" or "retry"]}``.
    target: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: The learner's rating of each game when the quiz started (``{ruleset: rating}``; a game not
    #: rated yet is left out): its results show the change (:func:`tutor.domain.ratings.snapshot`).
    ratings_before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class Attempt(Base):
    """One answer. ``rules``: the rule points of the verdict's reasons, space-separated with a space
    at each end (``" H14 K12 "``, so ``LIKE '% H14 %'`` finds one), or None before skills."""

    __tablename__ = "attempt"
    __table_args__ = (Index("ix_attempt_learner_created", "learner_id", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    exercise_ref: Mapped[str] = mapped_column(String(200), index=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(20))
    quiz_id: Mapped[int | None] = mapped_column(ForeignKey("quiz.id"), default=None, index=True)
    position: Mapped[int | None] = mapped_column(Integer, default=None)
    given: Mapped[dict[str, Any]] = mapped_column(JSON)
    correct: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    rules: Mapped[str | None] = mapped_column(String(120), default=None)


class StepProgress(Base):
    """One lesson step of one learner: seen, and done once its exercises were answered right."""

    __tablename__ = "step_progress"
    __table_args__ = (UniqueConstraint("learner_id", "step_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    step_id: Mapped[str] = mapped_column(String(100))
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    solved: Mapped[list[Any]] = mapped_column(JSON, default=list[Any])
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now, onupdate=now)
    #: hints shown before the step was done; stars (1-3) once it is done (record.stars_for)
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    stars: Mapped[int | None] = mapped_column(Integer, default=None)


class Mistake(Base):
    """One exercise the learner got wrong, kept as a spaced-repetition (FSRS) review card.

    ``card`` is the scheduler's card state (``fsrs.Card.to_dict()``), ``due`` when it is next due
    (naive UTC, the same instant as the card's own due date), ``streak`` the right answers in a row
    since the last wrong one. See :mod:`tutor.domain.review` for when a card leaves the list.
    """

    __tablename__ = "mistake"
    __table_args__ = (UniqueConstraint("learner_id", "exercise_ref"),
                      Index("ix_mistake_learner_streak_due", "learner_id", "streak", "due"))

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    exercise_ref: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(20))
    added_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    card: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    due: Mapped[datetime | None] = mapped_column(DateTime, default=None, index=True)
    streak: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    #: The rule points of the exercise (as :attr:`Attempt.rules`), for "Replay my mistakes" by rule.
    rules: Mapped[str | None] = mapped_column(String(120), default=None)


class SkillMastery(Base):
    """One learner's mastery of one skill: an exercise kind x ruleset x rule point.

    ``p_known`` is the Bayesian-knowledge-tracing probability (0..1) that the learner knows the
    rule in this kind of question (:mod:`tutor.domain.mastery`); ``attempts`` and ``right`` count the
    answers that exercised it; ``updated_at`` naive UTC of the last one.
    """

    __tablename__ = "skill_mastery"
    __table_args__ = (UniqueConstraint("learner_id", "ruleset", "kind", "rule"),
                      Index("ix_skill_mastery_learner_p", "learner_id", "p_known"))

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"))
    ruleset: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(20))
    rule: Mapped[str] = mapped_column(String(20))
    p_known: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    right: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class PlayedDeal(Base):
    """A deal the learner finished at the play table, counted toward mastery once.

    ``key``: SHA-256 (hex) of the deal's address without its refusals — ruleset, players, seat
    role, seed and the learner's accepted actions (:func:`tutor.domain.record.played_deal_key`);
    ``cards``: the learner's actions and decisions counted, ``refused`` the refused ones.
    """

    __tablename__ = "played_deal"
    __table_args__ = (UniqueConstraint("learner_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"))
    ruleset: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(Integer)
    cards: Mapped[int] = mapped_column(Integer)
    refused: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class LearnerRating(Base):
    """A learner's Glicko-2 rating in one game (``ruleset``: one rating per game, as Lichess keeps
    one per variant; ``rating``, deviation ``rd``, volatility ``vol``; the ``glicko2`` package's
    scale, 1500 for a new player) from ``games`` answers."""

    __tablename__ = "learner_rating"

    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class QuestionRating(Base):
    """A question's Glicko-2 rating (as :class:`LearnerRating`), by exercise ref; ``attempts`` and
    ``right`` count the answers it was rated from. A question without a row has the prior of its
    difficulty (:func:`tutor.domain.ratings.prior`)."""

    __tablename__ = "question_rating"

    exercise_ref: Mapped[str] = mapped_column(String(200), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(20))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    right: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Teacher(Base):
    """A teacher account (``tutor teacher add NAME``): ``name`` is the log-in name, ``password_hash``
    an argon2 hash (:mod:`tutor.web.accounts`). Flask-Login's user (``get_id``: the row id)."""

    __tablename__ = "teacher"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def get_id(self) -> str:
        return str(self.id)


class TeacherQuiz(Base):
    """A teacher's quiz: ``doc`` is the quiz document, questions in the ``quizzes/*.yaml`` shape
    (:mod:`tutor.web.authoring`)."""

    __tablename__ = "teacher_quiz"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id"), index=True)
    title: Mapped[str] = mapped_column(String(120))
    doc: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now, onupdate=now)
    #: When the teacher archived it (naive UTC; :mod:`tutor.domain.manage`): out of the default
    #: lists, still readable, its results kept. None: in use.
    archived_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class QuestionTag(Base):
    """A teacher's own tag on one question of their quiz (the question bank's categories,
    :mod:`tutor.domain.bank`): the quiz row and the question's ``id`` in its document. A tag is
    stored as typed (spaces collapsed); one question has a tag once, case ignored
    (:func:`tutor.domain.bank.add_tag`). A quiz deleted takes its questions' tags with it
    (``ON DELETE CASCADE``)."""

    __tablename__ = "question_tag"
    __table_args__ = (UniqueConstraint("quiz_id", "question_id", "tag", name="uq_question_tag"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id"), index=True)
    quiz_id: Mapped[int] = mapped_column(ForeignKey("teacher_quiz.id", ondelete="CASCADE"), index=True)
    question_id: Mapped[str] = mapped_column(String(80))
    tag: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class TeacherLesson(Base):
    """A teacher's lesson step: Markdown with exercise blocks (the ``lessons/`` syntax) in ``body``."""

    __tablename__ = "teacher_lesson"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    lang: Mapped[str] = mapped_column(String(8))
    title: Mapped[str] = mapped_column(String(120))
    goal: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now, onupdate=now)
    #: When the teacher archived it (naive UTC; :mod:`tutor.domain.manage`): out of the default
    #: lists, still readable, its results kept. None: in use.
    archived_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class Classroom(Base):
    """A teacher's class; learners join it with ``code``."""

    __tablename__ = "classroom"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    #: When the teacher archived it (naive UTC; :mod:`tutor.domain.manage`): out of the default
    #: lists, still readable, its results kept. None: in use.
    archived_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class Membership(Base):
    """A learner in a class, under a nickname (no e-mail); a learner may be in several classes."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("classroom_id", "learner_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classroom.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    nickname: Mapped[str] = mapped_column(String(40))
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    #: When the teacher removed the learner from the class (naive UTC): the learner no longer
    #: sees the class, their answers are kept; joining again restores the membership (None).
    removed_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class Assignment(Base):
    """A quiz (``quiz_doc``: a copy of the teacher's quiz document when assigned, so later edits
    never change a class's questions or its results), a teacher's lesson (``lesson_doc``: a copy
    of its ``ruleset``, ``lang``, ``title``, ``goal`` and ``body`` when assigned; its exercises are
    answered through :class:`ClassAttempt`, ``position`` = the exercise's place in the lesson) or
    a lesson unit (``ruleset`` + ``unit``) given to a class, with an optional due date (naive UTC)."""

    __tablename__ = "assignment"

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classroom.id"), index=True)
    title: Mapped[str] = mapped_column(String(120))
    quiz_id: Mapped[int | None] = mapped_column(ForeignKey("teacher_quiz.id"), default=None)
    quiz_doc: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    lesson_doc: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    ruleset: Mapped[str | None] = mapped_column(String(16), default=None)
    unit: Mapped[int | None] = mapped_column(Integer, default=None)
    due: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    #: When the teacher unassigned it (naive UTC): the learners no longer see it, its answers are
    #: kept and the teacher can restore it (None again).
    archived_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    # The assignment's settings (:mod:`tutor.domain.settings`, which reads and checks them):
    #: ``"practice"`` (feedback and key after each answer) or ``"test"`` (held back until
    #: ``closes_at`` has passed or the teacher released them, ``released_at``).
    mode: Mapped[str] = mapped_column(String(8), default="practice", server_default="practice")
    #: How many times a learner may answer each question; None: as often as they like.
    attempts_allowed: Mapped[int | None] = mapped_column(Integer, default=None)
    #: Minutes from the learner's start (:class:`AssignmentStart`) to answer in; None: no limit.
    time_limit: Mapped[int | None] = mapped_column(Integer, default=None)
    #: Naive UTC: not answerable before ``opens_at`` nor after ``closes_at`` (``due`` is only the soft date).
    opens_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    closes_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    #: When the teacher released a test's results (naive UTC); None: not released.
    released_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    #: Questions, and the options of a question, in an order of each learner's own (seeded by learner).
    shuffle_questions: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    shuffle_options: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


class AssignmentStart(Base):
    """When a learner started a timed assignment (naive UTC): their time limit runs from here."""

    __tablename__ = "assignment_start"
    __table_args__ = (UniqueConstraint("assignment_id", "learner_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class ClassAttempt(Base):
    """One answer to one class-quiz question (every attempt is kept; the first one scores).
    ``given`` is the kind's normalised value, ``rules`` the rule ids of the engine's reasons."""

    __tablename__ = "class_attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    given: Mapped[dict[str, Any]] = mapped_column(JSON)
    correct: Mapped[bool] = mapped_column(Boolean)
    rules: Mapped[list[Any]] = mapped_column(JSON, default=list[Any])
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class ClassFingerprint(Base):
    """The canonical fingerprint (:func:`tutor.solve.fingerprint.fingerprint`, 64 hex digits) of
    the scenario of question ``position`` (1-based) of a class-quiz assignment, stored when the
    quiz is assigned: the stateless endpoints refuse a scenario whose fingerprint is here
    (:func:`tutor.domain.classes.is_class_question`)."""

    __tablename__ = "class_fingerprint"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    fingerprint: Mapped[str] = mapped_column(String(64), index=True)


class DeviceCode(Base):
    """A learner's personal code to continue on another device (:mod:`tutor.web.views.device`).

    Only ``code_hash`` is kept: the SHA-256 of the code, hex (the code is 128 random bits, so a
    plain hash cannot be reversed by trying codes). A learner has at most one code that is not
    revoked: making a new one revokes the old. ``revoked_at`` set: refused from then on.
    """

    __tablename__ = "device_code"

    id: Mapped[int] = mapped_column(primary_key=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)



class LiveSession(Base):
    """A class quiz played live (:mod:`tutor.domain.live`): the teacher shows its questions one at
    a time to the learners' screens. ``state`` is ``lobby`` (started, no question yet),
    ``question`` (question ``position``, 1-based, open for answers since ``opened_at``),
    ``revealed`` (question ``position`` closed, its result shown) or ``ended``; ``version`` counts
    the changes (each state change adds one), so a page knows whether it shows the latest."""

    __tablename__ = "live_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classroom.id"), index=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id"), index=True)
    state: Mapped[str] = mapped_column(String(16), default="lobby")
    position: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=1)
    opened_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, default=None)


class LiveAnswer(Base):
    """A learner's one answer to question ``position`` of a live session, checked by the engine
    as a class question is (``given`` the kind's normalised value, ``rules`` the rule ids of the
    reasons); ``ms`` the milliseconds from the question's opening to the answer."""

    __tablename__ = "live_answer"
    __table_args__ = (UniqueConstraint("session_id", "learner_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("live_session.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    given: Mapped[dict[str, Any]] = mapped_column(JSON)
    correct: Mapped[bool] = mapped_column(Boolean)
    rules: Mapped[list[Any]] = mapped_column(JSON, default=list[Any])
    ms: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
