"""The learner's loop in Debian's Chromium (pytest-playwright), in en, fa (right to left), bg, te:
walk-through marks per trick, choices marked right and wrong, an empty submit kept in place,
answers in place without a reload (and the same with JavaScript off), the suit-colour switch
coming back to the exercise, "Continue" through a whole unit, stars on the path, hints, and
axe-core on every learner page type.

Every mark is asserted on what is drawn: classes, the ✓/✗ text and the computed colours.

Answering in place and the suit colours are in test_browser_loop_in_place; flow, stars, axe-core
and the phone screen in test_browser_loop_flow; the helpers they share are here.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_support import BOTH_DIRECTIONS, expected, form_for, wrong_value

from tutor import i18n
from tutor.web import exercises as X

LANGS = i18n.LANGUAGES
RED = "rgb(179, 38, 30)"          # --bad #b3261e
RED_BG = "rgb(251, 233, 231)"     # --bad-bg #fbe9e7
GREEN = "rgb(31, 122, 61)"        # --good #1f7a3d
GREEN_BG = "rgb(229, 244, 232)"   # --good-bg #e5f4e8
SELECTED_GREEN_BG = "rgb(230, 242, 235)"  # the "selected" tint before answering, #e6f2eb


def t(lang: str, message: str, **params) -> str:
    with i18n.using(lang):
        return i18n.gettext(message, **params)


def step_of(ruleset: str, lang: str, pred):
    lp = X.content().lesson_path(ruleset, lang)
    return next(s for s in lp.steps if pred(s))


def walk_step(ruleset: str, lang: str):
    return step_of(ruleset, lang, lambda s: any(e.kind == "walk-through" for e in s.exercises))


def css(locator, prop: str) -> str:
    return locator.evaluate(f"(el) => getComputedStyle(el).getPropertyValue('{prop}')")


def give(scope, ex, value, skip=()) -> None:
    """Answer by clicking as a learner would (the walk-through's tricks are paged: each trick is
    picked when it is shown) and typing numbers."""
    fields = form_for(ex, value)
    tricks = sorted((int(k[1:]), v) for k, v in fields.items() if re.fullmatch(r"t\d+", k))
    for i, v in tricks:
        row = scope.locator(f".trick-row[data-trick='{i}']")
        expect(row).to_be_visible()
        row.locator(f"label:has(> input[name='t{i}'][value='{v}'])").click()
        expect(row.locator(f"input[name='t{i}'][value='{v}']")).to_be_checked()
    for name, v in fields.items():
        if re.fullmatch(r"t\d+", name) or name in skip:
            continue
        # the field is there before its choices are counted (see tests/test_browser.py give)
        scope.locator(f"input[name='{name}']").first.wait_for(state="attached")
        for item in v if isinstance(v, list) else [v]:
            box = scope.locator(f"input[name='{name}'][value='{item}']")
            if box.count():
                scope.locator(f"label:has(> input[name='{name}'][value='{item}'])").click()
                expect(box).to_be_checked()
            else:
                scope.locator(f"input[name='{name}']").fill(item)


def wrong_in_trick(ex, right, trick: int):
    """The right walk-through answer with trick ``trick`` (0-based) answered by another card."""
    fields = form_for(ex, right)
    n = len(ex.scenario["tricks"][trick])
    fields[f"t{trick}"] = str((int(fields[f"t{trick}"]) + 1) % n)
    return fields


# ----------------------------------------------------------------------------- walk-through marks

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", ["hokm", "trinidad"])
def test_walk_through_wrong_on_one_trick_marks_exactly_that_trick(page: Page, live, lang, ruleset):
    base, _app = live
    step = walk_step(ruleset, lang)
    ex = next(e for e in step.exercises if e.kind == "walk-through")
    right = expected(ex)
    fields = wrong_in_trick(ex, right, 1)
    page.goto(f"{base}/{lang}/learn/{ruleset}/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    # the tricks are paged: one shown at a time
    expect(section.locator(".trick-row.current")).to_have_count(1)
    for i in range(len(ex.scenario["tricks"])):
        row = section.locator(f".trick-row[data-trick='{i}']")
        expect(row).to_be_visible()
        row.locator(f"label:has(> input[name='t{i}'][value='{fields[f't{i}']}'])").click()
    rest = {k: v for k, v in fields.items() if not re.fullmatch(r"t\d+", k)}
    for name, v in rest.items():
        section.locator(f"label:has(> input[name='{name}'][value='{v}'])").click()
    section.locator("button[type=submit]").click()
    section = page.locator(f"#ex-{ex.id}")
    expect(section.locator(".verdict.wrong")).to_be_visible()
    # exactly trick 2 is wrong; every other trick is judged right against the real play
    expect(section.locator(".trick-row.wrong")).to_have_count(1)
    expect(section.locator(".trick-row.right")).to_have_count(len(ex.scenario["tricks"]) - 1)
    wrong = section.locator(".trick-row.wrong")
    assert wrong.get_attribute("data-trick") == "1"
    expect(wrong.locator(".trick-mark.bad")).to_have_text("✗ " + t(lang, "your pick did not win"))
    assert css(wrong.locator(".trick-mark.bad"), "color") == RED
    # the pager opens at the wrong trick
    expect(wrong).to_be_visible()
    # the learner's card is drawn with the red ✗, the card that won with the gold ★
    mine = wrong.locator("input:checked + .card")
    expect(mine).to_have_class(re.compile(r"\bbad\b"))
    assert mine.evaluate("(el) => getComputedStyle(el, '::after').content") == '"✗"'
    assert mine.evaluate("(el) => getComputedStyle(el, '::after').backgroundColor") == RED
    winner = wrong.locator(".card.win")
    expect(winner).to_have_count(1)
    assert winner.evaluate("(el) => getComputedStyle(el, '::after').content") == '"★"'
    # no right trick carries a ✗ or a red mark
    for row in section.locator(".trick-row.right").all():
        expect(row.locator(".card.bad")).to_have_count(0)
        expect(row.locator(".trick-mark.good")).to_contain_text("✓")
    # the learner's own mistake comes first, then the full explanation folded
    mistake = section.locator(".mistake li")
    expect(mistake).to_have_count(1)
    with i18n.using(lang):
        picked = i18n.card_label(ex.scenario["tricks"][1][int(fields["t1"])])
    expect(mistake).to_contain_text(picked)
    expect(mistake).to_contain_text(t(lang, "Trick %(n)s", n=_num(lang, 2)))
    expect(section.locator("details.explain")).not_to_have_attribute("open", "")


def _num(lang: str, n: int) -> str:
    with i18n.using(lang):
        return i18n.fmt_number(n)


# ----------------------------------------------------------------------------- choices

@pytest.mark.parametrize("lang", LANGS)
def test_wrong_choice_and_right_choice_are_both_marked(page: Page, live, lang):
    base, _app = live
    step = step_of("hokm", lang, lambda s: any(e.kind == "round-score" for e in s.exercises))
    ex = next(e for e in step.exercises if e.kind == "round-score")
    right = expected(ex)
    wrong = wrong_value(ex, right)
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    section.locator(f"label:has(> input[name='points'][value='{wrong}'])").click()
    chosen = section.locator(f"label.opt:has(> input[value='{wrong}'])")
    assert css(chosen, "background-color") == SELECTED_GREEN_BG  # selected, before answering
    expect(section.locator(".opt-mark")).to_have_count(0)  # no key before answering
    section.locator("button[type=submit]").click()
    section = page.locator(f"#ex-{ex.id}")
    expect(section.locator(".verdict.wrong")).to_be_visible()
    miss = section.locator(f"label.opt:has(> input[value='{wrong}'])")
    hit = section.locator(f"label.opt:has(> input[value='{right}'])")
    expect(miss).to_have_class(re.compile(r"\bmiss\b"))
    expect(hit).to_have_class(re.compile(r"\bright\b"))
    expect(miss.locator(".opt-mark")).to_have_text("✗ " + t(lang, "your answer"))
    expect(hit.locator(".opt-mark")).to_have_text("✓ " + t(lang, "right answer"))
    # the wrong choice loses the green "selected" tint: red, dashed; the right one green
    assert css(miss, "background-color") == RED_BG and css(miss, "border-top-style") == "dashed"
    assert css(miss.locator(".opt-mark"), "color") == RED
    assert css(hit, "background-color") == GREEN_BG and css(hit.locator(".opt-mark"), "color") == GREEN
    # exactly one ✓ and one ✗ among the choices
    expect(section.locator(".opt.right")).to_have_count(1)
    expect(section.locator(".opt.miss")).to_have_count(1)


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_a_picked_card_is_marked_with_a_dot_until_the_answer_is_checked(page: Page, live, lang):
    """A card picked as the trick's winner shows a dot, not a ✓, until the engine has checked it:
    a wrong pick then shows the red ✗, the right one after "Try again" the green ✓."""
    base, _app = live
    step = step_of("hokm", lang, lambda s: any(e.kind == "trick-winner" for e in s.exercises))
    ex = next(e for e in step.exercises if e.kind == "trick-winner")
    right = expected(ex)
    wrong = wrong_value(ex, right)
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    section = page.locator(f"#ex-{ex.id}")

    def mark(value):
        card = page.locator(f"#ex-{ex.id} input[name='seat'][value='{value}'] + .card")
        return (card.evaluate("(el) => getComputedStyle(el, '::after').content"),
                card.evaluate("(el) => getComputedStyle(el, '::after').backgroundColor"))

    give(section, ex, wrong)
    assert mark(form_for(ex, wrong)["seat"])[0] == '"●"'  # chosen: no verdict drawn yet
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict.wrong")).to_be_visible()
    assert mark(form_for(ex, wrong)["seat"]) == ('"✗"', RED)
    page.locator(f"#ex-{ex.id} a.retry").click()
    section = page.locator(f"#ex-{ex.id}")
    expect(section.locator("button[type=submit]")).to_be_visible()
    give(section, ex, right)
    assert mark(form_for(ex, right)["seat"])[0] == '"●"'
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict.good")).to_be_visible()
    assert mark(form_for(ex, right)["seat"]) == ('"✓"', GREEN)


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_awards_choices_are_marked(page: Page, live, lang):
    """Hand-score style awards (High, Low, Jack, Game): a wrong side ✗, the right side ✓."""
    base, _app = live
    step = walk_step("trinidad", lang)
    ex = next(e for e in step.exercises if e.kind == "walk-through")
    right = expected(ex)
    # the tricks right, Game given to the other side (the kind's distractor changes the tricks too)
    wrong = {**right, "awards": {**right["awards"], "game": 1 - right["awards"]["game"]}}
    page.goto(f"{base}/{lang}/learn/trinidad/{step.id}")
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, wrong)
    section.locator("button[type=submit]").click()
    section = page.locator(f"#ex-{ex.id}")
    expect(section.locator(".verdict.wrong")).to_be_visible()
    game = section.locator("fieldset.award").nth(3)
    expect(game.locator(".opt.miss")).to_have_count(1)
    expect(game.locator(".opt.right")).to_have_count(1)
    expect(game.locator(".opt.miss .opt-mark")).to_contain_text("✗")
    expect(game.locator(".opt.right .opt-mark")).to_contain_text("✓")
    expect(section.locator(".trick-row.wrong")).to_have_count(0)
    # the three categories answered right: only a ✓, on the learner's own choice
    for i in range(3):
        cat = section.locator("fieldset.award").nth(i)
        expect(cat.locator(".opt.miss")).to_have_count(0)
        expect(cat.locator(".opt.right input")).to_be_checked()
