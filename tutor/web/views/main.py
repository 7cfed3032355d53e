"""Home page (pick a language and a game), display settings, liveness and readiness checks."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for

from tutor import i18n

from ..exercises import lesson_path
from ..openapi import Operation, operation, ref
from ..record import activity, step_states
from .common import RULESET_NAMES, ruleset_name, safe_next

bp = Blueprint("main", __name__)


@bp.get("/")
def root():
    return redirect(url_for("main.home", lang=i18n.current_lang()))


@bp.get("/healthz")
@operation(Operation("health", "Liveness check.", ref("Health")))
def healthz():
    """Liveness: the process answers (touches nothing else)."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Readiness: 200 ``{"status": "ready", ...}`` when the database answers a query, else 503
    with the error object ``database-unavailable``. ``limits`` says where the rate-limit counters
    are kept (``redis``, ``memory``, or ``memory (redis unreachable)``); it does not make the app
    unready, since counting falls back to memory."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from ..db import get_session

    try:
        get_session().execute(text("SELECT 1")).scalar_one()
    except SQLAlchemyError as e:
        current_app.logger.warning("readiness: the database is unreachable: %s", type(e).__name__)
        return jsonify({"status": "unavailable", "error": {
            "code": "database-unavailable", "message": "The database does not answer."}}), 503
    return {"status": "ready", "database": "ok", "limits": _limits_storage()}


def _limits_storage() -> str:
    limiter = current_app.extensions["tutor_limiter"]
    if not current_app.config["RATELIMIT_STORAGE_URI"].startswith(("redis", "rediss")):
        return "memory"
    try:
        return "redis" if limiter.storage.check() else "memory (redis unreachable)"
    except Exception:  # noqa: BLE001 - any failure of the storage client means it does not answer
        return "memory (redis unreachable)"


@bp.get("/<lang>/")
def home():
    states = step_states()
    games = []
    for r in RULESET_NAMES:
        path = lesson_path(r)
        done = sum(1 for s in path.steps if states.get(s.id) and states[s.id].done)
        nxt = next((s.id for s in path.steps if not (states.get(s.id) and states[s.id].done)), None)
        games.append({"id": r, "name": ruleset_name(r), "steps": len(path), "done": done,
                      "units": len(path.units), "next": nxt if done else None})
    return render_template("home.html", games=games, activity=activity())


@bp.post("/<lang>/settings")
def settings():
    """Save the four-colour suits choice in a cookie (no account needed)."""
    back = safe_next(request.form.get("next"), url_for("main.home"))
    resp = redirect(back)
    four = request.form.get("suits") == "4"
    from flask import current_app

    resp.set_cookie("suits", "4" if four else "2", max_age=365 * 24 * 3600, samesite="Lax", httponly=True,
                    secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return resp
