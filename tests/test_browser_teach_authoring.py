"""The teacher's authoring form in Chromium (issue 18): a fresh form shows no error until it is
sent; the table editor seats the learner and numbers the seats as the preview does; the quiz
page with wrong input keeps the teacher in place with the messages beside the fields; axe-core
finds no violation, at 390 and 1280 px, in English and Persian. Screenshots: /tmp/fix18-shots/.
The same seats without a browser: test_teach_authoring_fixes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser_teach import _log_in, _teacher
from web_support import BOTH_DIRECTIONS

from tutor import i18n

LED_NINE = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}
SHOTS = Path("/tmp/fix18-shots")


def _new_quiz(page: Page, base: str, app, name: str, lang: str = "en") -> int:
    _teacher(app, name)
    _log_in(page, base, name, lang)
    page.fill("#quiz-title", f"Quiz of {name}")
    page.locator("#quiz-title").press("Enter")
    expect(page).to_have_url(re.compile(r"/quizzes/\d+$"))
    expect(page.locator(".table-editor:not([aria-busy]) .ed-answer")).to_have_count(1)
    return int(re.search(r"/quizzes/(\d+)", page.url).group(1))


def _seats_on_table(page: Page) -> tuple[str, dict[str, str]]:
    """The number of the seat marked "you" and, per card on the table, its seat's number."""
    felt = page.locator(".felt").first
    me = felt.locator(".seat.me .seat-no").inner_text().strip()
    played = {}
    for slot in felt.locator(".slot").all():
        place = re.search(r"slot-(\w+)", slot.get_attribute("class")).group(1)
        label = slot.locator("[role=img]").get_attribute("aria-label").split(" — ")[0]
        played[label] = felt.locator(f".seat-{place} .seat-no").inner_text().strip()
    return me, played


def test_a_fresh_form_shows_no_error_until_it_is_sent(page: Page, live):
    base, app = live
    _new_quiz(page, base, app, "fresh")
    form = page.locator("form.authoring")
    expect(form.locator(".field-error:not(:empty)")).to_have_count(0)
    expect(form.locator(".has-error, .form-error, [aria-invalid=true]")).to_have_count(0)
    expect(form.locator(".ed-todo")).to_contain_text("Set Trump.")  # what is still to set, said quietly
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / "fresh-form-en-1280.png"), full_page=True)
    page.get_by_role("button", name="Check and add").click()  # sent empty: now the messages
    expect(page.locator("#scenario-error")).to_be_visible()
    expect(page.locator("#key-error")).to_be_visible()
    expect(form.locator(".ed-zone[data-field=hand] .field-error")).to_have_text("Set The hand of the player to move.")
    expect(form.locator(".ed-todo")).to_have_count(0)


def test_the_editor_numbers_the_seats_as_the_preview_does(page: Page, live):
    base, app = live
    qid = _new_quiz(page, base, app, "seats")
    page.select_option("#kind", "legal-cards")
    page.fill("#scenario", json.dumps(LED_NINE))
    page.locator("#scenario").press("Tab")
    expect(page.locator(".ed-answer dd[data-field=legal]")).to_have_text("two of hearts and king of hearts")
    in_editor = _seats_on_table(page)
    page.fill("#key", "2H KH")
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#question-1")).to_contain_text("Legal cards")
    page.goto(f"{base}/en/teach/quizzes/{qid}/questions/1/preview")
    in_preview = _seats_on_table(page)
    assert in_editor == in_preview == ("seat 2", {"nine of hearts": "seat 1"})


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
@pytest.mark.parametrize("width", [390, 1280])
def test_wrong_input_keeps_the_teacher_in_place_with_messages_beside_the_fields(page: Page, live, lang, width):
    from axe_playwright_python.sync_playwright import Axe

    base, app = live
    page.set_viewport_size({"width": width, "height": 900})
    qid = _new_quiz(page, base, app, f"wrong{lang}{width}", lang)
    axe = Axe()
    fresh = axe.run(page)
    assert fresh.violations_count == 0, fresh.generate_report()
    page.select_option("#kind", "legal-cards")
    bad = {**LED_NINE, "hand": ["2H", "ZZ", "5C"]}
    page.fill("#scenario", json.dumps(bad))
    page.locator("#scenario").press("Tab")
    with i18n.using(lang):
        not_a_card = i18n.gettext("%(value)s is not a card.", value="ZZ")
    expect(page.locator(".ed-zone[data-field=hand] .field-error")).to_have_text(not_a_card)  # live, at the hand
    page.fill("#key", "2H")
    page.locator("form.authoring button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/quizzes/{qid}/authored$"))
    expect(page.locator("#scenario-error")).to_be_visible()
    assert json.loads(page.locator("#scenario").input_value()) == bad  # what was typed is kept
    expect(page.locator("#key")).to_have_value("2H")
    expect(page.locator("#kind")).to_have_value("legal-cards")
    page.screenshot(path=str(SHOTS / f"wrong-{lang}-{width}.png"), full_page=True)
    sent = axe.run(page)
    assert sent.violations_count == 0, sent.generate_report()
    # the question list and the edit page, with a question in it
    page.goto(f"{base}/{lang}/teach/quizzes/{qid}")
    page.select_option("#kind", "legal-cards")
    page.fill("#scenario", json.dumps(LED_NINE))
    page.fill("#key", "2H KH")
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#question-1 .q-situation")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"list-{lang}-{width}.png"), full_page=True)
    listed = axe.run(page)
    assert listed.violations_count == 0, listed.generate_report()
    page.goto(f"{base}/{lang}/teach/quizzes/{qid}/questions/1/edit")
    expect(page.locator(".table-editor:not([aria-busy]) .ed-answer dd[data-field=legal]")).to_have_count(1)
    expect(page.locator("form.authoring .field-error:not(:empty)")).to_have_count(0)
    page.fill("#key", "")
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#key-error")).to_be_visible()
    expect(page.locator("#key")).to_have_attribute("aria-invalid", "true")
    page.screenshot(path=str(SHOTS / f"edit-{lang}-{width}.png"), full_page=True)
    edited = axe.run(page)
    assert edited.violations_count == 0, edited.generate_report()


