"""Content loading (lessons, quizzes) and exercise kinds: parsing answers, grading, public views."""

from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.content.exercise import Exercise
from tutor.content.kinds import (
    KINDS,
    ExerciseError,
    expected_answer,
    grade,
    learner_seat,
    parse_answer,
    public_view,
)
from tutor.content.lessons import ContentError, content_root, load_lesson_path, load_step
from tutor.content.quizzes import load_quiz
from tutor.engine.errors import BadFieldError
from tutor.problems import Problems

STEP = textwrap.dedent("""\
    ---
    id: hokm-follow-suit
    ruleset: hokm
    unit: 2
    unit_title: Playing a trick
    order: 1
    title: Follow suit
    goal: Tell which cards you may play when a suit has been led.
    rules: [H13, H14]
    source: seed 002 (H13, H14)
    ---
    When a suit is **led**, you must play that suit if you hold it.
    <script>alert(1)</script>

    ```exercise
    id: follow-1
    kind: legal-cards
    prompt: Clubs were led. Which cards may you play?
    difficulty: 1
    scenario: {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}
    expect: {"legal": ["3C", "KC"]}
    ```

    Holding a trump does not change that.

    ```exercise
    id: follow-2
    kind: trick-winner
    prompt: Who wins?
    difficulty: 2
    scenario:
      ruleset: hokm
      ask: trick-winner
      trump: S
      trick: [AD, 2S, KD, JS]
    expect: {"winner": 3, "card": "JS"}
    ```
    """)

STEP2 = STEP.replace("id: hokm-follow-suit", "id: hokm-void").replace("order: 1", "order: 2").replace(
    "unit: 2", "unit: 3").replace("unit_title: Playing a trick", "unit_title: Voids")


def write_step(root, name="01-follow.md", text=STEP, ruleset="hokm", lang="en"):
    d = root / "lessons" / ruleset / lang
    d.mkdir(parents=True, exist_ok=True)
    p = d / name
    p.write_text(text, encoding="utf-8")
    return p


# ----------------------------------------------------------------------------- lessons

def test_load_step_fields_lines_and_exercises(tmp_path):
    step = load_step(write_step(tmp_path))
    assert (step.id, step.ruleset, step.lang, step.unit, step.order) == ("hokm-follow-suit", "hokm", "en", 2, 1)
    assert step.unit_title == "Playing a trick" and step.title == "Follow suit"
    assert step.rules == ("H13", "H14")
    assert step.lines["id"] == 2 and step.lines["rules"] == 9 and step.line_of("source") == 10
    assert [e.id for e in step.exercises] == ["follow-1", "follow-2"]
    e1, e2 = step.exercises
    assert (e1.line, e1.line_of("kind"), e1.line_of("scenario"), e1.line_of("expect")) == (15, 17, 20, 21)
    assert e1.scenario["hand"] == ["3C", "AH", "KC"] and e1.expect == {"legal": ["3C", "KC"]}
    assert e1.step_id == "hokm-follow-suit" and e1.lang == "en" and e1.difficulty == 1
    # block YAML spread over lines keeps each field's own line
    assert e2.line == 26 and e2.line_of("scenario.trump") == 34 and e2.line_of("scenario.trick.2") == 35
    assert e2.scenario == {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}


def test_body_is_sanitised_html_without_exercise_blocks(tmp_path):
    step = load_step(write_step(tmp_path))
    assert len(step.segments) == 3
    assert "<strong>led</strong>" in step.segments[0]
    assert "<script>" not in step.html and "alert(1)" not in step.html.replace("&lt;", "")  # escaped or dropped
    assert "<script" not in step.html
    assert "exercise" not in step.html and "follow-1" not in step.html
    assert step.segments[1] == "<p>Holding a trump does not change that.</p>"
    assert step.segments[2] == ""
    assert [k for k, _ in step.parts()] == ["html", "exercise", "html", "exercise"]
    assert "```" not in step.body and "When a suit" in step.body


