"""Rules audit: the engine against shared/rules/RULES.md and shared/spec/solve-format.md.

Every expected value below was worked out by hand from RULES.md (§1 rule points, §3.2 exact
definitions, §3.3 defaults/options, §3.4 decisions K1-K27) and the contract's "Edge rules", and
cross-checked against an independent reference implementation kept outside the repository. None
of them was copied from an engine answer. The comment or id of each case names the rule point.

Seats are in order of play (seat s+1 plays right after seat s); with 4 players a side is the team
seat % 2, otherwise a side is a seat. All Fours / Trinidad: the seat after the dealer leads trick 1.

All Fours / Trinidad legal plays, turn-up, make-trump and K11 are in test_rules_audit_allfours,
hand-score in test_rules_audit_hand_score; the helpers they share are here.
"""

from __future__ import annotations

import pytest

from tutor.solve import answer

HOKM = {"ruleset": "hokm"}
AF = {"ruleset": "all-fours"}
TT = {"ruleset": "trinidad"}


def run(scenario: dict) -> dict:
    """The answer without the free-form ``why`` (not part of the audited contract)."""
    out = dict(answer(scenario))
    out.pop("why", None)
    return out


def error_code(scenario: dict) -> str | None:
    out = answer(scenario)
    return out.get("error", {}).get("code")


def pick(out: dict, keys) -> dict:
    return {k: out.get(k) for k in keys}


# ============================================================================ Hokm: legal plays
# §3.2 "Hokm: no lead yet → any card; else if the hand holds the led suit → only led-suit cards;
# else any card". H14 (trump does not lift the duty), H15 (void: any card), H19 (trump led).
HOKM_LEGAL = [
    pytest.param("H", ["3C", "AH"], ["10C"], ["3C"], id="H14-spec-example"),
    pytest.param("H", ["3D", "AH", "KH", "2C"], ["10C"], ["2C"], id="H14-holding-trump-no-excuse"),
    pytest.param("H", ["3D", "AH", "KS"], ["10C"], ["3D", "AH", "KS"], id="H15-void-any-card"),
    pytest.param("D", ["3H", "AS", "KC"], ["10D", "2S"], ["3H", "AS", "KC"], id="H4-same-colour-is-not-the-suit"),
    pytest.param("H", ["3D", "AH", "KH", "2C"], ["10H"], ["AH", "KH"], id="H19-trump-led-must-trump"),
    pytest.param("H", ["3D", "2C"], ["10H", "JH"], ["3D", "2C"], id="H19-trump-led-no-trump-any"),
    pytest.param("H", ["3D", "2C", "5H"], [], ["3D", "2C", "5H"], id="H19-lead-any-incl-trump"),
    pytest.param("S", ["2S", "KD", "4D"], ["AD", "3S", "QD"], ["KD", "4D"], id="H14-led-suit-is-first-card"),
]


@pytest.mark.parametrize("trump,hand,trick,legal", HOKM_LEGAL)
def test_hokm_legal_plays(trump, hand, trick, legal):
    assert run({**HOKM, "ask": "legal-plays", "trump": trump, "hand": hand, "trick": trick}) == {"legal": legal}


# ============================================================================ trick winner
# H16 / C22 / T16: highest trump if any trump was played, else highest card of the suit led;
# other suits (even aces) cannot win. ``leader`` shifts the seat numbers.
TRICK_WINNER = [
    pytest.param(HOKM, 4, "S", ["AD", "2S", "KD", "JS"], 0, 3, "JS", id="H16-spec-example"),
    pytest.param(HOKM, 4, "S", ["AD", "2C", "KD", "AH"], 0, 0, "AD", id="H16-off-suit-ace-cannot-win"),
    pytest.param(HOKM, 4, "S", ["5D", "2C", "KD", "AH"], 2, 0, "KD", id="H16-leader-2"),
    pytest.param(HOKM, 4, "S", ["5D", "2S", "KD", "3S"], 3, 2, "3S", id="H18-highest-trump-of-two-ruffs"),
    pytest.param(AF, 2, "H", ["KD", "AS"], 1, 1, "KD", id="C22-2p"),
    pytest.param({**AF, "players": 3}, 3, "H", ["KD", "AD", "2H"], 1, 0, "2H", id="C22-3p-lowest-trump-wins"),
    pytest.param({**AF, "players": 4}, 4, "H", ["KD", "AS", "2C", "3C"], 3, 3, "KD", id="C22-4p"),
    pytest.param(TT, 4, "H", ["KD", "AS", "QD", "AD"], 2, 1, "AD", id="T16-no-trump"),
    pytest.param(TT, 4, "H", ["KD", "AS", "QD", "2H"], 2, 1, "2H", id="T16-trump"),
]


