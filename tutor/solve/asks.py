"""The asks of the scenario contract as typed models (pydantic v2): one model per ask declares its
fields in the order they are checked, their types, ranges and defaults (``shared/spec/solve-format.md``
"Asks"; the common fields ``ruleset ask options players target`` are checked first, by
:func:`tutor.solve.common.parse_scenario`).

A field is declared with one of the field kinds of :mod:`tutor.solve.fields` (``Seat``, ``IntList``,
``SuitOf``, ``CardOf``, ``Cards``, ``Tricks``, ``OneOf``; the table of what each parses and the
error it gives is there); bounds that depend on the scenario come from the :class:`Limits` passed
as validation context. :func:`compiled` checks a well-formed scenario without pydantic, and
pydantic words the error of a bad one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from ..engine.cards import Card, Suit
from .fields import (
    N_,
    CardOf,
    Cards,
    FieldKind,
    IntList,
    Limits,
    OneOf,
    Seat,
    SuitOf,
    Tricks,
    _fail,
    bound_at,
    hand_max,
    players,
    players_less_one,
    sides,
)

__all__ = [
    "ASK_MODELS",
    "AskModel",
    "CardOf",
    "Cards",
    "FieldKind",
    "HandScore",
    "IntList",
    "LegalPlays",
    "Limits",
    "MakeTrump",
    "OneOf",
    "RoundPlayout",
    "RoundScore",
    "Seat",
    "SuitOf",
    "TrickWinner",
    "Tricks",
    "TurnUp",
    "bound_at",
    "compiled",
    "field_kind",
]


class AskModel(BaseModel):
    """Base of the ask models: the ask's own fields (besides the common ones), validated in
    declaration order with :class:`Limits` as context. ``ask`` names the ask."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    ask: ClassVar[str] = ""
    #: The question the ask answers, for people (a message id; the table editor's menu).
    title: ClassVar[str] = ""


def field_kind(model: type[AskModel], name: str) -> FieldKind:
    """The :class:`FieldKind` that declares field ``name`` of ``model``."""
    return next(m for m in model.model_fields[name].metadata if isinstance(m, FieldKind))


#: A required field in :func:`compiled`'s plan.
_REQUIRED = object()
# the slots of every pydantic model, set as model_construct sets them (without __setattr__)
_set_dict = object.__setattr__
_set_fields_set = vars(BaseModel)["__pydantic_fields_set__"].__set__
_set_extra = vars(BaseModel)["__pydantic_extra__"].__set__
_set_private = vars(BaseModel)["__pydantic_private__"].__set__


@functools.cache
def compiled(model: type[AskModel]) -> Callable[[Mapping[str, object], Limits], AskModel | None]:
    """``check(scenario, limits)``: the model's instance for the ask fields of ``scenario`` (a
    decoded JSON object; ``null`` is a missing field), the same as ``model.model_validate`` of those
    fields with ``limits`` as context — or ``None`` where any check fails, so that the caller
    validates again with pydantic, which finds the first problem and gives its error (issue 21).

    Made once per model: each field's :meth:`FieldKind.parse` called in declaration order, then
    the model's ``after`` validators; the instance is set up as ``model_construct`` sets it (the
    values and the fields given), at a fifth of the cost of ``model_validate``. Tested against
    ``model_validate`` on every scenario of ``tests/data/solve_golden.jsonl.gz``.
    """
    plan = []
    for name, f in model.model_fields.items():
        default = _REQUIRED if f.is_required() else f.default
        assert not isinstance(default, list | dict) or not default, "a mutable default would be shared"
        plan.append((name, field_kind(model, name).parse, default, isinstance(default, list)))
    after = [d.func for d in model.__pydantic_decorators__.model_validators.values() if d.info.mode == "after"]
    assert not model.__pydantic_decorators__.field_validators and not model.__pydantic_decorators__.validators
    new, every = model.__new__, frozenset(model.model_fields)

    def check(scenario: Mapping[str, object], lim: Limits) -> AskModel | None:
        values: dict[str, object] = {}
        defaulted = False
        try:
            for name, parse, default, fresh in plan:
                value = scenario.get(name)
                if value is None:
                    if default is _REQUIRED:
                        return None
                    values[name] = [] if fresh else default
                    defaulted = True
                else:
                    values[name] = parse(value, name, lim)
            m = new(model)
            _set_dict(m, "__dict__", values)
            _set_fields_set(m, {k for k in every if scenario.get(k) is not None} if defaulted else set(every))
            _set_extra(m, None)
            _set_private(m, None)
            for fn in after:  # an after-validator gives the instance kept, as pydantic keeps it
                m = fn(m)
        except Exception:  # noqa: BLE001 - pydantic's validation, run next, raises it the contract's way
            return None
        return m
    return check


def _disjoint(**groups: Sequence[int]) -> None:
    """``duplicate-card`` if a card is in two of the named groups (e.g. ``hand`` and ``trick``)."""
    lists = groups.values()
    if len(set().union(*lists)) == sum(map(len, lists)):  # each group's cards are distinct (checked by its field)
        return
    seen = overlap = 0
    for cards in lists:
        mask = 0
        for c in cards:
            mask |= 1 << c
        overlap |= seen & mask
        seen |= mask
    if not overlap:
        return
    owner: dict[int, str] = {}
    for name, cards in groups.items():
        for c in cards:
            if c in owner and owner[c] != name:
                raise _fail("duplicate-card", f"{Card(int(c))} is in both {owner[c]} and {name}.")
            owner[c] = name


#: Seats, scores and cards per side: the scores before the deal or round (0..999 each).
Scores = Annotated[list[int] | None, IntList(sides, 0, 999, label=N_("Scores before"))]


