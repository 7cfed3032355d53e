"""A class in Chromium with a test (issue 18): a teacher makes a class; 40 learners, each in a
browser context of their own and all from one address, join within 60 s at the real join limits
(three on the join page, the others posting its form from their contexts, to keep the test fast);
the teacher assigns a quiz in test mode with a close date, 2 attempts and a 10-minute limit;
the learners' pages and the JSON API show no key, verdict or explanation before the close, and
show them once the teacher moves the close date to the past; a random draw of 3 of the teacher's 6
legal-cards questions gives the learners different sets, each of 3 and all of the category, as
each learner's own pages and API show them. The test-mode pages (the learner's
start, question with its timer, saved answer and results, the teacher's settings) pass axe-core
and do not scroll sideways at 390 px, in English and Persian; their screenshots are saved under
``/tmp/testmode18-shots/`` to be looked at.
"""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select
from teach_support import DUE
from test_browser_teach import _click_answer
from web_support import BOTH_DIRECTIONS, HIGH_LIMITS, make_app
from werkzeug.serving import make_server

from tutor.domain.db import now
from tutor.domain.models import Teacher, TeacherQuiz
from tutor.web.accounts import add_teacher
from tutor.web.authoring import exercise_of

TRICK = '{"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}'
PASSWORD = "testmode-password-1"
SHOTS = Path("/tmp/testmode18-shots")
#: What a feedback page shows of a verdict and its explanation (English).
KEY_WORDS = ("The right answer", "The full explanation", "Right!", "Not quite.", "Why")


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    """(base URL, app) of a server in a thread with the real join limits (``join`` per class,
    ``join-guess`` per address): every learner of a school comes from one address, 127.0.0.1."""
    kept = ("redeem", "join", "join-guess")
    app = make_app(tmp_path_factory.mktemp("school"),
                   RATE_LIMITS={a: v for a, v in HIGH_LIMITS.items() if a not in kept})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join(timeout=5)


def _teacher(app, name: str) -> None:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        if db.scalar(select(Teacher).where(Teacher.name == name)) is None:
            add_teacher(db, name, PASSWORD)
            db.commit()
        db.close()


def _doc(app, qid: int) -> dict:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        doc = db.get(TeacherQuiz, qid).doc
        db.close()
    return doc


def _when(minutes: float) -> str:
    """A ``datetime-local`` value ``minutes`` from now (UTC)."""
    return (now() + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


def _class_with_test(page: Page, base: str, name: str, lang: str = "en") -> tuple[int, int, str, int]:
    """Log in, make a quiz of one question (TRICK, key 4) and a class, and assign the quiz as a test
    (closes in a day, 2 attempts, 10 minutes): ``(quiz id, class id, code, assignment id)``."""
    page.goto(f"{base}/{lang}/teach/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/$"))
    page.fill("#quiz-title", f"Test {name}")
    page.locator("#quiz-title ~ button, form:has(#quiz-title) button[type=submit]").first.click()
    qid = int(re.search(r"/quizzes/(\d+)", page.url).group(1))
    page.select_option("#kind", "trick-winner")
    page.fill("#scenario", TRICK)
    page.fill("#key", "4")
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#question-1")).to_be_visible()
    page.goto(f"{base}/{lang}/teach/")
    page.fill("#class-name", f"{name} class")
    page.locator("form:has(#class-name) button[type=submit]").click()
    cid = int(re.search(r"/classes/(\d+)", page.url).group(1))
    code = page.locator(".join-code").inner_text()
    page.select_option("#what", f"quiz:{qid}")
    page.fill("#due", DUE)
    page.select_option("#mode", "test")
    page.fill("#attempts", "2")
    page.fill("#time_limit", "10")
    page.fill("#closes_at", _when(24 * 60))
    page.locator("form:has(#what) button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/classes/{cid}$"))
    link = page.locator("a.settings-link").first.get_attribute("href")
    aid = int(re.search(r"/assignments/(\d+)/settings", link).group(1))
    return qid, cid, code, aid


def _join(browser: Browser, base: str, code: str, nickname: str, lang: str = "en"):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/{lang}/join?code={code}")
    page.fill("#nickname", nickname)
    page.locator("form.panel button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/classes/$"))
    return context, page


def _start_and_answer(page: Page, base: str, app, qid: int, cid: int, aid: int, value: int, lang: str = "en") -> None:
    page.goto(f"{base}/{lang}/classes/{cid}/assignments/{aid}/")
    page.locator("form[action$='/start'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/assignments/{aid}/1$"))
    expect(page.locator(".timer[role=timer] .timer-left")).to_have_text(re.compile(r"^[0-9۰-۹]{1,2}:[0-9۰-۹]{2}$"))
    _click_answer(page, exercise_of(_doc(app, qid)["questions"][0]), value)
    page.locator("form.answer-form button[type=submit]").click()
    expect(page.locator(".saved-note")).to_be_visible()


