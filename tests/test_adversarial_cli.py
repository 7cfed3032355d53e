"""Adversarial input to the `tutor solve` command line: every failing line is one error line with a
spec code, exit status 2, never a traceback (shared/spec/solve-format.md). Helpers: test_adversarial.
"""

from __future__ import annotations

import json

import pytest
from test_adversarial import BASE, LEGAL, assert_spec_error, out_lines, run_solve

# ================================================================================ tutor solve (CLI)

@pytest.mark.parametrize("raw", [
    b"{", b"not json", b"42", b'"str"', b"null", b"true", b"[]", b"[1, 2]", b"\xff\xfe", b'{"ruleset": "hokm",}',
    b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    json.dumps({**LEGAL, "x": "y" * 2_000_000}).encode(),
], ids=["open-brace", "text", "number", "string", "null", "true", "empty-array", "array", "bad-bytes",
        "trailing-comma", "deep-array", "deep-object", "two-megabyte-line"])
def test_cli_bad_input_is_one_error_line_and_status_2(raw):
    p = run_solve(raw + b"\n")
    assert p.returncode == 2, p
    assert p.stderr == b""
    out = out_lines(p)
    assert len(out) == 1
    assert_spec_error(out[0])


def test_cli_file_argument_and_missing_file(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_bytes(b"not json\n" + json.dumps(LEGAL).encode() + b"\n")
    p = run_solve(b"", str(f))
    assert p.returncode == 2 and p.stderr == b""
    out = out_lines(p)
    assert_spec_error(out[0], "bad-json")
    assert out[1]["legal"] == ["3C", "KC"]
    for bad, why in ((str(tmp_path / "missing.jsonl"), "no such file"), (str(tmp_path), "cannot read: Is a directory")):
        p = run_solve(b"", bad)  # no input at all: a usage error on stderr (tests/test_cli.py), no answer
        assert (p.returncode, p.stdout) == (2, b"")
        assert p.stderr.decode().strip() == f"{bad}: {why}"


def test_cli_empty_input_is_no_output_and_status_0():
    for raw in (b"", b"\n\n", b"   \r\n"):
        p = run_solve(raw)
        assert p.returncode == 0 and p.stdout == b"" and p.stderr == b""


def test_cli_bom_and_crlf_lines():
    line = json.dumps(LEGAL).encode()
    p = run_solve(b"\xef\xbb\xbf" + line + b"\r\n" + line + b"\r\n")
    assert p.returncode == 0, p.stdout
    assert [a["legal"] for a in out_lines(p)] == [["3C", "KC"]] * 2


def test_cli_every_failing_line_is_answered_in_order():
    scenarios = [LEGAL, {**LEGAL, "hand": ["1S"]}, {**LEGAL, "hand": ["AS"], "trick": ["AS"]},
                 {"ruleset": "x"}, {"ruleset": "hokm", "ask": "turn-up"}, {**LEGAL, "hand": "AS"},
                 {**BASE["hokm-score"], "team_tricks": [7, 7]},
                 {**BASE["hokm-playout"], "tricks": [["AS", "2C", "3S", "4S"], ["KC", "5S", "6C", "7C"]]}]
    text = "\n".join(json.dumps(s) for s in scenarios) + "\n"
    p = run_solve(text.encode())
    assert p.returncode == 2 and p.stderr == b""
    out = out_lines(p)
    assert [a.get("error", {}).get("code") for a in out] == [
        None, "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field", "impossible-state",
        "illegal-play"]


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85"], ids=["LS", "PS", "NEL"])
def test_cli_unicode_line_separators_inside_strings_do_not_split_a_line(sep):
    """BUG: solve_stream splits JSON Lines with str.splitlines(), which also breaks at U+2028, U+2029 and
    U+0085 — characters JSON allows raw inside strings. 2 input lines come back as 4 answers, so every
    answer after it is misaligned with its scenario. Split on "\\n" only (and strip a trailing "\\r")."""
    bad = '{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["A' + sep + 'S"]}'
    p = run_solve((bad + "\n" + json.dumps(LEGAL) + "\n").encode("utf-8"))
    assert p.returncode == 2
    out = out_lines(p)
    assert len(out) == 2, out
    assert_spec_error(out[0], "bad-card")
    assert out[1]["legal"] == ["3C", "KC"]


@pytest.mark.parametrize("raw", [
    b'{"ruleset":"hokm","ask":"trick-winner","trump":"S","trick":["AD","2S","KD","JS"],"leader":NaN}',
    b'{"ruleset":"hokm","ask":"trick-winner","trump":"S","trick":["AD","2S","KD","JS"],"leader":Infinity}',
    b"NaN", b"-Infinity",
], ids=["nan-field", "infinity-field", "nan-top", "minus-infinity-top"])
def test_cli_nan_and_infinity_are_not_json(raw):
    """BUG (low): json.loads accepts NaN/Infinity, which RFC 8259 JSON does not have, so they come back
    as bad-field "not nan" / bad-json "not float" instead of bad-json "not valid JSON"."""
    p = run_solve(raw + b"\n")
    assert p.returncode == 2
    a = out_lines(p)[0]
    assert_spec_error(a, "bad-json")
    assert "float" not in a["error"]["message"]


def test_cli_huge_integer_is_an_error_line_not_a_crash():
    p = run_solve(b'{"ruleset":"hokm","ask":"trick-winner","trump":"S","trick":["AD","2S","KD","JS"],"leader":'
                  + b"9" * 5000 + b"}\n")
    assert p.returncode == 2 and p.stderr == b""
    assert_spec_error(out_lines(p)[0])


@pytest.mark.parametrize("raw", [
    b'{"ruleset":"\\udce9","ask":"legal-plays"}',
    b'{"ruleset":"hok\xe9m","ask":"legal-plays"}',
    b'{"ruleset":"hokm","ask":"legal-plays","trump":"H","hand":["AS"],"\\ud800":1}',
], ids=["escaped-lone-surrogate", "latin1-byte", "surrogate-key"])
def test_cli_error_messages_are_valid_unicode(raw):
    """BUG: a lone surrogate (a JSON escape \\udce9, or a non-UTF-8 byte decoded with surrogateescape)
    is echoed into the message; the line is then not valid Unicode (serde_json, Go, etc. reject it).
    The same root cause makes POST /api/v1/solve answer 500 (see the HTTP tests)."""
    p = run_solve(raw + b"\n")
    assert p.returncode == 2
    assert_spec_error(out_lines(p)[0])
