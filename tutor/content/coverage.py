"""Rule coverage (``lessons/COVERAGE.md``, ``tutor check``): every rule point of a ruleset
(RULES.md: C1-C33, T1-T22, H1-H27) has a row naming real lesson steps that list it in their
``rules``, and is taught by at least one step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.problems import Problems, display_path

from .. import rules as rulepoints
from ..engine.rulesets import RULESETS as RULESET_REGISTRY
from .exercise import RULESETS

if TYPE_CHECKING:
    from .check import _Session

__all__ = ["COVERED_RULES", "RULE_IDS", "check_coverage"]

#: Rule points each ruleset's lessons must cover (RULES.md; T23 is the seeds' reference list).
COVERED_RULES: dict[str, tuple[str, ...]] = {name: r.rule_points() for name, r in RULESET_REGISTRY.items()}
#: Every id a step's ``rules`` may name: every point of the rule-point reference (:mod:`tutor.rules`:
#: C1-C33, T1-T23, H1-H27, the decisions K1-K27 and the definitions def-*).
RULE_IDS: frozenset[str] = frozenset(p.id for p in rulepoints.all_points())

_ROW = re.compile(r"^\|\s*([A-Z]\d+)\s*\|(.*)\|\s*$")


def check_coverage(path: Path, session: _Session, problems: Problems, rulesets: Iterable[str]) -> None:
    """Check the coverage file at ``path`` for ``rulesets`` (steps read through ``session``)."""
    shown = display_path(path)
    root = path.resolve().parent.parent
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        problems.add(shown, 0, f"cannot read the coverage file: {e.strerror}")
        return
    sections: dict[str, tuple[int, dict[str, tuple[int, list[str]]]]] = {}
    current: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        h = re.match(r"^##\s+(\S+)\s*$", line)
        if h:
            current = h.group(1).strip().lower()
            if current not in RULESETS:
                problems.add(shown, n, f"unknown ruleset section {current!r} (use {', '.join(RULESETS)})")
            sections[current] = (n, {})
            continue
        m = _ROW.match(line.strip())
        if m and current:
            rule = m.group(1)
            step_ids = [s.strip() for s in re.split(r"[,\s]+", m.group(2).replace("|", " ")) if s.strip()]
            rows = sections[current][1]
            if rule in rows:
                problems.add(shown, n, f"{rule} has two rows (the other at line {rows[rule][0]})")
            rows[rule] = (n, step_ids)
    for ruleset in rulesets:
        if ruleset not in sections:
            problems.add(shown, 1, f"no '## {ruleset}' section")
            continue
        head, rows = sections[ruleset]
        steps = session.steps_of(root, ruleset)
        taught: dict[str, list[str]] = {}
        for s in steps.values():
            for r in s.rules:
                taught.setdefault(r, []).append(s.id)
        wanted = COVERED_RULES[ruleset]
        for rule, (n, ids) in rows.items():
            if rule not in wanted and rule not in RULE_IDS:
                problems.add(shown, n, f"{rule} is not a rule id of RULES.md")
            if not ids:
                problems.add(shown, n, f"{rule}: no lesson step is named")
            for sid in ids:
                if sid not in steps:
                    problems.add(shown, n, f"{rule}: {sid!r} is not a lesson step of {ruleset}")
                elif rule not in steps[sid].rules:
                    problems.add(shown, n, f"{rule}: step {sid} does not list {rule} in its rules "
                                           f"({display_path(steps[sid].path)})")
        for rule in wanted:
            if rule not in rows:
                problems.add(shown, head, f"{rule} has no row in the {ruleset} section")
            if rule not in taught:
                problems.add(shown, rows[rule][0] if rule in rows else head,
                             f"{rule} is taught by no {ruleset} lesson step (no step lists it in rules)")
