"""Trinidad All Fours engine (tutor.engine.trinidad): exact values from seeds 001/003 and RULES.md."""

from __future__ import annotations

import pytest
from allfours_worked import check_case, worked_cases

from tutor.engine import BadFieldError, IllegalPlayError
from tutor.engine.allfours_state import Action
from tutor.engine.cards import Card, Suit, mask_of, parse_cards
from tutor.engine.trinidad import Trinidad, TrinidadOptions


def C(*names: str) -> list[Card]:
    return parse_cards(list(names))


CASES = worked_cases("trinidad_hands.yaml")


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_worked_hand(case):
    check_case(case)


def test_worked_file_covers_hang_jack_redeal_and_two_players():
    ids = {i.rsplit("-", 1)[0] for i, _ in CASES}
    assert len(ids) >= 4
    assert {"hang-jack-counting-order", "redeal-kicks", "two-players-run-to-nine-only-one-trump"} <= ids


def test_defaults_rules_md_3_3():
    o = TrinidadOptions()
    assert (o.players, o.target, o.kick_scale, o.jack, o.void_rule, o.no_undertrump, o.same_suit_kick_scores,
            o.beg_point_may_win) == (4, 14, "standard", "hang", "free", False, False, True)


@pytest.mark.parametrize("kw", [{"players": 3}, {"kick_scale": "jack"}, {"jack": "hanged"},
                                {"no_undertrump": "yes"}, {"target": 1000}])
def test_bad_options(kw):
    with pytest.raises(BadFieldError):
        TrinidadOptions(**kw)


def test_kick_scales_t7():
    std, tob = Trinidad(), Trinidad(kick_scale="tobago")
    assert [std.turnup_points(Card.parse(x))[0] for x in ("AH", "6H", "JH", "2H", "KH", "10H")] == [1, 2, 3, 0, 0, 0]
    assert [tob.turnup_points(Card.parse(x))[0] for x in ("AH", "6H", "JH", "2H")] == [1, 0, 3, 2]
    assert sum(std.turnup_points(c)[0] for c in range(52)) == 24
    assert std.turnup_points(Card.parse("JS"))[1].rule == "T7"


def test_hand_sizes_k16():
    assert Trinidad().hand_sizes() == (6, 9, 12)
    assert Trinidad(players=2).hand_sizes() == (6, 9, 12, 15, 18, 21)
    assert Trinidad(players=2).make_trump(0, C("5H", "6H", "7H", "8H", "9H", "2S"), "beg", "run").hand_size == 21


def test_take_one_goes_to_beggars_side_t9():
    res = Trinidad().make_trump(2, C("AD"), "beg", "give")
    assert res.points == (1, 1) and [(a.category, a.side) for a in res.awards] == [("kick", 0), ("take-one", 1)]
    res = Trinidad(players=2).make_trump(1, C("4D"), "beg", "give")
    assert res.points == (1, 0)


def test_same_suit_kicks_k9():
    turn_ups = C("3C", "JC", "6S")
    assert Trinidad().make_trump(0, turn_ups, "beg", "run").points == (2, 0)
    assert Trinidad(same_suit_kick_scores=True).make_trump(0, turn_ups, "beg", "run").points == (5, 0)


def test_legal_plays_t14_t15_and_options():
    g = Trinidad()

    def legal(rules, hand, trick, trump="H"):
        cards = C(*hand)
        mask, why = rules.legal(mask_of(cards), C(*trick), Suit.parse(trump))
        return [str(c) for c in cards if mask >> c & 1], why.code, why.rule

    assert legal(g, ["3C", "AH", "KD"], ["10C"]) == (["3C", "AH"], "follow-or-trump", "T15")
    assert legal(g, ["3C", "AH", "KD"], ["10H"]) == (["AH"], "trump-led-must-trump", "T14")
    assert legal(g, ["AH", "KD"], ["10C"]) == (["AH", "KD"], "void-any-card", "K1")
    assert legal(Trinidad(void_rule="must_trump"), ["AH", "KD"], ["10C"]) == (["AH"], "void-must-trump", "K1")
    nu = Trinidad(no_undertrump=True)
    assert legal(nu, ["3C", "2H", "AH", "KD"], ["10C", "5H"]) == (["3C", "AH"], "no-undertrump", "K22")
    assert legal(nu, ["2H", "AH", "KD"], ["10C", "5H"]) == (["2H", "AH", "KD"], "void-any-card", "K1")
    assert legal(nu, ["3C", "2H"], ["10C"]) == (["3C", "2H"], "follow-or-trump", "T15")


