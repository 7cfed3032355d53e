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

from ...engine.cards import CARDS
from ...engine.rulesets import get_ruleset
from ..deals import SUITS, cap, solve, suits_prose
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

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """1: the first lead of a deal (the hakem, or after the dealer), or a trick where everyone
        followed suit; 2: a trick with cards of other suits in it, no trump; 3: a trick won by a
        trump, or a first lead that wraps round the table (the dealer in the last seat)."""
        r = get_ruleset(ruleset)
        if rng.random() < (0.5 if d == 1 else 0.0 if d == 2 else 0.3):
            players = rng.choice(list(r.players)) if d == 3 else r.default_players
            seat = players - 1 if d == 3 else rng.randrange(players)
            sc: dict[str, Any] = {"ruleset": ruleset, "ask": _FIRST}
            if players != r.default_players:
                sc["players"] = players
            sc[r.leader_field] = seat
            solve(sc)
            return sc, f"A new deal starts; who leads the first trick? (the {r.leader_field} is marked)"
        players = rng.choice(list(r.players))
        trump = rng.choice(SUITS)
        led = rng.choice([s for s in SUITS if s != trump])
        deck = list(CARDS)
        rng.shuffle(deck)
        first = next(c for c in deck if c.suit == led)
        rest = [c for c in deck if c != first]
        if d == 1:
            trick = [first, *[c for c in rest if c.suit == led][:players - 1]]
        elif d == 2:
            trick = [first, *[c for c in rest if c.suit != trump][:players - 1]]
        else:
            trumps = [c for c in rest if c.suit == trump]
            trick = [first, trumps[0], *[c for c in rest if c.suit != trump][:players - 2]]
            later = trick[1:]
            rng.shuffle(later)
            trick = [first, *later]
        leader = rng.randrange(players)
        sc = {"ruleset": ruleset, "ask": _NEXT}
        if players != r.default_players:
            sc["players"] = players
        sc.update({"trump": trump.letter, "trick": [str(c) for c in trick], "leader": leader})
        solve(sc)
        return sc, f"{cap(suits_prose(led))} were led and {suits_prose(trump)} are trump. Who leads the next trick?"
