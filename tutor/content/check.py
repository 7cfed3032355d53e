"""``tutor check [PATH...] [--all-languages]``: validate lesson and quiz files against the engine.

With no PATH every file under ``lessons/`` and ``quizzes/`` of the content root is checked, in
every language of the registry, with rule coverage (``lessons/COVERAGE.md``) and completeness (at least 25
steps per ruleset and language, at least 60 quiz questions per ruleset spread over every kind
and difficulty). With PATHs (files or directories) only those files are checked; lesson
directories given whole are also checked for unique ids and contiguous order; ``--all-languages``
adds the translation checks for every ruleset touched; a ``COVERAGE.md`` among the paths adds the
coverage check.

What is checked:

* syntax: front matter, YAML of exercise blocks and quiz files (with the line of the error);
* required fields and their types, unknown fields; ``ruleset`` matches the directory / file name;
  the file number ``NN`` matches ``order``; ``rules`` are real RULES.md ids;
* each exercise: known ``kind``; an ``ask`` the kind takes; the scenario's ruleset; every card
  written correctly (the exact item is named); the engine accepts the scenario (else the engine's
  error code and message); ``expect`` gives the field the kind checks and every authored field
  equals the engine's answer (``legal`` compared as a set; cards and suits compared canonically);
  ``you`` is a seat; exercise ids unique in a step, question ids unique across quizzes;
* a quiz question's ``teaches`` names a real lesson step of its ruleset;
* step ids unique per language; ``order`` runs 1..N; units numbered in order with one title;
* translations: the same files in every language of the registry with identical id, order, unit,
  rules and identical exercise blocks except ``prompt`` (a missing translation is an error, but for
  a language marked ``partial``, which shows the English step instead);
* languages (with no PATH): every ``locales/<code>/language.yaml`` valid and every language with
  its catalogue (:func:`tutor.i18n.registry.check_languages`);
* coverage: every rule point (C1-C33, T1-T22, H1-H27) has a COVERAGE.md row naming real steps
  that list it in ``rules``, and is checked: at least one lesson exercise and two quiz or
  generated questions have an engine verdict that cites it (:mod:`tutor.content.coverage`; a
  point on the section's ``Not yet checked:`` line is a known gap). ``--coverage`` prints the
  table.

Every problem is printed as ``file:line: message``; the exit status is 2 if there was any, else 0
with a one-line summary. :func:`check` returns a :class:`Report` for programmatic use.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tutor.problems import Problems, display_path

from ..i18n.registry import DECLARED, REGISTRY, check_languages
from .coverage import COVERED_RULES, RULE_IDS, PointCoverage, check_coverage, coverage_table
from .exercise import LANGUAGES, RULESETS, Exercise
from .exercise_check import check_exercise, same_answer
from .kinds import KINDS
from .lessons import LessonStep, content_root, load_step
from .quizzes import Quiz, load_quiz_file

__all__ = [
    "COVERED_RULES", "MIN_QUESTIONS", "MIN_STEPS", "RULE_IDS", "Report", "check", "check_exercise", "check_step_exercises", "main",
    "same_answer",
]

MIN_STEPS = 25
MIN_QUESTIONS = 60

_FILE_NUMBER = re.compile(r"^(\d+)-[^/]+\.md$")


@dataclass
class Report:
    """Result of a check: ``problems`` (sorted by file and line) and counts of what was checked."""

    problems: Problems = field(default_factory=Problems)
    lesson_files: int = 0
    quiz_files: int = 0
    exercises: int = 0
    questions: int = 0
    #: Each ruleset's rule points as taught and checked (when a coverage file was checked).
    coverage: dict[str, list[PointCoverage]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """One line: what was checked and how many problems were found."""
        what = (f"{self.lesson_files} lesson files, {self.exercises} exercises, "
                f"{self.quiz_files} quiz files, {self.questions} questions")
        if self.ok:
            return f"tutor check: OK ({what})"
        return f"tutor check: {len(self.problems)} error(s) ({what})"


# ----------------------------------------------------------------------------- lessons

@dataclass
class _Lesson:
    path: Path
    shown: str
    root: Path
    ruleset: str
    lang: str
    step: LessonStep | None


def _unreadable(e: Exception) -> str:
    if isinstance(e, RecursionError):
        return "the file cannot be read: it is nested too deeply"
    return f"the file cannot be read: {str(e)[:80]}"


def _locate(path: Path) -> tuple[Path, str, str] | None:
    """``(root, ruleset, lang)`` of ``root/lessons/<ruleset>/<lang>/file.md``, or ``None``."""
    p = path.resolve()
    if len(p.parents) >= 4 and p.parents[2].name == "lessons":
        return p.parents[3], p.parents[1].name, p.parent.name
    return None


class _Session:
    def __init__(self, problems: Problems):
        self.problems = problems
        self.lessons: dict[Path, _Lesson] = {}
        self.quiet = Problems()

    def lesson(self, path: Path, report: bool = True) -> _Lesson:
        key = path.resolve()
        if key not in self.lessons:
            shown = display_path(path)
            loc = _locate(path)
            sink = self.problems if report else self.quiet
            try:
                step = load_step(path, sink, shown=shown)
            except (RecursionError, ValueError) as e:  # defensive: yamllines refuses such files first
                sink.add(shown, 1, _unreadable(e))
                step = None
            if loc is None:
                root, ruleset, lang = path.resolve().parent, step.ruleset if step else "", ""
                sink.add(shown, 1, "a lesson file must be at lessons/<ruleset>/<lang>/NN-slug.md")
            else:
                root, ruleset, lang = loc
            self.lessons[key] = _Lesson(path, shown, root, ruleset, lang, step)
        return self.lessons[key]

    def steps_of(self, root: Path, ruleset: str, lang: str = "en") -> dict[str, LessonStep]:
        """Step id -> step of a lesson directory (loaded quietly if not checked)."""
        d = root / "lessons" / ruleset / lang
        out: dict[str, LessonStep] = {}
        for p in sorted(d.glob("*.md")) if d.is_dir() else []:
            les = self.lesson(p, report=False) if p.resolve() not in self.lessons else self.lessons[p.resolve()]
            if les.step is not None:
                out.setdefault(les.step.id, les.step)
        return out


def _check_lesson_file(les: _Lesson, problems: Problems, report: Report) -> None:
    step = les.step
    report.lesson_files += 1
    if step is None:
        return
    if les.ruleset in RULESETS and step.ruleset != les.ruleset:
        problems.add(les.shown, step.line_of("ruleset"),
                     f"ruleset {step.ruleset!r} but the file is in lessons/{les.ruleset}/")
    if les.lang and les.lang not in DECLARED:
        problems.add(les.shown, 1, f"unknown language directory {les.lang!r} (use {', '.join(LANGUAGES)})")
    m = _FILE_NUMBER.match(les.path.name)
    if not m:
        problems.add(les.shown, 1, f"file name {les.path.name!r} must look like NN-slug.md")
    elif int(m.group(1)) != step.order:
        problems.add(les.shown, step.line_of("order"),
                     f"order is {step.order} but the file name starts with {m.group(1)}")
    for rule in step.rules:
        if rule not in RULE_IDS:
            problems.add(les.shown, step.line_of("rules"),
                         f"rules: {rule!r} is not a rule point (C1-C33, T1-T23, H1-H27, K1-K27, def-*: "
                         "tutor rule --list)")
    report.exercises += check_step_exercises(step, problems, les.shown)


def check_step_exercises(step: LessonStep, problems: Problems, shown: str | None = None) -> int:
    """Every exercise of a lesson step against the engine (:func:`check_exercise`), each id once
    in the step; returns how many exercises. The checks of a lesson file by ``tutor check``, of
    an imported lesson file and of a teacher's lesson. ``shown``: the file's name in problems
    (default: the path it was parsed from)."""
    seen: set[str] = set()
    for ex in step.exercises:
        if ex.id in seen:
            problems.add(shown or ex.path, ex.line_of("id"), f"exercise id {ex.id!r} is used twice in this step")
        seen.add(ex.id)
        check_exercise(ex, step.ruleset, problems)
    return len(step.exercises)


def _check_directory(lessons: list[_Lesson], problems: Problems, completeness: bool) -> None:
    """Order 1..N, units in order with one title each, enough steps (one ruleset, one language)."""
    steps = sorted(((les, les.step) for les in lessons if les.step), key=lambda pair: pair[1].order)
    if not lessons:
        return
    by_order: dict[int, tuple[_Lesson, LessonStep]] = {}
    for les, s in steps:
        other = by_order.get(s.order)
        if other:
            problems.add(les.shown, s.line_of("order"), f"order {s.order} is also used by {other[0].shown}")
        by_order[s.order] = (les, s)
    expected = 1
    for order in sorted(by_order):
        if order != expected:
            les, s = by_order[order]
            problems.add(les.shown, s.line_of("order"),
                         f"order jumps to {order}: the steps must be numbered 1, 2, 3 … without gaps "
                         f"(expected {expected})")
        expected = order + 1
    unit = 0
    titles: dict[int, tuple[str, str]] = {}
    for les, s in steps:
        if s.unit < unit or s.unit > unit + 1:
            problems.add(les.shown, s.line_of("unit"),
                         f"unit {s.unit} after unit {unit}: units must run 1, 2, 3 … in step order")
        if s.unit in titles and titles[s.unit][0] != s.unit_title:
            problems.add(les.shown, s.line_of("unit_title"),
                         f"unit_title {s.unit_title!r} differs from {titles[s.unit][0]!r} in {titles[s.unit][1]} "
                         f"(same unit {s.unit})")
        titles.setdefault(s.unit, (s.unit_title, les.shown))
        unit = max(unit, s.unit)
    if completeness and len(steps) < MIN_STEPS:
        d = Path(lessons[0].shown).parent
        problems.add(str(d), 0, f"only {len(steps)} lesson steps: each ruleset needs at least {MIN_STEPS}")


def _check_unique_step_ids(session: _Session, problems: Problems) -> None:
    """A step id names one step per language, across every ruleset."""
    first: dict[tuple[Path, str, str], _Lesson] = {}
    for les in sorted(session.lessons.values(), key=lambda x: x.shown):
        if les.step is None:
            continue
        key = (les.root, les.lang, les.step.id)
        if key in first:
            problems.add(les.shown, les.step.line_of("id"),
                         f"step id {les.step.id!r} is also used by {first[key].shown}")
        else:
            first[key] = les


def _exercise_fields(ex: Exercise) -> dict[str, Any]:
    return {"kind": ex.kind, "difficulty": ex.difficulty, "you": ex.you, "scenario": ex.scenario,
            "expect": ex.expect}


def _check_translations(root: Path, ruleset: str, session: _Session, problems: Problems) -> None:
    """Every language has the same files, ids, order, unit, rules and exercise blocks as English."""
    base = root / "lessons" / ruleset
    files = {lang: {p.name: p for p in sorted((base / lang).glob("*.md"))} if (base / lang).is_dir() else {}
             for lang in LANGUAGES}
    ref_lang = next((lang for lang in ("en", *LANGUAGES) if files[lang]), None)  # English first
    if ref_lang is None:
        return
    ref = files[ref_lang]
    for lang in LANGUAGES:
        if lang == ref_lang:
            continue
        if not files[lang]:
            if REGISTRY[lang].partial:  # a partial language shows the English lessons it lacks
                continue
            problems.add(display_path(base / lang), 0,
                         f"missing translation: no {lang} lesson files ({len(ref)} in {display_path(base / ref_lang)})")
            continue
        for name, ref_path in ref.items():
            if name not in files[lang] and not REGISTRY[lang].partial:
                problems.add(display_path(ref_path), 1,
                             f"missing translation: {display_path(base / lang / name)} does not exist")
        for name, path in files[lang].items():
            other = session.lesson(path)
            if name not in ref:
                problems.add(other.shown, 1, f"no {ref_lang} file {name}: every language must have the same files")
                continue
            _compare_steps(session.lesson(ref[name]), other, problems)


def _compare_steps(ref: _Lesson, other: _Lesson, problems: Problems) -> None:
    a, b = ref.step, other.step
    if a is None or b is None:  # a file that does not load is reported on its own
        return
    for name in ("id", "ruleset", "order", "unit", "rules"):
        va, vb = getattr(a, name), getattr(b, name)
        if va != vb:
            show = list if name == "rules" else (lambda v: v)
            problems.add(other.shown, b.line_of(name),
                         f"{name} is {show(vb)!r} but {show(va)!r} in {ref.shown} (must be identical in every language)")
    ids_a, ids_b = [e.id for e in a.exercises], [e.id for e in b.exercises]
    if ids_a != ids_b:
        problems.add(other.shown, b.exercises[0].line if b.exercises else 1,
                     f"exercise blocks {ids_b} differ from {ids_a} in {ref.shown} "
                     "(same blocks, same order in every language)")
        return
    for ea, eb in zip(a.exercises, b.exercises, strict=True):
        for name, va, vb in _differences(_exercise_fields(ea), _exercise_fields(eb)):
            problems.add(other.shown, eb.line_of(name),
                         f"exercise {eb.id}: {name} is {vb!r} but {va!r} in {ref.shown} "
                         "(only prompt may differ between languages)")


def _differences(a: dict[str, Any], b: dict[str, Any], prefix: str = "") -> list[tuple[str, object, object]]:
    """``(dotted field, value in a, value in b)`` for each differing field; nested mappings
    (scenario, expect) are compared key by key (a missing key shows as ``None``)."""
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        va, vb = a.get(key), b.get(key)
        name = f"{prefix}{key}"
        if isinstance(va, dict) and isinstance(vb, dict):
            out += _differences(va, vb, name + ".")
        elif va != vb:
            out.append((name, va, vb))
    return out


# ----------------------------------------------------------------------------- quizzes

def _check_quiz(path: Path, session: _Session, problems: Problems, report: Report, seen_ids: dict[str, str],
                completeness: bool) -> None:
    shown = display_path(path)
    report.quiz_files += 1
    try:
        # quizzes/<ruleset>.yaml must say that ruleset; any other file (a copy, a teacher's quiz)
        # is about the ruleset its content names
        quiz: Quiz | None = load_quiz_file(path, problems, shown=shown, match_name=path.stem in RULESETS)
    except (RecursionError, ValueError) as e:  # defensive: yamllines refuses such files first
        problems.add(shown, 1, _unreadable(e))
        return
    if quiz is None:
        return
    known = quiz.ruleset in RULESETS  # else its one problem is at the ruleset line, not per question
    ruleset = quiz.ruleset
    root = path.resolve().parent.parent
    if not (root / "lessons").is_dir():  # a quiz outside a content tree: the project's own lessons
        root = content_root()
    steps = session.steps_of(root, ruleset) if known else {}
    if not steps:
        for lang in LANGUAGES:
            steps = session.steps_of(root, ruleset, lang)
            if steps:
                break
    for q in quiz.questions:
        report.questions += 1
        where = f"{shown}:{q.line}"
        if q.id in seen_ids:
            problems.add(shown, q.line_of("id"), f"question id {q.id!r} is also used at {seen_ids[q.id]}")
        else:
            seen_ids[q.id] = where
        if known and q.teaches is not None and q.teaches not in steps:
            problems.add(shown, q.line_of("teaches"),
                         f"question {q.id}: teaches {q.teaches!r} is not a lesson step of {ruleset}")
        check_exercise(q, ruleset if known else None, problems)
    if completeness and ruleset in RULESETS:
        n = len(quiz.questions)
        if n < MIN_QUESTIONS:
            problems.add(shown, 1, f"only {n} questions: each ruleset needs at least {MIN_QUESTIONS}")
        kinds = {q.kind for q in quiz.questions}
        missing = [k for k, v in KINDS.items() if ruleset in v.rulesets and k not in kinds]
        if missing:
            problems.add(shown, 1, f"no questions of kind {', '.join(missing)} (every kind of {ruleset} needs some)")
        diffs = {q.difficulty for q in quiz.questions}
        if n and diffs != {1, 2, 3}:
            problems.add(shown, 1, f"no questions of difficulty {', '.join(str(d) for d in {1, 2, 3} - diffs)}")


# ----------------------------------------------------------------------------- driver

def _expand(paths: Sequence[str], problems: Problems) -> tuple[list[Path], list[Path], list[Path], list[Path]]:
    """(lesson files, quiz files, coverage files, whole lesson directories) named by ``paths``."""
    lessons: list[Path] = []
    quizzes: list[Path] = []
    coverage: list[Path] = []
    dirs: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file():
                    _classify(f, lessons, quizzes, coverage)
            for d in [p, *sorted(x for x in p.rglob("*") if x.is_dir())]:
                if any(d.glob("*.md")) and d.name in LANGUAGES:
                    dirs.append(d)
        elif p.is_file():
            _classify(p, lessons, quizzes, coverage)
        else:
            problems.add(raw, 0, "no such file or directory")
    return lessons, quizzes, coverage, dirs


def _classify(f: Path, lessons: list[Path], quizzes: list[Path], coverage: list[Path]) -> None:
    if f.name == "COVERAGE.md":
        coverage.append(f)
    elif f.suffix == ".md" and f.name != "README.md":
        lessons.append(f)
    elif f.suffix in (".yaml", ".yml"):
        quizzes.append(f)


def check(paths: Sequence[str] | None = None, *, all_languages: bool | None = None,
          root: Path | None = None) -> Report:
    """Check content files; see the module docstring. ``paths``: files/directories (default: the
    whole content root, ``root`` or :func:`~tutor.content.lessons.content_root`, with every
    language, coverage and completeness)."""
    report = Report()
    problems = report.problems
    full = not paths
    root = root or content_root()  # checked whole when no paths are named
    names = list(paths or ())
    if full:
        names = [str(root / "lessons"), str(root / "quizzes")]
        if all_languages is None:
            all_languages = True
        for sub in ("lessons", "quizzes"):
            if not (root / sub).is_dir():
                problems.add(display_path(root / sub), 0, "directory missing")
    session = _Session(problems)
    lesson_files, quiz_files, coverage_files, dirs = _expand([p for p in names if Path(p).exists()] if full
                                                             else names, problems)
    for f in lesson_files:
        _check_lesson_file(session.lesson(f), problems, report)
    for d in dirs:
        _check_directory([session.lesson(f) for f in sorted(d.glob("*.md"))], problems, completeness=full)
    _check_unique_step_ids(session, problems)
    touched: dict[tuple[Path, str], None] = {}
    for f in lesson_files:
        les = session.lessons[f.resolve()]
        if les.ruleset in RULESETS:
            touched[(les.root, les.ruleset)] = None
    if all_languages:
        for root_, ruleset in touched:
            _check_translations(root_, ruleset, session, problems)
            if not full:  # also check the translated files themselves
                for lang in LANGUAGES:
                    d = root_ / "lessons" / ruleset / lang
                    for f in sorted(d.glob("*.md")) if d.is_dir() else []:
                        if f.resolve() not in {x.resolve() for x in lesson_files}:
                            _check_lesson_file(session.lesson(f), problems, report)
                    if d.is_dir() and d.resolve() not in {x.resolve() for x in dirs}:
                        _check_directory([session.lesson(f) for f in sorted(d.glob("*.md"))], problems, False)
    if full:
        for ruleset in RULESETS:
            if (root.resolve(), ruleset) not in touched:
                problems.add(display_path(root / "lessons" / ruleset), 0, f"no lessons for {ruleset}")
    seen_ids: dict[str, str] = {}
    for f in quiz_files:
        _check_quiz(f, session, problems, report, seen_ids, completeness=full)
    if full:
        for ruleset in RULESETS:
            if not (root / "quizzes" / f"{ruleset}.yaml").exists():
                problems.add(display_path(root / "quizzes" / f"{ruleset}.yaml"), 0, "quiz file missing")
    for f in coverage_files:
        report.coverage.update(check_coverage(f, session, problems, RULESETS if full else
                                              sorted({r for (_, r) in touched}) or RULESETS))
    if full and not coverage_files:
        problems.add(display_path(root / "lessons" / "COVERAGE.md"), 0, "coverage file missing")
    if full:  # the languages: locales/<code>/language.yaml and its catalogue
        problems.extend(check_languages())
    problems[:] = sorted(set(problems), key=lambda p: (p.path, p.line, p.message))
    return report


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``tutor check`` entry point; prints problems and a summary to ``out`` (stdout). Returns 2 on
    any problem, else 0."""
    parser = argparse.ArgumentParser(prog="tutor check", description="Check lesson and quiz files.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args, out)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tutor check`` (shared by :func:`main` and the ``tutor`` CLI)."""
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="lesson/quiz files or directories (default: all of lessons/ and quizzes/)")
    parser.add_argument("--all-languages", action="store_true", default=None,
                        help="also check the translations of every ruleset touched (default without PATH)")
    parser.add_argument("--coverage", action="store_true",
                        help="print the rule coverage table: per rule point the steps that teach it and the "
                             "exercises, quiz and generated questions whose verdict cites it")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the check for parsed ``args``; see :func:`main`."""
    out = out or sys.stdout
    report = check(args.paths or None, all_languages=args.all_languages)
    for p in report.problems:
        out.write(f"{p}\n")
    if getattr(args, "coverage", False):
        out.write(coverage_table(report.coverage))
    out.write(report.summary() + "\n")
    return 0 if report.ok else 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
