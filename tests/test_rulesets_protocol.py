"""The ruleset registry's game protocol (tutor.engine.rulesets.GameEngine): whole random games of
each ruleset played by name through the protocol alone, and the facts the registry shares with
the engine (options models, turn-up scales)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.cards import CARDS
from tutor.engine.errors import BadFieldError, IllegalPlayError
from tutor.engine.options import choices_of, option_fields, range_of
from tutor.engine.rulesets import RULESETS, GameEngine, get_ruleset, ruleset_names

MAX_ACTIONS = 60_000  # a game to 7 (Hokm) or 14 (Trinidad) takes a few thousand actions at most


@st.composite
def options_of(draw: st.DrawFn, name: str) -> dict:
    """Options drawn from the ruleset's own model: every choice field, a player count the ruleset
    allows, and a small target (its default or the range's low end, to keep games short)."""
    info = get_ruleset(name)
    model = info.options_model
    out: dict = {}
    for field in option_fields(model):
        choices = choices_of(model, field)
        if choices is not None:
            out[field] = draw(st.sampled_from(choices))
        else:
            lo, _ = range_of(model, field)
            out[field] = draw(st.sampled_from([lo, lo + 2, model.__pydantic_fields__[field].default]))
    if "players" in option_fields(model, scenario=False):
        out["players"] = draw(st.sampled_from(info.players))
    return out


def play_through_protocol(name: str, options: dict, seed: int) -> None:
    engine = get_ruleset(name).engine(options)
    assert isinstance(engine, GameEngine)
    rng = random.Random(seed)
    state = engine.new_game(seed)
    scores = engine.scores(state)
    hands = engine.hands_done(state)
    previous = None
    for _ in range(MAX_ACTIONS):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)
        assert seat is not None and 0 <= seat < engine.players
        actions = engine.legal_actions(state)
        assert actions, "a game that is not over always has a legal action"
        if previous is not None and previous not in actions:
            with pytest.raises(IllegalPlayError) as e:  # what is not listed is refused, with its rule
                engine.apply(state, previous)
            assert e.value.reason is not None and e.value.reason.rule[0] in "CTHK"
        action = rng.choice(actions)
        new = engine.apply(state, action)
        assert engine.legal_actions(state) == actions, "apply changed the state it was given"
        after = engine.scores(new)
        assert len(after) == len(scores) and all(b >= a for a, b in zip(scores, after, strict=True)), (scores, after)
        if engine.hands_done(new) > hands:
            assert engine.hands_done(new) == hands + 1
            deal = engine.last_hand(new)
            assert deal is not None
            assert sum(deal.side_tricks) == len(deal.trick_winners)  # every trick won by one side
            assert all(0 <= w < engine.players for w in deal.trick_winners)
            if deal.tricks_to_win is None:  # every card of every hand was played
                assert len(deal.trick_winners) == deal.cards_each
            else:  # Hokm: the round stopped when a team reached 7 tricks (H20)
                assert max(deal.side_tricks) == deal.tricks_to_win
                assert deal.tricks_to_win <= len(deal.trick_winners) <= deal.cards_each
        state, scores, hands, previous = new, after, engine.hands_done(new), action
    else:
        pytest.fail(f"{name} {options} seed {seed}: no end after {MAX_ACTIONS} actions")
    winner = engine.winner(state)
    assert engine.to_act(state) is None and engine.legal_actions(state) == []
    assert winner is not None and scores[winner] >= options["target"]
    assert hands >= 1 or name != "hokm"
    return hands


@pytest.mark.parametrize("name", list(RULESETS))
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_whole_games_through_the_protocol(name, data, seed):
    play_through_protocol(name, data.draw(options_of(name)), seed)


@pytest.mark.parametrize("name", list(RULESETS))
def test_default_games_last_several_deals(name):
    hands = [play_through_protocol(name, {"target": get_ruleset(name).default_target}, seed) for seed in range(3)]
    assert min(hands) >= 2, hands


def test_same_seed_same_game():
    for name in ruleset_names():
        engine = get_ruleset(name).engine()
        a, b = engine.new_game(7), engine.new_game(7)
        rng_a, rng_b = random.Random(1), random.Random(1)
        for _ in range(200):
            if engine.is_over(a):
                break
            a = engine.apply(a, rng_a.choice(engine.legal_actions(a)))
            b = engine.apply(b, rng_b.choice(engine.legal_actions(b)))
            assert engine.legal_actions(a) == engine.legal_actions(b)
            assert engine.scores(a) == engine.scores(b) and engine.to_act(a) == engine.to_act(b)


def test_engine_options_come_from_the_model():
    assert get_ruleset("all-fours").engine({"players": 3}).players == 3
    assert get_ruleset("trinidad").engine().players == 4
    with pytest.raises(BadFieldError, match="players for trinidad must be one of 2, 4, not 3"):
        get_ruleset("trinidad").engine({"players": 3})
    with pytest.raises(BadFieldError, match='option low must be one of "dealt", "captured", not "won"'):
        get_ruleset("all-fours").engine({"low": "won"})
    for info in RULESETS.values():
        assert info.rules().options == info.options_model()


@pytest.mark.parametrize("name", ["all-fours", "trinidad"])
def test_turnup_scale_is_the_engines_own(name):
    info = get_ruleset(name)
    values = choices_of(info.options_model, info.turnup_option)
    assert values and info.turnup_scale() == info.turnup_scale(values[0])
    for value in values:
        scale = info.turnup_scale(value)
        rules = info.rules({info.turnup_option: value})
        assert {c.rank: rules.turnup_points(c)[0] for c in CARDS if rules.turnup_points(c)[0]} == scale
    with pytest.raises(BadFieldError):
        info.turnup_scale("nope")


def test_turnup_scales_rules_md():
    assert get_ruleset("all-fours").turnup_scale("jack") == {11: 1}  # C8
    assert get_ruleset("all-fours").turnup_scale("running") == {14: 4, 13: 3, 12: 2, 11: 1}  # C32
    assert get_ruleset("trinidad").turnup_scale("standard") == {14: 1, 6: 2, 11: 3}  # T7
    assert get_ruleset("trinidad").turnup_scale("tobago") == {14: 1, 2: 2, 11: 3}
    assert get_ruleset("hokm").turnup_scale() == {}


def test_teams_come_from_the_ruleset():
    """Sides are the rules class's declared partnerships per player count (H5, C2, T1), not a
    count hard-coded in the registry."""
    from tutor.engine.rulesets import RULESETS
    want = {"hokm": {4: (0, 1, 0, 1)}, "all-fours": {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 0, 1)},
            "trinidad": {4: (0, 1, 0, 1), 2: (0, 1)}}
    for name, info in RULESETS.items():
        assert set(info.players) == set(want[name])
        for players, table in want[name].items():
            assert info.partnerships(players) == table
            assert [info.side_of(s, players) for s in range(players)] == list(table)
            assert info.sides(players) == len(set(table))
            if info.leader_field == "dealer":
                rules = info.rules({"players": players})
                assert [rules.side_of(s) for s in range(players)] == list(table)
                assert rules.n_sides == info.sides(players)
