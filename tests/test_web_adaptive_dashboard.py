"""The adaptive dashboard of a scripted history (also in Persian), replaying mistakes, a learner with
10000 attempts, explained wrong parts. Helpers and fixtures: test_web_adaptive.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
import test_web_adaptive
from lxml import html as lxml_html
from sqlalchemy import event, select
from sqlalchemy.orm import Session
from test_web_adaptive import (  # noqa: F401
    T0,
    answer_quiz,
    answer_step,
    app_config,
    lesson_exercises,
    query,
    quiz_row,
    rules_of,
)
from web_support import csrf_of, expected, form_for

from tutor.content.kinds import KINDS
from tutor.domain import mastery as skills
from tutor.domain.models import Attempt, Mistake, SkillMastery
from tutor.web import exercises as X

pytestmark = pytest.mark.both_databases

#: The module's ``clock`` fixture, found by pytest by name.
clock = test_web_adaptive.clock

# ---------------------------------------------------------------------------------------------- dashboard

def scripted_history(client, clock):
    """Day 1: 3 answers (2 right); day 2: 2 answers (1 right); day 3 (today): 1 right. Mistakes:
    two hokm trick-winner exercises (one answered right again later)."""
    tw = lesson_exercises("hokm", "trick-winner")
    lc = lesson_exercises("hokm", "legal-cards")
    answer_step(client, *tw[0], right=False)
    answer_step(client, *lc[0], right=True)
    answer_step(client, *lc[1], right=True)
    clock.advance(days=1)
    answer_step(client, *tw[1], right=False)
    answer_step(client, *tw[0], right=True)
    clock.advance(days=1)
    answer_step(client, *lc[2], right=True)
    return tw, lc


def svg_texts(node) -> list[str]:
    return [t.text_content() for t in node.iter("{*}text", "text")]


def test_dashboard_numbers_for_a_scripted_history(client, app, clock):
    tw, _lc = scripted_history(client, clock)
    html = client.get("/en/progress/").get_data(as_text=True)
    doc = lxml_html.fromstring(html)
    assert doc.cssselect(".answered")[0].text_content().strip() == "Right answers: 4 of 6"
    assert doc.cssselect(".stat-accuracy")[0].text_content() == "67%"
    assert doc.cssselect(".stat-streak")[0].text_content() == "3 days"
    # forecast: the two mistakes in the list; tw[1] (new, due at once) and tw[0] (Good after a lapse, due ahead)
    mistakes = {m.exercise_ref: m for m in query(app, select(Mistake))}
    now = clock.at.replace(tzinfo=None)
    due_now = sum(1 for m in mistakes.values() if m.due <= now)
    due_today = sum(1 for m in mistakes.values() if m.due < datetime(now.year, now.month, now.day) + timedelta(days=1))
    due_week = sum(1 for m in mistakes.values() if m.due <= now + timedelta(days=7))
    assert doc.cssselect(".stat-due-now")[0].text_content() == str(due_now)
    assert doc.cssselect(".stat-due-today")[0].text_content() == str(due_today)
    assert doc.cssselect(".stat-due-week")[0].text_content() == str(due_week)
    # accuracy over time: the last week holds all six answers, 4 right; earlier weeks none
    table = doc.cssselect(".accuracy-weeks table tbody tr")
    assert len(table) == 8
    last = [td.text_content() for td in table[-1].cssselect("td")]
    assert last == ["6", "4", "67%"]
    assert all([td.text_content() for td in tr.cssselect("td")] == ["0", "0", "–"] for tr in table[:-1])
    svg = doc.cssselect(".accuracy-weeks svg")[0]
    # each week is labelled as the days it spans, under its column and in its row of the table
    weeks = [tr.cssselect("th")[0].text_content() for tr in table]
    assert weeks[0] == "8\u2009–\u200914 Jan" and weeks[-1] == "26 Feb\u2009–\u20094 Mar"  # the last ends today
    assert svg_texts(svg)[-2:] == ["67%", "26 Feb\u2009–\u20094 Mar"]
    assert [t.text_content() for t in svg.cssselect("text.label")] == weeks[1::2]  # every other one, the last too
    assert len(svg.cssselect("rect.bar")) == 1
    assert [t.text_content() for t in svg.cssselect("title")] == ["26 Feb\u2009–\u20094 Mar: 67%"]
    # mastery per skill: the values in the table, the SVG bars and their labels agree with BKT
    skills_rows = query(app, select(SkillMastery))
    hokm = doc.cssselect('.mastery-skills[data-game="hokm"]')[0]
    cells = {(tr.cssselect("th span")[0].text_content(), tr.cssselect("td")[0].text_content()):
             (tr.cssselect("td")[1].text_content(), tr.cssselect("td")[2].text_content())
             for tr in hokm.cssselect("tbody tr")}
    assert cells == {(m.rule, KINDS[m.kind].label): (f"{round(m.p_known * 100)}%", f"{m.right} of {m.attempts}")
                     for m in skills_rows}
    bars = hokm.cssselect("svg rect.bar")
    tracks = hokm.cssselect("svg rect.track")
    assert len(bars) == len(skills_rows)
    widths = sorted(round(float(b.get("width")) / float(t.get("width")), 3) for b, t in zip(bars, tracks, strict=True))
    assert widths == sorted(round(m.p_known, 3) for m in skills_rows)
    # strong and weak rules: trick-winner's rule was missed twice, legal cards right three times
    weak = doc.cssselect(".weak-rules li")
    strong_or_weak_ids = {li.cssselect(".rule-id")[0].text_content() for li in weak}
    assert set(rules_of(tw[0][1])) <= strong_or_weak_ids or set(rules_of(tw[1][1])) <= strong_or_weak_ids
    assert all("/practice/rule/" in li.cssselect("a")[0].get("href") for li in weak)


def test_dashboard_in_persian_is_right_to_left_with_persian_digits(client, app, clock):
    scripted_history(client, clock)
    html = client.get("/fa/progress/").get_data(as_text=True)
    doc = lxml_html.fromstring(html)
    assert doc.cssselect(".stat-accuracy")[0].text_content() == "۶۷٪"
    assert doc.cssselect(".stat-streak")[0].text_content().startswith("۳")
    svg = doc.cssselect(".accuracy-weeks svg")[0]
    # time runs from right to left: the last week (with the answers) is the leftmost column
    bars = svg.cssselect("rect.bar")
    assert len(bars) == 1 and float(bars[0].get("x")) < 50
    # its label, in Persian digits and read right to left, ends at the chart's left edge; the table says the same
    weeks = [tr.cssselect("th")[0].text_content() for tr in doc.cssselect(".accuracy-weeks table tbody tr")]
    assert weeks[-1] == "۲۶ فوریه تا ۴ مارس" and weeks[0] == "۸ تا ۱۴ ژانویه"
    labels = svg.cssselect("text.label")
    assert [t.text_content() for t in labels] == weeks[1::2]
    assert all(t.get("direction") == "rtl" for t in labels)
    assert labels[-1].get("x") == "1.0" and labels[-1].get("text-anchor") == "end"  # rtl: its end is its left side
    skill_svg = doc.cssselect(".mastery-skills svg")[0]
    labels = skill_svg.cssselect("text.label")
    assert labels and all(t.get("direction") == "rtl" and float(t.get("x")) > 390 for t in labels)
    for bar in skill_svg.cssselect("rect.bar"):  # bars grow from the right edge
        assert float(bar.get("x")) + float(bar.get("width")) == pytest.approx(398, abs=0.2)
    assert not re.search(r"[0-9]", "".join(svg_texts(svg)))
    dash = " ".join(t for d in doc.cssselect(".dashboard") for t in d.itertext())
    assert not re.search(r"[0-9]", re.sub(r"\b[CTHK]\d+\b", " ", dash))  # rule ids are codes


def test_replay_my_mistakes_filtered_by_game_kind_and_rule(client, app, clock):
    hokm = lesson_exercises("hokm", "trick-winner")[:2]
    allfours = lesson_exercises("all-fours", "legal-cards")[:1]
    for s, e in [*hokm, *allfours]:
        answer_step(client, s, e, right=False)
    page = client.get("/en/progress/?game=all-fours").get_data(as_text=True)
    doc = lxml_html.fromstring(page)
    assert len(doc.cssselect(".mistake-list li")) == 1
    r = client.post("/en/mistakes/replay", data={"csrf_token": csrf_of(page), "game": "all-fours"})
    assert quiz_row(app, r.location.split("/")[-2]).refs == [X.ref_of(allfours[0][1])]
    r = client.post("/en/mistakes/replay", data={"csrf_token": csrf_of(page), "kind": "trick-winner"})
    assert sorted(quiz_row(app, r.location.split("/")[-2]).refs) == sorted(X.ref_of(e) for _, e in hokm)
    rule = rules_of(allfours[0][1])[0]
    r = client.post("/en/mistakes/replay", data={"csrf_token": csrf_of(page), "rule": rule})
    assert quiz_row(app, r.location.split("/")[-2]).refs == [X.ref_of(allfours[0][1])]
    empty = client.get("/en/progress/?game=trinidad").get_data(as_text=True)
    assert "No mistakes match these filters." in empty


# ---------------------------------------------------------------------------------------------- bounded

def seed_heavy_learner(client, app, n_attempts: int = 10_000, n_mistakes: int = 1_584) -> None:
    """A learner made by the app (one answer), then given ``n_attempts`` attempts and
    ``n_mistakes`` mistakes written straight to the database (the heavy learner of issue 9)."""
    step, ex = lesson_exercises("hokm", "trick-winner")[0]
    answer_step(client, step, ex, right=False)
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            learner_id = db.scalar(select(Attempt.learner_id))
            refs = [f"gen:hokm:trick-winner:{1 + i % 3}:{i}" for i in range(n_mistakes)]
            base = T0.replace(tzinfo=None) - timedelta(days=90)
            db.execute(Attempt.__table__.insert(), [
                {"learner_id": learner_id, "exercise_ref": refs[i % n_mistakes], "ruleset": "hokm",
                 "kind": "trick-winner", "given": {}, "correct": i % 6 != 0, "rules": " H16 ",
                 "created_at": base + timedelta(minutes=13 * i)} for i in range(n_attempts)])
            db.execute(Mistake.__table__.insert(), [
                {"learner_id": learner_id, "exercise_ref": r, "ruleset": "hokm", "kind": "trick-winner",
                 "added_at": base, "card": None, "due": base + timedelta(hours=i), "streak": 0, "rules": " H16 "}
                for i, r in enumerate(refs)])
            db.commit()
        finally:
            db.close()


def test_progress_page_of_a_learner_with_10000_attempts_is_bounded(client, app):
    seed_heavy_learner(client, app)
    engine = app.extensions["tutor_db"].kw["bind"]
    statements: list[str] = []
    loaded: list[object] = []

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    def load(_session, obj):
        loaded.append(obj)

    event.listen(engine, "before_cursor_execute", count)
    event.listen(Session, "loaded_as_persistent", load)
    try:
        r = client.get("/en/progress/")
    finally:
        event.remove(engine, "before_cursor_execute", count)
        event.remove(Session, "loaded_as_persistent", load)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    doc = lxml_html.fromstring(html)
    assert doc.cssselect(".answered")[0].text_content().strip() == "Right answers: 8,333 of 10,001"
    assert len(doc.cssselect(".mistake-list li")) == 20 and doc.cssselect('a[rel="next"]')
    assert "1,585 questions to try again" in html
    assert len(statements) <= 16, statements
    mistakes_loaded = [o for o in loaded if isinstance(o, Mistake)]
    assert len(mistakes_loaded) <= 21 and len(loaded) <= 60
    assert all("LIMIT" in s.upper() for s in statements if s.lstrip().upper().startswith("SELECT MISTAKE."))
    page2 = client.get("/en/progress/?page=1").get_data(as_text=True)
    assert len(lxml_html.fromstring(page2).cssselect(".mistake-list li")) == 20


def test_practising_a_rule_without_questions_says_so_once(client):
    """A rule point no question cites (C1, a rule of the deck) offers no form; a start posted anyway
    is a 400 whose alert is the page's one statement of it (not repeated in the panel)."""
    page = client.get("/en/practice/rule/C1")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'name="rule" value="C1"' not in html
    assert html.count("No question practises this rule yet.") == 1
    r = client.post("/en/practice/adaptive", data={"csrf_token": csrf_of(client.get("/en/practice/").get_data(as_text=True)),
                                                    "rule": "C1", "band": "harder"})
    doc = lxml_html.fromstring(r.get_data(as_text=True))
    assert r.status_code == 400
    assert [p.text_content() for p in doc.cssselect("[role=alert]")] == ["No question practises this rule yet."]
    assert r.get_data(as_text=True).count("No question practises this rule yet.") == 1


