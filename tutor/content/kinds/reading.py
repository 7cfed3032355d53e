"""Reading a learner's answer, and a teacher's key, into a kind's value: numbers in any of the
app's scripts, "nobody", seats and sides (numbered from 1 in a teacher's key, from 0 in answers,
scenarios and the engine), lists and objects; and a scenario's player count and sides.

Errors: :class:`~tutor.engine.errors.BadFieldError` (``bad-field``) for a malformed value;
:class:`~tutor.content.kinds.values.AnswerError` for a seat or side of a key that does not exist.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import i18n
from ...engine.errors import BadFieldError, show
from ...engine.rulesets import RULESETS
from .values import N_, AnswerError, Ctx

__all__ = ["as_int", "as_list", "as_mapping", "as_side", "digits", "is_none", "n_sides", "players_of",
           "seat_from_key", "side_from_key", "side_key"]

_NONE_WORDS = {"", "none", "null", "nobody", "-"}
_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩౦౧౨౩౪౫౬౭౮౯", "0123456789" * 3)


def digits(value: object) -> str:
    """A form value with Persian, Arabic-Indic and Telugu digits read as ASCII digits, stripped."""
    return str(value if value is not None else "").strip().translate(_DIGITS)


def is_none(raw: object) -> bool:
    """True for an answer meaning "nobody": ``None``, ``""``, ``none``, ``null``, ``nobody``, ``-``."""
    return raw is None or (isinstance(raw, str) and raw.strip().lower() in _NONE_WORDS)


def as_int(raw: object, what: str, lo: int, hi: int) -> int:
    """An int ``lo..hi`` from an int or a string of digits; :class:`BadFieldError` otherwise."""
    v: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        v = raw
    elif isinstance(raw, str) and re.fullmatch(r"\s*-?\d{1,6}\s*", raw):
        v = int(raw)
    if v is None:
        raise BadFieldError(f"{what} must be a whole number, not {show(raw)}.")
    if not lo <= v <= hi:
        raise BadFieldError(f"{what} must be from {lo} to {hi}, not {v}.")
    return v


def as_side(raw: object, what: str, ctx: Ctx, allow_none: bool = True) -> int | None:
    """A side ``0..sides-1``, or ``None`` for nobody (when allowed)."""
    if allow_none and is_none(raw):
        return None
    return as_int(raw, what, 0, ctx.sides - 1)


def as_list(raw: object, what: str) -> list[Any]:
    """A list from a list, or from one string separated by commas, semicolons or spaces."""
    if isinstance(raw, str):
        return [p for p in re.split(r"[\s,;]+", raw.strip()) if p]
    if isinstance(raw, list | tuple):
        return list(raw)
    raise BadFieldError(f"{what} must be a list, not {show(raw)}.")


def as_mapping(raw: object, what: str) -> Mapping[str, Any]:
    """The value if it is an object with fields; :class:`BadFieldError` otherwise."""
    if not isinstance(raw, Mapping):
        raise BadFieldError(f"{what} must be an object with fields, not {show(raw)}.")
    return raw


def _key_number(raw: object) -> int | None:
    """A whole number of a teacher's key (an int, or a string of digits in any of the app's
    scripts); None for anything else."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        text = digits(raw)
        if re.fullmatch(r"-?[0-9]{1,6}", text):
            return int(text)
    return None


def seat_from_key(raw: object, ctx: Ctx) -> object:
    """A seat of a teacher's answer key, numbered from 1 as people number seats ("seat 1" ..),
    as the engine's seat (from 0). A value that is no whole number is left as it is, for
    :meth:`ExerciseKind.parse` to name; a number that is no seat is an :class:`AnswerError`."""
    n = _key_number(raw)
    if n is None:
        return raw
    if not 1 <= n <= ctx.players:
        raise AnswerError("bad-answer", N_("Seats are numbered from 1 to %(last)s, as on the table: there is no seat %(n)s."),
                          last=i18n.fmt_number(ctx.players), n=i18n.fmt_number(n, group=False))
    return n - 1


def side_from_key(raw: object, ctx: Ctx) -> object:
    """A side of a teacher's answer key, numbered from 1 ("team 1", "team 2" with four players;
    otherwise a side is a seat, see :func:`seat_from_key`), as the engine's side (from 0);
    "nobody" stays as it is."""
    if is_none(raw):
        return raw
    if ctx.sides == ctx.players:
        return seat_from_key(raw, ctx)
    n = _key_number(raw)
    if n is None:
        return raw
    if not 1 <= n <= ctx.sides:
        raise AnswerError("bad-answer", N_("Teams are numbered 1 and 2, as on the table: there is no team %(n)s."),
                          n=i18n.fmt_number(n, group=False))
    return n - 1


def side_key(side: int | None) -> int | None:
    """The engine's side (or seat) as a teacher's key numbers it, from 1; None (nobody) stays."""
    return None if side is None else side + 1


def players_of(scenario: Mapping[str, Any]) -> int:
    """Player count of a scenario: its ``players`` or its ruleset's default (4 if unknown)."""
    p = scenario.get("players")
    if isinstance(p, int) and not isinstance(p, bool) and p > 0:
        return p
    r = RULESETS.get(scenario.get("ruleset"))  # type: ignore[arg-type]
    return r.default_players if r is not None else 4


def n_sides(scenario: Mapping[str, Any]) -> int:
    """Number of scoring sides: 2 teams with 4 players, else one side per seat."""
    p = players_of(scenario)
    return 2 if p == 4 else p
