"""The rulesets, found by name: one :class:`Ruleset` per game behind one protocol.

python-chess's variants are the model: a caller looks a ruleset up by name
(:func:`get_ruleset`) and asks it what it needs — player counts, seats and sides, who leads,
the default target, the scoring categories, the options — and never branches on the name.

Facts declared here and nowhere else (RULES.md §3.2-§3.3):

* allowed player counts, the first one the default (Hokm H1: 4; classic All Fours C2: 2, 3 or 4,
  default 2; Trinidad T1: 4 or 2, default 4);
* the direction of play (Hokm H10 and Trinidad T3 anticlockwise; classic All Fours clockwise);
* who leads the first trick: the hakem (H13) or the player after the dealer (C17, T13);
* the default game target (H24: 7; C28: 7; T21: 14);
* the end-of-hand scoring categories (C22-C27, T16-T20: High, Low, Jack, Game; none in Hokm);
* the option that sets the turn-up (kick) scale (C8/C32 ``turnup_scale``, T7 ``kick_scale``);
* the rule points of the game (C1-C33, T1-T22, H1-H27).

Each :class:`RulesetInfo` also leads to what the engine declares (and declares only there):
its rules class (``rules_class``) and so its options model (:attr:`RulesetInfo.options_model`,
:mod:`tutor.engine.options`), the rules object for some options (:meth:`RulesetInfo.rules`),
the game's state machine behind one protocol (:meth:`RulesetInfo.engine`, :class:`GameEngine`:
``new_game``, ``legal_actions``, ``apply``, ``to_act``, ``is_over``, ``scores``, ``winner``,
``hands_done``, ``last_hand``), the side of playing a whole deal against bots
(:meth:`RulesetInfo.coach`, :mod:`tutor.engine.play`) and the turn-up (kick) scale of an option value as
``{rank: points}`` (:meth:`RulesetInfo.turnup_scale`, C8/C32/T7).

Sides come from the rules class's ``PARTNERSHIPS`` (the side of each seat per player count): with
4 players the two teams ``seat % 2``; with 2 or 3 players each seat is a side (solve-format
"Common fields").

No web imports. :data:`RULESETS` is the registry; :func:`get_ruleset` raises
:class:`~tutor.engine.errors.UnknownRulesetError` for a name that is not there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .allfours_classic import AllFours
from .allfours_play import AllFoursCoach
from .errors import BadFieldError, UnknownRulesetError, show
from .hokm import Hokm
from .hokm_play import HokmCoach
from .options import OptionsModel, choices_of, validate_options
from .play import Coach
from .reasons import Reason
from .tricks import HandRecord
from .trinidad import Trinidad

__all__ = [
    "ALL_FOURS",
    "HOKM",
    "RULESETS",
    "TRINIDAD",
    "GameEngine",
    "Ruleset",
    "RulesetInfo",
    "get_ruleset",
    "ruleset_names",
]


def N_(message: str) -> str:
    """Mark a message for extraction (translated where it is shown, never here)."""
    return message


@runtime_checkable
class Ruleset(Protocol):
    """What every ruleset answers (see the module docstring for the facts)."""

    name: str
    title: str
    players: tuple[int, ...]
    anticlockwise: bool
    leader_field: str
    default_target: int
    categories: tuple[str, ...]

    @property
    def default_players(self) -> int: ...

    def sides(self, players: int) -> int: ...

    def side_of(self, seat: int, players: int) -> int: ...

    def players_of(self, scenario: Mapping[str, Any]) -> int: ...

    def first_leader(self, scenario: Mapping[str, Any]) -> int: ...

    def rule_points(self) -> tuple[str, ...]: ...

    @property
    def options_model(self) -> type[OptionsModel]: ...

    def check_players(self, value: object) -> int: ...

    def rules(self, options: Any = None) -> Any: ...

    def engine(self, options: Any = None) -> GameEngine: ...

    def turnup_scale(self, value: str | None = None) -> dict[int, int]: ...


@runtime_checkable
class GameEngine(Protocol):
    """One interface for the three state machines (deal → trump → play → score → next deal), so
    that a caller plays a whole game without knowing which game it is:
    ``get_ruleset(name).engine(options)`` (:class:`~tutor.engine.hokm.Hokm`,
    :class:`~tutor.engine.allfours_classic.AllFours`, :class:`~tutor.engine.trinidad.Trinidad`).

    States are opaque and never changed: :meth:`apply` returns a new one (Hokm's mutable
    :class:`~tutor.engine.hokm.HokmGame` is copied first). Actions are the game's own
    (:class:`~tutor.engine.hokm.ChooseTrump`/:class:`~tutor.engine.hokm.Play`,
    :class:`~tutor.engine.allfours.Action`); :meth:`legal_actions` lists them. Scores are per side.
    """

    players: int

    def new_game(self, seed: int = 0) -> Any:
        """A new game dealt from ``seed`` (same seed, same game)."""

    def legal_actions(self, state: Any) -> list[Any]:
        """Every action allowed in ``state`` (none once the game is over)."""

    def apply(self, state: Any, action: Any) -> Any:
        """The state after ``action``; raises :class:`~tutor.engine.errors.IllegalPlayError`
        whose ``reason`` names the rule point, for an action the rules forbid now."""

    def to_act(self, state: Any) -> int | None:
        """The seat whose action is awaited, ``None`` once the game is over."""

    def is_over(self, state: Any) -> bool:
        """True once a side has reached the target."""

    def scores(self, state: Any) -> tuple[int, ...]:
        """Game points per side."""

    def winner(self, state: Any) -> int | None:
        """The winning side once the game is over, else ``None``."""

    def hands_done(self, state: Any) -> int:
        """Deals (Hokm rounds, All Fours hands) played to their end."""

    def last_hand(self, state: Any) -> HandRecord | None:
        """The last deal played to its end (:class:`~tutor.engine.tricks.HandRecord`), or ``None``."""


@dataclass(frozen=True)
class RulesetInfo:
    """One game's facts (the concrete :class:`Ruleset`).

    ``name``: the contract's ruleset name; ``title``: its display name (a message id, translated
    where shown); ``players``: allowed counts, first = default; ``anticlockwise``: play passes to
    the right; ``leader_field``: the scenario field naming the seat whose turn decides the first
    lead (``"hakem"``: that seat leads; ``"dealer"``: the next seat in play order leads);
    ``default_target``: game points to win; ``categories``: end-of-hand scoring categories;
    ``turnup_option``: the option that picks the turn-up scale (``None``: no turn-up);
    ``rule_prefix``/``rule_count``: its rule points ``C1..C33`` and so on; ``rules_class``: the
    engine's rules class (:class:`~tutor.engine.hokm.Hokm`, :class:`~tutor.engine.allfours_classic.AllFours`,
    :class:`~tutor.engine.trinidad.Trinidad`), whose ``options_type`` is the options model;
    ``first_lead_rule``: the rule point of the first lead; ``card_reason``: ``(card, hand_mask,
    trick, trump) -> Reason`` saying why one card may or may
    not be played, where the engine explains single cards (Hokm), else ``None``.
    """

    name: str
    title: str
    players: tuple[int, ...]
    anticlockwise: bool
    leader_field: str
    default_target: int
    categories: tuple[str, ...] = ()
    turnup_option: str | None = None
    rule_prefix: str = ""
    rule_count: int = 0
    rules_class: type = object
    card_reason: Callable[..., Any] | None = None
    first_lead_rule: str = ""
    #: The rule point of "the trick's winner leads the next trick" (H17, C22, T13).
    winner_leads_rule: str = ""
    coach_class: type[Coach] = Coach

    def first_lead(self, seat: int, players: int) -> tuple[int, Reason]:
        """``(leader, reason)``: the seat that leads the first trick of a deal, given the seat
        named by :attr:`leader_field` (the hakem, H6; or the dealer, whose next player in play
        order leads, C19, T13) and the player count."""
        if self.leader_field == "hakem":
            return seat, Reason("hakem-leads", self.first_lead_rule, {"hakem": seat})
        leader = (seat + 1) % players
        return leader, Reason("eldest-leads", self.first_lead_rule, {"dealer": seat, "leader": leader})

    def winner_leads(self, winner: int) -> Reason:
        """Why ``winner``, who took the trick, leads the next one (H17, C22, T13)."""
        return Reason("winner-leads", self.winner_leads_rule, {"winner": winner})

    def option_names(self) -> tuple[str, ...]:
        """The names of the ruleset's options a scenario may set (RULES.md §3.3), ``players`` not
        counted."""
        return tuple(n for n in self.options_model.__pydantic_fields__ if n != "players")

    def turnup_scales(self) -> tuple[str, ...]:
        """The values of :attr:`turnup_option`, default first (``()`` without a turn-up)."""
        if self.turnup_option is None:
            return ()
        return tuple(choices_of(self.options_model, self.turnup_option) or ())

    @property
    def default_players(self) -> int:
        """The player count of a scenario without a ``players`` field."""
        return self.players[0]

    def partnerships(self, players: int) -> tuple[int, ...]:
        """The side of each seat with ``players`` players, as the rules class declares it
        (``rules_class.PARTNERSHIPS``: Hokm H5, classic C2, Trinidad T1), e.g. ``(0, 1, 0, 1)``."""
        table: Mapping[int, tuple[int, ...]] = self.rules_class.PARTNERSHIPS  # type: ignore[attr-defined]
        return table[players]

    def sides(self, players: int) -> int:
        """Number of scoring sides with ``players`` players (:meth:`partnerships`)."""
        return len(set(self.partnerships(players)))

    def side_of(self, seat: int, players: int) -> int:
        """The side of ``seat`` (0-based) with ``players`` players (:meth:`partnerships`)."""
        return self.partnerships(players)[seat]

    def players_of(self, scenario: Mapping[str, Any]) -> int:
        """The scenario's ``players`` if it is one this ruleset allows, else the default."""
        p = scenario.get("players")
        if isinstance(p, int) and not isinstance(p, bool) and p in self.players:
            return p
        return self.default_players

    def first_leader(self, scenario: Mapping[str, Any]) -> int:
        """The seat that leads the first trick: the hakem (H13), or the player after the dealer in
        play order (C17, T13). A missing or malformed field counts as seat 0."""
        players = self.players_of(scenario)
        seat = scenario.get(self.leader_field, 0)
        seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else 0
        return seat % players if self.leader_field == "hakem" else (seat + 1) % players

    def rule_points(self) -> tuple[str, ...]:
        """The game's rule points, e.g. ``("H1", ..., "H27")``."""
        return tuple(f"{self.rule_prefix}{i}" for i in range(1, self.rule_count + 1))

    @property
    def options_model(self) -> type[OptionsModel]:
        """The options model (:mod:`tutor.engine.options`): :class:`~tutor.engine.hokm_rules.HokmOptions`,
        :class:`~tutor.engine.allfours.AllFoursOptions` or :class:`~tutor.engine.trinidad.TrinidadOptions`."""
        model: type[OptionsModel] = self.rules_class.options_type  # type: ignore[attr-defined]
        return model

    def players_message(self, value: object) -> str:
        """The contract's message for a player count this ruleset does not allow."""
        allowed = ", ".join(str(p) for p in sorted(self.players))
        return f"players for {self.name} must be one of {allowed}, not {show(value)}."

    def check_players(self, value: object) -> int:
        """``value`` if it is a player count this ruleset allows; raises :class:`BadFieldError`
        (code ``bad-field``) otherwise (a bool is not a count)."""
        if isinstance(value, int) and not isinstance(value, bool) and value in self.players:
            return value
        raise BadFieldError(self.players_message(value))

    def rules(self, options: Any = None) -> Any:
        """The engine's rules object for ``options``: an :attr:`options_model` instance, or a
        mapping of option names to values (``players`` included where the model has it; absent
        keys take the defaults). Raises :class:`BadFieldError` for an unknown or bad option."""
        if not isinstance(options, self.options_model):
            options = validate_options(self.options_model, {}, **dict(options or {}))
        return self.rules_class(options)

    def engine(self, options: Any = None) -> GameEngine:
        """The game's state machine behind :class:`GameEngine`, for ``options`` (as :meth:`rules`:
        a model instance or a mapping, e.g. ``{"players": 3, "target": 11}``)."""
        engine: GameEngine = self.rules(options)
        return engine

    def coach(self, options: Any = None) -> Coach:
        """The game's side of playing a whole deal against bots (:class:`~tutor.engine.play.Coach`:
        :class:`~tutor.engine.hokm_play.HokmCoach`, :class:`~tutor.engine.allfours_play.AllFoursCoach`),
        for ``options`` as :meth:`engine` takes them."""
        return self.coach_class(self, options)

    def turnup_scale(self, value: str | None = None) -> dict[int, int]:
        """The turn-up (kick) points of option value ``value`` of :attr:`turnup_option` (default:
        the option's default) as ``{rank: points}`` (ranks 2..14, ace 14), from the engine's own
        table (C8/C32 ``TURNUP_POINTS``, T7 ``KICK_POINTS``); ``{}`` for a game without a turn-up.
        Raises :class:`BadFieldError` for a value the option does not have."""
        if self.turnup_option is None:
            return {}
        table = self.rules_class.TURNUP_SCALES  # type: ignore[attr-defined]
        if value is None:
            value = self.options_model.__pydantic_fields__[self.turnup_option].default
        if value not in table:
            allowed = ", ".join(show(v) for v in table)
            raise BadFieldError(f"option {self.turnup_option} must be one of {allowed}, not {show(value)}.")
        return dict(table[value])


