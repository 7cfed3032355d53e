"""Attacks and careless input on the teacher tools, classes, play, practice and worksheets (found
by the "breakit" pass): each test is one finding, kept so it cannot come back."""

from __future__ import annotations

import pytest
from teach_support import (  # noqa: F401
    TRICK,
    add_authored,
    add_generated,
    assign,
    join,
    login,
    new_class,
    new_quiz,
    teachers,
)
from web_support import csrf_of

pytestmark = pytest.mark.both_databases

HUGE = ("2147483648", "9223372036854775808", "99999999999999999999999999")


def _class_quiz(app):
    ana = login(app.test_client(), "ana")
    qid = new_quiz(ana)
    add_authored(ana, qid, TRICK, "JS")
    add_generated(ana, qid, 3)
    cid, code = new_class(ana)
    aid = assign(ana, cid, qid)
    learner = app.test_client()
    join(learner, code, "zed")
    return ana, learner, qid, cid, aid


def test_ids_beyond_the_largest_row_key_are_404_not_500(app):
    """Every ``<int:...>`` of a route is range-checked: an id past 2**31-1 (PostgreSQL integer) or
    2**63 (SQLite) was a 500 on the teacher and class pages."""
    ana, learner, qid, cid, aid = _class_quiz(app)
    for big in HUGE:
        for client, url in (
                (ana, f"/en/teach/quizzes/{big}"), (ana, f"/en/teach/classes/{big}"),
                (ana, f"/en/teach/lessons/{big}"), (ana, f"/en/teach/classes/{cid}/assignments/{big}"),
                (ana, f"/en/teach/classes/{cid}/assignments/{big}/results.csv"),
                (ana, f"/en/teach/classes/{big}/qr.svg"),
                (ana, f"/en/teach/quizzes/{qid}/questions/{big}/preview"),
                (ana, f"/en/teach/quizzes/{qid}/questions/{big}/edit"),
                (learner, f"/en/classes/{cid}/assignments/{big}/"),
                (learner, f"/en/classes/{big}/assignments/{aid}/1"),
                (learner, f"/en/classes/{cid}/assignments/{aid}/{big}"),
                (learner, f"/en/classes/{cid}/assignments/{aid}/{big}/feedback"),
                (learner, f"/en/classes/{cid}/assignments/{big}/results"),
                (learner, f"/en/learn/hokm/unit/{big}")):
            r = client.get(url)
            assert r.status_code == 404, (url, r.status_code)
    # the largest key itself is still a route (404 because there is no such row)
    assert ana.get("/en/teach/quizzes/2147483647").status_code == 404
    assert ana.get(f"/en/teach/quizzes/{qid}").status_code == 200


def test_a_nul_character_is_400_not_500(app):
    """PostgreSQL cannot store NUL in text: a quiz title, class name or join code with one, or a
    quiz token with one in the path, was a 500 there. Now 400 before any query, nothing written."""
    ana, learner, _qid, _cid, _aid = _class_quiz(app)
    page = ana.get("/en/teach/").text
    for url, data in (("/en/teach/quizzes/", {"quiz-title": "a\x00b"}),
                      ("/en/teach/classes/", {"class-name": "\x00"})):
        r = ana.post(url, data={"quiz-csrf_token" if "quiz" in url else "class-csrf_token": csrf_of(page),
                                "csrf_token": csrf_of(page), **data})
        assert r.status_code == 400, (url, r.status_code)
        assert "NUL" in r.text
    r = learner.post("/en/join", data={"csrf_token": csrf_of(learner.get("/en/join").text),
                                      "code": "AB\x00CD", "nickname": "zed"})
    assert r.status_code == 400
    assert learner.get("/en/quiz/%00/1").status_code in (400, 404)
    assert learner.get("/en/quiz/ab%00cd/results").status_code in (400, 404)
    # the quizzes and classes are the ones made above, nothing half-written
    home = ana.get("/en/teach/").text
    assert home.count("/en/teach/quizzes/") >= 1 and "a\x00b" not in home


def test_switching_language_on_a_play_page_with_lang_in_its_query(app):
    """``/en/play/?lang=xx`` raised TypeError while building the language links (500)."""
    client = app.test_client()
    for url in ("/en/play/?lang=xx", "/fa/play/hokm?seed=1&lang=en"):
        r = client.get(url)
        assert r.status_code in (200, 302, 400), (url, r.status_code)


