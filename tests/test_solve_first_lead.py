"""The ``first-lead`` ask: the hakem leads the first trick (H6, H10); in All Fours and Trinidad the next
player after the dealer in the order of play (C19; T13, to the dealer's right: T5)."""

from __future__ import annotations

import pytest

from tutor.solve import answer


@pytest.mark.parametrize(("scenario", "leader", "code", "rule"), [
    ({"ruleset": "hokm", "ask": "first-lead", "hakem": 0}, 0, "hakem-leads", "H6,H10"),
    ({"ruleset": "hokm", "ask": "first-lead", "hakem": 3}, 3, "hakem-leads", "H6,H10"),
    ({"ruleset": "all-fours", "ask": "first-lead", "dealer": 0}, 1, "eldest-leads", "C19"),
    ({"ruleset": "all-fours", "ask": "first-lead", "dealer": 1}, 0, "eldest-leads", "C19"),   # two players: wraps
    ({"ruleset": "all-fours", "ask": "first-lead", "players": 3, "dealer": 2}, 0, "eldest-leads", "C19"),
    ({"ruleset": "all-fours", "ask": "first-lead", "players": 4, "dealer": 1}, 2, "eldest-leads", "C19"),
    ({"ruleset": "trinidad", "ask": "first-lead", "dealer": 3}, 0, "eldest-leads", "T13,T5"),
    ({"ruleset": "trinidad", "ask": "first-lead", "players": 2, "dealer": 0}, 1, "eldest-leads", "T13,T5"),
])
def test_first_lead(scenario, leader, code, rule):
    got = answer(scenario)
    assert got["leader"] == leader
    assert [(r["code"], r["rule"]) for r in got["why"]] == [(code, rule)]


@pytest.mark.parametrize(("scenario", "message"), [
    ({"ruleset": "hokm", "ask": "first-lead"}, "field hakem is required for ask first-lead."),
    ({"ruleset": "hokm", "ask": "first-lead", "dealer": 1}, "field dealer is not a field of ask first-lead for hokm"),
    ({"ruleset": "trinidad", "ask": "first-lead", "hakem": 1, "dealer": 0},
     "field hakem is not a field of ask first-lead for trinidad"),
    ({"ruleset": "all-fours", "ask": "first-lead", "dealer": 2}, "field dealer must be an integer from 0 to 1, not 2."),
    ({"ruleset": "hokm", "ask": "first-lead", "hakem": None}, "field hakem is required for ask first-lead."),
])
def test_first_lead_errors_are_bad_field(scenario, message):
    got = answer(scenario)
    assert got["error"]["code"] == "bad-field"
    assert message in got["error"]["message"]


# -- next-lead: the trick's winner leads the next trick (H17, C22, T13) ---------------------------

@pytest.mark.parametrize(("scenario", "leader", "card", "rules"), [
    # seed 002: partner leads 7S, left AS, you ruff with 3D, right KS: you lead next
    ({"ruleset": "hokm", "ask": "next-lead", "trump": "D", "trick": ["7S", "AS", "3D", "KS"], "leader": 2},
     0, "3D", ["H16,H18", "H17"]),
    ({"ruleset": "hokm", "ask": "next-lead", "trump": "C", "trick": ["QH", "KH", "2H", "AH"], "leader": 1},
     0, "AH", ["H16,H3", "H17"]),
    ({"ruleset": "all-fours", "ask": "next-lead", "players": 3, "trump": "S", "trick": ["5D", "AC", "KD"],
      "leader": 2}, 1, "KD", ["C22,C3", "C22"]),
    ({"ruleset": "trinidad", "ask": "next-lead", "players": 2, "trump": "H", "trick": ["9C", "2H"], "leader": 1},
     0, "2H", ["T16", "T13"]),
])
def test_next_lead(scenario, leader, card, rules):
    got = answer(scenario)
    assert (got["leader"], got["card"]) == (leader, card)
    assert [r["rule"] for r in got["why"]] == rules
    assert got["why"][1] == {"code": "winner-leads", "rule": rules[1], "params": {"winner": leader}}
    # the same winner as trick-winner gives, with the same first reason
    same = answer({**scenario, "ask": "trick-winner"})
    assert (same["winner"], same["card"], same["why"]) == (leader, card, got["why"][:1])


@pytest.mark.parametrize("scenario", [
    {"ruleset": "hokm", "ask": "next-lead", "trump": "D", "trick": ["7S", "AS", "3D"]},
    {"ruleset": "hokm", "ask": "next-lead", "trick": ["7S", "AS", "3D", "KS"]},
    {"ruleset": "trinidad", "ask": "next-lead", "trump": "D", "trick": ["7S", "AS", "3D", "KS"], "leader": 4},
])
def test_next_lead_errors_are_bad_field(scenario):
    assert answer(scenario)["error"]["code"] == "bad-field"


def test_next_leader_kind_takes_next_lead():
    from tutor.content.exercise import Exercise
    from tutor.content.kinds import grade

    ex = Exercise(id="x", kind="next-leader", scenario={
        "ruleset": "hokm", "ask": "next-lead", "trump": "D", "trick": ["7S", "AS", "3D", "KS"], "leader": 2})
    right, wrong = grade(ex, 0), grade(ex, 2)
    assert (right.correct, right.expected, wrong.correct) == (True, 0, False)
    assert [r["rule"] for r in wrong.why] == ["H16,H18", "H17"]
