"""Hokm rules (seed 002, RULES.md H1-H27, §3.2, K12-K15): legal plays, trick winner, round value,
next hakem, the round and match state machine."""

import random

import pytest

from tutor.engine.cards import Card, Suit, cards_of, mask_of, parse_cards
from tutor.engine.errors import BadFieldError, IllegalPlayError, ImpossibleStateError
from tutor.engine.hokm import (
    ChooseTrump,
    Hokm,
    HokmGame,
    HokmRound,
    Play,
    random_round,
)
from tutor.engine.hokm_rules import HokmOptions
from tutor.engine.tricks import Trick, follow_or_trump, trick_winner, winning_index

H, S, D, C = Suit.H, Suit.S, Suit.D, Suit.C


def m(*cards):
    return mask_of(parse_cards(list(cards)))


def names(mask):
    return sorted(str(c) for c in cards_of(mask))


def t(*cards):
    return parse_cards(list(cards))


# -- legal plays (H14, H15, H19) ------------------------------------------------------------

def test_must_follow_suit_even_holding_trump():
    # seed 002: 10 of clubs on the table, you hold 3 and K of clubs and 2 of hearts (hearts trump)
    assert names(Hokm().legal_plays(m("3C", "KC", "2H"), t("10C"), H)) == ["3C", "KC"]


def test_any_rank_of_led_suit_is_fine():
    assert names(Hokm().legal_plays(m("2C", "AD"), t("10C", "AC"), H)) == ["2C"]


def test_void_may_play_any_card_trumping_optional():
    assert names(Hokm().legal_plays(m("2H", "AS", "4D"), t("10C"), H)) == ["2H", "4D", "AS"]


def test_same_colour_is_not_the_same_suit():
    assert names(Hokm().legal_plays(m("5D", "9S"), t("KH"), C)) == ["5D", "9S"]


def test_leader_may_play_anything_including_trump():
    assert names(Hokm().legal_plays(m("2H", "AS"), (), H)) == ["2H", "AS"]


def test_trump_led_must_trump_while_holding_any():
    assert names(Hokm().legal_plays(m("3C", "AH", "KD"), t("5H"), H)) == ["AH"]
    assert names(Hokm().legal_plays(m("3C", "KD"), t("5H"), H)) == ["3C", "KD"]


def test_why_codes_and_params():
    assert Hokm().why(None, m("3C", "AH"), t("10C"), H).to_json() == {
        "code": "must-follow-suit", "rule": "H14", "params": {"led": "C", "cards": ["3C"]}}
    assert Hokm().why(Card.parse("AH"), m("3C", "AH"), t("10C"), H).code == "must-follow-suit"
    assert Hokm().why(Card.parse("3C"), m("3C", "AH"), t("10C"), H).to_json() == {
        "code": "follows-suit", "rule": "H14", "params": {"card": "3C", "led": "C"}}
    assert Hokm().why(Card.parse("AH"), m("3D", "AH"), t("10C"), H).to_json() == {
        "code": "void-any-card", "rule": "H15", "params": {"led": "C"}}
    assert Hokm().why(Card.parse("AH"), m("3D", "AH"), (), H).to_json() == {"code": "lead-any", "rule": "H6", "params": {}}
    assert Hokm().why(None, m("3C", "KH", "AH"), t("5H"), H).to_json() == {
        "code": "trump-led-must-trump", "rule": "H19", "params": {"trump": "H", "cards": ["AH", "KH"]}}
    assert Hokm().why(Card.parse("QS"), m("3C"), t("5H"), H).to_json() == {
        "code": "card-not-in-hand", "rule": "H14", "params": {"card": "QS"}}
    assert Hokm().is_legal(Card.parse("3C"), m("3C", "AH"), t("10C"))
    assert not Hokm().is_legal(Card.parse("AH"), m("3C", "AH"), t("10C"))


