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
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .rules import RulePoint

__all__ = ["build_parser", "command", "main"]

_COMMANDS: dict[str, tuple[str, Sequence[tuple[tuple, dict]], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str, arguments: Sequence[tuple[tuple, dict]] = ()
            ) -> Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]]:
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

def solve_stream(data: str | bytes, out: TextIO) -> int:
    """Answer every scenario in ``data`` (one JSON value, or JSON Lines; bytes must be UTF-8),
    writing one JSON answer per line to ``out``. Returns the number of failed scenarios.

    Lines end at "\\n" only (an optional "\\r" before it is dropped): U+2028, U+2029 and U+0085
    may stand raw inside JSON strings. A leading byte order mark is skipped; a line that is not
    UTF-8 is ``bad-json`` on its own.
    """
    from .engine.errors import BadJsonError
    from .solve import answer, answer_text, parse_json
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


@command("export", help="export a quiz file (checked against the engine): the same YAML, Moodle XML, GIFT, or a "
                        "worksheet as HTML or PDF (--key: its answer key)",
         arguments=[(("quiz",), {"metavar": "QUIZ.yaml", "help": "a quiz file (quizzes/*.yaml shape; any file name)"}),
                    (("--format",), {"choices": ["yaml", "moodle", "gift", "html", "pdf"], "default": "yaml",
                                     "help": "output format (default yaml)"}),
                    (("--lang",), {"default": "en", "help": "language of prompts, diagrams and feedback: en, fa, bg, te"}),
                    (("--key",), {"action": "store_true", "help": "html/pdf: the answer key with the engine's reasons"}),
                    (("-o", "--output"), {"metavar": "FILE", "help": "write to FILE (default: standard output)"})])
