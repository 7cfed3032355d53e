"""The ``first-lead`` ask of every ruleset: who leads the first trick of a deal (an extension of
``shared/spec/solve-format.md``; rule points H6, C19, T13).

``{"ruleset": "hokm", "ask": "first-lead", "hakem": 2}`` → ``{"leader": 2, "why": [hakem-leads]}``;
``{"ruleset": "trinidad", "ask": "first-lead", "dealer": 3}`` → ``{"leader": 0, "why":
[eldest-leads]}``. The ruleset's seat field (:attr:`~tutor.engine.rulesets.RulesetInfo.leader_field`)
is required; the other seat field is ``bad-field``.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import BadFieldError
from ..engine.rulesets import RULESETS
from .asks import FirstLead, field_kind
from .common import Scenario, register_ask

__all__ = ["first_lead"]


#: The seat fields of the ask (read once: ``model_fields`` is a property of the class).
_SEAT_FIELDS = tuple(FirstLead.model_fields)


@register_ask(FirstLead, *RULESETS)
def first_lead(s: Scenario[FirstLead]) -> dict[str, Any]:
    """``{"leader": seat, "why": [reason]}``: the hakem leads (H6), or the next player after the
    dealer in the order of play (C19, T13). Raises :class:`BadFieldError` when the ruleset's seat
    field is missing or the other one is given."""
    wanted = s.info.leader_field
    for name in _SEAT_FIELDS:
        if name != wanted and getattr(s.fields, name) is not None:
            raise BadFieldError(f"field {name} is not a field of ask first-lead for {s.info.name}: give {wanted}.")
    seat = getattr(s.fields, wanted)
    if seat is None:
        raise BadFieldError(field_kind(FirstLead, wanted).missing(wanted, FirstLead.ask))
    leader, why = s.info.first_lead(seat, s.players)
    return {"leader": leader, "why": [why.to_json()]}
