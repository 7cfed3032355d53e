"""The typed contract through the kinds: an exercise's scenario is parsed once, at load, into the
contract's models (tutor.solve), kept, and graded from there; answers and verdicts keep their
JSON shapes at the boundary."""

from __future__ import annotations

import pytest

import tutor.content.exercise as exercise_module
from tutor.content.exercise import Exercise, parse_exercise
from tutor.content.generators import generate
from tutor.content.kinds import ExerciseError, grade
from tutor.content.kinds.base import fields_of
from tutor.engine.cards import Card, Suit
from tutor.engine.errors import TutorError
from tutor.problems import Problems
from tutor.solve.asks import LegalPlays, TrickWinner

BLOCK = {"id": "t1", "kind": "legal-cards", "prompt": "Which?", "difficulty": 1,
         "scenario": {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["AH", "10H", "2C"],
                      "trick": ["KH"]},
         "expect": {"legal": ["AH", "10H"]}}


def _load(block: dict) -> Exercise:
    problems = Problems()
    ex = parse_exercise(block, {}, "", path="x.md", problems=problems, quiz=False)
    assert ex is not None and list(problems) == []
    return ex


def test_the_scenario_is_parsed_once_at_load_and_typed():
    ex = _load(BLOCK)
    assert ex.parsed is not None
    fields = fields_of(ex, LegalPlays)
    assert fields.hand == [Card.parse("AH"), Card.parse("10H"), Card.parse("2C")]
    assert fields.trump == Suit.parse("S") and fields.trick == [Card.parse("KH")]
    assert ex.model.players == 4 and ex.model.ruleset == "hokm"
    with pytest.raises(ExerciseError, match="is not trick-winner"):
        fields_of(ex, TrickWinner)


def test_grading_does_not_parse_the_scenario_again(monkeypatch):
    ex = _load(BLOCK)

    def no_parse(scenario):
        raise AssertionError("the scenario was parsed again")

    monkeypatch.setattr(exercise_module, "parse_scenario", no_parse)
    right = grade(ex, ["AH", "10H"])
    wrong = grade(ex, ["2C"])
    assert right.correct and right.expected == ["AH", "10H"] and right.given == ["AH", "10H"]
    assert not wrong.correct and wrong.given == ["2C"]
    assert all(set(r) == {"code", "rule", "params"} for r in right.why) and right.why
    out = right.to_json()
    assert out["kind"] == "legal-cards" and out["expected"] == ["AH", "10H"] and "why" not in out["answer"]


def test_a_generated_exercise_keeps_the_parse_of_its_candidate(monkeypatch):
    ex = generate("all-fours", "hand-score", 3, 2)
    assert ex.parsed is not None
    monkeypatch.setattr(exercise_module, "parse_scenario", lambda s: (_ for _ in ()).throw(AssertionError))
    verdict = grade(ex, dict.fromkeys(("high", "low", "jack", "game")))
    assert set(verdict.expected) == {"high", "low", "jack", "game"}


def test_a_scenario_the_engine_rejects_loads_for_tutor_check_and_raises_when_used():
    block = {**BLOCK, "scenario": {**BLOCK["scenario"], "hand": ["AH", "ZZ"]}}
    ex = _load(block)
    assert ex.parsed is None and not ex.try_parse()
    with pytest.raises(TutorError) as info:
        _ = ex.model
    assert info.value.code == "bad-card"
