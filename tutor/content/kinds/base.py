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
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from ...engine.rulesets import RULESETS
from ...solve.asks import AskModel
from ..exercise import EngineAnswer, Exercise, ScenarioDict
from .reading import (
    as_int,
    as_list,
    as_mapping,
    as_side,
    digits,
    is_none,
    n_sides,
    players_of,
    seat_from_key,
    side_from_key,
    side_key,
)
from .values import (
    N_,
    A,
    AnswerError,
    Ctx,
    EditorField,
    ExerciseError,
    FeedbackLine,
    Json,
    LmsChoice,
    LmsKey,
    Names,
    ReasonJson,
    Reject,
    Verdict,
)

__all__ = [
    "ALL_RULESETS",
    "CATEGORIES",
    "N_",
    "A",
    "AnswerError",
    "Ctx",
    "EditorField",
    "EngineAnswer",
    "ExerciseError",
    "ExerciseKind",
    "FeedbackLine",
    "Json",
    "LmsChoice",
    "LmsKey",
    "Names",
    "ReasonJson",
    "Reject",
    "ScenarioDict",
    "SeatKey",
    "Verdict",
    "as_int",
    "as_list",
    "as_mapping",
    "as_side",
    "digits",
    "fields_of",
    "is_none",
    "misread_outcomes",
    "n_sides",
    "near_misses",
    "players_of",
    "rulesets_with_categories",
    "seat_choices",
    "seat_from_key",
    "side_from_key",
    "side_key",
]


#: Every ruleset name, in registry order.
ALL_RULESETS: tuple[str, ...] = tuple(RULESETS)


def rulesets_with_categories() -> tuple[str, ...]:
    """The rulesets that score a hand by High, Low, Jack and Game (All Fours, Trinidad)."""
    return tuple(r.name for r in RULESETS.values() if r.categories)


#: The end-of-hand categories a hand-score answer names, from the ruleset registry (C22-C27,
#: T16-T20; ``hang-jack`` counts as ``jack``).
CATEGORIES: tuple[str, ...] = next(r.categories for r in RULESETS.values() if r.categories)


# ----------------------------------------------------------------------------- the base class

