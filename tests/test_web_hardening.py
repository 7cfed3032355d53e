"""Production hardening: ids from requests, the secret key, body sizes, the first write of a new
learner, redirects, 405, file modes, Secure cookies, readiness, request ids and logs.

Database tests run on SQLite and on PostgreSQL (``database_url`` in conftest.py)."""

from __future__ import annotations

import http.client
import json
import logging
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
from sqlalchemy import select
from web_support import (
    all_rows,
    csrf_of,
    dispose,
    expected,
    form_for,
    free_port,
    lesson_exercise,
    make_app,
    migrated_database,
    rows,
    server_process,
    wrong_value,
)
from werkzeug.serving import make_server

from tutor import cli
from tutor.domain.db import MAX_ID, id_from_request
from tutor.domain.models import Attempt, Learner, Mistake
from tutor.migrations import upgrade
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


# ---------------------------------------------------------------------------------------------
# request bodies

def _chunked(port: int, path: str, body: bytes, ctype: str, cookie: str | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": ctype}
    if cookie:
        headers["Cookie"] = cookie
    conn.request("POST", path, body=(body[i:i + 4096] for i in range(0, len(body), 4096)), headers=headers,
                 encode_chunked=True)
    r = conn.getresponse()
    out = r.status, r.read().decode()
    conn.close()
    return out


def test_chunked_bodies_over_the_limit_are_400_too_large(tmp_path):
    app = make_app(tmp_path)
    scenario = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}
    padded = json.dumps(scenario | {"pad": "x" * 100_000}).encode()
    with serving(app) as port:
        status, text = _chunked(port, "/api/v1/solve", json.dumps(scenario).encode(), "application/json")
        assert status == 200 and json.loads(text)["legal"] == ["3C", "KC"]  # a small chunked body is read whole
        status, text = _chunked(port, "/api/v1/solve", padded, "application/json")
        assert status == 400
        assert json.loads(text)["error"]["code"] == "too-large"  # not bad-json of a cut body

        # a form: the 400 page, nothing written
        client = app.test_client()
        _step, _ex, url, data = step_and_form(client)
        cookie = "tutor=" + client.get_cookie("tutor").value
        from urllib.parse import urlencode
        body = urlencode(data | {"pad": "y" * 100_000}).encode()
        status, text = _chunked(port, url, body, "application/x-www-form-urlencoded", cookie)
        assert status == 400 and "too large" in text
        assert rows(app, Attempt) == 0
        status, _text = _chunked(port, url, urlencode(data).encode(), "application/x-www-form-urlencoded", cookie)
        assert status == 302 and rows(app, Attempt) == 1


