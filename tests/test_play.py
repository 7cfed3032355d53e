"""Playing a whole deal against bots (tutor.engine.play): the bots play only legal cards, every
seeded deal finishes with the engine's own score, the same seed gives the same deal, a deal is
rebuilt from the learner's actions, and a refused card carries the engine's reason."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.allfours_state import tally
from tutor.engine.errors import BadFieldError, IllegalPlayError
from tutor.engine.play import bot_deal, played_deal_observations, replay, start_deal, try_action
from tutor.engine.rulesets import RULESETS

TABLES = [(name, p) for name, info in RULESETS.items() for p in info.players]


def coach_of(name, players):
    info = RULESETS[name]
    opts = {"players": players} if "players" in info.options_model.__pydantic_fields__ else {}
    return info.coach(opts)


class Checked:
    """An engine whose ``apply`` first checks that the action is one of ``legal_actions``."""

    def __init__(self, engine):
        self.engine = engine
        self.checked = 0

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def apply(self, state, action):
        assert action in self.engine.legal_actions(state), action
        self.checked += 1
        return self.engine.apply(state, action)


@pytest.mark.parametrize(("name", "players"), TABLES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_bots_play_legal_cards_and_every_deal_finishes_with_the_engines_score(name, players, seed):
    coach = coach_of(name, players)
    coach.engine = Checked(coach.engine)
    deal = bot_deal(coach, seed)
    engine = coach.engine.engine
    assert deal.over and coach.engine.checked == len(deal.steps)
    state = deal.state
    assert engine.hands_done(state) == 1 or engine.is_over(state)
    record = engine.last_hand(state)
    if record is not None:
        # the tricks tracked by the coach are the engine's own
        assert tuple(t.winner for t in deal.tricks) == record.trick_winners
        assert sum(record.side_tricks) == len(deal.tricks)
    story = deal.story()
    assert story
    scores = coach.final_scores(deal)
    sides = [r for r in story if r.code == "side-score"]
    assert [r.params["score"] for r in sides] == list(scores)
    if name == "hokm":
        assert scores == tuple(engine.scores(state))
        res = state.results[-1]
        assert story[1] == res.why[0] and res.points == sum(scores)
    elif record is not None:
        hs = state.last_hand
        assert scores == tally(deal.last.scores, hs.awards, engine.target)[0]
        for a in hs.awards:
            assert a.reason in story


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_same_seed_gives_the_same_deal(name, players):
    a, b = bot_deal(coach_of(name, players), 42), bot_deal(coach_of(name, players), 42)
    assert a.steps == b.steps and [t.cards for t in a.tricks] == [t.cards for t in b.tricks]
    c = bot_deal(coach_of(name, players), 43)
    assert c.steps != a.steps


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_learner_deal_is_rebuilt_from_its_actions(name, players):
    coach = coach_of(name, players)
    for role, _label in coach.ROLES:
        deal = start_deal(coach, 7, role=role)
        actions = []
        while not deal.over:
            assert deal.to_act == deal.you
            token = coach.token(coach.bot(deal.state, deal.you, __import__("random").Random(len(actions)), deal.played))
            new, why = try_action(coach, deal, token)
            assert why is None
            actions.append(token)
            deal = new
        again = replay(coach, 7, deal.you, actions)
        assert again.steps == deal.steps and again.over
        obs = played_deal_observations(RULESETS[name], coach.options, 7, deal.you, actions)
        assert len(obs) == len(actions) and all(ok for _r, _p, ok in obs)
        assert {r for r, _p, _ok in obs} == {name}


def test_a_refused_card_names_the_rule_on_this_hand():
    coach = coach_of("hokm", 4)
    for seed in range(200):
        deal = start_deal(coach, seed, role="opponent")
        if deal.to_act != deal.you or not deal.trick:
            continue
        led = deal.trick[0] // 13
        hand = deal.hand(deal.you)
        held = [c for c in range(52) if hand >> c & 1 and c // 13 == led]
        other = [c for c in range(52) if hand >> c & 1 and c // 13 != led]
        if held and other:
            break
    else:
        pytest.fail("no deal found")
    from tutor.engine.play import card_token

    new, why = try_action(coach, deal, card_token(other[0]))
    assert new is None and why.code == "must-follow-suit" and why.rule == "H14"
    assert sorted(why.params["cards"]) == sorted(card_token(c)[1:] for c in held)
    obs = played_deal_observations(RULESETS["hokm"], coach.options, seed, deal.you, [],
                                   refused=[(0, card_token(other[0]))])
    assert obs == [("hokm", "H14", False)]
    with pytest.raises(IllegalPlayError):
        replay(coach, seed, deal.you, [card_token(other[0])])
    with pytest.raises(BadFieldError):
        replay(coach, seed, deal.you, ["zz"])


def test_bench_play_prints_deals_per_second_per_table(capsys):
    from tutor.cli import main

    assert main(["bench", "--play", "trinidad", "--seconds", "0.01", "--repeats", "2"]) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [line[0:2] for line in lines] == [["trinidad", "4p"], ["trinidad", "2p"]]
    for line in lines:
        assert float(line[2].replace(",", "")) > 0 and line[3] == "deals/s"
        assert float(line[7].replace(",", "")) > 1  # a deal costs more than one trivial call
    assert main(["bench", "--play", "whist"]) == 2


@pytest.mark.parametrize(("name", "options", "seed"), [
    ("trinidad", {"target": 3}, 37), ("all-fours", {"target": 3, "turnup_scale": "running"}, 14)])
def test_a_deal_whose_next_kick_wins_the_game_names_the_winner(name, options, seed):
    """K11: the hand leaves both sides short of the target, then the next deal's turn-up (kick)
    wins at once: the story ends with that card's points and the winner, not the next dealer."""
    coach = RULESETS[name].coach(options)
    deal = bot_deal(coach, seed)
    state = deal.state
    assert tally(deal.last.scores, state.last_hand.awards, 3)[1] is None  # the hand itself won nothing
    assert state.winner == 0
    story = deal.story()
    assert "next-dealer" not in [r.code for r in story]
    assert story[-2].code == "turnup-scores" and story[-2] == state.awards[-1].reason
    assert (story[-1].code, dict(story[-1].params)) == ("target-reached", {"side": 0, "target": 3})
