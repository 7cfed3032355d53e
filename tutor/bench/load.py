"""The load test: ``tutor bench --load [--database sqlite|postgresql]``.

Starts the app as production runs it — ``tutor db upgrade``, then gunicorn with 2 sync workers,
``TUTOR_ENV=production`` and a random 64-hex-digit ``TUTOR_SECRET_KEY`` — on a free port of
127.0.0.1 (the load goes to loopback only: the target address is not an option), on a new SQLite
database or in a new schema of a PostgreSQL database (dropped afterwards), with the learners'
rate limits (``TUTOR_LIMIT_ANSWER``, ``TUTOR_LIMIT_QUIZ``) raised so that the limiter counts but
never refuses the load client, and ``TUTOR_COOKIE_SECURE=0`` (the traffic is plain http, over
which locust's client, unlike a browser on localhost, sends no ``Secure`` cookie). The rate-limit
counters are in Redis when ``TUTOR_REDIS_URL`` is set (or ``redis_url`` given), as in production,
else in each worker's memory.

Then locust (headless, the users of :mod:`tutor.bench.locustfile`) runs these phases, each for
``seconds`` and each in its own locust process, ``repeats`` times after a short warm-up of the mix:

* ``bare`` — the bare Flask route (:func:`tutor.bench.pages.bare_app`, one route answering
  ``GET /healthz``, served by a second gunicorn with the same settings) from ``users`` users without
  pause: the reference of issue 21, the mix at least 50% of its requests/s on SQLite, 40% on
  PostgreSQL (:data:`BARE_TARGETS`);
* ``healthz`` — ``GET /healthz`` from ``users`` users without pause: the ceiling;
* ``mix`` — the learner's mix (lesson step, answer, feedback, next step; quiz setup, questions,
  answers, feedback, results) from the same number of users without pause;
* ``mix at R/s`` — the same mix sent at a fixed ``rate`` (R requests/s in all, from R/10 users
  at 10 requests/s each): the latency at that load;
* ``floor`` — the mix's shape reduced to what no learner's request can do without, from ``users``
  users without pause: two page reads to one answer, as in the mix (18 of its 27 requests read a
  page, 9 post a form), on the floor routes (:func:`tutor.bench.pages.add_floor_routes`: a page that
  reads one row and gives a CSRF token; an answer that passes the CSRF check and the rate limit and
  commits one attempt row, and nothing more). Its ratio to ``healthz`` is the most any mix of that
  shape can reach on this stack: the mix's target is read beside it.

The server is the production app with the two floor routes added (``tutor.bench.pages:floor_app()``);
the other phases never call them.

Each phase gives requests/s (requests finished in the phase after its first second, per second),
p50 and p99 latency in milliseconds (as the client measured them, over the same requests) and the
errors (any request that failed or got another status than a browser expects: 200 for a page,
302 for a form post, over the whole phase), and the CPU time per request that the server and the
load client used (which, unlike rates and latencies, hardly depends on what else the machine
runs). The figures printed are medians over the repeats; the
mix/healthz ratio is the median of each repeat's ratio. Targets (issue 10, on a 2-core machine):
the mix at 60% or more of the ceiling's requests/s, p99 under 100 ms at 200 requests/s, no errors.

Bounded in time: each locust process is told its run time and is killed 60 s after it; gunicorn
is stopped at the end whatever happens (also on SIGTERM or SIGINT to ``tutor bench --load``).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..content.exercise import Exercise

__all__ = ["BARE_TARGETS", "DATABASES", "P99_TARGET_MS", "RATIO_TARGET", "Server", "figures", "free_port", "gunicorn_server", "learner_plan",
           "main", "run_load"]

DATABASES = ("sqlite", "postgresql")
#: The mix's requests/s at least this share of /healthz's.
RATIO_TARGET = 0.60
#: The mix's requests/s at least this share of the bare Flask route's, per database (issue 21).
BARE_TARGETS = {"sqlite": 0.50, "postgresql": 0.40}
#: p99 of the mix at the fixed rate under this many milliseconds.
P99_TARGET_MS = 100.0
#: The PostgreSQL server a run makes its schema in unless told otherwise.
DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
#: Requests per second of each user in the fixed-rate phase.
PACE_PER_USER = 10.0
#: Limit given to the learners' actions for the load client: counted, never reached.
RAISED_LIMIT = "1000000/minute"
LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(NamedTuple):
    """A running gunicorn: its port on 127.0.0.1 and the master's process id."""

    port: int
    pid: int

    def worker_pids(self) -> list[int]:
        """The process ids of the master's workers now (Linux: from /proc)."""
        with open(f"/proc/{self.pid}/task/{self.pid}/children", encoding="ascii") as f:
            return [int(p) for p in f.read().split()]

    def cpu_seconds(self) -> float:
        """CPU time (user + system, seconds) used so far by the master and its workers now."""
        total = 0
        for pid in (self.pid, *self.worker_pids()):
            try:
                with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except FileNotFoundError:  # a worker that just ended
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        return total / os.sysconf("SC_CLK_TCK")


