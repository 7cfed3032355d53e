"""The table editor's engine endpoint (``POST /api/v1/table/check``) and the "Ask the rules" page
without script: answers equal ``tutor solve``'s, every problem is flagged at the field that causes
it, in the user's language, and bad input is a 400 JSON error (never a 500)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from web_support import counted, csrf_of, make_app, one_app_per_module

from tutor import i18n
from tutor.cli import main as tutor_main
from tutor.engine.rulesets import RULESETS
from tutor.web import exercises as X
from tutor.web.editor import check, editor_config

URL = "/api/v1/table/check"


app = one_app_per_module()


def ask(client, scenario, lang="en", **extra):
    resp = client.post(URL, json={"scenario": scenario, "lang": lang, **extra})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def quiz_scenarios():
    """Every authored quiz scenario of every ruleset (each ask of the three games)."""
    out = []
    for ruleset in RULESETS:
        for q in X.quiz_questions(ruleset):
            out.append(q.scenario_copy())
    return out


def test_answers_equal_tutor_solve_for_every_quiz_scenario(client, tmp_path, capsys):
    scenarios = quiz_scenarios()
    assert {s["ruleset"] for s in scenarios} == set(RULESETS)
    assert len({(s["ruleset"], s["ask"]) for s in scenarios}) >= 10
    lines = tmp_path / "all.jsonl"
    lines.write_text("".join(json.dumps(s) + "\n" for s in scenarios))
    assert tutor_main(["solve", str(lines)]) == 0
    solved = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(solved) == len(scenarios)
    for scenario, want in zip(scenarios, solved, strict=True):
        got = ask(client, scenario)
        assert got["ok"] is True and got["errors"] == {}, (scenario, got["errors"])
        assert got["answer"] == {k: v for k, v in want.items() if k != "why"}, scenario
        assert [{k: r[k] for k in ("code", "rule", "params")} for r in got["why"]] == want["why"]
        players = RULESETS[scenario["ruleset"]].players_of(scenario)
        with i18n.using("en"):
            texts = i18n.render_reasons(want["why"], you=0, players=players, ruleset=scenario["ruleset"])
        assert [r["text"] for r in got["why"]] == texts


@pytest.mark.parametrize("lang", i18n.LANGUAGES[1:])
def test_reasons_and_facts_in_the_requested_language(client, lang):
    scenario = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"], "trick": ["10C"]}
    got = ask(client, scenario, lang)
    with i18n.using(lang):
        want = i18n.render_reason(got["why"][0], you=0, players=4, ruleset="hokm")
        card = i18n.card_label("3C")
    assert got["why"][0]["text"] == want and got["why"][0]["code"] == "must-follow-suit"
    assert got["facts"][0]["field"] == "legal" and got["facts"][0]["value"] == card
    assert got["facts"][0]["label"] != "Cards that may be played"  # translated


def test_trick_winner_facts_and_leaders(client):
    got = ask(client, {"ruleset": "all-fours", "ask": "trick-winner", "players": 2, "trump": "D",
                       "trick": ["KS", "2D"], "leader": 1})
    assert got["answer"] == {"winner": 0, "card": "2D"}
    assert got["leaders"] == [1]
    facts = {f["field"]: f["value"] for f in got["facts"]}
    assert facts == {"winner": "you", "card": "two of diamonds"}


def test_legal_plays_leader_is_the_seat_before_the_bottom_seat(client):
    got = ask(client, {"ruleset": "trinidad", "ask": "legal-plays", "trump": "S", "hand": ["2H"], "trick": ["3H", "4H"]})
    # as learners are seated (legal-cards: the seat to play): seat 0 led, seat 1 followed, and the
    # learner at the bottom is seat 2 (shown as "seat 3"), next to play
    assert got["leaders"] == [0] and got["you"] == 2
    assert got["seats"][2]["who"] == "you" and got["seats"][0]["number"] == "seat 1"


# ----------------------------------------------------------------------------- field errors

def errors_of(client, scenario, lang="en", **extra):
    got = ask(client, scenario, lang, **extra)
    return got, got["errors"]


def test_duplicate_card_is_flagged_where_it_is_placed_the_second_time(client):
    got, errors = errors_of(client, {"ruleset": "hokm", "ask": "legal-plays", "trump": "S",
                                     "hand": ["2S", "9D", "QH"], "trick": ["9D"]})
    assert set(errors) == {"trick[0]"} and got["ok"] is False and got["answer"] is None
    assert errors["trick[0]"] == ("Placed twice: the nine of diamonds is already in The hand of the player to move.")
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2S", "2S"]})
    assert set(errors) == {"hand[1]"}


def test_a_card_in_two_tricks_names_the_trick(client):
    tricks = [["AS", "2S", "3S", "4S"], ["5S", "AS", "7S", "8S"]]
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "round-playout", "hakem": 0, "trump": "S",
                                   "tricks": tricks}, "fa")
    assert set(errors) == {"tricks[1][1]"}
    with i18n.using("fa"):
        assert i18n.card_label("AS") in errors["tricks[1][1]"]
        assert i18n.fmt_number(1) in errors["tricks[1][1]"]


def test_impossible_deal_too_many_cards_in_a_hand(client):
    hand = ["AS", "KS", "QS", "JS", "10S", "9S", "8S"]
    _, errors = errors_of(client, {"ruleset": "all-fours", "ask": "legal-plays", "trump": "S", "hand": hand})
    assert errors == {"hand": "Too many cards: a hand here holds at most 6, not 7."}
    hand14 = [f"{r}{s}" for s in "SH" for r in ("A", "K", "Q", "J", "10", "9", "8")]
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": hand14}, "fa")
    with i18n.using("fa"):
        assert i18n.fmt_number(13) in errors["hand"] and i18n.fmt_number(14) in errors["hand"]


@pytest.mark.parametrize(("scenario", "path"), [
    ({"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD"]}, "trick"),
    ({"ruleset": "trinidad", "ask": "legal-plays", "trump": "S", "hand": ["2H"], "trick": ["3H", "4H", "5H", "6H"]},
     "trick"),
    ({"ruleset": "all-fours", "ask": "hand-score", "dealer": 0, "trump": "S",
      "tricks": [["AS", "2S"], ["3S", "4S", "5S"]]}, "tricks[1]"),
])
def test_wrong_trick_length(client, scenario, path):
    _, errors = errors_of(client, scenario)
    assert set(errors) - {"tricks"} == {path}  # (a hand of 2 tricks is also not a whole hand)
    assert errors[path].startswith("A trick ")


@pytest.mark.parametrize(("lang", "players", "sizes"), [("en", 2, (6, 9, 12, 15, 18, 21)), ("fa", 4, (6, 9, 12)),
                                                         ("te", 4, (6, 9, 12))])
def test_a_hand_score_needs_a_whole_hand_of_tricks(client, lang, players, sizes):
    tricks = [["AS", "2S", "3S", "4S"][:players]]
    got, errors = errors_of(client, {"ruleset": "trinidad", "ask": "hand-score", "dealer": 0, "trump": "S",
                                     "players": players, "tricks": tricks}, lang)
    with i18n.using(lang):
        n = i18n.join_list([i18n.fmt_number(k) for k in sizes], "or")
        want = i18n.gettext("A whole hand is %(n)s tricks here; %(have)s are placed.", n=n, have=i18n.fmt_number(1))
        assert want != "A whole hand is %(n)s tricks here; %(have)s are placed." or lang == "en"
    assert errors == {"tricks": want} and got["answer"] is None


def test_trick_length_in_persian_uses_persian_digits(client):
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S"]}, "fa")
    assert "۴" in errors["trick"] and "۲" in errors["trick"] and "trick" not in errors["trick"]


def test_answer_key_that_disagrees_with_the_engine(client):
    scenario = {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}
    got, errors = errors_of(client, scenario, kind="legal-cards", expect={"legal": ["2H", "KH", "5C"]})
    assert got["answer"] == {"legal": ["2H", "KH"]} and got["ok"] is False
    assert errors == {"expect.legal": "The answer key says two of hearts, king of hearts, and five of clubs, "
                                      "but the engine says two of hearts and king of hearts."}
    got, errors = errors_of(client, scenario, kind="legal-cards", expect={"legal": ["KH", "2H"]})
    assert errors == {} and got["ok"] is True
    got, errors = errors_of(client, {"ruleset": "trinidad", "ask": "turn-up", "card": "JD"}, "bg",
                            kind="turn-up", expect={"points": 1})
    assert got["answer"]["points"] == 3 and list(errors) == ["expect.points"]
    with i18n.using("bg"):
        assert errors["expect.points"] == i18n.gettext(
            "The answer key says %(key)s, but the engine says %(engine)s.", key="1", engine="3")


def test_a_kind_that_does_not_take_the_ask(client):
    _, errors = errors_of(client, {"ruleset": "trinidad", "ask": "turn-up", "card": "JD"}, kind="legal-cards")
    assert list(errors) == ["ask"]


def test_illegal_play_in_a_transcript_is_flagged_at_its_trick(client):
    # seat 1 shows void in hearts in trick 1 (plays a spade), then plays a heart in trick 2
    tricks = [["AH", "2S", "3H", "4H"], ["5H", "6H", "7H", "8H"]]
    got, errors = errors_of(client, {"ruleset": "hokm", "ask": "round-playout", "hakem": 0, "trump": "C",
                                     "tricks": tricks})
    assert got["error"]["code"] == "illegal-play"
    (path,) = errors
    assert re.fullmatch(r"tricks\[[01]\]", path)
    assert errors[path].startswith("An illegal play: ")


def test_missing_fields_seats_and_options(client):
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "round-score", "hakem": 5})
    assert set(errors) == {"hakem", "team_tricks"}
    _, errors = errors_of(client, {"ruleset": "all-fours", "ask": "turn-up", "card": "JD",
                                   "options": {"low": "won"}})
    assert set(errors) == {"options.low", "options"}
    _, errors = errors_of(client, {"ruleset": "all-fours", "ask": "turn-up", "card": "JD", "players": 5})
    assert set(errors) == {"players"}
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "turn-up", "card": "JD"})
    assert set(errors) == {"ask"}
    _, errors = errors_of(client, {"ruleset": "chess", "ask": "turn-up"})
    assert set(errors) == {"ruleset"}
    _, errors = errors_of(client, {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["1Z"]})
    assert set(errors) == {"hand[0]"}


def test_field_errors_come_from_the_engine_checks_the_solve_contract_would_refuse(client):
    """Every scenario the editor passes without field errors is one tutor solve answers, and every
    one it flags is one tutor solve refuses (or a disagreeing answer key)."""
    from tutor.solve import answer

    cases = [
        {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2S"], "trick": ["2S"]},
        {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD"]},
        {"ruleset": "all-fours", "ask": "legal-plays", "trump": "S", "hand": ["AS"] * 1 + ["KS", "QS", "JS", "9S", "8S", "7S"]},
        {"ruleset": "trinidad", "ask": "make-trump", "dealer": 0, "turn_ups": ["JD"], "decision": "stand"},
        {"ruleset": "hokm", "ask": "round-score", "hakem": 0, "team_tricks": [7, 7]},
        {"ruleset": "all-fours", "ask": "hand-score", "dealer": 0, "trump": "S", "tricks": [["AS", "2S"]]},
    ]
    for scenario in cases:
        got = check(scenario)
        refused = "error" in answer(scenario)
        assert bool(got["errors"]) == refused, (scenario, got["errors"])


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize(("body", "code"), [
    ("{bad", "bad-json"),
    ("NaN", "bad-json"),
    ("[1, 2]", "bad-field"),
    ('{"lang": "en"}', "bad-field"),
    ('{"scenario": {}, "answer": 1}', "bad-field"),
    ('{"scenario": {}, "kind": "chess"}', "bad-field"),
    ('{"scenario": {}, "expect": [1]}', "bad-field"),
    ('{"scenario": {}, "lang": "xx"}', "bad-field"),
])
def test_bad_body_is_400_json(client, body, code):
    resp = client.post(URL, data=body, content_type="application/json")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == code


def test_wrong_content_type_is_400_json(client):
    resp = client.post(URL, data="scenario=1", content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "bad-json"


@pytest.mark.parametrize("scenario", [None, 1, "x", [], {"ruleset": 1}, {"ruleset": "hokm", "ask": []},
                                      {"ruleset": "hokm", "ask": "legal-plays", "hand": {"a": 1}, "trick": 5},
                                      {"ruleset": "hokm", "ask": "round-playout", "tricks": [1, [None]]},
                                      {"ruleset": "trinidad", "ask": "hand-score", "options": [1], "scores": "x"}])
def test_any_scenario_value_gets_field_errors_never_a_500(client, scenario):
    got = ask(client, scenario)
    assert got["ok"] is False and got["errors"]


def test_openapi_documents_the_check_and_its_answers_match_the_schema(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    op = doc["paths"][URL]["post"]
    assert op["operationId"] == "checkTable" and {"200", "400", "429"} <= set(op["responses"])
    assert op["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/TableCheckRequest"}
    schema = {"$ref": "#/components/schemas/TableCheck", "components": doc["components"]}
    resolver_doc = {**schema}
    for scenario in [*quiz_scenarios()[:30], {"ruleset": "hokm", "ask": "legal-plays", "hand": ["2S", "2S"]}]:
        body = ask(client, scenario, "fa")
        jsonschema.validate(body, resolver_doc)
    for name, example in op["requestBody"]["content"]["application/json"]["examples"].items():
        jsonschema.validate(example["value"], {"$ref": "#/components/schemas/TableCheckRequest",
                                               "components": doc["components"]})
        assert client.post(URL, json=example["value"]).status_code == 200, name


def test_check_is_rate_limited(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS={"table-check": counted("2/day")})
    c = app.test_client()
    body = {"scenario": {"ruleset": "trinidad", "ask": "turn-up", "card": "JD"}}
    assert [c.post(URL, json=body).status_code for _ in range(2)] == [200, 200]
    resp = c.post(URL, json=body)
    assert resp.status_code == 429 and int(resp.headers["Retry-After"]) > 0
    assert resp.get_json()["error"]["code"] == "too-many-requests"


# ----------------------------------------------------------------------------- the page without script

def test_editor_config_comes_from_the_registries():
    with i18n.using("fa"):
        cfg = editor_config()
    assert [r["name"] for r in cfg["rulesets"]] == list(RULESETS)
    assert cfg["lang"] == "fa" and cfg["digits"] == "۰۱۲۳۴۵۶۷۸۹"  # the registry's, for the script's numbers
    assert len(cfg["cards"]) == 52 and cfg["cards"][0]["code"] == "AS" and cfg["cards"][-1]["code"] == "2C"
    with i18n.using("fa"):
        assert cfg["cards"][0]["label"] == i18n.card_label("AS")
    hokm = cfg["rulesets"][0]
    assert [o["name"] for o in hokm["options"]] == list(RULESETS["hokm"].option_names()[:len(hokm["options"])])
    fields = {a["ask"]: [f["name"] for f in a["fields"]] for a in hokm["asks"]}
    assert fields["first-lead"] == ["hakem"]  # the other game's seat field is left out
    af = {a["ask"]: [f["name"] for f in a["fields"]] for a in cfg["rulesets"][1]["asks"]}
    assert af["first-lead"] == ["dealer"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_ask_page_is_linked_and_works_without_script(client, lang):
    home = client.get(f"/{lang}/").get_data(as_text=True)
    assert f'href="/{lang}/ask"' in home
    page = client.get(f"/{lang}/ask")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'name="scenario"' in html and "data-config='" in html
    scenario = {"ruleset": "all-fours", "ask": "legal-plays", "trump": "D", "hand": ["3S", "9D", "JH"], "trick": ["KS"]}
    resp = client.post(f"/{lang}/ask", data={"csrf_token": csrf_of(html), "scenario": json.dumps(scenario)})
    out = resp.get_data(as_text=True)
    assert resp.status_code == 200
    got = check(scenario)
    with i18n.using(lang):
        text = i18n.render_reason(got["why"][0], you=0, players=2, ruleset="all-fours")
        legal = i18n.cards_label(["3S", "9D"])
    from markupsafe import escape
    assert str(escape(text)) in out and str(escape(legal)) in out


def test_ask_page_flags_bad_json_beside_the_field_and_keeps_the_text(client):
    html = client.get("/en/ask").get_data(as_text=True)
    resp = client.post("/en/ask", data={"csrf_token": csrf_of(html), "scenario": '{"ruleset": "hokm",'})
    out = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert 'aria-invalid="true"' in out and "This is not JSON" in out and "{&#34;ruleset&#34;: &#34;hokm&#34;," in out
    resp = client.post("/en/ask", data={"csrf_token": csrf_of(html),
                                        "scenario": '{"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2S", "2S"]}'})
    out = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Placed twice: the two of spades" in out


def test_ask_form_needs_its_csrf_token(client):
    resp = client.post("/en/ask", data={"scenario": "{}"})
    assert resp.status_code == 400
