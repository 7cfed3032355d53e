"""Seeded exercise generators: reproducible, engine-valid, difficulty traps, ``tutor gen``."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest
import yaml

from tutor.cli import main as tutor_main
from tutor.content.check import check, check_exercise
from tutor.content.exercise import RULESETS
from tutor.content.generators import ATTEMPTS, GeneratorError, generate, kinds_for, to_yaml
from tutor.content.kinds import KINDS, ExerciseError, Reject, expected_answer, grade, players_of, public_view
from tutor.engine.cards import Card, Suit
from tutor.problems import Problems

COMBOS = [(r, k, d) for r in RULESETS for k in kinds_for(r) for d in (1, 2, 3)]
SEEDS = range(25)


def test_kinds_per_ruleset():
    every = ["legal-cards", "trick-winner", "game-winner", "walk-through"]
    hokm, af = kinds_for("hokm"), kinds_for("all-fours")
    assert set([*every, "round-score", "next-hakem"]) <= set(hokm)
    assert not {"turn-up", "beg", "hand-score", "game-points"} & set(hokm)
    assert set([*every, "turn-up", "beg", "hand-score", "game-points"]) <= set(af)
    assert not {"round-score", "next-hakem"} & set(af)
    assert kinds_for("trinidad") == af


@pytest.mark.parametrize(("ruleset", "kind", "difficulty"), COMBOS)
def test_generated_exercises_are_engine_valid_and_reproducible(ruleset, kind, difficulty):
    seen = set()
    for seed in SEEDS:
        ex = generate(ruleset, kind, seed, difficulty)
        again = generate(ruleset, kind, seed, difficulty)
        assert to_yaml(ex) == to_yaml(again)
        assert (ex.kind, ex.ruleset, ex.difficulty) == (kind, ruleset, difficulty)
        assert ex.id == f"gen-{ruleset}-{kind}-{seed}-{difficulty}"
        problems = Problems()
        check_exercise(ex, ruleset, problems)  # engine accepts it and agrees with the stored expect
        assert list(problems) == []
        expected, _ = expected_answer(ex)
        assert grade(ex, expected).correct is True
        assert "expect" not in public_view(ex)
        seen.add(to_yaml(ex).split("\n", 1)[1])
    assert len(seen) >= 5  # seeds give different exercises


def test_same_seed_same_exercise_across_calls_and_difficulties_differ():
    a = generate("hokm", "legal-cards", 7, 2)
    assert a.to_block() == generate("hokm", "legal-cards", 7, 2).to_block()
    assert a.scenario != generate("hokm", "legal-cards", 7, 3).scenario
    assert a.scenario != generate("hokm", "legal-cards", 8, 2).scenario


def _hand(ex):
    return [Card.parse(c) for c in ex.scenario["hand"]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_cards_difficulty_traps(ruleset):
    for seed in range(30):
        e1 = generate(ruleset, "legal-cards", seed, 1)
        led, trump = Card.parse(e1.scenario["trick"][0]).suit, Suit.parse(e1.scenario["trump"])
        hand = _hand(e1)
        assert any(c.suit == led for c in hand) and led != trump and not any(c.suit == trump for c in hand)
        assert len(e1.expect["legal"]) < len(hand)
        e2 = generate(ruleset, "legal-cards", seed, 2)
        led, trump = Card.parse(e2.scenario["trick"][0]).suit, Suit.parse(e2.scenario["trump"])
        hand = _hand(e2)
        trick = [Card.parse(c) for c in e2.scenario["trick"]]
        assert any(c.suit == led for c in hand) and led != trump
        assert any(c.suit == trump for c in hand + trick)  # a trump in play: in the hand or ruffed in the trick
        assert 2 <= len(e2.expect["legal"]) < len(hand)
        e3 = generate(ruleset, "legal-cards", seed, 3)
        assert len(_hand(e1)) <= 5 < len(hand) + 1 and len(_hand(e3)) >= 6  # the hand grows with the difficulty
        led, trump = Card.parse(e3.scenario["trick"][0]).suit, Suit.parse(e3.scenario["trump"])
        hand = _hand(e3)
        opts = e3.scenario.get("options", {})
        assert led == trump or not any(c.suit == led for c in hand) or opts.get("no_undertrump")


def test_hokm_walk_through_length_grows_with_difficulty():
    lengths = {d: [len(generate("hokm", "walk-through", s, d).scenario["tricks"]) for s in range(10)] for d in (1, 2, 3)}
    assert max(lengths[1]) <= 9 and all(9 <= n <= 11 for n in lengths[2]) and min(lengths[3]) >= 11


@pytest.mark.parametrize("ruleset", ["all-fours", "trinidad"])
def test_hand_score_difficulty_players_and_traps(ruleset):
    for seed in range(10):
        assert players_of(generate(ruleset, "hand-score", seed, 1).scenario) == 2
        e3 = generate(ruleset, "hand-score", seed, 3)
        cats = [a["category"] for a in e3.expect["awards"]]
        trumps = sum(c[-1] == e3.scenario["trump"] for t in e3.scenario["tricks"] for c in t)
        sides = {a["category"]: a["side"] for a in e3.expect["awards"]}
        assert ("hang-jack" in cats or "game" not in cats or trumps == 1 or sides.get("high") != sides.get("low"))


def test_generator_errors():
    with pytest.raises(ExerciseError, match="kind turn-up is not used with ruleset hokm"):
        generate("hokm", "turn-up", 1)
    with pytest.raises(ExerciseError, match="unknown exercise kind"):
        generate("hokm", "dance", 1)
    with pytest.raises(ValueError, match="difficulty must be 1, 2 or 3"):
        generate("hokm", "legal-cards", 1, 4)
    with pytest.raises(ValueError, match="unknown ruleset"):
        generate("bridge", "legal-cards", 1)


def _run(argv):
    out = io.StringIO()
    with redirect_stdout(out):
        status = tutor_main(argv)
    return status, out.getvalue()


def test_tutor_gen_prints_a_block_that_tutor_check_accepts(tmp_path):
    status, text = _run(["gen", "trinidad", "hand-score", "--seed", "5", "--difficulty", "3"])
    assert status == 0
    assert text == to_yaml(generate("trinidad", "hand-score", 5, 3))
    block = yaml.safe_load(text)
    assert block["id"] == "gen-trinidad-hand-score-5-3" and block["kind"] == "hand-score" and block["difficulty"] == 3
    assert block["scenario"]["ask"] == "hand-score" and len(block["scenario"]["tricks"]) == 6
    d = tmp_path / "lessons" / "trinidad" / "en"
    d.mkdir(parents=True)
    (d / "01-generated.md").write_text(
        "---\nid: tt-gen\nruleset: trinidad\nunit: 1\nunit_title: Gen\norder: 1\ntitle: Gen\ngoal: Score.\n"
        "rules: [T18]\nsource: generated\n---\nScore the hand.\n\n```exercise\n" + text + "```\n", encoding="utf-8")
    report = check([str(d)])
    assert list(report.problems) == [] and report.exercises == 1


def test_tutor_gen_rejects_a_kind_the_ruleset_lacks(capsys):
    assert tutor_main(["gen", "hokm", "beg"]) == 2
    assert "kind beg is not used with ruleset hokm" in capsys.readouterr().err


def test_a_generator_that_never_fits_names_the_call_and_the_engine_error(monkeypatch, capsys):
    kind = KINDS["legal-cards"]

    def broken(ruleset, rng, difficulty, want=None):  # a candidate the engine refuses: a card that is no card
        return {"ruleset": ruleset, "ask": "legal-plays", "trump": "S", "hand": ["ZZ"], "trick": []}, "?"

    monkeypatch.setattr(kind, "generate", broken)
    with pytest.raises(GeneratorError) as info:
        generate("hokm", "legal-cards", 7, 3)
    e = info.value
    assert (e.ruleset, e.kind, e.difficulty, e.seed, e.tries, e.rejected) == ("hokm", "legal-cards", 3, 7, ATTEMPTS, 0)
    assert e.last_error is not None and e.last_error.code == "bad-card"
    assert str(e).startswith(f"hokm legal-cards difficulty 3 seed 7: no exercise after {ATTEMPTS} tries; "
                             "last engine error: bad-card: ")
    assert isinstance(e, ExerciseError)
    assert tutor_main(["gen", "hokm", "legal-cards", "--seed", "7", "--difficulty", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tutor gen: hokm legal-cards difficulty 3 seed 7: no exercise after") and "bad-card" in err
    assert "Traceback" not in err


def test_a_generator_that_only_rejects_says_so(monkeypatch):
    def picky(ruleset, rng, difficulty, want=None):
        raise Reject

    monkeypatch.setattr(KINDS["trick-winner"], "generate", picky)
    with pytest.raises(GeneratorError, match=f"all {ATTEMPTS} candidates were rejected") as info:
        generate("trinidad", "trick-winner", 2, 1)
    assert info.value.last_error is None and info.value.rejected == ATTEMPTS
