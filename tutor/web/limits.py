"""Rate limits (Flask-Limiter), one per kind of action, each configurable.

A view takes part by naming its action with :func:`limited`; the action's limit is shared by
every view of that action (a quiz answer and a lesson answer draw on one budget)::

    @bp.post("/login")
    @limited("login")
    def login(): ...

:data:`ACTIONS` is the one list of actions, with the default limit and whose budget it is: the
learner's (the id in the session cookie, which every page with a form sets; a request without one
counts against its address) or the client address's (as the reverse proxies named by
``TUTOR_PROXIES`` report it). A limit is Flask-Limiter's notation, several separated by ``;``,
e.g. ``30/minute;600/hour``; the environment variable ``TUTOR_LIMIT_<ACTION>`` (``-`` as ``_``,
e.g. ``TUTOR_LIMIT_API_ANSWER``), or ``RATE_LIMITS[action]`` in the app config, replaces the
default; ``off`` turns that limit off. A bad limit is a :class:`~tutor.web.ConfigError` at start.

An action may count only the requests that turned out a certain way: the view says what happened
with :func:`note` (e.g. ``note("unknown-code")``) and the action's ``deducts`` names that outcome;
every request of the view is still checked against the budget first (Flask-Limiter's
``deduct_when``). Joining a class works this way: a join with a class's code draws on that class's
budget (``join``), a code that names no class on the address's (``join-guess``), so a school's
learners behind one address join together while guesses at codes are stopped.

Counters are kept in Redis when ``TUTOR_REDIS_URL`` is set (shared by every worker and host), in
the process's memory otherwise (per worker: fine for one process, too generous for many). If
Redis stops answering, counting goes on in memory until it is back. The window is a sliding
window counter. A request over a limit gets 429 with ``Retry-After`` (seconds), as the API's
JSON error ``too-many-requests`` or as an error page in the learner's language
(:mod:`tutor.web.security`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, Response, g, request, session
from flask_limiter import Limiter
from limits import parse_many

__all__ = ["ACTIONS", "Action", "apply", "by_address", "by_everyone", "by_join_code", "by_learner", "by_login_name",
           "env_name", "generated_ref", "init_app", "limit_of", "limited", "note", "pdf_builds"]

F = TypeVar("F", bound=Callable)


def by_address() -> str:
    """Budget key of the client address."""
    return f"addr:{request.remote_addr or '-'}"


def by_learner() -> str:
    """Budget key of the learner in the session cookie, else of the client address."""
    anon = session.get("learner")
    return f"learner:{anon}" if isinstance(anon, str) and anon else by_address()


def by_login_name() -> str:
    """Budget key of the teacher name a log-in form names (trimmed, case-folded, at most 40
    characters: the longest name an account can have), so that guesses at one account from many
    addresses share one budget."""
    name = request.form.get("name", "") if request.method == "POST" else ""
    return "name:" + name.strip().casefold()[:40]


def by_join_code() -> str:
    """Budget key of the class join code a join form names (as stored: :func:`tutor.domain.classes.normal_code`),
    so that every learner joining one class draws on one budget, whatever their address."""
    from tutor.domain.classes import normal_code

    code = request.form.get("code", "") if request.method == "POST" else ""
    return "class:" + normal_code(code)


def by_everyone() -> str:
    """One budget shared by every client (for work so heavy that the server as a whole needs a cap)."""
    return "all"


@dataclass(frozen=True)
class Action:
    """A kind of request with its own limit: ``default`` in Flask-Limiter notation, ``key`` the
    budget it draws on, ``what`` the requests it covers (for the README)."""

    default: str
    key: Callable[[], str]
    what: str
    #: Whether this request counts (None: every request of the marked views does).
    counts: Callable[[], bool] | None = None
    #: The outcome (given to :func:`note` by the view) that makes a request count against the
    #: budget once answered (None: every request counts); every request is checked beforehand.
    deducts: str | None = None


def note(outcome: str) -> None:
    """Say what this request turned out to be (e.g. ``"unknown-code"``), for the actions whose
    ``deducts`` is that outcome: only such requests count against their budget."""
    g.setdefault("tutor_limit_outcomes", set()).add(outcome)


def _deduct_when(outcome: str | None) -> Callable[[Response], bool] | None:
    """Flask-Limiter's ``deduct_when`` for an action that counts only requests noted ``outcome``."""
    if outcome is None:
        return None
    return lambda response: outcome in g.get("tutor_limit_outcomes", ())


