"""Game winner: which side wins the game (the match, in Hokm) once this round, hand or turn-up
is scored, or nobody yet (H24, C28, T21; the order of scoring C29, T22). Asks ``hand-score``,
``make-trump``, ``round-score`` and ``round-playout``; every ruleset.

Learner's value: the winning side ``int``, or ``None`` (nobody wins yet).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...engine.cards import Card
from ...engine.rulesets import get_ruleset
from ..deals import SUITS, make_trump, round_counts, solve, whole_hand
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
#: Turn-ups at difficulty 1 (likely to score, so the game often ends on them).
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

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """Hokm: a round that may end the match (3: target 3, or nobody wins yet). All Fours and
        Trinidad: turn-up or gift points (1-2), or a whole hand counted in order (3)."""
        r = get_ruleset(ruleset)
        if not r.turnup_option:
            return self._match(rng, d)
        if d < 3:
            sc = make_trump(ruleset, rng, d, scores=True)
            if d == 1:
                sc["turn_ups"] = [str(Card.of(rng.choice(_SCORING_RANKS), rng.choice(SUITS)))]
            ans = solve(sc)
        else:
            sc, _ = whole_hand(ruleset, rng, 2)
            target = r.default_target
            sc["scores"] = [rng.randint(target - 3, target - 1) for _ in range(r.sides(players_of(sc)))]
            ans = solve(sc)
            if sum(after >= target for after in ans["scores_after"]) < 2:
                raise Reject
        if d == 1 and ans["winner"] is None:
            raise Reject
        return sc, "Which side wins the game, if any?"

    @staticmethod
    def _match(rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        hakem = rng.randrange(4)
        counts = round_counts(rng, hakem, d)
        target = 3 if d == 3 and rng.random() < 0.5 else 7
        low = 0 if d == 3 else max(0, target - 3)
        sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts,
              "scores": [rng.randint(low, target - 1), rng.randint(low, target - 1)]}
        if target != 7:
            sc["target"] = target
        ans = solve(sc)
        if d == 1 and ans["match_winner"] is None:
            raise Reject
        return sc, f"The match is played to {target}. Which team wins the match, if any?"