#: Seconds gunicorn has to answer /healthz after it is started (each worker loads all the content;
#: on a 2-core machine shared with other work, 30 s was not always enough).
START_SECONDS = 90


@contextmanager
def gunicorn_server(env: dict[str, str], workers: int = 2, log_path: str | None = None,
                    migrate: bool = True, app: str = "tutor.web:create_app()") -> Iterator[Server]:
    """Migrate the database of ``env`` (``tutor db upgrade``, the deploy step; unless ``migrate``
    is false, for a second server on a database already migrated), start gunicorn
    (``workers`` sync workers, the WSGI app ``app``, by default the production app) on a free port of 127.0.0.1 and
    yield it once ``/healthz`` answers; stop it afterwards. The server's standard error (its logs)
    goes to ``log_path`` (default a temporary file). Raises RuntimeError if it does not start in :data:`START_SECONDS`."""
    if migrate:
        subprocess.run([sys.executable, "-m", "tutor.cli", "db", "upgrade"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log_path = log_path or os.path.join(tmp, "gunicorn.log")
        with open(log_path, "w+b") as log:  # a file: a full pipe would stall the server
            proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}",
                 "--log-level", "warning", app],
                env=env, stdout=subprocess.DEVNULL, stderr=log)
            try:
                deadline = time.monotonic() + START_SECONDS
                while True:
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                            if r.status == 200:
                                break
                    except OSError:
                        if proc.poll() is not None or time.monotonic() > deadline:
                            log.seek(0)
                            raise RuntimeError("gunicorn did not start: " + log.read().decode()[-800:]) from None
                        time.sleep(0.1)
                yield Server(port, proc.pid)
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@contextmanager
def _database(database: str, instance: str, postgres_url: str | None) -> Iterator[str]:
    """The URL of a new, empty database: a SQLite file in ``instance``, or a new schema of the
    PostgreSQL database ``postgres_url`` (dropped afterwards)."""
    if database == "sqlite":
        yield "sqlite:///" + os.path.join(instance, "load.sqlite3")
        return
    if database != "postgresql":
        raise ValueError(f"unknown database {database!r} (one of {', '.join(DATABASES)})")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = postgres_url or DEFAULT_POSTGRES_URL
    schema = "load_" + secrets.token_hex(6)
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            yield make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
                hide_password=False)
        finally:
            with engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        engine.dispose()


