"""Speed of the rule engine: ``tutor bench``. Its modules: :mod:`.rates` (the engine's rates),
:mod:`.calls` (the app's calls beside the bare ones), :mod:`.worksheets` (the worksheet PDFs),
:mod:`.web` (``--web``), :mod:`.play`
(``--play``), :mod:`.pages` (``--pages``), :mod:`.load` and :mod:`.locustfile` (``--load``: needs
locust, the ``bench`` extra).

For each ruleset it reports rates measured on one core, e.g. for Hokm:

* ``legal-plays decisions/s`` — :meth:`tutor.engine.hokm.Hokm.legal_plays` on hands and tricks
  taken from random rounds;
* ``trick winners/s`` — :func:`tutor.engine.tricks.trick_winner` on complete random tricks;
* ``random rounds/s (fast loop)`` — :func:`tutor.engine.hokm.random_round`, a whole round from
  the shuffle to the first team on 7 tricks;
* ``random rounds/s (state machine)`` — the same through :class:`~tutor.engine.hokm.HokmRound`
  (``legal_actions`` + ``push`` with every check);

and for All Fours and Trinidad: ``legal-plays decisions/s`` —
:meth:`~tutor.engine.allfours.AllFoursFamily.legal_plays` (the bit set; the reason is built only
by ``legal``/``legal_reason``); ``trick winners/s`` —
:meth:`~tutor.engine.allfours.AllFoursFamily.winner_seat`; ``random games/s (state machine)`` —
:func:`tutor.engine.allfours_random.random_game`, a complete game to the target through the
state machine (``legal_actions`` + ``apply``);
* ``solve scenarios/s`` — ``tutor solve`` (JSON decode, checks, answer, JSON encode) over a
  generated JSON Lines file of the ruleset's asks.

Then, per ruleset, the calls the app makes timed beside the bare ones (:func:`call_costs`: the
median time per call over ``--repeats`` passes of ``--items`` inputs, and the median ratio, each
pair timed back to back in the same run):

* ``legal plays + reason`` — what ``tutor.solve`` does for ``legal-plays`` (Hokm:
  :meth:`~tutor.engine.hokm.Hokm.legal_plays` then :meth:`~tutor.engine.hokm.Hokm.why`; All Fours
  and Trinidad: :meth:`~tutor.engine.allfours.AllFoursFamily.legal`) beside the bare legal set
  (the ``legal-plays decisions/s`` call), on the same decision points passed as the app passes
  them (a hand bit set, the trick as a list of ``Card``, trump a ``Suit``);
* ``trick winner + reason`` — ``trick_winner`` with its reason beside the bare winner (the
  ``trick winners/s`` call);
* ``card reason`` (rulesets that explain single cards, i.e. Hokm) — the registry's
  ``card_reason`` for one card of the hand, the feedback on a wrong legal-cards answer, beside
  the bare legal set;
* ``solve <ask>`` — :func:`tutor.solve.solve` (dict in, answer dict out, as the web app's grading
  calls it) on generated scenarios of each ask, beside the engine's verdict on the already parsed
  fields (legal set, winner seat, round value, turn-up points, trump making, replay and count).

A reason may cost at most :data:`REASON_RATIO_LIMIT` (10) times its bare call: ``tutor bench``
says so, and exits with status 1 when a ``+ reason`` ratio is over it.

Adding a ruleset (the hook for All Fours / Trinidad) is two registrations in :mod:`.rates`::

    @bench("all-fours")
    def _bench_all_fours(budget: float, rng: random.Random) -> dict[str, float]:
        ...  # {label: rate}; use measure() for each figure
        return {"legal-plays decisions/s": measure(...)}

    @scenario_source("all-fours")
    def _all_fours_scenarios(rng: random.Random) -> Iterator[dict]:
        ...  # yield scenarios without end; `solve scenarios/s` is measured over them

``measure(fn, items, budget)`` calls ``fn(item)`` over ``items`` (cycling) for about ``budget``
seconds and returns calls per second.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from .calls import (
    CALLS,
    REASON_CALLS_LIMIT,
    REASON_RATIO_LIMIT,
    REASON_ROWS,
    SOLVE_BARE,
    app_calls,
    call_costs,
    count_calls,
    reason_call_ratios,
    reason_ratios,
)
from .play import main_play, play_rates
from .rates import BENCHES, SCENARIO_SOURCES, bench, measure, measure_calls, scenario_source, solve_rate
from .web import bench_web, main_web

__all__ = ["BENCHES", "CALLS", "REASON_CALLS_LIMIT", "REASON_RATIO_LIMIT", "REASON_ROWS", "SCENARIO_SOURCES",
           "SOLVE_BARE", "app_calls", "bench", "bench_web", "call_costs", "count_calls", "main", "main_play",
           "main_web", "measure", "measure_calls", "play_rates",
           "reason_call_ratios", "reason_ratios", "reason_verdict", "run", "scenario_source", "solve_rate"]

#: Back-to-back pairs of the mixed file's rows (their medians are printed).
MIXED_REPEATS = 5

# ---------------------------------------------------------------------------------------------

def run(rulesets: Sequence[str] | None = None, budget: float = 1.0, scenarios: int = 5000,
        seed: int = 1, keep: str | None = None, repeats: int = 7, items: int = 2000) -> dict[str, dict]:
    """Run the benchmarks; ``{ruleset: {label: rate, ..., "calls": {label: {"bare ns", "ns",
    "ratio"}}}}`` (``"calls"``: :func:`call_costs`, left out when ``repeats`` is 0). The mixed
    file's rows are :func:`tutor.bench.mixed.mixed_costs`'s."""
    out: dict[str, dict] = {}
    for name in rulesets or list(BENCHES):
        rng = random.Random(seed)
        figures: dict = dict(BENCHES[name](budget, rng)) if name in BENCHES else {}
        if name in SCENARIO_SOURCES and scenarios:
            figures["solve scenarios/s"] = solve_rate(name, scenarios, rng, keep)
        if name in CALLS and repeats:
            figures["calls"] = call_costs(name, repeats, items, seed)
        out[name] = figures
    return out


def reason_verdict(results: dict[str, dict]) -> tuple[bool, list[str]]:
    """``(ok, lines)``: whether every :data:`REASON_ROWS` ratio in ``results`` (from :func:`run`)
    is at most :data:`REASON_RATIO_LIMIT`, and one line per row over it."""
    over = []
    for name, figures in results.items():
        costs = figures.get("calls", {})
        for label in REASON_ROWS:
            if label in costs and costs[label]["ratio"] > REASON_RATIO_LIMIT:
                over.append(f"{name} {label}: {costs[label]['ratio']:.1f}x the bare call")
    return not over, over


def main(rulesets: Sequence[str] | None = None, budget: float = 1.0, scenarios: int = 5000,
         as_json: bool = False, keep: str | None = None, repeats: int = 7, items: int = 2000,
         mixed: int = 0, worksheets: int = 0) -> int:
    """Print the figures (a table, or JSON); returns the exit status: 2 for an unknown ruleset,
    1 if a reason costs more than :data:`REASON_RATIO_LIMIT` times its bare call, else 0.
    ``mixed``: scenarios of the mixed file timed beside the minimal loop
    (:func:`tutor.bench.mixed.mixed_costs`, median of 5 pairs; 0 skips, as does naming rulesets);
    ``worksheets``: builds per worksheet figure (:func:`tutor.bench.worksheets.worksheet_costs`;
    0 skips, as does naming rulesets)."""
    unknown = [r for r in rulesets or () if r not in BENCHES and r not in SCENARIO_SOURCES]
    if unknown:
        print(f"no benchmark for: {', '.join(unknown)} (have: {', '.join(sorted(BENCHES))})")
        return 2
    results = run(rulesets, budget, scenarios, keep=keep, repeats=repeats, items=items)
    ok, over = reason_verdict(results)
    mixed_rows = None
    if mixed and not rulesets:
        from .mixed import mixed_costs
        mixed_rows = mixed_costs(mixed, MIXED_REPEATS)
    sheets = None
    if worksheets and not rulesets:
        from .worksheets import worksheet_costs
        sheets = worksheet_costs(worksheets)
    if as_json:
        print(json.dumps(results | ({"mixed": mixed_rows} if mixed_rows else {})
                         | ({"worksheets": sheets} if sheets else {}), indent=2))
        return 0 if ok else 1
    for name, figures in results.items():
        for label, rate in figures.items():
            if label != "calls":
                print(f"{name:10} {label:34} {rate:>14,.0f}")
    if any("calls" in f for f in results.values()):
        print(f"\ntime per call (median of {repeats} repeats over the same inputs), bare call beside the "
              "call the app makes:")
        for name, figures in results.items():
            for label, c in figures.get("calls", {}).items():
                print(f"{name:10} {label:26} bare {_ns(c['bare ns']):>10}   app {_ns(c['ns']):>10}   "
                      f"ratio {c['ratio']:6.1f}")
        if ok:
            print(f"reason cost: at most {REASON_RATIO_LIMIT:g}x the bare call in every ruleset")
        else:
            print(f"reason cost OVER {REASON_RATIO_LIMIT:g}x the bare call: " + "; ".join(over))
    if mixed_rows:
        from .mixed import print_mixed
        print_mixed(mixed_rows, MIXED_REPEATS)
    if sheets:
        from .worksheets import main_rows
        print()
        print("\n".join(main_rows(sheets, worksheets)))
    return 0 if ok else 1


def _ns(ns: float) -> str:
    return f"{ns:,.0f} ns" if ns < 10_000 else f"{ns / 1000:,.1f} us"
