"""Speed of the rule engine: ``tutor bench``.

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
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine.allfours import AllFoursFamily

__all__ = ["BENCHES", "main_play", "play_rates", "SCENARIO_SOURCES", "bench", "main", "measure", "run", "scenario_source", "solve_rate"]

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
    from .engine.hokm import Hokm, random_round
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
    from .engine.cards import Card, Suit
    from .engine.hokm import ChooseTrump, Hokm, HokmRound, random_round
    from .engine.tricks import trick_winner
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
    from .engine.cards import cards_of
    from .engine.hokm import Hokm, random_round
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
        from .engine.cards import CARDS
        _NAMES.extend(str(c) for c in CARDS)
        _INDEX.update({n: i for i, n in enumerate(_NAMES)})
    return _NAMES[card]


# ---------------------------------------------------------------------------------------------
# All Fours (classic, 2 players) and Trinidad (4 players): engine-allfours

def _af_rules(ruleset: str) -> AllFoursFamily:
    """The ruleset object with the contract's defaults (all-fours: 2 players; trinidad: 4), found
    by name in the ruleset registry."""
    from .engine.rulesets import get_ruleset
    return get_ruleset(ruleset).rules()


def _af_positions(rules: AllFoursFamily, rng: random.Random, games: int) -> tuple[list, list, list]:
    """``(hand, trick cards so far, trump)`` decision points, ``(cards, trump, leader)`` complete
    tricks and ``(dealer, trump, tricks)`` complete hands, taken from ``games`` random games."""
    from .engine.allfours_random import random_game
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
        from .engine.allfours_random import random_game
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
            yield {**base, "ask": "make-trump", "dealer": rng.randrange(rules.players), "decision": decision,
                   **({"dealer_choice": choice} if choice else {}), "turn_ups": [_name(c) for c in ups],
                   "scores": [rng.randrange(rules.target - 1) for _ in range(rules.n_sides)]}
    return fn


for _ruleset in ("all-fours", "trinidad"):
    bench(_ruleset)(_af_bench(_ruleset))
    scenario_source(_ruleset)(_af_scenarios(_ruleset))


# ---------------------------------------------------------------------------------------------
# The calls the app makes, beside the bare ones: ``tutor bench`` "calls" rows

#: ruleset -> function(rng, items) -> the engine calls the app makes for that ruleset: ``(legal,
#: trick winner, decision points, complete tricks)``, see :func:`_reason_passes`
CallsFn = Callable[[random.Random, int], tuple]
CALLS: dict[str, CallsFn] = {}
#: ruleset -> function(parsed scenario) -> zero-argument bare engine call for its ask (``solve`` rows)
SOLVE_BARE: dict[str, Callable[[Any], Callable[[], object]]] = {}

#: Labels of the rows whose ratio is the cost of a reason (the engine call with its reason beside
#: the bare verdict): ``tutor bench`` holds them to :data:`REASON_RATIO_LIMIT`.
REASON_ROWS = ("legal plays + reason", "trick winner + reason", "card reason")
#: Most a reason may cost, as a multiple of the bare call (issue 7).
REASON_RATIO_LIMIT = 10.0


def calls(ruleset: str) -> Callable[[CallsFn], CallsFn]:
    """Register ``fn(rng, items) -> (legal, winner, decisions, tricks)`` for ``ruleset``: ``legal``
    is ``(bare, with_reason)``, each ``f(hand, trick, trump)``; ``winner`` is ``(bare,
    with_reason)``, each ``f(cards, trump, leader)``; ``decisions`` holds ``(hand, trick, trump)``
    and ``tricks`` ``(cards, trump, leader)`` as the app passes them (:func:`_app_decisions`)."""
    def deco(fn: CallsFn) -> CallsFn:
        CALLS[ruleset] = fn
        return fn
    return deco


def compare(bare: Callable[[], object], call: Callable[[], object], n: int, repeats: int) -> dict[str, float]:
    """Time ``bare()`` and ``call()`` (each ``n`` calls over the same inputs) back to back,
    ``repeats`` times. Returns ``{"bare ns", "ns", "ratio"}``: the median time per call of each
    (nanoseconds) and the median over the repeats of ``call / bare`` (each pair measured
    together, so a load spike on a shared machine moves both)."""
    clock = time.perf_counter
    bare(), call()  # warm-up: caches, lazy imports
    b_times, c_times, ratios = [], [], []
    for _ in range(max(1, repeats)):
        t0 = clock()
        bare()
        t1 = clock()
        call()
        t2 = clock()
        b_times.append((t1 - t0) / n)
        c_times.append((t2 - t1) / n)
        ratios.append((t2 - t1) / (t1 - t0))
    return {"bare ns": 1e9 * statistics.median(b_times), "ns": 1e9 * statistics.median(c_times),
            "ratio": statistics.median(ratios)}


def call_costs(ruleset: str, repeats: int = 7, items: int = 2000, seed: int = 1,
               solve_rows: bool = True) -> dict[str, dict[str, float]]:
    """``{label: {"bare ns", "ns", "ratio"}}`` for ``ruleset`` (see :func:`compare`): legal plays
    and trick winner with their reason, and the reason for one card where the ruleset explains
    cards (:data:`REASON_ROWS`, over ``items`` decision points and tricks of random games) and,
    with ``solve_rows``, ``solve <ask>`` for each ask of the ruleset (``items // 10`` generated
    scenarios each)."""
    from .engine.rulesets import get_ruleset
    rng = random.Random(seed)
    legal, winner, decisions, tricks = CALLS[ruleset](rng, items)
    passes = _reason_passes(legal, winner, decisions, tricks, get_ruleset(ruleset).card_reason, rng)
    if solve_rows:
        passes |= _solve_passes(ruleset, rng, max(1, items // 10))
    return {label: compare(bare, call, n, repeats) for label, (bare, call, n) in passes.items()}


def reason_ratios(ruleset: str, repeats: int = 7, items: int = 2000) -> dict[str, float]:
    """``{label: ratio}`` of the :data:`REASON_ROWS` of ``ruleset``: what a reason costs as a
    multiple of the bare call (median of ``repeats``)."""
    costs = call_costs(ruleset, repeats, items, solve_rows=False)
    return {label: costs[label]["ratio"] for label in REASON_ROWS if label in costs}


def _reason_passes(legal: tuple, winner: tuple, decisions: list, tricks: list,
                   card_reason: Callable[..., object] | None = None, rng: random.Random | None = None
                   ) -> dict[str, tuple]:
    """The :data:`REASON_ROWS` as ``{label: (bare pass, app pass, calls per pass)}``; ``card
    reason`` (why one card of the hand may or may not be played: the feedback on a wrong answer)
    only for a ruleset whose registry entry has a ``card_reason``, timed beside the bare legal set
    on the same decision points."""
    (legal_bare, legal_why), (winner_bare, winner_why) = legal, winner

    def loop(fn: Callable[[Any, Any, Any], object], items: list) -> Callable[[], None]:
        def run() -> None:
            for a, b, c in items:
                fn(a, b, c)
        return run

    out = {REASON_ROWS[0]: (loop(legal_bare, decisions), loop(legal_why, decisions), len(decisions)),
           REASON_ROWS[1]: (loop(winner_bare, tricks), loop(winner_why, tricks), len(tricks))}
    if card_reason is not None:
        from .engine.cards import CARDS
        pick = (rng or random.Random(0)).choice
        cards = [CARDS[pick([c for c in range(52) if hand >> c & 1])] for hand, _, _ in decisions]
        why = card_reason

        def card_pass() -> None:
            for card, (hand, trick, trump) in zip(cards, decisions):
                why(card, hand, trick, trump)
        out[REASON_ROWS[2]] = (loop(legal_bare, decisions), card_pass, len(decisions))
    return out


def _app_decisions(decisions: list) -> list[tuple[int, list, object]]:
    """Decision points as the app passes them to the engine: hand bit set, the trick's cards so
    far as a list of :class:`~tutor.engine.cards.Card`, trump a :class:`~tutor.engine.cards.Suit`
    (what :mod:`tutor.solve` parses a scenario into)."""
    from .engine.cards import CARDS, Suit
    return [(hand, [CARDS[c] for c in cards], Suit(trump)) for hand, cards, trump in decisions]


def _app_tricks(tricks: list) -> list[tuple[list, object, int]]:
    """Complete tricks as the app passes them: ``(cards, trump, leader)``, cards as Card objects."""
    from .engine.cards import CARDS, Suit
    return [([CARDS[c] for c in cards], Suit(trump), leader) for cards, trump, leader in tricks]


def _first_leads(ruleset: str, rng: random.Random, n: int) -> list[dict]:
    """``n`` random ``first-lead`` scenarios of ``ruleset`` (the seat of its hakem or dealer)."""
    from .engine.rulesets import get_ruleset
    r = get_ruleset(ruleset)
    out = []
    for _ in range(n):
        players = rng.choice(r.players)
        sc: dict = {"ruleset": ruleset, "ask": "first-lead", r.leader_field: rng.randrange(players)}
        if players != r.default_players:
            sc["players"] = players
        out.append(sc)
    return out


def _first_lead_bare(s: Any) -> Callable[[], object] | None:
    """The bare call of a ``first-lead`` scenario (else ``None``): the registry's rule."""
    if s.ask != "first-lead":
        return None
    seat, players, info = getattr(s.fields, s.info.leader_field), s.players, s.info
    return lambda: info.first_lead(seat, players)


