"""A quiz for a school's learning management system: Moodle XML and GIFT.

Each question is keyed by the engine: :func:`keyed` computes the expected answer now
(:func:`tutor.content.kinds.expected_answer`, never the authored ``expect``), asks the question's
kind how an LMS asks it (:meth:`~tutor.content.kinds.base.ExerciseKind.lms_key`: multiple choice,
several right answers, a number, a short answer or a matching), and renders the engine's reasons in
the chosen language as the general feedback. The card table becomes text with suit symbols (HTML
in Moodle XML and GIFT's ``[html]``).

* :func:`moodle_xml` — ``<quiz>`` with one ``<question>`` per question (``multichoice``, with
  ``<single>false</single>`` for several right answers; ``numerical``; ``shortanswer``;
  ``matching``), a category first; ``<defaultgrade>`` is the question's ``points`` (default 1).
* :func:`gift` — the same questions in Moodle's GIFT text format.

Errors: a question the engine rejects raises :class:`~tutor.problems.ContentError` with
its ``file:line: message`` (check the quiz first with :func:`tutor.export.files.import_quiz`).
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tutor.problems import ContentError, Problems

from .. import i18n
from ..content.exercise import Exercise
from ..content.kinds import KINDS, LmsKey, Names, Verdict, expected_answer, learner_seat, players_of
from ..content.kinds.base import N_
from ..content.quizzes import Quiz
from ..engine.errors import TutorError

__all__ = ["Keyed", "diagram", "gift", "keyed", "keyed_quiz", "moodle_xml"]


@dataclass(frozen=True)
class Keyed:
    """One question ready to export, in one language: ``ex``; ``prompt`` (plain text);
    ``diagram`` (lines of :func:`diagram`); ``key`` (the kind's :class:`LmsKey` from the engine's
    answer); ``expected`` (the engine's value); ``reasons`` (the engine's reasons in words);
    ``right`` (the right answer, ``(what, value)`` lines); ``points``."""

    ex: Exercise
    prompt: str
    diagram: tuple[tuple[str, tuple[Any, ...]], ...]
    key: LmsKey
    expected: Any
    reasons: tuple[str, ...]
    right: tuple[tuple[str, str], ...]
    points: float


def keyed(ex: Exercise, lang: str) -> Keyed:
    """The question in ``lang``, keyed by the engine. Raises :class:`ContentError` when the engine
    rejects it."""
    kind = KINDS[ex.kind]
    try:
        expected, answer = expected_answer(ex)
    except (TutorError, ValueError) as e:
        problems = Problems()
        problems.add(ex.path or "<quiz>", ex.line, f"question {ex.id}: the engine cannot answer it: {e}")
        raise ContentError(list(problems)) from None
    with i18n.using(lang):
        you = learner_seat(ex)
        names = Names(you, players_of(ex.scenario), ex.ruleset)
        public = {k: v for k, v in answer.items() if k != "why"}
        verdict = Verdict(kind.name, True, expected, expected, answer=public)
        right = tuple((line.what, line.value) for line in kind.feedback_lines(ex, verdict, names))
        reasons = tuple(i18n.render_reasons(answer.get("why", []), you=you, players=names.players,
                                            ruleset=ex.ruleset))
        return Keyed(ex=ex, prompt=ex.own_prompt(lang) or i18n.gettext(kind.print_prompt or kind.prompt), diagram=diagram(ex),
                     key=kind.lms_key(ex, expected, public, names), expected=expected, reasons=reasons,
                     right=right, points=ex.points or 1)


def keyed_quiz(quiz: Quiz, lang: str, each: Callable[[int, int], None] | None = None) -> list[Keyed]:
    """:func:`keyed` of every question; every problem is collected before :class:`ContentError`.
    ``each(i, n)`` is called before question ``i`` of ``n`` is keyed (a long export's progress)."""
    out, problems = [], Problems()
    for i, q in enumerate(quiz.questions, 1):
        if each is not None:
            each(i, len(quiz.questions))
        try:
            out.append(keyed(q, lang))
        except ContentError as e:
            problems.extend(e.problems)
    problems.raise_if_any()
    return out


def diagram(ex: Exercise) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The card table of the question as lines ``(label, parts)`` in the current language; a part
    is text or a :class:`~tutor.domain.table.CardView`. Only what a player could see (no answer)."""
    from ..domain.table import build_table, walk_seats

    kind = KINDS[ex.kind]
    seats = walk_seats(ex) if kind.shows_trick_seats(False) else None
    t = build_table(kind, ex.scenario, ex.you, trick_seats=seats)
    _ = i18n.gettext
    lines: list[tuple[str, tuple[Any, ...]]] = []
    if t.trump:
        lines.append((_("Trump"), (f"{t.trump['symbol']} {t.trump['name']}",)))
    for s in t.seats:
        roles = [_("dealer")] if s.dealer else []
        roles += [_("hakem")] if s.hakem else []
        who = s.label + (f" ({', '.join(roles)})" if roles else "")
        if s.played is not None:
            lines.append((who, (s.played, _(N_("card %(n)s of the trick"), n=i18n.fmt_number(s.order or 0)))))
        elif roles:
            lines.append((who, ()))
    if t.hand:
        lines.append((_("Your hand"), tuple(t.hand)))
    if t.center:
        lines.append((_("Turned-up cards"), tuple(t.center)))
    for tr in t.tricks:
        parts: list[Any] = []
        for it in tr["cards"]:
            parts.append(it["card"])
            if it["who"]:
                parts.append(f"({it['who']})")
        lines.append((_("Trick %(n)s", n=i18n.fmt_number(tr["n"])), tuple(parts)))
    for label, value in t.scores:
        lines.append((_("Score") + " — " + label, (value,)))
    for label, value in t.facts:
        lines.append((label, (value,)))
    return tuple(lines)


def _card_text(part: Any) -> str:
    return part if isinstance(part, str) else f"{part.rank}{part.symbol}"


def diagram_text(lines: Iterable[tuple[str, tuple[Any, ...]]]) -> list[str]:
    """The diagram as plain text lines (``label: 10♥ A♠ ...``)."""
    return [f"{label}: {' '.join(_card_text(p) for p in parts)}".rstrip(": ") for label, parts in lines]


def _card_html(part: Any) -> str:
    if isinstance(part, str):
        return html.escape(part)
    colour = "#b00020" if part.red else "#111111"
    return (f'<span style="color:{colour};font-weight:bold" title="{html.escape(part.label)}">'
            f"{html.escape(part.rank)}{part.symbol}</span>")


def _question_html(k: Keyed, lang: str) -> str:
    rows = "".join(f"<li><b>{html.escape(label)}</b>{': ' if parts else ''}"
                   f"{' '.join(_card_html(p) for p in parts)}</li>" for label, parts in k.diagram)
    d = i18n.text_direction(lang)
    return f'<div dir="{d}" lang="{lang}"><p>{html.escape(k.prompt)}</p><ul>{rows}</ul></div>'


def _feedback_html(k: Keyed, lang: str) -> str:
    with i18n.using(lang):
        head = i18n.gettext(N_("The right answer"))
        why = i18n.gettext(N_("Why"))
    right = "".join(f"<li>{html.escape(w)}: {html.escape(v)}</li>" for w, v in k.right)
    reasons = "".join(f"<li>{html.escape(r)}</li>" for r in k.reasons)
    d = i18n.text_direction(lang)
    return (f'<div dir="{d}" lang="{lang}"><p><b>{html.escape(head)}</b></p><ul>{right}</ul>'
            + (f"<p><b>{html.escape(why)}</b></p><ul>{reasons}</ul>" if reasons else "") + "</div>")


# ------------------------------------------------------------------ the question, for an import

#: The HTML comment that carries a question's block (its scenario, kind, prompts ...) in the
#: question text, and the one that carries its ``expect`` in the general feedback (shown only
#: after an answer): an LMS stores and exports both as written and shows neither (an HTML
#: comment), so a file that went through Moodle imports back (:mod:`.lmsread`).
BLOCK_COMMENT = "tutor"
EXPECT_COMMENT = "tutor-expect"


def block_comment(name: str, value: object) -> str:
    """``<!-- name: JSON -->``: ``value`` as ASCII JSON, every ``--`` written ``-\\u002d`` (a
    comment may not hold ``--``; outside strings JSON never has two dashes in a row)."""
    data = json.dumps(value, ensure_ascii=True, sort_keys=False).replace("--", "-\\u002d")
    return f"<!-- {name}: {data} -->"


def question_block(ex: Exercise) -> dict[str, Any]:
    """The question's block as an import needs it back (:meth:`Exercise.to_block` without
    ``expect``, which goes in the feedback); ``prompt`` is ``null`` when the question has none
    (the kind's prompt), so that an import does not take the exported text for the question's own."""
    block = ex.to_block()
    block.pop("expect", None)
    block.setdefault("prompt", None)
    return block


def _fraction(f: float) -> str:
    return f"{f:.7f}".rstrip("0").rstrip(".")


# ------------------------------------------------------------------------------------- Moodle XML

#: Characters XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF).
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a teacher's prompt may have pasted a
    control character): each becomes U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    if text is not None:
        el.text = xml_safe(text)
    return el


def _text(parent: ET.Element, tag: str, text: str, fmt: str | None = "html") -> ET.Element:
    el = _sub(parent, tag, **({"format": fmt} if fmt else {}))
    _sub(el, "text", text)
    return el


def _expect_comment(k: Keyed) -> str:
    return block_comment(EXPECT_COMMENT, k.ex.expect) if k.ex.expect is not None else ""


def moodle_xml(quiz: Quiz, lang: str, *, category: str | None = None) -> str:
    """The quiz as Moodle XML (UTF-8 text): a category (``category``, default
    ``$course$/top/tutor/<ruleset>``), then one ``<question>`` per question, in ``lang``."""
    root = ET.Element("quiz")
    cat = _sub(root, "question", type="category")
    _text(cat, "category", category or f"$course$/top/tutor/{quiz.ruleset}", None)
    for k in keyed_quiz(quiz, lang):
        key = k.key
        qtype = {"multiresponse": "multichoice"}.get(key.type, key.type)
        q = _sub(root, "question", type=qtype)
        _text(q, "name", k.ex.id, None)
        _text(q, "questiontext", _question_html(k, lang) + block_comment(BLOCK_COMMENT, question_block(k.ex)))
        _text(q, "generalfeedback", _feedback_html(k, lang) + _expect_comment(k))
        _sub(q, "defaultgrade", _fraction(k.points))
        _sub(q, "penalty", "0.3333333")
        _sub(q, "hidden", "0")
        _sub(q, "idnumber", k.ex.id)
        if key.type in ("multichoice", "multiresponse"):
            _sub(q, "single", "true" if key.type == "multichoice" else "false")
            _sub(q, "shuffleanswers", "true")
            _sub(q, "answernumbering", "abc")
            for c in key.choices:
                a = _text(q, "answer", c.text)
                a.set("fraction", _fraction(c.fraction))
                _text(a, "feedback", "")
        elif key.type == "numerical":
            assert key.number is not None
            a = _text(q, "answer", f"{key.number:g}", "moodle_auto_format")
            a.set("fraction", "100")
            _sub(a, "tolerance", "0")
            _text(a, "feedback", "")
        elif key.type == "shortanswer":
            _sub(q, "usecase", "0")
            for c in key.choices:
                a = _text(q, "answer", c.text, "moodle_auto_format")
                a.set("fraction", _fraction(c.fraction))
                _text(a, "feedback", "")
        elif key.type == "matching":
            _sub(q, "shuffleanswers", "true")
            for item, right in key.pairs:
                sq = _text(q, "subquestion", html.escape(item))
                _text(sq, "answer", right, None)
            for extra in key.extra:
                sq = _text(q, "subquestion", "")
                _text(sq, "answer", extra, None)
        else:  # pragma: no cover - a kind returned a type this exporter does not know
            raise ValueError(f"unknown LMS question type {key.type!r} (kind {k.ex.kind})")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ------------------------------------------------------------------------------------------- GIFT

_GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")


def gift_escape(text: str) -> str:
    """Text with GIFT's special characters (``~ = # { } : \\``) escaped, on one line."""
    return _GIFT_SPECIAL.sub(r"\\\1", " ".join(xml_safe(text).split()))


def _gift_keep(text: str) -> str:
    """``text`` with GIFT's special characters escaped and its spaces kept as they are (the JSON
    of a block comment: ASCII, on one line)."""
    return _GIFT_SPECIAL.sub(r"\\\1", text)


def _gift_question_html(k: Keyed, lang: str) -> str:
    rows = "<br>".join(html.escape(line) for line in diagram_text(k.diagram))
    d = i18n.text_direction(lang)
    return f'<div dir="{d}"><p>{html.escape(k.prompt)}</p><p>{rows}</p></div>'


def _gift_feedback(k: Keyed, lang: str) -> str:
    with i18n.using(lang):
        head = i18n.gettext(N_("The right answer"))
    right = "; ".join(f"{w}: {v}" for w, v in k.right)
    return " ".join([f"{head}: {right}.", *k.reasons])


def gift(quiz: Quiz, lang: str, *, category: str | None = None) -> str:
    """The quiz in GIFT (UTF-8 text), in ``lang``: ``$CATEGORY``, then one question per
    paragraph, ``::id::[html]question{answers####general feedback}``."""
    out = [f"$CATEGORY: {category or f'$course$/top/tutor/{quiz.ruleset}'}", ""]
    for k in keyed_quiz(quiz, lang):
        key = k.key
        if key.type == "multichoice":
            answers = " ".join(("=" if c.fraction >= 100 else "~") + gift_escape(c.text) for c in key.choices)
        elif key.type == "multiresponse":
            answers = " ".join(f"~%{_fraction(c.fraction)}%{gift_escape(c.text)}" for c in key.choices)
        elif key.type == "numerical":
            answers = f"#{key.number:g}"
        elif key.type == "shortanswer":
            answers = " ".join("=" + gift_escape(c.text) for c in key.choices)
        elif key.type == "matching":
            answers = " ".join(f"={gift_escape(a)} -> {gift_escape(b)}" for a, b in key.pairs)
        else:  # pragma: no cover
            raise ValueError(f"unknown LMS question type {key.type!r} (kind {k.ex.kind})")
        out.append(f"// {k.ex.kind}, {_fraction(k.points)} point(s)")
        block = _gift_keep(block_comment(BLOCK_COMMENT, question_block(k.ex)))
        expect = _gift_keep(_expect_comment(k))
        out.append(f"::{gift_escape(k.ex.id)}::[html]{gift_escape(_gift_question_html(k, lang))}{block}"
                   f"{{{answers} ####{gift_escape(_gift_feedback(k, lang))}{expect}}}")
        out.append("")
    return "\n".join(out)