def test_a_wrong_part_is_explained_by_its_own_reason_and_only_its_rule_loses_mastery(client, app):
    """A hand answered right but for Game (All Fours, af-high-low hl-1): the "your answer" box
    gives Game's reason (the card points, C26), not trick 1's winner; mastery goes down on C26
    alone (High, Low, Jack and the tricks were not missed), and the attempt still records every
    rule the verdict cites."""
    from tutor.content.store import ContentStore

    step = ContentStore.shared().find_step("af-high-low", "en")
    ex = next(e for e in step.exercises if e.id == "hl-1")
    right = expected(ex)
    assert right["game"] is not None
    given = dict(right) | {"game": None}
    page = client.get(f"/en/learn/all-fours/{step.id}").get_data(as_text=True)
    r = client.post(f"/en/learn/all-fours/{step.id}/{ex.id}", data=form_for(ex, given) | {"csrf_token": csrf_of(page)})
    assert r.status_code == 302
    doc = lxml_html.fromstring(client.get(r.headers["Location"]).get_data(as_text=True))
    box = [li.text_content() for li in doc.cssselect(f"#ex-{ex.id} .mistake li")]
    assert box[0].startswith("Game: the right answer is ")
    assert box[1] == "Game goes to your opponent, with the most card points (7 – 13).", box
    assert not any("trick" in line.lower() for line in box), box
    practise = [a.text_content().strip() for a in doc.cssselect(f"#ex-{ex.id} a[href*='/practice/rule/']")]
    assert practise == ["Practise rule C26"], practise  # the rule missed, not C22-C25 applied right
    rows = query(app, select(SkillMastery))
    assert {(m.rule, m.attempts, m.right) for m in rows} == {("C26", 1, 0)}
    assert query(app, select(Attempt.rules)) == [skills.rules_column(rules_of(ex))]


