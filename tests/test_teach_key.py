"""The answer key of a question a teacher writes: seats and teams numbered as people number them,
from 1 ("seat 1" is 1), while everything stored, exported and sent to the engine keeps the
engine's seats, from 0; a seat that does not exist is a message beside the key; editing a
question shows its key in the same form, so editing and saving it unchanged changes nothing."""

from __future__ import annotations

import json
import re

import pytest
from lxml import etree
from lxml import html as lxml_html
from teach_support import TRICK, add_authored, add_generated, login, new_quiz, post, quiz_doc, teachers  # noqa: F401
from web_support import dispose, make_app

from tutor import i18n
from tutor.content import kinds
from tutor.content.kinds import KINDS
from tutor.web.authoring import (
    FieldErrors,
    authored_question,
    edit_fields,
    exercise_of,
    generated_question,
    key_of,
    read_key,
)

pytestmark = pytest.mark.both_databases

#: A Hokm trick the jack of spades (the fourth card, seat 4 on the table, the engine's seat 3) wins.
WINNER = 3


def key_error(page: str) -> str:
    m = re.search(r'<p class="field-error" id="key-error" role="alert">([^<]*)</p>', page)
    assert m, "no message beside the key"
    return m.group(1)


@pytest.fixture
def plain_app(tmp_path):
    made = make_app(tmp_path)
    yield made
    dispose(made)


# ------------------------------------------------------------------------------ the key, from 1

