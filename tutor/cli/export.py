"""``tutor export``: a quiz file as YAML, Moodle XML, GIFT, or a worksheet (HTML, PDF)."""

from __future__ import annotations

import argparse
import sys

from .registry import command, language


@command("export", help="export a quiz file (checked against the engine): the same YAML, Moodle XML, GIFT, or a "
                        "worksheet as HTML or PDF (--key: its answer key)",
         arguments=[(("quiz",), {"metavar": "QUIZ.yaml", "help": "a quiz file (quizzes/*.yaml shape; any file name)"}),
                    (("--format",), {"choices": ["yaml", "moodle", "gift", "html", "pdf"], "default": "yaml",
                                     "help": "output format (default yaml)"}),
                    (("--lang",), {"default": "en", "type": language, "help": "language of prompts, diagrams and feedback: en, fa, bg, te"}),
                    (("--key",), {"action": "store_true", "help": "html/pdf: the answer key with the engine's reasons"}),
                    (("-o", "--output"), {"metavar": "FILE", "help": "write to FILE (default: standard output)"})])
def _export(args: argparse.Namespace) -> int:
    from tutor.problems import ContentError
    try:
        data = export_quiz(args.quiz, args.format, args.lang, key=args.key)
    except ContentError as e:
        lesson = _lesson_instead(args.quiz)
        print(lesson or str(e), file=sys.stderr)
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
    :class:`~tutor.problems.ContentError` (``file:line: message``) for a quiz that does not
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
