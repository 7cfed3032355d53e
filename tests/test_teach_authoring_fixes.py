"""Teacher-side defects of issue 18, each pinned by a test that fails without its fix: the editor,
the preview and the learner's page seat the learner alike and number the seats alike; a fresh
authoring form holds no error; the question list tells questions apart.
Helpers: teach_support; the editor in Chromium: test_browser_teach_authoring.
"""

from __future__ import annotations

import json
import re

from lxml import html as lxml_html
from teach_support import (  # noqa: F401
    TRICK,
    add_authored,
    assign,
    join,
    login,
    new_class,
    new_quiz,
    post,
    teachers,
)

from tutor import i18n

#: The issue's scenario: one card (the nine of hearts) led, the learner to play next.
LED_NINE = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}


def table_seats(page: str) -> tuple[str, dict[str, str]]:
    """The seat number of "you" and, per card label on the table, the number of the seat that
    played it, read from a page's card table (``.felt``: seats and slots share their place)."""
    doc = lxml_html.fromstring(page)
    felt = doc.cssselect(".felt")[0]
    place_of = {}
    me = None
    for seat in felt.cssselect(".seat"):
        place = next(c for c in seat.get("class").split() if c.startswith("seat-"))[5:]
        number = seat.cssselect(".seat-no")[0].text_content().strip()
        place_of[place] = number
        if "me" in seat.get("class").split():
            me = number
    played = {}
    for slot in felt.cssselect(".slot"):
        place = next(c for c in slot.get("class").split() if c.startswith("slot-"))[5:]
        label = slot.cssselect("[role=img]")[0].get("aria-label").split(" — ")[0]
        played[label] = place_of[place]
    assert me is not None
    return me, played


def editor_seats(client, scenario: dict, kind: str) -> tuple[str, dict[str, str]]:
    """The same read from what the table editor draws: the check's seats, the learner's seat and
    the seat that led the trick on the table (tutor/web/static/editor.js, renderTable)."""
    r = client.post("/api/v1/table/check", json={"scenario": scenario, "kind": kind, "lang": "en"})
    got = r.get_json()
    assert r.status_code == 200 and got["ok"], got
    seats, you, leader = got["seats"], got["you"], got["leaders"][0]
    with i18n.using("en"):
        played = {i18n.card_label(c): seats[(leader + i) % len(seats)]["number"] for i, c in enumerate(scenario["trick"])}
    assert seats[you]["who"] == "you"
    return seats[you]["number"], played


