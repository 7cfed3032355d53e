"""The rules reference pages (one per game, four languages), the links to rule points from
feedback and steps, the practice quiz on one rule point, and the "Lesson:" link of a verdict chosen
by the rule point applied. Through Flask's test client; pages parsed with lxml."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from lxml import html as lxml_html
from sqlalchemy import select
from web_support import (
    BOTH_DIRECTIONS,
    csrf_of,
    expected,
    form_for,
    lesson_exercise,
    wrong_value,
)

from tutor import i18n, rules
from tutor.content import kinds
from tutor.domain.models import Quiz
from tutor.engine.rulesets import RULESETS
from tutor.web import adaptive
from tutor.web import exercises as X

pytestmark = pytest.mark.both_databases

LANGS = i18n.LANGUAGES
GAMES = tuple(RULESETS)


def page(client, url: str):
    resp = client.get(url)
    assert resp.status_code == 200, url
    return lxml_html.fromstring(resp.get_data(as_text=True)), resp.get_data(as_text=True)


def norm(text: str) -> str:
    return " ".join(text.split())


def cited(reason: dict) -> list[str]:
    return [r.strip() for r in str(reason.get("rule", "")).split(",")]


# ------------------------------------------------------------------------------------- the pages

@pytest.mark.parametrize("lang", LANGS)
def test_every_point_of_every_game_is_on_its_page_in_the_language(client, lang):
    for game in GAMES:
        doc, _ = page(client, f"/{lang}/rules/{game}/")
        assert doc.get("lang") == lang and doc.get("dir") == ("rtl" if lang == "fa" else "ltr")
        articles = {a.get("id"): a for a in doc.cssselect("article.rule-point")}
        expected_ids = [f"rule-{p.id}" for p in rules.points_for(game)]
        assert sorted(articles) == sorted(expected_ids)  # every point of the game, no other
        for p in rules.points_for(game):
            a = articles[f"rule-{p.id}"]
            heading = norm(a.cssselect("h3")[0].text_content())
            assert heading == f"{p.id} {norm(p.title_in(lang))}"
            assert norm(a.cssselect(".rule-text")[0].text_content()) == norm(p.text[lang])
            body = norm(a.text_content())
            # a decision is marked as one, with why; any other point names its source documents
            assert bool(a.cssselect(".decision-mark")) == p.decision, p.id
            if p.decision:
                assert norm(p.reason[lang]) in body
            for place in p.sources:
                assert norm(rules.documents()[place.document].about_in(lang)) in body, p.id
                assert place.section in body
            # the steps that teach it
            steps = X.content().steps_teaching(game, p.id)
            links = [urlsplit(h).path for h in a.xpath(".//dd/a/@href") if "/learn/" in h]
            assert links == [f"/{lang}/learn/{game}/{s}" for s in steps], p.id


def test_persian_page_is_right_to_left_with_persian_text_and_digits(client):
    doc, text = page(client, "/fa/rules/hokm/")
    assert doc.get("dir") == "rtl"
    h14 = doc.cssselect("#rule-H14")[0]
    assert "اگر از خال زمینه کارتی داری" in h14.text_content()
    assert "سند ۰۰۲" in h14.text_content()  # the document number in Persian digits
    assert "Document" not in text and "Source" not in text.split("<main", 1)[1]


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_of_a_reference_page_resolves(client, lang):
    fetched: dict[str, tuple[int, set[str]]] = {}  # path -> (status, the ids on the page), each fetched once

    def at(path: str) -> tuple[int, set[str]]:
        if path not in fetched:
            r = client.get(path)
            ids = ({e.get("id") for e in lxml_html.fromstring(r.get_data(as_text=True)).xpath("//*[@id]")}
                   if r.status_code == 200 and "html" in r.content_type else set())
            fetched[path] = (r.status_code, ids)
        return fetched[path]

    for game in GAMES:
        doc, _ = page(client, f"/{lang}/rules/{game}/")
        anchors = {e.get("id") for e in doc.xpath("//*[@id]")}
        hrefs = set(doc.xpath("//main//a/@href"))
        assert len(hrefs) > 20
        for href in sorted(hrefs):
            parts = urlsplit(href)
            if parts.path:
                status, ids = at(parts.path)
                assert status == 200, href
                if parts.fragment:  # another page: its anchor is there
                    assert parts.fragment in ids, href
            elif parts.fragment:
                assert parts.fragment in anchors, href


def test_unknown_games_and_points_are_404(client):
    assert client.get("/en/rules/bridge/").status_code == 404
    assert client.get("/en/practice/rule/H99").status_code == 404
    # practice on a point has one home, "Practise this rule": the reference's own route is gone
    _doc, text = page(client, "/en/rules/hokm/")
    assert client.post("/en/rules/hokm/H14/practice", data={"csrf_token": csrf_of(text)}).status_code == 404
    # a game the point does not belong to is ignored: every game of the point is practised
    other, _ = page(client, "/en/practice/rule/K9?game=hokm")
    assert not other.cssselect("input[name=game]") and "All Fours" in other.cssselect(".page-head + * .meta, .meta")[0].text_content()


# --------------------------------------------------------------------------- links from pages

def test_rules_taught_on_a_step_are_links_with_titles(client):
    step = X.content().find_step("hokm-follow-suit", "fa")
    doc, _ = page(client, "/fa/learn/hokm/hokm-follow-suit")
    meta = doc.cssselect("p.meta.source")[0]
    links = meta.cssselect("a.rule-link")
    assert [urlsplit(a.get("href")).fragment for a in links] == [f"rule-{r}" for r in step.rules]
    assert all(urlsplit(a.get("href")).path == "/fa/rules/hokm/" for a in links)
    assert [norm(a.text_content()) for a in links] == [f"{r} {rules.get(r).title_in('fa')}" for r in step.rules]


@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_each_reason_of_feedback_links_to_its_rule_point(client, lang):
    step, ex = lesson_exercise("hokm", "legal-cards")
    right = expected(ex)
    wrong = wrong_value(ex, right)
    form = client.get(f"/{lang}/learn/hokm/{step.id}").get_data(as_text=True)
    resp = client.post(f"/{lang}/learn/hokm/{step.id}/{ex.id}",
                       data=form_for(ex, wrong) | {"csrf_token": csrf_of(form)})
    assert resp.status_code == 302
    doc, _ = page(client, resp.headers["Location"])
    verdict = kinds.grade(ex, wrong)
    items = doc.cssselect("ul.why li")
    assert len(items) == len(verdict.why) > 0
    for li, reason in zip(items, verdict.why, strict=True):
        hrefs = [a.get("href") for a in li.cssselect("a.rule-link")]
        assert hrefs == [f"/{lang}/rules/hokm/#rule-{r}" for r in cited(reason)]
    # the link's target exists and is that point
    target = urlsplit(items[0].cssselect("a.rule-link")[0].get("href"))
    ref, _ = page(client, target.path)
    assert ref.xpath(f"//*[@id='{target.fragment}']/h3/bdi[@class='rule-id']/text()") == [cited(verdict.why[0])[0]]


# ------------------------------------------------------------------------ practice on a point

def answer_right(client, token: str, n: int) -> str:
    """Answer question ``n`` of a quiz right through its page; the question's ref."""
    q = client.get(f"/en/quiz/{token}/{n}")
    assert q.status_code == 200
    with client.application.app_context(), client.application.extensions["tutor_db"]() as db:
        ref = db.scalar(select(Quiz).where(Quiz.token == token)).refs[n - 1]
        ex = X.resolve(ref)
    r = client.post(f"/en/quiz/{token}/{n}", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(q.get_data(as_text=True))})
    assert r.status_code == 302
    return ref


