"""Helpers shared by the web tests (test_web_*.py, test_browser.py)."""

from __future__ import annotations

import atexit
import contextlib
import http.client
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from limits import parse_many
from sqlalchemy import func, select

from tutor.content import kinds
from tutor.content.kinds import KINDS
from tutor.content.store import ContentStore
from tutor.domain.models import Attempt, Learner, Mistake, Quiz, StepProgress
from tutor.domain.review import LEAVE_AFTER
from tutor.i18n import LANGUAGES, is_rtl
from tutor.migrations import upgrade
from tutor.web import create_app, limits
from tutor.web import exercises as X

#: A left-to-right and a right-to-left language (the first of each in the registry): the tests
#: that check a layout in both directions, without every language's cost (browser tests).
BOTH_DIRECTIONS = (next(lang for lang in LANGUAGES if not is_rtl(lang)), next(lang for lang in LANGUAGES if is_rtl(lang)))

_MIGRATED = tempfile.TemporaryDirectory(prefix="tutor-migrated-")
atexit.register(_MIGRATED.cleanup)


def migrated_database(path: Path) -> str:
    """The URL of a new SQLite database at ``path``, at the migrations' head: a copy of one that
    ``tutor db upgrade`` made once in this test run (as a deploy runs it before the app starts)."""
    template = Path(_MIGRATED.name) / "head.sqlite3"
    if not template.exists():
        upgrade(f"sqlite:///{template}")
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"

#: Rate limits of the test apps: counted (the limiter stays in every request's path) but far above
#: what one test client sends. The limits' own tests (test_web_limits.py) set real ones.
HIGH_LIMITS = {action: "100000/minute" for action in limits.ACTIONS}


