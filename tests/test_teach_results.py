"""Class results at class size (issue 18) and the gradebook: the figures of a hand-built class
(mean, median, distribution, facility, discrimination, most common wrong answer), sorting and
filtering the grid, the page's summary and sort links, isolation between teachers, the
gradebook's page, its XLSX read back with openpyxl equal to the page, its CSV columns.
"""

from __future__ import annotations

import codecs
import csv
import io
from datetime import datetime, timedelta

import pytest
from lxml import html as lxml_html
from openpyxl import load_workbook
from teach_support import (  # noqa: F401
    answer,
    class_with_quiz,
    join,
    login,
    new_class,
    post,
    quiz_doc,
    teachers,
)
from web_support import expected, form_for, wrong_value

from tutor.domain import gradebook as G
from tutor.domain import results as R
from tutor.domain.models import ClassAttempt, Membership
from tutor.web.authoring import exercise_of

T0 = datetime(2026, 11, 2, 9, 0, 0)


def _member(i: int, name: str) -> Membership:
    return Membership(id=i, classroom_id=1, learner_id=100 + i, nickname=name, joined_at=T0)


def _t(member: int, n: int, given, correct: bool, seconds: int = 0) -> ClassAttempt:
    return ClassAttempt(assignment_id=1, learner_id=100 + member, position=n, given=given, correct=correct, rules=[],
                        created_at=T0 + timedelta(seconds=seconds))


QUESTIONS = [{"kind": "trick-winner", "points": 1}, {"kind": "trick-winner", "points": 1},
             {"kind": "legal-cards", "points": 2}]
MEMBERS = [_member(1, "Zari"), _member(2, "omid"), _member(3, "Bahar"), _member(4, "Ali"), _member(5, "Dara")]
#: Q1 (1 point), Q2 (1), Q3 (2); total 4.
#:   Zari  ✓ ✓ ✓  4   (answers at 0, 60, 150 s: 150 s)
#:   omid  ✓ ✗ ✓  3   (Q2 wrong "1", then wrong "1" again; 0..30 s)
#:   Bahar ✓ ✗ ✗  1   (Q2 wrong "2"; 0..400 s)
#:   Ali   ✗ ✓ –  1   (not finished; 10..20 s)
#:   Dara  – – –      (not started)
ATTEMPTS = [
    _t(1, 1, 3, True, 0), _t(2, 1, 3, True, 0), _t(3, 1, 3, True, 0), _t(4, 1, 0, False, 10),
    _t(1, 2, 2, True, 60), _t(2, 2, 1, False, 10), _t(2, 2, 1, False, 20), _t(3, 2, 2, False, 200),
    _t(4, 2, 0, True, 20), _t(1, 3, ["AS"], True, 150), _t(2, 3, ["AS"], True, 30), _t(3, 3, ["KS"], False, 400),
]


def test_figures_of_a_hand_built_class():
    """Started: Zari, omid, Bahar, Ali (scores 4, 3, 1, 1): mean 9/4 = 2.25, median (1 + 3) / 2 = 2.
    Distribution by tenths of 4 points: 4/4 -> the last bin (9), 3/4 = 75 % -> bin 7, 1/4 = 25 % -> bin 2 (twice).
    Facility (first tries): Q1 3 of 4 = 0.75; Q2 2 of 4 = 0.5; Q3 (2 points) (2 + 2 + 0) / (2 × 3) = 2/3.
    Discrimination, N = 4, k = round(0.27 × 4) = 1: ranked Zari 4, omid 3, Bahar 1, Ali 1 (tie: the
    earlier member first), upper {Zari}, lower {Ali}: Q1 (1 − 0) / 1 = 1; Q2 (1 − 1) = 0; Q3 (1 − 0) = 1
    (Ali did not answer Q3: not right). Most common wrong answer of Q2: 1, given twice (by omid)."""
    rows = R.learner_rows(QUESTIONS, MEMBERS, ATTEMPTS)
    assert [(r.member.nickname, r.got, r.total, r.status, r.seconds) for r in rows] == [
        ("Zari", 4, 4, "finished", 150), ("omid", 3, 4, "finished", 30), ("Bahar", 1, 4, "finished", 400),
        ("Ali", 1, 4, "not-finished", 10), ("Dara", 0, 4, "not-started", None)]
    assert [c.attempts for c in rows[1].cells] == [1, 2, 1]
    assert [(c.correct, c.points) for c in rows[3].cells] == [(False, 0), (True, 1), (None, 0)]
    s = R.summary(rows, 4)
    assert (s.learners, s.started, s.finished, s.total, s.mean, s.median) == (5, 4, 3, 4, 2.25, 2)
    assert s.bins == (0, 0, 2, 0, 0, 0, 0, 1, 0, 1)
    assert [m.nickname for m in s.not_started] == ["Dara"] and [m.nickname for m in s.not_finished] == ["Ali"]
    figures = R.question_figures(QUESTIONS, rows, ATTEMPTS)
    assert [(f.n, f.answered, f.attempts) for f in figures] == [(1, 4, 4), (2, 4, 5), (3, 3, 3)]
    assert [f.facility for f in figures] == [0.75, 0.5, pytest.approx(2 / 3)]
    assert [f.discrimination for f in figures] == [1.0, 0.0, 1.0]
    assert (figures[1].wrong, figures[1].wrong_count) == (1, 2)
    assert (figures[2].wrong, figures[2].wrong_count) == (["KS"], 1)


