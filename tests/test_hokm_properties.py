"""Property tests: thousands of random Hokm rounds and matches played through the engine and
checked against naive re-statements of the rules (seed 002 H8-H25, RULES.md §3.2, K12-K13)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import FULL_DECK, Card, cards_of
from tutor.engine.errors import IllegalPlayError
from tutor.engine.hokm import ChooseTrump, HokmGame, HokmRound, Play, random_round
from tutor.engine.hokm_rules import HokmOptions
from tutor.solve import solve

ROUNDS_PER_EXAMPLE = 30
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def naive_legal(hand_cards, trick_cards):
    """Follow the suit led if you hold it, else anything (H14, H15, H19)."""
    if not trick_cards:
        return set(hand_cards)
    led = trick_cards[0].suit
    same = {c for c in hand_cards if c.suit == led}
    return same or set(hand_cards)


def naive_winner(trick_cards, trump, leader):
    """Highest trump if any trump was played, else highest card of the suit led (H16)."""
    trumps = [c for c in trick_cards if c.suit == trump]
    pool = trumps or [c for c in trick_cards if c.suit == trick_cards[0].suit]
    best = max(pool, key=lambda c: c.rank)
    return (leader + trick_cards.index(best)) % 4


def naive_value(hakem, counts):
    """§3.2: first team to 7 scores 1; 2 for a 7-0 by the hakem's team; 3 for a 7-0 against it."""
    w = 0 if counts[0] == 7 else 1
    if counts[1 - w]:
        return w, 1
    return w, 2 if w == hakem % 2 else 3


def play_checked_round(rd, rng):
    """Play ``rd`` to the end with random legal cards, checking every step; returns the counts at
    the first 7 (or None)."""
    assert rd.phase == "trump" and rd.to_play == rd.hakem
    assert [h.bit_count() for h in rd.hands] == [5, 5, 5, 5]
    rd.push(ChooseTrump(rng.randrange(4)))
    dealt = rd.dealt
    assert [h.bit_count() for h in dealt] == [13] * 4
    assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == FULL_DECK  # every card dealt exactly once
    assert dealt[0] ^ dealt[1] ^ dealt[2] ^ dealt[3] == FULL_DECK
    counts = [0, 0]
    first_seven = None
    leader = rd.hakem
    while rd.phase == "play":
        seat = rd.to_play
        hand = cards_of(rd.hands[seat])
        trick = list(rd.trick.cards)
        legal = naive_legal(hand, trick)
        assert set(cards_of(rd.legal_mask())) == legal
        assert {a.card for a in rd.legal_actions()} == legal
        illegal = [c for c in hand if c not in legal]
        if illegal:
            bad = rng.choice(illegal)
            before = (rd.hands[seat], rd.trick)
            try:
                rd.push(Play(bad))
            except IllegalPlayError as e:
                assert e.reason.code in ("must-follow-suit", "trump-led-must-trump")
                assert e.reason.rule in ("H14", "H19")
            else:
                raise AssertionError(f"{bad} accepted although illegal")
            assert (rd.hands[seat], rd.trick) == before
        card = rng.choice(sorted(legal))
        n_tricks = len(rd.tricks)
        rd.push(Play(card))
        assert not rd.hands[seat] >> card & 1
        if len(rd.tricks) > n_tricks:
            done = rd.tricks[-1]
            assert done.leader == leader
            winner = naive_winner(list(done.cards), rd.trump, leader)
            assert rd.trick_winners[-1] == winner
            counts[winner % 2] += 1
            leader = winner
            if first_seven is None and 7 in counts:
                first_seven = tuple(counts)
    assert rd.team_tricks == counts
    assert sum(counts) == len(rd.tricks) == len(rd.trick_winners)
    return first_seven


@settings(max_examples=100, deadline=None)
@given(seed=seeds, stop=st.booleans())
def test_random_rounds_follow_the_rules(seed, stop):
    rng = random.Random(seed)
    for i in range(ROUNDS_PER_EXAMPLE):
        hakem = (seed + i) % 4
        rd = HokmRound(hakem, seed=rng, options=HokmOptions(stop_at_seven=stop))
        assert rd.dealer == (hakem + 3) % 4
        first_seven = play_checked_round(rd, rng)
        assert first_seven is not None  # 13 tricks always give one team 7
        res = rd.result
        assert res.team_tricks == first_seven
        assert (res.winner_team, res.points) == naive_value(hakem, first_seven)
        assert res.result == {1: "win", 2: "kot", 3: "hakem-kot"}[res.points]
        assert res.next_hakem == (hakem if res.winner_team == hakem % 2 else (hakem + 1) % 4)
        if stop:
            assert max(rd.team_tricks) == 7 and len(rd.tricks) <= 13
        else:
            assert len(rd.tricks) == 13 and rd.hands == [0, 0, 0, 0]
        # the scenario contract gives the same answer for the transcript
        tricks = [[str(c) for c in t.cards] for t in rd.tricks]
        ans = solve({"ruleset": "hokm", "ask": "round-playout", "hakem": hakem, "trump": rd.trump.letter,
                     "tricks": tricks, "options": {"stop_at_seven": stop}})
        assert ans["trick_winners"] == rd.trick_winners
        assert ans["team_tricks"] == rd.team_tricks
        assert (ans["winner_team"], ans["points"], ans["result"], ans["next_hakem"]) == (
            res.winner_team, res.points, res.result, res.next_hakem)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, target=st.sampled_from([7, 3]), first=st.sampled_from(["random", "first_ace"]),
       second=st.booleans())
def test_random_matches_end_at_target(seed, target, first, second):
    rng = random.Random(seed ^ 0x5EED)
    for j in range(5):
        g = HokmGame(seed=seed + j, options=HokmOptions(target=target, first_hakem=first,
                                                         partner_by_second_ace=second and first == "first_ace"))
        assert sorted(g.seating) == [0, 1, 2, 3]
        hakems = [g.hakem]
        scores = [0, 0]
        while not g.over:
            n = len(g.results)
            g.push(rng.choice(g.legal_actions()))
            if len(g.results) > n:
                r = g.results[-1]
                assert r.hakem == hakems[-1]
                assert 1 <= r.points <= 3
                scores[r.winner_team] += r.points
                assert g.scores == scores
                if not g.over:
                    assert max(scores) < target
                    assert g.hakem == r.next_hakem
                    hakems.append(g.hakem)
        assert g.scores[g.winner] >= target > g.scores[1 - g.winner]
        assert g.scores[g.winner] - g.results[-1].points < target  # the last round decided it
        assert len(g.rounds) == len(g.results)


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_fast_random_round_agrees_with_state_machine(seed):
    rng = random.Random(seed)
    for i in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        record: list = []
        stop = bool(i & 1)
        trump, counts, winners = random_round(rng, i % 4, stop, deck=deck, record=record)
        rd = HokmRound(i % 4, deck=deck, options=HokmOptions(stop_at_seven=stop))
        rd.push(ChooseTrump(trump))
        for trick in record:
            for c in trick:
                rd.push(Play(Card(c)))
        assert rd.phase == "over"
        assert (rd.trick_winners, rd.team_tricks) == (winners, counts)
