"""The learner's loop in Debian's Chromium (pytest-playwright), in en, fa (right to left), bg, te:
walk-through marks per trick, choices marked right and wrong, an empty submit kept in place,
answers in place without a reload (and the same with JavaScript off), the suit-colour switch
coming back to the exercise, "Continue" through a whole unit, stars on the path, hints, and
axe-core on every learner page type.

Every mark is asserted on what is drawn: classes, the ✓/✗ text and the computed colours.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
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
    wrong = wrong_value(ex, right)  # Game given to another side
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


# ----------------------------------------------------------------------------- flow and stars

def answer_step_right(page: Page, step, stars: int | None = None) -> None:
    """Answer every exercise of ``step`` right and follow Continue; ``stars``: before leaving, the
    step's header (updated in place by the last answer, no reload) shows it done with these stars."""
    for i, ex in enumerate(step.exercises):
        section = page.locator(f"#ex-{ex.id}")
        give(section, ex, expected(ex))
        section.locator("button[type=submit]").click()
        expect(page.locator(f"#ex-{ex.id} .verdict.good")).to_be_visible()
        if stars is not None:
            last = i == len(step.exercises) - 1
            expect(page.locator(".step-head .done-mark")).to_have_count(1 if last else 0)
            if last:
                expect(page.locator(".step-head .stars .star-on")).to_have_text("★" * stars)
        page.locator(f"#ex-{ex.id} a.continue").click()


@pytest.mark.parametrize("lang", LANGS)
def test_continue_leads_through_a_whole_unit(page: Page, live, lang):
    base, _app = live
    lp = X.content().lesson_path("trinidad", lang)
    unit = lp.units[0]
    page.goto(f"{base}/{lang}/learn/trinidad/{unit.steps[0].id}")
    for s in unit.steps:
        expect(page.locator("h1")).to_have_text(s.title)
        if s.exercises:
            answer_step_right(page, s, stars=3)
        else:
            page.locator(".step-nav button[type=submit]").click()
    # the unit's summary: every step done, three stars each
    expect(page.locator("h1")).to_have_text(t(lang, "Unit complete: %(title)s", title=unit.title))
    expect(page.locator(".summary-steps .stars")).to_have_count(len(unit.steps))
    for stars in page.locator(".summary-steps .stars").all():
        expect(stars).to_have_attribute("aria-label", t(lang, "%(n)s of %(most)s stars", n=_num(lang, 3), most=_num(lang, 3)))
        expect(stars.locator(".star-on")).to_have_text("★★★")
    page.locator("a.continue").click()
    expect(page.locator("h1")).to_have_text(lp.units[1].steps[0].title)


@pytest.mark.parametrize("lang", LANGS)
def test_stars_appear_on_the_path(page: Page, live, lang):
    base, _app = live
    lp = X.content().lesson_path("hokm", lang)
    one = next(s for s in lp.steps if len(s.exercises) == 1 and s.exercises[0].kind == "trick-winner")
    two = next(s for s in lp.steps if s.exercises and s.id != one.id and s.exercises[0].kind == "trick-winner")
    # one wrong answer first: two stars
    ex = one.exercises[0]
    page.goto(f"{base}/{lang}/learn/hokm/{one.id}")
    give(page.locator(f"#ex-{ex.id}"), ex, wrong_value(ex, expected(ex)))
    page.locator(f"#ex-{ex.id} button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict.wrong")).to_be_visible()
    # "Try again" brings the question back in place: no reload
    page.evaluate("window.tutorMarker = 'kept'")
    page.locator(f"#ex-{ex.id} a.retry").click()
    expect(page.locator(f"#ex-{ex.id} form.answer-form [type=submit]").first).to_be_visible()
    expect(page.locator(f"#ex-{ex.id} .verdict")).to_have_count(0)
    assert page.evaluate("window.tutorMarker") == "kept"
    answer_step_right(page, one, stars=2)
    # a hint, then right: two stars (the hint shows the rule, not the answer)
    page.goto(f"{base}/{lang}/learn/hokm/{two.id}")
    first = two.exercises[0]
    page.locator(f"#ex-{first.id} .hint-button").click()
    hint = page.locator(f"#hint-{first.id}")
    expect(hint).to_be_visible()
    assert page.evaluate("document.activeElement.id") == f"hint-{first.id}"
    expect(page.locator(f"#ex-{first.id} .verdict")).to_have_count(0)
    expect(page.locator(f"#ex-{first.id} .hint-button")).to_have_count(0)
    answer_step_right(page, two, stars=2)
    page.goto(f"{base}/{lang}/learn/hokm/")
    for s, n in ((one, 2), (two, 2)):
        stars = page.locator(f".step-item.done:has(a[href='/{lang}/learn/hokm/{s.id}']) .stars")
        expect(stars).to_have_attribute("aria-label", t(lang, "%(n)s of %(most)s stars", n=_num(lang, n), most=_num(lang, 3)))
        expect(stars.locator(".star-on")).to_have_text("★" * n)
        expect(stars.locator(".star-off")).to_have_text("☆" * (3 - n))
    # the home page shows the streak and the daily goal
    page.goto(f"{base}/{lang}/")
    expect(page.locator(".daily .streak")).to_contain_text(_num(lang, 1))
    expect(page.locator(".daily progress")).to_be_visible()


