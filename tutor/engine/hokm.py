"""Hokm for four players (seed 002 "Hokm from scratch", RULES.md §1.3 H1-H27, §3.2, K12-K15).

Seats are numbered in order of play: seat ``s + 1`` plays right after seat ``s``, i.e. it sits on
``s``'s right (Hokm turns anticlockwise, H10). Partners sit opposite (H5): team ``seat % 2``.
From the hakem ``h``: ``h + 1`` is his right-hand opponent, ``h + 2`` his partner, ``h + 3`` his
left-hand opponent (who deals, see :class:`HokmRound`).

Rules as code (each with its source):

* legal plays — follow the suit led if able, any rank of it (seed 002, H14); void → any card,
  trumping and overtrumping optional (H15); a trump lead binds the same way (H19);
* trick winner — highest trump played, else highest card of the suit led (H16); the winner
  leads next (H17);
* round — ends as soon as a team has 7 tricks (H20; option ``stop_at_seven=False`` plays all 13
  tricks without changing the score, K13); value 1, kot 2 (hakem's team wins 7-0), hakem-kot 3
  (the hakem's opponents win 7-0) — RULES.md §3.2 "Hokm round value", H21-H23;
* next hakem — the same seat if his team won, else the seat on his right, ``hakem + 1``
  (H25, K12); the new hakem is therefore always on the team that just won;
* match — rounds until a team has ``target`` points, 7 or 3 (H24, K14).

The legal-play and trick-winner helpers work on bit sets and are fast; the state machine
(:class:`HokmRound`, :class:`HokmGame`) is built on them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARDS, SUIT_MASK, Card, Suit, cards_of, shuffled_deck
from .errors import BadFieldError, IllegalPlayError, show
from .hokm_rules import TRICKS_TO_WIN, HokmOptions, HokmRules, RoundResult
from .reasons import Reason
from .tricks import HandRecord, Trick, follow_reason, follow_suit, winning_index

__all__ = ["ChooseTrump", "Hokm", "HokmGame", "HokmRound", "Play", "random_round"]


class Hokm(HokmRules):
    """The Hokm ruleset: :class:`~tutor.engine.hokm_rules.HokmRules` (the rules on an
    options-taking instance) and the game protocol (:class:`~tutor.engine.rulesets.GameEngine`)
    over :class:`HokmGame`. ``Hokm(HokmOptions(...))`` or ``Hokm()`` for the defaults.
    """

    # -- the game protocol (tutor.engine.rulesets.GameEngine) ---------------------------------
    # A state is a :class:`HokmGame`; :meth:`apply` copies it, so states are never changed.
    def new_game(self, seed: int = 0) -> HokmGame:
        """A new match dealt from ``seed`` (same seed, same match)."""
        return HokmGame(seed=seed, options=self.options)

    def legal_actions(self, state: HokmGame) -> list[ChooseTrump | Play]:
        """Every legal action (:class:`ChooseTrump` or :class:`Play`); none once the match is over."""
        return state.legal_actions()

    def apply(self, state: HokmGame, action: ChooseTrump | Play) -> HokmGame:
        """A new state after ``action``; ``state`` is unchanged. Raises :class:`IllegalPlayError`
        with the rule point (H8, H11, H14, H19, H20, H24) for an action the rules forbid."""
        new = state.copy()
        new.push(action)
        return new

    def to_act(self, state: HokmGame) -> int | None:
        """The seat to act (the hakem while trump is named), ``None`` once the match is over."""
        return None if state.over else state.round.to_play

    def is_over(self, state: HokmGame) -> bool:
        """True once a team has reached the target (H24)."""
        return state.over

    def scores(self, state: HokmGame) -> tuple[int, ...]:
        """Match points per team."""
        return tuple(state.scores)

    def winner(self, state: HokmGame) -> int | None:
        """The team that won the match, or ``None``."""
        return state.winner

    def hands_done(self, state: HokmGame) -> int:
        """Rounds played to their end."""
        return len(state.rounds)

    def last_hand(self, state: HokmGame) -> HandRecord | None:
        """The last round played: it ends when a team has 7 tricks (H20), or after 13 (K13)."""
        if not state.rounds:
            return None
        rd = state.rounds[-1]
        return HandRecord(tuple(rd.trick_winners), 13, (rd.team_tricks[0], rd.team_tricks[1]),
                          TRICKS_TO_WIN if self.options.stop_at_seven else None)


# ---------------------------------------------------------------------------------------------
# The round and match state machine

@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The hakem names ``suit`` trump after his first five cards (H8, H11)."""

    suit: Suit


