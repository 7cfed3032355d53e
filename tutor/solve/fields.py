"""The field kinds of the scenario contract's asks (:mod:`tutor.solve.asks` declares each ask's
fields with them): each kind parses a field's JSON value into the engine's type and gives the
contract's error, code and message, for a bad one (``shared/spec/solve-format.md`` "Asks").

fields in the order they are checked, their types, ranges and defaults (``shared/spec/solve-format.md``
"Asks"; the common fields ``ruleset ask options players target`` are checked first, by
:func:`tutor.solve.common.parse_scenario`).

A field is declared with one of the field kinds below; each kind parses the JSON value into the
engine's type and gives the contract's error — code and message — for a bad one:

=================  ====================================  ==========================================
kind               value after parsing                   error (code: message)
=================  ====================================  ==========================================
:class:`Seat`      ``int`` 0..players-1                  bad-field: "field hakem must be an integer
                                                         from 0 to 3, not 4."
:class:`IntList`   ``list[int]``, fixed length, range    bad-field: "field scores must be a list of
                                                         2 integers from 0 to 999, not …"
:class:`SuitOf`    :class:`~tutor.engine.cards.Suit`     bad-field: "field trump must be a suit
                                                         letter (S, H, D or C), not "Z"."
:class:`CardOf`    :class:`~tutor.engine.cards.Card`     bad-field (not a string), bad-card
:class:`Cards`     ``list[Card]``, distinct, length      bad-field (not a list, length), bad-card,
                                                         duplicate-card
:class:`Tricks`    ``list[list[Card]]``                  bad-field, bad-card, duplicate-card
                                                         (``"AS appears twice (trick 1 and trick 3)."``)
:class:`OneOf`     one of the listed strings             bad-field: "field decision must be "stand"
                                                         or "beg", not …"
=================  ====================================  ==========================================

A missing field, or one that is ``null``, takes its default; without a default it is
``bad-field`` "field hand is required for ask legal-plays.". Bounds that depend on the scenario —
its player count, its number of sides, the largest hand its options allow — are read from the
:class:`Limits` passed as validation context. The JSON Schema of a field
(:meth:`FieldKind.json_schema`) is made from the same declaration, for the loosest and the
tightest :class:`Limits` of a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

from ..engine.cards import CARDS, Card, Suit
from ..engine.errors import TutorError, show

__all__ = ["CARD_SCHEMA", "SUIT_SCHEMA", "Bound", "CardOf", "Cards", "FieldKind", "IntList", "Limits", "OneOf", "Seat",
           "SuitOf", "Tricks", "bound_at", "hand_max", "players", "players_less_one", "sides"]


@dataclass(frozen=True)
class Limits:
    """The bounds a scenario's fields depend on: ``players``, ``sides`` (scoring sides) and
    ``hand_max`` (most cards a hand may hold at the start of play under its options)."""

    players: int
    sides: int
    hand_max: int


#: A bound: a number, or a function of the scenario's :class:`Limits`.
Bound = int | Callable[[Limits], int]


def players(lim: Limits) -> int:
    """The player count."""
    return lim.players


def players_less_one(lim: Limits) -> int:
    """One card less than a full trick."""
    return lim.players - 1


def sides(lim: Limits) -> int:
    """The number of scoring sides."""
    return lim.sides


def hand_max(lim: Limits) -> int:
    """The largest hand at the start of play."""
    return lim.hand_max


def bound_at(bound: Bound, lim: Limits) -> int:
    """The value of ``bound`` (a number, or a function of the limits) for ``lim``."""
    return bound if isinstance(bound, int) else bound(lim)


_at = bound_at


def _fail(code: str, message: str) -> PydanticCustomError:
    return PydanticCustomError(code, message)


_SUIT_CHARS = "SHDCshdc♠♥♦♣♤♡♢♧"
_SUIT_BY_LETTER = {s.letter: s for s in Suit}
#: JSON Schema of the suit and card notation (solve-format "Cards", "Suits").
SUIT_SCHEMA = {"type": "string", "pattern": rf"^\s*[{_SUIT_CHARS}]\s*$",
               "description": "S H D C, any case, or ♠ ♥ ♦ ♣."}
CARD_SCHEMA = {"type": "string", "pattern": rf"^\s*(10|[2-9AKQJTakqjt])[{_SUIT_CHARS}]\s*$",
               "description": "Rank (A K Q J 10 9 … 2, or T) then suit (S H D C or ♠ ♥ ♦ ♣), e.g. \"10H\"; "
                              "answers are canonical."}


def N_(message: str) -> str:
    """Mark a message for extraction (translated where it is shown, never here)."""
    return message


@dataclass(frozen=True)
class FieldKind:
    """Base of the field kinds: Annotated metadata that validates a field with :meth:`parse` (the
    field's name and the scenario's :class:`Limits` at hand) and describes it with
    :meth:`json_schema`. ``label`` names the field for people (a message id, translated where
    shown: the table editor); ``widget`` says how the table editor sets it (``seat``,
    ``side-list``, ``suit``, ``card``, ``cards``, ``tricks``, ``choice``)."""

    widget: ClassVar[str] = ""
    label: str = field(default="", kw_only=True)

    def parse(self, value: object, name: str, lim: Limits) -> object:
        """The parsed value; raises ``PydanticCustomError(code, message)``."""
        raise NotImplementedError

    def missing(self, name: str, ask: str) -> str:
        """The message for a required field that is missing or ``null``."""
        return f"field {name} is required for ask {ask}."

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        """The JSON Schema of the field's value, for limits between ``lo`` and ``hi``."""
        raise NotImplementedError

    def _validate(self, value: object, info: core_schema.ValidationInfo) -> object:
        lim = info.context
        assert isinstance(lim, Limits), "validate ask models with Limits as context"
        try:
            return self.parse(value, info.field_name or "?", lim)
        except TutorError as e:  # notation errors of the card parser keep their code and message
            raise _fail(e.code, e.message) from None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.with_info_plain_validator_function(self._validate)

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema,
                                     handler: GetJsonSchemaHandler) -> dict[str, Any]:
        widest = Limits(4, 4, 52)
        return self.json_schema(Limits(2, 2, 1), widest)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class Seat(FieldKind):
    """A seat ``0 … players-1`` (solve-format "Seats")."""

    widget: ClassVar[str] = "seat"

    def parse(self, value: object, name: str, lim: Limits) -> int:
        if (type(value) is not int and not _is_int(value)) or not 0 <= value < lim.players:  # type: ignore[operator]
            raise _fail("bad-field", f"field {name} must be an integer from 0 to {lim.players - 1}, not {show(value)}.")
        return value  # type: ignore[return-value]

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return {"type": "integer", "minimum": 0, "maximum": hi.players - 1}