def test_a_long_quiz_file_reports_each_question_at_its_own_line(tmp_path):
    """``tutor export`` on a quiz file of 2,000 questions took 9 s (every question was handed
    every line of the file: quadratic); each question now gets its own lines. The problems still
    name the right line of each question."""
    from tutor import cli

    one = "  - kind: trick-winner\n    scenario: {ruleset: hokm, ask: trick-winner, trump: S, trick: [AD, 2S, KD, JS]}\n"
    f = tmp_path / "long.yaml"
    f.write_text("ruleset: hokm\nquestions:\n" + one * 2000, encoding="utf-8")
    from tutor.content.quizzes import parse_quiz
    from tutor.problems import Problems

    problems = Problems()
    parse_quiz(f.read_text(encoding="utf-8"), str(f), problems, match_name=False)
    found = [(p.line, p.message) for p in problems]
    assert (3, "quiz question: missing required field 'id'") in found
    assert (3 + 2 * 1999, "quiz question: missing required field 'id'") in found
    assert cli.main(["export", str(f), "-o", str(tmp_path / "out.yaml")]) == 2


def test_a_nickname_loses_control_and_bidi_characters_and_stays_text_in_the_csv(app):
    """A nickname with a right-to-left override, a bell and a formula: the override and the bell
    are gone from the teacher's pages and the CSV (they reordered the results table and reached the
    spreadsheet), the Persian zero-width non-joiner is kept, and the formula stays text."""
    ana = login(app.test_client(), "ana")
    qid = new_quiz(ana)
    add_generated(ana, qid, 3)
    cid, code = new_class(ana)
    aid = assign(ana, cid, qid)
    one, two, three = app.test_client(), app.test_client(), app.test_client()
    join(one, code, "\u202eevil\u0007 kid")
    join(two, code, "=HYPERLINK(\"http://x\")")
    join(three, code, "\u0646\u0627\u0632\u200c\u06cc")
    blank = app.test_client()
    r = blank.post("/en/join", data={"csrf_token": csrf_of(blank.get("/en/join").text), "code": code,
                                     "nickname": "\u202e\u200b\u0007"})
    assert r.status_code == 400 and "Choose a nickname." in r.text
    page = ana.get(f"/en/teach/classes/{cid}").text
    assert "evil kid" in page and "\u202e" not in page and "\u0007" not in page
    assert "\u0646\u0627\u0632\u200c\u06cc" in page
    csv = ana.get(f"/en/teach/classes/{cid}/assignments/{aid}/results.csv").text
    assert "\u202e" not in csv and "\u0007" not in csv
    assert "'=HYPERLINK" in csv and ",=HYPERLINK" not in csv and "\n=HYPERLINK" not in csv


def test_pdfs_have_a_budget_for_all_clients_together(tmp_path, app_database):
    """A worksheet PDF's build costs up to a second of CPU (seconds for a long quiz, more on a busy
    machine): with only a per-address limit, a few addresses could keep every worker busy.
    ``pdf-all`` caps the builds of all clients together, and the per-address limit still holds; a
    PDF already built (and a reload of a build's progress page) does not count."""
    from web_support import counted, dispose, fetch_pdf, make_app

    from tutor.web import limits

    app = make_app(tmp_path, DATABASE_URL=app_database,
                   RATE_LIMITS={**{a: "100000/minute" for a in limits.ACTIONS}, "pdf": counted("2/day"), "pdf-all": counted("3/day")})
    client = app.test_client()

    def get(addr, seed):
        return fetch_pdf(client, f"/en/worksheet/hokm/pdf?count=5&seed={seed}", environ_base={"REMOTE_ADDR": addr})

    assert get("192.0.2.1", 1).status_code == 200
    assert get("192.0.2.1", 1).status_code == 200  # built already: checked, but not counted
    assert get("192.0.2.1", 2).status_code == 200  # the address's second build
    r = get("192.0.2.1", 3)  # this address's own limit
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert get("192.0.2.2", 3).status_code == 200  # another address: the third build of the day
    r = get("192.0.2.3", 4)  # a fresh address, but all clients together are at their limit
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert r.content_type.startswith("text/html")
    dispose(app)


