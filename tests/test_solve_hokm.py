"""Hokm asks of the scenario contract (shared/spec/solve-format.md), the seed's worked examples,
exercises and sample round (tests/data/hokm_document.yaml), and every edge rule."""

from pathlib import Path

import pytest
import yaml

from tutor.engine.cards import Card, Suit, mask_of, parse_cards
from tutor.engine.errors import TutorError
from tutor.engine.hokm import ChooseTrump, HokmRound, Play
from tutor.solve import answer, solve, solve_text

DOC = yaml.safe_load((Path(__file__).parent / "data" / "hokm_document.yaml").read_text(encoding="utf-8"))
ITEMS = [item for section in DOC.values() for item in section]


def hokm(ask, **fields):
    return {"ruleset": "hokm", "ask": ask, **fields}


def err(scenario):
    a = answer(scenario)
    assert set(a) == {"error"}, a
    return a["error"]["code"], a["error"]["message"]


def code(scenario):
    return err(scenario)[0]


# -- the document ------------------------------------------------------------------------

def test_document_has_examples_exercises_and_sample_round():
    assert [len(DOC[k]) for k in ("worked_examples", "exercises", "sample_round")] == [12, 4, 4]
    assert [x["id"] for x in DOC["exercises"]] == ["H-01", "H-02", "H-03", "H-04"]


@pytest.mark.parametrize("item", ITEMS, ids=[x["id"] for x in ITEMS])
def test_document_scenarios(item):
    a = solve(item["scenario"])
    for key, value in item["expect"].items():
        assert a[key] == value, key
    if "why" in item:
        assert a["why"][:len(item["why"])] == item["why"]


def test_sample_round_hands_replay_legally():
    item = next(x for x in DOC["sample_round"] if x["id"] == "sample-playout")
    hands = [parse_cards(h) for h in item["hands"]]
    deck = [*(c for h in hands for c in h[:5]), *(c for h in hands for c in h[5:9]), *(c for h in hands for c in h[9:])]
    rd = HokmRound(0, deck=deck)
    assert rd.hands[0] == mask_of(parse_cards(["AH", "KH", "9H", "7S", "2D"]))  # the seed's first five
    rd.push(ChooseTrump(Suit.H))
    for trick in item["scenario"]["tricks"]:
        for c in trick:
            rd.push(Play(Card.parse(c)))
    assert rd.phase == "over"
    assert rd.trick_winners == item["expect"]["trick_winners"]
    assert rd.result.to_json() == {"winner_team": 0, "points": 1, "result": "win", "next_hakem": 0}


# -- legal-plays ----------------------------------------------------------------------------

def test_legal_plays_spec_example_and_hand_order():
    assert solve(hokm("legal-plays", trump="H", hand=["3C", "AH"], trick=["10C"])) == {
        "legal": ["3C"], "why": [{"code": "must-follow-suit", "rule": "H14", "params": {"led": "C", "cards": ["3C"]}}]}
    a = solve(hokm("legal-plays", trump="h", hand=["kc", "2H", "T♣", "3c"], trick=["9♣"]))
    assert a["legal"] == ["KC", "10C", "3C"]
    assert solve(hokm("legal-plays", trump="♥", hand=["3C", "AH"])) == {
        "legal": ["3C", "AH"], "why": [{"code": "lead-any", "rule": "H6", "params": {}}]}
    assert solve(hokm("legal-plays", trump="S", hand=["3C"], trick=[]))["legal"] == ["3C"]


