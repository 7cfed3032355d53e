"""Classic All Fours (seed 000; RULES.md C1-C33): the ruleset class on the shared All Fours
machinery (:class:`~tutor.engine.allfours.AllFoursFamily`): the jack (or *Running All Fours*)
turn-up scale, a gift to each opposing party (K5, K27), discards after each run (C15), the bunch
(C18), Low dealt or captured (C24/C30), a Game tie dealer-excluded or nobody (C27/K4).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .allfours import AllFoursFamily
from .allfours_state import HAND_SIZE, TURNUP_POINTS, AllFoursOptions, Award
from .cards import CARDS, Card
from .reasons import Reason

__all__ = ["AllFours"]


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
        "rank": "C3", "repeat": "C14", "turnup_after_run": "C16", "target": "C28",
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

    def hand_size_rule(self) -> str:
        """Discard three for each three received (C15), or another way of the running of the
        cards (``run_hand_method``: C33, K7)."""
        return "C15" if self.discard_each_run else "C33,K7"

    def target_rules(self, by: str | None = None) -> tuple[str, ...]:
        """7 points win, counted in order (C28); a gift may win (C12); 11 is *Eleven Makes*
        (C31), 31 with the running scale *Running All Fours* (C32)."""
        out = []
        if by == "gift":
            out.append("C12")
        if self.target == 11:
            out.append("C31")
        elif self.target == 31 and self.options.turnup_scale == "running":
            out.append("C32")
        return tuple(out)

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
