"""Rules audit: the engine against shared/rules/RULES.md and shared/spec/solve-format.md.

Every expected value below was worked out by hand from RULES.md (§1 rule points, §3.2 exact
definitions, §3.3 defaults/options, §3.4 decisions K1-K27) and the contract's "Edge rules", and
cross-checked against an independent reference implementation kept outside the repository. None
of them was copied from an engine answer. The comment or id of each case names the rule point.

Seats are in order of play (seat s+1 plays right after seat s); with 4 players a side is the team
seat % 2, otherwise a side is a seat. All Fours / Trinidad: the seat after the dealer leads trick 1.
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


# ============================================================================ All Fours / Trinidad: legal plays
# §3.2: trump led → trumps if any, else any; plain suit led and held → led suit ∪ trumps; void →
# any card (must_trump: trumps only if held). Trinidad no_undertrump (K22): a player who still
# holds the led suit may not play a trump below the highest trump already in the trick.
AF_LEGAL = [
    pytest.param(AF, {}, "H", ["KD", "3C", "AH", "10C"], ["9C"], ["3C", "AH", "10C"], id="C20-follow-or-trump"),
    pytest.param(AF, {}, "H", ["KD", "3S", "AH", "10D"], ["9C"], ["KD", "3S", "AH", "10D"], id="C21-void-free"),
    pytest.param(AF, {"void_rule": "must_trump"}, "H", ["KD", "3S", "AH", "10D"], ["9C"], ["AH"],
                 id="K20-must-trump-void"),
    pytest.param(AF, {"void_rule": "must_trump"}, "H", ["KD", "3S", "10D"], ["9C"], ["KD", "3S", "10D"],
                 id="K20-must-trump-no-trump-any"),
    pytest.param(AF, {"void_rule": "must_trump"}, "H", ["KD", "3C", "AH", "10C"], ["9C"], ["3C", "AH", "10C"],
                 id="K20-must-trump-holder-of-led-suit"),
    pytest.param(AF, {}, "H", ["KD", "3C", "AH", "10H"], ["9H"], ["AH", "10H"], id="C20-trump-led"),
    pytest.param(AF, {}, "H", ["KD", "3C"], ["9H"], ["KD", "3C"], id="C20-trump-led-none-held"),
    pytest.param({**AF, "players": 3}, {}, "H", ["KD", "3C", "2H"], ["9C", "2D"], ["3C", "2H"], id="C20-3p"),
    pytest.param(TT, {}, "H", ["KD", "3C", "2H", "AH"], ["9C", "5H"], ["3C", "2H", "AH"], id="T15-follow-or-trump"),
    pytest.param(TT, {}, "H", ["KD", "3S", "2D", "4H"], ["9H"], ["4H"], id="T14-trump-led"),
    pytest.param(TT, {}, "H", ["KD", "3S", "2H", "4H"], ["9C"], ["KD", "3S", "2H", "4H"], id="K1-void-any"),
    pytest.param(TT, {"void_rule": "must_trump"}, "H", ["KD", "3S", "2H", "4H"], ["9C"], ["2H", "4H"],
                 id="K1-option-must-trump"),
    pytest.param(TT, {"no_undertrump": True}, "H", ["KD", "3C", "2H", "AH"], ["9C", "5H"], ["3C", "AH"],
                 id="K22-no-undertrump"),
    pytest.param(TT, {"no_undertrump": True}, "H", ["KD", "3C", "2H", "4H"], ["9C", "5H", "8H"], ["3C"],
                 id="K22-only-lower-trumps"),
    pytest.param(TT, {"no_undertrump": True}, "H", ["KD", "3S", "2H", "AH"], ["9C", "5H"], ["KD", "3S", "2H", "AH"],
                 id="K22-void-player-unrestricted"),
    pytest.param(TT, {"no_undertrump": True}, "H", ["KD", "3C", "2H", "4H"], ["9C"], ["3C", "2H", "4H"],
                 id="K22-no-trump-in-trick-yet"),
    pytest.param(TT, {"no_undertrump": True}, "H", ["KD", "3C", "2H", "4H"], ["5H", "8H"], ["2H", "4H"],
                 id="K22-not-when-trump-led"),
]


@pytest.mark.parametrize("base,options,trump,hand,trick,legal", AF_LEGAL)
def test_allfours_legal_plays(base, options, trump, hand, trick, legal):
    sc = {**base, "ask": "legal-plays", "trump": trump, "hand": hand, "trick": trick}
    if options:
        sc["options"] = options
    assert run(sc) == {"legal": legal}


# ============================================================================ turn-up / kick
# C8 (jack 1), C32 running scale (A 4, K 3, Q 2, J 1, nothing else), T7 kick (A 1, six 2, J 3),
# AFO Tobago (two 2 instead of the six).
TURN_UP = [
    *[pytest.param(AF, {}, c, p, id=f"C8-{c}") for c, p in [("JH", 1), ("AS", 0), ("KD", 0), ("6C", 0), ("2S", 0)]],
    *[pytest.param(AF, {"turnup_scale": "running"}, c, p, id=f"C32-{c}")
      for c, p in [("AH", 4), ("KS", 3), ("QD", 2), ("JC", 1), ("10H", 0), ("6S", 0)]],
    *[pytest.param(TT, {}, c, p, id=f"T7-{c}") for c, p in [("AH", 1), ("6S", 2), ("JD", 3), ("KC", 0), ("2H", 0)]],
    *[pytest.param(TT, {"kick_scale": "tobago"}, c, p, id=f"AFO-tobago-{c}")
      for c, p in [("AH", 1), ("2S", 2), ("6D", 0), ("JC", 3)]],
]


@pytest.mark.parametrize("base,options,card,points", TURN_UP)
def test_turn_up(base, options, card, points):
    assert run({**base, "ask": "turn-up", "card": card, "options": options}) == {"points": points}


# ============================================================================ make-trump
# Stand (C9/T8); beg + give: classic gift one point per opposing party (C11, K5), Trinidad "take
# one" to the beggar's side (T9); beg + run: refused turn-up out of play, 3 more each, repeat while
# the same suit (C13/C14, T10/T11); K9: only the card that fixes trump scores, but the FIRST turn-up
# always scores; §3.2 pack table: classic 2p 5 runs, 3p 3, 4p 2; Trinidad 4p 2, 2p 5; then redeal
# with points kept (C17, T12); hand size: classic 6 (C15), Trinidad 6 + 3 per run (T17, K16).
def mt(base, dealer, turn_ups, decision, choice=None, **extra):
    sc = {**base, "ask": "make-trump", "dealer": dealer, "turn_ups": turn_ups, "decision": decision, **extra}
    if choice is not None:
        sc["dealer_choice"] = choice
    return sc


def aw(*items):
    return [{"category": c, "side": s, "points": p} for c, s, p in items]


MAKE_TRUMP = [
    pytest.param(mt(AF, 0, ["5H"], "stand"), "H", [0, 0], 0, 6, False, aw(), id="C9-stand"),
    pytest.param(mt(AF, 1, ["JH"], "stand"), "H", [0, 1], 0, 6, False, aw(("turn-up", 1, 1)), id="C8-turned-jack"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give"), "H", [0, 1], 0, 6, False, aw(("gift", 1, 1)), id="C11-gift-2p"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3), "H", [0, 1, 1], 0, 6, False,
                 aw(("gift", 1, 1), ("gift", 2, 1)), id="K5-gift-3p-each-opponent"),
    pytest.param(mt(AF, 1, ["5H"], "beg", "give", players=3), "H", [1, 0, 1], 0, 6, False,
                 aw(("gift", 2, 1), ("gift", 0, 1)), id="K27-gift-order-from-dealers-left"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=4), "H", [0, 1], 0, 6, False, aw(("gift", 1, 1)),
                 id="K5-gift-4p-one-per-party"),
    pytest.param(mt(AF, 3, ["JH"], "beg", "give", players=4), "H", [1, 1], 0, 6, False,
                 aw(("turn-up", 1, 1), ("gift", 0, 1)), id="K5-turned-jack-then-gift-4p"),
    pytest.param(mt(AF, 0, ["5H", "7S"], "beg", "run"), "S", [0, 0], 1, 6, False, aw(), id="C13-run-new-suit"),
    pytest.param(mt(AF, 0, ["5H", "JS"], "beg", "run"), "S", [1, 0], 1, 6, False, aw(("turn-up", 0, 1)),
                 id="C16-fixing-jack-scores"),
    pytest.param(mt(AF, 0, ["JH", "2S"], "beg", "run"), "S", [1, 0], 1, 6, False, aw(("turn-up", 0, 1)),
                 id="K9-first-turn-up-scores-though-refused"),
    pytest.param(mt(AF, 0, ["5H", "JH", "3D"], "beg", "run"), "D", [0, 0], 2, 6, False, aw(),
                 id="K9-same-suit-jack-does-not-score"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH", "10H", "JD"], "beg", "run"), "D", [2, 0], 5, 6, False,
                 aw(("turn-up", 0, 1), ("turn-up", 0, 1)), id="pack-2p-fifth-run-fixes"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH", "10H", "9H"], "beg", "run"), None, [1, 0], 5, None, True,
                 aw(("turn-up", 0, 1)), id="C17-2p-redeal-points-kept"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH"], "beg", "run", players=3), None, [1, 0, 0], 3, None, True,
                 aw(("turn-up", 0, 1)), id="C17-3p-redeal-after-3-runs"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "JS"], "beg", "run", players=3), "S", [2, 0, 0], 3, 6, False,
                 aw(("turn-up", 0, 1), ("turn-up", 0, 1)), id="pack-3p-third-run-fixes"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH"], "beg", "run", players=4), None, [1, 0], 2, None, True,
                 aw(("turn-up", 0, 1)), id="C17-4p-redeal-after-2-runs"),
    pytest.param(mt(AF, 0, ["AH", "KH", "QS"], "beg", "run", options={"turnup_scale": "running"}), "S", [6, 0], 2, 6,
                 False, aw(("turn-up", 0, 4), ("turn-up", 0, 2)), id="C32-running-first-and-fixing"),
    pytest.param(mt(TT, 0, ["6H"], "stand"), "H", [2, 0], 0, 6, False, aw(("kick", 0, 2)), id="T7-kick-six"),
    pytest.param(mt(TT, 1, ["JH"], "stand"), "H", [0, 3], 0, 6, False, aw(("kick", 1, 3)), id="T7-kick-jack-team"),
    pytest.param(mt(TT, 0, ["5H"], "beg", "give"), "H", [0, 1], 0, 6, False, aw(("take-one", 1, 1)),
                 id="T9-take-one-beggars-team"),
    pytest.param(mt(TT, 1, ["AH"], "beg", "give"), "H", [1, 1], 0, 6, False, aw(("kick", 1, 1), ("take-one", 0, 1)),
                 id="T9-beggar-is-dealers-right"),
    pytest.param(mt(TT, 0, ["5H"], "beg", "give", players=2), "H", [0, 1], 0, 6, False, aw(("take-one", 1, 1)),
                 id="T9-take-one-2p"),
    pytest.param(mt(TT, 0, ["5H", "6S"], "beg", "run"), "S", [2, 0], 1, 9, False, aw(("kick", 0, 2)),
                 id="T10-run-hand-9"),
    pytest.param(mt(TT, 0, ["JH", "6H", "AS"], "beg", "run"), "S", [4, 0], 2, 12, False,
                 aw(("kick", 0, 3), ("kick", 0, 1)), id="K9-trinidad-same-suit-kick-no-score-hand-12"),
    pytest.param(mt(TT, 0, ["JH", "6H", "AS"], "beg", "run", options={"same_suit_kick_scores": True}), "S", [6, 0], 2,
                 12, False, aw(("kick", 0, 3), ("kick", 0, 2), ("kick", 0, 1)), id="K9-option-every-kick-scores"),
    pytest.param(mt(TT, 0, ["JH", "6H", "AH"], "beg", "run"), None, [3, 0], 2, None, True, aw(("kick", 0, 3)),
                 id="T12-4p-pack-exhausted"),
    pytest.param(mt(TT, 0, ["2H", "6S"], "beg", "run", options={"kick_scale": "tobago"}), "S", [2, 0], 1, 9, False,
                 aw(("kick", 0, 2)), id="AFO-tobago-first-kick-two"),
    pytest.param(mt(TT, 0, ["2H", "6H", "7H", "8H", "9H", "AS"], "beg", "run", players=2), "S", [1, 0], 5, 21, False,
                 aw(("kick", 0, 1)), id="K16-2p-hand-21"),
    pytest.param(mt(TT, 0, ["2H", "6H", "7H", "8H", "9H", "10H"], "beg", "run", players=2), None, [0, 0], 5, None,
                 True, aw(), id="T12-2p-pack-exhausted"),
]


@pytest.mark.parametrize("scenario,trump,points,runs,hand_size,redeal,awards", MAKE_TRUMP)
def test_make_trump(scenario, trump, points, runs, hand_size, redeal, awards):
    out = run(scenario)
    assert pick(out, ["trump", "points", "runs", "hand_size", "redeal"]) == {
        "trump": trump, "points": points, "runs": runs, "hand_size": hand_size, "redeal": redeal}
    assert out.get("awards", awards) == awards


MAKE_TRUMP_WINNER = [
    # K27: 3 players, both opponents on 6, gift → both reach 7; eldest (dealer's left) wins.
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3, scores=[2, 6, 6]), [2, 7, 7], 1, id="K27-dealer0"),
    pytest.param(mt(AF, 1, ["5H"], "beg", "give", players=3, scores=[6, 2, 6]), [7, 2, 7], 2, id="K27-dealer1"),
    pytest.param(mt(AF, 2, ["5H"], "beg", "give", players=3, scores=[6, 6, 2]), [7, 7, 2], 0, id="K27-dealer2"),
    # C12/K6 default: a gift may win the game.
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", scores=[2, 6]), [2, 7], 1, id="C12-gift-wins"),
    # K11 / spec edge: turned jack counts before the gift.
    pytest.param(mt(AF, 0, ["JH"], "beg", "give", scores=[6, 6]), [7, 7], 0, id="K11-turn-up-before-gift"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3, scores=[2, 5, 5], options={"gift_may_win": False}),
                 [2, 6, 6], None, id="K6-gift-allowed-when-not-winning"),
    pytest.param(mt(TT, 0, ["5H"], "beg", "give", scores=[3, 13]), [3, 14], 1, id="T9-take-one-may-win"),
    pytest.param(mt(TT, 0, ["JH"], "beg", "give", scores=[11, 13]), [14, 14], 0, id="K11-kick-before-take-one"),
    pytest.param(mt(TT, 0, ["6H", "JS"], "beg", "run", scores=[10, 0]), [15, 0], 0, id="T10-kicks-reach-target"),
    pytest.param(mt(TT, 0, ["JH", "6H", "7H"], "beg", "run", scores=[12, 0]), [15, 0], 0,
                 id="T12-points-kept-on-redeal-win"),
]


@pytest.mark.parametrize("scenario,scores_after,winner", MAKE_TRUMP_WINNER)
def test_make_trump_scores_and_winner(scenario, scores_after, winner):
    out = run(scenario)
    assert (out["scores_after"], out["winner"]) == (scores_after, winner)


MAKE_TRUMP_ERRORS = [
    # K6 option gift_may_win false: dealer must run → a gift is illegal-play (spec edge rules).
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3, scores=[2, 6, 6], options={"gift_may_win": False}),
                 "illegal-play", id="K27-gift-forbidden-both-on-6"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3, scores=[2, 6, 5], options={"gift_may_win": False}),
                 "illegal-play", id="K6-gift-forbidden-one-on-6"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=4, scores=[2, 6], options={"gift_may_win": False}),
                 "illegal-play", id="K6-gift-forbidden-4p"),
    pytest.param(mt(TT, 0, ["5H"], "beg", "give", scores=[3, 13], options={"beg_point_may_win": False}),
                 "illegal-play", id="T9-take-one-forbidden"),
    # §3.2 pack table: more turn-ups than the pack allows → impossible-state.
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH", "10H", "9H", "8H"], "beg", "run"), "impossible-state",
                 id="pack-2p-too-many"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH", "2S"], "beg", "run", players=3), "impossible-state",
                 id="pack-3p-too-many"),
    pytest.param(mt(AF, 0, ["JH", "AH", "KH", "QH"], "beg", "run", players=4), "impossible-state",
                 id="pack-4p-too-many"),
    pytest.param(mt(TT, 0, ["JH", "6H", "AH", "2S"], "beg", "run"), "impossible-state", id="pack-trinidad-4p"),
    pytest.param(mt(TT, 0, ["2H", "6H", "7H", "8H", "9H", "10H", "JH"], "beg", "run", players=2), "impossible-state",
                 id="pack-trinidad-2p"),
    # C14: the run stops at the first new suit; the refused suit last while the pack allows a run.
    pytest.param(mt(AF, 0, ["5H", "AS", "2D"], "beg", "run", players=4), "impossible-state", id="C14-after-new-suit"),
    pytest.param(mt(AF, 0, ["5H", "AH"], "beg", "run", players=4), "impossible-state", id="C14-must-keep-running"),
    pytest.param(mt(AF, 0, ["5H", "6H"], "stand"), "impossible-state", id="C9-stand-one-turn-up"),
    pytest.param(mt(AF, 0, ["5H"], "maybe"), "bad-field", id="edge-bad-decision"),
    pytest.param(mt(AF, 2, ["5H"], "stand"), "bad-field", id="edge-dealer-out-of-range"),
    pytest.param(mt(AF, 0, [], "stand"), "bad-field", id="edge-no-turn-up"),
    pytest.param(mt(AF, 0, ["5H", "5H"], "beg", "run"), "duplicate-card", id="edge-duplicate-turn-up"),
    pytest.param(mt(AF, 0, ["5Z"], "stand"), "bad-card", id="edge-bad-card"),
]


@pytest.mark.parametrize("scenario,code", MAKE_TRUMP_ERRORS)
def test_make_trump_errors(scenario, code):
    assert error_code(scenario) == code


# ============================================================================ hand-score
# §3.2: cards in play = the cards held when the first trick is led (= every card a seat plays).
# High/Low: holder of the highest/lowest trump in play (C23/C24, T18/T19); Low captured (C30);
# only one trump in play = High + Low (+ Jack if it is the jack, never hang jack); Jack: classic
# winner of the trick with it (C25), Trinidad 1 to the jack's team if it or the partner wins it,
# 3 "hang jack" to opponents who capture it (K2), option plain; Game 10/4/3/2/1, ties: classic
# dealer excluded then nearest the dealer's left (C27), option nobody (K4), Trinidad nobody (K3).
def hs(base, dealer, trump, tricks, **extra):
    return {**base, "ask": "hand-score", "dealer": dealer, "trump": trump, "tricks": tricks, **extra}


LONE_JACK_2P = [["JH", "2D"], ["2S", "3D"], ["3S", "4D"], ["4S", "5D"], ["5S", "7D"], ["6S", "8D"]]
NO_COUNT_2P = [["2S", "2D"], ["3S", "3D"], ["4S", "4D"], ["5S", "5D"], ["6S", "6D"], ["7S", "7D"]]
TIE_2P = [["10S", "2S"], ["2D", "10D"], ["3H", "4H"], ["3C", "5C"], ["6C", "7C"], ["8C", "9C"]]
TIE_3P_WITH_DEALER = [["2S", "10S", "3S"], ["2D", "10D", "3D"], ["4S", "5S", "6S"], ["4D", "5D", "6D"],
                      ["7S", "8S", "9S"], ["7D", "8D", "9D"]]
TIE_3P_NON_DEALERS = [["10S", "2S", "3S"], ["2D", "10D", "3D"], ["4S", "5S", "6S"], ["4D", "5D", "6D"],
                      ["7S", "8S", "9S"], ["7D", "8D", "9D"]]
TIE_3P_ALL_ZERO = [["2S", "3S", "4S"], ["5S", "6S", "7S"], ["2D", "3D", "4D"], ["5D", "6D", "7D"],
                   ["8S", "9S", "8D"], ["9D", "2C", "3C"]]
TIE_4P = [["10S", "2S", "3S", "4S"], ["2D", "10D", "3D", "4D"], ["5S", "6S", "7S", "8S"], ["5D", "6D", "7D", "8D"],
          ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]]
LOW_2P = [["2H", "AH"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"], ["8S", "9S"], ["2D", "3D"]]
HANG_4P = [["2S", "JH", "QH", "3S"], ["2D", "3D", "4D", "5D"], ["6D", "7D", "8D", "9D"], ["2C", "3C", "4C", "5C"],
           ["6C", "7C", "8C", "9C"], ["4H", "5H", "6H", "7H"]]
PARTNER_4P = [["2S", "JH", "3S", "KH"], ["2D", "3D", "4D", "5D"], ["6D", "7D", "8D", "9D"], ["2C", "3C", "4C", "5C"],
              ["6C", "7C", "8C", "9C"], ["4H", "5H", "6H", "7H"]]
LONE_JACK_4P = [["JH", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"], ["2D", "3D", "4D", "5D"], ["6D", "7D", "8D", "9D"],
                ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]]
VOID_FREE_2P = [["2S", "2D"], ["3S", "AH"], ["6D", "3D"], ["8D", "4S"], ["10D", "7S"], ["4D", "9S"]]
UNDERTRUMP_4P = [["2S", "5H", "4H", "6S"], ["2D", "3D", "4D", "5D"], ["6D", "7D", "8D", "9D"],
                 ["2C", "3C", "4C", "5C"], ["3S", "7S", "8S", "6C"], ["6H", "7H", "8H", "9H"]]

HAND_SCORE = [
    pytest.param(hs(AF, 0, "H", LONE_JACK_2P), [1] * 6,
                 aw(("high", 1, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 1, 1)), [0, 1], [0, 4],
                 id="3.2-only-one-trump-is-jack-classic"),
    pytest.param(hs(AF, 0, "H", NO_COUNT_2P), [1] * 6, aw(("game", 1, 1)), [0, 0], [0, 1],
                 id="C27-zero-tie-non-dealer"),
    pytest.param(hs(AF, 0, "H", NO_COUNT_2P, options={"game_tie": "nobody"}), [1] * 6, aw(), [0, 0], [0, 0],
                 id="K4-game-tie-nobody"),
    pytest.param(hs(TT, 0, "H", NO_COUNT_2P, players=2), [1] * 6, aw(), [0, 0], [0, 0],
                 id="K3-trinidad-tie-nobody-no-trump"),
    pytest.param(hs(AF, 1, "H", TIE_2P), [0, 1, 0, 1, 0, 1], aw(("high", 0, 1), ("low", 1, 1), ("game", 0, 1)),
                 [10, 10], [2, 1], id="C27-2p-tie-dealer-excluded"),
    pytest.param(hs(AF, 0, "C", TIE_3P_WITH_DEALER, players=3), [2, 0, 2, 1, 0, 2], aw(("game", 2, 1)),
                 [10, 0, 10], [0, 0, 1], id="C27-3p-tie-with-dealer"),
    pytest.param(hs(AF, 0, "C", TIE_3P_NON_DEALERS, players=3), [1, 2, 1, 0, 2, 1], aw(("game", 1, 1)),
                 [0, 10, 10], [0, 1, 0], id="C27-3p-tie-nearest-dealers-left"),
    pytest.param(hs(AF, 0, "C", TIE_3P_NON_DEALERS, players=3, options={"game_tie": "nobody"}), [1, 2, 1, 0, 2, 1],
                 aw(), [0, 10, 10], [0, 0, 0], id="K4-3p-nobody"),
    pytest.param(hs(AF, 2, "H", TIE_3P_ALL_ZERO, players=3), [2, 1, 0, 2, 0, 0], aw(("game", 0, 1)), [0, 0, 0],
                 [1, 0, 0], id="C27-3p-three-way-tie-eldest"),
    pytest.param(hs(AF, 0, "H", TIE_4P, players=4), [1, 2, 1, 0, 3, 2], aw(("game", 1, 1)), [10, 10], [0, 1],
                 id="C27-4p-tie-non-dealing-team"),
    pytest.param(hs(TT, 0, "H", TIE_4P), [1, 2, 1, 0, 3, 2], aw(), [10, 10], [0, 0], id="K3-trinidad-tie-nobody"),
    pytest.param(hs(AF, 0, "H", LOW_2P), [0, 1, 0, 1, 0, 1], aw(("high", 0, 1), ("low", 1, 1), ("game", 0, 1)),
                 [4, 0], [2, 1], id="C24-low-dealt-jack-not-in-play"),
    pytest.param(hs(AF, 0, "H", LOW_2P, options={"low": "captured"}), [0, 1, 0, 1, 0, 1],
                 aw(("high", 0, 1), ("low", 0, 1), ("game", 0, 1)), [4, 0], [3, 0], id="C30-low-captured"),
    pytest.param(hs(TT, 0, "H", HANG_4P), [3, 2, 1, 0, 3, 2],
                 aw(("high", 1, 1), ("low", 1, 1), ("hang-jack", 1, 3), ("game", 1, 1)), [0, 3], [0, 6],
                 id="K2-hang-jack"),
    pytest.param(hs(TT, 0, "H", HANG_4P, options={"jack": "plain"}), [3, 2, 1, 0, 3, 2],
                 aw(("high", 1, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 1, 1)), [0, 3], [0, 4],
                 id="K2-jack-plain"),
    pytest.param(hs(AF, 0, "H", HANG_4P, players=4), [3, 2, 1, 0, 3, 2],
                 aw(("high", 1, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 1, 1)), [0, 3], [0, 4],
                 id="C25-classic-jack-to-captor"),
    pytest.param(hs(TT, 0, "H", PARTNER_4P), [0, 3, 2, 1, 0, 3],
                 aw(("high", 0, 1), ("low", 0, 1), ("jack", 0, 1), ("game", 0, 1)), [4, 0], [4, 0],
                 id="K2-jack-won-by-partner"),
    pytest.param(hs(TT, 0, "H", LONE_JACK_4P), [1, 0, 3, 2, 1, 0],
                 aw(("high", 1, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 1, 1)), [0, 1], [0, 4],
                 id="3.2-only-one-trump-is-jack-trinidad"),
    pytest.param(hs(AF, 0, "H", VOID_FREE_2P), [1, 0, 0, 0, 0, 0],
                 aw(("high", 0, 1), ("low", 0, 1), ("game", 0, 1)), [14, 0], [3, 0], id="C21-void-discard-legal"),
    pytest.param(hs(TT, 0, "H", UNDERTRUMP_4P), [2, 1, 0, 3, 1, 0], aw(("high", 0, 1), ("low", 1, 1)), [0, 0],
                 [1, 1], id="K22-undertrump-legal-by-default"),
]


@pytest.mark.parametrize("scenario,winners,awards,game_points,points", HAND_SCORE)
def test_hand_score(scenario, winners, awards, game_points, points):
    out = run(scenario)
    assert out == {"trick_winners": winners, "awards": awards, "game_points": game_points, "points": points}


HAND_SCORE_WINNER = [
    # §3.2 / spec edge: the first side to reach the target in counting order wins, even if later
    # categories overtake it. LOW_2P: High → side 0, Low → side 1, Game → side 0.
    pytest.param(hs(AF, 0, "H", LOW_2P, scores=[5, 6]), [7, 7], 1, id="C28-low-reaches-first"),
    pytest.param(hs(AF, 0, "H", LOW_2P, scores=[6, 6]), [8, 7], 0, id="C28-high-reaches-first"),
    pytest.param(hs(AF, 0, "H", LOW_2P, scores=[3, 6], target=11), [5, 7], None, id="C31-target-11"),
    pytest.param(hs(TT, 0, "H", HANG_4P, scores=[13, 10]), [13, 16], 1, id="T21-hang-jack-reaches-14"),
    pytest.param(hs(TT, 0, "H", UNDERTRUMP_4P, scores=[13, 13]), [14, 14], 0, id="K11-trinidad-high-first"),
    pytest.param(hs(TT, 0, "H", UNDERTRUMP_4P, scores=[12, 13]), [13, 14], 1, id="K11-trinidad-low-reaches-first"),
]


@pytest.mark.parametrize("scenario,scores_after,winner", HAND_SCORE_WINNER)
def test_hand_score_winner(scenario, scores_after, winner):
    out = run(scenario)
    assert (out["scores_after"], out["winner"]) == (scores_after, winner)


ILLEGAL = [
    # C20: holds the led suit, plays a non-trump of another suit.
    pytest.param(hs(AF, 0, "H", [["2S", "2D"], ["3S", "5S"], ["4S", "6S"], ["7S", "8S"], ["9S", "10S"],
                                 ["3D", "4D"]]), 1, 0, id="C20-not-following"),
    # C20/T14: trump led and a trump held.
    pytest.param(hs(AF, 0, "H", [["2H", "2D"], ["3S", "AH"], ["4S", "6S"], ["7S", "8S"], ["9S", "10S"],
                                 ["3D", "4D"]]), 1, 0, id="C20-trump-led-must-trump"),
    # K20 option must_trump: void in the led suit and holding a trump.
    pytest.param(hs(AF, 0, "H", VOID_FREE_2P, options={"void_rule": "must_trump"}), 1, 0, id="K20-must-trump"),
    pytest.param(hs(TT, 0, "H", VOID_FREE_2P, players=2, options={"void_rule": "must_trump"}), 1, 0,
                 id="K1-option-must-trump"),
    # K22 option: seat 3 holds spades (3S) and plays 4H under 5H.
    pytest.param(hs(TT, 0, "H", UNDERTRUMP_4P, options={"no_undertrump": True}), 1, 3, id="K22-undertrump"),
    # A later trick: seat 0 discards 2C on a spade lead in trick 3 while holding 7S.
    pytest.param(hs(AF, 0, "H", [["10S", "2S", "3S", "4S"], ["2D", "10D", "3D", "4D"], ["5S", "6S", "2C", "8S"],
                                 ["5D", "6D", "7D", "8D"], ["7S", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]],
                    players=4), 3, 0, id="C20-trick-3-seat-0"),
]


@pytest.mark.parametrize("scenario,trick,seat", ILLEGAL)
def test_hand_score_illegal_play_names_trick_and_seat(scenario, trick, seat):
    out = answer(scenario)
    assert out.get("error", {}).get("code") == "illegal-play", out
    msg = out["error"]["message"]
    assert f"trick {trick}," in msg or f"trick {trick} " in msg or msg.endswith(f"trick {trick}")
    assert f"seat {seat}" in msg


_DECK = [r + s for s in "SHDC" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
_T4 = [_DECK[4 * i:4 * i + 4] for i in range(13)]
_T2 = [_DECK[2 * i:2 * i + 2] for i in range(26)]

HAND_SCORE_ERRORS = [
    # spec edge: a hand with the wrong number of tricks → impossible-state (classic 6; Trinidad
    # 6/9/12 for 4 players, up to 21 for 2; K16).
    pytest.param(hs(AF, 0, "H", [["AH", "2H"]]), "impossible-state", id="edge-classic-1-trick"),
    pytest.param(hs(AF, 0, "H", []), "impossible-state", id="edge-classic-0-tricks"),
    pytest.param(hs(AF, 0, "C", _T4[:9], players=4), "impossible-state", id="C15-classic-9-tricks"),
    pytest.param(hs(TT, 0, "C", _T4[:7]), "impossible-state", id="K16-trinidad-7-tricks"),
    pytest.param(hs(TT, 0, "C", _T4), "impossible-state", id="K16-trinidad-4p-13-tricks"),
    pytest.param(hs(TT, 0, "C", _T2[:24], players=2), "impossible-state", id="K16-trinidad-2p-24-tricks"),
    pytest.param(hs(AF, 0, "H", [["AH", "2H", "3H"]]), "bad-field", id="edge-trick-wrong-length"),
    pytest.param(hs(AF, 0, "H", [["AH", "2H"], ["AH", "3H"]]), "duplicate-card", id="edge-duplicate"),
    pytest.param(hs(AF, 5, "H", [["AH", "2H"]]), "bad-field", id="edge-dealer-range"),
    pytest.param(hs(AF, 0, "H", [["AH", "2X"]]), "bad-card", id="edge-bad-card"),
]


@pytest.mark.parametrize("scenario,code", HAND_SCORE_ERRORS)
def test_hand_score_errors(scenario, code):
    assert error_code(scenario) == code


def test_hand_score_trinidad_two_players_21_tricks():
    # K16: two-player Trinidad after five runs: 21 tricks each (13 + 5 x 7 = 48 cards used).
    s1 = [r + "S" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]] + \
         [r + "D" for r in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
    s0 = [r + "C" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]] + \
         ["2D", "3D", "4D", "5D", "6D", "2H", "3H", "4H"]
    tricks = [[a, b] for a, b in zip(s1, s0, strict=True)]
    out = run(hs(TT, 0, "C", tricks, players=2))
    assert out["trick_winners"] == [0, 1] * 6 + [0] * 9
    # High AC and Low 2C held by seat 0; JC played by seat 1 in trick 10 (led by seat 0) wins it.
    assert out["awards"] == aw(("high", 0, 1), ("low", 0, 1), ("jack", 1, 1), ("game", 0, 1))
    assert out["points"] == [3, 1]


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


# ============================================================================ K11 vs the gift option
# RULES.md §3.2 "Winning": points are added the moment they arise (turned jack / kick during the
# deal, gift / take-one after a beg) and "the game ends as soon as a side reaches the target";
# K11: "Immediate win when the target is reached"; C8: the turned jack scores "at once", before the
# stand/beg decision (C9). So when the turned jack (kick) alone takes the dealer's side to the
# target, the dealer has already won: the later gift/take-one cannot "put an opponent out", and
# K6's option (dealer must run if the gift would put an opponent out) cannot make it illegal.
# Acceptable answers: the normal answer with winner = the dealer's side (as with the option on
# its default), or impossible-state (no beg after the game ended) - never illegal-play.
K11_GIFT = [
    pytest.param(mt(AF, 0, ["JH"], "beg", "give", scores=[6, 6], options={"gift_may_win": False}), 0,
                 id="K11-K6-turned-jack-already-won"),
    pytest.param(mt(AF, 1, ["JD"], "beg", "give", players=4, scores=[6, 6], options={"gift_may_win": False}), 1,
                 id="K11-K6-turned-jack-already-won-4p"),
    pytest.param(mt(TT, 0, ["JH"], "beg", "give", scores=[11, 13], options={"beg_point_may_win": False}), 0,
                 id="K11-T9-kick-already-won"),
]


@pytest.mark.parametrize("scenario,dealer_side", K11_GIFT)
def test_gift_option_after_turned_jack_won_the_game(scenario, dealer_side):
    out = answer(scenario)
    if "error" in out:
        assert out["error"]["code"] == "impossible-state", out
    else:
        assert out["winner"] == dealer_side, out
