"""The device page in Chromium, en and fa: axe-core finds no violation with a code shown and with
a form error; a second browser opens the link, confirms with the keyboard and gets the progress."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect
from web_support import BOTH_DIRECTIONS


def _violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in results.response["violations"]]


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_device_page_axe_and_a_second_browser(browser: Browser, live, lang):
    base, _app = live
    first = browser.new_context(viewport={"width": 390, "height": 900})
    page = first.new_page()
    page.goto(f"{base}/{lang}/device/")
    assert _violations(page) == []
    page.click("form[action$='/device/new'] button")
    code = page.locator(".code-shown strong").inner_text()
    link = page.locator(".code-link a").get_attribute("href")
    assert link.endswith(f"/{lang}/device/?code={code}")
    assert _violations(page) == []
    if lang == "fa":
        assert page.locator("html").get_attribute("dir") == "rtl"

    second = browser.new_context(viewport={"width": 1280, "height": 900})
    other = second.new_page()
    other.goto(f"{base}/{lang}/device/")
    other.fill("#code", "not-a-code")
    other.click(".redeem-form button[type=submit]")
    error = other.locator("#code-error")
    expect(error).to_be_visible()
    assert other.locator("#code").get_attribute("aria-describedby") == "code-error"
    assert _violations(other) == []

    other.goto(link)
    expect(other.locator("#code")).to_have_value(code)
    other.focus("#confirm")
    other.keyboard.press("Space")
    other.keyboard.press("Tab")
    other.keyboard.press("Enter")
    other.wait_for_url(f"{base}/{lang}/progress/")
    first.close()
    second.close()
