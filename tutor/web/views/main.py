"""Home page (pick a language and a game), display settings, health check."""

from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for

from ..exercises import lesson_path
from ..openapi import Operation, operation, ref
from ..record import step_states
from .common import RULESET_NAMES, ruleset_name, safe_next

bp = Blueprint("main", __name__)


@bp.get("/")
def root():
    return redirect(url_for("main.home", lang=g.lang))


@bp.get("/healthz")
@operation(Operation("health", "Liveness check.", ref("Health")))
def healthz():
    return {"status": "ok"}


@bp.get("/<lang>/")
def home():
    states = step_states()
    games = []
    for r in RULESET_NAMES:
        path = lesson_path(r, g.lang)
        done = sum(1 for s in path.steps if states.get(s.id) and states[s.id].done)
        nxt = next((s.id for s in path.steps if not (states.get(s.id) and states[s.id].done)), None)
        games.append({"id": r, "name": ruleset_name(r), "steps": len(path), "done": done,
                      "units": len(path.units), "next": nxt if done else None})
    return render_template("home.html", games=games)


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
