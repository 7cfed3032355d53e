"""A live session in Chromium: the teacher runs a class quiz live from the class page; the
learner's phone page follows by itself (EventSource, static/live.js) from the lobby to the
question and to the result; the teacher's live bar and leaderboard change in place as the answer
comes in, without a reload. The teacher's screen and the learner's page at 390 and 1280 px, in
English and Persian, pass axe-core with no violation; the screenshots go to /tmp/live18-shots/."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlalchemy import select
from teach_support import PASSWORDS, class_with_quiz, quiz_doc
from web_support import form_for

from tutor.content import kinds
from tutor.domain.models import Teacher
from tutor.domain.quizdoc import exercise_of
from tutor.web.accounts import add_teacher

SHOTS = Path("/tmp/live18-shots")


def _ana(app) -> None:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        if db.scalar(select(Teacher).where(Teacher.name == "ana")) is None:
            add_teacher(db, "ana", PASSWORDS["ana"])
            db.commit()
        db.close()


def _look(page: Page, name: str) -> None:
    """axe-core finds nothing on the page at 390 and 1280 px; a screenshot of each, and the page
    never scrolls sideways."""
    from axe_playwright_python.sync_playwright import Axe

    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (name, width)
        result = Axe().run(page)
        assert result.violations_count == 0, (name, width, result.generate_report())


def test_a_live_session_in_the_browser(browser, live):
    base, app = live
    _ana(app)
    _t, qid, cid, code, _aid = class_with_quiz(app)
    teacher = browser.new_page()
    teacher.goto(f"{base}/en/teach/login")
    teacher.fill("#name", "ana")
    teacher.fill("#password", PASSWORDS["ana"])
    teacher.locator("form.panel button[type=submit]").click()
    teacher.goto(f"{base}/en/teach/classes/{cid}")
    teacher.get_by_role("button", name="Run it live").click()
    expect(teacher).to_have_url(re.compile(r"/en/teach/live/\d+$"))
    sid = int(teacher.url.rsplit("/", 1)[1])

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/en/join?code={code}")
    phone.fill("#nickname", "Shirin")
    phone.locator("form.panel button[type=submit]").click()
    phone.goto(f"{base}/en/classes/")
    phone.get_by_role("link", name="Live quiz").first.click()
    expect(phone.locator(".live-wait")).to_contain_text("Wait for your teacher to show the first question.")
    expect(teacher.locator(".live-count")).to_have_text("Learners in the class: 1", timeout=15000)  # joined after the page opened: seen at the stream's next read

    teacher.get_by_role("button", name="Show the first question").click()
    # the phone follows by itself (its event stream), no click on it
    expect(phone.locator("form.answer-form")).to_be_visible(timeout=15000)
    expect(phone.locator(".quiz-head")).to_contain_text("Question 1 of 2")
    assert phone.locator(".verdict").count() == 0 and "The right answer" not in phone.content()
    _look(phone, "learner-question-en")
    _look(teacher, "teacher-question-en")
    teacher.set_viewport_size({"width": 1280, "height": 900})
    expect(teacher.locator(".live-count")).to_have_text("0 of 1 answered")

    teacher.evaluate("window.liveMark = 1")  # gone if the page loads again
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    for name, value in form_for(ex1, kinds.expected_answer(ex1)[0]).items():
        phone.locator(f"label:has(> input[name='{name}'][value='{value}'])").click()
    phone.locator("form.answer-form button[type=submit]").click()
    expect(phone.locator(".live-received")).to_contain_text("Your answer is in.")
    expect(teacher.locator(".live-count")).to_have_text("1 of 1 answered", timeout=15000)  # in place
    assert teacher.evaluate("window.liveMark") == 1  # not reloaded
    assert teacher.locator(".live-bars").count() == 0  # the answers given wait for the reveal

    teacher.get_by_role("button", name="Close and show the result").click()
    expect(teacher.locator(".live-bars li.is-right")).to_have_count(1)
    expect(teacher.locator(".live-board li").first).to_contain_text("Shirin")
    expect(phone.locator(".verdict")).to_be_visible(timeout=15000)
    expect(phone.locator(".live-me")).to_have_text("You: place 1, 1 point")
    _look(phone, "learner-revealed-en")
    _look(teacher, "teacher-revealed-en")

    for who, path, name in ((phone, f"/fa/classes/{cid}/live", "learner-revealed-fa"),
                            (teacher, f"/fa/teach/live/{sid}", "teacher-revealed-fa")):
        who.goto(base + path)
        expect(who.locator("html")).to_have_attribute("dir", "rtl")
        _look(who, name)
    teacher.get_by_role("button", name="سؤال بعدی").click()  # "Next question"
    expect(phone.locator("form.answer-form")).to_be_visible(timeout=15000)
    expect(phone.locator(".quiz-head")).to_contain_text("سؤال ۲ از ۲")
    _look(phone, "learner-question-fa")
    _look(teacher, "teacher-question-fa")
    teacher.close()
    phone.close()