@pytest.mark.parametrize("base,n,trump,trick,leader,seat,card", TRICK_WINNER)
def test_trick_winner(base, n, trump, trick, leader, seat, card):
    assert run({**base, "ask": "trick-winner", "trump": trump, "trick": trick, "leader": leader}) == {
        "winner": seat, "card": card}


# ============================================================================ Hokm: round-score
# §3.2 "Hokm round value": W first to 7, t the other team's tricks: 1 if t > 0; if t = 0, 2 when W
# holds the hakem (kot), 3 when it does not (hakem-kot). H25/K12: hakem stays if his team won,
# else the next seat in play order (the hakem's right). H24/K14: match to 7 (or 3), reaching or
# exceeding the target wins.
ROUND_SCORE = [
    pytest.param(0, [7, 3], None, None, (0, 1, "win", 0), None, id="H23-win"),
    pytest.param(0, [7, 0], None, None, (0, 2, "kot", 0), None, id="H23-kot"),
    pytest.param(0, [0, 7], None, None, (1, 3, "hakem-kot", 1), None, id="H23-hakem-kot-next-right"),
    pytest.param(1, [0, 7], None, None, (1, 2, "kot", 1), None, id="H23-kot-team1"),
    pytest.param(1, [7, 0], None, None, (0, 3, "hakem-kot", 2), None, id="H23-hakem-kot-team0"),
    pytest.param(2, [4, 7], None, None, (1, 1, "win", 3), None, id="H25-lose-next-right"),
    pytest.param(3, [7, 6], None, None, (0, 1, "win", 0), None, id="H25-seat3-wraps-to-0"),
    pytest.param(3, [6, 7], None, None, (1, 1, "win", 3), None, id="H25-hakem-stays"),
    pytest.param(0, [7, 1], [6, 2], None, (0, 1, "win", 0), ([7, 2], 0), id="H24-six-plus-normal-win"),
    pytest.param(0, [0, 7], [6, 4], None, (1, 3, "hakem-kot", 1), ([6, 7], 1), id="H24-hakem-kot-wins-match"),
    pytest.param(0, [7, 0], [4, 0], None, (0, 2, "kot", 0), ([6, 0], None), id="H24-not-yet"),
    pytest.param(0, [7, 0], [5, 0], None, (0, 2, "kot", 0), ([7, 0], 0), id="H24-kot-ends-early"),
    pytest.param(0, [0, 7], [1, 0], 3, (1, 3, "hakem-kot", 1), ([1, 3], 1), id="K14-target3-exceed"),
    pytest.param(0, [7, 2], [1, 0], 3, (0, 1, "win", 0), ([2, 0], None), id="K14-target3-not-yet"),
]


@pytest.mark.parametrize("hakem,team_tricks,scores,target,expected,match", ROUND_SCORE)
def test_hokm_round_score(hakem, team_tricks, scores, target, expected, match):
    sc = {**HOKM, "ask": "round-score", "hakem": hakem, "team_tricks": team_tricks}
    if scores is not None:
        sc["scores"] = scores
    if target is not None:
        sc["target"] = target
    out = run(sc)
    assert (out["winner_team"], out["points"], out["result"], out["next_hakem"]) == expected
    if match is None:
        assert "scores_after" not in out
    else:
        assert (out["scores_after"], out["match_winner"]) == match


@pytest.mark.parametrize("team_tricks", [[7, 7], [8, 2], [6, 5], [0, 0]], ids=lambda t: f"{t[0]}-{t[1]}")
def test_hokm_round_score_impossible_counts(team_tricks):
    # spec round-score: no team on exactly 7, both on 7, or total over 13 → impossible-state.
    assert error_code({**HOKM, "ask": "round-score", "hakem": 0, "team_tricks": team_tricks}) == "impossible-state"


# ============================================================================ Hokm: round-playout
# Hakem leads trick 1; each winner leads the next (H17). Round stops at 7 (H20, K13); with
# stop_at_seven false every trick counts but the result is the one decided at the first 7.
WIN = [["AS", "2S", "3S", "4S"], ["KS", "5S", "6S", "7S"], ["QS", "8S", "9S", "10S"], ["2D", "AD", "3D", "4D"],
       ["5D", "KD", "6D", "7D"], ["2C", "3C", "AC", "4C"], ["KC", "5C", "6C", "7C"], ["8D", "QD", "9D", "10D"],
       ["8C", "9C", "QC", "10C"], ["JD", "2H", "JS", "JC"]]
WIN_WINNERS = [0, 0, 0, 1, 2, 0, 0, 1, 3, 0]
AFTER_END = ["3H", "4H", "5H", "6H"]  # led by seat 0, won by seat 3 (6H)
OPP_SEVEN = [["2S", "AS", "3S", "4S"], ["KS", "5S", "6S", "7S"], ["QS", "8S", "9S", "10S"], ["AD", "2D", "3D", "4D"],
             ["KD", "5D", "6D", "7D"], ["QD", "8D", "9D", "10D"], ["AC", "2C", "3C", "4C"]]
