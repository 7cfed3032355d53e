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

from functools import lru_cache

from ..engine.allfours import RUN_HAND_METHODS, AllFours, AllFoursFamily, AllFoursOptions, tally
from ..engine.cards import mask_of
from ..engine.errors import BadFieldError, ImpossibleStateError, show
from ..engine.reasons import Reason
from ..engine.trinidad import Trinidad, TrinidadOptions
from .common import RULESETS, OptionSpec, Scenario, check_disjoint, register_ask

__all__ = ["engine_for", "hand_score", "legal_plays", "make_trump", "trick_winner", "turn_up"]

RULESETS["all-fours"].options.setdefault("run_hand_method", OptionSpec("run_hand_method", RUN_HAND_METHODS))

_CLASSES: dict[str, tuple[type[AllFoursFamily], type]] = {
    "all-fours": (AllFours, AllFoursOptions),
    "trinidad": (Trinidad, TrinidadOptions),
}


@lru_cache(maxsize=256)
def _engine(ruleset: str, players: int, options: tuple[tuple[str, object], ...]) -> AllFoursFamily:
    cls, opts = _CLASSES[ruleset]
    return cls(opts(players=players, **dict(options)))


def engine_for(s: Scenario) -> AllFoursFamily:
    """The ruleset object for a parsed scenario (options and players applied; cached)."""
    return _engine(s.ruleset, s.players, tuple(sorted(s.options.items())))


def _register(ask: str, fields: tuple[str, ...]):
    def deco(fn):
        for ruleset in _CLASSES:
            register_ask(ruleset, ask, fields=fields)(fn)
        return fn
    return deco


@_register("legal-plays", ("trump", "hand", "trick"))
def legal_plays(s: Scenario) -> dict:
    """``{"legal": [cards in hand order], "why": [reason]}``.

    ``hand``: 1..largest hand size distinct cards; ``trick``: 0..players-1 cards (a full trick
    is ``bad-field``); a card in both is ``duplicate-card``. Reasons: ``lead-any``,
    ``follow-or-trump`` (C20/T15), ``trump-led-must-trump``/``trump-led-no-trump`` (C20/T14),
    ``void-any-card`` (C21/K1), ``void-must-trump`` (option), ``no-undertrump`` (K22 option).
    """
    eng = engine_for(s)
    trump = s.suit("trump")
    hand = s.cards("hand", min_len=1, max_len=max(eng.hand_sizes()))
    trick = s.cards("trick", required=False, max_len=eng.players - 1)
    check_disjoint(hand=hand, trick=trick)
    legal, why = eng.legal(mask_of(hand), trick, trump)
    return {"legal": [str(c) for c in hand if legal >> c & 1], "why": [why.to_json()]}


@_register("trick-winner", ("trump", "trick", "leader"))
def trick_winner(s: Scenario) -> dict:
    """``{"winner": seat, "card": card, "why": [reason]}`` for ``players`` cards led by
    ``leader`` (default 0); reason ``highest-trump-wins`` or ``highest-of-suit-led-wins``."""
    eng = engine_for(s)
    trump = s.suit("trump")
    trick = s.cards("trick", min_len=eng.players, max_len=eng.players)
    leader = s.seat("leader", default=0)
    seat, card, why = eng.trick_winner(trick, trump, leader)
    return {"winner": seat, "card": str(card), "why": [why.to_json()]}


@_register("turn-up", ("card",))
def turn_up(s: Scenario) -> dict:
    """``{"points": n, "why": [reason]}``: what the dealer's side scores for turning up ``card``
    (classic: jack 1, or A 4 K 3 Q 2 J 1 with ``turnup_scale: running``; Trinidad: A 1, six 2,
    J 3, Tobago two 2)."""
    pts, why = engine_for(s).turnup_points(s.card("card"))
    return {"points": pts, "why": [why.to_json()]}


def _scores(s: Scenario, eng: AllFoursFamily) -> list[int] | None:
    scores = s.int_list("scores", eng.n_sides, 0, 999, required=False)
    if scores is not None and max(scores) >= eng.target:
        raise ImpossibleStateError(
            f"scores {scores} already reach the target {eng.target}: the game was over.")
    return scores


def _add_winner(out: dict, why: list[dict], eng: AllFoursFamily, scores: list[int] | None, awards) -> None:
    if scores is None:
        return
    after, winner = tally(scores, awards, eng.target)
    out["scores_after"] = list(after)
    out["winner"] = winner
    if winner is not None:
        why.append(eng.winner_reason(winner).to_json())


@_register("make-trump", ("dealer", "turn_ups", "decision", "dealer_choice", "scores"))
def make_trump(s: Scenario) -> dict:
    """``{"trump", "points", "runs", "hand_size", "redeal", "awards", "why"}`` (+ ``scores_after``
    and ``winner`` with ``scores``).

    Errors: see the module docstring and :meth:`AllFoursFamily.make_trump`; a gift (classic) or
    "take one" (Trinidad) that the option ``gift_may_win``/``beg_point_may_win: false`` forbids is
    ``illegal-play``; more turn-ups than the pack allows is ``impossible-state``.
    """
    eng = engine_for(s)
    dealer = s.seat("dealer")
    turn_ups = s.cards("turn_ups", min_len=1, max_len=52)
    decision = s.data.get("decision")
    if decision not in ("stand", "beg"):
        raise BadFieldError(f'field decision must be "stand" or "beg", not {show(decision)}.')
    choice = s.data.get("dealer_choice")
    if choice is not None and choice not in ("give", "run"):
        raise BadFieldError(f'field dealer_choice must be "give" or "run", not {show(choice)}.')
    scores = _scores(s, eng)
    res = eng.make_trump(dealer, turn_ups, decision, choice, scores)
    out = {"trump": res.trump.letter if res.trump is not None else None, "points": list(res.points),
           "runs": res.runs, "hand_size": res.hand_size, "redeal": res.redeal,
           "awards": [a.to_json() for a in res.awards]}
    why = [r.to_json() for r in res.why]
    _add_winner(out, why, eng, scores, res.awards)
    out["why"] = why
    return out


@_register("hand-score", ("dealer", "trump", "tricks", "scores"))
def hand_score(s: Scenario) -> dict:
    """``{"trick_winners", "awards", "game_points", "points", "why"}`` (+ ``scores_after`` and
    ``winner`` with ``scores``).

    The seat after the dealer leads trick 1; each winner leads the next; a seat's hand at the
    start of play is every card it plays. Errors: a trick of the wrong length ``bad-field``; a
    card twice ``duplicate-card``; a trick count that is not a hand size of the ruleset
    ``impossible-state``; an illegal play ``illegal-play`` naming the trick number and seat.
    """
    eng = engine_for(s)
    dealer = s.seat("dealer")
    trump = s.suit("trump")
    tricks = s.tricks("tricks", size=eng.players, max_count=52)
    scores = _scores(s, eng)
    start, leaders, winners = eng.replay(dealer, trump, tricks)
    hs = eng.score_hand(dealer, trump, start, tricks, winners)
    why: list[dict] = []
    for n, (t, lead) in enumerate(zip(tricks, leaders), 1):
        _, _, r = eng.trick_winner(t, trump, lead)
        why.append(Reason(r.code, r.rule, {**r.params, "trick": n}).to_json())
    why += [r.to_json() for r in hs.why]
    out = {"trick_winners": list(hs.trick_winners), "awards": [a.to_json() for a in hs.awards],
           "game_points": list(hs.game_points), "points": list(hs.points)}
    _add_winner(out, why, eng, scores, hs.awards)
    out["why"] = why
    return out