def test_discrimination_takes_27_percent_groups():
    """Ten learners, Q1 (1 point) and Q2 (5 points): Q2 right for learners 1-5; Q1 right for 1, 2, 6, 7, 8.
    Totals: 6, 6, 5, 5, 5, 1, 1, 1, 0, 0; k = round(2.7) = 3; upper {1, 2, 3}, lower {8, 9, 10}.
    Q1: (2 − 1) / 3 = 1/3; Q2: (3 − 0) / 3 = 1. With one learner started there is no index."""
    questions = [{"kind": "trick-winner", "points": 1}, {"kind": "legal-cards", "points": 5}]
    members = [_member(i, f"L{i}") for i in range(1, 11)]
    attempts = [_t(i, 1, 0, i in (1, 2, 6, 7, 8)) for i in range(1, 11)] + [_t(i, 2, 0, i <= 5) for i in range(1, 11)]
    rows = R.learner_rows(questions, members, attempts)
    assert [r.got for r in rows] == [6, 6, 5, 5, 5, 1, 1, 1, 0, 0]
    assert R.discrimination(rows, 1) == pytest.approx(1 / 3)
    assert R.discrimination(rows, 2) == 1.0
    alone = R.learner_rows(questions, members[:2], attempts[:1])
    assert R.discrimination(alone, 1) is None
    assert R.summary(R.learner_rows(questions, members, []), 6).mean is None


def test_sorting_and_filtering_rows():
    rows = R.learner_rows(QUESTIONS, MEMBERS, ATTEMPTS)

    def names(rs):
        return [r.member.nickname for r in rs]

    assert names(R.sort_rows(rows, "name")) == ["Ali", "Bahar", "Dara", "omid", "Zari"]  # case ignored
    assert names(R.sort_rows(rows, "name", descending=True)) == ["Zari", "omid", "Dara", "Bahar", "Ali"]
    assert names(R.sort_rows(rows, "score", descending=True)) == ["Zari", "omid", "Ali", "Bahar", "Dara"]
    assert names(R.sort_rows(rows, "score")) == ["Dara", "Ali", "Bahar", "omid", "Zari"]
    # time: no time (Dara) last either way
    assert names(R.sort_rows(rows, "time")) == ["Ali", "omid", "Zari", "Bahar", "Dara"]
    assert names(R.sort_rows(rows, "time", descending=True)) == ["Bahar", "Zari", "omid", "Ali", "Dara"]
    assert names(R.sort_rows(rows, "nonsense")) == names(R.sort_rows(rows, "name"))
    assert names(R.filter_rows(rows, "not-started")) == ["Dara"]
    assert names(R.filter_rows(rows, "not-finished")) == ["Ali"]
    assert names(R.filter_rows(rows, "finished")) == ["Zari", "omid", "Bahar"]
    assert names(R.filter_rows(rows, "all", " A ")) == ["Zari", "Bahar", "Ali", "Dara"]
    assert names(R.filter_rows(rows, "finished", "ar")) == ["Zari", "Bahar"]
    assert names(R.filter_rows(rows, "bogus")) == names(rows)


# ------------------------------------------------------------------------------------------ pages

