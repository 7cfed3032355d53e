"""The all-fours and trinidad asks of the solve contract (shared/spec/solve-format.md)."""

from __future__ import annotations

import pytest

from tutor.solve import answer, solve

AF = {"ruleset": "all-fours"}
TT = {"ruleset": "trinidad"}
HAND_A = [["AH", "2H"], ["KS", "QS"], ["10C", "JH"], ["10D", "4D"], ["7S", "9S"], ["3H", "5C"]]


def err(scenario: dict) -> tuple[str, str]:
    out = answer(scenario)
    assert "error" in out, out
    return out["error"]["code"], out["error"]["message"]


# --------------------------------------------------------------------------- legal-plays
def test_legal_plays_in_hand_order_canonical_with_why():
    out = solve({**AF, "ask": "legal-plays", "trump": "h", "hand": ["kd", "3♣", "AH", "T♣"], "trick": ["9c"]})
    assert out == {"legal": ["3C", "AH", "10C"], "why": [{"code": "follow-or-trump", "rule": "C20", "params": {
        "led": "C", "trump": "H", "cards": ["10C", "3C"]}}]}


def test_legal_plays_lead_and_void():
    assert solve({**TT, "ask": "legal-plays", "trump": "S", "hand": ["2H", "AS"]})["legal"] == ["2H", "AS"]
    out = solve({**TT, "ask": "legal-plays", "trump": "S", "hand": ["2H", "AS"], "trick": ["3D"]})
    assert out["legal"] == ["2H", "AS"] and out["why"][0]["code"] == "void-any-card"
    out = solve({**TT, "ask": "legal-plays", "trump": "S", "hand": ["2H", "AS"], "trick": ["3D"],
                 "options": {"void_rule": "must_trump"}})
    assert out["legal"] == ["AS"]


def test_legal_plays_trinidad_no_undertrump():
    sc = {**TT, "ask": "legal-plays", "trump": "H", "hand": ["3C", "2H", "AH"], "trick": ["10C", "5H", "6C"]}
    assert solve(sc)["legal"] == ["3C", "2H", "AH"]
    out = solve({**sc, "options": {"no_undertrump": True}})
    assert out["legal"] == ["3C", "AH"] and out["why"][0]["rule"] == "K22"


@pytest.mark.parametrize("scenario, code", [
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "trick": ["4C", "5C"]}, "bad-field"),
    ({**TT, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "trick": ["4C", "5C", "6C", "7C"]}, "bad-field"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": []}, "bad-field"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]}, "bad-field"),
    ({**AF, "ask": "legal-plays", "trump": "X", "hand": ["3C"]}, "bad-field"),  # malformed field (issue 7)
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "trick": ["3C"]}, "duplicate-card"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "players": 5}, "bad-field"),
    ({**TT, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "players": 3}, "bad-field"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "options": {"kick_scale": "tobago"}}, "bad-field"),
    ({**TT, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "options": {"low": "captured"}}, "bad-field"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "options": {"target": 9}, "target": 7},
     "bad-field"),
    ({**AF, "ask": "round-score", "hakem": 0, "team_tricks": [7, 0]}, "unknown-ask"),
    ({**AF, "ask": "legal-plays", "trump": "H", "hand": ["3C"], "dealer": 0}, "bad-field"),
])
def test_legal_plays_errors(scenario, code):
    assert err(scenario)[0] == code


def test_legal_plays_keep_all_allows_bigger_hands():
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]
    out = solve({**AF, "ask": "legal-plays", "trump": "H", "hand": hand, "options": {"run_hand_method": "keep-all"}})
    assert out["legal"] == hand
    assert len(solve({**TT, "ask": "legal-plays", "trump": "H", "hand": [*hand, "JC", "QC", "KC"]})["legal"]) == 12


# --------------------------------------------------------------------------- trick-winner, turn-up
def test_trick_winner():
    out = solve({**AF, "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S"], "leader": 1})
    assert out["winner"] == 0 and out["card"] == "2S" and out["why"][0]["code"] == "highest-trump-wins"
    out = solve({**TT, "ask": "trick-winner", "trump": "S", "trick": ["5D", "AC", "KD", "2H"], "leader": 2})
    assert (out["winner"], out["card"]) == (0, "KD")
    assert err({**TT, "ask": "trick-winner", "trump": "S", "trick": ["5D", "AC"]})[0] == "bad-field"
    assert err({**AF, "ask": "trick-winner", "trump": "S", "trick": ["5D", "AC"], "leader": 2})[0] == "bad-field"


