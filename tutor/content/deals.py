"""Seeded building blocks for exercise generators: hands, tricks, rounds and whole hands played
out by random legal play, each checked by the engine as it is built.

The kinds' generators (``generate`` of each class in :mod:`tutor.content.kinds`) draw from one
:class:`random.Random`; these helpers keep the order of draws fixed, so a seed gives the same
exercise on every machine. A candidate that does not fit raises
:class:`~tutor.content.kinds.base.Reject`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .. import i18n
from ..engine.cards import CARDS, Card, Suit, cards_of, mask_of
from ..engine.rulesets import get_ruleset
from .kinds.base import Reject, players_of

__all__ = [
    "SUITS", "TRICK_SHAPES", "aimed_hand", "cap", "hand_players", "hand_trap", "hokm_round", "make_trump", "pick",
    "solve", "steered_trick", "suit_cards", "suits_prose", "tricks_prose", "turn_ups", "whole_hand",
]

SUITS: tuple[Suit, ...] = tuple(Suit)


def solve(scenario: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer (:func:`tutor.solve.solve`); raises its TutorError."""
    from ..solve import solve as engine_solve
    return engine_solve(scenario)


def suit_cards(suit: int, exclude: set[Card] | frozenset[Card] = frozenset()) -> list[Card]:
    """The cards of ``suit`` not in ``exclude``, in deck order."""
    return [c for c in CARDS if c.suit == suit and c not in exclude]


def cap(text: str) -> str:
    """``text`` with its first letter upper-case."""
    return text[:1].upper() + text[1:]


def suits_prose(suit: int) -> str:
    """English suit name in prose: "hearts"."""
    return i18n.suit_name(Suit(suit), plural=True)


def tricks_prose(n: int) -> str:
    """"1 trick", "3 tricks"."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


def pick(rng: random.Random, pool: list[Any], n: int) -> list[Any]:
    """``n`` items of ``pool`` drawn without repeats; :class:`Reject` if there are not enough."""
    if n > len(pool):
        raise Reject
    return rng.sample(pool, n)


#: The shapes of a trick :func:`steered_trick` builds: everyone follows; one card or more of
#: another plain suit (no trump); one trump played by a player void in the suit led; two trumps
#: or more so played (three players or more); trump led and trumped again.
TRICK_SHAPES = ("follow", "discard", "one-trump", "trumps", "trump-led")


def steered_trick(rng: random.Random, players: int, trump: Suit, shape: str, win_at: int) -> list[Card]:
    """A complete trick of ``players`` cards of ``shape`` (:data:`TRICK_SHAPES`) whose winning
    card is the ``win_at``-th played (0: the card led), drawn from ``rng``; :class:`Reject` when
    the shape cannot put the winner there (a trump played to a plain suit never is the card
    led). The winner is the engine's (:func:`tutor.engine.tricks.trick_winner`)."""
    from ..engine.tricks import trick_winner

    if shape in ("one-trump", "trumps") and win_at == 0:
        raise Reject
    led = trump if shape == "trump-led" else rng.choice([s for s in SUITS if s != trump])
    n_trumps = {"one-trump": 1, "trumps": rng.randint(2, max(2, players - 1)), "trump-led": rng.randint(1, players - 1)
                }.get(shape, 0)
    n_off = rng.randint(1, players - 1) if shape == "discard" else 0
    if shape == "trumps" and n_trumps > players - 1:
        raise Reject
    first = rng.choice(suit_cards(led))
    used = {first}
    others = pick(rng, suit_cards(trump, used), n_trumps) if shape != "trump-led" else []
    used |= set(others)
    if shape == "trump-led":
        others = pick(rng, suit_cards(trump, used), n_trumps)
        used |= set(others)
        rest_pool = [c for c in CARDS if c.suit != trump and c not in used]
    else:
        off = pick(rng, [c for c in CARDS if c.suit not in (led, trump) and c not in used], n_off)
        others += off
        used |= set(off)
        rest_pool = suit_cards(led, used)
    others += pick(rng, rest_pool, players - 1 - len(others))
    trick = [first, *others]
    if win_at == 0:  # the card led must win: lead the best of them
        best = trick_winner(trick, trump, 0, players)[1]
        if best.suit != led:
            raise Reject
        trick.remove(best)
        trick = [best, *trick]
    else:
        if trick_winner(trick, trump, 0, players)[0] == 0:  # the card led would win: lead another
            lead_pool = [c for c in trick[1:] if c.suit == led]
            if not lead_pool:
                raise Reject
            new_first = rng.choice(lead_pool)
            trick.remove(new_first)
            trick = [new_first, *trick]
        rest = trick[1:]
        rng.shuffle(rest)
        trick = [trick[0], *rest]
        i = trick_winner(trick, trump, 0, players)[0]
        if i == 0:
            raise Reject
        trick[i], trick[win_at] = trick[win_at], trick[i]
    return trick


