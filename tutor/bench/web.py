"""``tutor bench --web``: the web app under gunicorn (requests/s, p50/p99 latency)."""

from __future__ import annotations

import json
import os
import tempfile
import time

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
    from ..content import kinds
    from ..web.exercises import content, ref_of
    from .load import gunicorn_server

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