@pytest.mark.parametrize("scenario, points", [
    ({**AF, "card": "JH"}, 1), ({**AF, "card": "AH"}, 0),
    ({**AF, "card": "AH", "options": {"turnup_scale": "running"}}, 4),
    ({**AF, "card": "QH", "options": {"turnup_scale": "running"}}, 2),
    ({**TT, "card": "6c"}, 2), ({**TT, "card": "JC"}, 3), ({**TT, "card": "AC"}, 1), ({**TT, "card": "2C"}, 0),
    ({**TT, "card": "2C", "options": {"kick_scale": "tobago"}}, 2),
    ({**TT, "card": "6C", "options": {"kick_scale": "tobago"}}, 0),
])
def test_turn_up(scenario, points):
    out = solve({**scenario, "ask": "turn-up"})
    assert out["points"] == points and len(out["why"]) == 1


def test_turn_up_why():
    assert solve({**AF, "ask": "turn-up", "card": "JD"})["why"] == [
        {"code": "turned-jack", "rule": "C8", "params": {"card": "JD", "points": 1}}]
    assert err({**AF, "ask": "turn-up", "card": "1D"})[0] == "bad-card"
    assert err({**AF, "ask": "turn-up"})[0] == "bad-field"
    assert err({"ruleset": "hokm", "ask": "turn-up", "card": "JD"})[0] == "unknown-ask"


# --------------------------------------------------------------------------- make-trump
def test_make_trump_stand_without_scores_has_no_winner_field():
    out = solve({**AF, "ask": "make-trump", "dealer": 1, "turn_ups": ["JC"], "decision": "stand"})
    assert {k: out[k] for k in ("trump", "points", "runs", "hand_size", "redeal")} == {
        "trump": "C", "points": [0, 1], "runs": 0, "hand_size": 6, "redeal": False}
    assert "winner" not in out and "scores_after" not in out


def test_make_trump_kick_that_wins_ends_the_game():
    """K11: the kick took side 0 to 14 and won at once, as in the state machine: a stand after it
    adds nothing; a beg (and the take-one it would bring) cannot follow."""
    sc = {**TT, "ask": "make-trump", "dealer": 0, "turn_ups": ["JC"], "scores": [11, 13]}
    out = solve({**sc, "decision": "stand"})
    assert out["points"] == [3, 0] and out["scores_after"] == [14, 13] and out["winner"] == 0
    assert answer({**sc, "decision": "beg", "dealer_choice": "give"})["error"]["code"] == "impossible-state"


@pytest.mark.parametrize("extra, code", [
    ({"turn_ups": ["5H", "6S"], "decision": "stand"}, "impossible-state"),
    ({"turn_ups": ["5H", "6H", "7H", "8H"], "decision": "beg", "dealer_choice": "run"}, "impossible-state"),
    ({"turn_ups": ["5H", "6H"], "decision": "beg", "dealer_choice": "run"}, "impossible-state"),
    ({"turn_ups": ["5H", "6S", "7H"], "decision": "beg", "dealer_choice": "run"}, "impossible-state"),
    ({"turn_ups": ["5H"], "decision": "beg", "dealer_choice": "run"}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "beg"}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "stand", "dealer_choice": "run"}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "maybe"}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "beg", "dealer_choice": "keep"}, "bad-field"),
    ({"turn_ups": ["5H", "5H"], "decision": "beg", "dealer_choice": "run"}, "duplicate-card"),
    ({"turn_ups": ["5H"], "decision": "stand", "scores": [14, 0]}, "impossible-state"),
    ({"turn_ups": ["5H"], "decision": "stand", "scores": [1, 2, 3]}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "stand", "dealer": 4}, "bad-field"),
    ({"turn_ups": ["5H"], "decision": "beg", "dealer_choice": "give", "scores": [0, 13],
      "options": {"beg_point_may_win": False}}, "illegal-play"),
])
def test_make_trump_errors(extra, code):
    assert err({**TT, "ask": "make-trump", "dealer": 0, **extra})[0] == code


def test_take_one_forbidden_message_names_the_option():
    code, msg = err({**TT, "ask": "make-trump", "dealer": 0, "turn_ups": ["5H"], "decision": "beg",
                     "dealer_choice": "give", "scores": [0, 13], "options": {"beg_point_may_win": False}})
    assert code == "illegal-play" and "beg_point_may_win" in msg and "side 1" in msg


def test_make_trump_redeal_answer():
    out = solve({**AF, "ask": "make-trump", "players": 4, "dealer": 0, "turn_ups": ["JH", "2H", "3H"],
                 "decision": "beg", "dealer_choice": "run", "scores": [1, 6]})
    assert {k: out[k] for k in ("trump", "points", "runs", "hand_size", "redeal", "scores_after", "winner")} == {
        "trump": None, "points": [1, 0], "runs": 2, "hand_size": None, "redeal": True, "scores_after": [2, 6],
        "winner": None}
    assert out["why"][-1] == {"code": "pack-exhausted", "rule": "C17", "params": {"runs": 2}}


