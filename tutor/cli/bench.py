"""``tutor bench``: the benchmarks (:mod:`tutor.bench`; ``--load`` needs the ``bench`` extra, locust)."""

from __future__ import annotations

import argparse
import sys

from .registry import command


@command("bench", help="measure the engine's speed per ruleset (decisions/s, rounds/s, solve scenarios/s) and "
                       "the calls the app makes (with reasons, solve per ask) beside the bare ones",
         arguments=[
             (("rulesets",), {"nargs": "*", "help": "rulesets to measure (default: all)"}),
             (("--seconds",), {"type": float, "default": None,
                               "help": "time per figure (default 1; with --load, per phase: default 10)"}),
             (("--scenarios",), {"type": int, "default": 5000,
                                 "help": "scenarios in the generated JSON Lines file (default 5000; 0 skips)"}),
             (("--keep",), {"metavar": "FILE", "help": "keep the generated JSON Lines file (one ruleset)"}),
             (("--mixed",), {"type": int, "default": 20_000,
                             "help": "scenarios of the mixed file (every ruleset, every ask) that `tutor solve` "
                                     "answers beside a minimal loop of the same engine calls on the parsed "
                                     "scenarios, per ask and in all (default 20,000; 0 skips)"}),
             (("--repeats",), {"type": int, "default": None,
                               "help": "repeats of each timed call beside its bare call; the median is "
                                       "reported (default 7; 0 skips these rows); with --load, runs of the "
                                       "phases (default 3); with --pages, passes (default 5)"}),
             (("--items",), {"type": int, "default": 2000,
                             "help": "inputs per timed pass of those rows (default 2000)"}),
             (("--worksheets",), {"type": int, "default": 3, "metavar": "N",
                                 "help": "builds per worksheet PDF figure (the 20-question key of each game in "
                                         "each language, CPU and pages; the 81-question Trinidad key in Telugu "
                                         "once); default 3, 0 skips"}),
            (("--json",), {"action": "store_true", "help": "print JSON"}),
             (("--web",), {"action": "store_true",
                           "help": "measure the web app instead: gunicorn with 2 workers, answering a question "
                                   "through the API against /healthz (requests/s, p50/p99 latency)"}),
             (("--requests",), {"type": int, "default": None,
                                "help": "requests per web figure (default 2000); with --pages, requests per page "
                                        "and pass (default 60)"}),
             (("--play",), {"action": "store_true",
                            "help": "measure whole deals played by bots instead: complete deals/s per ruleset and "
                                    "table (bots included), the median of --repeats runs of --seconds each, and "
                                    "a deal's cost in trivial calls"}),
             (("--load",), {"action": "store_true",
                            "help": "load test instead (locust): gunicorn with 2 workers, a learner's mix of pages "
                                    "and form posts against /healthz, the mix at a fixed rate and the mix's floor "
                                    "(requests/s, p50/p99 latency, errors); exit status 1 if a request failed"}),
             (("--pages",), {"action": "store_true",
                             "help": "measure pages in the app's own process instead (Flask test client): a lesson "
                                     "step, a quiz question, an answer sent by fetch, the progress page of a "
                                     "learner with 10,000 attempts, a quiz answer, a quiz's feedback and its "
                                     "results, and three floors (a checked post, a committed answer, a page), "
                                     "each as a ratio to /healthz"}),
             (("--database",), {"choices": ["sqlite", "postgresql"], "default": "sqlite",
                                "help": "with --load: a new SQLite file, or a new schema in the PostgreSQL "
                                        "database of --postgres-url (default sqlite)"}),
             (("--postgres-url",), {"default": None, "metavar": "URL",
                                    "help": "with --load --database postgresql: the database to make the schema in "
                                            "(default postgresql+psycopg://postgres@127.0.0.1:5432/postgres)"}),
             (("--rate",), {"type": float, "default": 200.0,
                            "help": "with --load: requests/s of the fixed-rate phase (default 200)"}),
             (("--users",), {"type": int, "default": 8,
                             "help": "with --load: users of the phases without pause (default 8)"}),
         ])
def _bench(args: argparse.Namespace) -> int:
    if args.load:
        import importlib.util
        if importlib.util.find_spec("locust") is None:  # a production install: locust is the bench extra
            print("tutor bench --load needs locust: pip install 'tutor[bench]'", file=sys.stderr)
            return 2
        from ..bench.load import main as load_main
        return load_main(args.database, 10.0 if args.seconds is None else args.seconds, args.rate,
                         3 if args.repeats is None else args.repeats, args.users, args.json, args.postgres_url)
    if args.play:
        from ..bench.play import main_play
        return main_play(args.rulesets, 0.5 if args.seconds is None else args.seconds,
                         5 if args.repeats is None else max(1, args.repeats), args.json)
    if args.pages:
        from ..bench.pages import main as pages_main
        return pages_main(max(1, 5 if args.repeats is None else args.repeats),
                          max(1, 60 if args.requests is None else args.requests), args.json)
    if args.web:
        from ..bench.web import main_web
        return main_web(max(1, 2000 if args.requests is None else args.requests), args.json)
    from ..bench import main as bench_main
    return bench_main(args.rulesets, 1.0 if args.seconds is None else args.seconds, args.scenarios, args.json,
                      args.keep, max(0, 7 if args.repeats is None else args.repeats), max(1, args.items),
                      max(0, args.mixed), max(0, args.worksheets))

