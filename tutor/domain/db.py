"""The database below the web: the declarative base, the engine, the clock and row locks.

:func:`now` is the one clock of the stored times (naive UTC); :func:`make_engine` the engine of a
database URL (the web opens it in :func:`tutor.web.db.init_app`, the migrations in
:mod:`tutor.migrations`); :func:`locked` a row held for a read-modify-write. The models are
:mod:`tutor.domain.models`. Nothing here knows of a request: the web's per-request session and
the learner of its cookie are :mod:`tutor.web.db`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Table, create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session

__all__ = ["MAX_ID", "Base", "id_from_request", "locked", "make_engine", "now", "set_clock_source", "table_of"]

#: A clock: a callable returning a timezone-aware datetime.
Clock = Callable[[], datetime]


def _no_clock() -> Clock | None:
    return None


_clock_source: Callable[[], Clock | None] = _no_clock


def set_clock_source(source: Callable[[], Clock | None]) -> None:
    """Where :func:`now` finds the clock: ``source()`` gives the clock to read now, or None for
    the system clock. The web sets one that returns its app's ``CLOCK`` setting
    (:mod:`tutor.web.db`); outside an app the system clock is read."""
    global _clock_source  # noqa: PLW0603 -- one module setting, set once at import by tutor.web.db
    _clock_source = source


def now() -> datetime:
    """The time as stored in the database: naive UTC.

    The clock is the one :func:`set_clock_source`'s source gives (in the web: the app's ``CLOCK``
    setting, a callable returning a timezone-aware datetime, which tests set to move time
    forward); without one, the system clock.
    """
    clock = _clock_source()
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


def table_of(model: type[Base]) -> Table:
    """The Core table of a model, for the Core statements of the answer path (typed as a table)."""
    return cast(Table, model.__table__)


def _sqlite_pragmas(busy_ms: int) -> Callable[[Any, object], None]:
    def on_connect(dbapi_connection: Any, _record: object) -> None:
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
    kwargs: dict[str, Any] = {}
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

