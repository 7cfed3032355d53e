"""``tutor check``: the real content passes; planted bad files fail with file:line and exit 2."""

from __future__ import annotations

import io
import textwrap

import pytest

from tutor import i18n
from tutor.cli import main as tutor_main
from tutor.content.check import check
from tutor.content.check import main as check_main
from tutor.content.kinds import KINDS

PROMPTS = {"en": "Clubs were led. Which cards may you play?", "fa": "گشنیز آمده است. کدام کارت‌ها مجازند؟",
           "bg": "Изиграна е спатия. Кои карти може да играете?", "te": "క్లబ్స్ వేశారు. మీరు ఏ కార్డులు ఆడవచ్చు?"}


def step_text(lang: str, step_id: str, order: int, rules: str = "[H13, H14]") -> str:
    return textwrap.dedent(f"""\
        ---
        id: {step_id}
        ruleset: hokm
        unit: 1
        unit_title: "Tricks {lang}"
        order: {order}
        title: "Step {order} {lang}"
        goal: "Goal {lang}."
        rules: {rules}
        source: seed 002 (H13, H14)
        ---
        Body text in {lang}.

        ```exercise
        id: follow-1
        kind: legal-cards
        prompt: "{PROMPTS[lang]}"
        difficulty: 1
        scenario: {{"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}}
        expect: {{"legal": ["3C", "KC"]}}
        ```
        """)


QUIZ = textwrap.dedent("""\
    ruleset: hokm
    questions:
      - id: hokm-legal-001
        kind: legal-cards
        difficulty: 1
        teaches: hokm-follow-suit
        scenario: {"ruleset": "hokm", "ask": "legal-plays", "trump": "S", "hand": ["2H", "KH", "5C"], "trick": ["9H"]}
        expect: {"legal": ["2H", "KH"]}
      - id: hokm-round-001
        kind: round-score
        difficulty: 2
        teaches: hokm-void
        scenario: {"ruleset": "hokm", "ask": "round-score", "hakem": 2, "team_tricks": [0, 7]}
        expect: {"points": 3, "result": "hakem-kot"}
    """)

