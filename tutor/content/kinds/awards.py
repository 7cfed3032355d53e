"""Reading and showing High, Low, Jack and Game awards: shared by the kinds that ask who scores
each category (hand-score, walk-through). Not a kind itself.

An awards value is ``{"high", "low", "jack", "game"}``, each a side ``int`` or ``None``
(nobody); ``hang-jack`` is accepted for ``jack``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from ... import i18n
from ...engine.errors import BadFieldError, show
from .base import (
    CATEGORIES,
    N_,
    AnswerError,
    Ctx,
    FeedbackLine,
    Names,
    ReasonJson,
    as_mapping,
    as_side,
    side_from_key,
    side_key,
)

__all__ = [
    "AWARDS_SCHEMA",
    "CATEGORY_REASONS",
    "HAND_FEATURES",
    "Awards",
    "awards_class",
    "awards_classes",
    "awards_distractor",
    "awards_form",
    "awards_from_key",
    "awards_key",
    "awards_of",
    "category_details",
    "feedback",
    "hand_features",
    "hand_level",
    "parse_awards",
    "read_awards",
    "sides_named",
    "table_sides",
    "wrong_category_reasons",
]

class Awards(TypedDict):
    """An awards value: for each category the side (from 0) that scores it, ``None`` for nobody."""

    high: int | None
    low: int | None
    jack: int | None
    game: int | None


#: JSON Schema of an awards value.
AWARDS_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {c: {"type": ["integer", "string", "null"]} for c in (*CATEGORIES, "hang-jack")},
    "description": "for each of high, low, jack, game: the side that scores it, or null for nobody",
    "example": {"high": 0, "low": 1, "jack": None, "game": 0},
}


#: The codes of the engine's reasons that decide each category (who scores it, or that nobody
#: does): a category answered wrong is explained by these (C23-C27, T16-T20).
CATEGORY_REASONS: dict[str, frozenset[str]] = {
    "high": frozenset({"high-dealt", "only-one-trump", "no-trump-in-play"}),
    "low": frozenset({"low-dealt", "low-captured", "only-one-trump", "no-trump-in-play"}),
    "jack": frozenset({"jack-won", "jack-kept", "jack-not-in-play", "hang-jack"}),
    "game": frozenset({"game-most-points", "game-tie-dealer-excluded", "game-tie-nobody"}),
}
assert set(CATEGORY_REASONS) == set(CATEGORIES)


def wrong_category_reasons(verdict_why: Iterable[ReasonJson], given: object, expected: Mapping[str, object]
                           ) -> list[ReasonJson]:
    """The reasons of the categories ``given`` got wrong against ``expected``, in the engine's order."""
    got = given if isinstance(given, Mapping) else {}
    codes = frozenset().union(*(CATEGORY_REASONS[c] for c in CATEGORIES if got.get(c) != expected.get(c)))
    return [r for r in verdict_why if r.get("code") in codes]


def parse_awards(raw: object, ctx: Ctx) -> Awards:
    """The awards value normalised; :class:`BadFieldError` if a category is missing or unknown."""
    m = dict(as_mapping(raw, "the hand score"))
    if "hang-jack" in m and "jack" not in m:
        m["jack"] = m.pop("hang-jack")
    extra = [k for k in m if k not in CATEGORIES]
    if extra:
        raise BadFieldError(f"the hand score has no category {show(extra[0])}: use high, low, jack, game.")
    missing = [k for k in CATEGORIES if k not in m]
    if missing:
        raise BadFieldError(f"say who scores {missing[0]} (a side, or none).")
    return _awards({k: as_side(m[k], f"the side that scores {k}", ctx) for k in CATEGORIES})


def _awards(sides: Mapping[str, int | None]) -> Awards:
    """An awards value from a side (or None) per category of :data:`CATEGORIES`."""
    return Awards(high=sides["high"], low=sides["low"], jack=sides["jack"], game=sides["game"])


def awards_from_key(raw: object, ctx: Ctx) -> object:
    """A teacher's awards key (sides numbered from 1, see
    :func:`~tutor.content.kinds.base.side_from_key`) as the awards value :func:`parse_awards`
    reads (sides from 0); anything but an object is left for it to name."""
    if not isinstance(raw, Mapping):
        return raw
    return {k: side_from_key(v, ctx) if k in (*CATEGORIES, "hang-jack") else v for k, v in raw.items()}


