"""Database migrations (tutor/migrations, Alembic): the first revision is the schema main made
before migrations, an old database upgrades in place, the app never migrates and refuses a
database not at head, and processes starting together on one new database (SQLite and
PostgreSQL) take turns instead of racing."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import func, inspect, select
from web_support import ServerProcess, make_app, server_process

from tutor.domain.db import Base, make_engine
from tutor.domain.models import Learner, Mistake
from tutor.migrations import SchemaNotCurrent, current, head, upgrade
from tutor.web import create_app

#: The DDL main's create_all made on a new SQLite database before migrations (generated from it).
OLD_SCHEMA = Path(__file__).parent / "data" / "schema-before-alembic.sqlite.sql"
#: The PostgreSQL server the tests use (each test makes and drops its own database there).
PG_SERVER = os.environ.get("TUTOR_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


def _schema(path: Path) -> set[tuple[str, str, str]]:
    """(type, name, sql) of every table and index of a SQLite file, alembic's own table left out."""
    con = sqlite3.connect(path)
    try:
        return {(t, n, sql) for t, n, sql in con.execute("SELECT type, name, sql FROM sqlite_master")
                if n != "alembic_version" and not n.startswith("sqlite_autoindex_alembic")}
    finally:
        con.close()


def _old_main_database(path: Path) -> str:
    """A database file as main made it before migrations, with a learner and a review card."""
    con = sqlite3.connect(path)
    con.executescript(OLD_SCHEMA.read_text())
    con.executescript("""
        INSERT INTO learner VALUES (1, 'old-learner', 'Ana', '2026-02-01 10:00:00');
        INSERT INTO mistake VALUES (1, 1, 'quiz:hokm-legal-001', 'hokm', 'legal-cards', '2026-02-01 10:00:00',
                                    NULL, '2026-02-01 10:00:00', 1);
    """)
    con.commit()
    con.close()
    return f"sqlite:///{path}"


# ------------------------------------------------------------------------------------------ schema

def test_first_revision_is_the_schema_main_made(tmp_path):
    """A new database at the first revision has exactly the tables and indexes main's create_all
    made (same DDL); later revisions add tables of their own."""
    old = tmp_path / "old.sqlite3"
    _old_main_database(old)
    new = tmp_path / "new.sqlite3"
    assert upgrade(f"sqlite:///{new}", "0001") == (None, "0001")
    assert _schema(new) == _schema(old)
    assert len(_schema(new)) == 16  # 5 tables, 11 indexes


def _no_differences(url: str) -> None:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    finally:
        engine.dispose()
    assert diff == [], "the models differ from the migrations' head: add a migration (tutor db revision)"


def test_models_match_the_migrations_head_sqlite(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url)
    _no_differences(url)


def test_database_from_before_migrations_upgrades_in_place(tmp_path):
    url = _old_main_database(tmp_path / "test.sqlite3")
    before = _schema(tmp_path / "test.sqlite3")
    assert current(url) is None
    with pytest.raises(SchemaNotCurrent):
        make_app(tmp_path)
    assert upgrade(url, "0001") == (None, "0001")  # found the tables: stamped, not created again
    assert _schema(tmp_path / "test.sqlite3") == before
    assert upgrade(url) == ("0001", head())
    assert upgrade(url) == (head(), head())
    app = make_app(tmp_path)
    with app.app_context():
        s = app.extensions["tutor_db"]()
        assert s.scalar(select(Learner.display_name).where(Learner.anon_id == "old-learner")) == "Ana"
        assert s.scalar(select(Mistake.streak)) == 1
        s.close()


def test_cli_upgrade_and_current(tmp_path, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setenv("TUTOR_DATABASE_URL", _old_main_database(tmp_path / "old.sqlite3"))
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    assert cli.main(["db", "current"]) == 0
    assert capsys.readouterr().out == "none\n"
    assert cli.main(["db", "upgrade"]) == 0
    assert capsys.readouterr().err.endswith(f"old.sqlite3: no revision -> {head()}\n")
    assert cli.main(["db", "current"]) == 0 and cli.main(["db", "head"]) == 0
    assert capsys.readouterr().out == f"{head()}\n{head()}\n"
    assert cli.main(["db", "upgrade"]) == 0
    assert capsys.readouterr().err.endswith(f"already at {head()}\n")
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'no-such-folder' / 'db.sqlite3'}")
    assert cli.main(["db", "upgrade"]) == 2
    assert "unable to open database file" in capsys.readouterr().err


