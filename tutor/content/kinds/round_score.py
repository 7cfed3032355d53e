"""Round score: how many points the winning team scores for a Hokm round — 1 for a plain win,
2 for kot (the losers took no trick), 3 for hakem-kot (the hakem's team is the one shut out).
Ask ``round-score``; Hokm (H20-H22).

Learner's value: the points ``int`` 1, 2 or 3.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ..deals import cap, round_counts, solve, tricks_prose
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

#: The question of a generated Hokm round (round-score and next-hakem share the scenario).
ROUND_PROMPT = "{who} {be} hakem; your team took {ours} and the other team {theirs}. {question}"


def round_scenario(rng: random.Random, d: int, wraps: bool) -> tuple[ScenarioDict, str]:
    """A Hokm round-score scenario and the English words of its situation (``wraps``: at
    difficulty 3 the hakem is often seat 3, so the next hakem wraps to seat 0)."""
    hakem = 3 if d == 3 and wraps and rng.random() < 0.5 else rng.randrange(4)
    counts = round_counts(rng, hakem, d)
    sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts}
    solve(sc)
    who = i18n.seat_label(hakem, 0, 4, "hokm")
    return sc, ROUND_PROMPT.format(who=cap(who), be="are" if hakem == 0 else "is", ours=tricks_prose(counts[0]),
                                   theirs=tricks_prose(counts[1]), question="{question}")


@register
class RoundScore(ExerciseKind[int]):
    name = "round-score"
    order = 30
    asks = ("round-score",)
    rulesets = ("hokm",)
    answer_fields = ("points",)
    expect_fields = ("points", "result")
    answer_help = "the points of the round (1, 2 or 3); details: result, winner_team, next_hakem"
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 3}, {"type": "string", "maxLength": 8}],
                     "description": "the points of the round", "example": 2}
    label = N_("Round score")
    decides = frozenset({"round-win", "round-kot", "round-hakem-kot", "round-not-decided", "round-over"})
    prompt = N_("How many points does the winning team score for this round?")
    editor_fields = (
        EditorField("hakem", "seat", N_("Hakem")),
        EditorField("team_tricks", "side-list", N_("Tricks won by each team")),
    )

    def parse(self, raw: object, ctx: Ctx) -> int:
        return as_int(raw, "the points", 1, 3)

    def details(self, given: int, expected: int, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {n: answer[n] for n in ("result", "winner_team", "next_hakem") if n in answer}

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.get("points", "").strip():
            raise AnswerError("bad-answer", N_("Give the number of points."))
        return digits(form.get("points", ""))

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[FeedbackLine]:
        lines = [FeedbackLine(names.text(N_("Points")), names.num(verdict.expected), verdict.correct)]
        if verdict.answer.get("result"):
            lines.append(FeedbackLine(names.text(N_("Result")), i18n.result_name(verdict.answer["result"])))
        return lines

    def form_fields(self, ex: Exercise, value: int) -> Json:
        return {"points": str(value)}

    def distractor(self, ex: Exercise, right: int) -> int:
        return 1 if right != 1 else 2

    def lms_key(self, ex: Exercise, expected: int, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A number: the points."""
        return LmsKey("numerical", number=expected)

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """1: the hakem's team wins normally; 2: kot, or the hakem's team loses; 3: hakem-kot."""
        sc, words = round_scenario(rng, d, wraps=False)
        return sc, words.format(question="How many points is the round worth?")
