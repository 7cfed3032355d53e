"""Hokm's rules (seed 002 "Hokm from scratch", RULES.md §1.3 H1-H27, §3.2, K12-K15): its options
model, the round value and :class:`HokmRules`, the rule checks on bit sets that the state machine
(:mod:`tutor.engine.hokm`) is built on. See :mod:`tutor.engine.hokm` for the rules as code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from .cards import CARDS, SUIT_MASK, Card
from .errors import ImpossibleStateError
from .options import EXACT, SETUP_ONLY, options_model
from .reasons import N_, REASON_TEXTS, Reason
from .tricks import (
    follow_reason,
    follow_verdict,
    winner_reason,
    winning_index,
)

__all__ = ["TRICKS_TO_WIN", "HokmOptions", "HokmRules", "RoundResult"]

#: Tricks a team needs to win a round (H2, H20).
TRICKS_TO_WIN = 7

REASON_TEXTS.update({
    "round-win": N_("Team %(team)s took 7 tricks to %(other)s: a plain win is worth 1 point."),
    "round-kot": N_("The hakem's team (team %(team)s) took 7 tricks to 0: kot is worth 2 points."),
    "round-hakem-kot": N_("The hakem's opponents (team %(team)s) took 7 tricks to 0: hakem-kot is worth 3 points."),
    "hakem-stays": N_("The hakem's team won the round, so seat %(hakem)s stays hakem."),
    "hakem-passes-right": N_(
        "The hakem's team lost the round, so the hakem passes to seat %(next_hakem)s, on seat %(hakem)s's right."),
    "match-won": N_("Team %(team)s reached %(score)s points (target %(target)s) and wins the match."),
    "match-continues": N_("No team has reached the target of %(target)s points yet: scores are %(score0)s to %(score1)s."),
    "round-not-decided": N_("No team has 7 tricks yet (%(tricks0)s to %(tricks1)s), so the round is not decided."),
    "hakem-chooses-trump": N_("The hakem (seat %(hakem)s) names trump from his first five cards."),
    "round-over": N_("The round is over: no more cards are played."),
})


@options_model("hokm")
class HokmOptions:
    """Options of Hokm (RULES.md §3.3; defaults first), a frozen strict pydantic model
    (:mod:`tutor.engine.options`).

    * ``target``: match points to win, 7 or 3 (H24, K14).
    * ``stop_at_seven``: the round stops once a team has 7 tricks (H20); ``False`` plays all 13
      tricks, the score unchanged (K13).
    * ``first_hakem``: ``"random"`` (the app's way, H7) or ``"first_ace"`` (deal face up until
      an ace; its receiver is hakem — H7, K15). Sets up a match, not an option of a scenario.
    * ``partner_by_second_ace``: with ``first_ace``, go on dealing until an ace reaches another
      player; that player becomes the hakem's partner (HOKM-P, K15). Sets up a match.

    Raises :class:`BadFieldError` for a value outside these.
    """

    target: Annotated[Literal[7, 3], EXACT, Field(title=N_("Points to win the match"))] = 7
    stop_at_seven: Annotated[bool, Field(title=N_("The round stops when a team has seven tricks"))] = True
    first_hakem: Annotated[Literal["random", "first_ace"], SETUP_ONLY] = "random"
    partner_by_second_ace: Annotated[bool, SETUP_ONLY] = False


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The value of a finished Hokm round (RULES.md §3.2 "Hokm round value", H21-H25).

    ``winner_team``: first team to 7 tricks; ``points``: 1, 2 or 3; ``result``: ``"win"``,
    ``"kot"`` or ``"hakem-kot"``; ``next_hakem``: seat; ``team_tricks``: the counts when the
    round was decided; ``why``: the reasons (value, then next hakem).
    """

    hakem: int
    team_tricks: tuple[int, int]
    winner_team: int
    points: int
    result: str
    next_hakem: int
    why: tuple[Reason, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"winner_team": self.winner_team, "points": self.points, "result": self.result,
                "next_hakem": self.next_hakem}


