"""Playing one whole deal against engine-driven players ("bots"), with a coach: pure Python.

A *deal* is one Hokm round (the hakem names trump from his first five cards, then play to the
first team on 7 tricks) or one All Fours / Trinidad hand (turn-up, stand or beg, give one or run
the pack, play every card, count High, Low, Jack, Game). One learner sits at seat ``you``; every
other seat is a bot.

Reproducible: a deal is a pure function of ``(ruleset, options, seed, you, learner's actions)``.
The game is dealt from ``seed`` by the ruleset's own state machine
(:meth:`~tutor.engine.rulesets.RulesetInfo.engine`), each bot decides from what it sees with
ties broken by a random generator seeded from ``seed`` (:func:`bot_rng`), and the learner's
actions are short text tokens (:meth:`Coach.token`) so that a deal fits in a URL and is shared by
its seed. :func:`replay` rebuilds a deal from them; every action goes through the engine's
``apply``, so a card the rules forbid raises
:class:`~tutor.engine.errors.IllegalPlayError` whose reason names the rule on this very hand.

One interface for the three games: :class:`Coach`; each game brings its own subclass in its
own module (:mod:`tutor.engine.hokm_play`, :mod:`tutor.engine.allfours_play`), found through the
ruleset registry (:meth:`~tutor.engine.rulesets.RulesetInfo.coach`). Nothing here branches on a
game's name.

The bots' card play (:func:`tutor.engine.bots.bot_card`) is shared, since the three games decide a trick the same
way (H16, C22, T16): lead a card that is the highest left in its suit, else low from the longest
plain suit; follow low when the partner is winning the trick; otherwise win as cheaply as
possible (a trump when it wins); when it cannot win, throw the lowest card, keeping trumps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import CARD_NAMES, CARDS, parse_card
from .errors import BadFieldError, IllegalPlayError, show
from .reasons import N_, REASON_TEXTS, Reason

__all__ = [
    "Coach",
    "Deal",
    "TrickDone",
    "bot_deal",
    "bot_rng",
    "played_deal_observations",
    "replay",
]

REASON_TEXTS.update({
    "deal-tricks": N_("%(team)s took %(tricks)s tricks and %(other_team)s took %(other)s."),
    "game-count": N_("Game count of %(side)s: %(points)s (%(cards)s)."),
    "game-count-none": N_("%(side)s won no cards that count for Game (tens, aces, kings, queens, jacks)."),
    "side-score": N_("Score of %(side)s now: %(score)s (game to %(target)s)."),
    "next-dealer": N_("The deal passes to %(next_dealer)s, the next player in the order of play."),
    "did-play": N_("%(seat)s played %(card)s."),
    "did-discard": N_("%(seat)s discarded a card."),
})

#: The longest token list :func:`replay` reads (a Trinidad hand of two players: 21 cards, trump
#: making and discards stay well below it).
MAX_ACTIONS = 120


@dataclass(frozen=True, slots=True)
class TrickDone:
    """A finished trick of the deal: ``n`` (1-based), ``leader`` (seat), ``cards`` (play order),
    ``winner`` (seat) and ``reason`` (why it won: H16, C22, T16)."""

    n: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    reason: Reason

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played card ``i``."""
        return (self.leader + i) % players


@dataclass
class Deal:
    """A deal rebuilt by :func:`replay`.

    ``state``: the engine state now (once ``over``, the state after the deal, where the engine has
    already dealt the next one); ``last``: the last state inside the deal (before its final
    action; equal to ``state`` while the deal goes on); ``tricks``: the finished tricks;
    ``trick``: the cards of the trick in progress with ``trick_leader``; ``played``: bit set of
    every card played; ``steps``: ``(seat, token, by_bot)`` in order and ``told`` what each step
    did, as a reason (``did-play`` ...: :meth:`Coach.describe`); ``you``: the learner's seat;
    ``start``: the state at the start (the learner's role is fixed from it).
    """

    coach: Coach
    seed: int
    you: int
    start: Any
    state: Any
    last: Any
    tricks: list[TrickDone] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    trick_leader: int = 0
    played: int = 0
    steps: list[tuple[int, str, bool]] = field(default_factory=list)
    told: list[Reason] = field(default_factory=list)
    final_action: Any = None
    final_seat: int | None = None

    @property
    def over(self) -> bool:
        """True once the deal is played to its end (or the game ended during it)."""
        return self.coach.deal_over(self.state)

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited, ``None`` once the deal is over."""
        return None if self.over else self.coach.engine.to_act(self.state)

    @property
    def learner_actions(self) -> list[str]:
        """The learner's tokens, in order."""
        return [t for _s, t, bot in self.steps if not bot]

    def hand(self, seat: int) -> int:
        """Bit set of the cards ``seat`` holds now (at the end: what was left unplayed)."""
        if not self.over:
            return self.coach.hand(self.state, seat)
        left = self.coach.hand(self.last, seat)
        if self.final_seat == seat:
            card = self.coach.played_card(self.last, self.final_action)
            if card is not None:
                left &= ~(1 << card)
        return left

    def story(self) -> list[Reason]:
        """The end of the deal explained step by step (:meth:`Coach.story`); ``[]`` before."""
        return self.coach.story(self) if self.over else []


