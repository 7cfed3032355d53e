"""Adversarial input: `tutor solve`, the JSON API, the HTML forms and `tutor check` fed bad input.

Every test asserts the behaviour the contract promises (shared/spec/solve-format.md, README):

* `tutor solve`: every failing line gets `{"error": {"code", "message"}}` with a spec code and one
  clear sentence, never a traceback, exit status 2;
* HTTP: 400 (a JSON error object under /api, a page with a message elsewhere), never 500, and no
  half-written row after a rejected request;
* `tutor check`: `file:line: message` for every problem and exit status 2, never a traceback.

Some of these tests fail on purpose: they pin bugs found by the adversarial pass (see the test
names and docstrings); the fix belongs in tutor/, not here.

The CLI, the HTML forms and `tutor check` are in test_adversarial_cli, test_adversarial_forms and
test_adversarial_check; the helpers and the ``app`` fixture they share are here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from web_support import all_rows

from tutor.solve import answer
from tutor.web import exercises as X

SPEC_CODES = {"bad-json", "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field",
              "illegal-play", "impossible-state"}
MAX_MESSAGE = 300  # "one clear sentence": bounded, whatever the size of the bad value

LEGAL = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}
BASE = {
    "hokm-legal": LEGAL,
    "hokm-winner": {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]},
    "hokm-score": {"ruleset": "hokm", "ask": "round-score", "hakem": 0, "team_tricks": [0, 7], "scores": [4, 5]},
    "hokm-playout": {"ruleset": "hokm", "ask": "round-playout", "hakem": 0, "trump": "H", "tricks": [
        ["AH", "2H", "3H", "4H"], ["KH", "5H", "6H", "7H"], ["QH", "8H", "9H", "10H"], ["JH", "2C", "3C", "4C"],
        ["AS", "2S", "3S", "4S"], ["KS", "5S", "6S", "7S"], ["QS", "8S", "9S", "10S"]]},
    "af-legal": {"ruleset": "all-fours", "ask": "legal-plays", "trump": "S", "hand": ["4D", "KD", "7S", "AC"],
                 "trick": ["10D"]},
    "af-turnup": {"ruleset": "all-fours", "ask": "turn-up", "card": "JD"},
    "af-make": {"ruleset": "all-fours", "ask": "make-trump", "dealer": 1, "turn_ups": ["9H"], "decision": "beg",
                "dealer_choice": "give", "scores": [6, 2]},
    "tt-make": {"ruleset": "trinidad", "ask": "make-trump", "dealer": 3, "turn_ups": ["6C", "2C", "KH"],
                "decision": "beg", "dealer_choice": "run"},
    "tt-hand": {"ruleset": "trinidad", "ask": "hand-score", "players": 2, "dealer": 1, "trump": "H",
                "tricks": [["AH", "2H"], ["KS", "3S"], ["JH", "4C"], ["10D", "QD"], ["5C", "6C"], ["7S", "8S"]],
                "scores": [12, 10]},
    "tt-winner": {"ruleset": "trinidad", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]},
}


def run_solve(stdin: bytes, *args: str, timeout: int = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tutor.cli", "solve", *args], check=False, input=stdin,
                          capture_output=True, timeout=timeout)


def out_lines(p: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(x) for x in p.stdout.decode("utf-8").splitlines()]


def assert_spec_error(a: dict, code: str | None = None) -> None:
    assert set(a) == {"error"}, a
    err = a["error"]
    assert set(err) == {"code", "message"}, err
    assert err["code"] in SPEC_CODES, err
    if code is not None:
        assert err["code"] == code, err
    msg = err["message"]
    assert isinstance(msg, str) and msg.strip(), err
    assert "Traceback" not in msg
    msg.encode("utf-8")  # a lone surrogate in the message breaks every UTF-8 consumer (and the HTTP layer)


# ================================================================================ tutor solve (engine)

WEIRD = [None, True, False, 0, -1, 1.5, 2**63, 10**30, "", "x", "AS", [], [None], [1], ["AS", "AS"], {},
         {"a": 1}, [[["AS"]]], [-1, -1], [7, 7], [True, False], [0.0, 7.0], ["0", "7"], [0, 7, 0]]


@pytest.mark.parametrize("name", sorted(BASE))
def test_every_field_with_every_wrong_type_gives_a_spec_error(name):
    """Each field of each ask (and the common fields) replaced by values of the wrong type or range:
    an answer or a spec error object, never an exception or an internal-error code."""
    base = BASE[name]
    assert "error" not in answer(base)
    for field in [*base, "options", "players", "target", "leader", "scores", "nonsense"]:
        for w in WEIRD:
            a = answer(dict(base, **{field: w}))
            if "error" in a:
                assert_spec_error(a)
                assert len(a["error"]["message"]) <= MAX_MESSAGE, a


@pytest.mark.parametrize(("scenario", "code"), [
    # players / seats / target
    ({**BASE["hokm-score"], "players": 5}, "bad-field"),
    ({**BASE["af-turnup"], "players": 5}, "bad-field"),
    ({**BASE["af-turnup"], "players": 1}, "bad-field"),
    ({**BASE["tt-winner"], "players": 3}, "bad-field"),
    ({**BASE["hokm-score"], "hakem": -1}, "bad-field"),
    ({**BASE["hokm-score"], "hakem": 4}, "bad-field"),
    ({**BASE["hokm-score"], "hakem": True}, "bad-field"),
    ({**BASE["hokm-winner"], "leader": 1.0}, "bad-field"),
    ({**BASE["hokm-score"], "target": 0}, "bad-field"),
    ({**BASE["hokm-score"], "target": 5}, "bad-field"),
    ({**BASE["af-turnup"], "target": 10**20}, "bad-field"),
    ({**BASE["hokm-score"], "scores": [4, 5], "target": 3, "options": {"target": 7}}, "bad-field"),
    ({**BASE["af-make"], "target": 7, "options": {"target": 11}}, "bad-field"),
    ({**BASE["hokm-score"], "scores": [-1, 0]}, "bad-field"),
    ({**BASE["af-make"], "scores": [6, "2"]}, "bad-field"),
    ({**BASE["af-make"], "scores": [6, 2, 0]}, "bad-field"),
    # options
    ({**LEGAL, "options": {"bogus": 1}}, "bad-field"),
    ({**LEGAL, "options": {"stop_at_seven": "yes"}}, "bad-field"),
    ({**LEGAL, "options": {"stop_at_seven": 1}}, "bad-field"),
    ({**LEGAL, "options": {"turnup_scale": "jack"}}, "bad-field"),  # an all-fours option on hokm
    ({**BASE["af-turnup"], "options": {"turnup_scale": "Running"}}, "bad-field"),
    ({**BASE["af-turnup"], "options": []}, "bad-field"),
    # cards
    ({**BASE["af-turnup"], "card": "1S"}, "bad-card"),
    ({**BASE["af-turnup"], "card": "AX"}, "bad-card"),
    ({**BASE["af-turnup"], "card": "10"}, "bad-card"),
    ({**BASE["af-turnup"], "card": ""}, "bad-card"),
    ({**BASE["af-turnup"], "card": "11S"}, "bad-card"),
    ({**BASE["af-turnup"], "card": "10 H"}, "bad-card"),
    ({**BASE["af-turnup"], "card": "A\u0000S"}, "bad-card"),
    ({**LEGAL, "hand": ["AS"], "trick": ["as"]}, "duplicate-card"),
    ({**LEGAL, "hand": ["10S"], "trick": ["TS"]}, "duplicate-card"),
    ({**BASE["hokm-winner"], "trick": ["2C", "3C", "4C", "2C"]}, "duplicate-card"),
    # trick lengths, empty hand, full trick
    ({**LEGAL, "hand": ["AS"], "trick": ["2C", "3C", "4C", "5C"]}, "bad-field"),
    ({**LEGAL, "hand": [], "trick": []}, "bad-field"),
    ({**BASE["af-legal"], "hand": ["AS"], "trick": ["2C", "3C"]}, "bad-field"),
    ({**BASE["hokm-winner"], "trick": ["2C", "3C", "4C"]}, "bad-field"),
    ({**BASE["hokm-winner"], "trick": ["2C", "3C", "4C", "5C", "6C"]}, "bad-field"),
    ({**BASE["tt-winner"], "players": 2}, "bad-field"),
    ({**BASE["hokm-playout"], "tricks": [["AH", "2H", "3H"]]}, "bad-field"),
    ({**BASE["hokm-playout"], "tricks": "AS"}, "bad-field"),
    # impossible states
    ({**BASE["hokm-score"], "team_tricks": [7, 7]}, "impossible-state"),
    ({**BASE["hokm-score"], "team_tricks": [7, 8]}, "impossible-state"),
    ({**BASE["hokm-score"], "team_tricks": [3, 3]}, "impossible-state"),
    ({**BASE["hokm-score"], "scores": [7, 0]}, "impossible-state"),
    ({**BASE["hokm-playout"], "tricks": BASE["hokm-playout"]["tricks"] + [["JS", "5C", "6C", "7C"]]},
     "impossible-state"),
    ({**BASE["tt-hand"], "tricks": BASE["tt-hand"]["tricks"][:5]}, "impossible-state"),
    ({**BASE["tt-hand"], "tricks": []}, "impossible-state"),
    ({**BASE["tt-hand"], "scores": [14, 0]}, "impossible-state"),
    ({**BASE["af-make"], "turn_ups": ["9H", "8H"], "decision": "stand", "dealer_choice": None}, "impossible-state"),
    # illegal plays in transcripts
    ({**BASE["hokm-playout"], "tricks": [["AS", "2C", "3S", "4S"], ["KC", "5S", "6C", "7C"]]}, "illegal-play"),
    ({**BASE["tt-hand"], "scores": None, "tricks": [["AH", "2H"], ["KS", "4C"], ["JH", "3H"], ["10D", "QD"],
                                                    ["5C", "6C"], ["7S", "8S"]]}, "illegal-play"),
    ({**BASE["af-make"], "scores": [6, 6], "options": {"gift_may_win": False}}, "illegal-play"),
    # make-trump fields
    ({**BASE["af-make"], "decision": "stand"}, "bad-field"),
    ({**BASE["af-make"], "decision": "BEG"}, "bad-field"),
    ({**BASE["af-make"], "dealer": 2}, "bad-field"),
    ({**BASE["af-make"], "turn_ups": []}, "bad-field"),
    # top level
    ({"ruleset": "chess", "ask": "legal-plays"}, "unknown-ruleset"),
    ({"ruleset": None}, "unknown-ruleset"),
    ({"ruleset": "hokm", "ask": "turn-up", "card": "JS"}, "unknown-ask"),
    ({"ruleset": "hokm", "ask": ["legal-plays"]}, "unknown-ask"),
])
def test_bad_scenarios_get_the_right_code(scenario, code):
    scenario = {k: v for k, v in scenario.items() if v is not None or k == "ruleset"}
    assert_spec_error(answer(scenario), code)


def test_illegal_play_message_names_trick_and_seat():
    a = answer({**BASE["hokm-playout"], "tricks": [["AS", "2C", "3S", "4S"], ["KC", "5S", "6C", "7C"]]})
    assert_spec_error(a, "illegal-play")
    assert "trick 1" in a["error"]["message"] and "seat 1" in a["error"]["message"]


@pytest.mark.parametrize("field", ["trump", "card", "decision", "dealer_choice", "hand"])
def test_error_message_stays_one_short_sentence_for_a_huge_value(field):
    """BUG: a 10 000-character value is echoed whole into the message (Suit.parse / Card.parse use
    {text!r}; make_trump uses {decision!r}). The message should quote a short prefix, as _show does."""
    base = {"trump": LEGAL, "hand": LEGAL, "card": BASE["af-turnup"], "decision": BASE["af-make"],
            "dealer_choice": BASE["af-make"]}[field]
    value = ["H" * 10_000] if field == "hand" else "H" * 10_000
    a = answer(dict(base, **{field: value}))
    assert_spec_error(a)
    assert len(a["error"]["message"]) <= MAX_MESSAGE, len(a["error"]["message"])


def test_error_message_for_a_deeply_nested_card_is_short():
    """BUG: `"hand": [[[[...900 levels...]]]]` gives a bad-card message of ~1 900 characters of brackets."""
    a = answer({**LEGAL, "hand": json.loads("[" * 900 + "]" * 900)})
    assert_spec_error(a)
    assert len(a["error"]["message"]) <= MAX_MESSAGE


def test_messages_speak_json_not_python():
    """BUG (minor): `"decision": null` says `not None.`; a bad suit says `'HX'` in Python quotes."""
    a = answer({**BASE["af-make"], "decision": None})
    assert_spec_error(a, "bad-field")
    assert "None" not in a["error"]["message"]


# ================================================================================ HTTP: app fixtures

@pytest.fixture
def app(app):
    """The shared app with its error log off (these tests make it log on purpose)."""
    app.logger.disabled = True
    return app


def send(client, method: str, url: str, **kw):
    """The response, or a fake 500 when the app raised (the test client re-raises in TESTING mode;
    a real server answers 500 there)."""
    try:
        return getattr(client, method)(url, **kw)
    except Exception as e:  # noqa: BLE001
        pytest.fail(f"{method.upper()} {url} raised {type(e).__name__}: {e} (a real server answers 500)")


def post_raw(client, url: str, raw: bytes, content_type: str = "application/json"):
    return send(client, "post", url, data=raw, content_type=content_type)


def assert_api_400(r, code: str | None = None) -> dict:
    assert r.status_code == 400, (r.status_code, r.data[:300])
    body = r.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    if code is not None:
        assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]


def no_rows(app) -> None:
    assert set(all_rows(app).values()) == {0}, all_rows(app)


# ================================================================================ HTTP: /api/v1/solve

@pytest.mark.parametrize("name", sorted(BASE))
def test_api_solve_sweep_is_never_500(client, name):
    base = BASE[name]
    for field in [*base, "options", "players", "target"]:
        for w in WEIRD:
            r = post_raw(client, "/api/v1/solve", json.dumps(dict(base, **{field: w})).encode())
            assert r.status_code in (200, 400), (field, w, r.status_code)
            if r.status_code == 400:
                assert r.get_json()["error"]["code"] in SPEC_CODES


def test_api_solve_huge_integer_is_400_not_500(client, app):
    """BUG: a JSON number with more than 4 300 digits raises ValueError (Python's int-string limit),
    which _json_body does not catch (it catches only JSONDecodeError): HTTP 500.
    Reproduce: curl -H 'Content-Type: application/json' --data '{"leader": 999…(5000 nines)}' /api/v1/solve"""
    r = post_raw(client, "/api/v1/solve", b'{"ruleset":"hokm","ask":"trick-winner","trump":"S",'
                 b'"trick":["AD","2S","KD","JS"],"leader":' + b"9" * 5000 + b"}")
    assert_api_400(r)
    no_rows(app)


@pytest.mark.parametrize("raw", [
    b'{"ruleset":"\\udce9"}',
    b'{"ruleset":"hokm","ask":"\\ud800"}',
    b'{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["AS"],"\\ud800":1}',
    b'{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["AS"],"options":{"\\ud800":1}}',
    b'{"ruleset":"all-fours","ask":"turn-up","card":"JD","options":{"low":"\\ud800"}}',
], ids=["ruleset", "ask", "field-name", "option-name", "option-value"])
def test_api_solve_lone_surrogate_is_400_not_500(client, raw):
    """BUG: a JSON string escape for a lone surrogate is echoed by _show() into the message; jsonify
    (ensure_ascii=False) then fails to encode the body as UTF-8: HTTP 500.
    Reproduce: curl -H 'Content-Type: application/json' --data '{"ruleset":"\\udce9"}' /api/v1/solve"""
    assert_api_400(post_raw(client, "/api/v1/solve", raw))


@pytest.mark.parametrize("raw", [b"NaN", (b'{"ruleset":"hokm","ask":"trick-winner","trump":"S",'
                                         b'"trick":["AD","2S","KD","JS"],"leader":NaN}')],
                         ids=["nan-top", "nan-field"])
def test_api_solve_nan_is_bad_json(client, raw):
    """BUG (low): NaN is not JSON; it is reported as "not float" / bad-field "not nan"."""
    err = assert_api_400(post_raw(client, "/api/v1/solve", raw), "bad-json")
    assert "float" not in err["message"]


@pytest.mark.parametrize(("raw", "ctype"), [
    (b"", "application/json"),
    (b"   ", "application/json"),
    (b"\xef\xbb\xbf{}", "application/json"),
    (b"\xff\xfe{", "application/json"),
    ('{"ruleset":"hokm"}'.encode("utf-16"), "application/json"),
    (b'{"ruleset":"hokm"}', "text/plain"),
    (b'{"ruleset":"hokm"}', "application/x-www-form-urlencoded"),
    (b'{"ruleset":"hokm"}', "multipart/form-data; boundary=x"),
    (b'{"ruleset":"hokm"}', ""),
    (b"[" * 60_000, "application/json"),
    (b"x" * 70_000, "application/json"),
])
def test_api_solve_bad_bodies_are_400_json(client, app, raw, ctype):
    r = post_raw(client, "/api/v1/solve", raw, ctype)
    assert r.status_code == 400, r.data[:200]
    assert r.is_json and r.get_json()["error"]["message"]
    no_rows(app)


@pytest.mark.parametrize("method", ["get", "put", "delete", "patch"])
def test_api_wrong_method_is_a_json_error_not_500(client, method):
    for url in ("/api/v1/solve", "/api/v1/exercises/quiz:x/answer"):
        r = send(client, method, url)
        assert 400 <= r.status_code < 500 and r.is_json and "error" in r.get_json()


# ================================================================================ HTTP: exercise API

def _refs_by_kind() -> dict[str, str]:
    out: dict[str, str] = {}
    for r in ("hokm", "all-fours", "trinidad"):
        for s in X.lesson_path(r).steps:
            for e in s.exercises:
                out.setdefault(e.kind, X.ref_of(e))
    return out


REFS = _refs_by_kind()


@pytest.mark.parametrize("ref", [
    "x", "..", "lesson:..:..", "lesson:%2e%2e:x", "..%2f..%2fetc%2fpasswd", "lesson:..%2F..%2Fetc:passwd",
    "quiz:", "quiz:nope", "gen:hokm:legal-cards:4:1", "gen:hokm:legal-cards:1:-1",
    "gen:hokm:legal-cards:1:99999999999", "gen:hokm:legal-cards:1:1e3", "gen:chess:legal-cards:1:1",
    "gen:hokm:turn-up:1:1", "lesson:" + "a" * 300 + ":b", "%00", "lesson:x:y:z:w:v", "%E2%80%AE", "quiz:%F0%9F%82%A1",
])
def test_api_forged_exercise_ids(client, app, ref):
    r = send(client, "get", f"/api/v1/exercises/{ref}")
    assert r.status_code in (400, 404) and r.is_json and "error" in r.get_json()
    r = post_raw(client, f"/api/v1/exercises/{ref}/answer", b'{"answer": 0}')
    assert r.status_code in (400, 404) and r.is_json and "error" in r.get_json()
    no_rows(app)


ANSWERS = [None, True, 1, -1, 1.5, 10**30, "", "x", "AS", [], [None], [1], [["AS"]], [{"a": 1}], {}, {"a": 1},
           "9" * 100, ["AS"] * 100, {"trick_winners": "x"}, {"trick_winners": [None]},
           {"trick_winners": [10**20]}, {"high": "x", "low": None, "jack": None, "game": None},
           {"high": 5, "low": 0, "jack": 0, "game": 0}, {"points": "x"}, {"awards": 1}, [0, "x"], [10**40, 1],
           "\u202eAS", ["ZZ"], ["1S"], ["AS", "AS"]]


@pytest.mark.parametrize("kind", sorted(REFS))
def test_api_malformed_answers_of_every_kind_are_400_or_graded(client, app, kind):
    """Answers of the wrong shape for the kind (or for another kind) never give 500 and never write."""
    url = f"/api/v1/exercises/{REFS[kind]}/answer"
    for a in ANSWERS:
        r = post_raw(client, url, json.dumps({"answer": a}).encode())
        assert r.status_code in (200, 400), (a, r.status_code, r.data[:200])
        if r.status_code == 400:
            assert r.get_json()["error"]["message"]
    for raw in (b"[]", b"", b'{"answer": 1, "extra": 2}', b'{"answer": 1, "lang": "xx"}', b'{"answers": 1}'):
        assert_api_400(post_raw(client, url, raw))
    no_rows(app)


@pytest.mark.parametrize("kind", sorted(REFS))
def test_api_answer_huge_integer_is_400_not_500(client, app, kind):
    """BUG: `{"answer": 999…(5000 digits)}` -> ValueError in json.loads, uncaught: HTTP 500."""
    r = post_raw(client, f"/api/v1/exercises/{REFS[kind]}/answer", b'{"answer": ' + b"9" * 5000 + b"}")
    assert_api_400(r)
    no_rows(app)


@pytest.mark.parametrize("raw", [b'{"answer": ["\\ud800"]}', b'{"answer": "\\ud800"}', b'{"answer": ["\\udce9S"]}'],
                         ids=["list", "string", "card-like"])
def test_api_answer_lone_surrogate_card_is_400_not_500(client, app, raw):
    """BUG: a legal-cards answer holding a lone surrogate: BadInput("%(card)s is not a card") echoes it,
    then error_response's jsonify cannot encode it; the error handler itself raises and the server
    answers a bare 500 ("code": "error"). Reproduce:
    curl -H 'Content-Type: application/json' --data '{"answer":["\\ud800"]}' \
         /api/v1/exercises/lesson:hokm-suits-equal:colour-2/answer"""
    r = post_raw(client, f"/api/v1/exercises/{REFS['legal-cards']}/answer", raw)
    assert_api_400(r)
    no_rows(app)


@pytest.mark.parametrize("lang", [5, True, ["en"], {"x": 1}])
def test_api_answer_lang_of_the_wrong_type_is_bad_field(client, app, lang):
    """BUG (minor): a non-string "lang" is silently ignored (the answer is graded in the cookie language);
    every other malformed field is bad-field."""
    r = post_raw(client, f"/api/v1/exercises/{REFS['trick-winner']}/answer",
                 json.dumps({"answer": 0, "lang": lang}).encode())
    assert_api_400(r, "bad-field")


def test_api_public_view_of_every_exercise_has_no_answer(client):
    leak_keys = {"legal", "winner", "expect", "why", "awards", "trick_winners", "scores_after", "result",
                 "next_hakem", "winner_team", "match_winner", "game_points", "redeal", "hand_size", "runs",
                 "verdict", "correct", "expected"}
    refs = [X.ref_of(e) for r in ("hokm", "all-fours", "trinidad") for s in X.lesson_path(r).steps
            for e in s.exercises]
    refs += [X.ref_of(q) for r in ("hokm", "all-fours", "trinidad") for q in X.quiz_questions(r)]

    def keys(o):
        if isinstance(o, dict):
            for k, v in o.items():
                yield k
                yield from keys(v)
        elif isinstance(o, list):
            for v in o:
                yield from keys(v)

    for ref in refs:
        r = send(client, "get", f"/api/v1/exercises/{ref}")
        assert r.status_code == 200, ref
        found = set(keys(r.get_json())) & leak_keys
        assert not found, (ref, found)