class ExerciseKind(Generic[A]):
    """One exercise kind. Subclasses set the class attributes and override what differs.

    The type parameter ``A`` is the kind's normalised answer value (what :meth:`parse` and
    :meth:`expected` return, what :class:`Verdict` carries): e.g. ``int`` (a seat),
    ``list[str]`` (cards), a :class:`~typing.TypedDict` of fields. The scenario reaches a kind
    typed, as ``ex.model`` (:attr:`tutor.content.exercise.Exercise.model`, parsed once at load);
    the engine's answer as the contract's JSON object (:data:`EngineAnswer`).

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
    answer_schema: ClassVar[Json] = {}
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

    def parse(self, raw: object, ctx: Ctx) -> A:
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

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> A:
        """The right value, read from the engine's answer (``KeyError`` if a field is missing)."""
        value: A = answer[self.answer_fields[0]]
        return value

    def details(self, given: A, expected: A, answer: EngineAnswer, ctx: Ctx) -> Json:
        """Per-item detail of the verdict (shown after answering); none by default."""
        return {}

    def required_expect(self, ex: Exercise, answer: EngineAnswer) -> list[str]:
        """The ``expect`` fields an authored exercise must give (``tutor check``)."""
        return list(self.answer_fields[:1])

    def read_form(self, ex: Exercise, form: Any) -> object:
        """The raw answer from a page form (a werkzeug ``MultiDict``); :class:`AnswerError` when a
        part is missing."""
        raise NotImplementedError

    def form_fields(self, ex: Exercise, value: A) -> Json:
        """The page form's fields that :meth:`read_form` reads back as ``value`` (a normalised
        answer): the inverse of :meth:`read_form`, for replaying an answer and for tests."""
        raise NotImplementedError

    def distractor(self, ex: Exercise, right: A) -> A:
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

    def key_text(self, value: A, ctx: Ctx) -> str:
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

    def default_you(self, scenario: ScenarioDict) -> int:
        """The learner's seat when the exercise gives none (seat 0)."""
        return 0

    def public_extra(self, ex: Exercise) -> Json:
        """Fields the public view adds for this kind (``choices``, ``tricks``); none by default."""
        return {}

    def shows_trick_seats(self, answered: bool) -> bool:
        """Whether the table names who played each card of a transcript's tricks (this needs the
        engine's trick winners, so only where that gives nothing away)."""
        return False

    def table_center(self, scenario: ScenarioDict) -> list[str]:
        """Cards shown in the middle of the table (a turned-up card); none by default."""
        return []

    def shows_target(self) -> bool:
        """Whether the table states the game target even without scores."""
        return False

    def view_context(self, ex: Exercise, table: Any, verdict: Verdict[A] | None) -> Json:
        """Extra template data of the kind (with the verdict, after answering), in the current
        language (:func:`tutor.i18n.current_lang`); none by default."""
        return {}

    def feedback_lines(self, ex: Exercise, verdict: Verdict[A], names: Names) -> list[FeedbackLine]:
        """The lines of "the right answer" in the current language, each with whether the learner
        got that part right."""
        raise NotImplementedError

    def mistake(self, ex: Exercise, verdict: Verdict[A], names: Names) -> list[str]:
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

    def mistake_reasons(self, ex: Exercise, verdict: Verdict[A]) -> list[ReasonJson]:
        """The engine's reasons that explain a wrong answer (the rule points it missed, for the
        feedback and for mastery, :mod:`tutor.domain.mastery`): those of :attr:`decides` (at most
        three, in the engine's order), else the first reason; none for a right answer."""
        if verdict.correct:
            return []
        deciding = [r for r in verdict.why if r.get("code") in self.decides]
        return deciding[:3] if deciding else list(verdict.why[:1])

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        """What a generated question states before it asks (:func:`question_prompt`): ``(label
        message id, value in the current language)`` pairs, e.g. the suit led and the trump;
        none by default."""
        return []

    def localise_details(self, details: Json, render: Callable[[ReasonJson], str]) -> Json:
        """The verdict's details with reasons turned into text by ``render(reason) -> str`` (API)."""
        return details

    # ---------------------------------------------------------------- LMS export

    def answer_text(self, ex: Exercise, value: A, names: Names, answer: Mapping[str, Any] | None = None) -> str:
        """A normalised answer ``value`` in words, in the current language: the kind's
        "right answer" lines joined (``answer``: the engine's answer, for the details it adds)."""
        verdict = Verdict(self.name, True, value, value, answer=dict(answer or {}))
        return "; ".join(f"{line.what}: {line.value}" for line in self.feedback_lines(ex, verdict, names))

    def lms_key(self, ex: Exercise, expected: A, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """The question as an LMS asks it, keyed by ``expected`` (the engine's value, from
        :func:`tutor.content.kinds.expected_answer`); ``answer`` is the engine's answer. By
        default a multiple choice: the right answer in words among up to three distractors
        (:meth:`distractor` applied in turn). Kinds with a more natural form override it."""
        right = self.answer_text(ex, expected, names, answer)
        choices = [LmsChoice(right, 100)]
        seen = {right}
        for value in self.wrong_values(ex, expected):
            if value == expected:  # never offer the right answer twice, as a "wrong" one
                continue
            text = self.answer_text(ex, value, names)
            if text not in seen:
                seen.add(text)
                choices.append(LmsChoice(text, 0))
            if len(choices) == 4:
                break
        return LmsKey("multichoice", tuple(choices))

    def wrong_values(self, ex: Exercise, right: A) -> list[A]:
        """Candidate wrong answers for a multiple choice (:meth:`lms_key`), best first: by default
        :meth:`distractor` applied in turn, three times. A kind whose answers have many parts
        overrides it with answers that differ from the right one in more than one place (e.g.
        :func:`misread_outcomes`), so that the options do not give the answer away."""
        out: list[A] = []
        value = right
        for _ in range(3):
            try:
                value = self.distractor(ex, value)
            except (NotImplementedError, LookupError, TypeError, ValueError):
                break
            out.append(value)
        return out

    # ---------------------------------------------------------------- generators

    def generate(self, ruleset: str, rng: random.Random, difficulty: int,
                 want: str | None = None) -> tuple[ScenarioDict, str]:
        """A candidate ``(scenario, English prompt)`` at ``difficulty`` 1..3, drawn from ``rng``,
        aimed at the answer class ``want`` (one of :meth:`answer_classes`; ``None``: any) where
        the kind can steer its draw; raises :class:`Reject` (or the engine's TutorError) for a
        candidate that does not fit. The generator (:func:`tutor.content.generators.generate`)
        keeps a candidate only if :meth:`level` of its :meth:`measure` is ``difficulty`` and its
        :meth:`answer_class` is ``want``."""
        raise NotImplementedError

    # ---------------------------------------------------------------- question quality

    #: The measurable features of a generated question (:meth:`measure` gives each as a number):
    #: the difficulty is a function of them (:meth:`level`), non-decreasing in each, so the mean
    #: of each grows (or stays) from difficulty 1 to 3 (``tutor check --quality`` shows it).
    features: ClassVar[tuple[str, ...]] = ()
    #: The share of generated questions that must meet :meth:`condition` (``None``: no condition).
    condition_target: ClassVar[float | None] = None
    #: What :meth:`condition` checks, in words (for the report).
    condition_text: ClassVar[str] = ""

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """The :attr:`features` of a question (its scenario and the engine's answer to it)."""
        raise NotImplementedError

    def level(self, features: Mapping[str, float]) -> int:
        """The difficulty 1..3 that the features make (non-decreasing in each feature)."""
        raise NotImplementedError

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """What the answer is, coarsely (e.g. the winning side, or "none"): generated questions
        are balanced over these (no class above :data:`tutor.content.quality.MAX_CLASS_SHARE`)."""
        raise NotImplementedError

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        """The answer classes the generator aims at, each as often, at ``difficulty``."""
        return ()

    def condition(self, scenario: ScenarioDict, answer: EngineAnswer) -> bool:
        """Whether a question has the shape the kind asks of most of them (:attr:`condition_target`)."""
        return True


class SeatKey(ExerciseKind[int]):
    """The base of the kinds whose answer is one seat: the teacher's key names it as people
    number seats, from 1."""

    def from_key(self, raw: object, ctx: Ctx) -> object:
        return seat_from_key(raw, ctx)

    def key_text(self, value: int, ctx: Ctx) -> str:
        return str(value + 1)


def seat_choices(ex: Exercise, right: int, names: Names, label: Callable[[int], str] | None = None) -> LmsKey:
    """A multiple choice of every seat (``label(seat) -> str`` names a seat; default
    :meth:`Names.seat`), ``right`` the engine's seat: for the kinds whose answer is a seat."""
    name = label or names.seat
    return LmsKey("multichoice", tuple(LmsChoice(name(s), 100 if s == right else 0)
                                       for s in range(players_of(ex.scenario))))


def misread_outcomes(ex: Exercise) -> list[tuple[Exercise, EngineAnswer]]:
    """The engine's outcomes of the same play misread the ways a learner misreads it: with each
    other trump suit (the trump forgotten or mistaken), and with the first leader (``hakem`` or
    ``dealer``, whichever the scenario names) on each other seat, so that every card is put to
    another player. Each is ``(the variant exercise, the engine's answer to it)``; a variant the
    engine rejects (a misreading that makes a seat revoke) is left out. Real outcomes of real
    deals, so a wrong option built from one differs from the right answer in several places
    (several trick winners, the points, the awards) and is consistent in itself."""
    from ...engine.errors import TutorError

    sc = ex.scenario
    variants: list[ScenarioDict] = []
    trump = sc.get("trump")
    if isinstance(trump, str):
        variants += [{**sc, "trump": s} for s in ("S", "H", "D", "C") if s != trump.upper()[:1]]
    players = players_of(sc)
    for key in ("hakem", "dealer"):
        seat = sc.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool):
            variants += [{**sc, key: (seat + k) % players} for k in range(1, players)]
            break
    out = []
    for v in variants:
        other = Exercise(id=ex.id, kind=ex.kind, scenario=json.loads(json.dumps(v)), you=ex.you)
        try:
            out.append((other, other.solve()))
        except (TutorError, ValueError, KeyError, TypeError):
            continue
    return out


