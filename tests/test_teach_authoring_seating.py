"""The table editor's first paint (issue 18, second round): the page itself names the seats
(``data-seating``, :func:`tutor.web.editor.seating`) as the learner's page does, so that the
editor does not draw seat 0 as "you" until the engine's first check answers; and a stored
question's own ``you`` seats the learner on the editor as on the preview (``data-fixed-you``,
sent with each check). The same in Chromium: test_browser_teach_authoring.
"""

from __future__ import annotations

import json

import yaml
from lxml import html as lxml_html
from teach_support import assign, join, login, new_class, new_quiz, post, teachers  # noqa: F401
from test_teach_authoring_fixes import LED_NINE, table_seats

from tutor import i18n


def editor_box(page: str):
    [box] = lxml_html.fromstring(page).cssselect(".table-editor")
    return box


def first_paint(page: str, scenario: dict) -> tuple[str, dict[str, str]]:
    """What the editor draws before any check answers, read from the page's HTML alone: the
    number of the seat at the bottom ("you") and, per card of the trick, its seat's number (the
    seat that led, then in play order; editor.js, trickOnTable)."""
    got = json.loads(editor_box(page).get("data-seating"))
    seats, you, leader = got["seats"], got["you"], got["leaders"][0]
    lang = lxml_html.fromstring(page).get("lang")
    with i18n.using(lang):
        assert seats[you]["who"] == i18n.seat_label(you, you, len(seats), scenario["ruleset"])  # "you"
        played = {i18n.card_label(c): seats[(leader + i) % len(seats)]["number"] for i, c in enumerate(scenario["trick"])}
    return seats[you]["number"], played


def _stored(t, qid: int) -> None:
    r = post(t, f"/en/teach/quizzes/{qid}/authored",
             {"kind": "legal-cards", "scenario": json.dumps(LED_NINE), "key": "2H KH", "difficulty": "1", "points": "1"},
             page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 302, r.text


def test_the_editor_page_names_the_seats_of_a_stored_question_as_the_learners_page(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    _stored(t, qid)
    cid, code = new_class(t)
    aid = assign(t, cid, qid)
    learner = app.test_client()
    join(learner, code, "Sina")
    seen = table_seats(learner.get(f"/en/classes/{cid}/assignments/{aid}/1").text)
    for lang in ("en", "fa"):
        edit = t.get(f"/{lang}/teach/quizzes/{qid}/questions/1/edit")
        assert edit.status_code == 200
        preview = table_seats(t.get(f"/{lang}/teach/quizzes/{qid}/questions/1/preview").text)
        with i18n.using(lang):
            nine, two, one = i18n.card_label("9H"), i18n.seat_label(1, None, 4, "hokm"), i18n.seat_label(0, None, 4, "hokm")
        # the learner sits at seat 2, after seat 1 led the nine of hearts (not seat 1 with it from seat 4)
        assert first_paint(edit.text, LED_NINE) == preview == (two, {nine: one})
    assert seen == ("seat 2", {"nine of hearts": "seat 1"})


def test_the_seating_is_the_checks_and_none_without_a_scenario():
    from tutor.web.editor import seating

    with i18n.using("en"):
        got = seating(json.dumps(LED_NINE), "legal-cards")
        assert got is not None and got["you"] == 1 and got["leaders"] == [0]
        assert [s["who"] for s in got["seats"]] == ["your left-hand opponent", "you", "your right-hand opponent",
                                                    "your partner"]
        assert got["sides"] == ["the other team", "your team"]
        assert seating("", "legal-cards") is None and seating("[1]", None) is None and seating("{", None) is None
        assert seating('{"ruleset": "nope"}', None) is None


def test_the_ask_page_draws_its_first_situation_from_the_player_to_move(client):
    page = client.get("/en/ask").text
    got = json.loads(editor_box(page).get("data-seating"))
    assert got["you"] == 2 and got["seats"][2] == {"who": "you", "number": "seat 3"}  # two cards led: seat 3 plays


# ------------------------------------------------------------------------------ a stored "you"

def _import_with_you(t, qid: int, you: int) -> None:
    text = yaml.safe_dump({"ruleset": "hokm", "questions": [
        {"id": "own-seat", "kind": "legal-cards", "difficulty": 1, "teaches": "hokm-follow-suit", "scenario": LED_NINE, "you": you,
         "expect": {"legal": ["2H", "KH"]}}]}, sort_keys=False)
    r = post(t, f"/en/teach/quizzes/{qid}/import", {"import-text": text}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 302, r.text


def test_a_stored_you_seats_the_learner_on_the_editor_as_on_the_preview(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    _import_with_you(t, qid, 3)
    edit = t.get(f"/en/teach/quizzes/{qid}/questions/1/edit").text
    box = editor_box(edit)
    assert json.loads(box.get("data-fixed-you")) == {"you": 3, "kind": "legal-cards", "ruleset": "hokm"}
    preview = table_seats(t.get(f"/en/teach/quizzes/{qid}/questions/1/preview").text)
    # seat 4 plays after seat 3 led the nine (the kind's default would be seat 2)
    assert first_paint(edit, LED_NINE) == preview == ("seat 4", {"nine of hearts": "seat 3"})
    # and the editor's live check, which the script sends the stored seat with
    got = t.post("/api/v1/table/check", json={"scenario": LED_NINE, "kind": "legal-cards", "you": 3}).get_json()
    assert got["ok"] and got["you"] == 3 and got["leaders"] == [2]
    assert got["seats"][3] == {"who": "you", "number": "seat 4"}
    assert got["sides"] == ["the other team", "your team"]
    # a question without its own seat has none on its page
    _stored(t, qid)
    assert editor_box(t.get(f"/en/teach/quizzes/{qid}/questions/2/edit").text).get("data-fixed-you") is None


def test_the_stored_you_holds_only_for_its_kind_and_game():
    from tutor.web.editor import fixed_you, seating

    fixed = {"you": 3, "kind": "legal-cards", "ruleset": "hokm"}
    assert fixed_you(fixed, "legal-cards", LED_NINE) == 3
    assert fixed_you(fixed, "trick-winner", LED_NINE) is None
    assert fixed_you(fixed, "legal-cards", {**LED_NINE, "ruleset": "all-fours"}) is None
    assert fixed_you(None, "legal-cards", LED_NINE) is None
    with i18n.using("en"):
        assert seating(json.dumps(LED_NINE), "trick-winner", fixed)["you"] == 0  # that kind's default: seat 0


def test_a_check_refuses_a_you_that_is_not_a_seat(client):
    for bad in (-1, "2", True, 1.5, 100):
        r = client.post("/api/v1/table/check", json={"scenario": LED_NINE, "you": bad})
        assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-field", bad
    got = client.post("/api/v1/table/check", json={"scenario": LED_NINE, "you": 6}).get_json()
    assert got["you"] == 2  # a seat number past the players wraps as on the learner's page (6 mod 4)
