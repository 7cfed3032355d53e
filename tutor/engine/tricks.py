"""Tricks: who wins one, and which cards a hand may play to one — shared by every ruleset.

Shapes: a card is an ``int`` 0..51 (:class:`~tutor.engine.cards.Card`); a hand is an ``int`` bit
set; a trick's cards are a sequence of cards in play order, the first one led; a trump is a suit
``int`` 0..3 (or :class:`~tutor.engine.cards.Suit`), or ``None`` for no trump.

All three games decide a trick the same way (RULES.md H16, C22, T16): the highest trump played
wins; if no trump was played, the highest card of the suit led wins; any other card cannot win.
They differ in which cards a hand may play; two predicates cover them:

* :func:`follow_suit` — Hokm (seed 002, H14/H15/H19): hold the suit led → play it; void → any
  card. A trump lead is the same rule (the suit led is trump).
* :func:`follow_or_trump` — All Fours (seed 000 C20/C21, seeds 001/003 T14/T15): trump led →
  trump if able; plain suit led and held → that suit or any trump; void → any card (or, with
  ``strict_void``, trumps only when holding any: RULES.md K1/K20 option).

The functions here are plain and fast (a few bit operations); rulesets wrap them with their
rule ids and :class:`~tutor.engine.reasons.Reason` explanations. For hot loops,
:func:`make_follow_or_trump` and :func:`make_winner_seat` return functions with the options
fixed in advance (no option tests, no objects built per call).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from .cards import CARD_NAMES, CARDS, SUIT_LETTERS, SUIT_MASK, Card, Suit, format_cards, names_desc
from .reasons import N_, REASON_TEXTS, Reason, lazy_reason, make_reason

__all__ = [
    "HandRecord",
    "Trick",
    "follow_or_trump",
    "follow_reason",
    "follow_suit",
    "follow_verdict",
    "led_suit",
    "legal_mask",
    "make_follow_or_trump",
    "make_winner_seat",
    "shared_reason",
    "suit_and_cards",
    "trick_winner",
    "winner_reason",
    "winning_index",
]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One deal played to its end, as the game protocol reports it
    (:class:`tutor.engine.rulesets.GameEngine`): ``trick_winners`` (seat per trick, in order),
    ``cards_each`` (cards each seat held at the start of play), ``side_tricks`` (tricks per side)
    and ``tricks_to_win`` (tricks that end the deal early, Hokm's 7 — H20; ``None``: every card
    is played)."""

    trick_winners: tuple[int, ...]
    cards_each: int
    side_tricks: tuple[int, ...]
    tricks_to_win: int | None


REASON_TEXTS.update({
    "must-follow-suit": N_("%(led)s was led and you hold %(cards)s, so you must play one of them."),
    "follows-suit": N_("%(card)s follows the suit led (%(led)s), so it may be played."),
    "void-any-card": N_("%(led)s was led and you hold none, so you may play any card."),
    "trump-led-must-trump": N_("Trump (%(trump)s) was led and you hold %(cards)s, so you must play trump."),
    "card-not-in-hand": N_("%(card)s is not in your hand."),
    "highest-trump-wins": N_("%(card)s is the highest trump (%(trump)s) played, so seat %(winner)s wins the trick."),
    "highest-of-suit-led-wins": N_(
        "No trump was played and %(card)s is the highest card of the suit led (%(led)s), "
        "so seat %(winner)s wins the trick."),
    # a transcript that shows a revoke (a seat that did not follow a suit later plays it)
    "revoke": N_("In trick %(trick)s seat %(seat)s did not follow %(led)s, yet in trick %(later_trick)s it played "
                 "%(card)s of that suit: it held %(led)s and had to follow."),
})


def led_suit(cards: Sequence[int]) -> int | None:
    """The suit (int 0..3) of the first card, or ``None`` for an empty trick (RULES.md H13)."""
    return cards[0] // 13 if cards else None