def near_misses(ex: Exercise, kind: ExerciseKind[Any], right: Any, places: Callable[[Any, Any], int]) -> list[Any]:
    """The kind's values of :func:`misread_outcomes` that differ from ``right`` in at least two
    places (``places(value, right)`` counts them), the closest first, each once: plausible wrong
    answers that do not give the right one away."""
    ctx = Ctx(ex, ex.ruleset or "", players_of(ex.scenario), n_sides(ex.scenario))
    found: list[tuple[int, int, Any]] = []
    for i, (_other, answer) in enumerate(misread_outcomes(ex)):
        try:
            value = kind.expected(answer, ctx)
        except (KeyError, TypeError, ValueError):
            continue
        n = places(value, right)
        if value != right and n >= 2 and all(value != v for _, _, v in found):
            found.append((n, i, value))
    return [v for _, _, v in sorted(found, key=lambda t: (t[0], t[1]))]


F = TypeVar("F", bound=AskModel)


def fields_of(ex: Exercise, model: type[F]) -> F:
    """The exercise's scenario fields typed as its ask's ``model`` (of
    :mod:`tutor.solve.asks`: cards as ``Card``, suits as ``Suit``, seats as ``int``), from the
    scenario parsed once at load (:attr:`~tutor.content.exercise.Exercise.model`). Raises the
    engine's ``TutorError`` for a scenario it rejects, :class:`ExerciseError` for another ask."""
    fields = ex.model.fields
    if not isinstance(fields, model):
        raise ExerciseError(f"exercise {ex.id}: ask {ex.ask!r} is not {model.ask}")
    return fields

