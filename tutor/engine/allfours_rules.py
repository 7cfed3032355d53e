"""The rules both All Fours games share (:class:`AllFoursRules`, on an options-taking
instance): seats and sides, legal plays and the trick winner (C20-C22, T14-T16), turn-up scoring
and stand/beg/give/run (C8-C18, T7-T12), the end-of-hand count and the winner (C23-C28, T17-T21).
The state machine on top is :class:`tutor.engine.allfours.AllFoursFamily`.

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, ClassVar

from .allfours_state import (
    HAND_SIZE,
    AllFoursOptions,
    Award,
    HandScore,
    TrumpMaking,
    game_points,
    tally,
)
from .cards import (
    CARD_NAMES,
    CARDS,
    JACK,
    SUIT_LETTERS,
    SUIT_MASK,
    Card,
    Suit,
    names_desc,
)
from .errors import BadFieldError, IllegalPlayError, ImpossibleStateError, show
from .reasons import Reason, lazy_reason, make_reason
from .tricks import (
    make_follow_or_trump,
    make_winner_seat,
    shared_reason,
    suit_and_cards,
    winner_reason,
    winning_index,
)

__all__ = ["AllFoursRules"]


class AllFoursRules:
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

    def __reduce__(self) -> tuple[type[AllFoursRules], tuple[Any]]:  # hot-path functions are rebuilt from the options
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
                winner_reason(trick, trump, leader, self.players, self.RULE["winner"], i,
                              rank_rule=self.RULE.get("rank", "")))

    # ----------------------------------------------------------------- trump making
    def turnup_points(self, card: int) -> tuple[int, Reason]:
        """Points the dealer's side scores for turning up ``card`` as the card that (first, or
        after a run) shows trump, with the reason. Subclasses define the scale."""
        raise NotImplementedError

    def _turnup_award(self, dealer: int, card: int, counts: bool) -> tuple[Award | None, Reason]:
        if not counts:
            # the refused suit again: the dealer runs once more (C14, T11), and the card scores nothing (K9)
            repeat = self.RULE.get("repeat")
            return None, Reason("turnup-refused-suit", f"{repeat},K9" if repeat else "K9", {"card": str(CARDS[card])})
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
        than the pack allows: §3.2; a beg, or a further turn-up, after a turn-up that took a side
        from ``scores`` to the target, since the game ended there, K11); ``IllegalPlayError`` for
        a forbidden gift (K6). A stand after such a turn-up adds nothing and is answered as usual;
        a kick of the refused suit that wins (``same_suit_kick_scores``) ends the deal with
        ``trump=None``, ``hand_size=None`` and ``redeal=False``.
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
        if decision == "beg":
            self._check_not_over(scores, awards, first, "nobody begs after it")
        if decision == "stand" or dealer_choice == "give":
            if len(turn_ups) > 1:
                raise ImpossibleStateError(
                    f"{len(turn_ups)} cards were turned up, but without a run only one card is turned.")
            if decision == "stand":
                why.append(Reason("stand", R["stand"], {"trump": first.suit.letter}))
            else:
                forbidden = self.give_allowed(dealer, tally(scores, awards, self.target)[0])
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
        # the dealer's choice after a beg (C10, T9): he refuses the suit and runs (C13, T10)
        choice = R.get("choose", R["run"])
        why.append(Reason("run", R["run"] if choice == R["run"] else f"{R['run']},{choice}",
                          {"refused": refused.letter, "card": str(first)}))
        if len(turn_ups) < 2:
            raise BadFieldError("after a run, turn_ups must also list the card(s) turned up next.")
        runs = len(turn_ups) - 1
        if runs > self.max_runs:
            raise ImpossibleStateError(
                f"{len(turn_ups)} turn-ups: with {self.players} players the pack allows at most "
                f"{self.max_runs + 1} (the first and {self.max_runs} runs of {self.run_cost} cards).")
        for i, code in enumerate(turn_ups[1:], 1):
            c = CARDS[code]
            is_last = i == runs
            if c.suit != refused and not is_last:
                raise ImpossibleStateError(
                    f"turn-up {i + 1} ({c}) shows a new suit, so no further card is turned after it.")
            fixes = c.suit != refused
            award, r = self._turnup_award(dealer, c, self._later_turnup_counts(fixes))
            if award and fixes and r.rule == R["turnup"] and R.get("turnup_after_run"):
                # the card that fixes the new trump scores by the default scale (C16)
                r = Reason(r.code, R["turnup_after_run"], r.params)
                award = Award(award.category, award.side, award.points, r)
            if award:
                awards.append(award)
            if fixes:
                why.append(Reason("new-trump", R["run"], {"card": str(c), "trump": c.suit.letter}))
            why.append(r)
            if not is_last:
                self._check_not_over(scores, awards, c, "no further card is turned")
        last = CARDS[turn_ups[-1]]
        pts = self._points(awards)
        if last.suit == refused and tally(scores, awards, self.target)[1] is not None:
            # a kick of the refused suit (same_suit_kick_scores) won the game: no trump, no redeal (K11)
            return TrumpMaking(None, tuple(awards), pts, runs, None, False, tuple(why))
        if last.suit == refused:
            if runs < self.max_runs:
                raise ImpossibleStateError(
                    f"the last turn-up ({last}) is the refused suit again and the pack still allows a run: "
                    "the dealer must keep running.")
            why.append(Reason("pack-exhausted", R["redeal"], {"runs": runs}))
            return TrumpMaking(None, tuple(awards), pts, runs, None, True, tuple(why))
        size = self.hand_size_after(runs)
        why.append(Reason("hand-after-run", self.hand_size_rule(), {"runs": runs, "size": size}))
        return TrumpMaking(last.suit, tuple(awards), pts, runs, size, False, tuple(why))

    def hand_size_rule(self) -> str:
        """The rule point of the hand size after a run (``RULE["hand_size"]``: T17, keep every
        card); classic All Fours overrides it (C15, or C33 for its other ways)."""
        return self.RULE.get("hand_size", self.RULE["run"])

    def _check_not_over(self, scores: Sequence[int], awards: Sequence[Award], card: Card, after: str) -> None:
        """Raise :class:`ImpossibleStateError` if ``awards`` (the turn-ups so far) took a side from
        ``scores`` to the target: the game ended there (K11, as :meth:`tally` decides for the state
        machine, which then accepts no further action), so ``after`` cannot happen."""
        _after, won = tally(scores, awards, self.target)
        if won is not None:
            raise ImpossibleStateError(
                f"the turn-up {card} took side {won} to the target {self.target}: the game is over (K11), "
                f"so {after}.")

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
        for lead, t in zip(leaders, tricks, strict=True):
            for i, c in enumerate(t):
                start[(lead + i) % n] |= 1 << c
        hands = list(start)
        for k, (lead, t) in enumerate(zip(leaders, tricks, strict=True), 1):
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
        for t, w in zip(tricks, winners, strict=False):
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

    def winner_reason(self, side: int, by: str | None = None) -> Reason:
        """The reason for ``side`` winning the game: the counting order (C28, K11) and the
        target's own points (:meth:`target_rules`); ``by``: the category of the award that took
        ``side`` to the target, when known."""
        rules = [self.RULE["order"], *(r for r in self.target_rules(by) if r != self.RULE["order"])]
        return Reason("target-reached", ",".join(rules), {"side": side, "target": self.target})

    def target_rules(self, by: str | None = None) -> tuple[str, ...]:
        """Rule points of reaching the target besides the counting order: the ruleset's target
        rule (``RULE["target"]``: T21) by default; classic All Fours overrides it."""
        target = self.RULE.get("target")
        return (target,) if target else ()


def _follow_or_trump_params(led: int, trump: int, follow: int) -> dict[str, object]:
    """Params of ``follow-or-trump``: suit led, trump, the cards of the suit led held (highest first)."""
    return {"led": SUIT_LETTERS[led], "trump": SUIT_LETTERS[trump], "cards": names_desc(follow)}
