"""The rendered-page cache (tutor.web.pagecache): lesson step pages before an answer are kept per
language, suit colours and step state (done, stars, exercises answered right), never with a learner's CSRF token, answer or verdict."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from markupsafe import escape
from web_support import csrf_of, expected, form_for, lesson_exercise, make_app, wrong_value
from werkzeug.datastructures import MultiDict

from tutor.web import exercises as X
from tutor.web.pagecache import PageCache, csrf_placeholder
from tutor.web.views import progress


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
    assert [k for k in cache._data if k[2][0] == "step"] == [("", "en", ("step", "en", False, "hokm", step.id, False, 0, ()))]
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


#: Keys of kept HTML that holds a verdict: each names the answer given (its last part).
ANSWERED = {"step-answered", "answered", "quiz-feedback"}


def kept(app, store: str | None = None) -> list[tuple[str, tuple, str]]:
    """Every entry kept: ``(store, key as the view gave it, html)``; a key is kept scoped by the
    script root and the links' language, ``(root, lang, key)``."""
    from tutor.web.pagecache import STORES

    out = []
    for name, (_setting, _default, ext) in STORES.items():
        if store in (None, name) and ext in app.extensions:
            out += [(name, key[2], html) for key, html in app.extensions[ext]._data.items()]
    return out


def test_a_verdict_is_kept_only_under_its_answer_and_errors_are_never_kept(app):
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = app.test_client()
    url = f"/en/learn/hokm/{step.id}"
    page = c.get(url).get_data(as_text=True)
    wrong = form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(page)}
    r = c.post(f"{url}/{ex.id}", data=wrong)
    feedback_url = r.headers["Location"]
    feedback = c.get(feedback_url).get_data(as_text=True)
    assert "Not quite" in feedback
    assert c.get(feedback_url).get_data(as_text=True) == feedback  # served again from what was kept
    bad = c.post(f"{url}/{ex.id}", data={"csrf_token": csrf_of(page)})
    assert bad.status_code == 400
    verdicts = 0
    for store, key, html in kept(app):
        assert 'role="alert"' not in html  # a form error is never kept
        assert not (_tokens(html) - {csrf_placeholder()}) and (csrf_placeholder() in html) == ("<form" in html)
        if "Not quite" in html or "The right answer" in html:
            verdicts += 1
            assert key[0] in ANSWERED and json.loads(key[-1]) == X.read_form(ex, MultiDict(wrong))  # under the answer
            assert store == "open"  # with what learners' input multiplies, apart from the content
        if key[0] not in ANSWERED:
            assert "Not quite" not in html and "verdict good" not in html
    assert verdicts == 2  # the section, and the page after the answer around it
    other = app.test_client()  # another learner: the page before an answer, never the verdict kept
    assert "Not quite" not in other.get(url).get_data(as_text=True)
    assert "Not quite" not in other.get(feedback_url).get_data(as_text=True)  # nor through the first one's link
    page = other.get(url).get_data(as_text=True)
    right = form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)}
    mine = other.get(other.post(f"{url}/{ex.id}", data=right).headers["Location"]).get_data(as_text=True)
    assert "Not quite" not in mine and "verdict good" in mine  # a different answer: its own verdict


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


# ---------------------------------------------------------------------------------------------- progress

class _Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


