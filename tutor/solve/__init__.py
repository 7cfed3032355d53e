"""The scenario contract: one JSON object in, one answer out (``shared/spec/solve-format.md``).

* :func:`solve` — ``dict -> dict``; raises a :class:`~tutor.engine.errors.TutorError` subclass
  whose ``code`` is the spec's error code.
* :func:`answer` — never raises: the answer, or ``{"error": {"code", "message"}}``.
* :func:`solve_text` — the same for one line of JSON text (``bad-json`` when it does not parse:
  :func:`parse_json` is strict RFC 8259 JSON, so no ``NaN``/``Infinity``, and bytes must be UTF-8).

Answers carry the spec's fields plus ``why``: a list of Reason JSON objects
(``{"code", "rule", "params"}``) explaining the verdict for this very hand.

The ask models are in :mod:`tutor.solve.asks`; common checks and the ask registry in
:mod:`tutor.solve.common`; Hokm's asks in :mod:`tutor.solve.hokm`; All Fours' and Trinidad's in
:mod:`tutor.solve.allfours`. Those two modules are imported here, explicitly: each registers its
asks, and a broken one fails the import of :mod:`tutor.solve` loudly.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from ..engine.errors import BadJsonError, TutorError
from . import allfours, hokm, leads  # noqa: F401 - each registers its asks
from .common import asks_of, parse_scenario, register_ask

__all__ = ["answer", "answer_text", "asks_of", "has_long_number", "parse_json", "register_ask", "solve", "solve_text"]


def solve(scenario: dict[str, Any]) -> dict[str, Any]:
    """Answer one scenario (a decoded JSON object).

    Raises :class:`~tutor.engine.errors.TutorError` subclasses: ``bad-json`` (not an object),
    ``unknown-ruleset``, ``unknown-ask``, ``bad-field``, ``bad-card``, ``duplicate-card``,
    ``illegal-play``, ``impossible-state``.
    """
    s, handler = parse_scenario(scenario)
    return handler(s)


def answer(scenario: object) -> dict[str, Any]:
    """Like :func:`solve` but never raises: a failure gives the spec's error object.

    An unexpected exception (an engine bug) gives code ``internal-error`` rather than a traceback.
    """
    try:
        return solve(scenario)  # type: ignore[arg-type]
    except TutorError as e:
        return e.to_json()
    except Exception as e:  # noqa: BLE001 - the contract promises an error object, never a traceback
        return {"error": {"code": "internal-error", "message": f"the engine failed on this scenario ({type(e).__name__})."}}


#: A run of digits too long for a 64-bit integer (orjson reads such an integer as a float).
_LONG_TEXT = re.compile(r"[0-9]{19}")
#: Bytes with every digit made ``0``: a run of 19 digits is then a plain substring, found by a
#: byte search many times faster than the regular expression (issue 21).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_ZEROS = b"0" * 19


def has_long_number(text: str | bytes) -> bool:
    """Whether ``text`` holds a run of 19 digits or more (which :func:`parse_json` reads with
    :mod:`json`: orjson turns an integer beyond 64 bits into a float). A text without one has no
    part with one: ``tutor solve`` asks once for a whole file of JSON Lines."""
    if isinstance(text, str):
        return _LONG_TEXT.search(text) is not None
    return _LONG_ZEROS in text.translate(_DIGITS_AS_ZERO)


def parse_json(text: str | bytes) -> object:
    """Decode one JSON value, strictly (RFC 8259): bytes must be UTF-8; ``NaN``, ``Infinity`` and
    ``-Infinity`` are not JSON; an integer of more than 4300 digits cannot be read. Raises
    :class:`BadJsonError` (code ``bad-json``) with a message that never quotes the input.

    Read by orjson (strict RFC 8259 too, about twice as fast as :mod:`json` here: issue 21); a text
    orjson refuses, or one with a number of 19 digits or more (orjson turns an integer beyond 64
    bits into a float), is read again by :mod:`json`, whose value and messages the contract keeps."""
    if not has_long_number(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:  # refused (a str with a lone surrogate too): json says why
            pass
    return _parse_json_stdlib(text)


def _parse_json_stdlib(text: str | bytes) -> object:
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadJsonError(f"the input is not valid UTF-8 (byte 0x{text[e.start]:02X} "
                               f"at offset {e.start}).") from None
    try:
        if text.startswith("\ufeff"):  # what json.loads says of it (JSONDecoder.decode does not look)
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return _DECODER.decode(text)
    except (ValueError, RecursionError) as e:
        raise BadJsonError(f"the input is not valid JSON ({_json_problem(e)}).") from None


def solve_text(text: str | bytes) -> dict[str, Any]:
    """Decode ``text`` (one JSON object; see :func:`parse_json`) and :func:`solve` it. Raises
    ``bad-json`` when the text is not valid JSON or not an object."""
    return solve(parse_json(text))  # type: ignore[arg-type]


def answer_text(text: str | bytes) -> dict[str, Any]:
    """Like :func:`solve_text` but never raises (see :func:`answer`)."""
    try:
        value = parse_json(text)
    except BadJsonError as e:
        return e.to_json()
    return answer(value)


class _NotJsonConstant(ValueError):
    pass


def _not_json(name: str) -> object:
    raise _NotJsonConstant(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(parse_constant=_not_json)  # made once: json.loads makes one per call with an option


def _json_problem(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at line {e.lineno} column {e.colno}"
    if isinstance(e, RecursionError):
        return "nested too deeply"
    if isinstance(e, _NotJsonConstant):
        return str(e)
    if "digits" in str(e):
        return "an integer has more than 4300 digits"
    return "cannot decode the text"
