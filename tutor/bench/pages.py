"""``tutor bench --pages``: what a page costs in the app's own process, as a ratio to ``/healthz``.

The app is made as production makes it (CSRF on, the rate limiter counting, the request log
written, to a stream kept in memory), on a new SQLite database migrated to head in a temporary
folder, and driven by Flask's test client: no network, no server, so the figures are the app's
own CPU time per request. Every request is timed beside two references built here
(:func:`reference_apps`: a bare Flask app with one route, and a Flask app with a signed session
cookie and Flask-WTF's CSRF protection giving a form's token) and beside ``GET /healthz``, all in
the same pass, with the same cookies:

* ``step page`` — ``GET`` a Hokm lesson step with a ``legal-cards`` exercise, by a learner who has
  answered on it before;
* ``question page`` — ``GET`` the first question of a practice quiz of that learner;
* ``answer (fetch)`` — the answer to that step's exercise as the page's script sends it with
  ``fetch``: an ``application/x-www-form-urlencoded`` POST of the form's fields
  (``new URLSearchParams(new FormData(form))``, the CSRF token among them; before, ``tutor.js``
  sent the ``FormData`` itself, ``multipart/form-data``: see :data:`ANSWER_BODY`) with the
  headers ``X-Tutor-Fetch: 1`` and ``Accept: text/html``; it writes the
  attempt and the learner's progress in one transaction, as every answer does. The response is
  the exercise's section with the verdict (200) where the app answers such a post in place, else
  the redirect to the feedback (302, not followed);
* ``progress page (10,000 attempts)`` — ``GET`` the progress page of a second learner seeded with
  10,000 attempts over lesson and generated exercises, 16% of them wrong (their mistakes queue
  holds one review card per exercise answered wrong);
* the rest of the load test's mix (:mod:`tutor.bench.locustfile`), reported without a target:
  ``quiz answer`` (the first question's answer posted as a form without script: 302 to its
  feedback), ``quiz feedback`` and ``quiz results`` (of a second quiz of that learner, each of its
  questions answered once);
* two *floors*, the least any request of its sort can cost in this app, on routes the benchmark
  adds to its own app (:func:`add_floor_routes`; the app served to learners has none):
  ``floor: post`` is a form post that passes the CSRF check and the count against the ``answer``
  rate limit and writes nothing; ``floor: answer`` is a form post that only does what every answer must — the CSRF check, the
  count against the ``answer`` rate limit, the learner looked up and one attempt row inserted and
  committed — and answers a fixed fragment: no grading, no progress, no page; ``floor: page`` a
  ``GET`` that reads one row of the learner's and gives a form's CSRF token. The answer's target is beside its floor:
  what is left between them is the grading, the progress and the verdict's section.

A pass times ``batch`` requests of each kind back to back, the references first; the cost of a kind
is the median time of its requests in the pass, its ratio that over the median of ``/healthz``
in the same pass (and over each reference's), and the figure printed the median ratio over
``repeats`` passes. Targets (issue 21, :data:`TARGETS`): ``/healthz`` at most 2x the bare Flask
route, the step page at most 3x it, the answer at most 1.5x its floor.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["BARE", "FLOOR_ANSWER", "FLOOR_PAGE", "FLOOR_POST", "PAGES", "REFERENCES", "SESSION_CSRF", "TARGETS",
           "add_floor_routes", "bare_app", "floor_app", "main", "page_costs", "reference_apps", "seed_learner"]

#: The references, apps of their own built here (:func:`reference_apps`), timed in every pass.
BARE, SESSION_CSRF = "bare Flask route", "Flask + session + CSRF"
REFERENCES = (BARE, SESSION_CSRF)
#: The rows printed, in order.
PAGES = ("/healthz", "step page", "question page", "answer (fetch)", "progress page (10,000 attempts)", "quiz answer",
         "quiz feedback", "quiz results", "floor: post", "floor: answer", "floor: page")
#: The floor routes (:func:`add_floor_routes`).
FLOOR_POST, FLOOR_ANSWER, FLOOR_PAGE = "/bench-floor/post", "/bench-floor/answer", "/bench-floor/page"
#: Largest ratio wanted per row, and to what (issue 21): ``{row: (reference row, ratio)}``; a row
#: without one is only reported.
TARGETS = {"/healthz": (BARE, 2.0), "step page": (BARE, 3.0), "answer (fetch)": ("floor: answer", 1.5)}
#: The answer's body as ``tutor.js`` sends it (:func:`page_costs` ``answer_body="multipart/form-data"``
#: measures the body the script sent before, for comparison).
ANSWER_BODY = "application/x-www-form-urlencoded"
#: Attempts of the seeded learner, and the share answered wrong.
HEAVY_ATTEMPTS = 10_000
WRONG_SHARE = 0.16


def seed_learner(app: Any, anon: str, attempts: int = HEAVY_ATTEMPTS, seed: int = 1) -> int:
    """Give the learner ``anon`` (made now) ``attempts`` attempts over the app's lesson exercises
    and generated Hokm questions, a share :data:`WRONG_SHARE` wrong, with one review card per
    exercise answered wrong; returns the number of review cards. Bulk inserts, one transaction."""
    from fsrs import Card
    from sqlalchemy import insert

    from ..domain.db import now
    from ..domain.models import Attempt, Learner, Mistake
    from ..web import exercises as X

    rng = random.Random(seed)
    refs = [(X.ref_of(e), e.ruleset or r, e.kind) for r in ("hokm", "all-fours", "trinidad")
            for s in X.lesson_path(r).steps for e in s.exercises]
    kinds = [k for _ref, r, k in refs if r == "hokm"]
    refs += [(f"gen:hokm:{k}:1:{n}", "hokm", k) for n, k in enumerate(rng.choices(sorted(set(kinds)), k=3000))]
    at = now()
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            learner_id = db.execute(insert(Learner).values(anon_id=anon, created_at=at)
                                    .returning(Learner.id)).scalar_one()
            rows, wrong = [], {}
            for _ in range(attempts):
                ref, ruleset, kind = rng.choice(refs)
                correct = rng.random() >= WRONG_SHARE
                rows.append({"learner_id": learner_id, "exercise_ref": ref, "ruleset": ruleset, "kind": kind,
                             "given": {}, "correct": correct, "created_at": at})
                if not correct:
                    wrong[ref] = (ruleset, kind)
            db.execute(insert(Attempt), rows)
            card = Card().to_dict()
            db.execute(insert(Mistake), [{"learner_id": learner_id, "exercise_ref": ref, "ruleset": r, "kind": k,
                                          "added_at": at, "card": card, "due": at, "streak": 0}
                                         for ref, (r, k) in wrong.items()])
            db.commit()
        finally:
            db.close()
    return len(wrong)


def add_floor_routes(app: Any) -> None:
    """Add the floor routes to ``app`` (before its first request; for benchmarks only):

    * ``POST`` :data:`FLOOR_POST` — CSRF-checked like every form post and counted against the
      ``answer`` rate limit; writes nothing; answers ``<p>ok</p>`` (200);
    * ``POST`` :data:`FLOOR_ANSWER` — CSRF-checked like every form post, counted against the
      ``answer`` rate limit, inserts one attempt row of the session's learner (made if new) and
      commits, as :func:`tutor.domain.record.record_answer` does first; answers ``<p>ok</p>`` (200);
    * ``GET`` :data:`FLOOR_PAGE` — reads the id of the session's learner's latest attempt and
      answers a form's CSRF token, as every page with a form has one:
      ``<input name="csrf_token" value="...">`` (200).
    """
    from flask_wtf.csrf import generate_csrf
    from markupsafe import escape
    from sqlalchemy import bindparam, insert, select

    from ..domain.db import now, table_of
    from ..domain.models import Attempt, Learner
    from ..web import limits
    from ..web.db import get_session, learner_id_for_write, read_connection, session_anon

    attempts, learners = table_of(Attempt), table_of(Learner)
    # built once, as the answer path's statements are (tutor.domain.record)
    add = insert(attempts)
    last = (select(attempts.c.id).join(learners, learners.c.id == attempts.c.learner_id)
            .where(learners.c.anon_id == bindparam("anon")).order_by(attempts.c.id.desc()).limit(1))

    @limits.limited("answer")
    def floor_post() -> str:
        return "<p>ok</p>"

    @limits.limited("answer")
    def floor_answer() -> str:
        db = get_session()
        conn = db.connection()
        conn.execute(add, {"learner_id": learner_id_for_write(conn), "exercise_ref": "floor", "ruleset": "hokm",
                           "kind": "legal-cards", "given": {}, "correct": True, "created_at": now()})
        db.commit()
        return "<p>ok</p>"

    def floor_page() -> str:
        read_connection().execute(last, {"anon": session_anon() or ""}).first()
        return f'<input name="csrf_token" value="{escape(generate_csrf())}">'

    app.add_url_rule(FLOOR_POST, "bench_floor_post", floor_post, methods=["POST"])
    app.add_url_rule(FLOOR_ANSWER, "bench_floor_answer", floor_answer, methods=["POST"])
    app.add_url_rule(FLOOR_PAGE, "bench_floor_page", floor_page)
    limits.apply(app)


def floor_app() -> Any:
    """The app as :func:`tutor.web.create_app` makes it from the environment, with the floor
    routes (:func:`add_floor_routes`): what the load test serves (``tutor.bench.pages:floor_app()``)."""
    from ..web import create_app

    app = create_app()
    add_floor_routes(app)
    return app


def bare_app() -> Any:
    """The :data:`BARE` reference of :func:`reference_apps` as a WSGI app of its own: what the load
    test serves beside the app, with the same gunicorn settings (``tutor.bench.pages:bare_app()``)."""
    import secrets
    return reference_apps(secrets.token_hex(32))[BARE][0]


def reference_apps(secret_key: str) -> dict[str, Any]:
    """The references every page is measured against, built here and nowhere else: ``{name: (app,
    path)}`` for :data:`REFERENCES`:

    * :data:`BARE` — a Flask app with one route, ``GET /healthz`` answering ``{"status": "ok"}``
      as the tutor's does, and nothing else (no extension, no hook);
    * :data:`SESSION_CSRF` — a Flask app with Flask-WTF's CSRF protection and the signed session
      cookie, whose one route ``GET /page`` reads a value of the session and answers a form's CSRF
      token (``<input name="csrf_token" value="...">``): what every page with a form must do.
    """
    from flask import Flask, session
    from flask_wtf.csrf import CSRFProtect, generate_csrf
    from markupsafe import escape

    bare = Flask("tutor-bench-bare")

    @bare.get("/healthz")
    def bare_healthz() -> dict[str, str]:
        return {"status": "ok"}

    with_session = Flask("tutor-bench-session")
    with_session.config.update(SECRET_KEY=secret_key, WTF_CSRF_TIME_LIMIT=None)
    CSRFProtect(with_session)

    @with_session.get("/page")
    def session_page() -> str:
        session.get("learner")
        return f'<input name="csrf_token" value="{escape(generate_csrf())}">'

    return {BARE: (bare, "/healthz"), SESSION_CSRF: (with_session, "/page")}


def _timed(fn: Callable[[], Any], batch: int, expect: tuple[int, ...]) -> float:
    """The median CPU time of this process (``time.process_time``) of ``batch`` calls of ``fn``:
    the app's own cost, which a loaded machine does not stretch as it stretches the wall-clock time
    of a request that the scheduler interrupts (the longer the request, the likelier)."""
    times = []
    clock = time.process_time
    for _ in range(batch):
        t0 = clock()
        status = fn()
        times.append(clock() - t0)
        if status not in expect:
            raise RuntimeError(f"a timed request answered {status}, not {' or '.join(map(str, expect))}")
    return statistics.median(times)


def page_costs(repeats: int = 5, batch: int = 60, attempts: int = HEAVY_ATTEMPTS,
               answer_body: str = ANSWER_BODY) -> dict[str, Any]:
    """Measure the :data:`PAGES` (see the module docstring); ``answer_body``: the answer's content
    type (:data:`ANSWER_BODY`, or ``multipart/form-data``). Returns ``{"healthz us": median µs of
    /healthz, "pages": {row: {"us": median µs, "ratio": median ratio}}, "mistakes": review cards
    of the seeded learner}``."""
    from ..migrations import upgrade
    from ..web import create_app, limits

    with tempfile.TemporaryDirectory(prefix="tutor-pagebench-") as tmp, contextlib.redirect_stderr(io.StringIO()):
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade(url)
        app = create_app({"TUTOR_ENV": "development", "SECRET_KEY": "bench-" + "k" * 40, "DATABASE_URL": url,
                          "INSTANCE_PATH": str(Path(tmp) / "instance"), "SESSION_COOKIE_SECURE": False,
                          "RATE_LIMITS": {a: "1000000/minute" for a in limits.ACTIONS}})
        add_floor_routes(app)
        try:  # the request log is written (to standard error, kept in memory meanwhile)
            return _measure(app, repeats, batch, attempts, answer_body)
        finally:
            app.extensions["tutor_db"].kw["bind"].dispose()


def _measure(app: Any, repeats: int, batch: int, attempts: int, answer_body: str = ANSWER_BODY) -> dict[str, Any]:
    from ..content import kinds
    from ..content.kinds import KINDS
    from ..web import exercises as X

    timed_kind = "legal-cards"  # the exercise timed: the first Hokm lesson exercise of this kind
    step, ex = next((s, e) for s in X.lesson_path("hokm").steps for e in s.exercises if e.kind == timed_kind)
    step_url = f"/en/learn/hokm/{step.id}"
    c = app.test_client()
    page = c.get(step_url).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if found is None:
        raise RuntimeError(f"no CSRF token in {step_url}")
    token = found.group(1)
    fields = dict(KINDS[ex.kind].form_fields(ex, kinds.expected_answer(ex)[0]), csrf_token=token)
    answer_url = f"{step_url}/{ex.id}"
    fetch_headers = {"X-Tutor-Fetch": "1", "Accept": "text/html"}  # as tutor.js sends an answer


    def answer() -> int:
        return c.post(answer_url, data=dict(fields), content_type=answer_body, headers=fetch_headers).status_code

    answer()
    quiz = c.post("/en/practice/", data={"csrf_token": token, "game": "hokm", "count": "5", "difficulty": "1",
                                         "seed": "7"})
    question_url = quiz.headers["Location"]
    q_fields = _quiz_answers(app, question_url, token)
    quiz_answer_url = question_url  # question 1
    done_quiz = c.post("/en/practice/", data={"csrf_token": token, "game": "hokm", "count": "5", "difficulty": "1",
                                              "seed": "8"}).headers["Location"]
    done_base = done_quiz.rsplit("/", 1)[0]
    for n, f in enumerate(_quiz_answers(app, done_quiz, token), 1):  # each question answered once
        c.post(f"{done_base}/{n}", data=f)
    heavy = app.test_client()
    mistakes = seed_learner(app, "bench-heavy-learner", attempts)
    with heavy.session_transaction() as sess:
        sess["learner"] = "bench-heavy-learner"
        sess.permanent = True
    refs = {}
    for name, (ref_app, path) in reference_apps(app.config["SECRET_KEY"]).items():
        client = ref_app.test_client()
        for cookie in list(getattr(c, "_cookies", {}).values()):  # the same cookies as the app's client sends
            client.set_cookie(cookie.key, cookie.value)
        refs[name] = (lambda client=client, path=path: client.get(path).status_code)
    runs: dict[str, Callable[[], int]] = {
        **refs,
        "/healthz": lambda: c.get("/healthz").status_code,
        "step page": lambda: c.get(step_url).status_code,
        "question page": lambda: c.get(question_url).status_code,
        "answer (fetch)": answer,
        "progress page (10,000 attempts)": lambda: heavy.get("/en/progress/").status_code,
        "quiz answer": lambda: c.post(quiz_answer_url, data=dict(q_fields[0])).status_code,
        "quiz feedback": lambda: c.get(f"{done_base}/1/feedback").status_code,
        "quiz results": lambda: c.get(f"{done_base}/results").status_code,
        "floor: post": lambda: c.post(FLOOR_POST, data={"csrf_token": token}, content_type=answer_body,
                                      headers=fetch_headers).status_code,
        "floor: answer": lambda: c.post(FLOOR_ANSWER, data={"csrf_token": token}, content_type=answer_body,
                                        headers=fetch_headers).status_code,
        "floor: page": lambda: c.get(FLOOR_PAGE).status_code,
    }
    expect = {"answer (fetch)": (200, 302), "quiz answer": (302,)}  # the answer: its section, or a redirect
    for name, fn in runs.items():  # warm-up: imports, compiled templates, caches
        _timed(fn, 20 if name in REFERENCES or name == "/healthz" else 2, expect.get(name, (200,)))
    rows = REFERENCES + PAGES
    costs: dict[str, list[float]] = {p: [] for p in rows}
    ratios: dict[str, dict[str, list[float]]] = {p: {r: [] for r in (*REFERENCES, "/healthz")} for p in rows}
    floor_ratio: list[float] = []
    for _ in range(max(1, repeats)):
        seen = {}
        for name, fn in runs.items():  # the references first, then /healthz, then the pages: back to back
            seen[name] = _timed(fn, batch if name != "progress page (10,000 attempts)" else max(3, batch // 10),
                                expect.get(name, (200,)))
            costs[name].append(seen[name])
        for name in rows:
            for ref in ratios[name]:
                ratios[name][ref].append(seen[name] / seen[ref])
        floor_ratio.append(seen["answer (fetch)"] / seen["floor: answer"])
    return {"healthz us": 1e6 * statistics.median(costs["/healthz"]),
            "references": {r: {"us": 1e6 * statistics.median(costs[r])} for r in REFERENCES},
            "pages": {p: {"us": 1e6 * statistics.median(costs[p]),
                          "ratio": statistics.median(ratios[p]["/healthz"]),
                          "bare ratio": statistics.median(ratios[p][BARE]),
                          "session ratio": statistics.median(ratios[p][SESSION_CSRF])}
                      for p in PAGES},
            "answer/floor ratio": statistics.median(floor_ratio),
            "mistakes": mistakes}


def _quiz_answers(app: Any, question_url: str, token: str) -> list[dict]:
    """The form of the engine's right answer to each question of the quiz at ``question_url``
    (its first question's URL), with the CSRF token."""
    from ..content import kinds
    from ..content.kinds import KINDS
    from ..domain.models import Quiz
    from ..web import exercises as X

    quiz_token = question_url.rstrip("/").split("/")[-2]
    out = []
    with app.test_request_context("/en/"):
        db = app.extensions["tutor_db"]()
        try:
            refs = db.query(Quiz).filter_by(token=quiz_token).one().refs
        finally:
            db.close()
        for ref in refs:
            ex = X.resolve(ref)
            out.append(dict(KINDS[ex.kind].form_fields(ex, kinds.expected_answer(ex)[0]), csrf_token=token))
    return out


def main(repeats: int = 5, batch: int = 60, as_json: bool = False) -> int:
    """Print :func:`page_costs`: the references, then one line per page with its cost and its
    ratios to the bare Flask route, to the session + CSRF app and to ``/healthz`` (each the median
    over the passes of the ratio within a pass), and its target; returns 0 (the ratios depend on
    the machine and are reported, not enforced)."""
    results = page_costs(repeats, batch)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"in-process CPU time per request (Flask test client; median of {repeats} passes of {batch} requests, "
          "each page beside the references timed in the same pass)")
    for name in REFERENCES:
        print(f"reference {name:30} {results['references'][name]['us']:>9,.0f} us")
    pages = results["pages"]
    for name in PAGES:
        f = pages[name]
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            ref, most = target
            got = f["bare ratio"] if ref == BARE else results["answer/floor ratio"]
            verdict = f"  target <= {most:g}x {ref}: " + ("met" if got <= most else "NOT met")
        print(f"page {name:34} {f['us']:>9,.0f} us   x bare {f['bare ratio']:5.2f}   "
              f"x session+csrf {f['session ratio']:5.2f}   ratio {f['ratio']:5.2f}{verdict}")
    print(f"(ratio: to /healthz; the progress page's learner: {HEAVY_ATTEMPTS:,} attempts, "
          f"{results['mistakes']:,} review cards)")
    print(f"beside its floor: answer (fetch) {results['answer/floor ratio']:.2f}x floor: answer, "
          f"step page {pages['step page']['us'] / pages['floor: page']['us']:.2f}x floor: page")
    return 0
