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

from ...engine.cards import Card, Suit
from ...engine.errors import BadFieldError
from ...engine.rulesets import RULESETS, get_ruleset
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
    players_of,
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

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        from . import seat_name

        return [(N_("Dealer"), seat_name(ex, int(ex.scenario["dealer"])))]

    # ------------------------------------------------------------------ question quality

    features = ("players", "turned")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``players``: the table; ``turned``: the cards turned up (1, or more when the dealer
        runs the pack)."""
        return {"players": float(players_of(scenario)), "turned": float(len(scenario["turn_ups"]))}

    def level(self, features: Mapping[str, float]) -> int:
        """1: two players, one card turned (stand, or beg and a gift); 2: three or four players;
        3: and the pack run (two cards turned or more)."""
        return 1 + int(features["players"] > 2) + int(features["players"] > 2 and features["turned"] >= 2)

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """Who scores: the eldest's side (a gift) and the dealer's side's turn-up points (0, 1,
        2 or more): ``"nothing"``, ``"dealer 1"``, ``"dealer 2+"``, ``"eldest"``, ``"eldest,
        dealer 1"`` ..."""
        points = answer["points"]
        sides = len(points)
        dealer = scenario["dealer"] % sides
        eldest = (scenario["dealer"] + 1) % players_of(scenario) % sides
        d = points[dealer]
        parts = (["eldest"] if points[eldest] else []) + ([f"dealer {'2+' if d >= 2 else d}"] if d else [])
        return ", ".join(parts) or "nothing"

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        top = max(_scale(ruleset).values())
        dealer = ["dealer 1"] + (["dealer 2+"] if top >= 2 or difficulty == 3 else [])
        if difficulty == 3:  # a run: no gift
            return ("nothing", *dealer)
        return ("nothing", *dealer, "eldest", *(f"eldest, {x}" for x in dealer))

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at who scores (``want``): 1: two players, the eldest stands or begs and is given
        one; 2: three or four players; 3: the largest table, and the dealer runs the pack (the
        refused suit may turn again)."""
        r = get_ruleset(ruleset)
        scale = _scale(ruleset)
        more = [p for p in r.players if p > 2]
        players = 2 if d == 1 else rng.choice(more) if d == 2 else max(more)
        if d == 1 and 2 not in r.players:
            raise Reject
        want = want or rng.choice(self.answer_classes(ruleset, d))
        gift = want.startswith("eldest")
        dealer_points = 0 if "dealer" not in want else 1 if want.endswith("1") else 2
        zero = [k for k in range(2, 15) if k not in scale]
        one = [k for k, v in scale.items() if v == 1]
        more_ranks = [k for k, v in scale.items() if v >= 2]
        if d < 3:
            rank = rng.choice(zero if dealer_points == 0 else one if dealer_points == 1 else more_ranks)
            ranks = [rank]
        else:
            repeats = rng.randint(0, 1)
            ranks = [rng.choice(zero) for _ in range(repeats + 2)]
            if dealer_points == 1:
                ranks[rng.choice([0, -1])] = rng.choice(one)
            elif dealer_points == 2:
                if more_ranks:
                    ranks[-1] = rng.choice(more_ranks)
                else:
                    ranks[0], ranks[-1] = rng.choice(one), rng.choice(one)
        first_suit = rng.choice(tuple(Suit))
        other = rng.choice([s for s in Suit if s != first_suit])
        suits = [first_suit] * (len(ranks) - 1) + [other] if d == 3 else [first_suit]
        cards = [Card.of(k, s) for k, s in zip(ranks, suits, strict=True)]
        if len(set(cards)) != len(cards):
            raise Reject
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "make-trump"}
        if players != r.default_players:
            sc["players"] = players
        sc.update({"dealer": rng.randrange(players), "turn_ups": [str(c) for c in cards],
                   "decision": "beg" if gift or d == 3 else "stand"})
        if sc["decision"] == "beg":
            sc["dealer_choice"] = "run" if d == 3 else "give"
        return sc, "After the stand or beg decision, how many points does each side have?"


def _scale(ruleset: str) -> dict[int, int]:
    """The ruleset's default turn-up scale: rank -> points."""
    r = get_ruleset(ruleset)
    return dict(r.turnup_scale(r.turnup_scales()[0]))