def winning_index(cards: Sequence[int], trump: int | None) -> int:
    """Index in ``cards`` (non-empty, play order) of the card that wins (RULES.md H16/C22/T16).

    Highest trump if any trump is among ``cards``; else the highest card of the suit led.
    """
    best = cards[0]
    suit = best // 13
    for c in cards:
        s = c // 13
        if s == suit:
            if c > best:  # noqa: PLR1730 - a comparison is faster than a call to max()
                best = c
        elif s == trump:  # the first trump on a plain lead; later ones must beat it
            best, suit = c, s
    return cards.index(best)


def make_winner_seat(players: int) -> Callable[..., int]:
    """A fast ``winner_seat(cards, trump, leader=0) -> seat`` for tables of ``players`` seats:
    the seat of :func:`winning_index` as an ``int``, building no objects."""
    def winner_seat(cards: Sequence[int], trump: int | None, leader: int = 0) -> int:
        best = cards[0]
        suit = best // 13
        seat = win = leader
        for c in cards[1:]:
            seat += 1
            s = c // 13
            if s == suit:
                if c > best:
                    best, win = c, seat
            elif s == trump:
                best, suit, win = c, s, seat
        return win % players
    return winner_seat


def trick_winner(cards: Sequence[int], trump: int | None, leader: int = 0, players: int = 4) -> tuple[int, Card]:
    """``(seat, card)`` of the winner of a trick led by ``leader``; seats are in play order."""
    i = winning_index(cards, trump)
    return (leader + i) % players, CARDS[cards[i]]


def follow_suit(hand: int, led: int | None) -> int:
    """Legal cards (bit set) under "follow suit if able, else any card" (Hokm H14/H15/H19).

    ``led`` is ``None`` when leading: every card is legal.
    """
    if led is None:
        return hand
    return hand & SUIT_MASK[led] or hand


def follow_or_trump(hand: int, led: int | None, trump: int | None, strict_void: bool = False) -> int:
    """Legal cards (bit set) under All Fours' "follow suit or trump" (C20/C21, T14/T15).

    Leading: any card. Trump led: trumps if held, else any card. Plain suit led and held: that
    suit or any trump. Void in the suit led: any card, or with ``strict_void`` trumps only when
    the hand holds any (RULES.md K1/K20 option).
    """
    if led is None:
        return hand
    trumps = hand & SUIT_MASK[trump] if trump is not None else 0
    if led == trump:
        return trumps or hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow | trumps
    if strict_void and trumps:
        return trumps
    return hand


