"""The table editor in Debian's Chromium (pytest-playwright), keyboard only: a learner builds a
Hokm trick and an All Fours situation on the "Ask the rules" page and sees the legal cards and
the engine's reason, in English and in Persian (right to left); axe-core finds no violation.

Nothing here clicks: each control is reached with ``focus()`` once (where a learner would Tab to
it) and then used with the keys the page offers (arrow keys, Enter, Delete)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect
from web_support import BOTH_DIRECTIONS

from tutor import i18n
from tutor.solve import solve

SUITS = "SHDC"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def index_of(code: str) -> int:
    return SUITS.index(code[-1]) * 13 + RANKS.index(code[:-1])


def picker_to(page: Page, code: str) -> None:
    """Move the picker's focus to ``code`` with the arrow keys."""
    current = page.locator(".ed-pick[tabindex='0']")
    current.focus()
    at = index_of(current.get_attribute("data-card"))
    want = index_of(code)
    rows = want // 13 - at // 13
    cols = want % 13 - at % 13
    for _ in range(abs(rows)):
        page.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
    for _ in range(abs(cols)):
        page.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
    expect(page.locator(".ed-pick:focus")).to_have_attribute("data-card", code)


def place(page: Page, *codes: str) -> None:
    for code in codes:
        picker_to(page, code)
        page.keyboard.press("Enter")
        expect(page.locator(f".ed-zone .ed-placed[data-key='placed-{code}']")).to_have_count(1)


def take_back(page: Page, *codes: str) -> None:
    for code in codes:
        picker_to(page, code)
        page.keyboard.press("Delete")
        expect(page.locator(f".ed-zone .ed-placed[data-key='placed-{code}']")).to_have_count(0)


def choose_radio(page: Page, group: str, value: str) -> None:
    """Check the radio ``value`` of a radio group (a CSS scope) with the arrow keys."""
    radios = page.locator(f"{group} input[type=radio]")
    values = [radios.nth(i).get_attribute("value") for i in range(radios.count())]
    checked = page.locator(f"{group} input[type=radio]:checked")
    start = values.index(checked.get_attribute("value")) if checked.count() else 0
    radios.nth(start).focus()
    key = "ArrowDown" if values.index(value) >= start else "ArrowUp"
    for _ in range(abs(values.index(value) - start)):
        page.keyboard.press(key)
    expect(page.locator(f"{group} input[type=radio][value='{value}']")).to_be_checked()


def target(page: Page, field: str) -> None:
    choose_radio(page, ".ed-target", field)


def scenario_of(page: Page) -> dict:
    return json.loads(page.locator("textarea[name=scenario]").input_value())


def texts(scenario: dict, lang: str, players: int):
    answer = solve(dict(scenario))
    with i18n.using(lang):
        why = [i18n.render_reason(r, you=0, players=players, ruleset=scenario["ruleset"]) for r in answer["why"]]
        legal = i18n.gettext("may be played")
        illegal = i18n.gettext("may not be played")
        labels = {c: i18n.card_label(c) for c in scenario["hand"]}
    return answer, why, legal, illegal, labels


