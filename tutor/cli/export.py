"""``tutor export``: a quiz file as YAML, Moodle XML, GIFT, or a worksheet (HTML, PDF)."""

from __future__ import annotations

import argparse
import sys

from .registry import command


@command("export", help="export a quiz file (checked against the engine): the same YAML, Moodle XML, GIFT, or a "
                        "worksheet as HTML or PDF (--key: its answer key)",
         arguments=[(("quiz",), {"metavar": "QUIZ.yaml", "help": "a quiz file (quizzes/*.yaml shape; any file name)"}),
                    (("--format",), {"choices": ["yaml", "moodle", "gift", "html", "pdf"], "default": "yaml",
                                     "help": "output format (default yaml)"}),
                    (("--lang",), {"default": "en", "help": "language of prompts, diagrams and feedback: en, fa, bg, te"}),
                    (("--key",), {"action": "store_true", "help": "html/pdf: the answer key with the engine's reasons"}),
                    (("-o", "--output"), {"metavar": "FILE", "help": "write to FILE (default: standard output)"})])
def _export(args: argparse.Namespace) -> int:
    from ..content.problems import ContentError
    from ..i18n import LANGUAGES
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
    from ..export.files import dump_quiz, read_quiz_file
    quiz = read_quiz_file(path)
    if fmt == "pdf":
        from ..export.worksheet import worksheet_pdf
        return worksheet_pdf(quiz, lang, key)
    if fmt == "html":
        from ..export.worksheet import worksheet_html
        text = worksheet_html(quiz, lang, key)
    elif fmt == "moodle":
        from ..export.lms import moodle_xml
        text = moodle_xml(quiz, lang)
    elif fmt == "gift":
        from ..export.lms import gift
        text = gift(quiz, lang)
    else:
        text = dump_quiz(quiz)
    return text.encode("utf-8")

