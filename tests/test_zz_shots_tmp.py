import json, re, subprocess
from playwright.sync_api import Page, expect
from test_browser_teach import _deal_on_table, _teacher, _log_in, _build, _doc, _click_answer
from web_support import expected, form_for
from tutor.web.authoring import exercise_of

OUT = "/tmp/wt_scratch/shots"

def test_shots(page: Page, live, browser):
    base, app = live
    _teacher(app, "shots")
    _log_in(page, base, "shots")
    qid, cid, code = _build(page, base, app, "Trumps", on_table=True)
    # a learner with one wrong answer so the results have ratings
    doc = _doc(app, qid)
    learner = browser.new_page()
    learner.goto(f"{base}/en/join?code={code}")
    learner.fill("#nickname", "Zari")
    learner.locator("form.panel button[type=submit]").click()
    learner.goto(f"{base}/en/classes/")
    link = learner.locator(".assignments a").first.get_attribute("href")
    aid = int(re.search(r"/assignments/(\d+)/", link).group(1))
    learner.close()
    for lang in ("en", "fa"):
        for w in (390, 1280):
            page.set_viewport_size({"width": w, "height": 900})
            page.goto(f"{base}/{lang}/teach/quizzes/{qid}?sheet={'te' if lang == 'fa' else 'fa'}")
            page.wait_for_function("document.querySelector('.table-editor') && document.querySelector('.table-editor').getAttribute('aria-busy') === null")
            if lang == "en":
                _deal_on_table(page)
            else:
                page.select_option("#kind", "trick-winner")
                page.locator("textarea[name=scenario]").fill(json.dumps({"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}))
                page.locator("textarea[name=scenario]").press("Tab")
            page.fill("#key", "1")
            page.locator("#key").press("Tab")
            page.locator("#key ~ .field-error.expect-error").wait_for()
            page.screenshot(path=f"{OUT}/quiz-{lang}-{w}.png", full_page=True)
        page.goto(f"{base}/{lang}/teach/classes/{cid}/assignments/{aid}")
        page.screenshot(path=f"{OUT}/results-{lang}-1280.png", full_page=True)
    for lang in ("fa", "te"):
        for key in ("", "?key=1"):
            r = page.request.get(f"{base}/{lang}/teach/quizzes/{qid}/worksheet/hokm/pdf{key}")
            name = f"{OUT}/sheet-{lang}{'-key' if key else ''}"
            open(name + ".pdf", "wb").write(r.body())
            subprocess.run(["pdftoppm", "-r", "70", "-png", name + ".pdf", name], check=True)
    page.set_viewport_size({"width": 390, "height": 900})
    learner = browser.new_page()
    learner.set_viewport_size({"width": 390, "height": 900})
    page = learner
    page.goto(f"{base}/fa/ask")
    page.locator("textarea[name=scenario]").fill(json.dumps(doc["questions"][1]["scenario"]))
    page.locator("form.ask-form button[type=submit]").click()
    page.locator(".scenario-field").screenshot(path=f"{OUT}/ask-refused-fa-390.png")
    page.wait_for_function("document.querySelector('.table-editor').getAttribute('aria-busy') === null")
    page.locator(".ed-answer").screenshot(path=f"{OUT}/ask-refused-live-fa-390.png")