def check_hand(page: Page, scenario: dict, lang: str, players: int) -> None:
    answer, why, legal, illegal, labels = texts(scenario, lang, players)
    expect(page.locator(".ed-answer .why li").first).to_contain_text(why[0])
    for code in scenario["hand"]:
        mark = legal if code in answer["legal"] else illegal
        button = page.locator(f".ed-zone[data-field=hand] .ed-placed[data-key='placed-{code}']")
        expect(button).to_have_count(1)
        label = button.get_attribute("aria-label")
        assert label.endswith(" — " + mark) and labels[code] in label, label
        expect(button.locator(".ed-mark")).to_have_text("✓" if code in answer["legal"] else "✗")


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_hokm_trick_and_all_fours_situation_by_keyboard(page: Page, live, lang):
    base, _app = live
    page.goto(f"{base}/{lang}/ask")
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)

    # --- Hokm: trump hearts; the partner led the king of clubs, the left-hand opponent played the three
    choose_radio(page, ".ed-fields [data-field=trump]", "H")
    take_back(page, "QH", "4H", "KS", "9C", "2D", "10H", "AH")
    target(page, "trick")
    place(page, "KC", "3C")
    target(page, "hand")
    place(page, "AC", "5C", "AS", "7H")
    hokm = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["AC", "5C", "AS", "7H"], "trick": ["KC", "3C"]}
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
    assert scenario_of(page) == hokm
    check_hand(page, hokm, lang, 4)
    answer = solve(dict(hokm))
    assert answer["legal"] == ["AC", "5C"]
    # the trick is drawn at the seats that played it: the partner (top) led, the left-hand opponent followed
    expect(page.locator(".felt .slot-top [role=img]")).to_have_count(1)
    expect(page.locator(".felt .slot-left [role=img]")).to_have_count(1)

    # --- All Fours (classic, 2 players): the same cards; a trick of two cards is now too long
    game = page.locator(".ed-controls select[data-key=ruleset]")
    game.focus()
    page.keyboard.press("ArrowDown")
    expect(game).to_have_value("all-fours")
    with i18n.using(lang):
        too_long = i18n.gettext("A trick in progress holds at most %(n)s cards (one player still has to play); "
                                "this one has %(have)s.", n=i18n.fmt_number(1), have=i18n.fmt_number(2))
    expect(page.locator(".ed-zone[data-field=trick] .field-error")).to_have_text(too_long)
    take_back(page, "3C")
    allfours = {"ruleset": "all-fours", "ask": "legal-plays", "trump": "H", "hand": ["AC", "5C", "AS", "7H"],
                "trick": ["KC"]}
    expect(page.locator(".ed-zone[data-field=trick] .field-error")).to_have_text("")
    expect(page.locator(".ed-zone[data-field=hand] .ed-mark")).to_have_count(4)
    assert scenario_of(page) == allfours
    check_hand(page, allfours, lang, 2)
    assert solve(dict(allfours))["legal"] == ["AC", "5C", "7H"]  # follow suit or trump (C20)
    expect(page.locator(".ed-answer .why li").first).to_contain_text("(C20)")

    # --- the next question: who wins the trick, once the opponent ruffs with the two of hearts
    question = page.locator(".ed-controls select[data-key=ask]")
    question.focus()
    page.keyboard.press("ArrowDown")
    expect(question).to_have_value("trick-winner")
    with i18n.using(lang):
        short = i18n.gettext("A trick needs exactly %(n)s cards, one from each player; this one has %(have)s.",
                             n=i18n.fmt_number(2), have=i18n.fmt_number(1))
        opponent = i18n.seat_label(1, 0, 2, "all-fours")
    expect(page.locator(".ed-zone[data-field=trick] .field-error")).to_have_text(short)
    place(page, "2H")
    expect(page.locator(".ed-answer dd[data-field=winner]")).to_have_text(opponent)
    expect(page.locator(".felt .card.win")).to_have_count(1)
    assert scenario_of(page) == {"ruleset": "all-fours", "ask": "trick-winner", "trump": "H", "trick": ["KC", "2H"]}
    question.focus()
    page.keyboard.press("ArrowUp")  # back to the legal cards: the hand was kept aside
    expect(page.locator(".ed-zone[data-field=hand] .ed-placed")).to_have_count(4)