def test_a_question_answered_again_links_from_the_results_to_the_try_they_count(client, app):
    """The results mark the first try; a question answered wrong and then right is ✗ there, and
    its link opens that first, wrong try (it opened the last one: "✓ Right!" under a ✗)."""
    page = client.get("/en/practice/").get_data(as_text=True)
    r = client.post("/en/practice/", data={"csrf_token": csrf_of(page), "game": "hokm", "count": "5",
                                           "difficulty": "1", "seed": "7"})
    token = re.search(r"/quiz/([^/]+)/1$", r.location).group(1)
    answer_quiz(client, token, 1, right=False)
    answer_quiz(client, token, 1, right=True)
    assert "Right!" in client.get(f"/en/quiz/{token}/1/feedback").get_data(as_text=True)  # just answered: the last try
    answer_quiz(client, token, 2, right=True)
    doc = lxml_html.fromstring(client.get(f"/en/quiz/{token}/results").get_data(as_text=True))
    first, second = doc.cssselect("ol.review li")[:2]
    assert first.get("class") == "wrong" and first.cssselect(".mark")[0].text_content() == "✗"
    assert "answered again" in first.text_content()
    link = first.cssselect("a")[0].get("href")
    assert link == f"/en/quiz/{token}/1/feedback?try=first"
    shown = lxml_html.fromstring(client.get(link).get_data(as_text=True))
    assert shown.cssselect(".verdict")[0].get("class") == "verdict wrong"
    assert second.get("class") == "good" and second.cssselect("a")[0].get("href") == f"/en/quiz/{token}/2/feedback"


def test_a_provisional_rating_is_explained_in_words_on_the_progress_page(tmp_path):
    """The "?" of a provisional rating is a title in the header (no phone shows it): the progress
    page says it in words under the ratings, in the page's language."""
    from web_support import lesson_exercise, make_app

    client = make_app(tmp_path).test_client()
    step, ex = lesson_exercise("hokm", "legal-cards")
    page = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    client.post(f"/en/learn/hokm/{step.id}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)})
    for lang, words in (("en", "Provisional: too few answers yet to be sure of it"), ("fa", "موقت")):
        doc = lxml_html.fromstring(client.get(f"/{lang}/progress/").get_data(as_text=True))
        assert doc.cssselect(".game-rating abbr.provisional")
        notes = [" ".join(e.text_content().split()) for e in doc.cssselect(".provisional-note")]
        assert len(notes) == 1 and words in notes[0], notes
