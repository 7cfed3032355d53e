"""Cards, suits, ranks, seats, sides and scoring words in the current language.

The card and seat words of each language are its registry entry's (``cards``, ``seats``,
``by_seats`` of ``locales/<code>/language.yaml``), because each language orders and inflects them
in its own way; the scoring words are gettext messages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from tutor.engine.cards import Card, Suit
from tutor.engine.reasons import N_

from .catalogues import current_lang, gettext
from .formatting import ListStyle, fmt_number, join_list
from .registry import language

__all__ = [
    "SeatName",
    "anticlockwise",
    "card_label",
    "card_short",
    "cards_label",
    "category_name",
    "phase_name",
    "rank_name",
    "rank_short",
    "result_name",
    "seat_label",
    "seat_names",
    "side_label",
    "suit_in_prose",
    "suit_name",
]


def _rank_number(rank: int | str) -> int:
    if isinstance(rank, int) and not isinstance(rank, bool):
        number = rank
    else:
        number = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}.get(str(rank).strip().upper(), 0)
        if not number and str(rank).strip().isdigit():
            number = int(str(rank).strip())
    if not 2 <= number <= 14:
        raise ValueError(f"not a rank: {rank!r}")
    return number


def rank_name(rank: int | str) -> str:
    """Full rank name: ``"ten"`` for 10 in English, ``"поп"`` for ``"K"`` in Bulgarian."""
    return language(current_lang()).cards.ranks[_rank_number(rank)]


def rank_short(rank: int | str) -> str:
    """Index of a rank on the card face: ``"A"``, ``"10"``; ``"آ"``/``"۱۰"`` in fa, ``"П"`` in bg."""
    number = _rank_number(rank)
    return language(current_lang()).cards.letters.get(number) or fmt_number(number)


def suit_name(letter: str | Suit, plural: bool = False) -> str:
    """Name of a suit (letter ``S H D C`` or symbol): ``"hearts"`` for ``("H", plural=True)`` in English.

    Persian and Telugu suit names do not change in the plural.
    """
    suit = letter if isinstance(letter, Suit) else Suit.parse(letter)
    return language(current_lang()).cards.suit(suit)[1 if plural else 0]


def suit_in_prose(letter: str | Suit) -> str:
    """A suit's name as running prose says it ("hearts were led", Bulgarian "купа"): the
    singular or the plural, as the language's ``cards.suit_plural_in_prose`` says."""
    return suit_name(letter, plural=language(current_lang()).cards.suit_plural_in_prose)


def card_label(card_str: str | Card, prose: bool = False) -> str:
    """The full accessible name of a card: "ten of hearts", "ده دل", "десетка купа", "ఆటీను పది".

    ``prose=True``: the name as it stands in a sentence, with the language's article where it has
    one ("you hold the ten of hearts"; ``cards.in_prose``); the bare name is the card's label
    (aria-label, a list of legal cards, a line of the right answer)."""
    card = Card.parse(card_str)
    grammar = language(current_lang()).cards
    name = grammar.pattern % {"rank": rank_name(card.rank), "suit": suit_name(card.suit, grammar.suit_plural_in_name)}
    return grammar.in_prose % {"card": name} if prose else name


def card_short(card_str: str | Card) -> str:
    """Rank index in the language + suit symbol: ``"10♥"``, ``"آ♠"``/``"۱۰♥"`` in fa, ``"П♣"`` in bg."""
    card = Card.parse(card_str)
    return rank_short(card.rank) + card.suit.symbol


def cards_label(cards: Iterable[str | Card], style: ListStyle = "standard", prose: bool = False) -> str:
    """Full names of several cards joined with the language's list pattern (``prose``: as in
    :func:`card_label`, each name as it stands in a sentence)."""
    return join_list((card_label(c, prose) for c in cards), style)


# --------------------------------------------------------------------------------------------
# Seats and sides

def anticlockwise(ruleset: str | None) -> bool:
    """True where play passes to the right (the ruleset registry's ``anticlockwise``: Hokm and
    Trinidad); False for classic All Fours and an unknown ruleset."""
    from tutor.engine.rulesets import RULESETS

    r = RULESETS.get(ruleset) if ruleset is not None else None
    return r.anticlockwise if r is not None else False


def _position(seat: int, you: int, players: int, ruleset: str | None) -> str:
    """Where ``seat`` sits from ``you``: the key of its words (``you partner right left opponent``)."""
    offset = (seat - you) % players
    if offset == 0:
        return "you"
    if players == 2:
        return "opponent"
    if players == 4 and offset == 2:
        return "partner"
    next_in_play = offset == 1
    on_right = next_in_play if anticlockwise(ruleset) else not next_in_play
    return "right" if on_right else "left"