def test_pasted_text_that_is_not_json_is_flagged_beside_the_textarea(page: Page, live):
    base, _app = live
    page.goto(f"{base}/fa/ask")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    area = page.locator("textarea[name=scenario]")
    area.fill('{"ruleset": "hokm",')
    area.press("Tab")
    with i18n.using("fa"):
        message = i18n.gettext("This is not JSON: check the brackets, commas and quotes.")
    expect(page.locator("textarea[name=scenario] + .field-error")).to_have_text(message)
    expect(area).to_have_attribute("aria-invalid", "true")
    area.fill('{"ruleset": "trinidad", "ask": "turn-up", "card": "6D"}')
    area.press("Tab")
    expect(page.locator(".ed-answer dd[data-field=points]")).to_have_text("۲")  # a six kicked scores 2 (T7)
    expect(page.locator("textarea[name=scenario] + .field-error")).to_have_text("")


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_ask_page_has_no_axe_violations(page: Page, live, lang):
    from axe_playwright_python.sync_playwright import Axe

    base, _app = live
    page.goto(f"{base}/{lang}/ask")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    page.locator(".ed-options summary").focus()
    page.keyboard.press("Enter")  # the options open too
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_the_editor_as_a_piece_of_another_form_flags_a_wrong_answer_key(page: Page, live):
    """The macro dropped into a teacher's question form: a kind menu restricts the games and
    questions; an answer key that disagrees with the engine is flagged beside its own input."""
    from flask import render_template_string

    base, app = live
    form = """{% from "_editor.html" import editor with context %}<!doctype html><html lang="en"><body><main>
    <form><label for="kind">Kind</label><select id="kind" name="kind"><option value="legal-cards">legal</option>
    <option value="turn-up">turn-up</option></select>
    {{ editor('scenario', value, kind='legal-cards', kind_select='kind', expect_id='expect', heading=3) }}
    <label for="expect">Answer key</label><input id="expect" name="expect" value='{"legal": ["2H", "KH", "5C"]}'>
    </form></main></body></html>"""
    scenario = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}
    with app.test_request_context(f"{base}/en/ask"), i18n.using("en"):
        html = render_template_string(form, value=json.dumps(scenario))
    page.route(f"{base}/en/teacher-form", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base}/en/teacher-form")
    error = page.locator("#expect + .field-error")
    expect(error).to_have_text("The answer key says two of hearts, king of hearts, and five of clubs, "
                               "but the engine says two of hearts and king of hearts.")
    expect(page.locator("#expect")).to_have_attribute("aria-invalid", "true")
    page.locator("#expect").fill('{"legal": ["KH", "2H"]}')
    page.locator("#expect").press("Tab")
    expect(error).to_have_text("")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    # the kind menu: a turn-up question offers only the All Fours games and the turn-up ask
    page.locator("#kind").focus()
    page.keyboard.press("ArrowDown")
    expect(page.locator(".ed-controls select[data-key=ask] option")).to_have_count(1)
    games = page.locator(".ed-controls select[data-key=ruleset] option")
    assert [games.nth(i).get_attribute("value") for i in range(games.count())] == ["all-fours", "trinidad"]
    assert scenario_of(page)["ask"] == "turn-up"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_picker_names_every_card_in_the_language_and_fits_a_phone(page: Page, live, lang):
    base, _app = live
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/{lang}/ask")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    buttons = page.locator(".ed-pick")
    expect(buttons).to_have_count(52)
    labels = buttons.evaluate_all("bs => bs.map(b => [b.dataset.card, b.getAttribute('aria-label')])")
    with i18n.using(lang):
        placed = i18n.gettext("%(card)s, already placed")
        on_table = {"QH", "4H", "KS", "9C", "2D", "10H", "AH"}
        want = [[code, placed % {"card": i18n.card_label(code)} if code in on_table else i18n.card_label(code)]
                for code in (r + s for s in SUITS for r in RANKS)]
    assert labels == want
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".ed-pick[tabindex='0']").count() == 1  # one tab stop for the whole picker


def test_delete_on_a_placed_card_takes_it_back_and_keeps_the_keyboard_there(page: Page, live):
    base, _app = live
    page.goto(f"{base}/en/ask")
    expect(page.locator(".ed-answer .why li")).to_have_count(1)
    hand = page.locator(".ed-zone[data-field=hand] .ed-placed")
    expect(hand.first).to_have_attribute("aria-label", "Remove queen of hearts — may be played")
    hand.first.focus()
    page.keyboard.press("Delete")
    expect(hand).to_have_count(4)
    expect(page.locator(".ed-placed:focus")).to_have_attribute("data-key", "placed-4H")
    page.keyboard.press("Delete")
    expect(page.locator(".ed-placed:focus")).to_have_attribute("data-key", "placed-KS")
    expect(page.locator(".ed-pick[data-card=QH]")).to_have_attribute("aria-label", "queen of hearts")
    assert scenario_of(page)["hand"] == ["KS", "9C", "2D"]
    # no heart left: any card may be played (H15), and the engine says so
    expect(page.locator(".ed-answer .why li").first).to_contain_text("(H15)")
    expect(page.locator(".ed-zone[data-field=hand] .ed-mark.ok")).to_have_count(3)
