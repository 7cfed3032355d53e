"""The question-quality layer of the generators and ``tutor check --quality``: answers balanced,
legal-cards questions with a choice to make, difficulty monotone in the declared features, no
scenario twice in a session; the report fails when a target is missed."""

from __future__ import annotations

import io
import itertools
import random
from contextlib import redirect_stdout

import pytest

from tutor.cli import main as tutor_main
from tutor.content.exercise import RULESETS
from tutor.content.generators import generate
from tutor.content.kinds import KINDS, kinds_for
from tutor.content.quality import MAX_CLASS_SHARE, Cell, class_limit, report, scenario_key, survey

#: Seeds per kind, ruleset and difficulty here (the report's default is 500): a multiple of every
#: count of answer classes the kinds aim at (2, 3, 4, 6, 9), so each class is aimed at as often.
SEEDS = 36
COMBOS = [(r, k) for r in RULESETS for k in kinds_for(r)]


@pytest.mark.parametrize(("ruleset", "kind"), COMBOS)
def test_quality_targets_on_a_reduced_seed_count(ruleset, kind):
    k = KINDS[kind]
    assert k.features, f"{kind} declares no features"
    cells = [survey(ruleset, kind, d, range(SEEDS)) for d in (1, 2, 3)]
    for c in cells:
        assert c.n == SEEDS
        limit = class_limit(k, ruleset, c.difficulty)
        assert limit == MAX_CLASS_SHARE or (kind == "turn-up" and limit == 0.5)
        assert c.top_share <= limit, (c.difficulty, c.classes)
        assert len(c.classes) >= (2 if limit > MAX_CLASS_SHARE else 3)
        assert c.distinct >= 5  # not one scenario over and over
        if kind == "legal-cards":
            assert c.condition is not None and c.condition >= 0.9
    for name in k.features:  # the difficulty grows with every declared feature
        means = [c.means[name] for c in cells]
        assert all(a <= b for a, b in itertools.pairwise(means)), (name, means)
    # and every difficulty is what its features make it
    assert len({tuple(sorted(c.means.items())) for c in cells}) == 3


def test_legal_cards_questions_have_a_choice_to_make():
    for ruleset in RULESETS:
        for d in (1, 2, 3):
            sizes = []
            for seed in range(60):
                ex = generate(ruleset, "legal-cards", seed, d)
                legal, hand = ex.solve()["legal"], ex.scenario["hand"]
                assert 2 <= len(legal) < len(hand), (ruleset, d, seed)
                sizes.append(len(legal))
            shares = [sizes.count(n) / len(sizes) for n in set(sizes)]
            assert max(shares) <= MAX_CLASS_SHARE  # "2", "3" and "4 or more" legal cards come as often


def test_game_winner_and_beg_are_not_guessed_from_the_difficulty():
    """The answers the issue found guessable: classic/Trinidad game-winner always a winner at 1
    and 3, beg [0, 0] at 1; Hokm round-score always 1 point at difficulty 1."""
    for ruleset in ("all-fours", "trinidad"):
        for d in (1, 2, 3):
            winners = [generate(ruleset, "game-winner", s, d).expect["winner"] for s in range(24)]
            assert None in winners and 0 in winners and 1 in winners
        begs = [generate(ruleset, "beg", s, 1).expect["points"] for s in range(24)]
        assert begs.count([0, 0]) / len(begs) <= MAX_CLASS_SHARE
    for d in (1, 2, 3):
        points = [generate("hokm", "round-score", s, d).expect["points"] for s in range(12)]
        assert sorted(set(points)) == [1, 2, 3]


def test_every_generated_question_is_still_keyed_by_the_engine():
    for ruleset, kind in COMBOS:
        for d in (1, 2, 3):
            ex = generate(ruleset, kind, 5, d)
            answer = ex.solve()
            assert KINDS[kind].level(KINDS[kind].measure(ex.scenario, answer)) == d
            assert all(answer.get(f) == v for f, v in ex.expect.items())