class Coach:
    """One game's deal, seen by a player at the table, behind one interface.

    Built by :meth:`~tutor.engine.rulesets.RulesetInfo.coach` with the ruleset's facts (``info``)
    and an engine for ``options``. Subclasses answer the game-specific questions (trump making,
    what a seat holds and sees, the bots' decisions, the end-of-deal story); everything else is
    here.

    Action tokens: ``"p" + card`` plays a card (``"p10H"``); the other tokens are the game's own
    (:meth:`choices`).
    """

    #: The learner's roles this game offers (first = default), as ``(role, message id)``.
    ROLES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, info: Any, options: Any = None):
        self.info = info
        self.engine = info.engine(options)
        self.players: int = self.engine.players
        self.options = self.engine.options

    # -- what every game answers ---------------------------------------------------------------
    def deal_over(self, state: Any) -> bool:
        """True once the deal is played to its end, or the game is over."""
        return bool(self.engine.hands_done(state) > 0 or self.engine.is_over(state))

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat`` (the ruleset's partnerships: team ``seat % 2`` with four
        players, else the seat)."""
        return int(self.info.side_of(seat, self.players))

    def sides(self) -> int:
        """Number of scoring sides."""
        return int(self.info.sides(self.players))

    def role_seat(self, state: Any, role: str) -> int:
        """The learner's seat for ``role`` (one of :attr:`ROLES`) in the deal ``state`` starts."""
        raise NotImplementedError

    def hand(self, state: Any, seat: int) -> int:
        """Bit set of the cards ``seat`` holds in ``state`` (the hakem's first five while he names trump)."""
        raise NotImplementedError

    def trump(self, state: Any) -> int | None:
        """The trump suit (0..3) once made, else ``None``."""
        raise NotImplementedError

    def dealer(self, state: Any) -> int:
        """The dealer's seat."""
        raise NotImplementedError

    def hakem(self, state: Any) -> int | None:
        """The hakem's seat (Hokm), else ``None``."""
        return None

    def turn_ups(self, state: Any) -> tuple[int, ...]:
        """The cards turned up this deal, in order (none in Hokm)."""
        return ()

    def scores(self, state: Any) -> tuple[int, ...]:
        """Game (match) points per side in ``state``."""
        return tuple(self.engine.scores(state))

    def phase(self, state: Any) -> str:
        """``"trump"`` (trump is being made), ``"discard"``, ``"play"`` or ``"over"``."""
        raise NotImplementedError

    def card_mode(self, state: Any) -> str:
        """What a card of the hand does when chosen now: ``"play"``, ``"discard"`` or ``""``."""
        return "play" if self.phase(state) == "play" else ""

    def card_action(self, state: Any, seat: int, card: int) -> Any:
        """The engine action for ``seat`` choosing ``card`` (play or discard)."""
        raise NotImplementedError

    def played_card(self, state: Any, action: Any) -> int | None:
        """The card ``action`` plays to the trick, else ``None``."""
        raise NotImplementedError

    def choices(self, state: Any, seat: int) -> list[tuple[str, Reason]]:
        """The decisions (not cards) open to ``seat`` now: ``(token, label)``, the label a
        :class:`Reason` whose template is the button's text (e.g. ``name-trump``)."""
        raise NotImplementedError

    def token(self, action: Any) -> str:
        """The action as a short token."""
        raise NotImplementedError

    def parse(self, token: str, state: Any, seat: int) -> Any:
        """The action ``token`` names for ``seat`` in ``state``; :class:`BadFieldError` if it names
        none (the engine then judges whether it is legal)."""
        raise NotImplementedError

    def bot(self, state: Any, seat: int, rng: random.Random, played: int) -> Any:
        """The bot's action for ``seat`` (``played``: bit set of the cards already played)."""
        raise NotImplementedError

    def play_reason(self, state: Any, seat: int) -> Reason:
        """The rule that decides which cards ``seat`` may play now (H6/H14/H15/H19, C19-C21, T13-T15)."""
        raise NotImplementedError

    def legal_cards(self, state: Any, seat: int) -> int:
        """Bit set of the cards ``seat`` may choose now (to play or discard)."""
        out = 0
        for a in self.engine.legal_actions(state):
            card = self.action_card(a)
            if card is not None:
                out |= 1 << card
        return out

    def action_card(self, action: Any) -> int | None:
        """The card an action chooses (play or discard), else ``None``."""
        raise NotImplementedError

    def decision_rule(self, state: Any, action: Any) -> str:
        """The rule point a decision (not a card) exercises."""
        raise NotImplementedError

    def describe(self, state: Any, seat: int, action: Any) -> Reason:
        """What ``seat`` did with ``action`` in ``state``, told to the table (a discard hides its card)."""
        card = self.played_card(state, action)
        if card is not None:
            return Reason("did-play", self.play_reason(state, seat).rule, {"seat": seat, "card": CARD_NAMES[card]})
        if self.action_card(action) is not None:
            return Reason("did-discard", self.decision_rule(state, action), {"seat": seat})
        return self.describe_decision(state, seat, action)

    def describe_decision(self, state: Any, seat: int, action: Any) -> Reason:
        """:meth:`describe` for a decision (naming trump, stand, beg ...)."""
        raise NotImplementedError

    def trick_winner(self, cards: Sequence[int], trump: int | None, leader: int) -> tuple[int, Reason]:
        """``(seat, reason)`` of a complete trick."""
        seat, _card, why = self.engine.trick_winner(list(cards), trump, leader)
        return seat, why

    def story(self, deal: Deal) -> list[Reason]:
        """The end of ``deal`` explained step by step, as reasons."""
        raise NotImplementedError

    def final_scores(self, deal: Deal) -> tuple[int, ...]:
        """Game points per side once the deal is scored (before anything of the next deal)."""
        return self.scores(deal.state)

    # -- shared helpers ---------------------------------------------------------------------------
    def parse_card_token(self, token: str) -> int:
        """The card of a ``"p<card>"`` token; :class:`BadFieldError` otherwise."""
        if not token.startswith("p"):
            raise BadFieldError(f"{show(token)} is not an action.")
        try:
            return int(parse_card(token[1:]))
        except (ValueError, BadFieldError) as e:
            raise BadFieldError(f"{show(token)} is not an action.") from e


