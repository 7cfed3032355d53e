"""`tutor solve` writes exactly what it wrote before it was made fast (issue 21): the output on
tests/data/solve_golden.jsonl.gz, byte for byte. The file was written by main at ea3343d with
tests/data/make_solve_golden.py (its docstring says what the 8,306 scenarios are: every ask of
every ruleset under several player counts and options, and mutated ones for every error code).
"""

from __future__ import annotations

import gzip
import io
import json
from collections import Counter
from pathlib import Path

import orjson
import pytest

from tutor.cli.solve import solve_stream
from tutor.engine.rulesets import RULESETS
from tutor.solve import answer, asks_of, has_long_number, parse_json

with gzip.open(Path(__file__).parent / "data" / "solve_golden.jsonl.gz", "rt", encoding="utf-8") as _f:
    INPUT, OUTPUT = (json.loads(line) for line in _f)
PAIRS = list(zip(INPUT.splitlines(), OUTPUT.splitlines(), strict=True))


def test_the_file_holds_every_ask_and_every_error_code():
    answers = [json.loads(out) for _, out in PAIRS]
    codes = Counter(a["error"]["code"] for a in answers if "error" in a)
    assert set(codes) == {"bad-json", "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field",
                          "illegal-play", "impossible-state"}
    asks = Counter((s["ruleset"], s["ask"]) for (line, _), a in zip(PAIRS, answers, strict=True)
                   if "error" not in a for s in [json.loads(line)])
    assert set(asks) == {(r, ask) for r in RULESETS for ask in asks_of(r)}  # every ask of every ruleset
    assert min(asks.values()) >= 20
    assert sum(asks.values()) > 5000


def test_tutor_solve_writes_the_same_bytes():
    out = io.StringIO()
    failed = solve_stream(INPUT.encode(), out)
    assert failed == sum('"error"' in a[:9] for _, a in PAIRS)
    got = out.getvalue().splitlines()
    assert len(got) == len(PAIRS)
    for (line, want), have in zip(PAIRS, got, strict=True):
        assert have == want, line


def test_without_long_numbers_each_line_is_read_by_orjson_and_the_bytes_are_the_same():
    """The file has numbers of 30 digits, so `tutor solve` reads it line by line with parse_json;
    without those lines (left blank: the others keep their numbers) it reads each line with orjson
    after one look at the whole file, and writes the same answers."""
    assert has_long_number(INPUT.encode())
    kept = [(line, want) if not has_long_number(line) else ("", None) for line, want in PAIRS]
    data = "\n".join(line for line, _ in kept) + "\n"
    assert not has_long_number(data.encode()) and sum(want is None for _, want in kept) > 20
    out = io.StringIO()
    solve_stream(data.encode(), out)
    assert out.getvalue().splitlines() == [want for _, want in kept if want is not None]


@pytest.mark.parametrize(("text", "long"), [("1234567890123456789", True), ("123456789012345678", False),
                                            ('{"a": [1, 23456789012345678901]}', True), ("9" * 18 + " 9", False),
                                            ('"0000000000000000000"', True), ("", False)])
def test_a_long_number_is_found_in_bytes_and_in_text(text, long):
    assert has_long_number(text) is long
    assert has_long_number(text.encode()) is long


@pytest.mark.parametrize("start", range(0, len(PAIRS), 2000))
def test_each_answer_is_the_same_object_in_the_same_order(start):
    """The web API's path: one decoded scenario in, the answer dict out (errors are numbered by
    line only in JSON Lines, so the test compares answers that are not errors)."""
    for line, want in PAIRS[start:start + 2000]:
        if not want.startswith('{"error"'):
            assert orjson.dumps(answer(parse_json(line))).decode() == want, line


def test_the_fast_check_of_each_ask_model_is_pydantics_validation():
    """:func:`tutor.solve.asks.compiled` (the fast path) gives what ``model_validate`` gives — the
    same values, types and fields given — and ``None`` wherever pydantic finds a problem."""
    from pydantic import ValidationError

    from tutor.engine.rulesets import RULESETS
    from tutor.solve.common import asks_of, parse_scenario
    checked = failed = 0
    for line, _ in PAIRS:
        try:
            s, _handler = parse_scenario(parse_json(line))
        except Exception:  # noqa: BLE001 - an error answer: its check is the next loop's
            continue
        model = type(s.fields)
        raw = json.loads(line)
        values = {k: v for k in model.model_fields if (v := raw.get(k)) is not None}
        slow = model.model_validate(values, context=_limits_of(s))
        assert s.fields == slow and s.fields.model_fields_set == slow.model_fields_set, line
        assert [type(v) for v in s.fields.__dict__.values()] == [type(v) for v in slow.__dict__.values()]
        assert s.fields.model_dump() == slow.model_dump()
        checked += 1
    for line, want in PAIRS:  # the defaults' settings: each scenario with the fields of an ask
        raw = json.loads(line) if '"bad-json"' not in want else None
        if not isinstance(raw, dict) or not isinstance(raw.get("ruleset"), str) or any(raw.get(k) is not None for k in ("options", "players", "target")):
            continue
        name = raw.get("ask")
        ask = asks_of(raw["ruleset"]).get(name) if raw.get("ruleset") in RULESETS and isinstance(name, str) else None
        if ask is None or not ask.allowed.issuperset(raw):
            continue
        limits = _default_limits(raw["ruleset"])
        assert ask.check is not None
        fast = ask.check(raw, limits)
        values = {k: v for k in ask.fields if (v := raw.get(k)) is not None}
        try:
            slow = ask.model.model_validate(values, context=limits)
        except ValidationError:
            assert fast is None, line
            failed += 1
        else:
            assert fast == slow and fast.model_fields_set == slow.model_fields_set, line
    assert checked > 5000 and failed > 500


def _default_limits(ruleset):
    from tutor.solve.common import _limits, parse_scenario
    s, _ = parse_scenario({"ruleset": ruleset, "ask": "first-lead", "hakem" if ruleset == "hokm" else "dealer": 0})
    return _limits(s.info, s.players, s.rules)


def _limits_of(s):
    from tutor.solve.common import _limits
    return _limits(s.info, s.players, s.rules)
