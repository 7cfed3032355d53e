"""Quizzes back from a learning management system: Moodle XML and GIFT files read as quizzes,
checked by the engine like every import (:func:`import_any`).

A question becomes a scenario the engine can check only if the file carries one. This project's
exports (:mod:`.lms`) put each question's block (``id``, ``kind``, ``prompt``, ``difficulty``,
``teaches``, ``points``, ``scenario``, ``you``) in an HTML comment of the question text,
``<!-- tutor: {JSON} -->``, and its ``expect`` in one of the general feedback, ``<!-- tutor-expect:
{JSON} -->``: Moodle stores and exports both as written and shows neither. A file written by
another tool (Moodle itself, a teacher by hand) may carry the same comment, or, in GIFT, a comment
line ``// tutor: {JSON}`` just above the question; the block needs only the ``scenario`` (and the
``kind`` when more than one kind takes the scenario's ask and is asked as the file asks it).
Then:

* ``id``: the block's, else Moodle's ``idnumber``, else the question's name, else ``q<N>``;
* ``prompt``: the block's (``null``: the kind's own prompt), else the question text as plain
  text (in the block's ``lang``, default English);
* ``points``: the block's, else Moodle's ``defaultgrade`` when it is not 1;
* ``expect``: the block's or the feedback comment's, else the engine's answer, once the file's
  right answer is the engine's (see below);
* ``teaches``: derived from the engine's reasons when absent
  (:func:`tutor.export.files.derived_teaches`).

The file's own key is checked against the engine too: a number always; answers in words when
they are the engine's words in one of the languages (:data:`tutor.i18n.LANGUAGES`; the right
ones must then be the engine's); without an ``expect`` the question must be asked as the kind asks
it in an LMS (:meth:`~tutor.content.kinds.base.ExerciseKind.lms_key`: multiple choice, several
right answers, a number, a short answer, a matching) with the engine's right answers, since they
give the ``expect`` (one right answer may be offered as a single choice or as check boxes,
whichever the engine keys). With an ``expect`` (checked by the engine as in every import) a file may
word its choices its own way. A question without a scenario
(a plain multiple-choice or numerical question about a card situation written in words), of a
type the engine does not key (true/false, essay, description, cloze ...), or whose key is not the
engine's is refused with its own ``file:line: message``, and nothing of the file is imported.

The files are read as questions by :mod:`.lmsparse` (safely: no DTDs, entities or network; at
most :data:`~tutor.export.lmsparse.MAX_CHARS` characters). Errors: :class:`~tutor.problems.ContentError`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tutor.problems import ContentError, Problems

from .. import i18n
from ..content.exercise import RULESETS, Exercise, parse_exercise
from ..content.kinds import KINDS, LmsKey, expected_answer
from ..content.quizzes import Quiz
from ..engine.errors import TutorError
from .lms import BLOCK_COMMENT, EXPECT_COMMENT, keyed
from .lmsparse import (
    KEYED_TYPES,
    MAX_CHARS,
    LmsQuestion,
    plain,
    read_gift,
    read_moodle_xml,
    too_big,
)

__all__ = ["MAX_CHARS", "LmsQuestion", "detect_format", "import_any", "import_gift", "import_moodle_xml",
           "read_gift", "read_moodle_xml"]

# ------------------------------------------------------------------------------------- format

def detect_format(text: str, path: str = "") -> str:
    """``"moodle"``, ``"gift"`` or ``"yaml"``: by the file's extension (``.xml``; ``.gift``), else
    by its content (an XML declaration or a ``<quiz>`` root; GIFT's ``::title::``, ``$CATEGORY:``
    or a question's ``{...}`` answers with ``=``/``~``/``#``); else YAML."""
    ext = Path(path).suffix.lower()
    if ext == ".xml":
        return "moodle"
    if ext == ".gift":
        return "gift"
    head = text.lstrip("\ufeff \t\r\n")[:2000]
    if head.startswith("<"):
        return "moodle"
    if ext in (".yaml", ".yml"):
        return "yaml"
    if re.search(r"^\s*(\$CATEGORY:|::)", head, re.M) or re.search(r"\{\s*[=~#]", head) \
            or re.search(r"\{\s*(T|F|TRUE|FALSE)\s*\}", head):
        return "gift"
    return "yaml"


def import_any(text: str, path: str = "<quiz>") -> Quiz:
    """A quiz file of any format the app reads (:func:`detect_format`: the quiz YAML, Moodle XML,
    GIFT), checked by the engine. Raises :class:`ContentError` (``path:line: message``)."""
    from .files import import_quiz

    fmt = detect_format(text, path)
    if fmt == "moodle":
        return import_moodle_xml(text, path)
    if fmt == "gift":
        return import_gift(text, path)
    return import_quiz(text, path)


def import_moodle_xml(text: str, path: str = "<quiz.xml>") -> Quiz:
    """A Moodle XML file as a quiz, every question checked by the engine (module docstring).
    Raises :class:`ContentError`."""
    too_big(text, path)
    problems = Problems()
    questions = read_moodle_xml(text, path, problems)
    return _quiz_of(questions, path, problems, "Moodle XML")


def import_gift(text: str, path: str = "<quiz.gift>") -> Quiz:
    """A GIFT file as a quiz, every question checked by the engine (module docstring). Raises
    :class:`ContentError`."""
    too_big(text, path)
    problems = Problems()
    questions = read_gift(text, path, problems)
    return _quiz_of(questions, path, problems, "GIFT")


# ------------------------------------------------------------------------------------- questions

def _comment(text: str, name: str) -> str | None:
    """The JSON of the ``<!-- name: ... -->`` comment in ``text`` (HTML), or ``None``."""
    m = re.search(r"<!--\s*" + re.escape(name) + r"\s*:\s*(.*?)\s*-->", text, re.S)
    return m.group(1) if m else None


def _block_of(q: LmsQuestion, label: str, path: str, problems: Problems) -> dict[str, Any] | None:
    """The question's block: its comment's JSON (question text, or a GIFT comment line
    ``tutor: {...}``), or ``None`` with the problem recorded."""
    raw = _comment(q.text, BLOCK_COMMENT)
    if raw is None:
        for c in q.comments:
            m = re.match(re.escape(BLOCK_COMMENT) + r"\s*:\s*(\{.*\})\s*$", c, re.S)
            if m:
                raw = m.group(1)
    if raw is None:
        problems.add(path, q.line, f"{label}: it has no scenario the engine can check: a question is imported "
                                   f"with its scenario, written <!-- {BLOCK_COMMENT}: {{\"kind\": ..., "
                                   f"\"scenario\": {{...}}}} --> in its text (this app's exports write it)")
        return None
    try:
        block = json.loads(raw)
    except (ValueError, RecursionError) as e:
        problems.add(path, q.line, f"{label}: its {BLOCK_COMMENT} comment is not valid JSON ({str(e)[:80]})")
        return None
    if not isinstance(block, dict):
        problems.add(path, q.line, f"{label}: its {BLOCK_COMMENT} comment must be a JSON object")
        return None
    return block


def _label(q: LmsQuestion, n: int) -> str:
    return f"question {q.name or q.idnumber or n}"


def _document(q: LmsQuestion, n: int, path: str, problems: Problems) -> dict[str, Any] | None:
    """The quiz question (block) of one LMS question, or ``None`` with its problems recorded."""
    label = _label(q, n)
    if q.type not in KEYED_TYPES:
        what = {"description": "a description, not a question", "essay": "an essay question",
                "truefalse": "a true/false question"}.get(q.type, f"a {q.type or 'untyped'} question")
        problems.add(path, q.line, f"{label}: it is {what}; the engine checks only multiple-choice, numerical, "
                                   "short-answer and matching questions that carry a scenario")
        return None
    block = _block_of(q, label, path, problems)
    if block is None:
        return None
    if not isinstance(block.get("scenario"), dict):
        problems.add(path, q.line, f"{label}: its {BLOCK_COMMENT} comment needs a scenario (a JSON object)")
        return None
    if "kind" not in block:
        found = _kind_of(block["scenario"], q)
        if found is not None:
            block = {"kind": found, **block}
    if not isinstance(block.get("kind"), str) or block["kind"] not in KINDS:
        problems.add(path, q.line, f"{label}: its {BLOCK_COMMENT} comment needs a kind, one of {', '.join(KINDS)}")
        return None
    doc = dict(block)
    lang = doc.pop("lang", "en")
    doc.setdefault("id", q.idnumber.strip() or q.name.strip() or f"q{n}")
    if "prompt" not in doc:
        text = plain(q.text)
        if text:
            doc["prompt"] = {lang if lang in i18n.LANGUAGES else "en": text}
    elif doc["prompt"] is None:
        del doc["prompt"]
    doc.setdefault("difficulty", 1)
    if "points" not in doc and q.grade is not None and q.grade != 1:
        doc["points"] = int(q.grade) if q.grade.is_integer() else q.grade
    if "expect" not in doc:
        raw = _comment(q.feedback, EXPECT_COMMENT)
        if raw is not None:
            try:
                doc["expect"] = json.loads(raw)
            except (ValueError, RecursionError) as e:
                problems.add(path, q.line, f"{label}: its {EXPECT_COMMENT} comment is not valid JSON ({str(e)[:80]})")
                return None
    return doc


def _kind_of(scenario: dict[str, Any], q: LmsQuestion) -> str | None:
    """The one kind that takes the scenario's ask and game and that an LMS asks as the file asks
    the question (a ``round-score`` scenario: ``round-score`` as a number, ``next-hakem`` as a
    choice of seats), or ``None`` when there is none or more than one."""
    qtype, right = _file_right(q)
    found = []
    for kind in KINDS.values():
        if scenario.get("ask") not in kind.asks or scenario.get("ruleset") not in kind.rulesets:
            continue
        try:
            key = keyed(Exercise(id="kind", kind=kind.name, scenario=scenario), "en").key
        except (ContentError, TutorError, ValueError, KeyError, TypeError):
            continue
        if _asked_as(qtype, right, key):
            found.append(kind.name)
    return found[0] if len(found) == 1 else None


def _asked_as(qtype: str, right: list[str], key: LmsKey) -> bool:
    """Whether the file asks the question as the engine keys it: the same type, or one right answer
    of a choice whichever way the file offers it (a check-box question with one right answer, as
    tools that write check boxes by default write a single choice; a single choice of a question
    whose engine key is one answer of several allowed)."""
    if qtype == key.type:
        return True
    choices = ("multichoice", "multiresponse")
    return qtype in choices and key.type in choices and len(right) == 1 and len(key.right()) == 1


def _file_right(q: LmsQuestion) -> tuple[str, list[str]]:
    """The file's question type as :class:`LmsKey` names it, and its right answers as text."""
    if q.type == "numerical":
        return "numerical", [f"{q.number:g}"] if q.number is not None else []
    if q.type == "matching":
        return "matching", [f"{plain(a)} -> {plain(b)}" for a, b in q.pairs if a.strip()]
    right = [plain(t) for f, t in q.answers if f > 0]
    if q.type == "shortanswer":
        return "shortanswer", right
    return ("multichoice" if q.single else "multiresponse"), right


def _engine_key_problem(ex: Exercise, q: LmsQuestion, label: str, has_expect: bool) -> str | None:
    """Why the file's key is not the engine's (``None`` when it is, in one of the languages: the
    one the question text names with ``lang="..."`` first, then the others, each keyed only if
    needed).

    A number is always compared. Answers in words are compared when they are the engine's words
    (in some language); with the block's ``expect`` (which the engine checks) a file may word its
    answers its own way, or ask the question as another type."""
    qtype, right = _file_right(q)
    named = re.search(r'\blang="([A-Za-z-]+)"', q.text)
    langs = sorted(i18n.LANGUAGES, key=lambda lang: lang != (named.group(1) if named else "en"))

    def norm(texts: list[str]) -> list[str]:
        return sorted(" ".join(t.split()) for t in texts)

    def words(key: LmsKey) -> set[str]:
        return set(norm([c.text for c in key.choices] + [f"{a} -> {b}" for a, b in key.pairs]))

    first: LmsKey | None = None
    own_words = True
    for lang in langs:
        try:
            key = keyed(ex, lang).key
        except ContentError:
            return None  # the engine's own problem is reported by the check
        first = first or key
        if not _asked_as(qtype, right, key):
            if has_expect:
                return None
            return (f"{label}: the file asks it as {qtype}; the engine keys a {ex.kind} question as {key.type}: "
                    "give the right answer as expect in its tutor comment, or ask it as the engine does")
        if qtype == "shortanswer" and set(right) & set(norm(key.right())):
            return None
        if qtype != "shortanswer" and norm(right) == norm(key.right()):
            return None
        if set(right) & words(key):
            own_words = False
        if qtype == "numerical":
            break  # a number is the same in every language
    if has_expect and qtype != "numerical" and own_words:
        return None  # the file's own words; its expect is the key, checked by the engine
    assert first is not None
    engine = "; ".join(first.right())
    given = "; ".join(right) or "none"
    return f"{label}: the file's right answer ({given}) is not the engine's ({engine})"


def _quiz_of(questions: list[LmsQuestion], path: str, problems: Problems, fmt: str) -> Quiz:
    """The quiz of the LMS questions: each a question block checked for structure, the file's key
    against the engine, then the whole quiz as every import (:func:`tutor.export.files.check_questions`).
    Raises :class:`ContentError` with every problem."""
    from .files import check_questions, with_teaches

    if not questions and not problems:
        problems.add(path, 1, f"the file holds no questions ({fmt})")
    exercises: list[Exercise] = []
    ruleset: str | None = None
    for n, q in enumerate(questions, 1):
        doc = _document(q, n, path, problems)
        if doc is None:
            continue
        label = f"question {doc['id']}" if isinstance(doc.get("id"), str) else _label(q, n)
        key_check = "expect" not in doc
        if key_check:
            doc["expect"] = {}
        lines = {"": q.line}
        before = len(problems)
        ex = parse_exercise(doc, lines, "", path=path, problems=problems, quiz=True, optional=("teaches",))
        if ex is None or len(problems) > before:
            continue
        sc_ruleset = ex.ruleset
        if sc_ruleset not in RULESETS:
            problems.add(path, q.line, f"{label}: the scenario's ruleset must be one of {', '.join(RULESETS)}, "
                                       f"not {sc_ruleset!r}")
            continue
        if ruleset is None:
            ruleset = sc_ruleset
        elif sc_ruleset != ruleset:
            problems.add(path, q.line, f"{label}: it is a {sc_ruleset} question, and this file's first question is "
                                       f"{ruleset}: import one game per file")
            continue
        wrong = _engine_key_problem(ex, q, label, not key_check)
        if wrong is not None:
            problems.add(path, q.line, wrong)
            continue
        if key_check:
            try:
                _, answer = expected_answer(ex)
            except (TutorError, ValueError, KeyError, TypeError) as e:
                problems.add(path, q.line, f"{label}: the engine cannot answer it: {e}")
                continue
            kind = KINDS[ex.kind]
            doc["expect"] = {f: answer[f] for f in kind.expect_fields if f in answer}
            ex = parse_exercise(doc, lines, "", path=path, problems=problems, quiz=True, optional=("teaches",))
            if ex is None:
                continue
        exercises.append(ex)
    quiz = Quiz(ruleset or "", tuple(exercises), path)
    if exercises and not problems:
        check_questions(quiz, problems)
    problems.sort()
    problems.raise_if_any()
    return with_teaches(quiz)
