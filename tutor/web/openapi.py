"""The API's OpenAPI 3.1 document, generated from the models and the routes (never kept by hand).

* Routes: every rule of the app whose view is marked with :func:`operation` (a test checks that
  every ``/api/`` route is), its Flask path (``<ref>`` → ``{ref}``) and methods.
* Request and answer bodies: the scenario models of :mod:`tutor.solve.schema` (one schema per
  ruleset and ask, chosen by ``ruleset`` then ``ask``), the answer models, the options model of
  each ruleset, and for an exercise answer the ``answer_schema`` of every exercise kind
  (:data:`tutor.content.kinds.KINDS`).
* Errors: each operation lists the error codes it returns with status 400 (the scenario
  contract's codes and those of :class:`tutor.web.security.BadInput`), 404 for a path that names
  nothing, and 429 with ``Retry-After`` where requests are rate limited.

:func:`document` builds it once per app (cached in ``app.extensions``); ``GET /api/v1/openapi.json``
serves it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Flask
from pydantic import BaseModel, ConfigDict, Field

from tutor import i18n
from tutor.content.kinds import KINDS
from tutor.solve.schema import ANSWER_MODELS, ErrorDetail, ErrorObject, Reason, scenario_schemas

__all__ = ["Operation", "document", "operation"]

REF = "#/components/schemas/"
V = TypeVar("V", bound=Callable[..., Any])


@dataclass(frozen=True)
class Operation:
    """What the document says of one view: ``operation_id``, ``summary``, the request body schema
    (``request``: a schema or ``None``), the 200 body schema (``response``), the codes it answers
    with 400 (``errors``), the codes it answers with 403 (``forbidden``: e.g. ``class-question``, a
    scenario that is a class-quiz question), whether an unknown path segment gives 404 (``not_found``), whether it is
    rate limited (``limited``: 429 with ``Retry-After``), and its query ``params`` (names of
    :func:`_parameter`)."""

    operation_id: str
    summary: str
    response: dict[str, Any]
    request: dict[str, Any] | None = None
    request_examples: dict[str, Any] = field(default_factory=dict)
    errors: Sequence[str] = ()
    not_found: bool = False
    limited: bool = False
    forbidden: Sequence[str] = ()
    params: Sequence[str] = ()
    #: What a 403 means here.
    forbidden_description: str = "Refused: the scenario is a question of a class quiz."


def operation(op: Operation) -> Callable[[V], V]:
    """Decorator: document a view function with ``op``."""
    def mark(fn: V) -> V:
        fn.__openapi__ = op  # type: ignore[attr-defined]
        return fn
    return mark


class VerdictReason(Reason):
    """A reason of a verdict, with ``text``: its explanation in the requested language."""

    text: str


class Teaches(BaseModel):
    """The lesson step that teaches the exercise."""

    model_config = ConfigDict(extra="forbid")
    step: str
    title: str
    url: str


class _Exercise(BaseModel):
    """An exercise's reference (``id``) and kind."""

    model_config = ConfigDict(extra="forbid")
    id: str
    kind: str = Field(json_schema_extra={"enum": list(KINDS)})


class PublicExercise(_Exercise):
    """The public view of an exercise: what a learner sees before answering (never the answer)."""

    ruleset: str
    ask: str
    prompt: str
    difficulty: int | None
    you: int = Field(ge=0, le=3, description="the learner's seat")
    players: int = Field(ge=2, le=4)
    sides: int = Field(ge=2, le=3)
    scenario: dict[str, Any] = Field(description="only the common fields and the ask's input fields")
    choices: list[Any] | None = Field(None, description="legal-cards: the hand; seat kinds: the seats")
    tricks: int | None = Field(None, description="walk-through: the number of tricks")
    answer_format: str = Field(description="what the answer is, in words")


class Verdict(_Exercise):
    """The verdict on an answer, checked by the engine: normalised given and expected values (the
    kind's answer shape), the reasons in the requested language, per-item details, the engine's
    full answer, and the lesson step that teaches it."""

    correct: bool
    given: Any
    expected: Any
    why: list[VerdictReason]
    details: dict[str, Any]
    answer: dict[str, Any]
    lang: str = Field(json_schema_extra={"enum": list(i18n.LANGUAGES)})
    teaches: Teaches | None


def _enum_of(schema: dict[str, Any], values: list[str]) -> None:
    """An optional string field's schema (``anyOf`` string or null) limited to ``values``."""
    for option in schema.get("anyOf", []):
        if option.get("type") == "string":
            option["enum"] = values


