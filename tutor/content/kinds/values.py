"""The value types every exercise kind shares: the grading context (:class:`Ctx`), the verdict
(:class:`Verdict`), feedback lines, editor fields, the LMS key, the seat and side names
(:class:`Names`), the errors, and the JSON shapes that cross a kind's boundary (the engine's
reasons and answers).

A kind's own answer value is typed by the kind (the type parameter of
:class:`~tutor.content.kinds.base.ExerciseKind`); :class:`Verdict` carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypedDict, TypeVar, cast

from ... import i18n
from ..exercise import EngineAnswer, Exercise

__all__ = [
    "N_",
    "A",
    "AnswerError",
    "Ctx",
    "EditorField",
    "EngineAnswer",
    "ExerciseError",
    "FeedbackLine",
    "Json",
    "LmsChoice",
    "LmsKey",
    "Names",
    "ReasonJson",
    "Reject",
    "Verdict",
    "reasons_of",
]

#: A JSON object at a boundary (a form's fields, an answer's details, the API's output).
Json = dict[str, Any]
#: A kind's normalised answer value (each kind names its own: an ``int`` seat, a ``list[str]``
#: of cards, a :class:`~typing.TypedDict` of fields).
A = TypeVar("A")


class ReasonJson(TypedDict):
    """One of the engine's reasons as JSON (solve-format "why"; :class:`tutor.solve.schema.Reason`):
    ``code`` (the explanation's key), ``rule`` (the rule point, e.g. ``H14``) and ``params``."""

    code: str
    rule: str
    params: dict[str, Any]


def reasons_of(answer: Mapping[str, Any]) -> tuple[ReasonJson, ...]:
    """The ``why`` of an engine answer, as reasons (anything that is no JSON object dropped)."""
    why = answer.get("why", [])
    return tuple(cast(ReasonJson, r) for r in why if isinstance(r, dict)) if isinstance(why, list) else ()


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated where it is shown."""
    return message



class ExerciseError(ValueError):
    """The exercise itself is unusable (not the learner's fault): unknown kind, an ask the kind
    does not accept, or an engine answer without the field the kind checks."""


class AnswerError(Exception):
    """A learner's answer that cannot be read, as a message to show beside the form.

    ``code``: the API/HTTP error code (``bad-answer``, ``bad-card``); ``message``: a message id
    (marked with ``N_``, translated where shown) with ``%(name)s`` placeholders filled from
    ``params``.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.code = code
        self.message = message
        self.params = params


class Reject(Exception):
    """A generator's candidate does not fit its difficulty: draw another."""


@dataclass(frozen=True)
class Verdict(Generic[A]):
    """The result of grading one answer.

    ``correct``: bool; ``expected``/``given``: normalised values (shapes in each kind's
    ``answer_help``); ``why``: the engine's reasons (Reason JSON dicts ``{"code", "rule",
    "params"}``); ``details``: per-item detail of the kind; ``answer``: the engine's full answer
    (only to be shown after answering).
    """

    kind: str
    correct: bool
    expected: A
    given: A
    why: tuple[ReasonJson, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    answer: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> Json:
        """JSON-ready dict of every field."""
        return {"kind": self.kind, "correct": self.correct, "expected": self.expected, "given": self.given,
                "why": list(self.why), "details": dict(self.details), "answer": dict(self.answer)}


@dataclass(frozen=True)
class Ctx:
    """What a kind knows while it reads or grades an answer: the exercise, its ruleset name, the
    player count and the number of scoring sides."""

    exercise: Exercise
    ruleset: str
    players: int
    sides: int


@dataclass(frozen=True)
class FeedbackLine:
    """One line of "the right answer": ``what`` (label), ``value`` (the right answer in words)
    and ``ok`` (True/False: the learner's part was right/wrong; None: not a part they answered)."""

    what: str
    value: str
    ok: bool | None = None


@dataclass(frozen=True)
class EditorField:
    """A field the teacher's editor asks for: ``name`` (the scenario field), ``widget`` (``cards``,
    ``card``, ``suit``, ``seat``, ``side-list``, ``tricks``, ``choice``, ``number``), ``label``
    (a message id) and ``required``."""

    name: str
    widget: str
    label: str
    required: bool = True


@dataclass(frozen=True)
class LmsChoice:
    """One answer an LMS offers: ``text`` (plain text in the export's language) and ``fraction``
    (the share of the question's marks it earns, in percent, -100..100)."""

    text: str
    fraction: float


@dataclass(frozen=True)
class LmsKey:
    """How a learning management system (Moodle XML, GIFT) asks one question, with its key.

    ``type``: ``multichoice`` (one right choice), ``multiresponse`` (several right choices,
    check boxes), ``numerical`` (``number``), ``shortanswer`` (``choices`` are the accepted texts)
    or ``matching`` (``pairs`` of item and right answer; ``extra`` are more answers offered).
    Every right value is the engine's (see :meth:`ExerciseKind.lms_key`).
    """

    type: str
    choices: tuple[LmsChoice, ...] = ()
    number: float | None = None
    pairs: tuple[tuple[str, str], ...] = ()
    extra: tuple[str, ...] = ()

    def right(self) -> list[str]:
        """The right answers as text (for tests and the worksheet key)."""
        if self.type == "numerical":
            return [f"{self.number:g}"]
        if self.type == "matching":
            return [f"{a} -> {b}" for a, b in self.pairs]
        return [c.text for c in self.choices if c.fraction > 0]


@dataclass(frozen=True)
class Names:
    """Names of seats and sides from the learner's seat, in the current language
    (:func:`tutor.i18n.current_lang`: the request's, or a ``with i18n.using(lang)`` block's);
    ``you=None`` names seats by number (a teacher's view of a scenario)."""

    you: int | None
    players: int
    ruleset: str | None

    def seat(self, s: object) -> str:
        """A seat's name ("your partner"); ``None`` reads as nobody."""
        if isinstance(s, int):
            return i18n.seat_label(s, self.you, self.players, self.ruleset)
        return self.side(None)

    def by(self, s: int) -> str:
        """A seat as the one who did something, with its "by": "by your partner" (for "played
        %(by)s"; :func:`tutor.i18n.seat_label` with ``by``)."""
        return i18n.seat_label(s, self.you, self.players, self.ruleset, by=True)

    def side(self, s: object) -> str:
        """A side's name ("your team", "you"), or "nobody" for ``None``."""
        return i18n.side_label(s if isinstance(s, int) else None, self.you, self.players, self.ruleset)

    def num(self, n: int) -> str:
        """A number in the language's digits."""
        return i18n.fmt_number(n)

    def text(self, message: str, **params: object) -> str:
        """A message translated, ``%(name)s`` placeholders filled."""
        return i18n.gettext(message, **params)

    def reasons(self, why: Iterable[Mapping[str, Any]]) -> list[i18n.ReasonText]:
        """The engine's reasons (Reason JSON dicts) in words (``str`` with the cited rule ids in
        ``.rules``), seats named from the learner's seat."""
        return i18n.render_reasons([r for r in why if isinstance(r, Mapping)], you=self.you, players=self.players,
                                   ruleset=self.ruleset)
