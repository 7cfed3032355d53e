"""Teacher tools in Chromium (issue 8): the whole journey and axe-core on every teacher page.

A teacher logs in, builds a quiz with one question authored on the table editor by keyboard (a
wrong key is flagged live beside the key and again on save) and one generated question, creates a
class and assigns the quiz; a learner joins with the code and a nickname and takes the quiz with
one answer wrong; the teacher sees that wrong answer, the statistics with the questions' Glicko-2
ratings, and downloads the CSV, the PDF worksheet and its key (their text read back with
pdftotext) and the Moodle XML (parsed with lxml). The axe test authors from a pasted scenario. axe-core (axe-playwright-python)
finds no violation on the teacher pages and the learner's class pages, in English and Persian.
A learner answering a teacher's lesson in place sees its count of exercises answered right follow.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from teach_support import DUE
from web_support import BOTH_DIRECTIONS, expected, form_for, unavailable

from tutor import i18n
from tutor.domain.models import Teacher, TeacherQuiz
from tutor.web.accounts import add_teacher
from tutor.web.authoring import exercise_of

TRICK = {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}
PASSWORD = "journey-password-1"


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


def _log_in(page: Page, base: str, name: str, lang: str = "en") -> None:
    page.goto(f"{base}/{lang}/teach/")
    expect(page).to_have_url(re.compile(r"/teach/login\?next="))
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/$"))


def _deal_on_table(page: Page) -> None:
    """The trick of TRICK built on the table editor with the keyboard (and a click for the menus):
    Hokm, who wins the trick, trump spades, the four cards placed from the picker in play order."""
    from test_table_editor_browser import place, take_back, target

    page.select_option("#kind", "trick-winner")
    expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
    page.locator(".ed-controls select[data-key=ruleset]").select_option("hokm")
    expect(page.locator(".ed-controls select[data-key=ask]")).to_have_value("trick-winner")
    spades = page.locator(".ed-fields [data-field=trump] input[type=radio][value='S']")
    spades.focus()
    page.keyboard.press("Space")  # no trump chosen yet: Space checks the focused suit
    expect(spades).to_be_checked()
    for placed in page.locator(".ed-zone .ed-placed").all():  # whatever the editor started with
        take_back(page, placed.get_attribute("data-key").removeprefix("placed-"))
    target(page, "trick")
    place(page, *TRICK["trick"])
    expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
    expect(page.locator(".ed-answer dd[data-field=winner]")).to_have_text("your left-hand opponent")
    scenario = json.loads(page.locator("textarea[name=scenario]").input_value())
    assert scenario in (TRICK, {**TRICK, "leader": 0}), scenario


def _build(page: Page, base: str, app, title: str, on_table: bool = False) -> tuple[int, int, str]:
    """Quiz with an authored and a generated question, a class, the quiz assigned: (quiz, class, code).
    ``on_table``: the authored question is built on the table editor, its wrong key flagged live."""
    page.fill("#quiz-title", title)
    page.get_by_role("button", name="New quiz").click()
    qid = int(re.search(r"/quizzes/(\d+)", page.url).group(1))
    if on_table:
        _deal_on_table(page)
    else:
        page.select_option("#kind", "trick-winner")
        page.fill("#scenario", json.dumps(TRICK))
    page.fill("#key", "1")  # wrong: the jack of spades (seat 4) wins
    if on_table:  # flagged live, beside the key, before saving
        page.locator("#key").press("Tab")
        live = page.locator("#key ~ .field-error.expect-error")
        expect(live).to_contain_text("The engine disagrees with this key")
        expect(page.locator("#key")).to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Check and add").click()
    error = page.locator("#key-error")
    expect(error).to_contain_text("The engine disagrees with this key")
    expect(page.locator("#key")).to_have_attribute("aria-invalid", "true")
    assert _doc(app, qid)["questions"] == []
    if on_table:  # the form came back with the scenario: the editor draws it again
        expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
        expect(page.locator(".ed-zone[data-field=trick] .ed-placed")).to_have_count(4)
    page.fill("#key", "4")
    if on_table:
        page.locator("#key").press("Tab")
        expect(page.locator("#key ~ .field-error.expect-error:not(:empty)")).to_have_count(0)
        expect(page.locator(".ed-answer dd[data-field=winner]")).to_have_text("your left-hand opponent")
    page.get_by_role("button", name="Check and add").click()
    expect(page.locator("#question-1")).to_contain_text("Trick winner")
    if on_table:
        assert _doc(app, qid)["questions"][0]["scenario"] in (TRICK, {**TRICK, "leader": 0})
    page.select_option("#g-ruleset", "hokm")
    page.select_option("#g-gkind", "legal-cards")
    page.fill("#g-seed", "11")
    page.get_by_role("button", name="Preview", exact=True).click()
    expect(page.locator(".preview .exercise")).to_be_visible()
    page.get_by_role("button", name="Add to the quiz").click()
    expect(page.locator("#question-2")).to_contain_text("Legal cards")
    page.goto(f"{base}/en/teach/")
    page.fill("#class-name", f"{title} class")
    page.get_by_role("button", name="New class").click()
    cid = int(re.search(r"/classes/(\d+)", page.url).group(1))
    code = page.locator(".join-code").inner_text().strip()
    expect(page.locator("img.qr")).to_be_visible()
    page.select_option("#what", f"quiz:{qid}")
    page.fill("#due", DUE)
    page.get_by_role("button", name="Assign").click()
    expect(page.locator("#h-assign + ul")).to_contain_text(title)
    return qid, cid, code


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Seats are numbered from 1 to 4, as on the table: there is no seat 5."),
    ("fa", "جایگاه‌ها مانند روی میز از ۱ تا ۴ شماره می‌خورند: جایگاه ۵ وجود ندارد."),
])
def test_the_key_takes_seats_from_1_and_an_edit_shows_it_so(page: Page, live, lang, message):
    """On the table editor the jack of spades is drawn at seat 4, and the key takes it as 4; a
    seat 5 is said once beside the key, live and after saving; the edit page shows the key as 4
    and saving it unchanged keeps the quiz as it was (the engine's seat 3 stored)."""
    base, app = live
    name = f"seats-{lang}"
    _teacher(app, name)
    _log_in(page, base, name, lang)
    page.goto(f"{base}/{lang}/teach/")
    page.fill("#quiz-title", "Seats")
    page.locator("#quiz-title").press("Enter")
    page.wait_for_url(re.compile(r"/quizzes/\d+"))
    qid = int(re.search(r"/quizzes/(\d+)", page.url).group(1))
    page.select_option("#kind", "trick-winner")
    page.fill("#scenario", json.dumps(TRICK))
    page.locator("#scenario").dispatch_event("input")
    page.fill("#key", "5")
    page.locator("#key").press("Tab")
    expect(page.locator("#key ~ .field-error.expect-error")).to_have_text(message)
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#key-error")).to_have_text(message)
    expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
    expect(page.locator("#key")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".field:has(#key)").get_by_text(message, exact=True)).to_have_count(1)  # once, beside the key
    assert _doc(app, qid)["questions"] == []
    page.fill("#key", "4")
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#question-1")).to_be_visible()
    before = _doc(app, qid)
    assert before["questions"][0]["expect"] == {"winner": 3, "card": "JS"}
    page.locator("#question-1 a.button").first.click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/quizzes/{qid}/questions/1/edit$"))
    expect(page.locator("#key")).to_have_value("4")
    expect(page.locator(".table-editor:not([aria-busy])")).to_have_count(1)  # drawn (no eval: the CSP has no unsafe-eval)
    expect(page.locator(".ed-zone[data-field=trick] .ed-placed")).to_have_count(4)
    expect(page.locator("#key ~ .field-error.expect-error")).to_have_count(0)  # the engine agrees with 4
    page.locator("form.authoring button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/quizzes/{qid}#question-1$"))
    assert _doc(app, qid) == before