@pytest.mark.parametrize(("scenario", "expected"), [
    (hokm("legal-plays", trump="H", hand=[], trick=["10C"]), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["3C"], trick=["10C", "2C", "4C", "5C"]), "bad-field"),
    (hokm("legal-plays", trump="H", trick=["10C"]), "bad-field"),
    (hokm("legal-plays", hand=["3C"], trick=["10C"]), "bad-field"),
    (hokm("legal-plays", trump="X", hand=["3C"]), "bad-field"),  # a malformed field value (issue 7)
    (hokm("legal-plays", trump=1, hand=["3C"]), "bad-field"),
    (hokm("legal-plays", trump="H", hand="3C"), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["1C"]), "bad-card"),
    (hokm("legal-plays", trump="H", hand=[3]), "bad-card"),
    (hokm("legal-plays", trump="H", hand=["3C", "3c"]), "duplicate-card"),
    (hokm("legal-plays", trump="H", hand=["3C", "AH"], trick=["3C"]), "duplicate-card"),
    (hokm("legal-plays", trump="H", hand=["3C"], trik=["2C"]), "bad-field"),
    (hokm("legal-plays", trump="H", hand=[f"{r}C" for r in "23456789"] + ["10C", "JC", "QC", "KC", "AC", "2D"]),
     "bad-field"),
])
def test_legal_plays_errors(scenario, expected):
    assert code(scenario) == expected


# -- trick-winner ---------------------------------------------------------------------------

def test_trick_winner_with_leader():
    assert solve(hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "JS"], leader=2)) == {
        "winner": 1, "card": "JS",
        "why": [{"code": "highest-trump-wins", "rule": "H16,H18", "params": {"card": "JS", "winner": 1, "trump": "S"}}]}


@pytest.mark.parametrize(("scenario", "expected"), [
    (hokm("trick-winner", trump="S", trick=["AD", "2S", "KD"]), "bad-field"),
    (hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "JS", "3C"]), "bad-field"),
    (hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "JS"], leader=4), "bad-field"),
    (hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "JS"], leader=True), "bad-field"),
    (hokm("trick-winner", trump="S", trick=["AD", "2S", "KD", "AD"]), "duplicate-card"),
])
def test_trick_winner_errors(scenario, expected):
    assert code(scenario) == expected


# -- round-score ----------------------------------------------------------------------------

def test_round_score_full_answer():
    assert solve(hokm("round-score", hakem=1, team_tricks=[7, 0], scores=[4, 2])) == {
        "winner_team": 0, "points": 3, "result": "hakem-kot", "next_hakem": 2,
        "scores_after": [7, 2], "match_winner": 0,
        "why": [
            {"code": "deal-tricks", "rule": "H20", "params": {"team": 0, "tricks": 7, "other_team": 1, "other": 0}},
            {"code": "round-hakem-kot", "rule": "H23,H22", "params": {"team": 0, "hakem": 1}},
            {"code": "hakem-passes-right", "rule": "K12", "params": {"hakem": 1, "next_hakem": 2, "team": 0}},
            {"code": "match-won", "rule": "H24", "params": {"team": 0, "score": 7, "target": 7}},
        ]}
    a = solve(hokm("round-score", hakem=1, team_tricks=[7, 5], scores=[4, 2]))
    assert (a["scores_after"], a["match_winner"], a["why"][-1]["code"]) == ([5, 2], None, "match-continues")
    assert "scores_after" not in solve(hokm("round-score", hakem=0, team_tricks=[7, 2]))


def test_round_score_target_forms():
    base = hokm("round-score", hakem=0, team_tricks=[7, 3], scores=[2, 0])
    assert solve({**base, "target": 3})["match_winner"] == 0
    assert solve({**base, "options": {"target": 3}})["match_winner"] == 0
    assert solve({**base, "target": 3, "options": {"target": 3}})["match_winner"] == 0
    assert solve(base)["match_winner"] is None
    assert code({**base, "target": 3, "options": {"target": 7}}) == "bad-field"
    assert code({**base, "target": 5}) == "bad-field"
    assert code({**base, "target": "7"}) == "bad-field"
    assert solve({**base, "options": {"stop_at_seven": False}})["points"] == 1


@pytest.mark.parametrize(("tricks", "expected"), [
    ([7, 7], "impossible-state"), ([6, 6], "impossible-state"), ([8, 5], "impossible-state"),
    ([7, 8], "impossible-state"), ([0, 0], "impossible-state"), ([13, 0], "impossible-state"),
    ([7, -1], "bad-field"), ([7, 14], "bad-field"), ([7], "bad-field"), ([7, 2, 0], "bad-field"),
    ([7, 2.0], "bad-field"), ("7-2", "bad-field"), ([True, 7], "bad-field"),
])
def test_round_score_counts(tricks, expected):
    assert code(hokm("round-score", hakem=0, team_tricks=tricks)) == expected


