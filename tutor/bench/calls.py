"""The calls the app makes timed beside the bare ones (``tutor bench``'s "calls" rows, see
:mod:`tutor.bench`): :func:`call_costs`, :func:`reason_ratios` and the :data:`CALLS` registry."""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from .rates import SCENARIO_SOURCES, _af_positions, _af_rules, _hokm_positions

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
#: Most function calls (Python and C, as :func:`count_calls` counts them) a reason may make, as a
#: multiple of the bare call's on the same inputs: the machine-independent twin of
#: :data:`REASON_RATIO_LIMIT`. Today's paths make 2-6x; the reason code before issue 7 made 13x.
REASON_CALLS_LIMIT = 8.0


def app_calls(ruleset: str) -> Callable[[CallsFn], CallsFn]:
    """Register ``fn(rng, items) -> (legal, winner, decisions, tricks)`` for ``ruleset``: ``legal``
    is ``(bare, with_reason)``, each ``f(hand, trick, trump)``; ``winner`` is ``(bare,
    with_reason)``, each ``f(cards, trump, leader)``; ``decisions`` holds ``(hand, trick, trump)``
    and ``tricks`` ``(cards, trump, leader)`` as the app passes them (:func:`_app_decisions`)."""
    def deco(fn: CallsFn) -> CallsFn:
        CALLS[ruleset] = fn
        return fn
    return deco


