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
from tutor.solve import answer, parse_json

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
    assert len(asks) == 4 + 5 + 5 + 3  # hokm 4 + first-lead; all-fours and trinidad 5 + first-lead each
    assert min(asks.values()) >= 30
    assert sum(asks.values()) > 5000


def test_tutor_solve_writes_the_same_bytes():
    out = io.StringIO()
    failed = solve_stream(INPUT.encode(), out)
    assert failed == sum('"error"' in a[:9] for _, a in PAIRS)
    got = out.getvalue().splitlines()
    assert len(got) == len(PAIRS)
    for (line, want), have in zip(PAIRS, got, strict=True):
        assert have == want, line


@pytest.mark.parametrize("start", range(0, len(PAIRS), 2000))
def test_each_answer_is_the_same_object_in_the_same_order(start):
    """The web API's path: one decoded scenario in, the answer dict out (errors are numbered by
    line only in JSON Lines, so the test compares answers that are not errors)."""
    for line, want in PAIRS[start:start + 2000]:
        if not want.startswith('{"error"'):
            assert orjson.dumps(answer(parse_json(line))).decode() == want, line
