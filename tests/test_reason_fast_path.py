"""The fast reason paths give the very reasons the plain code gave (issue 7).

The engine builds reasons on its hot paths with shared instances (``lead-any``, ``void-any-card``),
params made on first read (``lazy_reason``) and card texts from tables. The reference here is the
engine's reason code as it was before (commit c1581fb: ``follow_reason``, ``winner_reason``,
``AllFoursFamily.legal_reason``, and the ``Reason`` dataclass with ``__post_init__``), kept
verbatim in spirit: Enum suit letters, ``sorted`` card lists, one dict per reason. Over thousands
of random hands (hypothesis, and every decision point of random games) each new reason must equal
the old one field by field, with the same params in the same key order and value types.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.bench import calls as bench_calls
from tutor.bench import rates
from tutor.engine.allfours import AllFoursFamily
from tutor.engine.allfours_classic import AllFours
from tutor.engine.cards import CARDS, SUIT_LETTERS, SUIT_MASK, Suit, format_cards, iter_cards
from tutor.engine.hokm import Hokm
from tutor.engine.reasons import Reason, lazy_reason, make_reason
from tutor.engine.tricks import follow_reason, winning_index
from tutor.engine.trinidad import Trinidad


@dataclass(frozen=True, slots=True)
class OldReason:
    """``Reason`` before the fast path: the dataclass ``__init__`` and a copying ``__post_init__``."""

    code: str
    rule: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


def old_winner(cards: Sequence[int], trump: int | None, leader: int, players: int, rule: str,
               rank: str = "", ruff: str = "") -> OldReason:
    """The winner's reason; since issue 19 its rule also cites ruffing (``ruff``: a trump took a
    plain suit led) or the rank order (``rank``: two or more cards of the winning suit)."""
    i = winning_index(cards, trump)
    card = CARDS[cards[i]]
    winner = (leader + i) % players
    suit, led = card // 13, cards[0] // 13
    if ruff and suit == trump and led != trump:
        rule = f"{rule},{ruff}"
    elif rank and sum(1 for c in cards if c // 13 == suit) > 1:
        rule = f"{rule},{rank}"
    if trump is not None and card // 13 == trump:
        return OldReason("highest-trump-wins", rule, {"card": str(card), "winner": winner,
                                                       "trump": SUIT_LETTERS[trump]})
    return OldReason("highest-of-suit-led-wins", rule,
                     {"card": str(card), "winner": winner, "led": SUIT_LETTERS[cards[0] // 13]})


def old_follow(card: int | None, hand: int, cards: Sequence[int], trump: int | None) -> OldReason:
    """Hokm's reason (rules H6, H14, H15, H19) as ``tricks.follow_reason`` built it."""
    if card is not None and not hand >> card & 1:
        return OldReason("card-not-in-hand", "H14", {"card": str(CARDS[card])})
    if not cards:
        return OldReason("lead-any", "H6", {})
    led = cards[0] // 13
    held = hand & SUIT_MASK[led]
    if not held:
        return OldReason("void-any-card", "H15", {"led": Suit(led).letter})
    if card is not None and card // 13 == led:
        return OldReason("follows-suit", "H19" if led == trump else "H14",
                         {"card": str(CARDS[card]), "led": Suit(led).letter})
    held_cards = format_cards(sorted(iter_cards(held), reverse=True))
    if led == trump:
        return OldReason("trump-led-must-trump", "H19", {"trump": Suit(led).letter, "cards": held_cards})
    return OldReason("must-follow-suit", "H14", {"led": Suit(led).letter, "cards": held_cards})


def old_desc(mask: int) -> list[str]:
    out = []
    for suit_bits in (mask & SUIT_MASK[0], mask & SUIT_MASK[1], mask & SUIT_MASK[2], mask & SUIT_MASK[3]):
        m = suit_bits
        while m:
            top = m.bit_length() - 1
            out.append(top)
            m ^= 1 << top
    return format_cards(out)


