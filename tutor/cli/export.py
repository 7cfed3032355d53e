"""``tutor export``: a quiz file as YAML, Moodle XML, GIFT, or a worksheet (HTML, PDF); ``tutor
import``: a quiz file of any format the app reads (YAML, Moodle XML, GIFT) as the quiz YAML."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TextIO

from tutor.i18n import LANGUAGES

from .registry import command, language


class _Formats:
    """The export formats' names for argparse's ``choices``, read from the registry
    (:data:`tutor.export.formats.FORMATS`) only when a command line is checked or help is printed,
    so that other commands (``tutor solve``) do not import the exporters."""

    def __iter__(self) -> Iterator[str]:
        from tutor.export.formats import FORMATS
        return iter(FORMATS)

    def __contains__(self, name: object) -> bool:
        return name in set(self)


@command("export", help="export a quiz file (checked against the engine): the same YAML, Moodle XML, GIFT, or a "
                        "worksheet as HTML or PDF (--key: its answer key)",
         arguments=[(("quiz",), {"metavar": "QUIZ.yaml", "help": "a quiz file (quizzes/*.yaml shape; any file name)"}),
                    (("--format",), {"choices": _Formats(), "default": "yaml",
                                     "help": "output format (default yaml)"}),
                    (("--lang",), {"default": "en", "type": language, "help": f"language of prompts, diagrams and feedback: {', '.join(LANGUAGES)}"}),
                    (("--key",), {"action": "store_true", "help": "html/pdf: the answer key with the engine's reasons"}),
                    (("-o", "--output"), {"metavar": "FILE", "help": "write to FILE (default: standard output)"}),
                    (("-q", "--quiet"), {"action": "store_true",
                                         "help": "no progress on standard error (it is shown only when that is a terminal)"})])
def _export(args: argparse.Namespace) -> int:
    from tutor.export.formats import export_quiz_file
    from tutor.problems import ContentError
    progress = None if args.quiet or not sys.stderr.isatty() else _Progress(sys.stderr)
    try:
        data = export_quiz_file(args.quiz, args.format, args.lang, key=args.key, progress=progress)
    except ContentError as e:
        if progress is not None:
            progress.end()
        lesson = _lesson_instead(args.quiz)
        print(lesson or str(e), file=sys.stderr)
        return 2
    if progress is not None:
        progress.end()
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


class _Progress:
    """A long export's progress on a terminal, one line rewritten in place: ``question 12/81``
    while the engine keys the questions, ``page 7`` while the PDF is laid out, ``writing 27
    pages`` at the end (:data:`tutor.export.worksheet.Progress`)."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.shown = out, False

    def __call__(self, stage: str, n: int, total: int) -> None:
        text = {"question": f"question {n}/{total}", "page": f"page {n}"}.get(stage, f"writing {n} pages")
        self.out.write(f"\r\x1b[K{text}")
        self.out.flush()
        self.shown = True

    def end(self) -> None:
        """End the line (if anything was shown), so that what follows starts on its own."""
        if self.shown:
            self.out.write("\n")
            self.out.flush()
            self.shown = False


@command("import", help="read a quiz file (the quiz YAML, Moodle XML or GIFT, by its extension or content), check "
                        "every question against the engine and write it as a quiz file (YAML)",
         arguments=[(("quiz",), {"metavar": "FILE", "help": "a quiz file: .yaml, Moodle XML (.xml) or GIFT (.gift, .txt)"}),
                    (("-o", "--output"), {"metavar": "FILE", "help": "write to FILE (default: standard output)"})])
def _import(args: argparse.Namespace) -> int:
    """``tutor import FILE``: the quiz YAML of any file the app imports; every problem as
    ``file:line: message`` on standard error and exit status 2."""
    from tutor.export.files import dump_quiz, read_quiz_file
    from tutor.problems import ContentError
    try:
        data = dump_quiz(read_quiz_file(args.quiz)).encode("utf-8")
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


def _lesson_instead(path: str) -> str | None:
    """``file:1: message`` when ``path`` is a lesson file (front matter with a step's ``id`` and
    ``title`` between ``---`` lines, then Markdown) rather than a quiz, else ``None``."""
    import re
    from pathlib import Path

    import yaml
    try:
        text = Path(path).read_text(encoding="utf-8").lstrip("\ufeff")
    except (OSError, UnicodeDecodeError):
        return None
    m = re.match(r"---\r?\n(.*?)\r?\n---\r?\n", text, re.S)
    try:
        front = yaml.safe_load(m.group(1)) if m else None
    except yaml.YAMLError:
        return None
    if not (isinstance(front, dict) and "id" in front and "title" in front):
        return None
    return (f"{path}:1: this is a lesson file (front matter and Markdown), not a quiz: tutor export takes a "
            "quiz file (YAML, a mapping with 'ruleset' and 'questions', as in quizzes/*.yaml)")
