"""The JSON API (``/api/v1``): solve a scenario, read an exercise, answer it; the OpenAPI document.

Every body must be JSON sent as ``Content-Type: application/json`` (the API is exempt from the
CSRF token, so a cross-site form cannot post to it). Errors are the spec's error object with
status 400; nothing here writes to the database. Each view carries its :class:`~tutor.web.openapi.Operation`,
from which the OpenAPI document (``GET /api/v1/openapi.json``) is generated.
"""

from __future__ import annotations

import json
from typing import NoReturn

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user

from tutor import i18n
from tutor.content.kinds import KINDS
from tutor.content.kinds.base import N_
from tutor.domain import classes as C
from tutor.domain.table import players_of
from tutor.engine.errors import show
from tutor.solve import answer as solve_answer
from tutor.solve.schema import ERROR_CODES

from .. import exercises as X
from ..db import get_session
from ..editor import check as check_table
from ..lang import use as use_lang
from ..limits import limited
from ..openapi import Operation, answer_request, document, operation
from ..openapi import ref as schema_ref
from ..security import BadInput

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: 400 codes of a JSON body (:func:`_json_body`) and of a body over the size limit (security.py).
_BODY_ERRORS = ("bad-json", "too-large")


def _error(code: str, message: str, status: int = 400) -> Response:
    resp = jsonify({"error": {"code": code, "message": message}})
    resp.status_code = status
    return resp


#: The message of a 403 ``class-question`` (the same words as the "Ask the rules" page's).
CLASS_QUESTION_MESSAGE = N_("This situation is a question of a class quiz: answer it on your class's page, "
                          "where your answer is recorded.")


def _refuse_class_question(scenario: object, translated: bool = False) -> Response | None:
    """A 403 ``class-question`` response when ``scenario`` is a class-quiz question
    (:func:`tutor.domain.classes.is_class_question`), else None. ``translated``: the message in the
    request's language (the table editor's), else in English (the contract's messages)."""
    if C.is_class_question(get_session(), scenario):
        return _error(C.CLASS_QUESTION, _(CLASS_QUESTION_MESSAGE) if translated else CLASS_QUESTION_MESSAGE, 403)
    return None


