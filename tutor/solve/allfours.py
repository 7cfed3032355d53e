"""All Fours (``all-fours``) and Trinidad (``trinidad``) asks of the scenario contract:
``legal-plays``, ``trick-winner``, ``turn-up``, ``make-trump``, ``hand-score``
(``shared/spec/solve-format.md``; rules in :mod:`tutor.engine.allfours` and
:mod:`tutor.engine.trinidad`).

Every answer carries ``why``: Reason JSON objects for this very hand (legal plays:
``follow-or-trump``/``trump-led-must-trump``/``void-any-card``…; turn-up: ``turned-jack``…;
make-trump and hand-score: one reason per award, in counting order, then what nobody scored,
then ``target-reached`` when a side wins).

Decisions where the spec is silent (each tested in ``tests/test_solve_allfours.py``):

* ``all-fours`` gains the option ``run_hand_method`` (``"discard3"`` default, ``"keep-all"``,
  ``"keep-then-discard"``, ``"wait-and-see"``, ``"eldest-and-dealer"``; RULES.md C33/K7/K21):
  with ``keep-all`` a classic hand may have 9, 12 … tricks (spec: "more only with an option
  that keeps extra cards"); ``eldest-and-dealer`` runs use 7 cards, so more runs fit the pack.
* ``legal-plays``: ``hand`` holds 1 to the largest hand size of the ruleset/player count;
  ``trick`` 0 to ``players - 1`` cards.
* ``make-trump``: ``dealer_choice`` given with ``stand`` is ``bad-field``; ``run`` with only the
  first turn-up listed is ``bad-field`` (the new card is missing); a second turn-up without a run,
  a new suit before the last card, or the refused suit last while the pack still allows a run is
  ``impossible-state``. Answers also list ``awards`` (``turn-up``/``kick``, ``gift``/``take-one``).
* ``scores`` (both asks) already at or past the target is ``impossible-state`` (the game was over).
* ``hand-score`` ``why`` starts with one winner reason per trick (param ``trick``: its number).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.allfours import AllFoursFamily
from ..engine.allfours_state import Award, tally
from ..engine.cards import CARD_NAMES, mask_of
from ..engine.errors import ImpossibleStateError
from .asks import HandScore, LegalPlays, MakeTrump, TrickWinner, TurnUp
from .common import Scenario, register_ask

__all__ = ["hand_score", "legal_plays", "make_trump", "trick_winner", "turn_up"]

#: The rulesets whose asks are here (both are :class:`~tutor.engine.allfours.AllFoursFamily` games).
RULESETS = ("all-fours", "trinidad")


@register_ask(LegalPlays, *RULESETS)
def legal_plays(s: Scenario[LegalPlays]) -> dict[str, Any]:
    """``{"legal": [cards in hand order], "why": [reason]}``.

    ``hand``: 1..largest hand size distinct cards; ``trick``: 0..players-1 cards (a full trick
    is ``bad-field``); a card in both is ``duplicate-card``. Reasons: ``lead-any``,
    ``follow-or-trump`` (C20/T15), ``trump-led-must-trump``/``trump-led-no-trump`` (C20/T14),
    ``void-any-card`` (C21/K1), ``void-must-trump`` (option), ``no-undertrump`` (K22 option).
    """
    hand = s.fields.hand
    legal, why = s.rules.legal(mask_of(hand), s.fields.trick, s.fields.trump)
    return {"legal": [CARD_NAMES[c] for c in hand if legal >> c & 1], "why": [why.to_json()]}


@register_ask(TrickWinner, *RULESETS)
def trick_winner(s: Scenario[TrickWinner]) -> dict[str, Any]:
    """``{"winner": seat, "card": card, "why": [reason]}`` for ``players`` cards led by
    ``leader`` (default 0); reason ``highest-trump-wins`` or ``highest-of-suit-led-wins``."""
    seat, card, why = s.rules.trick_winner(s.fields.trick, s.fields.trump, s.fields.leader)
    return {"winner": seat, "card": CARD_NAMES[card], "why": [why.to_json()]}


@register_ask(TurnUp, *RULESETS)
def turn_up(s: Scenario[TurnUp]) -> dict[str, Any]:
    """``{"points": n, "why": [reason]}``: what the dealer's side scores for turning up ``card``
    (classic: jack 1, or A 4 K 3 Q 2 J 1 with ``turnup_scale: running``; Trinidad: A 1, six 2,
    J 3, Tobago two 2)."""
    pts, why = s.rules.turnup_points(s.fields.card)
    return {"points": pts, "why": [why.to_json()]}


def _scores(s: Scenario[Any], eng: AllFoursFamily) -> list[int] | None:
    scores: list[int] | None = s.fields.scores
    if scores is not None and max(scores) >= eng.target:
        raise ImpossibleStateError(
            f"scores {scores} already reach the target {eng.target}: the game was over.")
    return scores


def _add_winner(out: dict[str, Any], why: list[dict[str, Any]], eng: AllFoursFamily, scores: list[int] | None,
                awards: Sequence[Award]) -> None:
    if scores is None:
        return
    after, winner = tally(scores, awards, eng.target)
    out["scores_after"] = list(after)
    out["winner"] = winner
    if winner is not None:
        running = list(scores)
        by = None
        for a in awards:  # the award that took the winner to the target, in counting order
            running[a.side] += a.points
            if a.side == winner and running[a.side] >= eng.target:
                by = a.category
                break
        why.append(eng.winner_reason(winner, by).to_json())


@register_ask(MakeTrump, *RULESETS)
def make_trump(s: Scenario[MakeTrump]) -> dict[str, Any]:
    """``{"trump", "points", "runs", "hand_size", "redeal", "awards", "why"}`` (+ ``scores_after``
    and ``winner`` with ``scores``).

    Errors: see the module docstring and :meth:`AllFoursFamily.make_trump`; a gift (classic) or
    "take one" (Trinidad) that the option ``gift_may_win``/``beg_point_may_win: false`` forbids is
    ``illegal-play``; more turn-ups than the pack allows is ``impossible-state``.
    """
    eng: AllFoursFamily = s.rules
    f = s.fields
    scores = _scores(s, eng)
    res = eng.make_trump(f.dealer, f.turn_ups, f.decision, f.dealer_choice, scores)
    out = {"trump": res.trump.letter if res.trump is not None else None, "points": list(res.points),
           "runs": res.runs, "hand_size": res.hand_size, "redeal": res.redeal,
           "awards": [a.to_json() for a in res.awards]}
    why = [r.to_json() for r in res.why]
    _add_winner(out, why, eng, scores, res.awards)
    out["why"] = why
    return out


@register_ask(HandScore, *RULESETS)
def hand_score(s: Scenario[HandScore]) -> dict[str, Any]:
    """``{"trick_winners", "awards", "game_points", "points", "why"}`` (+ ``scores_after`` and
    ``winner`` with ``scores``).

    The seat after the dealer leads trick 1; each winner leads the next; a seat's hand at the
    start of play is every card it plays. Errors: a trick of the wrong length ``bad-field``; a
    card twice ``duplicate-card``; a trick count that is not a hand size of the ruleset
    ``impossible-state``; an illegal play ``illegal-play`` naming the trick number and seat.
    """
    eng: AllFoursFamily = s.rules
    dealer, trump, tricks = s.fields.dealer, s.fields.trump, s.fields.tricks
    scores = _scores(s, eng)
    start, leaders, winners = eng.replay(dealer, trump, tricks)
    hs = eng.score_hand(dealer, trump, start, tricks, winners)
    why: list[dict[str, Any]] = []
    for n, (t, lead) in enumerate(zip(tricks, leaders, strict=True), 1):
        _, _, r = eng.trick_winner(t, trump, lead)
        why.append(r.to_json(trick=n))
    why += [r.to_json() for r in hs.why]
    out = {"trick_winners": list(hs.trick_winners), "awards": [a.to_json() for a in hs.awards],
           "game_points": list(hs.game_points), "points": list(hs.points)}
    _add_winner(out, why, eng, scores, hs.awards)
    out["why"] = why
    return out