@pytest.mark.parametrize(("game", "point"), [("hokm", "H14"), ("hokm", "H16"), ("all-fours", "C23"),
                                             ("trinidad", "T7"), ("trinidad", "K9")])
def test_practice_on_a_rule_gives_questions_that_apply_it(app, client, game, point):
    """The reference page's "Practise" link leads to "Practise this rule" kept to the page's game
    (K9 belongs to All Fours and Trinidad); every question the session serves applies the point."""
    doc, _text = page(client, f"/en/rules/{game}/")
    link = doc.cssselect(f"#rule-{point} .rule-practice a")[0]
    assert urlsplit(link.get("href")).path == f"/en/practice/rule/{point}"
    with app.app_context():
        count = len(adaptive.by_rule(game)[point])
    shown = norm(doc.cssselect(f"#rule-{point} .rule-practice .meta")[0].text_content())
    assert shown.startswith(f"{count} question")
    rule_doc, _rule_text = page(client, link.get("href"))
    assert norm(rule_doc.cssselect("main")[0].text_content()).count(f"{count} question") == 1
    form = rule_doc.cssselect("form.setup")[0]
    data = {i.get("name"): i.get("value") for i in form.cssselect("input[type=hidden]")}
    assert data["rule"] == point and data["game"] == game
    resp = client.post(form.get("action"), data=data | {"band": "right", "count": "5"})
    assert resp.status_code == 302 and "/en/quiz/" in resp.headers["Location"]
    token = resp.headers["Location"].split("/")[3]
    refs = []
    for n in range(1, 6):
        refs.append(answer_right(client, token, n))
        nxt = client.get(f"/en/quiz/{token}/next")
        if nxt.headers["Location"].endswith("/results"):
            break
    with app.app_context(), app.extensions["tutor_db"]() as db:
        quiz = db.scalar(select(Quiz).where(Quiz.token == token))
        assert quiz.refs == refs and quiz.target["rule"] == point and quiz.target["rulesets"] == [game]
        assert len(refs) == min(5, count)
        for ref in refs:
            ex = X.resolve(ref)
            assert ex.ruleset == game
            why = X.engine_solution(ex)["why"]
            assert any(point in cited(r) for r in why), (ref, why)


