"""One exercise checked against the engine (``tutor check``, the teacher's import and export):
its kind, its ask and ruleset, every card written correctly, the engine's acceptance of the
scenario, and the authored ``expect`` against the engine's answer.

:func:`check_exercise` adds each problem to a :class:`~tutor.problems.Problems` list,
as ``file:line: message`` with the line of the field at fault; :func:`same_answer` compares an
authored answer field with the engine's (cards and suits canonically, ``legal`` as a set).
"""

from __future__ import annotations

from typing import Any

from tutor.problems import Problems

from ..engine.cards import Card, Suit
from ..engine.errors import NotationError, TutorError
from .exercise import Exercise
from .kinds import KINDS, ExerciseError, expected_answer, players_of

__all__ = ["check_exercise", "same_answer"]

_CARD_LIST_FIELDS = ("hand", "trick", "turn_ups")


def _norm(key: str, value: object) -> object:
    """Canonical form for comparing authored and engine values (cards, suits)."""
    if isinstance(value, str):
        try:
            return str(Card.parse(value))
        except NotationError:
            pass
        if key == "trump":
            try:
                return Suit.parse(value).letter
            except NotationError:
                pass
        return value
    if isinstance(value, list | tuple):
        return [_norm(key, v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(str(k), v) for k, v in value.items()}
    return value


def same_answer(key: str, authored: object, engine: object) -> bool:
    """Whether an authored ``expect`` value of answer field ``key`` says what the engine's does
    (cards in any notation; the legal cards in any order)."""
    return _same(key, authored, engine)


def _same(key: str, authored: object, engine: object) -> bool:
    a, e = _norm(key, authored), _norm(key, engine)
    if key == "legal" and isinstance(a, list) and isinstance(e, list):
        return sorted(map(str, a)) == sorted(map(str, e)) and len(a) == len(e)
    if isinstance(a, bool) != isinstance(e, bool):
        return False
    return a == e


def _required_expect(ex: Exercise, answer: dict[str, Any]) -> list[str]:
    return KINDS[ex.kind].required_expect(ex, answer)


def _bad_cards(ex: Exercise, problems: Problems) -> bool:
    """Report every badly written card of the scenario; True if any."""
    sc, bad = ex.scenario, False

    def one(value: object, where: str) -> None:
        nonlocal bad
        try:
            Card.parse(value)
        except NotationError:
            bad = True
            problems.add(ex.path, ex.line_of(f"scenario.{where}"),
                         f"{_label(ex)}: scenario.{_dotted(where)}: unknown card {value!r} "
                         "(write rank A K Q J 10 9 … 2 then suit S H D C, e.g. \"10H\")")

    for name in _CARD_LIST_FIELDS:
        if isinstance(sc.get(name), list):
            for i, c in enumerate(sc[name]):
                one(c, f"{name}.{i}")
    if "card" in sc:
        one(sc["card"], "card")
    if isinstance(sc.get("tricks"), list):
        for i, t in enumerate(sc["tricks"]):
            if isinstance(t, list):
                for j, c in enumerate(t):
                    one(c, f"tricks.{i}.{j}")
    return bad


def _dotted(where: str) -> str:
    parts = where.split(".")
    return parts[0] + "".join(f"[{p}]" for p in parts[1:])


def _label(ex: Exercise) -> str:
    return f"{'question' if ex.teaches is not None or ex.step_id is None else 'exercise'} {ex.id}"


def check_exercise(ex: Exercise, ruleset: str | None, problems: Problems) -> None:
    """Check one exercise (see module docstring) against the engine; add problems with lines.

    ``ruleset``: the ruleset the file belongs to (``None``: not known, not compared).
    """
    label = _label(ex)
    kind = KINDS.get(ex.kind)
    if kind is None:
        problems.add(ex.path, ex.line_of("kind"),
                     f"{label}: unknown kind {ex.kind!r} (use one of {', '.join(KINDS)})")
        return
    sc = ex.scenario
    if ruleset is not None and sc.get("ruleset") != ruleset:
        problems.add(ex.path, ex.line_of("scenario.ruleset"),
                     f"{label}: scenario ruleset {sc.get('ruleset')!r} but this file is about {ruleset!r}")
        return
    if ex.ask not in kind.asks:
        problems.add(ex.path, ex.line_of("scenario.ask"),
                     f"{label}: kind {kind.name} takes ask {' or '.join(kind.asks)}, not {sc.get('ask')!r}")
        return
    if ex.ruleset not in kind.rulesets:
        problems.add(ex.path, ex.line_of("kind"), f"{label}: kind {kind.name} is not used in {ex.ruleset!r}")
        return
    if _bad_cards(ex, problems):
        return
    if ex.you is not None and ex.you >= players_of(sc):
        problems.add(ex.path, ex.line_of("you"), f"{label}: you: seat {ex.you} but there are {players_of(sc)} players")
    try:
        _, answer = expected_answer(ex)
    except TutorError as e:
        problems.add(ex.path, ex.line_of("scenario"),
                     f"{label}: the engine rejects the scenario ({e.code}): {e.message}")
        return
    except ExerciseError as e:
        problems.add(ex.path, ex.line_of("scenario"), f"{label}: {e}")
        return
    except Exception as e:  # noqa: BLE001 - an engine bug is reported at the exercise, not as a traceback
        problems.add(ex.path, ex.line_of("scenario"),
                     f"{label}: the engine failed on this scenario ({type(e).__name__}: {e})")
        return
    if ex.expect is None:
        return  # the loader already reported the missing field
    for name in _required_expect(ex, answer):
        if name not in ex.expect:
            problems.add(ex.path, ex.line_of("expect"),
                         f"{label}: expect must give {name} (the answer kind {kind.name} checks); "
                         f"the engine says {name}: {answer.get(name)!r}")
    fields = [k for k in answer if k != "why"]
    for name, authored in ex.expect.items():
        if name not in answer or name == "why":
            problems.add(ex.path, ex.line_of(f"expect.{name}"),
                         f"{label}: expect.{name}: the engine's answer has no field {name!r} "
                         f"(it has {', '.join(fields)})")
        elif not _same(str(name), authored, answer[name]):
            problems.add(ex.path, ex.line_of(f"expect.{name}"),
                         f"{label}: expect.{name} is {authored!r} but the engine says {answer[name]!r}")