@pytest.mark.parametrize(("lang", "required"), [("en", "This field is required."), ("fa", "پر کردن این فیلد لازم است.")])
def test_a_refused_new_lesson_keeps_the_text_and_focuses_the_field(page: Page, live, lang, required):
    """A new lesson sent without its goal comes back with the message beside the goal, the focus
    (and the view) on the goal, and the text typed kept; nothing is made; axe finds nothing."""
    from axe_playwright_python.sync_playwright import Axe

    base, app = live
    name = f"refused-{lang}"
    _teacher(app, name)
    _log_in(page, base, name, lang)
    page.set_viewport_size({"width": 390, "height": 800})
    body = "Trumps beat every other suit.\n\nA ruff wins the trick."
    page.fill("#lesson-title", "Ruffing")
    page.fill("#lesson-body", body)
    page.locator("form[action$='/teach/lessons/'] button[type=submit]").click()
    expect(page.locator("#lesson-goal")).to_be_focused()
    expect(page.locator("#lesson-goal")).to_be_in_viewport()
    expect(page.locator("#lesson-goal-error")).to_have_text(required)
    expect(page.locator(".field-error")).to_have_count(1)
    expect(page.locator("#lesson-body")).to_have_value(body)
    expect(page.locator("#lesson-title")).to_have_value("Ruffing")
    expect(page.locator("#h-lessons ~ ul.plain-list")).to_have_count(0)  # no lesson made
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()


