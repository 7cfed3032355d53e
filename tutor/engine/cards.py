"""Cards, suits and card sets (bit sets) for every ruleset.

Representation (like python-chess keeps squares as ints and positions as bit sets):

* a :class:`Card` is an ``int`` from 0 to 51: ``suit * 13 + (rank - 2)``;
* a set of cards (a hand, a trick's cards, a pile of won cards) is an ``int`` bit set in which
  bit ``card`` is set for each card held. ``SUIT_MASK[suit]`` selects one suit, so "does the hand
  hold the suit led?" is ``hand & SUIT_MASK[led]``.

Notation follows ``shared/spec/solve-format.md``: rank ``A K Q J 10 9 8 7 6 5 4 3 2`` then suit
``S H D C`` (``"AS"``, ``"10H"``). Input also accepts ``T`` for ten, lower case and the symbols
♠ ♥ ♦ ♣. Output is always canonical. Ranks run A (high) down to 2 in every suit in all three
games (RULES.md C3, T1, H3).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from enum import IntEnum

from .errors import DuplicateCardError, NotationError, show

__all__ = [
    "ACE",
    "CARDS",
    "CARD_NAMES",
    "FULL_DECK",
    "JACK",
    "KING",
    "QUEEN",
    "RANK_NAMES",
    "SUIT_LETTERS",
    "SUIT_MASK",
    "Card",
    "Suit",
    "cards_of",
    "count",
    "format_cards",
    "highest",
    "lowest",
    "mask_of",
    "names_desc",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "read_typed_card",
    "shuffled_deck",
]

JACK, QUEEN, KING, ACE = 11, 12, 13, 14

#: Rank number -> canonical rank text.
RANK_NAMES: dict[int, str] = {r: str(r) for r in range(2, 11)} | {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_RANK_PARSE: dict[str, int] = {v: k for k, v in RANK_NAMES.items()} | {"T": 10}


class Suit(IntEnum):
    """One of the four suits. ``int(Suit.S) == 0``; letters ``S H D C``, symbols ``♠ ♥ ♦ ♣``."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        """The canonical letter: ``"S"``, ``"H"``, ``"D"`` or ``"C"``."""
        return self.name

    @property
    def symbol(self) -> str:
        """The suit symbol: ``"♠"``, ``"♥"``, ``"♦"`` or ``"♣"``."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds (a same-colour suit is still a different suit, H14)."""
        return self in (Suit.H, Suit.D)

    @classmethod
    def parse(cls, text: object) -> Suit:
        """Parse ``"S"``/``"s"``/``"♠"`` (etc.) into a :class:`Suit`.

        Raises :class:`NotationError` (code ``bad-card``) for anything else.
        """
        if isinstance(text, str):
            s = _SUIT_PARSE.get(text.strip().upper())
            if s is not None:
                return s
        raise NotationError(f"{show(text)} is not a suit: use S, H, D or C (or ♠ ♥ ♦ ♣).")

    def __str__(self) -> str:
        return self.name


_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SUIT_PARSE: dict[str, Suit] = {s.name: s for s in Suit} | {v: k for k, v in _SYMBOLS.items()} | {
    "♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C,
}


def parse_suit(text: object) -> Suit:
    """Same as :meth:`Suit.parse`."""
    return Suit.parse(text)


class Card(int):
    """An immutable playing card; an ``int`` from 0 to 51 (``suit * 13 + rank - 2``).

    ``Card.parse("10H")`` reads notation; ``str(card)`` gives the canonical form; ``card.suit``,
    ``card.rank`` (2..14, ace 14) and ``card.mask`` (``1 << card``) describe it. The 52 instances
    are shared: ``Card(i) is CARDS[i]``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 52:
            raise ValueError(f"card index must be 0..51, not {index!r}")
        try:
            return CARDS[index]
        except NameError:  # only while CARDS is being built
            return int.__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        """The card of ``rank`` (2..14) in ``suit``."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank must be 2..14, not {rank!r}")
        return CARDS[int(suit) * 13 + rank - 2]

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse card notation (``"AS"``, ``"10h"``, ``"T♥"``, ``"q♣"``).

        Raises :class:`NotationError` (code ``bad-card``) naming the bad text.
        """
        if type(text) is str:  # the canonical spelling (what the app and the spec send): one look-up
            card = _BY_NAME.get(text)
            if card is not None:
                return card
        elif isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise NotationError(f"{show(text)} is not a card: write rank then suit, e.g. \"AS\" or \"10H\".")
        t = text.strip().upper()
        if len(t) >= 2:
            suit = _SUIT_PARSE.get(t[-1])
            rank = _RANK_PARSE.get(t[:-1])
            if suit is not None and rank is not None:
                return CARDS[suit * 13 + rank - 2]
        raise NotationError(f"{show(text)} is not a card: write rank (A K Q J 10 9 … 2) then suit (S H D C), e.g. \"10H\".")

    @property
    def suit(self) -> Suit:
        """The card's :class:`Suit`."""
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """The rank, 2..10, J 11, Q 12, K 13, A 14."""
        return int(self) % 13 + 2

    @property
    def mask(self) -> int:
        """The one-card bit set ``1 << card``."""
        return 1 << int(self)

    @property
    def rank_name(self) -> str:
        """Canonical rank text: ``"A"``, ``"10"``, ``"2"`` ..."""
        return RANK_NAMES[self.rank]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:  # pickle/copy keep the shared instance
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self