# ------------------------------------------------------------------ the first paint (issue 18, fix18b)

FIRST_SHOTS = Path("/tmp/fix18b-shots")


def _import(page: Page, base: str, lang: str, qid: int) -> None:
    """Two stored questions of LED_NINE: the kind's seat (question 1) and its own ``you: 3`` (2)."""
    import yaml

    def own(qid: str) -> dict:  # each question its own objects: the quiz files take no YAML aliases
        return {"id": qid, "kind": "legal-cards", "difficulty": 1, "teaches": "hokm-follow-suit",
                "scenario": json.loads(json.dumps(LED_NINE)), "expect": {"legal": ["2H", "KH"]}}
    text = yaml.safe_dump({"ruleset": "hokm", "questions": [own("kind-seat"), {**own("own-seat"), "you": 3}]},
                          sort_keys=False)
    page.goto(f"{base}/{lang}/teach/quizzes/{qid}")
    page.fill("#import-text", text)
    page.locator("form[action$='/import'] button[type=submit]").click()
    expect(page.locator("#question-2")).to_have_count(1)


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
@pytest.mark.parametrize("width", [390, 1280])
def test_the_editor_seats_the_learner_before_the_engine_answers(page: Page, live, lang, width):
    """Right after DOMContentLoaded, with the engine's check held back, the editor already draws the
    learner's seat at the bottom and the nine's seat as the preview does (the page's seating), for
    the kind's seat and for a stored ``you``; the check's answer then changes nothing."""
    from axe_playwright_python.sync_playwright import Axe

    base, app = live
    page.set_viewport_size({"width": width, "height": 900})
    qid = _new_quiz(page, base, app, f"first{lang}{width}", lang)
    _import(page, base, lang, qid)
    with i18n.using(lang):
        nine = i18n.card_label("9H")
        number = [i18n.seat_label(s, None, 4, "hokm") for s in range(4)]
    axe = Axe()
    held: list = []

    def hold(route) -> None:  # the engine's check waits until the first paint has been looked at
        held.append(route)
    for n, want in ((1, (number[1], {nine: number[0]})), (2, (number[3], {nine: number[2]}))):
        page.route("**/api/v1/table/check", hold)
        page.goto(f"{base}/{lang}/teach/quizzes/{qid}/questions/{n}/edit", wait_until="domcontentloaded")
        expect(page.locator(".table-editor.js .felt .seat.me")).to_have_count(1)
        with i18n.using(lang):
            expect(page.locator(".ed-answer")).to_have_text(i18n.gettext("Asking the engine…"))  # not answered yet
        page.screenshot(path=str(FIRST_SHOTS / f"first-paint-q{n}-{lang}-{width}.png"), full_page=True)
        first = _seats_on_table(page)
        found = axe.run(page)
        assert found.violations_count == 0, found.generate_report()
        assert held, "the check was not held back"
        for route in held:
            route.continue_()
        held.clear()
        page.unroute("**/api/v1/table/check")
        expect(page.locator(".table-editor:not([aria-busy]) .ed-answer dd[data-field=legal]")).to_have_count(1)
        answered = _seats_on_table(page)
        page.goto(f"{base}/{lang}/teach/quizzes/{qid}/questions/{n}/preview")
        assert first == answered == _seats_on_table(page) == want, n