def test_follow_or_trump_predicate_for_all_fours():
    hand = m("3C", "AH", "KD")
    assert names(follow_or_trump(hand, C, H)) == ["3C", "AH"]
    assert names(follow_or_trump(hand, S, H)) == ["3C", "AH", "KD"]
    assert names(follow_or_trump(hand, S, H, strict_void=True)) == ["AH"]
    assert names(follow_or_trump(hand, H, H)) == ["AH"]
    assert names(follow_or_trump(m("3C"), H, H)) == ["3C"]
    assert names(follow_or_trump(hand, None, H)) == ["3C", "AH", "KD"]


# -- trick winner (H16) ---------------------------------------------------------------------

def test_ruff_highest_trump_wins():
    # seed 002: you 9C, right 2H (void), partner AC, left JH (void); hearts trump
    seat, card, why = Hokm().trick_winner(t("9C", "2H", "AC", "JH"), H, leader=0)
    assert (seat, str(card)) == (3, "JH")
    assert why.to_json() == {"code": "highest-trump-wins", "rule": "H16,H18",  # a ruff (H18)
                             "params": {"card": "JH", "winner": 3, "trump": "H"}}


def test_no_trump_highest_of_led_suit_wins_off_suit_ace_cannot():
    seat, card, why = Hokm().trick_winner(t("9C", "KC", "3C", "AS"), H, leader=2)
    assert (seat, str(card)) == (3, "KC")
    assert why.to_json() == {"code": "highest-of-suit-led-wins", "rule": "H16,H3",  # the rank order decided (H3)
                             "params": {"card": "KC", "winner": 3, "led": "C"}}
    # one card of the suit led: the rank order decides nothing, H16 alone
    assert Hokm().trick_winner(t("9C", "KD", "3S", "AD"), H, leader=0)[2].rule == "H16"
    # trump led: the highest trump by rank (H3), not a ruff
    assert Hokm().trick_winner(t("2H", "KH", "3C", "AS"), H, leader=0)[2].rule == "H16,H3"


def test_low_trump_beats_an_ace():
    assert Hokm().trick_winner(t("AS", "2H", "KS", "QS"), H)[:2] == (1, Card.parse("2H"))


def test_trick_helpers():
    assert winning_index(t("AD", "2S", "KD", "JS"), S) == 3
    assert trick_winner(t("AD", "2S", "KD", "JS"), None, leader=1) == (1, Card.parse("AD"))
    tr = Trick(2).add(Card.parse("AD")).add(Card.parse("2S"))
    assert (tr.led, tr.to_play, tr.seat_of(1), len(tr), tr.complete, str(tr)) == (D, 0, 3, 2, False, "AD 2S")
    assert tr.winner(S) == (3, Card.parse("2S"))
    full = tr.add(Card.parse("KD")).add(Card.parse("JS"))
    assert full.complete and full.mask == m("AD", "2S", "KD", "JS")
    with pytest.raises(ValueError):
        full.add(Card.parse("3C"))
    assert Trick(0).led is None


# -- round value and next hakem (§3.2, H21-H25, K12) ----------------------------------------

@pytest.mark.parametrize(("hakem", "tricks", "team", "points", "result", "nxt"), [
    (0, (7, 2), 0, 1, "win", 0),
    (0, (7, 0), 0, 2, "kot", 0),
    (0, (0, 7), 1, 3, "hakem-kot", 1),
    (0, (1, 7), 1, 1, "win", 1),
    (1, (7, 0), 0, 3, "hakem-kot", 2),
    (1, (0, 7), 1, 2, "kot", 1),
    (3, (7, 6), 0, 1, "win", 0),
    (2, (6, 7), 1, 1, "win", 3),
])
def test_round_result(hakem, tricks, team, points, result, nxt):
    r = Hokm().round_result(hakem, tricks)
    assert (r.winner_team, r.points, r.result, r.next_hakem) == (team, points, result, nxt)
    assert r.next_hakem % 2 == team  # the new hakem is always on the winning team
    assert r.why[0].code == {"win": "round-win", "kot": "round-kot", "hakem-kot": "round-hakem-kot"}[result]
    assert r.why[1].code == ("hakem-stays" if nxt == hakem else "hakem-passes-right")


