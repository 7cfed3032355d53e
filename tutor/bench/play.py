"""``tutor bench --play``: whole deals played by bots (:mod:`tutor.engine.play`)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import Any

from .rates import measure_calls

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
    from ..engine.play import bot_deal
    from ..engine.rulesets import RULESETS

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
    from ..engine.rulesets import RULESETS

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
