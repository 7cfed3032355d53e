"""Trick winner: which seat wins this trick (highest trump, else highest card of the suit led).
Ask ``trick-winner``; every ruleset (H17, C22, T16).

Learner's value: the winning seat ``int`` (0..players-1); the page's form sends the seat of the
card the learner clicked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import CARDS
from ...engine.rulesets import get_ruleset
from ...solve.asks import TrickWinner as TrickWinnerAsk
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
    Reject,
    ScenarioDict,
    SeatKey,
    Verdict,
    as_int,
    digits,
    fields_of,
    players_of,
    seat_choices,
)


@register
class TrickWinner(SeatKey):
    name = "trick-winner"
    order = 20
    asks = ("trick-winner",)
    answer_fields = ("winner",)
    expect_fields = ("winner", "card")
    answer_help = "the seat that wins the trick; details: card"
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 3}, {"type": "string", "maxLength": 8}],
                     "description": "the seat that wins the trick", "example": 2}
    label = N_("Trick winner")
    prompt = N_("Who wins this trick? Click the winning card.")
    print_prompt = N_("Who wins this trick?")
    hint = N_("Click or tap the card that wins the trick (or use Tab and the arrow keys).")
    picks = "trick"
    editor_fields = (
        EditorField("trump", "suit", N_("Trump")),
        EditorField("trick", "cards", N_("The trick")),
        EditorField("leader", "seat", N_("Who led")),
    )

    def parse(self, raw: object, ctx: Ctx) -> int:
        return as_int(raw, "the seat", 0, ctx.players - 1)

    def details(self, given: int, expected: int, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {"card": answer["card"]} if "card" in answer else {}

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.get("seat"):
            raise AnswerError("bad-answer", N_("Choose the winning card first."))
        return digits(form.get("seat", ""))

    def public_extra(self, ex: Exercise) -> Json:
        return {"choices": list(range(players_of(ex.scenario)))}

    def view_context(self, ex: Exercise, table: Any, verdict: Verdict[int] | None) -> Json:
        return {"winning_card": verdict.answer.get("card")} if verdict is not None else {}

    def feedback_lines(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[FeedbackLine]:
        card = verdict.answer.get("card")
        value = names.seat(verdict.expected) + (" — " + i18n.card_label(card) if card else "")
        return [FeedbackLine(names.text(N_("Winner")), value, verdict.correct)]

    def mistake(self, ex: Exercise, verdict: Verdict[int], names: Names) -> list[str]:
        """"The K♦ you picked (played by <seat>) does not win the trick", then the engine's reason."""
        if verdict.correct:
            return []
        fields = fields_of(ex, TrickWinnerAsk)
        i = (verdict.given - fields.leader) % ex.model.players
        out = []
        if 0 <= i < len(fields.trick):
            out.append(names.text(N_("The %(card)s you picked (played %(by)s) does not win the trick."),
                                  card=i18n.card_label(str(fields.trick[i])), by=names.by(verdict.given)))
        return out + names.reasons(verdict.why[-1:])

    def form_fields(self, ex: Exercise, value: int) -> Json:
        return {"seat": str(value)}

    def distractor(self, ex: Exercise, right: int) -> int:
        return (right + 1) % players_of(ex.scenario)

    def lms_key(self, ex: Exercise, expected: int, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A multiple choice of the seats, each with the card it played."""
        fields, players = fields_of(ex, TrickWinnerAsk), ex.model.players
        played = {(fields.leader + i) % players: str(c) for i, c in enumerate(fields.trick)}
        return seat_choices(ex, expected, names, lambda s: names.seat(s) + (
            " — " + i18n.card_label(played[s]) if s in played else ""))

    def generate(self, ruleset: str, rng: random.Random, d: int) -> tuple[ScenarioDict, str]:
        """1: everyone follows; 2: an off-suit ace or one trump; 3: several trumps, trump led, a
        leader other than seat 0."""
        r = get_ruleset(ruleset)
        players = list(r.players)
        players_n = rng.choice(players) if d > 1 else players[0]
        trump = rng.choice(SUITS)
        led = trump if d == 3 and rng.random() < 0.3 else rng.choice([s for s in SUITS if s != trump])
        deck = list(CARDS)
        rng.shuffle(deck)
        first = next(c for c in deck if c.suit == led)
        trick = [first]
        pool = [c for c in deck if c != first]
        for _ in range(1, players_n):
            c = next(c for c in pool if c.suit == led) if d == 1 else pool[0]
            pool.remove(c)
            trick.append(c)
        n_trumps = sum(c.suit == trump for c in trick)
        off_ace = any(c.rank == 14 and c.suit not in (led, trump) for c in trick)
        if d == 2 and not ((n_trumps == 1 and led != trump) or (off_ace and n_trumps == 0)):
            raise Reject
        if d == 3 and not (n_trumps >= 2 or (led == trump and n_trumps >= 1 and len(trick) > 2)):
            raise Reject
        leader = rng.randrange(players_n) if d > 1 else 0
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "trick-winner"}
        if players_n != players[0]:
            sc["players"] = players_n
        sc.update({"trump": trump.letter, "trick": [str(c) for c in trick], "leader": leader})
        solve(sc)
        who = i18n.seat_label(leader, 0, players_n, ruleset)
        return sc, f"{cap(who)} led and {suits_prose(trump)} are trump. Who wins the trick?"