@dataclass(frozen=True)
class IntList(FieldKind):
    """A list of exactly ``length`` integers, each ``minimum..maximum``."""

    widget: ClassVar[str] = "side-list"

    length: Bound
    minimum: int
    maximum: int

    def parse(self, value: object, name: str, lim: Limits) -> list[int]:
        n = _at(self.length, lim)
        if (not isinstance(value, list) or len(value) != n
                or not all(_is_int(x) and self.minimum <= x <= self.maximum for x in value)):
            raise _fail("bad-field", f"field {name} must be a list of {n} integers from {self.minimum} to "
                                     f"{self.maximum}, not {show(value)}.")
        return list(value)

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "integer", "minimum": self.minimum, "maximum": self.maximum},
                "minItems": _at(self.length, lo), "maxItems": _at(self.length, hi)}


@dataclass(frozen=True)
class SuitOf(FieldKind):
    """A suit: ``S H D C``, any case, or ``♠ ♥ ♦ ♣`` (solve-format "Suits"). Anything else is
    ``bad-field`` (issue 7: a malformed field value, not card notation)."""

    widget: ClassVar[str] = "suit"

    def parse(self, value: object, name: str, lim: Limits) -> Suit:
        suit = _SUIT_BY_LETTER.get(value) if type(value) is str else None  # "S", "H", "D", "C": one look-up
        if suit is not None:
            return suit
        try:
            return Suit.parse(value)
        except TutorError:
            raise _fail("bad-field", f"field {name} must be a suit letter (S, H, D or C), not {show(value)}.") from None

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return dict(SUIT_SCHEMA)


@dataclass(frozen=True)
class CardOf(FieldKind):
    """One card (solve-format "Cards"); a string that is not a card is ``bad-card``."""

    widget: ClassVar[str] = "card"

    def parse(self, value: object, name: str, lim: Limits) -> Card:
        if not isinstance(value, str):
            raise _fail("bad-field", f"field {name} must be a card such as \"10H\", not {show(value)}.")
        return Card.parse(value)

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return dict(CARD_SCHEMA)