def old_legal_reason(rules: AllFoursFamily, hand: int, trick: Sequence[int], trump: int) -> OldReason:
    R = rules.RULE
    if not trick:
        return OldReason("lead-any", R["lead"], {})
    mask = rules.legal_plays(hand, trick, trump)
    led = trick[0] // 13
    trumps = hand & SUIT_MASK[trump]
    ls, ts = SUIT_LETTERS[led], SUIT_LETTERS[trump]
    if led == trump:
        if trumps:
            return OldReason("trump-led-must-trump", R["trump_led"], {"trump": ts, "cards": old_desc(trumps)})
        return OldReason("trump-led-no-trump", R["trump_led"], {"trump": ts})
    follow = hand & SUIT_MASK[led]
    if follow:
        under = trumps & ~mask
        if under:
            top = max(c for c in trick if c // 13 == trump)
            return OldReason("no-undertrump", "K22", {"card": str(CARDS[top]), "led": ls, "cards": old_desc(under)})
        return OldReason("follow-or-trump", R["follow"], {"led": ls, "trump": ts, "cards": old_desc(follow)})
    if rules.strict_void and trumps:
        return OldReason("void-must-trump", R["void_strict"], {"led": ls, "cards": old_desc(trumps)})
    return OldReason("void-any-card", R["void"], {"led": ls})


def same(new: Reason, old: OldReason) -> None:
    """Field by field, params with the same keys in the same order, the same value types; and
    equal as ``Reason`` objects, with the same repr and JSON."""
    assert type(new) is Reason
    assert (new.code, new.rule) == (old.code, old.rule)
    assert isinstance(new.params, MappingProxyType)
    assert list(new.params.items()) == list(old.params.items())
    assert [type(v) for v in new.params.values()] == [type(v) for v in old.params.values()]
    assert new == Reason(old.code, old.rule, old.params)
    assert repr(new) == repr(old).replace("OldReason(", "Reason(", 1)
    assert new.to_json() == {"code": old.code, "rule": old.rule, "params": dict(old.params)}


RULESETS = {
    "all-fours": AllFours(),
    "all-fours must-trump": AllFours(void_rule="must_trump", players=3),
    "trinidad": Trinidad(),
    "trinidad no-undertrump": Trinidad(no_undertrump=True),
    "trinidad strict no-undertrump": Trinidad(no_undertrump=True, void_rule="must_trump", players=2),
}


@st.composite
def positions(draw, max_hand: int = 13, max_trick: int = 3):
    """A hand (bit set), the trick's cards so far (disjoint from it), trump, and a card or None."""
    deck = draw(st.permutations(range(52)))
    n_hand = draw(st.integers(1, max_hand))
    n_trick = draw(st.integers(0, max_trick))
    hand = sum(1 << c for c in deck[:n_hand])
    as_cards = draw(st.booleans())  # the app passes Card and Suit objects; the bench plain ints
    trick = [CARDS[c] if as_cards else c for c in deck[n_hand:n_hand + n_trick]]
    trump = draw(st.integers(0, 3))
    card = draw(st.one_of(st.none(), st.integers(0, 51)))
    if as_cards and card is not None:
        card = CARDS[card]
    return hand, trick, Suit(trump) if as_cards else trump, card


@settings(max_examples=1000, deadline=None)
@given(positions())
def test_hokm_reasons_equal_the_old_ones(pos):
    hand, trick, trump, card = pos
    mask, why = Hokm().legal(hand, trick, trump)
    assert mask == Hokm().legal_plays(hand, trick, trump)
    same(why, old_follow(None, hand, trick, trump))
    same(Hokm().why(None, hand, trick, trump), old_follow(None, hand, trick, trump))
    same(Hokm().why(card, hand, trick, trump), old_follow(card, hand, trick, trump))
    same(follow_reason(card, hand, trick, trump), old_follow(card, hand, trick, trump))


@settings(max_examples=1000, deadline=None)
@given(positions(max_trick=3), st.sampled_from(sorted(RULESETS)))
def test_all_fours_reasons_equal_the_old_ones(pos, name):
    rules = RULESETS[name]
    hand, trick, trump, _ = pos
    trick = trick[:rules.players - 1]
    mask, why = rules.legal(hand, trick, trump)
    assert mask == rules.legal_plays(hand, trick, trump)
    same(why, old_legal_reason(rules, hand, trick, trump))
    same(rules.legal_reason(hand, trick, trump), old_legal_reason(rules, hand, trick, trump))


@settings(max_examples=1000, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 3), st.integers(0, 3), st.sampled_from([2, 3, 4]),
       st.booleans())
