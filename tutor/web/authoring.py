"""A teacher's quiz document: its questions, checked by the engine.

A quiz document is ``{"title": str, "questions": [question, ...]}``; each question has the shape
of ``quizzes/<ruleset>.yaml`` (PLAN.md): ``id``, ``kind``, ``difficulty`` (1..3), ``teaches`` (a
lesson step id, when one teaches the kind), ``scenario`` (the solve-format scenario), ``expect``
(the engine's answer fields of the kind's ``expect_fields``), ``prompt`` (optional ``{lang:
text}``) — plus ``points`` (a whole number from 1 to
:data:`~tutor.content.exercise.MAX_POINTS`, the question's weight in the class score). The
export and import functions (:mod:`tutor.content`) read and write this shape as it is.

Questions come from two places, both answered by the engine before they are stored:

* :func:`authored_question` — a kind, a scenario (JSON) and the teacher's answer key (in the
  learner's answer format, the kind's ``answer_help``, except that seats and sides are numbered
  from 1 as people number them: "seat 1" is 1, where the scenario and the stored question count
  from 0). The key is read by the kind (``typed``/``from_key``/``precheck``/``parse``) and graded
  by the engine like a learner's answer; a key the engine disagrees with, or naming a seat that
  does not exist, is a :class:`FieldErrors` at the ``key`` field, saying the engine's answer and
  its reasons. :func:`key_of` is a stored question's key in that same form, so editing a
  question and saving it unchanged stores the same question. Nothing here knows any kind by
  name: everything comes from the kinds registry.
* :func:`generated_question` — a kind, ruleset, difficulty and seed
  (:func:`tutor.content.generators.generate`); the preview (:func:`exercise_of`) is exactly the
  question learners get.

Errors are :class:`FieldErrors` (field name -> translated message), never an exception of the
engine or of the JSON decoder.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from tutor import i18n
from tutor.content import generators, kinds
from tutor.content.exercise import LANGUAGES, MAX_POINTS, Exercise
from tutor.content.kinds import KINDS, AnswerError, get_kind, players_of
from tutor.domain.quizdoc import answer_text, exercise_of
from tutor.engine import BadFieldError, TutorError
from tutor.engine.rulesets import RULESETS
from tutor.solve import asks_of

from . import exercises as X

__all__ = ["MAX_POINTS", "MAX_QUESTIONS", "FieldErrors", "answer_text", "authored_question", "edit_fields", "edited",
           "exercise_of", "files_of", "generated_question", "imported_questions", "key_of", "move", "new_doc",
           "read_key", "situation"]

#: Most questions in one quiz (the most points of one question is the quiz files' own,
#: :data:`~tutor.content.exercise.MAX_POINTS`).
MAX_QUESTIONS = 50


class FieldErrors(Exception):
    """Messages (translated) by form field name."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)


def new_doc(title: str) -> dict:
    """An empty quiz document."""
    return {"title": title, "questions": []}


def _question_id(kind: str) -> str:
    return f"{kind}-{secrets.token_hex(4)}"


def read_key(text: str) -> object:
    """The raw answer key typed by the teacher: JSON when it starts with ``{``, ``[`` or ``"``
    (e.g. ``{"high": 1, ...}``), else the text itself (``3C KC``, ``2``)."""
    text = text.strip()
    if text[:1] in ("{", "[", '"'):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise FieldErrors({"key": _("The answer key is not valid JSON.")}) from None
    return text


def _prompts(prompts: Mapping[str, str]) -> dict:
    return {lang: prompts[lang].strip() for lang in LANGUAGES if prompts.get(lang, "").strip()}


def _finish(ex: Exercise, answer: Mapping, points: int, prompts: Mapping[str, str]) -> dict:
    kind = KINDS[ex.kind]
    q: dict = {"id": _question_id(ex.kind), "kind": ex.kind, "difficulty": ex.difficulty}
    teaches = X.teaching_step(ex)
    if teaches:
        q["teaches"] = teaches
    q["scenario"] = ex.scenario_copy()
    q["expect"] = {f: answer[f] for f in kind.expect_fields if f in answer}
    prompt = _prompts(prompts)
    if prompt:
        q["prompt"] = prompt
    q["points"] = points
    return q


def _why_rejected(scenario: dict, kind: str, e: TutorError) -> str:
    """Why the engine refused ``scenario``, in the current language: the table editor's messages
    at the fields (:func:`tutor.web.editor.check`, the ones the editor shows live), else the
    engine's own words (English)."""
    from .editor import check

    messages = list(dict.fromkeys(check(scenario, kind=kind)["errors"].values()))
    return " ".join(messages[:3]) if messages else e.message


