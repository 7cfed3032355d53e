"""Quizzes in the content files' own format: a quiz document ↔ the YAML text of a
``quizzes/<ruleset>.yaml`` file, losslessly.

* :func:`quiz_document` — a loaded :class:`~tutor.content.quizzes.Quiz` as a plain document;
* :func:`dump_quiz` — a document (or a quiz) as YAML text in the authored files' style (one block
  mapping per question, ``scenario`` and ``expect`` as JSON-style flow mappings); reading the text
  back gives the same document, value for value and type for type;
* :func:`import_quiz` — YAML text → a :class:`Quiz`, validated as ``tutor check`` validates a
  quiz file (structure, then every question against the engine: cards, the ask, the scenario,
  ``expect`` against the engine's answer, ``teaches`` against the lesson steps, unique ids).
  Problems raise :class:`~tutor.problems.ContentError`, each ``file:line: message``;
* :func:`check_document` — the same for a document held in memory (a teacher's stored quiz);
* lessons likewise: :func:`lesson_document` (a step as ``{"front_matter": {...}, "parts": [{"markdown":
  text} | {"exercise": block}, ...]}``), :func:`dump_lesson` (the Markdown file: front matter between
  ``---`` lines, the Markdown, each exercise as a fenced ``exercise`` block) and
  :func:`import_lesson` (text → :class:`~tutor.content.lessons.LessonStep`, checked by the engine).
  Line ends are ``\n`` (a file's ``\r\n`` reads as ``\n``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from tutor.problems import ContentError, Problems

from ..content.exercise import Exercise
from ..content.lessons import STEP_FIELDS, LessonStep, parse_step
from ..content.quizzes import Quiz, parse_quiz

__all__ = ["check_document", "derived_teaches", "dump_lesson", "dump_quiz", "import_lesson", "import_quiz", "lesson_document",
           "quiz_document", "read_quiz_file", "same_value", "with_teaches"]

#: Fields written as JSON-style flow collections, as the authored files write them.
_FLOW_FIELDS = ("scenario", "expect", "rules")


def quiz_document(quiz: Quiz) -> dict:
    """``{"ruleset", "questions": [question block, ...]}`` of a loaded quiz (field order as
    :meth:`Exercise.to_block`)."""
    return {"ruleset": quiz.ruleset, "questions": [q.to_block() for q in quiz.questions]}


def same_value(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (``1``, ``1.0`` and ``True`` differ; the order
    of a mapping's keys does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return set(a) == set(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        assert isinstance(b, float)
        return math.isnan(b)
    return a == b


def _block(key: str, value: object) -> str:
    """One ``key: value`` of a question: a flow mapping for scenario/expect when it reads back
    the same, else YAML's own block form."""
    if key in _FLOW_FIELDS and isinstance(value, dict | list):
        text = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        try:
            back = yaml.safe_load(text)
        except yaml.YAMLError:
            back = None
        if isinstance(back, dict) and same_value(back.get(key), value):
            return text
    return _safe_dump({key: value}).rstrip("\n")


def _safe_dump(value: object) -> str:
    """YAML's own block form; with non-ASCII characters escaped when raw ones would not read back
    the same (PyYAML writes some line separators, such as U+0085, raw)."""
    text = ""
    for raw in (True, False):
        text = yaml.safe_dump(value, allow_unicode=raw, sort_keys=False, width=2**31 - 1, default_flow_style=False)
        try:
            if same_value(yaml.safe_load(text), value):
                break
        except yaml.YAMLError:
            pass
    return text


def _as_document(quiz: Quiz | Mapping[str, Any]) -> dict:
    return quiz_document(quiz) if isinstance(quiz, Quiz) else dict(quiz)


