"""Hardening of requests: body limits, a new learner's simultaneous first answers, redirects,
405, trusted hosts. Helpers: test_web_hardening.
"""

from __future__ import annotations

import http.client
import json
import re
import threading

import pytest
from sqlalchemy import select
from test_web_hardening import serving, step_and_form
from web_support import (
    all_rows,
    csrf_of,
    dispose,
    expected,
    form_for,
    lesson_exercise,
    make_app,
    rows,
    wrong_value,
)

from tutor.domain.models import Attempt, Learner, Mistake
from tutor.migrations import upgrade

#: The tests of the app fixture run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_databases

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
    _step, ex, url, data = step_and_form(client, right=False)
    client.post(url, data=data)  # the learner and one wrong attempt exist; now answer another exercise
    step, target = lesson_exercise("hokm", "legal-cards")  # one with no review card yet
    assert target.id != ex.id
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