def _click_answer(page: Page, ex, value) -> None:
    for name, v in form_for(ex, value).items():
        for item in v if isinstance(v, list) else [v]:
            page.locator(f"label:has(> input[name='{name}'][value='{item}'])").click()


def test_teacher_journey(page: Page, live, browser):
    base, app = live
    _teacher(app, "journey")
    _log_in(page, base, "journey")
    qid, cid, code = _build(page, base, app, "Trumps", on_table=True)
    doc = _doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])

    learner = browser.new_page()
    learner.goto(f"{base}/en/join")
    learner.fill("#code", code.lower())
    learner.fill("#nickname", "Zari")
    learner.get_by_role("button", name="Join").click()
    expect(learner).to_have_url(re.compile(r"/en/classes/$"))
    learner.get_by_role("link", name="Trumps").click()
    _click_answer(learner, exercise_of(doc["questions"][0]), 0)  # the ace of diamonds: wrong
    learner.get_by_role("button", name="Check my answer").click()
    expect(learner.locator(".verdict.wrong")).to_be_visible()
    learner.get_by_role("link", name="Next question").click()
    _click_answer(learner, ex2, expected(ex2))
    learner.get_by_role("button", name="Check my answer").click()
    expect(learner.locator(".verdict.good")).to_be_visible()
    learner.get_by_role("link", name="See my results").click()
    points = doc["questions"][1]["points"]
    expect(learner.locator(".score-big")).to_have_text(f"Score: {points} of {points + 1} points")
    learner.close()

    page.goto(f"{base}/en/teach/classes/{cid}")
    page.get_by_role("link", name="Trumps").click()
    row = page.locator(".results-table tbody tr", has_text="Zari")
    expect(row.locator("td.wrong")).to_contain_text("Winner:")  # the wrong answer, in words
    expect(row.locator("td.good")).to_have_count(1)
    stats = page.locator(".stats-table tbody tr")
    expect(stats.nth(0).locator("td").nth(1)).to_have_text("0%")   # share correct of Q1
    expect(stats.nth(0).locator("td").nth(5)).to_contain_text("Winner:")  # most common wrong answer (after the discrimination index and the rating)
    expect(stats.nth(1).locator("td").nth(2)).to_have_text("100%")  # facility of Q2
    expect(page.locator(".weak")).to_contain_text("H")
    with page.expect_download() as dl:
        page.get_by_role("link", name="Download the results (CSV)").click()
    data = dl.value.path().read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # the UTF-8 byte order mark, for Excel
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [(r["learner"], r["question"], r["first_correct"]) for r in rows] == [("Zari", "1", "no"), ("Zari", "2", "yes")]
    assert rows[0]["first_answer"] == "1"  # the ace of diamonds, seat 1 as on the page and in the key
    expect(stats.nth(0).locator("td.rating")).to_contain_text("±")  # the Glicko-2 rating beside the shares

    # the quiz's worksheet, its answer key (PDF, built while a status says so) and the Moodle XML
    page.goto(f"{base}/en/teach/quizzes/{qid}")
    prompts = [" ".join(t.split()) for t in page.locator(".q-prompt").all_inner_texts()]
    assert len(prompts) == 2 and all(prompts)
    from tutor.content.kinds import KINDS

    # on paper the trick-winner question (question 1) asks without "click": its kind's print prompt
    assert prompts[0] == KINDS["trick-winner"].prompt
    prompts[0] = KINDS["trick-winner"].print_prompt
    downloads = page.locator("#downloads")
    with page.expect_download() as dl:
        downloads.get_by_role("link", name="Worksheet (PDF)").click()
    expect(page.locator(".pdf-status")).to_have_text("The PDF is ready.")
    sheet = _pdf_text(dl.value.path())
    assert "Trumps" in sheet and all(p in sheet for p in prompts), (prompts, sheet[:400])
    assert "Click" not in sheet
    assert "highest trump" not in sheet  # no key on the worksheet
    with page.expect_download() as dl:
        downloads.get_by_role("link", name="Answer key (PDF)").click()
    key = _pdf_text(dl.value.path())
    assert "Trumps: answer key" in key and all(p in key for p in prompts)
    assert "The jack of spades is the highest trump" in key  # the engine's reason for question 1
    with page.expect_download() as dl:
        downloads.get_by_role("link", name="Moodle XML").click()
    from lxml import etree
    root = etree.fromstring(dl.value.path().read_bytes())
    questions = [q for q in root.findall("question") if q.get("type") != "category"]
    assert [q.findtext("idnumber") for q in questions] == [q["id"] for q in doc["questions"]]
    right = [a.findtext("text") for a in questions[0].findall("answer") if float(a.get("fraction")) > 0]
    assert right == ["your left-hand opponent — jack of spades"]