def test_the_editor_the_preview_and_the_learner_page_name_the_same_seat_for_the_same_card(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = post(t, f"/en/teach/quizzes/{qid}/authored",
             {"kind": "legal-cards", "scenario": json.dumps(LED_NINE), "key": "2H KH", "difficulty": "1", "points": "1"},
             page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 302, r.text
    preview = table_seats(t.get(f"/en/teach/quizzes/{qid}/questions/1/preview").text)
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    learner = app.test_client()
    join(learner, code, "Sina")
    page = learner.get(f"/en/classes/{cid}/assignments/{aid}/1")
    assert page.status_code == 200
    seen = table_seats(page.text)
    editor = editor_seats(t, LED_NINE, "legal-cards")
    # the learner sits at seat 2, to play after seat 1 led the nine of hearts: all three say so
    assert preview == seen == editor == ("seat 2", {"nine of hearts": "seat 1"})


def test_the_ask_page_seats_the_player_to_move_as_a_lesson_does(client):
    """Without a kind (the "Ask the rules" sandbox), the kind that takes the ask seats the learner."""
    assert editor_seats(client, LED_NINE, None) == ("seat 2", {"nine of hearts": "seat 1"})


def test_the_editor_names_sides_and_answers_from_the_learners_seat(client):
    got = client.post("/api/v1/table/check", json={"scenario": LED_NINE, "kind": "legal-cards", "lang": "en"}).get_json()
    assert got["you"] == 1 and got["sides"] == ["the other team", "your team"]  # seat 1 plays for team 2
    assert [s["who"] for s in got["seats"]] == ["your left-hand opponent", "you", "your right-hand opponent",
                                                "your partner"]


def test_seat_names_are_the_seat_labels_from_you():
    with i18n.using("fa"):
        names = i18n.seat_names(1, 4, "hokm")
        assert [n.seat for n in names] == [0, 1, 2, 3]
        assert [n.who for n in names] == [i18n.seat_label(s, 1, 4, "hokm") for s in range(4)]
        assert names[0].number == i18n.seat_label(0, None, 4, "hokm") and "۱" in names[0].number


# ------------------------------------------------------------------------------ a fresh form

ERROR_MARKS = re.compile(r'class="[^"]*\b(field-error|has-error|form-error)\b|aria-invalid="true"|role="alert"')


def test_a_fresh_authoring_form_holds_no_error(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    for url in (f"/en/teach/quizzes/{qid}", f"/fa/teach/quizzes/{qid}", "/en/teach/"):
        page = t.get(url)
        assert page.status_code == 200
        assert not ERROR_MARKS.search(page.text), (url, ERROR_MARKS.search(page.text).group(0))
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    edit = t.get(f"/en/teach/quizzes/{qid}/questions/1/edit")
    assert edit.status_code == 200 and not ERROR_MARKS.search(edit.text)
    # after a submit, the messages are there, beside the fields
    sent = add_authored(t, qid, {}, "")
    assert sent.status_code == 400 and ERROR_MARKS.search(sent.text)


def test_the_check_of_an_empty_situation_says_only_what_is_still_to_set(client):
    """What the editor holds back on a fresh form (editor.js: ``missing``): the required fields not
    set yet, and only those; a wrong card is an error at once."""
    got = client.post("/api/v1/table/check",
                      json={"scenario": {"ruleset": "hokm", "ask": "legal-plays"}, "kind": "legal-cards"}).get_json()
    assert sorted(got["missing"]) == ["hand", "trump"] == sorted(got["errors"])
    assert got["errors"]["trump"] == "Set Trump."
    got = client.post("/api/v1/table/check", json={"scenario": {"ruleset": "hokm", "ask": "legal-plays", "hand": ["ZZ"]},
                                                   "kind": "legal-cards"}).get_json()
    assert got["missing"] == ["trump"] and "hand[0]" in got["errors"]


# ------------------------------------------------------------------------------ the question list

def question_labels(page: str) -> list[str]:
    """Each entry of the quiz page's question list as one line of text (its head, its situation
    and its prompt; the buttons left out)."""
    doc = lxml_html.fromstring(page)
    out = []
    for li in doc.cssselect(".question-list > li"):
        parts = [li.cssselect(".q-head")[0].text_content()]
        parts += [f"{d.cssselect('dt')[0].text_content()}: {d.cssselect('dd')[0].text_content()}"
                  for d in li.cssselect(".q-situation > div")]
        parts += [n.text_content() for n in li.cssselect(".q-prompt")]
        out.append(" ".join(" ".join(parts).split()))
    return out


def test_two_questions_of_one_kind_get_different_labels(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    other = {**TRICK, "trick": ["QH", "2H", "9C", "5H"]}  # the same kind, game and ask: another trick
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    assert add_authored(t, qid, other, "1").status_code == 302
    first, second = question_labels(t.get(f"/en/teach/quizzes/{qid}").text)
    assert first != second
    assert first.startswith("Trick winner Hokm") and "Who wins the trick?" in first
    assert "Trump: spades" in first and "The trick: A♦ 2♠ K♦ J♠" in first
    assert "The trick: Q♥ 2♥ 9♣ 5♥" in second
    with i18n.using("fa"):
        nine = i18n.card_short("9C")
    assert nine in question_labels(t.get(f"/fa/teach/quizzes/{qid}").text)[1]  # in the page's language


def test_the_situation_of_a_transcript_shows_its_first_tricks():
    from tutor.web.authoring import situation

    tricks = [["AD", "2S", "KD", "JS"], ["QH", "2H", "9C", "5H"], ["3C", "4C", "5C", "6C"]]
    with i18n.using("en"):
        got = dict(situation({"scenario": {"ruleset": "hokm", "ask": "round-playout", "hakem": 1, "tricks": tricks}}))
    assert got["Hakem"] == "seat 2"
    assert got[next(k for k in got if k not in ("Question", "Hakem"))] == "3 tricks: A♦ 2♠ K♦ J♠ | Q♥ 2♥ 9♣ 5♥ …"
    assert situation({"scenario": {"ruleset": "nope"}}) == []


def test_a_rejected_scenario_is_explained_in_the_teachers_language(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    bad = {**LED_NINE, "hand": ["2H", "ZZ", "5C"]}
    r = post(t, f"/fa/teach/quizzes/{qid}/authored",
             {"kind": "legal-cards", "scenario": json.dumps(bad), "key": "2H", "difficulty": "1", "points": "1"},
             page=f"/fa/teach/quizzes/{qid}")
    assert r.status_code == 400
    message = lxml_html.fromstring(r.text).cssselect("#scenario-error")[0].text_content()
    with i18n.using("fa"):
        assert i18n.gettext("%(value)s is not a card.", value="ZZ") in message
    assert "write rank" not in message  # not the engine's English
