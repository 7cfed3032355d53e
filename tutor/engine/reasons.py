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

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["N_", "REASON_TEXTS", "Reason"]


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it (Babel's ``gettext_noop``)."""
    return text


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the engine decided as it did.

    ``code``: key of :data:`REASON_TEXTS`; ``rule``: RULES.md rule point; ``params``: values for
    the template (see module docstring for their types).
    """

    code: str
    rule: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def to_json(self) -> dict:
        """``{"code": ..., "rule": ..., "params": {...}}`` with JSON-ready values."""
        return {"code": self.code, "rule": self.rule, "params": dict(self.params)}

    def text(self) -> str:
        """The English explanation (untranslated template filled with raw params)."""
        template = REASON_TEXTS.get(self.code, self.code)
        params = {k: (", ".join(v) if isinstance(v, list | tuple) else v) for k, v in self.params.items()}
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template


#: Explanation templates (English, Babel msgids), keyed by reason code. Engine modules add their
#: own codes here at import time with ``REASON_TEXTS.update({...})``; keep every template in N_().
REASON_TEXTS: dict[str, str] = {
    "lead-any": N_("You are leading the trick, so you may play any card."),
}
