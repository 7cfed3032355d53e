"""``tutor solve``: scenarios (one JSON value or JSON Lines) in, answers out (spec: Transport)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from .registry import command


# tutor solve

def solve_stream(data: str | bytes, out: TextIO) -> int:
    """Answer every scenario in ``data`` (one JSON value, or JSON Lines; bytes must be UTF-8),
    writing one JSON answer per line to ``out``. Returns the number of failed scenarios.

    Lines end at "\\n" only (an optional "\\r" before it is dropped): U+2028, U+2029 and U+0085
    may stand raw inside JSON strings. A leading byte order mark is skipped; a line that is not
    UTF-8 is ``bad-json`` on its own.
    """
    from ..engine.errors import BadJsonError
    from ..solve import answer, answer_text, parse_json
    data = data.removeprefix("\ufeff") if isinstance(data, str) else data.removeprefix(b"\xef\xbb\xbf")
    if not data.strip():
        return 0
    try:
        answers = [answer(parse_json(data))]  # one object, possibly spread over several lines
    except BadJsonError:
        lines: list[str] | list[bytes]
        if isinstance(data, str):
            lines = [line.removesuffix("\r") for line in data.split("\n")]
        else:
            lines = [line.removesuffix(b"\r") for line in data.split(b"\n")]
        answers = [answer_text(line) for line in lines if line.strip()]
    failed = 0
    for a in answers:
        if "error" in a:
            failed += 1
        out.write(json.dumps(a) + "\n")  # ASCII-escaped; messages hold no lone surrogates
    return failed


@command("solve", help="answer scenarios (one JSON object or JSON Lines) from FILE or standard input",
         arguments=[(("file",), {"nargs": "?", "help": "input file (default: standard input)"})])
def _solve(args: argparse.Namespace) -> int:
    from ..engine.errors import clean_text
    try:
        if args.file and args.file != "-":
            with open(args.file, "rb") as f:
                data = f.read()
        else:
            data = sys.stdin.buffer.read()
    except OSError as e:
        message = clean_text(f"cannot read the input: {e}.")
        print(json.dumps({"error": {"code": "bad-json", "message": message}}))
        return 2
    return 2 if solve_stream(data, sys.stdout) else 0

