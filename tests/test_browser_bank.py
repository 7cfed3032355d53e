"""The question bank and a drawn assignment in Chromium (issue 18): the teacher's bank page (a
category, a tag, the draw form with its message) and a learner's drawn question, at 390 px and
1280 px, in a left-to-right and a right-to-left language: no horizontal scroll of the page, axe-core
finds no violation. Screenshots go to ``$TUTOR_SHOTS`` when it is set (a folder), to look at.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from teach_support import DUE, TRICK
from web_support import BOTH_DIRECTIONS, csrf_of

from tutor.domain.models import Assignment, Teacher
from tutor.web.accounts import add_teacher

PASSWORD = "bank-password-1"
WIDTHS = (390, 1280)


def _post(client, url: str, data: dict, page: str):
    return client.post(url, data={"csrf_token": csrf_of(client.get(page).text), **data})


def _setup(app, name: str) -> tuple[int, str, int]:
    """Teacher ``name`` with a quiz (a Hokm trick and four generated legal-cards questions, one of
    them tagged) and a class assigned a draw of 2 legal-cards questions: (class, join code, draw)."""
    with app.app_context():
        db = app.extensions["tutor_db"]()
        if db.scalar(select(Teacher).where(Teacher.name == name)) is None:
            add_teacher(db, name, PASSWORD)
            db.commit()
        db.close()
    t = app.test_client()
    assert _post(t, "/en/teach/login", {"name": name, "password": PASSWORD}, "/en/teach/login").status_code == 302
    r = _post(t, "/en/teach/quizzes/", {"quiz-title": f"Bank {name}"}, "/en/teach/")
    qid = int(re.search(r"/quizzes/(\d+)", r.headers["Location"]).group(1))
    quiz = f"/en/teach/quizzes/{qid}"
    assert _post(t, f"{quiz}/authored", {"kind": "trick-winner", "scenario": json.dumps(TRICK), "key": "4",
                                          "difficulty": "1", "points": "1"}, quiz).status_code == 302
    for seed in (21, 22, 23, 24):
        assert _post(t, f"{quiz}/generated", {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1",
                                              "g-seed": str(seed), "g-points": "1", "action": "add"},
                     quiz).status_code == 302
    bank = t.get("/en/teach/bank").text
    question = re.findall(r'name="question" value="([^"]+)"', bank)[1]
    assert _post(t, "/en/teach/bank/tags", {"quiz": str(qid), "question": question, "tag": "یار و حکم",
                                            "action": "add"}, "/en/teach/bank").status_code == 302
    r = _post(t, "/en/teach/classes/", {"class-name": f"Class {name}"}, "/en/teach/")
    cid = int(re.search(r"/classes/(\d+)", r.headers["Location"]).group(1))
    code = re.search(r'class="join-code">([A-Z0-9]+)<', t.get(f"/en/teach/classes/{cid}").text).group(1)
    assert _post(t, "/en/teach/bank/draw?kind=legal-cards", {"classroom": str(cid), "n": "2", "due": DUE},
                 "/en/teach/bank").status_code == 302
    with app.app_context():
        db = app.extensions["tutor_db"]()
        aid = db.scalars(select(Assignment.id).where(Assignment.classroom_id == cid)).one()
        db.close()
    return cid, code, aid


def _look(page: Page, name: str, axe) -> None:
    """At each width: no horizontal scroll of the page, a screenshot, axe-core's 0 violations."""
    shots = os.environ.get("TUTOR_SHOTS")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (name, width, overflow)
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{name}-{width}.png", full_page=True)
        result = axe.run(page)
        assert result.violations_count == 0, (name, width, result.generate_report())


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_bank_and_drawn_question_pages(page: Page, live, browser, lang):
    from axe_playwright_python.sync_playwright import Axe

    base, app = live
    name = f"bank-{lang}"
    cid, code, aid = _setup(app, name)
    axe = Axe()
    page.goto(f"{base}/{lang}/teach/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/$"))
    page.goto(f"{base}/{lang}/teach/bank?kind=legal-cards")
    expect(page.locator(".bank-list > li")).to_have_count(4)
    expect(page.locator(".tag-chip")).to_have_count(1)
    expect(page.locator(".rule-chip").first).to_be_visible()
    _look(page, f"bank-{lang}", axe)
    # the draw form refused (more questions than the category holds): the message beside the field
    page.fill("#n", "9")
    page.locator("#h-draw ~ form button[type=submit]").click()
    expect(page.locator("#n-error")).to_be_visible()
    expect(page.locator("#n")).to_have_attribute("aria-invalid", "true")
    _look(page, f"bank-refused-{lang}", axe)
    learner = browser.new_page()
    learner.goto(f"{base}/{lang}/join?code={code}")
    learner.fill("#nickname", "Omid")
    learner.locator("form.panel button[type=submit]").click()
    learner.goto(f"{base}/{lang}/classes/{cid}/assignments/{aid}/")
    expect(learner).to_have_url(re.compile(rf"/assignments/{aid}/1$"))
    expect(learner.locator("form.answer-form")).to_be_visible()
    _look(learner, f"drawn-{lang}", axe)
    learner.close()
