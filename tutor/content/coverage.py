"""Rule coverage (``lessons/COVERAGE.md``, ``tutor check``): every rule point of a ruleset
(RULES.md: C1-C33, T1-T22, H1-H27) has a row naming real lesson steps that list it in their
``rules``, is taught by at least one step, and is checked: at least :data:`MIN_EXERCISES` lesson
exercise and :data:`MIN_QUESTIONS` quiz or generated questions have an engine verdict that cites
it.

A verdict cites a point when one of the reasons the engine gives for the right answer (its
``why``, each :class:`~tutor.engine.reasons.Reason` with a ``rule`` field such as ``"H14"`` or
``"C21,K20"``) names it (:func:`verdict_points`). The generated questions are a fixed sample:
seeds ``0 .. GENERATED_SEEDS - 1`` of every kind of the ruleset at every difficulty
(:func:`tutor.content.generators.generate`, reproducible on every machine).

A point the lessons teach but nothing checks fails the check, unless the ruleset's section of
COVERAGE.md lists it on its ``Not yet checked:`` line (the known gaps, which may only shrink: a
point listed there that is checked now is a problem too). ``tutor check --coverage`` prints the
table (:func:`coverage_table`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.problems import Problems, display_path

from .. import rules as rulepoints
from ..engine.errors import TutorError
from ..engine.rulesets import RULESETS as RULESET_REGISTRY
from .exercise import RULESETS, Exercise
from .generators import generate
from .kinds import ExerciseError, expected_answer, kinds_for
from .kinds.values import reasons_of
from .lessons import LessonStep
from .quizzes import load_quiz

if TYPE_CHECKING:
    from .check import _Session

__all__ = ["COVERED_RULES", "GENERATED_SEEDS", "MIN_EXERCISES", "MIN_QUESTIONS", "RULE_IDS", "PointCoverage",
           "check_coverage", "coverage_table", "generated_points", "verdict_points"]

#: A point is checked by at least this many lesson exercises whose verdict cites it ...
MIN_EXERCISES = 1
#: ... and at least this many quiz or generated questions whose verdict cites it.
MIN_QUESTIONS = 2
#: The generated questions counted: seeds 0 .. GENERATED_SEEDS - 1 of every kind and difficulty.
GENERATED_SEEDS = 4

#: Rule points each ruleset's lessons must cover (RULES.md; T23 is the seeds' reference list).
COVERED_RULES: dict[str, tuple[str, ...]] = {name: r.rule_points() for name, r in RULESET_REGISTRY.items()}
#: Every id a step's ``rules`` may name: every point of the rule-point reference (:mod:`tutor.rules`:
#: C1-C33, T1-T23, H1-H27, the decisions K1-K27 and the definitions def-*).
RULE_IDS: frozenset[str] = frozenset(p.id for p in rulepoints.all_points())

_ROW = re.compile(r"^\|\s*([A-Z]\d+)\s*\|(.*)\|\s*$")
_PENDING = re.compile(r"^not yet checked:(.*)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PointCoverage:
    """How one rule point is taught and checked: the ``steps`` that list it in their ``rules``,
    the lesson ``exercises`` (``step-id/exercise-id``), quiz ``questions`` (ids) and ``generated``
    questions (``kind/difficulty/seed``) whose engine verdict cites it; ``pending``: listed on
    the section's ``Not yet checked:`` line."""

    rule: str
    steps: tuple[str, ...]
    exercises: tuple[str, ...]
    questions: tuple[str, ...]
    generated: tuple[str, ...]
    pending: bool = False

    @property
    def checked(self) -> bool:
        """At least :data:`MIN_EXERCISES` exercises and :data:`MIN_QUESTIONS` questions cite it."""
        return (len(self.exercises) >= MIN_EXERCISES
                and len(self.questions) + len(self.generated) >= MIN_QUESTIONS)

    @property
    def status(self) -> str:
        """``taught and checked``, ``only taught`` (``, pending`` when listed as a known gap) or
        ``not taught``."""
        if not self.steps:
            return "not taught"
        if self.checked:
            return "taught and checked"
        return "only taught" + (" (pending)" if self.pending else "")


def verdict_points(ex: Exercise) -> tuple[str, ...]:
    """The rule points the engine's verdict on ``ex`` cites (the ``rule`` of every reason of
    its answer, a joined rule such as ``"C21,K20"`` split), in the engine's order, each once;
    none when the engine rejects the exercise (``tutor check`` reports that on its own)."""
    try:
        _, answer = expected_answer(ex)
    except (TutorError, ExerciseError):
        return ()
    out: list[str] = []
    for reason in reasons_of(answer):
        rule = reason.get("rule")
        if not isinstance(rule, str) or not rule:
            continue
        for part in rule.split(","):
            pid = part.strip()
            if pid and pid not in out:
                out.append(pid)
    return tuple(out)


