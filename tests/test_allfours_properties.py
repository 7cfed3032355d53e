"""Property tests: thousands of random complete games of classic All Fours and Trinidad.

Each game is driven through the state machine with random legal actions (and, in Trinidad, random
cards exposed out of turn, T22). After every step the checks below are made against reference
rules written here from RULES.md §3.2, independently of the engine's code:

* every card is dealt once: hands, stock, turn-ups, discards and played cards partition the pack;
* every action offered is legal and the engine's legal set equals the reference predicate;
* every trick winner equals the reference (highest trump, else highest of the suit led);
* each hand's High/Low/Jack/Game awards equal the reference count, and game points total the
  value of the cards played;
* scores are the sum of all awards, and the game ends when, adding awards in order, the first
  side reaches the target — that side is the winner.

The random games of :mod:`tutor.engine.allfours_random` (played by the state machine, there is
no second engine) pass the same reference checks, hand by hand from their records.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.allfours_classic import AllFours
from tutor.engine.allfours_random import random_game
from tutor.engine.allfours_state import RUN_HAND_METHODS, AllFoursOptions, deal_deck, tally
from tutor.engine.cards import FULL_DECK, shuffled_deck
from tutor.engine.trinidad import Trinidad, TrinidadOptions

VALUE = {8: 10, 12: 4, 11: 3, 10: 2, 9: 1}  # card index % 13 -> Game value (10, A, K, Q, J)
MAX_STEPS = 20000


def ref_legal(hand: int, trick: tuple, trump: int, strict: bool, no_under: bool) -> int:
    """RULES.md §3.2 legal-play predicate, written from the text."""
    if not trick:
        return hand
    led = trick[0] // 13
    suit_cards = [c for c in range(52) if hand >> c & 1]
    trumps = [c for c in suit_cards if c // 13 == trump]
    follow = [c for c in suit_cards if c // 13 == led]
    if led == trump:
        allowed = trumps or suit_cards
    elif follow:
        top = max((c for c in trick if c // 13 == trump), default=None)
        allowed = follow + [t for t in trumps if not (no_under and top is not None and t < top)]
    else:
        allowed = trumps if strict and trumps else suit_cards
    return sum(1 << c for c in allowed)


def ref_winner(trick: tuple, leader: int, trump: int, n: int) -> int:
    trumps = [i for i, c in enumerate(trick) if c // 13 == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c // 13 == trick[0] // 13]
    best = max(pool, key=lambda i: trick[i])
    return (leader + best) % n


def ref_awards(rules, dealer: int, trump: int, start: tuple, tricks: tuple, winners: tuple) -> list:
    """(category, side, points) for High, Low, Jack/hang-jack, Game per RULES.md §3.2."""
    n = rules.players
    side = (lambda s: s % 2) if n == 4 else (lambda s: s)
    owner = {c: s for s in range(n) for c in range(52) if start[s] >> c & 1}
    taken = {c: w for (_, t), w in zip(tricks, winners, strict=True) for c in t}
    in_play = sorted(c for c in owner if c // 13 == trump)
    out = []
    if in_play:
        out.append(("high", side(owner[in_play[-1]]), 1))
        low = in_play[0]
        captured = rules.ruleset == "all-fours" and rules.options.low == "captured"
        out.append(("low", side(taken[low] if captured else owner[low]), 1))
    jack = trump * 13 + 9
    if jack in owner:
        cap, hold = side(taken[jack]), side(owner[jack])
        if rules.ruleset == "trinidad" and rules.options.jack == "hang" and cap != hold:
            out.append(("hang-jack", cap, 3))
        else:
            out.append(("jack", cap, 1))
    totals = [0] * (2 if n == 4 else n)
    for c, w in taken.items():
        totals[side(w)] += VALUE.get(c % 13, 0)
    best = max(totals)
    tied = [s for s, v in enumerate(totals) if v == best]
    if len(tied) == 1:
        out.append(("game", tied[0], 1))
    elif rules.ruleset == "all-fours" and rules.options.game_tie == "dealer-excluded":
        order = [side((dealer + k) % n) for k in range(1, n)]
        out.append(("game", next(s for s in order if s in tied and s != side(dealer)), 1))
    return out


def check_cards(state) -> None:
    """Hands, stock, turn-ups, discards, won cards and the trick partition the pack."""
    parts = list(state.hands) + list(state.won) + [
        sum(1 << c for c in state.stock), sum(1 << c for c in state.turn_ups), state.discarded,
        sum(1 << c for c in state.trick)]
    union = 0
    for p in parts:
        assert not union & p, "a card is in two places"
        union |= p
    assert union == FULL_DECK


def play_game(rules, seed: int) -> int:
    """Play one random game with every check; return the number of hands played."""
    rng = random.Random(seed)
    state = rules.new_game(seed=seed)
    initial = (0,) * rules.n_sides
    strict, no_under = rules.strict_void, rules.no_undertrump
    steps = 0
    while not state.over:
        steps += 1
        assert steps < MAX_STEPS
        check_cards(state)
        if rules.has_calling and state.phase == "play" and rng.random() < 0.05:
            seat = rng.randrange(rules.players)
            if seat != state.to_act and state.hands[seat]:
                held = [c for c in range(52) if state.hands[seat] >> c & 1]
                state = state.expose(seat, rng.choice(held))
        actions = state.legal_actions()
        assert actions
        if state.phase == "play":
            seat = state.to_act
            plays = sum(1 << a.card for a in actions if a.kind == "play")
            assert plays == ref_legal(state.hands[seat], state.trick, state.trump, strict, no_under)
            assert plays == rules.legal(state.hands[seat], state.trick, state.trump)[0]
            assert all(state.exposed[seat] >> a.card & 1 and a.seat != seat for a in actions if a.kind == "call")
        action = rng.choice(actions)
        before = state
        state = state.apply(action)
        if before.phase == "play" and len(before.trick) == rules.players - 1:
            trick = (*before.trick, action.card)
            last = state.last_hand if state.hands_done > before.hands_done else None
            winner = ref_winner(trick, before.leader, before.trump, rules.players)
            if last is None:
                assert state.trick_winners[-1] == winner and state.tricks[-1] == (before.leader, trick)
            else:
                check_hand(rules, before, trick, winner, last)
    check_end(rules, state, initial)
    return state.hands_done


def check_hand(rules, before, trick, winner, hs) -> None:
    tricks = (*before.tricks, (before.leader, trick))
    winners = (*before.trick_winners, winner)
    assert hs.trick_winners == winners
    assert len(tricks) in rules.hand_sizes()
    want = ref_awards(rules, before.dealer, before.trump, before.start_hands, tricks, winners)
    assert [(a.category, a.side, a.points) for a in hs.awards] == want
    assert sum(hs.game_points) == sum(VALUE.get(c % 13, 0) for _, t in tricks for c in t)
    assert sum(hs.points) == sum(p for _, _, p in want)


def check_end(rules, state, initial) -> None:
    assert state.winner is not None and state.scores[state.winner] >= rules.target
    assert tally(initial, state.awards, rules.target) == (state.scores, state.winner)
    running = list(initial)
    for i, a in enumerate(state.awards):
        assert max(running) < rules.target, "an award came after the game was over"
        running[a.side] += a.points
        if running[a.side] >= rules.target:
            assert a.side == state.winner
            rest = state.awards[i + 1:]
            assert all(r.category in ("high", "low", "jack", "hang-jack", "game", "gift", "take-one") for r in rest)
            break


CLASSIC = st.builds(
    AllFoursOptions,
    players=st.sampled_from([2, 3, 4]), target=st.sampled_from([7, 7, 10, 11, 31]),
    turnup_scale=st.sampled_from(["jack", "running"]), low=st.sampled_from(["dealt", "captured"]),
    game_tie=st.sampled_from(["dealer-excluded", "nobody"]), void_rule=st.sampled_from(["free", "must_trump"]),
    gift_may_win=st.booleans(), run_hand_method=st.sampled_from(RUN_HAND_METHODS))
TRINIDAD = st.builds(
    TrinidadOptions,
    players=st.sampled_from([4, 2]), target=st.sampled_from([14, 7]),
    kick_scale=st.sampled_from(["standard", "tobago"]), jack=st.sampled_from(["hang", "plain"]),
    void_rule=st.sampled_from(["free", "must_trump"]), no_undertrump=st.booleans(),
    same_suit_kick_scores=st.booleans(), beg_point_may_win=st.booleans())
SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(options=CLASSIC, seed=SEEDS)
def test_random_classic_games(options, seed):
    play_game(AllFours(options), seed)


@FAST
@given(options=TRINIDAD, seed=SEEDS)
def test_random_trinidad_games(options, seed):
    play_game(Trinidad(options), seed)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(players=st.sampled_from([2, 3, 4]), seed=SEEDS)
def test_random_default_classic_games(players, seed):
    play_game(AllFours(players=players), seed)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(players=st.sampled_from([4, 2]), seed=SEEDS)
def test_random_default_trinidad_games(players, seed):
    play_game(Trinidad(players=players), seed)


def test_many_seeded_games_reach_every_situation():
    """A fixed batch that must show runs, redeals, bunches, hang jacks and game ties."""
    seen: set[str] = set()
    for seed in range(150):
        for rules in (AllFours(players=3), Trinidad(players=4), AllFours(players=4, run_hand_method="keep-all")):
            rng = random.Random(seed)
            state = rules.new_game(seed=seed)
            while not state.over:
                action = rng.choice(state.legal_actions())
                nxt = state.apply(action)
                if action.kind == "run":
                    seen.add("run")
                if nxt.deal_no > state.deal_no and nxt.hands_done == state.hands_done:
                    seen.add("bunch" if action.kind == "agree" else "redeal")
                state = nxt
            seen.update(a.category for a in state.awards)
            seen.update(r.code for a in state.awards for r in [a.reason])
    assert {"run", "redeal", "bunch", "hang-jack", "gift", "take-one", "kick", "turn-up",
            "game-tie-dealer-excluded"} <= seen


# --------------------------------------------------------------------------- random_game
HAND_CATEGORIES = ("high", "low", "jack", "hang-jack", "game")


def check_random_game(rules, result, record) -> None:
    """Reference checks on a game of :func:`random_game`: every play legal, every trick won as
    the reference says, each hand's count as the reference, scores and winner by tally."""
    n = rules.players
    strict, no_under = rules.strict_void, rules.no_undertrump
    want = []
    for dealer, trump, start, played in record:
        held = list(start)
        tricks, winners = [], []
        lead = (dealer + 1) % n
        assert len({h.bit_count() for h in start}) == 1 and len(played) == start[0].bit_count()
        for leader, cards in played:
            assert leader == lead and len(cards) == n
            for i, c in enumerate(cards):
                seat = (leader + i) % n
                assert ref_legal(held[seat], cards[:i], trump, strict, no_under) >> c & 1
                held[seat] &= ~(1 << c)
            lead = ref_winner(cards, leader, trump, n)
            tricks.append((leader, cards))
            winners.append(lead)
        assert not any(held)
        want += ref_awards(rules, dealer, trump, start, tuple(tricks), tuple(winners))
    hand_awards = [a for a in result.awards if a[0] in HAND_CATEGORIES]
    assert hand_awards == want
    assert result.hands == len(record)
    scores, winner = (0,) * rules.n_sides, None
    for category, side, points in result.awards:
        assert winner is None or category in (*HAND_CATEGORIES, "gift", "take-one")
        scores = (*scores[:side], scores[side] + points, *scores[side + 1:])
        if winner is None and scores[side] >= rules.target:
            winner = side
    assert (scores, winner) == (result.scores, result.winner)