def generated_ref() -> bool:
    """Whether the request names a generated exercise (``gen:...``), made on demand by the engine."""
    from .exercises import generated

    return generated(str((request.view_args or {}).get("ref", "")))


def pdf_builds() -> bool:
    """Whether a PDF request may start a build: not the reloads of a build's progress page
    (``?wait=1``, which never start one: :mod:`tutor.web.pdfjobs`)."""
    return request.args.get("wait") != "1"


ACTIONS: dict[str, Action] = {
    "answer": Action("30/minute;600/hour", by_learner,
                     "answers on lesson steps and quiz questions, and marking a step done (per learner)"),
    "quiz": Action("10/minute;100/hour", by_learner, "new practice quizzes and mistake replays (per learner)"),
    "solve": Action("10/second;300/minute", by_address, "POST /api/v1/solve (per address)"),
    "api-answer": Action("10/second;300/minute", by_address,
                         "POST /api/v1/exercises/<id>/answer (per address)"),
    "pdf": Action("6/minute;60/hour", by_address,
                  "worksheet and answer-key PDFs built (per address; a PDF already built, and the reloads of "
                  "the page that shows a build's progress, do not count)", pdf_builds, deducts="pdf-build"),
    "pdf-all": Action("10/minute;300/hour", by_everyone,
                      "worksheet and answer-key PDFs built for all clients together (each takes up to a second "
                      "of CPU, a long quiz's seconds: many addresses must not tie up every builder)",
                      pdf_builds, deducts="pdf-build"),
    "table-check": Action("10/second;300/minute", by_address,
                          "the table editor's live answers, POST /api/v1/table/check, and the no-script "
                          "Ask the rules form (per address)"),
    "login": Action("5/minute;20/hour", by_address, "teachers logging in and signing up (per address)"),
    "login-name": Action("10/minute;100/hour", by_login_name,
                         "teachers logging in, per name logged in as, from all addresses together (guesses "
                         "at one account from many addresses)"),
    "redeem": Action("5/minute;20/hour", by_address, "redeeming a personal code on the device page (per address)"),
    "join": Action("200/10 minutes", by_join_code,
                   "joining a class with a code that names it, per class from all addresses together "
                   "(a school's learners often share one address)", deducts="class-code"),
    "join-guess": Action("10/minute;100/hour", by_address,
                         "joining a class with a code that names no class, per address (guesses at codes); "
                         "once over, every join from the address waits", deducts="unknown-code"),
    "api-generate": Action("5/second;120/minute", by_address,
                           "GET /api/v1/exercises/gen:... and the answers to them, per address: each new "
                           "generated exercise costs the engine up to a third of a second", generated_ref),
}

_MARK = "_tutor_limit"


def env_name(action: str) -> str:
    """The environment variable of ``action``'s limit, e.g. ``TUTOR_LIMIT_API_ANSWER``."""
    return "TUTOR_LIMIT_" + action.upper().replace("-", "_")


def limited(*actions: str) -> Callable[[F], F]:
    """Mark a view as one of each of ``actions``' requests (KeyError for an action not in ACTIONS);
    a view may draw on several budgets, e.g. ``@limited("api-answer", "api-generate")``."""
    for action in actions:
        if action not in ACTIONS:  # fail at import for a misspelt action
            raise KeyError(f"no rate-limited action {action!r}: add it to ACTIONS")

    def mark(view: F) -> F:
        setattr(view, _MARK, (*actions, *getattr(view, _MARK, ())))  # stacked marks add up, top one first
        return view
    return mark


