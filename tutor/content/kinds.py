"""Exercise kinds (PLAN.md "Exercise kinds"): parse a learner's answer, grade it with the engine.

The expected answer is ALWAYS computed by the engine (:func:`tutor.solve.solve`) at grading
time; an exercise's authored ``expect`` is never read here (``tutor check`` compares it).

Learner answers (JSON values, or the strings an HTML form sends) per kind, after parsing:

==============  ====================  ===========================================================
kind            asks                  learner's value (normalised)
==============  ====================  ===========================================================
legal-cards     legal-plays           list of canonical card strings, a subset of ``hand``, in
                                      hand order (a form may send one comma/space separated string)
trick-winner    trick-winner          seat ``int`` (0..players-1)
round-score     round-score           ``int`` 1, 2 or 3
next-hakem      round-score           seat ``int`` 0..3
turn-up         turn-up               ``int`` 0..99
beg             make-trump            list of ``int`` per side (a form may send "1, 0")
hand-score      hand-score            ``{"high", "low", "jack", "game"}`` each a side ``int`` or
                                      ``None`` (nobody); ``hang-jack`` is accepted for ``jack``
game-winner     hand-score,           side ``int`` or ``None`` (nobody wins yet)
                make-trump,
                round-score,
                round-playout
walk-through    round-playout,        ``{"trick_winners": [seat, ...], "points": 1|2|3|None}``
                hand-score            (Hokm) or ``{"trick_winners": [...], "awards": {...as
                                      hand-score}}``; a list ``[w1, ..., wn, final]`` is accepted
==============  ====================  ===========================================================

"None"/"nobody"/"" (and JSON ``null``) mean nobody. A malformed answer raises
:class:`~tutor.engine.errors.BadFieldError` (code ``bad-field``) with a clear message; a broken
exercise (unknown kind, an ask the kind does not take, an answer field the engine did not give)
raises :class:`ExerciseError`; an impossible scenario raises the engine's
:class:`~tutor.engine.errors.TutorError`. Nothing here raises any other exception for any
learner input.

:func:`grade` returns a :class:`Verdict`; :func:`public_view` gives what a page may show before
the learner answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..engine.cards import Card, Suit, mask_of
from ..engine.errors import BadFieldError, NotationError, TutorError, show
from ..solve.asks import CARD_SCHEMA
from .exercise import Exercise

__all__ = [
    "CATEGORIES", "DEFAULT_PLAYERS", "KINDS", "SCENARIO_INPUTS", "ExerciseError", "Kind", "Verdict",
    "expected_answer", "get_kind", "grade", "learner_seat", "n_sides", "parse_answer", "players_of",
    "public_view",
]

#: The four end-of-hand categories a hand-score answer names (``hang-jack`` counts as ``jack``).
CATEGORIES: tuple[str, ...] = ("high", "low", "jack", "game")
#: Player count when the scenario has no ``players`` field (solve-format "Common fields").
DEFAULT_PLAYERS: dict[str, int] = {"hokm": 4, "all-fours": 2, "trinidad": 4}
#: Input fields of each ask (solve-format); :func:`public_view` shows only these (plus the common ones).
SCENARIO_INPUTS: dict[str, tuple[str, ...]] = {
    "legal-plays": ("trump", "hand", "trick"),
    "trick-winner": ("trump", "trick", "leader"),
    "round-score": ("hakem", "team_tricks", "scores"),
    "round-playout": ("hakem", "trump", "tricks", "scores"),
    "turn-up": ("card",),
    "make-trump": ("dealer", "turn_ups", "decision", "dealer_choice", "scores"),
    "hand-score": ("dealer", "trump", "tricks", "scores"),
}
_COMMON_INPUTS = ("ruleset", "ask", "options", "players", "target")


class ExerciseError(ValueError):
    """The exercise itself is unusable (not the learner's fault): unknown kind, an ask the kind
    does not accept, or an engine answer without the field the kind checks."""


@dataclass(frozen=True)
class Verdict:
    """The result of grading one answer.

    ``correct``: bool; ``expected``/``given``: normalised values (shapes in the module docstring);
    ``why``: the engine's reasons (Reason JSON dicts ``{"code", "rule", "params"}``);
    ``details``: per-item detail (per kind, see :data:`KINDS` docs); ``answer``: the engine's full
    answer (only to be shown after answering).
    """

    kind: str
    correct: bool
    expected: object
    given: object
    why: tuple[dict, ...] = ()
    details: Mapping[str, object] = field(default_factory=dict)
    answer: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict:
        """JSON-ready dict of every field."""
        return {"kind": self.kind, "correct": self.correct, "expected": self.expected, "given": self.given,
                "why": list(self.why), "details": dict(self.details), "answer": dict(self.answer)}


@dataclass(frozen=True)
class _Ctx:
    exercise: Exercise
    ruleset: str
    players: int
    sides: int


@dataclass(frozen=True)
class Kind:
    """One exercise kind: ``asks`` it accepts, ``rulesets`` it applies to, ``answer_fields`` of the
    engine answer it checks, and three functions: ``parse(raw, ctx)`` → normalised learner value
    (raises BadFieldError), ``expected(answer, ctx)`` → normalised expected value, ``details(given,
    expected, answer, ctx)`` → per-item detail dict. ``answer_help`` describes the learner's value."""

    name: str
    asks: tuple[str, ...]
    rulesets: tuple[str, ...]
    answer_fields: tuple[str, ...]
    parse: Callable[[object, _Ctx], object]
    expected: Callable[[dict, _Ctx], object]
    details: Callable[[object, object, dict, _Ctx], dict]
    answer_help: str = ""
    #: JSON Schema of the learner's value sent as JSON (the API's ``answer``; shapes in the module
    #: docstring). The OpenAPI document is built from it.
    answer_schema: Mapping[str, object] = field(default_factory=dict)


# ----------------------------------------------------------------------------- helpers

def players_of(scenario: Mapping) -> int:
    """Player count of a scenario (its ``players`` or the ruleset default; 4 if unknown)."""
    p = scenario.get("players")
    if isinstance(p, int) and not isinstance(p, bool) and p > 0:
        return p
    return DEFAULT_PLAYERS.get(scenario.get("ruleset"), 4)  # type: ignore[arg-type]


def n_sides(scenario: Mapping) -> int:
    """Number of scoring sides: 2 teams with 4 players, else one side per seat."""
    p = players_of(scenario)
    return 2 if p == 4 else p


def learner_seat(exercise: Exercise) -> int:
    """The learner's seat: ``you`` if given; for legal-cards the seat to play
    (``(leader + len(trick)) % players``, leader 0); else 0."""
    if exercise.you is not None:
        return exercise.you
    if exercise.kind == "legal-cards":
        trick = exercise.scenario.get("trick") or []
        leader = exercise.scenario.get("leader", 0)
        leader = leader if isinstance(leader, int) else 0
        return (leader + (len(trick) if isinstance(trick, list) else 0)) % players_of(exercise.scenario)
    return 0


_NONE_WORDS = {"", "none", "null", "nobody", "-"}


def _is_none(raw: object) -> bool:
    return raw is None or (isinstance(raw, str) and raw.strip().lower() in _NONE_WORDS)


def _int(raw: object, what: str, lo: int, hi: int) -> int:
    """An int lo..hi from an int or a string of digits; BadFieldError otherwise."""
    v: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        v = raw
    elif isinstance(raw, str) and re.fullmatch(r"\s*-?\d{1,6}\s*", raw):
        v = int(raw)
    if v is None:
        raise BadFieldError(f"{what} must be a whole number, not {_show(raw)}.")
    if not lo <= v <= hi:
        raise BadFieldError(f"{what} must be from {lo} to {hi}, not {v}.")
    return v


def _side(raw: object, what: str, ctx: _Ctx, allow_none: bool = True) -> int | None:
    if allow_none and _is_none(raw):
        return None
    return _int(raw, what, 0, ctx.sides - 1)


def _list(raw: object, what: str) -> list:
    if isinstance(raw, str):
        return [p for p in re.split(r"[\s,;]+", raw.strip()) if p]
    if isinstance(raw, list | tuple):
        return list(raw)
    raise BadFieldError(f"{what} must be a list, not {_show(raw)}.")


def _show(v: object) -> str:
    return show(v)


def _mapping(raw: object, what: str) -> Mapping:
    if not isinstance(raw, Mapping):
        raise BadFieldError(f"{what} must be an object with fields, not {_show(raw)}.")
    return raw


# ----------------------------------------------------------------------------- legal-cards

def _parse_legal(raw: object, ctx: _Ctx) -> list[str]:
    hand = [Card.parse(c) for c in ctx.exercise.scenario.get("hand", [])]
    chosen: list[Card] = []
    for item in _list(raw, "the chosen cards"):
        try:
            c = Card.parse(item)
        except NotationError as e:
            raise BadFieldError(f"the chosen cards: {e.message}") from None
        if c not in hand:
            raise BadFieldError(f"{c} is not in the hand.")
        if c in chosen:
            raise BadFieldError(f"{c} is chosen twice.")
        chosen.append(c)
    return [str(c) for c in hand if c in chosen]


def _expected_legal(answer: dict, ctx: _Ctx) -> list[str]:
    return list(answer["legal"])


def _card_why(ctx: _Ctx, card: str, answer: dict) -> list[dict]:
    """Why ``card`` may not be played: the engine's per-card reason where the ruleset has one
    (Hokm), else the rule the engine applied to the hand (the answer's ``why``)."""
    s = ctx.exercise.scenario
    if ctx.ruleset == "hokm":
        try:
            from ..engine.hokm import Hokm
        except ImportError:  # engine module not there: fall back to the hand's rule
            return list(answer.get("why", []))
        try:
            hand = mask_of(Card.parse(c) for c in s.get("hand", []))
            trick = [Card.parse(c) for c in s.get("trick") or []]
            trump = Suit.parse(s["trump"]) if s.get("trump") is not None else None
            return [Hokm.why(Card.parse(card), hand, trick, trump).to_json()]
        except TutorError:
            pass
    return list(answer.get("why", []))


def _details_legal(given: list[str], expected: list[str], answer: dict, ctx: _Ctx) -> dict:
    illegal = [{"card": c, "why": _card_why(ctx, c, answer)} for c in given if c not in expected]
    return {"illegal": illegal, "missed": [c for c in expected if c not in given],
            "right": [c for c in given if c in expected]}


# ----------------------------------------------------------------------------- seat / number kinds

def _parse_seat(raw: object, ctx: _Ctx) -> int:
    return _int(raw, "the seat", 0, ctx.players - 1)


def _field(name: str) -> Callable[[dict, _Ctx], object]:
    def get(answer: dict, ctx: _Ctx) -> object:
        return answer[name]
    return get


def _details_fields(*names: str) -> Callable[[object, object, dict, _Ctx], dict]:
    def details(given: object, expected: object, answer: dict, ctx: _Ctx) -> dict:
        return {n: answer[n] for n in names if n in answer}
    return details


def _parse_points(raw: object, ctx: _Ctx) -> int:
    return _int(raw, "the points", 1, 3)


def _parse_turnup(raw: object, ctx: _Ctx) -> int:
    return _int(raw, "the points", 0, 99)


# ----------------------------------------------------------------------------- beg

def _parse_side_points(raw: object, ctx: _Ctx) -> list[int]:
    items = _list(raw, "the points per side")
    if len(items) != ctx.sides:
        raise BadFieldError(f"give the points of each of the {ctx.sides} sides, not {len(items)} numbers.")
    return [_int(x, f"the points of side {i}", 0, 99) for i, x in enumerate(items)]


def _details_sides(given: list[int], expected: list[int], answer: dict, ctx: _Ctx) -> dict:
    out = {"sides": [{"side": i, "given": g, "expected": e, "correct": g == e}
                     for i, (g, e) in enumerate(zip(given, expected, strict=True))]}
    for name in ("trump", "runs", "hand_size", "redeal"):
        if name in answer:
            out[name] = answer[name]
    return out


# ----------------------------------------------------------------------------- hand-score

def _parse_awards(raw: object, ctx: _Ctx) -> dict[str, int | None]:
    m = dict(_mapping(raw, "the hand score"))
    if "hang-jack" in m and "jack" not in m:
        m["jack"] = m.pop("hang-jack")
    extra = [k for k in m if k not in CATEGORIES]
    if extra:
        raise BadFieldError(f"the hand score has no category {_show(extra[0])}: use high, low, jack, game.")
    missing = [k for k in CATEGORIES if k not in m]
    if missing:
        raise BadFieldError(f"say who scores {missing[0]} (a side, or none).")
    return {k: _side(m[k], f"the side that scores {k}", ctx) for k in CATEGORIES}


def _awards_of(answer: dict) -> dict[str, int | None]:
    out: dict[str, int | None] = dict.fromkeys(CATEGORIES)
    for a in answer["awards"]:
        cat = "jack" if a.get("category") == "hang-jack" else a.get("category")
        if cat in out:
            out[cat] = a.get("side")
    return out


def _expected_awards(answer: dict, ctx: _Ctx) -> dict[str, int | None]:
    return _awards_of(answer)


def _category_details(given: Mapping, expected: Mapping, answer: dict) -> list[dict]:
    by_cat = {("jack" if a.get("category") == "hang-jack" else a.get("category")): a for a in answer["awards"]}
    out = []
    for cat in CATEGORIES:
        a = by_cat.get(cat, {})
        out.append({"category": cat, "given": given[cat], "expected": expected[cat],
                    "correct": given[cat] == expected[cat], "points": a.get("points", 0),
                    "scored_as": a.get("category")})
    return out


def _details_awards(given: dict, expected: dict, answer: dict, ctx: _Ctx) -> dict:
    return {"categories": _category_details(given, expected, answer),
            "game_points": answer.get("game_points"), "points": answer.get("points")}


# ----------------------------------------------------------------------------- game-winner

def _parse_winner(raw: object, ctx: _Ctx) -> int | None:
    return _side(raw, "the winning side", ctx)


def _expected_winner(answer: dict, ctx: _Ctx) -> int | None:
    if ctx.exercise.ask in ("round-score", "round-playout"):
        return answer["match_winner"]
    return answer["winner"]


def _details_winner(given: object, expected: object, answer: dict, ctx: _Ctx) -> dict:
    return {"scores_after": answer.get("scores_after")}


# ----------------------------------------------------------------------------- walk-through

def _parse_walk(raw: object, ctx: _Ctx) -> dict:
    hokm = ctx.exercise.ask == "round-playout"
    final_key = "points" if hokm else "awards"
    if isinstance(raw, list | tuple):
        if not raw:
            raise BadFieldError("give the winner of each trick, then the result.")
        raw = {"trick_winners": list(raw[:-1]), final_key: raw[-1]}
    m = _mapping(raw, "the walk-through answer")
    extra = [k for k in m if k not in ("trick_winners", final_key)]
    if extra:
        raise BadFieldError(f"the walk-through answer has no field {_show(extra[0])}.")
    if "trick_winners" not in m or final_key not in m:
        raise BadFieldError(f"give trick_winners and {final_key}.")
    winners = _list(m["trick_winners"], "the trick winners")
    n = _count_tricks(ctx.exercise.scenario)
    if len(winners) != n:
        raise BadFieldError(f"give the winner of each of the {n} tricks, not {len(winners)}.")
    seats = [_int(w, f"the winner of trick {i}", 0, ctx.players - 1) for i, w in enumerate(winners, 1)]
    if hokm:
        final = None if _is_none(m[final_key]) else _int(m[final_key], "the points", 1, 3)
    else:
        final = _parse_awards(m[final_key], ctx)
    return {"trick_winners": seats, final_key: final}


def _expected_walk(answer: dict, ctx: _Ctx) -> dict:
    if ctx.exercise.ask == "round-playout":
        return {"trick_winners": list(answer["trick_winners"]), "points": answer["points"]}
    return {"trick_winners": list(answer["trick_winners"]), "awards": _awards_of(answer)}


def _details_walk(given: dict, expected: dict, answer: dict, ctx: _Ctx) -> dict:
    why = answer.get("why", [])
    per_trick = {}
    for r in why:
        n = r.get("params", {}).get("trick") if isinstance(r, dict) else None
        if isinstance(n, int) and n not in per_trick:
            per_trick[n] = r
    tricks = [{"trick": i, "given": g, "expected": e, "correct": g == e,
               "why": [per_trick[i]] if i in per_trick else []}
              for i, (g, e) in enumerate(zip(given["trick_winners"], expected["trick_winners"], strict=True), 1)]
    out: dict = {"tricks": tricks}
    if "points" in expected:
        out["result"] = {k: answer.get(k) for k in ("winner_team", "points", "result", "next_hakem")}
        out["result_correct"] = given["points"] == expected["points"]
    else:
        out["categories"] = _category_details(given["awards"], expected["awards"], answer)
        out["result_correct"] = given["awards"] == expected["awards"]
        out["points"] = answer.get("points")
    return out


# ----------------------------------------------------------------------------- answer schemas

_SEAT_SCHEMA = {"type": "integer", "minimum": 0, "maximum": 3, "description": "a seat, 0 … players-1"}
_SIDE_OR_NOBODY = {"type": ["integer", "null"], "minimum": 0, "maximum": 2,
                   "description": "a side (0 … sides-1), or null for nobody"}
_AWARDS_SCHEMA = {"type": "object", "required": list(CATEGORIES), "additionalProperties": False,
                  "properties": {c: _SIDE_OR_NOBODY for c in CATEGORIES},
                  "description": "who scores High, Low, Jack and Game"}
_SCHEMAS: dict[str, dict] = {
    "legal-cards": {"type": "array", "items": CARD_SCHEMA, "uniqueItems": True, "maxItems": 21,
                    "description": "the cards of the hand that may be played"},
    "trick-winner": _SEAT_SCHEMA,
    "round-score": {"type": "integer", "enum": [1, 2, 3], "description": "the points of the round"},
    "next-hakem": _SEAT_SCHEMA,
    "turn-up": {"type": "integer", "minimum": 0, "maximum": 99, "description": "the dealer's side's points"},
    "beg": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 99}, "minItems": 2,
            "maxItems": 3, "description": "the points of each side"},
    "hand-score": _AWARDS_SCHEMA,
    "game-winner": _SIDE_OR_NOBODY,
    "walk-through": {"oneOf": [
        {"type": "object", "title": "Hokm", "required": ["trick_winners", "points"], "additionalProperties": False,
         "properties": {"trick_winners": {"type": "array", "items": _SEAT_SCHEMA, "maxItems": 13},
                        "points": {"type": ["integer", "null"], "enum": [1, 2, 3, None]}}},
        {"type": "object", "title": "All Fours", "required": ["trick_winners", "awards"],
         "additionalProperties": False,
         "properties": {"trick_winners": {"type": "array", "items": _SEAT_SCHEMA, "maxItems": 21},
                        "awards": _AWARDS_SCHEMA}}]},
}


