"""What the question and feedback templates need to draw one exercise."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask import request, url_for

from tutor import i18n
from tutor.content.exercise import Exercise
from tutor.content.kinds import CATEGORIES, KINDS, Names
from tutor.domain.table import build_table, players_of
from tutor.engine.rulesets import RULESETS

from .. import exercises as X

__all__ = ["RULESET_NAMES", "exercise_context", "four_colour", "ruleset_name", "safe_next", "typed_values",
           "wants_fragment"]


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


def wants_fragment() -> bool:
    """True when ``tutor.js`` sent an answer form with fetch (header ``X-Tutor-Fetch: 1``): the
    answer is the exercise's section alone (``_fragment.html``), put in place without a reload."""
    return request.headers.get("X-Tutor-Fetch") == "1"


def safe_next(target: str | None, default: str) -> str:
    """A same-site path to go back to (with its query, and a plain fragment such as ``#ex-e1``:
    where the learner was on the page), or ``default``."""
    if target and _SAFE_PATH.fullmatch(target) and not target.startswith("//"):
        return target
    return default


#: A same-site path: no scheme, no host, no backslash, no control character or space; then at
#: most a fragment of letters, digits, ``_`` and ``-`` (an element's id on the page).
_SAFE_PATH = re.compile(r"/[A-Za-z0-9/_.~%?=&+:;,@!-]*(?:#[A-Za-z0-9_-]+)?")


def exercise_context(ex: Exercise, ref: str, verdict: X.Verdict | None = None, error: str | None = None,
                     given: dict | None = None, typed: Mapping[str, list[str]] | None = None) -> dict:
    """Table, prompt and widget data in the request's language; with ``verdict`` also the feedback
    (reasons, right answer). ``typed``: the form the learner sent when it could not be read (field
    name -> values), so that the widgets keep what they chose beside the error."""
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
        "typed": typed_values(typed) if typed is not None else None,
    }
    ctx.update(kind.view_context(ex, table, verdict))
    if verdict is not None:
        ctx.update(feedback_context(ex, verdict))
    return ctx


def typed_values(form: Mapping) -> dict[str, list[str]]:
    """What a learner sent, kept to redraw their choices: at most 64 fields of 20 values, each
    value at most 8 characters (form fields of the kinds are short: a card, a seat, a number)."""
    getlist = getattr(form, "getlist", None)
    out: dict[str, list[str]] = {}
    for name in list(form)[:64]:
        if name == "csrf_token" or not isinstance(name, str) or len(name) > 20:
            continue
        values = getlist(name) if getlist else [form[name]]
        out[name] = [str(v)[:8] for v in values[:20]]
    return out


def feedback_context(ex: Exercise, verdict: X.Verdict) -> dict:
    """The feedback: the engine's reasons, the right answer line by line, and the lesson link."""
    names = Names(X.you_of(ex), players_of(ex.scenario), ex.ruleset)
    kind = KINDS[ex.kind]
    lines = [(line.what, line.value, line.ok) for line in kind.feedback_lines(ex, verdict, names)]
    teaches = X.teaching_step(ex, verdict)
    step = X.find_step(teaches) if teaches else None
    return {
        "why": X.render_why(ex, verdict),
        "mistake": kind.mistake(ex, verdict, names),
        "right_answer": lines,
        "lesson_link": url_for("lessons.step", ruleset=step.ruleset, step_id=step.id) if step else None,
        "lesson_title": step.title if step else None,
        # a wrong answer: the rules it missed (as mastery counts them); a right one: all it applied
        "practise_rules": practise_links(kind.mistake_reasons(ex, verdict) or verdict.why, ex.ruleset),
    }


def practise_links(why: Iterable[Mapping[str, Any]], game: str | None = None) -> list[tuple[str, str]]:
    """``(rule point id, URL of "Practise this rule")`` for each rule point the reasons cite; kept
    to ``game`` (the question's ruleset) where the point belongs to it."""
    from tutor.domain.mastery import rules_of

    from ..adaptive import rulesets_of_rule

    return [(r, url_for("practice.rule", rule=r, game=game) if game in rulesets_of_rule(r) else
             url_for("practice.rule", rule=r)) for r in rules_of(why) if rulesets_of_rule(r)]
