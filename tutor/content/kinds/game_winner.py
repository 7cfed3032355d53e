"""Game winner: which side wins the game (the match, in Hokm) once this round, hand or turn-up
is scored, or nobody yet (H24, C28, T21; the order of scoring C29, T22). Asks ``hand-score``,
``make-trump``, ``round-score`` and ``round-playout``; every ruleset.

Learner's value: the winning side ``int``, or ``None`` (nobody wins yet).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import Card
from ...engine.rulesets import get_ruleset
from ..deals import SUITS, make_trump, solve, whole_hand
from ..exercise import Exercise
from . import register
from .base import (
    N_,
    AnswerError,
    Ctx,
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
    as_side,
    n_sides,
    players_of,
    side_from_key,
    side_key,
)

#: Asks whose answer names the winner of a Hokm match (``match_winner``), not of a game.
_MATCH_ASKS = ("round-score", "round-playout")
#: Turn-ups at difficulties 1 and 2 (likely to score, so the game may end on them).
_SCORING_RANKS = (11, 14, 6, 11)


@register
class GameWinner(ExerciseKind[int | None]):
    name = "game-winner"
    order = 80
    asks = ("hand-score", "make-trump", "round-score", "round-playout")
    answer_fields = ("winner", "match_winner")
    expect_fields = ("winner", "match_winner")
    answer_help = "the side that wins the game, or none; details: scores_after"
    answer_schema: ClassVar[Json] = {"type": ["integer", "string", "null"], "description": "the side that wins, or null for nobody",
                     "example": 1}
    label = N_("Game winner")
    decides = frozenset({"target-reached", "match-won", "match-continues"})
    prompt = N_("Which side wins the game, if any?")

    def parse(self, raw: object, ctx: Ctx) -> int | None:
        return as_side(raw, "the winning side", ctx)

    def from_key(self, raw: object, ctx: Ctx) -> object:
        return side_from_key(raw, ctx)

    def key_text(self, value: int | None, ctx: Ctx) -> str:
        return "none" if value is None else str(side_key(value))

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> int | None:
        side: int | None = answer["match_winner"] if ctx.exercise.ask in _MATCH_ASKS else answer["winner"]
        return side

    def details(self, given: int | None, expected: int | None, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {"scores_after": answer.get("scores_after")}

    def required_expect(self, ex: Exercise, answer: EngineAnswer) -> list[str]:
        return [f for f in self.answer_fields if f in answer][:1]

    def read_form(self, ex: Exercise, form: Any) -> object:
        if "winner" not in form:
            raise AnswerError("bad-answer", N_("Choose a side, or nobody."))
        return form.get("winner")

    def shows_trick_seats(self, answered: bool) -> bool:
        return True

    def shows_target(self) -> bool:
        return True

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int | None], names: Names) -> list[FeedbackLine]:
        # the same words as the answer option ("nobody yet"): nobody has won the game so far
        exp = verdict.expected
        value = names.side(exp) if exp is not None else names.text(N_("nobody yet"))
        return [FeedbackLine(names.text(N_("Winner")), value, verdict.correct)]

    def form_fields(self, ex: Exercise, value: int | None) -> Json:
        return {"winner": "none" if value is None else str(value)}

    def distractor(self, ex: Exercise, right: int | None) -> int | None:
        return None if right is not None else 0

    def lms_key(self, ex: Exercise, expected: int | None, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A multiple choice of the sides and "nobody yet"."""
        options: list[int | None] = [*range(n_sides(ex.scenario)), None]
        return LmsKey("multichoice", tuple(
            LmsChoice(names.side(s) if s is not None else names.text(N_("nobody yet")), 100 if s == expected else 0)
            for s in options))

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        target = ex.scenario.get("target") or get_ruleset(ex.ruleset or "").default_target
        label = N_("Points to win the match") if ex.ask in _MATCH_ASKS else N_("Points to win the game")
        return [(label, i18n.fmt_number(int(target)))]

    # ------------------------------------------------------------------ question quality

    features = ("steps", "points")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``steps``: the scorings to check, in order, before the winner is known: a Hokm round
        1 (a plain win), 2 (kot: the losers took no trick) or 3 (hakem-kot: and they were the
        hakem's team); a stand 1 (the turn-up), a beg 2 (turn-up and gift), a whole hand 4
        (High, Low, Jack, Game); ``points``: the points at stake, scored in this deal."""
        ask = scenario.get("ask")
        if ask in _MATCH_ASKS:
            return {"steps": float(answer["points"]), "points": float(answer["points"])}
        steps = 4 if ask == "hand-score" else 2 if scenario.get("decision") == "beg" else 1
        return {"steps": float(steps), "points": float(sum(answer.get("points") or []))}

    def level(self, features: Mapping[str, float]) -> int:
        """The steps, at most 3."""
        return max(1, min(3, int(features["steps"])))

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The winning side, or ``"none"``."""
        side = answer["match_winner"] if scenario.get("ask") in _MATCH_ASKS else answer["winner"]
        return "none" if side is None else str(side)

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        r = get_ruleset(ruleset)
        return (*(str(s) for s in range(max(r.sides(p) for p in r.players))), "none")

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at the winning side or nobody (``want``): the scores before the deal are set so
        that this side reaches the target (or nobody does). Hokm: a round that may end the match,
        1: won plainly; 2: by kot; 3: by hakem-kot. All Fours and Trinidad: 1: the eldest stands
        (a scoring turn-up); 2: begs and is given one; 3: a whole hand counted in order, where
        other sides may reach the target too (the order of scoring decides)."""
        r = get_ruleset(ruleset)
        side = None if want in (None, "none") else int(want)
        if not r.turnup_option:
            return self._match(rng, d, side)
        players = next((p for p in r.players if r.sides(p) > side), None) if side is not None and side >= 2 else None
        if d < 3:
            sc = make_trump(ruleset, rng, d, scores=False, players=players)
            sc["turn_ups"] = [str(Card.of(rng.choice(_SCORING_RANKS), rng.choice(SUITS)))]
        else:
            sc, _ = whole_hand(ruleset, rng, 2, players=players)
        n = players_of(sc)
        sides = r.sides(n)
        if d == 1 and side is not None:  # on a stand only the dealer's side scores: deal from that side
            sc["dealer"] = rng.choice([s for s in range(n) if s % sides == side])
        points = solve(sc)["points"]
        target = r.default_target
        if side is not None and points[side] == 0:
            raise Reject
        scores = []
        for s, p in enumerate(points):
            reach = s == side or (d == 3 and side is not None and p > 0 and rng.random() < 0.5)
            scores.append(rng.randint(max(0, target - p), target - 1) if reach
                          else rng.randint(max(0, target - 4 - p), max(0, target - 1 - p)))
        sc["scores"] = scores
        return sc, "Which side wins the game, if any?"

    @staticmethod
    def _match(rng: random.Random, d: int, side: int | None) -> tuple[ScenarioDict, str]:
        team = rng.randrange(2) if side is None else side  # the team that wins the round
        hakem_team = team if d <= 2 else 1 - team
        hakem = hakem_team + 2 * rng.randrange(2)
        counts = [0, 0]
        counts[team] = 7
        counts[1 - team] = rng.randint(1, 6) if d == 1 else 0
        if d == 1 and rng.random() < 0.5:  # a plain win by the other team than the hakem's
            hakem = 1 - hakem_team + 2 * rng.randrange(2)
        target, points = 7, d
        scores = [rng.randint(target - 4, target - 1), rng.randint(target - 4, target - 1)]
        scores[team] = (rng.randint(target - points, target - 1) if side is not None
                        else rng.randint(max(0, target - points - 3), target - points - 1))
        sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts, "scores": scores}
        return sc, f"The match is played to {target}. Which team wins the match, if any?"
