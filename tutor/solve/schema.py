"""JSON Schemas of the scenario contract, made from its models (never written by hand): the
scenarios of every ruleset and ask (:func:`scenario_schemas`), the answers (:data:`ANSWER_MODELS`)
and the error object (:class:`ErrorObject`). :mod:`tutor.web.openapi` puts them in the API's
OpenAPI document; ``shared/spec/solve-format.md`` is the contract they describe.

Schemas are JSON Schema 2020-12 (OpenAPI 3.1). A scenario schema lists the ask's fields with
their types and the bounds the ruleset allows under any options (e.g. seats ``0..3``, a hand of
1 to 21 cards in All Fours); a scenario inside those bounds may still be refused for its own
player count or options, with the contract's error.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..engine.options import options_schema
from ..engine.rulesets import RULESETS, get_ruleset
from .asks import AskModel, field_kind
from .common import COMMON_FIELDS, asks_of, limits_range
from .fields import CARD_SCHEMA

__all__ = [
    "ANSWER_MODELS",
    "ERROR_CODES",
    "ErrorObject",
    "answer_schema",
    "scenario_schemas",
]

#: Error codes of the scenario contract (solve-format "Transport"), and the project's
#: ``internal-error`` (an engine bug: an error object instead of a traceback).
ERROR_CODES = ("bad-json", "bad-card", "duplicate-card", "unknown-ruleset", "unknown-ask", "bad-field",
               "illegal-play", "impossible-state", "internal-error")

Seat = int
Side = int
Card = str


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Reason(BaseModel):
    """One reason of ``why``: ``code`` (the explanation's key), ``rule`` (the rule point applied,
    e.g. ``H14``, ``C20``, ``K12``, or several joined by commas, the first the main one: ``H16,H3``
    is the trick's winner decided by the rank order; :func:`tutor.rules.cited` reads it) and
    ``params`` (the cards, suits, seats and numbers of this hand)."""

    model_config = ConfigDict(extra="forbid")
    code: str
    rule: str = Field(pattern=r"^[CTHK][0-9]+(,[CTHK][0-9]+)*$")
    params: dict[str, Any]


class AwardOut(_Out):
    """Points one side scored: turn-up or kick, gift or take-one, High, Low, Jack, hang-jack, Game."""

    category: Literal["turn-up", "kick", "gift", "take-one", "high", "low", "jack", "hang-jack", "game"]
    side: Side = Field(ge=0, le=3)
    points: int = Field(ge=1)


class LegalPlaysAnswer(_Out):
    """``legal-plays``: the cards of ``hand`` that may be played, in the order of ``hand``."""

    legal: list[Card]
    why: list[Reason]


class TrickWinnerAnswer(_Out):
    """``trick-winner``: the seat that wins the trick and its card."""

    winner: Seat = Field(ge=0, le=3)
    card: Card
    why: list[Reason]


class RoundScoreAnswer(_Out):
    """``round-score``: the round's value (1 win, 2 kot, 3 hakem-kot), the next hakem, and with
    ``scores`` the match score after it and the match winner."""

    winner_team: int = Field(ge=0, le=1)
    points: Literal[1, 2, 3]
    result: Literal["win", "kot", "hakem-kot"]
    next_hakem: Seat = Field(ge=0, le=3)
    scores_after: list[int] | None = Field(None, min_length=2, max_length=2)
    match_winner: int | None = Field(None, ge=0, le=1)
    why: list[Reason]


class RoundPlayoutAnswer(_Out):
    """``round-playout``: each trick's winner, tricks per team and, once a team has 7, the
    round's value (``null`` before)."""

    trick_winners: list[Seat]
    team_tricks: list[int] = Field(min_length=2, max_length=2)
    winner_team: int | None = Field(ge=0, le=1)
    points: Literal[1, 2, 3] | None
    result: Literal["win", "kot", "hakem-kot"] | None
    next_hakem: Seat | None = Field(ge=0, le=3)
    scores_after: list[int] | None = Field(None, min_length=2, max_length=2)
    match_winner: int | None = Field(None, ge=0, le=1)
    why: list[Reason]


class TurnUpAnswer(_Out):
    """``turn-up``: what the dealer's side scores for the turned-up card."""

    points: int = Field(ge=0)
    why: list[Reason]


class MakeTrumpAnswer(_Out):
    """``make-trump``: trump (``null`` on a redeal), points per side, runs, the hand size at the
    start of play, whether the pack ran out, the awards in order; with ``scores`` the scores after
    and the winner."""

    trump: Literal["S", "H", "D", "C"] | None
    points: list[int]
    runs: int = Field(ge=0)
    hand_size: int | None
    redeal: bool
    awards: list[AwardOut]
    scores_after: list[int] | None = None
    winner: Side | None = None
    why: list[Reason]


class HandScoreAnswer(_Out):
    """``hand-score``: each trick's winner, the awards in counting order (High, Low, Jack or
    hang-jack, Game), Game points and points per side; with ``scores`` the scores after and the
    winner."""

    trick_winners: list[Seat]
    awards: list[AwardOut]
    game_points: list[int]
    points: list[int]
    scores_after: list[int] | None = None
    winner: Side | None = None
    why: list[Reason]


#: The answer model of each ask.
class FirstLeadAnswer(_Out):
    """``first-lead``: the seat that leads the first trick of the deal."""

    leader: Seat = Field(ge=0, le=3)
    why: list[Reason]


class NextLeadAnswer(_Out):
    """``next-lead``: the seat that leads the next trick (the trick's winner) and its card."""

    leader: Seat = Field(ge=0, le=3)
    card: str
    why: list[Reason]


ANSWER_MODELS: dict[str, type[BaseModel]] = {
    "legal-plays": LegalPlaysAnswer, "trick-winner": TrickWinnerAnswer, "round-score": RoundScoreAnswer,
    "round-playout": RoundPlayoutAnswer, "turn-up": TurnUpAnswer, "make-trump": MakeTrumpAnswer,
    "hand-score": HandScoreAnswer, "first-lead": FirstLeadAnswer, "next-lead": NextLeadAnswer,
}


class ErrorDetail(BaseModel):
    """``code``: a kebab-case error code; ``message``: one clear sentence."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[a-z]+(-[a-z]+)*$")
    message: str


class ErrorObject(BaseModel):
    """The error object of the contract and of the whole API: ``{"error": {"code", "message"}}``."""

    model_config = ConfigDict(extra="forbid")
    error: ErrorDetail


def answer_schema(model: type[BaseModel]) -> dict[str, Any]:
    """JSON Schema of an answer model; an optional field that is absent stays absent (never
    ``null`` unless the model says so)."""
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _ask_schema(ruleset: str, model: type[AskModel]) -> dict[str, Any]:
    info = get_ruleset(ruleset)
    lo, hi = limits_range(ruleset)
    options = options_schema(info.options_model)
    target = dict(options["properties"]["target"])
    target.pop("default", None)
    props: dict[str, Any] = {
        "ruleset": {"const": ruleset},
        "ask": {"const": model.ask},
        "options": _nullable(options),
        "players": _nullable({"type": "integer", "enum": list(info.players), "default": info.default_players}),
        "target": _nullable(target),
    }
    required = ["ruleset", "ask"]
    for name, f in model.model_fields.items():
        schema = field_kind(model, name).json_schema(lo, hi)
        if f.is_required():
            required.append(name)
            props[name] = schema
        else:
            if f.default not in (None, []):
                schema = {**schema, "default": f.default}
            props[name] = _nullable(schema)
    assert tuple(props)[:len(COMMON_FIELDS)] == COMMON_FIELDS
    return {"title": f"{ruleset} {model.ask}", "description": (model.__doc__ or "").strip(), "type": "object",
            "properties": props, "required": required, "additionalProperties": False}


def scenario_schemas() -> dict[str, dict[str, Any]]:
    """Named schemas: ``Scenario`` (one of the rulesets, by ``ruleset``), per ruleset
    ``Scenario-<ruleset>`` (one of its asks, by ``ask``) and ``Scenario-<ruleset>-<ask>``, and
    ``Options-<ruleset>``; references are ``#/components/schemas/<name>``."""
    out: dict[str, dict[str, Any]] = {}
    ref = "#/components/schemas/"
    by_ruleset = {}
    for name in RULESETS:
        out[f"Options-{name}"] = options_schema(get_ruleset(name).options_model)
        mapping = {}
        for ask, spec in asks_of(name).items():
            key = f"Scenario-{name}-{ask}"
            out[key] = _ask_schema(name, spec.model)
            mapping[ask] = ref + key
        out[f"Scenario-{name}"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                                   "discriminator": {"propertyName": "ask", "mapping": mapping}}
        by_ruleset[name] = ref + f"Scenario-{name}"
    out["Scenario"] = {"description": "One scenario: `ruleset`, `ask`, the common fields and the fields of that ask "
                                      "(solve-format.md). `null` for an optional field is the same as leaving it out.",
                       "oneOf": [{"$ref": r} for r in by_ruleset.values()],
                       "discriminator": {"propertyName": "ruleset", "mapping": by_ruleset}}
    out["Card"] = dict(CARD_SCHEMA)
    return out
