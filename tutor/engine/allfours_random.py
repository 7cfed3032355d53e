"""Fast random games of classic All Fours and Trinidad (benchmarks, property tests).

:func:`random_game` plays one complete game with uniformly random legal actions — cut, deal,
turn-up, stand/beg, give/run (with the discards and the bunch where the rules have them), play,
count — as one loop on bit sets, building no states, actions or reasons: the All Fours
counterpart of :func:`tutor.engine.hokm.random_round`. :func:`machine_game` plays the same game
through the state machine (:class:`~tutor.engine.allfours.GameState`, every check made); with
the same ``seed`` and the same random stream both give the same game, award for award and trick
for trick (the tests hold them to it, for every option).

The choice both follow: at each decision the state machine asks for, ``rng.random()`` is drawn
once and picks action ``int(r * len(actions))`` of ``GameState.legal_actions()`` in its order —
stand before beg, give before run (run alone when the gift is forbidden), a discard of each card
in card order, bunch before pass, agree before refuse, plays in card order. Cards are never
exposed out of turn, so Trinidad's calls (T22) do not arise. The deals come from ``seed`` exactly
as in :meth:`~tutor.engine.allfours.AllFoursFamily.new_game` (:func:`~tutor.engine.allfours.cut_dealer`,
:func:`~tutor.engine.allfours.deal_order`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from weakref import WeakKeyDictionary

from .allfours import HAND_SIZE, AllFoursFamily, cut_dealer, deal_order, game_points
from .cards import FULL_DECK, JACK, SUIT_MASK

__all__ = ["GameResult", "machine_game", "random_game"]


class GameResult(NamedTuple):
    """The outcome of a random game.

    ``winner``: the side that reached the target; ``scores``: per side; ``awards``: every award
    in order as ``(category, side, points)``; ``hands``: hands played to the end; ``deal_no``:
    the number of the last deal (deals = ``deal_no + 1``, redeals included).
    """

    winner: int
    scores: tuple[int, ...]
    awards: tuple[tuple[str, int, int], ...]
    hands: int
    deal_no: int


class _Plan(NamedTuple):
    """What :func:`random_game` needs of a ruleset, read once through its hooks."""

    players: int
    sides: int
    side: tuple[int, ...]
    target: int
    order: tuple[tuple[int, ...], ...]  # per dealer: the seats from the dealer's left, dealer last
    run_seats: tuple[tuple[int, ...], ...]  # per dealer: who receives run cards, in order
    turnup: tuple[int, ...]  # per card: points when it is the card that shows trump
    turnup_category: str
    refused_counts: bool  # does a turn-up of the refused suit score (Trinidad option)?
    gifts: tuple[tuple[tuple[str, int, int], ...], ...]  # per dealer: awards when he keeps the suit
    give_may_win: bool
    run_cost: int
    discard_each_run: bool
    reduce_after_trump: bool
    drop_refused_batch: bool
    has_bunch: bool
    strict_void: bool
    no_undertrump: bool
    low_to_captor: bool
    hang_jack: bool
    game_tie_to_non_dealer: bool


_PLANS: WeakKeyDictionary[AllFoursFamily, _Plan] = WeakKeyDictionary()


def _plan(rules: AllFoursFamily) -> _Plan:
    plan = _PLANS.get(rules)
    if plan is not None:
        return plan
    n = rules.players
    order = tuple(tuple((d + k) % n for k in range(1, n + 1)) for d in range(n))
    plan = _Plan(
        players=n, sides=rules.n_sides, side=tuple(rules.side_of(s) for s in range(n)), target=rules.target,
        order=order,
        run_seats=tuple(((d + 1) % n, d) if rules.only_eldest_and_dealer else order[d] for d in range(n)),
        turnup=tuple(rules.turnup_points(c)[0] for c in range(52)), turnup_category=rules.turnup_category,
        refused_counts=rules._later_turnup_counts(False),
        gifts=tuple(tuple((a.category, a.side, a.points) for a in rules.give_awards(d)) for d in range(n)),
        give_may_win=rules._give_may_win(), run_cost=rules.run_cost,
        discard_each_run=rules.discard_each_run, reduce_after_trump=rules.reduce_after_trump,
        drop_refused_batch=rules.drop_refused_batch, has_bunch=rules.has_bunch,
        strict_void=rules.strict_void, no_undertrump=rules.no_undertrump,
        low_to_captor=rules.low_to_captor, hang_jack=rules.hang_jack,
        game_tie_to_non_dealer=rules.game_tie_to_non_dealer)
    _PLANS[rules] = plan
    return plan


def _seat_of(masks: Sequence[int], card: int) -> int:
    """The seat whose bit set holds ``card``."""
    bit = 1 << card
    for s, m in enumerate(masks):
        if m & bit:
            return s
    raise AssertionError(f"card {card} is in nobody's set")


def random_game(rules: AllFoursFamily, rng: random.Random, seed: int | None = None,
                record: list | None = None) -> GameResult:
    """Play one complete game of ``rules`` with random legal actions (see the module docstring).

    ``seed`` fixes the deals (else drawn as ``rng.randrange(2**32)``); ``rng.random()`` makes
    the choices. ``record``, if a list, receives each hand played to the end as ``(dealer,
    trump, start_hands, tricks)``, ``tricks`` a list of ``(leader, cards in play order)``.
    """
    p = _plan(rules)
    n, side, target, order, turnup = p.players, p.side, p.target, p.order, p.turnup
    rotation = tuple((d, *o[:-1]) for d, o in enumerate(order))  # per leader: the seats in play order
    strict, no_under, drop_batch = p.strict_void, p.no_undertrump, p.drop_refused_batch
    if seed is None:
        seed = rng.randrange(2**32)
    rand = rng.random
    scores = [0] * p.sides
    awards: list[tuple[str, int, int]] = []
    winner: int | None = None

    def add(batch: Iterable[tuple[str, int, int]]) -> bool:
        """Score ``batch`` in order (every award counts, even after the target: tally)."""
        nonlocal winner
        for a in batch:
            awards.append(a)
            s = a[1]
            scores[s] += a[2]
            if winner is None and scores[s] >= target:
                winner = s
        return winner is not None

    def reduce(hands: list[int], seats: Sequence[int]) -> None:
        """Each seat holding more than six discards random cards, one at a time, down to six."""
        for s in seats:
            h = hands[s]
            left = h.bit_count()
            while left > HAND_SIZE:
                k = int(rand() * left)
                m = h
                while k:
                    m &= m - 1
                    k -= 1
                h ^= m & -m
                left -= 1
            hands[s] = h

    dealer = cut_dealer(seed, n)
    deal_no = hands_done = 0
    while True:
        # ---- deal by threes from the dealer's left, turn up the next card (C6-C8, T6/T7)
        deck = deal_order(seed, deal_no)
        seats = order[dealer]
        hands = [0] * n
        pos = 0
        for _ in range(HAND_SIZE // 3):
            for s in seats:
                hands[s] |= 1 << deck[pos] | 1 << deck[pos + 1] | 1 << deck[pos + 2]
                pos += 3
        turn = deck[pos]
        pos += 1
        refused = turn // 13
        if turnup[turn] and add(((p.turnup_category, side[dealer], turnup[turn]),)):
            break
        # ---- stand / beg, give / run
        trump = -1
        if not int(rand() * 2):  # stand
            trump = refused
        else:
            gifts = p.gifts[dealer]
            may_give = p.give_may_win or all(scores[s] + pts < target for _, s, pts in gifts)
            if not int(rand() * (2 if may_give else 1)) and may_give:  # give
                if add(gifts):
                    break
                trump = refused
            else:  # run until a new suit shows or the pack runs out
                over = False
                while True:
                    batch = [0] * n
                    for s in p.run_seats[dealer]:
                        b = 1 << deck[pos] | 1 << deck[pos + 1] | 1 << deck[pos + 2]
                        pos += 3
                        hands[s] |= b
                        batch[s] = b
                    turn = deck[pos]
                    pos += 1
                    fixes = turn // 13 != refused
                    if turnup[turn] and (fixes or p.refused_counts) and add(
                            ((p.turnup_category, side[dealer], turnup[turn]),)):
                        over = True
                        break
                    if p.discard_each_run:
                        reduce(hands, seats)
                    if fixes:
                        trump = turn // 13
                        if p.reduce_after_trump:
                            reduce(hands, seats)
                        if p.has_bunch:  # C18: one proposal; all others must agree
                            for s in seats:
                                if int(rand() * 2):  # pass
                                    continue
                                if all(not int(rand() * 2) for _ in range(n - 1)):
                                    trump = -1  # bunch: the same dealer deals again
                                break
                        break
                    if drop_batch:
                        for s in range(n):
                            hands[s] &= ~batch[s]
                    if 52 - pos < p.run_cost:
                        break  # the pack is used up: the same dealer deals again
                if over:
                    break
        if trump < 0:
            deal_no += 1
            continue
        # ---- play (C19-C22, T13-T16)
        start = tuple(hands)
        tm = SUIT_MASK[trump]
        won = [0] * n
        leader = (dealer + 1) % n
        tricks: list[tuple[int, tuple[int, ...]]] | None = [] if record is not None else None
        for _ in range(start[leader].bit_count()):
            best = trick = 0
            best_suit = -1
            led_mask = FULL_DECK  # the lead: any card
            plain_led = True
            w = leader
            cards: list[int] | None = [] if tricks is not None else None
            for seat in rotation[leader]:
                hand = hands[seat]
                follow = hand & led_mask
                if follow:
                    legal = follow | hand & tm
                    if no_under and plain_led and best_suit == trump:
                        legal &= ~((1 << best) - 1) | follow  # K22: no trump below the top trump
                elif strict:
                    legal = hand & tm or hand
                else:
                    legal = hand
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                bit = legal & -legal
                hands[seat] = hand ^ bit
                trick |= bit
                card = bit.bit_length() - 1
                suit = card // 13
                if best_suit < 0:
                    best, best_suit, led_mask, plain_led = card, suit, SUIT_MASK[suit], suit != trump
                elif (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                    best, best_suit, w = card, suit, seat
                if cards is not None:
                    cards.append(card)
            won[w] |= trick
            if tricks is not None and cards is not None:
                tricks.append((leader, tuple(cards)))
            leader = w
        if record is not None:
            record.append((dealer, trump, start, tricks))
        # ---- count: High, Low, Jack, Game (C23-C27, T18-T20, K2-K4)
        hand_awards: list[tuple[str, int, int]] = []
        in_play = 0
        for h in start:
            in_play |= h
        trumps = in_play & tm
        if trumps:
            hi, lo = trumps.bit_length() - 1, (trumps & -trumps).bit_length() - 1
            hand_awards.append(("high", side[_seat_of(start, hi)], 1))
            hand_awards.append(("low", side[_seat_of(won if p.low_to_captor else start, lo)], 1))
            jack = trump * 13 + JACK - 2
            if trumps >> jack & 1:
                captor = side[_seat_of(won, jack)]
                if p.hang_jack and side[_seat_of(start, jack)] != captor:
                    hand_awards.append(("hang-jack", captor, 3))
                else:
                    hand_awards.append(("jack", captor, 1))
        side_won = [0] * p.sides
        for s in range(n):
            side_won[side[s]] |= won[s]
        totals = [game_points(m) for m in side_won]
        top = max(totals)
        tied = [s for s, v in enumerate(totals) if v == top]
        if len(tied) == 1:
            hand_awards.append(("game", tied[0], 1))
        elif p.game_tie_to_non_dealer:
            ds = side[dealer]
            hand_awards.append(("game", next(side[s] for s in seats if side[s] in tied and side[s] != ds), 1))
        hands_done += 1
        if add(hand_awards):
            break
        dealer = (dealer + 1) % n
        deal_no += 1
    assert winner is not None  # the loop ends only once add() has found a winner
    return GameResult(winner, tuple(scores), tuple(awards), hands_done, deal_no)


def machine_game(rules: AllFoursFamily, rng: random.Random, seed: int | None = None,
                 record: list | None = None) -> GameResult:
    """The same game as :func:`random_game` (same arguments, same result), played through the
    state machine: ``GameState.legal_actions()`` and ``apply()`` with every check."""
    if seed is None:
        seed = rng.randrange(2**32)
    rand = rng.random
    state = rules.new_game(seed=seed)
    while not state.over:
        actions = state.legal_actions()
        action = actions[int(rand() * len(actions))]
        after = state.apply(action)
        if record is not None and after.hands_done > state.hands_done:
            assert state.trump is not None  # a hand is played to its end only under a trump
            last = (state.leader, (*state.trick, action.card))
            record.append((state.dealer, int(state.trump), state.start_hands, [*state.tricks, last]))
        state = after
    assert state.winner is not None  # the game is over
    return GameResult(state.winner, state.scores, tuple((a.category, a.side, a.points) for a in state.awards),
                      state.hands_done, state.deal_no)
