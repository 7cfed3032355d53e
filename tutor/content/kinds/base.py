"""The base of every exercise kind, and what kinds share: the grading context, the verdict, the
answer readers.

An exercise kind is one class (a subclass of :class:`ExerciseKind`) in its own module of
:mod:`tutor.content.kinds`, registered with :func:`tutor.content.kinds.register`. CTFd's
challenge types are the model: the class brings everything about the kind — the rulesets and asks
it uses, how to read and validate the learner's answer (JSON and form), how the engine's answer
grades it, what a page may show before the learner answers, its template partial and its table
widgets, its feedback, its generators by difficulty, its messages and its editor fields.

The expected answer is ALWAYS computed by the engine (:func:`tutor.solve.solve`) at grading time;
an exercise's authored ``expect`` is never read by a kind (``tutor check`` compares it).

Errors: a malformed answer raises :class:`~tutor.engine.errors.BadFieldError` (code
``bad-field``) from :meth:`ExerciseKind.parse`, or :class:`AnswerError` (a translatable message
with the code the web gives it) from :meth:`ExerciseKind.read_form` /
:meth:`ExerciseKind.precheck`; a broken exercise raises :class:`ExerciseError`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ... import i18n
from ...engine.errors import BadFieldError, show
from ...engine.rulesets import RULESETS, get_ruleset
from ..exercise import Exercise

__all__ = [
    "ALL_RULESETS",
    "CATEGORIES",
    "N_",
    "AnswerError",
    "Ctx",
    "EditorField",
    "ExerciseError",
    "ExerciseKind",
    "FeedbackLine",
    "LmsChoice",
    "LmsKey",
    "Names",
    "Reject",
    "SeatKey",
    "Verdict",
    "as_int",
    "as_list",
    "as_mapping",
    "as_side",
    "digits",
    "is_none",
    "n_sides",
    "players_of",
    "rulesets_with_categories",
    "seat_choices",
    "seat_from_key",
    "side_from_key",
    "side_key",
]


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated where it is shown."""
    return message


#: Every ruleset name, in registry order.
ALL_RULESETS: tuple[str, ...] = tuple(RULESETS)


def rulesets_with_categories() -> tuple[str, ...]:
    """The rulesets that score a hand by High, Low, Jack and Game (All Fours, Trinidad)."""
    return tuple(r.name for r in RULESETS.values() if r.categories)