def _answer(c, ex, step, right: bool) -> None:
    page = c.get(f"/en/learn/{step.ruleset}/{step.id}").get_data(as_text=True)
    value = expected(ex) if right else wrong_value(ex, expected(ex))
    r = c.post(f"/en/learn/{step.ruleset}/{step.id}/{ex.id}", data=form_for(ex, value) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302


def test_progress_page_is_kept_for_its_learner_until_they_answer_or_rename(tmp_path):
    app = make_app(tmp_path)
    step, ex = lesson_exercise("hokm", "legal-cards")
    a, b = app.test_client(), app.test_client()
    _answer(a, ex, step, right=False)
    first = a.get("/en/progress/").get_data(as_text=True)
    cache = app.extensions["tutor_learner_page_cache"]
    hits = cache.hits
    again = a.get("/en/progress/").get_data(as_text=True)
    assert cache.hits == hits + 1 and again == first  # served as kept: no new answer meanwhile
    assert csrf_placeholder() not in again and _tokens(again) == _tokens(first) and len(_tokens(again)) == 1
    _answer(a, ex, step, right=True)
    after = a.get("/en/progress/").get_data(as_text=True)
    assert cache.hits == hits + 1 and after != first  # a new answer: a new version, rendered again
    r = a.post("/en/progress/name", data={"name": "Parisa", "csrf_token": csrf_of(after)})
    assert r.status_code == 302
    named = a.get("/en/progress/").get_data(as_text=True)
    assert "Progress of Parisa" in named and "Progress of Parisa" not in after
    # another learner never gets this learner's page (nor its token)
    _answer(b, ex, step, right=True)
    other = b.get("/en/progress/").get_data(as_text=True)
    assert "Parisa" not in other and not (_tokens(other) & _tokens(named))
    assert all(k[2][1][0] in {_learner_id(app, c) for c in (a, b)} for k in cache._data)


def _learner_id(app, client) -> int:
    from sqlalchemy import select

    from tutor.domain.models import Learner
    with client.session_transaction() as sess:
        anon = sess["learner"]
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return db.scalar(select(Learner.id).where(Learner.anon_id == anon))
        finally:
            db.close()


def _card_due(app) -> datetime:
    from sqlalchemy import select

    from tutor.domain.models import Mistake
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            return db.scalars(select(Mistake.due)).one()
        finally:
            db.close()


def test_kept_progress_page_is_not_served_past_a_card_falling_due(tmp_path):
    from tutor import i18n

    clock = _Clock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    app = make_app(tmp_path, CLOCK=clock)
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = app.test_client()
    _answer(c, ex, step, right=False)  # a review card, due at once
    _answer(c, ex, step, right=True)  # now due later
    with i18n.using("en"):
        due_now = str(escape(i18n.ngettext("%(num)s review due now", "%(num)s reviews due now", 1)))
    due = _card_due(app).replace(tzinfo=UTC)
    assert due > clock.at
    clock.at = due - timedelta(seconds=30)
    before = c.get("/en/progress/").get_data(as_text=True)
    assert due_now not in before
    clock.at = due + timedelta(seconds=1)  # past the card's due time, within the page's keeping time
    assert progress.KEEP_SECONDS > 31
    after = c.get("/en/progress/").get_data(as_text=True)
    assert due_now in after
    clock.at += timedelta(seconds=1)
    hits = app.extensions["tutor_learner_page_cache"].hits
    assert c.get("/en/progress/").get_data(as_text=True) == after
    assert app.extensions["tutor_learner_page_cache"].hits == hits + 1


def test_learner_page_cache_can_be_turned_off(tmp_path):
    off = make_app(tmp_path, LEARNER_PAGE_CACHE_SIZE=0)
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = off.test_client()
    _answer(c, ex, step, right=False)
    assert c.get("/en/progress/").get_data(as_text=True).count("csrf_token") >= 1
    assert c.get("/en/progress/").status_code == 200
    assert len(off.extensions["tutor_learner_page_cache"]) == 0


def _statements(app, fn) -> list[str]:
    """The SQL statements run while ``fn()`` runs."""
    from sqlalchemy import event

    engine = app.extensions["tutor_db"].kw["bind"]
    seen: list[str] = []

    def listen(_conn, _cursor, statement, *_rest) -> None:
        seen.append(statement)
    event.listen(engine, "before_cursor_execute", listen)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    return seen


def test_kept_pages_cost_one_query_and_an_answer_is_not_read_back(tmp_path):
    app = make_app(tmp_path)
    step, ex = lesson_exercise("hokm", "legal-cards")
    c = app.test_client()
    url = f"/en/learn/hokm/{step.id}"
    page = c.get(url).get_data(as_text=True)
    fetch = {"X-Tutor-Fetch": "1", "Accept": "text/html"}
    wrong = form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(page)}
    assert c.post(f"{url}/{ex.id}", data=wrong, headers=fetch).status_code == 200  # the learner made
    data = form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)}
    answered = _statements(app, lambda: c.post(f"{url}/{ex.id}", data=data, headers=fetch))
    # the learner, the review card, skills, both ratings and the step's row are read once each,
    # and the step's wrong answers counted (its stars) if this answer finishes it; the step's row
    # just written is not read again for the section sent back
    finishes = len(step.exercises) == 1
    assert sum(s.lstrip().upper().startswith("SELECT") for s in answered) == 6 + finishes, answered
    assert sum("count(*)" in s and "FROM attempt" in s for s in answered) == finishes
    assert sum("FROM step_progress" in s for s in answered) == 1
    c.get(url)
    step_sql = _statements(app, lambda: c.get(url))
    assert len(step_sql) == 1 and "JOIN learner" in step_sql[0]  # the kept step page: one query
    c.get("/en/progress/")
    progress_sql = _statements(app, lambda: c.get("/en/progress/"))
    assert len(progress_sql) == 1  # the kept progress page: the version query alone


