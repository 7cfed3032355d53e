"""A scenario's canonical fingerprint: two scenarios that ask the engine the same question have
the same fingerprint, however they are written.

:func:`fingerprint` parses the scenario with the contract's own checks
(:func:`tutor.solve.common.parse_scenario`: the ruleset, the ask, its pydantic model with the
options' defaults filled in), then writes the parsed values as canonical JSON (sorted keys, no
spaces, cards as their codes such as ``"10H"``, suits as letters) with the cards of a field whose
order carries no meaning (:class:`~tutor.solve.asks.Cards` ``unordered``: a hand) sorted, and
returns the SHA-256 of that text as 64 hex digits. ``"hand": ["AS", "2H"]`` and ``["2H", "as"]``,
a field left out and the same field at its default: each pair has one fingerprint. Order that
does count (a trick, turn-ups in order, the tricks of a hand) is kept. The table's options are
left out: most change nothing an ask answers (a match's target beside "which cards may be
played"), so the same cards asked under any options are the same question; the few options that
change an answer make only a variant of it, which is refused too.

Used to keep class-quiz questions out of the stateless endpoints (issue 8).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from enum import Enum
from typing import Any

from pydantic import BaseModel

from ..engine.cards import Card
from ..engine.errors import TutorError
from .asks import field_kind
from .common import parse_scenario

__all__ = ["canonical", "fingerprint"]


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return {k: _plain(v) for k, v in value.model_dump(mode="python").items()}
    if isinstance(value, Enum):
        return str(value.value) if not isinstance(value.value, int) else str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_plain(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return str(value)


def canonical(scenario: object) -> str | None:
    """The scenario's canonical JSON text (see the module docstring), or ``None`` when the engine
    would refuse it (any error of the contract)."""
    try:
        parsed, _handler = parse_scenario(scenario)
    except TutorError:
        return None
    model = type(parsed.fields)
    fields: dict[str, Any] = {}
    for name in model.model_fields:
        value = getattr(parsed.fields, name)
        if isinstance(value, list) and getattr(field_kind(model, name), "unordered", False):  # Cards
            value = sorted(value, key=int)
        fields[name] = _plain(value)
    doc = {"ruleset": parsed.ruleset, "ask": parsed.ask, "players": parsed.players, "fields": fields}
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def fingerprint(scenario: object) -> str | None:
    """The SHA-256 (64 lowercase hex digits) of :func:`canonical`, or ``None`` for a scenario the
    engine refuses."""
    text = canonical(scenario)
    return hashlib.sha256(text.encode("ascii")).hexdigest() if text is not None else None

