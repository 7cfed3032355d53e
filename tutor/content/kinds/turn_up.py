"""Turn-up (kick) points: what the dealer's side scores for the card turned up for trump —
classic All Fours: a jack scores 1 (C8), or on the running scale ace 4, king 3, queen 2, jack 1
(C32); Trinidad: ace 1, six 2, jack 3 (T7), or on the Tobago scale ace 1, two 2, jack 3.
Ask ``turn-up``; the rulesets with a turn-up.

Learner's value: the points ``int`` 0..99.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import Card
from ...engine.rulesets import RULESETS, get_ruleset
from ..deals import SUITS, solve
from ..exercise import Exercise
from . import register
from .base import (
    N_,
    AnswerError,
    Ctx,
    EditorField,
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

#: Look-alike ranks shown at difficulty 2 (cards that score on one scale or game and not another),
#: by the option that sets the ruleset's scale.
_LOOK_ALIKES = {"turnup_scale": (10, 13, 12, 14, 2, 6, 7), "kick_scale": (10, 2, 7, 13, 12, 6, 14)}


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

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """1: a card that scores or not on the default scale; 2: look-alikes; 3: the other scale."""
        r = get_ruleset(ruleset)
        key = r.turnup_option
        assert key is not None
        scale = list(r.turnup_scales())
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "turn-up"}
        if d == 3:
            sc["options"] = {key: scale[1]}
            ranks = sorted(set(r.turnup_scale(scale[1])) | {6, 10, 2})
        elif d == 2:
            ranks = list(_LOOK_ALIKES[key])
        else:
            ranks = sorted(set(r.turnup_scale(scale[0])) | {3, 5, 8, 9})
        card = Card.of(rng.choice(ranks), rng.choice(SUITS))
        sc["card"] = str(card)
        solve(sc)
        return sc, (f"The dealer turns up the {i18n.card_label(card)}. "
                    "How many points does the dealer's side score?")