def _card_list(value: object, what: str | int, min_len: int, max_len: int) -> list[Card]:
    """Distinct cards, ``min_len..max_len`` of them (``what`` names the list in messages: a name
    is field ``name``, a number ``n`` trick ``n``; formatted only for a message)."""
    if not isinstance(value, list):
        raise _fail("bad-field", f"{_what(what)} must be a list of cards, not {show(value)}.")
    if not min_len <= len(value) <= max_len:
        n = f"{min_len}" if min_len == max_len else f"{min_len} to {max_len}"
        raise _fail("bad-field", f"{_what(what)} must have {n} cards, not {len(value)}.")
    try:  # every card spelt canonically, none twice: one look-up each
        out = list(map(_CARD_BY_NAME.__getitem__, value))
    except (KeyError, TypeError):
        pass
    else:
        if len(set(out)) == len(out):
            return out
    out = []
    seen = 0
    by_name = _CARD_BY_NAME
    for item in value:
        c = by_name.get(item) if type(item) is str else None  # the canonical spelling: one look-up
        if c is None:
            c = Card.parse(item)
        if seen >> c & 1:
            raise _fail("duplicate-card", f"{c} appears twice in {_what(what)}.")
        seen |= 1 << c
        out.append(c)
    return out


def _what(what: str | int) -> str:
    return f"field {what}" if isinstance(what, str) else f"trick {what}"


#: Each card by its canonical name (what :meth:`Card.parse` looks up first).
_CARD_BY_NAME: dict[str, Card] = {str(c): c for c in CARDS}


def _cards_schema(min_items: int, max_items: int) -> dict[str, Any]:
    return {"type": "array", "items": dict(CARD_SCHEMA), "minItems": min_items, "maxItems": max_items,
            "uniqueItems": True}


@dataclass(frozen=True)
class Cards(FieldKind):
    """A list of ``minimum..maximum`` distinct cards, in the order given. ``unordered``: the order
    carries no meaning (a hand), so two lists of the same cards are the same scenario
    (:func:`tutor.solve.fingerprint.fingerprint`)."""

    widget: ClassVar[str] = "cards"

    minimum: Bound = 0
    maximum: Bound = 52
    unordered: bool = field(default=False, kw_only=True)

    def parse(self, value: object, name: str, lim: Limits) -> list[Card]:
        lo, hi = self.minimum, self.maximum
        return _card_list(value, name, lo if type(lo) is int else lo(lim),  # type: ignore[operator]
                          hi if type(hi) is int else hi(lim))  # type: ignore[operator]

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return _cards_schema(_at(self.minimum, lo), _at(self.maximum, hi))


@dataclass(frozen=True)
class Tricks(FieldKind):
    """At most ``max_count`` tricks, each exactly ``players`` cards in play order; no card twice
    in the whole list (``duplicate-card`` names both tricks). ``whole_hand``: the list is every
    trick of a hand, so its length must be a hand size of the rules (checked by the ask's
    handler: ``impossible-state``; the table editor checks it first)."""

    widget: ClassVar[str] = "tricks"

    max_count: int
    whole_hand: bool = field(default=False, kw_only=True)

    def parse(self, value: object, name: str, lim: Limits) -> list[list[Card]]:
        if not isinstance(value, list) or len(value) > self.max_count:
            raise _fail("bad-field", f"field {name} must be a list of at most {self.max_count} tricks, "
                                     f"not {show(value)}.")
        out = []
        seen: dict[int, int] = {}
        for n, t in enumerate(value, 1):
            trick = _card_list(t, n, lim.players, lim.players)
            for c in trick:
                if c in seen:
                    where = f"trick {seen[c]}" + ("" if seen[c] == n else f" and trick {n}")
                    raise _fail("duplicate-card", f"{c} appears twice ({where}).")
                seen[c] = n
            out.append(trick)
        return out

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        trick = _cards_schema(lo.players, hi.players)
        return {"type": "array", "items": trick, "maxItems": self.max_count}


@dataclass(frozen=True)
class OneOf(FieldKind):
    """One of ``values`` (strings). A required one that is missing is reported like a wrong value
    (``… not null``)."""

    widget: ClassVar[str] = "choice"

    values: tuple[str, ...]
    #: How each of ``values`` reads for people (message ids, in the same order).
    value_labels: tuple[str, ...] = field(default=(), kw_only=True)

    def _message(self, name: str, value: object) -> str:
        allowed = " or ".join(show(v) for v in self.values)
        return f"field {name} must be {allowed}, not {show(value)}."

    def parse(self, value: object, name: str, lim: Limits) -> str:
        if not isinstance(value, str) or value not in self.values:
            raise _fail("bad-field", self._message(name, value))
        return value

    def missing(self, name: str, ask: str) -> str:
        return self._message(name, None)

    def json_schema(self, lo: Limits, hi: Limits) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}
