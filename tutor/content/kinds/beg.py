"""Stand or beg: the points each side has once trump is made — the eldest stands (nothing
scores but a turned-up card), or begs and the dealer gives one (take one) or runs the pack,
with the turn-up points of every card turned (C9-C16, T8-T13). Ask ``make-trump``; the rulesets
with a turn-up.

Learner's value: a list of ``int`` points, one per side (a form sends one field per side; JSON a
list, or one string such as ``"1, 0"``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine.errors import BadFieldError
from ...engine.rulesets import RULESETS
from ..deals import make_trump, solve
from ..exercise import Exercise
from . import register
from .base import (
    N_,
    AnswerError,
    Ctx,
    EditorField,
    EngineAnswer,
    ExerciseKind,
    FeedbackLine,
    Json,
    LmsChoice,
    LmsKey,
    Names,
    Reject,
    ScenarioDict,
    Verdict,
    as_int,
    as_list,
    digits,
    n_sides,
)


def _nth(items: object, i: int) -> object:
    return items[i] if isinstance(items, list | tuple) and i < len(items) else None


@register
class Beg(ExerciseKind[list[int]]):
    name = "beg"
    order = 60
    asks = ("make-trump",)
    rulesets = tuple(r.name for r in RULESETS.values() if r.turnup_option)
    answer_fields = ("points",)
    expect_fields = ("points",)
    answer_help = ("the points of each side (a list, one number per side); details: sides, trump, runs, hand_size, "
                   "redeal")
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 4},
                               {"type": "string", "maxLength": 40}],
                     "description": "the points of each side, in side order", "example": [1, 0]}
    label = N_("Stand or beg")
    decides = frozenset({"turnup-no-points", "turnup-scores", "turned-jack", "stand", "gift", "take-one",
                         "run", "pack-exhausted"})  # the points of the turn-ups and of the choice
    prompt = N_("After the stand-or-beg decision, how many points does each side score?")
    editor_fields = (
        EditorField("dealer", "seat", N_("Dealer")),
        EditorField("turn_ups", "cards", N_("Turned-up cards")),
        EditorField("decision", "choice", N_("The eldest")),
        EditorField("dealer_choice", "choice", N_("The dealer"), required=False),
    )

    def parse(self, raw: object, ctx: Ctx) -> list[int]:
        items = as_list(raw, "the points per side")
        if len(items) != ctx.sides:
            raise BadFieldError(f"give the points of each of the {ctx.sides} sides, not {len(items)} numbers.")
        return [as_int(x, f"the points of side {i}", 0, 99) for i, x in enumerate(items)]

    def details(self, given: list[int], expected: list[int], answer: EngineAnswer, ctx: Ctx) -> Json:
        out: dict[str, Any] = {"sides": [{"side": i, "given": g, "expected": e, "correct": g == e}
                               for i, (g, e) in enumerate(zip(given, expected, strict=True))]}
        for name in ("trump", "runs", "hand_size", "redeal"):
            if name in answer:
                out[name] = answer[name]
        return out

    def read_form(self, ex: Exercise, form: Any) -> object:
        values = [digits(form.get(f"points-{s}", "")) for s in range(n_sides(ex.scenario))]
        if not all(values):
            raise AnswerError("bad-answer", N_("Give the points of every side."))
        return values

    def feedback_lines(self, ex: Exercise, verdict: Verdict[list[int]], names: Names) -> list[FeedbackLine]:
        return [FeedbackLine(names.side(s), names.num(pts), _nth(verdict.given, s) == pts)
                for s, pts in enumerate(verdict.expected or [])]

    def form_fields(self, ex: Exercise, value: list[int]) -> Json:
        return {f"points-{i}": str(v) for i, v in enumerate(value)}

    def distractor(self, ex: Exercise, right: list[int]) -> list[int]:
        return [v + 1 for v in right]

    def lms_key(self, ex: Exercise, expected: list[int], answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A short answer: the points of each side in side order, written "1, 0" (or "1,0", "1 0")."""
        texts = dict.fromkeys(sep.join(str(v) for v in expected) for sep in (", ", ",", " "))
        return LmsKey("shortanswer", tuple(LmsChoice(t, 100) for t in texts))

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """1: stand; 2: beg and give (take) one; 3: beg and run the pack (same-suit turn-ups,
        more players)."""
        sc = make_trump(ruleset, rng, d, scores=False)
        ans = solve(sc)
        if d == 3 and ans.get("redeal"):
            raise Reject
        return sc, "After the stand or beg decision, how many points does each side have?"
