"""Exercises for the web: references, lookup, the learner's answer, grading.

An exercise is named by a *ref* (a string safe in a URL):

* ``lesson:<step-id>:<exercise-id>`` — an exercise block of a lesson step;
* ``quiz:<question-id>`` — an authored quiz question (``quizzes/<ruleset>.yaml``);
* ``gen:<ruleset>:<kind>:<difficulty>:<seed>`` — a generated question (reproducible from its seed).

A ref that names nothing is a :class:`~tutor.web.security.BadInput` (400), never a 500. The
learner's answer is read from a form (pages) or JSON (API) into one *given* shape per kind, named
like the engine's answer fields, and is checked against the engine's own answer: the authored
``expect`` is never used here and nothing of the answer leaves before the learner has answered.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from flask import current_app, has_app_context
from flask_babel import gettext as _

from tutor import i18n
from tutor.content import generators, kinds
from tutor.content.exercise import LANGUAGES, RULESETS, Exercise
from tutor.content.kinds import KINDS, AnswerError
from tutor.content.lessons import LessonPath, LessonStep
from tutor.content.store import ContentStore
from tutor.domain.table import default_you, engine_solution, players_of, sides_of, walk_seats
from tutor.engine import BadFieldError, TutorError

from .security import BadInput

__all__ = [
    "Verdict",
    "engine_solution",
    "find_step",
    "generated",
    "grade",
    "lesson_path",
    "parse",
    "public_view",
    "read_form",
    "read_json",
    "ref_of",
    "render_why",
    "resolve",
    "walk_seats",
]

_REF = re.compile(r"^[A-Za-z0-9_.\-]+(:[A-Za-z0-9_.\-]+){1,4}$")
_MAX_SEED = 10**9


# ---------------------------------------------------------------------------------------------- lookup

def content() -> ContentStore:
    """The current app's content store (loaded by ``create_app``); outside an app (scripts,
    tests) the content root's shared store."""
    if has_app_context():
        return current_app.extensions["tutor_content"]
    return ContentStore.shared()


def lesson_path(ruleset: str) -> LessonPath:
    """The lesson path of ``ruleset`` in the request's language (English steps fill in for missing
    translations)."""
    return content().lesson_path(ruleset, i18n.current_lang())


def find_step(step_id: str) -> LessonStep | None:
    """The step ``step_id`` (any ruleset) in the request's language, or ``None``."""
    return content().find_step(step_id, i18n.current_lang())


def _quiz_questions() -> Mapping[str, Exercise]:
    return content().questions


def quiz_questions(ruleset: str) -> list[Exercise]:
    return content().quiz_questions(ruleset)


@functools.lru_cache(maxsize=2048)
def _generate(ruleset: str, kind: str, difficulty: int, seed: int) -> Exercise | None:
    try:
        ex = generators.generate(ruleset, kind, seed, difficulty)
    except (TutorError, ValueError, KeyError, LookupError):
        return None
    # The generator's prompt is an English authoring aid (``tutor gen``); learners see the
    # question's own prompt in their language: what it states, then the kind's question
    # (kinds.question_prompt), e.g. "Suit led: hearts. Trump: spades. Which cards may you play? ...".
    prompts = {}
    for lang in LANGUAGES:
        with i18n.using(lang):
            prompts[lang] = kinds.question_prompt(ex)
    return dataclasses.replace(ex, prompt=MappingProxyType(prompts))


def ref_of(ex: Exercise, generated: tuple | None = None) -> str:
    if generated is not None:
        ruleset, kind, difficulty, seed = generated
        return f"gen:{ruleset}:{kind}:{difficulty}:{seed}"
    if ex.step_id:
        return f"lesson:{ex.step_id}:{ex.id}"
    return f"quiz:{ex.id}"


def generated(ref: str) -> bool:
    """Whether ``ref`` names a generated question (``gen:...``: one per seed, made on demand by the
    engine, so without a bound on how many there are)."""
    return ref.startswith("gen:")


def resolve(ref: object) -> Exercise:
    """The exercise a ref names (a lesson exercise from the step in the request's language);
    :class:`BadInput` if there is none."""
    if not isinstance(ref, str) or len(ref) > 200 or not _REF.match(ref):
        raise BadInput(_("There is no such exercise."), "unknown-exercise")
    parts = ref.split(":")
    ex: Exercise | None = None
    if parts[0] == "lesson" and len(parts) == 3:
        step = find_step(parts[1])
        if step is not None:
            ex = next((e for e in step.exercises if e.id == parts[2]), None)
    elif parts[0] == "quiz" and len(parts) == 2:
        ex = _quiz_questions().get(parts[1])
    elif parts[0] == "gen" and len(parts) == 5:
        ruleset, kind, diff, seed = parts[1:]
        if (ruleset in RULESETS and kind in KINDS and diff in ("1", "2", "3") and seed.isdigit()
                and int(seed) < _MAX_SEED):
            ex = _generate(ruleset, kind, int(diff), int(seed))
    if ex is None or ex.kind not in KINDS:
        raise BadInput(_("There is no such exercise."), "unknown-exercise")
    return ex