def dump_quiz(quiz: Quiz | Mapping[str, Any]) -> str:
    """The quiz as the YAML text of a quiz file (UTF-8 text, ending with a newline). Reading it
    back (``yaml.safe_load`` or :func:`import_quiz`) gives the document again exactly; a document
    this writer's style could not carry exactly is written in YAML's plain block style instead."""
    doc = _as_document(quiz)
    out = [_block("ruleset", doc.get("ruleset"))]
    extra = {k: v for k, v in doc.items() if k not in ("ruleset", "questions")}
    questions = doc.get("questions")
    if isinstance(questions, list) and all(isinstance(q, dict) for q in questions) and not extra:
        out.append("questions:" if questions else "questions: []")
        for q in questions:
            for i, (key, value) in enumerate(q.items()):
                lines = _block(str(key), value).split("\n")
                lead = "  - " if i == 0 else "    "
                out.append(lead + lines[0])
                out.extend("    " + line for line in lines[1:])
        text = "\n".join(out) + "\n"
        try:
            if same_value(yaml.safe_load(text), doc):
                return text
        except yaml.YAMLError:
            pass
    return _safe_dump(doc)


def import_quiz(text: str, path: str = "<quiz>", *, engine: bool = True) -> Quiz:
    """Read a quiz file's text (any file name: the file's own ``ruleset`` counts) and validate it.

    ``engine``: also check every question against the engine and the lesson steps, as ``tutor
    check`` does. Raises :class:`ContentError` listing every problem as ``path:line: message``.
    """
    problems = Problems()
    quiz = parse_quiz(text, path, problems, match_name=False, optional=("teaches",))
    if quiz is not None and engine:
        check_questions(quiz, problems)
    problems.raise_if_any()
    assert quiz is not None
    return with_teaches(quiz) if engine else quiz


def with_teaches(quiz: Quiz) -> Quiz:
    """The quiz with every question that has no ``teaches`` given the lesson step the engine's
    reasons point to (:func:`derived_teaches`); the others as they are."""
    from dataclasses import replace

    from ..content.exercise import RULESETS
    from ..content.lessons import load_lesson_path

    if quiz.ruleset not in RULESETS or all(q.teaches is not None for q in quiz.questions):
        return quiz
    steps = load_lesson_path(quiz.ruleset, "en", problems=Problems()).steps
    questions = tuple(q if q.teaches is not None else replace(q, teaches=derived_teaches(q, steps))
                      for q in quiz.questions)
    return Quiz(quiz.ruleset, questions, quiz.path)


def derived_teaches(ex: Exercise, steps: Any) -> str | None:
    """The lesson step that teaches question ``ex``, from the engine's reasons: of ``steps`` (the
    ruleset's lesson steps in path order), the first whose ``rules`` name a rule point the
    engine's answer cites (the reasons that decide the kind first, then the others, in the
    engine's order) and that has an exercise of the same kind; else the first that names such a
    point; else the first with an exercise of the same kind; else ``None`` (an exercise the
    engine cannot answer too)."""
    from ..content.kinds import KINDS
    from ..engine.errors import TutorError

    try:
        why = [r for r in ex.solve().get("why", []) if isinstance(r, dict)]
    except (TutorError, ValueError, KeyError, TypeError):
        why = []
    kind = KINDS.get(ex.kind)
    deciding = kind.decides if kind is not None else ()
    ordered = [r for r in why if r.get("code") in deciding] + [r for r in why if r.get("code") not in deciding]
    rules = [rule.strip() for r in ordered for rule in str(r.get("rule") or "").split(",") if rule.strip()]
    citing = [step for rule in rules for step in steps if rule in step.rules]
    of_kind = [step for step in steps if any(e.kind == ex.kind for e in step.exercises)]
    for step in [*[s for s in citing if s in of_kind], *citing, *of_kind]:
        return str(step.id)
    return None


def read_quiz_file(path: str | Path, *, engine: bool = True) -> Quiz:
    """:func:`import_quiz` of a file (UTF-8); a Moodle XML or GIFT file (by its extension or its
    content: :func:`tutor.export.lmsread.detect_format`) is read as one, always checked by the
    engine. Raises :class:`ContentError` (an unreadable, a too big or a binary file too)."""
    from .lmsread import MAX_CHARS, detect_format, import_any

    shown = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_CHARS * 4:  # UTF-8 holds at most 4 bytes a character: refused before it is read
            raise ContentError(_one(shown, 1, f"the file is too big: {size:,} bytes"))
        raw = Path(path).read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ContentError(_one(shown, 1, f"file is not UTF-8 text ({e.reason})")) from None
    except OSError as e:
        raise ContentError(_one(shown, 0, f"cannot read file: {e.strerror}")) from None
    if "\x00" in text:
        raise ContentError(_one(shown, 1, "the file holds a NUL character: it is not a text file"))
    if detect_format(text, shown) != "yaml":
        return import_any(text, shown)
    return import_quiz(text, shown, engine=engine)