def _class(app):
    """ana's class of 3 learners on a quiz of 2 questions: Zari Q1 wrong, Q2 right; Omid Q1
    right, Q2 wrong then right; Bahar joined, nothing answered."""
    t, qid, cid, code, aid = class_with_quiz(app)
    doc = quiz_doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])
    right2 = expected(ex2)
    zari = app.test_client()
    join(zari, code, "=Zari")
    answer(zari, cid, aid, 1, {"seat": "0"})
    answer(zari, cid, aid, 2, form_for(ex2, right2))
    omid = app.test_client()
    join(omid, code, "Omid")
    answer(omid, cid, aid, 1, {"seat": "3"})
    answer(omid, cid, aid, 2, form_for(ex2, wrong_value(ex2, right2)))
    answer(omid, cid, aid, 2, form_for(ex2, right2))
    join(app.test_client(), code, "Bahar")
    return t, cid, aid, doc["questions"][1]["points"]


def _grid_names(page) -> list[str]:
    return [b.text_content() for b in page.cssselect(".results-table tbody th bdi")]


def test_results_page_grid_summary_sorting_and_filter(app):
    t, cid, aid, p2 = _class(app)
    url = f"/en/teach/classes/{cid}/assignments/{aid}"
    page = lxml_html.fromstring(t.get(url).text)
    assert _grid_names(page) == ["=Zari", "Bahar", "Omid"]  # by name
    # a cell holds a mark; the answer is inside its <details>, not in the cell's visible text
    zari = page.cssselect(".results-table tbody tr")[0].cssselect("td.cell")
    assert [c.get("class") for c in zari] == ["cell wrong", "cell good"]
    assert zari[0].cssselect("summary")[0].text_content() == "✗Q1: wrong"
    assert "Winner:" in zari[0].cssselect("details .answer-pop")[0].text_content()
    assert page.cssselect(".results-table tbody tr")[1].cssselect("td.cell")[0].text_content() == "–Q1: not answered"
    heads = page.cssselect(".results-table thead th[aria-sort]")
    assert [h.get("aria-sort") for h in heads] == ["ascending", "none", "none"]
    assert heads[0].cssselect("a")[0].get("href").endswith("sort=name&order=desc#h-learners")
    assert heads[1].cssselect("a")[0].get("href").endswith("sort=score&order=desc#h-learners")
    # summary: Zari p2 of 1 + p2, Omid 1; Bahar has not started
    total = 1 + p2
    figures = {d.getparent().cssselect("dt")[0].text_content(): d.text_content() for d in page.cssselect(".figures dd")}
    mean = (p2 + 1) / 2
    assert figures == {"Learners": "3", "Started": "2", "Finished": "2",
                       "Mean score": f"{mean:g} of {total}", "Median score": f"{mean:g} of {total}"}
    assert [b.text_content() for b in page.cssselect(".who ul.names bdi")] == ["Bahar"]
    bars = page.cssselect("svg.histogram rect.bar")
    assert len(bars) == 10 and sum(int(b.get("height")) > 0 for b in bars) == (1 if _bin(1, total) == _bin(p2, total) else 2)
    assert page.cssselect("svg.histogram title")[0].text_content().startswith("Score distribution: 0%–10% 0 learners;")
    # the questions' figures: facility Q1 1 of 2 right at the first try, Q2 1 of 2; D with k = 1: Zari (p2) upper, Omid lower
    stats = page.cssselect(".stats-table tbody tr")
    assert [r.cssselect("td")[2].text_content() for r in stats] == ["50%", "50%"]
    d = [r.cssselect("td.discrimination")[0].text_content() for r in stats]
    assert d == ["-1", "1"]
    # sorted by score, best first; then only who has not finished; then by name part
    page = lxml_html.fromstring(t.get(url + "?sort=score&order=desc").text)
    assert p2 > 1 and _grid_names(page) == ["=Zari", "Omid", "Bahar"]
    assert [h.get("aria-sort") for h in page.cssselect(".results-table thead th[aria-sort]")] == ["none", "descending", "none"]
    page = lxml_html.fromstring(t.get(url + "?sort=score&order=asc").text)
    assert _grid_names(page) == ["Bahar", "Omid", "=Zari"]
    page = lxml_html.fromstring(t.get(url + "?show=not-started").text)
    assert _grid_names(page) == ["Bahar"]
    assert page.cssselect(".shown")[0].text_content() == "1 of 3 learners shown"
    assert page.cssselect("#f-show option[selected]")[0].get("value") == "not-started"
    page = lxml_html.fromstring(t.get(url + "?name=om&sort=time").text)
    assert _grid_names(page) == ["Omid"]
    assert page.cssselect("#f-name")[0].get("value") == "om"
    page = lxml_html.fromstring(t.get(url + "?name=nobody").text)
    assert _grid_names(page) == [] and "No learner matches the filter." in page.text_content()
    page = lxml_html.fromstring(t.get(url + "?sort=zzz&order=sideways&show=%3Cx%3E").text)  # unknown values: the defaults
    assert _grid_names(page) == ["=Zari", "Bahar", "Omid"]


