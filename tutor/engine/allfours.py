"""All Fours: the machinery shared by the classic game and Trinidad, and the classic ruleset.

Shapes. Seats are ``int`` 0..players-1 **in order of play** (seat s+1 plays right after seat s;
clockwise for classic, anticlockwise for Trinidad), so in both games the seat after the dealer
(``dealer + 1``) decides stand/beg and leads the first trick, and the deal passes to
``dealer + 1``. A *side* is what scores: the team ``seat % 2`` with four players, else the seat.
Cards are ``int`` 0..51 (:class:`~tutor.engine.cards.Card`), hands ``int`` bit sets, a trump a
:class:`~tutor.engine.cards.Suit`. Every verdict carries a :class:`~tutor.engine.reasons.Reason`.

Contents:

* :class:`AllFoursOptions` — typed, frozen options of the classic game (RULES.md §3.3);
* :class:`Award`, :class:`TrumpMaking`, :class:`HandScore` — immutable results;
* :class:`AllFoursFamily` — everything both games share: legal plays (C20/C21, T14/T15),
  trick winner (via :mod:`tutor.engine.tricks`), turn-up scoring, stand/beg/give/run with the
  pack arithmetic of RULES.md §3.2, High/Low/Jack/Game, the counting order and the winner, and a
  full state machine (:class:`GameState`, :class:`Action`);
* :class:`AllFours` — the classic game (seed 000): jack (or *Running All Fours*) turn-up scale,
  gift to each opposing party (K5, K27), discards after each run (C15), bunch (C18), Low dealt
  or captured (C24/C30), Game tie dealer-excluded or nobody (C27/K4).

Decisions where RULES.md and the spec are silent (each is tested):

* A run needs ``3 * players + 1`` cards in the stock (three each plus the new turn-up); with fewer
  the pack is exhausted and the same dealer redeals, keeping every point (§3.2 table, C17).
* Classic discards (``run_hand_method="discard3"``): after each batch of three is dealt *and the
  next card is turned*, every player in play order from the dealer's left discards three (C15 is
  silent on the timing; scoring is the same either way), one card per action. Discards are out of
  play (K26). The other ways of running (C33, K7, K21) are options: ``keep-all`` (play with 9,
  12 … cards), ``keep-then-discard`` (keep every batch, reduce to six once trump is fixed),
  ``wait-and-see`` (a batch whose turn-up is the refused suit again is set aside unseen; the
  last batch is kept and each player reduces to six) and ``eldest-and-dealer`` (ES-WIKI: only
  the player after the dealer and the dealer receive run cards, 7 cards a run, and both reduce
  to six once trump is fixed). The set-aside-3 variant (C33d) is not modelled: the seed does not
  say what happens after more than one run.
* Bunch (C18, only after a run fixed a new trump): in play order from the dealer's left each
  player may propose it; on a proposal every other player in turn agrees or refuses; one refusal
  ends the bunch phase and play begins (one proposal per deal).
* ``target`` accepts any integer 1..999 (spec: "integer"); the named variants are 7, 10, 11, 31.
  ``turnup_scale="running"`` does not change the target by itself: *Running All Fours* is
  ``AllFoursOptions.running_all_fours()`` (scale running, target 31).
* In 3-player classic a gift gives a point to each opponent in seat order from the dealer's
  left, so when both reach the target the eldest wins (K27).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import Field

from .cards import (
    ACE,
    CARD_NAMES,
    CARDS,
    JACK,
    KING,
    QUEEN,
    SUIT_LETTERS,
    SUIT_MASK,
    Card,
    Suit,
    format_cards,
    iter_cards,
    names_desc,
)
from .errors import BadFieldError, IllegalPlayError, ImpossibleStateError, show
from .options import Labels, PlayerCount, options_model
from .reasons import N_, REASON_TEXTS, Reason, lazy_reason, make_reason
from .tricks import (
    HandRecord,
    make_follow_or_trump,
    make_winner_seat,
    shared_reason,
    suit_and_cards,
    winner_reason,
    winning_index,
)

__all__ = [
    "GAME_VALUE",
    "HAND_SIZE",
    "Action",
    "AllFours",
    "AllFoursFamily",
    "AllFoursOptions",
    "Award",
    "GameState",
    "HandScore",
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

    rules: AllFoursFamily
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
    for (name, put), value in zip(_STATE_SETTERS, _STATE_VALUES(state)):
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


class AllFoursFamily:
    """Rules shared by classic All Fours and Trinidad; subclasses set the hooks.

    Class attributes: ``ruleset`` (spec name); ``RULE`` maps a topic (``lead``, ``follow``,
    ``trump_led``, ``void``, ``winner``, ``turnup``, ``stand``, ``give``, ``run``, ``redeal``,
    ``high``, ``low``, ``jack``, ``game``, ``tie``, ``order``; and per phase ``decide``,
    ``choose``, ``discard``, ``bunch``, ``vote``, ``play`` for out-of-turn/phase errors) to the
    RULES.md point cited in reasons. Instance attributes: ``options``, ``players``, ``target``, ``n_sides``,
    ``run_cost`` (cards one run uses), ``max_runs`` (runs the pack allows, §3.2).
    """

    ruleset: ClassVar[str] = ""
    options_type: ClassVar[type] = AllFoursOptions
    RULE: ClassVar[dict[str, str]] = {}
    give_category: ClassVar[str] = "gift"
    give_option: ClassVar[str] = "gift_may_win"
    turnup_category: ClassVar[str] = "turn-up"
    # the ways of running the pack (class defaults; All Fours sets them per instance from its options)
    discard_each_run: bool = False
    reduce_after_trump: bool = False
    drop_refused_batch: bool = False
    only_eldest_and_dealer: bool = False
    has_bunch: ClassVar[bool] = False
    has_calling: ClassVar[bool] = False
    # scoring switches (set per instance from the options)
    low_to_captor: bool = False  # Low to the side that captured it (C30), not the holder's (C24)
    hang_jack: bool = False  # Trinidad hang jack (K2): 3 to an opponent who captures the jack
    game_tie_to_non_dealer: bool = False  # a Game tie goes to the tied side nearest the dealer's left (C27)

    #: The side of each seat, per player count (C2: partners sit opposite with four; with two or
    #: three players each seat is a side).
    PARTNERSHIPS: ClassVar[Mapping[int, tuple[int, ...]]] = MappingProxyType(
        {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 0, 1)})

    def __init__(self, options: Any = None, **kw: Any) -> None:
        if options is None:
            options = self.options_type(**kw)
        elif kw:
            options = replace(options, **kw)
        self.options = options
        self.players: int = options.players
        self.target: int = options.target
        self._side = self.PARTNERSHIPS[self.players]
        self.n_sides = len(set(self._side))
        self._configure()
        self.run_cost = 3 * (2 if self.only_eldest_and_dealer else self.players) + 1
        self.max_runs = (52 - HAND_SIZE * self.players - 1) // self.run_cost
        self.strict_void = options.void_rule == "must_trump"
        self.no_undertrump = bool(getattr(options, "no_undertrump", False))
        # the hot paths, specialised for these options (instance attributes shadow the methods)
        self.legal_plays = self.legal_mask = make_follow_or_trump(self.strict_void, self.no_undertrump)
        self.winner_seat = make_winner_seat(self.players)

    def _configure(self) -> None:
        """Set per-instance switches from the options before the pack arithmetic (subclasses)."""

    def __reduce__(self) -> tuple[type[AllFoursFamily], tuple[Any]]:  # hot-path functions are rebuilt from the options
        return type(self), (self.options,)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    # ----------------------------------------------------------------- seats and sides
    def side_of(self, seat: int) -> int:
        """Side that scores for ``seat`` (:attr:`PARTNERSHIPS`): the team ``seat % 2`` with 4
        players, else the seat."""
        return self._side[seat]

    def hand_sizes(self) -> tuple[int, ...]:
        """Hand sizes at the start of play that the rules allow (spec ``hand-score`` edge rule)."""
        return tuple(HAND_SIZE + 3 * k for k in range(self.max_runs + 1))

    def hand_size_after(self, runs: int) -> int:
        """Cards each player holds when play starts after ``runs`` runs."""
        return HAND_SIZE + 3 * runs

    # ----------------------------------------------------------------- legal plays, tricks
    def legal(self, hand: int, trick: Sequence[int], trump: int) -> tuple[int, Reason]:
        """``(legal bit set, reason)`` for ``hand`` with ``trick`` (cards so far, play order).

        RULES.md §3.2 predicate: leading → any; trump led → trumps if held (else any); plain
        suit led and held → that suit or any trump (minus trumps below the highest trump in the
        trick under ``no_undertrump``); void → any card (trumps only under ``must_trump``).
        :meth:`legal_plays` gives the bit set alone and :meth:`legal_reason` the reason alone.
        """
        mask = self.legal_plays(hand, trick, trump)
        return mask, self.legal_reason(hand, trick, trump, mask)

    def legal_reason(self, hand: int, trick: Sequence[int], trump: int, mask: int | None = None) -> Reason:
        """The reason of :meth:`legal` (``mask``: the legal bit set, if already known)."""
        R = self.RULE
        if not trick:
            return shared_reason("lead-any", R["lead"])
        led = trick[0] // 13
        trumps = hand & SUIT_MASK[trump]
        if led == trump:
            if trumps:
                return lazy_reason("trump-led-must-trump", R["trump_led"], suit_and_cards, "trump", led, trumps)
            return shared_reason("trump-led-no-trump", R["trump_led"], "trump", led)
        follow = hand & SUIT_MASK[led]
        if follow:
            if self.no_undertrump and trumps:
                if mask is None:
                    mask = self.legal_plays(hand, trick, trump)
                under = trumps & ~mask
                if under:
                    top = max(c for c in trick if c // 13 == trump)
                    return make_reason("no-undertrump", "K22",
                                  {"card": CARD_NAMES[top], "led": SUIT_LETTERS[led], "cards": names_desc(under)})
            return lazy_reason("follow-or-trump", R["follow"], _follow_or_trump_params, led, trump, follow)
        if self.strict_void and trumps:
            return lazy_reason("void-must-trump", R["void_strict"], suit_and_cards, "led", led, trumps)
        return shared_reason("void-any-card", R["void"], "led", led)

    #: ``legal_plays(hand, trick, trump) -> bit set``: the legal bit set of :meth:`legal`, building
    #: no reason: the hot path, a function specialised for the instance's options
    #: (:func:`~tutor.engine.tricks.make_follow_or_trump`, set in ``__init__``); ``legal_mask`` is
    #: the same function.
    legal_plays: Callable[[int, Sequence[int], int], int]
    legal_mask: Callable[[int, Sequence[int], int], int]
    #: ``winner_seat(trick, trump, leader=0) -> seat``: the seat that wins a complete ``trick`` led
    #: by ``leader`` (C22/T16), building no objects: the hot path of :meth:`trick_winner`, a
    #: function made for the instance's table (:func:`~tutor.engine.tricks.make_winner_seat`, set
    #: in ``__init__``).
    winner_seat: Callable[..., int]

    def trick_winner(self, trick: Sequence[int], trump: int, leader: int = 0) -> tuple[int, Card, Reason]:
        """``(seat, card, reason)`` for a complete trick led by ``leader`` (C22/T16)."""
        i = winning_index(trick, trump)
        return ((leader + i) % self.players, CARDS[trick[i]],
                winner_reason(trick, trump, leader, self.players, self.RULE["winner"], i))

    # ----------------------------------------------------------------- trump making
    def turnup_points(self, card: int) -> tuple[int, Reason]:
        """Points the dealer's side scores for turning up ``card`` as the card that (first, or
        after a run) shows trump, with the reason. Subclasses define the scale."""
        raise NotImplementedError

    def _turnup_award(self, dealer: int, card: int, counts: bool) -> tuple[Award | None, Reason]:
        if not counts:
            return None, Reason("turnup-refused-suit", "K9", {"card": str(CARDS[card])})
        pts, why = self.turnup_points(card)
        if not pts:
            return None, why
        return Award(self.turnup_category, self.side_of(dealer), pts, why), why

    def give_awards(self, dealer: int) -> list[Award]:
        """Awards when the dealer keeps the suit after a beg. Subclasses define them."""
        raise NotImplementedError

    def give_allowed(self, dealer: int, scores: Sequence[int]) -> Reason | None:
        """``None`` if the dealer may keep the suit with these ``scores`` (after the turn-up), else
        the reason he may not (gift/take-one that would win, under the option forbidding it)."""
        if self._give_may_win():
            return None
        for a in self.give_awards(dealer):
            if scores[a.side] + a.points >= self.target:
                return Reason("gift-forbidden", self.RULE["give_forbidden"], {"side": a.side})
        return None

    def _give_may_win(self) -> bool:
        return True

    def _later_turnup_counts(self, fixes_trump: bool) -> bool:
        """Does a turn-up after a run score? Only the card that fixes trump (K9)."""
        return fixes_trump

    def make_trump(self, dealer: int, turn_ups: Sequence[int], decision: str, dealer_choice: str | None = None,
                   scores: Sequence[int] | None = None) -> TrumpMaking:
        """Score the trump-making of one deal (spec ask ``make-trump``).

        ``turn_ups``: every card turned, in order; ``decision``: ``"stand"``/``"beg"``;
        ``dealer_choice``: ``"give"``/``"run"`` after a beg; ``scores``: per side before the deal
        (for the gift/take-one restriction only). Errors: ``BadFieldError`` for a missing or
        misplaced choice or a missing new turn-up after a run; ``ImpossibleStateError`` for
        turn-ups the rules cannot produce (a second card without a run, a different suit before
        the last card, the refused suit last while the pack still allows a run, more turn-ups
        than the pack allows: §3.2); ``IllegalPlayError`` for a forbidden gift (K6).
        """
        R = self.RULE
        scores = tuple(scores) if scores is not None else (0,) * self.n_sides
        if not turn_ups:
            raise BadFieldError("turn_ups must list at least the first turned-up card.")
        if decision not in ("stand", "beg"):
            raise BadFieldError(f'decision must be "stand" or "beg", not {show(decision)}.')
        if decision == "stand" and dealer_choice is not None:
            raise BadFieldError("dealer_choice applies only after a beg.")
        if decision == "beg" and dealer_choice not in ("give", "run"):
            raise BadFieldError(f'after a beg, dealer_choice must be "give" or "run", not {show(dealer_choice)}.')
        first = CARDS[turn_ups[0]]
        award, why0 = self._turnup_award(dealer, first, True)
        awards = [award] if award else []
        why = [why0]
        if decision == "stand" or dealer_choice == "give":
            if len(turn_ups) > 1:
                raise ImpossibleStateError(
                    f"{len(turn_ups)} cards were turned up, but without a run only one card is turned.")
            if decision == "stand":
                why.append(Reason("stand", R["stand"], {"trump": first.suit.letter}))
            else:
                after, won = tally(scores, awards, self.target)
                # K11: a turned jack that took the dealer's side to the target has won the game already,
                # so the gift cannot put anyone out and the option cannot forbid it.
                forbidden = self.give_allowed(dealer, after) if won is None else None
                if forbidden is not None:
                    raise IllegalPlayError(
                        f"the dealer may not keep the suit: the point would put side {forbidden.params['side']} "
                        f"out, so he must run (option {self.give_option}: false).", forbidden)
                gifts = self.give_awards(dealer)
                awards += gifts
                why += [a.reason for a in gifts]
            pts = self._points(awards)
            return TrumpMaking(first.suit, tuple(awards), pts, 0, HAND_SIZE, False, tuple(why))
        # the dealer runs
        refused = first.suit
        why.append(Reason("run", R["run"], {"refused": refused.letter, "card": str(first)}))
        if len(turn_ups) < 2:
            raise BadFieldError("after a run, turn_ups must also list the card(s) turned up next.")
        runs = len(turn_ups) - 1
        if runs > self.max_runs:
            raise ImpossibleStateError(
                f"{len(turn_ups)} turn-ups: with {self.players} players the pack allows at most "
                f"{self.max_runs + 1} (the first and {self.max_runs} runs of {self.run_cost} cards).")
        for i, c in enumerate(turn_ups[1:], 1):
            c = CARDS[c]
            is_last = i == runs
            if c.suit != refused and not is_last:
                raise ImpossibleStateError(
                    f"turn-up {i + 1} ({c}) shows a new suit, so no further card is turned after it.")
            fixes = c.suit != refused
            award, r = self._turnup_award(dealer, c, self._later_turnup_counts(fixes))
            if award:
                awards.append(award)
            if fixes:
                why.append(Reason("new-trump", R["run"], {"card": str(c), "trump": c.suit.letter}))
            why.append(r)
        last = CARDS[turn_ups[-1]]
        pts = self._points(awards)
        if last.suit == refused:
            if runs < self.max_runs:
                raise ImpossibleStateError(
                    f"the last turn-up ({last}) is the refused suit again and the pack still allows a run: "
                    "the dealer must keep running.")
            why.append(Reason("pack-exhausted", R["redeal"], {"runs": runs}))
            return TrumpMaking(None, tuple(awards), pts, runs, None, True, tuple(why))
        return TrumpMaking(last.suit, tuple(awards), pts, runs, self.hand_size_after(runs), False, tuple(why))

    def _points(self, awards: Sequence[Award]) -> tuple[int, ...]:
        pts = [0] * self.n_sides
        for a in awards:
            pts[a.side] += a.points
        return tuple(pts)

    # ----------------------------------------------------------------- end-of-hand count
    def replay(self, dealer: int, trump: int, tricks: Sequence[Sequence[int]]
               ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Check a complete transcript and return ``(start_hands, leaders, winners)``.

        ``tricks``: every trick in play order; the seat after the dealer leads trick 1, each
        winner leads the next. A seat's hand at the start of play is every card it plays.
        Raises :class:`ImpossibleStateError` for a trick count that is not a hand size of the
        ruleset (spec edge rule) and :class:`IllegalPlayError` naming the trick number and seat
        for an illegal play (e.g. a player who did not follow suit or trump while able).
        """
        n = self.players
        if len(tricks) not in self.hand_sizes() or any(len(t) != n for t in tricks):
            sizes = ", ".join(map(str, self.hand_sizes()))
            raise ImpossibleStateError(
                f"a hand of {self.ruleset} with {n} players has {sizes} tricks, not {len(tricks)}.")
        leaders, winners = [], []
        leader = (dealer + 1) % n
        for t in tricks:
            leaders.append(leader)
            leader = self.winner_seat(t, trump, leader)
            winners.append(leader)
        start = [0] * n
        for lead, t in zip(leaders, tricks):
            for i, c in enumerate(t):
                start[(lead + i) % n] |= 1 << c
        hands = list(start)
        for k, (lead, t) in enumerate(zip(leaders, tricks), 1):
            for i, c in enumerate(t):
                seat = (lead + i) % n
                if not self.legal_mask(hands[seat], t[:i], trump) >> c & 1:
                    _, why = self.legal(hands[seat], t[:i], trump)
                    raise IllegalPlayError(
                        f"trick {k}, seat {seat}: {CARDS[c]} is not a legal play ({why.text()})", why)
                hands[seat] &= ~(1 << c)
        return tuple(start), tuple(leaders), tuple(winners)

    def score_hand(self, dealer: int, trump: int, start_hands: Sequence[int],
                   tricks: Sequence[Sequence[int]], winners: Sequence[int]) -> HandScore:
        """The count at the end of a hand: High, Low, Jack (or hang jack), Game (§3.2).

        ``start_hands``: bit set per seat when play started (cards in play); ``tricks`` and
        ``winners``: the tricks and the seat that won each. Awards are in counting order
        (C28/K11); a category nobody scores is left out and explained in ``why``.
        """
        R = self.RULE
        n = self.players
        trump = Suit(trump)
        ts = trump.letter
        won = [0] * n
        captor: dict[int, int] = {}
        for t, w in zip(tricks, winners):
            for c in t:
                won[w] |= 1 << c
                captor[c] = w

        def holder(card: int) -> int:
            return next(s for s in range(n) if start_hands[s] >> card & 1)

        in_play = 0
        for h in start_hands:
            in_play |= h
        trumps = in_play & SUIT_MASK[trump]
        awards: list[Award] = []
        why: list[Reason] = []
        if trumps:
            hi, lo = CARDS[trumps.bit_length() - 1], CARDS[(trumps & -trumps).bit_length() - 1]
            if hi == lo:
                why.append(Reason("only-one-trump", R["high"], {"card": str(hi)}))
            s = holder(hi)
            awards.append(Award("high", self.side_of(s), 1, Reason("high-dealt", R["high"], {
                "card": str(hi), "seat": s, "side": self.side_of(s)})))
            awards.append(self._low_award(lo, holder(lo), captor.get(lo, holder(lo))))
        else:
            why.append(Reason("no-trump-in-play", R["high"], {"trump": ts}))
        jack = Card.of(JACK, trump)
        if trumps >> jack & 1:
            awards.append(self._jack_award(jack, holder(jack), captor[jack]))
        else:
            why.append(Reason("jack-not-in-play", R["jack"], {"card": str(jack)}))
        totals = [0] * self.n_sides
        for s in range(n):
            totals[self.side_of(s)] += game_points(won[s])
        game = self._game_award(tuple(totals), dealer)
        if isinstance(game, Award):
            awards.append(game)
        else:
            why.append(game)
        why[:0] = [a.reason for a in awards]
        return HandScore(tuple(winners), tuple(awards), tuple(totals), self._points(awards), tuple(why),
                         max(h.bit_count() for h in start_hands))

    def _low_award(self, card: Card, holder: int, captor: int) -> Award:
        side = self.side_of(holder)
        return Award("low", side, 1, Reason("low-dealt", self.RULE["low"], {
            "card": str(card), "seat": holder, "side": side}))

    def _jack_award(self, jack: Card, holder: int, captor: int) -> Award:
        side = self.side_of(captor)
        return Award("jack", side, 1, Reason("jack-won", self.RULE["jack"], {
            "card": str(jack), "seat": captor, "side": side}))

    def _game_award(self, totals: tuple[int, ...], dealer: int) -> Award | Reason:
        best = max(totals)
        tied = [s for s, v in enumerate(totals) if v == best]
        shown = list(totals)
        if len(tied) == 1:
            return Award("game", tied[0], 1, Reason("game-most-points", self.RULE["game"], {
                "side": tied[0], "totals": shown}))
        return Reason("game-tie-nobody", self.RULE["tie"], {"totals": shown})

    def winner_reason(self, side: int) -> Reason:
        """The reason for ``side`` winning the game."""
        return Reason("target-reached", self.RULE["order"], {"side": side, "target": self.target})

    # ----------------------------------------------------------------- the game protocol
    # (tutor.engine.rulesets.GameEngine: what a caller needs to play a whole game by name)
    def to_act(self, state: GameState) -> int | None:
        """The seat whose action is awaited (``None`` once the game is over)."""
        return state.to_act

    def is_over(self, state: GameState) -> bool:
        """True once a side has reached the target (C28, T21)."""
        return state.over

    def scores(self, state: GameState) -> tuple[int, ...]:
        """Game points per side."""
        return state.scores

    def winner(self, state: GameState) -> int | None:
        """The side that won the game, or ``None``."""
        return state.winner

    def hands_done(self, state: GameState) -> int:
        """Hands played to the end and counted (a redeal or a bunch is not a hand)."""
        return state.hands_done

    def last_hand(self, state: GameState) -> HandRecord | None:
        """The last hand played to the end: every card of every hand is played (C19, T13)."""
        hs = state.last_hand
        if hs is None:
            return None
        side_tricks = [0] * self.n_sides
        for w in hs.trick_winners:
            side_tricks[self.side_of(w)] += 1
        return HandRecord(hs.trick_winners, hs.hand_size, tuple(side_tricks), None)

    # ----------------------------------------------------------------- state machine
    def new_game(self, seed: int = 0, dealer: int | None = None,
                 scores: Sequence[int] | None = None) -> GameState:
        """A new game dealt from ``seed`` (same seed → same game). ``dealer`` defaults to the
        first dealer drawn by cutting: highest card deals, tied top cards cut again (C5/T4, K25).
        ``scores`` (per side) lets a game start part-way."""
        if dealer is None:
            dealer = cut_dealer(seed, self.players)
        scores = tuple(scores) if scores is not None else (0,) * self.n_sides
        if len(scores) != self.n_sides:
            raise BadFieldError(f"scores must have {self.n_sides} entries.")
        return self._deal(seed, 0, dealer, scores, (), 0)

    def play_state(self, dealer: int, trump: int, hands: Sequence[Sequence[int] | int],
                   scores: Sequence[int] | None = None, seed: int = 0) -> GameState:
        """A state at the start of play with the given ``hands`` (per seat: cards or a bit set),
        e.g. to replay a lesson's hand. The seat after the dealer leads; later deals come from
        ``seed``. Raises :class:`BadFieldError` for a wrong seat count or a card held twice."""
        masks = [h if isinstance(h, int) else sum(1 << c for c in set(h)) for h in hands]
        if len(masks) != self.players or sum(m.bit_count() for m in masks) != _or(masks).bit_count():
            raise BadFieldError(f"give {self.players} hands with no card twice.")
        scores = tuple(scores) if scores is not None else (0,) * self.n_sides
        state = GameState(self, seed, 0, dealer, scores, PLAY, tuple(masks), (), (), trump=Suit(trump),
                          exposed=(0,) * self.players)
        return self._start_play(state)

    def _deal(self, seed: int, deal_no: int, dealer: int, scores: tuple[int, ...], awards: tuple[Award, ...],
              hands_done: int, last_hand: HandScore | None = None) -> GameState:
        """Shuffle and deal by threes from the seat after the dealer (C6/C7, T6), turn the next
        card and score it (C8/T7)."""
        n = self.players
        deck = deal_deck(seed, deal_no)
        hands = [0] * n
        pos = 0
        for _ in range(HAND_SIZE // 3):
            for k in range(1, n + 1):
                s = (dealer + k) % n
                for c in deck[pos:pos + 3]:
                    hands[s] |= 1 << c
                pos += 3
        turn = deck[pos]
        state = GameState(self, seed, deal_no, dealer, scores, DECIDE, tuple(hands), tuple(deck[pos + 1:]), (turn,),
                          awards=awards, hands_done=hands_done, exposed=(0,) * n, last_hand=last_hand)
        award, _ = self._turnup_award(dealer, turn, True)
        return self._score(state, [award] if award else [])

    def _score(self, state: GameState, awards: Sequence[Award]) -> GameState:
        if not awards:
            return state
        scores, winner = tally(state.scores, awards, self.target)
        state = _with(state, scores=scores, awards=state.awards + tuple(awards))
        if winner is not None:
            state = _with(state, winner=winner, phase=OVER, pending=())
        return state

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every action allowed in ``state`` (see :class:`Action`)."""
        ph = state.phase
        seat = state.to_act
        if seat is None:  # the game is over
            return []
        if ph == DECIDE:
            return [_STAND[seat], _BEG[seat]]
        if ph == CHOOSE:
            if self.give_allowed(state.dealer, state.scores) is None:
                return [_GIVE[seat], _RUN[seat]]
            return [_RUN[seat]]
        if ph == DISCARD:
            discards = _DISCARDS[seat]
            return [discards[c] for c in iter_cards(state.hands[seat])]
        if ph == BUNCH:
            return [_BUNCH[seat], _PASS[seat]]
        if ph == VOTE:
            return [_AGREE[seat], _REFUSE[seat]]
        if state.trump is None:
            raise ImpossibleStateError("cards are played only once trump is made.")
        mask = self.legal_mask(state.hands[seat], state.trick, state.trump)
        plays = _PLAYS[seat]
        acts = [plays[c] for c in iter_cards(mask)]
        called = state.exposed[seat] & mask if state.exposed else 0
        for c in iter_cards(called):
            acts += [Action("call", other, c) for other in range(self.players) if other != seat]
        return acts

    def _illegal(self, msg: str, code: str, rule: str, **params: Any) -> IllegalPlayError:
        return IllegalPlayError(msg, Reason(code, rule, params))

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after ``action``; raises :class:`IllegalPlayError` (with a Reason naming
        the RULES.md point) for an action out of turn, out of phase or against the rules."""
        R = self.RULE
        ph, seat, kind = state.phase, state.to_act, action.kind
        expected = {DECIDE: ("stand", "beg"), CHOOSE: ("give", "run"), DISCARD: ("discard",),
                    BUNCH: ("bunch", "pass"), VOTE: ("agree", "refuse"), PLAY: ("play", "call")}.get(ph, ())
        rule = R.get(ph, R["order"])
        if kind not in expected:
            raise self._illegal(f"{kind} is not possible at the {ph} step.", "wrong-phase", rule, phase=ph)
        assert seat is not None  # only a game that is over awaits no seat, and it expects no action
        if kind != "call" and action.seat != seat:
            raise self._illegal(f"it is seat {seat}'s turn, not seat {action.seat}'s.", "not-your-turn",
                                rule, seat=seat)
        if ph == DECIDE:
            if kind == "stand":
                return self._start_play(_with(state, trump=state.turn_ups[0].suit))
            return _with(state, phase=CHOOSE)
        if ph == CHOOSE:
            if kind == "give":
                why = self.give_allowed(state.dealer, state.scores)
                if why is not None:
                    raise IllegalPlayError("the dealer may not keep the suit: the point would win the game.", why)
                state = self._score(_with(state, trump=state.turn_ups[0].suit), self.give_awards(state.dealer))
                return state if state.over else self._start_play(state)
            return self._run(state)
        if ph == DISCARD:
            cards = tuple(action.cards) + ((action.card,) if action.card is not None else ())
            m = 0
            for c in cards:
                m |= 1 << c
            hand = state.hands[seat]
            if not cards or m.bit_count() != len(cards) or m & ~hand or hand.bit_count() - len(cards) < HAND_SIZE:
                raise self._illegal("discard cards of your own hand, down to six.", "discard-down", "C15")
            hands = list(state.hands)
            hands[seat] &= ~m
            pending = state.pending if hands[seat].bit_count() > HAND_SIZE else state.pending[1:]
            state = _with(state, hands=tuple(hands), discarded=state.discarded | m, pending=pending)
            if pending:
                return state
            return self._resolve_run(state) if state.trump is None else self._after_trump(state)
        if ph == BUNCH:
            if kind == "bunch":
                others = tuple((seat + k) % self.players for k in range(1, self.players))
                return _with(state, phase=VOTE, pending=others)
            rest = state.pending[1:]
            return _with(state, pending=rest) if rest else self._start_play(state)
        if ph == VOTE:
            if kind == "refuse":
                return self._start_play(state)
            rest = state.pending[1:]
            if rest:
                return _with(state, pending=rest)
            return self._deal(state.seed, state.deal_no + 1, state.dealer, state.scores, state.awards,
                              state.hands_done, state.last_hand)
        return self._play(state, action)

    def _start_play(self, state: GameState) -> GameState:
        n = self.players
        lead = (state.dealer + 1) % n
        return _with(state, phase=PLAY, pending=(), start_hands=state.hands, leader=lead, trick=(), tricks=(),
                       trick_winners=(), won=(0,) * n)

    def _run(self, state: GameState) -> GameState:
        """Set the turned card aside (K8), deal three more to each from the seat after the dealer
        (or only to that seat and the dealer, ``eldest-and-dealer``), turn the next card
        (C13/T10)."""
        n = self.players
        stock = state.stock
        hands = list(state.hands)
        batch = [0] * n
        seats = (((state.dealer + 1) % n, state.dealer) if self.only_eldest_and_dealer
                 else tuple((state.dealer + k) % n for k in range(1, n + 1)))
        for s in seats:
            for c in stock[:3]:
                batch[s] |= 1 << c
            hands[s] |= batch[s]
            stock = stock[3:]
        turn = stock[0]
        refused = state.turn_ups[0].suit
        state = _with(state, phase=CHOOSE, hands=tuple(hands), stock=stock[1:], turn_ups=state.turn_ups + (turn,),
                        runs=state.runs + 1, batch=tuple(batch))
        award, _ = self._turnup_award(state.dealer, turn, self._later_turnup_counts(turn.suit != refused))
        state = self._score(state, [award] if award else [])
        if state.over:
            return state
        if self.discard_each_run:
            return self._discard_phase(state)
        return self._resolve_run(state)

    def _discard_phase(self, state: GameState) -> GameState:
        """Players holding more than six discard down to six, in play order from the dealer's left."""
        n = self.players
        seats = tuple(s for s in ((state.dealer + k) % n for k in range(1, n + 1))
                      if state.hands[s].bit_count() > HAND_SIZE)
        return _with(state, phase=DISCARD, pending=seats) if seats else state

    def _after_trump(self, state: GameState) -> GameState:
        """A run fixed trump: the bunch may be proposed (C18), else play starts."""
        if self.has_bunch:
            n = self.players
            return _with(state, phase=BUNCH, pending=tuple((state.dealer + k) % n for k in range(1, n + 1)))
        return self._start_play(state)

    def _resolve_run(self, state: GameState) -> GameState:
        turn = state.turn_ups[-1]
        if turn.suit != state.turn_ups[0].suit:
            state = _with(state, trump=turn.suit)
            if self.reduce_after_trump:
                reduced = self._discard_phase(state)
                if reduced.phase == DISCARD:
                    return reduced
            return self._after_trump(state)
        if self.drop_refused_batch:  # wait-and-see (C33a): the batch is put aside unseen
            dropped = _or(state.batch)
            state = _with(state, hands=tuple(h & ~b for h, b in zip(state.hands, state.batch)),
                            discarded=state.discarded | dropped, batch=())
        if len(state.stock) >= self.run_cost:
            return self._run(state)
        # the pack ran out: same dealer, points kept (C17, T12)
        return self._deal(state.seed, state.deal_no + 1, state.dealer, state.scores, state.awards, state.hands_done,
                          state.last_hand)

    def _play(self, state: GameState, action: Action) -> GameState:
        seat, trump = state.to_act, state.trump
        if seat is None or trump is None:
            raise ImpossibleStateError("cards are played only once trump is made, until the game is over.")
        card = action.card
        if card is None or not isinstance(card, int) or not 0 <= card < 52:
            raise self._illegal("name the card to play.", "card-not-in-hand", self.RULE["follow"], card="?")
        card = CARDS[card]
        if action.kind == "call":
            if action.seat == seat or not 0 <= action.seat < self.players:
                raise self._illegal("another player must call the card.", "not-your-turn", "T22", seat=seat)
            if not state.exposed[seat] >> card & 1:
                raise self._illegal(f"{card} is not an exposed card of seat {seat}.", "call-not-exposed", "T22",
                                    card=str(card), seat=seat)
        if not state.hands[seat] >> card & 1:
            raise self._illegal(f"{card} is not in seat {seat}'s hand.", "card-not-in-hand", self.RULE["follow"],
                                card=str(card))
        mask = self.legal_mask(state.hands[seat], state.trick, trump)
        if not mask >> card & 1:
            _, why = self.legal(state.hands[seat], state.trick, trump)
            if action.kind == "call":
                raise IllegalPlayError(f"{card} may not be called: playing it now is not legal.",
                                       Reason("call-not-legal", "T22", {"card": str(card), "seat": seat}))
            raise IllegalPlayError(f"{card} is not a legal play: {why.text()}", why)
        hands = list(state.hands)
        hands[seat] &= ~card.mask
        exposed = list(state.exposed)
        exposed[seat] &= ~card.mask
        trick = state.trick + (card,)
        state = _with(state, hands=tuple(hands), exposed=tuple(exposed), trick=trick)
        if len(trick) < self.players:
            return state
        w = self.winner_seat(trick, trump, state.leader)
        won = list(state.won)
        for c in trick:
            won[w] |= 1 << c
        state = _with(state, trick=(), leader=w, tricks=state.tricks + ((state.leader, trick),),
                        trick_winners=state.trick_winners + (w,), won=tuple(won))
        if any(hands):
            return state
        hs = self.score_hand(state.dealer, trump, state.start_hands, [t for _, t in state.tricks],
                             state.trick_winners)
        state = self._score(_with(state, last_hand=hs, hands_done=state.hands_done + 1), hs.awards)
        if state.over:
            return state
        # next dealer: the seat after the dealer in play order (K10 classic: to the left; T5: right)
        return self._deal(state.seed, state.deal_no + 1, (state.dealer + 1) % self.players, state.scores,
                          state.awards, state.hands_done, state.last_hand)

    def expose(self, state: GameState, seat: int, card: int) -> GameState:
        """Expose ``card`` of ``seat`` out of turn (T22; only in games with calling)."""
        if not self.has_calling:
            raise self._illegal("this game has no calling of exposed cards.", "wrong-phase", "T22",
                                phase=state.phase)
        if state.phase != PLAY or not state.hands[seat] >> card & 1:
            raise self._illegal(f"{CARDS[card]} is not in seat {seat}'s hand during play.", "card-not-in-hand",
                                "T22", card=str(CARDS[card]))
        exposed = list(state.exposed)
        exposed[seat] |= 1 << card
        return _with(state, exposed=tuple(exposed))


def _follow_or_trump_params(led: int, trump: int, follow: int) -> dict[str, object]:
    """Params of ``follow-or-trump``: suit led, trump, the cards of the suit led held (highest first)."""
    return {"led": SUIT_LETTERS[led], "trump": SUIT_LETTERS[trump], "cards": names_desc(follow)}


REASON_TEXTS.update({
    "call-not-exposed": N_("%(card)s is not an exposed card of seat %(seat)s."),
    "call-not-legal": N_("%(card)s is exposed, but it may be called only when playing it is legal."),
})


class AllFours(AllFoursFamily):
    """Classic All Fours (seed 000; "Seven Up"), options :class:`AllFoursOptions`.

    Example::

        >>> g = AllFours(players=2)
        >>> g.turnup_points(Card.parse("JH"))[0]
        1
    """

    ruleset = "all-fours"
    options_type = AllFoursOptions
    TURNUP_SCALES = TURNUP_POINTS
    RULE: ClassVar[dict[str, str]] = {
        "lead": "C19", "follow": "C20", "trump_led": "C20", "void": "C21", "void_strict": "K20", "winner": "C22",
        "turnup": "C8", "stand": "C9", "give": "C11", "give_forbidden": "K6", "run": "C13", "redeal": "C17",
        "high": "C23", "low": "C24", "jack": "C25", "game": "C26", "tie": "C27", "order": "C28",
        "decide": "C9", "choose": "C10", "discard": "C15", "bunch": "C18", "vote": "C18", "play": "C19",
        "next_dealer": "K10",
    }
    give_category = "gift"
    turnup_category = "turn-up"
    has_bunch = True

    def __init__(self, options: AllFoursOptions | None = None, **kw: Any) -> None:
        super().__init__(options, **kw)

    def _configure(self) -> None:
        method = self.options.run_hand_method
        self.discard_each_run = method == "discard3"
        self.reduce_after_trump = method in ("keep-then-discard", "wait-and-see", "eldest-and-dealer")
        self.drop_refused_batch = method == "wait-and-see"
        self.only_eldest_and_dealer = method == "eldest-and-dealer"
        self.keeps_all = method == "keep-all"
        self.low_to_captor = self.options.low == "captured"
        self.game_tie_to_non_dealer = self.options.game_tie == "dealer-excluded"

    def hand_sizes(self) -> tuple[int, ...]:
        """6, or with ``run_hand_method="keep-all"`` also 9, 12 … as runs allow (C15/C33)."""
        return super().hand_sizes() if self.keeps_all else (HAND_SIZE,)

    def hand_size_after(self, runs: int) -> int:
        return HAND_SIZE + 3 * runs if self.keeps_all else HAND_SIZE

    def turnup_points(self, card: int) -> tuple[int, Reason]:
        """Jack scale: a jack scores 1 (C8, C16). Running scale: A 4, K 3, Q 2, J 1 (C32)."""
        card = CARDS[card]
        if self.options.turnup_scale == "running":
            pts = TURNUP_POINTS["running"].get(card.rank, 0)
            if pts:
                return pts, Reason("turnup-scores", "C32", {"card": str(card), "points": pts})
            return 0, Reason("turnup-no-points", "C32", {"card": str(card)})
        pts = TURNUP_POINTS["jack"].get(card.rank, 0)
        if pts:
            return pts, Reason("turned-jack", "C8", {"card": str(card), "points": pts})
        return 0, Reason("turnup-no-points", "C8", {"card": str(card)})

    def give_awards(self, dealer: int) -> list[Award]:
        """One point to each opposing party, in seat order from the dealer's left (C11, K5, K27)."""
        ds = self.side_of(dealer)
        out, seen = [], set()
        for k in range(1, self.players):
            side = self.side_of((dealer + k) % self.players)
            if side != ds and side not in seen:
                seen.add(side)
                out.append(Award("gift", side, 1, Reason("gift", "C11", {"side": side, "points": 1})))
        return out

    def _give_may_win(self) -> bool:
        return bool(self.options.gift_may_win)

    def _low_award(self, card: Card, holder: int, captor: int) -> Award:
        """Low to the holder as dealt (C24), or to the captor under ``low="captured"`` (C30)."""
        if not self.low_to_captor:
            return super()._low_award(card, holder, captor)
        side = self.side_of(captor)
        return Award("low", side, 1, Reason("low-captured", "C30", {"card": str(card), "seat": captor, "side": side}))

    def _game_award(self, totals: tuple[int, ...], dealer: int) -> Award | Reason:
        """Unique most points scores (C26). Tie: the dealer's side never scores; among the tied
        others the one nearest the dealer's left scores (C27); ``game_tie="nobody"``: nobody (K4).
        A tie at 0 (no counting cards won by anyone) is a tie like any other."""
        best = max(totals)
        tied = [s for s, v in enumerate(totals) if v == best]
        if len(tied) == 1 or not self.game_tie_to_non_dealer:
            r = super()._game_award(totals, dealer)
            if isinstance(r, Reason):
                return Reason(r.code, "K4", r.params)
            return r
        ds = self.side_of(dealer)
        for k in range(1, self.players):
            side = self.side_of((dealer + k) % self.players)
            if side in tied and side != ds:
                return Award("game", side, 1, Reason("game-tie-dealer-excluded", "C27", {
                    "side": side, "totals": list(totals), "dealer": dealer}))
        raise AssertionError("unreachable: a tie always has a non-dealer side")


def _or(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
