"""Legal cards: which cards of the hand may be played to this trick (follow suit, ruff, trump
options). Ask ``legal-plays``; every ruleset (H14-H16, C20-C21, T14-T15).

Learner's value: the chosen cards as canonical card strings, a subset of the hand in hand order (a
form sends one checkbox per card; JSON a list, or one string separated by commas or spaces).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ... import i18n
from ...engine.cards import CARDS, Card, Suit, mask_of, read_typed_card
from ...engine.errors import BadFieldError, NotationError, TutorError
from ...engine.rulesets import get_ruleset
from ...solve.asks import LegalPlays
from ..deals import SUITS, cap, pick, suit_cards, suits_prose
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
    ReasonJson,
    Reject,
    ScenarioDict,
    Verdict,
    as_list,
    fields_of,
    players_of,
)


def _card_why(ex: Exercise, card: str, why: Sequence[ReasonJson]) -> list[ReasonJson]:
    """Why ``card`` may or may not be played: the engine's per-card reason where the ruleset has
    one (Hokm: H14/H15), else the rule the engine applied to the hand (``why``, the answer's)."""
    s = ex.scenario
    card_reason = get_ruleset(ex.ruleset or "").card_reason
    if card_reason is not None:
        try:
            hand = mask_of(Card.parse(c) for c in s.get("hand", []))
            trick = [Card.parse(c) for c in s.get("trick") or []]
            trump = Suit.parse(s["trump"]) if s.get("trump") is not None else None
            return [card_reason(Card.parse(card), hand, trick, trump).to_json()]
        except TutorError:
            pass
    return list(why)


@register
class LegalCards(ExerciseKind[list[str]]):
    name = "legal-cards"
    order = 10
    asks = ("legal-plays",)
    answer_fields = ("legal",)
    expect_fields = ("legal",)
    answer_help = ("the cards of the hand that may be played (a list of cards); details: illegal (each card with "
                   "the engine's reasons), missed, right")
    answer_schema: ClassVar[Json] = {"oneOf": [{"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 52},
                               {"type": "string", "maxLength": 400}],
                     "description": "the cards of the hand that may be played", "example": ["AS", "10H"]}
    label = N_("Legal cards")
    prompt = N_("Which cards may you play? Select every legal card.")
    hint = N_("Select every card of your hand that you may play, then check.")
    picks = "hand"
    editor_fields = (
        EditorField("trump", "suit", N_("Trump")),
        EditorField("hand", "cards", N_("Your hand")),
        EditorField("trick", "cards", N_("Cards already in the trick"), required=False),
    )

    # ------------------------------------------------------------------ answer

    def typed(self, raw: object) -> object:
        """Typed cards read leniently (:func:`~tutor.engine.cards.read_typed_card`: Persian and
        Arabic digits, the suit symbol first, invisible characters; the Persian comma separates
        cards); anything it cannot read is left for the checks to name."""
        if isinstance(raw, str):
            raw = [v for v in re.split(r"[\s,;،؛]+", raw.strip()) if v]
        if not isinstance(raw, list):
            return raw
        out: list[object] = []
        for v in raw:
            try:
                out.append(str(read_typed_card(v)))
            except TutorError:
                out.append(v)
        return out

    def precheck(self, ex: Exercise, raw: object) -> None:
        """Unknown or foreign cards are ``bad-card`` (the kind's parse calls every problem bad-field)."""
        values = raw
        if isinstance(values, str):
            try:
                values = as_list(values, "the chosen cards")
            except BadFieldError:
                return
        if not isinstance(values, list):
            return
        hand = {str(Card.parse(c)) for c in ex.scenario.get("hand", [])}
        for v in values:
            try:
                card = str(Card.parse(v))
            except TutorError:
                raise AnswerError("bad-card", N_("%(card)s is not a card."), card=str(v)[:20]) from None
            if card not in hand:
                raise AnswerError("bad-card", N_("%(card)s is not in your hand."), card=card)

    def parse(self, raw: object, ctx: Ctx) -> list[str]:
        hand = list(fields_of(ctx.exercise, LegalPlays).hand)
        chosen: list[Card] = []
        for item in as_list(raw, "the chosen cards"):
            try:
                c = Card.parse(item)
            except NotationError as e:
                raise BadFieldError(f"the chosen cards: {e.message}") from None
            if c not in hand:
                raise BadFieldError(f"{c} is not in the hand.")
            if c in chosen:
                raise BadFieldError(f"{c} is chosen twice.")
            chosen.append(c)
        return [str(c) for c in hand if c in chosen]

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> list[str]:
        return list(answer["legal"])

    def details(self, given: list[str], expected: list[str], answer: EngineAnswer, ctx: Ctx) -> Json:
        illegal = [{"card": c, "why": _card_why(ctx.exercise, c, answer.get("why", []))} for c in given if c not in expected]
        return {"illegal": illegal, "missed": [c for c in expected if c not in given],
                "right": [c for c in given if c in expected]}

    def read_form(self, ex: Exercise, form: Any) -> object:
        if not form.getlist("card"):  # a hand always has a card it may play
            raise AnswerError("bad-answer", N_("Select the cards you may play first."))
        return form.getlist("card")

    # ------------------------------------------------------------------ views

    def default_you(self, scenario: ScenarioDict) -> int:
        """The seat to play: ``(leader + len(trick)) % players``, leader 0 if not given."""
        trick = scenario.get("trick") or []
        leader = scenario.get("leader", 0)
        leader = leader if isinstance(leader, int) and not isinstance(leader, bool) else 0
        return (leader + (len(trick) if isinstance(trick, list) else 0)) % players_of(scenario)

    def public_extra(self, ex: Exercise) -> Json:
        return {"choices": list(ex.scenario.get("hand") or [])}

    def view_context(self, ex: Exercise, table: Any, verdict: Verdict[list[str]] | None) -> Json:
        if verdict is None:
            return {}
        return {"legal_set": set(verdict.expected), "card_notes": self._card_notes(ex, verdict)}

    def mistake(self, ex: Exercise, verdict: Verdict[list[str]], names: Names) -> list[str]:
        """Each card chosen that may not be played, with its reason, then each playable card left out."""
        if verdict.correct:
            return []
        notes = self._card_notes(ex, verdict)
        bad = [" ".join([n["note"], *n["reasons"]]) for n in notes if n["note"] and n["chosen"]]
        return bad + [" ".join([n["note"], *n["reasons"]]) for n in notes if n["note"] and not n["chosen"]]

    def _card_notes(self, ex: Exercise, verdict: Verdict[list[str]]) -> list[dict[str, Any]]:
        """Each hand card: whether it is legal, whether the learner chose it, and a note."""
        from . import learner_seat

        legal = set(verdict.expected)
        chosen = set(verdict.given)
        illegal_why = {d["card"]: d.get("why", []) for d in verdict.details.get("illegal", [])}
        ctx: i18n.ReasonContext = {"you": learner_seat(ex), "players": players_of(ex.scenario),
                                   "ruleset": ex.ruleset}
        notes: list[dict[str, Any]] = []
        for c in ex.scenario.get("hand", []):
            code = str(Card.parse(c))
            label = i18n.card_label(code)
            reasons: list[i18n.ReasonText] = []
            text: str | None = None
            if code in legal and code not in chosen:
                text = i18n.gettext(N_("You may play the %(card)s too."), card=label)
                reasons = i18n.render_reasons(_card_why(ex, code, verdict.why), **ctx)
            elif code not in legal and code in chosen:
                text = i18n.gettext(N_("You may not play the %(card)s."), card=label)
                reasons = i18n.render_reasons(illegal_why.get(code, []), **ctx)
            notes.append({"card": code, "legal": code in legal, "chosen": code in chosen, "note": text,
                          "reasons": reasons})
        return notes

    def feedback_lines(self, ex: Exercise, verdict: Verdict[list[str]], names: Names) -> list[FeedbackLine]:
        exp = verdict.expected
        return [FeedbackLine(names.text(N_("Cards you may play")), i18n.cards_label(exp) if exp else "—",
                             verdict.correct)]

    def localise_details(self, details: Json, render: Callable[[ReasonJson], str]) -> Json:
        for item in details.get("illegal", []):
            item["why"] = [dict(r) | {"text": render(r)} for r in item.get("why", [])]
        return details

    # ------------------------------------------------------------------ generator

    def form_fields(self, ex: Exercise, value: list[str]) -> Json:
        return {"card": list(value)}

    def distractor(self, ex: Exercise, right: list[str]) -> list[str]:
        hand = [str(Card.parse(c)) for c in ex.scenario["hand"]]
        wrong = [c for c in hand if c not in right]
        chosen = set(wrong[:1] + list(right)) if wrong else set(list(right)[:-1])
        return [c for c in hand if c in chosen]  # in the hand's order, as an answer is read (parse)

    def lms_key(self, ex: Exercise, expected: list[str], answer: Mapping[str, Any], names: Names) -> LmsKey:
        """Several right answers: every card of the hand, the legal ones sharing the marks, the
        others taking them away (Moodle's multiple-answer multichoice)."""
        hand = [str(Card.parse(c)) for c in ex.scenario.get("hand", [])]
        legal = set(expected)
        wrong = len(hand) - len(legal)
        return LmsKey("multiresponse", tuple(
            LmsChoice(i18n.card_label(c), round(100 / len(legal), 5) if c in legal else round(-100 / wrong, 5))
            for c in hand))

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        trick = ex.scenario.get("trick") or []
        led = [(N_("Suit led"), i18n.suit_name(Card.parse(trick[0]).suit, plural=True))] if trick else []
        return [*led, (N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True))]

    # ------------------------------------------------------------------ question quality

    features = ("hand", "trump_in_play", "special")
    condition_target = 0.9
    condition_text = "2+ legal and 1+ illegal"

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``hand``: cards in the hand; ``trump_in_play``: 1 if a trump is in the hand or the
        trick; ``special``: 1 if trump was led, the hand is void in the suit led, or an option
        changes the rule (``must_trump``, ``no_undertrump``)."""
        hand = [Card.parse(c) for c in scenario["hand"]]
        trick = [Card.parse(c) for c in scenario.get("trick") or []]
        trump = Suit.parse(scenario["trump"])
        led = trick[0].suit if trick else None
        special = led == trump or (led is not None and all(c.suit != led for c in hand)) or bool(scenario.get("options"))
        return {"hand": float(len(hand)), "trump_in_play": float(any(c.suit == trump for c in [*hand, *trick])),
                "special": float(special)}

    def level(self, features: Mapping[str, float]) -> int:
        """1: no trump in play, a plain suit followed; 2: a trump in the hand or the trick; 3: and
        trump led, a void, or a rule option."""
        return min(3, 1 + int(features["trump_in_play"]) + int(features["special"]))

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """How many cards are legal: ``"1"``, ``"2"``, ``"3"``, ``"4+"``, or ``"all"``."""
        n = len(answer["legal"])
        return "all" if n == len(scenario["hand"]) else "4+" if n >= 4 else str(n)

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return ("2", "3", "4+")

    def condition(self, scenario: ScenarioDict, answer: EngineAnswer) -> bool:
        """At least two legal cards and at least one illegal one."""
        return 2 <= len(answer["legal"]) < len(scenario["hand"])

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Aimed at a number of legal cards (``want``: 2, 3, 4+), always with an illegal card: 1:
        a plain suit followed, no trump in play (4-5 cards); 2: a trump in the hand (where the
        ruleset lets one ruff while following) or in the trick (5-6 cards); 3: trump led, or (All
        Fours/Trinidad) the ``must_trump`` or ``no_undertrump`` option (6-8 cards)."""
        r = get_ruleset(ruleset)
        options_of = r.option_names()
        players = rng.choice(list(r.players))
        hand_size = rng.randint(4, 5) if d == 1 else rng.randint(5, 6) if d == 2 else rng.randint(6, 8)
        if want in ("2", "3"):
            n = int(want)
        elif want == "4+":
            n = rng.randint(4, max(4, hand_size - 1))
        else:
            n = rng.randint(2, hand_size - 1)
        hand_size = max(hand_size, n + 1)
        variants = ["trump-led"]
        if d == 3 and "void_rule" in options_of:
            variants.append("must-trump")
        if d == 3 and "no_undertrump" in options_of and players > 2:
            variants.append("undertrump")
        v = {1: "plain", 2: "ruff-tempting"}.get(d) or rng.choice(variants)
        trump = rng.choice(SUITS)
        led = trump if v == "trump-led" else rng.choice([s for s in SUITS if s != trump])
        plain = [s for s in SUITS if s not in (led, trump)]
        trick_len = rng.randint(1, players - 1)
        first = rng.choice(suit_cards(led))
        used = {first}
        options: dict[str, Any] = {}
        ruff_in_trick = False
        if v == "plain":
            n_led, n_trump = n, 0
        elif v == "ruff-tempting":
            if _ruffs_while_following(ruleset):
                n_trump = rng.randint(0 if trick_len > 1 else 1, n - 1)
                n_led = n - n_trump
            else:
                n_led, n_trump = n, rng.randint(0 if trick_len > 1 else 1, 2)
            ruff_in_trick = n_trump == 0 or (trick_len > 1 and rng.random() < 0.3)
        elif v == "trump-led":
            n_led, n_trump = 0, n
        elif v == "must-trump":
            n_led, n_trump = 0, n
            options["void_rule"] = "must_trump"
        else:  # undertrump: the trumps below the trick's trump may not be played while following
            options["no_undertrump"] = True
            trick_len = rng.randint(2, players - 1)
            ruff_in_trick = True
            n_led = rng.randint(1, n - 1)
            n_trump = n - n_led
        hand = pick(rng, suit_cards(led, used), n_led) if led != trump else []
        used |= set(hand)
        trick = [first]
        if ruff_in_trick:
            pool = suit_cards(trump, used)
            if v == "undertrump":  # one trump of the trick above n_trump of the hand's, below one more
                pool = [c for c in pool if c.rank not in (2, 14)]
            ruff = rng.choice(pool)
            trick.append(ruff)
            used.add(ruff)
        if v == "undertrump":
            above = [c for c in suit_cards(trump, used) if c > trick[1]]
            below = [c for c in suit_cards(trump, used) if c < trick[1]]
            hand += pick(rng, above, n_trump) + pick(rng, below, 1)
        else:
            hand += pick(rng, suit_cards(trump, used), n_trump)
        used |= set(hand)
        n_rest = hand_size - len(hand)
        if n_rest < 1:
            raise Reject
        hand += pick(rng, [c for c in CARDS if c.suit in plain and c not in used], n_rest)
        used |= set(hand)
        others = [c for c in CARDS if c not in used and (c.suit != trump or v in ("trump-led", "must-trump"))]
        trick += pick(rng, others, trick_len - len(trick))
        if len(trick) > 1 and not ruff_in_trick and v != "trump-led":
            rng.shuffle(trick_rest := trick[1:])
            trick = [first, *trick_rest]
        rng.shuffle(hand)
        sc: dict[str, Any] = {"ruleset": ruleset, "ask": "legal-plays"}
        if players != r.default_players:
            sc["players"] = players
        if options:
            sc["options"] = options
        sc.update({"trump": trump.letter, "hand": [str(c) for c in hand], "trick": [str(c) for c in trick]})
        return sc, f"{cap(suits_prose(led))} were led and {suits_prose(trump)} are trump. Which cards may you play?"


@functools.cache
def _ruffs_while_following(ruleset: str) -> bool:
    """Whether the ruleset lets a player who holds the suit led play a trump instead (All Fours,
    Trinidad) or not (Hokm): asked of the engine."""
    rules = get_ruleset(ruleset).rules()
    led, trump_card, other = Card.parse("2H"), Card.parse("2S"), Card.parse("3H")
    return bool(rules.legal_plays(mask_of([trump_card, other]), [led], Suit.S) & trump_card.mask)
