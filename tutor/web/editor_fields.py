"""The table editor's field checks (:func:`tutor.web.editor.check` calls them): each ask field's
spec as the editor shows it (:func:`field_specs`) and the problems the editor places at a field
path before and after the engine reads the scenario (``shared/spec/solve-format.md``): a card
written wrongly or placed twice, a list or trick of the wrong length, a missing field, a seat or a
count out of range, an option the ruleset does not allow, and an engine error placed at its field.
Messages are in the current language (Flask-Babel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from tutor import i18n
from tutor.engine.cards import Card, Suit
from tutor.engine.errors import IllegalPlayError, TutorError
from tutor.engine.options import option_fields, validate_options
from tutor.engine.rulesets import RULESETS, RulesetInfo
from tutor.solve.asks import AskModel, Cards, IntList, Limits, OneOf, Tricks, bound_at, field_kind

__all__ = ["Errors", "card_lists", "engine_error", "field_specs", "limits", "num", "other_fields", "tr"]

def tr(message: str) -> str:
    return _(message) if message else message


def _leader_fields() -> set[str]:
    return {r.leader_field for r in RULESETS.values()}


def field_specs(info: RulesetInfo, model: type[AskModel]) -> list[dict[str, Any]]:
    """The ask's fields as the editor shows them, in check order: ``name``, ``widget``, ``label``
    (translated), ``required`` and, for a choice, ``choices`` (``[value, label]``). A seat field
    that is another ruleset's leader field (``hakem`` in All Fours) is left out."""
    out = []
    others = _leader_fields() - {info.leader_field}
    for name, f in model.model_fields.items():
        if name in others:
            continue
        kind = field_kind(model, name)
        spec: dict[str, Any] = {"name": name, "widget": kind.widget, "label": tr(kind.label) or name,
                                "required": f.is_required() or name == info.leader_field}
        if isinstance(kind, OneOf):
            labels = kind.value_labels or kind.values
            spec["choices"] = [[v, tr(lab)] for v, lab in zip(kind.values, labels, strict=False)]
        out.append(spec)
    return out


def num(n: object) -> str:
    return i18n.fmt_number(n) if isinstance(n, int) and not isinstance(n, bool) else str(n)


class Errors(dict):
    """Field path -> message; the first problem found at a path is kept."""

    def add(self, path: str, message: str) -> None:
        self.setdefault(path, message)


def limits(info: RulesetInfo, scenario: Mapping, errors: Errors) -> tuple[Limits, Any] | None:
    """The scenario's limits and rules object, or None after noting the field at fault."""
    players = scenario.get("players")
    if players is None:
        players = info.default_players
    elif not (isinstance(players, int) and not isinstance(players, bool) and players in info.players):
        errors.add("players", _("Choose %(allowed)s players.",
                                allowed=i18n.join_list([num(p) for p in info.players], "or")))
        return None
    raw = scenario.get("options")
    if raw is not None and not isinstance(raw, Mapping):
        errors.add("options", _("The options must be a set of named values."))
        return None
    raw = dict(raw or {})
    if scenario.get("target") is not None:
        raw.setdefault("target", scenario["target"])
    fixed = {"players": players} if "players" in option_fields(info.options_model, scenario=False) else {}
    try:
        options = validate_options(info.options_model, raw, **fixed)
    except TutorError:
        allowed = option_fields(info.options_model)
        for key, value in raw.items():
            if key not in allowed:
                errors.add(f"options.{key}", _("%(game)s has no option %(name)s.", game=_(info.title), name=str(key)[:30]))
                continue
            try:
                validate_options(info.options_model, {key: value}, **fixed)
            except TutorError:
                errors.add(f"options.{key}", _("This value is not allowed here."))
        errors.add("options", _("This value is not allowed here."))
        return None
    rules = info.rules(options)
    return Limits(players, info.sides(players), max(rules.hand_sizes())), rules


def _where(label: str, index: int | None) -> str:
    return label if index is None else _("%(field)s, trick %(n)s", field=label, n=num(index + 1))