def test_hang_jack_variants_k2():
    g = Trinidad(players=2)
    # seat 1 leads JH; seat 0 holds AH and must trump (T14): the jack is captured by an opponent
    tricks = [C("JH", "AH"), C("2S", "3S"), C("4S", "5S"), C("6S", "7S"), C("8S", "KS"), C("10S", "9S")]
    start, _, winners = g.replay(0, Suit.H, tricks)
    hs = g.score_hand(0, Suit.H, start, tricks, winners)
    assert [(a.category, a.side, a.points) for a in hs.awards] == [
        ("high", 0, 1), ("low", 1, 1), ("hang-jack", 0, 3), ("game", 0, 1)]
    assert hs.game_points == (18, 0) and hs.trick_winners == (0, 1, 0, 1, 0, 0)
    hs = Trinidad(players=2, jack="plain").score_hand(0, Suit.H, start, tricks, winners)
    assert [(a.category, a.side, a.points) for a in hs.awards][2] == ("jack", 0, 1)


def test_beg_point_may_win_false_makes_dealer_run():
    g = Trinidad(players=2, beg_point_may_win=False)
    st = g.new_game(seed=2, dealer=0, scores=(0, 13)).apply(Action("beg", 1))
    assert st.legal_actions() == [Action("run", 0)]
    with pytest.raises(IllegalPlayError) as e:
        st.apply(Action("give", 0))
    assert e.value.reason.code == "take-one-forbidden"


def test_run_keeps_cards_no_discard():
    g = Trinidad()
    for seed in range(200):
        st = g.new_game(seed=seed, dealer=0)
        if st.stock[12].suit != st.turn_ups[0].suit and not st.over:
            break
    st = st.apply(Action("beg", 1)).apply(Action("run", 0))
    assert st.phase == "play" and all(h.bit_count() == 9 for h in st.hands)
    assert st.to_act == 1 and st.trump == st.turn_ups[-1].suit


def test_calling_an_exposed_card_t22():
    g = Trinidad()
    hands = [C("2H", "3S"), C("AC", "4S"), C("KC", "5H"), C("QC", "6S")]
    st = g.play_state(0, Suit.S, hands)
    st = st.expose(2, Card.parse("5H"))
    st = st.apply(Action("play", 1, Card.parse("AC")))
    assert st.to_act == 2
    # 5H is exposed but seat 2 holds clubs: playing 5H is not legal now, so it cannot be called
    assert not [a for a in st.legal_actions() if a.kind == "call"]
    with pytest.raises(IllegalPlayError) as e:
        st.apply(Action("call", 1, Card.parse("5H")))
    assert (e.value.reason.code, e.value.reason.rule) == ("call-not-legal", "T22")
    st = st.apply(Action("play", 2, Card.parse("KC"))).apply(Action("play", 3, Card.parse("QC")))
    st = st.apply(Action("play", 0, Card.parse("2H")))
    assert st.trick_winners == (1,) and st.to_act == 1
    st = st.apply(Action("play", 1, Card.parse("4S")))
    calls = [a for a in st.legal_actions() if a.kind == "call"]
    assert calls == [Action("call", s, Card.parse("5H")) for s in (0, 1, 3)]
    st = st.apply(Action("call", 3, Card.parse("5H")))
    assert st.exposed[2] == 0 and st.trick == (Card.parse("4S"), Card.parse("5H"))
    with pytest.raises(IllegalPlayError) as e:
        st.apply(Action("call", 0, Card.parse("6S")))
    assert e.value.reason.code == "call-not-exposed"


def test_expose_only_in_trinidad():
    from tutor.engine.allfours_classic import AllFours
    st = AllFours().play_state(0, Suit.S, [C("2H"), C("3H")])
    with pytest.raises(IllegalPlayError):
        st.expose(0, Card.parse("2H"))


def test_deal_passes_to_next_seat_in_play_order():
    g = Trinidad()
    st = g.play_state(3, Suit.S, [C("2H"), C("3H"), C("4H"), C("5H")], scores=(0, 0))
    for name in ("2H", "3H", "4H", "5H"):
        st = st.apply(Action("play", st.to_act, Card.parse(name)))
    assert st.dealer == 0 and st.hands_done == 1
