"""The web app's set-up: configuration, secret key, database, security headers, cookies, CSRF,
language selection, error pages."""

from __future__ import annotations

import re

import pytest
from web_support import (
    all_rows,
    csrf_of,
    expected,
    form_for,
    lesson_exercise,
    migrated_database,
    rows,
    server_process,
)

from tutor import cli
from tutor.content.store import ContentStore
from tutor.domain.models import Attempt, Learner
from tutor.migrations import head
from tutor.web import configure, create_app
from tutor.web.security import CSP


def test_secret_key_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("TUTOR_SECRET_KEY", raising=False)
    monkeypatch.setenv("TUTOR_ENV", "development")
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("TUTOR_DATABASE_URL", migrated_database(tmp_path / "db.sqlite3"))
    assert configure().config.get("SECRET_KEY") is None  # tutor db makes no key
    assert not (tmp_path / "inst" / "secret_key").exists()
    a = create_app(content=ContentStore.shared())
    key_file = tmp_path / "inst" / "secret_key"
    assert key_file.read_text() == a.config["SECRET_KEY"]
    assert len(a.config["SECRET_KEY"]) == 64
    assert key_file.stat().st_mode & 0o077 == 0
    b = create_app(content=ContentStore.shared())
    assert b.config["SECRET_KEY"] == a.config["SECRET_KEY"]


def test_environment_configures_key_and_database(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("TUTOR_ENV", raising=False)  # production
    monkeypatch.setenv("TUTOR_SECRET_KEY", "from-the-environment-" + "k" * 11)  # 32 bytes
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'custom.sqlite3'}")
    assert cli.main(["db", "upgrade"]) == 0  # the deploy step: tables made in the configured database
    assert f"sqlite:///{tmp_path / 'custom.sqlite3'}: no revision -> {head()}" in capsys.readouterr().err
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-the-environment-kkkkkkkkkkk"
    assert app.config["TUTOR_ENV"] == "production"
    assert not (tmp_path / "inst" / "secret_key").exists()
    assert rows(app, Learner) == 0


def test_default_database_is_sqlite_in_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("TUTOR_ENV", "development")
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    assert configure().config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'inst' / 'tutor.sqlite3'}"
    assert not (tmp_path / "inst" / "tutor.sqlite3").exists()
    assert cli.main(["db", "upgrade"]) == 0
    assert (tmp_path / "inst" / "tutor.sqlite3").exists()
    assert create_app().config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'inst' / 'tutor.sqlite3'}"


@pytest.mark.parametrize("url", ["/en/", "/fa/learn/hokm/", "/bg/practice/", "/te/progress/", "/api/v1/openapi.json",
                                 "/en/no-such-page", "/api/v1/nothing"])
def test_security_headers_everywhere(client, url):
    r = client.get(url)
    assert r.headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"


def test_pages_have_no_inline_script_or_style(client):
    step, _ex = lesson_exercise("hokm", "legal-cards")
    for url in ["/en/", "/en/learn/hokm/", f"/en/learn/hokm/{step.id}", "/en/practice/", "/en/progress/"]:
        html = client.get(url).get_data(as_text=True)
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert scripts and all('src="/static/' in s for s in scripts), url
        assert re.search(r"<script\b[^>]*>\s*[^<\s]", html) is None, url  # no inline code
        assert " style=" not in html and "<style" not in html, url
        assert re.search(r"\son[a-z]+=", html) is None, url  # no event handler attributes
        assert "http://" not in html and "https://" not in html, url  # no CDN, no external links