def test_a_point_without_questions_has_no_practice_link(client, app):
    doc, _ = page(client, "/en/rules/hokm/")
    with app.app_context():
        pool = adaptive.by_rule("hokm")
    assert "H4" not in pool  # "all suits are equal" is taught, never the reason of a verdict
    assert not doc.cssselect("#rule-H4 .rule-practice") and doc.cssselect("#rule-H14 .rule-practice a")
    linked = {a.get("id")[5:] for a in doc.cssselect("article.rule-point") if a.cssselect(".rule-practice a")}
    assert linked == {p.id for p in rules.points_for("hokm")} & set(pool)
    assert not doc.cssselect("article.rule-point form")  # no second way to start practice here


# ------------------------------------------------------------- "Lesson:" by the rule applied

def test_lesson_link_of_a_generated_question_follows_the_rule_applied(client, app):
    """A generated trick-winner question won by a ruff (H16, or H18) links to a step teaching that
    point, not to the first step with a trick-winner exercise."""
    with app.test_request_context("/en/"):
        store = X.content()
        first_of_kind = store.first_step_of_kind("hokm", "trick-winner")
        for seed in range(200):
            ref = f"gen:hokm:trick-winner:2:{seed}"
            ex = X.resolve(ref)
            rule = cited(X.engine_solution(ex)["why"][0])[0]
            steps = store.steps_teaching("hokm", rule)
            if steps and first_of_kind not in steps:
                break
        else:
            pytest.fail("no generated question applies a rule taught away from the first trick-winner step")
        verdict = X.grade(ex, expected(ex))
        assert X.teaching_step(ex, verdict) == steps[0]
        assert X.teaching_step(ex) == first_of_kind  # without a verdict: by kind, as before
    _doc, text = page(client, "/en/practice/")
    resp = client.post("/en/practice/", data={"game": "hokm", "kinds-hokm": "trick-winner", "count": "5",
                                              "difficulty": "2", "seed": "1", "csrf_token": csrf_of(text)})
    token = resp.headers["Location"].split("/")[3]
    with app.app_context():
        session = app.extensions["tutor_db"]()
        quiz = session.scalar(select(Quiz).where(Quiz.token == token))
        quiz.refs = [ref]
        session.commit()
        session.close()
    q = client.get(f"/en/quiz/{token}/1").get_data(as_text=True)
    client.post(f"/en/quiz/{token}/1", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(q)})
    fb, _ = page(client, f"/en/quiz/{token}/1/feedback")
    lesson = [a.get("href") for a in fb.cssselect(".feedback .actions a") if "/learn/" in a.get("href")]
    assert lesson == [f"/en/learn/hokm/{steps[0]}"]
    assert re.search(re.escape(X.content().find_step(steps[0], "en").title), norm(fb.text_content()))
