"""`tutor solve`'s JSON (issue 21): read by orjson where it reads the same value as json, else by
json, whose values and messages the contract keeps; written as ASCII-only lines either way."""

from __future__ import annotations

import io
import json

import pytest

from tutor.cli.solve import _line, solve_stream
from tutor.engine.errors import BadJsonError
from tutor.solve import _parse_json_stdlib, parse_json

VALUES = ['{"a": 1, "b": [1.5, -0.0, -0, 1e300, true, null, "x"]}', '{"a": 1, "a": 2}', ' {} ', '"\u2028"',
          '{"seat": 18446744073709551616}', '{"seat": -9223372036854775809}', '{"n": 9223372036854775807}',
          '{"big": 1' + "0" * 40 + '}', '{"f": 1e400}', '{"k": "\\u00e9\\ud83c\\udca1"}', '[' * 50 + ']' * 50, '{"a": "\\udce9"}']
BAD = ['{"a": NaN}', '{"a": Infinity}', '\ufeff{}', '{"a":1} x', '[' * 5000 + ']' * 5000,
       '{"a": 1' + "0" * 5000 + '}', b'{"a": "\xe9"}', '{"a": "\x01"}', '{', '']


@pytest.mark.parametrize("text", VALUES)
def test_the_value_read_is_jsons(text):
    got, want = parse_json(text), json.loads(text)
    assert got == want and repr(got) == repr(want)  # the same types too: an integer stays an integer
    assert parse_json(text.encode()) == want


@pytest.mark.parametrize("text", BAD)
def test_a_text_json_refuses_gets_jsons_message(text):
    with pytest.raises(BadJsonError) as fast:
        parse_json(text)
    with pytest.raises(BadJsonError) as plain:
        _parse_json_stdlib(text)
    assert fast.value.message == plain.value.message
    assert "not valid" in fast.value.message


def test_answers_are_ascii_lines_as_json_writes_them():
    for a in ({"legal": ["AS", "10H"], "why": [{"code": "lead-any", "rule": "H6", "params": {}}]},
              {"error": {"code": "unknown-ruleset", "message": "ruleset must be one of hokm, not \"h\u00f6km\"."}}):
        line = _line(a)
        assert line.endswith("\n") and line.isascii() and json.loads(line) == a
    out = io.StringIO()
    assert solve_stream('{"ruleset": "h\u00f6km", "ask": "x"}\n{"ruleset": "hokm", "ask": "first-lead", "hakem": 1}\n',
                        out) == 1
    lines = out.getvalue().splitlines()
    assert all(line.isascii() for line in lines) and "\\u00f6" in lines[0]
    assert json.loads(lines[1])["leader"] == 1