@dataclass(frozen=True, slots=True)
class Play:
    """The seat to play plays ``card``."""

    card: Card


class HokmRound:
    """One round of Hokm, from the deal to the first team on 7 tricks (or all 13, K13).

    Deal (H8, H9; RULES.md §3.1 "dealer = hakem's left" from pagat): the dealer is the hakem's
    left-hand opponent, seat ``hakem - 1`` (= ``hakem + 3``); he deals five cards to each player,
    the hakem first and then on round in play order, the hakem names trump from his five
    (phase ``"trump"``), then four and four more (phase ``"play"``). The deal is taken from
    ``deck`` (52 cards) in that order, or from a pack shuffled with ``seed``.

    Actions: :class:`ChooseTrump` (phase ``"trump"``, hakem only, any suit — H8 lets him choose
    from his own cards only, i.e. no look at the rest; any of the four suits may be named) and
    :class:`Play` (phase ``"play"``). :meth:`push` raises :class:`IllegalPlayError` with a
    :class:`Reason` for an illegal action. Phase ``"over"`` once the round is decided (or,
    with ``stop_at_seven=False``, once all 13 tricks are played); :attr:`result` is then set.

    Mutable (like a chess board); :meth:`copy` gives an independent copy. Cards are ints, hands
    bit sets in :attr:`hands` (indexed by seat).
    """

    __slots__ = (
        "_full",
        "dealer",
        "dealt",
        "hakem",
        "hands",
        "options",
        "phase",
        "played",
        "result",
        "rules",
        "team_tricks",
        "trick",
        "trick_winners",
        "tricks",
        "trump",
    )

    def __init__(self, hakem: int = 0, *, seed: int | random.Random | None = None,
                 deck: Sequence[int] | None = None, options: HokmOptions | None = None):
        if not (isinstance(hakem, int) and 0 <= hakem < 4):
            raise BadFieldError(f"hakem must be a seat 0..3, not {show(hakem)}.")
        self.options = options or HokmOptions()
        self.rules = HokmRules(self.options)
        self.hakem = hakem
        self.dealer = (hakem + 3) % 4
        if deck is None:
            deck = shuffled_deck(seed)
        elif len(deck) != 52 or len(set(deck)) != 52:
            raise BadFieldError("a deck must hold the 52 cards once each.")
        self.hands, self._full = self.rules.deal(deck, hakem)
        self.dealt: tuple[int, ...] = ()
        self.trump: Suit | None = None
        self.trick = Trick(hakem)
        self.tricks: list[Trick] = []
        self.trick_winners: list[int] = []
        self.team_tricks = [0, 0]
        self.phase = "trump"
        self.result: RoundResult | None = None
        self.played = 0  # bit set of every card played so far

    # -- queries ---------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        """Seat whose turn it is (the hakem while choosing trump), ``None`` when over."""
        if self.phase == "trump":
            return self.hakem
        if self.phase == "over":
            return None
        return self.trick.to_play

    def legal_actions(self) -> list[ChooseTrump | Play]:
        """Every legal action now: four :class:`ChooseTrump` in phase ``"trump"``, the legal
        :class:`Play` of the seat to play in phase ``"play"``, none when over."""
        if self.phase == "trump":
            return [ChooseTrump(s) for s in Suit]
        if self.phase == "over":
            return []
        return [Play(c) for c in cards_of(self.legal_mask())]

    def legal_mask(self) -> int:
        """Bit set of the cards the seat to play may play (0 outside phase ``"play"``)."""
        if self.phase != "play":
            return 0
        return follow_suit(self.hands[self.trick.to_play], self.trick.led)

    # -- actions ---------------------------------------------------------------------------
    def push(self, action: ChooseTrump | Play) -> None:
        """Apply ``action``. Raises :class:`IllegalPlayError` (with ``.reason``) when the rules
        forbid it: wrong phase, a card not in the hand of the seat to play, not following suit
        (H14, H19)."""
        if isinstance(action, ChooseTrump):
            if self.phase != "trump":
                raise IllegalPlayError("trump is already chosen for this round.",
                                       Reason("hakem-chooses-trump", "H11", {"hakem": self.hakem}))
            self.choose_trump(action.suit)
        elif isinstance(action, Play):
            self.play(action.card)
        else:
            raise TypeError(f"not a Hokm action: {action!r}")

    def choose_trump(self, suit: int) -> None:
        """The hakem names ``suit`` (int 0..3 or :class:`Suit`) trump; the deal is completed (H8,
        H9). Raises :class:`IllegalPlayError` if trump is already named, :class:`BadFieldError`
        for a value that is not a suit."""
        if self.phase != "trump":
            raise IllegalPlayError("trump is already chosen for this round.",
                                   Reason("hakem-chooses-trump", "H11", {"hakem": self.hakem}))
        if isinstance(suit, bool) or suit not in (0, 1, 2, 3):
            raise BadFieldError(f"{show(suit)} is not a suit 0..3 (Suit.S, H, D, C).")
        self.trump = Suit(suit)
        self.dealt = self._full
        self.hands = list(self.dealt)
        self.phase = "play"

    def play(self, card: int) -> None:
        """The seat to play plays ``card`` (int 0..51). Raises :class:`IllegalPlayError` (rule
        H14/H19 for a revoke, ``card-not-in-hand``, ``round-over``; the message ends with the rule
        id) or :class:`BadFieldError` for a value that is not a card."""
        if self.phase != "play":
            if self.phase == "over":
                raise IllegalPlayError("the round is over.", Reason("round-over", "H20", {}))
            raise IllegalPlayError("the hakem must name trump first.",
                                   Reason("hakem-chooses-trump", "H8", {"hakem": self.hakem}))
        if not (isinstance(card, int) and 0 <= card < 52):
            raise BadFieldError(f"{show(card)} is not a card index 0..51.")
        trick = self.trick
        seat = trick.to_play
        hand = self.hands[seat]
        bit = 1 << card
        if not hand & bit or not follow_suit(hand, trick.led) & bit:
            reason = follow_reason(card, hand, trick.cards, self.trump)
            raise IllegalPlayError(f"seat {seat} may not play {CARDS[card]}: {reason.text()} ({reason.rule})", reason)
        self.hands[seat] = hand ^ bit
        self.played |= bit
        trick = trick.add(card)
        if len(trick.cards) < 4:
            self.trick = trick
            return
        winner = (trick.leader + winning_index(trick.cards, self.trump)) % 4
        self.tricks.append(trick)
        self.trick_winners.append(winner)
        self.team_tricks[winner % 2] += 1
        self.trick = Trick(winner)
        if self.result is None and self.team_tricks[winner % 2] == TRICKS_TO_WIN:
            self.result = self.rules.round_result(self.hakem, self.team_tricks)
            if self.options.stop_at_seven:
                self.phase = "over"
        if len(self.tricks) == 13:
            self.phase = "over"

    def copy(self) -> HokmRound:
        """An independent copy of this round."""
        new = object.__new__(HokmRound)
        for name in HokmRound.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.tricks = list(self.tricks)
        new.trick_winners = list(self.trick_winners)
        new.team_tricks = list(self.team_tricks)
        return new

    def __repr__(self) -> str:
        trump = self.trump.letter if self.trump is not None else "-"
        return (f"<HokmRound hakem={self.hakem} trump={trump} phase={self.phase} "
                f"tricks={self.team_tricks[0]}-{self.team_tricks[1]}>")