class HokmRules:
    """Hokm's rules on an options-taking instance, like
    :class:`~tutor.engine.allfours.AllFoursFamily` (RULES.md §3.2 predicates): the deal, legal
    plays and their reasons, the trick winner, the round value and the next hakem.
    :class:`~tutor.engine.hokm.Hokm` adds the game protocol.

    ``HokmRules(HokmOptions(...))`` or ``HokmRules()`` for the defaults. Cards are ints 0..51, hands int
    bit sets, a trick a sequence of cards in play order (a :class:`~tutor.engine.tricks.Trick`'s
    ``cards``), trump a suit int 0..3.
    """

    name = "hokm"
    players = 4
    options_type = HokmOptions
    #: Four players; partners sit opposite, team ``seat % 2`` (H5).
    PARTNERSHIPS: ClassVar[Mapping[int, tuple[int, ...]]] = MappingProxyType({4: (0, 1, 0, 1)})

    def __init__(self, options: HokmOptions | None = None):
        self.options = options or HokmOptions()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards each player holds when play starts: 13 (H9)."""
        return (13,)

    def legal_plays(self, hand_mask: int, trick: Sequence[int], trump: int | None = None) -> int:
        """Bit set of the cards of ``hand_mask`` that may be played to ``trick``.

        Leading: any card (H6, H19). Holding the suit led: only that suit, any rank — even when
        the suit led is trump (H14, H19). Void: any card (H15). ``trump`` does not change the
        answer in Hokm; it is taken for the common ruleset signature.
        """
        if not trick:
            return hand_mask
        return hand_mask & SUIT_MASK[trick[0] // 13] or hand_mask

    def legal(self, hand_mask: int, trick: Sequence[int], trump: int | None = None) -> tuple[int, Reason]:
        """``(legal bit set, reason)``: :meth:`legal_plays` and ``why(None, ...)`` in one call
        (what the ``legal-plays`` ask answers; the same shape as
        :meth:`AllFoursFamily.legal <tutor.engine.allfours.AllFoursFamily.legal>`). Reasons
        ``lead-any`` (H6), ``void-any-card`` (H15), ``must-follow-suit`` (H14),
        ``trump-led-must-trump`` (H19): :func:`~tutor.engine.tricks.follow_verdict`."""
        return follow_verdict(hand_mask, trick, trump)

    def why(self, card: int | None, hand_mask: int, trick: Sequence[int], trump: int | None = None) -> Reason:
        """Why ``card`` is legal or illegal here (``card=None``: the rule that applies to the
        hand). Codes: ``lead-any`` (H6), ``follows-suit`` (H14/H19), ``void-any-card`` (H15),
        ``must-follow-suit`` (H14) or ``trump-led-must-trump`` (H19) with the led-suit cards held,
        ``card-not-in-hand``: :func:`~tutor.engine.tricks.follow_reason` with Hokm's rule ids."""
        return follow_reason(card, hand_mask, trick, trump)

    def is_legal(self, card: int, hand_mask: int, trick: Sequence[int]) -> bool:
        """True if ``card`` is in the hand and may be played to ``trick``."""
        return bool(self.legal_plays(hand_mask, trick) >> card & 1)

    def trick_winner(self, trick: Sequence[int], trump: int, leader: int = 0) -> tuple[int, Card, Reason]:
        """``(seat, card, reason)`` for a complete trick (H16): reason ``highest-trump-wins`` or
        ``highest-of-suit-led-wins``, also citing the rank order (H3) or ruffing (H18) when it
        decided."""
        i = winning_index(trick, trump)
        return (leader + i) % 4, CARDS[trick[i]], winner_reason(trick, trump, leader, 4, "H16", i, rank_rule="H3", ruff_rule="H18")

    def next_hakem(self, hakem: int, winner_team: int) -> int:
        """Same seat if the hakem's team won, else the seat on his right (H25, RULES.md K12)."""
        return hakem if self.PARTNERSHIPS[4][hakem] == winner_team else (hakem + 1) % 4

    def round_result(self, hakem: int, team_tricks: Sequence[int]) -> RoundResult:
        """Score a round from the tricks each team had when it was decided.

        ``team_tricks`` = ``[team 0, team 1]``; exactly one team must have exactly 7 and the total
        may not exceed 13, else :class:`ImpossibleStateError` (spec ``round-score``; 7-7 cannot
        happen because the round stops at the first 7). ``hakem`` is a seat 0..3.
        """
        a, b = team_tricks
        if a == TRICKS_TO_WIN and b == TRICKS_TO_WIN:
            raise ImpossibleStateError("both teams cannot have 7 tricks: the round ends when the first team takes 7.")
        if a + b > 13:
            raise ImpossibleStateError(f"{a} + {b} tricks is more than the 13 tricks of a round.")
        if TRICKS_TO_WIN not in (a, b):
            raise ImpossibleStateError(
                f"a round ends when a team has exactly 7 tricks; {a} to {b} has no team on 7.")
        w = 0 if a == TRICKS_TO_WIN else 1
        other = b if w == 0 else a
        hakem_team = self.PARTNERSHIPS[4][hakem]
        if other:
            points, result = 1, "win"
            r = Reason("round-win", "H21", {"team": w, "tricks": TRICKS_TO_WIN, "other": other})
        elif w == hakem_team:
            points, result = 2, "kot"
            r = Reason("round-kot", "H23,H22", {"team": w, "hakem": hakem})
        else:
            points, result = 3, "hakem-kot"
            r = Reason("round-hakem-kot", "H23,H22", {"team": w, "hakem": hakem})
        nh = self.next_hakem(hakem, w)
        if nh == hakem:
            r2 = Reason("hakem-stays", "H25", {"hakem": hakem, "team": w})
        else:
            r2 = Reason("hakem-passes-right", "K12", {"hakem": hakem, "next_hakem": nh, "team": w})
        return RoundResult(hakem, (a, b), w, points, result, nh, (r, r2))

    def deal(self, deck: Sequence[int], hakem: int) -> tuple[list[int], tuple[int, ...]]:
        """Deal 52 cards 5-4-4 (H8, H9): five to each seat starting with the hakem and going on in
        play order, then four and four in the same order. Returns ``(first_five, full_hands)``:
        bit sets indexed by seat (``first_five[hakem]`` is what the hakem names trump from)."""
        five = [0, 0, 0, 0]
        full = [0, 0, 0, 0]
        for i in range(4):
            seat = (hakem + i) % 4
            m = 0
            for c in deck[5 * i:5 * i + 5]:
                m |= 1 << c
            five[seat] = m
            for c in deck[20 + 4 * i:24 + 4 * i]:
                m |= 1 << c
            for c in deck[36 + 4 * i:40 + 4 * i]:
                m |= 1 << c
            full[seat] = m
        return five, tuple(full)