_ALL_FOURS_CATEGORIES = ("high", "low", "jack", "game")

HOKM = RulesetInfo("hokm", N_("Hokm"), (4,), anticlockwise=True, leader_field="hakem", default_target=7,
                   rule_prefix="H", rule_count=27, rules_class=Hokm,
                   card_reason=Hokm().why, first_lead_rule="H6,H10", winner_leads_rule="H17", coach_class=HokmCoach)
ALL_FOURS = RulesetInfo("all-fours", N_("All Fours (classic)"), (2, 3, 4), anticlockwise=False,
                        leader_field="dealer", default_target=7, categories=_ALL_FOURS_CATEGORIES,
                        turnup_option="turnup_scale", rule_prefix="C", rule_count=33, rules_class=AllFours,
                        first_lead_rule="C19", winner_leads_rule="C22", coach_class=AllFoursCoach)
TRINIDAD = RulesetInfo("trinidad", N_("All Fours (Trinidad)"), (4, 2), anticlockwise=True,
                       leader_field="dealer", default_target=14, categories=_ALL_FOURS_CATEGORIES,
                       turnup_option="kick_scale", rule_prefix="T", rule_count=22, rules_class=Trinidad,
                       first_lead_rule="T13,T5", winner_leads_rule="T13", coach_class=AllFoursCoach)

#: Every ruleset by name, in the order the app lists them.
RULESETS: dict[str, RulesetInfo] = {r.name: r for r in (HOKM, ALL_FOURS, TRINIDAD)}


def ruleset_names() -> tuple[str, ...]:
    """The names of every ruleset, in registry order."""
    return tuple(RULESETS)


def get_ruleset(name: object) -> RulesetInfo:
    """The ruleset called ``name``. Raises :class:`UnknownRulesetError` (code ``unknown-ruleset``)."""
    r = RULESETS.get(name) if isinstance(name, str) else None
    if r is None:
        raise UnknownRulesetError(f"ruleset must be one of {', '.join(RULESETS)}, not {show(name)}.")
    return r