def _run(argv):
    out = io.StringIO()
    with redirect_stdout(out):
        status = tutor_main(argv)
    return status, out.getvalue()


def test_tutor_check_quality_prints_the_report_and_passes():
    status, text = _run(["check", "--quality", "--seeds", "12"])
    assert status == 0, text
    assert "hokm legal-cards" in text and "trinidad game-points" in text
    assert "2+ legal and 1+ illegal 100%" in text
    assert "every target met" in text


def test_tutor_check_quality_fails_when_a_generator_is_unbalanced(monkeypatch):
    round_score = KINDS["round-score"]

    def lopsided(ruleset, rng, difficulty, want=None):  # always a plain win: "1 point" every time
        hakem = {1: 0, 2: 1, 3: 3}[difficulty]
        return ({"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": [7, rng.randint(1, 6)]},
                "How many points is the round worth?")

    monkeypatch.setattr(round_score, "generate", lopsided)
    monkeypatch.setattr(round_score, "answer_classes", lambda ruleset, difficulty: ())  # aim at nothing
    status, text = _run(["check", "--quality", "--seeds", "12"])
    assert status == 1
    assert "hokm round-score: difficulty 1: answer class '1' is 100% (at most 40%)" in text
    assert "target(s) missed" in text


def test_the_report_names_a_missed_condition_and_a_feature_that_falls():
    def shrinking(ruleset, kind, seed, difficulty):  # hands that shrink as it gets harder: 4, 3, then 2 cards
        ex = generate(ruleset, kind, seed, difficulty)
        sc = {**ex.scenario, "hand": ex.scenario["hand"][: 5 - difficulty]}
        return type(ex)(id=ex.id, kind=ex.kind, scenario=sc, difficulty=difficulty)

    out = io.StringIO()
    assert report(out, seeds=6, kinds=["legal-cards"], rulesets=["hokm"], generate=shrinking) is False
    text = out.getvalue()
    assert "feature hand is not monotone in the difficulty" in text
    assert "2+ legal and 1+ illegal in" in text


def test_class_limit_and_cells():
    cell = Cell("beg", "all-fours", 1, 4)
    cell.classes.update(["nothing", "nothing", "eldest", "dealer 1"])
    assert cell.top_share == 0.5 and cell.top_class == "nothing"
    assert class_limit(KINDS["beg"], "all-fours", 1) == MAX_CLASS_SHARE
    assert class_limit(KINDS["turn-up"], "all-fours", 1) == 0.5  # the default scale: a jack 1, every other card 0
    assert class_limit(KINDS["turn-up"], "all-fours", 3) == MAX_CLASS_SHARE


def test_tutor_check_quality_refuses_no_seeds():
    assert tutor_main(["check", "--quality", "--seeds", "0"]) == 2


def test_a_practice_quiz_never_shows_one_scenario_twice(tmp_path):
    from web_support import make_app

    from tutor.web import exercises as X
    from tutor.web.views.practice import draw_quiz

    app = make_app(tmp_path)
    with app.test_request_context("/en/practice/"):
        for seed in range(4):
            refs = draw_quiz("hokm", ["round-score", "next-hakem"], 20, 3, seed)
            keys = [scenario_key(X.resolve(r)) for r in refs]
            assert len(keys) == len(set(keys)) == len(refs)


def test_scenario_key_is_the_scenario():
    a, b = generate("hokm", "round-score", 1, 3), generate("hokm", "round-score", 1, 3)
    assert scenario_key(a) == scenario_key(b)
    seeds = range(200)
    keys = {scenario_key(generate("hokm", "round-score", s, 3)) for s in seeds}
    assert len(keys) < len(seeds)  # a small space: only a session's dedup keeps it from repeating
    rng = random.Random(0)
    assert scenario_key(generate("hokm", "legal-cards", rng.randrange(10**6), 1)) not in keys