def _one(path: str, line: int, message: str) -> Problems:
    p = Problems()
    p.add(path, line, message)
    return p


def check_document(doc: Mapping[str, Any], path: str = "<quiz>") -> Quiz:
    """Validate a quiz document held in memory (written out with :func:`dump_quiz`, so each
    problem's line is a line of that text). Raises :class:`ContentError`."""
    return import_quiz(dump_quiz(doc), path)


def check_questions(quiz: Quiz, problems: Problems) -> None:
    """Every question against the engine (:func:`tutor.content.check.check_exercise`), ``teaches``
    against the ruleset's lesson steps, ids unique in the quiz."""
    from ..content.check import check_exercise
    from ..content.exercise import RULESETS
    from ..content.lessons import load_lesson_path

    known = quiz.ruleset in RULESETS  # else its one problem is at the ruleset line, not per question
    steps = {s.id for s in load_lesson_path(quiz.ruleset, "en", problems=Problems())} if known else set()
    seen: dict[str, Exercise] = {}
    for q in quiz.questions:
        if q.id in seen:
            problems.add(q.path, q.line_of("id"), f"question id {q.id!r} is also used at line {seen[q.id].line}")
        else:
            seen[q.id] = q
        if known and q.teaches is not None and q.teaches not in steps:
            problems.add(q.path, q.line_of("teaches"),
                         f"question {q.id}: teaches {q.teaches!r} is not a lesson step of {quiz.ruleset}")
        check_exercise(q, quiz.ruleset if known else None, problems)


# ------------------------------------------------------------------------------------- lessons

def lesson_document(step: LessonStep) -> dict:
    """A lesson step as a document: ``front_matter`` (the fields of
    :data:`~tutor.content.lessons.STEP_FIELDS`, in that order) and ``parts`` in page order:
    ``{"markdown": text}`` (the Markdown between exercises, as written) and ``{"exercise": block}``."""
    front = {name: getattr(step, name) for name in STEP_FIELDS}
    front["rules"] = list(step.rules)
    parts: list[dict] = []
    for i, text in enumerate(step.markdown):
        parts.append({"markdown": text})
        if i < len(step.exercises):
            block = step.exercises[i].to_block()
            parts.append({"exercise": block})
    return {"front_matter": front, "parts": parts}


def _fence(block: dict) -> str:
    """The YAML lines of one exercise block (fenced by the caller)."""
    return "\n".join(_block(str(k), v) for k, v in block.items())


def dump_lesson(doc: LessonStep | Mapping[str, Any]) -> str:
    """A lesson document (or step) as the text of a lesson file: ``---``, the front matter, ``---``,
    then the Markdown parts with each exercise in a fenced ``exercise`` block. Reading it back
    (:func:`import_lesson`) gives the same document."""
    d = lesson_document(doc) if isinstance(doc, LessonStep) else dict(doc)
    lines = ["---", *(_block(str(k), v) for k, v in dict(d["front_matter"]).items()), "---"]
    body: list[str] = []
    for part in d["parts"]:
        if "exercise" in part:
            body += ["```exercise", _fence(dict(part["exercise"])), "```"]
        else:
            body.append(part["markdown"])
    return "\n".join(lines + body)


def import_lesson(text: str, path: str = "<lesson>", lang: str = "en", *, engine: bool = True) -> LessonStep:
    """Read a lesson file's text (in ``lang``) and validate it: structure, and with ``engine`` every
    exercise against the engine and each exercise id once, as ``tutor check`` does. Raises :class:`ContentError` (``path:line: message``)."""
    from ..content.check import check_step_exercises

    problems = Problems()
    step = parse_step(text, path, problems, lang=lang)
    if step is not None and engine:
        check_step_exercises(step, problems)
    problems.raise_if_any()
    assert step is not None
    return step