def card_lists(model: type[AskModel], scenario: Mapping, lim: Limits, rules: Any, errors: Errors) -> None:
    """Bad cards, cards in two places, lists of the wrong length, and a whole hand of the wrong
    number of tricks, at their paths."""
    seen: dict[int, str] = {}
    for name in model.model_fields:
        kind = field_kind(model, name)
        value = scenario.get(name)
        if value is None:
            continue
        label = tr(kind.label) or name
        if kind.widget == "card":
            _one_card(name, value, label, None, seen, errors)
        elif isinstance(kind, Cards):
            if not isinstance(value, list):
                errors.add(name, _("Place the cards on the table (a list of cards)."))
                continue
            lo, hi = bound_at(kind.minimum, lim), bound_at(kind.maximum, lim)
            for i, v in enumerate(value):
                _one_card(f"{name}[{i}]", v, label, None, seen, errors)
            _count(name, len(value), lo, hi, lim, errors)
        elif isinstance(kind, Tricks):
            if not isinstance(value, list):
                errors.add(name, _("Place the cards on the table (a list of tricks)."))
                continue
            if len(value) > kind.max_count:
                errors.add(name, _("Too many tricks: at most %(n)s.", n=num(kind.max_count)))
            sizes = rules.hand_sizes()
            if kind.whole_hand and len(value) not in sizes:
                errors.add(name, _("A whole hand is %(n)s tricks here; %(have)s are placed.",
                                   n=i18n.join_list([num(n) for n in sizes], "or"), have=num(len(value))))
            for t, trick in enumerate(value):
                if not isinstance(trick, list):
                    errors.add(f"{name}[{t}]", _("Place the cards on the table (a list of cards)."))
                    continue
                for i, v in enumerate(trick):
                    _one_card(f"{name}[{t}][{i}]", v, label, t, seen, errors)
                if len(trick) != lim.players:
                    errors.add(f"{name}[{t}]", _("A trick needs exactly %(n)s cards, one from each player; "
                                                 "this one has %(have)s.", n=num(lim.players), have=num(len(trick))))


def _one_card(path: str, value: object, label: str, trick: int | None, seen: dict[int, str],
              errors: Errors) -> None:
    try:
        if not isinstance(value, str):
            raise TypeError
        c = Card.parse(value)
    except (TutorError, TypeError):
        errors.add(path, _("%(value)s is not a card.", value=str(value)[:12]))
        return
    if c in seen:
        errors.add(path, _("Placed twice: %(card)s is already in %(where)s.",
                           card=i18n.card_label(c, prose=True), where=seen[c]))
        return
    seen[c] = _where(label, trick)


def _count(name: str, n: int, lo: int, hi: int, lim: Limits, errors: Errors) -> None:
    if lo == hi == lim.players and n != lo:
        errors.add(name, _("A trick needs exactly %(n)s cards, one from each player; this one has %(have)s.",
                           n=num(lo), have=num(n)))
    elif hi == lim.players - 1 and n > hi:
        errors.add(name, _("A trick in progress holds at most %(n)s cards (one player still has to play); "
                           "this one has %(have)s.", n=num(hi), have=num(n)))
    elif n > hi:
        errors.add(name, _("Too many cards: a hand here holds at most %(n)s, not %(have)s.",
                           n=num(hi), have=num(n)))
    elif n < lo:
        errors.add(name, _("Place at least %(n)s cards here.", n=num(lo)))


def other_fields(info: RulesetInfo, model: type[AskModel], scenario: Mapping, lim: Limits,
                  errors: Errors, missing: list[str]) -> None:
    """Missing fields (their paths also put in ``missing``), seats out of range, per-side numbers
    and choices."""
    for spec in field_specs(info, model):
        name = spec["name"]
        kind = field_kind(model, name)
        value = scenario.get(name)
        if value is None:
            if spec["required"] and name not in errors:
                errors.add(name, _("Set %(field)s.", field=spec["label"]))
                missing.append(name)
            continue
        if kind.widget == "seat":
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < lim.players):
                errors.add(name, _("Choose one of the %(n)s seats.", n=num(lim.players)))
        elif kind.widget == "suit":
            try:
                Suit.parse(value)
            except TutorError:
                errors.add(name, _("Choose a suit."))
        elif isinstance(kind, IntList):
            n = bound_at(kind.length, lim)
            if not (isinstance(value, list) and len(value) == n and all(
                    isinstance(x, int) and not isinstance(x, bool) and kind.minimum <= x <= kind.maximum
                    for x in value)):
                errors.add(name, _("Give %(n)s whole numbers from %(lo)s to %(hi)s.",
                                   n=num(n), lo=num(kind.minimum), hi=num(kind.maximum)))
        elif isinstance(kind, OneOf) and value not in kind.values:
            errors.add(name, _("Choose one of the answers offered."))


def engine_error(e: TutorError, model: type[AskModel], errors: Errors, ctx: i18n.ReasonContext) -> None:
    """Place an error the engine found (after the editor's own checks passed) at a field."""
    lists = [n for n in model.model_fields if field_kind(model, n).widget in ("tricks", "cards", "side-list")]
    main = lists[0] if lists else ""
    if isinstance(e, IllegalPlayError):
        params = e.reason.params if e.reason is not None else {}
        trick = params.get("later_trick") or params.get("trick")
        path = f"{main}[{int(trick) - 1}]" if isinstance(trick, int) and main == "tricks" else main
        text = i18n.render_reason(e.reason, **ctx) if e.reason is not None else ""
        errors.add(path, _("An illegal play: %(why)s", why=text) if text else _("A play here breaks the rules."))
    elif e.code == "impossible-state":
        path = "scores" if e.message.startswith("scores") and "scores" in model.model_fields else main
        errors.add(path, _("The rules cannot reach this situation (%(detail)s)", detail=e.message.rstrip(".")))
    else:
        errors.add(main, _("The engine cannot read this (%(detail)s)", detail=e.message.rstrip(".")))