#: Bit set of the suit of each card: ``LED_MASK[card] == SUIT_MASK[card // 13]``.
LED_MASK: tuple[int, ...] = tuple(SUIT_MASK[c // 13] for c in range(52))


def make_follow_or_trump(strict_void: bool = False, no_undertrump: bool = False
                         ) -> Callable[[int, Sequence[int], int], int]:
    """A fast ``legal(hand, cards, trump) -> bit set`` equal to :func:`follow_or_trump` for the
    trick's cards so far (``cards``, play order) with the options fixed in advance.

    ``no_undertrump`` (RULES.md K22): when the suit led is a plain suit and held, trumps below the
    highest trump already in the trick are not legal. The rule is one bit-set expression::

        follow = hand & LED_MASK[cards[0]]        # trump led: follow is the trumps held
        legal = follow | hand & trumps  if follow  else  hand   (strict: hand & trumps or hand)
    """
    masks, led_mask = SUIT_MASK, LED_MASK
    if no_undertrump:
        def legal(hand: int, cards: Sequence[int], trump: int) -> int:
            if not cards:
                return hand
            tm = masks[trump]
            follow = hand & led_mask[cards[0]]
            if not follow:
                return hand & tm or hand if strict_void else hand
            trumps = hand & tm
            if trumps and led_mask[cards[0]] != tm:
                top = 0
                for c in cards:
                    if tm >> c & 1 and c > top:
                        top = c
                if top:  # 0 is none played (or only the 2S, below which nothing lies)
                    trumps &= ~((1 << top) - 1)
            return follow | trumps
    elif strict_void:
        def legal(hand: int, cards: Sequence[int], trump: int) -> int:
            if not cards:
                return hand
            follow = hand & led_mask[cards[0]]
            return follow | hand & masks[trump] if follow else hand & masks[trump] or hand
    else:
        def legal(hand: int, cards: Sequence[int], trump: int) -> int:
            if not cards:
                return hand
            follow = hand & led_mask[cards[0]]
            return follow | hand & masks[trump] if follow else hand
    return legal


def legal_mask(hand: int, cards: Sequence[int], trump: int | None = None, rule: str = "follow") -> int:
    """Legal cards of ``hand`` for a trick whose cards so far are ``cards``.

    ``rule`` is ``"follow"`` (:func:`follow_suit`), ``"follow-or-trump"`` or
    ``"follow-or-trump-strict"`` (:func:`follow_or_trump`).
    """
    led = cards[0] // 13 if cards else None
    if rule == "follow":
        return follow_suit(hand, led)
    return follow_or_trump(hand, led, trump, strict_void=rule == "follow-or-trump-strict")


def winner_reason(cards: Sequence[int], trump: int | None, leader: int = 0, players: int = 4,
                  rule: str = "H16", index: int | None = None, *, rank_rule: str = "",
                  ruff_rule: str = "") -> Reason:
    """The :class:`Reason` for a complete trick's winner (``highest-trump-wins`` or
    ``highest-of-suit-led-wins``), with ``card``, ``winner`` and ``trump``/``led`` params.
    ``index``: the :func:`winning_index`, if already known.

    The reason cites ``rule`` and, when given, the point that decided between the cards: the
    order of the ranks (``rank_rule``: H3, C3, T1) when two or more cards of the winning card's
    suit were played, or ruffing (``ruff_rule``: H18) when a trump took a trick of a plain suit
    led; e.g. ``"H16,H3"``."""
    i = winning_index(cards, trump) if index is None else index
    c = cards[i]
    suit = c // 13
    led = cards[0] // 13
    if ruff_rule and suit == trump and led != trump:
        rule = f"{rule},{ruff_rule}"
    elif rank_rule:
        same = 0
        for x in cards:  # a loop, not sum(): a reason stays within its call budget (tutor bench)
            if x // 13 == suit:
                same += 1
        if same > 1:
            rule = f"{rule},{rank_rule}"
    if suit == trump:
        return make_reason("highest-trump-wins", rule,
                      {"card": CARD_NAMES[c], "winner": (leader + i) % players, "trump": SUIT_LETTERS[suit]})
    return make_reason("highest-of-suit-led-wins", rule,
                  {"card": CARD_NAMES[c], "winner": (leader + i) % players, "led": SUIT_LETTERS[suit]})


@cache
def shared_reason(code: str, rule: str, suit_param: str | None = None, suit: int = 0) -> Reason:
    """The one :class:`Reason` ``code``/``rule`` whose only param, if any, is the suit letter
    ``suit_param`` (e.g. ``void-any-card`` with ``led``): built on first use, then shared (such
    reasons are immutable; a few dozen exist)."""
    return Reason(code, rule, {suit_param: SUIT_LETTERS[suit]} if suit_param else {})


def follow_verdict(hand: int, cards: Sequence[int], trump: int | None = None, lead_rule: str = "H6",
                   follow_rule: str = "H14", void_rule: str = "H15", trump_rule: str = "H19") -> tuple[int, Reason]:
    """``(legal bit set, reason)`` under :func:`follow_suit` for ``hand`` and the trick's cards so
    far (``cards``, play order); the rule ids default to Hokm's (seed 002).

    Reasons: ``lead-any`` (leading); ``void-any-card`` (the hand holds none of the suit led, param
    ``led``); ``must-follow-suit`` / ``trump-led-must-trump`` (the hand holds the suit led; params
    ``led``/``trump`` and ``cards``, the cards of that suit held, highest first).
    """
    if not cards:
        return hand, shared_reason("lead-any", lead_rule)
    led = cards[0] // 13
    held = hand & SUIT_MASK[led]
    if not held:
        return hand, shared_reason("void-any-card", void_rule, "led", led)
    if led == trump:
        return held, lazy_reason("trump-led-must-trump", trump_rule, suit_and_cards, "trump", led, held)
    return held, lazy_reason("must-follow-suit", follow_rule, suit_and_cards, "led", led, held)


def suit_and_cards(name: str, suit: int, mask: int) -> dict[str, object]:
    """Reason params ``{name: suit letter, "cards": the cards of bit set mask, highest first}``
    (built by :func:`~tutor.engine.reasons.lazy_reason` when first read)."""
    return {name: SUIT_LETTERS[suit], "cards": names_desc(mask)}


def follow_reason(card: int | None, hand: int, cards: Sequence[int], trump: int | None = None, *,
                  lead_rule: str = "H6", follow_rule: str = "H14", void_rule: str = "H15",
                  trump_rule: str = "H19") -> Reason:
    """Why ``card`` may or may not be played under :func:`follow_suit` (or, with ``card=None``,
    the rule that applies to this hand at this point of the trick: the reason of
    :func:`follow_verdict`).

    Codes: ``card-not-in-hand``; ``follows-suit`` (``card`` is of the suit led); else those of
    :func:`follow_verdict`.
    """
    if card is not None:
        if not hand >> card & 1:
            return make_reason("card-not-in-hand", follow_rule, {"card": CARD_NAMES[card]})
        if cards and card // 13 == cards[0] // 13:
            led = cards[0] // 13
            return lazy_reason("follows-suit", trump_rule if led == trump else follow_rule, _card_and_led, card, led)
    return follow_verdict(hand, cards, trump, lead_rule, follow_rule, void_rule, trump_rule)[1]


def _card_and_led(card: int, led: int) -> dict[str, object]:
    """Params of ``follows-suit``: the card and the suit led."""
    return {"card": CARD_NAMES[card], "led": SUIT_LETTERS[led]}


@dataclass(frozen=True, slots=True)
class Trick:
    """An immutable trick in progress or complete.

    ``leader``: seat that led; ``cards``: cards in play order; ``players``: seats at the table.
    Card ``i`` was played by seat ``(leader + i) % players``. :meth:`add` returns a new Trick.
    """

    leader: int
    cards: tuple[Card, ...] = ()
    players: int = 4

    @property
    def led(self) -> Suit | None:
        """Suit of the first card, or ``None`` before the lead (H13)."""
        return _SUITS[self.cards[0] // 13] if self.cards else None

    @property
    def mask(self) -> int:
        """Bit set of the cards played."""
        m = 0
        for c in self.cards:
            m |= 1 << c
        return m

    @property
    def complete(self) -> bool:
        """True once every seat has played."""
        return len(self.cards) == self.players

    @property
    def to_play(self) -> int:
        """Seat to play next (the leader when empty)."""
        return (self.leader + len(self.cards)) % self.players

    def seat_of(self, i: int) -> int:
        """Seat that played the ``i``-th card."""
        return (self.leader + i) % self.players

    def add(self, card: int) -> Trick:
        """A new Trick with ``card`` added. Raises ``ValueError`` if the trick is complete."""
        if len(self.cards) >= self.players:
            raise ValueError("the trick is complete")
        return Trick(self.leader, (*self.cards, CARDS[card]), self.players)

    def winner(self, trump: int | None) -> tuple[int, Card]:
        """``(seat, card)`` of the winning card so far (complete or not)."""
        return trick_winner(self.cards, trump, self.leader, self.players)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(format_cards(self.cards)) or "-"


_SUITS = tuple(Suit)
