"""The bots' card play, shared by every game (:class:`~tutor.engine.play.Coach` subclasses call
:func:`bot_card` for a card to play): a plain heuristic on bit sets, never an illegal card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .cards import SUIT_MASK
from .tricks import winning_index

__all__ = ["bot_card"]


def _rank(card: int) -> int:
    return card % 13


def _beats(card: int, best: int, trump: int | None) -> bool:
    """Does ``card`` beat ``best``, the winning card of a trick so far (H16, C22, T16)?"""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _is_top(card: int, gone: int) -> bool:
    """Is ``card`` the highest card of its suit not yet gone (played or in one's own hand)?"""
    above = SUIT_MASK[card // 13] & ~((2 << card) - 1)
    return not above & ~gone


def bot_card(legal: int, hand: int, trick: Sequence[int], leader: int, seat: int, players: int,
             trump: int | None, played: int, side_of: Callable[[int], int], rng: random.Random,
             value: Callable[[int], int] = _rank) -> int:
    """The card a bot plays (an ``int`` of bit set ``legal``, never another).

    ``hand``: all it holds; ``trick``: cards so far, led by ``leader``; ``played``: bit set of the
    cards played before this trick; ``side_of``: seat -> side; ``value(card)``: what the card is
    worth keeping (rank by default; All Fours adds its Game points). Leading: a plain card that is
    the highest left in its suit, else the lowest of the longest plain suit (trump only when only
    trumps are left). Following: lowest when the partner is winning; else the cheapest card that
    wins; else the lowest card, keeping trumps. Ties are broken with ``rng``.
    """
    cards = [c for c in range(52) if legal >> c & 1]
    if len(cards) == 1:
        return cards[0]
    trump_mask = SUIT_MASK[trump] if trump is not None else 0

    def lowest(pool: list[int]) -> int:
        plain = [c for c in pool if not trump_mask >> c & 1] or pool
        low = min(value(c) for c in plain)
        return rng.choice([c for c in plain if value(c) == low])

    if not trick:
        gone = played | hand
        plain = [c for c in cards if not trump_mask >> c & 1]
        tops = [c for c in plain if _is_top(c, gone)]
        if tops:
            return max(tops, key=lambda c: (_rank(c), -c))
        if not plain:
            return min(cards)
        by_suit: dict[int, list[int]] = {}
        for c in plain:
            by_suit.setdefault(c // 13, []).append(c)
        longest = max(len(v) for v in by_suit.values())
        pool = [c for v in by_suit.values() if len(v) == longest for c in v]
        return lowest(pool)
    i = winning_index(trick, trump)
    best = trick[i]
    winner = (leader + i) % players
    if side_of(winner) == side_of(seat):  # the partner is winning (never the seat itself: it has not played)
        return lowest(cards)
    beaters = [c for c in cards if _beats(c, best, trump)]
    if not beaters:
        return lowest(cards)
    # the cheapest winner: a card of the suit led before a trump, then the lowest
    return min(beaters, key=lambda c: (c // 13 == trump and best // 13 != trump, _rank(c)))
