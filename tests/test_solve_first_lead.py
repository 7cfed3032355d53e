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
