"""The teacher tests' shared accounts and helpers (one home: every teacher test imports them from
here): the two teachers' passwords, the ``teachers`` fixture that gives conftest's ``app`` those
accounts (import it into a test module to use it), log-in, CSRF-carrying POSTs, and the steps a
teacher takes (a quiz, its questions, a class, an assignment) and a learner takes (join, answer).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from web_support import csrf_of

from tutor.domain.models import Assignment, TeacherQuiz

PASSWORDS = {"ana": "ana-password-1", "bob": "bob-password-2"}
#: A due date some weeks ahead (a day gone by is refused).
DUE = (datetime.now(UTC).date() + timedelta(days=60)).isoformat()
TRICK = {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}


@pytest.fixture
def teachers():
    """The teacher accounts of the app (conftest's ``app``): name -> password."""
    return PASSWORDS


def login(client, name: str):
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": name,
                                              "password": PASSWORDS[name]})
    assert r.status_code == 302, r.text
    return client


def post(client, url: str, data: dict, page: str | None = None):
    token = csrf_of(client.get(page or url).text)
    return client.post(url, data={"csrf_token": token, **data})


def new_quiz(client, title="Trumps") -> int:
    r = post(client, "/en/teach/quizzes/", {"quiz-title": title}, page="/en/teach/")
    assert r.status_code == 302
    return int(re.search(r"/quizzes/(\d+)", r.headers["Location"]).group(1))


def add_authored(client, qid: int, scenario: dict, key: str, **extra):
    data = {"kind": "trick-winner", "scenario": json.dumps(scenario), "key": key, "difficulty": "1",
            "points": "1", **extra}
    return post(client, f"/en/teach/quizzes/{qid}/authored", data, page=f"/en/teach/quizzes/{qid}")


def add_generated(client, qid: int, seed: int, points: int = 2, action: str = "add"):
    data = {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1", "g-seed": str(seed),
            "g-points": str(points), "action": action}
    return post(client, f"/en/teach/quizzes/{qid}/generated", data, page=f"/en/teach/quizzes/{qid}")


def add_generated_form(client, qid: int, changed: dict, lang: str = "en"):
    """POST the generated-question form of quiz ``qid`` in ``lang`` with ``changed`` fields."""
    data = {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1", "g-seed": "5", "g-points": "1",
            "action": "preview", **changed}
    return post(client, f"/{lang}/teach/quizzes/{qid}/generated", data, page=f"/{lang}/teach/quizzes/{qid}")


def new_class(client, name="7B") -> tuple[int, str]:
    r = post(client, "/en/teach/classes/", {"class-name": name}, page="/en/teach/")
    cid = int(re.search(r"/classes/(\d+)", r.headers["Location"]).group(1))
    code = re.search(r'class="join-code">([A-Z0-9]+)<', client.get(f"/en/teach/classes/{cid}").text).group(1)
    return cid, code


def assign(client, cid: int, qid: int) -> int:
    r = post(client, f"/en/teach/classes/{cid}", {"what": f"quiz:{qid}", "due": DUE})
    assert r.status_code == 302, r.text
    with client.application.app_context():
        db = client.application.extensions["tutor_db"]()
        aid = db.scalars(select(Assignment.id).where(Assignment.classroom_id == cid)).all()[-1]
        db.close()
    return aid


def join(client, code: str, nickname: str):
    r = post(client, "/en/join", {"code": code.lower(), "nickname": nickname})
    assert r.status_code == 302, r.text


def quiz_doc(app, qid: int) -> dict:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        doc = db.get(TeacherQuiz, qid).doc
        db.close()
    return doc


def answer(client, cid, aid, n, fields):
    url = f"/en/classes/{cid}/assignments/{aid}/{n}"
    return client.post(url, data={"csrf_token": csrf_of(client.get(url).text), **fields})


def class_with_quiz(app):
    """A teacher (ana, logged in) with a quiz of two questions assigned to a new class: ``(client,
    quiz id, class id, join code, assignment id)``."""
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    assert add_generated(t, qid, seed=7).status_code == 302
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    return t, qid, cid, code, aid
