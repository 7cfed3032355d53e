"""Engine reasons in the current language, and the exercise kinds' default prompts.

Everything the engine explains comes as a :class:`~tutor.engine.reasons.Reason`;
:func:`render_reason` translates its template and fills the params in the current language:
cards become full card names as a sentence says them ("the ten of hearts", "ده دل"), suits suit
names, seats positions relative to the learner ("your partner"), numbers localised digits
(Persian digits in ``fa``), lists joined with the language's own list pattern.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Self, TypedDict, Unpack

from tutor.engine.cards import Card
from tutor.engine.errors import TutorError
from tutor.engine.reasons import N_, REASON_TEXTS, Reason

from .cards import card_label, category_name, phase_name, result_name, seat_label, side_label, suit_in_prose
from .catalogues import gettext
from .formatting import fmt_number, join_list

__all__ = ["ReasonContext", "ReasonText", "render_reason", "render_reasons"]


# --------------------------------------------------------------------------------------------
# Reasons

_SUIT_PARAMS = frozenset({"suit", "trump", "led", "led_suit", "trump_suit", "turned_suit", "old_trump",
                          "new_trump", "refused"})
_SEAT_PARAMS = frozenset({"seat", "winner", "hakem", "dealer", "leader", "next_hakem", "player", "holder",
                          "caller", "eldest", "beggar", "taker", "captor", "next_dealer", "previous_hakem"})
_SIDE_PARAMS = frozenset({"side", "team", "winner_team", "winner_side", "match_winner", "scorer",
                          "holder_side", "holder_team", "captor_side", "captor_team", "dealer_side",
                          "dealer_team", "beggar_side", "beggar_team"})


def _role_of_param(name: str) -> str:
    if name in _SUIT_PARAMS or name.endswith(("_suit", "suits")):
        return "suit"
    if name in _SEAT_PARAMS or name.endswith(("_seat", "seats")):
        return "seat"
    if name in _SIDE_PARAMS or name.endswith(("_side", "_team", "sides", "teams")):
        return "side"
    if "card" in name:
        return "card"
    if name in ("category", "categories"):
        return "category"
    if name == "result":
        return "result"
    if name == "phase":
        return "phase"
    return "plain"


def _is_card(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        Card.parse(text)
    except (TutorError, ValueError):
        return False
    return True


class ReasonContext(TypedDict, total=False):
    """Who a reason is told to (:func:`render_reason`): the learner's seat ``you`` (``None``: seat
    numbers), the number of ``players`` (``None``: 4) and the ``ruleset`` name."""

    you: int | None
    players: int | None
    ruleset: str | None


def _localize_value(name: str, value: object, ctx: ReasonContext) -> str:
    role = _role_of_param(name)
    if isinstance(value, list | tuple) and value and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value) and role == "plain":
        # per-side numbers (totals, scores): "10 – 7"
        return " – ".join(fmt_number(v) for v in value)
    if isinstance(value, list | tuple):
        parts = [_localize_value(name, v, ctx) for v in value]
        return join_list(parts) if parts else gettext(N_("nobody"))
    if value is None:
        return gettext(N_("nobody"))
    if isinstance(value, bool):
        return str(value)
    try:
        if role == "suit":
            return suit_in_prose(str(value))
        if role == "seat" and isinstance(value, int):
            return seat_label(value, ctx.get("you"), ctx.get("players") or 4, ctx.get("ruleset"))
        if role == "side" and isinstance(value, int):
            return side_label(value, ctx.get("you"), ctx.get("players") or 4, ctx.get("ruleset"))
        if role == "category":
            return category_name(str(value))
        if role == "result":
            return result_name(str(value))
        if role == "phase" and phase_name(str(value)) != str(value):
            return phase_name(str(value))
        if role in {"card", "plain"} and _is_card(value):
            return card_label(str(value), prose=True)
    except (TutorError, ValueError):
        pass
    if isinstance(value, int | float):
        return fmt_number(value)
    return str(value)


_ENGINE_MODULES = ("tricks", "hokm", "allfours", "trinidad")


@functools.cache
def _load_engine_texts() -> bool:
    """Import the ruleset modules once so that every reason template is in REASON_TEXTS."""
    import importlib

    for name in _ENGINE_MODULES:  # a broken module fails here, loudly
        importlib.import_module(f"tutor.engine.{name}")
    return True


class _KeepMissing(dict[str, str]):
    """Params of a template; a placeholder without a param stays as it is (``%(card)s``)."""

    def __missing__(self, key: str) -> str:
        return f"%({key})s"


def render_reason(reason_json: Mapping[str, Any] | Reason, *, you: int | None = None,
                  players: int | None = None, ruleset: str | None = None) -> str:
    """The explanation of one engine Reason in the current language.

    ``reason_json`` is ``Reason.to_json()`` (or a :class:`Reason`). The English template
    ``REASON_TEXTS[code]`` is translated with gettext and its ``%(param)s`` placeholders filled with
    localised values, chosen by param name: cards (``card``, ``cards``, ``*card*``) -> full card
    names as a sentence says them (:func:`card_label` with ``prose``: "the ten of hearts"), suits
    (``suit``, ``trump``, ``led``) -> suit names, seats (``seat``, ``winner``,
    ``hakem``, ``dealer``, ``leader`` ...) -> :func:`seat_label` relative to ``you`` (seat numbers
    when ``you`` is None), sides/teams -> :func:`side_label`, numbers -> :func:`fmt_number`;
    lists joined with the language's list pattern. ``players`` defaults to 4.
    """
    if isinstance(reason_json, Reason):
        reason_json = reason_json.to_json()
    code = str(reason_json.get("code", ""))
    params: Mapping[str, object] = reason_json.get("params") or {}
    _load_engine_texts()
    template = REASON_TEXTS.get(code)
    if template is None:
        return code
    text = gettext(template)
    ctx: ReasonContext = {"you": you, "players": players, "ruleset": ruleset}
    values = _KeepMissing({k: _localize_value(k, v, ctx) for k, v in params.items()})
    try:
        text = text % values
    except (ValueError, TypeError):
        return text
    # A sentence may start with a localised value ("ten of hearts is ..."): capitalise it.
    return text[:1].upper() + text[1:]


class ReasonText(str):
    """A rendered reason: the explanation text itself (a ``str``), carrying ``rules``, the ids of
    the rule points the reason applied (its ``rule`` field split at commas: ``("C21", "K20")``),
    so that a page can link each reason to the rules reference."""

    rules: tuple[str, ...]

    def __new__(cls, text: str, rules: tuple[str, ...] = ()) -> Self:
        self = super().__new__(cls, text)
        self.rules = rules
        return self


def _rule_ids(reason: Mapping[str, Any] | Reason) -> tuple[str, ...]:
    rule = reason.rule if isinstance(reason, Reason) else reason.get("rule")
    if not isinstance(rule, str):
        return ()
    return tuple(part.strip() for part in rule.split(",") if part.strip())


def render_reasons(reasons: Iterable[Mapping[str, Any]], **context: Unpack[ReasonContext]) -> list[ReasonText]:
    """:func:`render_reason` over an answer's ``why`` list; each text is a :class:`ReasonText`
    that also carries the ids of the rule points the reason cites."""
    return [ReasonText(render_reason(r, **context), _rule_ids(r)) for r in reasons or ()]
