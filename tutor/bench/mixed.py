"""``tutor bench``'s mixed-file rows: ``tutor solve`` on a JSON Lines file of every ruleset and every
ask, beside its reference, a minimal loop that calls the same engine functions on the same
scenarios already parsed (issue 21).

* :func:`mixed_scenarios` — ``count`` scenarios, the rulesets' generated sources
  (:data:`~tutor.bench.rates.SCENARIO_SOURCES`) taken in turn, ten at a time, with one
  ``first-lead`` and one ``next-lead`` (a trick of the ten) of each ruleset after each ten: every
  ask of every ruleset.
* :data:`ENGINE_CALLS` — per ask, ``fn(parsed scenario) -> zero-argument call``: the engine
  functions the ask's handler (:mod:`tutor.solve.hokm`, :mod:`tutor.solve.allfours`,
  :mod:`tutor.solve.leads`) calls, with the same arguments, the verdict and its reasons as the
  engine's objects — no JSON decoding, no field checks, no answer dict, no JSON encoding.
* :func:`mixed_costs` — the whole file and each ``(ruleset, ask)`` of it, timed as ``tutor solve``
  reads it (:func:`tutor.cli.solve.solve_stream` on the file's bytes, answers written to memory)
  beside the minimal loop, back to back (:func:`tutor.bench.calls.compare` on this process's CPU
  time, which a loaded machine stretches less than the wall clock: the median over ``repeats``
  pairs of the time per scenario and of the ratio).
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Callable
from itertools import islice
from typing import Any

from .calls import _first_leads, _next_leads, compare
from .rates import SCENARIO_SOURCES

__all__ = ["ENGINE_CALLS", "MIXED_TARGET", "engine_call", "mixed_costs", "mixed_scenarios"]

#: Most ``tutor solve`` on the mixed file may cost, as a multiple of the minimal loop (issue 21).
MIXED_TARGET = 2.0
#: ask -> fn(parsed scenario) -> the engine calls of its handler, as one zero-argument call.
ENGINE_CALLS: dict[str, Callable[[Any], Callable[[], object]]] = {}


def _engine(ask: str) -> Callable[[Callable[[Any], Callable[[], object]]], Callable[[Any], Callable[[], object]]]:
    def deco(fn: Callable[[Any], Callable[[], object]]) -> Callable[[Any], Callable[[], object]]:
        ENGINE_CALLS[ask] = fn
        return fn
    return deco


def engine_call(s: Any) -> Callable[[], object]:
    """The minimal loop's call for the parsed scenario ``s`` (a :class:`~tutor.solve.common.Scenario`)."""
    return ENGINE_CALLS[s.ask](s)


@_engine("legal-plays")
def _legal(s: Any) -> Callable[[], object]:
    from ..engine.cards import mask_of
    legal, f = s.rules.legal, s.fields
    hand, trick, trump = f.hand, f.trick, f.trump

    def call() -> object:
        _verdict, why = legal(mask_of(hand), trick, trump)
        return why.params  # the reason's params, as an answer reads them
    return call


@_engine("trick-winner")
def _winner(s: Any) -> Callable[[], object]:
    winner, f = s.rules.trick_winner, s.fields
    trick, trump, leader = f.trick, f.trump, f.leader

    def call() -> object:
        return winner(trick, trump, leader)[2].params
    return call


@_engine("next-lead")
def _next(s: Any) -> Callable[[], object]:
    winner, leads, f = s.rules.trick_winner, s.info.winner_leads, s.fields
    trick, trump, leader = f.trick, f.trump, f.leader

    def call() -> object:
        seat, _card, why = winner(trick, trump, leader)
        return [why.params, leads(seat).params]
    return call


@_engine("first-lead")
def _first(s: Any) -> Callable[[], object]:
    first, seat, players = s.info.first_lead, getattr(s.fields, s.info.leader_field), s.players
    return lambda: first(seat, players)[1].params


@_engine("turn-up")
def _turn_up(s: Any) -> Callable[[], object]:
    points, card = s.rules.turnup_points, s.fields.card
    return lambda: points(card)[1].params


@_engine("make-trump")
def _make_trump(s: Any) -> Callable[[], object]:
    f, make = s.fields, s.rules.make_trump

    def call() -> object:
        res = make(f.dealer, f.turn_ups, f.decision, f.dealer_choice, f.scores)
        return [r.params for r in res.why]
    return call


@_engine("hand-score")
def _hand_score(s: Any) -> Callable[[], object]:
    eng, f = s.rules, s.fields
    dealer, trump, tricks = f.dealer, f.trump, f.tricks

    def call() -> object:
        start, leaders, winners = eng.replay(dealer, trump, tricks)
        hs = eng.score_hand(dealer, trump, start, tricks, winners)
        reasons = [eng.trick_winner(t, trump, lead)[2].params for t, lead in zip(tricks, leaders, strict=True)]
        return reasons + [r.params for r in hs.why]
    return call