def _pdf_text(path) -> str:
    """The text of a PDF (poppler's pdftotext), spaces and line ends folded to one space."""
    import shutil
    import subprocess

    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    if not shutil.which("pdftotext"):
        unavailable("pdftotext", "not on PATH", "install poppler-utils (apt-get install poppler-utils)")
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_teacher_and_class_pages_pass_axe(page: Page, live, browser, lang):
    from axe_playwright_python.sync_playwright import Axe

    base, app = live
    name = f"axe-{lang}"
    _teacher(app, name)
    _log_in(page, base, name)
    qid, cid, code = _build(page, base, app, f"Axe {lang}")
    learner = browser.new_page()
    learner.goto(f"{base}/{lang}/join?code={code}")
    learner.fill("#nickname", "Omid")
    learner.locator("form.panel button[type=submit]").click()
    axe = Axe()
    learner.goto(f"{base}/{lang}/classes/")
    link = learner.locator(".assignments a").first.get_attribute("href")
    aid = int(re.search(r"/assignments/(\d+)/", link).group(1))
    learner_pages = [f"/{lang}/join", f"/{lang}/classes/", f"/{lang}/classes/{cid}/assignments/{aid}/1"]
    for url in learner_pages:
        learner.goto(base + url)
        result = axe.run(learner)
        assert result.violations_count == 0, (url, result.generate_report())
    _click_answer(learner, exercise_of(_doc(app, qid)["questions"][0]), 0)
    learner.locator("form.answer-form button[type=submit]").click()
    for url in (learner.url, f"{base}/{lang}/classes/{cid}/assignments/{aid}/results"):
        learner.goto(url)
        result = axe.run(learner)
        assert result.violations_count == 0, (url, result.generate_report())
    learner.close()
    page.goto(f"{base}/en/teach/")
    page.fill("#lesson-title", "Trumps first")
    page.fill("#lesson-goal", "Know that a trump wins")
    page.fill("#lesson-body", "A **trump** beats any card of another suit.\n\n```exercise\nid: t1\nkind: trick-winner\n"
              f"prompt: Who wins?\ndifficulty: 1\nscenario: {json.dumps(TRICK)}\nexpect: {{winner: 3}}\n```\n")
    page.get_by_role("button", name="New lesson").click()
    lid = int(re.search(r"/lessons/(\d+)", page.url).group(1))
    expect(page.locator(".lesson .exercise")).to_be_visible()
    teacher_pages = [f"/{lang}/teach/", f"/{lang}/teach/lessons/{lid}", f"/{lang}/teach/quizzes/{qid}", f"/{lang}/teach/quizzes/{qid}/questions/1/preview",
                     f"/{lang}/teach/quizzes/{qid}/questions/1/edit",
                     f"/{lang}/teach/classes/{cid}", f"/{lang}/teach/classes/{cid}/assignments/{aid}"]
    for url in teacher_pages:
        page.goto(base + url)
        result = axe.run(page)
        assert result.violations_count == 0, (url, result.generate_report())
    # a wrong key flagged beside its field, and the log-in page, pass too
    page.goto(f"{base}/{lang}/teach/quizzes/{qid}")
    page.select_option("#kind", "trick-winner")
    page.fill("#scenario", json.dumps(TRICK))
    page.fill("#key", "1")
    page.locator("form.authoring button[type=submit]").click()
    expect(page.locator("#key-error")).to_be_visible()
    result = axe.run(page)
    assert result.violations_count == 0, result.generate_report()
    fresh = browser.new_page()
    fresh.goto(f"{base}/{lang}/teach/login")
    result = axe.run(fresh)
    assert result.violations_count == 0, result.generate_report()
    fresh.close()


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_results_class_and_learner_pages_fit_a_phone(page: Page, live, browser, lang):
    """At 390 px the results, class and learner pages never scroll sideways: the compact results
    grid of two questions fits the phone (a wider one scrolls inside its own region:
    test_browser_results.py); a nickname starting with "=" keeps its own direction in Persian."""
    base, app = live
    name = f"phone-{lang}"
    _teacher(app, name)
    _log_in(page, base, name)
    qid, cid, code = _build(page, base, app, f"Phone {lang}")
    nickname = '=HYPERLINK("http://x")'
    learner = browser.new_page()
    learner.goto(f"{base}/{lang}/join?code={code}")
    learner.fill("#nickname", nickname)
    learner.locator("form.panel button[type=submit]").click()
    link = learner.locator(".assignments a").first.get_attribute("href")
    aid = int(re.search(r"/assignments/(\d+)/", link).group(1))
    learner.goto(f"{base}/{lang}/classes/{cid}/assignments/{aid}/1")
    _click_answer(learner, exercise_of(_doc(app, qid)["questions"][0]), 0)
    learner.locator("form.answer-form button[type=submit]").click()
    expect(learner.locator(".verdict.wrong")).to_be_visible()
    learner.close()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{base}/{lang}/teach/classes/{cid}/assignments/{aid}")
    mid = page.locator(".results-table tbody th a").first.get_attribute("href").rsplit("/", 1)[-1]
    for url in (f"/{lang}/teach/classes/{cid}/assignments/{aid}", f"/{lang}/teach/classes/{cid}",
                f"/{lang}/teach/classes/{cid}/assignments/{aid}/learners/{mid}"):
        page.goto(base + url)
        assert page.evaluate("document.documentElement.scrollWidth") == 390, url
    page.goto(f"{base}/{lang}/teach/classes/{cid}/assignments/{aid}")
    region = page.get_by_role("region", name={"en": "Learners", "fa": "یادگیرندگان"}[lang])
    # the compact grid of two questions fits the phone (issue 18); a grid of 20 questions scrolls
    # inside its region, by keyboard too, the names sticky: tests/test_browser_results.py
    assert region.evaluate("e => e.scrollWidth <= e.clientWidth")
    cell = page.locator(".results-table tbody th bdi").first
    expect(cell).to_have_text(nickname)
    # the "=" is drawn first, at the left of the name's first line, in both directions; both read in
    # one frame
    line, first = page.evaluate(
        "() => { const b = document.querySelector('.results-table tbody th bdi'); const r = document.createRange();"
        " r.setStart(b.firstChild, 0); r.setEnd(b.firstChild, 1);"
        " return [b.getClientRects()[0].left, r.getBoundingClientRect().left]; }")
    assert abs(first - line) < 2


