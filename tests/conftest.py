"""Fixtures for tests that need a service: PostgreSQL, Redis (and Chromium, in test_browser.py).

Where a service is: ``TUTOR_TEST_POSTGRES_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``) and ``TUTOR_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/4``). A developer without one gets the tests that need it skipped, with
the reason; under CI (``CI`` set, as ``.ci/run`` does, which also starts both servers) a missing
service fails those tests instead.
"""

from __future__ import annotations

import os
import secrets

import pytest
from web_support import unavailable

POSTGRES_URL = os.environ.get("TUTOR_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TUTOR_TEST_REDIS_URL", "redis://127.0.0.1:6379/4")


@pytest.fixture
def postgres_url():
    """A PostgreSQL URL whose search path is a new, empty schema, dropped after the test."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    try:
        import psycopg  # noqa: F401
    except ImportError as e:
        unavailable("PostgreSQL", f"psycopg is not installed: {e}", "pip install -e '.[test]'")
    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        conn = engine.connect()
    except Exception as e:  # noqa: BLE001 - any connection failure means the server is not there
        engine.dispose()
        unavailable("PostgreSQL", f"{POSTGRES_URL}: {type(e).__name__}",
                    "start it or set TUTOR_TEST_POSTGRES_URL")
    schema = "t_" + secrets.token_hex(6)
    with conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        conn.commit()
        try:
            yield make_url(POSTGRES_URL).update_query_dict(
                {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
        finally:
            conn.execute(text("SET lock_timeout = '10s'"))
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            conn.commit()
    engine.dispose()


@pytest.fixture
def redis_url():
    """The URL of a reachable Redis server (a test keeps its keys under its own prefix)."""
    try:
        import redis
    except ImportError as e:
        unavailable("Redis", f"the redis package is not installed: {e}", "pip install -e '.[test]'")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except Exception as e:  # noqa: BLE001 - any failure means the server is not there
        unavailable("Redis", f"{REDIS_URL}: {type(e).__name__}", "start it or set TUTOR_TEST_REDIS_URL")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """Each database the app supports, at the migrations' head (as ``tutor db upgrade`` leaves it
    on deploy): a new SQLite file, then a new PostgreSQL schema."""
    from web_support import migrated_database

    from tutor.migrations import upgrade

    if request.param == "sqlite":
        return migrated_database(tmp_path / "test.sqlite3")
    url = request.getfixturevalue("postgres_url")
    upgrade(url)
    return url
