"""Hokm's side of playing a whole deal (:mod:`tutor.engine.play`): one round, from the hakem
naming trump from his first five cards (H8, H11) to the first team on 7 tricks (H20), scored
as a win, kot or hakem-kot (H21-H23), with the next hakem (H25, K12).

The bot hakem names the suit he holds most of among his five cards, the stronger on a tie;
the bots' card play is :func:`tutor.engine.bots.bot_card`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from .bots import bot_card
from .cards import SUIT_LETTERS, SUIT_MASK, Suit
from .errors import BadFieldError, show
from .hokm import ChooseTrump, HokmGame, Play
from .play import Coach, Deal, card_token
from .reasons import N_, REASON_TEXTS, Reason
from .tricks import follow_reason

__all__ = ["HokmCoach", "choose_trump"]

REASON_TEXTS.update({
    "name-trump": N_("Name %(suit)s trump"),
    "did-name-trump": N_("%(seat)s named %(suit)s trump."),
})


def choose_trump(five: int, rng: random.Random | None = None) -> int:
    """The suit a bot hakem names from his first five cards (bit set ``five``): the suit he holds
    most cards of; on a tie the one whose cards rank higher in total (H8)."""
    def strength(s: int) -> tuple[int, int]:
        m = five & SUIT_MASK[s]
        return m.bit_count(), sum(c % 13 + 2 for c in range(52) if m >> c & 1)

    return max(range(4), key=strength)


class HokmCoach(Coach):
    """A Hokm round at a table of four (the state is a :class:`~tutor.engine.hokm.HokmGame`)."""

    ROLES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("hakem", N_("the hakem (you name trump)")),
        ("partner", N_("the hakem's partner")),
        ("opponent", N_("the hakem's right-hand opponent")),
    )

    def role_seat(self, state: HokmGame, role: str) -> int:
        hakem = state.round.hakem
        offsets = {"hakem": 0, "partner": 2, "opponent": 1}
        if role not in offsets:
            raise BadFieldError(f"role must be one of {', '.join(offsets)}, not {show(role)}.")
        return (hakem + offsets[role]) % 4

    def hand(self, state: HokmGame, seat: int) -> int:
        return int(state.round.hands[seat])

    def trump(self, state: HokmGame) -> int | None:
        t = state.round.trump
        return None if t is None else int(t)

    def dealer(self, state: HokmGame) -> int:
        return int(state.round.dealer)

    def hakem(self, state: HokmGame) -> int | None:
        return int(state.round.hakem)

    def phase(self, state: HokmGame) -> str:
        return str(state.round.phase)

    def card_action(self, state: HokmGame, seat: int, card: int) -> Play:
        return Play(card)  # type: ignore[arg-type]

    def played_card(self, state: HokmGame, action: Any) -> int | None:
        return int(action.card) if isinstance(action, Play) else None

    def action_card(self, action: Any) -> int | None:
        return int(action.card) if isinstance(action, Play) else None

    def choices(self, state: HokmGame, seat: int) -> list[tuple[str, Reason]]:
        if state.over or state.round.phase != "trump" or state.round.hakem != seat:
            return []
        return [("t" + s.letter, Reason("name-trump", "H8", {"suit": s.letter})) for s in Suit]

    def token(self, action: Any) -> str:
        if isinstance(action, ChooseTrump):
            return "t" + Suit(action.suit).letter
        return card_token(action.card)

    def parse(self, token: str, state: HokmGame, seat: int) -> ChooseTrump | Play:
        if isinstance(token, str) and len(token) == 2 and token[0] == "t" and token[1] in SUIT_LETTERS:
            return ChooseTrump(Suit(SUIT_LETTERS.index(token[1])))
        return Play(self.parse_card_token(str(token)))  # type: ignore[arg-type]

    def bot(self, state: HokmGame, seat: int, rng: random.Random, played: int) -> ChooseTrump | Play:
        rd = state.round
        if rd.phase == "trump":
            return ChooseTrump(Suit(choose_trump(rd.hands[rd.hakem], rng)))
        hand = rd.hands[seat]
        legal = rd.legal_mask()
        card = bot_card(legal, hand, rd.trick.cards, rd.trick.leader, seat, 4, rd.trump, played,
                        self.side_of, rng)
        return Play(card)  # type: ignore[arg-type]

    def play_reason(self, state: HokmGame, seat: int) -> Reason:
        rd = state.round
        return follow_reason(None, rd.hands[seat], rd.trick.cards, rd.trump)

    def decision_rule(self, state: HokmGame, action: Any) -> str:
        return "H8"

    def describe_decision(self, state: HokmGame, seat: int, action: Any) -> Reason:
        return Reason("did-name-trump", "H8", {"seat": seat, "suit": Suit(action.suit).letter})

    def story(self, deal: Deal) -> list[Reason]:
        """Tricks per team (H20), the round's value — a win 1, kot 2, hakem-kot 3 (H21-H23) —,
        the match score (H24) and the next hakem (H25, K12) or the match's winner."""
        state: HokmGame = deal.state
        res = state.results[-1]
        w = res.winner_team
        out = [Reason("deal-tricks", "H20", {"team": w, "tricks": res.team_tricks[w], "other_team": 1 - w,
                                             "other": res.team_tricks[1 - w]}),
               res.why[0]]
        out += [Reason("side-score", "H24", {"side": s, "score": v, "target": self.options.target})
                for s, v in enumerate(state.scores)]
        if state.over:
            out.append(Reason("match-won", "H24", {"team": w, "score": state.scores[w],
                                                   "target": self.options.target}))
        else:
            out.append(res.why[1])
        return out