def test_lesson_path_order_units_and_lookups(tmp_path):
    write_step(tmp_path, "02-void.md", STEP2)
    write_step(tmp_path)
    path = load_lesson_path("hokm", "en", root=tmp_path)
    assert [s.id for s in path] == ["hokm-follow-suit", "hokm-void"]
    assert [(u.number, u.title, len(u.steps)) for u in path.units] == [(2, "Playing a trick", 1), (3, "Voids", 1)]
    assert path.step("hokm-void").order == 2 and "hokm-void" in path and len(path) == 2
    assert path.next_step("hokm-follow-suit").id == "hokm-void" and path.next_step("hokm-void") is None
    assert path.previous_step("hokm-void").id == "hokm-follow-suit"
    assert path.exercise("hokm-void", "follow-2").kind == "trick-winner"
    assert path.get("nope") is None
    with pytest.raises(KeyError):
        path.step("nope")
    assert len(load_lesson_path("hokm", "fa", root=tmp_path)) == 0


def test_content_root_follows_env(tmp_path, monkeypatch):
    write_step(tmp_path)
    monkeypatch.setenv("TUTOR_CONTENT_DIR", str(tmp_path))
    assert content_root() == tmp_path
    assert [s.id for s in load_lesson_path("hokm", "en")] == ["hokm-follow-suit"]
    monkeypatch.delenv("TUTOR_CONTENT_DIR")
    assert (content_root() / "tutor" / "content" / "lessons.py").exists()


def test_broken_step_raises_with_file_and_line(tmp_path):
    bad = STEP.replace("order: 1", "order: [1").replace("expect: {\"winner\"", "expect: {\"winner\"")
    p = write_step(tmp_path, text=bad)
    with pytest.raises(ContentError) as ei:
        load_step(p)
    assert ei.value.problems[0].line == 7 and "YAML syntax error" in ei.value.problems[0].message
    problems = Problems()
    assert load_step(p, problems) is None and len(problems) == 1


def test_missing_front_matter_fields_are_collected(tmp_path):
    text = STEP.replace("goal: Tell which cards you may play when a suit has been led.\n", "colour: red\n")
    problems = Problems()
    assert load_step(write_step(tmp_path, text=text), problems) is None
    msgs = sorted(p.message for p in problems)
    assert msgs == ["front matter: missing required field 'goal'", "front matter: unknown field 'colour'"]
    assert sorted(p.line for p in problems) == [1, 8]


def test_quiz_loader_keeps_question_lines(tmp_path):
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "hokm.yaml").write_text(textwrap.dedent("""\
        ruleset: hokm
        questions:
          - id: hokm-legal-001
            kind: legal-cards
            difficulty: 1
            teaches: hokm-follow-suit
            scenario: {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}
            expect: {"legal": ["2H", "KH"]}
          - id: hokm-winner-001
            kind: trick-winner
            difficulty: 2
            teaches: hokm-follow-suit
            prompt: {en: "Who wins?", fa: "کی می‌برد؟"}
            scenario: {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}
            expect: {"winner": 3}
        """), encoding="utf-8")
    quiz = load_quiz("hokm", root=tmp_path)
    assert [q.id for q in quiz] == ["hokm-legal-001", "hokm-winner-001"]
    q1, q2 = quiz.questions
    assert (q1.line, q1.line_of("expect"), q2.line, q2.line_of("teaches")) == (3, 8, 9, 12)
    assert q2.prompt_in("fa") == "کی می‌برد؟" and q2.prompt_in("te") == "Who wins?" and q1.prompt_in("en") is None
    assert quiz.question("hokm-winner-001") is q2 and quiz.by_kind("legal-cards") == (q1,)
    assert len(load_quiz("trinidad", root=tmp_path)) == 0


# ----------------------------------------------------------------------------- grading

def ex(kind, scenario, **kw):
    return Exercise(id="t", kind=kind, scenario=scenario, **kw)


HOKM_LEGAL = ex("legal-cards", {"ruleset": "hokm", "ask": "legal-plays", "trump": "H",
                                "hand": ["3C", "AH", "KC"], "trick": ["10C"]})
