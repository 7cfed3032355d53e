"""The rules reference page and linked feedback in Chromium: axe-core reports no violation, in
every language and at phone and desktop widths; a reason's link takes the learner to the point.

Screenshots are written to ``TUTOR_SCREENSHOTS`` (a folder) when that variable is set, for a
person to look at; the assertions do not depend on them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from web_support import BOTH_DIRECTIONS, expected, form_for, lesson_exercise, wrong_value

from tutor import i18n

WIDTHS = (390, 1280)
SHOTS = os.environ.get("TUTOR_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in results.response["violations"]]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_reference_page_has_no_axe_violations(live, browser, lang):
    base, _app = live
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(f"{base}/{lang}/rules/hokm/")
        assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "fa" else "ltr")
        # nothing overflows sideways on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"rules-hokm-{lang}-{width}")
        page.goto(f"{base}/{lang}/rules/hokm/#rule-H14")
        shot(page, f"rules-hokm-H14-{lang}-{width}")
        assert violations(page) == []
        context.close()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_feedback_reason_link_leads_to_its_point(live, browser, lang):
    base, _app = live
    step, ex = lesson_exercise("hokm", "legal-cards")
    wrong = wrong_value(ex, expected(ex))
    fields = form_for(ex, wrong)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    for box in section.locator("input[type=checkbox]").all():  # choose exactly the wrong cards
        want = box.get_attribute("value") in (fields.get(box.get_attribute("name")) or [])
        if box.is_checked() != want:
            box.set_checked(want, force=True)
    section.locator("button[type=submit]").click()
    page.wait_for_load_state()
    # after a wrong answer the learner's own mistake comes first; the reasons, with their links,
    # are in "The full explanation", folded until opened
    explain = page.locator(f"#ex-{ex.id} details.explain")
    assert explain.get_attribute("open") is None
    explain.locator("summary").click()
    link = page.locator(f"#ex-{ex.id} ul.why a.rule-link").first
    link.scroll_into_view_if_needed()
    shot(page, f"feedback-linked-{lang}")
    assert violations(page) == []
    target = link.get_attribute("href")
    link.click()
    page.wait_for_load_state()
    assert page.url.endswith(target)
    point = target.split("#rule-")[1]
    assert page.locator(f"#rule-{point} h3 bdi.rule-id").inner_text() == point
    context.close()