def bot_rng(seed: int) -> random.Random:
    """The bots' random generator of the deal dealt from ``seed`` (tie-breaks only)."""
    return random.Random(f"{seed}/bots")


def _apply(deal: Deal, seat: int, action: Any, token: str, by_bot: bool) -> None:
    """Apply ``action`` of ``seat`` to ``deal`` (the engine judges it) and track the trick."""
    coach = deal.coach
    before = deal.state
    card = coach.played_card(before, action)
    after = coach.engine.apply(before, action)  # IllegalPlayError with the rule's reason
    deal.steps.append((seat, token, by_bot))
    deal.told.append(coach.describe(before, seat, action))
    deal.last, deal.state = before, after
    deal.final_action, deal.final_seat = action, seat
    if card is None:
        return
    if not deal.trick:
        deal.trick_leader = seat
    deal.trick.append(card)
    deal.played |= 1 << card
    if len(deal.trick) == coach.players:
        trump = coach.trump(before)
        winner, why = coach.trick_winner(deal.trick, trump, deal.trick_leader)
        deal.tricks.append(TrickDone(len(deal.tricks) + 1, deal.trick_leader, tuple(deal.trick), winner, why))
        deal.trick = []


def _run_bots(deal: Deal, rng: random.Random) -> None:
    """Let the bots act until it is the learner's turn or the deal is over."""
    coach = deal.coach
    while not deal.over:
        seat = coach.engine.to_act(deal.state)
        if seat is None or seat == deal.you:
            return
        action = coach.bot(deal.state, seat, rng, deal.played)
        _apply(deal, seat, action, coach.token(action), True)


def start_deal(coach: Coach, seed: int, you: int | None = None, role: str | None = None) -> Deal:
    """The deal dealt from ``seed`` with the learner at seat ``you`` (or in ``role``), the bots
    having acted up to the learner's first turn."""
    state = coach.engine.new_game(seed)
    if you is None:
        you = coach.role_seat(state, role or coach.ROLES[0][0])
    deal = Deal(coach, seed, you, state, state, state)
    _run_bots(deal, bot_rng(seed))
    return deal


def replay(coach: Coach, seed: int, you: int | None, actions: Sequence[str], role: str | None = None,
           *, upto: int | None = None) -> Deal:
    """Rebuild the deal dealt from ``seed`` in which the learner (seat ``you``, or the seat of
    ``role``) took ``actions`` (tokens), the bots acting in between.

    Raises :class:`BadFieldError` for a token that names no action, too many actions, or an action
    given when the deal is over, and :class:`IllegalPlayError` (with the engine's reason) for an
    action the rules forbid. ``upto``: stop after that many learner actions.
    """
    if len(actions) > MAX_ACTIONS:
        raise BadFieldError(f"a deal has at most {MAX_ACTIONS} actions of one player.")
    rng = bot_rng(seed)
    state = coach.engine.new_game(seed)
    if you is None:
        you = coach.role_seat(state, role or coach.ROLES[0][0])
    if not (isinstance(you, int) and 0 <= you < coach.players):
        raise BadFieldError(f"seat must be 0..{coach.players - 1}, not {show(you)}.")
    deal = Deal(coach, seed, you, state, state, state)
    _run_bots(deal, rng)
    for n, token in enumerate(actions):
        if upto is not None and n >= upto:
            break
        if deal.over:
            raise BadFieldError("the deal is over: no more actions.")
        action = coach.parse(token, deal.state, you)
        _apply(deal, you, action, coach.token(action), False)
        _run_bots(deal, rng)
    return deal