AF_LEGAL = ex("legal-cards", {"ruleset": "all-fours", "ask": "legal-plays", "trump": "H",
                              "hand": ["3C", "AH", "KD"], "trick": ["10C"]})
TT_LEGAL = ex("legal-cards", {"ruleset": "trinidad", "ask": "legal-plays", "options": {"no_undertrump": True},
                              "trump": "H", "hand": ["3C", "2H", "AH"], "trick": ["10C", "9H"]})
HOKM_TRICK = ex("trick-winner", {"ruleset": "hokm", "ask": "trick-winner", "trump": "S",
                                 "trick": ["AD", "2S", "KD", "JS"], "leader": 1})
TT_TRICK = ex("trick-winner", {"ruleset": "trinidad", "players": 2, "ask": "trick-winner", "trump": "C",
                               "trick": ["KD", "AD"], "leader": 1})
ROUND = ex("round-score", {"ruleset": "hokm", "ask": "round-score", "hakem": 2, "team_tricks": [0, 7]})
NEXT = ex("next-hakem", {"ruleset": "hokm", "ask": "round-score", "hakem": 3, "team_tricks": [7, 4]})
TURN_AF = ex("turn-up", {"ruleset": "all-fours", "ask": "turn-up", "card": "AH", "options": {"turnup_scale": "running"}})
TURN_TT = ex("turn-up", {"ruleset": "trinidad", "ask": "turn-up", "card": "6D"})
BEG_TT = ex("beg", {"ruleset": "trinidad", "ask": "make-trump", "dealer": 0, "turn_ups": ["7S"],
                    "decision": "beg", "dealer_choice": "give"})
BEG_AF = ex("beg", {"ruleset": "all-fours", "ask": "make-trump", "dealer": 1, "turn_ups": ["6H", "10S"],
                    "decision": "beg", "dealer_choice": "run"})
AF_HAND = {"ruleset": "all-fours", "ask": "hand-score", "dealer": 1, "trump": "H",
           "tricks": [["2H", "3H"], ["4H", "5H"], ["6H", "7H"], ["8H", "9H"], ["10H", "JH"], ["QH", "KH"]]}
TT_HAND = {"ruleset": "trinidad", "players": 2, "ask": "hand-score", "dealer": 0, "trump": "H",
           "tricks": [["JH", "AH"], ["10S", "2S"], ["3C", "KC"], ["4D", "5D"], ["6S", "7S"], ["8C", "9D"]]}
HS_AF = ex("hand-score", AF_HAND)
HS_TT = ex("hand-score", TT_HAND)
GW_HOKM = ex("game-winner", {"ruleset": "hokm", "ask": "round-score", "hakem": 0, "team_tricks": [7, 2],
                             "scores": [6, 3]})
GW_HOKM_NONE = ex("game-winner", {"ruleset": "hokm", "ask": "round-score", "hakem": 0, "team_tricks": [7, 2],
                                  "scores": [2, 3]})
GW_AF = ex("game-winner", {"ruleset": "all-fours", "ask": "make-trump", "dealer": 0, "turn_ups": ["JS"],
                           "decision": "stand", "scores": [6, 2]})
GW_TT = ex("game-winner", TT_HAND | {"scores": [10, 12]})
KOT_TRICKS = [["AS", "2S", "3S", "4S"], ["KS", "5S", "6S", "7S"], ["AH", "2H", "3H", "4H"], ["KH", "5H", "6H", "7H"],
              ["AD", "2D", "3D", "4D"], ["KD", "5D", "6D", "7D"], ["AC", "2C", "3C", "4C"]]
WALK_HOKM = ex("walk-through", {"ruleset": "hokm", "ask": "round-playout", "hakem": 0, "trump": "S",
                                "tricks": KOT_TRICKS})
WALK_AF = ex("walk-through", AF_HAND)

HS_AF_RIGHT = {"high": 0, "low": 0, "jack": 1, "game": 1}
HS_TT_RIGHT = {"high": 0, "low": 1, "jack": 0, "game": 0}

