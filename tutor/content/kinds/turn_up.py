"""Turn-up (kick) points: what the dealer's side scores for the card turned up for trump —
classic All Fours: a jack scores 1 (C8), or on the running scale ace 4, king 3, queen 2, jack 1
(C32); Trinidad: ace 1, six 2, jack 3 (T7), or on the Tobago scale ace 1, two 2, jack 3.
Ask ``turn-up``; the rulesets with a turn-up.

Learner's value: the points ``int`` 0..99.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import Card
from ...engine.rulesets import RULESETS, get_ruleset
from ..deals import SUITS
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
    LmsKey,
    Names,
    ScenarioDict,
    Verdict,
    as_int,
    digits,
)


@register
class TurnUp(ExerciseKind[int]):
    name = "turn-up"
    order = 50
    asks = ("turn-up",)
    rulesets = tuple(r.name for r in RULESETS.values() if r.turnup_option)
    answer_fields = ("points",)
    expect_fields = ("points",)
    answer_help = "the points the dealer's side scores for the turned-up card"
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 99}, {"type": "string", "maxLength": 8}],
                     "description": "the points of the turned-up card", "example": 1}
    label = N_("Turn-up points")
    prompt = N_("How many points does the dealer's side score for the turned-up card?")
    editor_fields = (EditorField("card", "card", N_("Turned-up card")),)

    def parse(self, raw: object, ctx: Ctx) -> int:
        return as_int(raw, "the points", 0, 99)

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.get("points", "").strip():
            raise AnswerError("bad-answer", N_("Give the number of points."))
        return digits(form.get("points", ""))

    def table_center(self, scenario: ScenarioDict) -> list[str]:
        return [scenario["card"]] if scenario.get("card") is not None else []

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[FeedbackLine]:
        return [FeedbackLine(names.text(N_("Points")), names.num(verdict.expected), verdict.correct)]

    def form_fields(self, ex: Exercise, value: int) -> Json:
        return {"points": str(value)}

    def distractor(self, ex: Exercise, right: int) -> int:
        return right + 1

    def lms_key(self, ex: Exercise, expected: int, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A number: the points."""
        return LmsKey("numerical", number=expected)

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        return [(N_("Turned-up card"), i18n.card_label(str(ex.scenario["card"])))]

    # ------------------------------------------------------------------ question quality

    features = ("other_scale", "look_alike")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``other_scale``: 1 if the scenario sets the ruleset's other scale (the running scale,
        Tobago), not the default; ``look_alike``: 1 if the card scores differently on the
        game's two scales (classic: ace, king, queen; Trinidad: six, two)."""
        r = get_ruleset(str(scenario["ruleset"]))
        key = r.turnup_option
        scales = list(r.turnup_scales())
        scale = (scenario.get("options") or {}).get(key, scales[0])
        rank = Card.parse(scenario["card"]).rank
        return {"other_scale": float(scale != scales[0]),
                "look_alike": float(len({r.turnup_scale(s).get(rank, 0) for s in scales}) > 1)}

    def level(self, features: Mapping[str, float]) -> int:
        """1 + other_scale + look_alike."""
        return 1 + int(features["other_scale"]) + int(features["look_alike"])

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The points."""
        return str(answer["points"])

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        """The points a card can score at ``difficulty`` (from the ruleset's scales): at some
        levels only two (the classic default scale scores a jack 1, every other card 0)."""
        return tuple(sorted({str(v) for v, _, _ in _cells(ruleset, difficulty)}))

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at the points (``want``): 1: the default scale, a card that scores the same on
        both scales; 2: a look-alike on the default scale, or the other scale; 3: a look-alike on
        the other scale."""
        r = get_ruleset(ruleset)
        cells = [c for c in _cells(ruleset, d) if want is None or str(c[0]) == want]
        _, rank, scale = rng.choice(cells)
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "turn-up"}
        if scale != r.turnup_scales()[0]:
            assert r.turnup_option is not None
            sc["options"] = {r.turnup_option: scale}
        card = Card.of(rank, rng.choice(SUITS))
        sc["card"] = str(card)
        return sc, (f"The dealer turns up the {i18n.card_label(card)}. "
                    "How many points does the dealer's side score?")


@functools.cache
def _cells(ruleset: str, difficulty: int) -> tuple[tuple[int, int, str], ...]:
    """``(points, rank, scale)`` of every rank on every scale of the ruleset at ``difficulty``."""
    r = get_ruleset(ruleset)
    scales = list(r.turnup_scales())
    out = []
    for scale in scales:
        for rank in range(2, 15):
            looks = len({r.turnup_scale(s).get(rank, 0) for s in scales}) > 1
            if 1 + (scale != scales[0]) + looks == difficulty:
                out.append((r.turnup_scale(scale).get(rank, 0), rank, scale))
    return tuple(out)
