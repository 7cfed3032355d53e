"""Joining a class is limited per class (a correct code) and per address (codes that name no
class: guesses), not per address alone: a school's learners share one address (issue 18)."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html
from sqlalchemy import func, select
from web_support import HIGH_LIMITS, counted, csrf_of, dispose, make_app

from tutor.domain.models import Classroom, Membership, Teacher

pytestmark = pytest.mark.both_databases

SCHOOL = "203.0.113.7"  # every learner of the school behind this one address


@pytest.fixture
def app_config():
    """The joins at their default limits (``join``: 200 per class per 10 minutes, ``join-guess``:
    10 a minute per address), every other action out of the way."""
    kept = ("redeem", "join", "join-guess")
    return {"RATE_LIMITS": {a: v for a, v in HIGH_LIMITS.items() if a not in kept}}


def _classes(app, *codes: str) -> None:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        teacher = Teacher(name="ana", password_hash="-")
        db.add(teacher)
        db.flush()
        for i, code in enumerate(codes):
            db.add(Classroom(teacher_id=teacher.id, name=f"7{i}", code=code))
        db.commit()
        db.close()


def _members(app, code: str) -> int:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        n = db.scalar(select(func.count()).select_from(Membership).join(Classroom, Classroom.id == Membership.classroom_id)
                      .where(Classroom.code == code))
        db.close()
    return int(n or 0)


def _join(client, code: str, nickname: str, address: str = SCHOOL):
    token = csrf_of(client.get("/en/join", environ_base={"REMOTE_ADDR": address}).text)
    return client.post("/en/join", data={"csrf_token": token, "code": code, "nickname": nickname},
                       environ_base={"REMOTE_ADDR": address})


def test_forty_learners_behind_one_address_all_join_one_class(app):
    _classes(app, "ABCD2345")
    statuses = [_join(app.test_client(), "abcd 2345", f"Learner {i}").status_code for i in range(40)]
    assert statuses == [302] * 40  # per address at 5 a minute, 35 of these were 429
    assert _members(app, "ABCD2345") == 40


def test_guessing_codes_from_one_address_is_stopped(app, limiter_clock):
    _classes(app, "ABCD2345")
    guesser = app.test_client()
    statuses = [_join(guesser, f"WRONG{i:03}", "Zari").status_code for i in range(10)]
    assert statuses == [400] * 10
    r = _join(guesser, "WRONG010", "Zari")
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    doc = lxml_html.fromstring(r.text)  # the form again, what was typed kept, the message beside the code
    assert doc.get_element_by_id("code").get("value") == "WRONG010"
    assert doc.get_element_by_id("nickname").get("value") == "Zari"
    assert doc.get_element_by_id("code-error").text_content() == (
        "Too many requests in a short time. Wait a little, then try again.")
    # once over, a right code from that address waits too (else a 302 among the 429s would tell
    # the guesser which code is right); from another address it joins
    assert _join(app.test_client(), "ABCD2345", "Mina").status_code == 429
    assert _join(app.test_client(), "ABCD2345", "Mina", address="198.51.100.2").status_code == 302
    limiter_clock.advance(61)
    assert _join(app.test_client(), "ABCD2345", "Reza").status_code == 302
    assert _members(app, "ABCD2345") == 2


def test_right_codes_and_taken_nicknames_are_not_counted_as_guesses(app):
    _classes(app, "ABCD2345")
    client = app.test_client()
    assert _join(client, "ABCD2345", "Zari").status_code == 302
    other = app.test_client()
    statuses = [_join(other, "ABCD2345", "Zari").status_code for _ in range(12)]  # the nickname is taken
    assert statuses == [400] * 12
    assert _join(other, "NOPE", "Mina").status_code == 400  # the address still has its 10 guesses


def test_a_class_has_its_own_budget_from_every_address(tmp_path, app_database):
    app = make_app(tmp_path, DATABASE_URL=app_database, RATE_LIMITS=HIGH_LIMITS | {"join": counted("3/day")})
    try:
        _classes(app, "ABCD2345", "WXYZ6789")
        statuses = [_join(app.test_client(), "ABCD2345", f"L{i}", address=f"198.51.100.{i + 1}").status_code
                    for i in range(4)]
        assert statuses == [302, 302, 302, 429]  # four addresses, one class: the fourth join waits
        assert _join(app.test_client(), "WXYZ6789", "L9", address="198.51.100.9").status_code == 302
        assert _members(app, "ABCD2345") == 3
    finally:
        dispose(app)