# (exercise, right answer, expected normalised value, a wrong answer)
CASES = [
    (HOKM_LEGAL, ["KC", "3C"], ["3C", "KC"], ["3C", "AH"]),
    (AF_LEGAL, "3c, ah", ["3C", "AH"], ["3C"]),
    (TT_LEGAL, ["3C", "AH"], ["3C", "AH"], ["3C", "2H", "AH"]),
    (HOKM_TRICK, 0, 0, 3),
    (TT_TRICK, "0", 0, 1),
    (ROUND, 3, 3, 2),
    (NEXT, "0", 0, 3),
    (TURN_AF, 4, 4, 0),
    (TURN_TT, 2, 2, 1),
    (BEG_TT, [0, 1], [0, 1], [1, 0]),
    (BEG_AF, "0, 0", [0, 0], [0, 1]),
    (HS_AF, HS_AF_RIGHT, HS_AF_RIGHT, {"high": 0, "low": 0, "jack": 0, "game": 1}),
    (HS_TT, {"high": "0", "low": 1, "hang-jack": 0, "game": 0}, HS_TT_RIGHT, {**HS_TT_RIGHT, "low": None}),
    (GW_HOKM, 0, 0, None),
    (GW_HOKM_NONE, "none", None, 0),
    (GW_AF, 0, 0, 1),
    (GW_TT, 0, 0, 1),
    (WALK_HOKM, {"trick_winners": [0] * 7, "points": 2}, {"trick_winners": [0] * 7, "points": 2},
     {"trick_winners": [0] * 7, "points": 3}),
    (WALK_AF, [1, 0, 1, 0, 1, 0, HS_AF_RIGHT], {"trick_winners": [1, 0, 1, 0, 1, 0], "awards": HS_AF_RIGHT},
     {"trick_winners": [1, 0, 1, 0, 0, 0], "awards": HS_AF_RIGHT}),
]


@pytest.mark.parametrize(("exercise", "right", "expected", "wrong"), CASES,
                         ids=[f"{c[0].kind}-{c[0].ruleset}-{i}" for i, c in enumerate(CASES)])
def test_grade_right_and_wrong(exercise, right, expected, wrong):
    v = grade(exercise, right)
    assert v.correct is True and v.expected == expected and v.given == expected and v.kind == exercise.kind
    assert v.why and all(set(r) == {"code", "rule", "params"} for r in v.why)
    w = grade(exercise, wrong)
    assert w.correct is False and w.expected == expected and w.given != expected
    json.dumps(v.to_json())
    json.dumps(w.to_json())


def test_every_kind_is_graded_above_or_in_its_own_test_module():
    from pathlib import Path

    own = {p.stem.removeprefix("test_kind_").replace("_", "-") for p in Path(__file__).parent.glob("test_kind_*.py")}
    assert {c[0].kind for c in CASES} | own == set(KINDS)


def test_legal_cards_details_name_illegal_and_missed_cards():
    v = grade(HOKM_LEGAL, ["3C", "AH"])
    must = {"code": "must-follow-suit", "rule": "H14", "params": {"led": "C", "cards": ["KC", "3C"]}}
    assert v.details["illegal"] == [{"card": "AH", "why": [must]}]
    assert v.details["missed"] == ["KC"] and v.details["right"] == ["3C"]
    assert v.why == (must,)
    t = grade(TT_LEGAL, ["3C", "2H", "AH"])
    under = {"code": "no-undertrump", "rule": "K22", "params": {"card": "9H", "led": "C", "cards": ["2H"]}}
    assert t.details["illegal"] == [{"card": "2H", "why": [under]}] and t.details["missed"] == []
    a = grade(AF_LEGAL, ["3C"])
    assert a.details["missed"] == ["AH"] and a.details["illegal"] == []
    assert a.why[0]["code"] == "follow-or-trump" and a.why[0]["rule"] == "C20"