def learner_plan(quiz_seeds: int = 4, questions: int = 5) -> dict:
    """What the load test's learners (:mod:`tutor.bench.locustfile`) send, worked out with the app's own
    content and exercise kinds: ``{"games": [...], "languages": [...], "steps": {game: [[step id,
    {exercise id: [right form, wrong form]}], ...]}, "quizzes": {game: [{"form": quiz setup form,
    "answers": [[right form, wrong form], ...]}, ...]}}`` (``quiz_seeds`` setups per game and
    difficulty, ``questions`` questions each; a form is a dict of field -> value or list of values).
    The quiz answers are those of :func:`tutor.web.views.practice.draw_quiz`'s questions for the
    setup's seed, which the server draws again from the same form."""
    from ..content import kinds
    from ..content.kinds import KINDS, kinds_for
    from ..i18n import LANGUAGES
    from ..web import exercises as X
    from ..web.views.common import RULESET_NAMES
    from ..web.views.practice import draw_quiz

    def forms(ex: Exercise) -> list[dict]:
        kind = KINDS[ex.kind]
        right = kinds.expected_answer(ex)[0]
        return [kind.form_fields(ex, right), kind.form_fields(ex, kind.distractor(ex, right))]

    steps = {g: [[s.id, {e.id: forms(e) for e in s.exercises}] for s in X.content().lesson_path(g, "en").steps]
             for g in RULESET_NAMES}
    quizzes: dict[str, list[dict]] = {g: [] for g in RULESET_NAMES}
    for g in RULESET_NAMES:
        for difficulty in (1, 2, 3):
            for seed in range(1, quiz_seeds + 1):
                refs = draw_quiz(g, kinds_for(g), questions, difficulty, seed)
                quizzes[g].append({
                    "form": {"game": g, f"kinds-{g}": kinds_for(g), "count": str(questions),
                             "difficulty": str(difficulty), "seed": str(seed)},
                    "answers": [forms(X.resolve(ref)) for ref in refs]})
    return {"games": list(RULESET_NAMES), "languages": list(LANGUAGES), "steps": steps, "quizzes": quizzes}


def _locust(port: int, user: str, users: int, seconds: float, pace: float, workdir: str) -> dict:
    """Run one locust phase against 127.0.0.1:``port``: ``{"records": [[end time, name, ms, ok],
    ...], "cpu seconds": the client's CPU time from its first request on}``. Raises RuntimeError if
    locust fails to run."""
    out = os.path.join(workdir, f"records-{secrets.token_hex(4)}.json")
    log = os.path.join(workdir, "locust.log")
    cmd = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--host", f"http://127.0.0.1:{port}",
           "-u", str(users), "-r", str(users), "-t", f"{max(1, round(seconds))}s", "--stop-timeout", "2",
           "--only-summary", "--loglevel", "WARNING", "--exit-code-on-error", "0",
           "--tutor-plan", os.path.join(workdir, "plan.json"), "--tutor-out", out, "--tutor-pace", str(pace), user]
    with open(log, "wb") as f:
        try:
            done = subprocess.run(cmd, check=False, stdout=f, stderr=f, timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"locust ({user}) did not stop in {seconds + 60:.0f} s") from None
    if done.returncode != 0 or not os.path.exists(out):
        raise RuntimeError(f"locust ({user}) failed with status {done.returncode}: "
                           + Path(log).read_text(encoding="utf-8", errors="replace")[-1500:])
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def _phase(server: Server, user: str, users: int, seconds: float, pace: float, workdir: str) -> dict:
    """One phase's :func:`figures`, with the CPU time per request (ms) that the server (master and
    workers) and the load client (the locust process, from its first request on) used during it:
    ``server cpu ms``, ``client cpu ms``. Unlike rates and latencies these hardly depend on what else the machine runs."""
    server0 = server.cpu_seconds()
    done = _locust(server.port, user, users, seconds, pace, workdir)
    out = figures(done["records"])
    n = max(1, out["requests"])
    out["server cpu ms"] = 1000 * max(0.0, server.cpu_seconds() - server0) / n
    out["client cpu ms"] = 1000 * done["cpu seconds"] / n
    return out


