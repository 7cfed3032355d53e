"""Hokm asks of the scenario contract (shared/spec/solve-format.md)."""

import pytest

from tutor.engine.errors import TutorError
from tutor.solve import answer, solve, solve_text


def hokm(ask, **fields):
    return {"ruleset": "hokm", "ask": ask, **fields}


def code(scenario):
    return answer(scenario)["error"]["code"]


def test_spec_examples():
    assert solve(hokm("legal-plays", trump="H", hand=["3C", "AH"], trick=["10C"]))["legal"] == ["3C"]
    a = solve(hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "JS"]))
    assert (a["winner"], a["card"]) == (3, "JS")


def test_solve_text_bad_json():
    with pytest.raises(TutorError) as e:
        solve_text("{")
    assert e.value.code == "bad-json"
    assert solve_text('{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["3C"]}')["legal"] == ["3C"]