def _bin(got: int, total: int) -> int:
    return min(R.BINS - 1, got * R.BINS // total)


def test_results_and_gradebook_are_each_teachers_own(app):
    t, cid, aid, _p2 = _class(app)
    bob = login(app.test_client(), "bob")
    for url in (f"/en/teach/classes/{cid}/assignments/{aid}", f"/en/teach/classes/{cid}/assignments/{aid}?sort=score",
                f"/en/teach/classes/{cid}/gradebook", f"/en/teach/classes/{cid}/gradebook-wide.xlsx",
                f"/en/teach/classes/{cid}/gradebook-long.csv"):
        assert bob.get(url).status_code == 404, url
        assert t.get(url).status_code == 200, url
        r = app.test_client().get(url)
        assert r.status_code == 302 and "/teach/login" in r.headers["Location"], url
    assert t.get(f"/en/teach/classes/{cid}/gradebook-tall.csv").status_code == 404
    assert t.get(f"/en/teach/classes/{cid}/gradebook-wide.pdf").status_code == 404


def _gradebook_page(t, cid):
    page = lxml_html.fromstring(t.get(f"/en/teach/classes/{cid}/gradebook").text)
    heads = [th.text_content() for th in page.cssselect(".gradebook-table thead th")]
    body = [[tr.cssselect("th")[0].text_content(), *(td.text_content() for td in tr.cssselect("td"))]
            for tr in page.cssselect(".gradebook-table tbody tr")]
    return heads, body


def test_gradebook_page_and_xlsx_read_back_equal(app):
    """The gradebook lists every learner × every assignment (a quiz and a lesson unit); the wide
    XLSX, read back with openpyxl, holds the page's numbers; the long one a row per learner ×
    question with the answers' times; a nickname starting with "=" stays text."""
    t, cid, _aid, p2 = _class(app)
    assert post(t, f"/en/teach/classes/{cid}", {"what": "unit:hokm:1"}).status_code == 302
    heads, body = _gradebook_page(t, cid)
    assert heads == ["Learner", "Trumps", "Lesson unit: Hokm 1, " + heads[2].split(", ", 1)[1]]
    total = 1 + p2
    assert [row[:2] for row in body] == [["=Zari", f"{p2} of {total}"], ["Omid", f"1 of {total}"], ["Bahar", "–not started"]]
    assert {row[2] for row in body} == {"–not started"}
    r = t.get(f"/en/teach/classes/{cid}/gradebook-wide.xlsx")
    assert r.status_code == 200 and r.mimetype == G_XLSX
    assert 'filename="gradebook-' in r.headers["Content-Disposition"]
    ws = load_workbook(io.BytesIO(r.data)).active
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    assert rows[0][:3] == ["learner", "joined_at", f"Trumps (of {total})"]
    assert rows[0][3].endswith(")") and rows[0][3].startswith("Lesson unit: Hokm 1")
    assert [r_[0] for r_ in rows[1:]] == [row[0] for row in body]  # the page's learners, in its order
    assert ws["A2"].data_type == "s" and ws["A2"].value == "=Zari"  # text, not a formula
    for page_row, sheet_row in zip(body, rows[1:], strict=True):
        for shown, value in zip(page_row[1:], sheet_row[2:], strict=True):
            assert (shown == "–not started") == (value is None)
            if value is not None:
                assert shown == f"{value} of {shown.split(' of ')[1]}"
        assert isinstance(sheet_row[1], datetime)
    r = t.get(f"/en/teach/classes/{cid}/gradebook-long.xlsx")
    ws = load_workbook(io.BytesIO(r.data)).active
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    assert rows[0] == list(G.LONG_COLUMNS)
    quiz = [x for x in rows[1:] if x[3] == "quiz"]
    assert [(x[1], x[4], x[5], x[6], x[7]) for x in quiz] == [
        ("=Zari", "1", 1, 0, 1), ("=Zari", "2", p2, p2, 1), ("Omid", "1", 1, 1, 1), ("Omid", "2", p2, 0, 2),
        ("Bahar", "1", 1, 0, 0), ("Bahar", "2", p2, 0, 0)]
    assert all(isinstance(x[8], datetime) and isinstance(x[9], datetime) and x[8] <= x[9] for x in quiz[:4])
    assert quiz[3][8] < quiz[3][9]  # Omid's two answers to Q2
    assert all(x[8] is None and x[9] is None for x in quiz[4:])
    units = [x for x in rows[1:] if x[3] == "unit"]
    assert units and {x[6] for x in units} == {0} and len(units) % 3 == 0


G_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_gradebook_csv_columns(app):
    t, cid, _aid, p2 = _class(app)
    r = t.get(f"/en/teach/classes/{cid}/gradebook-wide.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and r.mimetype_params["charset"] == "utf-8"
    assert r.data.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(r.data.decode("utf-8-sig"))))
    assert rows[0] == ["learner", "joined_at", f"Trumps (of {1 + p2})"]
    assert [(x[0], x[2]) for x in rows[1:]] == [("'=Zari", str(p2)), ("Omid", "1"), ("Bahar", "")]
    assert all(x[1].endswith("Z") and datetime.fromisoformat(x[1][:-1]) for x in rows[1:])
    r = t.get(f"/en/teach/classes/{cid}/gradebook-long.csv")
    reader = csv.DictReader(io.StringIO(r.data.decode("utf-8-sig")))
    rows = list(reader)
    assert reader.fieldnames == list(G.LONG_COLUMNS)
    assert [(x["learner"], x["item"], x["points_scored"], x["attempts"]) for x in rows] == [
        ("'=Zari", "1", "0", "1"), ("'=Zari", "2", str(p2), "1"), ("Omid", "1", "1", "1"), ("Omid", "2", "0", "2"),
        ("Bahar", "1", "0", "0"), ("Bahar", "2", "0", "0")]
    assert {x["class"] for x in rows} == {"7B"} and {x["assignment_kind"] for x in rows} == {"quiz"}
    assert rows[0]["first_answer_at"].endswith("Z") and rows[4]["first_answer_at"] == ""