def figures(records: list, warmup: float = 1.0) -> dict:
    """Requests/s, p50/p99 (ms) and errors of one phase's records ``[end time, name, ms, ok]``:
    rate and latency over the requests that ended after the first ``warmup`` seconds (the users
    starting), errors over all. Also the same per request name (``by name``)."""
    if not records:
        return {"requests": 0, "errors": 0, "requests/s": 0.0, "p50 ms": 0.0, "p99 ms": 0.0, "by name": {}}
    first = min(r[0] for r in records)
    last = max(r[0] for r in records)
    start = first + min(warmup, (last - first) / 2)
    kept = [r for r in records if r[0] >= start]
    span = max(last - start, 1e-9)

    def stats(rs: list) -> dict:
        ms = sorted(r[2] for r in rs)
        return {"requests": len(rs), "requests/s": len(rs) / span, "p50 ms": _pct(ms, 0.50),
                "p99 ms": _pct(ms, 0.99)}

    out = stats(kept) | {"requests": len(records), "errors": sum(1 for r in records if not r[3])}
    names = sorted({r[1] for r in kept})
    out["by name"] = {n: stats([r for r in kept if r[1] == n]) for n in names}
    return out


def _pct(sorted_ms: list, p: float) -> float:
    """The ``p`` quantile (nearest rank) of sorted values; 0.0 for none."""
    if not sorted_ms:
        return 0.0
    return float(sorted_ms[min(len(sorted_ms) - 1, max(0, round(p * len(sorted_ms)) - 1))])


