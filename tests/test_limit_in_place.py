"""An answer over the rate limit keeps the learner in the exercise (issue 19): with script, the
exercise stays as it was, with the answer chosen, and a message beside the form counts down the
seconds of Retry-After in the learner's language and digits; without script, the 429 page says
how long to wait and links back to the step (a page of this site only)."""

from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import expect
from test_browser_loop import give, step_of, t
from web_support import HIGH_LIMITS, counted, csrf_of, expected, form_for, lesson_exercise, make_app
from werkzeug.serving import make_server

from tutor import i18n


def _step(lang: str):
    return step_of("hokm", lang, lambda s: any(e.kind == "trick-winner" for e in s.exercises))


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_step_page_carries_the_wait_message_in_the_learners_language(tmp_path, lang):
    app = make_app(tmp_path)
    step = _step(lang)
    page = app.test_client().get(f"/{lang}/learn/hokm/{step.id}").get_data(as_text=True)
    form = re.search(r'<form [^>]*class="answer-form"[^>]*>', page).group(0)
    message = re.search(r'data-limit-message="([^"]*)"', form).group(1)
    assert message == t(lang, "Too many answers in a short time: you can answer again in %(n)s s. "
                              "Your answer stays here.", n="{n}")
    assert "{n}" in message and (lang == "en" or "ثانیه" in message)
    assert re.search(r'data-limit-over="([^"]*)"', form).group(1) == t(lang, "You can answer again now.")


def test_without_script_the_429_page_gives_the_wait_and_the_way_back(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=HIGH_LIMITS | {"answer": counted("1/minute")})
    client = app.test_client()
    step, ex = lesson_exercise("hokm", "trick-winner")
    step_url = f"/fa/learn/hokm/{step.id}"
    data = form_for(ex, expected(ex)) | {"csrf_token": csrf_of(client.get(step_url).get_data(as_text=True))}
    url = f"{step_url}/{ex.id}"
    assert client.post(url, data=data).status_code == 302
    r = client.post(url, data=data, headers={"Referer": f"http://localhost{step_url}"})
    assert r.status_code == 429
    wait = int(r.headers["Retry-After"])
    assert 1 <= wait <= 60
    page = r.get_data(as_text=True)
    with i18n.using("fa"):
        digits = i18n.fmt_number(wait)
    assert t("fa", "You can try again in %(n)s s.", n=digits) in page
    assert f'<a class="button primary" href="{step_url}">{t("fa", "Back to where you were")}</a>' in page
    # a page of another site, or a path that another host would read as its own, gets no link
    for referer in ("http://evil.example/fa/learn", f"http://localhost//evil.example{step_url}"):
        page = client.post(url, data=data, headers={"Referer": referer}).get_data(as_text=True)
        assert t("fa", "Back to where you were") not in page


@pytest.fixture
def limited_live(tmp_path):
    """(base URL, app) of a server whose answers are limited to one a minute."""
    app = make_app(tmp_path, RATE_LIMITS=HIGH_LIMITS | {"answer": counted("1/minute")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join(timeout=5)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_with_script_the_exercise_stays_and_counts_down(browser, limited_live, lang):
    base, _app = limited_live
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    step = _step(lang)
    ex = next(e for e in step.exercises if e.kind == "trick-winner")
    url = f"{base}/{lang}/learn/hokm/{step.id}"
    page.goto(url)
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, expected(ex))
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#ex-{ex.id} .verdict")).to_be_visible(timeout=20_000)  # the one answer allowed
    page.goto(url)
    section = page.locator(f"#ex-{ex.id}")
    give(section, ex, expected(ex))
    chosen = {name: value for name, value in form_for(ex, expected(ex)).items()}
    page.evaluate("window.tutorMarker = 'kept'")
    with page.expect_response(lambda r: r.request.method == "POST" and r.status == 429) as refused:
        section.locator("button[type=submit]").click()
    wait = int(refused.value.headers["retry-after"])
    assert 1 <= wait <= 60
    note = section.locator("form.answer-form .limit-wait")
    expect(note).to_be_visible(timeout=20_000)
    with i18n.using(lang):
        shown = i18n.fmt_number(wait)
    assert note.inner_text() == t(lang, "Too many answers in a short time: you can answer again in %(n)s s. "
                                        "Your answer stays here.", n=shown)
    # the same page, the same exercise unanswered, the answer still chosen, the button held
    assert page.url == url and page.evaluate("window.tutorMarker") == "kept"
    expect(section.locator(".verdict")).to_have_count(0)
    for name, value in chosen.items():
        expect(section.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()
    expect(section.locator("button[type=submit]")).to_be_disabled()
    assert page.evaluate("document.activeElement.classList.contains('limit-wait')")
    # the count runs out by the second: then the button is back
    expect(note).to_have_text(t(lang, "You can answer again now."), timeout=(wait + 10) * 1000)
    expect(section.locator("button[type=submit]")).to_be_enabled()
    context.close()