@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.one_of(CLASSIC.map(AllFours), TRINIDAD.map(Trinidad)), seed=SEEDS)
def test_random_games_follow_the_rules(options, seed):
    rules = options
    record: list = []
    check_random_game(rules, random_game(rules, random.Random(seed), record=record), record)


def test_random_games_reach_every_situation():
    """Runs, redeals, bunches, gifts, hang jacks, forbidden gifts: random games meet them all,
    the same seed gives the same game, and each passes the reference checks."""
    seen: set[str] = set()
    for seed in range(60):
        for rules in (AllFours(players=3), AllFours(players=2, gift_may_win=False, target=3),
                      Trinidad(players=4, beg_point_may_win=False, target=3), AllFours(run_hand_method="wait-and-see"),
                      AllFours(players=4, run_hand_method="eldest-and-dealer")):
            record: list = []
            result = random_game(rules, random.Random(seed), seed=seed, record=record)
            assert result == random_game(rules, random.Random(seed), seed=seed)
            check_random_game(rules, result, record)
            seen.update(a[0] for a in result.awards)
            unfinished = result.awards[-1][0] not in HAND_CATEGORIES  # a turn-up or gift ended the game
            if result.deal_no + 1 > result.hands + unfinished:
                seen.add("redeal")
    assert {"redeal", "gift", "take-one", "hang-jack", "kick", "turn-up", "game"} <= seen


