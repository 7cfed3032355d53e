"""In the browser: continue through a whole unit, stars on the path, axe-core on every learner page
type, a walk-through on a phone screen. Helpers: test_browser_loop.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from test_browser_loop import LANGS, _num, give, t, walk_step, wrong_in_trick
from web_support import BOTH_DIRECTIONS, expected, wrong_value

from tutor.web import exercises as X

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
