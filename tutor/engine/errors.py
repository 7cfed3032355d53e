"""Errors of the rule engine and of the scenario contract.

Every error carries ``code``, the kebab-case error code of ``shared/spec/solve-format.md``, and a
one-sentence message. Bad *syntax* (:class:`NotationError`, :class:`BadFieldError`) is kept apart
from a well-formed but *illegal play* (:class:`IllegalPlayError`, which carries the rule broken as
a :class:`~tutor.engine.reasons.Reason`) and from a state the rules cannot reach
(:class:`ImpossibleStateError`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .reasons import Reason

__all__ = [
    "BadFieldError",
    "BadJsonError",
    "DuplicateCardError",
    "IllegalPlayError",
    "ImpossibleStateError",
    "NotationError",
    "TutorError",
    "UnknownAskError",
    "UnknownRulesetError",
    "clean_text",
    "show",
]

SHOW_LIMIT = 40  #: characters of a bad value quoted in a message
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate (a JSON escape such as ``\\udce9``, or a byte that was
    not UTF-8) replaced by U+FFFD, so that it encodes as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def show(value: object, limit: int = SHOW_LIMIT) -> str:
    """A short JSON rendering of ``value`` for a message: ``null``, ``true``, ``"x"``, ``[1, "AS"]``;
    cut to about ``limit`` characters with "…", however long or deeply nested the value, and
    valid Unicode (see :func:`clean_text`)."""
    parts: list[str] = []
    size = _render(value, parts, 0, limit)
    text = "".join(parts)
    if size > limit:
        text = text[:limit - 1] + "…"
    return clean_text(text)


def _render(value: object, parts: list[str], size: int, limit: int) -> int:
    """Append the JSON text of ``value`` to ``parts`` until it passes ``limit`` characters;
    return the length so far. Each nesting level adds a character, so recursion stays shallow."""
    if size > limit:
        return size
    if value is None or isinstance(value, bool):
        text = "null" if value is None else "true" if value else "false"
    elif isinstance(value, int):
        text = str(value) if value.bit_length() < 1000 else f"<an integer of {value.bit_length()} bits>"
    elif isinstance(value, float):
        text = json.dumps(value)
    elif isinstance(value, str):
        text = json.dumps(value[:limit + 1], ensure_ascii=False)
    elif isinstance(value, list | tuple | dict):
        is_dict = isinstance(value, dict)
        items: Iterable[Any] = value.items() if isinstance(value, dict) else value
        parts.append("{" if is_dict else "[")
        size += 1
        for n, item in enumerate(items):
            if size > limit:
                return size
            if n:
                parts.append(", ")
                size += 2
            if is_dict:
                size = _render(str(item[0]), parts, size, limit)
                parts.append(": ")
                size = _render(item[1], parts, size + 2, limit)
            else:
                size = _render(item, parts, size, limit)
        parts.append("}" if is_dict else "]")
        return size + 1
    else:
        text = str(value)[:limit + 1]
    parts.append(text)
    return size + len(text)


class TutorError(Exception):
    """Base class. ``code``: spec error code; ``message``: one clear sentence."""

    code = "error"

    def __init__(self, message: str):
        message = clean_text(message)
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The spec's error object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code, "message": self.message}}


class NotationError(TutorError, ValueError):
    """A card or suit that is not written in the notation (code ``bad-card``)."""

    code = "bad-card"


class DuplicateCardError(TutorError, ValueError):
    """The same card appears twice where a pack has it once (code ``duplicate-card``)."""

    code = "duplicate-card"


class BadFieldError(TutorError, ValueError):
    """A malformed, missing or out-of-range field, or an unknown option (code ``bad-field``)."""

    code = "bad-field"


class BadJsonError(TutorError, ValueError):
    """Input that is not a JSON object (code ``bad-json``)."""

    code = "bad-json"


class UnknownRulesetError(TutorError, ValueError):
    """A ``ruleset`` other than ``hokm``, ``all-fours``, ``trinidad`` (code ``unknown-ruleset``)."""

    code = "unknown-ruleset"


class UnknownAskError(TutorError, ValueError):
    """An ``ask`` the ruleset does not have (code ``unknown-ask``)."""

    code = "unknown-ask"


class ImpossibleStateError(TutorError):
    """A state the rules cannot reach, e.g. 7-7 tricks (code ``impossible-state``)."""

    code = "impossible-state"


class IllegalPlayError(TutorError):
    """A play or choice the rules forbid (code ``illegal-play``).

    ``reason`` names the rule broken and the cards involved, e.g.
    ``Reason("must-follow-suit", "H14", {"led": "C", "cards": ["3C"]})``.
    """

    code = "illegal-play"

    def __init__(self, message: str, reason: Reason | None = None):
        super().__init__(message)
        self.reason = reason
