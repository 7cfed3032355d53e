"""Continue on another device (tutor.web.views.device): a personal code, kept hashed, revocable,
redeemed in a second browser with a confirmation, rate-limited; on SQLite and PostgreSQL."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from web_support import HIGH_LIMITS, counted, csrf_of, expected, form_for, lesson_exercise

from tutor.domain.models import DeviceCode
from tutor.web.views.device import code_hash, new_code, normalise

pytestmark = pytest.mark.both_databases


@pytest.fixture
def app_config():
    return {"RATE_LIMITS": HIGH_LIMITS | {"redeem": counted("3/day")}}


def _code_of(html: str) -> str:
    m = re.search(r'<p class="code-shown"><strong[^>]*>([0-9A-Z-]+)</strong>', html)
    assert m, "no code shown"
    return m.group(1)


def _make_code(client, lang="en") -> str:
    page = client.get(f"/{lang}/device/").get_data(as_text=True)
    r = client.post(f"/{lang}/device/new", data={"csrf_token": csrf_of(page)})
    assert r.status_code == 200
    return _code_of(r.get_data(as_text=True))


def _redeem(client, code, confirm=True, lang="en"):
    page = client.get(f"/{lang}/device/").get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "code": code}
    if confirm:
        data["confirm"] = "yes"
    return client.post(f"/{lang}/device/redeem", data=data)


def _answer_right(client):
    step, ex = lesson_exercise("hokm", "trick-winner")
    page = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    r = client.post(f"/en/learn/hokm/{step.id}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302


def _answered(client) -> str:
    html = client.get("/en/progress/").get_data(as_text=True)
    return re.search(r'<p class="lead answered">([^<]+)</p>', html).group(1)


def test_a_code_carries_the_progress_to_a_second_browser(app):
    first, second = app.test_client(), app.test_client()
    _answer_right(first)
    _answer_right(first)
    _answer_right(second)  # the second browser's own progress: one answer
    assert _answered(first) == "Right answers: 2 of 2"
    assert _answered(second) == "Right answers: 1 of 1"
    code = _make_code(first)
    assert len(normalise(code)) == 26
    with app.app_context():
        db = app.extensions["tutor_db"]()
        stored = db.scalars(select(DeviceCode)).all()
        db.close()
    assert [r.code_hash for r in stored] == [code_hash(normalise(code))]  # only the hash is kept
    assert code not in repr(stored[0].__dict__)
    r = _redeem(second, code.lower().replace("-", " "))  # typed in lower case with spaces
    assert r.status_code == 302 and r.headers["Location"].endswith("/en/progress/")
    assert _answered(second) == "Right answers: 2 of 2"  # replaced by the code's progress
    _answer_right(second)
    assert _answered(first) == "Right answers: 3 of 3"  # one learner on two browsers


def test_a_revoked_code_is_refused_and_a_new_code_revokes_the_old(app):
    first, second = app.test_client(), app.test_client()
    _answer_right(first)
    old = _make_code(first)
    new = _make_code(first)
    assert old != new
    r = _redeem(second, old)
    assert r.status_code == 400
    assert "This code is not valid" in r.get_data(as_text=True)
    page = first.get("/en/device/").get_data(as_text=True)
    assert "You have a code, made on" in page and new not in page  # never shown again
    assert first.post("/en/device/revoke", data={"csrf_token": csrf_of(page)}).status_code == 302
    r = _redeem(second, new)
    assert r.status_code == 400 and "This code is not valid" in r.get_data(as_text=True)
    assert "You have no code yet." in first.get("/en/device/").get_data(as_text=True)


@pytest.mark.parametrize("typed, message", [
    ("hello", "This is not a code"),
    (None, "This code is not valid"),  # well formed, never made
])
def test_a_bad_code_gives_the_form_back_with_the_message_beside_the_field(app, typed, message):
    client = app.test_client()
    typed = typed or new_code()
    r = _redeem(client, typed)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    field = re.search(r'<input id="code"[^>]*>\s*</p>\s*<p class="form-error" id="code-error" role="alert">([^<]+)</p>',
                      html)
    assert field and field.group(1).startswith(message)
    assert f'value="{typed}"' in html and 'aria-invalid="true" aria-describedby="code-error"' in html


def test_redeeming_needs_the_confirmation(app):
    first, second = app.test_client(), app.test_client()
    _answer_right(first)
    code = _make_code(first)
    r = _redeem(second, code, confirm=False)
    assert r.status_code == 400 and "Tick the box" in r.get_data(as_text=True)
    assert "No mistakes" in second.get("/en/progress/").get_data(as_text=True)
    assert _answered(second) == "Right answers: 0 of 0"


def test_redeeming_is_rate_limited_and_csrf_protected(app):
    client = app.test_client()
    statuses = [_redeem(client, "wrong").status_code for _ in range(3)]
    r = _redeem(client, "wrong")
    assert statuses == [400, 400, 400] and r.status_code == 429
    assert 0 <= int(r.headers["Retry-After"]) <= 86_400  # a per-day limit: at most until the day is out
    other = app.test_client()
    other.get("/en/device/")
    assert other.post("/en/device/redeem", data={"code": new_code(), "confirm": "yes"}).status_code == 400


def test_the_link_fills_in_the_code_and_the_page_is_translated(app):
    client = app.test_client()
    code = _make_code(client, "fa")
    html = client.get(f"/fa/device/?code={code}").get_data(as_text=True)
    assert f'value="{code}"' in html
    assert 'lang="fa" dir="rtl"' in html and "Continue on another device" not in html
