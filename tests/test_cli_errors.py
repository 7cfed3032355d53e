"""The CLI's answers to bad input (issue 20): one clear line naming what is wrong, exit status 2,
never a traceback or a cascade of false errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.i18n import LANGUAGES
from tutor.migrations import head

ROOT = Path(__file__).resolve().parent.parent
HOKM_QUIZ = ROOT / "quizzes" / "hokm.yaml"
LESSON = ROOT / "lessons" / "hokm" / "en" / "01-what-is-hokm.md"


def tutor(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-m", "tutor.cli", *args], check=False, input=stdin,
                          capture_output=True, timeout=120, env={**os.environ, **(env or {})}, cwd=cwd)


@pytest.mark.parametrize("url", ["mysql://user@localhost/tutor", "oracle://x@y/z", "not a url"])
def test_db_with_an_unsupported_database_url_is_one_line(tmp_path, url):
    p = tutor("db", "current", env={"TUTOR_DATABASE_URL": url, "TUTOR_INSTANCE_PATH": str(tmp_path)})
    err = p.stderr.decode()
    assert p.returncode == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("tutor db current: TUTOR_DATABASE_URL")
    assert "sqlite" in err and "postgresql" in err


def test_check_takes_a_copied_quiz_s_ruleset_from_its_content(tmp_path):
    copy = tmp_path / "myquiz.yaml"
    copy.write_bytes(HOKM_QUIZ.read_bytes())
    original = tutor("check", str(HOKM_QUIZ))
    p = tutor("check", str(copy))
    assert original.returncode == 0, original.stdout + original.stderr
    assert (p.returncode, p.stderr) == (0, b""), p.stdout.decode()[:2000]
    assert p.stdout == original.stdout  # "tutor check: OK (... 1 quiz files, N questions)"


def _bad_ruleset(tmp_path: Path) -> tuple[Path, int]:
    text = HOKM_QUIZ.read_text(encoding="utf-8")
    assert text.startswith("ruleset: hokm\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("ruleset: hokm\n", "ruleset: hokum\n", 1), encoding="utf-8")
    return bad, 1


def test_export_with_a_bad_ruleset_gives_one_error_at_its_line(tmp_path):
    bad, line = _bad_ruleset(tmp_path)
    p = tutor("export", str(bad))
    assert (p.returncode, p.stdout) == (2, b"")
    assert p.stderr.decode().splitlines() == [
        f"{bad}:{line}: ruleset must be one of hokm, all-fours, trinidad, not 'hokum'"]


def test_check_with_a_bad_ruleset_gives_one_error_at_its_line(tmp_path):
    bad, line = _bad_ruleset(tmp_path)
    p = tutor("check", str(bad))
    assert p.returncode == 2
    problems = [x for x in p.stdout.decode().splitlines() + p.stderr.decode().splitlines()
                if x.startswith(str(bad))]
    assert problems == [f"{bad}:{line}: ruleset must be one of hokm, all-fours, trinidad, not 'hokum'"]


def test_export_of_a_lesson_file_says_it_is_not_a_quiz():
    p = tutor("export", str(LESSON))
    err = p.stderr.decode()
    assert (p.returncode, p.stdout) == (2, b"")
    assert err.startswith(f"{LESSON}:1: this is a lesson file")
    assert "not a quiz" in err and "'ruleset' and 'questions'" in err
    assert "YAML syntax error" not in err


def test_export_with_an_unknown_language_is_a_usage_error():
    p = tutor("export", str(HOKM_QUIZ), "--lang", "xx")
    err = p.stderr.decode()
    assert (p.returncode, p.stdout) == (2, b"")
    assert f"argument --lang: must be one of {', '.join(LANGUAGES)}, not 'xx'" in err
    assert ":0:" not in err


def test_solve_names_the_line_of_each_error_in_json_lines():
    good = json.dumps({"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]})
    text = "\n".join([good, "", "not json", good, json.dumps({"ruleset": "hokm", "ask": "nope"})]) + "\n"
    p = tutor("solve", stdin=text.encode())
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert p.returncode == 2
    assert [a["winner"] if "winner" in a else a["error"]["code"] for a in out] == [3, "bad-json", 3, "unknown-ask"]
    assert out[1]["error"]["message"].startswith("input line 3: ")
    assert out[3]["error"]["message"].startswith("input line 5: ")
    assert all(set(a["error"]) == {"code", "message"} for a in (out[1], out[3]))  # the spec's shape


def test_db_upgrade_refuses_to_go_down(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    assert main(["db", "upgrade"]) == 0
    capsys.readouterr()
    for target in ("base", "0001"):
        assert main(["db", "upgrade", "--to", target]) == 2
        err = capsys.readouterr().err
        assert "downgrading is not offered" in err and f"--to {target}" in err, err
    assert main(["db", "upgrade", "--to", "no-such-rev"]) == 2
    assert "no revision 'no-such-rev'" in capsys.readouterr().err
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out == f"{head()}\n"


def test_teacher_add_reads_a_piped_password_without_a_warning(tmp_path):
    env = {"TUTOR_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "TUTOR_INSTANCE_PATH": str(tmp_path)}
    assert tutor("db", "upgrade", env=env).returncode == 0
    p = tutor("teacher", "add", "amir", stdin=b"a long enough secret 42\n", env=env)
    assert p.returncode == 0, p.stderr
    assert p.stderr == b""  # no GetPassWarning, no prompt
    assert p.stdout.decode() == "teacher amir added\n"