def _solve_passes(ruleset: str, rng: random.Random, per_ask: int) -> dict[str, tuple]:
    """``solve <ask>`` rows: ``per_ask`` generated scenarios of each ask of ``ruleset``, timed
    through :func:`tutor.solve.solve` (dict in, answer dict out: what the web app's grading calls)
    beside :data:`SOLVE_BARE` (the engine's verdict on the already parsed fields)."""
    from .solve import solve
    from .solve.common import asks_of, parse_scenario
    by_ask: dict[str, list[dict]] = {ask: [] for ask in asks_of(ruleset)}
    by_ask["first-lead"] = _first_leads(ruleset, rng, per_ask)
    drawn = 0
    for s in SCENARIO_SOURCES[ruleset](rng):
        group = by_ask[s["ask"]]
        if len(group) < per_ask:
            group.append(s)
            if all(len(g) >= per_ask for g in by_ask.values()):
                break
        drawn += 1
        if drawn > 1000 * per_ask * len(by_ask):  # a source that never gives some ask: a bug, not a hang
            missing = sorted(a for a, g in by_ask.items() if len(g) < per_ask)
            raise RuntimeError(f"the {ruleset} scenario source gives no {', '.join(missing)} scenario")
    out = {}
    for ask, scenarios in sorted(by_ask.items()):
        bares = [SOLVE_BARE[ruleset](parse_scenario(s)[0]) for s in scenarios]

        def bare(bares: list[Callable[[], object]] = bares) -> None:
            for f in bares:
                f()

        def call(scenarios: list[dict] = scenarios) -> None:
            for s in scenarios:
                solve(s)

        out[f"solve {ask}"] = (bare, call, len(scenarios))
    return out


