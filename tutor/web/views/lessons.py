"""A game's lesson path and its steps (lesson text, exercises on the card table, feedback).

An answer is a form POST. Sent by ``tutor.js`` with ``fetch`` (header ``X-Tutor-Fetch: 1``) it is
answered with the exercise's section alone (the verdict, or the error beside the form, 400), which
the script puts in place of the question: no reload, no new URL. Without JavaScript a right or
wrong answer redirects to the step with the attempt (``?a=``) at the exercise's anchor, and an
answer that cannot be read is the step again (400) with the error beside the form and the
learner's choices kept (the form's action ends in the exercise's anchor).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup

from tutor import i18n
from tutor import rules as rule_points
from tutor.content.exercise import Exercise
from tutor.content.kinds import Verdict
from tutor.content.lessons import LessonPath, LessonStep
from tutor.domain.db import id_from_request
from tutor.domain.models import Attempt, StepProgress

from .. import exercises as X
from ..db import current_learner, get_session
from ..limits import limited
from ..pagecache import cached, csrf_placeholder
from ..record import StepState, mark_step_done, record_answer, record_hint, step_state, step_states
from ..security import BadInput
from .common import RULESET_NAMES, exercise_context, four_colour, ruleset_name, wants_fragment

bp = Blueprint("lessons", __name__, url_prefix="/<lang>/learn")


def _path_or_404(ruleset: str) -> LessonPath:
    if ruleset not in RULESET_NAMES:
        abort(404)
    return X.lesson_path(ruleset)


def _next_step_id(path: LessonPath, states: Mapping[str, StepProgress]) -> str | None:
    for s in path.steps:
        if not (states.get(s.id) and states[s.id].done):
            return s.id
    return None


def _stars(st: StepProgress | StepState | None) -> int:
    """Stars of a step's progress row (a step done before stars were kept counts 3)."""
    if st is None or not st.done:
        return 0
    return st.stars if st.stars is not None else 3


@bp.get("/<ruleset>/")
def path(ruleset: str) -> ResponseReturnValue:
    lp = _path_or_404(ruleset)
    states = step_states(ruleset)
    units: list[dict[str, Any]] = []
    for u in lp.units:
        steps: list[dict[str, Any]] = []
        for s in u.steps:
            st = states.get(s.id)
            mark = "done" if st and st.done else ("started" if st else "todo")
            steps.append({"step": s, "mark": mark, "stars": _stars(st)})
        units.append({"unit": u, "steps": steps, "done": sum(1 for x in steps if x["mark"] == "done"),
                      "stars": sum(x["stars"] for x in steps)})
    done = sum(u["done"] for u in units)
    return render_template("path.html", ruleset=ruleset, game=ruleset_name(ruleset), units=units,
                           next_id=_next_step_id(lp, states), done=done, total=len(lp))


def _attempt_for(attempt_id: str | None, ref_prefix: str) -> Attempt | None:
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


def _unit_end_url(lp: LessonPath, s: LessonStep) -> str | None:
    """The unit summary's URL when ``s`` is the last step of its unit, else None."""
    nxt = lp.next_step(s.id)
    if nxt is None or nxt.unit != s.unit:
        return url_for("lessons.unit", ruleset=s.ruleset, number=s.unit)
    return None


def _continue(lp: LessonPath, s: LessonStep, ex: Exercise, solved: set[str]) -> tuple[str, str]:
    """``(url, label)`` of "Continue" after a right answer to ``ex``: the step's next exercise not
    yet answered right, else the unit's summary (last step of a unit), else the next step."""
    ids = [e.id for e in s.exercises]
    later = ids[ids.index(ex.id) + 1:] + ids[: ids.index(ex.id)]
    todo = next((i for i in later if i not in solved), None)
    if todo is not None:
        return url_for("lessons.step", ruleset=s.ruleset, step_id=s.id) + f"#ex-{todo}", _("Continue")
    end = _unit_end_url(lp, s)
    if end is not None:
        return end, _("Continue")
    nxt = lp.next_step(s.id)
    assert nxt is not None  # no unit end: a next step in the same unit
    return url_for("lessons.step", ruleset=s.ruleset, step_id=nxt.id), _("Continue")