@cache
def generated_points(ruleset: str, seeds: int = GENERATED_SEEDS) -> Mapping[str, tuple[str, ...]]:
    """Rule point -> the generated questions (``kind/difficulty/seed``) whose verdict cites it,
    over seeds ``0 .. seeds - 1`` of every kind of ``ruleset`` at difficulties 1-3."""
    out: dict[str, list[str]] = {}
    for kind in kinds_for(ruleset):
        for difficulty in (1, 2, 3):
            for seed in range(seeds):
                try:
                    ex = generate(ruleset, kind, seed, difficulty)
                except (TutorError, ExerciseError):  # a generator that fails is reported by its own tests
                    continue
                for pid in verdict_points(ex):
                    out.setdefault(pid, []).append(f"{kind}/{difficulty}/{seed}")
    return {k: tuple(v) for k, v in out.items()}


def _cited_by(items: Iterable[tuple[str, Exercise]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, ex in items:
        for pid in verdict_points(ex):
            out.setdefault(pid, []).append(name)
    return out


def coverage_table(coverage: Mapping[str, list[PointCoverage]]) -> str:
    """The coverage as a text table per ruleset (``tutor check --coverage``): per point the
    steps that teach it, the exercises and the quiz and generated questions whose verdict cites
    it, and its status; then per ruleset how many points are only taught."""
    lines: list[str] = []
    for ruleset, points in coverage.items():
        lines.append(f"{ruleset}: rule  taught  exercises  quiz  generated  status")
        for p in points:
            lines.append(f"{ruleset}: {p.rule:<5} {len(p.steps):>6}  {len(p.exercises):>9}  {len(p.questions):>4}  "
                         f"{len(p.generated):>9}  {p.status}")
        only = [p.rule for p in points if p.steps and not p.checked]
        checked = sum(1 for p in points if p.steps and p.checked)
        lines.append(f"{ruleset}: {checked} of {len(points)} points taught and checked, {len(only)} only taught"
                     + (f" ({', '.join(only)})" if only else ""))
    return "\n".join(lines) + ("\n" if lines else "")


def check_coverage(path: Path, session: _Session, problems: Problems,
                   rulesets: Iterable[str]) -> dict[str, list[PointCoverage]]:
    """Check the coverage file at ``path`` for ``rulesets`` (steps read through ``session``, the
    quiz from ``quizzes/<ruleset>.yaml`` beside ``lessons/``); returns each ruleset's points as
    :class:`PointCoverage`, in reference order."""
    shown = display_path(path)
    result: dict[str, list[PointCoverage]] = {}
    root = path.resolve().parent.parent
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        problems.add(shown, 0, f"cannot read the coverage file: {e.strerror}")
        return result
    sections: dict[str, tuple[int, dict[str, tuple[int, list[str]]]]] = {}
    pending: dict[str, tuple[int, list[str]]] = {}
    current: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        h = re.match(r"^##\s+(\S+)\s*$", line)
        if h:
            current = h.group(1).strip().lower()
            if current not in RULESETS:
                problems.add(shown, n, f"unknown ruleset section {current!r} (use {', '.join(RULESETS)})")
            sections[current] = (n, {})
            continue
        waiting = _PENDING.match(line.strip())
        if waiting and current:
            pending[current] = (n, [r.strip() for r in re.split(r"[,\s]+", waiting.group(1)) if r.strip()])
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
        result[ruleset] = _checked(ruleset, wanted, steps, taught, root, pending.get(ruleset, (head, [])),
                                   rows, shown, problems)
    return result


def _checked(ruleset: str, wanted: tuple[str, ...], steps: Mapping[str, LessonStep], taught: Mapping[str, list[str]],
             root: Path, pending: tuple[int, list[str]], rows: Mapping[str, tuple[int, list[str]]], shown: str,
             problems: Problems) -> list[PointCoverage]:
    """Each point of ``ruleset`` as checked by the verdicts of its exercises and questions; a
    point only taught is a problem unless listed as pending, and a pending point checked now too."""
    line, waiting = pending
    for rule in waiting:
        if rule not in wanted:
            problems.add(shown, line, f"Not yet checked: {rule} is not a rule point of {ruleset}")
    exercises = _cited_by((f"{sid}/{ex.id}", ex) for sid, s in steps.items()
                          for ex in s.exercises)
    quiz = load_quiz(ruleset, root, Problems())  # its problems are reported when the quiz is checked
    questions = _cited_by((q.id, q) for q in quiz)
    generated = generated_points(ruleset)
    out: list[PointCoverage] = []
    for rule in wanted:
        p = PointCoverage(rule, tuple(taught.get(rule, ())), tuple(exercises.get(rule, ())),
                          tuple(questions.get(rule, ())), generated.get(rule, ()), rule in waiting)
        out.append(p)
        at = rows[rule][0] if rule in rows else line
        if p.steps and not p.checked and not p.pending:
            problems.add(shown, at, f"{rule} is only taught: {len(p.exercises)} lesson exercise(s) and "
                                    f"{len(p.questions)} quiz + {len(p.generated)} generated question(s) have a "
                                    f"verdict that cites it (needs {MIN_EXERCISES} and {MIN_QUESTIONS}; "
                                    f"tutor check --coverage)")
        if p.checked and p.pending:
            problems.add(shown, line, f"{rule} is checked now: remove it from 'Not yet checked'")
    return out
