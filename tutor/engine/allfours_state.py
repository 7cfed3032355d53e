"""All Fours values (classic and Trinidad): constants, the classic options, awards and results,
actions, the immutable game state and the deal (cut, shuffle: C5-C7, T5/T6). The rules are in
:mod:`tutor.engine.allfours_rules`, the state machine in :mod:`tutor.engine.allfours`; see there
for shapes and the decisions made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Annotated, Any, Literal, Protocol, get_args

from pydantic import Field

from .cards import (
    ACE,
    CARDS,
    JACK,
    KING,
    QUEEN,
    Card,
    Suit,
    format_cards,
)
from .options import Labels, PlayerCount, options_model
from .reasons import N_, REASON_TEXTS, Reason

__all__ = [
    "GAME_VALUE",
    "HAND_SIZE",
    "RUN_HAND_METHODS",
    "TURNUP_POINTS",
    "Action",
    "AllFoursOptions",
    "Award",
    "GameMachine",
    "GameState",
    "HandScore",
    "Target",
    "TrumpMaking",
    "cut_dealer",
    "deal_deck",
    "deal_order",
    "game_points",
    "tally",
]

#: Cards dealt to each player before any run (C7, T6).
HAND_SIZE = 6
#: Card values for Game (C26, T20): 10 -> 10, A 4, K 3, Q 2, J 1, 2-9 nothing.
GAME_VALUE: dict[int, int] = {10: 10, ACE: 4, KING: 3, QUEEN: 2, JACK: 1}
_RANK_MASK = {r: sum(1 << (s * 13 + r - 2) for s in range(4)) for r in GAME_VALUE}

REASON_TEXTS.update({
    # legal plays (the codes trump-led-must-trump and void-any-card come from tricks.py)
    "follow-or-trump": N_("%(led)s was led and you hold %(cards)s: play a card of that suit or a trump (%(trump)s)."),
    "trump-led-no-trump": N_("Trump (%(trump)s) was led and you hold none, so you may play any card."),
    "void-must-trump": N_("You hold no %(led)s; under the must-trump rule you must play a trump: %(cards)s."),
    "no-undertrump": N_("%(card)s is the highest trump in the trick and you hold %(led)s: "
                        "you may not play a lower trump (%(cards)s)."),
    "not-your-turn": N_("It is seat %(seat)s's turn, not yours."),
    "wrong-phase": N_("That is not possible now: the game is at the %(phase)s step."),
    "discard-down": N_("Discard only cards of your own hand, until you hold six."),
    # turn-up / kick
    "turned-jack": N_("The dealer turned up %(card)s, a jack: the dealer's side scores %(points)s."),
    "turnup-scores": N_("The dealer turned up %(card)s: the dealer's side scores %(points)s."),
    "turnup-no-points": N_("The dealer turned up %(card)s, which scores nothing."),
    "turnup-refused-suit": N_("%(card)s is of the refused suit, so it does not fix trump and scores nothing."),
    # stand / beg / give / run
    "stand": N_("The player after the dealer stands: %(trump)s is trump."),
    "gift": N_("The dealer keeps the suit and gives a point: side %(side)s scores %(points)s."),
    "gift-forbidden": N_("The dealer may not give a point that would put side %(side)s out; he must run."),
    "run": N_("The dealer refuses %(refused)s: that card is set aside, three more cards each, and a new turn-up."),
    "new-trump": N_("%(card)s shows a new suit: %(trump)s is trump."),
    "pack-exhausted": N_("The pack ran out after %(runs)s runs without a new suit: the same dealer deals again; "
                         "points already scored stay."),
    "hand-after-run": N_("Runs made: %(runs)s. Every player starts play with %(size)s cards."),
    "bunch": N_("Every player agreed to the bunch: the same dealer deals again; points already scored stay."),
    # hand-score
    "high-dealt": N_("%(card)s is the highest trump in play; seat %(seat)s held it: side %(side)s scores High."),
    "low-dealt": N_("%(card)s is the lowest trump in play; seat %(seat)s held it: side %(side)s scores Low."),
    "low-captured": N_("%(card)s is the lowest trump in play; seat %(seat)s won the trick with it: "
                       "side %(side)s scores Low."),
    "only-one-trump": N_("%(card)s is the only trump in play, so it is both the highest and the lowest."),
    "no-trump-in-play": N_("Nobody held a trump (%(trump)s) at the start of play: nobody scores High or Low."),
    "jack-won": N_("Seat %(seat)s won the trick with %(card)s: side %(side)s scores Jack."),
    "jack-not-in-play": N_("Nobody held %(card)s at the start of play: nobody scores Jack."),
    "game-most-points": N_("Side %(side)s has the most points for Game (%(totals)s): side %(side)s scores Game."),
    "game-tie-dealer-excluded": N_("Game is tied (%(totals)s); the dealer cannot score it, so side %(side)s, "
                                   "nearest the dealer's left, scores Game."),
    "game-tie-nobody": N_("Game is tied (%(totals)s): nobody scores it."),
    "target-reached": N_("Side %(side)s reaches %(target)s first and wins the game."),
})


_TENS, _ACES, _KINGS, _QUEENS, _JACKS = (_RANK_MASK[r] for r in (10, ACE, KING, QUEEN, JACK))


def game_points(mask: int) -> int:
    """Game card points (C26/T20) of the cards in bit set ``mask``; the whole pack holds 80."""
    return (10 * (mask & _TENS).bit_count() + 4 * (mask & _ACES).bit_count() + 3 * (mask & _KINGS).bit_count()
            + 2 * (mask & _QUEENS).bit_count() + (mask & _JACKS).bit_count())


#: Ways of bringing hands back after a run (classic option ``run_hand_method``; first = default).
RunHandMethod = Literal["discard3", "keep-all", "keep-then-discard", "wait-and-see", "eldest-and-dealer"]
RUN_HAND_METHODS: tuple[str, ...] = get_args(RunHandMethod)
#: Allowed ``target`` of both All Fours games (spec: "integer"; the named variants are 7, 10, 11, 31, 14).
Target = Annotated[int, Field(ge=1, le=999)]
#: Turn-up points per ``turnup_scale`` (C8 jack: J 1; C32 running: A 4, K 3, Q 2, J 1): rank -> points.
TURNUP_POINTS: dict[str, dict[int, int]] = {
    "jack": {JACK: 1},
    "running": {ACE: 4, KING: 3, QUEEN: 2, JACK: 1},
}
_PLAYERS = PlayerCount("all-fours")


@options_model("all-fours")
class AllFoursOptions:
    """Options of classic All Fours (RULES.md §3.3; the first value listed is the default), a
    frozen strict pydantic model (:mod:`tutor.engine.options`).

    ``players`` 2|3|4 (C2; the counts of :data:`tutor.engine.rulesets.ALL_FOURS`); ``target`` 7
    (C28; 11 *Eleven Makes* C31, 31 *Running All Fours* C32, 10 Hoyle K23; any 1..999);
    ``turnup_scale`` ``"jack"`` (J 1, C8) | ``"running"`` (A 4 K 3 Q 2 J 1, C32); ``low``
    ``"dealt"`` (C24) | ``"captured"`` (C30); ``game_tie`` ``"dealer-excluded"`` (C27) |
    ``"nobody"`` (K4); ``void_rule`` ``"free"`` (C21) | ``"must_trump"`` (K20); ``gift_may_win``
    True (C12) | False (K6, FOSTER); ``run_hand_method`` ``"discard3"`` (C15) | ``"keep-all"``
    (C33c: play with 9, 12 … cards) | ``"keep-then-discard"`` (C33b) | ``"wait-and-see"`` (C33a)
    | ``"eldest-and-dealer"`` (K21, ES-WIKI).
    Raises :class:`BadFieldError` for a value outside these.
    """

    players: Annotated[int, _PLAYERS] = Field(default_factory=_PLAYERS.default)
    target: Annotated[Target, Field(title=N_("Points to win the game"))] = 7
    turnup_scale: Annotated[Literal["jack", "running"], Field(title=N_("Points for the turned-up card")), Labels((
        N_("a jack scores 1"), N_("running: ace 4, king 3, queen 2, jack 1")))] = "jack"
    low: Annotated[Literal["dealt", "captured"], Field(title=N_("Low goes to")), Labels((
        N_("whoever was dealt the lowest trump"), N_("whoever wins the lowest trump in a trick")))] = "dealt"
    game_tie: Annotated[Literal["dealer-excluded", "nobody"], Field(title=N_("A tie for Game")), Labels((
        N_("the tied player nearest the dealer's left scores it"), N_("nobody scores Game")))] = "dealer-excluded"
    void_rule: Annotated[Literal["free", "must_trump"], Field(title=N_("Without the suit led")), Labels((
        N_("play any card"), N_("you must trump")))] = "free"
    gift_may_win: Annotated[bool, Field(title=N_("A gift point may win the game"))] = True
    run_hand_method: Annotated[RunHandMethod, Field(title=N_("After running the cards")), Labels((
        N_("each player discards down to six cards"), N_("keep every card"), N_("keep, then discard at the end"),
        N_("wait and see, then discard"), N_("only the eldest and the dealer take run cards")))] = "discard3"

    @classmethod
    def running_all_fours(cls, **kw: Any) -> AllFoursOptions:
        """The *Running All Fours* variant (C32): turn-up scale A 4 K 3 Q 2 J 1, target 31."""
        return cls(**({"turnup_scale": "running", "target": 31} | kw))

    @classmethod
    def eleven_makes(cls, **kw: Any) -> AllFoursOptions:
        """The *Eleven Makes* variant (C31): target 11."""
        return cls(**({"target": 11} | kw))


@dataclass(frozen=True, slots=True)
class Award:
    """Points scored by one side at one moment.

    ``category``: ``"turn-up"`` (classic turned card), ``"kick"`` (Trinidad), ``"gift"``,
    ``"take-one"``, ``"high"``, ``"low"``, ``"jack"``, ``"hang-jack"``, ``"game"``; ``side``;
    ``points`` (> 0); ``reason`` explains it.
    """

    category: str
    side: int
    points: int
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        """``{"category", "side", "points"}`` as in the spec's ``awards`` list."""
        return {"category": self.category, "side": self.side, "points": self.points}