def compare(bare: Callable[[], object], call: Callable[[], object], n: int, repeats: int,
            clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Time ``bare()`` and ``call()`` (each ``n`` calls over the same inputs) back to back,
    ``repeats`` times, on ``clock`` (wall-clock time; ``time.process_time``: this process's CPU
    time). Returns ``{"bare ns", "ns", "ratio"}``: the median time per call of each
    (nanoseconds) and the median over the repeats of ``call / bare`` (each pair measured
    together, so a load spike on a shared machine moves both)."""
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


def count_calls(fn: Callable[[], object]) -> int:
    """How many function calls (Python ``call`` and C ``c_call`` profiler events) ``fn()``
    makes, itself excluded: a count of work that does not depend on how busy the machine is."""
    n = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal n
        if event in ("call", "c_call"):
            n += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return n - 2  # fn's own call, and the profiler's sys.setprofile(None) (a c_call)


def reason_call_ratios(ruleset: str, items: int = 1000, seed: int = 1) -> dict[str, float]:
    """``{label: ratio}`` of the :data:`REASON_ROWS` of ``ruleset``: the function calls the
    path with its reason makes over ``items`` decision points (or tricks) of random games, as a
    multiple of the bare call's on the same inputs (:func:`count_calls`; deterministic)."""
    from ..engine.rulesets import get_ruleset
    rng = random.Random(seed)
    legal, winner, decisions, tricks = CALLS[ruleset](rng, items)
    passes = _reason_passes(legal, winner, decisions, tricks, get_ruleset(ruleset).card_reason, rng)
    return {label: count_calls(call) / max(1, count_calls(bare)) for label, (bare, call, _) in passes.items()}


def call_costs(ruleset: str, repeats: int = 7, items: int = 2000, seed: int = 1,
               solve_rows: bool = True) -> dict[str, dict[str, float]]:
    """``{label: {"bare ns", "ns", "ratio"}}`` for ``ruleset`` (see :func:`compare`): legal plays
    and trick winner with their reason, and the reason for one card where the ruleset explains
    cards (:data:`REASON_ROWS`, over ``items`` decision points and tricks of random games) and,
    with ``solve_rows``, ``solve <ask>`` for each ask of the ruleset (``items // 10`` generated
    scenarios each)."""
    from ..engine.rulesets import get_ruleset
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
        from ..engine.cards import CARDS
        pick = (rng or random.Random(0)).choice
        cards = [CARDS[pick([c for c in range(52) if hand >> c & 1])] for hand, _, _ in decisions]
        why = card_reason

        def card_pass() -> None:
            for card, (hand, trick, trump) in zip(cards, decisions, strict=True):
                why(card, hand, trick, trump)
        out[REASON_ROWS[2]] = (loop(legal_bare, decisions), card_pass, len(decisions))
    return out


def _app_decisions(decisions: list) -> list[tuple[int, list, object]]:
    """Decision points as the app passes them to the engine: hand bit set, the trick's cards so
    far as a list of :class:`~tutor.engine.cards.Card`, trump a :class:`~tutor.engine.cards.Suit`
    (what :mod:`tutor.solve` parses a scenario into)."""
    from ..engine.cards import CARDS, Suit
    return [(hand, [CARDS[c] for c in cards], Suit(trump)) for hand, cards, trump in decisions]


def _app_tricks(tricks: list) -> list[tuple[list, object, int]]:
    """Complete tricks as the app passes them: ``(cards, trump, leader)``, cards as Card objects."""
    from ..engine.cards import CARDS, Suit
    return [([CARDS[c] for c in cards], Suit(trump), leader) for cards, trump, leader in tricks]


def _first_leads(ruleset: str, rng: random.Random, n: int) -> list[dict]:
    """``n`` random ``first-lead`` scenarios of ``ruleset`` (the seat of its hakem or dealer)."""
    from ..engine.rulesets import get_ruleset
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
    from ..solve import solve
    from ..solve.common import asks_of, parse_scenario
    by_ask: dict[str, list[dict]] = {ask: [] for ask in asks_of(ruleset) if ask != "next-lead"}
    by_ask["first-lead"] = _first_leads(ruleset, rng, per_ask)
    for drawn, s in enumerate(SCENARIO_SOURCES[ruleset](rng), 1):
        group = by_ask[s["ask"]]
        if len(group) < per_ask:
            group.append(s)
            if all(len(g) >= per_ask for g in by_ask.values()):
                break
        if drawn > 1000 * per_ask * len(by_ask):  # a source that never gives some ask: a bug, not a hang
            missing = sorted(a for a, g in by_ask.items() if len(g) < per_ask)
            raise RuntimeError(f"the {ruleset} scenario source gives no {', '.join(missing)} scenario")
    by_ask["next-lead"] = _next_leads(by_ask["trick-winner"])
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


def _next_leads(tricks: list[dict]) -> list[dict]:
    """``next-lead`` scenarios: the same tricks as ``trick-winner`` ones, asking who leads next."""
    return [{**s, "ask": "next-lead"} for s in tricks]


def _bare_legal_or_winner(s: Any, legal: Callable, winner: Callable) -> Callable[[], object] | None:
    """The bare call of a ``legal-plays``, ``trick-winner`` or ``first-lead`` scenario (else ``None``)."""
    first = _first_lead_bare(s)
    if first is not None:
        return first
    from ..engine.cards import mask_of
    if s.ask == "legal-plays":
        f = s.fields
        hand, trick, trump = mask_of(f.hand), list(f.trick or []), f.trump
        return lambda: legal(hand, trick, trump)
    if s.ask in ("trick-winner", "next-lead"):
        f = s.fields
        cards, trump, leader = list(f.trick), f.trump, f.leader
        return lambda: winner(cards, trump, leader)
    return None


@app_calls("hokm")
def _hokm_calls(rng: random.Random, items: int) -> tuple:
    from ..engine.hokm import Hokm
    from ..engine.tricks import trick_winner
    decisions, tricks = _hokm_positions(rng, max(1, items // 40))
    full = _app_tricks([(cards, trump, 0) for cards, trump in tricks[:items]])
    # tutor.solve.hokm: Hokm.legal (legal set and reason), Hokm.trick_winner
    rules = Hokm()
    return ((rules.legal_plays, rules.legal), (trick_winner, rules.trick_winner), _app_decisions(decisions[:items]),
            full)


def _hokm_bare(s: Any) -> Callable[[], object]:
    from ..engine.hokm_rules import TRICKS_TO_WIN
    from ..engine.tricks import make_winner_seat, trick_winner
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
    app_calls(_ruleset)(_af_calls(_ruleset))
    SOLVE_BARE[_ruleset] = _af_bare
