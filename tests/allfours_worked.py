"""Helpers for the worked All Fours / Trinidad hands in tests/data/*_hands.yaml (not a test file).

Each hand lists scenarios of the public solve contract with the exact answer fields expected
(worked out by hand, see each hand's ``worked`` text) or the expected error code.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tutor.solve import answer

DATA = Path(__file__).parent / "data"
TRICK_REASONS = {"highest-trump-wins", "highest-of-suit-led-wins"}


def worked_cases(name: str) -> list[tuple[str, dict]]:
    """``[(test id, case)]`` for every scenario of every hand in ``tests/data/<name>``."""
    doc = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    out = []
    for hand in doc["hands"]:
        for i, case in enumerate(hand["scenarios"], 1):
            out.append((f"{hand['id']}-{i}", case))
    return out


def check_case(case: dict) -> dict:
    """Solve ``case["scenario"]`` and assert the expected fields, error and reason codes."""
    got = answer(case["scenario"])
    if "error" in case:
        assert got.get("error", {}).get("code") == case["error"], got
        return got
    assert "error" not in got, got
    for key, value in case["expect"].items():
        assert got[key] == value, (key, got[key], value)
    if "why_codes" in case:
        codes = [w["code"] for w in got["why"] if w["code"] not in TRICK_REASONS]
        assert codes == case["why_codes"], codes
    return got
