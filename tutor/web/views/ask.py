"""Ask the rules: the learners' sandbox on the table editor (``/<lang>/ask``).

A learner sets up any situation of any game — cards on the seats, trump, the trick, scores,
options — and the engine answers and explains it in the learner's language. The page is a plain
form (a textarea holding the scenario JSON, sent with its CSRF token); :mod:`tutor.web.editor`'s
script turns it into the table editor with live answers from ``POST /api/v1/table/check``.
Posting the form answers it on the server (the same :func:`tutor.web.editor.check`), so the page
works without script. Nothing is stored.
"""

from __future__ import annotations

import json

from flask import Blueprint, render_template, request
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from tutor.domain import classes as C
from tutor.engine.errors import BadJsonError
from tutor.solve import parse_json

from ..db import get_session
from ..editor import check, editor_config, seating
from ..limits import limited
from .api import CLASS_QUESTION_MESSAGE

bp = Blueprint("ask", __name__, url_prefix="/<lang>")

#: The situation the page opens with: a Hokm trick in progress.
FIRST = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["QH", "4H", "KS", "9C", "2D"],
         "trick": ["10H", "AH"]}


@bp.record_once
def _template_global(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals["editor_config"] = editor_config
    state.app.jinja_env.globals["editor_seating"] = seating


@bp.get("/ask")
def page() -> ResponseReturnValue:
    value = json.dumps(FIRST, ensure_ascii=False)
    return render_template("ask.html", value=value, result=None, error=None, seating=seating(value))


@bp.post("/ask")
@limited("table-check")
def answer() -> ResponseReturnValue:
    text = request.form.get("scenario", "")
    try:
        scenario = parse_json(text)
    except BadJsonError:
        return render_template("ask.html", value=text, result=None,
                               error=_("This is not JSON: check the brackets, commas and quotes.")), 400
    if C.is_class_question(get_session(), scenario):
        return render_template("ask.html", value=text, result=None,
                               error=_(CLASS_QUESTION_MESSAGE)), 403
    result = check(scenario)
    labels = _labels(scenario)
    errors = [(labels.get(path.split("[")[0].split(".")[0], ""), message) for path, message in result["errors"].items()]
    return render_template("ask.html", value=text, result=result, errors=errors, error=None, seating=seating(text))


def _labels(scenario: object) -> dict[str, str]:
    """The labels of the scenario's fields (for messages listed away from the table)."""
    from tutor.engine.rulesets import RULESETS
    from tutor.solve import asks_of

    from ..editor import field_specs

    if not isinstance(scenario, dict) or scenario.get("ruleset") not in RULESETS:
        return {}
    info = RULESETS[scenario["ruleset"]]
    spec = asks_of(info.name).get(scenario.get("ask"))  # type: ignore[arg-type]
    if spec is None:
        return {}
    return {f["name"]: f["label"] for f in field_specs(info, spec.model)} | {"options": _("Options")}