def test_round_score_messages_and_other_errors():
    assert err(hokm("round-score", hakem=0, team_tricks=[7, 7]))[1] == (
        "both teams cannot have 7 tricks: the round ends when the first team takes 7.")
    assert code(hokm("round-score", team_tricks=[7, 2])) == "bad-field"
    assert code(hokm("round-score", hakem=4, team_tricks=[7, 2])) == "bad-field"
    assert code(hokm("round-score", hakem=0, team_tricks=[7, 2], scores=[7, 0])) == "impossible-state"
    assert code(hokm("round-score", hakem=0, team_tricks=[7, 2], scores=[1, 2, 3])) == "bad-field"
    assert code(hokm("round-score", hakem=0, team_tricks=[7, 2], scores=[-1, 2])) == "bad-field"


# -- round-playout --------------------------------------------------------------------------

SAMPLE = next(x for x in DOC["sample_round"] if x["id"] == "sample-playout")["scenario"]


def test_round_playout_why():
    a = solve(SAMPLE)
    assert a["why"][0] == {"code": "highest-of-suit-led-wins", "rule": "H16,H3",
                           "params": {"card": "10C", "winner": 2, "led": "C", "trick": 1}}
    assert a["why"][6] == {"code": "highest-trump-wins", "rule": "H16,H18",
                           "params": {"card": "9H", "winner": 0, "trump": "H", "trick": 7}}
    assert [w["code"] for w in a["why"][9:]] == ["deal-tricks", "round-win", "hakem-stays"]
    assert a["why"][9] == {"code": "deal-tricks", "rule": "H20,H5", "params": {"team": 0, "tricks": 7, "other_team": 1, "other": 2}}
    a = solve({**SAMPLE, "scores": [6, 0]})
    assert (a["scores_after"], a["match_winner"], a["why"][-1]["code"]) == ([7, 0], 0, "match-won")


def test_round_playout_partial_transcript():
    a = solve({**SAMPLE, "tricks": SAMPLE["tricks"][:4]})
    assert a == {"trick_winners": [2, 3, 2, 0], "team_tricks": [3, 1], "winner_team": None, "points": None,
                 "result": None, "next_hakem": None, "why": a["why"]}
    assert a["why"][-1] == {"code": "round-not-decided", "rule": "H20", "params": {"tricks0": 3, "tricks1": 1}}
    assert solve({**SAMPLE, "tricks": []})["team_tricks"] == [0, 0]


def test_round_playout_trick_after_the_end():
    extra = [*SAMPLE["tricks"], ["4S", "6S", "10S", "QS"]]
    c, msg = err({**SAMPLE, "tricks": extra})
    assert c == "impossible-state"
    assert msg == "trick 10 was played after the round ended: team 0 had 7 tricks after trick 9."
    # the extra trick also shows a revoke (seat 0 showed no diamonds in trick 7): the round's end comes first
    assert code({**SAMPLE, "tricks": [*SAMPLE["tricks"], ["7D", "QS", "3D", "6S"]]}) == "impossible-state"
    c, msg = err({**SAMPLE, "tricks": [*SAMPLE["tricks"], ["7D", "QS", "3D", "6S"]],
                  "options": {"stop_at_seven": False}})
    assert c == "illegal-play"
    assert msg == ("illegal play in trick 7: seat 0 did not follow D, yet played 3D in trick 10, "
                   "so it held that suit and had to follow.")


def test_round_playout_play_out_option():
    rest = [["10S", "QS", "4S", "6S"], ["KS", "5S", "8S", "JS"], ["QH", "2H", "9S", "7D"], ["JD", "JH", "3D", "10D"]]
    a = solve({**SAMPLE, "tricks": SAMPLE["tricks"] + rest, "options": {"stop_at_seven": False}})
    assert a["trick_winners"][9:] == [3, 3, 3, 0]
    assert a["team_tricks"] == [8, 5]
    assert (a["winner_team"], a["points"], a["result"], a["next_hakem"]) == (0, 1, "win", 0)


