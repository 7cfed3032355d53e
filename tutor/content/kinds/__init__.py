"""Exercise kinds: one class per kind, one registry (:data:`KINDS`).

Each kind lives in its own module of this package and is registered with :func:`register` when
the module is imported; this package imports every kind module explicitly (a broken module
fails loudly). Every list of kinds in the project comes from :data:`KINDS` or
:func:`kinds_for`. See :class:`~tutor.content.kinds.base.ExerciseKind` for what a kind declares.

Generic operations over any kind:

* :func:`parse_answer` — the learner's raw answer (JSON value, or what a form sent) normalised;
* :func:`expected_answer` — the engine's answer and the value it makes right, computed now;
* :func:`grade` — a :class:`Verdict`;
* :func:`public_view` — what a page may show before the learner answers;
* :func:`from_key` / :func:`key_text` — a teacher's typed answer key (seats and sides numbered
  from 1, as people number them) to the learner's raw answer (from 0), and back.

"None"/"nobody"/"" (and JSON ``null``) mean nobody. A malformed answer raises
:class:`~tutor.engine.errors.BadFieldError` (code ``bad-field``); a broken exercise (unknown
kind, an ask the kind does not take, an answer field the engine did not give) raises
:class:`ExerciseError`; an impossible scenario raises the engine's
:class:`~tutor.engine.errors.TutorError`. Nothing here raises any other exception for any learner
input.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from ... import i18n
from ...engine.errors import BadFieldError, TutorError
from ...registry import Registry
from ...solve.asks import ASK_MODELS
from ..exercise import Exercise
from .base import (
    CATEGORIES,
    AnswerError,
    Ctx,
    EditorField,
    ExerciseError,
    ExerciseKind,
    FeedbackLine,
    LmsChoice,
    LmsKey,
    Names,
    Reject,
    Verdict,
    n_sides,
    players_of,
)
from .values import reasons_of

__all__ = [
    "CATEGORIES",
    "KINDS",
    "SCENARIO_INPUTS",
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
    "Verdict",
    "expected_answer",
    "from_key",
    "get_kind",
    "grade",
    "key_text",
    "kind_prompt",
    "kinds_for",
    "learner_seat",
    "n_sides",
    "parse_answer",
    "players_of",
    "public_view",
    "question_prompt",
    "register",
    "seat_name",
]

#: Every exercise kind, by name, in the order they were registered (the order the app lists them).
KINDS: Registry[ExerciseKind[Any]] = Registry("exercise kind")

#: Class decorator: add one instance of the kind to :data:`KINDS` (a name used twice is a bug).
register = KINDS.register


#: Input fields of each ask, from the contract's ask models (:mod:`tutor.solve.asks`);
#: :func:`public_view` shows only these (plus the common ones).
SCENARIO_INPUTS: dict[str, tuple[str, ...]] = {name: tuple(m.model_fields) for name, m in ASK_MODELS.items()}
_COMMON_INPUTS = ("ruleset", "ask", "options", "players", "target")


def get_kind(name: object) -> ExerciseKind[Any]:
    """The kind called ``name``. Raises :class:`ExerciseError` for an unknown kind."""
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ExerciseError(f"unknown exercise kind {name!r}: use one of {', '.join(KINDS)}")
    return kind


def kinds_for(ruleset: str) -> list[str]:
    """The names of the kinds that apply to ``ruleset``, in registry order."""
    return [k for k, v in KINDS.items() if ruleset in v.rulesets]


def learner_seat(exercise: Exercise) -> int:
    """The learner's seat: the exercise's ``you`` if given, else the kind's default (legal-cards:
    the seat to play; others: seat 0)."""
    if exercise.you is not None:
        return exercise.you
    kind = KINDS.get(exercise.kind)
    return kind.default_you(exercise.scenario) if kind is not None else 0


def _context(exercise: Exercise) -> tuple[ExerciseKind[Any], Ctx]:
    kind = get_kind(exercise.kind)
    if exercise.ask not in kind.asks:
        raise ExerciseError(f"kind {kind.name} takes ask {' or '.join(kind.asks)}, not {exercise.ask!r}")
    if exercise.ruleset not in kind.rulesets:
        raise ExerciseError(f"kind {kind.name} is not used with ruleset {exercise.ruleset!r}")
    sc = exercise.scenario
    return kind, Ctx(exercise, exercise.ruleset or "", players_of(sc), n_sides(sc))


def parse_answer(exercise: Exercise, raw: object) -> object:
    """The learner's answer normalised for the exercise's kind (its ``answer_help``).

    Raises :class:`BadFieldError` for a malformed answer, :class:`ExerciseError` for a broken exercise.
    """
    kind, ctx = _context(exercise)
    try:
        return kind.parse(raw, ctx)
    except TutorError as e:
        if isinstance(e, BadFieldError):
            raise
        raise BadFieldError(e.message) from None
    except (TypeError, ValueError, AttributeError) as e:  # defensive: never a 500 for odd input
        raise BadFieldError(f"the answer cannot be read ({type(e).__name__}).") from None


def from_key(exercise: Exercise, raw: object) -> object:
    """A teacher's answer key for the exercise (as typed, read by the kind's ``typed``) as the
    raw answer :func:`parse_answer` takes: seats and sides counted from 1 become the engine's,
    counted from 0. Raises :class:`AnswerError` for a seat or side that does not exist,
    :class:`ExerciseError` for a broken exercise."""
    kind, ctx = _context(exercise)
    return kind.from_key(raw, ctx)


def key_text(exercise: Exercise, value: object) -> str:
    """A normalised answer of the exercise (e.g. the engine's, from :func:`expected_answer`) as a
    teacher types it as a key, seats and sides counted from 1: :func:`from_key` reads it back."""
    kind, ctx = _context(exercise)
    return kind.key_text(value, ctx)


def expected_answer(exercise: Exercise, solve: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> tuple[object, dict[str, Any]]:
    """``(expected value, engine answer)`` for the exercise, computed now by the engine.

    Raises the engine's :class:`TutorError` for a scenario it rejects and :class:`ExerciseError`
    when the answer lacks the field the kind checks.
    """
    kind, ctx = _context(exercise)
    answer = exercise.solve() if solve is None else solve(exercise.scenario_copy())
    try:
        expected = kind.expected(answer, ctx)
    except KeyError as e:
        raise ExerciseError(f"the engine's answer to this {exercise.ask} has no field {e.args[0]!r} "
                            f"(kind {kind.name} needs it)") from None
    return expected, answer


def grade(exercise: Exercise, given: object, solve: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Verdict[Any]:
    """Grade the learner's raw answer ``given`` against the engine's answer.

    Raises :class:`BadFieldError` (malformed answer), :class:`ExerciseError` (broken exercise), or
    the engine's :class:`TutorError` (scenario the engine rejects).
    """
    value = parse_answer(exercise, given)
    expected, answer = expected_answer(exercise, solve)
    kind, ctx = _context(exercise)
    details = kind.details(value, expected, answer, ctx)
    why = reasons_of(answer)
    public = {k: v for k, v in answer.items() if k != "why"}
    return Verdict(kind.name, value == expected, expected, value, why,
                   MappingProxyType(details), MappingProxyType(public))


def public_view(exercise: Exercise) -> dict[str, Any]:
    """What a page may show before the learner answers: ``id, kind, ruleset, ask, prompt (in the
    current language, :func:`tutor.i18n.current_lang`), difficulty, you, players, sides, scenario``
    (only the ask's input fields: hand, trick, trump, seats, scores, turn-ups ...) and what the
    kind adds (``choices``, ``tricks``). Never the authored ``expect``, the legal set, a winner,
    awards or points."""
    sc = exercise.scenario
    ask = exercise.ask or ""
    keep = _COMMON_INPUTS + SCENARIO_INPUTS.get(ask, ())
    scenario = {k: sc[k] for k in keep if k in sc}
    players = players_of(sc)
    view = {
        "id": exercise.id, "kind": exercise.kind, "ruleset": exercise.ruleset, "ask": ask,
        "prompt": exercise.prompt_in(i18n.current_lang()), "difficulty": exercise.difficulty,
        "you": learner_seat(exercise), "players": players, "sides": 2 if players == 4 else players, "scenario": scenario,
    }
    kind = KINDS.get(exercise.kind)
    if kind is not None:
        view.update(kind.public_extra(exercise))
    return view


def _load() -> None:
    """Import every module of this package (each kind module registers its class), then put
    :data:`KINDS` in the kinds' ``order`` (the app's order). A module that fails to import stops
    the import of this package: a broken kind is never silently left out."""
    import importlib
    import pkgutil

    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{module}")
    ordered = sorted(KINDS.values(), key=lambda k: (k.order, k.name))
    KINDS.clear()
    KINDS.update((k.name, k) for k in ordered)


_load()


def kind_prompt(kind: str) -> str:
    """Default question wording for exercise ``kind`` in the current language (the kind's
    ``prompt``, :func:`tutor.i18n.gettext`; the kind's name itself if there is no such kind)."""
    k = KINDS.get(kind)
    return i18n.gettext(k.prompt) if k is not None else kind


def question_prompt(exercise: Exercise) -> str:
    """A generated question's own prompt in the current language: what it states (the kind's
    :meth:`~.base.ExerciseKind.situation`: "Suit led: hearts. Trump: spades.") then what it asks
    (the kind's prompt)."""
    kind = get_kind(exercise.kind)
    said = " ".join(f"{i18n.gettext(label)}: {value}." for label, value in kind.situation(exercise))
    return f"{said} {i18n.gettext(kind.prompt)}".strip()


def seat_name(exercise: Exercise, seat: int) -> str:
    """A seat named from the learner's seat, in the current language."""
    return i18n.seat_label(seat, learner_seat(exercise), players_of(exercise.scenario), exercise.ruleset)

