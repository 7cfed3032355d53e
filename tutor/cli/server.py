"""``tutor serve``, ``tutor db`` and ``tutor teacher``: the web app, its database and accounts."""

from __future__ import annotations

import argparse
import sys

from .registry import command

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

    from tutor.problems import ContentError

    from ..web import ConfigError, configure, create_app, secret_key
    env = {"TUTOR_ENV": os.environ.get("TUTOR_ENV", "").strip() or "development"}
    try:
        base = configure(env)
        secret_key(base)  # a configuration that cannot work stops before anything is written
        why = _unsupported(base.config["DATABASE_URL"])
        if why:
            print(f"tutor serve: {why}", file=sys.stderr)
            return 2
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


#: The database backends the app runs on (SQLAlchemy's backend names; PostgreSQL through psycopg).
DATABASE_BACKENDS = ("sqlite", "postgresql")


def _unsupported(url: str) -> str | None:
    """Why ``TUTOR_DATABASE_URL`` cannot be used (one line), or ``None`` when it names a database
    of :data:`DATABASE_BACKENDS` (another scheme would fail deep in SQLAlchemy, a driver missing)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError
    schemes = "sqlite:///FILE or postgresql+psycopg://USER@HOST/DB"
    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        return f"TUTOR_DATABASE_URL is not a database URL: use {schemes}"
    if backend not in DATABASE_BACKENDS:
        return (f"TUTOR_DATABASE_URL: the {backend[:20]!r} scheme is not supported: use {schemes} "
                f"({', '.join(DATABASE_BACKENDS)})")
    return None


def _database_url(action: str) -> str | None:
    """The configured database URL, or ``None`` after printing ``tutor ACTION: why`` (a bad
    configuration, an unsupported scheme)."""
    from ..web import ConfigError, configure
    try:
        url: str = configure().config["DATABASE_URL"]
    except ConfigError as e:
        print(f"tutor {action}: {e}", file=sys.stderr)
        return None
    why = _unsupported(url)
    if why:
        print(f"tutor {action}: {why}", file=sys.stderr)
        return None
    return url


def _downgrade(url: str, target: str) -> bool:
    """Whether ``target`` is a known revision below the database's current one (``base`` included):
    ``tutor db upgrade`` only goes up."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from ..migrations import alembic_config, current
    if target.strip() == "base" or target.startswith("-"):
        return True
    now = current(url)
    if now is None:
        return False
    scripts = ScriptDirectory.from_config(alembic_config(url))
    try:
        wanted = scripts.get_revision(target)
    except CommandError:
        return False  # an unknown revision: upgrade says so
    if wanted is None or wanted.revision == now:
        return False
    return any(r.revision == wanted.revision for r in scripts.iterate_revisions(now, "base"))


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

    from ..migrations import upgrade
    shown = _shown(url)
    if not target.strip():
        print("tutor db upgrade: --to needs a revision (e.g. head).", file=sys.stderr)
        return 2
    try:
        if _downgrade(url, target):
            print(f"tutor db upgrade: {shown}: --to {target[:40]} is below the database's revision: "
                  "downgrading is not offered (restore a backup instead)", file=sys.stderr)
            return 2
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

    from .. import migrations
    if args.action == "head":  # the code's own revision: no configuration needed
        print(migrations.head())
        return 0
    url = _database_url(f"db {args.action}")
    if url is None:
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

    from ..domain.db import make_engine
    from ..web.accounts import AccountError, add_teacher, check_new, generate_password

    if args.generate:
        password = generate_password()
    else:
        try:
            if sys.stdin.isatty():
                password = getpass.getpass("Password: ")
                again = getpass.getpass("Password again: ")
            else:  # piped: the first line is the password (getpass would warn and echo)
                password = again = sys.stdin.readline().removesuffix("\n").removesuffix("\r")
                if not password:
                    raise EOFError
        except (EOFError, KeyboardInterrupt):
            print("tutor teacher add: no password given", file=sys.stderr)
            return 2
        if password != again:
            print("tutor teacher add: the two passwords differ", file=sys.stderr)
            return 2
    url = _database_url("teacher add")
    if url is None:
        return 2
    try:
        check_new(args.name, password)
        engine = make_engine(url)
        try:
            with Session(engine) as db:
                add_teacher(db, args.name, password)
                db.commit()
        finally:
            engine.dispose()
    except AccountError as e:
        print(f"tutor teacher add: {e}", file=sys.stderr)
        return 2
    except SQLAlchemyError as e:
        print(f"tutor teacher add: {_shown(url)}: {_reason(e)} (run `tutor db upgrade` first?)", file=sys.stderr)
        return 2
    print(f"teacher {args.name} added" + (f"; password: {password}" if args.generate else ""))
    return 0