def test_the_app_never_creates_a_table_and_names_the_fix(tmp_path):
    path = tmp_path / "empty.sqlite3"
    with pytest.raises(SchemaNotCurrent, match=r"has no migration revision.*run `tutor db upgrade`"):
        create_app({"INSTANCE_PATH": str(tmp_path / "inst"), "SECRET_KEY": "k", "TUTOR_ENV": "development", "DATABASE_URL": f"sqlite:///{path}"})
    assert _schema(path) == set()


# ------------------------------------------------------------------------------------------ racing starts

#: A `tutor serve` process that has done its imports and waits for the common start time.
_SERVE_AT = """
import sys, time
import tutor.migrations, tutor.web, tutor.cli
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
sys.exit(tutor.cli.main(["serve", "--port", sys.argv[2]]))
"""


def _start_together(url: str, tmp_path: Path, processes: int = 3) -> None:
    """Start ``processes`` `tutor serve` processes at one instant on the new database ``url``;
    each must migrate (or find it migrated) and serve; the database ends at head."""
    env = dict(os.environ, TUTOR_DATABASE_URL=url, TUTOR_INSTANCE_PATH=str(tmp_path / "inst"),
               TUTOR_SECRET_KEY="race")
    start_at = time.time() + 4  # imports of all processes done by then, on a busy machine too
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(server_process([sys.executable, "-c", _SERVE_AT, str(start_at), "{port}"],
                                               tmp_path / f"serve-{i}.log", env=env)) for i in range(processes)]
        _check_started(url, servers)


def _check_started(url: str, servers: list[ServerProcess]) -> None:
    """Each process serves a lesson page; the database is at head; exactly one process migrated."""
    for server in servers:
        assert server.wait_ready("/en/learn/hokm/").status == 200
    assert current(url) == head()
    engine = make_engine(url)
    try:
        assert set(inspect(engine).get_table_names()) == {*Base.metadata.tables, "alembic_version"}
        with engine.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(Learner)) == 0
    finally:
        engine.dispose()
    texts = []
    for server in servers:
        texts.append(server.output())
        assert "Traceback" not in texts[-1] and "Error" not in texts[-1], texts[-1]
    # One process migrated; the others waited for its lock and then found the database at head.
    assert sum(f"no revision -> {head()}" in t for t in texts) == 1, texts


def test_processes_starting_together_on_a_new_sqlite_database_do_not_race(tmp_path):
    _start_together(f"sqlite:///{tmp_path / 'shared.sqlite3'}", tmp_path)


# ------------------------------------------------------------------------------------------ PostgreSQL

@pytest.fixture
def pg_url():
    """The URL of a new, empty PostgreSQL database, dropped afterwards. Skipped when no server
    answers, except in CI (the environment variable CI set), where that is a failure."""
    server = PG_SERVER.replace("postgresql+psycopg://", "postgresql://")
    try:
        admin = psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_SERVER} is unreachable in CI: {e}")
        pytest.skip(f"PostgreSQL at {PG_SERVER} is unreachable (set TUTOR_TEST_POSTGRES): {e}")
    name = f"tutor_test_{uuid.uuid4().hex[:12]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_models_match_the_migrations_head_postgresql(pg_url, tmp_path):
    assert upgrade(pg_url) == (None, head())
    _no_differences(pg_url)
    with pytest.raises(SchemaNotCurrent, match="is at revision 0000"):
        engine = make_engine(pg_url)
        try:
            with engine.begin() as conn:
                conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0000'")
            create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "TUTOR_ENV": "development",
                        "DATABASE_URL": pg_url})
        finally:
            engine.dispose()


def test_processes_starting_together_on_a_new_postgresql_database_do_not_race(pg_url, tmp_path):
    _start_together(pg_url, tmp_path)
