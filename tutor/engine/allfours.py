"""All Fours: the machinery shared by the classic game and Trinidad.

Shapes. Seats are ``int`` 0..players-1 **in order of play** (seat s+1 plays right after seat s;
clockwise for classic, anticlockwise for Trinidad), so in both games the seat after the dealer
(``dealer + 1``) decides stand/beg and leads the first trick, and the deal passes to
``dealer + 1``. A *side* is what scores: the team ``seat % 2`` with four players, else the seat.
Cards are ``int`` 0..51 (:class:`~tutor.engine.cards.Card`), hands ``int`` bit sets, a trump a
:class:`~tutor.engine.cards.Suit`. Every verdict carries a :class:`~tutor.engine.reasons.Reason`.

Contents, by concept, in four modules:

* :mod:`tutor.engine.allfours_state` — :class:`~tutor.engine.allfours_state.AllFoursOptions`
  (typed, frozen options of the classic game, RULES.md §3.3), the immutable results
  (``Award``, ``TrumpMaking``, ``HandScore``), ``Action``, ``GameState`` and the deal (cut, shuffle);
* :mod:`tutor.engine.allfours_rules` — :class:`~tutor.engine.allfours_rules.AllFoursRules`, the
  rules both games share: legal plays (C20/C21, T14/T15), trick winner (via
  :mod:`tutor.engine.tricks`), turn-up scoring, stand/beg/give/run with the pack arithmetic of
  RULES.md §3.2, High/Low/Jack/Game, the counting order and the winner;
* here, :class:`AllFoursFamily` — those rules and the full state machine behind the game protocol;
* :mod:`tutor.engine.allfours_classic`, :class:`~tutor.engine.allfours_classic.AllFours` — the classic game (seed 000): jack (or *Running All Fours*) turn-up scale,
  gift to each opposing party (K5, K27), discards after each run (C15), bunch (C18), Low dealt
  or captured (C24/C30), Game tie dealer-excluded or nobody (C27/K4).

The decisions made where RULES.md and the spec are silent are listed in
:mod:`tutor.engine.allfours_rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .allfours_rules import AllFoursRules
from .allfours_state import (
    _AGREE,
    _BEG,
    _BUNCH,
    _DISCARDS,
    _GIVE,
    _PASS,
    _PLAYS,
    _REFUSE,
    _RUN,
    _STAND,
    BUNCH,
    CHOOSE,
    DECIDE,
    DISCARD,
    HAND_SIZE,
    OVER,
    PLAY,
    VOTE,
    Action,
    Award,
    GameState,
    HandScore,
    _with,
    cut_dealer,
    deal_deck,
    tally,
)
from .cards import (
    CARDS,
    Suit,
    iter_cards,
)
from .errors import BadFieldError, IllegalPlayError, ImpossibleStateError
from .reasons import N_, REASON_TEXTS, Reason
from .tricks import (
    HandRecord,
)

__all__ = ["AllFoursFamily"]


class AllFoursFamily(AllFoursRules):
    """:class:`~tutor.engine.allfours_rules.AllFoursRules` and the full state machine
    (:class:`~tutor.engine.allfours_state.GameState`, :class:`~tutor.engine.allfours_state.Action`)
    behind the game protocol (:class:`~tutor.engine.rulesets.GameEngine`); subclasses set the hooks."""

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
        state = _with(state, phase=CHOOSE, hands=tuple(hands), stock=stock[1:], turn_ups=(*state.turn_ups, turn),
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
            state = _with(state, hands=tuple(h & ~b for h, b in zip(state.hands, state.batch, strict=True)),
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
        trick = (*state.trick, card)
        state = _with(state, hands=tuple(hands), exposed=tuple(exposed), trick=trick)
        if len(trick) < self.players:
            return state
        w = self.winner_seat(trick, trump, state.leader)
        won = list(state.won)
        for c in trick:
            won[w] |= 1 << c
        state = _with(state, trick=(), leader=w, tricks=(*state.tricks, (state.leader, trick)),
                        trick_winners=(*state.trick_winners, w), won=tuple(won))
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


REASON_TEXTS.update({
    "call-not-exposed": N_("%(card)s is not an exposed card of seat %(seat)s."),
    "call-not-legal": N_("%(card)s is exposed, but it may be called only when playing it is legal."),
})


def _or(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
