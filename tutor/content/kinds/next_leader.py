"""Next leader: who leads the next trick — the winner of the trick just played — or the first
trick of a deal — the hakem (H6), or the next player after the dealer in the order of play
(C19, T13). Asks ``next-lead`` (a whole trick on the table: its winner leads, H17, C22,
T13), ``trick-winner`` (the same, as authored before ``next-lead`` existed) and ``first-lead``;
every ruleset.

Learner's value: the leading seat ``int`` (0..players-1); the form sends one radio ``seat``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import Card, Suit
from ...engine.rulesets import get_ruleset
from ..deals import SUITS, cap, solve, steered_trick, suits_prose
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
from .trick_winner import trick_features

#: The ask of a deal's first lead; the others (``next-lead``, ``trick-winner``) a trick just played.
_FIRST = "first-lead"
_NEXT = "next-lead"


@register
class NextLeader(SeatKey):
    name = "next-leader"
    order = 25
    asks = (_FIRST, _NEXT, "trick-winner")
    answer_fields = ("leader", "winner")
    expect_fields = ("leader", "winner")
    answer_help = "the seat that leads the next trick (or the first trick of the deal)"
    answer_schema: ClassVar[Json] = {
        "oneOf": [{"type": "integer", "minimum": 0, "maximum": 3}, {"type": "string", "maxLength": 8}],
        "description": "the seat that leads next", "example": 1}
    label = N_("Next leader")
    prompt = N_("Who leads the next trick?")
    editor_fields = (
        EditorField("hakem", "seat", N_("Hakem"), required=False),
        EditorField("dealer", "seat", N_("Dealer"), required=False),
        EditorField("trump", "suit", N_("Trump"), required=False),
        EditorField("trick", "cards", N_("The trick"), required=False),
        EditorField("leader", "seat", N_("Who led"), required=False),
    )

    def parse(self, raw: object, ctx: Ctx) -> int:
        return as_int(raw, "the seat", 0, ctx.players - 1)

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> int:
        seat: int = answer["leader"] if ctx.exercise.ask in (_FIRST, _NEXT) else answer["winner"]
        return seat

    def details(self, given: int, expected: int, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {"card": answer["card"]} if "card" in answer else {}

    def required_expect(self, ex: Exercise, answer: EngineAnswer) -> list[str]:
        return [f for f in self.answer_fields if f in answer][:1]

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.get("seat"):
            raise AnswerError("bad-answer", N_("Choose a seat first."))
        return digits(form.get("seat", ""))

    def form_fields(self, ex: Exercise, value: int) -> Json:
        return {"seat": str(value)}

    def distractor(self, ex: Exercise, right: int) -> int:
        return (right + 1) % players_of(ex.scenario)

    def public_extra(self, ex: Exercise) -> Json:
        return {"choices": list(range(players_of(ex.scenario)))}

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[FeedbackLine]:
        return [FeedbackLine(names.text(N_("Leads next")), names.seat(verdict.expected), verdict.correct)]

    def lms_key(self, ex: Exercise, expected: int, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A multiple choice of the seats."""
        return seat_choices(ex, expected, names)

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        from . import seat_name

        if ex.ask == _FIRST:
            return [(f.label, seat_name(ex, int(ex.scenario[f.name]))) for f in self.editor_fields
                    if f.name in ("hakem", "dealer") and isinstance(ex.scenario.get(f.name), int)]
        return [(N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True))]

    # ------------------------------------------------------------------ question quality

    features = ("off_suit", "trump_wins")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``off_suit``: 1 if a card of the trick is not of the suit led; ``trump_wins``: 1 if a
        trump played to a plain suit wins it (both 0 for a deal's first lead)."""
        if scenario.get("ask") == _FIRST:
            return {"off_suit": 0.0, "trump_wins": 0.0}
        f = trick_features(scenario)
        led = Card.parse(scenario["trick"][0]).suit
        trump = Suit.parse(scenario["trump"])
        return {"off_suit": float(f["not_following"] > 0),
                "trump_wins": float(led != trump and Card.parse(answer["card"]).suit == trump)}

    def level(self, features: Mapping[str, float]) -> int:
        """1: a deal's first lead, or a trick everyone followed; 2: a card off the suit led, no
        trump; 3: a trump wins a plain suit."""
        return 1 + int(features["off_suit"]) + int(features["trump_wins"])

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The seat that leads next."""
        return str(answer["leader"] if scenario.get("ask") in (_FIRST, _NEXT) else answer["winner"])

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return tuple(str(s) for s in range(max(get_ruleset(ruleset).players)))

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at the seat that leads next (``want``): 1: the first lead of a deal (the hakem,
        or after the dealer), or a trick where everyone followed suit; 2: a trick with cards of
        other suits in it, no trump; 3: a trick won by a trump."""
        r = get_ruleset(ruleset)
        seat = int(want) if want is not None else None
        players = rng.choice([p for p in r.players if seat is None or p > seat])
        seat = rng.randrange(players) if seat is None else seat
        if d == 1 and rng.random() < 0.5:
            sc: dict[str, Any] = {"ruleset": ruleset, "ask": _FIRST}
            if players != r.default_players:
                sc["players"] = players
            sc[r.leader_field] = rng.randrange(players)
            first = solve(sc)["leader"]  # the engine says who leads; turn the table so that it is ``seat``
            sc[r.leader_field] = (sc[r.leader_field] + seat - first) % players
            return sc, f"A new deal starts; who leads the first trick? (the {r.leader_field} is marked)"
        trump = rng.choice(SUITS)
        shape = {1: "follow", 2: "discard", 3: "one-trump" if players < 3 or rng.random() < 0.5 else "trumps"}[d]
        win_at = rng.randrange(players) if d < 3 else rng.randint(1, players - 1)
        leader = (seat - win_at) % players
        trick = steered_trick(rng, players, trump, shape, win_at)
        sc = {"ruleset": ruleset, "ask": _NEXT}
        if players != r.default_players:
            sc["players"] = players
        sc.update({"trump": trump.letter, "trick": [str(c) for c in trick], "leader": leader})
        led = trick[0].suit
        return sc, f"{cap(suits_prose(led))} were led and {suits_prose(trump)} are trump. Who leads the next trick?"
