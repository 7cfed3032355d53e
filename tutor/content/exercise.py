"""The :class:`Exercise` value type, shared by lesson steps and quiz questions.

An exercise is the YAML block of PLAN.md ("Exercise block ... and quiz question"):

``id`` (str), ``kind`` (str, a key of :data:`tutor.content.kinds.KINDS`), ``scenario`` (dict, the
solve-format scenario), ``difficulty`` (1..3), ``prompt`` (lesson: str in the file's language; quiz:
optional ``{lang: str}``), ``you`` (optional seat int), ``expect`` (the authored answer, dict; only
``tutor check`` reads it), for quiz questions ``teaches`` (a lesson step id), and optionally
``points`` (what the question is worth in a teacher's quiz and in an LMS export: a number above 0,
at most :data:`MAX_POINTS`; default 1).

:func:`parse_exercise` turns one parsed YAML mapping into an :class:`Exercise`, adding structural
problems (missing or mistyped fields) to a :class:`~tutor.problems.Problems` list with
their line numbers. Whether the cards, kind, ask or expect are right is ``tutor check``'s job.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias

from tutor.problems import Problems
from tutor.yamllines import field_line

from ..engine.errors import TutorError
from ..engine.rulesets import RULESETS as _RULESET_REGISTRY
from ..i18n.registry import DECLARED, REGISTRY
from ..solve.asks import AskModel
from ..solve.common import Scenario, parse_scenario

__all__ = ["EXERCISE_FIELDS", "LANGUAGES", "MAX_POINTS", "RULESETS", "EngineAnswer", "Exercise", "ParsedScenario",
           "ScenarioDict", "parse_exercise"]

#: A scenario as it is written (YAML, JSON, the database's JSON column): solve-format's object.
ScenarioDict: TypeAlias = dict[str, Any]
#: The engine's answer as the contract returns it (a JSON object; its fields by ask in
#: :data:`tutor.solve.schema.ANSWER_MODELS`, plus ``why``).
EngineAnswer: TypeAlias = dict[str, Any]
#: A scenario after the contract's checks (:func:`tutor.solve.common.parse_scenario`): the typed
#: :class:`~tutor.solve.common.Scenario` (its ``fields`` the ask's model) and the ask's handler.
ParsedScenario: TypeAlias = tuple[Scenario[AskModel], Callable[[Scenario[Any]], EngineAnswer]]

#: Lesson/quiz languages, in menu order: the language registry's (:mod:`tutor.i18n.registry`).
LANGUAGES: tuple[str, ...] = tuple(REGISTRY)
#: Ruleset names (scenario ``ruleset`` values and lesson directory names), from the ruleset registry.
RULESETS: tuple[str, ...] = tuple(_RULESET_REGISTRY)

#: Field -> (required in lessons, required in quizzes).
EXERCISE_FIELDS: dict[str, tuple[bool, bool]] = {
    "id": (True, True), "kind": (True, True), "scenario": (True, True), "difficulty": (True, True),
    "prompt": (True, False), "you": (False, False), "expect": (True, True), "teaches": (False, True),
    "points": (False, False),
}
#: The most points one question may be worth: in a quiz file (checked here, on import too), on the
#: teacher's forms (:mod:`tutor.web.forms`) and in their messages.
MAX_POINTS = 100


@dataclass(frozen=True, eq=False)
class Exercise:
    """One exercise (lesson block or quiz question).

    ``scenario``/``expect`` are plain dicts (treat as read-only; :meth:`scenario_copy` gives a
    copy to hand to the engine). ``path`` and ``line`` locate the block (its fence line, or the
    quiz question's first line); ``lines`` maps a dotted field path relative to the exercise
    (``"scenario.hand.2"``, ``"expect.legal"``) to its 1-based line in ``path``.
    ``step_id``/``lang`` are set for lesson exercises, ``teaches`` for quiz questions.

    :attr:`model` is the scenario after the contract's checks, typed (``model.fields`` is the
    ask's model of :mod:`tutor.solve.asks`), parsed once: where the exercise is loaded
    (:func:`parse_exercise`, :func:`tutor.content.generators.generate`) or on first use, then kept
    (``parsed``; ``dataclasses.replace`` carries it, so never replace ``scenario`` that way).
    """

    id: str
    kind: str
    scenario: ScenarioDict
    difficulty: int = 1
    prompt: str | Mapping[str, str] | None = None
    you: int | None = None
    expect: dict[str, Any] | None = None
    teaches: str | None = None
    points: int | float | None = None
    step_id: str | None = None
    lang: str | None = None
    path: str = ""
    line: int = 0
    lines: Mapping[str, int] = field(default_factory=dict)
    parsed: ParsedScenario | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", MappingProxyType(dict(self.lines)))

    @property
    def model(self) -> Scenario[AskModel]:
        """The scenario parsed by the contract (cards as ``Card``, suits as ``Suit``, seats as
        ``int``, options filled in), parsed once and kept. Raises the engine's
        :class:`~tutor.engine.errors.TutorError` for a scenario it rejects (every time it is asked:
        only a success is kept)."""
        return self._parse()[0]

    def solve(self) -> EngineAnswer:
        """The engine's answer to the scenario, computed now from the kept :attr:`model` (the same
        as :func:`tutor.solve.solve` on the scenario, without parsing it again)."""
        model, handler = self._parse()
        return handler(model)

    def _parse(self) -> ParsedScenario:
        if self.parsed is None:
            object.__setattr__(self, "parsed", parse_scenario(copy.deepcopy(self.scenario)))
        assert self.parsed is not None
        return self.parsed

    def try_parse(self) -> bool:
        """Parse the scenario now if the engine accepts it (kept for :attr:`model`); False if it
        does not (``tutor check`` reports why)."""
        try:
            self._parse()
        except TutorError:
            return False
        return True

    @property
    def ruleset(self) -> str | None:
        """The scenario's ``ruleset`` (``None`` if absent or not a string)."""
        r = self.scenario.get("ruleset")
        return r if isinstance(r, str) else None

    @property
    def ask(self) -> str | None:
        """The scenario's ``ask``."""
        a = self.scenario.get("ask")
        return a if isinstance(a, str) else None

    def scenario_copy(self) -> ScenarioDict:
        """A deep copy of the scenario, safe to give to the engine."""
        return copy.deepcopy(self.scenario)

    def line_of(self, name: str) -> int:
        """Line of field ``name`` (dotted path) or of its nearest parent; the block line if unknown."""
        return field_line(dict(self.lines), name, self.line) if name else self.line

    def prompt_in(self, lang: str = "en") -> str | None:
        """The prompt text for ``lang`` (a map falls back to English), or ``None``."""
        if isinstance(self.prompt, Mapping):
            return self.prompt.get(lang) or self.prompt.get("en")
        return self.prompt

    def own_prompt(self, lang: str) -> str | None:
        """The exercise's own prompt written in ``lang`` (a lesson prompt in the file's language, a
        quiz prompt's entry for ``lang``), else ``None`` (then the kind's translated prompt is shown)."""
        if isinstance(self.prompt, str):
            return self.prompt if (self.lang or "en") == lang else None
        return self.prompt.get(lang) if self.prompt is not None else None

    def to_block(self) -> dict[str, Any]:
        """The exercise as a plain dict in block field order (for YAML output)."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.you is not None:
            out["you"] = self.you
        if self.prompt is not None:
            out["prompt"] = dict(self.prompt) if isinstance(self.prompt, Mapping) else self.prompt
        out["difficulty"] = self.difficulty
        if self.teaches is not None:
            out["teaches"] = self.teaches
        if self.points is not None:
            out["points"] = self.points
        out["scenario"] = copy.deepcopy(self.scenario)
        if self.expect is not None:
            out["expect"] = copy.deepcopy(self.expect)
        return out


def _nonempty_str(v: object) -> bool:
    return isinstance(v, str) and bool(v.strip())


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_exercise(data: object, lines: Mapping[str, int], prefix: str, *, path: str, problems: Problems,
                   quiz: bool, step_id: str | None = None, lang: str | None = None,
                   optional: tuple[str, ...] = ()) -> Exercise | None:
    """Build an :class:`Exercise` from a parsed YAML mapping.

    ``lines`` are the YAML line numbers keyed by dotted path; ``prefix`` is the exercise's own path
    in them (``""`` for a lesson block, ``"questions.3"`` in a quiz). Problems found (unknown,
    missing or mistyped fields) go to ``problems``; the fields named in ``optional`` are not
    required (an import derives a quiz question's ``teaches``). Returns ``None`` when ``id``, ``kind`` or
    ``scenario`` is unusable, else the exercise (possibly with problems recorded).
    """
    here = field_line(dict(lines), prefix)
    what = "quiz question" if quiz else "exercise"
    if not isinstance(data, dict):
        problems.add(path, here, f"{what} must be a YAML mapping, not {type(data).__name__}")
        return None
    rel = {k[len(prefix) + 1:] if prefix else k: v for k, v in lines.items()
           if not prefix or k.startswith(prefix + ".")}

    def line(name: str) -> int:
        return field_line(rel, name, here)

    label = f"{what} {data['id']}" if _nonempty_str(data.get("id")) else what
    col = 1 if quiz else 0
    for name in data:
        if name not in EXERCISE_FIELDS:
            problems.add(path, line(str(name)), f"{label}: unknown field {name!r}")
    for name, required in EXERCISE_FIELDS.items():
        if required[col] and name not in data and name not in optional:
            problems.add(path, here, f"{label}: missing required field {name!r}")
    ok = True
    if "id" in data and not _nonempty_str(data["id"]):
        problems.add(path, line("id"), f"{what}: id must be a non-empty string")
        ok = False
    if "kind" in data and not _nonempty_str(data["kind"]):
        problems.add(path, line("kind"), f"{label}: kind must be a string")
        ok = False
    if "scenario" in data and not isinstance(data["scenario"], dict):
        problems.add(path, line("scenario"), f"{label}: scenario must be a mapping")
        ok = False
    difficulty = data.get("difficulty", 1)
    if not _is_int(difficulty) or not 1 <= difficulty <= 3:
        problems.add(path, line("difficulty"), f"{label}: difficulty must be 1, 2 or 3, not {difficulty!r}")
        difficulty = 1
    you = data.get("you")
    if you is not None and (not _is_int(you) or you < 0):
        problems.add(path, line("you"), f"{label}: you must be a seat number (0, 1, ...), not {you!r}")
        you = None
    prompt = data.get("prompt")
    if quiz:
        if prompt is not None and not (isinstance(prompt, dict) and all(
                k in DECLARED and _nonempty_str(v) for k, v in prompt.items())):
            problems.add(path, line("prompt"),
                         f"{label}: prompt must map languages ({', '.join(LANGUAGES)}) to text")
            prompt = None
    elif "prompt" in data and not _nonempty_str(prompt):
        problems.add(path, line("prompt"), f"{label}: prompt must be non-empty text")
        prompt = None
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, dict):
        problems.add(path, line("expect"), f"{label}: expect must be a mapping of answer fields")
        expect = None
    teaches = data.get("teaches")
    if teaches is not None and not _nonempty_str(teaches):
        problems.add(path, line("teaches"), f"{label}: teaches must be a lesson step id")
        teaches = None
    points = data.get("points")
    if points is not None and not (isinstance(points, int | float) and not isinstance(points, bool)
                                   and 0 < points <= MAX_POINTS):
        problems.add(path, line("points"), f"{label}: points must be a number above 0 and at most {MAX_POINTS}, "
                                           f"not {points!r}")
        points = None
    if not ok or not all(k in data for k in ("id", "kind", "scenario")):
        return None
    ex = Exercise(
        id=data["id"], kind=data["kind"], scenario=data["scenario"], difficulty=difficulty,
        prompt=MappingProxyType(dict(prompt)) if isinstance(prompt, dict) else prompt, you=you,
        expect=expect, teaches=teaches, points=points, step_id=step_id, lang=lang, path=path, line=here, lines=rel,
    )
    ex.try_parse()  # the typed scenario, once, at load (a scenario the engine rejects: tutor check says why)
    return ex