#: The end-of-hand categories a hand-score answer names, from the ruleset registry (C22-C27,
#: T16-T20; ``hang-jack`` counts as ``jack``).
CATEGORIES: tuple[str, ...] = next(r.categories for r in RULESETS.values() if r.categories)


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
class Verdict:
    """The result of grading one answer.

    ``correct``: bool; ``expected``/``given``: normalised values (shapes in each kind's
    ``answer_help``); ``why``: the engine's reasons (Reason JSON dicts ``{"code", "rule",
    "params"}``); ``details``: per-item detail of the kind; ``answer``: the engine's full answer
    (only to be shown after answering).
    """

    kind: str
    correct: bool
    expected: Any
    given: Any
    why: tuple[dict, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    answer: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
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


# ----------------------------------------------------------------------------- reading helpers

_NONE_WORDS = {"", "none", "null", "nobody", "-"}
_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩౦౧౨౩౪౫౬౭౮౯", "0123456789" * 3)


def digits(value: object) -> str:
    """A form value with Persian, Arabic-Indic and Telugu digits read as ASCII digits, stripped."""
    return str(value if value is not None else "").strip().translate(_DIGITS)


def is_none(raw: object) -> bool:
    """True for an answer meaning "nobody": ``None``, ``""``, ``none``, ``null``, ``nobody``, ``-``."""
    return raw is None or (isinstance(raw, str) and raw.strip().lower() in _NONE_WORDS)


def as_int(raw: object, what: str, lo: int, hi: int) -> int:
    """An int ``lo..hi`` from an int or a string of digits; :class:`BadFieldError` otherwise."""
    v: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        v = raw
    elif isinstance(raw, str) and re.fullmatch(r"\s*-?\d{1,6}\s*", raw):
        v = int(raw)
    if v is None:
        raise BadFieldError(f"{what} must be a whole number, not {show(raw)}.")
    if not lo <= v <= hi:
        raise BadFieldError(f"{what} must be from {lo} to {hi}, not {v}.")
    return v


def as_side(raw: object, what: str, ctx: Ctx, allow_none: bool = True) -> int | None:
    """A side ``0..sides-1``, or ``None`` for nobody (when allowed)."""
    if allow_none and is_none(raw):
        return None
    return as_int(raw, what, 0, ctx.sides - 1)


def as_list(raw: object, what: str) -> list:
    """A list from a list, or from one string separated by commas, semicolons or spaces."""
    if isinstance(raw, str):
        return [p for p in re.split(r"[\s,;]+", raw.strip()) if p]
    if isinstance(raw, list | tuple):
        return list(raw)
    raise BadFieldError(f"{what} must be a list, not {show(raw)}.")


def as_mapping(raw: object, what: str) -> Mapping:
    """The value if it is an object with fields; :class:`BadFieldError` otherwise."""
    if not isinstance(raw, Mapping):
        raise BadFieldError(f"{what} must be an object with fields, not {show(raw)}.")
    return raw


def _key_number(raw: object) -> int | None:
    """A whole number of a teacher's key (an int, or a string of digits in any of the app's
    scripts); None for anything else."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        text = digits(raw)
        if re.fullmatch(r"-?[0-9]{1,6}", text):
            return int(text)
    return None


def seat_from_key(raw: object, ctx: Ctx) -> object:
    """A seat of a teacher's answer key, numbered from 1 as people number seats ("seat 1" ..),
    as the engine's seat (from 0). A value that is no whole number is left as it is, for
    :meth:`ExerciseKind.parse` to name; a number that is no seat is an :class:`AnswerError`."""
    n = _key_number(raw)
    if n is None:
        return raw
    if not 1 <= n <= ctx.players:
        raise AnswerError("bad-answer", N_("Seats are numbered from 1 to %(last)s, as on the table: there is no seat %(n)s."),
                          last=i18n.fmt_number(ctx.players), n=i18n.fmt_number(n, group=False))
    return n - 1


def side_from_key(raw: object, ctx: Ctx) -> object:
    """A side of a teacher's answer key, numbered from 1 ("team 1", "team 2" with four players;
    otherwise a side is a seat, see :func:`seat_from_key`), as the engine's side (from 0);
    "nobody" stays as it is."""
    if is_none(raw):
        return raw
    if ctx.sides == ctx.players:
        return seat_from_key(raw, ctx)
    n = _key_number(raw)
    if n is None:
        return raw
    if not 1 <= n <= ctx.sides:
        raise AnswerError("bad-answer", N_("Teams are numbered 1 and 2, as on the table: there is no team %(n)s."),
                          n=i18n.fmt_number(n, group=False))
    return n - 1


def side_key(side: int | None) -> int | None:
    """The engine's side (or seat) as a teacher's key numbers it, from 1; None (nobody) stays."""
    return None if side is None else side + 1


def players_of(scenario: Mapping) -> int:
    """Player count of a scenario: its ``players`` or its ruleset's default (4 if unknown)."""
    p = scenario.get("players")
    if isinstance(p, int) and not isinstance(p, bool) and p > 0:
        return p
    r = RULESETS.get(scenario.get("ruleset"))  # type: ignore[arg-type]
    return r.default_players if r is not None else 4


def n_sides(scenario: Mapping) -> int:
    """Number of scoring sides: 2 teams with 4 players, else one side per seat."""
    p = players_of(scenario)
    return 2 if p == 4 else p


# ----------------------------------------------------------------------------- the base class