def _export(args: argparse.Namespace) -> int:
    from .content.problems import ContentError
    from .i18n import LANGUAGES
    if args.lang not in LANGUAGES:
        print(f"{args.quiz}:0: --lang must be one of {', '.join(LANGUAGES)}, not {args.lang!r}", file=sys.stderr)
        return 2
    try:
        data = export_quiz(args.quiz, args.format, args.lang, key=args.key)
    except ContentError as e:
        print(str(e), file=sys.stderr)
        return 2
    try:
        if args.output and args.output != "-":
            with open(args.output, "wb") as f:
                f.write(data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    except OSError as e:
        print(f"{args.output}:0: cannot write: {e.strerror}", file=sys.stderr)
        return 2
    return 0


def export_quiz(path: str, fmt: str, lang: str, *, key: bool = False) -> bytes:
    """The quiz file ``path`` exported as ``fmt`` (``yaml``, ``moodle``, ``gift``, ``html``,
    ``pdf``) in ``lang``: bytes (UTF-8 text, or a PDF). Raises
    :class:`~tutor.content.problems.ContentError` (``file:line: message``) for a quiz that does not
    pass the engine's check."""
    from .export.files import dump_quiz, read_quiz_file
    quiz = read_quiz_file(path)
    if fmt == "pdf":
        from .export.worksheet import worksheet_pdf
        return worksheet_pdf(quiz, lang, key)
    if fmt == "html":
        from .export.worksheet import worksheet_html
        text = worksheet_html(quiz, lang, key)
    elif fmt == "moodle":
        from .export.lms import moodle_xml
        text = moodle_xml(quiz, lang)
    elif fmt == "gift":
        from .export.lms import gift
        text = gift(quiz, lang)
    else:
        text = dump_quiz(quiz)
    return text.encode("utf-8")


@command("bench", help="measure the engine's speed per ruleset (decisions/s, rounds/s, solve scenarios/s) and "
                       "the calls the app makes (with reasons, solve per ask) beside the bare ones",
         arguments=[
             (("rulesets",), {"nargs": "*", "help": "rulesets to measure (default: all)"}),
             (("--seconds",), {"type": float, "default": None,
                               "help": "time per figure (default 1; with --load, per phase: default 10)"}),
             (("--scenarios",), {"type": int, "default": 5000,
                                 "help": "scenarios in the generated JSON Lines file (default 5000; 0 skips)"}),
             (("--keep",), {"metavar": "FILE", "help": "keep the generated JSON Lines file (one ruleset)"}),
             (("--repeats",), {"type": int, "default": None,
                               "help": "repeats of each timed call beside its bare call; the median is "
                                       "reported (default 7; 0 skips these rows); with --load, runs of the "
                                       "phases (default 3); with --pages, passes (default 5)"}),
             (("--items",), {"type": int, "default": 2000,
                             "help": "inputs per timed pass of those rows (default 2000)"}),
             (("--json",), {"action": "store_true", "help": "print JSON"}),
             (("--web",), {"action": "store_true",
                           "help": "measure the web app instead: gunicorn with 2 workers, answering a question "
                                   "through the API against /healthz (requests/s, p50/p99 latency)"}),
             (("--requests",), {"type": int, "default": None,
                                "help": "requests per web figure (default 2000); with --pages, requests per page "
                                        "and pass (default 60)"}),
             (("--play",), {"action": "store_true",
                            "help": "measure whole deals played by bots instead: complete deals/s per ruleset and "
                                    "table (bots included), the median of --repeats runs of --seconds each, and "
                                    "a deal's cost in trivial calls"}),
             (("--load",), {"action": "store_true",
                            "help": "load test instead (locust): gunicorn with 2 workers, a learner's mix of pages "
                                    "and form posts against /healthz, the mix at a fixed rate and the mix's floor "
                                    "(requests/s, p50/p99 latency, errors); exit status 1 if a request failed"}),
             (("--pages",), {"action": "store_true",
                             "help": "measure pages in the app's own process instead (Flask test client): a lesson "
                                     "step, a quiz question, an answer sent by fetch, the progress page of a "
                                     "learner with 10,000 attempts, a quiz answer, a quiz's feedback and its "
                                     "results, and three floors (a checked post, a committed answer, a page), "
                                     "each as a ratio to /healthz"}),
             (("--database",), {"choices": ["sqlite", "postgresql"], "default": "sqlite",
                                "help": "with --load: a new SQLite file, or a new schema in the PostgreSQL "
                                        "database of --postgres-url (default sqlite)"}),
             (("--postgres-url",), {"default": None, "metavar": "URL",
                                    "help": "with --load --database postgresql: the database to make the schema in "
                                            "(default postgresql+psycopg://postgres@127.0.0.1:5432/postgres)"}),
             (("--rate",), {"type": float, "default": 200.0,
                            "help": "with --load: requests/s of the fixed-rate phase (default 200)"}),
             (("--users",), {"type": int, "default": 8,
                             "help": "with --load: users of the phases without pause (default 8)"}),
         ])
def _bench(args: argparse.Namespace) -> int:
    if args.load:
        from .loadtest import main as load_main
        return load_main(args.database, 10.0 if args.seconds is None else args.seconds, args.rate,
                         3 if args.repeats is None else args.repeats, args.users, args.json, args.postgres_url)
    if args.play:
        from .bench import main_play
        return main_play(args.rulesets, 0.5 if args.seconds is None else args.seconds,
                         5 if args.repeats is None else max(1, args.repeats), args.json)
    if args.pages:
        from .pagebench import main as pages_main
        return pages_main(max(1, 5 if args.repeats is None else args.repeats),
                          max(1, 60 if args.requests is None else args.requests), args.json)
    if args.web:
        from .bench import main_web
        return main_web(max(1, 2000 if args.requests is None else args.requests), args.json)
    from .bench import main as bench_main
    return bench_main(args.rulesets, 1.0 if args.seconds is None else args.seconds, args.scenarios, args.json,
                      args.keep, max(0, 7 if args.repeats is None else args.repeats), max(1, args.items))


# ---------------------------------------------------------------------------------------------
# tutor rule (tutor.rules)

@command("rule", help="print rule points (e.g. H14, C21,K20, def-jack) or list them: the reference the reasons cite",
         arguments=[(("ids",), {"nargs": "*", "metavar": "ID",
                                "help": "rule point ids; several may be joined by commas as in a reason's rule"}),
                    (("--list",), {"nargs": "?", "const": "", "default": None, "metavar": "RULESET",
                                   "help": "list every point (or those of RULESET: hokm, all-fours, trinidad)"}),
                    (("--lang",), {"default": "en", "help": "language of the texts (default en; English where "
                                                            "a text is not translated yet)"})])
def _rule(args: argparse.Namespace) -> int:
    from .i18n import LANGUAGES
    from .rules import UnknownRulePoint, cited, points_for
    from .rules import all_points as every_point
    if args.lang not in LANGUAGES:
        print(f"tutor: unknown language {args.lang!r} (languages: {', '.join(LANGUAGES)})", file=sys.stderr)
        return 2
    if args.list is not None:
        if args.ids:
            print("tutor: give rule point ids or --list, not both", file=sys.stderr)
            return 2
        try:
            points = points_for(args.list) if args.list else every_point()
        except ValueError as e:
            print(f"tutor: {e}", file=sys.stderr)
            return 2
        sys.stdout.write("".join(f"{p.id:16} {p.kind:11} {','.join(p.games):26} {p.title_in(args.lang)}\n"
                                 for p in points))
        return 0
    if not args.ids:
        print("tutor: give a rule point id (e.g. tutor rule H14) or --list", file=sys.stderr)
        return 2
    try:
        shown = [p for text in args.ids for p in cited(text)]
    except UnknownRulePoint as e:
        print(f"tutor: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("\n\n".join(_show_point(p, args.lang) for p in shown) + "\n")
    return 0


def _show_point(p: RulePoint, lang: str) -> str:
    """A rule point as text: heading, statement, source or reason, related points."""
    import textwrap

    from .rules import documents, get

    def wrap(text: str, indent: str = "") -> str:
        return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=" " * len(indent))

    kind = "decision (the source documents are silent or disagree)" if p.decision else p.kind
    out = [f"{p.id}  {p.title_in(lang)}", f"{', '.join(p.games)} - {kind}", "", wrap(p.text_in(lang))]
    if p.decision:
        out += ["", wrap(p.reason_in(lang), "Why: ")]
    for place in p.sources:
        doc = documents()[place.document]
        lines = ", ".join(map(str, place.lines))
        out.append(wrap(f"{place.document} ({doc.language}: {doc.about_in(lang)}), \"{place.section}\", "
                        f"line{'s' if len(place.lines) > 1 else ''} {lines}", "Source: "))
    if p.see:
        label = "Settles: " if p.decision else "See also: "
        out.append(wrap("; ".join(f"{r} ({get(r).title_in(lang)})" for r in p.see), label))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# tutor serve (tutor.web)

def _port(text: str) -> int:
    """A TCP port number 0-65535 (0: any free port); a usage error otherwise (the socket layer
    would take 99999 as 99999 mod 65536)."""
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text[:20]!r}")
    return int(text)


