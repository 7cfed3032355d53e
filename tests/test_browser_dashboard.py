"""The progress dashboard in Chromium: a learner's history made through the app's own forms, then
the dashboard in every language at a phone's and a desktop's width: axe-core finds no violation,
nothing is wider than the screen, the charts are drawn and mirrored in Persian, and adaptive
practice runs from the practice page."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from web_support import BOTH_DIRECTIONS, expected, form_for, wrong_value

from tutor import i18n
from tutor.web import exercises as X

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def answer(page: Page, base: str, step, ex, right: bool) -> None:
    """Answer a lesson exercise through its form (the browser's own cookies, as a learner's)."""
    html = page.request.get(f"{base}/en/learn/{step.ruleset}/{step.id}").text()
    value = expected(ex) if right else wrong_value(ex, expected(ex))
    body = urlencode(form_for(ex, value) | {"csrf_token": CSRF.search(html).group(1)}, doseq=True)
    r = page.request.post(f"{base}/en/learn/{step.ruleset}/{step.id}/{ex.id}", data=body, max_redirects=0,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status == 302


def history(page: Page, base: str, app) -> None:
    with app.test_request_context("/en/"):
        items = [it for g in ("hokm", "trinidad")
                 for it in [(s, e) for s in X.lesson_path(g).steps for e in s.exercises][:12]]
    for i, (s, e) in enumerate(items):
        answer(page, base, s, e, right=i % 3 != 0)


@pytest.mark.parametrize("width", [390, 1280])
def test_dashboard_in_every_language_has_no_axe_violation(page: Page, live, width):
    base, app = live
    page.set_viewport_size({"width": width, "height": 900})
    history(page, base, app)
    axe = Axe()
    for lang in i18n.LANGUAGES:
        page.goto(f"{base}/{lang}/progress/")
        expect(page.locator(".stat-accuracy")).to_have_text(re.compile(r"\S+"))
        assert page.locator(".mastery-games svg rect.bar").count() == 2
        assert page.locator(".accuracy-weeks svg rect.bar").count() >= 1
        page.locator(".skills-game summary").first.click()  # a folded chart, opened
        expect(page.locator(".mastery-skills svg").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        results = axe.run(page)
        assert results.violations_count == 0, (lang, width, results.generate_report())
        if lang == "fa":
            assert page.locator("html").get_attribute("dir") == "rtl"
            bar = page.locator(".mastery-games svg rect.bar").first.bounding_box()
            track = page.locator(".mastery-games svg rect.track").first.bounding_box()
            assert abs((bar["x"] + bar["width"]) - (track["x"] + track["width"])) < 1  # grows from the right


def test_adaptive_practice_from_the_practice_page(page: Page, live):
    base, _app = live
    page.goto(f"{base}/en/practice/")
    form = page.locator("form.adaptive")
    form.get_by_label("Harder").check()
    form.get_by_role("button", name="Start practising").click()
    expect(page).to_have_url(re.compile(r"/en/quiz/[^/]+/1$"))
    expect(page.locator(".quiz-origin")).to_have_text(
        re.compile("A review that is due|A rule you find hard|Something new"))
    assert Axe().run(page).violations_count == 0
    for lang in BOTH_DIRECTIONS:
        page.goto(f"{base}/{lang}/practice/rule/H14")
        expect(page.locator(".rule-id")).to_have_text("H14")
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