#: Seeds of the six generated Hokm legal-cards questions of the draw's category.
DRAW_SEEDS = (11, 12, 13, 14, 15, 16)
DRAW_N = 3


def _teacher_post(page: Page, base: str, url: str, form_page: str, data: dict) -> None:
    """POST a teacher's form from their context (its CSRF token read from ``form_page``): 302 expected."""
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.request.get(base + form_page).text()).group(1)
    r = page.request.post(base + url, form={"csrf_token": token, **data}, max_redirects=0)
    assert r.status == 302, (url, r.status, r.text()[:2000])


def _draw_assignment(teacher: Page, base: str, qid: int, cid: int) -> int:
    """Add six generated legal-cards questions to quiz ``qid`` and assign class ``cid`` a draw of
    DRAW_N of them per learner: its assignment id."""
    for seed in DRAW_SEEDS:
        _teacher_post(teacher, base, f"/en/teach/quizzes/{qid}/generated", f"/en/teach/quizzes/{qid}",
                      {"g-ruleset": "hokm", "g-gkind": "legal-cards", "g-difficulty": "1", "g-seed": str(seed),
                       "g-points": "1", "action": "add"})
    _teacher_post(teacher, base, "/en/teach/bank/draw?kind=legal-cards", "/en/teach/bank?kind=legal-cards",
                  {"classroom": str(cid), "n": str(DRAW_N), "due": DUE})
    teacher.goto(f"{base}/en/teach/classes/{cid}")
    links = [teacher.locator("a.settings-link").nth(i).get_attribute("href")
             for i in range(teacher.locator("a.settings-link").count())]
    return max(int(re.search(r"/assignments/(\d+)/settings", h).group(1)) for h in links)


def _drawn_set(request, base: str, cid: int, draw: int) -> frozenset[str]:
    """The scenarios of a learner's questions of the draw, as their API shows them; each of the
    category, DRAW_N of them."""
    api = request.get(f"{base}/api/v1/classes/{cid}/assignments/{draw}").json()
    questions = api["questions"]
    assert len(questions) == DRAW_N and [q["n"] for q in questions] == [1, 2, 3], api
    assert all(q["exercise"]["kind"] == "legal-cards" for q in questions), questions
    assert api["score"] == {"got": 0, "total": DRAW_N}  # out of their own questions, not the pool's six
    out = frozenset(json.dumps(q["exercise"]["scenario"], sort_keys=True) for q in questions)
    assert len(out) == DRAW_N
    refused = request.post(f"{base}/api/v1/classes/{cid}/assignments/{draw}/{DRAW_N + 1}/answer",
                           data={"answer": []})
    assert refused.status == 404  # no question beyond their own three
    return out


