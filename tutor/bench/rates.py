"""The engine's rates per ruleset (``tutor bench``'s first rows): the :data:`BENCHES` and
:data:`SCENARIO_SOURCES` registries, :func:`measure` and the Hokm, All Fours and Trinidad figures
(see :mod:`tutor.bench`)."""

from __future__ import annotations

import io
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.allfours import AllFoursFamily


__all__ = ["BENCHES", "SCENARIO_SOURCES", "bench", "measure", "measure_calls", "scenario_source", "solve_rate"]

BenchFn = Callable[[float, random.Random], dict[str, float]]
ScenarioSource = Callable[[random.Random], Iterator[dict]]
#: ruleset -> function(budget_seconds, rng) -> {label: rate}
BENCHES: dict[str, BenchFn] = {}
#: ruleset -> function(rng) -> endless iterator of scenarios for the ``solve scenarios/s`` figure
SCENARIO_SOURCES: dict[str, ScenarioSource] = {}


def bench(ruleset: str) -> Callable[[BenchFn], BenchFn]:
    """Register ``fn(budget, rng) -> {label: rate}`` as the benchmark of ``ruleset``."""
    def deco(fn: BenchFn) -> BenchFn:
        BENCHES[ruleset] = fn
        return fn
    return deco


def scenario_source(ruleset: str) -> Callable[[ScenarioSource], ScenarioSource]:
    """Register ``fn(rng) -> Iterator[dict]`` producing scenarios of ``ruleset`` for ``tutor solve``."""
    def deco(fn: ScenarioSource) -> ScenarioSource:
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
    from ..cli.solve import solve_stream
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
    from ..engine.hokm import Hokm, random_round
    deal = Hokm().deal
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
    from ..engine.cards import Card, Suit
    from ..engine.hokm import ChooseTrump, Hokm, HokmRound, random_round
    from ..engine.tricks import trick_winner
    decisions, tricks = _hokm_positions(rng, 300)
    legal = Hokm().legal_plays

    def decide(d: tuple[int, list[int], int]) -> int:
        return legal(d[0], d[1], d[2])

    def win(t: tuple[list[int], int]) -> tuple[int, Card]:
        return trick_winner(t[0], t[1])

    def fast_round() -> tuple[int, list[int], list[int]]:
        return random_round(rng, 0)

    def machine_round() -> None:
        rd = HokmRound(rng.randrange(4), seed=rng)
        rd.push(ChooseTrump(Suit(rng.randrange(4))))
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
    from ..engine.cards import cards_of
    from ..engine.hokm import Hokm, random_round
    deal = Hokm().deal
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
        from ..engine.cards import CARDS
        _NAMES.extend(str(c) for c in CARDS)
        _INDEX.update({n: i for i, n in enumerate(_NAMES)})
    return _NAMES[card]


# ---------------------------------------------------------------------------------------------
# All Fours (classic, 2 players) and Trinidad (4 players): engine-allfours

def _af_rules(ruleset: str) -> AllFoursFamily:
    """The ruleset object with the contract's defaults (all-fours: 2 players; trinidad: 4), found
    by name in the ruleset registry."""
    from ..engine.rulesets import get_ruleset
    return get_ruleset(ruleset).rules()


def _af_positions(rules: AllFoursFamily, rng: random.Random, games: int) -> tuple[list, list, list]:
    """``(hand, trick cards so far, trump)`` decision points, ``(cards, trump, leader)`` complete
    tricks and ``(dealer, trump, tricks)`` complete hands, taken from ``games`` random games."""
    from ..engine.allfours_random import random_game
    decisions, tricks, hands = [], [], []
    n = rules.players
    for _ in range(games):
        record: list = []
        random_game(rules, rng, record=record)
        for dealer, trump, start, played in record:
            held = list(start)
            for leader, cards in played:
                for i, c in enumerate(cards):
                    seat = (leader + i) % n
                    decisions.append((held[seat], cards[:i], trump))
                    held[seat] &= ~(1 << c)
                tricks.append((cards, trump, leader))
            hands.append((dealer, trump, [cards for _, cards in played]))
    return decisions, tricks, hands


def _af_bench(ruleset: str) -> BenchFn:
    def fn(budget: float, rng: random.Random) -> dict[str, float]:
        from ..engine.allfours_random import random_game
        rules = _af_rules(ruleset)
        decisions, tricks, _ = _af_positions(rules, rng, 60)
        legal, winner = rules.legal_plays, rules.winner_seat
        return {
            "legal-plays decisions/s": measure(lambda d: legal(d[0], d[1], d[2]), decisions, budget),
            "trick winners/s": measure(lambda t: winner(t[0], t[1], t[2]), tricks, budget),
            "random games/s (state machine)": measure_calls(lambda: random_game(rules, rng), budget, batch=5),
        }
    return fn


def _af_scenarios(ruleset: str) -> ScenarioSource:
    def fn(rng: random.Random) -> Iterator[dict]:
        """Endless mix of the five asks, built from random games."""
        rules = _af_rules(ruleset)
        base = {"ruleset": ruleset}
        while True:
            decisions, tricks, hands = _af_positions(rules, rng, 1)
            for hand, cards, trump in decisions:
                if cards:
                    yield {**base, "ask": "legal-plays", "trump": "SHDC"[trump],
                           "hand": [_name(c) for c in range(52) if hand >> c & 1], "trick": [_name(c) for c in cards]}
            for cards, trump, leader in tricks:
                yield {**base, "ask": "trick-winner", "trump": "SHDC"[trump], "leader": leader,
                       "trick": [_name(c) for c in cards]}
            for dealer, trump, played in hands:
                yield {**base, "ask": "hand-score", "dealer": dealer, "trump": "SHDC"[trump],
                       "tricks": [[_name(c) for c in t] for t in played],
                       "scores": [rng.randrange(rules.target) for _ in range(rules.n_sides)]}
            deck = list(range(52))
            rng.shuffle(deck)
            yield {**base, "ask": "turn-up", "card": _name(deck[0])}
            ups = [deck[0]]
            decision = rng.choice(["stand", "beg", "beg"])
            choice = rng.choice(["give", "run"]) if decision == "beg" else None
            if choice == "run":
                for c in deck[1:rules.max_runs + 1]:
                    ups.append(c)
                    if c // 13 != deck[0] // 13:
                        break
            # scores that no kick takes to the target: a beg after a kick that won the game is an
            # impossible state (K11), an error answer, not a trump making
            room = max(1, rules.target - 1 - sum(rules.turnup_points(c)[0] for c in ups))
            yield {**base, "ask": "make-trump", "dealer": rng.randrange(rules.players), "decision": decision,
                   **({"dealer_choice": choice} if choice else {}), "turn_ups": [_name(c) for c in ups],
                   "scores": [rng.randrange(room) for _ in range(rules.n_sides)]}
    return fn


for _ruleset in ("all-fours", "trinidad"):
    bench(_ruleset)(_af_bench(_ruleset))
    scenario_source(_ruleset)(_af_scenarios(_ruleset))
