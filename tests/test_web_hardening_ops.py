"""Hardening for operations: file modes, liveness and readiness, request ids and logs, the README's
environment variables, 500 pages, long teacher uploads, Retry-After. Helpers: test_web_hardening.
"""

from __future__ import annotations

import json
import logging
import re
import stat
from pathlib import Path

import pytest
from test_web_hardening import step_and_form
from web_support import csrf_of, dispose, make_app, migrated_database

from tutor import cli
from tutor.web import create_app

#: The tests of the app fixture run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_databases

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
