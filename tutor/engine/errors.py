"""Errors of the rule engine and of the scenario contract.

Every error carries ``code``, the kebab-case error code of ``shared/spec/solve-format.md``, and a
one-sentence message. Bad *syntax* (:class:`NotationError`, :class:`BadFieldError`) is kept apart
from a well-formed but *illegal play* (:class:`IllegalPlayError`, which carries the rule broken as
a :class:`~tutor.engine.reasons.Reason`) and from a state the rules cannot reach
(:class:`ImpossibleStateError`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
]


class TutorError(Exception):
    """Base class. ``code``: spec error code; ``message``: one clear sentence."""

    code = "error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict:
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