def hint_points(ex: Exercise) -> list[dict]:
    """The rule points that apply to the exercise (those the engine's reasons cite, up to three),
    each ``{"id", "title", "text", "lang"}`` in the learner's language (English where a point is
    not translated yet, ``lang`` says which): the rule, never the answer."""
    lang = i18n.current_lang()
    ids: list[str] = []
    for r in X.engine_solution(ex).get("why", []):
        rule = r.get("rule") if isinstance(r, dict) else None
        if not isinstance(rule, str) or not rule:
            continue
        try:
            points = rule_points.cited(rule)
        except KeyError:  # an id the reference does not have (tutor check reports it)
            continue
        ids += [p.id for p in points if p.id not in ids]
    out = []
    for pid in ids[:3]:
        p = rule_points.get(pid)
        text = p.text.get(lang)
        out.append({"id": p.id, "title": p.title.get(lang) or p.title["en"], "text": text or p.text["en"],
                    "lang": lang if text else "en"})
    return out


def _exercise_part(lp: LessonPath, s: LessonStep, item: Exercise, attempt: Attempt | None, solved: set[str],
                   error_for: str | None = None, error: str | None = None, typed: Mapping[str, Any] | None = None,
                   hint_for: str | None = None, graded: Verdict | None = None) -> dict:
    """``graded``: the verdict of ``attempt`` when the caller has just judged it (the answer
    itself), so the engine is not run a second time on the same answer."""
    ref = X.ref_of(item)
    verdict = None
    if attempt is not None and attempt.exercise_ref == ref:
        verdict = graded if graded is not None else X.grade(item, attempt.given)
    mine = error_for == item.id
    ctx = exercise_context(item, ref, verdict=verdict, error=error if mine else None,
                           typed=typed if mine else None)
    ctx["action"] = url_for("lessons.answer", ruleset=s.ruleset, step_id=s.id, ex_id=item.id) + f"#ex-{item.id}"
    ctx["hint_action"] = url_for("lessons.hint", ruleset=s.ruleset, step_id=s.id, ex_id=item.id) + f"#ex-{item.id}"
    ctx["hints"] = hint_points(item) if hint_for == item.id and verdict is None else None
    ctx["solved_before"] = item.id in solved
    if verdict is not None:
        ctx["retry_url"] = url_for("lessons.step", ruleset=s.ruleset, step_id=s.id) + f"#ex-{item.id}"
        if verdict.correct:
            ctx["next_url"], ctx["next_label"] = _continue(lp, s, item, solved | {item.id})
    return ctx


@bp.get("/<ruleset>/<step_id>")
def step(ruleset: str, step_id: str, error_for: str | None = None, error: str | None = None, status: int = 200,
         typed: Mapping[str, Any] | None = None) -> ResponseReturnValue:
    """A lesson step. Before an answer (no ``?a=``, ``?hint=``, form error or typed values) the page
    is the same for every learner at the same point (done or not, stars, which exercises were
    answered right), so it is kept rendered (:mod:`tutor.web.pagecache`, the CSRF token put in per
    request); with a verdict, a hint or an error it is rendered for the request."""
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    st = step_state(step_id)
    solved = set(st.solved or []) if st else set()
    if error is None and typed is None and not request.args:
        key = ("step", i18n.current_lang(), four_colour(), ruleset, step_id, bool(st and st.done), _stars(st),
               tuple(sorted(solved)))
        return cached(key, lambda: _render_step(lp, s, st, solved, None, None, None, None, None,
                                                csrf_token=csrf_placeholder)), status
    attempt = _attempt_for(request.args.get("a"), f"lesson:{step_id}:")
    if attempt is not None and error is None and typed is None and set(request.args) == {"a"}:
        # the page after an answer (the redirect without JavaScript): the same for every learner
        # who gave this answer at the same point; the key holds the answer, so it is only served
        # to a learner whose own attempt it is (_attempt_for checked that)
        answered = ("step-answered", i18n.current_lang(), four_colour(), ruleset, step_id, bool(st and st.done),
                    _stars(st), tuple(sorted(solved)), attempt.exercise_ref, json.dumps(attempt.given, sort_keys=True))
        return cached(answered, lambda: _render_step(lp, s, st, solved, attempt, None, None, None, None,
                                                    csrf_token=csrf_placeholder), store="open"), status
    return _render_step(lp, s, st, solved, attempt, error_for, error, typed, request.args.get("hint")), status


