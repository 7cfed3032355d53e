"""`tutor solve` over standard input and files (spec: Transport)."""

import json
import subprocess
import sys

import pytest

from tutor.cli import _COMMANDS, build_parser, main, solve_stream

LEGAL = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"], "trick": ["10C"]}
WINNER = {"ruleset": "hokm", "ask": "trick-winner", "trump": "S", "trick": ["AD", "2S", "KD", "JS"]}


def run_cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tutor.cli", "solve", *args], check=False, input=stdin,
                          capture_output=True, timeout=60)


def lines(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines()]


def test_one_object_over_several_lines():
    p = run_cli(json.dumps(LEGAL, indent=2).encode())
    assert p.returncode == 0
    assert p.stderr == b""
    out = lines(p.stdout.decode())
    assert len(out) == 1
    assert out[0]["legal"] == ["3C"]


def test_json_lines_with_blank_line_and_errors():
    text = "\n".join([json.dumps(LEGAL), "", "   ", "not json", json.dumps(WINNER), "[1, 2]",
                      json.dumps({"ruleset": "hokm", "ask": "turn-up", "card": "JS"})]) + "\n"
    p = run_cli(text.encode())
    assert p.returncode == 2
    assert p.stderr == b""
    out = lines(p.stdout.decode())
    assert [a.get("error", {}).get("code") for a in out] == [None, "bad-json", None, "bad-json", "unknown-ask"]
    assert out[0]["legal"] == ["3C"]
    assert out[2]["winner"] == 3
    assert out[2]["card"] == "JS"


def test_all_good_exit_zero_and_file_argument(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps(LEGAL) + "\n" + json.dumps(WINNER) + "\n", encoding="utf-8")
    p = run_cli(b"", str(f))
    assert p.returncode == 0
    assert [a.get("legal", a.get("winner")) for a in lines(p.stdout.decode())] == [["3C"], 3]


def test_bad_bytes_and_empty_input():
    p = run_cli(b'{"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["\xff"]}\n' + json.dumps(LEGAL).encode())
    assert p.returncode == 2
    out = lines(p.stdout.decode())
    assert out[0]["error"]["code"] == "bad-json"  # RFC 8259: JSON text is UTF-8; the line alone fails
    assert out[1]["legal"] == ["3C"]
    p = run_cli(b"")
    assert (p.returncode, p.stdout) == (0, b"")


def test_missing_file_is_a_usage_error_on_stderr(tmp_path):
    """No input at all is not a scenario that failed: `FILE: no such file` on stderr, nothing on stdout."""
    missing = tmp_path / "nope.jsonl"
    p = run_cli(b"", str(missing))
    assert p.returncode == 2
    assert p.stdout == b""
    assert p.stderr.decode().strip() == f"{missing}: no such file"


def test_solve_stream_counts_failures():
    import io
    out = io.StringIO()
    assert solve_stream(json.dumps(LEGAL) + "\n{}\n", out) == 1
    got = lines(out.getvalue())
    assert got[1]["error"]["code"] == "unknown-ruleset"


def test_main_without_command_prints_help(capsys):
    assert main([]) == 1
    assert "solve" in capsys.readouterr().out


def test_subcommands_registered():
    assert "solve" in _COMMANDS
    parser = build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["no-such-command"])


def test_bench_hokm_json(capsys, tmp_path):
    keep = tmp_path / "hokm.jsonl"
    assert main(["bench", "hokm", "--seconds", "0.01", "--scenarios", "60", "--json", "--keep", str(keep),
                 "--repeats", "3", "--items", "200"]) in (0, 1)  # 1: a reason over 10x (tested in test_bench)
    figures = json.loads(capsys.readouterr().out)["hokm"]
    calls = figures.pop("calls")
    assert sorted(figures) == ["legal-plays decisions/s", "random rounds/s (fast loop)",
                               "random rounds/s (state machine)", "solve scenarios/s", "trick winners/s"]
    assert all(v > 0 for v in figures.values())
    assert sorted(calls) == ["card reason", "legal plays + reason", "solve first-lead", "solve legal-plays", "solve next-lead",
                             "solve round-playout",
                             "solve round-score", "solve trick-winner", "trick winner + reason"]
    for c in calls.values():
        assert sorted(c) == ["bare ns", "ns", "ratio"]
        assert c["bare ns"] > 0 and c["ns"] > 0 and c["ratio"] > 0
    scenarios = [json.loads(x) for x in keep.read_text(encoding="utf-8").splitlines()]
    assert len(scenarios) == 60
    assert {s["ask"] for s in scenarios} == {"round-playout", "round-score", "trick-winner", "legal-plays"}
    p = subprocess.run([sys.executable, "-m", "tutor.cli", "solve", str(keep)], check=False, capture_output=True,
                       timeout=60)
    assert p.returncode == 0
    assert not any("error" in a for a in lines(p.stdout.decode()))


def test_bench_unknown_ruleset(capsys):
    assert main(["bench", "bridge", "--seconds", "0.01"]) == 2
    assert "no benchmark for: bridge" in capsys.readouterr().out
