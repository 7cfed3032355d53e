"""The next-leader kind: who leads the first trick of a deal (the hakem, H6; the player after the
dealer in the order of play, C19, T13) or the next trick (the winner of the trick just played)."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, AnswerError, grade, public_view
from tutor.engine.errors import BadFieldError


def _ex(scenario: dict) -> Exercise:
    return Exercise("nl", "next-leader", scenario)


@pytest.mark.parametrize(("scenario", "right"), [
    ({"ruleset": "hokm", "ask": "first-lead", "hakem": 2}, 2),                         # the hakem leads
    ({"ruleset": "all-fours", "ask": "first-lead", "players": 3, "dealer": 2}, 0),     # wraps to seat 0
    ({"ruleset": "trinidad", "ask": "first-lead", "dealer": 1}, 2),
    # spades led by seat 1, the nine of hearts (trump) ruffs: seat 3 won and leads next
    ({"ruleset": "hokm", "ask": "trick-winner", "trump": "H", "trick": ["AS", "KS", "9H", "2S"], "leader": 1}, 3),
    ({"ruleset": "all-fours", "ask": "trick-winner", "trump": "D", "trick": ["9C", "JC"], "leader": 1}, 0),
])
def test_right_and_wrong(scenario, right):
    ex = _ex(scenario)
    v = grade(ex, right)
    assert v.correct is True and v.expected == right and v.why
    w = grade(ex, str((right + 1) % (scenario.get("players") or (2 if scenario["ruleset"] == "all-fours" else 4))))
    assert w.correct is False and w.expected == right


def test_bad_answers_and_the_form():
    ex = _ex({"ruleset": "hokm", "ask": "first-lead", "hakem": 1})
    with pytest.raises(BadFieldError, match="the seat must be from 0 to 3, not 4"):
        grade(ex, 4)
    kind = KINDS["next-leader"]
    assert kind.read_form(ex, MultiDict({"seat": "۱"})) == "1" and grade(ex, "1").correct
    with pytest.raises(AnswerError) as e:
        kind.read_form(ex, MultiDict({}))
    assert e.value.code == "bad-answer"


def test_the_public_view_shows_the_seats_not_the_answer():
    view = public_view(_ex({"ruleset": "trinidad", "ask": "first-lead", "dealer": 3}))
    assert view["choices"] == [0, 1, 2, 3] and view["scenario"] == {"ruleset": "trinidad", "ask": "first-lead",
                                                                    "dealer": 3}
    assert "leader" not in view and "winner" not in view and "expect" not in view
