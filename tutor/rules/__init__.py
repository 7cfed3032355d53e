"""The rule-point reference: every rule point a reason, a lesson or ``lessons/COVERAGE.md`` cites.

Pure Python (no web imports). The data is ``tutor/rules/points.yaml`` (package data): for each
point its stable ``id`` (``H14``, ``C21``, ``K12``, ``def-jack``), the games it belongs to, its
kind, a short title and a plain-English statement (each a mapping language -> text, English now,
room for the other languages of :data:`tutor.i18n.LANGUAGES`), where the source documents state
it (document file, section, lines) or, for a decision (``K`` points), why it was decided, and
related points. Ids follow the team's rules reference (RULES.md): C1-C33 classic All Fours,
T1-T23 Trinidad, H1-H27 Hokm, K1-K27 decisions, ``def-*`` the engine's exact definitions.

* :func:`get` — one point by id (``KeyError`` :class:`UnknownRulePoint` for an unknown id);
* :func:`all_points` — every point, in reference order (C, T, H, definitions, K);
* :func:`points_for` — the points of one ruleset (``ValueError`` for an unknown ruleset);
* :func:`cited` — the points a reason's ``rule`` names (``"H14"``, or several: ``"C21,K20"``);
* :func:`documents` — the source documents the points cite.

``tutor rule ID`` prints a point; ``tutor rule --list [RULESET]`` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

import yaml

from ..engine.reasons import N_
from ..engine.rulesets import ruleset_names
from ..i18n import LANGUAGES
from ..i18n.registry import DECLARED

__all__ = [
    "GAMES",
    "KINDS",
    "KIND_LABELS",
    "Document",
    "Place",
    "RuleDataError",
    "RulePoint",
    "UnknownRulePoint",
    "all_points",
    "cited",
    "documents",
    "get",
    "points_for",
]

#: The rulesets a point may belong to (the engine's registry, :mod:`tutor.engine.rulesets`).
GAMES: tuple[str, ...] = ruleset_names()
#: Kinds of point: a rule the documents state, an optional variant they name, background (names,
#: history, vocabulary, worked examples), the documents' own reading list, a definition the
#: engine counts with, a decision where the documents are silent or disagree.
#: The kind of a point taken where the documents are silent or disagree (K points): it gives why.
DECISION = "decision"
KINDS: tuple[str, ...] = ("rule", "variant", "background", "reference", "definition", DECISION)
#: The heading of the points of each kind on a rules reference page (Babel msgids; translate
#: with gettext).
KIND_LABELS: Mapping[str, str] = MappingProxyType({
    "rule": N_("Rules"), "variant": N_("Variants"), "background": N_("Background"),
    "reference": N_("Further reading"), "definition": N_("Definitions"),
    DECISION: N_("Decisions where the documents are silent or disagree"),
})
_DATA = "points.yaml"


class RuleDataError(ValueError):
    """``points.yaml`` is malformed; the message names the point and the field."""


class UnknownRulePoint(KeyError):
    """No rule point has this id."""

    def __str__(self) -> str:
        given = str(self.args[0])
        return f"unknown rule point {given[:40]!r}" + (f" ({len(given)} characters)" if len(given) > 40 else "")


@dataclass(frozen=True, slots=True)
class Document:
    """A source document: ``file`` (in the team's ``shared/seeds/``), its ``language`` (in
    English) and what it is ``about`` (language -> text, English always present)."""

    file: str
    language: str
    about: Mapping[str, str]

    @property
    def number(self) -> str:
        """The document's number, the start of its file name (``"002"``)."""
        return self.file.split("_", 1)[0]

    def about_in(self, lang: str = "en") -> str:
        """What the document is about, in ``lang`` (English fallback)."""
        return self.about.get(lang) or self.about["en"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a source document states a point: ``document`` file, ``section`` (its heading, in
    English) and ``lines`` (1-based line numbers in the file)."""

    document: str
    section: str
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RulePoint:
    """One rule point. ``title``, ``text`` and ``reason`` map a language code to text (English
    always present; ``reason`` only for decisions, else empty); use :meth:`title_in` etc. for a
    language with an English fallback. ``sources`` are the places in the documents; ``see`` the
    related point ids (for a decision, the points it settles)."""

    id: str
    games: tuple[str, ...]
    kind: str
    title: Mapping[str, str]
    text: Mapping[str, str]
    sources: tuple[Place, ...]
    reason: Mapping[str, str]
    see: tuple[str, ...]

    @property
    def decision(self) -> bool:
        """True for a decision taken where the source documents are silent or disagree."""
        return self.kind == DECISION

    def title_in(self, lang: str = "en") -> str:
        """The title in ``lang``, or in English when not translated yet."""
        return self.title.get(lang) or self.title["en"]

    def text_in(self, lang: str = "en") -> str:
        """The statement in ``lang``, or in English when not translated yet."""
        return self.text.get(lang) or self.text["en"]

    def reason_in(self, lang: str = "en") -> str:
        """Why a decision was taken, in ``lang`` (English fallback); ``""`` for other points."""
        return self.reason.get(lang) or self.reason.get("en") or ""


def get(point_id: str) -> RulePoint:
    """The point with id ``point_id`` (exact, or ignoring case: ``h14`` is ``H14``). Raises
    :class:`UnknownRulePoint` (a ``KeyError``)."""
    points = _load()[0]
    point = points.get(point_id) or points.get(_folded().get(point_id.casefold(), ""))
    if point is None:
        raise UnknownRulePoint(point_id)
    return point


def all_points() -> tuple[RulePoint, ...]:
    """Every point in reference order: C, T, H, definitions, K."""
    return tuple(_load()[0].values())


def points_for(ruleset: str) -> tuple[RulePoint, ...]:
    """The points of ``ruleset`` (one of :data:`GAMES`), in reference order, decisions and
    definitions that concern it included. Raises ``ValueError`` for another name."""
    if ruleset not in GAMES:
        raise ValueError(f"unknown ruleset {ruleset!r} (rulesets: {', '.join(GAMES)})")
    return tuple(p for p in all_points() if ruleset in p.games)


def cited(rule: str) -> tuple[RulePoint, ...]:
    """The points a reason's ``rule`` field names: one id (``"H14"``) or several separated by
    commas (``"C21,K20"``). Raises :class:`UnknownRulePoint` for an id that is not a point."""
    return tuple(get(part.strip()) for part in rule.split(","))


def documents() -> Mapping[str, Document]:
    """The source documents, by file name."""
    return _load()[1]


@cache
def _folded() -> dict[str, str]:
    return {pid.casefold(): pid for pid in _load()[0]}


@cache
def _load() -> tuple[Mapping[str, RulePoint], Mapping[str, Document]]:
    raw = yaml.safe_load(resources.files(__package__).joinpath(_DATA).read_text(encoding="utf-8"))
    return parse(raw)


def parse(raw: object) -> tuple[Mapping[str, RulePoint], Mapping[str, Document]]:
    """Check and build the reference from the decoded YAML (``{"documents": ..., "points":
    [...]}``). Raises :class:`RuleDataError` naming the point and field of the first problem."""
    if not isinstance(raw, dict) or set(raw) != {"documents", "points"}:
        raise RuleDataError(f"{_DATA}: expected the keys documents and points")
    docs = {}
    for name, value in _mapping(raw["documents"], "documents").items():
        d = _mapping(value, f"document {name}")
        docs[name] = Document(name, _str(d.get("language"), f"document {name}: language"),
                              _texts(d.get("about"), f"document {name}: about"))
    if not isinstance(raw["points"], list):
        raise RuleDataError(f"{_DATA}: points must be a list")
    points: dict[str, RulePoint] = {}
    for item in raw["points"]:
        p = _point(_mapping(item, "a point"), docs)
        if p.id in points:
            raise RuleDataError(f"{_DATA}: point {p.id} appears twice")
        points[p.id] = p
    for p in points.values():
        for other in p.see:
            if other not in points:
                raise RuleDataError(f"{_DATA}: point {p.id}: see names {other!r}, which is not a point")
    return MappingProxyType(points), MappingProxyType(docs)


_FIELDS = {"id", "games", "kind", "title", "text", "sources", "reason", "see"}


def _point(d: dict, docs: Mapping[str, Document]) -> RulePoint:
    pid = _str(d.get("id"), "a point's id")
    where = f"point {pid}"
    unknown = set(d) - _FIELDS
    if unknown:
        raise RuleDataError(f"{_DATA}: {where}: unknown field(s) {', '.join(sorted(unknown))}")
    games = tuple(_list(d.get("games"), f"{where}: games"))
    if not games or any(g not in GAMES for g in games):
        raise RuleDataError(f"{_DATA}: {where}: games must name some of {', '.join(GAMES)}, not {games}")
    kind = d.get("kind")
    if kind not in KINDS:
        raise RuleDataError(f"{_DATA}: {where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    reason = _texts(d.get("reason", {}), f"{where}: reason", required=kind == DECISION)
    if reason and kind != DECISION:
        raise RuleDataError(f"{_DATA}: {where}: only a decision has a reason")
    sources = []
    for entry in _list(d.get("sources", []), f"{where}: sources"):
        s = _mapping(entry, f"{where}: a source")
        doc = s.get("document")
        if not isinstance(doc, str) or doc not in docs:
            raise RuleDataError(f"{_DATA}: {where}: source document {doc!r} is not listed under documents")
        lines = tuple(_list(s.get("lines"), f"{where}: source lines"))
        if not lines or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in lines):
            raise RuleDataError(f"{_DATA}: {where}: source lines must be positive line numbers")
        sources.append(Place(doc, _str(s.get("section"), f"{where}: source section"), lines))
    if not sources and kind != DECISION:
        raise RuleDataError(f"{_DATA}: {where}: a point that is not a decision needs its sources")
    see = tuple(_str(x, f"{where}: see") for x in _list(d.get("see", []), f"{where}: see"))
    return RulePoint(pid, games, kind, _texts(d.get("title"), f"{where}: title"),
                     _texts(d.get("text"), f"{where}: text"), tuple(sources), reason, see)


def _texts(value: object, what: str, required: bool = True) -> Mapping[str, str]:
    """A mapping language -> non-empty text, English first and required (unless not ``required``
    and empty)."""
    m = _mapping(value, what)
    if not m and not required:
        return MappingProxyType({})
    if "en" not in m:
        raise RuleDataError(f"{_DATA}: {what}: the English text (en) is missing")
    for lang, text in m.items():
        if lang not in DECLARED:  # a language whose entry is malformed is reported by the registry
            raise RuleDataError(f"{_DATA}: {what}: {lang!r} is not a language of the app ({', '.join(LANGUAGES)})")
        _str(text, f"{what}: {lang}")
    return MappingProxyType(dict(m))


def _mapping(value: object, what: str) -> dict:
    if not isinstance(value, dict):
        raise RuleDataError(f"{_DATA}: {what} must be a mapping")
    return value


def _list(value: object, what: str) -> list:
    if not isinstance(value, list):
        raise RuleDataError(f"{_DATA}: {what} must be a list")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleDataError(f"{_DATA}: {what} must be a non-empty text")
    return value