EN1 = "lessons/hokm/en/01-follow.md"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A small valid content tree (hokm, 2 steps × 4 languages, a quiz) as the current directory."""
    for lang in i18n.LANGUAGES:
        d = tmp_path / "lessons" / "hokm" / lang
        d.mkdir(parents=True)
        (d / "01-follow.md").write_text(step_text(lang, "hokm-follow-suit", 1), encoding="utf-8")
        (d / "02-void.md").write_text(step_text(lang, "hokm-void", 2, "[H15]"), encoding="utf-8")
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "hokm.yaml").write_text(QUIZ, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def edit(path, old, new, count=1):
    from pathlib import Path
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, count), encoding="utf-8")


def run(*argv):
    out = io.StringIO()
    status = check_main(list(argv), out=out)
    return status, out.getvalue().splitlines()


# ----------------------------------------------------------------------------- the real content

def test_real_content_passes(capsys, monkeypatch):
    monkeypatch.delenv("TUTOR_CONTENT_DIR", raising=False)
    report = check()
    assert [str(p) for p in report.problems] == []
    assert report.lesson_files >= 3 * 4 * 25 and report.questions >= 3 * 60
    assert tutor_main(["check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("tutor check: OK (")


# ----------------------------------------------------------------------------- planted problems

def test_valid_tree_passes(tree):
    status, out = run("lessons/hokm", "quizzes/hokm.yaml", "--all-languages")
    assert status == 0
    assert out == ["tutor check: OK (8 lesson files, 8 exercises, 1 quiz files, 2 questions)"]


def test_bad_card(tree):
    edit(EN1, '"hand": ["3C"', '"hand": ["ZZ"')
    status, out = run("lessons/hokm/en")
    assert status == 2
    assert out[0] == (f"{EN1}:19: exercise follow-1: scenario.hand[0]: unknown card 'ZZ' "
                      "(write rank A K Q J 10 9 … 2 then suit S H D C, e.g. \"10H\")")
    assert out[-1].startswith("tutor check: 1 error(s)")


def test_wrong_expect_names_field_and_both_values(tree):
    edit(EN1, 'expect: {"legal": ["3C", "KC"]}', 'expect: {"legal": ["3C"]}')
    status, out = run(EN1)
    assert status == 2
    assert out[0] == f"{EN1}:20: exercise follow-1: expect.legal is ['3C'] but the engine says ['3C', 'KC']"


def test_expect_order_of_legal_cards_does_not_matter_but_a_missing_field_does(tree):
    edit(EN1, 'expect: {"legal": ["3C", "KC"]}', 'expect: {"legal": ["kc", "3C"], "winner": 1}')
    status, out = run(EN1)
    assert status == 2
    assert out[:-1] == [(f"{EN1}:20: exercise follow-1: expect.winner: the engine's answer has no field 'winner' "
                        "(it has legal)")]


def test_missing_translation(tree):
    (tree / "lessons/hokm/te/02-void.md").unlink()
    status, out = run("lessons/hokm/en", "--all-languages")
    assert status == 2
    assert out[:-1] == ["lessons/hokm/en/02-void.md:1: missing translation: lessons/hokm/te/02-void.md does not exist"]
    assert run("lessons/hokm/en")[0] == 0  # only English asked for: no translation check


def test_missing_language_directory(tree):
    for f in (tree / "lessons/hokm/bg").iterdir():
        f.unlink()
    (tree / "lessons/hokm/bg").rmdir()
    status, out = run("lessons/hokm", "--all-languages")
    assert status == 2
    assert out[:-1] == ["lessons/hokm/bg:0: missing translation: no bg lesson files (2 in lessons/hokm/en)"]


def test_translation_must_keep_exercise_blocks_and_front_matter(tree):
    fa = "lessons/hokm/fa/01-follow.md"
    edit(fa, '"trick": ["10C"]', '"trick": ["9C"]')
    edit(fa, "rules: [H13, H14]", "rules: [H13]")
    edit("lessons/hokm/bg/01-follow.md", "prompt:", "prompt: \"\"\nyou: 1\nxprompt:")
    status, out = run("lessons/hokm", "--all-languages")
    assert status == 2
    assert f"{fa}:9: rules is ['H13'] but ['H13', 'H14'] in {EN1} (must be identical in every language)" in out
    assert (f"{fa}:19: exercise follow-1: scenario.trick is ['9C'] but ['10C'] in {EN1} "
            "(only prompt may differ between languages)") in out
    bg = "lessons/hokm/bg/01-follow.md"
    assert out[:3] == [
        f"{bg}:17: exercise follow-1: prompt must be non-empty text",
        f"{bg}:18: exercise follow-1: you is 1 but None in {EN1} (only prompt may differ between languages)",
        f"{bg}:19: exercise follow-1: unknown field 'xprompt'",
    ]
    assert len(out) == 6


def test_bad_yaml_in_exercise_block_and_front_matter(tree):
    edit(EN1, 'expect: {"legal": ["3C", "KC"]}', 'expect: {"legal": ["3C", "KC"]')
    edit("lessons/hokm/en/02-void.md", "order: 2", "order: [2")
    status, out = run("lessons/hokm/en")
    assert status == 2
    assert out[0].startswith(f"{EN1}:20: YAML syntax error: expected ',' or '}}'")
    assert out[1].startswith("lessons/hokm/en/02-void.md:7: YAML syntax error:")


def test_bad_yaml_in_quiz(tree):
    edit("quizzes/hokm.yaml", "  - id: hokm-round-001", "  - id: [hokm-round-001")
    status, out = run("quizzes/hokm.yaml")
    assert status == 2
    assert out[0].startswith("quizzes/hokm.yaml:10: YAML syntax error")


def test_quiz_problems(tree):
    edit("quizzes/hokm.yaml", "teaches: hokm-void", "teaches: hokm-nothing")
    edit("quizzes/hokm.yaml", "id: hokm-round-001", "id: hokm-legal-001")
    edit("quizzes/hokm.yaml", "[0, 7]", "[7, 7]")
    edit("quizzes/hokm.yaml", "kind: legal-cards", "kind: legal-card")
    status, out = run("quizzes/hokm.yaml")
    assert status == 2
    assert out[:-1] == [
        f"quizzes/hokm.yaml:4: question hokm-legal-001: unknown kind 'legal-card' (use one of {', '.join(KINDS)})",
        "quizzes/hokm.yaml:9: question id 'hokm-legal-001' is also used at quizzes/hokm.yaml:3",
        "quizzes/hokm.yaml:12: question hokm-legal-001: teaches 'hokm-nothing' is not a lesson step of hokm",
        ("quizzes/hokm.yaml:13: question hokm-legal-001: the engine rejects the scenario (impossible-state): "
        "both teams cannot have 7 tricks: the round ends when the first team takes 7."),
    ]


def test_kind_and_ask_must_agree(tree):
    edit("quizzes/hokm.yaml", "kind: round-score", "kind: trick-winner")
    status, out = run("quizzes/hokm.yaml")
    assert status == 2
    assert out[0] == ("quizzes/hokm.yaml:13: question hokm-round-001: kind trick-winner takes ask trick-winner, "
                      "not 'round-score'")


def test_order_file_number_and_rule_ids(tree):
    edit("lessons/hokm/en/02-void.md", "order: 2", "order: 3")
    edit(EN1, "rules: [H13, H14]", "rules: [H13, H99]")
    status, out = run("lessons/hokm/en")
    assert status == 2
    assert out[:-1] == [
        f"{EN1}:9: rules: 'H99' is not a rule point (C1-C33, T1-T23, H1-H27, K1-K27, def-*: tutor rule --list)",
        "lessons/hokm/en/02-void.md:6: order is 3 but the file name starts with 02",
        ("lessons/hokm/en/02-void.md:6: order jumps to 3: the steps must be numbered 1, 2, 3 … without gaps "
        "(expected 2)"),
    ]


def test_duplicate_step_ids_missing_fields(tree):
    edit(EN1, "goal: \"Goal en.\"\n", "")
    status, out = run(EN1)
    assert status == 2
    assert out[0] == f"{EN1}:1: front matter: missing required field 'goal'"
    edit("lessons/hokm/en/02-void.md", "id: hokm-void", "id: hokm-follow-suit")
    edit(EN1, "ruleset: hokm", "goal: ok\nruleset: hokm")
    status, out = run("lessons/hokm/en")
    assert out[:-1] == [
        "lessons/hokm/en/02-void.md:2: step id 'hokm-follow-suit' is also used by lessons/hokm/en/01-follow.md"]


def test_coverage(tree):
    (tree / "lessons" / "COVERAGE.md").write_text(textwrap.dedent("""\
        # Rule coverage

        ## hokm

        | rule | steps |
        |---|---|
        | H13 | hokm-follow-suit |
        | H14 | hokm-follow-suit, hokm-void |
        | H15 | hokm-gone |
        """), encoding="utf-8")
    status, out = run("lessons/COVERAGE.md", "lessons/hokm/en")
    assert status == 2
    assert "lessons/COVERAGE.md:8: H14: step hokm-void does not list H14 in its rules (lessons/hokm/en/02-void.md)" in out
    assert "lessons/COVERAGE.md:9: H15: 'hokm-gone' is not a lesson step of hokm" in out
    assert "lessons/COVERAGE.md:3: H1 has no row in the hokm section" in out
    assert "lessons/COVERAGE.md:3: H1 is taught by no hokm lesson step (no step lists it in rules)" in out
    # H13 and H15 are taught, but every verdict of the tree's exercises cites H14 only
    assert "lessons/COVERAGE.md:7: H13 is only taught: 0 lesson exercise(s) and 0 quiz + 0 generated question(s) " \
           "have a verdict that cites it (needs 1 and 2; tutor check --coverage)" in out
    assert any(line.startswith("lessons/COVERAGE.md:9: H15 is only taught: 0 lesson exercise(s) and 0 quiz + ")
               for line in out)
    assert not any(": H14 is only taught" in line for line in out)
    # H15 row bad, H14 row bad, H13 and H15 only taught, then H1-H12 and H16-H27 neither rowed nor taught
    assert len(out) == 1 + 2 + 2 + 2 * 24


COVERAGE_OK = """\
    # Rule coverage

    ## hokm

    Not yet checked: {pending}

    | rule | steps |
    |---|---|
    | H13 | hokm-follow-suit |
    | H14 | hokm-follow-suit |
    | H15 | hokm-void |
    """


def test_coverage_checked_by_verdicts(tree):
    from tutor.content.coverage import generated_points, verdict_points
    from tutor.content.quizzes import load_quiz

    quiz = load_quiz("hokm", tree)
    assert [verdict_points(q) for q in quiz] == [("H14",), ("H20", "H23", "H22", "K12")]
    assert "H16" in generated_points("hokm") and "H13" not in generated_points("hokm")
    (tree / "lessons" / "COVERAGE.md").write_text(textwrap.dedent(COVERAGE_OK.format(pending="H13, H15, H14, H99")),
                                                 encoding="utf-8")
    status, out = run("lessons/COVERAGE.md", "lessons/hokm/en", "--coverage")
    assert status == 2
    assert "lessons/COVERAGE.md:5: H14 is checked now: remove it from 'Not yet checked'" in out
    assert "lessons/COVERAGE.md:5: Not yet checked: H99 is not a rule point of hokm" in out
    assert not any("H13 is only taught" in line or "H15 is only taught" in line for line in out)
    table = {line.split()[1]: line.split()[2:] for line in out if line.startswith("hokm: H")}
    assert list(table) == [f"H{n}" for n in range(1, 28)]
    assert table["H13"] == ["1", "0", "0", "0", "only", "taught", "(pending)"]
    assert table["H14"][:3] == ["1", "2", "1"] and int(table["H14"][3]) >= 1
    assert table["H14"][4:] == ["taught", "and", "checked"]
    assert table["H1"] == ["0", "0", "0", "0", "not", "taught"]
    assert "hokm: 1 of 27 points taught and checked, 2 only taught (H13, H15)" in out
    # without the pending line the two points only taught fail the check
    (tree / "lessons" / "COVERAGE.md").write_text(textwrap.dedent(COVERAGE_OK.format(pending="")), encoding="utf-8")
    status, out = run("lessons/COVERAGE.md", "lessons/hokm/en")
    assert status == 2
    assert [line.split(" is only taught")[0] for line in out if "is only taught" in line] == [
        "lessons/COVERAGE.md:9: H13", "lessons/COVERAGE.md:11: H15"]
    assert not any("--coverage" in line and line.startswith("hokm:") for line in out)


def test_tutor_cli_check_exit_status(tree, capsys):
    assert tutor_main(["check", "lessons/hokm/en"]) == 0
    assert capsys.readouterr().out.startswith("tutor check: OK")
    edit(EN1, '"hand": ["3C"', '"hand": ["3X"')
    assert tutor_main(["check", "lessons/hokm/en/01-follow.md"]) == 2
    assert capsys.readouterr().out.startswith(f"{EN1}:19: exercise follow-1: scenario.hand[0]: unknown card '3X'")
    assert tutor_main(["check", "no/such/file.md"]) == 2
    assert capsys.readouterr().out.startswith("no/such/file.md:0: no such file or directory")
