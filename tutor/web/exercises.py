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
import json
import re

from flask_babel import gettext as _

from tutor import i18n
from tutor.content import kinds, quizzes
from tutor.content.exercise import RULESETS, Exercise
from tutor.content.lessons import LessonPath, LessonStep, Problems, load_lesson_path
from tutor.engine import BadFieldError, Card, TutorError
from tutor.engine.cards import read_typed_card
from tutor.solve import answer as engine_answer

from .security import BadInput
from .table import default_you, players_of, side_of, sides_of

__all__ = [
    "CATEGORIES",
    "KINDS",
    "Verdict",
    "card_notes",
    "engine_solution",
    "find_step",
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

KINDS = ("legal-cards", "trick-winner", "round-score", "next-hakem", "turn-up", "beg", "hand-score",
         "game-winner", "walk-through")
CATEGORIES = ("high", "low", "jack", "game")
_REF = re.compile(r"^[A-Za-z0-9_.\-]+(:[A-Za-z0-9_.\-]+){1,4}$")
_MAX_SEED = 10**9


# ---------------------------------------------------------------------------------------------- lookup

@functools.cache
def lesson_path(ruleset: str, lang: str) -> LessonPath:
    """The lesson path of ``ruleset`` in ``lang`` (English steps fill in for missing translations)."""
    problems = Problems()
    path = load_lesson_path(ruleset, lang, problems=problems)
    if lang != "en":
        english = load_lesson_path(ruleset, "en", problems=Problems())
        have = {s.id for s in path.steps}
        steps = list(path.steps) + [s for s in english.steps if s.id not in have]
        steps.sort(key=lambda s: (s.order, s.path))
        path = LessonPath(ruleset, lang, tuple(steps))
    return path


@functools.cache
def _step_index() -> dict[str, str]:
    """Step id -> ruleset."""
    return {s.id: r for r in RULESETS for s in lesson_path(r, "en").steps}


def find_step(step_id: str, lang: str) -> LessonStep | None:
    ruleset = _step_index().get(step_id)
    if ruleset is None:
        return None
    return lesson_path(ruleset, lang).get(step_id)


@functools.cache
def _quiz_questions() -> dict[str, Exercise]:
    out: dict[str, Exercise] = {}
    for ruleset in RULESETS:
        quiz = quizzes.load_quiz(ruleset, problems=Problems())
        for q in quiz.questions:
            out[q.id] = q
    return out


def quiz_questions(ruleset: str) -> list[Exercise]:
    return [q for q in _quiz_questions().values() if q.ruleset == ruleset]


@functools.lru_cache(maxsize=2048)
def _generate(ruleset: str, kind: str, difficulty: int, seed: int) -> Exercise | None:
    try:
        from tutor.content import generators
    except ImportError:
        return None
    try:
        ex = generators.generate(ruleset, kind, seed, difficulty)
    except (TutorError, ValueError, KeyError, LookupError):
        return None
    # The generator's prompt is an English authoring aid (``tutor gen``); learners see the kind's
    # prompt in their own language (prompt_of).
    return dataclasses.replace(ex, prompt=None)


def ref_of(ex: Exercise, generated: tuple | None = None) -> str:
    if generated is not None:
        ruleset, kind, difficulty, seed = generated
        return f"gen:{ruleset}:{kind}:{difficulty}:{seed}"
    if ex.step_id:
        return f"lesson:{ex.step_id}:{ex.id}"
    return f"quiz:{ex.id}"


def resolve(ref: object, lang: str = "en") -> Exercise:
    """The exercise a ref names, with the prompt of ``lang``; :class:`BadInput` if there is none."""
    if not isinstance(ref, str) or len(ref) > 200 or not _REF.match(ref):
        raise BadInput(_("There is no such exercise."), "unknown-exercise")
    parts = ref.split(":")
    ex: Exercise | None = None
    if parts[0] == "lesson" and len(parts) == 3:
        step = find_step(parts[1], lang)
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


def prompt_of(ex: Exercise, lang: str) -> str:
    """The exercise's own prompt in ``lang`` if it has one, else the kind's translated prompt."""
    if isinstance(ex.prompt, str):
        text = ex.prompt if (ex.lang or "en") == lang else None
    else:
        text = ex.prompt.get(lang) if ex.prompt is not None else None
    return text or i18n.kind_prompt(ex.kind, lang)


def teaching_step(ex: Exercise) -> str | None:
    """The lesson step that teaches the exercise: ``teaches``, its own step, or (generated
    questions) the first step of the ruleset with an exercise of the same kind."""
    if ex.teaches or ex.step_id:
        return ex.teaches or ex.step_id
    return _first_step_of_kind(ex.ruleset or "", ex.kind)


@functools.cache
def _first_step_of_kind(ruleset: str, kind: str) -> str | None:
    if ruleset not in RULESETS:
        return None
    for s in lesson_path(ruleset, "en").steps:
        if any(e.kind == kind for e in s.exercises):
            return s.id
    return None


def you_of(ex: Exercise) -> int:
    return default_you(ex.kind, ex.scenario, ex.you)


# ---------------------------------------------------------------------------------------------- engine

@functools.lru_cache(maxsize=4096)
def _solve_cached(key: str) -> dict:
    return engine_answer(json.loads(key))


def engine_solution(ex: Exercise) -> dict:
    """The engine's answer to the exercise's scenario (cached; never raises)."""
    return _solve_cached(json.dumps(ex.scenario, sort_keys=True))


def walk_seats(ex: Exercise) -> list[list[int]] | None:
    """Who played each card of each trick (from the engine's trick winners), for hand-score views."""
    tricks = ex.scenario.get("tricks")
    if not isinstance(tricks, list):
        return None
    winners = engine_solution(ex).get("trick_winners")
    if not isinstance(winners, list):
        return None
    players = players_of(ex.scenario)
    leader = first_leader(ex)
    out = []
    for t, cards in enumerate(tricks):
        out.append([(leader + i) % players for i in range(len(cards))])
        if t < len(winners):
            leader = winners[t]
    return out


def public_view(ex: Exercise, ref: str, lang: str) -> dict:
    """What a learner may see before answering: no ``expect``, no engine answer."""
    view = kinds.public_view(ex, lang)
    view["id"] = ref
    view["prompt"] = prompt_of(ex, lang)
    view["answer_format"] = kinds.get_kind(ex.kind).answer_help
    return view


# ---------------------------------------------------------------------------------------------- answers

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩౦౧౨౩౪౫౬౭౮౯", "0123456789" * 3)


def _digits(value: str) -> str:
    return value.strip().translate(_DIGITS)


def _check_cards(ex: Exercise, values: object) -> None:
    """Unknown or foreign cards are ``bad-card`` (the kinds module calls every problem bad-field)."""
    if ex.kind != "legal-cards":
        return
    if isinstance(values, str):  # the kinds module also reads "AS, 10H"
        values = [v for v in re.split(r"[\s,;]+", values.strip()) if v]
    if not isinstance(values, list):
        return
    hand = {str(Card.parse(c)) for c in ex.scenario.get("hand", [])}
    for v in values:
        try:
            card = str(Card.parse(v))
        except TutorError:
            raise BadInput(_("%(card)s is not a card.", card=str(v)[:20]), "bad-card") from None
        if card not in hand:
            raise BadInput(_("%(card)s is not in your hand.", card=card), "bad-card")


def _typed_cards(raw: object) -> object:
    """A legal-cards answer as typed (a list, or one string split at spaces, commas, semicolons or
    the Persian comma), each card that :func:`read_typed_card` reads put in canonical notation;
    anything else is left for the checks to name."""
    if isinstance(raw, str):
        raw = [v for v in re.split(r"[\s,;،؛]+", raw.strip()) if v]
    if not isinstance(raw, list):
        return raw
    out = []
    for v in raw:
        try:
            out.append(str(read_typed_card(v)))
        except TutorError:
            out.append(v)
    return out


def parse(ex: Exercise, raw: object) -> object:
    """Check a raw answer with the exercise's kind; :class:`BadInput` (400) if it is malformed.
    Typed cards may use Persian digits, the suit symbol first and invisible characters."""
    if ex.kind == "legal-cards":
        raw = _typed_cards(raw)
    _check_cards(ex, raw)
    try:
        return kinds.parse_answer(ex, raw)
    except kinds.ExerciseError:
        raise BadInput(_("This exercise cannot be checked."), "bad-exercise") from None
    except TutorError as e:
        raise BadInput(_("The answer cannot be read: %(why)s", why=e.message), "bad-answer") from None


def read_json(ex: Exercise, value: object) -> object:
    """The given of an API answer (the kind's value, see the OpenAPI document)."""
    return parse(ex, value)


def read_form(ex: Exercise, form) -> object:
    """The given of a page form (field names of the answer widgets in templates/_answer.html)."""
    kind = ex.kind
    players = players_of(ex.scenario)
    if kind == "legal-cards":
        if not form.getlist("card"):  # a hand always has a card it may play
            raise BadInput(_("Select the cards you may play first."), "bad-answer")
        return parse(ex, form.getlist("card"))
    if kind in ("trick-winner", "next-hakem"):
        if not form.get("seat"):
            if kind == "trick-winner":
                raise BadInput(_("Choose the winning card first."), "bad-answer")
            raise BadInput(_("Choose a seat first."), "bad-answer")
        return parse(ex, _digits(form.get("seat", "")))
    if kind in ("round-score", "turn-up"):
        if not form.get("points", "").strip():
            raise BadInput(_("Give the number of points."), "bad-answer")
        return parse(ex, _digits(form.get("points", "")))
    if kind == "beg":
        values = [_digits(form.get(f"points-{s}", "")) for s in sides_of(players)]
        if not all(values):
            raise BadInput(_("Give the points of every side."), "bad-answer")
        return parse(ex, values)
    if kind == "hand-score":
        return parse(ex, _form_awards(form))
    if kind == "game-winner":
        if "winner" not in form:
            raise BadInput(_("Choose a side, or nobody."), "bad-answer")
        return parse(ex, form.get("winner"))
    if kind == "walk-through":
        tricks = ex.scenario.get("tricks") or []
        picks = []
        for t in range(len(tricks)):
            v = _digits(form.get(f"t{t}", ""))
            if not (v.isascii() and v.isdigit() and len(v) < 3) or int(v) >= players:
                raise BadInput(_("Choose the winning card of each trick."), "bad-answer")
            picks.append(int(v))
        raw: dict = {"trick_winners": chain_winners(ex, picks)}
        if ex.scenario.get("ruleset") == "hokm":
            if not form.get("points"):
                raise BadInput(_("Give the number of points."), "bad-answer")
            raw["points"] = _digits(form.get("points", ""))
        else:
            raw["awards"] = _form_awards(form)
        return parse(ex, raw)
    raise BadInput(_("There is no such exercise."), "unknown-exercise")


def _form_awards(form) -> dict:
    out = {}
    for c in CATEGORIES:
        if c not in form:
            raise BadInput(_("Give a side, or nobody, for each of High, Low, Jack and Game."), "bad-answer")
        out[c] = form.get(c)
    return out


def first_leader(ex: Exercise) -> int:
    players = players_of(ex.scenario)
    if ex.scenario.get("ruleset") == "hokm":
        return int(ex.scenario.get("hakem", 0)) % players
    return (int(ex.scenario.get("dealer", 0)) + 1) % players


def chain_winners(ex: Exercise, picks: list[int]) -> list[int]:
    """Seats of the winners from the learner's picked card positions (each winner leads the next)."""
    players = players_of(ex.scenario)
    leader = first_leader(ex)
    out = []
    for p in picks:
        leader = (leader + p) % players
        out.append(leader)
    return out


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


def card_notes(ex: Exercise, verdict: kinds.Verdict, lang: str) -> list[dict]:
    """For legal-cards: each hand card, whether it is legal, what the learner chose, and a note."""
    if ex.kind != "legal-cards":
        return []
    legal = set(verdict.expected)
    chosen = set(verdict.given)
    illegal_why = {d["card"]: d.get("why", []) for d in verdict.details.get("illegal", [])}
    ctx = {"you": you_of(ex), "players": players_of(ex.scenario), "ruleset": ex.ruleset}
    notes = []
    for c in ex.scenario.get("hand", []):
        code = str(Card.parse(c))
        label = i18n.card_label(code, lang)
        reasons: list[str] = []
        if code in legal and code not in chosen:
            text = _("You may play the %(card)s too.", card=label)
        elif code not in legal and code in chosen:
            text = _("You may not play the %(card)s.", card=label)
            reasons = i18n.render_reasons(illegal_why.get(code, []), lang, **ctx)
        else:
            text = None
        notes.append({"card": code, "legal": code in legal, "chosen": code in chosen, "note": text,
                      "reasons": reasons})
    return notes


def render_why(ex: Exercise, verdict: Verdict, lang: str) -> list[str]:
    players = players_of(ex.scenario)
    return i18n.render_reasons(verdict.why, lang, you=you_of(ex), players=players, ruleset=ex.ruleset)


def side_choices(ex: Exercise, lang: str) -> list[tuple[int, str]]:
    players = players_of(ex.scenario)
    you = you_of(ex)
    return [(s, i18n.side_label(s, you, players, lang, ex.ruleset)) for s in sides_of(players)]


def your_side(ex: Exercise) -> int:
    return side_of(you_of(ex), players_of(ex.scenario))