def test_round_result_reason_params():
    r = Hokm().round_result(0, (7, 2))
    assert [x.to_json() for x in r.why] == [
        {"code": "round-win", "rule": "H21", "params": {"team": 0, "tricks": 7, "other": 2}},
        {"code": "hakem-stays", "rule": "H25", "params": {"hakem": 0, "team": 0}},
    ]
    r = Hokm().round_result(3, (7, 0))
    assert r.why[1].to_json() == {"code": "hakem-passes-right", "rule": "K12",
                                  "params": {"hakem": 3, "next_hakem": 0, "team": 0}}


@pytest.mark.parametrize("tricks", [(7, 7), (6, 6), (8, 5), (0, 0), (7, 8), (13, 0)])
def test_round_result_impossible(tricks):
    with pytest.raises(ImpossibleStateError):
        Hokm().round_result(0, tricks)


def test_next_hakem():
    assert [Hokm().next_hakem(h, 0) for h in range(4)] == [0, 2, 2, 0]
    assert [Hokm().next_hakem(h, 1) for h in range(4)] == [1, 1, 3, 3]


# -- options --------------------------------------------------------------------------------

def test_options():
    assert HokmOptions() == HokmOptions(7, True, "random", False)
    assert HokmOptions(target=3).target == 3
    for bad in ({"target": 5}, {"target": True}, {"stop_at_seven": 1}, {"first_hakem": "x"},
                {"partner_by_second_ace": "yes"}):
        with pytest.raises(BadFieldError):
            HokmOptions(**bad)


# -- the round state machine ------------------------------------------------------------------

def test_deal_5_4_4_hakem_first():
    five, full = Hokm().deal(list(range(52)), 2)
    assert five[2] == mask_of(range(5)) and five[3] == mask_of(range(5, 10))
    assert five[0] == mask_of(range(10, 15)) and five[1] == mask_of(range(15, 20))
    assert full[2] == mask_of([*range(5), *range(20, 24), *range(36, 40)])
    assert full[1] == mask_of([*range(15, 20), *range(32, 36), *range(48, 52)])
    assert sum(x.bit_count() for x in full) == 52
    assert full[0] | full[1] | full[2] | full[3] == (1 << 52) - 1


def test_round_phases_and_illegal_actions():
    rd = HokmRound(1, deck=list(range(52)))
    assert (rd.phase, rd.to_play, rd.dealer, rd.hands[1].bit_count(), rd.hands[0].bit_count()) == ("trump", 1, 0, 5, 5)
    assert rd.legal_actions() == [ChooseTrump(s) for s in Suit]
    with pytest.raises(IllegalPlayError) as e:
        rd.push(Play(Card(0)))
    assert e.value.reason.code == "hakem-chooses-trump"
    with pytest.raises(BadFieldError):
        rd.push(ChooseTrump(4))
    rd.push(ChooseTrump(H))
    assert rd.trump == H and rd.phase == "play" and all(h.bit_count() == 13 for h in rd.hands)
    with pytest.raises(IllegalPlayError):
        rd.push(ChooseTrump(S))
    # seat 1 holds cards 0-4 (2S-6S), 20-23 (9H-QH) and 36-39 (QD, KD, AD, 2C)
    assert names(rd.hands[1]) == sorted(str(Card(i)) for i in [*range(5), *range(20, 24), *range(36, 40)])
    rd.push(Play(Card.parse("2S")))
    assert rd.to_play == 2
    # seat 2 holds 7S-JS (5-9): must follow spades
    with pytest.raises(IllegalPlayError) as e:
        rd.push(Play(Card.parse("KH")))
    assert e.value.code == "illegal-play"
    assert e.value.message == ("seat 2 may not play KH: S was led and you hold JS, 10S, 9S, 8S, 7S, "
                               "so you must play one of them. (H14)")
    assert e.value.reason.to_json() == {"code": "must-follow-suit", "rule": "H14",
                                        "params": {"led": "S", "cards": ["JS", "10S", "9S", "8S", "7S"]}}
    with pytest.raises(IllegalPlayError) as e:
        rd.push(Play(Card.parse("2C")))
    assert e.value.reason.code == "card-not-in-hand"
    with pytest.raises(BadFieldError):
        rd.push(Play(52))
    assert rd.legal_mask() == m("7S", "8S", "9S", "10S", "JS")


