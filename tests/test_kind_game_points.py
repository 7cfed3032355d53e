"""The game-points kind: count each side's Game points (ten 10, ace 4, king 3, queen 2, jack 1)
and name the side that scores Game (C26-C27, K4; T20)."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, AnswerError, grade
from tutor.engine.errors import BadFieldError

# Two players, hearts trump, seat 1 dealt (so seat 0 leads); totals counted by hand below.
AF = Exercise("gp-af", "game-points", {
    "ruleset": "all-fours", "ask": "hand-score", "dealer": 1, "trump": "H",
    "tricks": [["QH", "3H"], ["10D", "7H"], ["AS", "2D"], ["3S", "AC"], ["5D", "JC"], ["8C", "QC"]]})
TIE = Exercise("gp-tie", "game-points", {
    "ruleset": "all-fours", "ask": "hand-score", "dealer": 1, "trump": "S", "options": {"game_tie": "nobody"},
    "tricks": [["KH", "2H"], ["3D", "KD"], ["5C", "6C"], ["7C", "4C"], ["8C", "9C"], ["2S", "3S"]]})


def test_right_and_wrong_answers():
    v = grade(AF, {"points": [4, 19], "game": 1})
    assert v.correct is True and v.expected == {"points": [4, 19], "game": 1}
    assert v.details == {"sides": [{"side": 0, "given": 4, "expected": 4, "correct": True},
                                   {"side": 1, "given": 19, "expected": 19, "correct": True}], "game_correct": True}
    w = grade(AF, {"points": [4, 18], "game": 1})
    assert w.correct is False and w.details["sides"][1]["correct"] is False and w.details["game_correct"] is True
    w = grade(AF, {"points": "4, 19", "game": "0"})
    assert w.correct is False and w.details["game_correct"] is False and w.given == {"points": [4, 19], "game": 0}


def test_totals_by_hand():
    # Seat 0 leads trick 1 (the dealer is seat 1). QH beats 3H: seat 0 (queen 2). Seat 0 leads 10D,
    # seat 1 ruffs with 7H: seat 1 (ten 10). Seat 1 leads AS, 2D: seat 1 (ace 4). Seat 1 leads 3S,
    # AC: seat 1 (ace 4). Seat 1 leads 5D, JC: seat 1 (jack 1). Seat 1 leads 8C, QC: seat 0 (queen 2).
    # Seat 0: 2 + 2 = 4; seat 1: 10 + 4 + 4 + 1 = 19.
    assert grade(AF, {"points": [4, 19], "game": 1}).correct


def test_a_tie_can_give_game_to_nobody():
    # seat 0 wins KH (king 3), seat 1 wins KD (king 3); nothing else counts: 3 to 3, and with
    # game_tie=nobody (K4) nobody scores Game
    v = grade(TIE, {"points": [3, 3], "game": None})
    assert v.correct is True and v.expected == {"points": [3, 3], "game": None}
    assert grade(TIE, {"points": [3, 3], "game": 0}).correct is False


@pytest.mark.parametrize(("raw", "message"), [
    ({"points": [4]}, "give points (per side) and game"),
    ({"points": [4], "game": 1}, "give the Game points of each of the 2 sides, not 1 numbers."),
    ({"points": [4, 81], "game": 1}, "the Game points of side 1 must be from 0 to 80, not 81."),
    ({"points": [4, 19], "game": 2}, "the side that scores Game must be from 0 to 1, not 2."),
    ({"points": [4, 19], "game": 1, "x": 0}, 'the Game points answer has no field "x".'),
    ([4, 19], "the Game points answer must be an object"),
])
def test_malformed_answers_are_bad_field(raw, message):
    with pytest.raises(BadFieldError) as e:
        grade(AF, raw)
    assert message in e.value.message


def test_form_reading():
    kind = KINDS["game-points"]
    assert kind.read_form(AF, MultiDict({"points-0": "۴", "points-1": "19", "game": "1"})) == {
        "points": ["4", "19"], "game": "1"}
    with pytest.raises(AnswerError) as e:
        kind.read_form(AF, MultiDict({"points-0": "4", "game": "1"}))
    assert e.value.code == "bad-answer" and e.value.message == "Give the Game points of every side."
    with pytest.raises(AnswerError):
        kind.read_form(AF, MultiDict({"points-0": "4", "points-1": "19"}))