def prompt_of(ex: Exercise) -> str:
    """The exercise's own prompt in the request's language if it has one, else the kind's
    translated prompt."""
    return ex.own_prompt(i18n.current_lang()) or _(KINDS[ex.kind].prompt)


def teaching_step(ex: Exercise, verdict: kinds.Verdict | None = None) -> str | None:
    """The lesson step that teaches the exercise: a lesson exercise's own step; else, with a
    ``verdict``, the first step of the ruleset that teaches a rule point the verdict's reasons
    applied (reasons in order; the question's ``teaches`` first if it is one of them); else
    ``teaches``; else (generated questions) the first step with an exercise of the same kind."""
    if ex.step_id:
        return ex.step_id
    if verdict is not None and ex.ruleset:
        for reason in verdict.why:
            for rule in str(reason.get("rule") or "").split(","):
                steps = content().steps_teaching(ex.ruleset, rule.strip())
                if steps:
                    return ex.teaches if ex.teaches in steps else steps[0]
    return ex.teaches or _first_step_of_kind(ex.ruleset or "", ex.kind)


def _first_step_of_kind(ruleset: str, kind: str) -> str | None:
    return content().first_step_of_kind(ruleset, kind)


def you_of(ex: Exercise) -> int:
    return default_you(KINDS[ex.kind], ex.scenario, ex.you)


# ---------------------------------------------------------------------------------------------- engine

def public_view(ex: Exercise, ref: str) -> dict:
    """What a learner may see before answering: no ``expect``, no engine answer."""
    view = kinds.public_view(ex)
    view["id"] = ref
    view["prompt"] = prompt_of(ex)
    view["answer_format"] = kinds.get_kind(ex.kind).answer_help
    return view


# ---------------------------------------------------------------------------------------------- answers

def _answer_error(e: AnswerError) -> BadInput:
    return BadInput(_(e.message, **e.params), e.code)


def parse(ex: Exercise, raw: object, page: bool = False) -> object:
    """Check a raw answer with the exercise's kind; :class:`BadInput` (400) if it is malformed.
    What the learner typed is read leniently first (the kind's ``typed``: e.g. cards with Persian
    digits, the suit symbol first, invisible characters). The engine's own words on a malformed
    value (English, seats from 0) are for the API; a page's form (``page``), whose choices make
    such a value only if altered, says in the learner's language to choose among them."""
    kind = KINDS[ex.kind]
    raw = kind.typed(raw)
    try:
        kind.precheck(ex, raw)
        return kinds.parse_answer(ex, raw)
    except AnswerError as e:
        raise _answer_error(e) from None
    except kinds.ExerciseError:
        raise BadInput(_("This exercise cannot be checked."), "bad-exercise") from None
    except TutorError as e:
        if page:
            raise BadInput(_("This answer cannot be read: choose among the answers shown, then check it again."),
                           "bad-answer") from None
        raise BadInput(_("The answer cannot be read: %(why)s", why=e.message), "bad-answer") from None


def read_json(ex: Exercise, value: object) -> object:
    """The given of an API answer (the kind's value, see the OpenAPI document)."""
    return parse(ex, value)


def read_form(ex: Exercise, form: Mapping[str, Any]) -> object:
    """The given of a page form (the fields of the kind's template partial)."""
    try:
        raw = KINDS[ex.kind].read_form(ex, form)
    except AnswerError as e:
        raise _answer_error(e) from None
    return parse(ex, raw, page=True)


# ---------------------------------------------------------------------------------------------- grading

Verdict = kinds.Verdict


def grade(ex: Exercise, given: object) -> kinds.Verdict:
    """Grade ``given`` with the engine (content's kinds.grade); 400 if the answer is malformed."""
    try:
        return kinds.grade(ex, given)
    except kinds.ExerciseError:
        raise BadInput(_("This exercise cannot be checked."), "bad-exercise") from None
    except TutorError as e:
        if isinstance(e, BadFieldError):
            raise BadInput(_("The answer cannot be read: %(why)s", why=e.message), "bad-answer") from None
        raise BadInput(_("This exercise cannot be checked: %(why)s", why=e.message), "bad-exercise") from None


def render_why(ex: Exercise, verdict: Verdict) -> list[i18n.ReasonText]:
    """The engine's reasons of ``verdict``, seats named from the learner's seat; each carries
    the ids of the rule points it cites (``.rules``)."""
    players = players_of(ex.scenario)
    return i18n.render_reasons(verdict.why, you=you_of(ex), players=players, ruleset=ex.ruleset)


def side_choices(ex: Exercise) -> list[tuple[int, str]]:
    """``(side, its name from the learner's seat)`` for every side of the exercise."""
    players = players_of(ex.scenario)
    you = you_of(ex)
    return [(s, i18n.side_label(s, you, players, ex.ruleset)) for s in sides_of(players)]

