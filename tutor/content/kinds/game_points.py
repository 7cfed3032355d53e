"""Game points: count the Game points of the cards each side took in its tricks — ten 10, ace 4,
king 3, queen 2, jack 1, lower cards 0 — and say which side scores Game, or nobody when a tie
gives it to nobody (C26-C27, K4; T20). Ask ``hand-score``; the rulesets that score by High, Low,
Jack and Game.

Learner's value: ``{"points": [int per side], "game": side int or None}``; a form sends one field
per side (``points-0`` ...) and a radio ``game`` (a side or ``none``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar, TypedDict

from ... import i18n
from ...engine.errors import BadFieldError, show
from ..deals import aimed_hand
from ..exercise import Exercise
from . import register
from .awards import CATEGORY_REASONS, awards_of, sides_named, table_sides
from .base import (
    N_,
    AnswerError,
    Ctx,
    EditorField,
    EngineAnswer,
    ExerciseKind,
    FeedbackLine,
    Json,
    Names,
    ScenarioDict,
    Verdict,
    as_int,
    as_list,
    as_mapping,
    as_side,
    digits,
    n_sides,
    near_misses,
    players_of,
    rulesets_with_categories,
    side_from_key,
    side_key,
)

#: The most Game points one side can hold: the whole pack counts 80 (C26).
MAX_POINTS = 80


class GamePointsValue(TypedDict):
    """A Game points answer: ``points`` (the Game points of each side, in side order) and
    ``game`` (the side that scores Game, ``None`` for nobody)."""

    points: list[int]
    game: int | None


@register
class GamePoints(ExerciseKind[GamePointsValue]):
    name = "game-points"
    order = 75
    asks = ("hand-score",)
    rulesets = rulesets_with_categories()
    answer_fields = ("game_points", "awards")
    expect_fields = ("game_points", "awards")
    answer_help = ("points: the Game points each side took (one number per side); game: the side that scores "
                   "Game, or none; details: sides, game_correct")
    answer_schema: ClassVar[Json] = {
        "type": "object", "additionalProperties": False, "required": ["points", "game"],
        "properties": {"points": {"oneOf": [{"type": "array", "items": {"type": ["integer", "string"]},
                                             "maxItems": 4}, {"type": "string", "maxLength": 40}]},
                       "game": {"type": ["integer", "string", "null"]}},
        "description": "the Game points of each side, and the side that scores Game (null: nobody)",
        "example": {"points": [17, 9], "game": 0}}
    label = N_("Game points")
    decides = CATEGORY_REASONS["game"]
    prompt = N_("Count the Game points each side took. Who scores Game?")
    hint = N_("Count the cards each side won in its tricks: ten 10, ace 4, king 3, queen 2, jack 1.")
    editor_fields = (
        EditorField("dealer", "seat", N_("Dealer")),
        EditorField("trump", "suit", N_("Trump")),
        EditorField("tricks", "tricks", N_("The tricks")),
    )

    def parse(self, raw: object, ctx: Ctx) -> GamePointsValue:
        m = as_mapping(raw, "the Game points answer")
        extra = [k for k in m if k not in ("points", "game")]
        if extra:
            raise BadFieldError(f"the Game points answer has no field {show(extra[0])}.")
        if "points" not in m or "game" not in m:
            raise BadFieldError("give points (per side) and game (a side, or none).")
        items = as_list(m["points"], "the Game points per side")
        if len(items) != ctx.sides:
            raise BadFieldError(f"give the Game points of each of the {ctx.sides} sides, not {len(items)} numbers.")
        points = [as_int(x, f"the Game points of side {i}", 0, MAX_POINTS) for i, x in enumerate(items)]
        return {"points": points, "game": as_side(m["game"], "the side that scores Game", ctx)}

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> GamePointsValue:
        return {"points": list(answer["game_points"]), "game": awards_of(answer)["game"]}

    def from_key(self, raw: object, ctx: Ctx) -> object:
        """The side that scores Game counted from 1 (the points stay in side order)."""
        if isinstance(raw, Mapping) and "game" in raw:
            return {**raw, "game": side_from_key(raw["game"], ctx)}
        return raw

    def key_text(self, value: GamePointsValue, ctx: Ctx) -> str:
        return json.dumps({"points": value["points"], "game": side_key(value["game"])})

    def details(self, given: GamePointsValue, expected: GamePointsValue, answer: EngineAnswer, ctx: Ctx) -> Json:
        sides = [{"side": i, "given": g, "expected": e, "correct": g == e}
                 for i, (g, e) in enumerate(zip(given["points"], expected["points"], strict=True))]
        return {"sides": sides, "game_correct": given["game"] == expected["game"]}

    def required_expect(self, ex: Exercise, answer: EngineAnswer) -> list[str]:
        return ["game_points", "awards"]

    def read_form(self, ex: Exercise, form: Any) -> object:
        values = [digits(form.get(f"points-{s}", "")) for s in range(n_sides(ex.scenario))]
        if not all(values):
            raise AnswerError("bad-answer", N_("Give the Game points of every side."))
        if "game" not in form:
            raise AnswerError("bad-answer", N_("Choose the side that scores Game, or nobody."))
        return {"points": values, "game": form.get("game")}

    def shows_trick_seats(self, answered: bool) -> bool:
        return True

    def feedback_lines(self, ex: Exercise, verdict: Verdict[GamePointsValue], names: Names) -> list[FeedbackLine]:
        exp, got = verdict.expected, verdict.given
        given_points = got.get("points", [])
        lines = [FeedbackLine(names.text(N_("Game points (%(side)s)"), side=names.side(s)), names.num(pts),
                              (given_points[s] if s < len(given_points) else None) == pts)
                 for s, pts in enumerate(exp["points"])]
        lines.append(FeedbackLine(names.text(N_("Game")), names.side(exp["game"]), got.get("game") == exp["game"]))
        return lines

    def form_fields(self, ex: Exercise, value: GamePointsValue) -> Json:
        out = {f"points-{i}": str(v) for i, v in enumerate(value["points"])}
        out["game"] = "none" if value["game"] is None else str(value["game"])
        return out

    def wrong_values(self, ex: Exercise, right: GamePointsValue) -> list[GamePointsValue]:
        """The Game points of the engine's outcomes of the play misread (another trump, another
        first leader: :func:`~.base.near_misses`), each differing from the right answer in at
        least two places (the points of two sides, or a side's points and who scores Game), the
        closest first; then :meth:`distractor`'s."""
        def places(value: GamePointsValue, exp: GamePointsValue) -> int:
            return (sum(a != b for a, b in zip(value["points"], exp["points"], strict=False))
                    + (value["game"] != exp["game"]))
        return [*near_misses(ex, self, right, places), *self._misplaced_tricks(ex, right), self.distractor(ex, right)]

    def _misplaced_tricks(self, ex: Exercise, right: GamePointsValue) -> list[GamePointsValue]:
        """The count with one trick credited to the next side (the tricks worth most first): two
        sides' points differ, and Game goes to the side with the most then (nobody on a tie)."""
        from ...engine.allfours_state import GAME_VALUE
        from ...engine.cards import Card
        from .walk_through import real_winners

        try:
            winners = real_winners(ex)
            tricks = [[Card.parse(c) for c in t] for t in ex.scenario.get("tricks") or []]
        except (ValueError, TypeError, KeyError):
            return []
        sides = len(right["points"])
        worth = sorted(((sum(GAME_VALUE.get(c.rank, 0) for c in t), i) for i, t in enumerate(tricks)), reverse=True)
        out: list[GamePointsValue] = []
        for value, i in worth:
            if value == 0 or i >= len(winners):
                continue
            points = list(right["points"])
            side = winners[i] % sides
            points[side] -= value
            points[(side + 1) % sides] += value
            best = max(points)
            game = points.index(best) if points.count(best) == 1 else None
            out.append(GamePointsValue(points=points, game=game))
        return out

    def distractor(self, ex: Exercise, right: GamePointsValue) -> GamePointsValue:
        """Two Game points counted for the next side instead of the side with the most (two
        numbers differ; a total of 0 or 1 counts one more instead)."""
        points = list(right["points"])
        top = max(range(len(points)), key=lambda s: points[s])
        if points[top] < 2:
            return GamePointsValue(points=[points[0] + 1, *points[1:]], game=right["game"])
        points[top] -= 2
        points[(top + 1) % len(points)] += 2
        return GamePointsValue(points=points, game=right["game"])

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        return [(N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True))]

    # ------------------------------------------------------------------ question quality

    features = ("players", "close")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``players``: the table; ``close``: 1 if the two best totals are within two Game
        points of each other (or tied)."""
        top = sorted(answer["game_points"], reverse=True)
        return {"players": float(players_of(scenario)), "close": float(top[0] - top[1] <= 2)}

    def level(self, features: Mapping[str, float]) -> int:
        """1 + (more than two players) + close, at most 3."""
        return min(3, 1 + int(features["players"] > 2) + int(features["close"]))

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The side that scores Game and its lead in Game points: ``"game 0 by 0-1"`` (0: a tie
        the rules give to one side), ``"by 2"``, ``"by 3-9"``, ``"by 10+"``; ``"game none"`` on
        a tie that gives it to nobody."""
        game = awards_of(answer)["game"]
        if game is None:
            return "game none"
        points = list(answer["game_points"])
        lead = points[game] - max(p for s, p in enumerate(points) if s != game)
        return f"game {game} by {'0-1' if lead <= 1 else '2' if lead == 2 else '3-9' if lead <= 9 else '10+'}"

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        bands = ("0-1", "2") if difficulty == 3 else ("3-9", "10+")
        return tuple(f"game {g} by {band}" for g in range(table_sides(ruleset, difficulty)) for band in bands)

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """A whole hand played out, aimed at the side that scores Game and by how much
        (``want``): 1: two players; 2: more players; 3: the largest table, the two best totals
        within two points of each other, or tied."""
        sc, _ = aimed_hand(ruleset, rng, d, want, self.answer_class, sides_named(want), hand_d=min(d, 2),
                           keep=lambda s, a: self.level(self.measure(s, a)) == d)
        return sc, "Count the Game points each side took (ten 10, ace 4, king 3, queen 2, jack 1). Who scores Game?"