LEAD_SEVEN = [["AS", "2S", "3S", "4S"], ["KS", "5S", "6S", "7S"], ["AD", "2D", "3D", "4D"], ["KD", "5D", "6D", "7D"],
              ["AC", "2C", "3C", "4C"], ["KC", "5C", "6C", "7C"], ["QC", "8C", "9C", "10C"],
              ["2H", "AH", "3H", "4H"], ["5H", "6H", "7H", "8H"], ["9H", "10H", "JH", "QH"]]

PLAYOUT = [
    pytest.param(0, WIN, True, {"trick_winners": WIN_WINNERS, "team_tricks": [7, 3], "winner_team": 0, "points": 1,
                                "result": "win", "next_hakem": 0}, id="H20-win-7-3"),
    pytest.param(0, [*WIN, AFTER_END], False,
                 {"trick_winners": [*WIN_WINNERS, 3], "team_tricks": [7, 4], "winner_team": 0, "points": 1,
                  "result": "win", "next_hakem": 0}, id="K13-play-on-counts-every-trick"),
    pytest.param(0, OPP_SEVEN, True, {"trick_winners": [1] * 7, "team_tricks": [0, 7], "winner_team": 1, "points": 3,
                                      "result": "hakem-kot", "next_hakem": 1}, id="H23-hakem-kot-playout"),
    pytest.param(1, OPP_SEVEN, True, {"trick_winners": [2] * 7, "team_tricks": [7, 0], "winner_team": 0, "points": 3,
                                      "result": "hakem-kot", "next_hakem": 2}, id="H23-hakem-kot-hakem1"),
    pytest.param(0, LEAD_SEVEN[:7], True, {"trick_winners": [0] * 7, "team_tricks": [7, 0], "winner_team": 0,
                                           "points": 2, "result": "kot", "next_hakem": 0}, id="H22-kot-7-0"),
    pytest.param(0, LEAD_SEVEN, False, {"trick_winners": [0] * 7 + [1, 0, 3], "team_tricks": [8, 2], "winner_team": 0,
                                        "points": 2, "result": "kot", "next_hakem": 0},
                 id="K13-kot-stays-kot-when-played-on"),
    pytest.param(0, WIN[:5], True, {"trick_winners": [0, 0, 0, 1, 2], "team_tricks": [4, 1], "winner_team": None,
                                    "points": None, "result": None, "next_hakem": None}, id="edge-unfinished"),
    pytest.param(0, WIN[:5], False, {"trick_winners": [0, 0, 0, 1, 2], "team_tricks": [4, 1], "winner_team": None,
                                     "points": None, "result": None, "next_hakem": None},
                 id="edge-unfinished-play-on"),
]


@pytest.mark.parametrize("hakem,tricks,stop,expected", PLAYOUT)
def test_hokm_round_playout(hakem, tricks, stop, expected):
    out = run({**HOKM, "ask": "round-playout", "hakem": hakem, "trump": "H", "tricks": tricks,
               "options": {"stop_at_seven": stop}})
    assert pick(out, expected) == expected


PLAYOUT_ERRORS = [
    # spec: tricks after the round ended (stop_at_seven true) → impossible-state (H20).
    pytest.param([*WIN, AFTER_END], "impossible-state", id="H20-trick-after-end"),
    # spec: a play shown illegal by the transcript (did not follow, later plays the suit) (H14).
    pytest.param([["AS", "2S", "3S", "4H"], ["5S", "6S", "7S", "8S"]], "illegal-play", id="H14-revoke-shown"),
    # H19: trump led, seat 2 plays a diamond, later shows a trump.
    pytest.param([["2H", "3H", "4D", "5H"], ["6D", "7D", "9D", "AH"]], "illegal-play", id="H19-trump-revoke-shown"),
    pytest.param([["AS", "2S", "3S"]], "bad-field", id="edge-wrong-card-count"),
    pytest.param([["AS", "2S", "3S", "4S"], ["AS", "5S", "6S", "7S"]], "duplicate-card", id="edge-duplicated-card"),
]


@pytest.mark.parametrize("tricks,code", PLAYOUT_ERRORS)
def test_hokm_round_playout_errors(tricks, code):
    assert error_code({**HOKM, "ask": "round-playout", "hakem": 0, "trump": "H", "tricks": tricks}) == code


def test_hokm_revoke_message_names_trick_and_seat():
    out = answer({**HOKM, "ask": "round-playout", "hakem": 0, "trump": "H",
                  "tricks": [["AS", "2S", "3S", "4H"], ["5S", "6S", "7S", "8S"]]})
    msg = out["error"]["message"]
    assert "trick 1" in msg and "seat 3" in msg


