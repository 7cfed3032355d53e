"""The subcommand registry of ``tutor``: :func:`command` registers ``run(args) -> int``;
:func:`build_parser` and :func:`main` build and run the argument parser (see :mod:`tutor.cli`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

__all__ = ["build_parser", "command", "language", "main"]

_COMMANDS: dict[str, tuple[str, Sequence[tuple[tuple, dict]], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str, arguments: Sequence[tuple[tuple, dict]] = ()
            ) -> Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]]:
    """Register ``run(args) -> int`` as subcommand ``name`` (see module docstring)."""
    def deco(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        _COMMANDS[name] = (help, tuple(arguments), fn)
        return fn
    return deco


def language(text: str) -> str:
    """A ``--lang`` value: a code of :data:`tutor.i18n.LANGUAGES`; otherwise argparse's usage error
    (exit status 2) naming the option and the languages."""
    from ..i18n import LANGUAGES
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(f"must be one of {', '.join(LANGUAGES)}, not {text[:20]!r}")
    return text


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    from .. import __version__
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
