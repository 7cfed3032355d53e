"""The OpenAPI document: generated from the models and routes, valid, complete, and true to what
the app answers (a bounded schemathesis run against the Flask app in process)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from web_support import make_app, one_app_per_module

from tutor.content import kinds
from tutor.content.lessons import Problems
from tutor.content.quizzes import load_quiz
from tutor.engine.rulesets import RULESETS
from tutor.solve import answer, asks_of
from tutor.solve.schema import ANSWER_MODELS
from tutor.web import exercises as X

PAIRS = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "solve_answers.jsonl").read_text(encoding="utf-8").splitlines()]


app = one_app_per_module()


@pytest.fixture(scope="module")
def doc(app):
    r = app.test_client().get("/api/v1/openapi.json")
    assert r.status_code == 200
    return r.get_json()


def _validator(doc, name):
    """A JSON Schema validator of components/schemas/<name>, resolving the document's $refs."""
    schema = {**doc["components"]["schemas"][name], "components": doc["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_document_is_valid_openapi(doc):
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    assert not (Path(__file__).parent.parent / "tutor" / "web" / "openapi.json").exists(), "no hand-kept copy"


def test_every_api_route_is_documented(app, doc):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[a-z]+:)?(\w+)>", r"{\1}", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert method.lower() in doc["paths"][path], (path, method)


def test_error_codes_per_route(doc):
    solve = doc["paths"]["/api/v1/solve"]["post"]["responses"]
    codes = solve["400"]["content"]["application/json"]["schema"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(codes) >= {"bad-json", "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field",
                          "illegal-play", "impossible-state", "too-large"}
    answer_op = doc["paths"]["/api/v1/exercises/{ref}/answer"]["post"]["responses"]
    codes = answer_op["400"]["content"]["application/json"]["schema"]["properties"]["error"]["properties"]["code"]
    assert set(codes["enum"]) >= {"unknown-exercise", "bad-answer", "bad-exercise", "bad-card", "bad-json",
                                  "too-large", "bad-field"}
    for responses in (solve, answer_op):
        assert responses["429"]["headers"]["Retry-After"]["required"] is True


def test_scenario_schemas_follow_the_registry(doc):
    schemas = doc["components"]["schemas"]
    assert set(schemas["Scenario"]["discriminator"]["mapping"]) == set(RULESETS)
    for name in RULESETS:
        assert set(schemas[f"Scenario-{name}"]["discriminator"]["mapping"]) == set(asks_of(name))
    hokm_legal = schemas["Scenario-hokm-legal-plays"]["properties"]
    assert hokm_legal["hand"]["maxItems"] == 13 and hokm_legal["players"]["anyOf"][0]["enum"] == [4]
    af_legal = schemas["Scenario-all-fours-legal-plays"]["properties"]
    assert af_legal["hand"]["maxItems"] == 21 and af_legal["trick"]["anyOf"][0]["maxItems"] == 3
    assert schemas["Options-hokm"]["properties"]["target"]["enum"] == [7, 3]
    assert set(schemas["Options-all-fours"]["properties"]) == {
        "target", "turnup_scale", "low", "game_tie", "void_rule", "gift_may_win", "run_hand_method"}


def test_every_recorded_scenario_and_answer_fit_the_document(doc):
    """Scenarios the engine answers fit the Scenario schema; answers fit their ask's answer model
    (and the document's Answer); errors fit the Error object."""
    scenario, answer_schema, error = (_validator(doc, n) for n in ("Scenario", "Answer", "Error"))
    answered = 0
    for pair in PAIRS:
        a = pair["answer"]
        if "error" in a:
            error.validate(a)
            continue
        scenario.validate(pair["scenario"])
        answer_schema.validate(a)
        ANSWER_MODELS[pair["scenario"]["ask"]].model_validate(a)
        answered += 1
    assert answered > 300


def test_kind_answer_schemas_take_the_engines_own_answers():
    """For every quiz question, the engine's expected value (in the learner's shape) is valid
    under its kind's answer_schema."""
    n = 0
    for ruleset in RULESETS:
        for q in load_quiz(ruleset, problems=Problems()).questions:
            expected, _ = kinds.expected_answer(q)
            jsonschema.validate(expected, kinds.KINDS[q.kind].answer_schema)
            n += 1
    assert n > 50
    for ex in (s.exercises[0] for s in X.lesson_path("all-fours").steps if s.exercises):
        jsonschema.validate(kinds.expected_answer(ex)[0], kinds.KINDS[ex.kind].answer_schema)


def test_an_answer_outside_the_kind_schema_is_refused(app):
    client = app.test_client()
    r = client.post("/api/v1/exercises/gen:hokm:trick-winner:1:7/answer", json={"answer": {"seat": 1}})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-answer"
    assert answer({"ruleset": "hokm", "ask": "trick-winner", "trump": "Z", "trick": ["AD", "2S", "KD", "JS"]}) == {
        "error": {"code": "bad-field", "message": 'field trump must be a suit letter (S, H, D or C), not "Z".'}}


_INSTANCE = tempfile.TemporaryDirectory(prefix="tutor-openapi-")  # removed when the run ends
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", make_app(Path(_INSTANCE.name)))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@schema.parametrize()
@settings(max_examples=25, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_document(case):
    """No 5xx and no response that the document does not describe, for generated requests."""
    case.call_and_validate(checks=CHECKS)
