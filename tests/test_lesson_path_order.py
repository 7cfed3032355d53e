"""The shape of each game's lesson path (issue 19, "the path reordered"): a real card to play
within the first three steps, a whole deal within the first third, scoring after play, table
options last, and a recap with mixed questions closing every unit. Checked on the shipped
lessons in every language (the order is the same in all of them; ``tutor check`` enforces that).
"""

from __future__ import annotations

import functools

import pytest

from tutor.content.exercise import RULESETS
from tutor.content.lessons import LANGUAGES, LessonPath, LessonStep, load_lesson_path

#: Kinds in which the learner picks cards from a hand of their own.
PLAY_KINDS = frozenset({"legal-cards", "walk-through"})
#: Kinds that score a hand or round, or a game.
SCORE_KINDS = frozenset({"hand-score", "round-score", "game-points", "game-winner"})

PATHS = [(r, lang) for r in RULESETS for lang in LANGUAGES]


@functools.cache
def _path(ruleset: str, lang: str) -> LessonPath:
    lp = load_lesson_path(ruleset, lang)
    assert len(lp) >= 25 and all(s.lang == lang for s in lp)  # the language's own files
    return lp


def _kinds(step: LessonStep) -> set[str]:
    return {ex.kind for ex in step.exercises}


def _first(lp: LessonPath, kinds: frozenset[str]) -> int:
    """1-based position of the first step with an exercise of one of ``kinds``."""
    return next(i for i, s in enumerate(lp, 1) if _kinds(s) & kinds)


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_a_card_is_played_within_the_first_three_steps(ruleset, lang):
    lp = _path(ruleset, lang)
    first = _first(lp, PLAY_KINDS)
    assert first <= 3
    step = lp.steps[first - 1]
    hands = [ex.scenario.get("hand") for ex in step.exercises if ex.kind == "legal-cards"]
    assert any(isinstance(h, list) and len(h) >= 4 for h in hands)  # a hand to choose from, not one card


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_a_whole_deal_within_the_first_third(ruleset, lang):
    lp = _path(ruleset, lang)
    walk = _first(lp, frozenset({"walk-through"}))
    assert walk <= len(lp) / 3, f"first walk-through at step {walk} of {len(lp)}"
    tricks = next(ex.scenario["tricks"] for ex in lp.steps[walk - 1].exercises if ex.kind == "walk-through")
    assert len(tricks) >= 6  # a whole deal, played to its end


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_scoring_comes_after_play(ruleset, lang):
    lp = _path(ruleset, lang)
    assert _first(lp, frozenset({"legal-cards"})) < _first(lp, SCORE_KINDS)


def _is_variant(scenario) -> bool:
    """A scenario played under a table option (All Fours, Trinidad) or Hokm's short match to 3."""
    return bool(scenario.get("options")) or scenario.get("target", 7) != 7


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_table_options_come_last(ruleset, lang):
    """An exercise played under a variant only appears in the last unit."""
    lp = _path(ruleset, lang)
    last = lp.units[-1].number
    variants = [(s.id, ex.id) for s in lp for ex in s.exercises if _is_variant(ex.scenario)]
    assert len(variants) >= 3  # every game has variants, and they are exercised
    assert [(sid, eid) for sid, eid in variants if lp.step(sid).unit != last] == []


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_every_unit_ends_with_a_recap_of_mixed_questions(ruleset, lang):
    lp = _path(ruleset, lang)
    assert len(lp.units) >= 4
    taught: set[str] = set()
    for unit in lp.units:
        *body, recap = unit.steps
        assert "-recap-" in recap.id, f"unit {unit.number} ends with {recap.id}"
        assert [s.id for s in body if "-recap-" in s.id] == []  # one recap, at the end
        assert len(recap.exercises) >= 2 and len(_kinds(recap)) >= 2, recap.id
        taught |= {r for s in body for r in s.rules}
        assert set(recap.rules) <= taught, f"{recap.id} recaps rules not taught before it"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_target_is_taught_before_a_game_is_won(ruleset):
    """No exercise asks who wins the game before the step that teaches the target."""
    target = {"hokm": "hokm-match-target", "all-fours": "af-winning-seven", "trinidad": "trinidad-target"}[ruleset]
    lp = _path(ruleset, "en")
    assert lp.index(target) + 1 <= _first(lp, frozenset({"game-winner"}))


def test_the_whole_hand_walk_through_comes_before_the_variants():
    lp = _path("all-fours", "en")
    variants = [lp.index(s) for s in ("af-low-captured", "af-eleven-makes", "af-running-all-fours")]
    assert lp.index("af-walk-through") < min(variants)


#: Step ids shipped before the reorder. Learner progress is stored by step id (``step_progress``,
#: ``mistake.exercise_ref``), so a reorder moves files and ``order`` but keeps every id.
SHIPPED_STEP_IDS = {
    "hokm": """hokm-intro hokm-card-order hokm-suits-equal hokm-seats hokm-words hokm-hakem hokm-first-hakem
        hokm-deal hokm-choosing-trump hokm-suit-led hokm-follow-suit hokm-void hokm-trump-led hokm-exercise-one
        hokm-highest-led hokm-ruffing hokm-winner-leads hokm-exercise-two hokm-seven-tricks hokm-tricks-not-points
        hokm-kot hokm-hakem-kot hokm-exercise-three hokm-next-hakem hokm-match-target hokm-short-match
        hokm-sample-round hokm-walk-hakem-kot hokm-first-games hokm-other-tables""",
    "all-fours": """af-the-game af-names af-players-pack af-first-dealer af-deal af-turn-up af-stand-or-beg af-gift
        af-gift-wins af-running af-discard af-first-lead af-follow-or-trump af-void af-trump-led af-trick-winner
        af-winner-leads af-high-low af-jack af-game-values af-game-tie af-winning-seven af-repeat-runs
        af-pack-used-up af-bunch af-low-captured af-eleven-makes af-running-all-fours af-running-the-cards
        af-walk-through""",
    "trinidad": """trinidad-national-game trinidad-players-pack trinidad-partners trinidad-cut-deal
        trinidad-direction trinidad-deal-six trinidad-kick trinidad-kick-points trinidad-stand-beg
        trinidad-take-one trinidad-run trinidad-repeat-run trinidad-hand-size trinidad-pack-out
        trinidad-early-win trinidad-first-lead trinidad-trump-led trinidad-plain-led trinidad-void
        trinidad-trick-winner trinidad-high trinidad-low trinidad-jack trinidad-game trinidad-lone-trump
        trinidad-target trinidad-calling trinidad-two-players trinidad-walk-through trinidad-tobago-kick
        trinidad-undertrump trinidad-table-options""",
}


@pytest.mark.parametrize(("ruleset", "lang"), PATHS)
def test_every_shipped_step_id_is_still_there(ruleset, lang):
    ids = {s.id for s in _path(ruleset, lang)}
    assert set(SHIPPED_STEP_IDS[ruleset].split()) - ids == set()