@command("serve", help="run the web app on the development server (for production use gunicorn: "
                       "gunicorn 'tutor.web:create_app()', see the README)",
         arguments=[(("--host",), {"default": "127.0.0.1", "help": "address to listen on (default 127.0.0.1)"}),
                    (("--port",), {"type": _port, "default": 5000, "help": "port, 0-65535 (default 5000)"}),
                    (("--debug",), {"action": "store_true", "help": "reload on changes, show the debugger"})])
def _serve(args: argparse.Namespace) -> int:
    """Development unless TUTOR_ENV says otherwise: without TUTOR_SECRET_KEY a key is kept in the
    instance folder. Cookies stay Secure whatever the host (browsers keep them over plain http on
    localhost only); a warning says so when listening beyond loopback."""
    import os

    from .content.problems import ContentError
    from .web import ConfigError, configure, create_app, secret_key
    env = {"TUTOR_ENV": os.environ.get("TUTOR_ENV", "").strip() or "development"}
    try:
        base = configure(env)
        secret_key(base)  # a configuration that cannot work stops before anything is written
        if _migrate(base.config["DATABASE_URL"], quiet=True):
            return 2
        app = create_app(env)
    except ConfigError as e:
        print(f"tutor serve: {e}", file=sys.stderr)
        return 2
    except ContentError as e:
        for p in e.problems:
            print(p, file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1") and app.config["SESSION_COOKIE_SECURE"]:
        print("tutor serve: cookies are Secure, so browsers keep them only over HTTPS or on localhost: "
              "put an HTTPS reverse proxy in front (see the README), or for a trusted network without "
              "HTTPS set TUTOR_COOKIE_SECURE=0 yourself.", file=sys.stderr)
    app.run(host=args.host, port=args.port, debug=args.debug, use_reloader=args.debug)
    return 0


# ---------------------------------------------------------------------------------------------
# tutor db (tutor.migrations)

def _shown(url: str) -> str:
    """The database URL for a message, without its password (a URL SQLAlchemy cannot parse is
    named by its variable, not repeated)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "TUTOR_DATABASE_URL"


def _reason(e: BaseException) -> str:
    """The first line of a database error's own reason (the driver's, where there is one)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _migrate(url: str, target: str = "head", quiet: bool = False) -> int:
    """Apply the migrations to ``url`` up to revision ``target``; prints what changed (unless
    ``quiet`` and nothing did). Returns the exit status (2 with a one-line message if the database
    cannot be migrated or the scripts have no revision ``target``)."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from .migrations import upgrade
    shown = _shown(url)
    if not target.strip():
        print("tutor db upgrade: --to needs a revision (e.g. head).", file=sys.stderr)
        return 2
    try:
        before, after = upgrade(url, target)
    except CommandError as e:  # a --to the migration scripts do not have (Alembic's reason)
        print(f"tutor db upgrade: {shown}: no revision {target[:40]!r} to upgrade to: {_reason(e)}",
              file=sys.stderr)
        return 2
    except (SQLAlchemyError, OSError) as e:
        print(f"tutor db upgrade: {shown}: {_reason(e)}", file=sys.stderr)
        return 2
    if before != after:
        print(f"tutor db upgrade: {shown}: {before or 'no revision'} -> {after}", file=sys.stderr)
    elif not quiet:
        print(f"tutor db upgrade: {shown}: already at {after}", file=sys.stderr)
    return 0


@command("db", help="database migrations (Alembic): `tutor db upgrade` applies them (run it on every "
                    "deploy, before gunicorn starts); `tutor db current` prints the database's revision",
         arguments=[(("action",), {"choices": ("upgrade", "current", "head", "revision"),
                                   "help": "upgrade: apply the migrations; current: the database's revision; "
                                           "head: the revision this code needs; revision: write a new "
                                           "migration script (developers)"}),
                    (("--to",), {"default": "head", "metavar": "REVISION",
                                 "help": "upgrade: the revision to reach (default head)"}),
                    (("-m", "--message"), {"default": "", "help": "revision: what the migration does"}),
                    (("--autogenerate",), {"action": "store_true",
                                           "help": "revision: compare the models with the database (at head)"})])
def _db(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from . import migrations
    from .web import ConfigError, configure
    if args.action == "head":  # the code's own revision: no configuration needed
        print(migrations.head())
        return 0
    try:
        url = configure().config["DATABASE_URL"]
    except ConfigError as e:
        print(f"tutor db {args.action}: {e}", file=sys.stderr)
        return 2
    if args.action == "upgrade":
        return _migrate(url, args.to)
    if args.action == "current":
        try:
            print(migrations.current(url) or "none")
        except (SQLAlchemyError, OSError) as e:
            print(f"tutor db current: {_shown(url)}: {_reason(e)}", file=sys.stderr)
            return 2
    else:
        if not args.message:
            print("tutor db revision: give -m MESSAGE", file=sys.stderr)
            return 2
        print(migrations.revision(args.message, args.autogenerate, url))
    return 0


@command("teacher", help="teacher accounts: `tutor teacher add NAME` makes one (asks for the password, "
                         "or --generate prints a random one)",
         arguments=[(("action",), {"choices": ("add",), "help": "add: make a teacher account"}),
                    (("name",), {"help": "the log-in name (2 to 40 letters, digits, '.', '_' or '-')"}),
                    (("--generate",), {"action": "store_true", "help": "make a random password and print it"})])
def _teacher(args: argparse.Namespace) -> int:
    import getpass

    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.orm import Session

    from .domain.db import make_engine
    from .web import ConfigError, configure
    from .web.accounts import AccountError, add_teacher, check_new, generate_password

    if args.generate:
        password = generate_password()
    else:
        try:
            password = getpass.getpass("Password: ")
            again = getpass.getpass("Password again: ")
        except (EOFError, KeyboardInterrupt):
            print("tutor teacher add: no password given", file=sys.stderr)
            return 2
        if password != again:
            print("tutor teacher add: the two passwords differ", file=sys.stderr)
            return 2
    try:
        check_new(args.name, password)
        url = configure().config["DATABASE_URL"]
        engine = make_engine(url)
        try:
            with Session(engine) as db:
                add_teacher(db, args.name, password)
                db.commit()
        finally:
            engine.dispose()
    except (AccountError, ConfigError) as e:
        print(f"tutor teacher add: {e}", file=sys.stderr)
        return 2
    except SQLAlchemyError as e:
        print(f"tutor teacher add: {_shown(url)}: {_reason(e)} (run `tutor db upgrade` first?)", file=sys.stderr)
        return 2
    print(f"teacher {args.name} added" + (f"; password: {password}" if args.generate else ""))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
