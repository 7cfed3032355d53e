"""Fixtures for tests that need a service: PostgreSQL, Redis and Chromium (``chromium``, ``browser_type_launch_args`` and ``live``, a server in a thread, for every browser test).

Where a service is: ``TUTOR_TEST_POSTGRES_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``) and ``TUTOR_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/4``). A developer without one gets the tests that need it skipped, with
the reason; under CI (``CI`` set, as ``.ci/run`` does, which also starts both servers) a missing
service fails those tests instead.
"""

from __future__ import annotations

import os
import secrets
import threading

import pytest
from web_support import (
    LIMITER_TIME_READERS,
    LimiterClock,
    app_with_teachers,
    dispose,
    find_chromium,
    make_app,
    unavailable,
)
from werkzeug.serving import make_server

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


@pytest.fixture(autouse=True)
def limiter_clock(monkeypatch) -> LimiterClock:
    """The rate limiter's clock in every test: a :class:`web_support.LimiterClock` standing at the
    start of a day (no test waits for a window on the real clock; a test that needs time to pass
    for the limiter calls ``limiter_clock.advance(seconds)``)."""
    import importlib

    clock = LimiterClock()
    for name in LIMITER_TIME_READERS:
        monkeypatch.setattr(importlib.import_module(name), "time", clock)
    return clock


#: The databases the app supports, in the order a test runs on them.
DATABASES = ("sqlite", "postgresql")


def _migrated(kind: str, request, tmp_path) -> str:
    """A new database of ``kind`` at the migrations' head (as ``tutor db upgrade`` leaves it on
    deploy): a SQLite file ``tmp_path/test.sqlite3``, or a new PostgreSQL schema (``postgres_url``)."""
    from web_support import migrated_database

    from tutor.migrations import upgrade

    if kind == "sqlite":
        return migrated_database(tmp_path / "test.sqlite3")
    url = request.getfixturevalue("postgres_url")
    upgrade(url)
    return url


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path):
    """Each database the app supports, at the migrations' head: a new SQLite file, then a new
    PostgreSQL schema."""
    return _migrated(request.param, request, tmp_path)


def pytest_configure(config):
    config.addinivalue_line("markers", "both_databases: run the test on SQLite and on PostgreSQL "
                                       "(through the app_database fixture)")


def pytest_generate_tests(metafunc):
    if "app_database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_databases"):
        metafunc.parametrize("app_database", DATABASES, indirect=True)


@pytest.fixture
def app_database(request, tmp_path):
    """The database of a test's app (web_support.make_app's ``DATABASE_URL``), at the migrations'
    head: a new SQLite file; for a test marked ``both_databases`` (on the test, its class or its
    module) the test runs twice, on that and on a new PostgreSQL schema. The web tests that write or
    read learner data are so marked: together they cover every table and every write path."""
    return _migrated(getattr(request, "param", "sqlite"), request, tmp_path)


@pytest.fixture
def app_config() -> dict:
    """Configuration of the test's ``app`` beyond web_support.make_app's: a module that needs more
    (its own ``CLOCK``, limits) overrides this fixture."""
    return {}


@pytest.fixture
def teachers() -> dict[str, str]:
    """Teacher accounts of the test's ``app``, ``name: password`` (none; the teacher tests
    override this fixture)."""
    return {}


@pytest.fixture
def app(tmp_path, app_database, app_config, teachers):
    """The test's app (web_support.make_app) on ``app_database`` (SQLite; both databases for a test
    marked ``both_databases``), with ``app_config`` and the ``teachers`` accounts; its database
    connections closed after the test. A module that needs one app for all its tests defines a
    module-scoped ``app`` of its own."""
    app = app_with_teachers(tmp_path, app_database, teachers, **app_config)
    yield app
    dispose(app)


@pytest.fixture
def client(app):
    """A test client of ``app``."""
    return app.test_client()


@pytest.fixture(scope="session")
def chromium() -> str:
    path, where = find_chromium()
    if path is None:
        unavailable("Chromium", f"no executable found as {where}",
                    "install it (apt-get install chromium fonts-noto-core) or set TUTOR_CHROMIUM")
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, chromium):
    return {**browser_type_launch_args, "executable_path": chromium, "headless": True,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]}


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """(base URL, app) of a server running in a thread on a free loopback port."""
    app = make_app(tmp_path_factory.mktemp("browser"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join(timeout=5)
