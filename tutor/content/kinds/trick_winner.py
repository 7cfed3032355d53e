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
from ...engine.cards import Card, Suit
from ...engine.rulesets import get_ruleset
from ...solve.asks import TrickWinner as TrickWinnerAsk
from ..deals import SUITS, cap, steered_trick, suits_prose
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

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        from . import seat_name

        return [(N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True)),
                (N_("Who led"), seat_name(ex, int(ex.scenario.get("leader", 0))))]

    # ------------------------------------------------------------------ question quality

    features = ("not_following", "trumps")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``not_following``: cards of the trick not of the suit led; ``trumps``: trumps in it."""
        return trick_features(scenario)

    def level(self, features: Mapping[str, float]) -> int:
        """1: everyone follows, no trump; 2: a card that does not follow (an off-suit card, or
        one trump); 3: two trumps or more (trump led and trumped, or two ruffs)."""
        return 1 + int(features["not_following"] > 0 or features["trumps"] > 0) + int(features["trumps"] >= 2)

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """The winning seat."""
        return str(answer["winner"])

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return tuple(str(s) for s in range(max(get_ruleset(ruleset).players)))

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at a winning seat (``want``): 1: everyone follows (the first seat leads); 2: an
        off-suit card or one trump; 3: trump led and trumped again, or two trumps or more on a
        plain suit; at 2 and 3 any seat leads."""
        r = get_ruleset(ruleset)
        seat = int(want) if want is not None else None
        allowed = [p for p in r.players if seat is None or p > seat]
        players_n = rng.choice(allowed)
        trump = rng.choice(SUITS)
        leader = 0 if d == 1 else rng.randrange(players_n)
        win_at = (seat - leader) % players_n if seat is not None else rng.randrange(players_n)
        shapes = {1: ["follow"], 2: ["discard", "one-trump"], 3: ["trump-led", "trumps", "trumps"]}[d]
        shapes = [s for s in shapes if not (win_at == 0 and s in ("one-trump", "trumps"))
                  and not (s == "trumps" and players_n < 3)]
        trick = steered_trick(rng, players_n, trump, rng.choice(shapes), win_at)
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "trick-winner"}
        if players_n != r.default_players:
            sc["players"] = players_n
        sc.update({"trump": trump.letter, "trick": [str(c) for c in trick], "leader": leader})
        who = i18n.seat_label(leader, 0, players_n, ruleset)
        return sc, f"{cap(who)} led and {suits_prose(trump)} are trump. Who wins the trick?"


def trick_features(scenario: ScenarioDict) -> dict[str, float]:
    """``not_following`` (cards of the trick not of the suit led) and ``trumps`` (trumps in it)
    of a complete trick (the trick-winner ask)."""
    trick = [Card.parse(c) for c in scenario.get("trick") or []]
    trump = Suit.parse(scenario["trump"])
    led = trick[0].suit if trick else None
    return {"not_following": float(sum(c.suit != led for c in trick)),
            "trumps": float(sum(c.suit == trump for c in trick))}