def authored_question(kind_name: str, scenario_text: str, key_text: str, *, difficulty: int = 1,
                      points: int = 1, prompts: Mapping[str, str] | None = None) -> dict:
    """A question from the teacher's scenario and answer key, checked by the engine (see the
    module docstring). Raises :class:`FieldErrors` on ``kind``, ``scenario`` or ``key``."""
    try:
        kind = get_kind(kind_name)
    except kinds.ExerciseError:
        raise FieldErrors({"kind": _("Choose a kind of question.")}) from None
    try:
        scenario = json.loads(scenario_text)
    except (ValueError, RecursionError) as e:
        raise FieldErrors({"scenario": _("The scenario is not valid JSON: %(why)s", why=str(e)[:80])}) from None
    if not isinstance(scenario, dict):
        raise FieldErrors({"scenario": _("The scenario must be a JSON object.")})
    ex = Exercise(id="draft", kind=kind.name, scenario=scenario, difficulty=difficulty)
    if ex.ask not in kind.asks:
        raise FieldErrors({"scenario": _("This kind of question needs the ask %(ask)s.", ask=" / ".join(kind.asks))})
    if ex.ruleset not in kind.rulesets:
        raise FieldErrors({"scenario": _("This kind of question is not used with this game.")})
    try:
        _expected, answer = kinds.expected_answer(ex)
    except TutorError as e:
        raise FieldErrors({"scenario": _("The engine rejects this scenario: %(why)s", why=_why_rejected(scenario, kind.name, e))}) from None
    except kinds.ExerciseError:
        raise FieldErrors({"scenario": _("This scenario cannot be checked.")}) from None
    except Exception:  # noqa: BLE001 - an engine failure on odd input is a message at the field, never a 500
        raise FieldErrors({"scenario": _("This scenario cannot be checked.")}) from None
    try:
        raw = kinds.from_key(ex, kind.typed(read_key(key_text)))  # seats from 1 -> the engine's, from 0
        kind.precheck(ex, raw)
        verdict = kinds.grade(ex, raw)
    except AnswerError as e:
        raise FieldErrors({"key": _(e.message, **e.params)}) from None
    except BadFieldError as e:
        raise FieldErrors({"key": _("The answer key cannot be read: %(why)s", why=e.message)}) from None
    except (TutorError, kinds.ExerciseError):
        raise FieldErrors({"scenario": _("This scenario cannot be checked.")}) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):  # a key of an odd shape
        raise FieldErrors({"key": _("The answer key does not have the shape this kind of question takes.")}) from None
    if not verdict.correct:
        why = " ".join(i18n.render_reasons(verdict.why, you=None, players=players_of(ex.scenario),
                                           ruleset=ex.ruleset))
        raise FieldErrors({"key": _("The engine disagrees with this key. Its answer: %(answer)s. %(why)s",
                                    answer=answer_text(ex, verdict.expected), why=why).strip()})
    return _finish(ex, answer, points, prompts or {})


def key_of(q: Mapping[str, Any]) -> str:
    """A stored question's answer key as the teacher types it in the key field (seats and sides
    from 1): the engine's answer now, which is the key the question was saved with. Read back by
    :func:`authored_question` with the question's kind and scenario, it gives the same question."""
    ex = exercise_of(q)
    expected, _answer = kinds.expected_answer(ex)
    return kinds.key_text(ex, expected)


#: The most tricks of a transcript the question list shows (then "…").
_SHOWN_TRICKS = 2