def test_trick_winner_reasons_equal_the_old_ones(deck, trump, leader, players, as_cards):
    cards = [CARDS[c] if as_cards else c for c in deck[:players]]
    trump = Suit(trump) if as_cards else trump
    leader %= players
    if players == 4:
        seat, card, why = Hokm().trick_winner(cards, trump, leader)
        same(why, old_winner(cards, trump, leader, 4, "H16", "H3", "H18"))
        assert (seat, card) == ((leader + winning_index(cards, trump)) % 4, CARDS[cards[winning_index(cards, trump)]])
    for rules in (AllFours(players=players) if players < 4 else AllFours(players=4),
                  Trinidad(players=2) if players == 2 else Trinidad()):
        if rules.players != players:
            continue
        seat, card, why = rules.trick_winner(cards, trump, leader)
        assert seat == rules.winner_seat(cards, trump, leader)
        same(why, old_winner(cards, trump, leader, players, rules.RULE["winner"], rules.RULE["rank"]))


def test_every_decision_of_random_games_gives_the_old_reason():
    """Thousands of decision points and tricks from random Hokm rounds and All Fours / Trinidad
    games (what ``tutor bench`` times), through the calls the app makes."""
    rng = random.Random(7)
    decisions, tricks = rates._hokm_positions(rng, 200)
    assert len(decisions) > 5000
    for hand, trick, trump in bench_calls._app_decisions(decisions):
        same(Hokm().legal(hand, trick, trump)[1], old_follow(None, hand, trick, trump))
    for cards, trump in tricks:
        same(Hokm().trick_winner(cards, trump, 1)[2], old_winner(cards, trump, 1, 4, "H16", "H3", "H18"))
    for name, rules in RULESETS.items():
        decisions, full, _ = rates._af_positions(rules, rng, 40)
        assert len(decisions) > 1000, name
        for hand, trick, trump in bench_calls._app_decisions(decisions):
            same(rules.legal(hand, trick, trump)[1], old_legal_reason(rules, hand, trick, trump))
        for cards, trump, leader in bench_calls._app_tricks(full):
            same(rules.trick_winner(cards, trump, leader)[2], old_winner(cards, trump, leader, rules.players,
                                                                           rules.RULE["winner"], rules.RULE["rank"]))


def test_reason_constructors():
    """``Reason(...)`` copies its params and is immutable; ``make_reason`` and ``lazy_reason``
    give equal reasons; a lazy reason's params are made once, on first read."""
    src = {"led": "C", "cards": ["KC", "3C"]}
    r = Reason("must-follow-suit", "H14", src)
    src["led"] = "S"
    assert r.params == {"led": "C", "cards": ["KC", "3C"]}
    assert Reason("lead-any", "H6").params == {} == Reason("lead-any", "H6", None).params
    with pytest.raises(FrozenInstanceError):
        r.code = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.params["led"] = "S"  # type: ignore[index]
    calls = []

    def build(led: str, *cards: str) -> dict[str, object]:
        calls.append(led)
        return {"led": led, "cards": list(cards)}

    lazy = lazy_reason("must-follow-suit", "H14", build, "C", "KC", "3C")
    assert calls == []
    assert lazy == r == make_reason("must-follow-suit", "H14", {"led": "C", "cards": ["KC", "3C"]})
    assert calls == ["C"]
    assert lazy.to_json() == r.to_json() and lazy.text() == r.text() and repr(lazy) == repr(r)
    assert calls == ["C"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        lazy.nothing  # noqa: B018
    with pytest.raises(AttributeError):
        Reason("lead-any", "H6")._build  # noqa: B018