def limit_of(app: Flask, action: str) -> str:
    """``action``'s limit in ``app``: config ``RATE_LIMITS``, then the environment, then the default."""
    value = (app.config.get("RATE_LIMITS") or {}).get(action) or os.environ.get(env_name(action), "").strip()
    return value or ACTIONS[action].default


def init_app(app: Flask) -> Limiter:
    """Make the app's limiter from its config and the environment, and put the limits on the views
    marked with :func:`limited` (call after the blueprints are registered; views added later get
    theirs from :func:`apply`). Raises ConfigError for a bad limit."""
    from . import ConfigError

    app.config.setdefault("RATELIMIT_STORAGE_URI", os.environ.get("TUTOR_REDIS_URL", "").strip() or "memory://")
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"socket_connect_timeout": 1, "socket_timeout": 1}
                          if app.config["RATELIMIT_STORAGE_URI"].startswith(("redis", "rediss")) else {})
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "tutor")
    chosen = {}
    for action in ACTIONS:
        value = limit_of(app, action)
        if value.lower() != "off":
            try:
                parse_many(value)
            except ValueError:
                raise ConfigError(f"{env_name(action)}: {value[:40]!r} is not a rate limit "
                                  "(write e.g. 30/minute;600/hour, or off).") from None
        chosen[action] = value
    limiter = Limiter(by_address, strategy="sliding-window-counter", headers_enabled=True,
                      in_memory_fallback_enabled=True)
    hooks: list[dict[Any, list[Any]]] = [app.before_request_funcs, app.after_request_funcs,
                                         app.teardown_request_funcs]
    before = [len(h.get(None, ())) for h in hooks]
    limiter.init_app(app)
    app.extensions["tutor_limiter"] = limiter
    app.extensions["tutor_limits"] = chosen
    done: set[str] = set()
    app.extensions["tutor_limited"] = done
    # Every limit here is on a marked view (no default or application limit), so Flask-Limiter's
    # hooks have nothing to do for any other endpoint: they run for the marked ones only (they
    # resolved, evaluated and cleared an empty set of limits on every other request).
    for kind, (h, n) in enumerate(zip(hooks, before, strict=True)):
        h[None][n:] = [_for_marked(fn, done, returns_response=kind == 1) for fn in h[None][n:]]
    apply(app)
    return limiter


def _for_marked(hook: Callable, done: set[str], returns_response: bool) -> Callable:
    """``hook`` (one of Flask-Limiter's request hooks) run only for the endpoints in ``done``."""
    if returns_response:
        def after(response: Response) -> Response:
            return hook(response) if request.endpoint in done else response
        return after

    def other(*args: object) -> None:
        if request.endpoint in done:
            hook(*args)
    return other


def apply(app: Flask) -> None:
    """Put the limits on the app's views marked with :func:`limited` that have none yet."""
    limiter: Limiter = app.extensions["tutor_limiter"]
    chosen: dict[str, str] = app.extensions["tutor_limits"]
    done: set[str] = app.extensions["tutor_limited"]
    for endpoint, view in list(app.view_functions.items()):
        actions = getattr(view, _MARK, None)
        if actions is None or endpoint in done:
            continue
        done.add(endpoint)
        wrapped: Callable = view
        for action in actions:
            if chosen[action].lower() != "off":
                limit = limiter.shared_limit(chosen[action], scope=action, key_func=ACTIONS[action].key,
                                             exempt_when=_exempt_when(ACTIONS[action].counts),
                                             deduct_when=_deduct_when(ACTIONS[action].deducts))
                wrapped = limit(wrapped)
        app.view_functions[endpoint] = wrapped


def _exempt_when(counts: Callable[[], bool] | None) -> Callable[[], bool] | None:
    """Flask-Limiter's ``exempt_when`` for an action that counts only some requests."""
    if counts is None:
        return None
    return lambda: not counts()
