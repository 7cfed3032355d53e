"""The header in Debian's Chromium, in en, fa (right to left), bg and te: on a 390 px phone the
menu and the languages are folded in a <details> "Menu" (native: no script) that opens with the
keyboard; its links are at least 24 px tall and wide, none overlaps another, nothing scrolls
sideways; on a 1280 px screen the links are in the bar and the phone menu is not there. axe-core
finds nothing wrong either way."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tutor import i18n

LANGS = i18n.LANGUAGES
LINKS = 7  # Games, Practice, Play, Rules, Ask the rules, My progress, My classes

_BOXES = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height, e.textContent.trim()]; })"""


def _overlaps(boxes) -> list[tuple[str, str]]:
    out = []
    for i, (x, y, w, h, a) in enumerate(boxes):
        for (x2, y2, w2, h2, b) in boxes[i + 1:]:
            if x < x2 + w2 - 1 and x2 < x + w - 1 and y < y2 + h2 - 1 and y2 < y + h - 1:
                out.append((a, b))
    return out


def _t(lang: str, message: str) -> str:
    with i18n.using(lang):
        from flask_babel import gettext
        return gettext(message)


@pytest.mark.parametrize("lang", LANGS)
def test_phone_header_is_a_menu_that_opens_with_the_keyboard(browser, live, lang):
    """The menu is a native <details>: no script of the app takes part in opening it."""
    base, app = live
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{base}/{lang}/practice/")
    header = page.locator("header.top")
    assert header.bounding_box()["height"] <= 90  # the brand and the Menu button: one row
    expect(page.locator("header.top > nav.main-nav")).to_be_hidden()
    expect(page.locator("header.top > nav.langs")).to_be_hidden()
    summary = page.locator(".nav-menu summary")
    with app.app_context():
        menu, practice = _t(lang, "Menu"), _t(lang, "Practice")
    assert menu in summary.text_content()
    expect(page.locator(".nav-menu .main-nav a").first).to_be_hidden()
    # the keyboard: skip link, brand, then the Menu button; Enter opens it, Tab goes to its links
    for _ in range(3):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "SUMMARY":
            break
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    links = page.locator(".nav-menu .main-nav a")
    expect(links).to_have_count(LINKS)
    for i in range(LINKS):
        expect(links.nth(i)).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == f"/{lang}/"
    expect(page.locator(".nav-menu .main-nav a[aria-current=page]")).to_have_text(practice)
    boxes = page.evaluate(_BOXES, ".nav-menu summary, .nav-menu a")
    assert len(boxes) == 1 + LINKS + len(i18n.LANGUAGES)
    assert [b[4] for b in boxes if b[2] < 24 or b[3] < 24] == []
    assert _overlaps(boxes) == []
    assert all(b[0] >= 0 and b[0] + b[2] <= 390 for b in boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # a link of the menu goes where it says
    page.locator(".nav-menu .main-nav a").nth(3).click()
    expect(page).to_have_url(f"{base}/{lang}/rules/hokm/")
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_wide_header_has_the_links_in_the_bar(browser, live, lang):
    base, _app = live
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/{lang}/")
    expect(page.locator(".nav-menu")).to_be_hidden()
    bar = page.locator("header.top > nav.main-nav a")
    expect(bar).to_have_count(LINKS)
    for i in range(LINKS):
        expect(bar.nth(i)).to_be_visible()
    boxes = page.evaluate(_BOXES, "header.top > nav a")
    assert [b[4] for b in boxes if b[2] < 24 or b[3] < 24] == []
    assert _overlaps(boxes) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    context.close()