_SUIT_OF = tuple(Suit(i // 13) for i in range(52))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
_NAMES = tuple(RANK_NAMES[i % 13 + 2] + "SHDC"[i // 13] for i in range(52))
#: Canonical text of each card index: ``CARD_NAMES[c] == str(CARDS[c])`` (for hot paths).
CARD_NAMES: tuple[str, ...] = _NAMES
_BY_NAME: dict[str, Card] = dict(zip(_NAMES, CARDS, strict=True))

#: Bit set of every card of a suit, indexed by suit (int or :class:`Suit`).
SUIT_MASK: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
#: Suit letters indexed by suit: ``SUIT_LETTERS[s] == Suit(s).letter`` (for hot paths).
SUIT_LETTERS = "SHDC"
#: Bit set of the whole 52-card pack.
FULL_DECK: int = (1 << 52) - 1


def parse_card(text: object) -> Card:
    """Parse one card; see :meth:`Card.parse`. Raises :class:`NotationError`."""
    return Card.parse(text)


#: What a learner's keyboard may add to a typed card: Persian and Arabic-Indic digits become ASCII;
#: zero-width and direction characters, the BOM, the soft hyphen and emoji variation selectors go.
_TYPED = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2,
                       "\u00ad\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                       "\u2060\u2066\u2067\u2068\u2069\ufe0e\ufe0f\ufeff")
_SUIT_SYMBOLS = frozenset(k for k in _SUIT_PARSE if not k.isascii())


def read_typed_card(text: object) -> Card:
    """A card as a learner types it in an answer: everything :meth:`Card.parse` reads, and also
    Persian or Arabic-Indic digits (``"۱۰H"``), the suit symbol first (``"♥10"``, ``"♠a"``) and
    stray invisible characters (zero-width space, non-joiner and joiner, direction marks, BOM, the
    emoji selector of ``"♥️"``). For learners' answers only: scenarios (``tutor solve``, content)
    keep the strict notation of ``solve-format.md``.

    Raises :class:`NotationError` (code ``bad-card``) naming the text as typed.
    """
    if isinstance(text, str):
        t = text.translate(_TYPED).strip()
        if len(t) >= 2 and t[0] in _SUIT_SYMBOLS:
            t = t[1:].strip() + t[0]
        try:
            return Card.parse(t)
        except NotationError:
            pass
    return Card.parse(text)


def parse_cards(items: object, *, what: str = "cards") -> list[Card]:
    """Parse a list of card texts, keeping order.

    Raises :class:`NotationError` (``bad-card``) for a bad card or when ``items`` is not a list,
    :class:`DuplicateCardError` (``duplicate-card``) when a card appears twice.
    """
    if not isinstance(items, list | tuple):
        raise NotationError(f"{what} must be a list of cards, not {show(items)}.")
    out: list[Card] = []
    seen = 0
    for item in items:
        c = Card.parse(item)
        if seen >> c & 1:
            raise DuplicateCardError(f"{c} appears twice in {what}.")
        seen |= 1 << c
        out.append(c)
    return out


def mask_of(cards: Iterable[int]) -> int:
    """Bit set of ``cards`` (duplicates collapse)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of bit set ``mask``, in index order (spades 2..A, hearts, diamonds, clubs)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate the cards of bit set ``mask`` in index order."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def count(mask: int) -> int:
    """Number of cards in bit set ``mask``."""
    return mask.bit_count()


def highest(mask: int) -> Card:
    """Highest-index card of a non-empty bit set; within one suit this is the highest rank."""
    return CARDS[mask.bit_length() - 1]


def lowest(mask: int) -> Card:
    """Lowest-index card of a non-empty bit set; within one suit this is the lowest rank."""
    return CARDS[(mask & -mask).bit_length() - 1]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Canonical texts of ``cards``, keeping order."""
    return [_NAMES[c] for c in cards]


#: :func:`names_desc` of every one-suit bit set met so far (at most 4 x 8192 entries).
_DESC_NAMES: dict[int, tuple[str, ...]] = {}


def names_desc(mask: int) -> list[str]:
    """Canonical texts of the cards of bit set ``mask``, suit by suit (S, H, D, C) and highest rank
    first within a suit: how reasons list the cards a hand holds (``["KC", "3C"]``).

    A new list on every call; the texts of a one-suit set are computed once and kept.
    """
    names = _DESC_NAMES.get(mask)
    if names is None:
        out = []
        for s in range(4):
            m = mask & SUIT_MASK[s]
            while m:
                top = m.bit_length() - 1
                out.append(_NAMES[top])
                m ^= 1 << top
        names = tuple(out)
        if any(not mask & ~m for m in SUIT_MASK):  # one suit (or none): a bounded key space
            _DESC_NAMES[mask] = names
    return list(names)


def shuffled_deck(rng: random.Random | int | None = None) -> list[Card]:
    """The 52 cards in a random order.

    ``rng`` is a :class:`random.Random` or a seed (int): the same seed gives the same order on
    every machine and Python version that keeps ``random.Random``'s Mersenne Twister.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    deck = list(CARDS)
    rng.shuffle(deck)
    return deck