def test_the_key_names_seat_4_as_4_and_stores_the_engines_seat_3(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    # "3" was the engine's seat 3; now it is seat 3 on the table (the king of diamonds): wrong
    r = add_authored(t, qid, TRICK, "3")
    assert r.status_code == 400
    assert key_error(r.text).startswith("The engine disagrees with this key. Its answer: Winner: seat 4")
    assert quiz_doc(app, qid)["questions"] == []
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    q = quiz_doc(app, qid)["questions"][0]
    assert q["expect"] == {"winner": WINNER, "card": "JS"} and q["scenario"] == TRICK
    # the exports keep the engine's seats: the quiz file says winner 3, the LMS files mark the fourth card
    yaml_text = t.get(f"/en/teach/quizzes/{qid}/export/hokm.yaml").text
    assert 'expect: {"winner": 3, "card": "JS"}' in yaml_text
    xml = etree.fromstring(t.get(f"/en/teach/quizzes/{qid}/export/hokm/moodle.xml").data)
    right = [a.findtext("text") for a in xml.iter("answer") if a.get("fraction") == "100"]
    assert right == ["your left-hand opponent — jack of spades"]
    gift = t.get(f"/en/teach/quizzes/{qid}/export/hokm/gift.txt").text
    assert "=your left-hand opponent — jack of spades" in gift
    # the hint beside the field says how seats are numbered
    page = lxml_html.fromstring(t.get(f"/en/teach/quizzes/{qid}").text)
    hint = page.get_element_by_id("key-hint").text_content()
    assert "a seat numbered as on the table, from 1 (1 is seat 1, 4 is seat 4)" in hint
    assert "counted from 0" not in hint


@pytest.mark.parametrize(("key", "seat"), [("0", "0"), ("5", "5"), ("-1", "-1")])
def test_a_seat_that_is_not_on_the_table_is_a_message_beside_the_key(app, key, seat):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = add_authored(t, qid, TRICK, key)
    assert r.status_code == 400
    assert key_error(r.text) == f"Seats are numbered from 1 to 4, as on the table: there is no seat {seat}."
    doc = lxml_html.fromstring(r.text)
    assert doc.get_element_by_id("key").get("aria-invalid") == "true"
    assert doc.get_element_by_id("key").get("value") == key  # the teacher's input kept
    assert quiz_doc(app, qid)["questions"] == []
    # the same message live, from the table editor's check
    body = t.post("/api/v1/table/check", json={"scenario": TRICK, "kind": "trick-winner", "key": key,
                                               "lang": "en"}).get_json()
    assert body["ok"] is False and body["errors"]["expect"] == key_error(r.text)


def test_the_seat_message_in_persian_has_persian_digits(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = post(t, f"/fa/teach/quizzes/{qid}/authored",
             {"kind": "trick-winner", "scenario": json.dumps(TRICK), "key": "5", "difficulty": "1", "points": "1"},
             page=f"/fa/teach/quizzes/{qid}")
    assert r.status_code == 400
    assert key_error(r.text) == "جایگاه‌ها مانند روی میز از ۱ تا ۴ شماره می‌خورند: جایگاه ۵ وجود ندارد."
    # a key typed in Persian digits reads as the same seat
    r = post(t, f"/fa/teach/quizzes/{qid}/authored",
             {"kind": "trick-winner", "scenario": json.dumps(TRICK), "key": "۴", "difficulty": "1", "points": "1"},
             page=f"/fa/teach/quizzes/{qid}")
    assert r.status_code == 302 and quiz_doc(app, qid)["questions"][0]["expect"]["winner"] == WINNER


def test_teams_and_sides_in_a_key_count_from_1(plain_app):
    """A side is a team (1 or 2) with four players, a seat with two or three; "nobody" stays."""
    with plain_app.test_request_context("/en/"):
        hokm = generated_question("hokm", "game-winner", 1, 5)  # four players: sides are teams
        ex = exercise_of(hokm)
        expected, _ = kinds.expected_answer(ex)
        scenario = json.dumps(hokm["scenario"])
        with pytest.raises(FieldErrors) as e:
            authored_question("game-winner", scenario, "3")
        assert e.value.errors == {"key": "Teams are numbered 1 and 2, as on the table: there is no team 3."}
        with pytest.raises(FieldErrors) as e:
            authored_question("game-winner", scenario, "0")
        assert e.value.errors == {"key": "Teams are numbered 1 and 2, as on the table: there is no team 0."}
        key = "none" if expected is None else str(expected + 1)
        assert key_of(hokm) == key
        assert authored_question("game-winner", scenario, key)["expect"] == hokm["expect"]
        # two players: a side is a seat, 1 or 2
        two = {"ruleset": "all-fours", "ask": "hand-score", "dealer": 0, "trump": "H",
               "tricks": [["AH", "2H"], ["KH", "3H"], ["QH", "4H"], ["JH", "5H"], ["10H", "6H"], ["9H", "7H"]]}
        with pytest.raises(FieldErrors) as e:
            authored_question("hand-score", json.dumps(two), '{"high": 1, "low": 3, "jack": 1, "game": 1}')
        assert e.value.errors == {"key": "Seats are numbered from 1 to 2, as on the table: there is no seat 3."}
        # the engine: the seat after the dealer (seat 2 on the table) leads the ace and takes every
        # trick (High, Jack, Game); the dealer (seat 1) was dealt the two (Low)
        answer = kinds.expected_answer(exercise_of({"id": "x", "kind": "hand-score", "scenario": two}))[0]
        assert answer == {"high": 1, "low": 0, "jack": 1, "game": 1}
        typed = '{"high": 2, "low": 1, "jack": 2, "game": 2}'
        q = authored_question("hand-score", json.dumps(two), typed)
        assert [(a["category"], a["side"]) for a in q["expect"]["awards"]] == [
            ("high", 1), ("low", 0), ("jack", 1), ("game", 1)]
        assert json.loads(key_of(q)) == json.loads(typed)
        with pytest.raises(FieldErrors) as e:  # the engine's sides, from 0, are now the wrong key
            authored_question("hand-score", json.dumps(two), '{"high": 1, "low": 0, "jack": 1, "game": 1}')
        assert "there is no seat 0" in e.value.errors["key"]


def _generated(kind: str):
    """Generated questions of ``kind``: each of its games, difficulties 1 to 3, two seeds (those
    its generators make; needs a request context)."""
    for ruleset in KINDS[kind].rulesets:
        for difficulty in (1, 2, 3):
            for seed in (1, 2):
                try:
                    yield difficulty, generated_question(ruleset, kind, difficulty, seed, points=3)
                except FieldErrors:  # no question of this kind at this difficulty
                    continue


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kinds_key_reads_back_as_the_same_question(plain_app, kind):
    """The key shown for a stored question (key_of) is the one that, saved again with its
    scenario, gives the same question; its seats and sides are the engine's plus one."""
    with plain_app.test_request_context("/en/"):
        seen = 0
        for difficulty, q in _generated(kind):
            ex = exercise_of(q)
            expected, _ = kinds.expected_answer(ex)
            key = key_of(q)
            again = authored_question(kind, edit_fields(q)["scenario"], key, difficulty=difficulty, points=3)
            assert {k: v for k, v in again.items() if k != "id"} == {k: v for k, v in q.items() if k != "id"}
            raw = kinds.from_key(ex, KINDS[kind].typed(read_key(key)))
            assert kinds.parse_answer(ex, raw) == expected
            if kind in ("trick-winner", "next-leader", "next-hakem"):
                assert key == str(expected + 1)
            if kind == "walk-through":
                assert json.loads(key)["trick_winners"] == [w + 1 for w in expected["trick_winners"]]
            seen += 1
        assert seen


# ------------------------------------------------------------------------------ editing a question

def test_editing_a_question_shows_its_key_from_1_and_saving_it_unchanged_changes_nothing(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    assert add_authored(t, qid, TRICK, "4", points="3", prompt_en="Who takes it?", prompt_fa="کی می‌برد؟").status_code == 302
    assert add_generated(t, qid, seed=42).status_code == 302
    before = quiz_doc(app, qid)
    quiz_page = lxml_html.fromstring(t.get(f"/en/teach/quizzes/{qid}").text)
    link = quiz_page.cssselect("#question-1 a.button")[0]
    assert link.text_content() == "Edit" and link.get("href") == f"/en/teach/quizzes/{qid}/questions/1/edit"
    assert link.get("aria-label") == "Edit question 1"
    url = f"/en/teach/quizzes/{qid}/questions/1/edit"
    page = t.get(url)
    assert page.status_code == 200
    doc = lxml_html.fromstring(page.text)
    assert doc.get_element_by_id("key").get("value") == "4"  # seat 4, as the teacher typed it
    assert json.loads(doc.get_element_by_id("scenario").text_content()) == TRICK  # the scenario from 0
    assert doc.cssselect("#kind option[selected]")[0].get("value") == "trick-winner"
    assert doc.get_element_by_id("points").get("value") == "3"
    assert doc.get_element_by_id("prompt_fa").get("value") == "کی می‌برد؟"
    assert doc.cssselect("h1")[0].text_content() == "Edit question 1"
    # saved as shown: the same quiz, question for question
    form = {"kind": "trick-winner", "scenario": doc.get_element_by_id("scenario").text_content(),
            "key": "4", "difficulty": "1", "points": "3",
            **{f"prompt_{lang}": doc.get_element_by_id(f"prompt_{lang}").get("value") or "" for lang in i18n.LANGUAGES}}
    r = post(t, url, form)
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/quizzes/{qid}#question-1")
    assert quiz_doc(app, qid) == before
    # the generated question too: its key is shown from 1 and saves back unchanged
    doc2 = lxml_html.fromstring(t.get(f"/en/teach/quizzes/{qid}/questions/2/edit").text)
    form2 = {"kind": "legal-cards", "scenario": doc2.get_element_by_id("scenario").text_content(),
             "key": doc2.get_element_by_id("key").get("value"), "difficulty": "1", "points": "2"}
    assert post(t, f"/en/teach/quizzes/{qid}/questions/2/edit", form2).status_code == 302
    assert quiz_doc(app, qid) == before
    # a wrong key is refused beside the field, nothing changes
    r = post(t, url, form | {"key": "3"})
    assert r.status_code == 400 and key_error(r.text).startswith("The engine disagrees with this key")
    r = post(t, url, form | {"key": "0"})
    assert r.status_code == 400 and "there is no seat 0" in key_error(r.text)
    assert quiz_doc(app, qid) == before
    # a change is saved in place, same id
    other = {**TRICK, "trick": ["AD", "JS", "KD", "2S"]}  # the jack is now the second card: seat 2
    assert post(t, url, form | {"scenario": json.dumps(other), "key": "2", "points": "5"}).status_code == 302
    after = quiz_doc(app, qid)["questions"]
    assert after[0]["id"] == before["questions"][0]["id"] and after[0]["scenario"] == other
    assert after[0]["expect"] == {"winner": 1, "card": "JS"} and after[0]["points"] == 5
    assert after[1] == before["questions"][1]


def test_editing_is_only_for_the_quizs_teacher_and_its_questions(app):
    a = login(app.test_client(), "ana")
    qid = new_quiz(a)
    add_authored(a, qid, TRICK, "4")
    b = login(app.test_client(), "bob")
    assert b.get(f"/en/teach/quizzes/{qid}/questions/1/edit").status_code == 404
    assert a.get(f"/en/teach/quizzes/{qid}/questions/2/edit").status_code == 404
    assert a.get(f"/en/teach/quizzes/{qid}/questions/0/edit").status_code == 404
    r = post(b, f"/en/teach/quizzes/{qid}/questions/1/edit",
             {"kind": "trick-winner", "scenario": json.dumps(TRICK), "key": "4", "difficulty": "1", "points": "9"},
             page="/en/teach/")
    assert r.status_code == 404 and quiz_doc(app, qid)["questions"][0]["points"] == 1