class LegalPlays(AskModel):
    """``legal-plays`` (all rulesets): ``hand`` (1 to the largest hand, distinct) and ``trick``
    (the cards played so far, 0 to ``players - 1``; none when leading); a card in both is
    ``duplicate-card``."""

    ask: ClassVar[str] = "legal-plays"
    title: ClassVar[str] = N_("Which cards may be played?")
    trump: Annotated[Suit, SuitOf(label=N_("Trump"))]
    hand: Annotated[list[Card], Cards(1, hand_max, unordered=True, label=N_("The hand of the player to move"))]
    trick: Annotated[list[Card], Cards(0, players_less_one, label=N_("Cards already in the trick"))] = []

    @model_validator(mode="after")
    def _hand_and_trick_are_disjoint(self) -> LegalPlays:
        _disjoint(hand=self.hand, trick=self.trick)
        return self


class TrickWinner(AskModel):
    """``trick-winner`` (all rulesets): ``trick``, exactly ``players`` cards in play order, led by
    ``leader`` (default 0)."""

    ask: ClassVar[str] = "trick-winner"
    title: ClassVar[str] = N_("Who wins the trick?")
    trump: Annotated[Suit, SuitOf(label=N_("Trump"))]
    trick: Annotated[list[Card], Cards(players, players, label=N_("The trick"))]
    leader: Annotated[int, Seat(label=N_("Who led"))] = 0


class RoundScore(AskModel):
    """``round-score`` (hokm): ``hakem``, ``team_tricks`` (two counts 0..13 when the round ended)
    and optional ``scores`` (match points before the round)."""

    ask: ClassVar[str] = "round-score"
    title: ClassVar[str] = N_("What does the round score?")
    hakem: Annotated[int, Seat(label=N_("Hakem"))]
    team_tricks: Annotated[list[int], IntList(2, 0, 13, label=N_("Tricks won by each team"))]
    scores: Scores = None


class RoundPlayout(AskModel):
    """``round-playout`` (hokm): the ``tricks`` of a round (at most 13, four cards each), the
    hakem leading the first; optional ``scores``."""

    ask: ClassVar[str] = "round-playout"
    title: ClassVar[str] = N_("Play out a round, trick by trick")
    hakem: Annotated[int, Seat(label=N_("Hakem"))]
    trump: Annotated[Suit, SuitOf(label=N_("Trump"))]
    tricks: Annotated[list[list[Card]], Tricks(13, label=N_("The tricks"))]
    scores: Scores = None


class TurnUp(AskModel):
    """``turn-up`` (all-fours, trinidad): the turned-up ``card``."""

    ask: ClassVar[str] = "turn-up"
    title: ClassVar[str] = N_("What does the turned-up card score?")
    card: Annotated[Card, CardOf(label=N_("Turned-up card"))]


class MakeTrump(AskModel):
    """``make-trump`` (all-fours, trinidad): ``dealer``, every card turned up in order (1..52),
    ``decision`` (stand or beg), ``dealer_choice`` (give or run, after a beg) and optional
    ``scores`` before the deal."""

    ask: ClassVar[str] = "make-trump"
    title: ClassVar[str] = N_("Stand or beg: which suit is trump?")
    dealer: Annotated[int, Seat(label=N_("Dealer"))]
    turn_ups: Annotated[list[Card], Cards(1, 52, label=N_("Turned-up cards"))]
    decision: Annotated[Literal["stand", "beg"], OneOf(("stand", "beg"), label=N_("The eldest"),
                                                        value_labels=(N_("stands"), N_("begs")))]
    dealer_choice: Annotated[Literal["give", "run"] | None, OneOf(
        ("give", "run"), label=N_("The dealer"), value_labels=(N_("gives one"), N_("runs the cards")))] = None
    scores: Scores = None


class HandScore(AskModel):
    """``hand-score`` (all-fours, trinidad): ``dealer``, ``trump``, every trick of the hand (at
    most 52 listed; a count the ruleset does not allow is ``impossible-state``, checked by the
    engine) and optional ``scores``."""

    ask: ClassVar[str] = "hand-score"
    title: ClassVar[str] = N_("Score a hand: High, Low, Jack and Game")
    dealer: Annotated[int, Seat(label=N_("Dealer"))]
    trump: Annotated[Suit, SuitOf(label=N_("Trump"))]
    tricks: Annotated[list[list[Card]], Tricks(52, whole_hand=True, label=N_("The tricks"))]
    scores: Scores = None


class FirstLead(AskModel):
    """``first-lead`` (all rulesets): who leads the first trick of a deal — the ``hakem`` (hokm),
    or the player after the ``dealer`` in the order of play (all-fours, trinidad). The ruleset's
    seat field is required and the other is ``bad-field`` (the handler checks which)."""

    ask: ClassVar[str] = "first-lead"
    title: ClassVar[str] = N_("Who leads the first trick?")
    hakem: Annotated[int | None, Seat(label=N_("Hakem"))] = None
    dealer: Annotated[int | None, Seat(label=N_("Dealer"))] = None


class NextLead(AskModel):
    """``next-lead`` (all rulesets): who leads the next trick — the winner of ``trick`` (exactly
    ``players`` cards in play order, led by ``leader``, default 0)."""

    ask: ClassVar[str] = "next-lead"
    title: ClassVar[str] = N_("Who leads the next trick?")
    trump: Annotated[Suit, SuitOf(label=N_("Trump"))]
    trick: Annotated[list[Card], Cards(players, players, label=N_("The trick"))]
    leader: Annotated[int, Seat(label=N_("Who led"))] = 0


#: Every ask model by ask name.
ASK_MODELS: dict[str, type[AskModel]] = {m.ask: m for m in (
    LegalPlays, TrickWinner, RoundScore, RoundPlayout, TurnUp, MakeTrump, HandScore, FirstLead, NextLead)}