class TableCheckRequest(BaseModel):
    """A situation set up on the table editor: the ``scenario`` (any JSON: the editor reports what
    is wrong with it field by field), optionally an answer key ``expect`` to compare with the
    engine's answer, an exercise ``kind`` the scenario must suit, the question's own seat ``you``
    and ``lang``."""

    model_config = ConfigDict(extra="forbid")
    scenario: Any = Field(description="The scenario (the contract's format), as far as it is set up.")
    expect: dict[str, Any] | None = Field(None, description="An answer key: answer fields and the values "
                                                              "a teacher expects, e.g. {\"legal\": [\"3C\"]}.")
    key: str | None = Field(None, max_length=2000, description="A teacher's answer key as a learner types it "
                            "(the kind's answer format, e.g. \"3C KC\" or \"2\"); needs kind. A key the engine "
                            "disagrees with is an error at `expect`.")
    kind: str | None = Field(None, json_schema_extra=lambda s: _enum_of(s, list(KINDS)))
    you: int | None = Field(None, ge=0, lt=100, description="The question's own seat for the learner (from 0; "
                            "a stored question's `you`): the seat at the bottom, whom the reasons address, "
                            "instead of the kind's default.")
    lang: str | None = Field(None, json_schema_extra=lambda s: _enum_of(s, list(i18n.LANGUAGES)))


class Fact(BaseModel):
    """One value of the engine's answer in words: ``field`` (the answer's), ``label``, ``value``."""

    model_config = ConfigDict(extra="forbid")
    field: str
    label: str
    value: str


class SeatShown(BaseModel):
    """A seat as the table shows it: ``who`` ("your partner") and ``number`` ("seat 3")."""

    model_config = ConfigDict(extra="forbid")
    who: str
    number: str


class TableCheck(BaseModel):
    """The engine's answer on the table editor, in the requested language. ``ok``: the engine
    answered and no field is wrong; ``errors``: field path (``hand``, ``trick[2]``,
    ``tricks[3][1]``, ``options.low``, ``expect.legal``, ``""`` for the whole) to the message to
    show at that field; ``answer``: the engine's answer without ``why`` (``null`` when it
    refused); ``error``: the contract's error when the engine refused; ``leaders``: the seat that
    led each trick on the table; ``you``: the learner's seat, at the bottom, whom the reasons
    address (as the learner's page seats the learner); ``seats``: every seat's name from there
    (``who``) and its number (``number``, "seat 1" for seat 0), seat 0 first; ``sides``: each
    scoring side's name from there; ``missing``: the paths of ``errors`` that only say a required
    field is not set yet."""

    model_config = ConfigDict(extra="forbid")
    ok: bool
    answer: dict[str, Any] | None
    why: list[VerdictReason]
    facts: list[Fact]
    errors: dict[str, str]
    missing: list[str]
    error: ErrorDetail | None
    you: int = Field(ge=0, le=3)
    seats: list[SeatShown]
    sides: list[str]
    leaders: list[int]


class Health(BaseModel):
    """The app is up."""

    model_config = ConfigDict(extra="forbid")
    status: str = Field(json_schema_extra={"const": "ok"})


def ref(name: str) -> dict[str, Any]:
    """A reference to ``#/components/schemas/<name>``."""
    return {"$ref": REF + name}


def answer_request() -> dict[str, Any]:
    """The body of an exercise answer: the learner's ``answer`` (its shape is the exercise kind's
    ``answer_schema``) and an optional ``lang``."""
    shapes = [{"title": name, **kind.answer_schema} for name, kind in KINDS.items()]
    return {"type": "object", "required": ["answer"], "additionalProperties": False,
            "properties": {"answer": {"description": "The learner's answer; its shape depends on the exercise's "
                                                     "kind (`kind` of the exercise).", "anyOf": shapes},
                           "lang": ref("Lang")}}