# ----------------------------------------------------------------------------- registry

_ALL = ("hokm", "all-fours", "trinidad")
_AF = ("all-fours", "trinidad")

#: Every exercise kind, by name.
KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("legal-cards", ("legal-plays",), _ALL, ("legal",), _parse_legal, _expected_legal, _details_legal,
         "the cards of the hand that may be played (a list of cards); details: illegal (each card with "
         "the engine's reasons), missed, right",
         answer_schema=_SCHEMAS["legal-cards"]),
    Kind("trick-winner", ("trick-winner",), _ALL, ("winner",), _parse_seat, _field("winner"),
         _details_fields("card"), "the seat that wins the trick; details: card",
         answer_schema=_SCHEMAS["trick-winner"]),
    Kind("round-score", ("round-score",), ("hokm",), ("points",), _parse_points, _field("points"),
         _details_fields("result", "winner_team", "next_hakem"),
         "the points of the round (1, 2 or 3); details: result, winner_team, next_hakem",
         answer_schema=_SCHEMAS["round-score"]),
    Kind("next-hakem", ("round-score",), ("hokm",), ("next_hakem",), _parse_seat, _field("next_hakem"),
         _details_fields("result", "winner_team"), "the seat of the next hakem; details: result, winner_team",
         answer_schema=_SCHEMAS["next-hakem"]),
    Kind("turn-up", ("turn-up",), _AF, ("points",), _parse_turnup, _field("points"), _details_fields(),
         "the points the dealer's side scores for the turned-up card",
         answer_schema=_SCHEMAS["turn-up"]),
    Kind("beg", ("make-trump",), _AF, ("points",), _parse_side_points, _field("points"), _details_sides,
         "the points of each side (a list, one number per side); details: sides, trump, runs, hand_size, redeal",
         answer_schema=_SCHEMAS["beg"]),
    Kind("hand-score", ("hand-score",), _AF, ("awards",), _parse_awards, _expected_awards, _details_awards,
         "for each of high, low, jack, game: the side that scores it, or none; details: categories",
         answer_schema=_SCHEMAS["hand-score"]),
    Kind("game-winner", ("hand-score", "make-trump", "round-score", "round-playout"), _ALL,
         ("winner", "match_winner"), _parse_winner, _expected_winner, _details_winner,
         "the side that wins the game, or none; details: scores_after",
         answer_schema=_SCHEMAS["game-winner"]),
    Kind("walk-through", ("round-playout", "hand-score"), _ALL, ("trick_winners", "points", "awards"),
         _parse_walk, _expected_walk, _details_walk,
         "trick_winners (the seat winning each trick) and the result: points (Hokm) or awards; "
         "details: tricks, result/categories",
         answer_schema=_SCHEMAS["walk-through"]),
)}