def test_seat_and_score_details():
    v = grade(HOKM_TRICK, 3)
    assert v.details == {"card": "JS"} and v.why[0]["code"] == "highest-trump-wins"
    r = grade(ROUND, 3)
    assert r.details == {"result": "hakem-kot", "winner_team": 1, "next_hakem": 3}
    n = grade(NEXT, 0)
    assert n.details == {"result": "win", "winner_team": 0} and n.answer["points"] == 1
    b = grade(BEG_AF, [0, 1])
    assert b.details["sides"][1] == {"side": 1, "given": 1, "expected": 0, "correct": False}
    assert (b.details["trump"], b.details["runs"], b.details["hand_size"]) == ("S", 1, 6)


def test_hand_score_details_per_category():
    v = grade(HS_TT, {**HS_TT_RIGHT, "low": None})
    cats = {c["category"]: c for c in v.details["categories"]}
    assert cats["jack"] == {"category": "jack", "given": 0, "expected": 0, "correct": True, "points": 3,
                            "scored_as": "hang-jack"}
    assert cats["low"]["correct"] is False and cats["low"]["expected"] == 1
    assert v.details["game_points"] == [15, 3] and v.details["points"] == [5, 1]
    g = grade(GW_TT, 0)
    assert g.details == {"scores_after": [15, 13]} and g.why[-1]["code"] == "target-reached"


def test_walk_through_details_per_trick():
    v = grade(WALK_AF, {"trick_winners": [1, 0, 1, 0, 0, 0], "awards": HS_AF_RIGHT})
    assert [t["correct"] for t in v.details["tricks"]] == [True, True, True, True, False, True]
    assert v.details["tricks"][4]["why"][0]["params"] == {"card": "JH", "winner": 1, "trump": "H", "trick": 5}
    assert v.details["result_correct"] is True
    h = grade(WALK_HOKM, {"trick_winners": [0] * 7, "points": 3})
    assert h.details["result"] == {"winner_team": 0, "points": 2, "result": "kot", "next_hakem": 0}
    assert h.details["result_correct"] is False


BAD_ANSWERS = [
    (HOKM_LEGAL, ["2S"], "2S is not in the hand."),
    (HOKM_LEGAL, ["3C", "3C"], "3C is chosen twice."),
    (HOKM_LEGAL, ["ZZ"], 'the chosen cards: "ZZ" is not a card'),
    (HOKM_LEGAL, {"a": 1}, "the chosen cards must be a list"),
    (HOKM_TRICK, 4, "the seat must be from 0 to 3, not 4."),
    (HOKM_TRICK, True, "the seat must be a whole number"),
    (HOKM_TRICK, None, "the seat must be a whole number"),
    (TT_TRICK, 2, "the seat must be from 0 to 1, not 2."),
    (ROUND, 0, "the points must be from 1 to 3, not 0."),
    (ROUND, "two", "the points must be a whole number"),
    (BEG_TT, [1], "give the points of each of the 2 sides, not 1 numbers."),
    (BEG_TT, ["a", 1], "the points of side 0 must be a whole number"),
    (HS_AF, {"high": 0, "low": 0, "jack": 1}, "say who scores game"),
    (HS_AF, {"high": 0, "low": 0, "jack": 1, "game": 1, "bonus": 0}, 'the hand score has no category "bonus"'),
    (HS_AF, {"high": 2, "low": 0, "jack": 1, "game": 1}, "the side that scores high must be from 0 to 1, not 2."),
    (HS_AF, [0, 0, 1, 1], "the hand score must be an object"),
    (GW_AF, 5, "the winning side must be from 0 to 1, not 5."),
    (WALK_HOKM, {"trick_winners": [0] * 6, "points": 2}, "give the winner of each of the 7 tricks, not 6."),
    (WALK_HOKM, {"trick_winners": [0] * 7}, "give trick_winners and points."),
    (WALK_AF, [], "give the winner of each trick, then the result."),
]


@pytest.mark.parametrize(("exercise", "raw", "message"), BAD_ANSWERS)
def test_malformed_answers_raise_bad_field(exercise, raw, message):
    with pytest.raises(BadFieldError) as ei:
        grade(exercise, raw)
    assert ei.value.code == "bad-field" and ei.value.message.startswith(message)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=True) | st.text(max_size=6)
    | st.sampled_from(["3C", "AH", "none", "0", "1", "KC", "10h"]),
    lambda children: st.lists(children, max_size=8) | st.dictionaries(
        st.sampled_from(["high", "low", "jack", "game", "hang-jack", "trick_winners", "points", "awards", "x"]),
        children, max_size=5),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([c[0] for c in CASES]), json_values)
