"""The ``tutor`` command: ``tutor solve | bench | ...`` (argparse subcommands).

Adding a subcommand is one registration: decorate a function ``run(args) -> int`` (the exit
status) with :func:`command`, giving the arguments as ``(flags, kwargs)`` pairs for
``parser.add_argument``. Keep heavy imports inside the function so ``tutor solve`` stays fast::

    @command("check", help="check lessons and quizzes against the engine",
             arguments=[(("paths",), {"nargs": "*"})])
    def _check(args) -> int:
        from .content.check import main
        return main(args.paths)

``tutor solve [FILE]`` reads one JSON object or JSON Lines from FILE (default: standard input)
and writes one answer per line; a failing scenario gets an error object on its line; blank lines
are skipped; the exit status is 2 if any scenario failed, else 0. It never prints a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

__all__ = ["build_parser", "command", "main"]

_COMMANDS: dict[str, tuple[str, Sequence[tuple[tuple, dict]], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str, arguments: Sequence[tuple[tuple, dict]] = ()):
    """Register ``run(args) -> int`` as subcommand ``name`` (see module docstring)."""
    def deco(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        _COMMANDS[name] = (help, tuple(arguments), fn)
        return fn
    return deco


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    from . import __version__
    parser = argparse.ArgumentParser(prog="tutor", description="Rules tutor for Hokm, All Fours and Trinidad.")
    parser.add_argument("--version", action="version", version=f"tutor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, arguments, fn) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        for flags, kwargs in arguments:
            p.add_argument(*flags, **kwargs)
        p.set_defaults(_run=fn)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tutor`` script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 1
    return run(args)


# ---------------------------------------------------------------------------------------------
# tutor solve

def solve_stream(data: str | bytes, out) -> int:
    """Answer every scenario in ``data`` (one JSON value, or JSON Lines; bytes must be UTF-8),
    writing one JSON answer per line to ``out``. Returns the number of failed scenarios.

    Lines end at "\\n" only (an optional "\\r" before it is dropped): U+2028, U+2029 and U+0085
    may stand raw inside JSON strings. A leading byte order mark is skipped; a line that is not
    UTF-8 is ``bad-json`` on its own.
    """
    from .engine.errors import BadJsonError
    from .solve import answer, answer_text, parse_json
    if isinstance(data, str):
        data, nl, cr = data.removeprefix("\ufeff"), "\n", "\r"
    else:
        data, nl, cr = data.removeprefix(b"\xef\xbb\xbf"), b"\n", b"\r"
    if not data.strip():
        return 0
    try:
        answers = [answer(parse_json(data))]  # one object, possibly spread over several lines
    except BadJsonError:
        answers = [answer_text(line.removesuffix(cr)) for line in data.split(nl) if line.strip()]
    failed = 0
    for a in answers:
        if "error" in a:
            failed += 1
        out.write(json.dumps(a) + "\n")  # ASCII-escaped; messages hold no lone surrogates
    return failed


@command("solve", help="answer scenarios (one JSON object or JSON Lines) from FILE or standard input",
         arguments=[(("file",), {"nargs": "?", "help": "input file (default: standard input)"})])
def _solve(args: argparse.Namespace) -> int:
    from .engine.errors import clean_text
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


# ---------------------------------------------------------------------------------------------
# tutor gen (tutor.content.generators)

@command("gen", help="generate a seeded exercise and print it as YAML (an exercise block / quiz question)",
         arguments=[(("ruleset",), {"help": "hokm, all-fours or trinidad"}),
                    (("kind",), {"help": "exercise kind, e.g. legal-cards, trick-winner, hand-score"}),
                    (("--seed",), {"type": int, "default": 0, "help": "random seed (default 0)"}),
                    (("--difficulty",), {"type": int, "default": 1, "choices": (1, 2, 3),
                                         "help": "1 easy, 2 medium, 3 hard (default 1)"})])
def _gen(args: argparse.Namespace) -> int:
    from .content.generators import generate, to_yaml
    from .content.kinds import ExerciseError
    try:
        exercise = generate(args.ruleset, args.kind, args.seed, args.difficulty)
    except (ExerciseError, ValueError) as e:
        print(f"tutor gen: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(to_yaml(exercise))
    return 0


# ---------------------------------------------------------------------------------------------
# tutor check (tutor.content.check)

@command("check", help="check lesson and quiz files (syntax, fields, translations, coverage) against the engine",
         arguments=[(("paths",), {"nargs": "*", "metavar": "PATH",
                                  "help": "lesson/quiz files or directories (default: all of lessons/ and quizzes/)"}),
                    (("--all-languages",), {"action": "store_true", "default": None,
                                            "help": "also check every translation of the rulesets touched "
                                                    "(default when no PATH is given)"})])
def _check(args: argparse.Namespace) -> int:
    from .content.check import run
    return run(args)


@command("bench", help="measure the engine's speed per ruleset (decisions/s, rounds/s, solve scenarios/s)",
         arguments=[
             (("rulesets",), {"nargs": "*", "help": "rulesets to measure (default: all)"}),
             (("--seconds",), {"type": float, "default": 1.0, "help": "time per figure (default 1)"}),
             (("--scenarios",), {"type": int, "default": 5000,
                                 "help": "scenarios in the generated JSON Lines file (default 5000; 0 skips)"}),
             (("--keep",), {"metavar": "FILE", "help": "keep the generated JSON Lines file (one ruleset)"}),
             (("--json",), {"action": "store_true", "help": "print JSON"}),
             (("--web",), {"action": "store_true",
                           "help": "measure the web app instead: gunicorn with 2 workers, answering a question "
                                   "through the API against /healthz (requests/s, p50/p99 latency)"}),
             (("--requests",), {"type": int, "default": 2000, "help": "requests per web figure (default 2000)"}),
         ])
def _bench(args: argparse.Namespace) -> int:
    if args.web:
        from .bench import main_web
        return main_web(max(1, args.requests), args.json)
    from .bench import main as bench_main
    return bench_main(args.rulesets, args.seconds, args.scenarios, args.json, args.keep)


# ---------------------------------------------------------------------------------------------
# tutor serve (tutor.web)

@command("serve", help="run the web app on the development server (for production use gunicorn: "
                       "gunicorn 'tutor.web:create_app()', see the README)",
         arguments=[(("--host",), {"default": "127.0.0.1", "help": "address to listen on (default 127.0.0.1)"}),
                    (("--port",), {"type": int, "default": 5000, "help": "port (default 5000)"}),
                    (("--debug",), {"action": "store_true", "help": "reload on changes, show the debugger"})])
def _serve(args: argparse.Namespace) -> int:
    """Development unless TUTOR_ENV says otherwise: without TUTOR_SECRET_KEY a key is kept in the
    instance folder. Cookies stay Secure whatever the host (browsers keep them over plain http on
    localhost only); a warning says so when listening beyond loopback."""
    import os

    from .web import ConfigError, create_app
    try:
        app = create_app({"TUTOR_ENV": os.environ.get("TUTOR_ENV", "").strip() or "development"})
    except ConfigError as e:
        print(f"tutor serve: {e}", file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1") and app.config["SESSION_COOKIE_SECURE"]:
        print("tutor serve: cookies are Secure, so browsers keep them only over HTTPS or on localhost: "
              "put an HTTPS reverse proxy in front (see the README), or for a trusted network without "
              "HTTPS set TUTOR_COOKIE_SECURE=0 yourself.", file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=args.debug, use_reloader=args.debug)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