def situation(q: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A stored question's situation in a few words, for the teacher's question list, so that two
    questions of one kind can be told apart: ``[(label, value), ...]`` in the current language —
    the engine's question (the ask's title), then each scenario field that is set, in the ask's
    order, labelled as on the table editor (:func:`tutor.web.editor.field_specs`): cards as their
    short faces (``9♥``), a transcript's first tricks, a suit by symbol and name, a seat by its
    number as the table shows it ("seat 2"), numbers in the language's digits. A scenario whose
    game or ask is unknown gives ``[]``."""
    from .editor import field_specs

    raw = q.get("scenario")
    scenario: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    info = RULESETS.get(str(scenario.get("ruleset")))
    ask = asks_of(info.name).get(str(scenario.get("ask"))) if info is not None else None
    if info is None or ask is None:
        return []
    players = players_of(dict(scenario))
    out = [(_("Question"), _(ask.model.title))]
    for spec in field_specs(info, ask.model):
        value = scenario.get(spec["name"])
        if value is None or value == []:
            continue
        try:
            shown = _shown(spec, value, players, info.name)
        except (TutorError, ValueError, TypeError, KeyError, IndexError):
            shown = str(value)[:40]
        out.append((spec["label"], shown))
    return out


def _shown(spec: Mapping[str, Any], value: Any, players: int, ruleset: str) -> str:
    widget = spec["widget"]
    if widget == "card":
        return i18n.card_short(value)
    if widget == "cards":
        return " ".join(i18n.card_short(c) for c in value)
    if widget == "tricks":
        shown = " | ".join(" ".join(i18n.card_short(c) for c in trick) for trick in value[:_SHOWN_TRICKS])
        return f"{i18n.tricks_label(len(value))}: {shown}" + (" …" if len(value) > _SHOWN_TRICKS else "")
    if widget == "suit":
        return i18n.suit_name(value, plural=True)
    if widget == "seat":
        return i18n.seat_label(int(value), None, players, ruleset)
    if widget == "choice":
        return next((label for v, label in spec.get("choices") or [] if v == value), str(value))
    if isinstance(value, list):
        return i18n.join_list([i18n.fmt_number(v) if isinstance(v, int) else str(v) for v in value])
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return i18n.fmt_number(value) if isinstance(value, int) else str(value)[:40]


def edit_fields(q: Mapping[str, Any]) -> dict[str, Any]:
    """The authoring form's fields of a stored question, to edit it: its kind, scenario (JSON),
    key (:func:`key_of`; empty if the engine now rejects the scenario), difficulty, points and
    prompts."""
    try:
        key = key_of(q)
    except (TutorError, kinds.ExerciseError):
        key = ""
    prompt = q.get("prompt")
    if not isinstance(prompt, Mapping):
        prompt = {}
    return {"kind": q["kind"], "scenario": json.dumps(q["scenario"], ensure_ascii=False), "key": key,
            "difficulty": str(q.get("difficulty", 1)), "points": q.get("points") or 1,
            **{f"prompt_{lang}": prompt.get(lang, "") for lang in LANGUAGES}}


def edited(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict:
    """The question ``new`` (from :func:`authored_question`) in the place of ``old``: ``old``'s id
    kept, and its ``you`` and ``teaches`` too while the kind and the game stay the same (the
    form has no field for them)."""
    out = dict(new)
    out["id"] = old["id"]
    if old.get("kind") == new["kind"] and (old.get("scenario") or {}).get("ruleset") == new["scenario"].get("ruleset"):
        for name in ("you", "teaches"):
            if name in old:
                out[name] = old[name]
    return out


def stored_you(q: Mapping[str, Any]) -> dict[str, Any] | None:
    """A stored question's own seat for the learner (its ``you``, from 0, as the learner's page
    and the preview seat the learner), with the kind and game it holds for (:func:`edited` keeps
    it while they stay): ``{"you", "kind", "ruleset"}``; ``None`` for a question without one
    (the kind's default seat)."""
    you = q.get("you")
    if not isinstance(you, int) or isinstance(you, bool):
        return None
    scenario = q.get("scenario")
    ruleset = scenario.get("ruleset") if isinstance(scenario, Mapping) else None
    return {"you": you, "kind": q.get("kind"), "ruleset": ruleset}


def generated_question(ruleset: str, kind_name: str, difficulty: int, seed: int, *, points: int = 1,
                       prompts: Mapping[str, str] | None = None) -> dict:
    """A generated question (the generator's English prompt is dropped: learners get the kind's
    prompt in their language, or the teacher's). Raises :class:`FieldErrors` on ``kind``."""
    try:
        ex = generators.generate(ruleset, kind_name, seed, difficulty)
    except (kinds.ExerciseError, ValueError, TutorError, RuntimeError):
        raise FieldErrors({"kind": _("This kind of question is not used with this game.")}) from None
    _expected, answer = kinds.expected_answer(ex)
    return _finish(Exercise(id=ex.id, kind=ex.kind, scenario=ex.scenario, difficulty=difficulty), answer,
                   points, prompts or {})


def move(questions: list, index: int, step: int) -> list:
    """The list with item ``index`` moved by ``step`` (-1 up, +1 down); unchanged at either end."""
    j = index + step
    if not (0 <= index < len(questions) and 0 <= j < len(questions)):
        return list(questions)
    out = list(questions)
    out[index], out[j] = out[j], out[index]
    return out


def kind_names() -> list[tuple[str, str]]:
    """``(kind, its label in the current language)`` of every kind, in registry order."""
    return [(k, i18n.gettext(v.label)) for k, v in KINDS.items()]


def files_of(doc: Mapping[str, Any]) -> list[tuple[str, dict]]:
    """A teacher's quiz document as quiz-file documents, one per game it uses (a quiz file holds
    one ``ruleset``), in the order the games first appear: ``[(ruleset, {"ruleset", "questions"})]``.
    Each question is kept exactly as stored (``points`` included), so
    :func:`tutor.export.files.dump_quiz` writes it losslessly and
    :func:`~tutor.export.files.check_document` checks it by the engine."""
    out: dict[str, list] = {}
    for q in doc.get("questions") or []:
        ruleset = str((q.get("scenario") or {}).get("ruleset", ""))
        out.setdefault(ruleset, []).append(dict(q))
    return [(r, {"ruleset": r, "questions": qs}) for r, qs in out.items()]


def imported_questions(quiz: Any, taken: set[str]) -> list[dict]:
    """The questions of an imported, engine-checked :class:`~tutor.content.quizzes.Quiz` as stored
    questions (each its file block, as written); an id already in ``taken`` gets a fresh one."""
    out = []
    for ex in quiz.questions:
        block = dict(ex.to_block())
        if block["id"] in taken:
            block["id"] = _question_id(ex.kind)
        taken.add(block["id"])
        out.append(block)
    return out
