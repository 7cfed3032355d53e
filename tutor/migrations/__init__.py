"""The database schema's migrations (Alembic) and the functions that run them.

The migration scripts are this package's ``versions/*.py`` (shipped inside the wheel); there is no
``alembic.ini``: :func:`alembic_config` builds the configuration. ``tutor db upgrade`` calls
:func:`upgrade`, ``tutor db current`` :func:`current`; the web app only checks, at start-up, that
its database is at :func:`head` (:func:`require_head`), and never creates or alters a table.

Running the migrations is safe when several processes start at once on one database: they take
turns on a lock held for the whole upgrade, in the upgrade's own transaction (PostgreSQL: a
transaction-level advisory lock; SQLite: ``BEGIN IMMEDIATE``, the database's write lock, see
:func:`tutor.domain.db.make_engine`). The one that waited then finds the database at head and does
nothing.

A database made before the migrations existed (tables made by ``create_all`` at start-up, with no
``alembic_version`` table) is brought to the first revision in place by that revision itself
(``versions/0001_baseline.py``): it creates the missing tables and adds the missing columns, keeps
every row, and Alembic stamps it.
"""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.engine import Engine, make_url

__all__ = ["SCRIPTS", "SchemaNotCurrent", "alembic_config", "current", "head", "lock", "private_sqlite_file",
           "require_head",
           "revision", "upgrade"]

#: The folder of the migration environment (``env.py``) and scripts (``versions/``).
SCRIPTS: Path = Path(__file__).resolve().parent

#: Key of the PostgreSQL advisory lock held while migrating (any fixed 64-bit number; "tutor" in ASCII).
_PG_LOCK_KEY = int.from_bytes(b"tutor", "big")


class SchemaNotCurrent(RuntimeError):
    """The database is not at the code's migration head: run ``tutor db upgrade``."""


def alembic_config(url: str) -> Config:
    """The Alembic configuration for the database at ``url`` (an SQLAlchemy URL)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    cfg.attributes["url"] = url  # not set_main_option: a password may hold '%'
    return cfg


def head() -> str:
    """The revision id the code expects (the scripts' single head)."""
    heads = ScriptDirectory(str(SCRIPTS)).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"the migration scripts must have one head, not {len(heads)}: {', '.join(heads)}")
    return heads[0]


def lock(connection: Connection) -> None:
    """Take the migration lock for the rest of ``connection``'s transaction (PostgreSQL).

    On SQLite the migration engine's ``BEGIN IMMEDIATE`` already holds the write lock.
    """
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK_KEY})")


def private_sqlite_file(url: str, create: bool = False) -> None:
    """Make the SQLite database file of ``url`` (and its WAL files) readable by this user only
    (mode 0600); with ``create``, make a missing file that way (an empty file is a new SQLite
    database). Nothing for another database or an in-memory one."""
    u = make_url(url)
    name = u.database or ""
    if u.get_backend_name() != "sqlite" or not name or name == ":memory:" or name.startswith("file:"):
        return
    path = Path(name)
    if not path.parent.is_dir():
        return  # SQLite itself reports the missing folder
    if create:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if p.stat().st_mode & 0o077:  # made before, with the umask's mode
                p.chmod(0o600)
        except FileNotFoundError:
            pass


def upgrade(url: str, target: str = "head") -> tuple[str | None, str | None]:
    """Apply the migrations to the database at ``url`` up to ``target``; returns the revision
    before and after (``None``: no revision, e.g. a new or pre-Alembic database). A new SQLite
    file is made private (mode 0600) first."""
    private_sqlite_file(url, create=True)
    cfg = alembic_config(url)
    command.upgrade(cfg, target)
    before = cfg.attributes.get("before")
    return (",".join(before) if before else None), current(url)


def revision(message: str, autogenerate: bool, url: str) -> str:
    """Write a new migration script into ``versions/`` (for developers, in a checkout); returns
    its path. ``autogenerate`` compares the models with the database at ``url`` (at head)."""
    last = head()
    rev_id = f"{int(last) + 1:04d}" if last.isdigit() else None  # 0001, 0002, ... in file-name order
    script = command.revision(alembic_config(url), message=message, autogenerate=autogenerate, rev_id=rev_id)
    scripts = script if isinstance(script, list) else [script]
    return ", ".join(s.path for s in scripts if s is not None)


def _current_of(connection: Connection) -> str | None:
    heads = MigrationContext.configure(connection).get_current_heads()
    return ",".join(heads) if heads else None


def current(url_or_engine: str | Engine) -> str | None:
    """The database's revision, or ``None`` if it has none (new, or made before the migrations)."""
    from tutor.domain.db import make_engine

    engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    try:
        with engine.connect() as conn:
            return _current_of(conn)
    finally:
        if isinstance(url_or_engine, str):
            engine.dispose()


def require_head(engine: Engine) -> None:
    """Raise :class:`SchemaNotCurrent` unless the database of ``engine`` is at :func:`head`."""
    have, want = current(engine), head()
    if have == want:
        return
    where = make_url(engine.url).render_as_string(hide_password=True)
    state = f"is at revision {have}" if have else "has no migration revision (new, or made before migrations)"
    raise SchemaNotCurrent(
        f"the database {where} {state}, but this version of tutor needs revision {want}: "
        "run `tutor db upgrade` (with the same TUTOR_DATABASE_URL / TUTOR_INSTANCE_PATH) before "
        "starting the app")