class ExerciseKind:
    """One exercise kind. Subclasses set the class attributes and override what differs.

    Class attributes: ``name``; ``order`` (where the app lists it); ``asks`` it accepts; ``rulesets`` it applies to; ``answer_fields``
    of the engine answer it checks; ``expect_fields`` the generator stores as ``expect``;
    ``answer_help`` and ``answer_schema`` (JSON Schema) describe the learner's value;
    ``label``, ``prompt`` and ``hint`` are message ids (short name, default question, how to
    answer on the page); ``template``: the partial under ``tutor/web/templates/`` with the macro
    ``widgets(x, fb)``; ``picks``: which cards on the table are the answer's widgets (``"hand"``:
    checkboxes on the hand, ``"trick"``: a radio on each trick card, ``"tricks"``: a radio per
    card of every trick of a transcript, ``""``: none); ``editor_fields``: what the teacher's
    editor asks for.
    """

    name: ClassVar[str]
    order: ClassVar[int]
    asks: ClassVar[tuple[str, ...]]
    rulesets: ClassVar[tuple[str, ...]] = ALL_RULESETS
    answer_fields: ClassVar[tuple[str, ...]]
    expect_fields: ClassVar[tuple[str, ...]]
    answer_help: ClassVar[str] = ""
    answer_schema: ClassVar[dict] = {}
    label: ClassVar[str]
    prompt: ClassVar[str]
    #: The prompt where nothing can be clicked (printed worksheets, LMS exports); None: ``prompt``.
    print_prompt: ClassVar[str | None] = None
    hint: ClassVar[str | None] = None
    picks: ClassVar[str] = ""
    editor_fields: ClassVar[tuple[EditorField, ...]] = ()
    #: The codes of the engine's reasons that decide this kind's answer (the others explain the
    #: tricks or the deal on the way to it): a mistake is explained by these. Empty: the first.
    decides: ClassVar[frozenset[str]] = frozenset()

    @property
    def template(self) -> str:
        """The kind's template partial (``kinds/<name>.html``)."""
        return f"kinds/{self.name}.html"

    def __repr__(self) -> str:
        return f"<kind {self.name}>"

    # ---------------------------------------------------------------- answer and grading

    def parse(self, raw: object, ctx: Ctx) -> Any:
        """The learner's value normalised (``answer_help``); :class:`BadFieldError` if malformed."""
        raise NotImplementedError

    def typed(self, raw: object) -> object:
        """The answer as the learner typed it, read leniently into the form :meth:`parse` takes
        (the web reads answers through this; content and the engine stay strict); unchanged by
        default."""
        return raw

    def precheck(self, ex: Exercise, raw: object) -> None:
        """Checks the web makes before :meth:`parse` that need their own error code (raise
        :class:`AnswerError`); nothing by default."""

    def expected(self, answer: dict, ctx: Ctx) -> Any:
        """The right value, read from the engine's answer (``KeyError`` if a field is missing)."""
        return answer[self.answer_fields[0]]

    def details(self, given: Any, expected: Any, answer: dict, ctx: Ctx) -> dict:
        """Per-item detail of the verdict (shown after answering); none by default."""
        return {}

    def required_expect(self, ex: Exercise, answer: dict) -> list[str]:
        """The ``expect`` fields an authored exercise must give (``tutor check``)."""
        return list(self.answer_fields[:1])

    def read_form(self, ex: Exercise, form: Any) -> object:
        """The raw answer from a page form (a werkzeug ``MultiDict``); :class:`AnswerError` when a
        part is missing."""
        raise NotImplementedError

    def form_fields(self, ex: Exercise, value: Any) -> dict:
        """The page form's fields that :meth:`read_form` reads back as ``value`` (a normalised
        answer): the inverse of :meth:`read_form`, for replaying an answer and for tests."""
        raise NotImplementedError

    def distractor(self, ex: Exercise, right: Any) -> Any:
        """A well-formed but wrong answer, near the right one (``right``: the normalised right
        answer): for multiple-choice exports and tests."""
        raise NotImplementedError

    # ---------------------------------------------------------------- the teacher's answer key

    def from_key(self, raw: object, ctx: Ctx) -> object:
        """A teacher's answer key (typed in the quiz editor, read by :meth:`typed`) as the raw
        answer :meth:`parse` takes. The key numbers seats and sides as people do, from 1 ("seat
        1", "team 1"), where answers, scenarios and the engine count from 0; a seat or side that
        does not exist is an :class:`AnswerError`. Unchanged by default: the answer names no
        seat or side."""
        return raw

    def key_text(self, value: Any, ctx: Ctx) -> str:
        """A normalised answer as the teacher types it in the key field, the inverse of
        :meth:`from_key` (read back, it is ``value`` again). By default a number as it is, a
        list of cards or numbers separated by spaces, anything else as JSON."""
        if isinstance(value, int | str) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, list) and value and all(isinstance(v, int | str) and not isinstance(v, bool)
                                                     for v in value):
            return " ".join(str(v) for v in value)
        return json.dumps(value, ensure_ascii=False)

    # ---------------------------------------------------------------- views

    def default_you(self, scenario: Mapping) -> int:
        """The learner's seat when the exercise gives none (seat 0)."""
        return 0

    def public_extra(self, ex: Exercise) -> dict:
        """Fields the public view adds for this kind (``choices``, ``tricks``); none by default."""
        return {}

    def shows_trick_seats(self, answered: bool) -> bool:
        """Whether the table names who played each card of a transcript's tricks (this needs the
        engine's trick winners, so only where that gives nothing away)."""
        return False

    def table_center(self, scenario: Mapping) -> list[str]:
        """Cards shown in the middle of the table (a turned-up card); none by default."""
        return []

    def shows_target(self) -> bool:
        """Whether the table states the game target even without scores."""
        return False

    def view_context(self, ex: Exercise, table: Any, verdict: Verdict | None) -> dict:
        """Extra template data of the kind (with the verdict, after answering), in the current
        language (:func:`tutor.i18n.current_lang`); none by default."""
        return {}

    def feedback_lines(self, ex: Exercise, verdict: Verdict, names: Names) -> list[FeedbackLine]:
        """The lines of "the right answer" in the current language, each with whether the learner
        got that part right."""
        raise NotImplementedError

    def mistake(self, ex: Exercise, verdict: Verdict, names: Names) -> list[str]:
        """The learner's own mistake in words, said first in the feedback before the full
        explanation (empty when the answer is right). By default: each part answered wrong with
        its right value, then the engine's first reason; kinds that know which card the learner
        picked say what became of it ("the K♦ you picked (played by your partner) did not win: ...")."""
        if verdict.correct:
            return []
        wrong = [line for line in self.feedback_lines(ex, verdict, names) if line.ok is False]
        out = [names.text(N_("%(what)s: the right answer is %(value)s."), what=line.what, value=line.value)
               for line in wrong[:3]]
        return out + names.reasons(self.mistake_reasons(ex, verdict))

    def mistake_reasons(self, ex: Exercise, verdict: Verdict) -> list[dict]:
        """The engine's reasons that explain a wrong answer (the rule points it missed, for the
        feedback and for mastery, :mod:`tutor.domain.mastery`): those of :attr:`decides` (at most
        three, in the engine's order), else the first reason; none for a right answer."""
        if verdict.correct:
            return []
        deciding = [r for r in verdict.why if r.get("code") in self.decides]
        return deciding[:3] if deciding else list(verdict.why[:1])

    def localise_details(self, details: dict, render: Any) -> dict:
        """The verdict's details with reasons turned into text by ``render(reason) -> str`` (API)."""
        return details

    # ---------------------------------------------------------------- LMS export

    def answer_text(self, ex: Exercise, value: Any, names: Names, answer: Mapping | None = None) -> str:
        """A normalised answer ``value`` in words, in the current language: the kind's
        "right answer" lines joined (``answer``: the engine's answer, for the details it adds)."""
        verdict = Verdict(self.name, True, value, value, answer=dict(answer or {}))
        return "; ".join(f"{line.what}: {line.value}" for line in self.feedback_lines(ex, verdict, names))

    def lms_key(self, ex: Exercise, expected: Any, answer: Mapping, names: Names) -> LmsKey:
        """The question as an LMS asks it, keyed by ``expected`` (the engine's value, from
        :func:`tutor.content.kinds.expected_answer`); ``answer`` is the engine's answer. By
        default a multiple choice: the right answer in words among up to three distractors
        (:meth:`distractor` applied in turn). Kinds with a more natural form override it."""
        right = self.answer_text(ex, expected, names, answer)
        choices = [LmsChoice(right, 100)]
        seen = {right}
        value = expected
        for _ in range(3):
            try:
                value = self.distractor(ex, value)
            except (NotImplementedError, LookupError, TypeError, ValueError):
                break
            text = self.answer_text(ex, value, names)
            if text not in seen:
                seen.add(text)
                choices.append(LmsChoice(text, 0))
        return LmsKey("multichoice", tuple(choices))

    # ---------------------------------------------------------------- generators

    def generate(self, ruleset: str, rng: random.Random, difficulty: int) -> tuple[dict, str]:
        """A candidate ``(scenario, English prompt)`` at ``difficulty`` 1..3, drawn from ``rng``;
        raises :class:`Reject` (or the engine's TutorError) for a candidate that does not fit."""
        raise NotImplementedError


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

    def reasons(self, why: Any) -> list[i18n.ReasonText]:
        """The engine's reasons (Reason JSON dicts) in words (``str`` with the cited rule ids in
        ``.rules``), seats named from the learner's seat."""
        return i18n.render_reasons([r for r in why if isinstance(r, Mapping)], you=self.you, players=self.players,
                                   ruleset=self.ruleset)


class SeatKey(ExerciseKind):
    """The base of the kinds whose answer is one seat: the teacher's key names it as people
    number seats, from 1."""

    def from_key(self, raw: object, ctx: Ctx) -> object:
        return seat_from_key(raw, ctx)

    def key_text(self, value: Any, ctx: Ctx) -> str:
        return str(value + 1)


def seat_choices(ex: Exercise, right: int, names: Names, label: Any = None) -> LmsKey:
    """A multiple choice of every seat (``label(seat) -> str`` names a seat; default
    :meth:`Names.seat`), ``right`` the engine's seat: for the kinds whose answer is a seat."""
    name = label or names.seat
    return LmsKey("multichoice", tuple(LmsChoice(name(s), 100 if s == right else 0)
                                       for s in range(players_of(ex.scenario))))


def ruleset_of(name: str) -> Any:
    """The ruleset registry entry (see :mod:`tutor.engine.rulesets`)."""
    return get_ruleset(name)