class LimiterClock:
    """The rate limiter's clock in a test (conftest's autouse ``limiter_clock`` fixture): the
    ``time.time`` that the ``limits`` storages and strategies and Flask-Limiter read (counters,
    window keys, reset times, Retry-After), set to the start of a day (so of every window of a
    second, minute, hour or day) and moved only by :meth:`advance`. Other clocks (the app's
    ``CLOCK``, ``time.monotonic``) are not touched; counters in Redis expire on the Redis server's
    own clock, which starts a window at its first hit, so a count in Redis needs no wait either.

    The limiter's sliding-window counter aligns its in-memory windows to multiples of their length
    since the epoch and, just after an edge, weighs the last window's count and rounds it down, so
    on the real clock a count that straddled an edge let one more request through (CI once got a
    302 for the 429 of a 3/minute log-in limit): here no edge comes unless a test moves to it."""

    #: 2026-01-01T00:00:00Z, a multiple of 86,400 s.
    START = 1_767_225_600.0

    def __init__(self) -> None:
        self.now = self.START

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` on; the new time."""
        self.now += seconds
        return self.now

    def __getattr__(self, name: str):  # the rest of the time module (sleep, monotonic, ...) unchanged
        return getattr(time, name)


#: The modules whose ``time`` the fixture replaces: every reader of the wall clock in the limiter.
LIMITER_TIME_READERS = ("limits.storage.memory", "limits.storage.redis", "limits.strategies", "flask_limiter._extension")


def counted(limit: str) -> str:
    """``limit`` (Flask-Limiter notation, e.g. ``"3/day"``) for a test that counts requests up to
    it; requires the limiter's clock to be the test's :class:`LimiterClock` (so that no window edge
    falls inside the count: the count is exact, on a busy machine too)."""
    import importlib

    for name in LIMITER_TIME_READERS:
        assert isinstance(importlib.import_module(name).time, LimiterClock), f"{name} reads the real clock"
    parse_many(limit)  # a bad limit fails here, in the test, not in the app
    return limit


def in_ci() -> bool:
    """Whether this run is CI (``CI`` set and not false), where no service may be missing."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(what: str, why: str, hint: str) -> None:
    """Skip the test, with the reason (fail it under CI): ``what`` cannot be used because ``why``."""
    message = f"{what} is not available ({why}); {hint}"
    if in_ci():
        pytest.fail("CI needs " + message, pytrace=False)
    pytest.skip(message)


def make_app(tmp_path, **config):
    """A fresh app with its own instance folder and database; CSRF on unless told otherwise. The
    apps share one content store (``create_app`` alone would load all the content for each).

    The database is ``tmp_path/test.sqlite3``: a migrated new one, unless the test made that file
    itself (then the test migrates it)."""
    db = tmp_path / "test.sqlite3"
    conf = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "test-secret",
            "DATABASE_URL": f"sqlite:///{db}" if db.exists() else migrated_database(db), "RATE_LIMITS": HIGH_LIMITS}
    conf.update(config)
    return create_app(conf, content=ContentStore.shared())  # the content is loaded once per test run


def fetch_pdf(client, url: str, **kwargs):
    """GET a worksheet PDF's URL as a browser without script does: while its build runs the answer
    is the progress page (202, which reloads itself), asked again until it is the PDF (or an error)."""
    import html

    deadline = time.monotonic() + 300
    while True:
        r = client.get(url, **kwargs)
        if r.status_code != 202:
            return r
        found = re.search(r'<meta http-equiv="refresh" content="2; url=([^"]+)">', r.get_data(as_text=True))
        assert found, r.get_data(as_text=True)[:500]
        url = html.unescape(found.group(1))
        assert time.monotonic() < deadline, "the PDF was not built in 300 s"
        time.sleep(0.05)


class Clock:
    """The app's clock (``CLOCK`` config), moved by hand: calling it gives the time it is set to."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta) -> datetime:
        self.at += timedelta(**delta)
        return self.at


def app_with_teachers(tmp_path, database_url: str, passwords: dict[str, str], **config):
    """An app (:func:`make_app` on ``database_url``, with ``config``) with a teacher account per
    ``name: password``."""
    from tutor.web.accounts import add_teacher

    app = make_app(tmp_path, DATABASE_URL=database_url, **config)
    with app.app_context():
        db = app.extensions["tutor_db"]()
        for name, pw in passwords.items():
            add_teacher(db, name, pw)
        db.commit()
        db.close()
    return app


def one_app_per_module():
    """A module-scoped ``app`` fixture: one app (:func:`make_app`, SQLite) for every test of the
    module, disposed after the last. Use it as ``app = one_app_per_module()`` in a module whose tests
    only read, or write nothing another test checks; conftest's ``client`` then gives each test its
    own client of that app."""

    @pytest.fixture(scope="module")
    def app(tmp_path_factory, request):
        shared = make_app(tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]))
        yield shared
        dispose(shared)

    return app


def dispose(app) -> None:
    """Close the app's database connections (a test's PostgreSQL schema is dropped after it)."""
    app.extensions["tutor_db"].kw["bind"].dispose()


def rows(app, model) -> int:
    """Number of rows of ``model`` in the app's database."""
    with app.app_context():
        session = app.extensions["tutor_db"]()
        try:
            return session.scalar(select(func.count()).select_from(model))
        finally:
            session.close()


def listed_mistakes(app) -> int:
    """Review cards still in the mistakes list (not yet answered right enough times in a row)."""
    with app.app_context():
        session = app.extensions["tutor_db"]()
        try:
            return session.scalar(select(func.count()).select_from(Mistake).where(Mistake.streak < LEAVE_AFTER))
        finally:
            session.close()


def all_rows(app) -> dict[str, int]:
    return {m.__name__: rows(app, m) for m in (Learner, Attempt, StepProgress, Mistake, Quiz)}


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m, "no CSRF token in the page"
    return m.group(1)


def lesson_exercise(ruleset: str, kind: str, pred=None):
    """(step, exercise) of the first lesson exercise of ``kind`` (satisfying ``pred``)."""
    for s in X.lesson_path(ruleset).steps:
        for e in s.exercises:
            if e.kind == kind and (pred is None or pred(e)):
                return s, e
    raise LookupError(f"no {kind} exercise in {ruleset} lessons")


def expected(ex):
    return kinds.expected_answer(ex)[0]


def form_for(ex, value) -> dict:
    """Form fields of the answer widgets that give ``value`` (a normalised answer of the kind)."""
    return KINDS[ex.kind].form_fields(ex, value)


def wrong_value(ex, right):
    """A well-formed but wrong answer of the exercise's kind."""
    return KINDS[ex.kind].distractor(ex, right)


CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> tuple[str | None, str]:
    """(path of the browser, or None; where it was looked for)."""
    given = os.environ.get("TUTOR_CHROMIUM", "").strip()
    if given:
        found = shutil.which(given)
        return found, f"TUTOR_CHROMIUM={given}"
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found, name
    return None, f"{', '.join(CHROMIUM_NAMES)} on PATH"


# ---------------------------------------------------------------------------------------------
# server processes (tutor serve, gunicorn) started by a test

#: How long a test waits for a server process it started to answer: generous, because on a busy
#: machine (load 30 on 2 cores) imports and the first content load can take a minute. A server
#: that answers sooner ends the wait at once; one that exits ends it at once too.
READY_WITHIN = 240.0


def free_port() -> int:
    """A loopback port free at the time of the call."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Answer:
    """One HTTP response: status, headers (``get_all`` for repeated ones) and body text."""

    status: int
    headers: http.client.HTTPMessage
    body: str


@dataclass
class ServerProcess:
    """A server process a test started (:func:`server_process`), its port and the file its output goes to."""

    proc: subprocess.Popen
    port: int
    log: Path

    def output(self) -> str:
        """Everything the process wrote so far (stdout and stderr)."""
        return self.log.read_text(errors="replace")

    def get(self, path: str, timeout: float = 60.0) -> Answer:
        """GET ``path`` on the server (raises ``OSError`` if nothing answers)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return Answer(r.status, r.headers, r.read().decode())
        finally:
            conn.close()

    def wait_ready(self, path: str = "/healthz", within: float = READY_WITHIN) -> Answer:
        """The first answer of the server to GET ``path``, polled until it comes; fails the test
        with the process's output if the process exits or ``within`` seconds pass first."""
        deadline = time.monotonic() + within
        while True:
            try:
                return self.get(path)
            except OSError as e:
                why = f"exited with status {self.proc.poll()}" if self.proc.poll() is not None else None
                if why is None and time.monotonic() > deadline:
                    why = f"did not answer within {within:g} s ({type(e).__name__}: {e})"
                if why:
                    pytest.fail(f"{' '.join(map(str, self.proc.args))} on port {self.port} {why}; "
                                f"its output:\n{self.output()[-4000:]}", pytrace=False)
                time.sleep(0.2)


@contextlib.contextmanager
def server_process(argv: Sequence[str], log: Path, port: int | None = None, env: dict[str, str] | None = None,
            cwd: str | Path | None = None) -> Iterator[ServerProcess]:
    """A server process: ``argv`` run with ``"{port}"`` in any argument replaced by ``port`` (a free
    one if not given), stdout and stderr to the file ``log``; stopped (TERM, then KILL) on exit.
    Call :meth:`ServerProcess.wait_ready` before the first request."""
    port = port or free_port()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen([str(a).replace("{port}", str(port)) for a in argv], env=env, cwd=cwd,
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        yield ServerProcess(proc, port, Path(log))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
