"""Moodle XML and GIFT files read as questions (:class:`LmsQuestion`), before any engine check:
:func:`read_moodle_xml` and :func:`read_gift` (``file:line: message`` problems into a
:class:`~tutor.problems.Problems`). :mod:`.lmsread` makes them quizzes the engine checks.

Safety: XML is read with lxml without DTDs, entities, network or huge trees; a ``DOCTYPE``
(the way to an XXE or an entity bomb) is refused; a file of more than :data:`MAX_CHARS`
characters is refused before it is parsed (:func:`too_big`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tutor.problems import Problems

__all__ = ["KEYED_TYPES", "MAX_CHARS", "LmsQuestion", "gift_unescape", "plain", "read_gift", "read_moodle_xml",
           "to_number", "too_big"]

#: The most characters an imported file may hold (a quiz of 200 questions with long walk-throughs
#: in Moodle XML is about 1.5 million).
MAX_CHARS = 4_000_000

#: The types of question the engine keys (Moodle's names; GIFT's are read as these).
KEYED_TYPES = ("multichoice", "numerical", "shortanswer", "matching")


@dataclass
class LmsQuestion:
    """One question as a Moodle XML or GIFT file has it: ``line`` (of its start), ``type``
    (Moodle's: ``multichoice``, ``numerical``, ``shortanswer``, ``matching``, ``truefalse``,
    ``essay``, ``description`` ...; ``multichoice`` with ``single`` false for several right
    answers), ``name``, ``idnumber``, ``text`` (the question text as written, HTML or plain),
    ``feedback`` (the general feedback), ``grade`` (``defaultgrade``), ``answers``
    (``(fraction in percent, text)``), ``number`` (a numerical answer), ``pairs`` (a matching's
    ``(item, answer)``), ``comments`` (GIFT comment lines just above it)."""

    line: int
    type: str
    name: str = ""
    idnumber: str = ""
    text: str = ""
    feedback: str = ""
    grade: float | None = None
    single: bool = True
    answers: list[tuple[float, str]] = field(default_factory=list)
    number: float | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def too_big(text: str, path: str) -> None:
    if len(text) > MAX_CHARS:
        problems = Problems()
        problems.add(path, 1, f"the file is too big: {len(text):,} characters, at most {MAX_CHARS:,}")
        problems.raise_if_any()


def plain(text: str) -> str:
    """HTML (or plain text) as plain text on one line: comments and tags left out, entities read."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<(br|/p|/li|/div)\b[^>]*>", " ", text, flags=re.I)
    text = re.sub(r"<[^>]*>", "", text)
    return " ".join(html.unescape(text).split())


def to_number(text: str) -> float | None:
    try:
        return float(text.strip())
    except ValueError:
        return None


# ------------------------------------------------------------------------------------- Moodle XML

