"""A question of a quiz document (the ``quizzes/<ruleset>.yaml`` shape, a teacher's quiz, a class
assignment's copy; :mod:`tutor.web.authoring`) as an exercise, and its answers in words."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from tutor.content import kinds
from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, Names, players_of

from .table import default_you

__all__ = ["answer_text", "exercise_of"]


def exercise_of(q: Mapping[str, Any]) -> Exercise:
    """The :class:`Exercise` of one stored question (its prompt map kept)."""
    prompt = q.get("prompt")
    return Exercise(id=str(q["id"]), kind=str(q["kind"]), scenario=dict(q["scenario"]),
                    difficulty=int(q.get("difficulty", 1)),
                    prompt=MappingProxyType(dict(prompt)) if isinstance(prompt, Mapping) and prompt else None,
                    you=q.get("you"), teaches=q.get("teaches"))


def answer_text(ex: Exercise, value: object, *, by_number: bool = True) -> str:
    """A normalised answer of ``ex``'s kind in words, in the current language (the kind's own
    feedback lines); seats by number as the scenario numbers them (``by_number``, the teacher's
    view) or from the learner's seat. The JSON text if the kind cannot word it."""
    kind = KINDS[ex.kind]
    fake = kinds.Verdict(kind.name, True, value, value)
    you = None if by_number else default_you(kind, ex.scenario, ex.you)
    try:
        lines = kind.feedback_lines(ex, fake, Names(you, players_of(ex.scenario), ex.ruleset))
        return "; ".join(f"{line.what}: {line.value}" for line in lines)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return json.dumps(value, ensure_ascii=False)
