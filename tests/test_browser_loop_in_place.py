"""In the browser: answering in place (empty submit, partial walk-through, no reload, reduced
motion) and the suit colours switch. Helpers: test_browser_loop.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_browser_loop import LANGS, css, give, step_of, t, walk_step
from web_support import BOTH_DIRECTIONS, expected, form_for

# ----------------------------------------------------------------------------- in place

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("js", [True, False])
def test_empty_submit_keeps_the_learner_in_place(browser, live, lang, js):
    base, _app = live
    context = browser.new_context(java_script_enabled=js, viewport={"width": 390, "height": 844})
    page = context.new_page()
    step = step_of("hokm", lang, lambda s: any(e.kind == "round-score" for e in s.exercises))
    ex = next(e for e in step.exercises if e.kind == "round-score")
    url = f"{base}/{lang}/learn/hokm/{step.id}"
    page.goto(url)
    section = page.locator(f"#ex-{ex.id}")
    section.locator("button[type=submit]").scroll_into_view_if_needed()
    if js:
        page.evaluate("window.tutorMarker = 'kept'")
    section.locator("button[type=submit]").click()
    error = page.locator(f"#err-{ex.id}")
    expect(error).to_be_visible()
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_have_text(t(lang, "Give the number of points."))
    # beside the form: inside the exercise's form, just above its button, and on screen
    expect(section.locator(f"form.answer-form #err-{ex.id}")).to_have_count(1)
    expect(error).to_be_in_viewport()
    if js:
        assert page.url == url
        assert page.evaluate("window.tutorMarker") == "kept"
        assert page.evaluate("document.activeElement.id") == f"err-{ex.id}"
    else:
        assert page.url.endswith(f"#ex-{ex.id}")
    # an invalid answer keeps what was chosen: a walk-through with two tricks picked
    context.close()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_partial_walk_through_keeps_the_picks_without_js(browser, live, lang):
    base, _app = live
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    step = walk_step("hokm", lang)
    ex = next(e for e in step.exercises if e.kind == "walk-through")
    fields = form_for(ex, expected(ex))
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    for i in range(2):
        section.locator(f"label:has(> input[name='t{i}'][value='{fields[f't{i}']}'])").click()
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#err-{ex.id}")).to_be_visible()
    for i in range(2):
        expect(page.locator(f"#ex-{ex.id} input[name='t{i}'][value='{fields[f't{i}']}']")).to_be_checked()
    context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("js", [True, False])
def test_answering_changes_no_url_and_reloads_no_page(browser, live, lang, js):
    base, _app = live
    context = browser.new_context(java_script_enabled=js)
    page = context.new_page()
    step = step_of("hokm", lang, lambda s: any(e.kind == "trick-winner" for e in s.exercises))
    ex = next(e for e in step.exercises if e.kind == "trick-winner")
    url = f"{base}/{lang}/learn/hokm/{step.id}"
    page.goto(url)
    if js:
        page.evaluate("window.tutorMarker = 'kept'")
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, expected(ex))
    section.locator("button[type=submit]").click()
    verdict = page.locator(f"#ex-{ex.id} .verdict.good")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text(t(lang, "Right!"))
    expect(verdict).to_be_in_viewport()
    if js:
        assert page.url == url  # no new URL
        assert page.evaluate("window.tutorMarker") == "kept"  # no reload
        assert page.evaluate("document.activeElement.id") == f"verdict-{ex.id}"
    else:
        assert re.search(rf"\?a=\d+#ex-{ex.id}$", page.url)
    # a right answer: Continue, and the full explanation open
    expect(page.locator(f"#ex-{ex.id} a.continue")).to_have_text(t(lang, "Continue"))
    expect(page.locator(f"#ex-{ex.id} details.explain")).to_have_attribute("open", "")
    context.close()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_reduced_motion_has_no_animation(browser, live, lang):
    base, _app = live
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    step = step_of("hokm", lang, lambda s: any(e.kind == "trick-winner" for e in s.exercises))
    ex = next(e for e in step.exercises if e.kind == "trick-winner")
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, expected(ex))
    section.locator("button[type=submit]").click()
    verdict = page.locator(f"#ex-{ex.id} .verdict")
    expect(verdict).to_be_visible()
    expect(page.locator(f"#ex-{ex.id}.arrived")).to_have_count(1)
    assert css(verdict, "animation-name") == "none"
    context.close()
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, expected(ex))
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id}.arrived")).to_have_count(1)
    assert css(page.locator(f"#ex-{ex.id} .verdict"), "animation-name") == "tutor-arrive"
    context.close()


# ----------------------------------------------------------------------------- the suit colours

BLUE = "rgb(29, 79, 184)"         # --blue-suit #1d4fb8, diamonds in four colours


def switch_suit_colours(page: Page) -> None:
    """Send the footer's suit-colour switch as a learner would (the page scrolls to the footer)."""
    page.locator("footer form[action$='/settings'] button[type=submit]").click()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_suit_colours_switch_comes_back_to_the_exercise(browser, live, lang):
    """The footer's switch opens the page again where the learner was: at the exercise linked to
    (the address's fragment), and at the exercise answered in place (the address has none),
    the cards drawn in the other colours."""
    base, _app = live
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    step = step_of("hokm", lang, lambda s: len(s.exercises) >= 2)
    ex = step.exercises[-1]
    url = f"{base}/{lang}/learn/hokm/{step.id}"
    page.goto(url)
    section = page.locator(f"#ex-{ex.id}")
    expect(section).not_to_be_in_viewport()  # far down the page: coming back there is seen
    assert page.locator(".card.s-D").count() > 0
    # linked to: the address's fragment
    page.goto(f"{url}#ex-{ex.id}")
    expect(section).to_be_in_viewport()
    switch_suit_colours(page)
    expect(page).to_have_url(f"{url}#ex-{ex.id}")
    expect(page.locator("body")).to_have_class("four-colour")
    expect(section).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    assert css(page.locator(".card.s-D").first, "color") == BLUE
    # answered in place: the address has no fragment, the exercise answered is the place
    page.goto(url)
    give(section, ex, expected(ex))
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict.good")).to_be_visible()
    assert page.url == url
    switch_suit_colours(page)
    expect(page).to_have_url(f"{url}#ex-{ex.id}")
    expect(page.locator("body")).to_have_class("two-colour")
    expect(section).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    assert css(page.locator(".card.s-D").first, "color") != BLUE
    context.close()


def test_suit_colours_switch_without_js_opens_the_page_again(browser, live):
    """Without JavaScript the switch works as before: the same page (its top), other colours."""
    base, _app = live
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    step = step_of("hokm", "en", lambda s: len(s.exercises) >= 2)
    url = f"{base}/en/learn/hokm/{step.id}"
    page.goto(f"{url}#ex-{step.exercises[-1].id}")
    switch_suit_colours(page)
    expect(page).to_have_url(url)
    expect(page.locator("body")).to_have_class("four-colour")
    assert css(page.locator(".card.s-D").first, "color") == BLUE
    context.close()
