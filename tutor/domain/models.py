"""Database models (SQLAlchemy 2) and the per-request session.

A *learner* is anonymous: a random id kept in the signed session cookie, with an optional display
name. The id is put in the session by the first response that sets the cookie (any page with a
form, since it holds the CSRF token), before anything is written; the learner's row is made by the
first write (insert-or-get on the unique id), so answers sent at once from a new browser all land
on one learner. Every answer given on a page is one :class:`Attempt`, written in one transaction
together with the lesson progress and the mistakes queue it changes. The JSON API keeps nothing.

The tables are made and changed only by the migrations (:mod:`tutor.migrations`, ``tutor db
upgrade``); a change to these models needs a new migration script (``tutor db revision
--autogenerate``), and a test compares the models with the migrations' head.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import TypeVar, cast

from flask import Flask, Response, current_app, g, has_app_context, session
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

__all__ = [
    "Assignment",
    "Attempt",
    "Base",
    "ClassAttempt",
    "Classroom",
    "DeviceCode",
    "Learner",
    "LearnerRating",
    "Membership",
    "Mistake",
    "PlayedDeal",
    "QuestionRating",
    "Quiz",
    "SkillMastery",
    "StepProgress",
    "Teacher",
    "TeacherLesson",
    "TeacherQuiz",
    "current_learner",
    "get_session",
    "id_from_request",
    "init_app",
    "learner_for_write",
    "learner_id_for_write",
    "locked",
    "make_engine",
    "now",
    "read_connection",
    "session_anon",
    "table_of",
]


def now() -> datetime:
    """The time as stored in the database: naive UTC.

    The app's ``CLOCK`` setting, if given, is the one clock of the app: a callable returning a
    timezone-aware datetime (tests set it to move time forward). Without it, the system clock.
    """
    clock = current_app.config.get("CLOCK") if has_app_context() else None
    if clock is None:
        return datetime.now(UTC).replace(tzinfo=None)
    return clock().astimezone(UTC).replace(tzinfo=None)


#: Largest key of an ``Integer`` column on every supported database (PostgreSQL ``integer``).
MAX_ID = 2**31 - 1


def id_from_request(text: str | None) -> int | None:
    """A row key sent in a request (ASCII digits, 1 to :data:`MAX_ID`), or None for anything else,
    so an out-of-range number never reaches a query (PostgreSQL would fail on it)."""
    if not text or len(text) > 10 or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if 1 <= value <= MAX_ID else None


class Base(DeclarativeBase):
    pass


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
    kinds: Mapped[list] = mapped_column(JSON)
    refs: Mapped[list] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    #: ``None`` for a drawn quiz; ``"adaptive"`` for adaptive practice, whose ``refs`` grow one
    #: question at a time (:mod:`tutor.web.adaptive`), with its settings in ``target``.
    mode: Mapped[str | None] = mapped_column(String(16), default=None)
    #: Adaptive practice: ``{"band": "easier"|"right"|"harder", "rule": id or None, "size": n,
    #: "rulesets": [...], "retry": [refs of fresh mistakes waiting], "steps": [the step each question
    #: came from: "due", "weak", "new" or "retry"]}``.
    target: Mapped[dict | None] = mapped_column(JSON, default=None)


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
    given: Mapped[dict] = mapped_column(JSON)
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
    solved: Mapped[list] = mapped_column(JSON, default=list)
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
    card: Mapped[dict | None] = mapped_column(JSON, default=None)
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
    """A learner's Glicko-2 rating (``rating``, deviation ``rd``, volatility ``vol``; the
    ``glicko2`` package's scale, 1500 for a new player) from ``games`` answers."""

    __tablename__ = "learner_rating"

    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), primary_key=True)
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
    doc: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now, onupdate=now)


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