class HokmGame:
    """A Hokm match: rounds until a team reaches ``options.target`` points (H24, K14).

    The first hakem is drawn with ``seed`` (``first_hakem="random"``: uniformly among the four
    seats, H7) or by dealing face up until the first ace (``"first_ace"``, H7): that draw is dealt
    one card at a time starting at seat 0 and going on in play order (a decision: the seed does
    not say who deals it). With ``partner_by_second_ace`` the dealing goes on until an ace reaches
    a player other than the hakem (an ace to the hakem himself is passed over — a decision); that
    player swaps seats with the hakem's partner and so becomes his partner (if all four aces
    reach the hakem, nobody moves). :attr:`seating` records
    which player (0..3, numbered by their first seats) sits at each seat; seats and teams stay
    ``seat % 2`` throughout.

    :attr:`round` is the current :class:`HokmRound`. When an action ends it, the round is scored
    (:attr:`results`, :attr:`scores`), the hakem moves (H25, K12) and, unless the match is over,
    the next round is dealt at once; finished rounds stay in :attr:`rounds`. Each deal is
    shuffled by the game's own ``random.Random`` (seeded once), so a seed replays the match.
    :attr:`winner` is the winning team once :attr:`over`.
    """

    def __init__(self, seed: int | random.Random | None = None, options: HokmOptions | None = None):
        self.options = options or HokmOptions()
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.scores = [0, 0]
        self.results: list[RoundResult] = []
        self.rounds: list[HokmRound] = []
        self.winner: int | None = None
        self.hakem, self.seating = self._first_hakem()
        self.round = HokmRound(self.hakem, seed=self.rng, options=self.options)

    def _first_hakem(self) -> tuple[int, tuple[int, ...]]:
        if self.options.first_hakem == "random":
            return self.rng.randrange(4), (0, 1, 2, 3)
        deck = shuffled_deck(self.rng)
        aces = [i % 4 for i, c in enumerate(deck) if c % 13 == 12]  # seats receiving the aces, in order
        hakem = aces[0]
        seating = [0, 1, 2, 3]
        if self.options.partner_by_second_ace:
            other = next((s for s in aces[1:] if s != hakem), None)  # None: all four aces went to the hakem
            partner = (hakem + 2) % 4
            if other is not None:
                seating[other], seating[partner] = seating[partner], seating[other]
        return hakem, tuple(seating)

    @property
    def over(self) -> bool:
        """True once a team has reached the target."""
        return self.winner is not None

    def copy(self) -> HokmGame:
        """An independent copy: the same match, going on the same way (the random generator's
        state is copied too)."""
        new = object.__new__(HokmGame)
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.scores = list(self.scores)
        new.results = list(self.results)
        new.rounds = list(self.rounds)
        new.round = self.round.copy()
        return new

    def legal_actions(self) -> list[ChooseTrump | Play]:
        """Legal actions of the current round; none once the match is over."""
        return [] if self.over else self.round.legal_actions()

    def push(self, action: ChooseTrump | Play) -> None:
        """Apply ``action`` to the current round; when the round ends, score it and deal the next.

        Raises :class:`IllegalPlayError` as :meth:`HokmRound.push`, or with reason ``match-won``
        once the match is over.
        """
        w = self.winner
        if w is not None:  # the match is over
            raise IllegalPlayError("the match is over.", Reason(
                "match-won", "H24", {"team": w, "score": self.scores[w], "target": self.options.target}))
        self.round.push(action)
        if self.round.phase != "over":
            return
        res = self.round.result
        assert res is not None  # a round is over only once a team has 7 tricks
        self.rounds.append(self.round)
        self.results.append(res)
        self.scores[res.winner_team] += res.points
        if self.scores[res.winner_team] >= self.options.target:
            self.winner = res.winner_team
            return
        self.hakem = res.next_hakem
        self.round = HokmRound(self.hakem, seed=self.rng, options=self.options)