NO_TRUMP = {"ruleset": "hokm", "ask": "trick-winner", "trump": "H", "trick": ["AD", "2S", "KD", "JS"]}


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_class_lesson_count_follows_answers_in_place(page: Page, live, browser, lang):
    """A learner answers a teacher's lesson (in English) with JavaScript: each verdict comes in
    place, without a reload, and the header's count of exercises answered right follows it, in
    the page's language and digits."""
    base, app = live
    name = f"count-{lang}"
    _teacher(app, name)
    _log_in(page, base, name)
    page.fill("#lesson-title", f"Count {lang}")
    page.fill("#lesson-goal", "Know who wins a trick")
    page.fill("#lesson-body", "A **trump** wins.\n\n```exercise\nid: t1\nkind: trick-winner\nprompt: Who wins?\n"
              f"difficulty: 1\nscenario: {json.dumps(TRICK)}\nexpect: {{winner: 3}}\n```\n\nNo trump played.\n\n"
              "```exercise\nid: t2\nkind: trick-winner\nprompt: And now?\ndifficulty: 1\n"
              f"scenario: {json.dumps(NO_TRUMP)}\nexpect: {{winner: 0}}\n```\n")
    page.get_by_role("button", name="New lesson").click()
    lid = int(re.search(r"/lessons/(\d+)", page.url).group(1))
    page.goto(f"{base}/en/teach/")
    page.fill("#class-name", f"Count {lang} class")
    page.get_by_role("button", name="New class").click()
    code = page.locator(".join-code").inner_text().strip()
    page.select_option("#what", f"lesson:{lid}")
    page.get_by_role("button", name="Assign").click()
    expect(page.locator("#h-assign + ul")).to_contain_text(f"Count {lang}")
    learner = browser.new_page()
    learner.goto(f"{base}/{lang}/join?code={code}")
    learner.fill("#nickname", "Omid")
    learner.locator("form.panel button[type=submit]").click()
    learner.locator(".assignments a").first.click()
    expect(learner).to_have_url(re.compile(rf"/{lang}/classes/\d+/lessons/\d+/$"))

    def count(right: int) -> str:
        with i18n.using(lang):
            return i18n.exercises_right_label(right, 2)
    progress = learner.locator("#lesson-progress")
    expect(progress).to_have_text(count(0))
    learner.evaluate("window.tutorMarker = 'kept'")

    def answer(ex: str, seat: int, verdict: str) -> None:
        section = learner.locator(f"#ex-{ex}")
        section.locator(f"label:has(> input[name='seat'][value='{seat}'])").click()
        section.locator("button[type=submit]").click()
        expect(learner.locator(f"#ex-{ex} .verdict.{verdict}")).to_be_visible()
    answer("t1", 0, "wrong")
    expect(progress).to_have_text(count(0))
    learner.locator("#ex-t1 a.retry").click()  # the question again, in place
    expect(learner.locator("#ex-t1 button[type=submit]")).to_be_visible()
    answer("t1", 3, "good")
    expect(progress).to_have_text(count(1))
    answer("t2", 0, "good")
    expect(progress).to_have_text(count(2))
    expect(learner.locator("#lesson-progress")).to_have_count(1)
    assert learner.evaluate("window.tutorMarker") == "kept"  # no reload: the count came in place
    learner.reload()
    expect(progress).to_have_text(count(2))
    learner.close()