def tally(scores: Sequence[int], awards: Sequence[Award], target: int) -> tuple[tuple[int, ...], int | None]:
    """Add ``awards`` in order to ``scores``; return ``(scores_after, winner)``.

    ``winner`` is the first side whose score reaches ``target`` as the awards are added one at a
    time (RULES.md §3.2 "Winning", C28, K11), or the side already at the target in ``scores``,
    else ``None``. Every award is added even after someone has won (the spec reports them all).
    """
    out = list(scores)
    winner = next((s for s, v in enumerate(out) if v >= target), None)
    for a in awards:
        out[a.side] += a.points
        if winner is None and out[a.side] >= target:
            winner = a.side
    return tuple(out), winner


@dataclass(frozen=True, slots=True)
class TrumpMaking:
    """What the trump-making of one deal produced (the ``make-trump`` ask).

    ``trump``: the suit (``None`` when the pack ran out); ``awards``: in the order they happened;
    ``points``: per side; ``runs``: runs made; ``hand_size``: cards each holds when play starts
    (``None`` on a redeal); ``redeal``: the pack ran out; ``why``: reasons in order.
    """

    trump: Suit | None
    awards: tuple[Award, ...]
    points: tuple[int, ...]
    runs: int
    hand_size: int | None
    redeal: bool
    why: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class HandScore:
    """The end-of-hand count (the ``hand-score`` ask).

    ``trick_winners``: seat per trick; ``awards``: High, Low, Jack/hang-jack, Game in counting
    order, only those scored; ``game_points``: per side; ``points``: per side; ``why``: reasons;
    ``hand_size``: cards each seat held at the start of play.
    """

    trick_winners: tuple[int, ...]
    awards: tuple[Award, ...]
    game_points: tuple[int, ...]
    points: tuple[int, ...]
    why: tuple[Reason, ...]
    hand_size: int = 0


