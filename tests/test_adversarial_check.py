"""Adversarial input to `tutor check`: `file:line: message` for every problem and exit status 2,
never a traceback, also for binary, empty, deeply nested or huge files.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

# ================================================================================ tutor check

STEP = textwrap.dedent("""\
    ---
    id: adv-step
    ruleset: hokm
    unit: 1
    unit_title: "Tricks"
    order: 1
    title: "Step 1"
    goal: "Goal."
    rules: [H13, H14]
    source: seed 002
    ---
    Body.

    ```exercise
    id: follow-1
    kind: legal-cards
    prompt: "Which?"
    difficulty: 1
    scenario: {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}
    expect: {"legal": ["3C", "KC"]}
    ```
    """)
LINE = re.compile(r"^.+:\d+: \S.*$")


def run_check(*paths: str, timeout: int = 60, env=None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "tutor.cli", "check", *paths], check=False,
                              capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tutor check {' '.join(paths)} did not finish in {timeout} s")


def plant(tmp_path, text: str, name: str = "01-adv.md"):
    d = tmp_path / "lessons" / "hokm" / "en"
    d.mkdir(parents=True, exist_ok=True)
    f = d / name
    f.write_text(text, encoding="utf-8")
    return f


def assert_check_fails(p: subprocess.CompletedProcess, needle: str | None = None) -> list[str]:
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, (out + err)[-1500:]
    assert p.returncode == 2, (p.returncode, out[-500:], err[-1500:])
    lines = [x for x in out.splitlines() if x.strip() and not x.startswith("tutor check:")]
    assert lines, out
    for x in lines:
        assert LINE.match(x), x
    if needle:
        assert any(needle in x for x in lines), lines
    return lines


def test_check_planted_good_file_passes(tmp_path):
    f = plant(tmp_path, STEP)
    p = run_check(str(f))
    assert p.returncode == 0, p.stdout.decode()


@pytest.mark.parametrize(("change", "needle"), [
    (lambda t: t.replace("---\nid:", "id:", 1), "front matter"),
    (lambda t: t.replace('"AH"', '"1H"'), "1H"),
    (lambda t: t.replace('"AH"', '"AX"'), "AX"),
    (lambda t: t.replace('{"legal": ["3C", "KC"]}', '{"legal": ["3C"]}'), "expect"),
    (lambda t: t.replace("difficulty: 1", "difficulty: [1"), "YAML"),
    (lambda t: t.replace("rules: [H13, H14]", "rules: [H13, H14"), ""),
    (lambda t: t.replace("difficulty: 1", "difficulty: 1\ndifficulty: 2"), "difficulty"),
    (lambda t: t.replace("expect: {", "expect: !!python/object/apply:os.system ['true']\nx: {"), ""),
    (lambda t: t.rstrip().removesuffix("```"), "not closed"),
    (lambda t: t.replace("kind: legal-cards", "kind: chess"), "chess"),
    (lambda t: t.replace("scenario: {", 'scenario: "nope"\nx: {'), ""),
    (lambda t: t.replace('["10C"]}', '["10C", "3C"]}'), ""),
], ids=["no-front-matter", "unknown-card-1H", "unknown-card-AX", "wrong-expect", "bad-yaml-block",
        "bad-yaml-front-matter", "duplicate-key", "python-tag", "unclosed-block", "unknown-kind",
        "scenario-string", "duplicate-card"])
def test_check_planted_bad_lesson(tmp_path, change, needle):
    f = plant(tmp_path, change(STEP))
    assert_check_fails(run_check(str(f)), needle or None)


def test_check_duplicate_step_ids(tmp_path):
    plant(tmp_path, STEP, "01-adv.md")
    plant(tmp_path, STEP.replace("order: 1", "order: 2"), "02-adv.md")
    assert_check_fails(run_check(str(tmp_path / "lessons" / "hokm" / "en")), "adv-step")


def test_check_duplicate_exercise_ids_in_a_step(tmp_path):
    block = STEP[STEP.index("```exercise"):]
    f = plant(tmp_path, STEP + "\n" + block)
    assert_check_fails(run_check(str(f)), "follow-1")


def test_check_binary_and_empty_files(tmp_path):
    d = tmp_path / "lessons" / "hokm" / "en"
    d.mkdir(parents=True)
    (d / "01-bin.md").write_bytes(b"\xff\xfe\x00garbage")
    (d / "02-empty.md").write_bytes(b"")
    assert_check_fails(run_check(str(d / "01-bin.md")), "UTF-8")
    assert_check_fails(run_check(str(d / "02-empty.md")), "front matter")


def test_check_deeply_nested_yaml_is_a_message_not_a_traceback(tmp_path):
    """BUG: an exercise block whose value nests 5 000 levels deep makes the YAML loader raise
    RecursionError; `tutor check` dies with a traceback and exit status 1."""
    f = plant(tmp_path, STEP.replace('expect: {"legal": ["3C", "KC"]}', "expect: " + "[" * 5000 + "]" * 5000))
    assert_check_fails(run_check(str(f)))


def test_check_huge_integer_is_a_message_not_a_traceback(tmp_path):
    """BUG: `difficulty: 999…(5000 digits)` makes PyYAML's int constructor raise ValueError (Python's
    int-string limit); `tutor check` dies with a traceback and exit status 1 (same in quiz files)."""
    f = plant(tmp_path, STEP.replace("difficulty: 1", "difficulty: " + "9" * 5000))
    assert_check_fails(run_check(str(f)), "difficulty")


def test_check_quiz_huge_integer_is_a_message_not_a_traceback(tmp_path):
    q = tmp_path / "quizzes"
    q.mkdir()
    (q / "hokm.yaml").write_text("ruleset: hokm\nquestions:\n  - id: q1\n    kind: legal-cards\n    difficulty: "
                                 + "9" * 5000 + "\n", encoding="utf-8")
    assert_check_fails(run_check(str(q / "hokm.yaml")))


def test_check_yaml_alias_bomb_finishes(tmp_path):
    """BUG: a "billion laughs" block (9 levels of 9 aliases) makes yamllines._walk visit every aliased
    node again: 9**9 visits, `tutor check` never finishes. Aliases should be walked once (or refused)."""
    lol = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i in range(8):
        p, n = chr(97 + i), chr(98 + i)
        lol.append(f"{n}: &{n} [" + ",".join([f"*{p}"] * 9) + "]")
    extra = "extra:\n" + "".join(f"  {x}\n" for x in lol)
    f = plant(tmp_path, STEP.replace('expect: {"legal": ["3C", "KC"]}\n', 'expect: {"legal": ["3C", "KC"]}\n' + extra))
    assert_check_fails(run_check(str(f), timeout=30))


def test_check_missing_path(tmp_path):
    assert_check_fails(run_check(str(tmp_path / "nope.md")))
