"""All lessons and quizzes, loaded and validated once: the web app's :class:`ContentStore`.

``create_app`` builds one store (:meth:`ContentStore.load`) before it serves anything and keeps it
in ``app.extensions["tutor_content"]``; the look-ups of :mod:`tutor.web.exercises` read it, so no
request ever reads a content file. Broken or missing content stops start-up:
:meth:`ContentStore.load` raises :class:`~tutor.problems.ContentError` carrying every
problem the loaders found, each ``file:line: message``, and names a ruleset without English
lessons or without a quiz file. (Checking every exercise against the engine stays with
``tutor check``.)

Shapes: a store holds, for every ruleset × language, the :class:`LessonPath` in which English
steps fill in for missing translations; every quiz :class:`Exercise` by question id; the ruleset
of every step id; per (ruleset, kind) the first step with an exercise of that kind; and per
(ruleset, rule point id) the steps whose front matter ``rules`` name it, in path order.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from tutor.problems import Problems, display_path

from .exercise import LANGUAGES, RULESETS, Exercise
from .lessons import LessonPath, LessonStep, content_root, lessons_dir, load_all_paths
from .quizzes import load_all_quizzes, quiz_file

__all__ = ["ContentStore"]


@dataclass(frozen=True, eq=False)
class ContentStore:
    """The content of one content root (see the module docstring); immutable once loaded."""

    root: Path
    paths: Mapping[tuple[str, str], LessonPath]
    questions: Mapping[str, Exercise]
    step_rulesets: Mapping[str, str]
    first_steps: Mapping[tuple[str, str], str]
    rule_steps: Mapping[tuple[str, str], tuple[str, ...]]

    @classmethod
    def load(cls, root: Path | None = None) -> ContentStore:
        """Load every lesson (all rulesets and languages) and quiz under ``root`` (default
        :func:`~tutor.content.lessons.content_root`). Raises
        :class:`~tutor.problems.ContentError` with every problem (``file:line: message``)."""
        root = root or content_root()
        problems = Problems()
        own = load_all_paths(root, problems)
        quizzes = load_all_quizzes(root, problems)
        for r in RULESETS:  # a server without its lessons or quizzes must not start silently
            if not own[(r, "en")].steps:
                problems.add(display_path(lessons_dir(root) / r / "en"), 0, f"no lessons for {r}")
            if not quiz_file(r, root).is_file():
                problems.add(display_path(quiz_file(r, root)), 0, f"quiz file missing for {r}")
        problems.sort()
        problems.raise_if_any()
        paths = {key: _with_english(own[key], own[(key[0], "en")]) for key in own}
        questions = {q.id: q for ruleset in RULESETS for q in quizzes[ruleset].questions}
        step_rulesets = {s.id: r for r in RULESETS for s in paths[(r, "en")].steps}
        first_steps: dict[tuple[str, str], str] = {}
        for r in RULESETS:
            for s in paths[(r, "en")].steps:
                for e in s.exercises:
                    first_steps.setdefault((r, e.kind), s.id)
        rule_steps: dict[tuple[str, str], tuple[str, ...]] = {}
        for r in RULESETS:
            for s in paths[(r, "en")].steps:
                for rule in s.rules:
                    rule_steps[(r, rule)] = (*rule_steps.get((r, rule), ()), s.id)
        return cls(Path(root), MappingProxyType(paths), MappingProxyType(questions),
                   MappingProxyType(step_rulesets), MappingProxyType(first_steps),
                   MappingProxyType(rule_steps))

    @staticmethod
    def shared(root: Path | None = None) -> ContentStore:
        """One store per content root (default :func:`~tutor.content.lessons.content_root`) for code
        that runs outside any app (scripts, tests), loaded on first use. An app never uses it
        unless handed it (``create_app(content=...)``)."""
        return _shared((root or content_root()).resolve())

    def lesson_path(self, ruleset: str, lang: str) -> LessonPath:
        """The steps of ``ruleset`` in ``lang`` (empty for an unknown ruleset or language)."""
        return self.paths.get((ruleset, lang)) or LessonPath(ruleset, lang, ())

    def find_step(self, step_id: str, lang: str) -> LessonStep | None:
        """The step with this id in ``lang`` (any ruleset), or ``None``."""
        ruleset = self.step_rulesets.get(step_id)
        if ruleset is None or lang not in LANGUAGES:
            return None
        return self.paths[(ruleset, lang)].get(step_id)

    def quiz_questions(self, ruleset: str) -> list[Exercise]:
        """The quiz questions of ``ruleset``, in file order."""
        return [q for q in self.questions.values() if q.ruleset == ruleset]

    def first_step_of_kind(self, ruleset: str, kind: str) -> str | None:
        """The first step of ``ruleset`` (in path order) with an exercise of ``kind``, or ``None``."""
        return self.first_steps.get((ruleset, kind))

    def steps_teaching(self, ruleset: str, rule: str) -> tuple[str, ...]:
        """The ids of the steps of ``ruleset`` whose ``rules`` name the rule point ``rule`` (e.g.
        ``"H14"``), in path order; ``()`` if none does."""
        return self.rule_steps.get((ruleset, rule), ())


@functools.cache
def _shared(root: Path) -> ContentStore:
    return ContentStore.load(root)


def _with_english(path: LessonPath, english: LessonPath) -> LessonPath:
    """``path`` with the English steps it lacks (a missing translation shows the English step)."""
    if path.lang == "en":
        return path
    have = {s.id for s in path.steps}
    steps = sorted(list(path.steps) + [s for s in english.steps if s.id not in have], key=lambda s: (s.order, s.path))
    return LessonPath(path.ruleset, path.lang, tuple(steps))