def test_session_cookie_flags(client):
    step, ex = lesson_exercise("hokm", "trick-winner")
    page = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    r = client.post(f"/en/learn/hokm/{step.id}/{ex.id}",
                    data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302
    cookie = next(h for h in r.headers.getlist("Set-Cookie") if h.startswith("tutor="))
    assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie


@pytest.mark.both_databases
def test_form_without_csrf_token_is_refused(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    r = client.post(f"/en/learn/hokm/{step.id}/{ex.id}", data=form_for(ex, expected(ex)))
    assert r.status_code == 400
    assert "form has expired" in r.get_data(as_text=True)
    assert set(all_rows(app).values()) == {0}


def test_language_from_accept_language_then_cookie(client):
    r = client.get("/", headers={"Accept-Language": "bg-BG,bg;q=0.9,en;q=0.5"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/bg/")
    client.get("/te/")  # visiting a language remembers it
    r = client.get("/", headers={"Accept-Language": "fa"})
    assert r.headers["Location"].endswith("/te/")


@pytest.mark.parametrize(("lang", "direction"), [("en", "ltr"), ("fa", "rtl"), ("bg", "ltr"), ("te", "ltr")])
def test_html_lang_and_direction(client, lang, direction):
    html = client.get(f"/{lang}/").get_data(as_text=True)
    assert f'<html lang="{lang}" dir="{direction}">' in html


def test_unknown_language_is_404_page(client):
    r = client.get("/xx/")
    assert r.status_code == 404
    assert "There is no such page." in r.get_data(as_text=True)


def test_four_colour_suits_option_saved_in_cookie(client):
    page = client.get("/en/").get_data(as_text=True)
    assert 'class="two-colour"' in page
    r = client.post("/en/settings", data={"suits": "4", "next": "/en/practice/", "csrf_token": csrf_of(page)})
    assert r.status_code == 302 and r.headers["Location"] == "/en/practice/"
    assert 'class="four-colour"' in client.get("/en/").get_data(as_text=True)


def test_settings_refuse_offsite_redirect(client):
    page = client.get("/en/").get_data(as_text=True)
    r = client.post("/en/settings", data={"suits": "4", "next": "//evil.example/", "csrf_token": csrf_of(page)})
    assert r.headers["Location"] == "/en/"


def test_settings_go_back_to_the_place_on_the_page(client):
    """tutor.js adds where the learner was on the page (an exercise's anchor) to the form's next:
    the redirect keeps that fragment, so the browser opens the page there again."""
    page = client.get("/en/").get_data(as_text=True)
    target = "/en/learn/hokm/some-step?a=12#ex-trick_2"
    r = client.post("/en/settings", data={"suits": "4", "next": target, "csrf_token": csrf_of(page)})
    assert r.status_code == 302 and r.headers["Location"] == target


@pytest.mark.parametrize("nxt", ["/en/learn/#ex 1", "/en/learn/#ex-1#x", "/en/learn/#<b>", "/en/learn/#ex.1",
                                 "/en/learn/#", "#ex-1", "//evil.example/#ex-1", "/en/learn/#ex-1\t",
                                 "/en/learn/#ex-1/evil", "/en/learn/#javascript:alert(1)"])
def test_settings_refuse_a_fragment_that_is_not_a_plain_place(client, nxt):
    page = client.get("/en/").get_data(as_text=True)
    r = client.post("/en/settings", data={"suits": "4", "next": nxt, "csrf_token": csrf_of(page)})
    assert r.status_code == 302 and r.headers["Location"] == "/en/"


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_json() == {"status": "ok"}


@pytest.mark.both_databases
def test_huge_form_body_is_400_and_writes_nothing(client, app):
    step, ex = lesson_exercise("hokm", "legal-cards")
    r = client.post(f"/en/learn/hokm/{step.id}/{ex.id}", data={"card": "x" * 200_000})
    assert r.status_code == 400
    assert "too large" in r.get_data(as_text=True)
    assert rows(app, Attempt) == 0 and rows(app, Learner) == 0


def test_tutor_serve_starts_the_development_server(tmp_path):
    import os
    import sys

    env = dict(os.environ, TUTOR_INSTANCE_PATH=str(tmp_path / "inst"))
    with server_process([sys.executable, "-m", "tutor.cli", "serve", "--port", "{port}"], tmp_path / "serve.log",
                 env=env) as server:
        body = server.wait_ready("/en/").body
        assert '<html lang="en" dir="ltr">' in body
        assert (tmp_path / "inst" / "tutor.sqlite3").exists()


def test_bench_web_measures_answer_and_ceiling():
    from tutor.bench import bench_web

    result = bench_web(requests=40, concurrency=2)
    for name in ("answer", "healthz"):
        assert result[name]["failed"] == 0, result[name].get("first error")
        assert result[name]["requests"] == 40
        assert result[name]["requests/s"] > 0 and 0 < result[name]["p50 ms"] <= result[name]["p99 ms"]
    assert result["ratio"]["answer/healthz"] > 0
