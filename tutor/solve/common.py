"""Common parsing and validation of scenarios (``shared/spec/solve-format.md``).

A scenario is checked in this order, and the first problem found is the error reported:

1. it is a JSON object (else ``bad-json``);
2. ``ruleset`` is one of :data:`RULESETS` (else ``unknown-ruleset``);
3. ``ask`` is an ask of that ruleset (else ``unknown-ask``);
4. every top-level key is a common field (``ruleset ask options players target``) or a field of
   that ask (else ``bad-field``: a misspelt field is never silently ignored — a decision, the spec
   is silent);
5. ``options`` (unknown key or value → ``bad-field``; a top-level ``target`` equal to
   ``options.target`` or alone is the same setting, both given and different → ``bad-field``);
6. ``players`` (a count the ruleset allows, else ``bad-field``);
7. then the ask's handler reads its own fields with the :class:`Scenario` helpers.

Rulesets and asks are registered here. A ruleset's asks live in their own module
(:data:`PROVIDERS`), imported only when a scenario of that ruleset arrives, so one ruleset's
module missing or broken never breaks the others. A provider module registers its asks with
:func:`register_ask`::

    from tutor.solve.common import register_ask

    @register_ask("trinidad", "turn-up", fields=("card",))
    def turn_up(s: Scenario) -> dict:
        card = s.card("card")
        ...

No web imports here: the same code serves ``tutor solve`` and ``POST /api/v1/solve``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import Card, Suit, parse_cards
from ..engine.errors import (
    BadFieldError,
    BadJsonError,
    DuplicateCardError,
    UnknownAskError,
    UnknownRulesetError,
    show,
)

__all__ = [
    "COMMON_FIELDS",
    "PROVIDERS",
    "RULESETS",
    "OptionSpec",
    "RulesetSpec",
    "Scenario",
    "check_disjoint",
    "get_ruleset",
    "parse_scenario",
    "register_ask",
    "register_ruleset",
]

#: Top-level fields every scenario may carry, whatever the ask.
COMMON_FIELDS = frozenset({"ruleset", "ask", "options", "players", "target"})


@dataclass(frozen=True)
class OptionSpec:
    """One ruleset option: allowed ``choices`` (the first is the default), or for an integer
    option (``choices=None``) the inclusive range ``minimum..maximum`` and ``default``."""

    name: str
    choices: tuple | None = None
    default: Any = None
    minimum: int = 1
    maximum: int = 999

    def __post_init__(self) -> None:
        if self.choices is not None and self.default is None:
            object.__setattr__(self, "default", self.choices[0])

    def check(self, value: object) -> object:
        """The value if allowed; raises :class:`BadFieldError` otherwise (a bool is not an int,
        and ``1`` is not ``true``)."""
        if self.choices is None:
            if isinstance(value, int) and not isinstance(value, bool) and self.minimum <= value <= self.maximum:
                return value
            raise BadFieldError(
                f"option {self.name} must be an integer from {self.minimum} to {self.maximum}, not {_show(value)}.")
        for c in self.choices:
            if type(c) is type(value) and c == value:
                return value
        allowed = ", ".join(_show(c) for c in self.choices)
        raise BadFieldError(f"option {self.name} must be one of {allowed}, not {_show(value)}.")


@dataclass
class RulesetSpec:
    """A ruleset of the contract: its player counts (first = default), options and asks.

    ``asks`` maps an ask name to ``(handler, fields)``: ``handler(Scenario) -> dict`` and the
    top-level fields the ask reads besides :data:`COMMON_FIELDS`.
    """

    name: str
    players: tuple[int, ...]
    options: dict[str, OptionSpec]
    asks: dict[str, tuple[Callable[[Scenario], dict], frozenset[str]]] = field(default_factory=dict)

    @property
    def default_players(self) -> int:
        return self.players[0]


def _opts(*specs: OptionSpec) -> dict[str, OptionSpec]:
    return {s.name: s for s in specs}


#: The rulesets of the contract. Hokm's target is 7 or 3 (seed 002 H24, RULES.md K14: the two
#: documented match targets; any other value is ``bad-field``). All Fours and Trinidad take any
#: integer target from 1 to 999 (the engine-allfours owner may narrow it with register_ruleset).
RULESETS: dict[str, RulesetSpec] = {
    "hokm": RulesetSpec("hokm", (4,), _opts(
        OptionSpec("target", (7, 3)),
        OptionSpec("stop_at_seven", (True, False)),
    )),
    "all-fours": RulesetSpec("all-fours", (2, 3, 4), _opts(
        OptionSpec("target", None, 7),
        OptionSpec("turnup_scale", ("jack", "running")),
        OptionSpec("low", ("dealt", "captured")),
        OptionSpec("game_tie", ("dealer-excluded", "nobody")),
        OptionSpec("void_rule", ("free", "must_trump")),
        OptionSpec("gift_may_win", (True, False)),
    )),
    "trinidad": RulesetSpec("trinidad", (4, 2), _opts(
        OptionSpec("target", None, 14),
        OptionSpec("kick_scale", ("standard", "tobago")),
        OptionSpec("jack", ("hang", "plain")),
        OptionSpec("void_rule", ("free", "must_trump")),
        OptionSpec("no_undertrump", (False, True)),
        OptionSpec("same_suit_kick_scores", (False, True)),
        OptionSpec("beg_point_may_win", (True, False)),
    )),
}

#: Module that registers each ruleset's asks; imported lazily on first use.
PROVIDERS: dict[str, str] = {
    "hokm": "tutor.solve.hokm",
    "all-fours": "tutor.solve.allfours",
    "trinidad": "tutor.solve.allfours",
}
_loaded: set[str] = set()


def register_ruleset(name: str, players: tuple[int, ...], options: Iterable[OptionSpec],
                     provider: str | None = None) -> RulesetSpec:
    """Add or replace a ruleset (keeps asks already registered). Returns its spec."""
    old = RULESETS.get(name)
    spec = RulesetSpec(name, tuple(players), _opts(*options), dict(old.asks) if old else {})
    RULESETS[name] = spec
    if provider:
        PROVIDERS[name] = provider
    return spec


def register_ask(ruleset: str, ask: str, fields: Iterable[str] = ()):
    """Decorator: register ``handler(Scenario) -> dict`` as ``ask`` of ``ruleset``; ``fields``
    are the top-level fields it reads (besides :data:`COMMON_FIELDS`)."""
    def deco(fn: Callable[[Scenario], dict]) -> Callable[[Scenario], dict]:
        RULESETS[ruleset].asks[ask] = (fn, frozenset(fields))
        return fn
    return deco


def get_ruleset(name: object) -> RulesetSpec:
    """The spec of ruleset ``name``, its provider module imported. Raises
    :class:`UnknownRulesetError`."""
    spec = RULESETS.get(name) if isinstance(name, str) else None
    if spec is None:
        known = ", ".join(RULESETS)
        raise UnknownRulesetError(f"ruleset must be one of {known}, not {_show(name)}.")
    provider = PROVIDERS.get(name)
    if provider and provider not in _loaded:
        try:
            importlib.import_module(provider)
        except ModuleNotFoundError as e:  # the provider is not written yet: the ruleset has no asks
            if e.name != provider:
                raise
        _loaded.add(provider)
    return spec


@dataclass
class Scenario:
    """A scenario after the common checks, with typed readers for the ask's fields.

    ``data``: the raw object; ``options``: every option of the ruleset, defaults filled in;
    ``players``: the player count. Readers raise :class:`BadFieldError` for a missing or malformed
    field, :class:`NotationError` (``bad-card``) for bad card/suit notation and
    :class:`DuplicateCardError` for a repeated card.
    """

    data: dict
    ruleset: str
    ask: str
    options: dict[str, Any]
    players: int

    def has(self, name: str) -> bool:
        """True if the field is present and not ``null``."""
        return self.data.get(name) is not None

    def _get(self, name: str, default: Any, required: bool) -> Any:
        value = self.data.get(name)
        if value is None:
            if required:
                raise BadFieldError(f"field {name} is required for ask {self.ask}.")
            return default
        return value

    def integer(self, name: str, lo: int, hi: int, default: int | None = None, required: bool = True) -> int | None:
        """An integer field in ``lo..hi``."""
        v = self._get(name, default, required and default is None)
        if v is None:
            return None
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise BadFieldError(f"field {name} must be an integer from {lo} to {hi}, not {_show(v)}.")
        return v

    def seat(self, name: str, default: int | None = None, required: bool = True) -> int | None:
        """A seat ``0..players-1``."""
        return self.integer(name, 0, self.players - 1, default, required)

    def int_list(self, name: str, length: int, lo: int, hi: int, required: bool = True) -> list[int] | None:
        """A list of exactly ``length`` integers, each in ``lo..hi``."""
        v = self._get(name, None, required)
        if v is None:
            return None
        if (not isinstance(v, list) or len(v) != length
                or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in v)):
            raise BadFieldError(
                f"field {name} must be a list of {length} integers from {lo} to {hi}, not {_show(v)}.")
        return list(v)

    def suit(self, name: str = "trump", required: bool = True) -> Suit | None:
        """A suit letter or symbol."""
        v = self._get(name, None, required)
        if v is None:
            return None
        if not isinstance(v, str):
            raise BadFieldError(f"field {name} must be a suit letter (S, H, D or C), not {_show(v)}.")
        return Suit.parse(v)

    def card(self, name: str) -> Card:
        """One card."""
        v = self._get(name, None, True)
        if not isinstance(v, str):
            raise BadFieldError(f"field {name} must be a card such as \"10H\", not {_show(v)}.")
        return Card.parse(v)

    def cards(self, name: str, *, required: bool = True, min_len: int = 0, max_len: int = 52,
              what: str | None = None) -> list[Card]:
        """A list of distinct cards with ``min_len..max_len`` entries (absent and not required:
        ``[]``)."""
        v = self._get(name, [], required)
        return _card_list(v, what or f"field {name}", min_len, max_len)

    def tricks(self, name: str = "tricks", size: int | None = None, max_count: int = 52) -> list[list[Card]]:
        """A list of tricks, each a list of exactly ``size`` (default ``players``) cards; no card
        may appear twice in the whole list (``duplicate-card``)."""
        size = size or self.players
        v = self._get(name, None, True)
        if not isinstance(v, list) or len(v) > max_count:
            raise BadFieldError(f"field {name} must be a list of at most {max_count} tricks, not {_show(v)}.")
        out = []
        seen: dict[int, int] = {}
        for n, t in enumerate(v, 1):
            trick = _card_list(t, f"trick {n}", size, size)
            for c in trick:
                if c in seen:
                    where = f"trick {seen[c]}" + ("" if seen[c] == n else f" and trick {n}")
                    raise DuplicateCardError(f"{c} appears twice ({where}).")
                seen[c] = n
            out.append(trick)
        return out

    def flag(self, name: str, default: bool | None = None) -> bool | None:
        """A ``true``/``false`` field."""
        v = self._get(name, default, default is None)
        if not isinstance(v, bool):
            raise BadFieldError(f"field {name} must be true or false, not {_show(v)}.")
        return v


def _card_list(v: object, what: str, min_len: int, max_len: int) -> list[Card]:
    if not isinstance(v, list):
        raise BadFieldError(f"{what} must be a list of cards, not {_show(v)}.")
    if not min_len <= len(v) <= max_len:
        n = f"{min_len}" if min_len == max_len else f"{min_len} to {max_len}"
        raise BadFieldError(f"{what} must have {n} cards, not {len(v)}.")
    return parse_cards(v, what=what)


def check_disjoint(**groups: Iterable[int]) -> None:
    """Raise :class:`DuplicateCardError` if a card is in two of the named groups of cards
    (e.g. ``hand`` and ``trick``)."""
    owner: dict[int, str] = {}
    for name, cards in groups.items():
        for c in cards:
            if c in owner and owner[c] != name:
                raise DuplicateCardError(f"{Card(int(c))} is in both {owner[c]} and {name}.")
            owner[c] = name


def parse_scenario(scenario: object) -> tuple[Scenario, Callable[[Scenario], dict]]:
    """Run the common checks (module docstring, steps 1-6); return the :class:`Scenario` and
    the ask's handler."""
    if not isinstance(scenario, dict):
        raise BadJsonError(f"a scenario must be a JSON object, not {type(scenario).__name__}.")
    spec = get_ruleset(scenario.get("ruleset"))
    ask = scenario.get("ask")
    if not isinstance(ask, str) or ask not in spec.asks:
        asks = ", ".join(sorted(spec.asks)) or "none yet"
        raise UnknownAskError(f"ruleset {spec.name} has no ask {_show(ask)} (its asks: {asks}).")
    handler, fields = spec.asks[ask]
    for key in scenario:
        if key not in COMMON_FIELDS and key not in fields:
            allowed = ", ".join(sorted(COMMON_FIELDS | fields))
            raise BadFieldError(f"unknown field {_show(key)} for ask {ask} (fields: {allowed}).")
    options = _parse_options(spec, scenario.get("options"), scenario.get("target"))
    players = scenario.get("players")
    if players is None:
        players = spec.default_players
    elif not isinstance(players, int) or isinstance(players, bool) or players not in spec.players:
        allowed = ", ".join(str(p) for p in sorted(spec.players))
        raise BadFieldError(f"players for {spec.name} must be one of {allowed}, not {_show(players)}.")
    return Scenario(scenario, spec.name, ask, options, players), handler


def _parse_options(spec: RulesetSpec, raw: object, top_target: object) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadFieldError(f"options must be an object, not {_show(raw)}.")
    out = {name: o.default for name, o in spec.options.items()}
    for key, value in raw.items():
        o = spec.options.get(key)
        if o is None:
            allowed = ", ".join(spec.options)
            raise BadFieldError(f"{spec.name} has no option {_show(key)} (its options: {allowed}).")
        out[key] = o.check(value)
    if top_target is not None:
        if "target" in raw and raw["target"] != top_target:
            raise BadFieldError(
                f"target {_show(top_target)} and options.target {_show(raw['target'])} differ; give one.")
        out["target"] = spec.options["target"].check(top_target)
    return out


def _show(value: object) -> str:
    """Short JSON rendering of a value for error messages (see :func:`tutor.engine.errors.show`)."""
    return show(value)