def test_round_playout_revoke_names_trick_and_seat():
    # trick 1: seat 1 plays 2H on a club lead (no clubs shown), then plays 9C in trick 2
    tricks = [["6C", "2H", "10C", "7C"], ["2C", "QC", "8C", "9C"]]
    c, msg = err(hokm("round-playout", hakem=0, trump="S", tricks=tricks))
    assert c == "illegal-play"
    assert msg == ("illegal play in trick 1: seat 1 did not follow C, yet played 9C in trick 2, "
                   "so it held that suit and had to follow.")
    # a trump lead binds too (H19): seat 3 discards on a trump lead, later plays a trump
    tricks = [["AH", "2H", "3H", "2S"], ["KH", "4H", "5H", "6H"]]
    c, msg = err(hokm("round-playout", hakem=0, trump="H", tricks=tricks))
    assert c == "illegal-play" and "trick 1: seat 3 did not follow H" in msg


@pytest.mark.parametrize(("tricks", "expected"), [
    ([["6C", "9C", "10C"]], "bad-field"),
    ([["6C", "9C", "10C", "7C", "8C"]], "bad-field"),
    ([["6C", "9C", "10C", "7C"], ["6C", "2C", "3C", "4C"]], "duplicate-card"),
    ("6C 9C 10C 7C", "bad-field"),
    ([["6C", "9C", "10C", "ZZ"]], "bad-card"),
])
def test_round_playout_bad_transcripts(tricks, expected):
    assert code(hokm("round-playout", hakem=0, trump="H", tricks=tricks)) == expected


def test_round_playout_more_than_13_tricks():
    tricks = [[f"{r}{s}" for s in "SHDC"] for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]
    assert code(hokm("round-playout", hakem=0, trump="H", tricks=[*tricks, ["AS", "KS", "QS", "JS"]])) == "bad-field"


# -- common checks --------------------------------------------------------------------------

@pytest.mark.parametrize(("scenario", "expected"), [
    ([], "bad-json"),
    ("hokm", "bad-json"),
    ({}, "unknown-ruleset"),
    ({"ruleset": "bridge", "ask": "legal-plays"}, "unknown-ruleset"),
    ({"ruleset": "hokm"}, "unknown-ask"),
    (hokm("turn-up", card="JS"), "unknown-ask"),
    (hokm("make-trump"), "unknown-ask"),
    (hokm("legal-plays", trump="H", hand=["3C"], players=3), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["3C"], players="4"), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["3C"], options={"void_rule": "free"}), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["3C"], options={"stop_at_seven": "no"}), "bad-field"),
    (hokm("legal-plays", trump="H", hand=["3C"], options=[]), "bad-field"),
])
def test_common_errors(scenario, expected):
    assert code(scenario) == expected


def test_players_four_and_options_accepted():
    s = hokm("legal-plays", trump="H", hand=["3C"], players=4, options={"stop_at_seven": True, "target": 3})
    assert solve(s)["legal"] == ["3C"]


def test_solve_raises_and_text_forms():
    with pytest.raises(TutorError) as e:
        solve(hokm("round-score", hakem=0, team_tricks=[7, 7]))
    assert e.value.code == "impossible-state"
    with pytest.raises(TutorError) as e:
        solve_text("{")
    assert e.value.code == "bad-json"
    with pytest.raises(TutorError) as e:
        solve_text("[" * 100000)
    assert e.value.code == "bad-json"
    assert solve_text('{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["3C"]}')["legal"] == ["3C"]


def test_answer_never_raises_on_odd_values():
    odd = [None, 1, 1.5, "x", [], {"ruleset": None}, {"ruleset": ["hokm"]}, {"ruleset": "hokm", "ask": {}},
           hokm("legal-plays", trump={"s": 1}, hand=[None]), hokm("round-playout", hakem=0, trump="H", tricks=[None]),
           hokm("round-playout", hakem=0, trump="H", tricks=[[1, 2, 3, 4]]),
           hokm("round-score", hakem=0, team_tricks=[float("nan"), 7])]
    for o in odd:
        a = answer(o)
        assert "error" in a and a["error"]["code"] != "internal-error", (o, a)