def test_gift_may_win_false_is_illegal_play():
    sc = {**AF, "ask": "make-trump", "dealer": 0, "turn_ups": ["5H"], "decision": "beg", "dealer_choice": "give",
          "scores": [3, 6]}
    assert solve(sc)["winner"] == 1
    code, msg = err({**sc, "options": {"gift_may_win": False}})
    assert code == "illegal-play" and "side 1" in msg


# --------------------------------------------------------------------------- hand-score
def test_hand_score_full_answer():
    out = solve({**AF, "ask": "hand-score", "dealer": 0, "trump": "H", "tricks": HAND_A, "scores": [6, 4]})
    assert out["trick_winners"] == [1, 1, 0, 0, 1, 1]
    assert out["awards"] == [{"category": "high", "side": 1, "points": 1}, {"category": "low", "side": 0, "points": 1},
                             {"category": "jack", "side": 0, "points": 1}, {"category": "game", "side": 0, "points": 1}]
    assert out["game_points"] == [21, 9] and out["points"] == [3, 1]
    assert out["scores_after"] == [9, 5] and out["winner"] == 0
    assert [w["params"]["trick"] for w in out["why"][:6]] == [1, 2, 3, 4, 5, 6]
    assert out["why"][6] == {"code": "high-dealt", "rule": "C23", "params": {"card": "AH", "seat": 1, "side": 1}}
    assert out["why"][-1]["code"] == "target-reached"


def test_hand_score_top_level_target():
    out = solve({**AF, "ask": "hand-score", "dealer": 0, "trump": "H", "tricks": HAND_A, "scores": [8, 9],
                 "target": 11})
    assert out["scores_after"] == [11, 10] and out["winner"] == 0


def test_hand_score_illegal_play_names_trick_and_seat():
    tricks = [list(t) for t in HAND_A]
    tricks[1] = ["KS", "5C"]  # seat 0 holds QS and 7S but plays a club
    tricks[5] = ["3H", "QS"]
    code, msg = err({**AF, "ask": "hand-score", "dealer": 0, "trump": "H", "tricks": tricks})
    assert code == "illegal-play" and "trick 2, seat 0" in msg


@pytest.mark.parametrize("extra, code", [
    ({"tricks": HAND_A[:5]}, "impossible-state"),
    ({"tricks": [*HAND_A, ["2C", "3C"]]}, "impossible-state"),
    ({"tricks": [["AH", "2H", "3H"], *HAND_A[1:]]}, "bad-field"),
    ({"tricks": [["AH", "2H"], ["AH", "QS"], *HAND_A[2:]]}, "duplicate-card"),
    ({"tricks": "AH"}, "bad-field"),
    ({"trump": None}, "bad-field"),
    ({"dealer": 2}, "bad-field"),
    ({"scores": [7, 0]}, "impossible-state"),
])
def test_hand_score_errors(extra, code):
    sc = {**AF, "ask": "hand-score", "dealer": 0, "trump": "H", "tricks": HAND_A, **extra}
    sc = {k: v for k, v in sc.items() if v is not None}
    assert err(sc)[0] == code


def test_hand_score_keep_all_nine_tricks():
    tricks = [["2C", "3C"], ["4C", "5C"], ["6C", "7C"], ["8C", "9C"], ["10C", "JC"], ["QC", "KC"], ["AC", "2D"],
              ["3D", "4D"], ["5D", "6D"]]
    assert err({**AF, "ask": "hand-score", "dealer": 0, "trump": "S", "tricks": tricks})[0] == "impossible-state"
    out = solve({**AF, "ask": "hand-score", "dealer": 0, "trump": "S", "tricks": tricks,
                 "options": {"run_hand_method": "keep-all"}})
    assert out["trick_winners"] == [0, 1, 0, 1, 0, 1, 1, 0, 1]
    assert out["awards"] == [{"category": "game", "side": 0, "points": 1}] and out["game_points"] == [11, 9]


def test_trinidad_two_players_up_to_21_tricks():
    suits = ["C", "D", "H"]
    cards = [f"{r}{s}" for s in suits for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
    cards += ["2S", "3S", "4S"]
    tricks = [[cards[2 * i], cards[2 * i + 1]] for i in range(21)]
    out = solve({**TT, "ask": "hand-score", "players": 2, "dealer": 1, "trump": "S", "tricks": tricks})
    assert len(out["trick_winners"]) == 21 and out["trick_winners"][-2:] == [1, 0]
    assert [(a["category"], a["side"]) for a in out["awards"]] == [("high", 0), ("low", 1), ("game", 0)]
    assert sum(out["game_points"]) == 60 and out["points"] == [2, 1]
    assert err({**TT, "ask": "hand-score", "dealer": 1, "trump": "S",
                "tricks": tricks[:3]})[0] == "bad-field"