def test_forty_learners_join_and_a_test_holds_its_key_until_it_closes(browser: Browser, school):
    base, app = school
    _teacher(app, "rana")
    teacher_context = browser.new_context()
    teacher = teacher_context.new_page()
    qid, cid, code, aid = _class_with_test(teacher, base, "rana")
    draw = _draw_assignment(teacher, base, qid, cid)
    pool = {json.dumps(q["scenario"], sort_keys=True) for q in _doc(app, qid)["questions"]
            if q["kind"] == "legal-cards"}
    assert len(pool) == len(DRAW_SEEDS)
    drawn: list[frozenset[str]] = []

    started = time.monotonic()
    learners = [_join(browser, base, code, f"Learner {i}") for i in range(3)]  # on the join page
    for i in range(3, 40):  # the others post the same form from their own contexts (cookies), undrawn
        context = browser.new_context()
        form = context.request.get(f"{base}/en/join?code={code}")
        token = re.search(r'name="csrf_token" value="([^"]+)"', form.text()).group(1)
        r = context.request.post(f"{base}/en/join", form={"csrf_token": token, "code": code,
                                                          "nickname": f"Learner {i}"})
        assert r.status == 200 and r.url.endswith("/en/classes/"), (i, r.status)
        assert f"Learner {i}" in r.text()
        drawn.append(_drawn_set(context.request, base, cid, draw))
        learners.append((context, None))
    took = time.monotonic() - started
    assert took < 60, took
    # the random draw: each of the 40 their own set of three, all from the pool; sets differ
    for _context, page in learners[:3]:
        page.goto(f"{base}/en/classes/{cid}/assignments/{draw}/1")
        expect(page.locator("body")).to_contain_text("Question 1 of 3")
        drawn.append(_drawn_set(page.request, base, cid, draw))
    assert len(drawn) == 40 and all(s <= pool for s in drawn)
    assert len(set(drawn)) >= 10, len(set(drawn))  # 20 possible sets of 3 of 6 among 40 learners
    assert frozenset().union(*drawn) == pool  # every question of the category drawn for someone
    teacher.goto(f"{base}/en/teach/classes/{cid}")
    assert teacher.locator("#h-members + ul li").count() == 40
    for context, _page in learners[3:]:
        context.close()
    answering = [p for _c, p in learners[:3]]

    # before the close: answers are saved, nothing of the key shown, in the pages and in the API
    for i, page in enumerate(answering):
        _start_and_answer(page, base, app, qid, cid, aid, value=3 if i == 0 else 0)
        html = page.content()
        assert "Answer saved." in html
        for word in KEY_WORDS:
            assert word not in html, word
        page.goto(f"{base}/en/classes/{cid}/assignments/{aid}/results")
        html = page.content()
        assert "Score:" not in html and "✓" not in html and "✗" not in html
        api = page.request.get(f"{base}/api/v1/classes/{cid}/assignments/{aid}").json()
        assert api["results_visible"] is False and api["score"] is None
        assert not {"correct", "expected", "why"} & set(api["questions"][0])
    again = answering[1].request.post(f"{base}/api/v1/classes/{cid}/assignments/{aid}/1/answer",
                                      data={"answer": 3})
    assert again.status == 403 and again.json()["error"]["code"] == "answered"

    # the teacher closes the test by moving its close date to the past: the results are shown
    teacher.goto(f"{base}/en/teach/classes/{cid}/assignments/{aid}/settings")
    expect(teacher.get_by_role("button", name="Release results")).to_be_visible()
    teacher.fill("#closes_at", _when(-1))
    teacher.get_by_role("button", name="Save the settings").click()
    expect(teacher).to_have_url(re.compile(rf"/teach/classes/{cid}$"))
    right, wrong = answering[0], answering[1]
    right.goto(f"{base}/en/classes/{cid}/assignments/{aid}/1/feedback")
    expect(right.locator(".verdict.good")).to_be_visible()
    wrong.goto(f"{base}/en/classes/{cid}/assignments/{aid}/1/feedback")
    expect(wrong.locator(".verdict.wrong")).to_be_visible()
    html = wrong.content()
    assert "The right answer" in html and "Why" in html and "Try again" not in html  # closed: no more tries
    api = wrong.request.get(f"{base}/api/v1/classes/{cid}/assignments/{aid}").json()
    assert api["results_visible"] is True and api["questions"][0]["correct"] is False
    assert api["questions"][0]["expected"] == 3 and api["questions"][0]["why"]
    right.goto(f"{base}/en/classes/{cid}/assignments/{aid}/results")
    expect(right.locator(".score-big")).to_have_text("Score: 1 of 1 point")
    for context, _page in learners[:3]:
        context.close()
    teacher_context.close()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_test_mode_pages_pass_axe_and_fit_a_phone(browser: Browser, school, lang):
    from axe_playwright_python.sync_playwright import Axe

    base, app = school
    name = f"shots-{lang}"
    _teacher(app, name)
    teacher_context = browser.new_context()
    teacher = teacher_context.new_page()
    qid, cid, code, aid = _class_with_test(teacher, base, name, lang)
    context, learner = _join(browser, base, code, "Zari", lang)
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = Axe()

    def look(page: Page, url: str, shot: str) -> None:
        page.goto(base + url)
        result = axe.run(page)
        assert result.violations_count == 0, (url, result.generate_report())
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("document.documentElement.scrollWidth") == width, (url, width)
            page.screenshot(path=str(SHOTS / f"{shot}-{lang}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})

    base_url = f"/{lang}/classes/{cid}/assignments/{aid}"
    look(learner, f"{base_url}/", "learner-start")
    learner.locator("form[action$='/start'] button[type=submit]").click()
    expect(learner.locator(".timer .timer-left")).to_have_text(re.compile(r"^[0-9۰-۹]{1,2}:[0-9۰-۹]{2}$"))
    if lang == "fa":  # the page's digits
        expect(learner.locator(".timer .timer-left")).to_have_text(re.compile(r"^[۰-۹]+:[۰-۹]{2}$"))
    look(learner, f"{base_url}/1", "learner-question")
    _click_answer(learner, exercise_of(_doc(app, qid)["questions"][0]), 0)
    learner.locator("form.answer-form button[type=submit]").click()
    expect(learner.locator(".saved-note")).to_be_visible()
    look(learner, f"{base_url}/1/feedback", "learner-saved")
    look(learner, f"{base_url}/results", "learner-results")
    look(learner, f"/{lang}/classes/", "learner-classes")
    look(teacher, f"/{lang}/teach/classes/{cid}/assignments/{aid}/settings", "teacher-settings")
    look(teacher, f"/{lang}/teach/classes/{cid}", "teacher-class")
    # a refused setting: the message beside its field passes axe too
    teacher.goto(f"{base}/{lang}/teach/classes/{cid}/assignments/{aid}/settings")
    teacher.fill("#attempts", "")
    teacher.locator("form:has(#attempts) button[type=submit]").click()
    expect(teacher.locator("#attempts-error")).to_be_visible()
    result = axe.run(teacher)
    assert result.violations_count == 0, result.generate_report()
    teacher.screenshot(path=str(SHOTS / f"teacher-settings-error-{lang}-1280.png"), full_page=True)
    context.close()
    teacher_context.close()