def _json_body() -> object:
    """The decoded JSON body; BadInput (bad-json) for a wrong content type or undecodable text."""
    if request.mimetype != "application/json":
        raise BadInput("Send the body as JSON with the header Content-Type: application/json.", "bad-json")
    raw = request.get_data(cache=False)
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise BadInput("The body is not UTF-8 text.", "bad-json") from None
    except json.JSONDecodeError as e:
        raise BadInput(f"The body is not valid JSON ({e.msg} at line {e.lineno} column {e.colno}).",
                       "bad-json") from None
    except RecursionError:
        raise BadInput("The body is not valid JSON (nested too deeply).", "bad-json") from None
    except ValueError as e:  # NaN / Infinity, or a number too long for Python's int
        raise BadInput(f"The body is not valid JSON ({e}).", "bad-json") from None
    try:
        _check_unicode(value)
    except RecursionError:
        raise BadInput("The body is not valid JSON (nested too deeply).", "bad-json") from None
    return value


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _check_unicode(value: object) -> None:
    """Refuse strings holding a lone surrogate (a \\uD800-\\uDFFF escape): they are not Unicode text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("The body holds a \\u escape of a lone surrogate, which is not Unicode text.",
                           "bad-json") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_unicode(k)
            _check_unicode(v)
    elif isinstance(value, list):
        for v in value:
            _check_unicode(v)


def _check_lang(body: object = None) -> None:
    """Check the requested language (``?lang=``, or the body's ``lang``, which wins); the body's
    becomes the request's language (:func:`tutor.web.lang.use`). ``?lang=`` was already read when
    the request's language was chosen (:mod:`tutor.web.lang`)."""
    wanted = request.args.get("lang")
    if isinstance(body, dict) and "lang" in body:
        wanted = body["lang"]
        if not isinstance(wanted, str):
            raise BadInput(f"lang must be one of {', '.join(i18n.LANGUAGES)}.", "bad-field")
    if wanted is not None and wanted not in i18n.LANGUAGES:
        raise BadInput(f"Unknown language {show(wanted, 20)}: use one of {', '.join(i18n.LANGUAGES)}.", "bad-field")
    if wanted is not None and wanted != i18n.current_lang():
        use_lang(wanted)


@bp.post("/solve")
@operation(Operation(
    "solve", "Answer one scenario (the scenario format of the project's docs).", schema_ref("Answer"),
    request=schema_ref("Scenario"), errors=(*ERROR_CODES, "too-large"), limited=True, forbidden=(C.CLASS_QUESTION,),
    request_examples={
        "legal-plays": {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"], "trick": ["10C"]},
        "trick-winner": {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]},
        "turn-up": {"ruleset": "trinidad", "ask": "turn-up", "card": "JD"}}))
@limited("solve")
def solve() -> ResponseReturnValue:
    try:
        scenario = _json_body()
    except BadInput as e:
        return _error(e.code, e.message)
    refused = _refuse_class_question(scenario)
    if refused is not None:
        return refused
    try:
        result = solve_answer(scenario)
    except Exception:  # noqa: BLE001 - the contract: never a 500 for any body
        return _error("internal-error", "The engine failed on this scenario.")
    if "error" in result:
        return jsonify(result), 400
    return jsonify(result)


@bp.get("/exercises/<ref>")
@operation(Operation(
    "getExercise", "The public view of an exercise: what a learner sees before answering (never the answer).",
    schema_ref("PublicExercise"), errors=("unknown-exercise", "bad-field"), not_found=True, limited=True,
    params=("lang",)))
@limited("api-generate")
def exercise(ref: str) -> ResponseReturnValue:
    _check_lang()
    ex = X.resolve(ref)
    return jsonify(X.public_view(ex, ref))


@bp.post("/exercises/<ref>/answer")
@operation(Operation(
    "answerExercise", "Check an answer with the engine; the verdict carries the reasons in the requested language.",
    schema_ref("Verdict"), request=answer_request(),
    errors=(*_BODY_ERRORS, "bad-field", "unknown-exercise", "bad-answer", "bad-exercise", "bad-card"),
    not_found=True, limited=True, params=("lang",),
    request_examples={"legal-cards": {"answer": ["3C", "KC"], "lang": "en"}, "trick-winner": {"answer": 3},
                      "hand-score": {"answer": {"high": 0, "low": 1, "jack": None, "game": 0}, "lang": "fa"}}))
@limited("api-answer", "api-generate")
def answer(ref: str) -> ResponseReturnValue:
    body = _json_body()
    if not isinstance(body, dict) or "answer" not in body:
        raise BadInput('The body must be a JSON object with the field "answer".', "bad-field")
    extra = set(body) - {"answer", "lang"}
    if extra:
        raise BadInput(f"Unknown field {min(extra)[:30]!r}: send only answer and lang.", "bad-field")
    _check_lang(body)
    ex = X.resolve(ref)
    given = X.read_json(ex, body["answer"])
    verdict = X.grade(ex, given)
    ctx: i18n.ReasonContext = {"you": X.you_of(ex), "players": players_of(ex.scenario), "ruleset": ex.ruleset}
    why = [dict(r) | {"text": i18n.render_reason(r, **ctx)} for r in verdict.why]
    details = KINDS[ex.kind].localise_details(dict(verdict.details), lambda r: i18n.render_reason(r, **ctx))
    teaches = X.teaching_step(ex, verdict)
    step = X.find_step(teaches) if teaches else None
    lang = i18n.current_lang()
    return jsonify({
        "id": ref,
        "kind": ex.kind,
        "correct": verdict.correct,
        "given": verdict.given,
        "expected": verdict.expected,
        "why": why,
        "details": details,
        "answer": dict(verdict.answer),
        "lang": lang,
        "teaches": {"step": step.id, "title": step.title,
                    "url": url_for("lessons.step", lang=lang, ruleset=step.ruleset, step_id=step.id)}
        if step else None,
    })


@bp.post("/table/check")
@operation(Operation(
    "checkTable", "The table editor's live answer: the engine's answer to a situation, its reasons and facts in "
    "the requested language, and every problem at the field that causes it (200 with `ok: false` and `errors` "
    "for a situation that is not set up right; 400 only for a body that is not a check request).",
    schema_ref("TableCheck"), request=schema_ref("TableCheckRequest"), errors=(*_BODY_ERRORS, "bad-field"),
    forbidden=(C.CLASS_QUESTION,), limited=True, params=("lang",),
    request_examples={
        "legal-plays": {"scenario": {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"],
                                     "trick": ["10C"]}, "lang": "fa"},
        "duplicate-card": {"scenario": {"ruleset": "all-fours", "ask": "legal-plays", "trump": "S",
                                        "hand": ["2S", "9D"], "trick": ["2S"]}},
        "answer-key": {"scenario": {"ruleset": "trinidad", "ask": "turn-up", "card": "JD"}, "kind": "turn-up",
                       "expect": {"points": 1}}}))
@limited("table-check")
def table_check() -> ResponseReturnValue:
    body = _json_body()
    if not isinstance(body, dict) or "scenario" not in body:
        raise BadInput('The body must be a JSON object with the field "scenario".', "bad-field")
    extra = set(body) - {"scenario", "expect", "key", "kind", "lang", "you"}
    if extra:
        raise BadInput(f"Unknown field {show(min(extra), 30)}: send scenario, expect, key, kind, you and lang.",
                       "bad-field")
    you = body.get("you")
    if you is not None and (not isinstance(you, int) or isinstance(you, bool) or not 0 <= you < 100):
        raise BadInput("you must be a seat number from 0 (the question's own seat for the learner).", "bad-field")
    kind = body.get("kind")
    if kind is not None and (not isinstance(kind, str) or kind not in KINDS):
        raise BadInput(f"Unknown kind {show(kind, 30)}: use one of {', '.join(KINDS)}.", "bad-field")
    expect = body.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise BadInput("expect must be a JSON object (answer field: value).", "bad-field")
    key = body.get("key")
    if key is not None and (not isinstance(key, str) or len(key) > 2000 or kind is None):
        raise BadInput("key must be a string of at most 2000 characters, sent with kind.", "bad-field")
    _check_lang(body)
    if not getattr(current_user, "is_authenticated", False):  # a logged-in teacher authors class questions on the editor
        refused = _refuse_class_question(body["scenario"], translated=True)
        if refused is not None:
            return refused
    return jsonify(check_table(body["scenario"], expect, kind, key, you))


@bp.get("/openapi.json")
@operation(Operation("openapi", "This document (OpenAPI 3.1), generated from the app's models and routes.",
                     {"type": "object", "required": ["openapi", "paths"]}))
def openapi() -> ResponseReturnValue:
    return jsonify(document(current_app))