def _round_params(res: Any) -> list[object]:
    """The params of a round's reasons as the answer gives them: the tricks per team
    (``deal-tricks``), then the round's value and the next hakem."""
    w, tricks = res.winner_team, res.team_tricks
    return [{"team": w, "tricks": tricks[w], "other_team": 1 - w, "other": tricks[1 - w]},
            *(r.params for r in res.why)]


@_engine("round-score")
def _round_score(s: Any) -> Callable[[], object]:
    result, f = s.rules.round_result, s.fields
    hakem, counts = f.hakem, f.team_tricks
    return lambda: _round_params(result(hakem, counts))


@_engine("round-playout")
def _round_playout(s: Any) -> Callable[[], object]:
    from ..engine.hokm_rules import TRICKS_TO_WIN
    from ..engine.tricks import winner_reason, winning_index
    result, f = s.rules.round_result, s.fields
    hakem, trump, tricks = f.hakem, f.trump, f.tricks

    def call() -> object:
        leader, counts, reasons, decided = hakem, [0, 0], [], None
        for trick in tricks:
            reasons.append(winner_reason(trick, trump, leader, 4, "H16").params)
            leader = (leader + winning_index(trick, trump)) % 4
            counts[leader % 2] += 1
            if decided is None and counts[leader % 2] == TRICKS_TO_WIN:
                decided = result(hakem, counts)
        return reasons + (_round_params(decided) if decided is not None else [])
    return call


def mixed_scenarios(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` scenarios of every ruleset and every ask (see the module docstring), seeded."""
    rng = random.Random(seed)
    sources = {name: fn(rng) for name, fn in SCENARIO_SOURCES.items()}
    out: list[dict[str, Any]] = []
    while len(out) < count:
        for name, source in sources.items():
            batch = list(islice(source, 10))
            out.extend(batch)
            out.extend(_first_leads(name, rng, 1))
            out.extend(_next_leads([s for s in batch if s["ask"] == "trick-winner"][:1]))
    return out[:count]


def _pair(scenarios: list[dict[str, Any]]) -> tuple[Callable[[], None], Callable[[], None]]:
    """``(minimal loop, tutor solve)`` over ``scenarios``, each a zero-argument pass."""
    from ..cli.solve import solve_stream
    from ..solve.common import parse_scenario
    calls = [engine_call(parse_scenario(s)[0]) for s in scenarios]
    data = ("\n".join(json.dumps(s) for s in scenarios) + "\n").encode()

    def loop() -> None:
        for call in calls:
            call()

    def solve() -> None:
        if solve_stream(data, io.StringIO()):
            raise RuntimeError("a generated scenario failed")
    return loop, solve


def mixed_costs(count: int = 20_000, repeats: int = 5, seed: int = 1) -> dict[str, Any]:
    """``{"scenarios": count, "all": row, "asks": {"<ruleset> <ask>": row}}``, each row
    ``{"n", "loop us", "solve us", "ratio"}``: per scenario, the minimal loop's and ``tutor
    solve``'s median time (microseconds) and the median ratio, over ``repeats`` back-to-back pairs
    (see the module docstring)."""
    scenarios = mixed_scenarios(count, seed)
    groups: dict[str, list[dict[str, Any]]] = {}
    for s in scenarios:
        groups.setdefault(f"{s['ruleset']} {s['ask']}", []).append(s)

    def row(group: list[dict[str, Any]]) -> dict[str, float]:
        loop, solve = _pair(group)
        c = compare(loop, solve, len(group), repeats, time.process_time)
        return {"n": len(group), "loop us": c["bare ns"] / 1000, "solve us": c["ns"] / 1000, "ratio": c["ratio"]}

    return {"scenarios": len(scenarios), "all": row(scenarios),
            "asks": {name: row(groups[name]) for name in sorted(groups)}}


def print_mixed(results: dict[str, Any], repeats: int) -> None:
    """Print :func:`mixed_costs`: the whole file, then one line per ruleset and ask."""
    print(f"\ntutor solve on a mixed file of {results['scenarios']:,} scenarios (every ruleset, every ask) beside "
          f"the minimal loop of the same engine calls on the parsed scenarios (CPU time per scenario; median of "
          f"{repeats} back-to-back pairs):")
    a = results["all"]
    verdict = "met" if a["ratio"] <= MIXED_TARGET else "NOT met"
    print(f"solve {'mixed file':28} {a['n']:>7,}   loop {a['loop us']:7.1f} us   solve {a['solve us']:7.1f} us   "
          f"ratio {a['ratio']:5.2f}  target <= {MIXED_TARGET:g}x: {verdict}")
    for name, r in results["asks"].items():
        print(f"solve {name:28} {r['n']:>7,}   loop {r['loop us']:7.1f} us   solve {r['solve us']:7.1f} us   "
              f"ratio {r['ratio']:5.2f}")