@dataclass(frozen=True, slots=True)
class Action:
    """One step of the state machine.

    ``kind``: ``"stand"``/``"beg"`` (the seat after the dealer), ``"give"``/``"run"`` (dealer),
    ``"discard"`` (``card``, or several in ``cards``: down to six), ``"bunch"``/``"pass"`` (propose a bunch or not),
    ``"agree"``/``"refuse"`` (answer a bunch), ``"play"`` (``card``), ``"call"`` (Trinidad T22:
    ``seat`` calls the exposed ``card`` of the player to play).
    """

    kind: str
    seat: int
    card: Card | None = None
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        extra = str(self.card) if self.card is not None else " ".join(format_cards(self.cards))
        return f"{self.seat}:{self.kind}" + (f" {extra}" if extra else "")


# Phases of a deal.
DECIDE, CHOOSE, DISCARD, BUNCH, VOTE, PLAY, OVER = "decide", "choose", "discard", "bunch", "vote", "play", "over"


@dataclass(frozen=True, slots=True)
class GameState:
    """An immutable snapshot of a game; :meth:`apply` returns the next one.

    ``phase`` is one of ``decide`` (stand/beg), ``choose`` (give/run), ``discard``, ``bunch``,
    ``vote``, ``play``, ``over``. ``hands``/``won``/``exposed``/``start_hands`` are bit sets per
    seat; ``stock`` the undealt pack, top first; ``turn_ups`` every card turned this deal;
    ``tricks`` the complete tricks as ``(leader, cards)``; ``awards`` every award of the game in
    order; ``scores`` per side; ``winner`` the side that reached the target, or ``None``.
    """

    rules: GameMachine
    seed: int
    deal_no: int
    dealer: int
    scores: tuple[int, ...]
    phase: str
    hands: tuple[int, ...]
    stock: tuple[Card, ...]
    turn_ups: tuple[Card, ...]
    trump: Suit | None = None
    runs: int = 0
    pending: tuple[int, ...] = ()
    discarded: int = 0
    batch: tuple[int, ...] = ()
    start_hands: tuple[int, ...] = ()
    trick: tuple[Card, ...] = ()
    leader: int = 0
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    trick_winners: tuple[int, ...] = ()
    won: tuple[int, ...] = ()
    exposed: tuple[int, ...] = ()
    awards: tuple[Award, ...] = ()
    hands_done: int = 0
    winner: int | None = None
    last_hand: HandScore | None = None

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited (``None`` when the game is over)."""
        if self.phase == OVER:
            return None
        if self.phase == DECIDE:
            return (self.dealer + 1) % self.rules.players
        if self.phase == CHOOSE:
            return self.dealer
        if self.phase == PLAY:
            return (self.leader + len(self.trick)) % self.rules.players
        return self.pending[0]

    @property
    def over(self) -> bool:
        """True once a side has reached the target."""
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (empty when the game is over)."""
        return self.rules.legal_actions(self)

    def apply(self, action: Action) -> GameState:
        """The state after ``action``. Raises :class:`IllegalPlayError` naming the rule broken."""
        return self.rules.apply(self, action)

    def expose(self, seat: int, card: int) -> GameState:
        """Trinidad (T22): ``seat`` exposes ``card`` out of turn; it stays face up and may be
        called. Raises :class:`IllegalPlayError` in a game without calling."""
        return self.rules.expose(self, seat, card)


