"""Lesson steps: loading ``lessons/<ruleset>/<lang>/NN-slug.md`` into value types.

A step file is YAML front matter between ``---`` lines, then a Markdown body that may contain
fenced blocks with the info string ``exercise`` (YAML; see :mod:`tutor.content.exercise`).

Shapes:

* :class:`LessonStep` — front matter fields (``id, ruleset, unit, unit_title, order, title, goal,
  rules, source``), ``lang``, ``exercises`` (tuple of :class:`~tutor.content.exercise.Exercise`),
  ``segments`` (sanitised HTML pieces of the body: exercise ``i`` stands between ``segments[i]``
  and ``segments[i + 1]``, so there is always one more segment than exercises), ``html`` (all
  segments joined), ``markdown`` (the same pieces as the Markdown source, lines joined with
  ``"\n"``: what an export writes back), ``path`` and ``lines`` (front-matter field -> line).
* :class:`Unit` — ``number``, ``title``, ``steps``.
* :class:`LessonPath` — every step of one ruleset in one language, ordered by ``order``; look-ups
  by step id, previous/next step, units.

Loaders take an optional :class:`~tutor.problems.Problems` collector: problems (with
``file:line``) are added to it and whatever could be loaded is returned; without a collector the
first load that finds a problem raises :class:`~tutor.problems.ContentError`.

The content root is the content shipped with the code (:func:`tutor.shipped_content`: the
repository root in a checkout, ``tutor/_content/`` in an installed wheel) unless the environment
variable ``TUTOR_CONTENT_DIR`` names another directory (it must hold ``lessons/`` and ``quizzes/``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import markdown
import nh3

from tutor import shipped_content
from tutor.problems import ContentError, Problem, Problems, display_path
from tutor.yamllines import load_yaml

from ..i18n.registry import DECLARED
from .exercise import LANGUAGES, RULESETS, Exercise, parse_exercise

__all__ = [
    "LANGUAGES",
    "RULESETS",
    "STEP_FIELDS",
    "ContentError",
    "Exercise",
    "LessonPath",
    "LessonStep",
    "Problem",
    "Problems",
    "Unit",
    "content_root",
    "lessons_dir",
    "load_all_paths",
    "load_lesson_path",
    "load_step",
    "parse_step",
    "render_markdown",
]

#: Front-matter field -> expected type (all required).
STEP_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "ruleset": str, "unit": int, "unit_title": str, "order": int, "title": str, "goal": str,
    "rules": list, "source": str,
}

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*exercise\s*$")


def content_root() -> Path:
    """Directory holding ``lessons/`` and ``quizzes/``: ``$TUTOR_CONTENT_DIR`` or the shipped content."""
    env = os.environ.get("TUTOR_CONTENT_DIR")
    return Path(env) if env else shipped_content()


def lessons_dir(root: Path | None = None) -> Path:
    """``<root>/lessons``."""
    return (root or content_root()) / "lessons"


@dataclass(frozen=True, eq=False)
class LessonStep:
    """One lesson step in one language (see module docstring for the fields)."""

    id: str
    ruleset: str
    lang: str
    unit: int
    unit_title: str
    order: int
    title: str
    goal: str
    rules: tuple[str, ...]
    source: str
    body: str = ""
    segments: tuple[str, ...] = ("",)
    markdown: tuple[str, ...] = ("",)
    exercises: tuple[Exercise, ...] = ()
    path: str = ""
    lines: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", MappingProxyType(dict(self.lines)))

    @property
    def html(self) -> str:
        """The whole body as sanitised HTML, without the exercise blocks."""
        return "".join(self.segments)

    def parts(self) -> Iterator[tuple[str, str | Exercise]]:
        """The body in page order: ``("html", str)`` and ``("exercise", Exercise)`` items
        (empty HTML pieces are skipped)."""
        for i, seg in enumerate(self.segments):
            if seg.strip():
                yield "html", seg
            if i < len(self.exercises):
                yield "exercise", self.exercises[i]

    def exercise(self, exercise_id: str) -> Exercise:
        """The exercise with this id. Raises ``KeyError``."""
        for ex in self.exercises:
            if ex.id == exercise_id:
                return ex
        raise KeyError(exercise_id)

    def line_of(self, name: str) -> int:
        """Line of a front-matter field (1 if unknown)."""
        return self.lines.get(name, 1)


@dataclass(frozen=True)
class Unit:
    """A unit of a lesson path: ``number``, ``title`` (in the path's language), ordered ``steps``."""

    number: int
    title: str
    steps: tuple[LessonStep, ...]


@dataclass(frozen=True, eq=False)
class LessonPath:
    """All steps of ``ruleset`` in ``lang``, ordered by ``order``."""

    ruleset: str
    lang: str
    steps: tuple[LessonStep, ...]

    def __iter__(self) -> Iterator[LessonStep]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __contains__(self, step_id: object) -> bool:
        return any(s.id == step_id for s in self.steps)

    @property
    def units(self) -> tuple[Unit, ...]:
        """Steps grouped by unit number, in path order (the first step's ``unit_title`` names a unit)."""
        groups: dict[int, list[LessonStep]] = {}
        for s in self.steps:
            groups.setdefault(s.unit, []).append(s)
        return tuple(Unit(n, ss[0].unit_title, tuple(ss)) for n, ss in groups.items())

    def step(self, step_id: str) -> LessonStep:
        """The step with this id. Raises ``KeyError``."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(step_id)

    def get(self, step_id: str) -> LessonStep | None:
        """The step with this id, or ``None``."""
        try:
            return self.step(step_id)
        except KeyError:
            return None

    def index(self, step_id: str) -> int:
        """0-based position of the step. Raises ``KeyError``."""
        for i, s in enumerate(self.steps):
            if s.id == step_id:
                return i
        raise KeyError(step_id)

    def next_step(self, step_id: str) -> LessonStep | None:
        """The step after ``step_id`` (``None`` at the end). Raises ``KeyError`` for an unknown id."""
        i = self.index(step_id)
        return self.steps[i + 1] if i + 1 < len(self.steps) else None

    def previous_step(self, step_id: str) -> LessonStep | None:
        """The step before ``step_id`` (``None`` at the start). Raises ``KeyError`` for an unknown id."""
        i = self.index(step_id)
        return self.steps[i - 1] if i > 0 else None

    def exercise(self, step_id: str, exercise_id: str) -> Exercise:
        """Exercise ``exercise_id`` of step ``step_id``. Raises ``KeyError``."""
        return self.step(step_id).exercise(exercise_id)


def render_markdown(text: str) -> str:
    """Markdown → HTML (tables, sane lists) sanitised with nh3 (no scripts, styles or event attributes)."""
    html = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return nh3.clean(html)


def _split_front_matter(text: str, path: str, problems: Problems) -> tuple[str | None, int, list[str], int]:
    """Return (front matter text, its first line, body lines, first body line)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        problems.add(path, 1, "missing front matter: the file must start with a '---' line")
        return None, 0, lines, 1
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return "\n".join(lines[1:i]), 2, lines[i + 1:], i + 2
    problems.add(path, 1, "front matter is not closed: add a '---' line after it")
    return None, 0, lines, 1


def _check_front_matter(data: object, lines: Mapping[str, int], path: str, problems: Problems) -> bool:
    if not isinstance(data, dict):
        problems.add(path, 2, "front matter must be a YAML mapping of fields")
        return False
    ok = True
    for name, typ in STEP_FIELDS.items():
        if name not in data:
            problems.add(path, 1, f"front matter: missing required field {name!r}")
            ok = False
            continue
        v = data[name]
        line = lines.get(name, 2)
        if typ is int and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            problems.add(path, line, f"front matter: {name} must be a positive whole number, not {v!r}")
            ok = False
        elif typ is str and (not isinstance(v, str) or not v.strip()):
            problems.add(path, line, f"front matter: {name} must be non-empty text, not {v!r}")
            ok = False
        elif typ is list and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            problems.add(path, line, f"front matter: {name} must be a list of rule ids like [H13, H14]")
            ok = False
    for name in data:
        if name not in STEP_FIELDS:
            problems.add(path, lines.get(str(name), 2), f"front matter: unknown field {name!r}")
    if isinstance(data.get("ruleset"), str) and data["ruleset"] not in RULESETS:
        problems.add(path, lines.get("ruleset", 2),
                     f"front matter: unknown ruleset {data['ruleset']!r} (use {', '.join(RULESETS)})")
        ok = False
    return ok


def parse_step(text: str, path: str, problems: Problems, lang: str | None = None) -> LessonStep | None:
    """Parse one step file's text. ``path`` is used in problems; ``lang`` defaults to the name of
    the file's directory. Problems go to ``problems``; returns ``None`` if the front matter is
    unusable, else the step (exercises with structural problems are left out)."""
    if lang is None:
        parent = Path(path).parent.name
        lang = parent if parent in DECLARED else ""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    fm_text, fm_line, body_lines, body_start = _split_front_matter(text, path, problems)
    if fm_text is None:
        return None
    before = len(problems)
    data, fm_lines = load_yaml(fm_text, path, problems, first_line=fm_line)
    if data is None and len(problems) > before:
        return None
    if not _check_front_matter(data, fm_lines, path, problems):
        return None
    assert isinstance(data, dict)
    step_id = data["id"]

    segments: list[list[str]] = [[]]
    exercises: list[Exercise] = []
    kept: list[str] = []
    i = 0
    while i < len(body_lines):
        m = _FENCE_OPEN.match(body_lines[i])
        if not m:
            segments[-1].append(body_lines[i])
            kept.append(body_lines[i])
            i += 1
            continue
        fence = m.group(1)
        start = body_start + i
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(body_lines) and not close.match(body_lines[j]):
            j += 1
        if j >= len(body_lines):
            problems.add(path, start, "exercise block is not closed: add a closing ``` line")
            break
        block, blines = load_yaml("\n".join(body_lines[i + 1:j]), path, problems, first_line=start + 1)
        blines[""] = start
        if block is not None:
            ex = parse_exercise(block, blines, "", path=path, problems=problems, quiz=False,
                                step_id=step_id, lang=lang)
            if ex is not None:
                exercises.append(ex)
                segments.append([])
        i = j + 1
    html = tuple(render_markdown("\n".join(seg)) if "".join(seg).strip() else "" for seg in segments)
    return LessonStep(
        id=step_id, ruleset=data["ruleset"], lang=lang, unit=data["unit"], unit_title=data["unit_title"],
        order=data["order"], title=data["title"], goal=data["goal"], rules=tuple(data["rules"]),
        source=data["source"], body="\n".join(kept).strip() + "\n", segments=html,
        markdown=tuple("\n".join(seg) for seg in segments),
        exercises=tuple(exercises), path=path, lines={k: v for k, v in fm_lines.items() if k},
    )


def _read(path: Path, shown: str, problems: Problems) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        problems.add(shown, 1, f"file is not UTF-8 text ({exc.reason})")
    except OSError as exc:
        problems.add(shown, 0, f"cannot read file: {exc.strerror}")
    return None


def load_step(path: str | Path, problems: Problems | None = None, *, shown: str | None = None) -> LessonStep | None:
    """Load one step file. ``shown`` is the path text used in problems (default ``str(path)``).

    Without ``problems`` a problem raises :class:`ContentError`; with it, returns what could be
    loaded (``None`` when the front matter is unusable)."""
    own = problems is None
    problems = Problems() if problems is None else problems
    shown = shown or display_path(path)
    text = _read(Path(path), shown, problems)
    step = parse_step(text, shown, problems, lang=None) if text is not None else None
    if own:
        problems.raise_if_any()
    return step


def step_files(ruleset: str, lang: str, root: Path | None = None) -> list[Path]:
    """The ``*.md`` files of ``lessons/<ruleset>/<lang>``, sorted by name (may be empty)."""
    d = lessons_dir(root) / ruleset / lang
    return sorted(p for p in d.glob("*.md") if p.is_file()) if d.is_dir() else []


def load_lesson_path(ruleset: str, lang: str, root: Path | None = None,
                     problems: Problems | None = None) -> LessonPath:
    """Load every step of ``ruleset`` in ``lang`` into a :class:`LessonPath` (ordered by ``order``,
    then file name). Missing directory → an empty path. Raises :class:`ContentError` on problems
    unless ``problems`` is given (then broken files are left out)."""
    own = problems is None
    problems = Problems() if problems is None else problems
    steps = [s for p in step_files(ruleset, lang, root) if (s := load_step(p, problems)) is not None]
    if own:
        problems.raise_if_any()
    steps.sort(key=lambda s: (s.order, s.path))
    return LessonPath(ruleset, lang, tuple(steps))


def load_all_paths(root: Path | None = None, problems: Problems | None = None) -> dict[tuple[str, str], LessonPath]:
    """Every ``(ruleset, lang)`` lesson path (all rulesets × languages, empty ones included)."""
    return {(r, lang): load_lesson_path(r, lang, root, problems) for r in RULESETS for lang in LANGUAGES}