def test_results_page_in_persian_has_the_new_labels(app):
    t, cid, aid, _p2 = _class(app)
    page = lxml_html.fromstring(t.get(f"/fa/teach/classes/{cid}/assignments/{aid}").text)
    assert page.cssselect("#h-summary")[0].text_content() == "خلاصهٔ کلاس"
    assert [h.cssselect("a")[0].text_content().strip() for h in page.cssselect(".results-table thead th[aria-sort]")][1:] \
        == ["امتیازها", "زمان"]
    assert page.cssselect(".figures dd")[0].text_content() == "۳"
    book = lxml_html.fromstring(t.get(f"/bg/teach/classes/{cid}/gradebook").text)
    assert book.cssselect("h2#h-book")[0].text_content() == "Всеки ученик, всяко задание"


def test_gradebook_counts_a_lessons_exercises_right_with_retries(app):
    """A teacher's lesson in the gradebook: an exercise counts once any attempt at it was right
    (unlike a quiz's first try), the long file has a row per exercise with its attempts."""
    from test_teachlesson import assign_lesson, lesson_answer, new_lesson

    t = login(app.test_client(), "ana")
    lid = new_lesson(t)
    cid, code = new_class(t)
    aid = assign_lesson(t, cid, lid)
    zari = app.test_client()
    join(zari, code, "Zari")
    lesson_answer(zari, cid, aid, 1, {"seat": "0"})  # wrong
    lesson_answer(zari, cid, aid, 1, {"seat": "3"})  # right at the second try
    join(app.test_client(), code, "Omid")
    heads, body = _gradebook_page(t, cid)
    assert heads == ["Learner", "Trumps"]
    assert body == [["Zari", "1 of 2"], ["Omid", "–not started"]]
    rows = list(csv.DictReader(io.StringIO(t.get(f"/en/teach/classes/{cid}/gradebook-long.csv").data.decode("utf-8-sig"))))
    assert [(x["learner"], x["assignment_kind"], x["item"], x["points_scored"], x["attempts"]) for x in rows] == [
        ("Zari", "lesson", "1", "1", "2"), ("Zari", "lesson", "2", "0", "0"),
        ("Omid", "lesson", "1", "0", "0"), ("Omid", "lesson", "2", "0", "0")]
    assert rows[0]["first_answer_at"] <= rows[0]["last_answer_at"] and rows[0]["last_answer_at"].endswith("Z")
    assert rows[1]["first_answer_at"] == rows[1]["last_answer_at"] == ""