# ---------------------------------------------------------------------------------------------
# Fast random play (benchmarks, property tests): the same rules inlined on bit sets.

def random_round(rng: random.Random, hakem: int = 0, stop_at_seven: bool = True,
                 deck: Sequence[int] | None = None, trump: int | None = None,
                 record: list[list[int]] | None = None) -> tuple[int, list[int], list[int]]:
    """Play one round with uniformly random legal cards; return ``(trump, team_tricks,
    trick_winners)``.

    Same deal order and rules as :class:`HokmRound` (H8-H20), written as one loop on bit sets
    for speed. ``deck`` (52 cards; else shuffled with ``rng``) and ``trump`` (else drawn with
    ``rng``) may be fixed; ``record``, if a list, receives each trick's cards in play order.
    """
    if deck is None:
        deck = list(range(52))
        rng.shuffle(deck)
    if trump is None:
        trump = int(rng.random() * 4)
    hands = list(HokmRules().deal(deck, hakem)[1])
    rand = rng.random
    masks = SUIT_MASK
    counts = [0, 0]
    winners: list[int] = []
    leader = hakem
    decided = False
    for _ in range(13):
        best = -1
        best_suit = led = -1
        winner = leader
        cards: list[int] | None = [] if record is not None else None
        for i in range(4):
            seat = (leader + i) % 4
            hand = hands[seat]
            legal = hand if led < 0 else (hand & masks[led] or hand)
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            bit = legal & -legal
            hands[seat] = hand ^ bit
            card = bit.bit_length() - 1
            suit = card // 13
            if led < 0:
                led = best_suit = suit
                best = card
            elif (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                best, best_suit, winner = card, suit, seat
            if cards is not None:
                cards.append(card)
        if record is not None and cards is not None:
            record.append(cards)
        winners.append(winner)
        counts[winner & 1] += 1
        leader = winner
        if not decided and counts[winner & 1] == TRICKS_TO_WIN:
            decided = True
            if stop_at_seven:
                break
    return trump, counts, winners
