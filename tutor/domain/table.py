"""The card table of an exercise, as plain data for the templates.

Seats are placed and named relative to the learner (``you`` sits at the bottom): in Hokm and
Trinidad play passes anticlockwise, so the next seat in play order sits on your right; in classic
All Fours it passes clockwise, to your left. Only what a player at the table could see is put
here: the scenario's public fields, never the engine's answer (:func:`engine_solution`, cached,
is for the feedback after an answer and for :func:`walk_seats`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from tutor import i18n
from tutor.content.exercise import Exercise
from tutor.content.kinds import ExerciseKind
from tutor.content.kinds.base import players_of as _players_of
from tutor.content.kinds.walk_through import first_leader
from tutor.engine import Card, Suit
from tutor.engine.rulesets import RULESETS
from tutor.solve import answer as engine_answer

__all__ = [
    "CardView",
    "SeatView",
    "TableView",
    "build_table",
    "card_view",
    "default_you",
    "engine_solution",
    "players_of",
    "side_of",
    "sides_of",
    "walk_seats",
]



@dataclass(frozen=True)
class CardView:
    code: str        # canonical "10H"
    rank: str        # rank index on the face, in the language
    symbol: str      # ♥
    suit: str        # H
    red: bool
    label: str       # "ten of hearts" (aria-label)


@dataclass
class SeatView:
    seat: int
    pos: str                 # bottom / right / top / left
    label: str               # "your partner (hakem)"
    you: bool
    number: str = ""         # "seat 2", so that a seat number in a text can be found at the table
    dealer: bool = False
    hakem: bool = False
    played: CardView | None = None   # this seat's card in the current trick
    order: int | None = None         # position of that card in the trick (1 = led)


@dataclass
class TableView:
    ruleset: str
    players: int
    you: int
    anticlockwise: bool
    seats: list[SeatView]
    trump: dict[str, Any] | None = None
    hand: list[CardView] = field(default_factory=list)
    trick: list[tuple[int, CardView]] = field(default_factory=list)   # (seat, card) in play order
    leader: int | None = None
    facts: list[tuple[str, str]] = field(default_factory=list)       # (label, value) shown beside the table
    scores: list[tuple[str, str]] = field(default_factory=list)      # (side label, score)
    center: list[CardView] = field(default_factory=list)             # turned-up cards
    tricks: list[dict[str, Any]] = field(default_factory=list)                 # whole tricks of a transcript

    def seat(self, pos: str) -> SeatView | None:
        return next((s for s in self.seats if s.pos == pos), None)


def card_view(code: str | Card) -> CardView:
    c = Card.parse(code)
    return CardView(code=str(c), rank=i18n.rank_short(c.rank), symbol=c.suit.symbol, suit=c.suit.letter,
                    red=c.suit.is_red, label=i18n.card_label(c))


def players_of(scenario: dict[str, Any]) -> int:
    """The scenario's player count (2 to 4), else its ruleset's default."""
    players = scenario.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and 2 <= players <= 4:
        return players
    return _players_of({"ruleset": scenario.get("ruleset")})


def _int(value: object, default: int | None = None) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def default_you(kind: ExerciseKind[Any], scenario: dict[str, Any], you: int | None) -> int:
    """The learner's seat: the exercise's ``you``, else the kind's default (legal-cards: the seat
    to play; others: seat 0)."""
    players = players_of(scenario)
    if you is not None:
        return you % players
    return kind.default_you(scenario) % players


def side_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def sides_of(players: int) -> list[int]:
    return [0, 1] if players == 4 else list(range(players))


def _positions(players: int, anticlockwise: bool) -> dict[int, str]:
    """Offset from you (in play order) -> place at the table."""
    if players == 2:
        return {0: "bottom", 1: "top"}
    first, last = ("right", "left") if anticlockwise else ("left", "right")
    if players == 3:
        return {0: "bottom", 1: first, 2: last}
    return {0: "bottom", 1: first, 2: "top", 3: last}


def build_table(kind: ExerciseKind[Any], scenario: dict[str, Any], you: int | None, *,
                trick_seats: list[list[int]] | None = None) -> TableView:
    """The table view of ``scenario`` for the learner at seat ``you``, in the current language.

    ``trick_seats`` (optional) names the seat that played each card of each trick of a transcript
    (hand-score); without it only the first trick's seats are known (walk-through asks for them).
    """
    ruleset = scenario.get("ruleset") or ""
    rules = RULESETS.get(ruleset)
    players = players_of(scenario)
    you = default_you(kind, scenario, you)
    acw = i18n.anticlockwise(ruleset)
    places = _positions(players, acw)
    dealer = _int(scenario.get("dealer"))
    hakem = _int(scenario.get("hakem"))
    names = i18n.seat_names(you, players, ruleset)
    seats = [SeatView(seat=n.seat, pos=places[(n.seat - you) % players], label=n.who, number=n.number,
                      you=n.seat == you, dealer=n.seat == dealer, hakem=n.seat == hakem) for n in names]
    view = TableView(ruleset=ruleset, players=players, you=you, anticlockwise=acw, seats=seats)
    trump = scenario.get("trump")
    if isinstance(trump, str):
        s = Suit.parse(trump)
        view.trump = {"letter": s.letter, "symbol": s.symbol, "name": i18n.suit_name(s, plural=True),
                      "red": s.is_red}
    if isinstance(scenario.get("hand"), list):
        view.hand = [card_view(c) for c in scenario["hand"]]
    trick = scenario.get("trick")
    if isinstance(trick, list) and trick:
        if kind.picks == "hand":  # the learner plays next: the trick was led len(trick) seats before
            leader = (you - len(trick)) % players
        else:
            leader = (_int(scenario.get("leader")) or 0) % players
        view.leader = leader
        for i, c in enumerate(trick):
            seat = (leader + i) % players
            cv = card_view(c)
            view.trick.append((seat, cv))
            seats[seat].played = cv
            seats[seat].order = i + 1
    if kind.table_center(scenario):
        view.center = [card_view(c) for c in kind.table_center(scenario)]
    if isinstance(scenario.get("turn_ups"), list):
        view.center = [card_view(c) for c in scenario["turn_ups"]]
    if isinstance(scenario.get("tricks"), list):
        first = rules.first_leader(scenario) if rules is not None else 0
        for t, cards in enumerate(scenario["tricks"]):
            seats_of = None
            if trick_seats is not None and t < len(trick_seats):
                seats_of = trick_seats[t]
            elif t == 0 and first is not None:
                seats_of = [(first + i) % players for i in range(len(cards))]
            view.tricks.append({
                "n": t + 1,
                "cards": [{"card": card_view(c), "index": i,
                           "seat": seats_of[i] if seats_of else None,
                           "who": names[seats_of[i] % players].who if seats_of else None,
                           "number": names[seats_of[i] % players].number if seats_of else None}
                          for i, c in enumerate(cards)],
            })
    _facts(view, kind, scenario)
    return view


def _facts(view: TableView, kind: ExerciseKind[Any], scenario: dict[str, Any]) -> None:
    _ = i18n.gettext  # the current language (the request's, or an i18n.using block's): also outside Flask

    players, you, ruleset = view.players, view.you, view.ruleset
    num = i18n.fmt_number
    team_tricks = scenario.get("team_tricks")
    if isinstance(team_tricks, list) and len(team_tricks) == 2:
        for side in (0, 1):
            view.facts.append((_("Tricks won by %(side)s", side=i18n.side_label(side, you, 4, ruleset)),
                               num(team_tricks[side])))
    scores = scenario.get("scores")
    if isinstance(scores, list):
        for side, value in enumerate(scores):
            view.scores.append((i18n.side_label(side, you, players, ruleset), num(value)))
    target = scenario.get("target")
    if target is None and isinstance(scenario.get("options"), dict):
        target = scenario["options"].get("target")
    if target is None and ruleset in RULESETS:
        target = RULESETS[ruleset].default_target
    if target is not None and (scores is not None or kind.shows_target()):
        view.facts.append((_("Game to"), num(target)))
    decision = scenario.get("decision")
    if decision in ("stand", "beg"):
        view.facts.append((_("The eldest"), _("stands") if decision == "stand" else _("begs")))
    choice = scenario.get("dealer_choice")
    if choice in ("give", "run"):
        view.facts.append((_("The dealer"), _("gives one") if choice == "give" else _("runs the cards")))


# ---------------------------------------------------------------------------------------------- engine

@functools.lru_cache(maxsize=4096)
def _solve_cached(key: str) -> dict[str, Any]:
    return engine_answer(json.loads(key))


def engine_solution(ex: Exercise) -> dict[str, Any]:
    """The engine's answer to the exercise's scenario (cached; never raises)."""
    return _solve_cached(json.dumps(ex.scenario, sort_keys=True))


def walk_seats(ex: Exercise) -> list[list[int]] | None:
    """Who played each card of each trick (from the engine's trick winners), for hand-score views."""
    tricks = ex.scenario.get("tricks")
    if not isinstance(tricks, list):
        return None
    winners = engine_solution(ex).get("trick_winners")
    if not isinstance(winners, list):
        return None
    players = _players_of(ex.scenario)
    leader = first_leader(ex)
    out = []
    for t, cards in enumerate(tricks):
        out.append([(leader + i) % players for i in range(len(cards))])
        if t < len(winners):
            leader = winners[t]
    return out