def _model_schemas(models: Sequence[type[BaseModel]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for m in models:
        schema = m.model_json_schema(ref_template=REF + "{model}")
        out.update(schema.pop("$defs", {}))
        out[m.__name__] = schema
    return out


#: Error codes any operation can answer with 400 (:func:`tutor.web.security` refuses a NUL
#: character anywhere in the request before the view runs).
ANY_REQUEST = ("bad-request",)


def _error_schema(codes: Sequence[str] | None) -> dict[str, Any]:
    schema = ErrorObject.model_json_schema(ref_template=REF + "{model}")
    detail = schema.pop("$defs")["ErrorDetail"]
    if codes:
        detail["properties"]["code"] = {"type": "string", "enum": list(codes)}
    schema["properties"]["error"] = detail
    return schema


def _error_response(description: str, codes: Sequence[str] | None, headers: dict | None = None) -> dict[str, Any]:
    listed = f" Codes: {', '.join(f'`{c}`' for c in codes)}." if codes else ""
    out: dict[str, Any] = {"description": description + listed,
                           "content": {"application/json": {"schema": _error_schema(codes)}}}
    if headers:
        out["headers"] = headers
    return out


_PARAMETERS: dict[str, dict[str, Any]] = {
    "lang": {"name": "lang", "in": "query", "required": False, "schema": ref("Lang"),
             "description": "Language of the answer: prompts, reasons and error messages (a body's `lang` "
                            "comes first; else this, the `lang` cookie, Accept-Language, then en)."},
}


def _path_parameter(name: str, examples: dict[str, str]) -> dict[str, Any]:
    from tutor.web import exercises as X  # the exercise references (lesson:, quiz:, gen:)
    return {"name": name, "in": "path", "required": True,
            "description": "`lesson:<step-id>:<exercise-id>`, `quiz:<question-id>` or "
                           "`gen:<ruleset>:<kind>:<difficulty>:<seed>`.",
            "schema": {"type": "string", "maxLength": 200, "pattern": X._REF.pattern},
            "examples": {k: {"value": v} for k, v in examples.items()}}


def _examples() -> dict[str, str]:
    from tutor.web import exercises as X
    out = {"generated": "gen:hokm:trick-winner:1:7", "generated-hand-score": "gen:trinidad:hand-score:2:3"}
    step = X.content().lesson_path("hokm", "en").steps[0]
    for ex in step.exercises[:1]:
        out["lesson"] = f"lesson:{step.id}:{ex.id}"
    return out


def _int_parameter(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": "A row id or a place (from 1).",
            "schema": {"type": "integer", "minimum": 0}}


def _operation(op: Operation, path_params: list[tuple[str, str]]) -> dict[str, Any]:
    params = [_PARAMETERS[p] for p in op.params]
    params += [_int_parameter(p) if converter == "int" else _path_parameter(p, _examples())
               for converter, p in path_params]
    out: dict[str, Any] = {"operationId": op.operation_id, "summary": op.summary}
    if params:
        out["parameters"] = params
    if op.request is not None:
        body: dict[str, Any] = {"schema": op.request}
        if op.request_examples:
            body["examples"] = {k: {"value": v} for k, v in op.request_examples.items()}
        out["requestBody"] = {"required": True, "content": {"application/json": body}}
    responses: dict[str, Any] = {"200": {"description": "OK.", "content": {"application/json": {
        "schema": op.response}}}}
    # every request can be refused before its view runs: a NUL character in the path, query or form
    # (tutor.web.security, code ``bad-request``)
    responses["400"] = _error_response("Bad input.", [*(op.errors or ()), *(c for c in ANY_REQUEST if c not in (op.errors or ()))])
    if op.forbidden:
        responses["403"] = _error_response(op.forbidden_description, op.forbidden)
    if op.not_found:
        responses["404"] = _error_response("No such path.", ["not-found"])
    if op.limited:
        responses["429"] = _error_response(
            "Too many requests: wait the number of seconds in `Retry-After`.", None,
            {"Retry-After": {"description": "Seconds to wait before trying again.", "required": True,
                             "schema": {"type": "integer", "minimum": 0}}})
    out["responses"] = responses
    return out


_CONVERTER = re.compile(r"<(?:([a-z]+):)?([A-Za-z_][A-Za-z0-9_]*)>")


def build(app: Flask) -> dict[str, Any]:
    """The OpenAPI document of ``app``'s documented routes."""
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        op = getattr(app.view_functions.get(rule.endpoint), "__openapi__", None)
        if op is None:
            continue
        path = _CONVERTER.sub(r"{\2}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = _operation(op, _CONVERTER.findall(rule.rule))
    schemas = scenario_schemas()
    schemas |= _model_schemas([*ANSWER_MODELS.values(), PublicExercise, Verdict, TableCheckRequest, TableCheck,
                               Health])
    schemas["Answer"] = {"description": "The answer to a scenario: the ask's fields and `why`.",
                         "anyOf": [ref(m.__name__) for m in ANSWER_MODELS.values()]}
    schemas["Error"] = _error_schema(None)
    schemas["Lang"] = {"type": "string", "enum": list(i18n.LANGUAGES)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "tutor API", "version": "1.0.0",
                 "summary": "Rule engine and exercises of the Hokm / All Fours / Trinidad All Fours tutor.",
                 "description": "Every request body is JSON sent with `Content-Type: application/json`. Errors are "
                                "`{\"error\": {\"code\", \"message\"}}`; each operation lists its codes. The API keeps "
                                "no state, but for a class member's answers to their class quizzes "
                                "(`/api/v1/classes/...`, the session cookie's learner). This document is generated from the app's models and routes.",
                 "license": {"name": "see the repository"}},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


def document(app: Flask) -> dict[str, Any]:
    """The document of ``app``, built on first use and kept in ``app.extensions``."""
    doc = app.extensions.get("tutor_openapi")
    if doc is None:
        doc = app.extensions["tutor_openapi"] = build(app)
    return doc
