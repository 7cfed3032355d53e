"""Common checks of scenarios and the registry of asks (``shared/spec/solve-format.md``).

A scenario is checked in this order, and the first problem found is the error reported:

1. it is a JSON object (else ``bad-json``);
2. ``ruleset`` names a ruleset of :data:`tutor.engine.rulesets.RULESETS` (else ``unknown-ruleset``);
3. ``ask`` is an ask registered for that ruleset (else ``unknown-ask``);
4. every top-level key is a common field (``ruleset ask options players target``) or a field of
   that ask's model (else ``bad-field``: a misspelt field is never silently ignored — a decision,
   the spec is silent);
5. ``options``, validated by the ruleset's options model
   (:attr:`~tutor.engine.rulesets.RulesetInfo.options_model`; an unknown key or a value it does
   not allow → ``bad-field``, the first in the order given); a top-level ``target`` equal to
   ``options.target`` or alone is the same setting, both given and different → ``bad-field``;
6. ``players``: a count the ruleset allows (:attr:`~tutor.engine.rulesets.RulesetInfo.players`,
   else ``bad-field``);
7. the ask's own fields, by its model (:mod:`tutor.solve.asks`), in the model's field order;
   then the ask's handler checks the state (``impossible-state``, ``illegal-play``).

Asks register from their modules with :func:`register_ask`; :mod:`tutor.solve` imports those
modules (:mod:`tutor.solve.hokm`, :mod:`tutor.solve.allfours`) explicitly, so a broken module
fails loudly::

    @register_ask(TurnUp, "all-fours", "trinidad")
    def turn_up(s: Scenario[TurnUp]) -> dict:
        pts, why = s.rules.turnup_points(s.fields.card)
        ...

No web imports here: the same code serves ``tutor solve`` and ``POST /api/v1/solve``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from ..engine.errors import (
    BadFieldError,
    BadJsonError,
    DuplicateCardError,
    NotationError,
    TutorError,
    UnknownAskError,
    show,
)
from ..engine.options import choices_of, option_fields, validate_options
from ..engine.rulesets import RULESETS, RulesetInfo, get_ruleset
from .asks import AskModel, Limits, compiled, field_kind

__all__ = [
    "COMMON_FIELDS",
    "Ask",
    "Scenario",
    "asks_of",
    "limits_range",
    "parse_scenario",
    "register_ask",
]

#: Top-level fields every scenario may carry, whatever the ask.
COMMON_FIELDS = ("ruleset", "ask", "options", "players", "target")
#: The common fields that set the game up (step 5 and 6).
_SETTINGS = frozenset(COMMON_FIELDS[2:])

F = TypeVar("F", bound=AskModel)


@dataclass(frozen=True, slots=True, init=False)
class Scenario(Generic[F]):
    """A scenario after every field check: ``info`` (the ruleset), ``ask``, ``options`` (an
    instance of the ruleset's options model, defaults filled in, ``players`` included where the
    model has it), ``players``, ``rules`` (the engine's rules object for these options) and
    ``fields`` (the ask model's instance: cards as :class:`~tutor.engine.cards.Card`, suits as
    :class:`~tutor.engine.cards.Suit`, seats as ``int``)."""

    info: RulesetInfo
    ask: str
    options: Any
    players: int
    rules: Any
    fields: F

    def __init__(self, info: RulesetInfo, ask: str, options: Any, players: int, rules: Any, fields: F) -> None:
        # one per scenario answered: the slots set directly, not through the frozen __setattr__ (issue 21)
        _set_info(self, info)
        _set_ask(self, ask)
        _set_options(self, options)
        _set_players(self, players)
        _set_rules(self, rules)
        _set_fields(self, fields)

    @property
    def ruleset(self) -> str:
        """The ruleset's name."""
        return self.info.name


_set_info, _set_ask, _set_options, _set_players, _set_rules, _set_fields = (
    vars(Scenario)[f.name].__set__ for f in dataclasses.fields(Scenario))


@dataclass(frozen=True)
class Ask:
    """A registered ask: its ``model`` and ``handler(Scenario) -> answer dict``."""

    model: type[AskModel]
    handler: Callable[[Scenario[Any]], dict[str, Any]]
    #: The top-level fields the ask reads besides :data:`COMMON_FIELDS`, in check order.
    fields: tuple[str, ...] = ()
    #: Every top-level field a scenario of the ask may have (:data:`COMMON_FIELDS` and ``fields``).
    allowed: frozenset[str] = frozenset()
    #: The ask model's fast check (:func:`~tutor.solve.asks.compiled`).
    check: Callable[[Mapping[str, object], Limits], AskModel | None] | None = None


_ASKS: dict[str, dict[str, Ask]] = {name: {} for name in RULESETS}


def register_ask(model: type[F], *rulesets: str) -> Callable[[Callable[[Scenario[F]], dict[str, Any]]],
                                                             Callable[[Scenario[F]], dict[str, Any]]]:
    """Decorator: register ``handler(Scenario) -> dict`` as ``model.ask`` of each of ``rulesets``."""
    def deco(fn: Callable[[Scenario[F]], dict[str, Any]]) -> Callable[[Scenario[F]], dict[str, Any]]:
        for name in rulesets:
            fields = tuple(model.model_fields)
            _ASKS[get_ruleset(name).name][model.ask] = Ask(model, fn, fields, frozenset(COMMON_FIELDS + fields),
                                                           compiled(model))
        return fn
    return deco


def asks_of(ruleset: str) -> dict[str, Ask]:
    """The asks of ``ruleset`` by name, in registration order."""
    return dict(_ASKS[get_ruleset(ruleset).name])


@functools.lru_cache(maxsize=512)
def _rules(info: RulesetInfo, options: Any) -> Any:
    return info.rules(options)


def _limits(info: RulesetInfo, players: int, rules: Any) -> Limits:
    return Limits(players, info.sides(players), max(rules.hand_sizes()))


@functools.cache
def limits_range(ruleset: str) -> tuple[Limits, Limits]:
    """``(tightest, loosest)`` :class:`Limits` of ``ruleset`` over every player count and every
    combination of its choice options (for JSON Schemas)."""
    info = get_ruleset(ruleset)
    model = info.options_model
    finite = {n: choices_of(model, n) for n in option_fields(model)}
    names = [n for n, c in finite.items() if c is not None]
    seen = []
    for values in itertools.product(*(finite[n] or () for n in names)):
        opts = dict(zip(names, values, strict=True))
        for p in info.players:
            fixed = {"players": p} if "players" in option_fields(model, scenario=False) else {}
            rules = info.rules(validate_options(model, opts, **fixed))
            seen.append(_limits(info, p, rules))
    lo = Limits(*(min(getattr(x, f.name) for x in seen) for f in dataclasses.fields(Limits)))
    hi = Limits(*(max(getattr(x, f.name) for x in seen) for f in dataclasses.fields(Limits)))
    return lo, hi


def parse_scenario(scenario: object) -> tuple[Scenario[Any], Callable[[Scenario[Any]], dict[str, Any]]]:
    """Run the checks of the module docstring (steps 1-7); return the :class:`Scenario` and the
    ask's handler. Raises :class:`~tutor.engine.errors.TutorError` subclasses."""
    if not isinstance(scenario, dict):
        raise BadJsonError(f"a scenario must be a JSON object, not {type(scenario).__name__}.")
    info = get_ruleset(scenario.get("ruleset"))
    asks = _ASKS[info.name]
    name = scenario.get("ask")
    ask = asks.get(name) if isinstance(name, str) else None
    if ask is None:
        known = ", ".join(sorted(asks)) or "none yet"
        raise UnknownAskError(f"ruleset {info.name} has no ask {show(name)} (its asks: {known}).")
    fields = ask.fields
    for key in () if ask.allowed.issuperset(scenario) else scenario:
        if key not in COMMON_FIELDS and key not in fields:
            allowed = ", ".join(sorted(COMMON_FIELDS + fields))
            raise BadFieldError(f"unknown field {show(key)} for ask {ask.model.ask} (fields: {allowed}).")
    if _SETTINGS.isdisjoint(scenario):
        raw = target = players = None
    else:
        raw, target, players = scenario.get("options"), scenario.get("target"), scenario.get("players")
    if raw is None and target is None and players is None:  # the common case: the ruleset's defaults
        found = _DEFAULTS.get(info.name)
        options, players, rules, limits = found if found is not None else _defaults(info)
    else:
        key = _key(raw), _key(target), _key(players)
        if None in key:
            options, players = _options(info, raw, target, players)
            rules = _rules(info, options)
            limits = _limits(info, players, rules)
        else:
            found = _SETUPS.get((info.name, key))
            options, players, rules, limits = found if found is not None else _setup(info, key)
    parsed = ask.check(scenario, limits) if ask.check is not None else None
    if parsed is None:  # a problem (or no fast check): pydantic finds the first and says it
        values = {k: v for k in fields if (v := scenario.get(k)) is not None}
        try:
            parsed = ask.model.model_validate(values, context=limits)
        except ValidationError as e:
            raise _field_error(ask.model, e) from None
    return Scenario(info, ask.model.ask, options, players, rules, parsed), ask.handler


#: ruleset name -> :func:`_defaults` (by name: a RulesetInfo hashes all its fields each time).
_DEFAULTS: dict[str, tuple[Any, int, Any, Limits]] = {}


def _defaults(info: RulesetInfo) -> tuple[Any, int, Any, Limits]:
    """``(options, players, rules, limits)`` of a scenario of ``info`` without ``options``,
    ``target`` or ``players`` (steps 5 and 6 for the defaults), worked out once."""
    options, players = _options(info, None, None, None)
    rules = _rules(info, options)
    found = _DEFAULTS[info.name] = (options, players, rules, _limits(info, players, rules))
    return found


#: ``(ruleset name, option keys)`` -> :func:`_setup` (at most :data:`_SETUPS_KEPT` of them).
_SETUPS: dict[tuple[str, tuple[Any, ...]], tuple[Any, int, Any, Limits]] = {}
_SETUPS_KEPT = 1024


def _setup(info: RulesetInfo, key: tuple[Any, ...]) -> tuple[Any, int, Any, Limits]:
    """``(options, players, rules, limits)`` for the :func:`_key` of ``options``, ``target`` and
    ``players`` (steps 5 and 6), kept: a scenario path checks the same few settings again and again."""
    options, players = _cached_options(info, *key)
    rules = _rules(info, options)
    if len(_SETUPS) >= _SETUPS_KEPT:
        _SETUPS.clear()
    found = _SETUPS[info.name, key] = (options, players, rules, _limits(info, players, rules))
    return found


def _key(value: object) -> tuple[Any, ...] | None:
    """A hashable key of a small JSON value that tells ``1``, ``1.0`` and ``true`` apart (``None``
    for a value too big or nested to cache)."""
    if isinstance(value, dict):
        if len(value) > 12:
            return None
        items = tuple((k, _key(v)) for k, v in value.items())
        return None if any(v is None for _, v in items) else ("object", items)
    if value is None or (isinstance(value, bool | int | float | str) and len(str(value)) < 40):
        return (type(value).__name__, value)
    return None


@functools.lru_cache(maxsize=1024)
def _cached_options(info: RulesetInfo, raw: tuple[Any, ...], target: tuple[Any, ...], players: tuple[Any, ...]) -> tuple[Any, int]:
    return _options(info, _value(raw), _value(target), _value(players))


def _value(key: tuple[Any, ...]) -> Any:
    kind, value = key
    return {k: _value(v) for k, v in value} if kind == "object" else value


def _options(info: RulesetInfo, raw: object, top_target: object, players: object) -> tuple[Any, int]:
    """Steps 5 and 6: the options model instance (with ``players`` where it has that field) and
    the player count."""
    options = _options_only(info, raw, top_target)
    players = info.default_players if players is None else info.check_players(players)
    if "players" in option_fields(info.options_model, scenario=False):
        options = dataclasses.replace(options, players=players)
    return options, players


def _options_only(info: RulesetInfo, raw: object, top_target: object) -> Any:
    model = info.options_model
    options: Any = validate_options(model, raw)
    if top_target is not None:
        assert isinstance(raw, Mapping) or raw is None
        given = raw or {}
        if "target" in given and given["target"] != top_target:
            raise BadFieldError(
                f"target {show(top_target)} and options.target {show(given['target'])} differ; give one.")
        options = validate_options(model, {**given, "target": top_target})
    return options


_ERRORS: dict[str, type[TutorError]] = {
    "bad-field": BadFieldError, "bad-card": NotationError, "duplicate-card": DuplicateCardError}


def _field_error(model: type[AskModel], error: ValidationError) -> TutorError:
    """The first problem of an ask model's validation as the contract's error."""
    first = error.errors()[0]
    if first["type"] == "missing":
        name = str(first["loc"][0])
        return BadFieldError(field_kind(model, name).missing(name, model.ask))
    return _ERRORS[first["type"]](first["msg"])
