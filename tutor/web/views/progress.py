"""The learner's progress: per game and unit, reset a lesson, the mistakes to review, display name."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import delete, func, select

from tutor import i18n

from .. import exercises as X
from ..db import Attempt, StepProgress, current_learner, get_session, learner_for_write
from ..record import mistakes_of, step_states
from ..review import due_of
from ..security import BadInput
from .common import RULESET_NAMES, ruleset_name

bp = Blueprint("progress", __name__, url_prefix="/<lang>/progress")


@bp.get("/")
def page(error: str | None = None, status: int = 200):
    learner = current_learner()
    states = step_states()
    games: list[dict[str, Any]] = []
    for r in RULESET_NAMES:
        lp = X.lesson_path(r)
        units: list[dict[str, Any]] = []
        for u in lp.units:
            steps: list[dict[str, Any]] = [{"step": s, "state": states.get(s.id)} for s in u.steps]
            units.append({"unit": u, "steps": steps,
                          "done": sum(1 for x in steps if x["state"] and x["state"].done),
                          "started": any(x["state"] for x in steps)})
        games.append({"id": r, "name": ruleset_name(r), "units": units, "total": len(lp),
                      "done": sum(u["done"] for u in units)})
    queue = mistakes_of()
    mistakes: list[dict[str, Any]] = []
    for m in queue.cards:
        try:
            ex = X.resolve(m.exercise_ref)
        except BadInput:  # the exercise is gone from the content since
            continue
        due = due_of(m)
        when = _("due now") if due <= queue.at else i18n.fmt_timedelta(due - queue.at)
        mistakes.append({"m": m, "prompt": X.prompt_of(ex), "game": ruleset_name(m.ruleset),
                         "when": when, "is_due": due <= queue.at})
    due_count = sum(1 for m in mistakes if m["is_due"])
    later = [due_of(m["m"]) for m in mistakes if not m["is_due"]]
    next_due = None
    if later:
        next_due = {"iso": later[0].isoformat() + "Z", "in": i18n.fmt_timedelta(later[0] - queue.at),
                    "at": i18n.fmt_datetime(later[0])}
    answered: int | None = 0
    right: int | None = 0
    if learner is not None:
        db = get_session()
        answered = db.scalar(select(func.count()).select_from(Attempt).where(Attempt.learner_id == learner.id))
        right = db.scalar(select(func.count()).select_from(Attempt).where(
            Attempt.learner_id == learner.id, Attempt.correct.is_(True)))
    return render_template("progress.html", learner=learner, games=games, mistakes=mistakes, answered=answered,
                           right=right, due_count=due_count, next_due=next_due, error=error), status


@bp.post("/reset/<step_id>")
def reset(step_id: str):
    if X.content().find_step(step_id, "en") is None:
        abort(404)
    learner = current_learner()
    if learner is not None:
        db = get_session()
        try:
            db.execute(delete(StepProgress).where(StepProgress.learner_id == learner.id,
                                                  StepProgress.step_id == step_id))
            db.commit()
        except Exception:
            db.rollback()
            raise
    return redirect(url_for("progress.page"))


@bp.post("/name")
def name():
    raw = request.form.get("name", "")
    text = " ".join("".join(ch for ch in raw if ch.isprintable() and unicodedata.category(ch) != "Cf").split())
    if len(text) > 40:
        return page(error=_("A name can be at most 40 characters long."), status=400)
    db = get_session()
    try:
        learner = learner_for_write(db)
        learner.display_name = text or None
        db.commit()
    except Exception:
        db.rollback()
        raise
    return redirect(url_for("progress.page"))