def test_any_learner_input_is_graded_or_bad_field(exercise, raw):
    try:
        v = grade(exercise, raw)
    except BadFieldError as e:
        assert e.message
    else:
        assert isinstance(v.correct, bool)


def test_broken_exercise_is_not_the_learners_fault():
    with pytest.raises(ExerciseError):
        grade(ex("legal-cards", {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": []}), [])
    with pytest.raises(ExerciseError):
        parse_answer(ex("dance", {"ruleset": "hokm", "ask": "legal-plays"}), 1)
    with pytest.raises(ExerciseError):  # game-winner without scores: the engine gives no winner
        grade(ex("game-winner", {"ruleset": "hokm", "ask": "round-score", "hakem": 0, "team_tricks": [7, 2]}), 0)


def test_grading_ignores_authored_expect():
    wrong_expect = Exercise(id="t", kind="trick-winner", scenario=HOKM_TRICK.scenario, expect={"winner": 2})
    assert grade(wrong_expect, 0).correct is True and grade(wrong_expect, 2).correct is False


# ----------------------------------------------------------------------------- public view

_ANSWER_KEYS = {"expect", "legal", "winner", "points", "awards", "match_winner", "next_hakem",
                "trick_winners", "result", "winner_team", "scores_after", "game_points", "why"}


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


@pytest.mark.parametrize("exercise", [c[0] for c in CASES], ids=[c[0].kind for c in CASES])
def test_public_view_leaks_no_answer(exercise):
    full = Exercise(**{**exercise.__dict__, "expect": {"secret": "XYZZY"}, "prompt": "Go"})
    view = public_view(full)
    assert not (set(_keys(view)) & _ANSWER_KEYS)
    assert "card" not in view and ("card" not in view["scenario"] or exercise.kind == "turn-up")
    text = json.dumps(view)
    assert "XYZZY" not in text and "secret" not in text
    assert view["scenario"] == exercise.scenario  # inputs only, nothing added
    assert view["prompt"] == "Go" and view["kind"] == exercise.kind


def test_public_view_shapes():
    v = public_view(HOKM_LEGAL)
    assert v["choices"] == ["3C", "AH", "KC"] and v["you"] == 1 and v["players"] == 4 and v["sides"] == 2
    assert grade(HOKM_LEGAL, ["3C", "KC"]).expected == ["3C", "KC"]
    assert public_view(TT_TRICK)["choices"] == [0, 1] and public_view(TT_TRICK)["sides"] == 2
    w = public_view(WALK_HOKM)
    assert w["tricks"] == 7 and "trick_winners" not in w
    hs = public_view(HS_TT)
    assert hs["scenario"]["tricks"] == TT_HAND["tricks"] and hs["you"] == 0
    assert learner_seat(Exercise(id="t", kind="legal-cards", scenario=HOKM_LEGAL.scenario, you=3)) == 3


def _real_exercises():
    from tutor.content.lessons import load_all_paths
    from tutor.content.quizzes import load_all_quizzes
    problems = Problems()
    out = [e for path in load_all_paths(problems=problems).values() for s in path for e in s.exercises]
    return out + [q for quiz in load_all_quizzes(problems=problems).values() for q in quiz]


def test_every_real_exercise_grades_and_hides_its_answer(monkeypatch):
    monkeypatch.delenv("TUTOR_CONTENT_DIR", raising=False)
    exercises = _real_exercises()
    assert len(exercises) >= 600
    assert {e.kind for e in exercises} == set(KINDS)
    for e in exercises:
        expected, _ = expected_answer(e)
        assert grade(e, expected).correct is True, e.id
        view = public_view(e)
        assert not (set(_keys(view)) & _ANSWER_KEYS), e.id
