"""The scenario contract: one JSON object in, one answer out (``shared/spec/solve-format.md``).

* :func:`solve` — ``dict -> dict``; raises a :class:`~tutor.engine.errors.TutorError` subclass
  whose ``code`` is the spec's error code.
* :func:`answer` — never raises: the answer, or ``{"error": {"code", "message"}}``.
* :func:`solve_text` — the same for one line of JSON text (``bad-json`` when it does not parse).

Answers carry the spec's fields plus ``why``: a list of Reason JSON objects
(``{"code", "rule", "params"}``) explaining the verdict for this very hand.

Common checks and the ask registry are in :mod:`tutor.solve.common`; Hokm's asks in
:mod:`tutor.solve.hokm`; All Fours' and Trinidad's in ``tutor.solve.allfours``.
"""

from __future__ import annotations

import json

from ..engine.errors import BadJsonError, TutorError
from .common import RULESETS, parse_scenario, register_ask

__all__ = ["RULESETS", "answer", "answer_text", "register_ask", "solve", "solve_text"]


def solve(scenario: dict) -> dict:
    """Answer one scenario (a decoded JSON object).

    Raises :class:`~tutor.engine.errors.TutorError` subclasses: ``bad-json`` (not an object),
    ``unknown-ruleset``, ``unknown-ask``, ``bad-field``, ``bad-card``, ``duplicate-card``,
    ``illegal-play``, ``impossible-state``.
    """
    s, handler = parse_scenario(scenario)
    return handler(s)


def answer(scenario: object) -> dict:
    """Like :func:`solve` but never raises: a failure gives the spec's error object.

    An unexpected exception (an engine bug) gives code ``internal-error`` rather than a traceback.
    """
    try:
        return solve(scenario)  # type: ignore[arg-type]
    except TutorError as e:
        return e.to_json()
    except Exception as e:  # noqa: BLE001 - the contract promises an error object, never a traceback
        return {"error": {"code": "internal-error", "message": f"the engine failed on this scenario ({type(e).__name__})."}}


def solve_text(text: str) -> dict:
    """Decode ``text`` (one JSON object) and :func:`solve` it. Raises ``bad-json`` when the text
    is not valid JSON or not an object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadJsonError(f"the input is not valid JSON ({_json_problem(e)}).") from None
    return solve(value)


def answer_text(text: str) -> dict:
    """Like :func:`solve_text` but never raises (see :func:`answer`)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        return BadJsonError(f"the input is not valid JSON ({_json_problem(e)}).").to_json()
    return answer(value)


def _json_problem(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at line {e.lineno} column {e.colno}"
    if isinstance(e, RecursionError):
        return "nested too deeply"
    return "cannot decode the text"
