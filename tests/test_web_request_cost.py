"""What every request costs (issue 21): the session cookie set only when it changes or once a day,
a verified cookie not verified again, Flask-Limiter's hooks only on limited views, the CSRF token
signed once per session, and /healthz within a deterministic count of the bare Flask route's
function calls."""

from __future__ import annotations

import re
import time

import itsdangerous.timed
import pytest
from flask import request
from web_support import csrf_of, make_app

from tutor.bench import count_calls
from tutor.bench.pages import BARE, reference_apps
from tutor.web import sessions

STEP = "/en/learn/hokm/hokm-suits-equal"


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


def _session_cookies(response) -> list[str]:
    return [h for h in response.headers.getlist("Set-Cookie") if h.startswith("tutor=")]


class _Later:
    """``time`` as the session module reads it, ``seconds`` ahead of the real clock."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def time(self) -> float:
        return time.time() + self.seconds


def test_an_unchanged_session_cookie_is_set_again_only_after_a_day(app, monkeypatch):
    c = app.test_client()
    first = c.get(STEP)  # a page with a form: the session (learner id, CSRF token) is made
    assert first.status_code == 200 and len(_session_cookies(first)) == 1
    assert "Expires=" in _session_cookies(first)[0]
    for path in (STEP, "/healthz", STEP):  # unchanged: no Set-Cookie (Flask set it on every response)
        r = c.get(path)
        assert r.status_code == 200 and _session_cookies(r) == [], path
    monkeypatch.setattr(sessions, "time", _Later(sessions.REFRESH_AFTER - 60))
    assert _session_cookies(c.get("/healthz")) == []  # not yet a day
    monkeypatch.setattr(sessions, "time", _Later(sessions.REFRESH_AFTER + 1))
    again = _session_cookies(c.get("/healthz"))
    assert len(again) == 1 and "Expires=" in again[0]  # a day on: signed again, the year starts anew


def test_a_changed_session_is_set_at_once(tmp_path):
    from flask import session

    app = make_app(tmp_path)
    app.add_url_rule("/t-name", "t_name", lambda: session.__setitem__("name", "Ana") or "ok")
    c = app.test_client()
    c.get(STEP)
    assert _session_cookies(c.get("/healthz")) == []
    changed = c.get("/t-name")
    assert changed.status_code == 200 and len(_session_cookies(changed)) == 1
    with c.session_transaction() as s:
        assert s["name"] == "Ana" and s["learner"]


def test_a_cookie_verified_before_is_still_refused_when_tampered_or_too_old(app, monkeypatch):
    c = app.test_client()
    c.get(STEP)
    cookie = c.get_cookie("tutor").value
    with c.session_transaction() as s:
        learner = s["learner"]
    c.get("/healthz")  # verified and kept
    payload, stamp, signature = cookie.rsplit(".", 2)
    bad = f"{payload}.{stamp}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    other = app.test_client()
    other.set_cookie("tutor", bad)
    with other.session_transaction() as s:
        assert "learner" not in s  # a bad signature: a new, empty session
    fresh = app.test_client()
    fresh.set_cookie("tutor", cookie)
    with fresh.session_transaction() as s:
        assert s["learner"] == learner  # the good cookie, from the kept copy
    later = _Later(app.permanent_session_lifetime.total_seconds() + 10)
    monkeypatch.setattr(sessions, "time", later)
    monkeypatch.setattr(itsdangerous.timed, "time", later)  # the signature's own check of the age
    r = fresh.get(STEP)
    assert r.status_code == 200
    assert re.search(r"tutor=", " ".join(r.headers.getlist("Set-Cookie")))  # older than the lifetime: a new session
    with app.test_request_context("/healthz", headers={"Cookie": f"tutor={cookie}"}):
        opened = app.session_interface.open_session(app, request)
        assert opened is not None and "learner" not in opened


def test_the_csrf_token_is_signed_once_per_session_and_still_checked(app, monkeypatch):
    c = app.test_client()
    first = csrf_of(c.get(STEP).get_data(as_text=True))
    monkeypatch.setattr(itsdangerous.timed, "time", _Later(5))  # a token signed now would carry another time
    second = csrf_of(c.get(STEP).get_data(as_text=True))
    assert first == second  # the same signed token: not signed again
    other = app.test_client()
    theirs = csrf_of(other.get(STEP).get_data(as_text=True))
    assert theirs != first  # each session its own token
    form = {"csrf_token": theirs, "game": "hokm", "count": "5", "difficulty": "1", "seed": "7"}
    assert c.post("/en/practice/", data=form).status_code == 400  # another session's token: refused
    form["csrf_token"] = first
    assert c.post("/en/practice/", data=form).status_code == 302


def test_the_limiter_hooks_run_for_limited_views_only(app):
    c = app.test_client()
    health = c.get("/healthz")
    assert health.status_code == 200 and "X-RateLimit-Limit" not in health.headers
    token = csrf_of(c.get(STEP).get_data(as_text=True))
    r = c.post("/en/practice/", data={"csrf_token": token, "game": "hokm", "count": "5", "difficulty": "1",
                                      "seed": "7"})
    assert r.status_code == 302 and r.headers["X-RateLimit-Limit"] == "100000"  # a limited view: counted


def test_healthz_makes_at_most_twice_the_calls_of_the_bare_flask_route(app):
    """A deterministic twin of ``tutor bench --pages``' /healthz row: the function calls (Python and C)
    of one request through the test client, the learner's cookies sent to both. Before issue 21 the
    app's /healthz made 3.3x the bare route's calls; today about 1.9x."""
    c = app.test_client()
    c.get(STEP)
    bare = reference_apps("b" * 40)[BARE][0].test_client()
    for cookie in c._cookies.values():
        bare.set_cookie(cookie.key, cookie.value)
    c.get("/healthz"), bare.get("/healthz")  # warm-up
    ratio = count_calls(lambda: c.get("/healthz")) / count_calls(lambda: bare.get("/healthz"))
    assert 1.0 < ratio <= 2.0, ratio