def awards_key(value: Awards) -> dict[str, int | None]:
    """An awards value as a teacher's key numbers its sides (from 1): the inverse of
    :func:`awards_from_key`."""
    return {"high": side_key(value["high"]), "low": side_key(value["low"]), "jack": side_key(value["jack"]),
            "game": side_key(value["game"])}


def awards_of(answer: Mapping[str, Any]) -> Awards:
    """The engine's ``awards`` list as an awards value (hang jack counted as Jack)."""
    out: dict[str, int | None] = dict.fromkeys(CATEGORIES)
    for a in answer["awards"]:
        cat = "jack" if a.get("category") == "hang-jack" else a.get("category")
        if cat in out:
            out[cat] = a.get("side")
    return _awards(out)


def category_details(given: Awards, expected: Awards, answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per category: what the learner gave, the right side, whether it matches, the points and
    the category the engine scored it as (``hang-jack``)."""
    by_cat = {("jack" if a.get("category") == "hang-jack" else a.get("category")): a for a in answer["awards"]}
    out = []
    for cat in CATEGORIES:
        a = by_cat.get(cat, {})
        g, e = given.get(cat), expected.get(cat)
        out.append({"category": cat, "given": g, "expected": e, "correct": g == e, "points": a.get("points", 0),
                    "scored_as": a.get("category")})
    return out


def read_awards(form: Any) -> dict[str, Any]:
    """The awards from a page form: one radio group per category (a side or ``none``)."""
    out = {}
    for c in CATEGORIES:
        if c not in form:
            raise AnswerError("bad-answer", N_("Give a side, or nobody, for each of High, Low, Jack and Game."))
        out[c] = form.get(c)
    return out


def feedback(expected: Awards, given: object, names: Names) -> list[FeedbackLine]:
    """One line per category: the right side, and whether the learner named it."""
    got = given if isinstance(given, Mapping) else {}
    return [FeedbackLine(i18n.category_name(c), names.side(s), got.get(c) == s) for c, s in expected.items()]


def awards_form(value: Awards) -> dict[str, str]:
    """The form fields of an awards value (one radio group per category)."""
    return {c: ("none" if v is None else str(v)) for c, v in value.items()}


def awards_distractor(right: Awards) -> Awards:
    """A wrong awards value: Game given to nobody, or to side 0 if nobody scored it."""
    return Awards(high=right["high"], low=right["low"], jack=right["jack"],
                  game=None if right["game"] is not None else 0)


# ---------------------------------------------------------------------- question quality of whole hands

#: The features of a whole hand played out (hand-score, walk-through): ``players`` (the table)
#: and ``trap`` (1 if the hand holds a trap: :func:`tutor.content.deals.hand_trap`).
HAND_FEATURES = ("players", "trap")


def hand_features(scenario: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, float]:
    """:data:`HAND_FEATURES` of a hand-score scenario and the engine's answer."""
    from ..deals import hand_trap
    from .reading import players_of

    return {"players": float(players_of(scenario)), "trap": float(hand_trap(dict(scenario), dict(answer)))}


def hand_level(features: Mapping[str, float]) -> int:
    """1 + (more than two players) + trap, at most 3: 1: two players, no trap; 2: more players
    (or a trap at two); 3: more players and a trap."""
    return min(3, 1 + int(features["players"] > 2) + int(features["trap"]))


def awards_class(answer: Mapping[str, Any]) -> str:
    """Who scores High and who scores Game: ``"high 0, game 1"`` (``none`` for nobody)."""
    a = awards_of(answer)
    return f"high {_side(a['high'])}, game {_side(a['game'])}"


def _side(side: int | None) -> str:
    return "none" if side is None else str(side)


def table_sides(ruleset: str, difficulty: int) -> int:
    """The most scoring sides of the tables a whole hand is played on at ``difficulty``
    (:func:`tutor.content.deals.hand_players`)."""
    from ...engine.rulesets import get_ruleset

    r = get_ruleset(ruleset)
    return 2 if difficulty == 1 else max(r.sides(p) for p in r.players if p > 2)


def awards_classes(ruleset: str, difficulty: int) -> tuple[str, ...]:
    """Every pair of a side for High and a side for Game at ``difficulty``."""
    n = table_sides(ruleset, difficulty)
    return tuple(f"high {h}, game {g}" for h in range(n) for g in range(n))


def sides_named(want: str | None) -> int:
    """The sides an aimed answer class needs (the largest side it names, plus one; at least two)."""
    import re

    sides = [int(n) for n in re.findall(r"(?:high|game) (\d+)", want or "")]
    return max(sides, default=1) + 1