def test_deal_order_is_the_seeded_shuffle():
    for seed in (0, 1, 5, 2**32 - 1):
        for deal_no in range(3):
            assert deal_deck(seed, deal_no) == shuffled_deck(random.Random(f"{seed}/{deal_no}"))


def test_legal_plays_and_winner_seat_match_the_reference():
    rng = random.Random(4)
    for rules in (AllFours(players=2), AllFours(players=3, void_rule="must_trump"), Trinidad(),
                  Trinidad(no_undertrump=True), Trinidad(no_undertrump=True, void_rule="must_trump")):
        n = rules.players
        for _ in range(3000):
            deck = list(range(52))
            rng.shuffle(deck)
            trump = rng.randrange(4)
            hand = sum(1 << c for c in deck[n:n + rng.randrange(1, 13)])
            trick = tuple(deck[:rng.randrange(n)])
            want = ref_legal(hand, trick, trump, rules.strict_void, rules.no_undertrump)
            assert rules.legal_plays(hand, trick, trump) == rules.legal(hand, trick, trump)[0] == want
            leader = rng.randrange(n)
            full = tuple(deck[:n])
            assert rules.winner_seat(full, trump, leader) == ref_winner(full, leader, trump, n)
            assert rules.trick_winner(full, trump, leader)[0] == ref_winner(full, leader, trump, n)
