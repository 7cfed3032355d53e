"""The rendered-page cache (tutor.web.pagecache): lesson step pages before an answer are kept per
language, suit colours and step state (done, stars, exercises answered right), never with a learner's CSRF token, answer or verdict."""

from __future__ import annotations

import re

import pytest
from web_support import csrf_of, expected, form_for, lesson_exercise, make_app, wrong_value

from tutor.web.pagecache import PageCache, csrf_placeholder


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


def _tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" value="([^"]+)"', html))


def test_two_learners_get_the_same_step_each_with_their_own_token(app):
    step, _ex = lesson_exercise("hokm", "legal-cards")
    a, b = app.test_client(), app.test_client()
    url = f"/en/learn/hokm/{step.id}"
    page_a = a.get(url).get_data(as_text=True)
    page_b = b.get(url).get_data(as_text=True)
    cache = app.extensions["tutor_page_cache"]
    assert cache.hits >= 1  # the second learner was served the kept page
    assert [k for k in cache._data if k[0] == "step"] == [("step", "en", False, "hokm", step.id, False, 0, ())]
    ta, tb = _tokens(page_a), _tokens(page_b)
    assert len(ta) == 1 and len(tb) == 1 and ta != tb  # each page carries its own learner's token
    assert csrf_placeholder() not in page_a + page_b
    assert page_a.replace(ta.pop(), "T") == page_b.replace(tb.pop(), "T")
    # each token works for its own learner
    _s, ex = lesson_exercise("hokm", "legal-cards")
    data = form_for(ex, expected(ex))
    assert b.post(f"{url}/{ex.id}", data=data | {"csrf_token": csrf_of(page_b)}).status_code == 302


def test_language_colours_and_state_are_in_the_key(app):
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = app.test_client()
    en = c.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    fa = c.get(f"/fa/learn/hokm/{step.id}").get_data(as_text=True)
    assert 'lang="en"' in en and 'lang="fa" dir="rtl"' in fa
    c.set_cookie("suits", "4")
    four = c.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    assert 'class="four-colour"' in four and 'class="two-colour"' in en
    assert "answered this one right before" not in en
    r = c.post(f"/en/learn/hokm/{step.id}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(en)})
    assert r.status_code == 302
    after = c.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    assert "answered this one right before" in after  # this learner's state, not the page kept before
    other = app.test_client().get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    assert "answered this one right before" not in other  # and not another learner's


def test_verdicts_and_errors_are_never_kept(app):
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = app.test_client()
    url = f"/en/learn/hokm/{step.id}"
    page = c.get(url).get_data(as_text=True)
    wrong = form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(page)}
    r = c.post(f"{url}/{ex.id}", data=wrong)
    feedback = c.get(r.headers["Location"]).get_data(as_text=True)
    assert "Not quite" in feedback
    bad = c.post(f"{url}/{ex.id}", data={"csrf_token": csrf_of(page)})
    assert bad.status_code == 400
    for html in app.extensions["tutor_page_cache"]._data.values():
        assert "Not quite" not in html and "The right answer" not in html and 'role="alert"' not in html
        assert csrf_placeholder() in html and not (_tokens(html) - {csrf_placeholder()})
    assert "Not quite" not in app.test_client().get(url).get_data(as_text=True)


def test_the_cache_is_bounded_and_can_be_turned_off(tmp_path):
    cache = PageCache(2)
    for k in "abc":
        cache.put(k, k * 3)
    assert len(cache) == 2 and cache.get("a") is None and cache.get("c") == "ccc"
    off = make_app(tmp_path, PAGE_CACHE_SIZE=0)
    step, _ex = lesson_exercise("hokm", "legal-cards")
    c = off.test_client()
    assert c.get(f"/en/learn/hokm/{step.id}").status_code == 200
    assert c.get(f"/en/learn/hokm/{step.id}").status_code == 200
    assert len(off.extensions["tutor_page_cache"]) == 0