def play_random(rd, rng):
    while rd.phase != "over":
        rd.push(rng.choice(rd.legal_actions()))


def test_round_stops_at_seven_and_rejects_more():
    rng = random.Random(3)
    rd = HokmRound(0, seed=11)
    play_random(rd, rng)
    assert 7 in rd.team_tricks and sum(rd.team_tricks) == len(rd.tricks) <= 13
    assert rd.result.team_tricks == tuple(rd.team_tricks)
    assert rd.legal_actions() == [] and rd.to_play is None
    with pytest.raises(IllegalPlayError) as e:
        rd.push(Play(Card(0)))
    assert e.value.reason.code == "round-over"


def test_play_out_keeps_first_seven_result():
    rng = random.Random(4)
    for seed in range(20):
        rd = HokmRound(seed % 4, seed=seed, options=HokmOptions(stop_at_seven=False))
        play_random(rd, rng)
        assert len(rd.tricks) == 13 and sum(rd.team_tricks) == 13
        counts = [0, 0]
        for w in rd.trick_winners:
            counts[w % 2] += 1
            if 7 in counts:
                break
        assert rd.result.team_tricks == tuple(counts)
        assert rd.hands == [0, 0, 0, 0]


def test_copy_is_independent():
    rd = HokmRound(0, seed=1)
    rd.push(ChooseTrump(S))
    cp = rd.copy()
    cp.push(cp.legal_actions()[0])
    assert len(rd.trick) == 0 and len(cp.trick) == 1


# -- the match ------------------------------------------------------------------------------

@pytest.mark.parametrize("target", [7, 3])
def test_match_to_target(target):
    g = HokmGame(seed=5, options=HokmOptions(target=target))
    rng = random.Random(9)
    hakems = [g.hakem]
    while not g.over:
        before = len(g.results)
        g.push(rng.choice(g.legal_actions()))
        if len(g.results) > before and not g.over:
            hakems.append(g.hakem)
    assert max(g.scores) >= target and g.scores[g.winner] >= target
    assert g.scores[1 - g.winner] < target
    assert sum(r.points for r in g.results) == sum(g.scores)
    for r, nxt in zip(g.results, hakems[1:], strict=False):
        assert r.next_hakem == nxt
    assert g.legal_actions() == []
    with pytest.raises(IllegalPlayError) as e:
        g.push(Play(Card(0)))
    assert e.value.reason.code == "match-won"


def test_first_hakem_by_first_ace_and_partner_by_second_ace():
    for seed in range(30):
        g = HokmGame(seed=seed, options=HokmOptions(first_hakem="first_ace", partner_by_second_ace=True))
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        aces = [i % 4 for i, c in enumerate(deck) if c % 13 == 12]
        assert g.hakem == aces[0]
        second = next((s for s in aces[1:] if s != aces[0]), None)
        partner = (g.hakem + 2) % 4
        expected = [0, 1, 2, 3]
        if second is not None:
            expected[second], expected[partner] = expected[partner], expected[second]
        assert g.seating == tuple(expected)
    g = HokmGame(seed=1, options=HokmOptions(first_hakem="first_ace"))
    assert g.seating == (0, 1, 2, 3)
    # seed 845119: every ace of the face-up draw goes to the first hakem, so nobody changes seats
    g = HokmGame(seed=845119, options=HokmOptions(first_hakem="first_ace", partner_by_second_ace=True))
    assert g.seating == (0, 1, 2, 3)


def test_same_seed_same_match():
    def run(seed):
        g, rng = HokmGame(seed=seed), random.Random(seed)
        while not g.over:
            g.push(rng.choice(g.legal_actions()))
        return g.scores, [(r.hakem, r.team_tricks, r.points) for r in g.results]
    assert run(21) == run(21)


def test_random_round_matches_state_machine():
    for seed in range(50):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        record: list = []
        trump, counts, winners = random_round(rng, seed % 4, deck=deck, record=record)
        rd = HokmRound(seed % 4, deck=deck)
        rd.push(ChooseTrump(trump))
        for trick in record:
            for c in trick:
                rd.push(Play(Card(c)))
        assert rd.phase == "over"
        assert rd.trick_winners == winners and rd.team_tricks == counts