def _bare_legal_or_winner(s: Any, legal: Callable, winner: Callable) -> Callable[[], object] | None:
    """The bare call of a ``legal-plays``, ``trick-winner`` or ``first-lead`` scenario (else ``None``)."""
    first = _first_lead_bare(s)
    if first is not None:
        return first
    from .engine.cards import mask_of
    if s.ask == "legal-plays":
        f = s.fields
        hand, trick, trump = mask_of(f.hand), list(f.trick or []), f.trump
        return lambda: legal(hand, trick, trump)
    if s.ask == "trick-winner":
        f = s.fields
        cards, trump, leader = list(f.trick), f.trump, f.leader
        return lambda: winner(cards, trump, leader)
    return None


@calls("hokm")
def _hokm_calls(rng: random.Random, items: int) -> tuple:
    from .engine.hokm import Hokm
    from .engine.tricks import trick_winner
    decisions, tricks = _hokm_positions(rng, max(1, items // 40))
    full = _app_tricks([(cards, trump, 0) for cards, trump in tricks[:items]])
    # tutor.solve.hokm: Hokm.legal (legal set and reason), Hokm.trick_winner
    rules = Hokm()
    return ((rules.legal_plays, rules.legal), (trick_winner, rules.trick_winner), _app_decisions(decisions[:items]),
            full)


def _hokm_bare(s: Any) -> Callable[[], object]:
    from .engine.hokm_rules import TRICKS_TO_WIN
    from .engine.tricks import make_winner_seat, trick_winner
    rules = s.rules
    round_result = rules.round_result
    bare = _bare_legal_or_winner(s, rules.legal_plays, trick_winner)
    if bare is not None:
        return bare
    if s.ask == "round-score":
        hakem, counts = s.fields.hakem, list(s.fields.team_tricks)
        return lambda: round_result(hakem, counts)
    hakem, trump, played = s.fields.hakem, s.fields.trump, s.fields.tricks
    seat = make_winner_seat(4)

    def playout() -> object:  # the winner of each trick, the round's value once a team has 7
        leader, counts = hakem, [0, 0]
        for t in played:
            leader = seat(t, trump, leader)
            counts[leader % 2] += 1
            if counts[leader % 2] == TRICKS_TO_WIN:
                return round_result(hakem, counts)
        return counts
    return playout


SOLVE_BARE["hokm"] = _hokm_bare


def _af_calls(ruleset: str) -> Callable[[random.Random, int], tuple]:
    def fn(rng: random.Random, items: int) -> tuple:
        rules = _af_rules(ruleset)
        decisions, tricks, _ = _af_positions(rules, rng, max(1, items // 40))
        # tutor.solve.allfours: AllFoursFamily.legal (legal set and reason), .trick_winner
        return ((rules.legal_plays, rules.legal), (rules.winner_seat, rules.trick_winner),
                _app_decisions(decisions[:items]), _app_tricks(tricks[:items]))
    return fn


def _af_bare(s: Any) -> Callable[[], object]:
    eng = s.rules
    bare = _bare_legal_or_winner(s, eng.legal_plays, eng.winner_seat)
    if bare is not None:
        return bare
    if s.ask == "turn-up":
        card = s.fields.card
        return lambda: eng.turnup_points(card)
    if s.ask == "make-trump":
        f = s.fields
        dealer, ups, decision, choice, scores = f.dealer, f.turn_ups, f.decision, f.dealer_choice, f.scores
        return lambda: eng.make_trump(dealer, ups, decision, choice, scores)
    dealer, trump, played = s.fields.dealer, s.fields.trump, s.fields.tricks

    def hand_score() -> object:
        start, _, winners = eng.replay(dealer, trump, played)
        return eng.score_hand(dealer, trump, start, played, winners)
    return hand_score


for _ruleset in ("all-fours", "trinidad"):
    calls(_ruleset)(_af_calls(_ruleset))
    SOLVE_BARE[_ruleset] = _af_bare


# ---------------------------------------------------------------------------------------------

def run(rulesets: Sequence[str] | None = None, budget: float = 1.0, scenarios: int = 5000,
        seed: int = 1, keep: str | None = None, repeats: int = 7, items: int = 2000) -> dict[str, dict]:
    """Run the benchmarks; ``{ruleset: {label: rate, ..., "calls": {label: {"bare ns", "ns",
    "ratio"}}}}`` (``"calls"``: :func:`call_costs`, left out when ``repeats`` is 0)."""
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
         as_json: bool = False, keep: str | None = None, repeats: int = 7, items: int = 2000) -> int:
    """Print the figures (a table, or JSON); returns the exit status: 2 for an unknown ruleset,
    1 if a reason costs more than :data:`REASON_RATIO_LIMIT` times its bare call, else 0."""
    unknown = [r for r in rulesets or () if r not in BENCHES and r not in SCENARIO_SOURCES]
    if unknown:
        print(f"no benchmark for: {', '.join(unknown)} (have: {', '.join(sorted(BENCHES))})")
        return 2
    results = run(rulesets, budget, scenarios, keep=keep, repeats=repeats, items=items)
    ok, over = reason_verdict(results)
    if as_json:
        print(json.dumps(results, indent=2))
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
    return 0 if ok else 1


def _ns(ns: float) -> str:
    return f"{ns:,.0f} ns" if ns < 10_000 else f"{ns / 1000:,.1f} us"


# ---------------------------------------------------------------------------------------------
# tutor bench --web: the web app under gunicorn

def _hit(port: int, method: str, path: str, body: bytes | None, count: int, concurrency: int) -> dict[str, float]:
    """Send ``count`` requests from ``concurrency`` threads; requests/s and latency percentiles (ms)."""
    import http.client
    import threading

    latencies: list[float] = []
    errors: list[str] = []
    failures = [0]
    lock = threading.Lock()
    per_thread = [count // concurrency + (1 if i < count % concurrency else 0) for i in range(concurrency)]
    headers = {"Content-Type": "application/json"} if body is not None else {}

    def worker(n: int) -> None:
        mine = []
        bad = 0
        for _ in range(n):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            t0 = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                resp.read()
                bad += resp.status != 200
            except (OSError, http.client.HTTPException) as e:
                bad += 1
                errors.append(repr(e))
            else:
                mine.append(time.perf_counter() - t0)
            finally:
                conn.close()
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    threads = [threading.Thread(target=worker, args=(n,)) for n in per_thread]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else 0.0

    out: dict = {"requests": len(latencies) + len(errors), "failed": failures[0],
                 "requests/s": len(latencies) / wall, "p50 ms": pct(0.50), "p99 ms": pct(0.99)}
    if errors:
        out["first error"] = errors[0]
    return out


def bench_web(requests: int = 2000, concurrency: int = 4, workers: int = 2) -> dict[str, dict[str, float]]:
    """Start gunicorn (``workers`` sync workers) on a free loopback port and measure answering a
    question through the API (``POST /api/v1/exercises/<id>/answer``) against ``GET /healthz``
    (the ceiling). Returns ``{"answer": {...}, "healthz": {...}, "ratio": {...}}``."""
    from .content import kinds
    from .loadtest import gunicorn_server
    from .web.exercises import content, ref_of

    timed_kind = "legal-cards"  # the answer timed: the first Hokm lesson exercise of this kind
    ex = next(e for s in content().lesson_path("hokm", "en").steps for e in s.exercises if e.kind == timed_kind)
    expected, _answer = kinds.expected_answer(ex)
    body = json.dumps({"answer": expected, "lang": "en"}).encode()
    with tempfile.TemporaryDirectory() as inst:
        # production settings, with the API answer limit raised so that the limiter is measured
        # counting, not refusing, this one client's requests
        env = dict(os.environ, TUTOR_INSTANCE_PATH=inst, TUTOR_SECRET_KEY=os.urandom(32).hex(),
                   TUTOR_ENV="production", TUTOR_LIMIT_API_ANSWER="1000000/second")
        with gunicorn_server(env, workers) as server:  # migrates first, as a deploy does
            port = server.port
            path = f"/api/v1/exercises/{ref_of(ex)}/answer"
            _hit(port, "POST", path, body, min(100, requests), concurrency)  # warm-up: imports, caches
            _hit(port, "GET", "/healthz", None, min(100, requests), concurrency)
            answer = _hit(port, "POST", path, body, requests, concurrency)
            health = _hit(port, "GET", "/healthz", None, requests, concurrency)
    ratio = answer["requests/s"] / health["requests/s"] if health["requests/s"] else 0.0
    return {"answer": answer, "healthz": health, "ratio": {"answer/healthz": ratio}}


def main_web(requests: int = 2000, as_json: bool = False) -> int:
    """Print :func:`bench_web` figures; returns the exit status."""
    results = bench_web(requests)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    for name in ("answer", "healthz"):
        f = results[name]
        print(f"web {name:8} {f['requests/s']:10,.0f} requests/s   p50 {f['p50 ms']:7.2f} ms   "
              f"p99 {f['p99 ms']:7.2f} ms   ({f['requests']} requests, {f['failed']} failed)")
        if "first error" in f:
            print(f"    first error: {f['first error']}")
    print(f"web answer/healthz ratio {results['ratio']['answer/healthz']:.2f}")
    return 0 if not results["answer"]["failed"] and not results["healthz"]["failed"] else 1


# ---------------------------------------------------------------------------------------------
# tutor bench --play: whole deals played by bots (tutor.engine.play)

def _trivial() -> None:
    """The trivial call the deal rates are compared with."""


def play_rates(rulesets: Sequence[str] | None = None, seconds: float = 0.5, repeats: int = 5,
               seed: int = 1) -> dict[str, dict[str, float]]:
    """Complete deals per second played by bots at every seat (:func:`tutor.engine.play.bot_deal`:
    deal, trump making, every bot decision checked by the engine, play, the end-of-deal story),
    per ruleset and player count (``"hokm 4p"``, ``"trinidad 2p"``): ``{"deals/s": median of
    ``repeats`` runs of about ``seconds`` each, "trivial calls/s": the same for an empty function
    call, "deal / trivial call": how many trivial calls one deal costs}``. Each run plays new seeds."""
    from .engine.play import bot_deal
    from .engine.rulesets import RULESETS

    out: dict[str, dict[str, float]] = {}
    for name in rulesets or list(RULESETS):
        info = RULESETS[name]
        for players in info.players:
            opts = {"players": players} if "players" in info.options_model.__pydantic_fields__ else {}
            coach = info.coach(opts)
            next_seed = [seed]

            def one_deal(coach: Any = coach, next_seed: list[int] = next_seed) -> None:
                next_seed[0] += 1
                bot_deal(coach, next_seed[0]).story()

            deals = statistics.median(measure_calls(one_deal, seconds, batch=5) for _ in range(repeats))
            trivial = statistics.median(measure_calls(_trivial, min(seconds, 0.2), batch=1000)
                                        for _ in range(repeats))
            out[f"{name} {players}p"] = {"deals/s": deals, "trivial calls/s": trivial,
                                         "deal / trivial call": trivial / deals}
    return out


def main_play(rulesets: Sequence[str] | None = None, seconds: float = 0.5, repeats: int = 5,
              as_json: bool = False) -> int:
    """Print :func:`play_rates`; exit status 2 for an unknown ruleset, else 0."""
    from .engine.rulesets import RULESETS

    unknown = [r for r in rulesets or () if r not in RULESETS]
    if unknown:
        print(f"no ruleset: {', '.join(unknown)} (have: {', '.join(RULESETS)})")
        return 2
    results = play_rates(rulesets, seconds, repeats)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"complete bot-played deals (bots included), median of {repeats} runs:")
    for table, f in results.items():
        print(f"{table:14} {f['deals/s']:10,.0f} deals/s   one deal = {f['deal / trivial call']:12,.0f} trivial calls")
    return 0
