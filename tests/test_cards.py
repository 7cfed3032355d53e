"""Cards as ints 0..51, suits, notation, bit sets (tutor.engine.cards)."""

import copy
import pickle
import random

import pytest

from tutor.engine.cards import (
    CARDS,
    FULL_DECK,
    SUIT_MASK,
    Card,
    Suit,
    cards_of,
    count,
    format_cards,
    highest,
    iter_cards,
    lowest,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    read_typed_card,
    shuffled_deck,
)
from tutor.engine.errors import DuplicateCardError, NotationError


def test_index_layout():
    assert int(Card.parse("2S")) == 0
    assert int(Card.parse("AS")) == 12
    assert int(Card.parse("2H")) == 13
    assert int(Card.parse("10D")) == 34
    assert int(Card.parse("AC")) == 51
    assert Card.of(11, Suit.H) == Card.parse("JH")
    assert (Card.parse("QD").suit, Card.parse("QD").rank, Card.parse("QD").rank_name) == (Suit.D, 12, "Q")
    assert Card.parse("3C").mask == 1 << 40


@pytest.mark.parametrize(("text", "canonical"), [
    ("AS", "AS"), ("10h", "10H"), ("T♥", "10H"), ("q♣", "QC"), (" 2d ", "2D"), ("k♠", "KS"), ("Jc", "JC"),
    ("10♦", "10D"), ("a♤", "AS"),
])
def test_parse_notation(text, canonical):
    assert str(Card.parse(text)) == canonical
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["", "A", "1S", "11H", "AX", "10", "ZZ", "AXX", "S", "♥"])
def test_parse_rejects(bad):
    with pytest.raises(NotationError) as e:
        Card.parse(bad)
    assert e.value.code == "bad-card"


def test_parse_rejects_non_strings():
    for bad in (None, 12, ["AS"], 1.5):
        with pytest.raises(NotationError):
            Card.parse(bad)


def test_suits():
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [parse_suit(x) for x in ("s", "♥", "D", "♣")] == [Suit.S, Suit.H, Suit.D, Suit.C]
    assert Suit.H.is_red and Suit.D.is_red and not Suit.C.is_red
    assert str(Suit.C) == "C"
    for bad in ("X", "", 1, None, "SH"):
        with pytest.raises(NotationError):
            Suit.parse(bad)


def test_card_identity_and_copies():
    c = Card.parse("KH")
    assert Card(int(c)) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.copy(c) is c and copy.deepcopy(c) is c
    assert repr(c) == "Card.parse('KH')"
    with pytest.raises(ValueError):
        Card(52)
    with pytest.raises(ValueError):
        Card(True)
    with pytest.raises(ValueError):
        Card.of(1, Suit.S)


def test_parse_cards_keeps_order_and_rejects_duplicates():
    assert format_cards(parse_cards(["10h", "AS", "2c"])) == ["10H", "AS", "2C"]
    with pytest.raises(DuplicateCardError) as e:
        parse_cards(["AS", "as"])
    assert e.value.code == "duplicate-card"
    with pytest.raises(NotationError):
        parse_cards("AS")


def test_bit_sets():
    hand = mask_of(parse_cards(["3C", "AH", "KC", "2S"]))
    assert format_cards(cards_of(hand)) == ["2S", "AH", "3C", "KC"]
    assert list(iter_cards(hand)) == cards_of(hand)
    assert count(hand) == 4
    assert str(highest(hand & SUIT_MASK[Suit.C])) == "KC"
    assert str(lowest(hand & SUIT_MASK[Suit.C])) == "3C"
    assert all(count(SUIT_MASK[s]) == 13 for s in Suit)
    assert SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2] | SUIT_MASK[3] == FULL_DECK
    assert count(FULL_DECK) == 52 and cards_of(FULL_DECK) == list(CARDS)


def test_shuffled_deck_is_seeded_permutation():
    a, b = shuffled_deck(7), shuffled_deck(random.Random(7))
    assert a == b and sorted(a) == list(CARDS)
    assert shuffled_deck(8) != a


@pytest.mark.parametrize(("typed", "canonical"), [
    ("۱۰H", "10H"), ("١٠♥", "10H"), ("۷♣", "7C"), ("♥10", "10H"), ("♠a", "AS"), ("♣ ۷", "7C"),
    ("10\u200bH", "10H"), ("\u200fK\u200c♦\u200e", "KD"), ("♥️10", "10H"), ("\ufeffQS", "QS"), ("10h", "10H"),
])
def test_read_typed_card_is_lenient_where_learners_type(typed, canonical):
    assert str(read_typed_card(typed)) == canonical


@pytest.mark.parametrize("bad", ["۱۱H", "♥", "H10", "10", "♥♥10", None, ["AS"]])
def test_read_typed_card_still_rejects_what_is_not_a_card(bad):
    with pytest.raises(NotationError) as e:
        read_typed_card(bad)
    assert e.value.code == "bad-card"
    if isinstance(bad, str):
        assert repr(bad)[1:-1] in e.value.message or bad in e.value.message


@pytest.mark.parametrize("typed", ["۱۰H", "♥10", "10\u200bH"])
def test_scenario_notation_stays_strict(typed):
    with pytest.raises(NotationError):
        Card.parse(typed)