def seat_label(seat: int, you: int | None, players: int, ruleset: str | None,
               dealer: int | None = None, hakem: int | None = None, by: bool = False) -> str:
    """Name a seat relative to the learner's seat ``you``, in the language's seat words (its
    registry entry's ``seats``; ``by_seats`` with ``by``).

    4 players: "you", "your partner" (opposite), "your right-hand opponent"/"... left-hand ..."; the
    seat after ``you`` in play order is on the right in Hokm and Trinidad (anticlockwise) and on
    the left in classic All Fours (clockwise). 3 players: you, left and right opponent; 2 players:
    "your opponent". ``you=None`` names the seat by number. A seat that is the ``dealer`` or the
    ``hakem`` gets that role added: "your partner (hakem)". Seat numbers shown to a learner count
    from 1 (the engine's seat 0 is "seat 1"). ``by=True``: the seat as the one who did something,
    with its "by" ("by your partner", "от партньора ви"), for "played %(by)s".
    """
    entry = language(current_lang())
    seat = int(seat)
    words = entry.by_seats if by else entry.seats
    if you is None or not players:
        text = words["seat"] % {"n": fmt_number(seat + 1)}  # learners count seats from 1
    else:
        text = words[_position(seat, int(you), int(players), ruleset)]
    if hakem is not None and int(hakem) == seat:
        text = entry.seats["hakem"] % {"who": text}
    if dealer is not None and int(dealer) == seat:
        text = entry.seats["dealer"] % {"who": text}
    return text


class SeatName(NamedTuple):
    """A seat as the table shows it (:func:`seat_names`): ``who`` from the learner ("your
    partner") and ``number`` ("seat 3", counted from 1)."""

    seat: int
    who: str
    number: str


def seat_names(you: int, players: int, ruleset: str | None) -> list[SeatName]:
    """Every seat of a table of ``players`` as it is shown, seat 0 first: the one place seats are
    named and numbered for display, so that the teacher's table editor, the teacher's preview,
    the learner's page and the played deal name the same seat alike (issue 18).

    ``you`` is the learner's seat (the engine's seat numbers, from 0; the domain's
    ``default_you`` for an exercise): it is "you" and sits at the bottom; each seat's ``who`` is
    :func:`seat_label` from ``you`` and its ``number`` is :func:`seat_label` by number ("seat 1" is
    the engine's seat 0)."""
    return [SeatName(s, seat_label(s, you, players, ruleset), seat_label(s, None, players, ruleset))
            for s in range(players)]


def side_label(side: int | None, you: int | None, players: int, ruleset: str | None = None) -> str:
    """Name a scoring side relative to the learner (spec: 4 players -> team ``seat % 2``, else a seat).

    4 players: "your team" / "the other team"; 2 or 3 players: the seat's label ("you", "your
    opponent", ...). ``side=None`` is "nobody"; ``you=None`` names the side by number.
    """
    if side is None:
        return gettext(N_("nobody"))
    side = int(side)
    if players == 4:
        seats = language(current_lang()).seats
        if you is None:
            return seats["team"] % {"n": fmt_number(side + 1)}  # learners count teams from 1
        return seats["your-team"] if side == int(you) % 2 else seats["other-team"]
    return seat_label(side, you, players, ruleset)


# --------------------------------------------------------------------------------------------
# Scoring words

_CATEGORIES = {
    "high": N_("High"), "low": N_("Low"), "jack": N_("Jack"), "hang-jack": N_("Hang jack"),
    "game": N_("Game"),
}
_RESULTS = {"win": N_("win"), "kot": N_("kot"), "hakem-kot": N_("hakem-kot")}
#: Steps of an All Fours deal (engine phase names) as they read in "the game is at the ... step".
_PHASES = {
    "decide": N_("stand-or-beg"), "choose": N_("give-or-run"), "discard": N_("discard"),
    "bunch": N_("bunch"), "vote": N_("bunch-vote"), "play": N_("play"), "over": N_("end-of-hand"),
}


def category_name(category: str) -> str:
    """Name of an All Fours scoring category (``high low jack hang-jack game``); an unknown one as it is."""
    msg = _CATEGORIES.get(category)
    return gettext(msg) if msg else category


def result_name(result: str) -> str:
    """Name of a Hokm round result (``win kot hakem-kot``); an unknown one as it is."""
    msg = _RESULTS.get(result)
    return gettext(msg) if msg else result


def phase_name(phase: str) -> str:
    """Name of an All Fours deal's step (engine phase ``decide choose discard bunch vote play
    over``: "stand-or-beg"); an unknown one as it is."""
    msg = _PHASES.get(phase)
    return gettext(msg) if msg else phase