def test_a_body_with_a_length_over_the_limit_is_400_even_where_nothing_reads_it(tmp_path):
    client = make_app(tmp_path).test_client()
    r = client.post("/api/v1/solve", data=b"{" + b" " * 70_000 + b"}", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "too-large"


# ---------------------------------------------------------------------------------------------
# a new learner's first answers, at the same time

def test_simultaneous_first_answers_make_one_learner(app):
    """Six answers sent at once from a browser that has only seen the page: one learner, six attempts."""
    first = app.test_client()
    _step, _ex, url, data = step_and_form(first)
    cookie = first.get_cookie("tutor").value
    clients = [app.test_client() for _ in range(6)]
    for c in clients:
        c.set_cookie("tutor", cookie)
    start = threading.Barrier(len(clients))
    statuses = []

    def answer(c):
        start.wait()
        statuses.append(c.post(url, data=data).status_code)

    threads = [threading.Thread(target=answer, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [302] * 6
    assert rows(app, Learner) == 1 and rows(app, Attempt) == 6
    with app.app_context():
        db = app.extensions["tutor_db"]()
        learner = db.scalars(select(Learner)).one()
        assert {a.learner_id for a in db.scalars(select(Attempt))} == {learner.id}
        db.close()


def test_the_page_gives_the_learner_id_before_the_first_answer(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    step, _ex = lesson_exercise("hokm", "trick-winner")
    client.get(f"/en/learn/hokm/{step.id}")
    with client.session_transaction() as s:
        anon = s["learner"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", anon)
    assert all_rows(app)["Learner"] == 0  # nothing written by looking


def test_an_answer_racing_another_for_the_same_review_card_is_kept(tmp_path, postgres_url, monkeypatch):
    """PostgreSQL: another request makes the learner's review card for this exercise while this one
    is answering; this one's insert conflicts, and its transaction is run again: both kept."""
    from sqlalchemy import create_engine

    from tutor.domain import review
    from tutor.domain.db import now

    upgrade(postgres_url)
    app = make_app(tmp_path, DATABASE_URL=postgres_url)
    client = app.test_client()
    step, ex, url, data = step_and_form(client, right=False)
    client.post(url, data=data)  # the learner and one wrong attempt exist; now answer the second exercise
    other_ex = next(e for e in step.exercises if e.id != ex.id) if len(step.exercises) > 1 else None
    target = other_ex or ex
    real = review.Card
    calls = []

    def racing(*args, **kwargs):
        # review() makes a Card after reading the learner's card row and before writing it: the
        # first time (no row found, a new card about to be inserted) "another request" commits the
        # same card meanwhile, so this one's insert conflicts.
        calls.append(kwargs)
        if len(calls) == 1:
            other = create_engine(postgres_url)
            with other.begin() as conn:
                learner_id = conn.execute(select(Learner.id)).scalar_one()
                conn.execute(Mistake.__table__.insert().values(
                    learner_id=learner_id, exercise_ref=f"lesson:{step.id}:{target.id}", ruleset="hokm",
                    kind=target.kind, added_at=now(), due=now(), streak=0))
            other.dispose()
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "Card", racing)
    page = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    r = client.post(f"/en/learn/hokm/{step.id}/{target.id}",
                    data=form_for(target, wrong_value(target, expected(target))) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302
    assert len(calls) == 2  # tried (conflicted), tried again: the card made meanwhile read as a card
    assert rows(app, Attempt) == 2 and rows(app, Learner) == 1
    with app.app_context():
        db = app.extensions["tutor_db"]()
        cards = db.scalars(select(Mistake).where(Mistake.exercise_ref.like(f"%{target.id}"))).all()
        assert len(cards) == 1 and cards[0].card is not None  # the retry reviewed the card made meanwhile
        db.close()
    dispose(app)


# ---------------------------------------------------------------------------------------------
# redirects, 405, trusted hosts

def test_redirects_do_not_echo_the_host_header(tmp_path):
    client = make_app(tmp_path).test_client()
    r = client.get("/en/learn/hokm", headers={"Host": "evil.example"})
    assert r.status_code == 308 and r.headers["Location"] == "/en/learn/hokm/"
    r = client.get("/", headers={"Host": "evil.example", "Accept-Language": "bg"})
    assert r.status_code == 302 and r.headers["Location"] == "/bg/"


def test_trusted_hosts_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_TRUSTED_HOSTS", "tutor.example, .school.example")
    client = make_app(tmp_path).test_client()
    r = client.get("/en/learn/hokm", headers={"Host": "evil.example"})
    assert r.status_code == 400 and "evil" not in r.get_data(as_text=True) and "Location" not in r.headers
    r = client.get("/en/learn/hokm", headers={"Host": "tutor.example"})
    assert r.status_code == 308 and r.headers["Location"] == "/en/learn/hokm/"
    assert client.get("/en/", headers={"Host": "a.school.example"}).status_code == 200


@pytest.mark.parametrize(("method", "url", "allow"), [
    ("POST", "/healthz", {"GET", "HEAD", "OPTIONS"}),
    ("GET", "/api/v1/solve", {"POST", "OPTIONS"}),
    ("PUT", "/en/practice/", {"GET", "HEAD", "POST", "OPTIONS"}),
])
def test_405_names_the_allowed_methods(tmp_path, method, url, allow):
    r = make_app(tmp_path).test_client().open(url, method=method)
    assert r.status_code == 405
    assert {m.strip() for m in r.headers["Allow"].split(",")} == allow
    if url.startswith("/api/"):
        assert r.get_json()["error"]["code"] == "method-not-allowed"
    else:
        assert "does not accept that kind of request" in r.get_data(as_text=True)


# ---------------------------------------------------------------------------------------------
# file modes

def test_database_file_and_instance_folder_are_private(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_ENV", "development")
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    assert cli.main(["db", "upgrade"]) == 0  # the deploy step makes the database file, private
    inst = tmp_path / "inst"
    assert stat.S_IMODE((inst / "tutor.sqlite3").stat().st_mode) == 0o600
    app = create_app()
    assert stat.S_IMODE(inst.stat().st_mode) == 0o700
    client = app.test_client()
    _step, _ex, url, data = step_and_form(client)
    assert client.post(url, data=data).status_code == 302  # writes: the WAL files exist
    for name in ("tutor.sqlite3", "tutor.sqlite3-wal", "tutor.sqlite3-shm", "secret_key"):
        assert stat.S_IMODE((inst / name).stat().st_mode) == 0o600, name
    dispose(app)


def test_an_older_world_readable_database_is_made_private(tmp_path):
    db = tmp_path / "old.sqlite3"
    migrated_database(db)  # a database made by an earlier version, with the umask's mode
    db.chmod(0o644)
    make_app(tmp_path, DATABASE_URL=f"sqlite:///{db}")
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


# ---------------------------------------------------------------------------------------------
# liveness and readiness

def test_readyz_touches_the_database(app):
    client = app.test_client()
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.get_json() == {"status": "ready", "database": "ok", "limits": "memory"}
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_readyz_is_503_when_the_database_does_not_answer(tmp_path):
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    app = make_app(tmp_path)
    app.extensions["tutor_db"] = sessionmaker(create_engine(f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3"))
    client = app.test_client()
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.get_json()["status"] == "unavailable"
    assert r.get_json()["error"]["code"] == "database-unavailable"
    assert client.get("/healthz").status_code == 200  # alive all the same


# ---------------------------------------------------------------------------------------------
# request ids and logs

def test_every_response_has_a_request_id_and_a_log_line(tmp_path, caplog):
    client = make_app(tmp_path).test_client()
    with caplog.at_level(logging.INFO, logger="tutor.request"):
        r = client.get("/en/?secret=1")
    rid = r.headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", rid)
    lines = [json.loads(rec.getMessage()) for rec in caplog.records if rec.name == "tutor.request"]
    assert len(lines) == 1
    line = lines[0]
    assert line["id"] == rid and line["method"] == "GET" and line["path"] == "/en/" and line["status"] == 200
    assert line["event"] == "request" and line["addr"] == "127.0.0.1" and line["ms"] >= 0 and line["bytes"] > 0
    assert "secret" not in caplog.text  # no query string in the log


@pytest.mark.parametrize(("given", "kept"), [
    ("abc-123_x.y:z", True), ("a" * 64, True),
    ("a" * 65, False), ("two words", False), ("<script>", False), ("é", False), ("", False),
])
def test_an_incoming_request_id_is_kept_only_if_short_and_safe(tmp_path, given, kept):
    r = make_app(tmp_path).test_client().get("/healthz", headers={"X-Request-Id": given})
    if kept:
        assert r.headers["X-Request-Id"] == given
    else:
        assert re.fullmatch(r"[0-9a-f]{32}", r.headers["X-Request-Id"])


def test_the_readme_names_every_environment_variable_the_app_reads():
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    read = set()
    for path in (root / "tutor").rglob("*.py"):
        read |= set(re.findall(r"\bTUTOR_[A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    assert {"TUTOR_SECRET_KEY", "TUTOR_ENV", "TUTOR_REDIS_URL", "TUTOR_PROXIES"} <= read
    missing = sorted(v for v in read if f"`{v}`" not in readme and v != "TUTOR_LIMIT")
    assert missing == []


def test_an_unexpected_error_is_a_500_page_whose_log_names_the_request(tmp_path, caplog, monkeypatch):
    app = make_app(tmp_path)
    monkeypatch.setattr(app.logger, "disabled", False)  # one logger for every app; a test may have muted it

    @app.get("/en/boom")
    def boom():
        raise RuntimeError("boom")

    with caplog.at_level(logging.INFO):
        r = app.test_client().get("/en/boom", headers={"X-Request-Id": "req-42"})
    assert r.status_code == 500 and "Something went wrong on our side." in r.get_data(as_text=True)
    assert r.headers["X-Request-Id"] == "req-42"
    assert "unexpected error (request req-42)" in caplog.text
    assert "Traceback" not in r.get_data(as_text=True)


def test_a_logged_in_teacher_may_send_a_long_lesson_and_a_long_pasted_file(tmp_path):
    """The teacher's fields take 30,000 characters (a lesson) and 200,000 (a pasted file); Telugu
    takes 3 bytes a character, so the 64 KiB limit of every other request refused a long lesson
    with a bare page and lost it. A logged-in teacher's pages take up to TEACH_MAX_CONTENT_LENGTH;
    the log-in form itself, and anyone not logged in, still 64 KiB."""
    from web_support import app_with_teachers, migrated_database

    from tutor.web import MAX_BODY, MAX_TEACH_BODY

    app = app_with_teachers(tmp_path, migrated_database(tmp_path / "t.sqlite3"), {"ana": "ana-password-1"})
    c = app.test_client()
    page = c.get("/te/teach/login")
    big = {"csrf_token": csrf_of(page.text), "name": "ana", "password": "ana-password-1", "pad": "క" * 30_000}
    r = c.post("/te/teach/login", data=big)  # 90,000 bytes, not logged in yet
    assert r.status_code == 400 and ("65,536" in r.text or "65536" in r.text)
    r = c.post("/te/teach/login", data={k: v for k, v in big.items() if k != "pad"})
    assert r.status_code == 302
    body = "ఒక ట్రిక్ గెలవాలంటే " * 1_400  # 28,000 characters, about 80,000 bytes
    assert MAX_BODY < len(body.encode()) < MAX_TEACH_BODY
    home = c.get("/te/teach/")
    r = c.post("/te/teach/lessons/", data={"csrf_token": csrf_of(home.text), "lesson-title": "ట్రిక్", "lesson-goal": "గెలుపు",
                                            "lesson-ruleset": "hokm", "lesson-lang": "te", "lesson-body": body})
    assert r.status_code == 302, r.text[:500]
    lesson = c.get(r.headers["Location"])
    from lxml import html as lxml_html

    assert lxml_html.fromstring(lesson.text).get_element_by_id("lesson-body").text_content().strip() == body.strip()
    # a pasted quiz file of 150,000 characters is read and checked (its problems listed), not refused as too large
    qid_page = c.post("/te/teach/quizzes/", data={"csrf_token": csrf_of(home.text), "quiz-title": "పెద్దది"})
    quiz_url = qid_page.headers["Location"]
    pasted = "title: x\nquestions:\n" + "# " + "క" * 150_000 + "\n"
    r = c.post(quiz_url + "/import", content_type="multipart/form-data",  # as the page's form sends it
               data={"csrf_token": csrf_of(c.get(quiz_url).text), "import-text": pasted})
    assert r.status_code == 400 and 'id="import-text-error"' in r.text and "too large" not in r.text


def test_retry_after_is_on_a_429_only_and_never_0(tmp_path, limiter_clock):
    """Flask-Limiter puts Retry-After on every response of a limited view, as whole seconds to the
    window's reset: 0 in the window's last second. A 429 now always says at least 1, and a 200 none.
    The limiter's clock steps 0.02 s a request through 2.5 s, past two window edges."""
    client = make_app(tmp_path, RATE_LIMITS={"solve": "2/second"}).test_client()
    scenario = {"ruleset": "hokm", "ask": "first-lead", "hakem": 1}
    seen = set()
    for _ in range(125):
        r = client.post("/api/v1/solve", json=scenario)
        if r.status_code == 200:
            assert "Retry-After" not in r.headers and r.headers["X-RateLimit-Limit"] == "2"
        else:
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        seen.add(r.status_code)
        limiter_clock.advance(0.02)
    assert seen == {200, 429}