_DECLARATION = re.compile(r"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["'][^>]*\?>""")


def read_moodle_xml(text: str, path: str, problems: Problems) -> list[LmsQuestion]:
    """The questions of a Moodle XML file (``<quiz>`` of ``<question type="...">``; categories
    left out). Problems (the XML's syntax, a DOCTYPE, another root) go to ``problems``."""
    from lxml import etree

    text = text.lstrip("\ufeff")
    m = _DECLARATION.match(text)
    if m and m.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        problems.add(path, 1, f"the file declares the encoding {m.group(1)}: save it as UTF-8 (Moodle writes UTF-8)")
        return []
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_pis=True, encoding="utf-8")
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as e:
        line = e.lineno or 1
        problems.add(path, line, f"the XML is not well-formed: {_xml_message(e)}")
        return []
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        problems.add(path, 1, "the file has a DOCTYPE: a quiz file may not declare a DTD or entities")
        return []
    if root.tag != "quiz":
        problems.add(path, root.sourceline or 1, f"this is not Moodle XML: its root element is <{root.tag}>, not <quiz>")
        return []
    out = []
    for q in root:
        if not isinstance(q.tag, str):  # a comment (Moodle writes <!-- question: 123 -->)
            continue
        line = q.sourceline or 1
        if q.tag != "question":
            problems.add(path, line, f"unknown element <{q.tag}> in <quiz> (Moodle XML holds <question> elements)")
            continue
        qtype = q.get("type", "")
        if qtype == "category":
            continue
        lq = LmsQuestion(line=line, type=qtype, name=_el_text(q, "name/text"), idnumber=_el_text(q, "idnumber"),
                         text=_el_text(q, "questiontext/text"), feedback=_el_text(q, "generalfeedback/text"))
        grade = _el_text(q, "defaultgrade")
        try:
            lq.grade = float(grade) if grade else None
        except ValueError:
            problems.add(path, line, f"question {lq.name or line}: defaultgrade {grade!r} is not a number")
        lq.single = _el_text(q, "single").lower() not in ("false", "0")
        for a in q.findall("answer"):
            try:
                fraction = float(a.get("fraction", "0"))
            except ValueError:
                problems.add(path, a.sourceline or line, f"question {lq.name or line}: an answer's fraction "
                                                         f"{a.get('fraction')!r} is not a number")
                continue
            lq.answers.append((fraction, _el_text(a, "text")))
        if qtype == "numerical":
            right = [t for f, t in lq.answers if f >= 100]
            lq.number = to_number(right[0]) if right else None
        for sq in q.findall("subquestion"):
            item, answer = _el_text(sq, "text"), _el_text(sq, "answer/text")
            lq.pairs.append((plain(item), answer.strip()))
        out.append(lq)
    return out


def _xml_message(e: Any) -> str:
    msg = str(getattr(e, "msg", "") or e)
    return re.sub(r",? line \d+, column \d+$", "", msg).strip() or "unreadable XML"


def _el_text(el: Any, path: str) -> str:
    found = el.find(path)
    return "".join(found.itertext()) if found is not None else ""


# ------------------------------------------------------------------------------------------- GIFT

def _gift_paragraphs(text: str) -> Iterator[tuple[int, list[str], str]]:
    """``(first line, comment lines above, the question's text)`` of each question of a GIFT file:
    questions are separated by blank lines; ``//`` lines are comments, ``$CATEGORY:`` lines are
    left out."""
    comments: list[str] = []
    chunk: list[str] = []
    start = 0
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped:
            if chunk:
                yield start, comments, "\n".join(chunk)
                chunk, comments = [], []
            continue
        if stripped.startswith("//") and not chunk:
            comments.append(stripped[2:].strip())
            continue
        if stripped.startswith("//"):
            continue
        if stripped.startswith("$CATEGORY:") and not chunk:
            comments = []
            continue
        if not chunk:
            start = n
        chunk.append(line)
    if chunk:
        yield start, comments, "\n".join(chunk)


def _split_unescaped(text: str, ch: str) -> int:
    """The index of the first ``ch`` in ``text`` not escaped by a backslash, or -1."""
    i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text.startswith(ch, i):
            return i
        i += 1
    return -1


_GIFT_UNESCAPE = re.compile(r"\\(.)", re.S)


def gift_unescape(text: str) -> str:
    """GIFT's escapes (``\\:``, ``\\{``, ``\\n`` ...) undone: ``\\n`` is a line break, any other
    escaped character is itself."""
    return _GIFT_UNESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def _gift_answers(body: str) -> list[tuple[str, str]]:
    """The answers of a GIFT answer part, each ``(mark, text)`` (``=`` or ``~``), escapes kept."""
    out: list[tuple[str, str]] = []
    i, current, mark = 0, "", ""
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            current += body[i:i + 2]
            i += 2
            continue
        if c in "=~":
            if mark:
                out.append((mark, current.strip()))
            mark, current = c, ""
        else:
            current += c
        i += 1
    if mark:
        out.append((mark, current.strip()))
    return out


_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")


