"""Next hakem: who is hakem in the next round — the hakem stays while his team wins; otherwise
the turn passes to the player on his right (the next seat in play order). Ask ``round-score``;
Hokm (H23).

Learner's value: the seat ``int`` 0..3.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..exercise import Exercise
from . import register
from .base import (
    N_,
    AnswerError,
    Ctx,
    EditorField,
    EngineAnswer,
    FeedbackLine,
    Json,
    LmsKey,
    Names,
    ScenarioDict,
    SeatKey,
    Verdict,
    as_int,
    digits,
    players_of,
    seat_choices,
)
from .round_score import round_scenario


@register
class NextHakem(SeatKey):
    name = "next-hakem"
    order = 40
    asks = ("round-score",)
    rulesets = ("hokm",)
    answer_fields = ("next_hakem",)
    expect_fields = ("next_hakem",)
    answer_help = "the seat of the next hakem; details: result, winner_team"
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3}, {"type": "string", "maxLength": 8}],
                     "description": "the seat of the next hakem", "example": 1}
    label = N_("Next hakem")
    decides = frozenset({"hakem-passes-right", "hakem-stays"})
    prompt = N_("Who is the hakem in the next round?")
    editor_fields = (
        EditorField("hakem", "seat", N_("Hakem")),
        EditorField("team_tricks", "side-list", N_("Tricks won by each team")),
    )

    def parse(self, raw: object, ctx: Ctx) -> int:
        return as_int(raw, "the seat", 0, ctx.players - 1)

    def details(self, given: int, expected: int, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {n: answer[n] for n in ("result", "winner_team") if n in answer}

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.get("seat"):
            raise AnswerError("bad-answer", N_("Choose a seat first."))
        return digits(form.get("seat", ""))

    def public_extra(self, ex: Exercise) -> Json:
        return {"choices": list(range(players_of(ex.scenario)))}

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[FeedbackLine]:
        return [FeedbackLine(names.text(N_("Next hakem")), names.seat(verdict.expected), verdict.correct)]

    def form_fields(self, ex: Exercise, value: int) -> Json:
        return {"seat": str(value)}

    def distractor(self, ex: Exercise, right: int) -> int:
        return (right + 1) % players_of(ex.scenario)

    def lms_key(self, ex: Exercise, expected: int, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A multiple choice of the seats."""
        return seat_choices(ex, expected, names)

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """As round-score; at difficulty 3 the hakem is often seat 3, so the turn wraps to seat 0."""
        sc, words = round_scenario(rng, d, wraps=True)
        return sc, words.format(question="Who is the next hakem?")