def _render_step(lp: LessonPath, s: LessonStep, st: StepState | None, solved: set[str], attempt: Attempt | None,
                 error_for: str | None, error: str | None, typed: Mapping[str, Any] | None, hint_for: str | None,
                 **extra: object) -> str:
    parts = []
    for _part, item in s.parts():
        if isinstance(item, str):  # _part == "html"
            parts.append({"html": item})
            continue
        parts.append({"section": _section(lp, s, item, attempt, solved, error_for, error, typed, hint_for)})
    i = lp.index(s.id)
    return render_template(
        "step.html", ruleset=lp.ruleset, game=ruleset_name(lp.ruleset), step=s, parts=parts,
        prev=lp.previous_step(s.id), next=lp.next_step(s.id), position=i + 1, total=len(lp),
        done=bool(st and st.done), stars=_stars(st), solved=solved, unit_end=_unit_end_url(lp, s), **extra)


def _section(lp: LessonPath, s: LessonStep, item: Exercise, attempt: Attempt | None, solved: set[str],
             error_for: str | None = None, error: str | None = None, typed: Mapping[str, Any] | None = None,
             hint_for: str | None = None, graded: Verdict | None = None) -> Markup:
    """One exercise's section of a step (on the step's page, or alone after a ``fetch``).

    A section without a form error, typed values or a hint shown is the same for every learner
    at the same point, so it is kept (:mod:`tutor.web.pagecache`): a question under its exercise,
    language, suit colours and whether it was answered right before; a verdict under those, the
    step's answered exercises (its Continue link) and **the answer given**, so it is only ever
    served in reply to that very answer. A step page rendered anew (another learner's state, a
    verdict on another exercise) takes its other sections from here."""
    def render(**extra: object) -> str:
        x = _exercise_part(lp, s, item, attempt, solved, error_for, error, typed, hint_for, graded=graded)
        return render_template("_fragment.html", x=x, **extra)
    if (error_for == item.id and (error is not None or typed is not None)) or hint_for == item.id:
        return Markup(render())
    head = (i18n.current_lang(), four_colour(), s.ruleset, s.id, item.id)
    if attempt is not None and attempt.exercise_ref == X.ref_of(item):
        key: tuple = ("answered", *head, tuple(sorted(solved)), json.dumps(attempt.given, sort_keys=True))
        store = "open"
    else:
        key, store = ("question", *head, item.id in solved), "content"
    return cached(key, lambda: render(csrf_token=csrf_placeholder), store=store)


def _fragment(lp: LessonPath, s: LessonStep, ex: Exercise, attempt: Attempt | None = None, error: str | None = None,
              typed: Mapping[str, Any] | None = None, hint: bool = False, status: int = 200,
              verdict: Verdict | None = None) -> tuple[Markup, int]:
    """The exercise's section alone (what ``tutor.js`` puts in place after a ``fetch``): see
    :func:`_section`."""
    st = step_state(s.id)
    solved = set(st.solved or []) if st else set()
    return _section(lp, s, ex, attempt, solved, ex.id, error, typed, ex.id if hint else None, graded=verdict), status


