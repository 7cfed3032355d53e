"""Production hardening: ids from requests, the secret key, body sizes, the first write of a new
learner, redirects, 405, file modes, Secure cookies, readiness, request ids and logs.

Database tests run on SQLite and on PostgreSQL (``database_url`` in conftest.py).

Request bodies, simultaneous first answers, redirects and 405 are in test_web_hardening_requests;
file modes, readiness, request ids and logs in test_web_hardening_ops; the helpers are here.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import stat
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from web_support import (
    csrf_of,
    expected,
    form_for,
    free_port,
    lesson_exercise,
    migrated_database,
    server_process,
    wrong_value,
)
from werkzeug.serving import make_server

from tutor.domain.db import MAX_ID, id_from_request
from tutor.web import MIN_SECRET_BYTES, ConfigError, _secret_key_file, create_app

#: The tests of the app fixture run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_databases


@contextmanager
def serving(app):
    """Base URL of ``app`` served by Werkzeug's threaded server on a free loopback port."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join(timeout=5)


def step_and_form(client, kind="trick-winner", lang="en", right=True):
    """(answer URL, form data with a CSRF token) for the first hokm lesson exercise of ``kind``."""
    step, ex = lesson_exercise("hokm", kind)
    page = client.get(f"/{lang}/learn/hokm/{step.id}").get_data(as_text=True)
    value = expected(ex) if right else wrong_value(ex, expected(ex))
    return step, ex, f"/{lang}/learn/hokm/{step.id}/{ex.id}", form_for(ex, value) | {"csrf_token": csrf_of(page)}


# ---------------------------------------------------------------------------------------------
# ids from requests are range-checked

def test_id_from_request_accepts_only_keys_a_database_can_hold():
    assert id_from_request("1") == 1
    assert id_from_request(str(MAX_ID)) == MAX_ID == 2_147_483_647
    for bad in (None, "", "0", "-1", "2147483648", "99999999999", "1e3", "+5", " 5", "٣", "0x10"):
        assert id_from_request(bad) is None, bad


def test_attempt_id_out_of_range_shows_the_step_without_feedback(app):
    """?a=2147483648 was a 500 on PostgreSQL (integer out of range)."""
    client = app.test_client()
    step, _ex, url, data = step_and_form(client)
    r = client.post(url, data=data)
    assert r.status_code == 302
    own = re.search(r"[?&]a=(\d+)", r.headers["Location"]).group(1)
    page = client.get(f"/en/learn/hokm/{step.id}?a={own}").get_data(as_text=True)
    assert "verdict good" in page  # the learner's own attempt gives feedback
    for a in ("2147483648", "9223372036854775808", "99999999999", "2147483647", "0", "-1"):
        r = client.get(f"/en/learn/hokm/{step.id}?a={a}")
        assert r.status_code == 200, a
        assert "verdict" not in r.get_data(as_text=True), a


# ---------------------------------------------------------------------------------------------
# the secret key

def _make_key(instance: str, start, out) -> None:
    start.wait()
    try:
        out.put(("ok", _secret_key_file(Path(instance))))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        out.put(("error", repr(e)))


def test_secret_key_file_made_once_by_processes_starting_together(tmp_path):
    """Eight processes at once, ten times over: all read the same complete key; none fails (the old
    two-step creation gave an empty key or FileExistsError in about two rounds of five)."""
    ctx = multiprocessing.get_context("fork")
    for round_ in range(10):
        instance = tmp_path / f"inst{round_}"
        instance.mkdir()
        start, out = ctx.Barrier(8), ctx.Queue()
        procs = [ctx.Process(target=_make_key, args=(str(instance), start, out)) for _ in range(8)]
        for p in procs:
            p.start()
        results = [out.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        assert {status for status, _ in results} == {"ok"}, results
        keys = {key for _, key in results}
        assert len(keys) == 1
        key = keys.pop()
        assert re.fullmatch(r"[0-9a-f]{64}", key)
        assert (instance / "secret_key").read_text() == key
        assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600
        assert sorted(p.name for p in instance.iterdir()) == ["secret_key"]  # no temporary file left


def test_an_empty_key_file_is_refused_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_ENV", "development")
    monkeypatch.delenv("TUTOR_SECRET_KEY", raising=False)
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    (tmp_path / "inst").mkdir()
    (tmp_path / "inst" / "secret_key").write_text("")
    with pytest.raises(ConfigError, match=r"holds no usable key .* delete it"):
        create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})


@pytest.mark.parametrize(("key", "message"), [
    (None, "TUTOR_SECRET_KEY is not set"),
    ("", "TUTOR_SECRET_KEY is not set"),
    ("k" * (MIN_SECRET_BYTES - 1), "TUTOR_SECRET_KEY is too short"),
])
def test_production_refuses_to_start_without_a_long_key(tmp_path, monkeypatch, key, message):
    monkeypatch.delenv("TUTOR_ENV", raising=False)
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    if key is None:
        monkeypatch.delenv("TUTOR_SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("TUTOR_SECRET_KEY", key)
    with pytest.raises(ConfigError, match=message):
        create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert not (tmp_path / "inst" / "secret_key").exists()


def test_production_accepts_a_32_byte_key_and_development_makes_one(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("TUTOR_DATABASE_URL", migrated_database(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("TUTOR_SECRET_KEY", "ж" * 16)  # 16 characters, 32 bytes of UTF-8
    assert create_app().config["SECRET_KEY"] == "ж" * 16
    monkeypatch.delenv("TUTOR_SECRET_KEY")
    monkeypatch.setenv("TUTOR_ENV", "development")
    made = create_app().config["SECRET_KEY"]
    assert len(made) == 64 and (tmp_path / "inst" / "secret_key").read_text() == made
    monkeypatch.setenv("TUTOR_ENV", "staging")
    with pytest.raises(ConfigError, match="TUTOR_ENV must be one of production, development"):
        create_app()


def test_gunicorn_without_a_key_does_not_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_SECRET_KEY", "TUTOR_ENV")}
    env.update(TUTOR_INSTANCE_PATH=str(tmp_path / "inst"), TUTOR_DATABASE_URL=f"sqlite:///{tmp_path / 'db'}")
    proc = subprocess.run([sys.executable, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{free_port()}",
                           "tutor.web:create_app()"], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode != 0
    assert "TUTOR_SECRET_KEY is not set" in proc.stderr


def test_tutor_serve_in_production_without_a_key_exits_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_SECRET_KEY"}
    env.update(TUTOR_ENV="production", TUTOR_INSTANCE_PATH=str(tmp_path / "inst"))
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "serve", "--port", str(free_port())], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("tutor serve: TUTOR_SECRET_KEY is not set")


def test_tutor_serve_on_all_interfaces_keeps_secure_cookies(tmp_path):
    """--host 0.0.0.0 used to turn Secure off silently; now it stays on and a warning says why."""
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_COOKIE_SECURE", "TUTOR_ENV", "TUTOR_SECRET_KEY")}
    env["TUTOR_INSTANCE_PATH"] = str(tmp_path / "inst")
    with server_process([sys.executable, "-m", "tutor.cli", "serve", "--host", "0.0.0.0", "--port", "{port}"],
                 tmp_path / "serve.log", env=env) as server:
        cookies = server.wait_ready("/en/").headers.get_all("Set-Cookie")
        session_cookie = next(c for c in cookies if c.startswith("tutor="))
        assert "; Secure" in session_cookie
    stderr = server.output()
    assert "cookies are Secure" in stderr and "TUTOR_COOKIE_SECURE=0" in stderr
