"""The JSON API: /api/v1/solve (the spec contract), exercises (public view, answer), OpenAPI."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import all_rows, expected, lesson_exercise, one_app_per_module, wrong_value

from tutor import i18n
from tutor.content import kinds
from tutor.domain.table import players_of
from tutor.web import exercises as X

app = one_app_per_module()


def post_json(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


# ------------------------------------------------------------------------------------------ /solve

def test_solve_spec_examples(client):
    r = post_json(client, "/api/v1/solve",
                  {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"], "trick": ["10C"]})
    assert r.status_code == 200 and r.get_json()["legal"] == ["3C"]
    assert r.get_json()["why"][0]["rule"]
    r = post_json(client, "/api/v1/solve",
                  {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]})
    assert r.status_code == 200
    assert {k: r.get_json()[k] for k in ("winner", "card")} == {"winner": 3, "card": "JS"}


@pytest.mark.parametrize(("body", "code"), [
    ({"ruleset": "chess", "ask": "legal-plays"}, "unknown-ruleset"),
    ({"ruleset": "hokm", "ask": "turn-up", "card": "JS"}, "unknown-ask"),
    ({"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["1X"], "trick": []}, "bad-card"),
    ({"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["AS", "AS"], "trick": []}, "duplicate-card"),
    ({"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": "AS"}, "bad-field"),
    ([1, 2, 3], "bad-json"),
])
def test_solve_errors_are_400_error_objects(client, body, code):
    r = post_json(client, "/api/v1/solve", body)
    assert r.status_code == 400
    err = r.get_json()["error"]
    assert err["code"] == code and err["message"]


@pytest.mark.parametrize("raw", [b"", b"{", b"\xff\xfe", b"[" * 60_000, b'{"ruleset": "hokm",}', b"null"],
                         ids=["empty", "open-brace", "not-utf8", "deep-nesting", "trailing-comma", "null"])
def test_solve_undecodable_bodies_are_bad_json(client, raw):
    r = client.post("/api/v1/solve", data=raw, content_type="application/json")
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == "bad-json"


def test_solve_requires_json_content_type(client):
    r = client.post("/api/v1/solve", data='{"ruleset": "hokm"}', content_type="text/plain")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-json"
    r = client.post("/api/v1/solve", data={"ruleset": "hokm"})  # a form post
    assert r.status_code == 400 and "Content-Type: application/json" in r.get_json()["error"]["message"]


def test_solve_huge_body_is_400(client):
    r = client.post("/api/v1/solve", data=b"[" + b"1," * 100_000 + b"1]", content_type="application/json")
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == "too-large"


def test_wrong_method_and_unknown_path_are_json(client):
    r = client.get("/api/v1/solve")
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "method-not-allowed"
    r = client.get("/api/v1/nothing")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not-found"


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) |
    st.sampled_from(["hokm", "all-fours", "trinidad", "legal-plays", "trick-winner", "hand-score", "AS", "10H",
                     "S", "H", "round-score", "make-trump", "turn-up", "beg"]) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["ruleset", "ask", "trump", "hand", "trick", "tricks", "leader", "hakem", "dealer",
                         "team_tricks", "scores", "players", "card", "turn_ups", "decision", "options", "x"]),
        children, max_size=6),
    max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_json)
def test_solve_never_500(client, body):
    r = post_json(client, "/api/v1/solve", body)
    assert r.status_code in (200, 400)
    data = r.get_json()
    assert ("error" in data) == (r.status_code == 400)


# ------------------------------------------------------------------------------------------ exercises

def test_public_view_has_no_answer(client):
    step, ex = lesson_exercise("hokm", "legal-cards", lambda e: bool(e.scenario.get("trick")))
    ref = X.ref_of(ex)
    r = client.get(f"/api/v1/exercises/{ref}?lang=fa")
    assert r.status_code == 200
    view = r.get_json()
    assert view["id"] == ref and view["kind"] == "legal-cards"
    assert view["scenario"]["hand"] == ex.scenario["hand"]
    fa_ex = next(e for e in X.content().find_step(step.id, "fa").exercises if e.id == ex.id)
    assert view["prompt"] == fa_ex.prompt  # the lesson's own Persian wording
    text = json.dumps(view)
    for leak in ('"expect"', '"legal"', '"why"', '"winner"'):
        assert leak not in text


@pytest.mark.parametrize("ref", ["nope", "lesson:nope:nope", "quiz:nope", "gen:hokm:legal-cards:9:1",
                                 "gen:hokm:turn-up:1:1", "gen:chess:legal-cards:1:1", "x" * 300, "lesson:a:b:c:d:e:f"])
def test_forged_exercise_ids_are_400(client, app, ref):
    r = client.get(f"/api/v1/exercises/{ref}")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "unknown-exercise"
    r = post_json(client, f"/api/v1/exercises/{ref}/answer", {"answer": 0})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "unknown-exercise"
    assert set(all_rows(app).values()) == {0}


def test_generated_exercise_round_trip(client):
    ref = "gen:trinidad:hand-score:2:77"
    view = client.get(f"/api/v1/exercises/{ref}").get_json()
    assert view["kind"] == "hand-score" and view["ruleset"] == "trinidad"
    ex = X.resolve(ref)
    r = post_json(client, f"/api/v1/exercises/{ref}/answer", {"answer": expected(ex)})
    assert r.status_code == 200 and r.get_json()["correct"] is True
    assert r.get_json()["teaches"]["url"].startswith("/en/learn/trinidad/")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_answer_verdict_with_reasons_in_language(client, lang):
    step, ex = lesson_exercise("hokm", "legal-cards", lambda e: 0 < len(expected(e)) < len(e.scenario["hand"]))
    ref = X.ref_of(ex)
    right = expected(ex)
    wrong = wrong_value(ex, right)
    r = post_json(client, f"/api/v1/exercises/{ref}/answer", {"answer": wrong, "lang": lang})
    assert r.status_code == 200
    v = r.get_json()
    assert v["correct"] is False and v["expected"] == right and v["lang"] == lang
    verdict = kinds.grade(ex, wrong)
    ctx = {"you": X.you_of(ex), "players": players_of(ex.scenario), "ruleset": "hokm"}
    with i18n.using(lang):
        assert [w["text"] for w in v["why"]] == [i18n.render_reason(w, **ctx) for w in verdict.why]
    assert v["details"]["illegal"][0]["card"] in wrong
    assert v["teaches"]["step"] == step.id and v["teaches"]["url"] == f"/{lang}/learn/hokm/{step.id}"
    r = post_json(client, f"/api/v1/exercises/{ref}/answer?lang={lang}", {"answer": right})
    assert r.get_json()["correct"] is True


def test_the_bodys_language_is_the_whole_answers_language(client):
    """One language per request: the body's ``lang`` also words an unreadable answer's error."""
    _step, ex = lesson_exercise("hokm", "legal-cards")
    ref = X.ref_of(ex)
    client.get("/en/")  # the cookie says English
    r = post_json(client, f"/api/v1/exercises/{ref}/answer?lang=bg", {"answer": ["ZZ"], "lang": "fa"})
    assert r.status_code == 400
    assert r.get_json()["error"] == {"code": "bad-card", "message": "ZZ کارت نیست."}
    r = post_json(client, f"/api/v1/exercises/{ref}/answer?lang=bg", {"answer": ["ZZ"]})
    assert r.get_json()["error"]["message"] == "ZZ не е карта."


_FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def test_typed_cards_accept_persian_digits_symbol_first_and_invisible_characters(client):
    """A learner's typed cards: "♣۱۰" (symbol first, Persian digits), a zero-width non-joiner, the
    Persian comma between cards; all read as the canonical cards of the hand."""
    _step, ex = lesson_exercise("hokm", "legal-cards", lambda e: len(expected(e)) >= 2)
    right = expected(ex)
    typed = "‌، ".join(_SYMBOL[c[-1]] + c[:-1].translate(_FA_DIGITS) for c in right)
    for answer in (typed, typed.split("‌، ")):
        r = post_json(client, f"/api/v1/exercises/{X.ref_of(ex)}/answer", {"answer": answer})
        assert r.status_code == 200 and r.get_json()["correct"] is True, (answer, r.get_json())
    r = post_json(client, f"/api/v1/exercises/{X.ref_of(ex)}/answer", {"answer": "♣۱۱"})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-card"


@pytest.mark.parametrize(("kind", "answer", "code"), [
    ("legal-cards", ["ZZ"], "bad-card"),
    ("legal-cards", ["2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C", "2C"], "bad-card"),
    ("legal-cards", "not a list of cards ;;", "bad-card"),
    ("trick-winner", 17, "bad-answer"),
    ("trick-winner", "two", "bad-answer"),
    ("trick-winner", {"seat": 1}, "bad-answer"),
    ("hand-score", {"high": 0}, "bad-answer"),
    ("hand-score", [0, 1], "bad-answer"),
])
def test_malformed_answers_are_400(client, app, kind, answer, code):
    ruleset = "all-fours" if kind == "hand-score" else "hokm"
    _step, ex = lesson_exercise(ruleset, kind, lambda e: "2C" not in e.scenario.get("hand", []))
    r = post_json(client, f"/api/v1/exercises/{X.ref_of(ex)}/answer", {"answer": answer})
    assert r.status_code == 400
    assert r.get_json()["error"]["code"] == code
    assert set(all_rows(app).values()) == {0}


@pytest.mark.parametrize("body", [[], {"given": 1}, {"answer": 1, "extra": 2}, {"answer": 1, "lang": "xx"}])
def test_answer_body_shape_is_checked(client, body):
    _step, ex = lesson_exercise("hokm", "trick-winner")
    r = post_json(client, f"/api/v1/exercises/{X.ref_of(ex)}/answer", body)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-field"


def test_answer_needs_json_and_no_csrf_token(client):
    _step, ex = lesson_exercise("hokm", "trick-winner")
    url = f"/api/v1/exercises/{X.ref_of(ex)}/answer"
    r = client.post(url, data={"answer": "1"})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad-json"
    r = post_json(client, url, {"answer": expected(ex)})
    assert r.status_code == 200 and r.get_json()["correct"] is True


def test_openapi_document(client):
    r = client.get("/api/v1/openapi.json")
    doc = r.get_json()
    assert doc["openapi"] == "3.1.0"
    # generated from the routes (issue 7): the path parameter is the route's own name, and each
    # operation lists its own error codes
    assert {"/api/v1/solve", "/api/v1/exercises/{ref}", "/api/v1/exercises/{ref}/answer"} <= set(doc["paths"])
    error = doc["paths"]["/api/v1/solve"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
    assert "bad-card" in error["properties"]["error"]["properties"]["code"]["enum"]
