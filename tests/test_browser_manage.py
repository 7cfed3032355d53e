"""Management for teachers in Chromium (issue 18): the class page with its members, a removed
learner, an unassigned assignment and the new-join-code button, and the delete confirmation that
names the answers lost, and the page of archived things, at a phone's and a desktop's width in English and Persian: axe-core finds
no violation and nothing is wider than the screen; the confirmation refuses a delete without the
box ticked (the message beside it) and deletes once it is ticked. Screenshots in
/tmp/manage18-shots/ (or $TUTOR_SHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from sqlalchemy import select
from teach_support import PASSWORDS, answer, class_with_quiz, join, login, post
from web_support import BOTH_DIRECTIONS

from tutor.domain.models import Classroom, Membership, Teacher
from tutor.web.accounts import add_teacher

SHOTS = Path(os.environ.get("TUTOR_SHOTS", "/tmp/manage18-shots"))


def _ana(app) -> None:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        if db.scalar(select(Teacher).where(Teacher.name == "ana")) is None:
            add_teacher(db, "ana", PASSWORDS["ana"])
            db.commit()
        db.close()


def _managed_class(app) -> tuple[int, int, int]:
    """ana's class with two learners who answered, one of them removed, and a second assignment
    unassigned, and its quiz archived: ``(class id, answers given, quiz id)``."""
    _ana(app)
    t, qid, cid, code, aid = class_with_quiz(app)
    for nick in ("Zari", "Omid"):
        learner = app.test_client()
        join(learner, code, nick)
        assert answer(learner, cid, aid, 1, {"seat": "3"}).status_code == 302
    with app.app_context():
        db = app.extensions["tutor_db"]()
        mid = db.scalar(select(Membership.id).where(Membership.classroom_id == cid, Membership.nickname == "Omid"))
        db.close()
    assert post(t, f"/en/teach/classes/{cid}/members/{mid}", {"action": "remove"}).status_code == 302
    r = post(t, f"/en/teach/classes/{cid}", {"what": "unit:hokm:1"})
    assert r.status_code == 302, r.text
    with app.app_context():
        db = app.extensions["tutor_db"]()
        from tutor.domain.models import Assignment
        unit = db.scalars(select(Assignment.id).where(Assignment.classroom_id == cid)).all()[-1]
        db.close()
    assert post(t, f"/en/teach/classes/{cid}/assignments/{unit}/assigned", {"action": "unassign"}).status_code == 302
    assert post(t, f"/en/teach/quizzes/{qid}/archive", {"action": "archive"}).status_code == 302
    return cid, 2, qid


def _log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/en/teach/login")
    page.fill("#name", "ana")
    page.fill("#password", PASSWORDS["ana"])
    page.locator("form.panel button[type=submit]").click()
    expect(page).to_have_url(f"{base}/en/teach/")


def _check(page: Page, width: int, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    result = Axe().run(page)
    assert result.violations_count == 0, (name, result.generate_report())


@pytest.mark.parametrize("width", [390, 1280])
def test_class_page_and_delete_confirmation_in_both_directions(page: Page, live, width):
    base, app = live
    cid, answers, qid = _managed_class(app)
    page.set_viewport_size({"width": width, "height": 900})
    _log_in(page, base)
    for lang in BOTH_DIRECTIONS:
        page.goto(f"{base}/{lang}/teach/classes/{cid}")
        expect(page.locator(".removed-list li")).to_have_count(1)
        expect(page.locator(".unassigned-list li")).to_have_count(1)
        expect(page.locator("button[value=renew]")).to_be_visible()
        expect(page.locator("button[value=remove]")).to_have_count(1)
        _check(page, width, f"class-{lang}-{width}")
        page.goto(f"{base}/{lang}/teach/archived")
        expect(page.locator(f"a[href='/{lang}/teach/quizzes/{qid}']")).to_have_count(1)
        _check(page, width, f"archived-{lang}-{width}")
        page.goto(f"{base}/{lang}/teach/quizzes/{qid}")
        expect(page.locator(".archived-note")).to_be_visible()
        expect(page.locator("button[value=unarchive]")).to_be_visible()
        _check(page, width, f"quiz-archived-{lang}-{width}")
        page.goto(f"{base}/{lang}/teach/classes/{cid}/delete")
        expect(page.locator("#confirm")).to_be_visible()
        _check(page, width, f"delete-{lang}-{width}")
        if lang == "fa":
            assert page.locator("html").get_attribute("dir") == "rtl"
            assert "۲" in page.locator(".confirm-delete").inner_text()  # the count in Persian digits
            page.locator("button.danger").click()  # not ticked: refused, the message beside the box
            expect(page.locator("#confirm-error")).to_be_visible()
            expect(page.locator("#confirm")).to_have_attribute("aria-invalid", "true")
            _check(page, width, f"delete-refused-{lang}-{width}")
    page.goto(f"{base}/en/teach/classes/{cid}/delete")
    expect(page.locator("label[for=confirm]")).to_have_text(f"Yes, delete it and lose {answers} answers")
    page.locator("#confirm").check()
    page.locator("button.danger").click()
    expect(page).to_have_url(f"{base}/en/teach/")
    with app.app_context():
        db = app.extensions["tutor_db"]()
        assert db.get(Classroom, cid) is None
        db.close()
    assert login(app.test_client(), "ana").get(f"/en/teach/classes/{cid}").status_code == 404
