"""Write tests/data/solve_golden.jsonl.gz: `tutor solve`'s exact output on a mixed file (issue 21).

Run it with the reference tree's `tutor` first on the path (main at ea3343d, before the scenario
path was made fast; regenerated from the cover19 branch, whose reasons cite more rule points,
before its merge with the fast path): ``cd /tmp && PYTHONPATH=REF python .../make_solve_golden.py``. The file holds two lines: the
input (JSON Lines, as one JSON string) and the output `tutor solve` wrote for it (the same). The
input is every ask of every ruleset (the bench's mixed file, then the same asks under other player
counts and options) and those scenarios mutated: fields dropped, set to odd values, cards spelt
other ways or repeated, unknown keys, options, players and targets of every kind, lines that are
not JSON objects.
"""

from __future__ import annotations

import gzip
import io
import json
import random
from itertools import islice
from pathlib import Path

from tutor.bench.calls import _first_leads
from tutor.bench.mixed import mixed_scenarios
from tutor.bench.rates import SCENARIO_SOURCES, _af_positions, _name
from tutor.cli.solve import solve_stream
from tutor.engine.options import validate_options
from tutor.engine.rulesets import get_ruleset

OUT = Path(__file__).parent / "solve_golden.jsonl.gz"
ODD = [None, 0, 1, -1, 3, 4, 99, 1.0, True, False, "", "x", "S", "h", "♠", "Z", "AS", "10h", " as ", "TS", "1S",
       "KS ", [], [0], ["AS"], ["AS", "AS"], [1, 2], {"a": 1}, 10**30, "give", "run", "stand", "beg"]
SPELL = {"S": ["s", "♠", "♤"], "H": ["h", "♥", "♡"], "D": ["d", "♦", "♢"], "C": ["c", "♣", "♧"]}


def _options_scenarios(rng: random.Random, n: int) -> list[dict]:
    """Valid all-fours and trinidad scenarios under other players and options."""
    out: list[dict] = []
    combos = [("all-fours", {"players": 3}), ("all-fours", {"players": 4}),
              ("all-fours", {"options": {"void_rule": "must_trump", "low": "captured", "turnup_scale": "running"}}),
              ("all-fours", {"options": {"run_hand_method": "keep-all", "game_tie": "nobody"}, "target": 11}),
              ("trinidad", {"players": 2}), ("trinidad", {"options": {"no_undertrump": True, "jack": "plain",
                                                                       "void_rule": "must_trump"}}),
              ("trinidad", {"options": {"kick_scale": "tobago", "target": 10}, "target": 10})]
    while len(out) < n:
        for name, extra in combos:
            info = get_ruleset(name)
            players = extra.get("players", info.default_players)
            opts = dict(extra.get("options", {}))
            if "target" in extra:
                opts["target"] = extra["target"]
            rules = info.rules(validate_options(info.options_model, opts, players=players))
            decisions, tricks, hands = _af_positions(rules, rng, 1)
            base = {"ruleset": name, **extra}
            for hand, cards, trump in rng.sample(decisions, min(8, len(decisions))):
                out.append({**base, "ask": "legal-plays", "trump": "SHDC"[trump],
                            "hand": [_name(c) for c in range(52) if hand >> c & 1], "trick": [_name(c) for c in cards]})
            for cards, trump, leader in rng.sample(tricks, min(4, len(tricks))):
                out.append({**base, "ask": "trick-winner", "trump": "SHDC"[trump], "leader": leader,
                            "trick": [_name(c) for c in cards]})
            for dealer, trump, played in hands[:2]:
                out.append({**base, "ask": "hand-score", "dealer": dealer, "trump": "SHDC"[trump],
                            "tricks": [[_name(c) for c in t] for t in played]})
            out.append({**base, "ask": "turn-up", "card": _name(rng.randrange(52))})
            out.append({**base, "ask": "first-lead", "dealer": rng.randrange(players)})
    return out[:n]


def _respell(card: object, rng: random.Random) -> object:
    if not isinstance(card, str) or len(card) < 2:
        return card
    rank, suit = card[:-1], card[-1]
    rank = rng.choice([rank, rank.lower(), "T" if rank == "10" else rank])
    return rng.choice(["", " "]) + rank + rng.choice([suit, *SPELL.get(suit, [])]) + rng.choice(["", " "])


