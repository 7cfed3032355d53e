"""Speed of the rule engine: ``tutor bench``.

For each ruleset it reports rates measured on one core, e.g. for Hokm:

* ``legal-plays decisions/s`` — :meth:`tutor.engine.hokm.Hokm.legal_plays` on hands and tricks
  taken from random rounds;
* ``trick winners/s`` — :func:`tutor.engine.tricks.trick_winner` on complete random tricks;
* ``random rounds/s (fast loop)`` — :func:`tutor.engine.hokm.random_round`, a whole round from
  the shuffle to the first team on 7 tricks;
* ``random rounds/s (state machine)`` — the same through :class:`~tutor.engine.hokm.HokmRound`
  (``legal_actions`` + ``push`` with every check);
* ``solve scenarios/s`` — ``tutor solve`` (JSON decode, checks, answer, JSON encode) over a
  generated JSON Lines file of the ruleset's asks.

Adding a ruleset (the hook for All Fours / Trinidad) is two registrations in this module::

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

import io
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice

__all__ = ["BENCHES", "SCENARIO_SOURCES", "bench", "main", "measure", "run", "scenario_source", "solve_rate"]

#: ruleset -> function(budget_seconds, rng) -> {label: rate}
BENCHES: dict[str, Callable[[float, random.Random], dict[str, float]]] = {}
#: ruleset -> function(rng) -> endless iterator of scenarios for the ``solve scenarios/s`` figure
SCENARIO_SOURCES: dict[str, Callable[[random.Random], Iterator[dict]]] = {}


def bench(ruleset: str):
    """Register ``fn(budget, rng) -> {label: rate}`` as the benchmark of ``ruleset``."""
    def deco(fn):
        BENCHES[ruleset] = fn
        return fn
    return deco


def scenario_source(ruleset: str):
    """Register ``fn(rng) -> Iterator[dict]`` producing scenarios of ``ruleset`` for ``tutor solve``."""
    def deco(fn):
        SCENARIO_SOURCES[ruleset] = fn
        return fn
    return deco


def measure(fn: Callable, items: Sequence, budget: float) -> float:
    """Calls per second of ``fn(item)`` over ``items`` (cycled) for about ``budget`` seconds."""
    n = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < budget or n == 0:
        for item in items:
            fn(item)
        n += len(items)
        elapsed = time.perf_counter() - start
    return n / elapsed


def measure_calls(fn: Callable[[], object], budget: float, batch: int = 100) -> float:
    """Calls per second of ``fn()`` for about ``budget`` seconds."""
    n = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < budget or n == 0:
        for _ in range(batch):
            fn()
        n += batch
        elapsed = time.perf_counter() - start
    return n / elapsed


def solve_rate(ruleset: str, count: int, rng: random.Random, keep: str | None = None) -> float:
    """Scenarios per second of ``tutor solve`` over ``count`` generated scenarios written to a
    JSON Lines file (``keep``: path to keep it at; else a temporary file)."""
    from .cli import solve_stream
    lines = [json.dumps(s) for s in islice(SCENARIO_SOURCES[ruleset](rng), count)]
    if keep:
        path = keep
    else:
        fd, path = tempfile.mkstemp(suffix=".jsonl")
        os.close(fd)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        start = time.perf_counter()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        failed = solve_stream(text, io.StringIO())
        elapsed = time.perf_counter() - start
    finally:
        if not keep:
            os.unlink(path)
    if failed:
        raise RuntimeError(f"{failed} generated {ruleset} scenarios failed")
    return len(lines) / elapsed


# ---------------------------------------------------------------------------------------------
# Hokm

def _hokm_positions(rng: random.Random, rounds: int) -> tuple[list, list]:
    """``(hand, trick cards so far, trump)`` decision points and ``(trick, trump)`` complete
    tricks, taken from ``rounds`` random rounds."""
    from .engine.hokm import deal, random_round
    decisions, tricks = [], []
    for _ in range(rounds):
        deck = list(range(52))
        rng.shuffle(deck)
        record: list = []
        hakem = rng.randrange(4)
        trump, _, winners = random_round(rng, hakem, deck=deck, record=record)
        hands = list(deal(deck, hakem)[1])
        leader = hakem
        for cards, winner in zip(record, winners, strict=True):
            for i, c in enumerate(cards):
                seat = (leader + i) % 4
                decisions.append((hands[seat], tuple(cards[:i]), trump))
                hands[seat] &= ~(1 << c)
            tricks.append((tuple(cards), trump))
            leader = winner
    return decisions, tricks


@bench("hokm")
def _bench_hokm(budget: float, rng: random.Random) -> dict[str, float]:
    from .engine.hokm import ChooseTrump, Hokm, HokmRound, random_round
    from .engine.tricks import trick_winner
    decisions, tricks = _hokm_positions(rng, 300)
    legal = Hokm.legal_plays

    def decide(d):
        return legal(d[0], d[1], d[2])

    def win(t):
        return trick_winner(t[0], t[1])

    def fast_round():
        return random_round(rng, 0)

    def machine_round():
        rd = HokmRound(rng.randrange(4), seed=rng)
        rd.push(ChooseTrump(rng.randrange(4)))
        choice = rng.choice
        while rd.phase != "over":
            rd.push(choice(rd.legal_actions()))

    return {
        "legal-plays decisions/s": measure(decide, decisions, budget),
        "trick winners/s": measure(win, tricks, budget),
        "random rounds/s (fast loop)": measure_calls(fast_round, budget),
        "random rounds/s (state machine)": measure_calls(machine_round, budget, batch=10),
    }


@scenario_source("hokm")
def _hokm_scenarios(rng: random.Random) -> Iterator[dict]:
    """Endless mix of the four Hokm asks built from random rounds."""
    from .engine.cards import cards_of
    from .engine.hokm import deal, random_round
    suits = "SHDC"
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        record: list = []
        hakem = rng.randrange(4)
        trump, counts, winners = random_round(rng, hakem, deck=deck, record=record)
        t = suits[trump]
        names = [[_name(c) for c in trick] for trick in record]
        yield {"ruleset": "hokm", "ask": "round-playout", "hakem": hakem, "trump": t, "tricks": names}
        yield {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts,
               "scores": [rng.randrange(7), rng.randrange(7)]}
        hands = list(deal(deck, hakem)[1])
        leader = hakem
        for trick, winner in zip(names, winners, strict=True):
            yield {"ruleset": "hokm", "ask": "trick-winner", "trump": t, "trick": trick, "leader": leader}
            k = rng.randrange(4)
            seat = (leader + k) % 4
            yield {"ruleset": "hokm", "ask": "legal-plays", "trump": t,
                   "hand": [str(c) for c in cards_of(hands[seat])], "trick": trick[:k]}
            for i, name in enumerate(trick):
                hands[(leader + i) % 4] &= ~(1 << _INDEX[name])
            leader = winner


_NAMES: list[str] = []
_INDEX: dict[str, int] = {}


def _name(card: int) -> str:
    if not _NAMES:
        from .engine.cards import CARDS
        _NAMES.extend(str(c) for c in CARDS)
        _INDEX.update({n: i for i, n in enumerate(_NAMES)})
    return _NAMES[card]


# ---------------------------------------------------------------------------------------------

def run(rulesets: Sequence[str] | None = None, budget: float = 1.0, scenarios: int = 5000,
        seed: int = 1, keep: str | None = None) -> dict[str, dict[str, float]]:
    """Run the benchmarks; ``{ruleset: {label: rate}}``."""
    out: dict[str, dict[str, float]] = {}
    for name in rulesets or list(BENCHES):
        rng = random.Random(seed)
        figures = dict(BENCHES[name](budget, rng)) if name in BENCHES else {}
        if name in SCENARIO_SOURCES and scenarios:
            figures["solve scenarios/s"] = solve_rate(name, scenarios, rng, keep)
        out[name] = figures
    return out


def main(rulesets: Sequence[str] | None = None, budget: float = 1.0, scenarios: int = 5000,
         as_json: bool = False, keep: str | None = None) -> int:
    """Print the figures (a table, or JSON); returns the exit status."""
    unknown = [r for r in rulesets or () if r not in BENCHES and r not in SCENARIO_SOURCES]
    if unknown:
        print(f"no benchmark for: {', '.join(unknown)} (have: {', '.join(sorted(BENCHES))})")
        return 2
    results = run(rulesets, budget, scenarios, keep=keep)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    for name, figures in results.items():
        for label, rate in figures.items():
            print(f"{name:10} {label:34} {rate:>14,.0f}")
    return 0
