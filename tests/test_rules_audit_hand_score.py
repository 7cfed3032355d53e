"""Audit of All Fours / Trinidad hand-score (High, Low, Jack, Game, ties) against RULES.md §3.2.
Helpers: test_rules_audit.
"""

from __future__ import annotations

import pytest
from test_rules_audit import AF, TT, aw, error_code, run

from tutor.solve import answer


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
