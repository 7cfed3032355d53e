"""Ruleset options as typed models (pydantic v2): the one place where option fields, types, allowed
values, ranges and defaults are declared (RULES.md §3.3; ``shared/spec/solve-format.md``
"Common fields").

Each ruleset declares one options class with :func:`options_model` (:class:`~tutor.engine.hokm_rules.HokmOptions`,
:class:`~tutor.engine.allfours.AllFoursOptions`, :class:`~tutor.engine.trinidad.TrinidadOptions`):
a frozen pydantic dataclass, strict (a bool is not an int, ``1`` is not ``true``, ``7.0`` is not
``7``), with extra fields forbidden. A field is one of

* a choice: ``Annotated[Literal[...], EXACT]`` — the first value is the default — or ``bool``
  (default first, then the other value);
* an integer range: ``Annotated[int, Field(ge=lo, le=hi)]``;
* a player count: ``Annotated[int, PlayerCount(ruleset)]``, the counts that
  :attr:`tutor.engine.rulesets.RulesetInfo.players` allows (first = default).

A field marked :data:`SETUP_ONLY` sets up a whole game (e.g. how the first hakem is found) and is
not an option of a scenario; a player count is a scenario's top-level ``players`` field, not an
option. Constructing a model with a bad value raises
:class:`~tutor.engine.errors.BadFieldError` (code ``bad-field``) with the contract's message,
e.g. ``option low must be one of "dealt", "captured", not "won".`` (see :func:`option_error`).
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

import annotated_types
from pydantic import BeforeValidator, ConfigDict, GetCoreSchemaHandler, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass as pydantic_dataclass
from pydantic.fields import FieldInfo
from pydantic_core import ArgsKwargs, core_schema

from .errors import BadFieldError, show

__all__ = [
    "EXACT",
    "SETUP_ONLY",
    "Labels",
    "OptionsModel",
    "PlayerCount",
    "choices_of",
    "labels_of",
    "option_error",
    "option_fields",
    "options_model",
    "options_schema",
    "range_of",
    "validate_options",
]

T = TypeVar("T")


def _exact_json_type(value: object) -> object:
    """Refuse what JSON would write differently from the choices: ``7.0`` is not ``7``, ``true`` is
    not ``1``."""
    if isinstance(value, bool | float):
        raise ValueError("not an integer")
    return value


#: Annotated metadata for an integer ``Literal`` choice: no float and no bool matches it.
EXACT = BeforeValidator(_exact_json_type)


class _SetupOnly:
    def __repr__(self) -> str:
        return "SETUP_ONLY"


#: Annotated metadata: a field that sets up a whole game, not an option of a scenario.
SETUP_ONLY = _SetupOnly()


@dataclass(frozen=True)
class Labels:
    """Annotated metadata: how each value of a choice option reads for people (message ids, in
    the order of the choices, default first; translated where shown: the table editor). The
    option's own name for people is its pydantic ``Field(title=...)``."""

    values: tuple[str, ...]


def labels_of(model: type, name: str) -> tuple[str, ...] | None:
    """The :class:`Labels` of option ``name``'s values (``None`` where it declares none)."""
    f = model.__pydantic_fields__[name]  # type: ignore[attr-defined]
    found = next((m for m in f.metadata if isinstance(m, Labels)), None)
    return found.values if found is not None else None


@dataclass(frozen=True)
class PlayerCount:
    """Annotated metadata: a player count that ruleset ``ruleset`` allows, read from the ruleset
    registry (:attr:`tutor.engine.rulesets.RulesetInfo.players`; first = default)."""

    ruleset: str

    def allowed(self) -> tuple[int, ...]:
        players: tuple[int, ...] = self._info().players
        return players

    def _info(self) -> Any:
        from .rulesets import get_ruleset  # the registry imports the engine modules
        return get_ruleset(self.ruleset)

    def default(self) -> int:
        """The ruleset's default player count (a ``default_factory``)."""
        return self.allowed()[0]

    def message(self, value: object) -> str:
        """The contract's message for a count the ruleset does not allow."""
        return str(self._info().players_message(value))

    def _validate(self, value: int) -> int:
        if value not in self.allowed():
            raise ValueError("not an allowed player count")
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._validate, handler(source))


class OptionsModel(typing.Protocol):
    """What :func:`options_model` classes carry besides their fields."""

    ruleset: ClassVar[str]
    __pydantic_fields__: ClassVar[dict[str, FieldInfo]]


_CONFIG = ConfigDict(strict=True, extra="forbid")


def options_model(ruleset: str) -> Callable[[type[T]], type[T]]:
    """Class decorator: make ``cls`` the frozen, strict pydantic options model of ``ruleset``.

    Constructing it with a value outside its declaration raises :class:`BadFieldError` with the
    message of :func:`option_error`; ``dataclasses.replace`` re-validates the same way.
    """
    def wrap(cls: type[T]) -> type[T]:
        cls.ruleset = ruleset  # type: ignore[attr-defined]
        model = pydantic_dataclass(cls, frozen=True, slots=True, config=_CONFIG)
        validated_init = model.__init__

        @functools.wraps(validated_init)
        def __init__(self: object, *args: Any, **kw: Any) -> None:
            try:
                validated_init(self, *args, **kw)
            except ValidationError as e:
                raise option_error(model, e) from None

        model.__init__ = __init__  # type: ignore[method-assign]
        for name in option_fields(model, scenario=False):
            choices = choices_of(model, name)
            default = model.__pydantic_fields__[name].default
            if choices is not None and choices[0] != default:
                raise TypeError(f"{model.__name__}.{name}: the default must be the first choice")
        return typing.cast(type[T], model)
    return wrap