def aw(*items):
    return [{"category": c, "side": s, "points": p} for c, s, p in items]


# ============================================================================ error codes per ask
ERRORS = [
    pytest.param({"ruleset": "bridge", "ask": "turn-up", "card": "JS"}, "unknown-ruleset", id="unknown-ruleset"),
    pytest.param({**HOKM, "ask": "turn-up", "card": "JS"}, "unknown-ask", id="hokm-has-no-turn-up"),
    pytest.param({**HOKM, "ask": "make-trump", "dealer": 0, "turn_ups": ["5H"], "decision": "stand"}, "unknown-ask",
                 id="hokm-has-no-make-trump"),
    pytest.param({**AF, "ask": "round-score", "hakem": 0, "team_tricks": [7, 0]}, "unknown-ask",
                 id="all-fours-has-no-round-score"),
    pytest.param({**TT, "ask": "round-playout", "hakem": 0, "trump": "H", "tricks": []}, "unknown-ask",
                 id="trinidad-has-no-round-playout"),
    pytest.param({**HOKM, "ask": "legal-plays", "trump": "H", "hand": ["3D"], "trick": ["AS", "2H", "3S", "4S"]},
                 "bad-field", id="legal-plays-full-trick"),
    pytest.param({**HOKM, "ask": "legal-plays", "trump": "H", "hand": [], "trick": ["AS"]}, "bad-field",
                 id="legal-plays-empty-hand"),
    pytest.param({**AF, "ask": "legal-plays", "trump": "H", "hand": ["KD"], "trick": ["9C", "2D"]}, "bad-field",
                 id="legal-plays-2p-full-trick"),
    pytest.param({**AF, "ask": "legal-plays", "trump": "H", "hand": ["KD", "9H"], "trick": ["9H"]}, "duplicate-card",
                 id="legal-plays-card-in-hand-and-trick"),
    pytest.param({**AF, "ask": "legal-plays", "trump": "H", "hand": ["KD"], "trick": ["9C"],
                  "options": {"no_undertrump": True}}, "bad-field", id="option-ruleset-lacks"),
    pytest.param({**TT, "ask": "legal-plays", "trump": "H", "hand": ["KD"], "trick": ["9C"],
                  "options": {"gift_may_win": False}}, "bad-field", id="trinidad-has-no-gift-option"),
    pytest.param({**AF, "ask": "legal-plays", "trump": "H", "hand": ["KD"], "trick": ["9C"],
                  "options": {"void_rule": "sometimes"}}, "bad-field", id="option-unknown-value"),
    pytest.param({**HOKM, "ask": "trick-winner", "trump": "S", "trick": ["5D", "2S", "KD"]}, "bad-field",
                 id="trick-winner-wrong-length"),
    pytest.param({**HOKM, "ask": "trick-winner", "trump": "S", "trick": ["5D", "2S", "KD", "4D"], "leader": 4},
                 "bad-field", id="trick-winner-leader-range"),
    pytest.param({**HOKM, "ask": "trick-winner", "trump": "S", "trick": ["5D", "2S", "KD", "5D"]},
                 "duplicate-card", id="trick-winner-duplicate"),
    pytest.param({**HOKM, "ask": "trick-winner", "trump": "S", "trick": ["5D", "2S", "KD", "1D"]}, "bad-card",
                 id="trick-winner-bad-card"),
    pytest.param({**HOKM, "ask": "round-score", "hakem": 4, "team_tricks": [7, 0]}, "bad-field",
                 id="round-score-hakem-range"),
    pytest.param({**HOKM, "ask": "round-score", "hakem": 0, "team_tricks": [7, 2], "target": 7,
                  "options": {"target": 3}}, "bad-field", id="target-twice-different"),
    pytest.param({**HOKM, "ask": "round-score", "hakem": 0, "team_tricks": [7, 2], "players": 3}, "bad-field",
                 id="hokm-players-3"),
    pytest.param({**TT, "ask": "turn-up", "card": "JD", "players": 3}, "bad-field", id="trinidad-players-3"),
    pytest.param({**AF, "ask": "turn-up", "card": "JD", "players": 5}, "bad-field", id="all-fours-players-5"),
    pytest.param({**TT, "ask": "turn-up"}, "bad-field", id="turn-up-missing-card"),
    pytest.param({**TT, "ask": "turn-up", "card": "ZZ"}, "bad-card", id="turn-up-bad-card"),
    pytest.param({**AF, "ask": "legal-plays", "trump": "H", "hand": ["KD"], "trick": ["9C"], "bogus": 1},
                 "bad-field", id="unknown-field"),
    pytest.param([1, 2], "bad-json", id="not-an-object"),
]


@pytest.mark.parametrize("scenario,code", ERRORS)
def test_error_codes(scenario, code):
    assert error_code(scenario) == code
