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
from ..deals import cap, tricks_prose
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


def round_scenario(rng: random.Random, hakem: int, winner_team: int, loser_tricks: int) -> tuple[ScenarioDict, str]:
    """A Hokm round-score scenario: ``hakem``'s round won (7 tricks) by ``winner_team``, the
    other team with ``loser_tricks``; and the English words of its situation."""
    counts = [0, 0]
    counts[winner_team] = 7
    counts[1 - winner_team] = loser_tricks
    sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts}
    who = i18n.seat_label(hakem, 0, 4, "hokm")
    return sc, ROUND_PROMPT.format(who=cap(who), be="are" if hakem == 0 else "is", ours=tricks_prose(counts[0]),
                                   theirs=tricks_prose(counts[1]), question="{question}")


def round_facts(scenario: ScenarioDict) -> tuple[int, list[int]]:
    """The hakem's seat and the tricks of each team of a round-score scenario."""
    return int(scenario["hakem"]), [int(n) for n in scenario["team_tricks"]]


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

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        from . import seat_name

        return [(N_("Hakem"), seat_name(ex, int(ex.scenario["hakem"])))]

    # ------------------------------------------------------------------ question quality

    features = ("other_team_hakem", "hakem_last_seat")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``other_team_hakem``: 1 if the hakem sits in the other team (not the learner's, seat
        0's), so kot and hakem-kot must be told apart from their side; ``hakem_last_seat``: 1
        if the hakem is the last seat (3)."""
        hakem, _ = round_facts(scenario)
        return {"other_team_hakem": float(hakem % 2 == 1), "hakem_last_seat": float(hakem == 3)}

    def level(self, features: Mapping[str, float]) -> int:
        """1: the hakem is in the learner's team; 2: in the other team; 3: the last seat."""
        return 1 + int(features["other_team_hakem"]) + int(features["hakem_last_seat"])

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The round's points: 1, 2 or 3."""
        return str(answer["points"])

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return ("1", "2", "3")

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at the points (``want``: a plain win, kot, hakem-kot) at every difficulty; the
        hakem is 1: you or your partner; 2: the opponent on your right... (seat 1); 3: seat 3."""
        hakem = rng.choice([0, 2]) if d == 1 else 1 if d == 2 else 3
        points = int(want) if want else rng.randint(1, 3)
        if points == 1:
            winner, loser_tricks = rng.randrange(2), rng.randint(1, 6)
        elif points == 2:
            winner, loser_tricks = hakem % 2, 0
        else:
            winner, loser_tricks = 1 - hakem % 2, 0
        sc, words = round_scenario(rng, hakem, winner, loser_tricks)
        return sc, words.format(question="How many points is the round worth?")