@functools.cache
def option_fields(model: type, scenario: bool = True) -> dict[str, FieldInfo]:
    """The fields of an options model in declaration order; with ``scenario`` only the options a
    scenario's ``options`` object may set (no player count, nothing :data:`SETUP_ONLY`). Cached:
    do not change the dict."""
    fields: dict[str, FieldInfo] = model.__pydantic_fields__  # type: ignore[attr-defined]
    if not scenario:
        return dict(fields)
    return {n: f for n, f in fields.items()
            if not any(m is SETUP_ONLY or isinstance(m, PlayerCount) for m in f.metadata)}


def choices_of(model: type, name: str) -> tuple[Any, ...] | None:
    """The allowed values of a choice field, default first (``None`` for a range or a count)."""
    f = model.__pydantic_fields__[name]  # type: ignore[attr-defined]
    if f.annotation is bool:
        return (f.default, not f.default)
    if typing.get_origin(f.annotation) is Literal:
        return typing.get_args(f.annotation)
    return None


def range_of(model: type, name: str) -> tuple[int, int] | None:
    """``(minimum, maximum)`` of an integer range field (``None`` for a choice or a count)."""
    f = model.__pydantic_fields__[name]  # type: ignore[attr-defined]
    lo = next((m.ge for m in f.metadata if isinstance(m, annotated_types.Ge)), None)
    hi = next((m.le for m in f.metadata if isinstance(m, annotated_types.Le)), None)
    return (int(lo), int(hi)) if isinstance(lo, int) and isinstance(hi, int) else None


def _player_count(model: type, name: str) -> PlayerCount | None:
    f = model.__pydantic_fields__[name]  # type: ignore[attr-defined]
    return next((m for m in f.metadata if isinstance(m, PlayerCount)), None)


def value_message(model: type, name: str, value: object) -> str:
    """The contract's message for a bad ``value`` of option ``name``."""
    count = _player_count(model, name)
    if count is not None:
        return count.message(value)
    choices = choices_of(model, name)
    if choices is not None:
        allowed = ", ".join(show(c) for c in choices)
        return f"option {name} must be one of {allowed}, not {show(value)}."
    lo, hi = range_of(model, name) or (None, None)
    return f"option {name} must be an integer from {lo} to {hi}, not {show(value)}."


def unknown_message(model: type, key: object) -> str:
    """The contract's message for an option ``key`` the ruleset does not have."""
    allowed = ", ".join(option_fields(model))
    return f"{model.ruleset} has no option {show(key)} (its options: {allowed})."  # type: ignore[attr-defined]


def option_error(model: type, error: ValidationError, order: Sequence[object] = ()) -> BadFieldError:
    """The :class:`BadFieldError` for the first problem of ``error`` (a validation of ``model``):
    the first in ``order`` (the keys as given) if given, else in field order."""
    problems = [e for e in error.errors() if e["loc"]]
    if not problems:
        return BadFieldError(f"the options of {getattr(model, 'ruleset', '?')} are not valid.")
    rank = {k: i for i, k in enumerate(order)}
    first = min(problems, key=lambda e: rank.get(e["loc"][0], len(rank)))
    name = first["loc"][0]
    fields = model.__pydantic_fields__  # type: ignore[attr-defined]
    if name not in fields:
        return BadFieldError(unknown_message(model, name))
    return BadFieldError(value_message(model, str(name), first["input"]))


def validate_options(model: type[T], raw: object, **fixed: Any) -> T:
    """An instance of ``model`` from a scenario's ``options`` object ``raw`` (``None``: every
    default) plus ``fixed`` fields (e.g. ``players``). Raises :class:`BadFieldError` for ``raw``
    not an object, or for the first key, in the order given, that the ruleset lacks or whose value
    it does not allow (then for a bad ``fixed`` value)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise BadFieldError(f"options must be an object, not {show(raw)}.")
    allowed = option_fields(typing.cast(type, model))
    known = {k: v for k, v in raw.items() if k in allowed}
    result: T | None = None
    error: ValidationError | None = None
    try:
        result = _validate(model, {**known, **fixed})
    except ValidationError as e:
        error = e
    bad = {e["loc"][0] for e in error.errors() if e["loc"]} if error is not None else set()
    for key in raw:
        if key not in allowed:
            raise BadFieldError(unknown_message(model, key))
        if key in bad:
            break
    if error is not None:
        raise option_error(model, error, list(raw))
    assert result is not None
    return result


def _validate(model: type[T], data: dict[str, Any]) -> T:
    """``model(**data)``, raising pydantic's ValidationError (every problem, with its location)."""
    obj = object.__new__(model)
    model.__pydantic_validator__.validate_python(ArgsKwargs((), data), self_instance=obj)  # type: ignore[attr-defined]
    return obj


@functools.cache
def _adapter(model: type[T]) -> TypeAdapter[T]:
    return TypeAdapter(model)


def options_schema(model: type) -> dict[str, Any]:
    """The JSON Schema of a scenario's ``options`` object for ``model`` (only
    :func:`option_fields`; every key optional, defaults shown)."""
    schema = _adapter(model).json_schema()
    keep = option_fields(model)
    schema["properties"] = {k: v for k, v in schema["properties"].items() if k in keep}
    schema.pop("required", None)
    schema["title"] = f"{model.__name__}"
    return schema

