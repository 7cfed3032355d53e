"""The users of the load test (:mod:`tutor.bench.load`, ``tutor bench --load``), for locust.

Run by :mod:`tutor.bench.load` as ``python -m locust -f tutor/bench/locustfile.py --headless ... Learner``
(``Health``, ``Floor``), one locust process per phase; not meant to be run by hand. Three users:

* :class:`Health` — ``GET /healthz`` without pause: the ceiling the mix is compared with.
* :class:`Floor` — the mix's floor: two reads of a page with a form to one answer, on the routes
  that do only what such requests cannot do without (:func:`tutor.bench.pages.add_floor_routes`).
* :class:`Learner` — a learner's mix, one request per task run, as a browser sends them (a
  redirect is fetched as the next request): open a lesson step (``GET``), answer one of its
  exercises with a real form post carrying the CSRF token read from the page (``POST``, 302; a
  step without exercises is marked done instead), open the answered step with its feedback
  (``GET ?a=<attempt>``), then the next step; three steps, then a practice quiz: the setup page,
  ``POST`` the setup (302), and for each of its five questions the question page, the answer
  (``POST``, 302) and the feedback page; then the results page. Each learner keeps its cookie (its
  learner id and CSRF secret) and picks a game, a language and a starting step at random.

Answers are three quarters right, a quarter wrong (a well-formed wrong answer of the kind, so
mistakes are written too). They come from the *plan* (``--tutor-plan FILE``, JSON made by
:func:`tutor.bench.load.learner_plan` before locust starts, so that this file imports nothing of the
app and its users start at once): the games, languages, lesson steps with their exercises' right
and wrong form fields, and per game the quiz setups whose questions are known (the server draws a
quiz reproducibly from its seed) with the answers' form fields.

A response other than the expected status (200 for a page, 302 for a form post) is a failure.
Every request is recorded (end time, name, milliseconds, ok) and written as JSON to the file named
by ``--tutor-out`` when locust stops (``{"records": [...], "cpu seconds": s}``, with the CPU time
this process used from its first request on: the client's cost of the load, without its start). ``--tutor-pace R`` sends each user's requests at R per second
(a fixed schedule, caught up when late), else without pause.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

from locust import FastHttpUser, events, task

#: Steps opened (and answered) in a row before the learner takes a quiz.
STEPS_IN_A_ROW = 3
#: Share of right answers.
RIGHT = 0.75

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_RECORDS: list[tuple[float, str, float, bool]] = []


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument("--tutor-plan", default="", help="the learners' plan (tutor.bench.load.learner_plan) as JSON")
    parser.add_argument("--tutor-out", default="", help="write every request's record here as JSON")
    parser.add_argument("--tutor-pace", type=float, default=0.0,
                        help="requests per second per user (0: no pause)")


_CPU_AT_FIRST: list[float] = []


@events.request.add_listener
def _record(request_type: str, name: str, response_time: float, exception: BaseException | None,
            **_kw: Any) -> None:
    if not _CPU_AT_FIRST:
        _CPU_AT_FIRST.append(time.process_time())
    _RECORDS.append((time.time(), f"{request_type} {name}", response_time, exception is None))


@events.quitting.add_listener
def _write(environment: Any, **_kw: Any) -> None:
    out = environment.parsed_options.tutor_out if environment.parsed_options else ""
    if out:
        cpu = time.process_time() - _CPU_AT_FIRST[0] if _CPU_AT_FIRST else 0.0
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"records": _RECORDS, "cpu seconds": cpu}, f)


PLAN: dict[str, Any] = {}


@events.init.add_listener
def _load_plan(environment: Any, **_kw: Any) -> None:
    path = environment.parsed_options.tutor_plan if environment.parsed_options else ""
    if path:
        with open(path, encoding="utf-8") as f:
            PLAN.update(json.load(f))


class _Paced(FastHttpUser):
    abstract = True

    def on_start(self) -> None:
        self._next = time.monotonic()

    def wait_time(self) -> float:
        pace = self.environment.parsed_options.tutor_pace if self.environment.parsed_options else 0.0
        if not pace:
            return 0.0
        self._next = max(self._next + 1.0 / pace, time.monotonic() - 1.0)  # at most 1 s of catching up
        return max(0.0, self._next - time.monotonic())

    def _send(self, method: str, path: str, name: str, expect: int, data: dict | None = None) -> Any:
        """One request; a status other than ``expect`` is a failure. Returns the response."""
        body, headers = None, None
        if data is not None:  # a browser's form encoding: a list is one field repeated
            body, headers = urlencode(data, doseq=True), {"Content-Type": "application/x-www-form-urlencoded"}
        with self.client.request(method, path, name=name, data=body, headers=headers, allow_redirects=False,
                                 catch_response=True) as r:
            if r.status_code != expect:
                r.failure(f"{method} {path}: {r.status_code}, not {expect}")
            return r


class Health(_Paced):
    """``GET /healthz`` (liveness, touches nothing): the ceiling."""

    @task
    def healthz(self) -> None:
        self._send("GET", "/healthz", "/healthz", 200)


class Floor(_Paced):
    """The floor of the mix (:mod:`tutor.bench.load`): the floor page twice, then the floor answer
    (a form post with the page's CSRF token), again and again: the mix's two page reads to one
    answer, each doing only what no learner's request can do without. Each user keeps its cookie."""

    def on_start(self) -> None:
        super().on_start()
        self._n = 0
        self._token = ""

    @task
    def step(self) -> None:
        self._n += 1
        if self._n % 3:
            r = self._send("GET", "/bench-floor/page", "/bench-floor/page", 200)
            m = _CSRF.search(r.text or "") if r.status_code == 200 else None
            self._token = m.group(1) if m else self._token
        else:
            self._send("POST", "/bench-floor/answer", "/bench-floor/answer", 200, data={"csrf_token": self._token})


class Learner(_Paced):
    """A learner's mix (see the module docstring); one request per task run."""

    def on_start(self) -> None:
        super().on_start()
        self._rng = random.Random()
        self._flow = self._journey()

    @task
    def step(self) -> None:
        next(self._flow)

    def _page(self, path: str, name: str) -> str:
        r = self._send("GET", path, name, 200)
        m = _CSRF.search(r.text or "") if r.status_code == 200 else None
        return m.group(1) if m else ""

    def _post(self, path: str, name: str, form: dict, token: str) -> str:
        r = self._send("POST", path, name, 302, data=form | {"csrf_token": token})
        return r.headers.get("Location", "") if r.status_code == 302 else ""

    def _journey(self) -> Iterator[None]:
        rng = self._rng
        while True:
            game, lang = rng.choice(PLAN["games"]), rng.choice(PLAN["languages"])
            steps = PLAN["steps"][game]
            i = rng.randrange(len(steps))
            for _ in range(STEPS_IN_A_ROW):
                step_id, answers = steps[i]
                url = f"/{lang}/learn/{game}/{step_id}"
                token = self._page(url, "/<lang>/learn/<game>/<step>")
                yield
                if answers:
                    ex_id = rng.choice(sorted(answers))
                    right, wrong = answers[ex_id]
                    where = self._post(f"{url}/{ex_id}", "/<lang>/learn/<game>/<step>/<exercise>",
                                       right if rng.random() < RIGHT else wrong, token)
                    yield
                    if where:
                        self._page(where, "/<lang>/learn/<game>/<step>?a=<attempt>")
                        yield
                else:
                    self._post(f"{url}/done", "/<lang>/learn/<game>/<step>/done", {}, token)
                    yield
                i = (i + 1) % len(steps)
            quiz = rng.choice(PLAN["quizzes"][game])
            token = self._page(f"/{lang}/practice/?game={game}", "/<lang>/practice/")
            yield
            where = self._post(f"/{lang}/practice/", "/<lang>/practice/ (start)", quiz["form"], token)
            yield
            if not where:
                continue
            base = where.rsplit("/", 1)[0]
            for n, (right, wrong) in enumerate(quiz["answers"], 1):
                token = self._page(f"{base}/{n}", "/<lang>/quiz/<token>/<n>")
                yield
                self._post(f"{base}/{n}", "/<lang>/quiz/<token>/<n> (answer)",
                           right if rng.random() < RIGHT else wrong, token)
                yield
                self._page(f"{base}/{n}/feedback", "/<lang>/quiz/<token>/<n>/feedback")
                yield
            self._page(f"{base}/results", "/<lang>/quiz/<token>/results")
            yield
