"""``tutor solve``: scenarios (one JSON value or JSON Lines) in, answers out (spec: Transport)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

import orjson

from .registry import command

# tutor solve

def solve_stream(data: str | bytes, out: TextIO) -> int:
    """Answer every scenario in ``data`` (one JSON value, or JSON Lines; bytes must be UTF-8),
    writing one JSON answer per line to ``out``. Returns the number of failed scenarios.

    Lines end at "\\n" only (an optional "\\r" before it is dropped): U+2028, U+2029 and U+0085
    may stand raw inside JSON strings. A leading byte order mark is skipped; a line that is not
    UTF-8 is ``bad-json`` on its own. In JSON Lines, an error's message starts with the line it
    answers (``"input line 3: ..."``, counting from 1, blank lines included); the error object keeps
    the spec's shape (``code`` and ``message`` only).
    """
    from ..engine.errors import BadJsonError
    from ..solve import answer, answer_text, has_long_number, parse_json
    data = data.removeprefix("\ufeff") if isinstance(data, str) else data.removeprefix(b"\xef\xbb\xbf")
    if not data.strip():
        return 0
    write = out.write
    try:
        one = answer(parse_json(data))  # one object, possibly spread over several lines
    except BadJsonError:
        pass
    else:
        write(_line(one))
        return 1 if "error" in one else 0
    lines: list[str | bytes]
    if isinstance(data, str):
        lines = [line.removesuffix("\r") for line in data.split("\n")]
    else:
        lines = [line.removesuffix(b"\r") for line in data.split(b"\n")]
    failed = 0
    # No run of 19 digits in the whole input: none in any line, so each line is what orjson reads
    # (parse_json's first choice); a line it refuses goes to answer_text, which says why.
    loads = None if has_long_number(data) else orjson.loads
    for n, line in enumerate(lines, 1):  # each answer written as it is made: none kept (nor traced by the GC)
        if line.strip():
            a = None
            if loads is not None:
                try:
                    value = loads(line)
                except orjson.JSONDecodeError:
                    pass
                else:
                    a = answer(value)
            if a is None:
                a = answer_text(line)
            if "error" in a:
                failed += 1
                a = _numbered(a, n)
            write(_line(a))
    return failed


def _line(a: dict) -> str:
    """One answer as a line of JSON, ASCII only (non-ASCII escaped, as :func:`json.dumps` writes
    it): encoded by orjson where that gives ASCII (every answer but an error quoting non-ASCII
    input; faster, measured in issue 21), else by :mod:`json`."""
    try:
        text = orjson.dumps(a, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        pass
    else:
        if text.isascii():
            return text.decode("ascii")
    return json.dumps(a) + "\n"  # ASCII-escaped; messages hold no lone surrogates


def _numbered(a: dict, n: int) -> dict:
    """An answer of JSON Lines line ``n``: an error's message names the line."""
    if "error" in a:
        error = a["error"]
        return {**a, "error": {**error, "message": f"input line {n}: {error['message']}"}}
    return a


@command("solve", help="answer scenarios (one JSON object or JSON Lines) from FILE or standard input",
         arguments=[(("file",), {"nargs": "?", "help": "input file (default: standard input)"})])
def _solve(args: argparse.Namespace) -> int:
    name = args.file if args.file and args.file != "-" else None
    try:
        if name is not None:
            with open(name, "rb") as f:
                data = f.read()
        else:
            data = sys.stdin.buffer.read()
    except OSError as e:  # no input at all: a usage error on stderr, not an answer
        why = "no such file" if isinstance(e, FileNotFoundError) else f"cannot read: {e.strerror or e}"
        print(f"{name or '<stdin>'}: {why}", file=sys.stderr)
        return 2
    return 2 if solve_stream(data, sys.stdout) else 0

