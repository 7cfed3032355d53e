"""A new learner's "Practice made for you" in Chromium (issue 19), in English and Persian.

The learner starts a session of 10 from the practice page and answers every question by clicking,
as a learner would: wrong at the first try at :data:`WRONG`, else right. What the pages draw is
checked: the streak in the quiz's header after each answer (put in place by the answer's fetch),
the retry marked on its question page before it is answered, and on the results page at least 3
kinds, at most 2 retries each marked as one and left out of the score, and the learner's rating in
the game with its change. Screenshots of a retry's question page, a feedback and the results at
390 and 1280 px go to /tmp/practice19-shots/ (axe-core finds no violation on them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser import give
from web_support import BOTH_DIRECTIONS, expected, wrong_value

from tutor.domain.models import Quiz
from tutor.i18n import ascii_digits
from tutor.web import exercises as X

SHOTS = Path("/tmp/practice19-shots")
WAIT = 60_000
#: The places answered wrong at the first try.
WRONG = {2, 3, 6}
GAME = {"en": "hokm", "fa": "trinidad"}
TEXT = {"en": {"retry": "Retry", "first": "right at the first try", "rating": "rating"},
        "fa": {"retry": "تکرار", "first": "در تلاش اول درست", "rating": "ریتینگ"}}


def _refs(app, token: str) -> list[str]:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return list(db.query(Quiz).filter_by(token=token).one().refs)
        finally:
            db.close()


def _shoot(page: Page, name: str) -> None:
    """Screenshots at 390 and 1280 px; the page does not scroll sideways and axe-core finds no
    violation at either width."""
    from axe_playwright_python.sync_playwright import Axe

    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), \
            f"{name} scrolls sideways at {width} px"
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        result = Axe().run(page)
        assert result.violations_count == 0, result.generate_report()
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_a_new_learners_practice_made_for_you(page: Page, live, lang):
    base, app = live
    page.set_default_timeout(WAIT)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base}/{lang}/practice/")
    form = page.locator("form.setup.adaptive")
    form.locator(f"label:has(> input[name=game][value='{GAME[lang]}'])").click()
    form.locator("label:has(> input[name=count][value='10'])").click()
    form.locator("button[type=submit]").click()
    expect(page.locator(".quiz-head")).to_be_visible()
    token = page.url.split("/quiz/")[1].split("/")[0]
    streak, seen, retries = 0, [], []
    for n in range(1, 11):
        expect(page).to_have_url(f"{base}/{lang}/quiz/{token}/{n}")
        ref = _refs(app, token)[n - 1]
        ex = X.resolve(ref)
        stats = page.locator("#quiz-stats .streak")
        expect(stats).to_have_attribute("data-streak", str(streak))
        if ref in seen:  # a retry: marked before it is answered
            retries.append(n)
            expect(page.locator("#quiz-retry")).to_be_visible()
            expect(page.locator("#quiz-retry")).to_contain_text(TEXT[lang]["retry"])
            if len(retries) == 1:
                _shoot(page, f"retry-question-{lang}")
        else:
            expect(page.locator("#quiz-retry")).to_have_count(0)
        seen.append(ref)
        right = expected(ex)
        wrong = n in WRONG and n not in retries
        answer = page.locator("form.answer-form")
        give(page, answer, ex, wrong_value(ex, right) if wrong else right)
        answer.locator("button[type=submit]").click()
        expect(page.locator(".verdict.wrong" if wrong else ".verdict.good")).to_be_visible()
        if n not in retries:  # a retry neither adds to the streak nor ends it
            streak = 0 if wrong else streak + 1
        expect(page.locator("#quiz-stats .streak")).to_have_attribute("data-streak", str(streak))
        expect(page.locator("#quiz-stats .rating")).to_contain_text(TEXT[lang]["rating"])
        if n == 3:
            _shoot(page, f"feedback-{lang}")
        page.locator(".feedback a.button.primary").click()
    expect(page).to_have_url(f"{base}/{lang}/quiz/{token}/results")
    # what the results page draws
    kinds = page.locator(".breakdown tbody th[scope=row]")
    assert kinds.count() >= 3, kinds.all_inner_texts()
    rows = page.locator("ol.review > li")
    expect(rows).to_have_count(10)
    marked = page.locator("ol.review > li.retry")
    assert 1 <= marked.count() <= 2
    assert marked.count() == len(retries)
    for i in range(marked.count()):
        expect(marked.nth(i).locator(".retry-badge")).to_be_visible()
        expect(marked.nth(i).locator(".retry-badge")).to_contain_text(TEXT[lang]["retry"])
    numbers = [i + 1 for i in range(10) if "retry" in (rows.nth(i).get_attribute("class") or "").split()]
    assert numbers == retries
    firsts = 10 - len(retries)
    score = ascii_digits(page.locator(".score-big").inner_text())
    assert TEXT[lang]["first"] in page.locator(".score-big").inner_text()
    assert score.split()[0] == str(firsts - len(WRONG - set(retries))) and str(firsts) in score.split()
    counted = sum(int(ascii_digits(t)) for t in page.locator(".breakdown tbody td:nth-of-type(2)").all_inner_texts())
    assert counted == firsts  # the score by kind leaves the retries out too
    expect(page.locator(".session-rating")).to_have_count(1)
    expect(page.locator(".session-rating .rating-change")).to_be_visible()
    _shoot(page, f"results-{lang}")