def run_load(database: str = "sqlite", seconds: float = 10.0, rate: float = 200.0, repeats: int = 3,
             users: int = 8, workers: int = 2, postgres_url: str | None = None,
             redis_url: str | None = None, log_path: str | None = None) -> dict:
    """Run the load test (see the module docstring). Returns ``{"database", "workers", "users",
    "rate", "seconds", "repeats", "limits", "load average": [before, after], "runs": [{phase:
    figures}], "median": {phase: {...}}, "ratio": float (mix/healthz), "floor ratio": float
    (floor/healthz), "errors": int, "targets": {...}}`` with phases ``healthz``, ``mix``, ``mix at
    rate``, ``floor``. The machine's 1-minute load average before and
    after is given because other programs on the machine change every figure. Raises ValueError
    for a bad parameter, RuntimeError if gunicorn or locust fails to run."""
    if seconds <= 0 or rate <= 0 or repeats < 1 or users < 1 or workers < 1:
        raise ValueError("seconds and rate must be positive, repeats, users and workers at least 1")
    rate_users = max(1, round(rate / PACE_PER_USER))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="tutor-load-") as inst, ThreadPoolExecutor(1) as pool:
        plan = pool.submit(learner_plan)  # worked out here while gunicorn starts in its own processes
        with _database(database, inst, postgres_url) as url:
            env = dict(os.environ, TUTOR_ENV="production", TUTOR_SECRET_KEY=secrets.token_hex(32),
                       TUTOR_INSTANCE_PATH=inst, TUTOR_DATABASE_URL=url,
                       TUTOR_LIMIT_ANSWER=RAISED_LIMIT, TUTOR_LIMIT_QUIZ=RAISED_LIMIT,
                       TUTOR_COOKIE_SECURE="0")  # plain http: the client keeps no Secure cookie
            if redis_url is not None:
                env["TUTOR_REDIS_URL"] = redis_url
            limits_in = "redis" if env.get("TUTOR_REDIS_URL", "").strip() else "memory"
            runs = []
            with gunicorn_server(env, workers, log_path, app="tutor.bench.pages:floor_app()") as server, \
                    gunicorn_server(env, workers, migrate=False, app="tutor.bench.pages:bare_app()") as bare:
                with open(os.path.join(inst, "plan.json"), "w", encoding="utf-8") as f:
                    json.dump(plan.result(), f)
                _locust(server.port, "Learner", users, min(3.0, seconds / 2), 0.0, inst)  # warm-up, not counted
                for _ in range(repeats):
                    runs.append({
                        "bare": _phase(bare, "Health", users, seconds, 0.0, inst),  # its one route is /healthz
                        "healthz": _phase(server, "Health", users, seconds, 0.0, inst),
                        "mix": _phase(server, "Learner", users, seconds, 0.0, inst),
                        "mix at rate": _phase(server, "Learner", rate_users, seconds, rate / rate_users, inst),
                        "floor": _phase(server, "Floor", users, seconds, 0.0, inst),
                    })
    median = {phase: {k: statistics.median(r[phase][k] for r in runs)
                      for k in ("requests/s", "p50 ms", "p99 ms", "server cpu ms", "client cpu ms")}
              | {"errors": sum(r[phase]["errors"] for r in runs)}
              for phase in runs[0]}
    def ratio_of(phase: str, to: str = "healthz") -> float:
        return statistics.median(r[phase]["requests/s"] / r[to]["requests/s"] if r[to]["requests/s"]
                                 else 0.0 for r in runs)
    ratio = ratio_of("mix")
    bare_ratio = ratio_of("mix", "bare")
    errors = sum(m["errors"] for m in median.values())
    return {"database": database, "workers": workers, "users": users, "rate": rate, "seconds": seconds,
            "repeats": repeats, "limits": limits_in, "load average": [load_before, os.getloadavg()[0]],
            "runs": runs, "median": median, "ratio": ratio, "floor ratio": ratio_of("floor"), "errors": errors,
            "bare ratio": bare_ratio,
            "targets": {"ratio": ratio >= RATIO_TARGET, "bare ratio": bare_ratio >= BARE_TARGETS[database], "p99 at rate": median["mix at rate"]["p99 ms"] < P99_TARGET_MS,
                        "errors": errors == 0}}


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main(database: str = "sqlite", seconds: float = 10.0, rate: float = 200.0, repeats: int = 3, users: int = 8,
         as_json: bool = False, postgres_url: str | None = None) -> int:
    """Print :func:`run_load`'s figures; the exit status is 1 if any request failed, else 0 (the
    other targets are printed, met or missed: they depend on the machine)."""
    # a TERM (or an INT, which a shell's background job ignores) ends the run through the finally
    # blocks, which stop gunicorn and locust and drop the PostgreSQL schema
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        res = run_load(database, seconds, rate, repeats, users, postgres_url=postgres_url)
    except ValueError as e:
        print(f"tutor: {e}", file=sys.stderr)
        return 2
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print(f"tutor: the load test could not run: {e}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(res, indent=2))
        return 0 if res["errors"] == 0 else 1
    print(f"load {database}: gunicorn {res['workers']} workers, rate limits in {res['limits']}, "
          f"{repeats} run(s) of {seconds:g} s per phase, medians; machine load average "
          f"{res['load average'][0]:.1f} before, {res['load average'][1]:.1f} after ({os.cpu_count()} cores)")
    labels = {"bare": f"bare Flask ({users} users)", "healthz": f"healthz ({users} users)", "mix": f"mix ({users} users)",
              "mix at rate": f"mix at {rate:g}/s", "floor": f"floor ({users} users)"}
    for phase, label in labels.items():
        m = res["median"][phase]
        print(f"load {label:22} {m['requests/s']:9,.0f} requests/s   p50 {m['p50 ms']:7.2f} ms   "
              f"p99 {m['p99 ms']:7.2f} ms   {m['errors']} errors   CPU per request: server "
              f"{m['server cpu ms']:.2f} ms, client {m['client cpu ms']:.2f} ms")
    mark = {True: "met", False: "MISSED"}
    t = res["targets"]
    print(f"load mix/healthz ratio {res['ratio']:.2f} (target >= {RATIO_TARGET:.2f}: {mark[t['ratio']]})")
    print(f"load mix/bare Flask route ratio {res['bare ratio']:.2f} (target >= {BARE_TARGETS[database]:.2f} on "
          f"{database}: {mark[t['bare ratio']]})")
    print(f"load floor/healthz ratio {res['floor ratio']:.2f} (the most a mix of two page reads to one answer "
          "reaches here: a CSRF token per page, the CSRF check, the rate limit and one committed row per answer); "
          f"mix/floor {res['ratio'] / res['floor ratio'] if res['floor ratio'] else 0.0:.2f}")
    print(f"load p99 at {rate:g}/s {res['median']['mix at rate']['p99 ms']:.1f} ms "
          f"(target < {P99_TARGET_MS:g} ms: {mark[t['p99 at rate']]})")
    print(f"load errors {res['errors']} (target 0: {mark[t['errors']]})")
    return 0 if res["errors"] == 0 else 1
