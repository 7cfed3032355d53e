"""Play a whole deal in Debian's Chromium (pytest-playwright) against a live server: a full Hokm
round and a full Trinidad hand to the end, each with one illegal card refused with the engine's
reason, the final score explanation checked against the engine; a few moves with JavaScript
off; a card played with the keyboard alone; axe-core finds no violation on the play page."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import parse_qs, urlparse

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from web_support import BOTH_DIRECTIONS

from tutor import i18n
from tutor.engine.play import card_token, replay
from tutor.engine.rulesets import RULESETS

DEALS = {"hokm": (4, "opponent", 11), "trinidad": (4, "eldest", 1)}


def coach_of(ruleset, players):
    info = RULESETS[ruleset]
    return info.coach({"players": players} if "players" in info.options_model.__pydantic_fields__ else {})


def deal_of(page: Page, ruleset: str):
    q = parse_qs(urlparse(page.url).query)
    players, role, seed = int(q["players"][0]), q["role"][0], int(q["seed"][0])
    coach = coach_of(ruleset, players)
    actions = [t for t in q.get("a", [""])[0].split(".") if t]
    return coach, replay(coach, seed, None, actions, role)


def move(page: Page, selector: str, keyboard: bool = False) -> None:
    """Choose the button ``selector`` and wait for the page to show the next state."""
    old = page.locator("#play").get_attribute("data-url")
    if keyboard:
        page.locator(selector).focus()
        page.keyboard.press("Enter")
    else:
        page.locator(selector).click()
    moved_on(page, old)


def moved_on(page: Page, old: str | None) -> None:
    """Wait until the play area's deal address is no longer ``old`` (a locator, not
    wait_for_function: its polling evals a string, which the CSP forbids)."""
    expect(page.locator(f"#play[data-url]:not([data-url={json.dumps(old or '')}])")).to_have_count(1)


def good_token(coach, d) -> str:
    choices = coach.choices(d.state, d.you)
    if choices:
        return choices[0][0]
    return coach.token(coach.bot(d.state, d.you, random.Random(0), d.played))


def illegal_card(coach, d) -> int | None:
    if coach.card_mode(d.state) != "play":
        return None
    bad = d.hand(d.you) & ~coach.legal_cards(d.state, d.you)
    return (bad & -bad).bit_length() - 1 if bad else None


@pytest.mark.parametrize("ruleset", list(DEALS))
def test_a_whole_deal_to_the_end_with_one_refused_card(page: Page, live, ruleset):
    base, _app = live
    players, role, seed = DEALS[ruleset]
    lang = "en"
    page.goto(f"{base}/{lang}/play/{ruleset}?players={players}&role={role}&seed={seed}")
    page.evaluate("window.__samePage = 1")
    refused = False
    for _ in range(80):
        if page.locator("#story-h").count():
            break
        coach, d = deal_of(page, ruleset)
        bad = illegal_card(coach, d)
        if bad is not None and not refused:
            move(page, f"button.play-card[value='{card_token(bad)}']")
            why = coach.engine.apply  # the engine's own verdict on that card
            try:
                why(d.state, coach.parse(card_token(bad), d.state, d.you))
            except Exception as e:  # noqa: BLE001 - IllegalPlayError, checked below
                reason = e.reason
            with i18n.using(lang):
                text = i18n.render_reason(reason, you=d.you, players=players, ruleset=ruleset)
            expect(page.locator("#refusal")).to_contain_text(text)
            expect(page.locator("#refusal")).to_be_focused()
            refused = True
            continue
        move(page, f"#play button[value='{good_token(coach, d)}']")
    assert refused
    coach, d = deal_of(page, ruleset)
    assert d.over
    with i18n.using(lang):
        story = [i18n.render_reason(r, you=d.you, players=players, ruleset=ruleset) for r in d.story()]
    expect(page.locator(".story-lines li")).to_have_text(story)
    codes = [r.code for r in d.story()]
    assert "side-score" in codes and ("round-win" in codes or "round-kot" in codes or "high-dealt" in codes
                                       or "round-hakem-kot" in codes)
    assert page.evaluate("window.__samePage") == 1  # no page load on the way
    # a finished trick is explained, and the deal replays trick by trick
    first = page.locator(".trick-line").first
    first.locator("summary").click()
    with i18n.using(lang):
        expect(first.locator(".why-won p")).to_have_text(
            i18n.render_reason(d.tricks[0].reason, you=d.you, players=players, ruleset=ruleset))
    page.locator("a", has_text="Replay the deal trick by trick").click()
    expect(page.locator(".replay-nav")).to_contain_text(f"Trick 1 of {len(d.tricks)}")
    page.locator("a", has_text="Next trick").click()
    expect(page.locator(".replay-nav")).to_contain_text(f"Trick 2 of {len(d.tricks)}")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_moves_and_a_refusal_without_javascript(browser, live):
    base, _app = live
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    players, role, seed = DEALS["hokm"]
    page.goto(f"{base}/fa/play/hokm?players={players}&role={role}&seed={seed}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    refused = False
    for _ in range(6):
        coach, d = deal_of(page, "hokm")
        bad = illegal_card(coach, d)
        if bad is not None and not refused:
            page.locator(f"button.play-card[value='{card_token(bad)}']").click()
            expect(page.locator("#refusal")).to_be_visible()
            try:
                coach.engine.apply(d.state, coach.parse(card_token(bad), d.state, d.you))
            except Exception as e:  # noqa: BLE001 - IllegalPlayError
                reason = e.reason
            with i18n.using("fa"):
                text = i18n.render_reason(reason, you=d.you, players=players, ruleset="hokm")
            expect(page.locator("#refusal")).to_contain_text(text)
            refused = True
            continue
        before = len(d.learner_actions)
        page.locator(f"#play button[value='{good_token(coach, d)}']").click()
        page.wait_for_load_state()
        assert len(deal_of(page, "hokm")[1].learner_actions) == before + 1
    assert refused
    context.close()


def test_a_card_is_played_with_the_keyboard_alone(page: Page, live):
    base, _app = live
    page.goto(f"{base}/bg/play/trinidad?players=2&role=eldest&seed=3")
    for _ in range(3):
        coach, d = deal_of(page, "trinidad")
        if coach.card_mode(d.state) == "play":
            break
        move(page, f"#play button[value='{good_token(coach, d)}']", keyboard=True)
    coach, d = deal_of(page, "trinidad")
    assert coach.card_mode(d.state) == "play"
    token = good_token(coach, d)
    page.locator("body").focus()
    for _ in range(80):  # Tab through the page to the card, as a keyboard user does
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.value") == token:
            break
    else:
        pytest.fail("the card cannot be reached with Tab")
    old = page.locator("#play").get_attribute("data-url")
    page.keyboard.press("Enter")
    moved_on(page, old)
    assert deal_of(page, "trinidad")[1].learner_actions[-1] == token
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_the_setup_page_passes_axe_and_deals(page: Page, live, lang):
    base, _app = live
    page.goto(f"{base}/{lang}/play/")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.locator("form").nth(2).locator("input[name=seed]").fill("۱۲" if lang == "fa" else "12")
    page.locator("form").nth(2).locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/play/trinidad\?players=4&role=eldest&seed=12$"))
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
