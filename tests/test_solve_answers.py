"""`tutor solve` keeps its answers: every (scenario, answer) pair of tests/data/solve_answers.jsonl.

The file was written by the engine of main at 4f1859d, before the scenario contract moved to typed
models (issue 7), from: the README examples, every scenario of tests/data, scenarios the test suite
and `tutor check` send to the engine, scenarios taken from random games of the three state
machines, and malformed ones made by mutating valid scenarios (dropped, unknown or odd fields,
options, players, targets, cards). Pairs were kept per answer shape and per error message template
(the shortest two of each and one more at random), so every message the contract gives is here.

One change is deliberate (issue 7): a string that is not a suit in `trump` is `bad-field` naming the
field, not `bad-card`; those pairs were rewritten by hand in the same commit as the change. So were
the two make-trump pairs of issue 19 (K11): a beg after a kick that won the game is `impossible-state`,
and a winning kick of the refused suit ends the deal without a redeal.

Issue 19 (every rule point checked) made the reasons cite more points; the pairs concerned were
rewritten by a script that checked nothing but the why changed: a trick's winner also cites the rank
order (H3, C3, T1) or ruffing (H18), a kot H22, a same-suit turn-up C14/T11, reaching the target T21,
C12 (a gift) or C32 (Running All Fours), a run the dealer's choice (C10, T9), the Trinidad Jack T3; a
deal with runs adds the hand-after-run reason (C15, C33, T17) and a Hokm round the tricks per team
(deal-tricks, H20, H5). The new ask next-lead joined the list of asks that unknown-ask messages give.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.solve import answer

DATA = Path(__file__).parent / "data" / "solve_answers.jsonl"
PAIRS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_file_covers_every_ask_and_error_code():
    asks = {(p["scenario"].get("ruleset"), p["scenario"].get("ask")) for p in PAIRS
            if isinstance(p["scenario"], dict) and "error" not in p["answer"]}
    assert asks == {("hokm", a) for a in ("legal-plays", "trick-winner", "round-score", "round-playout")} | {
        (r, a) for r in ("all-fours", "trinidad")
        for a in ("legal-plays", "trick-winner", "turn-up", "make-trump", "hand-score")}
    codes = {p["answer"]["error"]["code"] for p in PAIRS if "error" in p["answer"]}
    assert codes == {"bad-json", "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field",
                     "illegal-play", "impossible-state"}
    assert len(PAIRS) > 2000


@pytest.mark.parametrize("start", range(0, len(PAIRS), 250))
def test_answers_are_unchanged(start):
    for pair in PAIRS[start:start + 250]:
        assert answer(pair["scenario"]) == pair["answer"], pair["scenario"]