def test_control_characters_in_yaml_are_a_line_problem_not_a_500(app):
    """A control character in a lesson's exercise block (saved as a draft), in a pasted quiz file
    or in a lesson file was an uncaught YAML ReaderError: the lesson's editor, its export and its
    assignment, and both imports, were 500s. Now each is the problem at its line."""
    import io
    import re

    from test_teachlesson import new_lesson

    ana = login(app.test_client(), "ana")
    body = ("Hi\n\n```exercise\nid: e1\nkind: trick-winner\nprompt: Who\x01?\ndifficulty: 1\n"
            "scenario: {}\nexpect: {}\n```\n")
    lid = new_lesson(ana, body=body)
    page = ana.get(f"/en/teach/lessons/{lid}")
    assert page.status_code == 200
    assert "YAML cannot hold the control character U+0001: delete it" in page.text
    r = ana.get(f"/en/teach/lessons/{lid}/export.md")  # no file: the lesson page, its problems listed
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/en/teach/lessons/{lid}#h-lfile")
    cid, _code = new_class(ana)
    r = ana.post(f"/en/teach/classes/{cid}", data={"csrf_token": csrf_of(ana.get(f"/en/teach/classes/{cid}").text),
                                                   "what": f"lesson:{lid}"})
    assert r.status_code == 400 and 'id="what-error"' in r.text
    qid = new_quiz(ana)
    token = csrf_of(ana.get(f"/en/teach/quizzes/{qid}").text)
    r = ana.post(f"/en/teach/quizzes/{qid}/import", data={"csrf_token": token, "import-text": "title: x\x02\n"})
    assert r.status_code == 400
    assert re.search(r"Line 1: <bdi[^>]*>YAML cannot hold the control character U\+0002", r.text)
    good = ana.get(f"/en/teach/lessons/{new_lesson(ana)}/export.md").text
    r = ana.post(f"/en/teach/lessons/{lid}/import", content_type="multipart/form-data",
                 data={"csrf_token": csrf_of(page.text),
                       "limport-upload": (io.BytesIO(good.replace("title:", "title: \x07", 1).encode()), "l.md")})
    assert r.status_code == 400 and "YAML cannot hold the control character U+0007" in r.text


def test_a_nul_in_an_uploaded_file_is_refused_beside_the_field(app):
    """The NUL filter saw the query and the form but not uploads: a lesson file with a NUL was
    stored on SQLite and a 500 on PostgreSQL (a text column cannot hold one)."""
    import io

    from test_teachlesson import _row, new_lesson

    ana = login(app.test_client(), "ana")
    lid = new_lesson(ana)
    good = ana.get(f"/en/teach/lessons/{lid}/export.md").text
    before = _row(app, lid).body
    page = ana.get(f"/en/teach/lessons/{lid}")
    r = ana.post(f"/en/teach/lessons/{lid}/import", content_type="multipart/form-data",
                 data={"csrf_token": csrf_of(page.text),
                       "limport-upload": (io.BytesIO(good.encode() + b"\x00tail"), "l.md")})
    assert r.status_code == 400
    assert 'id="limport-upload-error"' in r.text and "not allowed (NUL)" in r.text
    assert _row(app, lid).body == before
    qid = new_quiz(ana)
    page = ana.get(f"/en/teach/quizzes/{qid}")
    r = ana.post(f"/en/teach/quizzes/{qid}/import", content_type="multipart/form-data",
                 data={"csrf_token": csrf_of(page.text), "import-upload": (io.BytesIO(b"title: q\x00\n"), "q.yaml")})
    assert r.status_code == 400 and 'id="import-upload-error"' in r.text


def test_an_altered_answer_form_gets_the_learners_language_not_the_engines_words(app):
    """A seat that is not a number, sent from a changed page form in Persian, was "پاسخ خوانا
    نیست: the seat must be a whole number ... from 0 to 3" (English, seats from 0 where the page
    numbers them from 1): now a message in the page's language; the API keeps the engine's words."""
    from lxml import html as lxml_html
    from web_support import lesson_exercise

    from tutor.web import exercises as X

    step, ex = lesson_exercise("hokm", "trick-winner")
    learner = app.test_client()
    page = learner.get(f"/fa/learn/hokm/{step.id}")
    r = learner.post(f"/fa/learn/hokm/{step.id}/{ex.id}", data={"csrf_token": csrf_of(page.text), "seat": "abc"})
    assert r.status_code == 400
    text = lxml_html.fromstring(r.text).cssselect(".form-error")[0].text_content().strip()
    assert text == "این پاسخ خوانا نیست: یکی از پاسخ‌های نشان‌داده‌شده را برگزین و دوباره بسنج."
    api = learner.post(f"/api/v1/exercises/{X.ref_of(ex)}/answer", json={"answer": "abc"})
    assert api.status_code == 400 and api.get_json()["error"]["code"] == "bad-answer"
    assert "whole number" in api.get_json()["error"]["message"]
