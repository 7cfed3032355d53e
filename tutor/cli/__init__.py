"""The ``tutor`` command: ``tutor solve | bench | ...`` (argparse subcommands).

Adding a subcommand is one registration: decorate a function ``run(args) -> int`` (the exit
status) with :func:`command`, giving the arguments as ``(flags, kwargs)`` pairs for
``parser.add_argument``. Keep heavy imports inside the function so ``tutor solve`` stays fast::

    @command("check", help="check lessons and quizzes against the engine",
             arguments=[(("paths",), {"nargs": "*"})])
    def _check(args) -> int:
        from .content.check import main
        return main(args.paths)

Modules: :mod:`.registry` (the registry), :mod:`.solve`, :mod:`.content` (gen, check, rule),
:mod:`.export`, :mod:`.bench`, :mod:`.server` (serve, db, teacher).

``tutor solve [FILE]`` reads one JSON object or JSON Lines from FILE (default: standard input)
and writes one answer per line; a failing scenario gets an error object on its line; blank lines
are skipped; the exit status is 2 if any scenario failed, else 0. It never prints a traceback.
"""

from __future__ import annotations

from . import bench, content, export, server, solve
from .registry import _COMMANDS, build_parser, command, main
from .solve import solve_stream

__all__ = ["_COMMANDS", "bench", "build_parser", "command", "content", "export", "main", "server", "solve",
           "solve_stream"]
