"""Reasons: every verdict of the engine, as data.

A :class:`Reason` names the rule applied (``rule``: a RULES.md rule point such as ``"H14"`` or a
decision such as ``"K12"``), a ``code`` that selects an explanation template, and ``params``
(cards, suits, seats, numbers) that fill it in for this very hand. The engine never formats
prose; the web app and the CLI render ``REASON_TEXTS[code]`` in the learner's language
(templates are marked with :func:`N_` so ``pybabel extract`` finds them).

Param conventions: a card is a canonical card string (``"10H"``), a list of cards a list of such
strings, a suit a suit letter (names ``suit``, ``trump``, ``led``), a seat an ``int`` (names
``seat``, ``winner``, ``hakem``, ``dealer``, ``leader``), a side or team an ``int`` (``side``,
``team``), other numbers plain ``int``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["N_", "REASON_TEXTS", "Reason", "lazy_reason", "make_reason"]


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it (Babel's ``gettext_noop``)."""
    return text


class _Deferred:
    """Base of :class:`Reason` holding the one slot that is not a field: ``_build``, a
    ``(function, args)`` pair that makes the params of a reason built by :func:`lazy_reason`."""

    __slots__ = ("_build",)


@dataclass(frozen=True, slots=True, init=False)
class Reason(_Deferred):
    """Why the engine decided as it did.

    ``code``: key of :data:`REASON_TEXTS`; ``rule``: RULES.md rule point; ``params``: values for
    the template (see module docstring for their types), kept as a read-only copy of the mapping
    given (default: none).

    Immutable and compared by value: reasons built on a fast path (:func:`make_reason`,
    :func:`lazy_reason`, instances shared between verdicts such as ``lead-any``) equal those
    built by ``Reason(...)``. Never change a list inside ``params``.
    """

    code: str
    rule: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __init__(self, code: str, rule: str, params: Mapping[str, object] | None = None) -> None:
        # The frozen dataclass __init__ goes through object.__setattr__ and __post_init__; setting
        # the slots directly is about twice as fast (reasons are built on the engine's hot paths).
        _set_code(self, code)
        _set_rule(self, rule)
        _set_params(self, _proxy(dict(params) if params else {}))

    def __getattr__(self, name: str) -> object:
        # Called only when a slot is empty: ``params`` of a reason from lazy_reason(), made on
        # first use (equality, repr, to_json and text all read it through here).
        if name == "params":
            try:
                fn, args = _get_build(self)
            except AttributeError:
                pass
            else:
                params = _proxy(fn(*args))
                _set_params(self, params)
                return params
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def to_json(self, **more: object) -> dict[str, Any]:
        """``{"code": ..., "rule": ..., "params": {...}}`` with JSON-ready values; ``more`` params
        added after the reason's own (e.g. ``trick=3`` for one trick of a transcript)."""
        return {"code": self.code, "rule": self.rule, "params": {**self.params, **more} if more else dict(self.params)}

    def text(self) -> str:
        """The English explanation (untranslated template filled with raw params): a list of
        numbers (per-side totals, scores) reads ``"10 – 7"``, any other list is joined with
        ``", "``. Never raises: a template whose params do not fit is returned unfilled."""
        template = REASON_TEXTS.get(self.code, self.code)
        params = {k: _plain(v) for k, v in self.params.items()}
        try:
            return template % params
        except (KeyError, ValueError, TypeError):
            return template


def _plain(value: object) -> object:
    """A param as :meth:`Reason.text` shows it (lists as text, other values unchanged)."""
    if not isinstance(value, list | tuple):
        return value
    if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return " – ".join(map(str, value))
    return ", ".join(map(str, value))


# the slot descriptors: they set a field of a frozen Reason without going through __setattr__
_set_code = vars(Reason)["code"].__set__
_set_rule = vars(Reason)["rule"].__set__
_set_params = vars(Reason)["params"].__set__
_set_build = vars(_Deferred)["_build"].__set__
_get_build = vars(_Deferred)["_build"].__get__
_proxy = MappingProxyType
_new = object.__new__


def make_reason(code: str, rule: str, params: dict[str, object]) -> Reason:
    """``Reason(code, rule, params)`` for the engine's hot paths: ``params`` must be a new dict
    that nobody else holds, since it is kept (read-only) instead of copied."""
    r = _new(Reason)
    _set_code(r, code)
    _set_rule(r, rule)
    _set_params(r, _proxy(params))
    return r


def lazy_reason(code: str, rule: str, build: Callable[..., dict[str, object]], *args: object) -> Reason:
    """``Reason(code, rule, build(*args))``, with ``build`` called only when the params are first
    read: for hot paths whose params take work (e.g. listing the cards held) while most callers
    want only the verdict. ``build`` must return a new dict and depend on ``args`` alone."""
    r = _new(Reason)
    _set_code(r, code)
    _set_rule(r, rule)
    _set_build(r, (build, args))
    return r


#: Explanation templates (English, Babel msgids), keyed by reason code, with ``%(name)s``
#: placeholders (gettext's python-format, the one placeholder style of every message). Engine
#: modules add their own codes here at import time with ``REASON_TEXTS.update({...})``; keep every
#: template in N_(); a literal per cent sign is written ``%%``.
REASON_TEXTS: dict[str, str] = {
    "lead-any": N_("You are leading the trick, so you may play any card."),
    "hakem-leads": N_("The hakem (seat %(hakem)s) leads the first trick."),
    "eldest-leads": N_("Dealer: seat %(dealer)s. The next player in the order of play leads the first trick: "
                       "seat %(leader)s."),
    "winner-leads": N_("Whoever takes a trick leads the next one: seat %(winner)s leads."),
}
