"""The question-quality report of the generators (``tutor check --quality``).

For every kind, ruleset and difficulty it generates the questions of ``seeds`` seeds
(:func:`tutor.content.generators.generate`: each keyed by the engine while it is built) and
measures, from the kind's own declarations (:class:`~tutor.content.kinds.base.ExerciseKind`'s
``features``, ``measure``, ``answer_class``, ``condition``):

* the share of the largest answer class (target: at most :data:`MAX_CLASS_SHARE`, or an even
  split where the kind says only two answers are possible at that difficulty: :func:`class_limit`);
* the share of questions meeting the kind's condition, where it has one (legal-cards: at least
  2 legal and 1 illegal card; target: the kind's ``condition_target``);
* the distinct scenarios among them;
* the mean of each feature; the target is that each mean is non-decreasing from difficulty 1 to
  3 (the difficulty is a non-decreasing function of the features, so this shows it).

:func:`survey` measures, :func:`report` writes the table and returns whether every target is
met; ``tutor check --quality`` exits with status 1 when one is missed.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .exercise import RULESETS, Exercise
from .kinds import KINDS, ExerciseKind, kinds_for

__all__ = ["MAX_CLASS_SHARE", "Cell", "class_limit", "report", "scenario_key", "survey"]

#: The largest share one answer class may have at any difficulty.
MAX_CLASS_SHARE = 0.40
#: Slack for the means of a feature (float sums): a drop smaller than this is no drop.
_EPS = 1e-9

Generate = Callable[[str, str, int, int], Exercise]


def scenario_key(ex: Exercise) -> str:
    """The exercise's kind and scenario as one canonical text: two questions with the same key
    are the same question (a session never shows one twice)."""
    return json.dumps([ex.kind, ex.scenario], sort_keys=True, ensure_ascii=False)


@dataclass
class Cell:
    """What :func:`survey` measured for one kind, ruleset and difficulty over ``n`` seeds."""

    kind: str
    ruleset: str
    difficulty: int
    n: int
    classes: Counter[str] = field(default_factory=Counter)
    condition: float | None = None
    distinct: int = 0
    means: dict[str, float] = field(default_factory=dict)

    @property
    def top_share(self) -> float:
        """The share of the largest answer class."""
        return max(self.classes.values()) / self.n if self.classes and self.n else 0.0

    @property
    def top_class(self) -> str:
        return self.classes.most_common(1)[0][0] if self.classes else ""


def survey(ruleset: str, kind: str, difficulty: int, seeds: Iterable[int],
           generate: Generate | None = None) -> Cell:
    """Generate one question per seed and measure them (``generate``: the generator, by default
    :func:`tutor.content.generators.generate`)."""
    if generate is None:
        from .generators import generate as default
        generate = default
    k: ExerciseKind[Any] = KINDS[kind]
    cell = Cell(kind, ruleset, difficulty, 0)
    keys: set[str] = set()
    sums: dict[str, float] = dict.fromkeys(k.features, 0.0)
    met = 0
    for seed in seeds:
        ex = generate(ruleset, kind, seed, difficulty)
        answer = ex.solve()
        cell.n += 1
        cell.classes[k.answer_class(ex.scenario, answer)] += 1
        keys.add(scenario_key(ex))
        if k.features:
            for name, value in k.measure(ex.scenario, answer).items():
                sums[name] = sums.get(name, 0.0) + value
        if k.condition_target is not None:
            met += k.condition(ex.scenario, answer)
    cell.distinct = len(keys)
    cell.means = {name: total / cell.n for name, total in sums.items()} if cell.n else {}
    if k.condition_target is not None and cell.n:
        cell.condition = met / cell.n
    return cell


def class_limit(kind: ExerciseKind[Any], ruleset: str, difficulty: int) -> float:
    """The largest share one answer class may have: :data:`MAX_CLASS_SHARE`, or an even split
    where the kind's question has only two possible answers at this difficulty (the classic
    turn-up on the default scale: a jack scores 1, every other card 0)."""
    possible = len(kind.answer_classes(ruleset, difficulty))
    return 1 / possible if 0 < possible < 3 else MAX_CLASS_SHARE


def _misses(cells: Sequence[Cell]) -> list[str]:
    """The targets the cells of one kind and ruleset (difficulties in order) miss, in words."""
    out: list[str] = []
    if not cells:
        return out
    k = KINDS[cells[0].kind]
    for c in cells:
        limit = class_limit(k, c.ruleset, c.difficulty)
        if c.top_share > limit + _EPS:
            out.append(f"difficulty {c.difficulty}: answer class {c.top_class!r} is {c.top_share:.0%} "
                       f"(at most {limit:.0%})")
        if k.condition_target is not None and c.condition is not None and c.condition < k.condition_target - _EPS:
            out.append(f"difficulty {c.difficulty}: {k.condition_text} in {c.condition:.0%} "
                       f"(at least {k.condition_target:.0%})")
    for name in k.features:
        means = [c.means.get(name, 0.0) for c in cells]
        if any(b < a - _EPS for a, b in itertools.pairwise(means)):
            out.append(f"feature {name} is not monotone in the difficulty: "
                       + " / ".join(f"{m:.2f}" for m in means))
    if not k.features:
        out.append("the kind declares no features")
    return out


def report(out: TextIO, seeds: int = 500, kinds: Sequence[str] | None = None,
           rulesets: Sequence[str] | None = None, generate: Generate | None = None) -> bool:
    """Write the quality table of ``seeds`` seeds (0..seeds-1) per kind, ruleset and difficulty
    to ``out``; ``True`` when every target is met (the misses are listed at the end)."""
    misses: list[str] = []
    out.write(f"Question quality of the generators, {seeds} seeds per kind, ruleset and difficulty "
              f"(targets: largest answer class <= {MAX_CLASS_SHARE:.0%}; the kind's condition; "
              "feature means non-decreasing)\n")
    for ruleset in rulesets or RULESETS:
        for kind in kinds or kinds_for(ruleset):
            if ruleset not in KINDS[kind].rulesets:
                continue
            k = KINDS[kind]
            cells = [survey(ruleset, kind, d, range(seeds), generate) for d in (1, 2, 3)]
            out.write(f"\n{ruleset} {kind}\n")
            for c in cells:
                limit = class_limit(k, ruleset, c.difficulty)
                parts = [f"  d{c.difficulty}: largest class {c.top_share:4.0%} ({c.top_class}; "
                         f"{len(c.classes)} classes"
                         + (f"; only {round(1 / limit)} answers possible, limit {limit:.0%}" if limit != MAX_CLASS_SHARE else "")
                         + ")",
                         f"distinct {c.distinct}/{c.n}"]
                if c.condition is not None:
                    parts.append(f"{k.condition_text} {c.condition:.0%}")
                parts.append(" ".join(f"{name}={c.means.get(name, 0.0):.2f}" for name in k.features))
                out.write(", ".join(parts) + "\n")
            for miss in _misses(cells):
                misses.append(f"{ruleset} {kind}: {miss}")
    out.write("\n")
    if misses:
        out.write(f"{len(misses)} target(s) missed:\n")
        for m in misses:
            out.write(f"  {m}\n")
        return False
    out.write("every target met\n")
    return True