def _weighted(mark: str, text: str) -> tuple[float, str]:
    """``(fraction, answer text)`` of one GIFT answer: ``=`` is 100 and ``~`` 0 unless a
    ``%n%`` weight is given; the answer's own ``#feedback`` is left out."""
    m = _WEIGHT.match(text)
    fraction = 100.0 if mark == "=" else 0.0
    if m:
        fraction, text = float(m.group(1)), text[m.end():]
    cut = _split_unescaped(text, "#")
    return fraction, (text[:cut] if cut >= 0 else text).strip()


def read_gift(text: str, path: str, problems: Problems) -> list[LmsQuestion]:
    """The questions of a GIFT file (Moodle's subset: multiple choice, several right answers,
    short answer, numerical, matching, true/false, essay, description). Problems (a question
    whose braces do not close) go to ``problems``."""
    out = []
    for line, comments, chunk in _gift_paragraphs(text.lstrip("\ufeff")):
        body = chunk.strip()
        name = ""
        if body.startswith("::"):
            end = _split_unescaped(body[2:], "::")
            if end < 0:
                problems.add(path, line, "the question's title (::title::) does not close")
                continue
            name, body = gift_unescape(body[2:2 + end]).strip(), body[2 + end + 2:].lstrip()
        fmt = ""
        fm = re.match(r"^\[(html|moodle|plain|markdown)\]", body)
        if fm:
            fmt, body = fm.group(1), body[fm.end():]
        open_at = _split_unescaped(body, "{")
        if open_at < 0:
            out.append(LmsQuestion(line=line, type="description", name=name, text=gift_unescape(body),
                                   comments=comments))
            continue
        close_at = _split_unescaped(body[open_at + 1:], "}")
        if close_at < 0:
            problems.add(path, line, f"question {name or line}: its answers ({{...}}) do not close with }}")
            continue
        answers = body[open_at + 1:open_at + 1 + close_at]
        question_text = body[:open_at] + body[open_at + 1 + close_at + 1:]
        lq = LmsQuestion(line=line, type="", name=name, text=gift_unescape(question_text).strip(), comments=comments)
        if fmt == "markdown":
            lq.text = html.escape(lq.text)
        cut = _split_unescaped(answers, "####")
        if cut >= 0:
            lq.feedback = gift_unescape(answers[cut + 4:]).strip()
            answers = answers[:cut]
        answers = answers.strip()
        if not answers:
            lq.type = "essay"
        elif re.fullmatch(r"(T|F|TRUE|FALSE)(\s*#.*)?", answers, re.S):
            lq.type = "truefalse"
        elif answers.startswith("#"):
            lq.type = "numerical"
            rest = answers[1:].strip()
            choices = _gift_answers(rest) if rest.startswith("=") else [("=", rest)]
            for mark, value in choices:
                fraction, number_text = _weighted(mark, value)
                lq.answers.append((fraction, gift_unescape(number_text)))
            right = [t for f, t in lq.answers if f >= 100]
            lq.number = to_number(right[0].split(":")[0]) if right else None
        else:
            parsed = [(mark, *_weighted(mark, value)) for mark, value in _gift_answers(answers)]
            if parsed and all(mark == "=" and _split_unescaped(t, "->") >= 0 for mark, _, t in parsed):
                lq.type = "matching"
                for _, _, t in parsed:
                    at = _split_unescaped(t, "->")
                    lq.pairs.append((gift_unescape(t[:at]).strip(), gift_unescape(t[at + 2:]).strip()))
            elif parsed and all(mark == "=" for mark, _, _ in parsed):
                lq.type = "shortanswer"
                lq.answers = [(f, gift_unescape(t)) for _, f, t in parsed]
            else:
                lq.type = "multichoice"
                lq.answers = [(f, gift_unescape(t)) for _, f, t in parsed]
                lq.single = any(mark == "=" for mark, _, _ in parsed)  # as Moodle reads GIFT: no "=", check boxes
        out.append(lq)
    return out