def try_action(coach: Coach, deal: Deal, token: str) -> tuple[Deal | None, Reason | None]:
    """The learner's ``token`` tried on ``deal``: ``(new deal, None)`` if the engine accepts it,
    ``(None, reason)`` if the rules forbid it (the reason names the rule on this hand).
    Raises :class:`BadFieldError` for a token that names no action or when it is not the
    learner's turn."""
    if deal.over or deal.to_act != deal.you:
        raise BadFieldError("it is not your turn.")
    action = coach.parse(token, deal.state, deal.you)
    try:
        coach.engine.apply(deal.state, action)
    except IllegalPlayError as e:
        if e.reason is None:
            raise
        return None, e.reason
    return replay(coach, deal.seed, deal.you, [*deal.learner_actions, coach.token(action)]), None


def bot_deal(coach: Coach, seed: int) -> Deal:
    """A whole deal played by bots at every seat (benchmarks, property tests)."""
    rng = bot_rng(seed)
    state = coach.engine.new_game(seed)
    deal = Deal(coach, seed, -1, state, state, state)
    while not deal.over:
        seat = coach.engine.to_act(state)
        assert seat is not None
        action = coach.bot(deal.state, seat, rng, deal.played)
        _apply(deal, seat, action, coach.token(action), True)
        state = deal.state
    return deal


# ---------------------------------------------------------------------------------------------
# What a played deal exercised

def played_deal_observations(info: Any, options: Any, seed: int, you: int | None, actions: Sequence[str],
                             refused: Sequence[tuple[int, str]] = (), role: str | None = None,
                             since: int = 0) -> list[tuple[str, str, bool]]:
    """The rule points a learner's deal exercised, as ``(ruleset, rule_point, correct)``.

    ``info``: the :class:`~tutor.engine.rulesets.RulesetInfo`; ``actions``: the learner's accepted
    tokens; ``refused``: ``(n, token)`` for each action the engine refused when ``n`` actions
    had been accepted. Each accepted card counts ``correct=True`` for the rule that decided which
    cards were legal then (e.g. H14 when following suit, H15 when void); each refused one
    ``correct=False`` for the rule it broke (the engine's reason); each decision (naming trump,
    stand or beg, give or run, discard, bunch) ``correct=True`` for its rule point. ``since``:
    only the actions from the ``since``-th accepted one on (counted from 0), and the refusals
    tried then or later, are observed (the moves this learner made of a deal they took up from
    a shared address part-way). Raises as :func:`replay`.
    """
    coach = info.coach(options)
    out: list[tuple[str, str, bool]] = []
    by_n: dict[int, list[str]] = {}
    for n, bad_token in refused:
        by_n.setdefault(n, []).append(bad_token)
    rng = bot_rng(seed)
    state = coach.engine.new_game(seed)
    if you is None:
        you = coach.role_seat(state, role or coach.ROLES[0][0])
    deal = Deal(coach, seed, you, state, state, state)
    _run_bots(deal, rng)
    tokens: list[str | None] = [*actions, None]
    for n, token in enumerate(tokens):
        for bad in by_n.get(n, ()) if n >= since else ():
            try:
                tried = coach.parse(bad, deal.state, you)
                coach.engine.apply(deal.state, tried)
            except IllegalPlayError as e:
                if e.reason is not None:
                    out.append((info.name, e.reason.rule, False))
            except BadFieldError:
                continue
        if token is None:
            break
        action = coach.parse(token, deal.state, you)
        if n < since:
            pass
        elif coach.played_card(deal.state, action) is not None:
            out.append((info.name, coach.play_reason(deal.state, you).rule, True))
        else:
            out.append((info.name, coach.decision_rule(deal.state, action), True))
        _apply(deal, you, action, coach.token(action), False)
        _run_bots(deal, rng)
    return out


def card_token(card: int) -> str:
    """The token that plays or discards ``card``: ``"p10H"``."""
    return "p" + CARD_NAMES[card]


def cards_text(mask: int) -> list[str]:
    """The cards of bit set ``mask`` as canonical strings, highest first in suit order."""
    return [str(CARDS[c]) for c in range(51, -1, -1) if mask >> c & 1]
