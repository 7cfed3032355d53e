"""The table editor: what it needs to draw (:func:`editor_config`) and what it asks the engine
(:func:`check`), shared by the "Ask the rules" sandbox and the teacher's question form.

The editor sets up one scenario of the contract (``shared/spec/solve-format.md``): a ruleset of
:data:`~tutor.engine.rulesets.RULESETS`, one of its asks (:func:`tutor.solve.asks_of`), the
ask's fields and the ruleset's options. Everything it shows comes from those registries: each
ask field's widget and label from its :class:`~tutor.solve.asks.FieldKind`, the options from the
ruleset's options model, the seats and sides from the ruleset; nothing here names a ruleset,
an ask or a kind.

:func:`check` answers a scenario the way ``tutor solve`` does (the same :func:`tutor.solve.solve`)
and adds, in the current language (:func:`tutor.i18n.current_lang`):

* ``errors``: ``{field path: message}``, the field that causes each problem the editor can
  place — a card written wrongly (``hand[2]``), a card in two places (the second place), too many
  or too few cards (``hand``; an impossible deal), a trick of the wrong length (``trick``,
  ``tricks[3]``), a missing field, a seat or a count out of range, an option the ruleset does not
  allow (``options.low``), an illegal play in a transcript (``tricks[4]``), and with an answer
  key (``expect``, a teacher's) every key field the engine disagrees with (``expect.legal``);
* ``why``: the engine's reasons with ``text`` (rendered for the learner's seat ``you``, who sits
  at the bottom of the editor's table);
* ``you`` and ``seats``: the learner's seat, as the learner's page and the teacher's preview seat
  the learner (:func:`tutor.domain.table.default_you` of the kind), and every seat's name and
  number from there (:func:`tutor.i18n.seat_names`, the one place seats are numbered for
  display), so that a prompt naming "seat 2" names the seat learners see as seat 2;
* ``facts``: the answer's main values in words (label, value).

Paths: a top-level field's name, ``name[i]`` for the i-th item of a list (0-based),
``tricks[t][i]`` for a card of a trick, ``options.<name>``, ``expect.<name>``, and ``""`` for the
scenario as a whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from tutor import i18n
from tutor.content.check import same_answer
from tutor.content.kinds import KINDS
from tutor.content.kinds.base import N_, ExerciseKind
from tutor.domain.table import default_you
from tutor.engine.cards import CARDS, Suit
from tutor.engine.errors import TutorError
from tutor.engine.options import choices_of, labels_of, option_fields, range_of
from tutor.engine.rulesets import RULESETS, RulesetInfo
from tutor.solve import asks_of, solve

from .editor_fields import Errors, card_lists, engine_error, field_specs, limits, num, other_fields, tr

__all__ = ["check", "editor_config", "field_specs", "fixed_you", "seat_names", "seating"]

#: The seat at the bottom of the editor's table before a scenario says otherwise (:func:`learner_seat`).
YOU = 0




def _options(info: RulesetInfo) -> list[dict[str, Any]]:
    model = info.options_model
    out = []
    for name, f in option_fields(model).items():
        spec: dict[str, Any] = {"name": name, "label": tr(f.title or "") or name.replace("_", " "),
                                "default": f.default}
        choices = choices_of(model, name)
        if f.annotation is bool:
            spec["type"] = "bool"
        elif choices is not None:
            labels = labels_of(model, name) or tuple(i18n.fmt_number(c) if isinstance(c, int) else str(c)
                                                     for c in choices)
            spec["type"] = "choice"
            spec["choices"] = [[c, tr(lab)] for c, lab in zip(choices, labels, strict=False)]
        else:
            lo, hi = range_of(model, name) or (1, 999)
            spec.update(type="range", min=lo, max=hi)
        out.append(spec)
    return out


def seat_names(info: RulesetInfo, players: int, you: int = YOU) -> list[dict[str, str]]:
    """Each seat's name from the learner's seat ``you`` (``who``: "your partner") and number ("seat
    2"), seat 0 first (:func:`tutor.i18n.seat_names`)."""
    return [{"who": n.who, "number": n.number} for n in i18n.seat_names(you, players, info.name)]


def learner_seat(kind: ExerciseKind[Any] | None, info: RulesetInfo, ask: str, scenario: Mapping,
                 you: int | None = None) -> int:
    """The seat a learner of this scenario sits in, as the learner's page seats them
    (:func:`tutor.domain.table.default_you`): the question's own seat ``you`` if it has one (a
    stored question's ``you``; the caller takes it modulo the players), else the kind's
    (legal-cards, the seat to play; the others, seat 0): with ``kind`` that kind's; without (the
    "Ask the rules" sandbox) the first kind of the registry that takes ``ask`` in this ruleset;
    :data:`YOU` if none does or the scenario cannot say (a value of the wrong type)."""
    if you is not None:
        return you
    k = kind or next((k for k in KINDS.values() if ask in k.asks and info.name in k.rulesets), None)
    if k is None:
        return YOU
    try:
        return default_you(k, dict(scenario), None)
    except (TypeError, ValueError, KeyError):
        return YOU


def _cards() -> list[dict[str, Any]]:
    out = []
    for c in CARDS:
        out.append({"code": str(c), "rank": i18n.rank_short(c.rank), "symbol": c.suit.symbol,
                    "suit": c.suit.letter, "red": c.suit.is_red, "label": i18n.card_label(c)})
    return out


def editor_config(kind: str | None = None) -> dict[str, Any]:
    """Everything the editor's script draws, in the current language (JSON-ready): the rulesets
    (players, direction, seats and sides by player count, options, asks with their fields), the
    52 cards (suit by suit, ace high) with their names, the suits, the kinds (the asks and
    rulesets each takes, for the teacher's kind menu) and the editor's words."""
    rulesets = []
    for info in RULESETS.values():
        seats = {str(p): seat_names(info, p) for p in info.players}
        sides = {str(p): [i18n.side_label(s, YOU, p, info.name) for s in range(info.sides(p))]
                 for p in info.players}
        asks = [{"ask": a, "title": tr(spec.model.title) or a, "fields": field_specs(info, spec.model)}
                for a, spec in asks_of(info.name).items()]
        rulesets.append({"name": info.name, "title": _(info.title), "players": list(info.players),
                         "anticlockwise": info.anticlockwise, "leader_field": info.leader_field,
                         "seats": seats, "sides": sides, "options": _options(info), "asks": asks})
    kinds = {name: {"label": _(k.label), "asks": list(k.asks), "rulesets": list(k.rulesets)}
             for name, k in KINDS.items()}
    suits = [{"letter": s.letter, "symbol": s.symbol, "name": i18n.suit_name(s, plural=True), "red": s.is_red}
             for s in Suit]
    order = sorted(CARDS, key=lambda c: (int(c.suit), -c.rank))
    cards = {c["code"]: c for c in _cards()}
    return {"rulesets": rulesets, "kinds": kinds, "suits": suits,
            "cards": [cards[str(c)] for c in order], "lang": i18n.current_lang(),
            "digits": i18n.language(i18n.current_lang()).digits, "text": _words()}


def _words() -> dict[str, str]:
    """The editor script's own words (translated here, so that the script has none)."""
    return {
        "game": _("Card game"), "ask": _("Question"), "players": _("Players"), "options": _("Options"),
        "picker": _("Cards"), "place_into": _("Place cards into"),
        "picker_help": _("Arrow keys move between cards; Enter places the card; Delete removes a placed card."),
        "remove": _("Remove %(card)s"), "in_place": _("%(card)s, already placed"),
        "none": _("none"), "empty": _("No cards yet"), "trick_n": _("Trick %(n)s"),
        "legal": _("may be played"), "illegal": _("may not be played"), "wins": _("wins the trick"),
        "checking": _("Asking the engine…"), "answer": _("The engine's answer"),
        "fix": _("Fix the marked fields to get an answer."),
        "yes": _("yes"), "no": _("no"), "table": _("Card table"), "not_set": _("not set"),
        "seat_of": _("%(who)s (%(number)s)"),
        "failed": _("The engine could not be reached. Try again."),
        "not_json": _("This is not JSON: check the brackets, commas and quotes."),
    }




def _show(name: str, value: Any, ctx: i18n.ReasonContext, side: bool) -> str:
    """A value of the answer in words."""
    players = ctx.get("players") or 4
    ruleset = ctx.get("ruleset")
    you = ctx.get("you", YOU)
    if value is None:
        return _("nobody")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return i18n.cards_label(value) if value else _("none")
        if all(isinstance(v, int) for v in value):
            if name == "trick_winners":
                return i18n.join_list(i18n.seat_label(v, you, players, ruleset) for v in value)
            # a number per side (team_tricks, points, game_points, scores_after)
            return i18n.join_list(_("%(side)s: %(n)s", side=i18n.side_label(side_no, you, players, ruleset), n=num(v))
                                  for side_no, v in enumerate(value))
        return str(value)
    if name in ("card",):
        return i18n.card_label(value)
    if name == "trump":
        return i18n.suit_name(value, plural=True)
    if name == "result":
        return i18n.result_name(value)
    if name in ("winner_team", "match_winner") or (name == "winner" and side):
        return i18n.side_label(value, you, players, ruleset)
    if name in ("winner", "next_hakem", "leader"):
        return i18n.seat_label(value, you, players, ruleset)
    return num(value)


#: The answer fields shown as facts, with their labels (message ids), in this order.
_FACTS = (
    ("legal", N_("Cards that may be played")), ("winner", N_("Winner")), ("card", N_("Winning card")),
    ("trick_winners", N_("Trick winners")), ("team_tricks", N_("Tricks won by each team")),
    ("trump", N_("Trump")), ("runs", N_("Runs")), ("hand_size", N_("Cards in each hand")), ("redeal", N_("Redeal")),
    ("game_points", N_("Points for Game")), ("points", N_("Points")), ("result", N_("Result")),
    ("winner_team", N_("Winning team")), ("next_hakem", N_("Next hakem")), ("leader", N_("Leads the first trick")),
    ("scores_after", N_("Scores after")), ("match_winner", N_("Match won by")),
)


def _facts(answer: dict, ctx: i18n.ReasonContext) -> list[dict[str, str]]:
    side = "card" not in answer  # a trick's winner is a seat; a hand's or deal's winner is a side
    out = []
    for name, label in _FACTS:
        if name in answer and not (name == "winner" and answer[name] is None and "scores_after" not in answer):
            out.append({"field": name, "label": _(label), "value": _show(name, answer[name], ctx, side)})
    return out


def check(scenario: object, expect: object = None, kind: str | None = None, key: str | None = None,
          you: int | None = None) -> dict[str, Any]:
    """Answer ``scenario`` for the table editor, in the current language.

    Returns ``{"ok", "answer", "why", "facts", "errors", "missing", "error", "you", "seats",
    "leaders"}``: ``ok`` is
    True when the engine answered and no field is wrong; ``answer`` the engine's answer without
    ``why`` (``None`` if it refused); ``why`` its reasons, each with ``text``; ``errors`` the
    field paths and messages of the module docstring; ``missing`` those of its paths whose
    message only says that a required field is not set yet (a fresh form holds them back until
    the teacher submits it); ``you`` the learner's seat and ``seats`` each seat's ``who`` and
    ``number`` from there (:func:`learner_seat`), ``sides`` each scoring side's name from there;
    ``error`` the contract's error object when
    the engine refused (else ``None``); ``leaders`` the seat that led each trick of a transcript
    (from the engine's trick winners) or of the one trick on the table. ``expect`` (optional, a
    mapping) is an answer key compared field by field with the engine's answer (as
    ``tutor check`` does); ``kind`` (optional) an exercise kind whose asks and rulesets the
    scenario must use. ``key`` (optional, with ``kind``) is a teacher's answer key as a learner
    types it (the kind's answer format, :func:`tutor.web.authoring.authored_question`): it is read
    and graded by the engine exactly as when the question is saved, and a key the engine disagrees
    with (or cannot read) is an error at ``expect``. ``you`` (optional, a seat from 0) is the
    question's own seat for the learner (a stored question's ``you``, :func:`fixed_you`), which
    seats the learner as the learner's page and the preview do instead of the kind's default.
    Never raises for any JSON value.
    """
    errors = Errors()
    missing: list[str] = []
    out: dict[str, Any] = {"ok": False, "answer": None, "why": [], "facts": [], "errors": errors, "missing": missing,
                           "error": None, "you": YOU, "seats": [], "sides": [], "leaders": []}
    if not isinstance(scenario, Mapping):
        errors.add("", _("Set up a situation first."))
        return _done(out)
    name = scenario.get("ruleset")
    info = RULESETS.get(name) if isinstance(name, str) else None
    if info is None:
        errors.add("ruleset", _("Choose a game."))
        return _done(out)
    asks = asks_of(info.name)
    name = scenario.get("ask")
    ask = asks.get(name) if isinstance(name, str) else None
    if ask is None:
        errors.add("ask", _("Choose a question that %(game)s has.", game=_(info.title)))
        return _done(out)
    k = KINDS.get(kind) if isinstance(kind, str) else None
    if kind is not None and (k is None or ask.model.ask not in k.asks or info.name not in k.rulesets):
        errors.add("ask", _("This kind of question does not take this game and question."))
    model = ask.model
    known = {"ruleset", "ask", "options", "players", "target", *model.model_fields}
    for field in scenario:
        if field not in known:
            errors.add(str(field)[:40], _("%(name)s is not a field of this question.", name=str(field)[:30]))
    found = limits(info, scenario, errors)
    players = found[0].players if found else info.default_players
    you = learner_seat(k, info, ask.model.ask, scenario, you) % players
    out.update(you=you, seats=seat_names(info, players, you),
               sides=[i18n.side_label(side, you, players, info.name) for side in range(info.sides(players))])
    ctx: i18n.ReasonContext = {"you": you, "players": players, "ruleset": info.name}
    if found is not None:
        card_lists(model, scenario, found[0], found[1], errors)
        other_fields(info, model, scenario, found[0], errors, missing)
    if errors:
        return _done(out)
    try:
        answer = solve(dict(scenario))
    except TutorError as e:
        out["error"] = e.to_json()["error"]
        engine_error(e, model, errors, ctx)
        return _done(out)
    except Exception:  # noqa: BLE001 - an engine bug is reported, never a traceback
        out["error"] = {"code": "internal-error", "message": "The engine failed on this scenario."}
        errors.add("", _("The engine failed on this situation."))
        return _done(out)
    why = [dict(r) | {"text": i18n.render_reason(r, **ctx)} for r in answer.get("why", [])]
    public = {key: v for key, v in answer.items() if key != "why"}
    out.update(answer=public, why=why, facts=_facts(public, ctx),
               leaders=_leaders(scenario, public, info, players, you))
    if expect is not None:
        _check_key(expect, public, errors, ctx)
    if key is not None and key.strip() and k is not None and not errors:
        _check_typed_key(scenario, k.name, key, errors)
    return _done(out)


def _check_typed_key(scenario: Mapping, kind: str, key: str, errors: Errors) -> None:
    """The teacher's typed key, judged as :func:`tutor.web.authoring.authored_question` judges it
    on save (the same messages); its problems go to ``expect``."""
    import json

    from .authoring import FieldErrors, authored_question

    try:
        authored_question(kind, json.dumps(dict(scenario)), key)
    except FieldErrors as e:
        for name, message in e.errors.items():
            errors.add("expect" if name == "key" else "", message)


def _leaders(scenario: Mapping, answer: dict, info: RulesetInfo, players: int, you: int) -> list[int]:
    """The seat that led each trick on the table (a transcript's, from its winners; else the one
    trick: the seat at ``leader``, or for a trick in progress the one that makes the learner's
    seat ``you`` next to play)."""
    if isinstance(scenario.get("tricks"), list):
        first = info.first_leader(scenario)
        return [first, *answer.get("trick_winners", [])][:len(scenario["tricks"])]
    trick = scenario.get("trick")
    if isinstance(trick, list):
        if "legal" in answer:
            return [(you - len(trick)) % players]
        leader = scenario.get("leader", 0)
        return [leader if isinstance(leader, int) else 0]
    return []


def _check_key(expect: object, answer: dict, errors: Errors, ctx: i18n.ReasonContext) -> None:
    if not isinstance(expect, Mapping):
        errors.add("expect", _("The answer key must name the answer's fields."))
        return
    side = "card" not in answer
    for name, given in expect.items():
        if name not in answer:
            errors.add(f"expect.{name}", _("The engine's answer has no %(name)s.", name=str(name)[:30]))
        elif not same_answer(str(name), given, answer[name]):
            try:
                said = _show(str(name), given, ctx, side)
            except (TutorError, ValueError, TypeError, KeyError):
                said = str(given)[:40]
            errors.add(f"expect.{name}", _("The answer key says %(key)s, but the engine says %(engine)s.",
                                           key=said, engine=_show(str(name), answer[name], ctx, side)))


def _done(out: dict[str, Any]) -> dict[str, Any]:
    out["errors"] = dict(out["errors"])
    out["ok"] = out["answer"] is not None and not out["errors"]
    return out


def fixed_you(fixed: Mapping[str, Any] | None, kind: str | None, scenario: Mapping[str, Any]) -> int | None:
    """The stored question's own seat for the learner while the form still holds that question's
    kind and game (as :func:`tutor.web.authoring.edited` keeps ``you`` on save), else ``None``.
    ``fixed`` is :func:`tutor.web.authoring.stored_you`'s ``{"you", "kind", "ruleset"}`` (or
    ``None`` for a question without its own seat)."""
    if not fixed or fixed.get("kind") != kind or fixed.get("ruleset") != scenario.get("ruleset"):
        return None
    you = fixed.get("you")
    return you if isinstance(you, int) and not isinstance(you, bool) and you >= 0 else None


def seating(scenario_text: str | None, kind: str | None = None,
            fixed: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The editor's first seating, drawn by the page before the first :func:`check` answers:
    ``{"you", "seats", "sides", "leaders"}`` exactly as :func:`check` gives them for the
    scenario in the form (JSON text), its ``kind`` and the stored question's own seat
    (:func:`fixed_you`), so that the first paint seats the learner as the learner's page does.
    ``None`` when the text is not a scenario object with a known game (the script's defaults
    then, seat 0 at the bottom, until the check answers)."""
    import json

    try:
        scenario = json.loads(scenario_text or "")
    except (ValueError, RecursionError):
        return None
    if not isinstance(scenario, dict):
        return None
    got = check(scenario, kind=kind if kind in KINDS else None, you=fixed_you(fixed, kind, scenario))
    if not got["seats"]:
        return None
    return {name: got[name] for name in ("you", "seats", "sides", "leaders")}