def _mutate(s: dict, rng: random.Random) -> object:
    s = json.loads(json.dumps(s))
    keys = [k for k in s if k not in ("ruleset",)]
    how = rng.randrange(14)
    k = rng.choice(keys)
    if how == 12 and isinstance(s.get("tricks"), list) and len(s["tricks"]) > 1:  # a swap: a revoke, often
        a, b = rng.sample(range(len(s["tricks"])), 2)
        i, j = rng.randrange(len(s["tricks"][a])), rng.randrange(len(s["tricks"][b]))
        s["tricks"][a][i], s["tricks"][b][j] = s["tricks"][b][j], s["tricks"][a][i]
    elif how >= 12:
        s["scores"] = rng.choice([[7, 0], [0, 11], [6, 6], [10, 2], [0, 0, 0], [999, 0], [0, 1, 2, 3]])
    elif how == 0:
        del s[k]
    elif how == 1:
        s[k] = rng.choice(ODD)
    elif how == 2:
        s[rng.choice(["extra", "Hand", "options ", "leader", "dealer", "hakem", "scores", "trick"])] = rng.choice(ODD)
    elif how == 3:
        s["options"] = rng.choice([None, [], 7, {}, {"target": rng.choice([3, 7, 7.0, 11, 0, "7", 1000, True])},
                                   {"stop_at_seven": rng.choice([True, False, 0])}, {"low": "won"},
                                   {"void_rule": "must_trump"}, {"players": 3}, {"target": 7, "x": 1}])
    elif how == 4:
        s["players"] = rng.choice([None, 1, 2, 3, 4, 5, "4", 4.0, True])
    elif how == 5:
        s["target"] = rng.choice([None, 3, 7, 11, 21, 0, -1, 7.5, "7", 10**30])
        if rng.random() < 0.5:
            s["options"] = {"target": rng.choice([3, 7, 11, 21])}
    elif how == 6:
        s["ruleset"] = rng.choice(["Hokm", "whist", "", None, 3, "all_fours", "trinidad", "hokm", "all-fours"])
    elif how == 7:
        s["ask"] = rng.choice(["legal", "", None, 3, "turn-up", "round-score", "hand-score", "first-lead"])
    else:  # the cards: other spellings (valid), junk, repeats
        for field in ("hand", "trick", "turn_ups", "card", "tricks"):
            if field not in s:
                continue
            v = s[field]
            if field == "card":
                s[field] = _respell(v, rng) if how < 10 else rng.choice(ODD)
            elif field == "tricks" and isinstance(v, list) and v:
                t = rng.randrange(len(v))
                if how < 10:
                    v[t] = [_respell(c, rng) for c in v[t]]
                elif how == 10 and len(v) > 1:
                    v[t][0] = v[(t + 1) % len(v)][-1]
                else:
                    v[t] = v[t][:-1] if rng.random() < 0.5 else v[:t] + v[t + 1:]
            elif isinstance(v, list) and v:
                if how < 10:
                    s[field] = [_respell(c, rng) for c in v]
                elif how == 10:
                    v[rng.randrange(len(v))] = rng.choice(v + s.get("hand", []) + ["XX", "11S", 5])
                else:
                    v.append(v[0])
    if rng.random() < 0.03:
        return rng.choice([[s], 3, "x", None, True])
    return s


def scenarios(seed: int = 21) -> list[object]:
    rng = random.Random(seed)
    valid = mixed_scenarios(3000, seed) + _options_scenarios(rng, 1000)
    hokm = [s for s in mixed_scenarios(600, seed + 1) if s["ruleset"] == "hokm"]
    for s in islice(hokm, 200):  # hokm under its other options
        valid.append({**s, "options": {"target": 3, "stop_at_seven": rng.choice([True, False])}})
    for name in ("all-fours", "trinidad"):  # more trump makings (one per random game in the sources)
        valid += list(islice((s for s in SCENARIO_SOURCES[name](rng) if s["ask"] in ("make-trump", "turn-up")), 300))
    valid += _first_leads("hokm", rng, 20) + _first_leads("all-fours", rng, 40) + _first_leads("trinidad", rng, 40)
    mutated = [_mutate(rng.choice(valid), rng) for _ in range(4000)]
    return valid + mutated


def main() -> None:
    lines = [json.dumps(s, ensure_ascii=rng_ascii) for s, rng_ascii in
             zip(scenarios(), [True, False] * 100_000, strict=False)]
    lines += ["{", "{\"ruleset\": \"hokm\", \"ask\": NaN}", "[1,", "\"\\ud800\"", "{\"ruleset\": \"hokm\"} x", "1e999"]
    data = "\n".join(lines) + "\n"
    out = io.StringIO()
    solve_stream(data.encode(), out)
    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        f.write(json.dumps(data) + "\n" + json.dumps(out.getvalue()) + "\n")
    print(f"{OUT}: {len(lines)} scenarios, {out.getvalue().count(chr(10))} answers")


if __name__ == "__main__":
    main()
