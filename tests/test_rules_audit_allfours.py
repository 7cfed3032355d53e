"""Audit of All Fours / Trinidad legal plays, turn-up and make-trump against RULES.md §3.2, and K11
against the gift option. Helpers: test_rules_audit.
"""

from __future__ import annotations

import pytest
from test_rules_audit import AF, TT, aw, error_code, pick, run

from tutor.solve import answer

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
    # K11: a turned jack that reaches the target wins at once; a stand after it adds nothing.
    pytest.param(mt(AF, 0, ["JH"], "stand", scores=[6, 6]), [7, 6], 0, id="K11-turn-up-wins-stand"),
    pytest.param(mt(AF, 0, ["5H"], "beg", "give", players=3, scores=[2, 5, 5], options={"gift_may_win": False}),
                 [2, 6, 6], None, id="K6-gift-allowed-when-not-winning"),
    pytest.param(mt(TT, 0, ["5H"], "beg", "give", scores=[3, 13]), [3, 14], 1, id="T9-take-one-may-win"),
    pytest.param(mt(TT, 0, ["JH"], "stand", scores=[11, 13]), [14, 13], 0, id="K11-kick-wins-stand"),
    # K11 with same_suit_kick_scores: a kick of the refused suit that wins ends the deal (no redeal).
    pytest.param(mt(TT, 0, ["5H", "6H"], "beg", "run", scores=[12, 0], options={"same_suit_kick_scores": True}),
                 [14, 0], 0, id="K11-refused-suit-kick-wins"),
    pytest.param(mt(TT, 0, ["6H", "JS"], "beg", "run", scores=[10, 0]), [15, 0], 0, id="T10-kicks-reach-target"),
    pytest.param(mt(TT, 0, ["5H", "6H", "7H"], "beg", "run", scores=[12, 0]), [12, 0], None,
                 id="T12-points-kept-on-redeal"),
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
    # K11: the game ended at the turn-up that reached the target, as in the state machine (no action
    # is possible after it): a beg, then a gift / take-one or a run, cannot follow.
    pytest.param(mt(AF, 0, ["JH"], "beg", "give", scores=[6, 6]), "impossible-state", id="K11-no-gift-after-win"),
    pytest.param(mt(TT, 0, ["JH"], "beg", "give", scores=[11, 13]), "impossible-state",
                 id="K11-no-take-one-after-win"),
    pytest.param(mt(TT, 0, ["6D"], "beg", "give", scores=[0, 1], options={"target": 2}), "impossible-state",
                 id="K11-six-kick-wins-no-take-one"),
    pytest.param(mt(TT, 0, ["JH", "6H", "7S"], "beg", "run", scores=[12, 0]), "impossible-state",
                 id="K11-no-run-after-win"),
    pytest.param(mt(TT, 0, ["5H", "6H", "7S"], "beg", "run", scores=[12, 0], options={"same_suit_kick_scores": True}),
                 "impossible-state", id="K11-no-turn-up-after-winning-kick"),
]


@pytest.mark.parametrize("scenario,code", MAKE_TRUMP_ERRORS)
def test_make_trump_errors(scenario, code):
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