def test_a_page_kept_for_several_addresses_links_to_its_own(app):
    """Two learners give the same answer: the page after it is kept once, yet each one's copy goes
    back to their own address (the settings form's ``next``), and the kept header links to this
    very page in each language."""
    step, ex = lesson_exercise("hokm", "legal-cards")
    url = f"/en/learn/hokm/{step.id}"
    seen = []
    for _ in range(2):
        c = app.test_client()
        page = c.get(url).get_data(as_text=True)
        where = c.post(f"{url}/{ex.id}", data=form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(page)}
                       ).headers["Location"]
        html = c.get(where).get_data(as_text=True)
        path = where.split("#")[0]
        assert f'name="next" value="{escape(path)}"' in html
        assert f'href="/fa/learn/hokm/{step.id}" lang="fa"' in html and f'href="/te/learn/hokm/{step.id}" lang="te"' in html
        seen.append(path)
    assert seen[0] != seen[1]  # two attempts, two addresses
    other = app.test_client().get("/en/practice/").get_data(as_text=True)  # the same header kept, another page
    assert 'href="/fa/practice/" lang="fa"' in other and f"/fa/learn/hokm/{step.id}" not in other


def test_a_head_request_first_does_not_spoil_the_page_kept(app):
    """A link checker's HEAD before anyone opened the page: the page kept is the GET's, its
    language links lead to this page (found by a learner check, 2026-12-01)."""
    step, _ex = lesson_exercise("hokm", "legal-cards")
    url = f"/te/learn/hokm/{step.id}"
    assert app.test_client().head(url).status_code == 200
    html = app.test_client().get(url).get_data(as_text=True)
    assert f'href="/en/learn/hokm/{step.id}" lang="en"' in html and 'href="/en/" lang="en"' not in html
    assert f'name="next" value="{url}"' in html  # back to this page, without a stray "?"


def test_a_page_without_a_valid_language_keeps_nothing_wrong_for_others(app):
    """A 404 for a made-up language prefix is written in the reader's language (here Persian)
    but links to English pages: what it keeps must not reach the Persian pages (found by an
    attack on the caches, 2026-12-01)."""
    assert app.test_client().get("/zz/", headers={"Accept-Language": "fa"}).status_code == 404
    step, _ex = lesson_exercise("hokm", "legal-cards")
    for url in ("/fa/", f"/fa/learn/hokm/{step.id}"):
        html = app.test_client().get(url).get_data(as_text=True)
        assert 'class="brand" href="/fa/"' in html and 'href="/fa/practice/"' in html, url
        assert 'href="/en/practice/"' not in html, url


def test_a_page_under_another_script_root_keeps_nothing_wrong_for_others(app):
    """The app reached under a prefix (SCRIPT_NAME) links under it; the pages kept then must not
    carry that prefix to requests without it."""
    step, _ex = lesson_exercise("hokm", "legal-cards")
    url = f"/en/learn/hokm/{step.id}"
    prefixed = app.test_client().get(url, base_url="http://localhost/elsewhere/").get_data(as_text=True)
    assert 'href="/elsewhere/en/practice/"' in prefixed
    plain = app.test_client().get(url).get_data(as_text=True)
    assert "/elsewhere/" not in plain and 'href="/en/practice/"' in plain