def turn_ups(rng: random.Random, runs: int, repeats: int) -> list[Card]:
    """First turn-up, then for a run: ``repeats`` cards of the refused suit then a new suit (C13-C14)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    first = deck.pop()
    out = [first]
    if runs:
        for _ in range(repeats):
            c = next(c for c in deck if c.suit == first.suit)
            deck.remove(c)
            out.append(c)
        out.append(next(c for c in deck if c.suit != first.suit))
    return out


def make_trump(ruleset: str, rng: random.Random, d: int, scores: bool, players: int | None = None) -> dict[str, Any]:
    """A make-trump scenario: 1: the eldest stands; 2: begs and the dealer gives one; 3: begs and
    the dealer runs the pack (sometimes gives). With ``scores``, both sides near the target.
    ``players``: the table (by default the ruleset's first count at 1, any at 2 and 3)."""
    r = get_ruleset(ruleset)
    players_choice = list(r.players)
    if players is None:
        players = players_choice[0] if d == 1 else rng.choice(players_choice)
    dealer = rng.randrange(players)
    decision, choice = ("stand", None) if d == 1 else ("beg", "give" if d == 2 else "run")
    if d == 3 and rng.random() < 0.25:
        choice = "give"
    max_repeats = 1 if players >= 3 else 3
    ups = turn_ups(rng, 1 if choice == "run" else 0, rng.randint(0, max_repeats) if choice == "run" else 0)
    sc: dict[str, Any] = {"ruleset": ruleset, "ask": "make-trump"}
    if players != r.default_players:
        sc["players"] = players
    sc.update({"dealer": dealer, "turn_ups": [str(c) for c in ups], "decision": decision})
    if choice:
        sc["dealer_choice"] = choice
    if scores:
        target = r.default_target
        sides = r.sides(players)
        sc["scores"] = [rng.randint(max(0, target - 4), target - 1) for _ in range(sides)]
    return sc


def _play_hand(ruleset: str, rng: random.Random, players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A hand-score scenario: 6 cards each, random trump, random legal play (the engine's rules
    object answers which cards are legal and who wins each trick)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [mask_of(deck[i * 6:(i + 1) * 6]) for i in range(players)]
    trump = rng.choice(SUITS)
    dealer = rng.randrange(players)
    base: dict[str, Any] = {"ruleset": ruleset}
    if players != players_of({"ruleset": ruleset}):
        base["players"] = players
    if options:
        base["options"] = options
    rules = get_ruleset(ruleset).rules({**(options or {}), "players": players})
    leader = (dealer + 1) % players
    tricks = []
    for _ in range(6):
        trick: list[Card] = []
        for i in range(players):
            seat = (leader + i) % players
            card = rng.choice(cards_of(rules.legal_plays(hands[seat], trick, trump)))
            hands[seat] &= ~card.mask
            trick.append(card)
        leader = rules.winner_seat(trick, trump, leader)
        tricks.append([str(c) for c in trick])
    return base | {"ask": "hand-score", "dealer": dealer, "trump": trump.letter, "tricks": tricks}


def hand_trap(sc: dict[str, Any], ans: dict[str, Any]) -> bool:
    """Whether a played hand holds a trap: hang jack, one trump in play, a Game tie, or High, Low
    and Jack split between sides."""
    cats = [a["category"] for a in ans["awards"]]
    trumps_in_play = sum(1 for t in sc["tricks"] for c in t if c[-1] == sc["trump"])
    if "hang-jack" in cats or trumps_in_play == 1:
        return True
    if "game" not in cats:  # Game tie (or nobody)
        return True
    high = next((a["side"] for a in ans["awards"] if a["category"] == "high"), None)
    low = next((a["side"] for a in ans["awards"] if a["category"] == "low"), None)
    jack = next((a["side"] for a in ans["awards"] if a["category"] in ("jack", "hang-jack")), None)
    return high is not None and low is not None and high != low and jack is not None and jack != high


def whole_hand(ruleset: str, rng: random.Random, d: int, players: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """An All Fours / Trinidad hand played out, with the engine's answer: 1: two players; 2: more
    players; 3: a hand with a trap (:func:`hand_trap`), sometimes under a scoring option.
    ``players``: the table, instead of the difficulty's."""
    r = get_ruleset(ruleset)
    if players is not None:
        pass
    elif len(r.players) > 2:
        players = 2 if d == 1 else rng.choice([3, 4]) if d == 2 else rng.choice([2, 3, 4])
    else:
        players = 2 if d == 1 else 4
    options = None
    if d == 3 and len(r.players) > 2 and rng.random() < 0.25:
        options = {"low": "captured"} if rng.random() < 0.5 else {"game_tie": "nobody"}
    sc = _play_hand(ruleset, rng, players, options)
    ans = solve(sc)
    if d == 3 and not hand_trap(sc, ans):
        raise Reject
    if d < 3 and not ans["awards"]:
        raise Reject
    return sc, ans


def hokm_round(rng: random.Random, d: int) -> dict[str, Any]:
    """A Hokm round-playout scenario played to 7 tricks by a simple policy (the hakem's team plays
    its best card, more often at lower difficulty; the others play at random)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
    hakem = rng.randrange(4)
    counts_by_suit = [sum(c.suit == s for c in hands[hakem][:5]) for s in SUITS]
    trump = SUITS[counts_by_suit.index(max(counts_by_suit))]
    leader, tricks, counts = hakem, [], [0, 0]
    smart = 0.9 if d == 1 else 0.6 if d == 2 else 0.3
    rules = get_ruleset("hokm").rules()  # the engine itself: the legal-plays and trick-winner asks answer from it
    masks = [mask_of(h) for h in hands]
    while max(counts) < 7:
        trick: list[Card] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = cards_of(rules.legal_plays(masks[seat], trick, trump))
            if seat % 2 == hakem % 2 and rng.random() < smart:
                card = max(legal, key=lambda c: (c.suit == trump, c.rank))
            else:
                card = rng.choice(legal)
            masks[seat] &= ~card.mask
            trick.append(card)
        leader = rules.trick_winner(trick, trump, leader)[0]
        counts[leader % 2] += 1
        tricks.append([str(c) for c in trick])
    return {"ruleset": "hokm", "ask": "round-playout", "hakem": hakem, "trump": trump.letter, "tricks": tricks}


def hand_players(ruleset: str, d: int, sides_needed: int, rng: random.Random) -> int:
    """The table of a whole hand at difficulty ``d``: two players at 1; at 2 any larger table,
    at 3 the largest (three players where a third side is needed, ``sides_needed``)."""
    r = get_ruleset(ruleset)
    if d == 1:
        return 2
    more = [p for p in r.players if p > 2 and r.sides(p) >= sides_needed]
    if not more:
        raise Reject
    return rng.choice(more) if d == 2 else max(more)


def aimed_hand(ruleset: str, rng: random.Random, d: int, want: str | None,
               classify: Callable[[dict[str, Any], dict[str, Any]], str],
               sides_needed: int = 2, hand_d: int | None = None,
               keep: Callable[[dict[str, Any], dict[str, Any]], bool] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A whole hand (:func:`whole_hand` at ``d``, on the table of :func:`hand_players`) with the
    engine's answer, whose ``classify(scenario, answer)`` is ``want``: the same play is tried with
    the deal passed on by each seat in turn (every card then played by the next seat: the same
    hand seen from another side), and :class:`Reject` if none fits. ``hand_d``: the difficulty
    of the hand played (its trap), if not ``d``; ``keep(scenario, answer)``: whether the hand
    fits at all (its level), asked first."""
    sc, ans = whole_hand(ruleset, rng, d if hand_d is None else hand_d, players=hand_players(ruleset, d, sides_needed, rng))
    if keep is not None and not keep(sc, ans):  # before turning the table: seen from any seat it is the same hand
        raise Reject
    if want is None:
        return sc, ans
    n = players_of(sc)
    shifts = list(range(n))
    rng.shuffle(shifts)
    for k in shifts:
        turned = sc if k == 0 else {**sc, "dealer": (sc["dealer"] + k) % n}
        answer = ans if k == 0 else solve(turned)
        if classify(turned, answer) == want:
            return turned, answer
    raise Reject