def get_kind(name: str) -> Kind:
    """The :class:`Kind` called ``name``. Raises :class:`ExerciseError` for an unknown kind."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise ExerciseError(f"unknown exercise kind {name!r}: use one of {', '.join(KINDS)}") from None


def _context(exercise: Exercise) -> tuple[Kind, _Ctx]:
    kind = get_kind(exercise.kind)
    if exercise.ask not in kind.asks:
        raise ExerciseError(f"kind {kind.name} takes ask {' or '.join(kind.asks)}, not {exercise.ask!r}")
    if exercise.ruleset not in kind.rulesets:
        raise ExerciseError(f"kind {kind.name} is not used with ruleset {exercise.ruleset!r}")
    sc = exercise.scenario
    return kind, _Ctx(exercise, exercise.ruleset or "", players_of(sc), n_sides(sc))


def parse_answer(exercise: Exercise, raw: object) -> object:
    """The learner's answer normalised for the exercise's kind (shapes in the module docstring).

    Raises :class:`BadFieldError` for a malformed answer, :class:`ExerciseError` for a broken exercise.
    """
    kind, ctx = _context(exercise)
    try:
        return kind.parse(raw, ctx)
    except TutorError as e:
        if isinstance(e, BadFieldError):
            raise
        raise BadFieldError(e.message) from None
    except (TypeError, ValueError, AttributeError) as e:  # defensive: never a 500 for odd input
        raise BadFieldError(f"the answer cannot be read ({type(e).__name__}).") from None


def expected_answer(exercise: Exercise, solve: Callable[[dict], dict] | None = None) -> tuple[object, dict]:
    """``(expected value, engine answer)`` for the exercise, computed now by the engine.

    Raises the engine's :class:`TutorError` for a scenario it rejects and :class:`ExerciseError`
    when the answer lacks the field the kind checks.
    """
    kind, ctx = _context(exercise)
    if solve is None:
        from ..solve import solve
    answer = solve(exercise.scenario_copy())
    try:
        expected = kind.expected(answer, ctx)
    except KeyError as e:
        raise ExerciseError(f"the engine's answer to this {exercise.ask} has no field {e.args[0]!r} "
                            f"(kind {kind.name} needs it)") from None
    return expected, answer


def grade(exercise: Exercise, given: object, solve: Callable[[dict], dict] | None = None) -> Verdict:
    """Grade the learner's raw answer ``given`` against the engine's answer.

    Raises :class:`BadFieldError` (malformed answer), :class:`ExerciseError` (broken exercise), or
    the engine's :class:`TutorError` (scenario the engine rejects).
    """
    value = parse_answer(exercise, given)
    expected, answer = expected_answer(exercise, solve)
    kind, ctx = _context(exercise)
    details = kind.details(value, expected, answer, ctx)
    why = tuple(r for r in answer.get("why", []) if isinstance(r, dict))
    public = {k: v for k, v in answer.items() if k != "why"}
    return Verdict(kind.name, value == expected, expected, value, why,
                   MappingProxyType(details), MappingProxyType(public))


def public_view(exercise: Exercise, lang: str = "en") -> dict:
    """What a page may show before the learner answers: ``id, kind, ruleset, ask, prompt (in
    ``lang``), difficulty, you, players, sides, scenario`` (only the ask's input fields: hand,
    trick, trump, seats, scores, turn-ups ...) and ``choices`` (legal-cards: the hand; seat kinds:
    the seats). Never the authored ``expect``, the legal set, a winner, awards or points."""
    sc = exercise.scenario
    ask = exercise.ask or ""
    keep = _COMMON_INPUTS + SCENARIO_INPUTS.get(ask, ())
    scenario = {k: sc[k] for k in keep if k in sc}
    players = players_of(sc)
    view = {
        "id": exercise.id, "kind": exercise.kind, "ruleset": exercise.ruleset, "ask": ask,
        "prompt": exercise.prompt_in(lang), "difficulty": exercise.difficulty, "you": learner_seat(exercise),
        "players": players, "sides": 2 if players == 4 else players, "scenario": scenario,
    }
    if exercise.kind == "legal-cards":
        view["choices"] = list(sc.get("hand") or [])
    elif exercise.kind in ("trick-winner", "next-hakem"):
        view["choices"] = list(range(players))
    if exercise.kind == "walk-through":
        view["tricks"] = _count_tricks(sc)
    return view


def _count_tricks(sc: Mapping) -> int:
    t = sc.get("tricks")
    return len(t) if isinstance(t, list) else 0
