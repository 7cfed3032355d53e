"""Adversarial input to the HTML forms: 400 with a message beside the field, no open redirect, CSRF
on every form, no half-written row, no verdict before the answer. Helpers: test_adversarial.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
import test_adversarial
from test_adversarial import no_rows, send
from web_support import all_rows, csrf_of, expected, form_for, lesson_exercise

from tutor.web import exercises as X

#: The module's ``app`` fixture (the shared app with its error log off), found by pytest by name.
app = test_adversarial.app

# ================================================================================ HTML forms

def page_token(client, url: str = "/en/practice/") -> str:
    return csrf_of(send(client, "get", url).get_data(as_text=True))


def test_walk_through_superscript_digit_is_400_with_a_form_message(client, app):
    """BUG: read_form (exercises.py, walk-through) checks `v.isdigit()` then `int(v)`: "²" is a digit
    for str.isdigit but int("²") raises ValueError: HTTP 500. Reproduce: POST
    /en/learn/hokm/hokm-sample-round/sample-1 with t0=²&t1=²…&points=1 and a valid csrf_token."""
    step, ex = lesson_exercise("hokm", "walk-through")
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    data = {"csrf_token": tok, "points": "1"} | {f"t{t}": "²" for t in range(len(ex.scenario["tricks"]))}
    r = send(client, "post", f"/en/learn/hokm/{step.id}/{ex.id}", data=data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'class="form-error"' in html
    no_rows(app)


def test_quiz_walk_through_superscript_digit_is_400(client, app):
    """BUG: the same int("²") crash as in lessons, through POST /<lang>/quiz/<token>/<n>."""
    tok = page_token(client)
    r = send(client, "post", "/en/practice/", data={"csrf_token": tok, "game": "hokm", "count": "20",
                                                     "difficulty": "3", "seed": "7", "kinds-hokm": "walk-through"})
    assert r.status_code == 302
    base = r.headers["Location"].rsplit("/", 1)[0]
    before = all_rows(app)
    r = send(client, "post", f"{base}/1", data={"csrf_token": tok, "points": "1"} | {f"t{t}": "²" for t in range(13)})
    assert r.status_code == 400
    assert all_rows(app) == before


@pytest.mark.parametrize(("kind", "field", "value"), [
    ("trick-winner", "seat", "²"), ("trick-winner", "seat", "9" * 5000), ("trick-winner", "seat", "-1"),
    ("next-hakem", "seat", "\u202e1"), ("round-score", "points", "³"), ("round-score", "points", "1" * 5000),
    ("legal-cards", "card", "1S"), ("legal-cards", "card", "<script>"), ("game-winner", "winner", "²"),
])
def test_lesson_form_odd_values_are_400_with_a_message(client, app, kind, field, value):
    step, ex = lesson_exercise("hokm", kind)
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    r = send(client, "post", f"/en/learn/hokm/{step.id}/{ex.id}", data={"csrf_token": tok, field: value})
    assert r.status_code == 400, r.status_code
    html = r.get_data(as_text=True)
    assert "<script>" not in html.split("<body", 1)[-1].replace('<script src="', "")
    no_rows(app)


def lands_on_site(location: str) -> bool:
    """Where a browser goes: it drops tab/CR/LF from URLs and treats "\\" like "/"."""
    cleaned = re.sub(r"[\t\r\n]", "", location).replace("\\", "/")
    return urlsplit(urljoin("http://localhost/en/", cleaned)).netloc == "localhost"


@pytest.mark.parametrize("nxt", ["/\t/evil.example", "/\t\t/evil.example", "/\n/evil.example",
                                 "/\r/evil.example", "/\x0b/evil.example"],
                         ids=["tab", "two-tabs", "newline", "cr", "vtab"])
def test_settings_next_is_no_open_redirect(client, nxt):
    """BUG: safe_next() accepts "/\\t/evil.example" (starts with "/", not with "//", no backslash);
    the tab is dropped when the Location header is built, so the answer is `Location: //evil.example`
    — a protocol-relative redirect off site. A newline in `next` makes Werkzeug refuse the header
    value: HTTP 500. safe_next should reject any control character (or build the URL from a parsed
    path)."""
    tok = page_token(client)
    r = send(client, "post", "/en/settings", data={"csrf_token": tok, "suits": "4", "next": nxt})
    assert r.status_code in (302, 303, 400), r.status_code
    if r.status_code != 400:
        assert lands_on_site(r.headers["Location"]), r.headers["Location"]


@pytest.mark.parametrize("nxt", ["//evil.example", "https://evil.example", "/\\evil.example", "\\\\evil.example",
                                 "javascript:alert(1)", "/%2F/evil.example"])
def test_settings_next_offsite_targets_stay_on_site(client, nxt):
    tok = page_token(client)
    r = send(client, "post", "/en/settings", data={"csrf_token": tok, "suits": "4", "next": nxt})
    assert r.status_code == 302
    assert lands_on_site(r.headers["Location"]), r.headers["Location"]


def test_display_name_is_escaped_and_stripped_of_bidi_controls(client, app):
    tok = page_token(client, "/en/progress/")
    r = send(client, "post", "/en/progress/name", data={"csrf_token": tok, "name": "<script>alert(1)</script>"})
    assert r.status_code == 302
    html = send(client, "get", "/en/progress/").get_data(as_text=True)
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)" in html
    r = send(client, "post", "/en/progress/name", data={"csrf_token": tok, "name": "\u202eevil\u2066x\u200f"})
    assert r.status_code == 302
    html = send(client, "get", "/en/progress/").get_data(as_text=True)
    for ch in ("\u202e", "\u2066", "\u200f"):
        assert ch not in html


@pytest.mark.both_databases
def test_display_name_too_long_is_400_and_not_stored(client, app):
    from sqlalchemy import select

    from tutor.domain.models import Learner

    tok = page_token(client, "/en/progress/")
    r = send(client, "post", "/en/progress/name", data={"csrf_token": tok, "name": "a" * 41})
    assert r.status_code == 400
    r = send(client, "post", "/en/progress/name", data={"csrf_token": tok, "name": "b" * 60_000})
    assert r.status_code == 400
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            assert all(not (n or "").startswith(("a" * 41, "b" * 41))
                       for n in db.scalars(select(Learner.display_name)))
        finally:
            db.close()


def test_display_name_input_limit_matches_the_server_limit(client):
    """BUG (minor): the name input says maxlength="60" but the server refuses more than 40 characters."""
    html = send(client, "get", "/en/progress/").get_data(as_text=True)
    m = re.search(r'<input id="name" name="name" maxlength="(\d+)"', html)
    assert m and m.group(1) == "40"


def _post_routes(ex_step, ex):
    return [
        (f"/en/learn/hokm/{ex_step.id}/{ex.id}", form_for(ex, expected(ex))),
        (f"/en/learn/hokm/{ex_step.id}/done", {}),
        ("/en/practice/", {"game": "hokm", "count": "5", "difficulty": "1"}),
        ("/en/mistakes/replay", {}),
        (f"/en/progress/reset/{ex_step.id}", {}),
        ("/en/progress/name", {"name": "x"}),
        ("/en/settings", {"suits": "4"}),
    ]


@pytest.mark.parametrize("token", ["missing", "forged", "empty"])
def test_every_form_refuses_a_missing_or_forged_csrf_token(client, app, token):
    step, ex = lesson_exercise("hokm", "trick-winner")
    for url, form in _post_routes(step, ex):
        data = form
        if token == "forged":
            data = form | {"csrf_token": "IjEyMzQ1Njc4OTAi.aaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbb"}
        elif token == "empty":
            data = form | {"csrf_token": ""}
        r = send(client, "post", url, data=data)
        assert r.status_code == 400, (url, r.status_code)
        assert "text/html" in r.content_type
        assert "Content-Security-Policy" in r.headers
    no_rows(app)


@pytest.mark.both_databases
def test_forged_exercise_step_and_quiz_ids_write_nothing(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    for url, want in [(f"/en/learn/hokm/{step.id}/nope", 400), (f"/en/learn/hokm/nope/{ex.id}", 404),
                      (f"/en/learn/chess/{step.id}/{ex.id}", 404), (f"/en/learn/hokm/{step.id}/..%2f..", (400, 404)),
                      ("/en/quiz/AAAAAAAAAAAAAAAA/1", 404), ("/en/quiz/" + "A" * 100 + "/1", 404),
                      ("/en/progress/reset/nope", 404), ("/xx/progress/name", 404)]:
        r = send(client, "post", url, data={"csrf_token": tok, "seat": "0"})
        assert r.status_code in (want if isinstance(want, tuple) else (want,)), (url, r.status_code)
    no_rows(app)


@pytest.mark.parametrize("form", [
    {"count": "²"}, {"count": "٥"}, {"count": "1" * 5000}, {"seed": "²"}, {"seed": "١٢"}, {"seed": "9" * 5000},
    {"seed": "-1"}, {"difficulty": "٢"}, {"difficulty": "0"}, {"game": "\u202ehokm"}, {"game": "chess"},
])
def test_practice_setup_odd_values_are_400_and_write_nothing(client, app, form):
    tok = page_token(client)
    data = {"csrf_token": tok, "game": "hokm", "count": "5", "difficulty": "1"} | form
    r = send(client, "post", "/en/practice/", data=data)
    assert r.status_code == 400
    assert 'class="form-error"' in r.get_data(as_text=True) or "role=\"alert\"" in r.get_data(as_text=True)
    no_rows(app)


@pytest.mark.parametrize("a", ["²", "99999999999999999999999", "9" * 5000, "-1", "0", "1e3", "٣"])
def test_odd_attempt_ids_in_the_url_are_ignored_even_with_a_learner(client, app, a):
    step, ex = lesson_exercise("hokm", "trick-winner")
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    r = send(client, "post", f"/en/learn/hokm/{step.id}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": tok})
    assert r.status_code == 302
    r = send(client, "get", f"/en/learn/hokm/{step.id}?a={a}")
    assert r.status_code == 200


def test_oversized_form_field_is_400_and_writes_nothing(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    r = send(client, "post", f"/en/learn/hokm/{step.id}/{ex.id}", data={"csrf_token": tok, "seat": "0" * 100_000})
    assert r.status_code == 400
    no_rows(app)


@pytest.mark.both_databases
def test_done_on_a_step_with_unsolved_exercises_does_not_mark_it_done(client, app):
    """BUG (integrity): the "done" button is only shown on steps without exercises, but
    POST /<lang>/learn/<ruleset>/<step>/done marks any step done, even one whose exercises were never
    answered (StepProgress: "done once its exercises were answered right")."""
    from sqlalchemy import select

    from tutor.domain.models import StepProgress

    step, _ex = lesson_exercise("hokm", "trick-winner")
    tok = page_token(client, f"/en/learn/hokm/{step.id}")
    send(client, "post", f"/en/learn/hokm/{step.id}/done", data={"csrf_token": tok})
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            rows = list(db.scalars(select(StepProgress).where(StepProgress.step_id == step.id)))
            assert not any(r.done for r in rows)
        finally:
            db.close()


def test_question_pages_before_answering_show_no_verdict(client):
    for ruleset in ("hokm", "all-fours", "trinidad"):
        for step in X.lesson_path(ruleset).steps[:40]:
            if not step.exercises:
                continue
            html = send(client, "get", f"/en/learn/{ruleset}/{step.id}").get_data(as_text=True)
            for marker in ("Right!", "Not quite.", "Cards you may play", 'class="verdict'):
                assert marker not in html, (step.id, marker)
            assert not re.search(r"<input[^>]* checked", html), step.id
            assert not re.search(r'class="card [^"]*\b(ok|win)\b', html), step.id


@pytest.mark.parametrize("url", ["/en/", "/en/practice/", "/en/progress/", "/en/learn/hokm/", "/en/nope/x",
                                 "/api/v1/solve"])
def test_security_headers_and_cookie_flags(client, url):
    r = send(client, "get", url)
    assert "default-src 'none'" in r.headers.get("Content-Security-Policy", "")
    for c in r.headers.getlist("Set-Cookie"):
        assert "HttpOnly" in c and "SameSite=Lax" in c, c