_STATE_FIELDS = tuple(GameState.__dataclass_fields__)
_STATE_VALUES = attrgetter(*_STATE_FIELDS)
_STATE_SETTERS = tuple((name, GameState.__dict__[name].__set__) for name in _STATE_FIELDS)  # slot descriptors


def _with(state: GameState, **changes: Any) -> GameState:
    """``dataclasses.replace`` for :class:`GameState`, without its per-call introspection (the
    state machine makes one per action; this is about eight times faster)."""
    new = object.__new__(GameState)
    for (name, put), value in zip(_STATE_SETTERS, _STATE_VALUES(state), strict=True):
        put(new, changes.get(name, value))
    return new


def _actions(kind: str) -> tuple[Action, ...]:
    """``Action(kind, seat)`` for every seat: actions are immutable, so the state machine shares them."""
    return tuple(Action(kind, seat) for seat in range(4))


_STAND, _BEG, _GIVE, _RUN, _BUNCH, _PASS, _AGREE, _REFUSE = (
    _actions(k) for k in ("stand", "beg", "give", "run", "bunch", "pass", "agree", "refuse"))
_PLAYS = tuple(tuple(Action("play", seat, card) for card in CARDS) for seat in range(4))
_DISCARDS = tuple(tuple(Action("discard", seat, card) for card in CARDS) for seat in range(4))


def cut_dealer(seed: int, players: int) -> int:
    """The first dealer of the game dealt from ``seed``: highest card cut deals, tied top cards
    cut again (C5/T4, K25)."""
    rng = random.Random(f"{seed}/cut")
    seats = list(range(players))
    while len(seats) > 1:
        ranks = {s: rng.randrange(2, 15) for s in seats}
        top = max(ranks.values())
        seats = [s for s in seats if ranks[s] == top]
    return seats[0]


# Fisher-Yates from the top card down, as random.Random.shuffle does: (i, i + 1, bits of i + 1)
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


def deal_order(seed: int, deal_no: int) -> list[int]:
    """The shuffled pack (card ints) of deal ``deal_no`` (0, 1, ...) of the game dealt from ``seed``.

    The order ``random.Random(f"{seed}/{deal_no}").shuffle`` gives (CPython: Fisher-Yates with
    rejection sampling on ``getrandbits``), written out so that it is fast and stays the same if
    a later Python changes ``shuffle``.
    """
    bits = random.Random(f"{seed}/{deal_no}").getrandbits
    deck = list(range(52))
    for i, n, k in _SHUFFLE_STEPS:
        j = bits(k)
        while j >= n:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_deck(seed: int, deal_no: int) -> list[Card]:
    """:func:`deal_order` as :class:`~tutor.engine.cards.Card` objects."""
    return [CARDS[c] for c in deal_order(seed, deal_no)]

class GameMachine(Protocol):
    """What a :class:`GameState` asks of its rules object (an
    :class:`~tutor.engine.allfours.AllFoursFamily`): the player count and the state machine."""

    players: int

    def legal_actions(self, state: GameState) -> list[Action]: ...

    def apply(self, state: GameState, action: Action) -> GameState: ...

    def expose(self, state: GameState, seat: int, card: int) -> GameState: ...
