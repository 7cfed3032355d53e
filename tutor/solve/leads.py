"""The ``first-lead`` and ``next-lead`` asks of every ruleset: who leads the first trick of a deal,
and who leads the trick after a given one (extensions of ``shared/spec/solve-format.md``; rule
points H6, C19, T13; H17, C22, T13).

``{"ruleset": "hokm", "ask": "first-lead", "hakem": 2}`` → ``{"leader": 2, "why": [hakem-leads]}``;
``{"ruleset": "trinidad", "ask": "first-lead", "dealer": 3}`` → ``{"leader": 0, "why":
[eldest-leads]}``; ``{"ruleset": "hokm", "ask": "next-lead", "trump": "S", "trick": ["AD", "2S",
"KD", "JS"]}`` → ``{"leader": 3, "card": "JS", "why": [highest-trump-wins, winner-leads]}``. The
ruleset's seat field (:attr:`~tutor.engine.rulesets.RulesetInfo.leader_field`)
is required; the other seat field is ``bad-field``.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import BadFieldError
from ..engine.rulesets import RULESETS
from .asks import FirstLead, NextLead, field_kind
from .common import Scenario, register_ask

__all__ = ["first_lead", "next_lead"]


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


@register_ask(NextLead, *RULESETS)
def next_lead(s: Scenario[NextLead]) -> dict[str, Any]:
    """``{"leader": seat, "card": card, "why": [reasons]}``: the winner of the trick (its reason,
    as ``trick-winner`` gives it: H16, C22, T16) leads the next trick (``winner-leads``: H17,
    C22, T13)."""
    seat, card, why = s.rules.trick_winner(s.fields.trick, s.fields.trump, s.fields.leader)
    return {"leader": seat, "card": str(card), "why": [why.to_json(), s.info.winner_leads(seat).to_json()]}
