"""A game's lesson path and its steps (lesson text, exercises on the card table, feedback)."""

from __future__ import annotations

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import exercises as X
from ..db import Attempt, current_learner, get_session, id_from_request
from ..limits import limited
from ..pagecache import cached, csrf_placeholder
from ..record import mark_step_done, record_answer, step_progress, step_states
from ..security import BadInput
from .common import RULESET_NAMES, exercise_context, exercise_form, four_colour, ruleset_name

bp = Blueprint("lessons", __name__, url_prefix="/<lang>/learn")


def _path_or_404(ruleset: str):
    if ruleset not in RULESET_NAMES:
        abort(404)
    return X.lesson_path(ruleset)


def _next_step_id(path, states) -> str | None:
    for s in path.steps:
        if not (states.get(s.id) and states[s.id].done):
            return s.id
    return None


@bp.get("/<ruleset>/")
def path(ruleset: str):
    lp = _path_or_404(ruleset)
    states = step_states(ruleset)
    units = []
    for u in lp.units:
        steps = []
        for s in u.steps:
            st = states.get(s.id)
            mark = "done" if st and st.done else ("started" if st else "todo")
            steps.append({"step": s, "mark": mark})
        units.append({"unit": u, "steps": steps, "done": sum(1 for x in steps if x["mark"] == "done")})
    done = sum(u["done"] for u in units)
    return render_template("path.html", ruleset=ruleset, game=ruleset_name(ruleset), units=units,
                           next_id=_next_step_id(lp, states), done=done, total=len(lp))


def _attempt_for(attempt_id: str | None, ref_prefix: str):
    """The learner's own attempt (feedback after the redirect), or None."""
    key = id_from_request(attempt_id)
    if key is None:
        return None
    learner = current_learner()
    if learner is None:
        return None
    a = get_session().get(Attempt, key)
    if a is None or a.learner_id != learner.id or not a.exercise_ref.startswith(ref_prefix):
        return None
    return a


@bp.get("/<ruleset>/<step_id>")
def step(ruleset: str, step_id: str, error_for: str | None = None, error: str | None = None, status: int = 200):
    """A lesson step. Before an answer (no ``?a=``, no form error) the page is the same for every
    learner at the same point (done or not, which exercises were solved), so it is kept rendered
    (:mod:`tutor.web.pagecache`); with a verdict or an error it is rendered for the request."""
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    done, solved = step_progress(step_id)
    solved = solved & {e.id for e in s.exercises}
    if error is None and not request.args:
        key = ("step", g.lang, four_colour(), ruleset, step_id, done, tuple(sorted(solved)))
        return cached(key, lambda: _render_step(lp, s, done, solved, None, None, None,
                                                csrf_token=csrf_placeholder)), status
    attempt = _attempt_for(request.args.get("a"), f"lesson:{step_id}:")
    return _render_step(lp, s, done, solved, attempt, error_for, error), status


def _render_step(lp, s, done: bool, solved: frozenset[str], attempt, error_for: str | None, error: str | None,
                 **extra) -> str:
    ruleset, step_id = lp.ruleset, s.id
    parts = []
    for part, item in s.parts():
        if part == "html":
            parts.append({"html": item})
            continue
        ref = X.ref_of(item)
        verdict = None
        if attempt is not None and attempt.exercise_ref == ref:
            verdict = X.grade(item, attempt.given)
        mine = error if error_for == item.id else None
        if verdict is None and mine is None:  # the question form alone: kept rendered
            action = url_for("lessons.answer", ruleset=ruleset, step_id=step_id, ex_id=item.id)
            parts.append({"form": exercise_form(item, ref, action), "id": item.id})
            continue
        parts.append({"exercise": exercise_context(item, ref, verdict=verdict, error=mine)})
    i = lp.index(step_id)
    return render_template(
        "step.html", ruleset=ruleset, game=ruleset_name(ruleset), step=s, parts=parts,
        prev=lp.previous_step(step_id), next=lp.next_step(step_id), position=i + 1, total=len(lp),
        done=done, solved=solved, **extra)


@bp.post("/<ruleset>/<step_id>/<ex_id>")
@limited("answer")
def answer(ruleset: str, step_id: str, ex_id: str):
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    ex = next((e for e in s.exercises if e.id == ex_id), None)
    if ex is None:
        raise BadInput(_("There is no such exercise."), "unknown-exercise")
    try:
        given = X.read_form(ex, request.form)
    except BadInput as e:
        return step(ruleset, step_id, error_for=ex_id, error=e.message, status=400)
    verdict = X.grade(ex, given)
    attempt = record_answer(ex, X.ref_of(ex), verdict)
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id, a=attempt.id) + f"#ex-{ex_id}")


@bp.post("/<ruleset>/<step_id>/done")
@limited("answer")
def done(ruleset: str, step_id: str):
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    if s.exercises:  # such a step is done once its exercises are answered right
        return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id))
    mark_step_done(ruleset, step_id)
    nxt = lp.next_step(step_id)
    if nxt is None:
        return redirect(url_for("lessons.path", ruleset=ruleset))
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=nxt.id))