# ----------------------------------------------------------------------------- axe-core

def _axe_clean(page: Page, what: str) -> None:
    # colours are measured once the arrival animation (a fade) has ended
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    results = Axe().run(page)
    assert results.violations_count == 0, f"{what}: {results.generate_report()}"


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_every_learner_page_type_has_no_axe_violations(page: Page, live, lang):
    base, _app = live
    step = walk_step("hokm", lang)
    ex = next(e for e in step.exercises if e.kind == "walk-through")
    page.goto(f"{base}/{lang}/")
    _axe_clean(page, "home")
    page.goto(f"{base}/{lang}/learn/hokm/")
    _axe_clean(page, "path")
    page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
    _axe_clean(page, "step")
    section = page.locator(f"#ex-{ex.id}")
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#err-{ex.id}")).to_be_visible()
    _axe_clean(page, "step with an error")
    page.locator(f"#ex-{ex.id} .hint-button").click()
    expect(page.locator(f"#hint-{ex.id}")).to_be_visible()
    _axe_clean(page, "step with a hint")
    fields = wrong_in_trick(ex, expected(ex), 1)
    section = page.locator(f"#ex-{ex.id}")
    for i in range(len(ex.scenario["tricks"])):
        row = section.locator(f".trick-row[data-trick='{i}']")
        expect(row).to_be_visible()
        row.locator(f"label:has(> input[name='t{i}'][value='{fields[f't{i}']}'])").click()
    section.locator(f"label:has(> input[name='points'][value='{fields['points']}'])").click()
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict.wrong")).to_be_visible()
    _axe_clean(page, "walk-through feedback")
    page.goto(f"{base}/{lang}/learn/hokm/unit/1")
    _axe_clean(page, "unit summary")
    # a quiz: question, feedback (wrong), results
    page.goto(f"{base}/{lang}/practice/")
    classic = page.locator("form.setup:not(.adaptive)")  # the practice page also offers adaptive practice
    classic.locator("label:has(> input[name=game][value='hokm'])").click()
    classic.locator("input[name=seed]").fill("7")
    classic.locator("button[type=submit]").click()
    expect(page.locator(".quiz-head")).to_be_visible()
    _axe_clean(page, "question")
    token = page.url.split("/quiz/")[1].split("/")[0]
    with _app.app_context():
        from tutor.domain.models import Quiz
        db = _app.extensions["tutor_db"]()
        refs = db.query(Quiz).filter_by(token=token).one().refs
        db.close()
    for n, ref in enumerate(refs, 1):
        q = X.resolve(ref)
        form = page.locator("form.answer-form")
        right = expected(q)
        give(form, q, wrong_value(q, right) if n == 1 else right)
        form.locator("button[type=submit]").click()
        expect(page.locator(".verdict")).to_be_visible()
        if n == 1:
            _axe_clean(page, "question feedback")
        with page.expect_navigation():  # the next question (or the results) parsed before it is answered
            page.locator(".feedback a.continue").click()
    expect(page.locator(".review")).to_be_visible()
    _axe_clean(page, "results")


@pytest.mark.parametrize("lang", LANGS)
def test_a_walk_through_trick_and_its_question_fit_a_phone_screen(browser, live, lang):
    """At 390 x 844 px, a walk-through shows one trick at a time, and from its question to its
    button the exercise fits the screen; without JavaScript every trick is shown."""
    base, _app = live
    step = walk_step("hokm", lang)
    ex = next(e for e in step.exercises if e.kind == "walk-through")
    n = len(ex.scenario["tricks"])
    for js in (True, False):
        context = browser.new_context(java_script_enabled=js, viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{base}/{lang}/learn/hokm/{step.id}")
        section = page.locator(f"#ex-{ex.id}")
        rows = section.locator(".trick-row")
        visible = [r.is_visible() for r in rows.all()]
        assert visible == ([True] + [False] * (n - 1) if js else [True] * n)
        if js:
            top = section.locator(".prompt").bounding_box()
            bottom = section.locator("form.answer-form [type=submit]").bounding_box()
            assert bottom["y"] + bottom["height"] - top["y"] <= 844
            # no horizontal scrolling on the phone
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        context.close()
