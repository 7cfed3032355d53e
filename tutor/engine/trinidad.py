"""All Fours as played in Trinidad (seeds 001 Bulgarian / 003 Telugu; RULES.md §1.2 T1-T22).

Shares everything with :mod:`tutor.engine.allfours` (:class:`~tutor.engine.allfours.AllFoursFamily`)
and changes only what Trinidad does differently:

* the kick (the turned card) scores for the dealer's team: ace 1, six 2, jack 3 (T7); the
  Tobago scale scores a two instead of the six (AFO option ``kick_scale="tobago"``);
* the player after the dealer (the dealer's right, anticlockwise) stands or begs (T8); the dealer
  either says "take one" — the beggar's side scores 1 (T9) — or runs the pack (T10/T11);
* run cards are kept: hands grow to 9 or 12 cards (4 players) and up to 21 (2 players) (T17, K16);
  there is no discarding and no bunch;
* only the kick that fixes trump scores after a run (K9), or every kick with
  ``same_suit_kick_scores=True``; the first kick always scores at once;
* Jack: the holder's team scores 1 if the jack wins its trick or the holder's partner wins it;
  an opponent who captures it scores 3, "hang jack" (K2, pagat fill); ``jack="plain"``: 1 to
  whoever wins it;
* Game tie: nobody scores (K3); target 14 (T21; option 7, K19);
* calling (T22): a card exposed out of turn stays face up; when its owner is to play, any other
  player may call it if playing it is legal then, and the owner plays it.

Decision (RULES.md silent): with ``beg_point_may_win=False`` the dealer may not say "take one"
when the point would put the beggar's side at the target; he must run (mirrors classic K6).
Seed wording says "another player" may call an exposed card (T22); the engine lets any other
seat call, partner included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from .allfours import AllFoursFamily
from .allfours_state import Award, Target
from .cards import ACE, CARDS, JACK, Card
from .options import Labels, PlayerCount, options_model
from .reasons import N_, REASON_TEXTS, Reason

__all__ = ["KICK_POINTS", "Trinidad", "TrinidadOptions"]

#: Kick values per scale (T7; Tobago: AFO): rank -> points.
KICK_POINTS: dict[str, dict[int, int]] = {
    "standard": {ACE: 1, 6: 2, JACK: 3},
    "tobago": {ACE: 1, 2: 2, JACK: 3},
}

REASON_TEXTS.update({
    "take-one": N_("The dealer keeps the suit and says \"take one\": the beggar's side %(side)s scores 1."),
    "take-one-forbidden": N_("The dealer may not say \"take one\": the point would put side %(side)s out, "
                             "so he must run."),
    "jack-kept": N_("Seat %(seat)s held %(card)s and side %(side)s won it (trick won by seat %(winner)s): "
                    "side %(side)s scores Jack."),
    "hang-jack": N_("Seat %(seat)s captured %(card)s from seat %(holder)s, an opponent: hang jack, side %(side)s "
                    "scores 3."),
})


_PLAYERS = PlayerCount("trinidad")


@options_model("trinidad")
class TrinidadOptions:
    """Options of Trinidad All Fours (RULES.md §3.3; first value = default), a frozen strict
    pydantic model (:mod:`tutor.engine.options`).

    ``players`` 4|2 (T1; the counts of :data:`tutor.engine.rulesets.TRINIDAD`); ``target`` 14
    (T21; 7 K19; any 1..999); ``kick_scale`` ``"standard"`` (T7) | ``"tobago"``; ``jack``
    ``"hang"`` (K2) | ``"plain"``; ``void_rule`` ``"free"`` (K1) | ``"must_trump"``;
    ``no_undertrump`` False | True (K22); ``same_suit_kick_scores`` False | True (K9);
    ``beg_point_may_win`` True | False.
    Raises :class:`~tutor.engine.errors.BadFieldError` for other values.
    """

    players: Annotated[int, _PLAYERS] = Field(default_factory=_PLAYERS.default)
    target: Annotated[Target, Field(title=N_("Points to win the game"))] = 14
    kick_scale: Annotated[Literal["standard", "tobago"], Field(title=N_("Points for the kick")), Labels((
        N_("ace 1, six 2, jack 3"), N_("Tobago: ace 1, two 2, jack 3")))] = "standard"
    jack: Annotated[Literal["hang", "plain"], Field(title=N_("Jack")), Labels((
        N_("hang jack: 3 to the side that captures it from its holder"), N_("1 to whoever wins it")))] = "hang"
    void_rule: Annotated[Literal["free", "must_trump"], Field(title=N_("Without the suit led")), Labels((
        N_("play any card"), N_("you must trump")))] = "free"
    no_undertrump: Annotated[bool, Field(title=N_("No undertrumping"))] = False
    same_suit_kick_scores: Annotated[bool, Field(title=N_("Every kick scores, even of a suit that does not become trump"))] = False
    beg_point_may_win: Annotated[bool, Field(title=N_("The point for a beg may win the game"))] = True


class Trinidad(AllFoursFamily):
    """Trinidad All Fours, options :class:`TrinidadOptions` (see the module docstring).

    Example::

        >>> Trinidad().turnup_points(Card.parse("6S"))[0]
        2
    """

    ruleset = "trinidad"
    options_type = TrinidadOptions
    TURNUP_SCALES = KICK_POINTS
    #: Four players in two partnerships (partners opposite), or two players (T1).
    PARTNERSHIPS: ClassVar[Mapping[int, tuple[int, ...]]] = MappingProxyType({4: (0, 1, 0, 1), 2: (0, 1)})
    RULE: ClassVar[dict[str, str]] = {
        "lead": "T13", "follow": "T15", "trump_led": "T14", "void": "K1", "void_strict": "K1", "winner": "T16",
        "rank": "T1", "repeat": "T11", "turnup_after_run": "T7", "target": "T21", "hand_size": "T17",
        "turnup": "T7", "stand": "T8", "give": "T9", "give_forbidden": "T9", "run": "T10", "redeal": "T12",
        "high": "T18", "low": "T19", "jack": "K2,T3", "game": "T20", "tie": "K3", "order": "K11",
        "decide": "T8", "choose": "T9", "play": "T13", "next_dealer": "T5",
    }
    give_category = "take-one"
    give_option = "beg_point_may_win"
    turnup_category = "kick"
    has_calling = True

    def __init__(self, options: TrinidadOptions | None = None, **kw: Any) -> None:
        super().__init__(options, **kw)

    def _configure(self) -> None:
        self.hang_jack = self.options.jack == "hang"

    def turnup_points(self, card: int) -> tuple[int, Reason]:
        """Kick: ace 1, six 2 (Tobago: two 2), jack 3 to the dealer's side (T7)."""
        card = CARDS[card]
        pts = KICK_POINTS[self.options.kick_scale].get(card.rank, 0)
        if not pts:
            return 0, Reason("turnup-no-points", "T7", {"card": str(card)})
        code = "turned-jack" if card.rank == JACK else "turnup-scores"
        return pts, Reason(code, "T7", {"card": str(card), "points": pts})

    def give_awards(self, dealer: int) -> list[Award]:
        """"Take one": the beggar (the seat after the dealer) scores 1 for his side (T9)."""
        side = self.side_of((dealer + 1) % self.players)
        return [Award("take-one", side, 1, Reason("take-one", "T9", {"side": side}))]

    def give_allowed(self, dealer: int, scores: Sequence[int]) -> Reason | None:
        why = super().give_allowed(dealer, scores)
        return None if why is None else Reason("take-one-forbidden", "T9", why.params)

    def _give_may_win(self) -> bool:
        return bool(self.options.beg_point_may_win)

    def _later_turnup_counts(self, fixes_trump: bool) -> bool:
        """Only the kick that fixes trump scores (K9), or every kick with
        ``same_suit_kick_scores``."""
        return fixes_trump or self.options.same_suit_kick_scores

    def _jack_award(self, jack: Card, holder: int, captor: int) -> Award:
        """Hang jack (K2): holder's side 1 if it or the partner wins the jack; an opponent who
        captures it scores 3. ``jack="plain"``: 1 to the captor's side."""
        if not self.hang_jack:
            return super()._jack_award(jack, holder, captor)
        hs, cs = self.side_of(holder), self.side_of(captor)
        if hs == cs:
            return Award("jack", hs, 1, Reason("jack-kept", "K2,T3", {
                "card": str(jack), "seat": holder, "winner": captor, "side": hs}))
        return Award("hang-jack", cs, 3, Reason("hang-jack", "K2,T3", {
            "card": str(jack), "seat": captor, "holder": holder, "side": cs}))
