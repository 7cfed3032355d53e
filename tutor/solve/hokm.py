"""Hokm asks of the scenario contract: ``legal-plays``, ``trick-winner``, ``round-score``,
``round-playout`` (``shared/spec/solve-format.md``; rules in :mod:`tutor.engine.hokm`).

Decisions where the spec is silent (also in each handler's docstring):

* ``legal-plays`` needs ``trump`` (the spec lists it as input) although Hokm's legal set does not
  depend on it; it selects the explanation (``trump-led-must-trump``, H19).
* ``round-score`` with ``stop_at_seven: false`` is the same count (the score is decided when the
  first team reaches 7, K13), so the same checks apply.
* ``scores`` already at or past the target is ``impossible-state`` (the match was over).
* ``round-playout`` also takes optional ``scores`` (adds ``scores_after`` and ``match_winner``
  like ``round-score``); a transcript where no team has 7 yet is answered with ``null``
  ``winner_team``/``points``/``result``/``next_hakem`` in both modes, with the counts so far.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import CARD_NAMES, CARDS, Suit, mask_of
from ..engine.errors import IllegalPlayError, ImpossibleStateError
from ..engine.hokm_rules import TRICKS_TO_WIN, RoundResult
from ..engine.reasons import Reason
from ..engine.tricks import winner_reason, winning_index
from .asks import LegalPlays, RoundPlayout, RoundScore, TrickWinner
from .common import Scenario, register_ask

__all__ = ["legal_plays", "round_playout", "round_score", "trick_winner"]


@register_ask(LegalPlays, "hokm")
def legal_plays(s: Scenario[LegalPlays]) -> dict[str, Any]:
    """``{"legal": [cards in hand order], "why": [reason]}``.

    ``hand``: 1-13 distinct cards; ``trick``: 0-3 cards (a full trick is ``bad-field``); a card
    in both is ``duplicate-card``. Reason: ``lead-any``, ``must-follow-suit`` (H14),
    ``trump-led-must-trump`` (H19) or ``void-any-card`` (H15).
    """
    trump, hand, trick = s.fields.trump, s.fields.hand, s.fields.trick
    legal, why = s.rules.legal(mask_of(hand), trick, trump)
    return {"legal": [CARD_NAMES[c] for c in hand if legal >> c & 1], "why": [why.to_json()]}


@register_ask(TrickWinner, "hokm")
def trick_winner(s: Scenario[TrickWinner]) -> dict[str, Any]:
    """``{"winner": seat, "card": card, "why": [reason]}`` for 4 cards led by ``leader``
    (default 0). Reason ``highest-trump-wins`` or ``highest-of-suit-led-wins`` (H16)."""
    seat, card, reason = s.rules.trick_winner(s.fields.trick, s.fields.trump, s.fields.leader)
    return {"winner": seat, "card": CARD_NAMES[card], "why": [reason.to_json()]}


def _scores(s: Scenario[Any]) -> list[int] | None:
    scores: list[int] | None = s.fields.scores
    target = s.options.target
    if scores is not None and max(scores) >= target:
        raise ImpossibleStateError(
            f"scores {scores[0]} to {scores[1]} already reach the target {target}: the match was over.")
    return scores


def _result_json(res: RoundResult, scores: list[int] | None, target: int, tricks_rule: str = "H20") -> dict[str, Any]:
    """The round's result as the answer gives it; ``why``: the tricks per team when the round
    ended (``deal-tricks``: a round stops once a team has 7, H20; ``tricks_rule``), the round's
    value and the next hakem, then the match."""
    out = res.to_json()
    w = res.winner_team
    why = [Reason("deal-tricks", tricks_rule, {"team": w, "tricks": res.team_tricks[w], "other_team": 1 - w,
                                              "other": res.team_tricks[1 - w]}).to_json()]
    why += [r.to_json() for r in res.why]
    if scores is not None:
        after = list(scores)
        after[res.winner_team] += res.points
        won = after[res.winner_team] >= target
        out["scores_after"] = after
        out["match_winner"] = res.winner_team if won else None
        if won:
            why.append(Reason("match-won", "H24", {"team": res.winner_team, "score": after[res.winner_team],
                                                    "target": target}).to_json())
        else:
            why.append(Reason("match-continues", "H24", {"target": target, "score0": after[0],
                                                          "score1": after[1]}).to_json())
    out["why"] = why
    return out


@register_ask(RoundScore, "hokm")
def round_score(s: Scenario[RoundScore]) -> dict[str, Any]:
    """``{"winner_team", "points", "result", "next_hakem", "why"}`` (+ ``scores_after``,
    ``match_winner`` with ``scores``).

    ``team_tricks``: two counts 0..13 (else ``bad-field``); no team on exactly 7, both on 7, or a
    total over 13 is ``impossible-state``. ``target`` (top level or options): 7 or 3.
    """
    scores = _scores(s)
    res = s.rules.round_result(s.fields.hakem, s.fields.team_tricks)
    return _result_json(res, scores, s.options.target)


@register_ask(RoundPlayout, "hokm")
def round_playout(s: Scenario[RoundPlayout]) -> dict[str, Any]:
    """Replay a round's tricks: ``{"trick_winners", "team_tricks", "winner_team", "points",
    "result", "next_hakem", "why"}``.

    The hakem leads trick 1; each trick's winner leads the next; card ``i`` of a trick is played
    by seat ``(leader + i) % 4``. Errors: a trick without exactly 4 cards or more than 13 tricks
    ``bad-field``; a card twice ``duplicate-card``; a trick after a team reached 7 (with
    ``stop_at_seven``) ``impossible-state``; a seat that did not follow a suit and later plays a
    card of it ``illegal-play`` (the message names the trick and seat of the revoke, H14/H19).
    ``why``: each trick's winner reason (param ``trick``: its number), then the tricks per team
    (``deal-tricks``, H20 and H5) and the round reasons.
    """
    hakem, trump, tricks = s.fields.hakem, s.fields.trump, s.fields.tricks
    scores = _scores(s)
    stop = s.options.stop_at_seven
    leader = hakem
    winners: list[int] = []
    counts = [0, 0]
    why: list[dict[str, Any]] = []
    decided: RoundResult | None = None
    for n, trick in enumerate(tricks, 1):
        if decided is not None and stop:
            raise ImpossibleStateError(
                f"trick {n} was played after the round ended: team {decided.winner_team} had 7 tricks "
                f"after trick {n - 1}.")
        i = winning_index(trick, trump)
        r = winner_reason(trick, trump, leader, 4, "H16", i, rank_rule="H3", ruff_rule="H18")
        why.append(r.to_json(trick=n))
        leader = (leader + i) % 4
        winners.append(leader)
        counts[leader % 2] += 1
        if decided is None and counts[leader % 2] == TRICKS_TO_WIN:
            decided = s.rules.round_result(hakem, counts)
    _check_revokes(tricks, hakem, trump)
    out: dict[str, Any] = {"trick_winners": winners, "team_tricks": counts}
    if decided is None:
        out.update({"winner_team": None, "points": None, "result": None, "next_hakem": None})
        why.append(Reason("round-not-decided", "H20", {"tricks0": counts[0], "tricks1": counts[1]}).to_json())
        out["why"] = why
        return out
    # each seat's tricks count for its team (H5) and the round stops once a team has 7 (H20)
    res = _result_json(decided, scores, s.options.target, "H20,H5")
    out.update(res)
    out["why"] = why + res["why"]
    return out


def _check_revokes(tricks: list[Any], hakem: int, trump: Suit) -> None:
    """Raise :class:`IllegalPlayError` if a seat that showed void in a suit later plays it."""
    void_at: list[dict[int, int]] = [{}, {}, {}, {}]  # seat -> {suit: trick number where it showed void}
    leader = hakem
    for n, trick in enumerate(tricks, 1):
        led = trick[0] // 13
        for i, c in enumerate(trick):
            seat = (leader + i) % 4
            suit = c // 13
            first = void_at[seat].get(suit)
            if first is not None:
                rule = "H19" if suit == trump else "H14"
                reason = Reason("revoke", rule, {"trick": first, "seat": seat, "led": Suit(suit).letter,
                                                 "card": str(CARDS[c]), "later_trick": n})
                raise IllegalPlayError(
                    f"illegal play in trick {first}: seat {seat} did not follow {Suit(suit).letter}, yet played "
                    f"{CARDS[c]} in trick {n}, so it held that suit and had to follow.", reason)
            if i and suit != led and led not in void_at[seat]:
                void_at[seat][led] = n
        leader = (leader + winning_index(trick, trump)) % 4
