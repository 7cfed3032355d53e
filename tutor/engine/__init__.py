"""The embedded rule engine: pure Python, no web imports.

Cards are ints 0..51 and sets of cards are int bit sets (:mod:`tutor.engine.cards`); every
verdict carries a :class:`~tutor.engine.reasons.Reason`; errors tell bad syntax apart from an
illegal play (:mod:`tutor.engine.errors`). One ruleset class per game: Hokm
(:mod:`tutor.engine.hokm`), All Fours classic (:mod:`tutor.engine.allfours`) and All Fours as
played in Trinidad (:mod:`tutor.engine.trinidad`), following ``shared/rules/RULES.md``.
"""

from .cards import (
    ACE,
    CARDS,
    FULL_DECK,
    JACK,
    KING,
    QUEEN,
    SUIT_MASK,
    Card,
    Suit,
    cards_of,
    count,
    format_cards,
    highest,
    lowest,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    shuffled_deck,
)
from .errors import (
    BadFieldError,
    BadJsonError,
    DuplicateCardError,
    IllegalPlayError,
    ImpossibleStateError,
    NotationError,
    TutorError,
    UnknownAskError,
    UnknownRulesetError,
)
from .reasons import REASON_TEXTS, Reason

__all__ = [
    "ACE",
    "CARDS",
    "FULL_DECK",
    "JACK",
    "KING",
    "QUEEN",
    "REASON_TEXTS",
    "SUIT_MASK",
    "BadFieldError",
    "BadJsonError",
    "Card",
    "DuplicateCardError",
    "IllegalPlayError",
    "ImpossibleStateError",
    "NotationError",
    "Reason",
    "Suit",
    "TutorError",
    "UnknownAskError",
    "UnknownRulesetError",
    "cards_of",
    "count",
    "format_cards",
    "highest",
    "lowest",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "shuffled_deck",
]
