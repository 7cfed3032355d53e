"""Worksheet pages in Chromium: the PDF link shows its progress (aria-live status, spinner) while
the PDF is built, then saves it; Persian pages run right to left; axe-core finds no violation."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tutor import i18n


@pytest.mark.parametrize("lang", ["en", "fa", "te"])
def test_the_pdf_link_shows_progress_then_saves_the_pdf(page: Page, live, lang):
    base, _ = live
    page.goto(f"{base}/{lang}/worksheet/hokm?count=5&seed=3")
    expect(page.locator("html")).to_have_attribute("dir", i18n.text_direction(lang))
    status = page.locator(".pdf-status")
    expect(status).to_have_attribute("aria-live", "polite")
    link = page.locator("a.pdf-link")
    with i18n.using(lang):
        busy, done = i18n.gettext("Preparing PDF…"), i18n.gettext("The PDF is ready.")
    with page.expect_download(timeout=60_000) as got:
        link.click()
        expect(status).to_have_text(busy)
        expect(status).to_have_class("pdf-status busy")
        expect(link).to_have_attribute("aria-busy", "true")
    download = got.value
    assert download.suggested_filename == f"hokm-worksheet-{lang}-3.pdf"
    with open(download.path(), "rb") as f:
        assert f.read(5) == b"%PDF-"
    expect(status).to_have_text(done)
    expect(link).not_to_have_attribute("aria-busy", "true")


@pytest.mark.parametrize("lang,key", [("en", False), ("fa", True), ("te", False), ("bg", True)])
def test_worksheet_pages_pass_axe(page: Page, live, lang, key):
    base, _ = live
    page.goto(f"{base}/{lang}/worksheet/all-fours?count=10&seed=5" + ("&key=1" if key else ""))
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()
    assert page.locator("section.q").count() == 10
    # every card face is named for a screen reader
    names = page.locator(".cardbox").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert names and all(names)
