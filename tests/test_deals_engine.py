"""deals.hokm_round asks the engine directly (bit sets) instead of through the solve contract:
the same draws must give the same round as the contract gives, seed for seed (stored quiz refs
``gen:hokm:walk-through:...`` name their exercise by seed)."""

from __future__ import annotations

import random

import pytest

import tutor.content.kinds  # noqa: F401  (the kinds registry first: deals is imported through it)
from tutor.content import deals
from tutor.engine.cards import CARDS, Card
from tutor.solve import solve


def _round_through_the_contract(rng: random.Random, d: int) -> dict:
    """hokm_round as it was written against tutor.solve (legal-plays and trick-winner asks)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
    hakem = rng.randrange(4)
    counts_by_suit = [sum(c.suit == s for c in hands[hakem][:5]) for s in deals.SUITS]
    trump = deals.SUITS[counts_by_suit.index(max(counts_by_suit))]
    leader, tricks, counts = hakem, [], [0, 0]
    smart = 0.9 if d == 1 else 0.6 if d == 2 else 0.3
    while max(counts) < 7:
        trick: list[Card] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = [Card.parse(c) for c in solve({
                "ruleset": "hokm", "ask": "legal-plays", "trump": trump.letter,
                "hand": [str(c) for c in hands[seat]], "trick": [str(c) for c in trick]})["legal"]]
            if seat % 2 == hakem % 2 and rng.random() < smart:
                card = max(legal, key=lambda c: (c.suit == trump, c.rank))
            else:
                card = rng.choice(legal)
            hands[seat].remove(card)
            trick.append(card)
        leader = solve({"ruleset": "hokm", "ask": "trick-winner", "trump": trump.letter,
                        "trick": [str(c) for c in trick], "leader": leader})["winner"]
        counts[leader % 2] += 1
        tricks.append([str(c) for c in trick])
    return {"ruleset": "hokm", "ask": "round-playout", "hakem": hakem, "trump": trump.letter, "tricks": tricks}


@pytest.mark.parametrize("d", [1, 2, 3])
def test_hokm_round_is_the_contract_s_round_seed_for_seed(d):
    for seed in range(60):
        fast = deals.hokm_round(random.Random(seed), d)
        assert fast == _round_through_the_contract(random.Random(seed), d), (d, seed)
        assert "error" not in solve(dict(fast))  # and the contract accepts the whole round