def _find(ruleset: str, step_id: str, ex_id: str) -> tuple[LessonPath, LessonStep, Exercise]:
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    ex = next((e for e in s.exercises if e.id == ex_id), None)
    if ex is None:
        raise BadInput(_("There is no such exercise."), "unknown-exercise")
    return lp, s, ex


@bp.get("/<ruleset>/<step_id>/<ex_id>")
def answer_url(ruleset: str, step_id: str, ex_id: str) -> ResponseReturnValue:
    """The answer's URL opened (a reload after an error): back to the exercise on its step."""
    _path_or_404(ruleset)
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id) + f"#ex-{ex_id}")


@bp.post("/<ruleset>/<step_id>/<ex_id>")
@limited("answer")
def answer(ruleset: str, step_id: str, ex_id: str) -> ResponseReturnValue:
    lp, s, ex = _find(ruleset, step_id, ex_id)
    try:
        given = X.read_form(ex, request.form)
    except BadInput as e:
        if wants_fragment():
            return _fragment(lp, s, ex, error=e.message, typed=request.form, status=400)
        return step(ruleset, step_id, error_for=ex_id, error=e.message, status=400, typed=request.form)
    verdict = X.grade(ex, given)
    attempt = record_answer(ex, X.ref_of(ex), verdict)
    if wants_fragment():
        section, status = _fragment(lp, s, ex, attempt=attempt, verdict=verdict)
        st = step_state(s.id)  # as this answer left it
        if st is not None and st.finished:  # this answer finished the step: its header shows it done, with its stars
            section += Markup(render_template("_page_meta.html", page_meta={"step": {
                "position": lp.index(s.id) + 1, "total": len(lp), "done": True, "stars": _stars(st)}}))
        return section, status
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id, a=attempt.id) + f"#ex-{ex_id}")


@bp.post("/<ruleset>/<step_id>/<ex_id>/hint")
@limited("answer")
def hint(ruleset: str, step_id: str, ex_id: str) -> ResponseReturnValue:
    """Show the rule that applies to an exercise (before answering); it costs the step a star."""
    lp, s, ex = _find(ruleset, step_id, ex_id)
    record_hint(ex)
    if wants_fragment():
        return _fragment(lp, s, ex, hint=True)
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id, hint=ex_id) + f"#ex-{ex_id}")


@bp.get("/<ruleset>/unit/<int:number>")
def unit(ruleset: str, number: int) -> ResponseReturnValue:
    """A unit's summary: its steps with their stars, and where to go next (the next unit, or at
    the end of the game, practice)."""
    lp = _path_or_404(ruleset)
    u = next((u for u in lp.units if u.number == number), None)
    if u is None:
        abort(404)
    states = step_states(ruleset)
    steps = [{"step": s, "stars": _stars(states.get(s.id)), "done": _stars(states.get(s.id)) > 0} for s in u.steps]
    later = [x for x in lp.units if x.number > number]
    nxt = later[0] if later else None
    return render_template("unit.html", ruleset=ruleset, game=ruleset_name(ruleset), unit=u, steps=steps,
                           stars=sum(x["stars"] for x in steps), most=3 * len(steps),
                           done=sum(1 for x in steps if x["done"]), next_unit=nxt,
                           next_url=url_for("lessons.step", ruleset=ruleset, step_id=nxt.steps[0].id) if nxt else None)


@bp.post("/<ruleset>/<step_id>/done")
@limited("answer")
def done(ruleset: str, step_id: str) -> ResponseReturnValue:
    lp = _path_or_404(ruleset)
    s = lp.get(step_id)
    if s is None:
        abort(404)
    if s.exercises:  # such a step is done once its exercises are answered right
        return redirect(url_for("lessons.step", ruleset=ruleset, step_id=step_id))
    mark_step_done(ruleset, step_id)
    end = _unit_end_url(lp, s)
    if end is not None:
        return redirect(end)
    nxt = lp.next_step(step_id)
    assert nxt is not None  # no unit end: a next step in the same unit
    return redirect(url_for("lessons.step", ruleset=ruleset, step_id=nxt.id))
