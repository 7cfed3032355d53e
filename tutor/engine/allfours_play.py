"""All Fours' side of playing a whole deal (:mod:`tutor.engine.play`), classic and Trinidad alike:
one hand, from the turn-up (kick) through stand or beg, give one (take one) or run the pack
(C9-C17, T8-T12), the classic discards and bunch (C15, C18), the play (C19-C22, T13-T16) to
the count — High, Low, Jack or hang jack, Game (C23-C27, T17-T20) — and the next dealer (K10, T5).

The game's differences come from the rules object itself (its ``RULE`` points, gift category,
options), never from its name. Bots: the player after the dealer stands with two trumps, one of
them a jack or better, or with three; the dealer keeps the suit on the same terms and otherwise
runs (always when the point would put the other side out); discards throw the least useful card;
bots never propose a bunch and agree to one only holding no trump.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from .allfours import AllFoursFamily
from .allfours_state import GAME_VALUE, Action, GameState, game_points, tally
from .bots import bot_card
from .cards import JACK, SUIT_MASK
from .errors import BadFieldError, show
from .play import Coach, Deal, card_token, cards_text
from .reasons import N_, REASON_TEXTS, Reason

__all__ = ["AllFoursCoach"]

REASON_TEXTS.update({
    "choose-stand": N_("Stand: keep %(trump)s as trump"),
    "choose-beg": N_("Beg"),
    "choose-gift": N_("Give one point and keep %(trump)s"),
    "choose-take-one": N_("Say \"take one\" and keep %(trump)s"),
    "choose-run": N_("Run the pack (refuse %(trump)s)"),
    "choose-bunch": N_("Propose a bunch"),
    "choose-pass": N_("No bunch: play"),
    "choose-agree": N_("Agree to the bunch"),
    "choose-refuse": N_("Refuse the bunch"),
    "did-stand": N_("%(seat)s stood: %(trump)s is trump."),
    "did-beg": N_("%(seat)s begged."),
    "did-gift": N_("%(seat)s gave one point and kept %(trump)s."),
    "did-take-one": N_("%(seat)s said \"take one\" and kept %(trump)s."),
    "did-run": N_("%(seat)s ran the pack, refusing %(trump)s."),
    "did-bunch": N_("%(seat)s proposed a bunch."),
    "did-pass": N_("%(seat)s did not propose a bunch."),
    "did-agree": N_("%(seat)s agreed to the bunch."),
    "did-refuse": N_("%(seat)s refused the bunch."),
})

_KINDS = ("stand", "beg", "give", "run", "bunch", "pass", "agree", "refuse")
_COUNTING = 0
for _r in GAME_VALUE:
    for _s in range(4):
        _COUNTING |= 1 << (_s * 13 + _r - 2)
#: The order of the count (C28, K11): High and Low, Jack, then Game.
_ORDER = {"only-one-trump": 0, "no-trump-in-play": 0, "high-dealt": 1, "low-dealt": 2, "low-captured": 2,
          "jack-won": 3, "jack-kept": 3, "hang-jack": 3, "jack-not-in-play": 3, "game-count": 4,
          "game-count-none": 4}


def _value(card: int) -> int:
    """What a card is worth keeping in play: its rank, a ten counted as high (Game, C26)."""
    rank = card % 13 + 2
    return rank + (9 if rank == 10 else 0)


class AllFoursCoach(Coach):
    """A hand of classic All Fours or of Trinidad (the state is a
    :class:`~tutor.engine.allfours.GameState`)."""

    ROLES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("eldest", N_("the player after the dealer (you stand or beg)")),
        ("dealer", N_("the dealer (you give one or run the pack)")),
    )
    engine: AllFoursFamily

    def role_seat(self, state: GameState, role: str) -> int:
        offsets = {"eldest": 1, "dealer": 0}
        if role not in offsets:
            raise BadFieldError(f"role must be one of {', '.join(offsets)}, not {show(role)}.")
        return (state.dealer + offsets[role]) % self.players

    def hand(self, state: GameState, seat: int) -> int:
        return int(state.hands[seat])

    def trump(self, state: GameState) -> int | None:
        return None if state.trump is None else int(state.trump)

    def dealer(self, state: GameState) -> int:
        return int(state.dealer)

    def turn_ups(self, state: GameState) -> tuple[int, ...]:
        return tuple(int(c) for c in state.turn_ups)

    def phase(self, state: GameState) -> str:
        ph = state.phase
        return ph if ph in ("discard", "play", "over") else "trump"

    def card_mode(self, state: GameState) -> str:
        ph = state.phase
        return ph if ph in ("discard", "play") else ""

    def card_action(self, state: GameState, seat: int, card: int) -> Action:
        return Action("discard" if state.phase == "discard" else "play", seat, card)  # type: ignore[arg-type]

    def played_card(self, state: GameState, action: Any) -> int | None:
        return int(action.card) if action.kind in ("play", "call") and action.card is not None else None

    def action_card(self, action: Any) -> int | None:
        return int(action.card) if action.kind in ("play", "discard") and action.card is not None else None

    def choices(self, state: GameState, seat: int) -> list[tuple[str, Reason]]:
        if state.to_act != seat:
            return []
        suit = "SHDC"[state.turn_ups[-1].suit] if state.turn_ups else "S"
        R = self.engine.RULE
        out = []
        for a in self.engine.legal_actions(state):
            if a.kind not in _KINDS:
                continue
            code = f"choose-{self.engine.give_category}" if a.kind == "give" else f"choose-{a.kind}"
            out.append((a.kind, Reason(code, R.get(state.phase, R["order"]), {"trump": suit})))
        return out

    def token(self, action: Any) -> str:
        if action.kind in _KINDS:
            return str(action.kind)
        return card_token(action.card)

    def parse(self, token: str, state: GameState, seat: int) -> Action:
        if token in _KINDS:
            return Action(token, seat)
        card = self.parse_card_token(str(token))
        return self.card_action(state, seat, card)

    def bot(self, state: GameState, seat: int, rng: random.Random, played: int) -> Action:
        rules = self.engine
        ph = state.phase
        hand = state.hands[seat]
        if ph in ("decide", "choose"):
            suit = state.turn_ups[0].suit
            trumps = hand & SUIT_MASK[suit]
            count = trumps.bit_count()
            high = trumps >> (suit * 13 + JACK - 2) != 0
            likes = count >= 3 or (count >= 2 and high)
            if ph == "decide":
                return Action("stand" if likes else "beg", seat)
            kinds = [a.kind for a in rules.legal_actions(state)]
            gives_game = any(state.scores[a.side] + a.points >= rules.target for a in rules.give_awards(state.dealer))
            return Action("give" if likes and "give" in kinds and not gives_game else "run", seat)
        if ph == "discard":
            keep = state.turn_ups[-1].suit if state.trump is None else state.trump
            cards = [c for c in range(52) if hand >> c & 1]
            worst = min(cards, key=lambda c: (c // 13 == keep, _value(c), rng.random()))
            return Action("discard", seat, worst)  # type: ignore[arg-type]
        if ph == "bunch":
            return Action("pass", seat)
        if ph == "vote":
            trump_held = state.trump is not None and hand & SUIT_MASK[state.trump]
            return Action("refuse" if trump_held else "agree", seat)
        trump = state.trump
        legal = rules.legal_mask(hand, state.trick, trump)  # type: ignore[arg-type]
        card = bot_card(legal, hand, state.trick, state.leader, seat, self.players, trump, played,
                        rules.side_of, rng, _value)
        return Action("play", seat, card)  # type: ignore[arg-type]

    def play_reason(self, state: GameState, seat: int) -> Reason:
        return self.engine.legal_reason(state.hands[seat], state.trick, state.trump)  # type: ignore[arg-type]

    def decision_rule(self, state: GameState, action: Any) -> str:
        R = self.engine.RULE
        return R.get(state.phase, R["order"])

    def describe_decision(self, state: GameState, seat: int, action: Any) -> Reason:
        kind = f"did-{self.engine.give_category}" if action.kind == "give" else f"did-{action.kind}"
        suit = "SHDC"[state.turn_ups[0].suit] if state.turn_ups else "S"
        return Reason(kind, self.decision_rule(state, action), {"seat": seat, "trump": suit})

    def final_scores(self, deal: Deal) -> tuple[int, ...]:
        hs = deal.state.last_hand
        if self.engine.hands_done(deal.state) == 0 or hs is None:
            return tuple(deal.state.scores)
        return tally(deal.last.scores, hs.awards, self.engine.target)[0]

    def story(self, deal: Deal) -> list[Reason]:
        """The points of trump making (turn-up or kick, the point given or taken, C8-C16, T7-T11),
        then the count in its order: High, Low, Jack or hang jack, each side's cards for Game and
        Game (C23-C28, T17-T20, K2-K4, K11), each side's score, and the next dealer (K10, T5) or the
        winner (also when the next deal's turn-up or kick won the game at once, K11: its points, then
        the winner)."""
        rules = self.engine
        R = rules.RULE
        state: GameState = deal.state
        hs = state.last_hand
        out = [a.reason for a in deal.last.awards]
        if rules.hands_done(state) == 0 or hs is None:  # the game ended during trump making
            out += self.score_lines(deal)
            if state.winner is not None:
                out.append(rules.winner_reason(state.winner))
            return out
        won = [0] * self.sides()
        for t in deal.tricks:
            for c in t.cards:
                won[self.side_of(t.winner)] |= 1 << c
        counts = []
        for side, mask in enumerate(won):
            counting = mask & _COUNTING
            if counting:
                counts.append(Reason("game-count", R["game"], {"side": side, "points": game_points(mask),
                                                               "cards": cards_text(counting)}))
            else:
                counts.append(Reason("game-count-none", R["game"], {"side": side}))
        count = sorted([*hs.why, *counts], key=lambda r: _ORDER.get(r.code, 5))
        out += count
        out += self.score_lines(deal)
        _scores, winner = tally(deal.last.scores, hs.awards, rules.target)
        if winner is None and state.winner is not None:
            # the next deal's turn-up (kick) won the game at once (K11): its points, then the winner
            out += [a.reason for a in state.awards[len(deal.last.awards) + len(hs.awards):]]
            winner = state.winner
        if winner is not None:
            out.append(rules.winner_reason(winner))
        else:
            out.append(Reason("next-dealer", R["next_dealer"], {"next_dealer": (deal.last.dealer + 1) % self.players}))
        return out

    def score_lines(self, deal: Deal) -> list[Reason]:
        return [Reason("side-score", self.engine.RULE["order"], {"side": s, "score": v, "target": self.engine.target})
                for s, v in enumerate(self.final_scores(deal))]
