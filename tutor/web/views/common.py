"""What the question and feedback templates need to draw one exercise."""

from __future__ import annotations

import re

from flask import url_for
from markupsafe import Markup

from tutor import i18n
from tutor.content.exercise import Exercise
from tutor.content.kinds import CATEGORIES, KINDS, Names
from tutor.engine.rulesets import RULESETS

from .. import exercises as X
from ..table import build_table, players_of

__all__ = ["RULESET_NAMES", "exercise_context", "exercise_form", "four_colour", "ruleset_name", "safe_next"]


def ruleset_name(ruleset: str) -> str:
    """The ruleset's display name in the request's language."""
    from flask_babel import gettext as _

    r = RULESETS.get(ruleset)
    return _(r.title) if r is not None else ruleset


def four_colour() -> bool:
    """Whether the request asks for four-colour suits (the ``suits`` cookie set by the footer form)."""
    from flask import request

    return request.cookies.get("suits") == "4"


#: Every ruleset name, in registry order.
RULESET_NAMES: tuple[str, ...] = tuple(RULESETS)


def safe_next(target: str | None, default: str) -> str:
    """A same-site path to go back to, or ``default``."""
    if target and _SAFE_PATH.fullmatch(target) and not target.startswith("//"):
        return target
    return default


#: A same-site path: no scheme, no host, no backslash, no control character or space.
_SAFE_PATH = re.compile(r"/[A-Za-z0-9/_.~%?=&+:;,@!-]*")


def exercise_context(ex: Exercise, ref: str, verdict: X.Verdict | None = None, error: str | None = None,
                     given: dict | None = None) -> dict:
    """Table, prompt and widget data in the request's language; with ``verdict`` also the feedback
    (reasons, right answer)."""
    kind = KINDS[ex.kind]
    players = players_of(ex.scenario)
    you = X.you_of(ex)
    trick_seats = X.walk_seats(ex) if kind.shows_trick_seats(verdict is not None) else None
    table = build_table(kind, ex.scenario, ex.you, trick_seats=trick_seats)
    ctx = {
        "ex": ex,
        "ref": ref,
        "kind": ex.kind,
        "k": kind,
        "prompt": X.prompt_of(ex),
        "table": table,
        "players": players,
        "you": you,
        "sides": X.side_choices(ex),
        "categories": [(c, i18n.category_name(c)) for c in CATEGORIES],
        "seat_choices": [(s.seat, s.label) for s in table.seats],
        "error": error,
        "given": given or (verdict.given if verdict else {}),
        "verdict": verdict,
    }
    ctx.update(kind.view_context(ex, table, verdict))
    if verdict is not None:
        ctx.update(feedback_context(ex, verdict))
    return ctx


#: Stands for an exercise form's action in the kept HTML (a quiz question's action holds the quiz's token).
_ACTION = "/exercise-action-placeholder"


def exercise_form(ex: Exercise, ref: str, action: str) -> Markup:
    """The question form of an exercise before it is answered (no verdict, no error), posting to
    ``action``: the same for every learner in the same language and suit colours, so rendered once
    and kept (:mod:`tutor.web.pagecache`), the action and the CSRF token put in per request."""
    from flask import g, render_template

    from ..pagecache import cached, csrf_placeholder

    return cached(("exercise", ref, g.lang, four_colour()),
                  lambda: render_template("_exercise_form.html", x=exercise_context(ex, ref), action=_ACTION,
                                          csrf_token=csrf_placeholder),
                  {_ACTION: action})


def feedback_context(ex: Exercise, verdict: X.Verdict) -> dict:
    """The feedback: the engine's reasons, the right answer line by line, and the lesson link."""
    names = Names(X.you_of(ex), players_of(ex.scenario), ex.ruleset)
    lines = [(line.what, line.value, line.ok) for line in KINDS[ex.kind].feedback_lines(ex, verdict, names)]
    teaches = X.teaching_step(ex)
    step = X.find_step(teaches) if teaches else None
    return {
        "why": X.render_why(ex, verdict),
        "right_answer": lines,
        "lesson_link": url_for("lessons.step", ruleset=step.ruleset, step_id=step.id) if step else None,
        "lesson_title": step.title if step else None,
    }
