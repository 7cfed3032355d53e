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
from .round_score import round_facts, round_scenario


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

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        from . import seat_name

        return [(N_("Hakem"), seat_name(ex, int(ex.scenario["hakem"])))]

    # ------------------------------------------------------------------ question quality

    features = ("hakem_loses", "shut_out", "wraps")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``hakem_loses``: 1 if the hakem's team lost the round (the turn passes); ``shut_out``:
        1 if the losers took no trick (kot or hakem-kot); ``wraps``: 1 if the turn passes from
        the last seat (3) round to seat 0."""
        hakem, counts = round_facts(scenario)
        loses = counts[hakem % 2] < 7
        return {"hakem_loses": float(loses), "shut_out": float(min(counts) == 0), "wraps": float(loses and hakem == 3)}

    def level(self, features: Mapping[str, float]) -> int:
        """1 + hakem_loses + shut_out + 2 × wraps, at most 3: 1: the hakem's team wins plainly;
        2: it loses, or wins by kot; 3: hakem-kot, or the turn wraps round from seat 3."""
        return min(3, 1 + int(features["hakem_loses"]) + int(features["shut_out"]) + 2 * int(features["wraps"]))

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The seat of the next hakem."""
        return str(answer["next_hakem"])

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return ("0", "1", "2", "3")

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at the next hakem's seat (``want``): 1: the hakem's team wins plainly (he
        stays); 2: it loses (the turn passes to his right), or wins by kot; 3: it is shut out
        (hakem-kot), or the hakem in seat 3 loses (the turn wraps round to seat 0)."""
        seat = int(want) if want else rng.randrange(4)
        if d == 1:
            hakem, stays, loser_tricks = seat, True, rng.randint(1, 6)
        elif d == 2:
            stays = seat == 0 or rng.random() < 0.4
            hakem, loser_tricks = (seat, 0) if stays else ((seat - 1) % 4, rng.randint(1, 6))
        else:
            hakem, stays = (seat - 1) % 4, False
            loser_tricks = rng.choice([0, rng.randint(1, 6)]) if seat == 0 else 0
        winner = hakem % 2 if stays else 1 - hakem % 2
        sc, words = round_scenario(rng, hakem, winner, loser_tricks)
        return sc, words.format(question="Who is the next hakem?")