class Classroom(Base):
    """A teacher's class; learners join it with ``code``."""

    __tablename__ = "classroom"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Membership(Base):
    """A learner in a class, under a nickname (no e-mail); a learner may be in several classes."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("classroom_id", "learner_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classroom.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    nickname: Mapped[str] = mapped_column(String(40))
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=now)


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
    quiz_doc: Mapped[dict | None] = mapped_column(JSON, default=None)
    lesson_doc: Mapped[dict | None] = mapped_column(JSON, default=None)
    ruleset: Mapped[str | None] = mapped_column(String(16), default=None)
    unit: Mapped[int | None] = mapped_column(Integer, default=None)
    due: Mapped[datetime | None] = mapped_column(DateTime, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class ClassAttempt(Base):
    """One answer to one class-quiz question (every attempt is kept; the first one scores).
    ``given`` is the kind's normalised value, ``rules`` the rule ids of the engine's reasons."""

    __tablename__ = "class_attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id"), index=True)
    learner_id: Mapped[int] = mapped_column(ForeignKey("learner.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    given: Mapped[dict] = mapped_column(JSON)
    correct: Mapped[bool] = mapped_column(Boolean)
    rules: Mapped[list] = mapped_column(JSON, default=list)
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


def table_of(model: type[Base]) -> Table:
    """The Core table of a model, for the Core statements of the answer path (typed as a table)."""
    return cast(Table, model.__table__)


def _sqlite_pragmas(busy_ms: int):
    def on_connect(dbapi_connection, _record) -> None:
        cur = dbapi_connection.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
    return on_connect


def make_engine(url: str, *, migrating: bool = False) -> Engine:
    """A SQLAlchemy engine for ``url`` (SQLite: busy timeout, WAL journal, foreign keys on).

    ``migrating=True`` gives the engine that :mod:`tutor.migrations` runs the migrations on: on
    SQLite its transactions start with ``BEGIN IMMEDIATE`` (the database's write lock, so DDL is
    transactional and two processes migrating one file take turns) and wait up to 60 s for the lock.
    """
    kwargs: dict = {}
    sqlite = url.startswith("sqlite")
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas(60_000 if migrating else 5_000))
        if migrating:
            # pysqlite's own transaction handling would run DDL outside any transaction: turn it off
            # and begin explicitly (SQLAlchemy's documented recipe for SQLite transactional DDL).
            event.listen(engine, "connect", lambda dbapi_connection, _r: setattr(dbapi_connection,
                                                                                 "isolation_level", None))
            event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
    return engine


def init_app(app: Flask) -> None:
    """Open the app's database (``DATABASE_URL``) and check that it is at the migrations' head.

    Nothing is created or altered here: ``tutor db upgrade`` (or ``tutor serve``, which runs it
    first) applies the migrations of :mod:`tutor.migrations`. Raises
    :class:`~tutor.migrations.SchemaNotCurrent` if the database is not at head.
    """
    from tutor.migrations import require_head

    engine = make_engine(app.config["DATABASE_URL"])
    require_head(engine)
    app.extensions["tutor_db"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)
    app.after_request(_give_learner_id)


def get_session() -> Session:
    if "db" not in g:
        g.db = current_app.extensions["tutor_db"]()
    return g.db


B = TypeVar("B", bound=Base)


def locked(db: Session, model: type[B], key: int) -> B | None:
    """Row ``key`` of ``model`` read afresh and held until ``db``'s transaction ends, for a
    read-modify-write of it (inside :func:`tutor.domain.record.write`): another transaction doing
    the same waits for the commit and then reads what this one wrote, so neither loses the
    other's change. PostgreSQL: ``SELECT ... FOR UPDATE``. SQLite, whose transactions begin
    deferred (a read takes no lock, and two readers would each write back what they read): the
    transaction begins here with ``BEGIN IMMEDIATE``, the database's write lock, before the read;
    so call this before anything else of the transaction touches the database."""
    conn = db.connection()
    if conn.dialect.name == "sqlite" and not getattr(conn.connection.dbapi_connection, "in_transaction", True):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    return db.get(model, key, with_for_update=True, populate_existing=True)


def read_connection() -> Connection:
    """A connection for a read of one or two Core statements (nothing written): the session's,
    if this request has one, else a connection of its own from the pool, kept for the rest of the
    request and given back at its end (cheaper than a session's when the request needs no more)."""
    if "db" in g:
        return g.db.connection()
    conn = g.get("tutor_read_conn")
    if conn is None:
        conn = g.tutor_read_conn = current_app.extensions["tutor_db"].kw["bind"].connect()
    return conn


def _close_session(_exc) -> None:
    conn = g.pop("tutor_read_conn", None)
    if conn is not None:
        conn.close()
    db = g.pop("db", None)
    if db is not None:
        db.close()


def _session_anon() -> str | None:
    anon = session.get("learner")
    return anon if isinstance(anon, str) and 0 < len(anon) <= 64 else None


def session_anon() -> str | None:
    """The learner id (anonymous, random) of this request's session cookie, or None: for a query
    that joins the learner table instead of looking the learner up first."""
    return _session_anon()


def _new_anon() -> str:
    anon = secrets.token_urlsafe(24)
    session["learner"] = anon
    session.permanent = True
    return anon


def _give_learner_id(response: Response) -> Response:
    """A response that sets the session cookie (a page with a form) also gives the learner id."""
    if session.modified and session and _session_anon() is None:
        _new_anon()
    return response


def current_learner() -> Learner | None:
    """The learner of this request's cookie, or None (nothing is written). A learner found is
    kept for the rest of the request (a page asks several times)."""
    anon = _session_anon()
    if anon is None:
        return None
    found = g.get("tutor_learner")
    if found is not None and found.anon_id == anon:
        return found
    found = get_session().scalar(select(Learner).where(Learner.anon_id == anon))
    if found is not None:
        g.tutor_learner = found
    return found


#: The id of the learner of an anonymous id (parameter ``anon``; built once: statements on the
#: answer path are built at import, so a request only binds their values).
_LEARNER_ID = select(table_of(Learner).c.id).where(table_of(Learner).c.anon_id == bindparam("anon"))


def learner_id_for_write(conn: Connection) -> int:
    """The current learner's id (``learner.id``), the row made on ``conn`` if new (not committed);
    call inside a transaction. One ``SELECT`` for a learner seen before.

    Insert-or-get on the unique ``anon_id``: a request that finds the row made by another one
    answering at the same time (another worker, another host) uses it.
    """
    anon = _session_anon() or _new_anon()
    known = g.get("tutor_learner")
    if known is not None and known.anon_id == anon:  # read earlier in this request (current_learner)
        return int(known.id)
    found = conn.execute(_LEARNER_ID, {"anon": anon}).scalar()
    if found is not None:
        return int(found)
    table = table_of(Learner)
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(insert(table).values(anon_id=anon, created_at=now()).on_conflict_do_nothing(index_elements=["anon_id"]))
    return int(conn.execute(_LEARNER_ID, {"anon": anon}).scalar_one())


def learner_for_write(db: Session) -> Learner:
    """The current learner as a row of ``db``, made if new (not committed): see
    :func:`learner_id_for_write`."""
    learner = db.get(Learner, learner_id_for_write(db.connection()))
    assert learner is not None
    return learner
