"""Quiz files: ``quizzes/<ruleset>.yaml`` → :class:`Quiz` of :class:`~tutor.content.exercise.Exercise`.

File shape (PLAN.md)::

    ruleset: hokm
    questions:
      - {id: hokm-legal-001, kind: legal-cards, difficulty: 1, teaches: hokm-follow-suit,
         scenario: {...}, expect: {...}, prompt: {en: ..., fa: ...}}   # prompt optional

Every question keeps its file and line (``Exercise.path``/``line``/``lines``). Loaders take an
optional :class:`~tutor.problems.Problems` collector; without one a problem raises
:class:`~tutor.problems.ContentError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tutor.problems import Problems, display_path
from tutor.yamllines import load_yaml

from .exercise import RULESETS, Exercise, parse_exercise
from .lessons import content_root

__all__ = ["Quiz", "load_all_quizzes", "load_quiz", "load_quiz_file", "parse_quiz", "quiz_file"]


@dataclass(frozen=True, eq=False)
class Quiz:
    """The questions of one ruleset, in file order. ``path`` is the file they came from."""

    ruleset: str
    questions: tuple[Exercise, ...]
    path: str = ""

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self.questions)

    def __len__(self) -> int:
        return len(self.questions)

    def question(self, question_id: str) -> Exercise:
        """The question with this id. Raises ``KeyError``."""
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(question_id)

    def by_kind(self, kind: str) -> tuple[Exercise, ...]:
        """Questions of one exercise kind."""
        return tuple(q for q in self.questions if q.kind == kind)


def quiz_file(ruleset: str, root: Path | None = None) -> Path:
    """``<root>/quizzes/<ruleset>.yaml``."""
    return (root or content_root()) / "quizzes" / f"{ruleset}.yaml"


def parse_quiz(text: str, path: str, problems: Problems, ruleset: str | None = None, *,
               match_name: bool = True, optional: tuple[str, ...] = ()) -> Quiz | None:
    """Parse a quiz file's text (``ruleset`` defaults to the file name's stem; with
    ``match_name=False`` the file's own ``ruleset`` is taken, whatever the file is called: an
    imported or a teacher's quiz; ``optional``: question fields not required, as
    :func:`~tutor.content.exercise.parse_exercise`). Problems go to ``problems``; returns ``None`` when the file is
    not a usable quiz, else the quiz with every question that could be built."""
    ruleset = ruleset or Path(path).stem
    before = len(problems)
    data, lines = load_yaml(text.lstrip("\ufeff"), path, problems)
    if data is None and len(problems) > before:
        return None
    if not isinstance(data, dict):
        problems.add(path, 1, "a quiz file must be a mapping with 'ruleset' and 'questions'")
        return None
    for key in data:
        if key not in ("ruleset", "questions"):
            problems.add(path, lines.get(str(key), 1), f"unknown top-level field {key!r}")
    if data.get("ruleset") not in RULESETS:
        problems.add(path, lines.get("ruleset", 1),
                     f"ruleset must be one of {', '.join(RULESETS)}, not {data.get('ruleset')!r}")
    elif not match_name:
        ruleset = data["ruleset"]
    elif data["ruleset"] != ruleset:
        problems.add(path, lines.get("ruleset", 1),
                     f"ruleset {data['ruleset']!r} does not match the file name ({ruleset}.yaml)")
    qs = data.get("questions")
    if not isinstance(qs, list):
        problems.add(path, lines.get("questions", 1), "questions must be a list")
        return Quiz(ruleset, (), path)
    out = []
    # each question gets only its own lines (and its parents'): handing every question all the
    # file's lines made a long file quadratic (2,000 questions took 9 s)
    per_question: dict[str, dict[str, int]] = {}
    for key, number in lines.items():
        parts = key.split(".", 2)
        if len(parts) >= 2 and parts[0] == "questions":
            per_question.setdefault(parts[1], {})[key] = number
    parents = {k: v for k, v in lines.items() if k in ("", "questions")}
    for i, q in enumerate(qs):
        own = {**parents, **per_question.get(str(i), {})}
        ex = parse_exercise(q, own, f"questions.{i}", path=path, problems=problems, quiz=True, optional=optional)
        if ex is not None:
            out.append(ex)
    return Quiz(ruleset, tuple(out), path)


def load_quiz_file(path: str | Path, problems: Problems | None = None, *, shown: str | None = None,
                   match_name: bool = True) -> Quiz | None:
    """Load one quiz file; see :func:`parse_quiz` (``match_name``). Without ``problems`` raises
    :class:`~tutor.problems.ContentError` on any problem."""
    own = problems is None
    problems = Problems() if problems is None else problems
    shown = shown or display_path(path)
    quiz = None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        problems.add(shown, 1, f"file is not UTF-8 text ({exc.reason})")
    except OSError as exc:
        problems.add(shown, 0, f"cannot read file: {exc.strerror}")
    else:
        quiz = parse_quiz(text, shown, problems, match_name=match_name)
    if own:
        problems.raise_if_any()
    return quiz


def load_quiz(ruleset: str, root: Path | None = None, problems: Problems | None = None) -> Quiz:
    """The quiz of ``ruleset`` (an empty :class:`Quiz` if the file does not exist)."""
    path = quiz_file(ruleset, root)
    if not path.exists():
        return Quiz(ruleset, (), str(path))
    return load_quiz_file(path, problems) or Quiz(ruleset, (), str(path))


def load_all_quizzes(root: Path | None = None, problems: Problems | None = None) -> dict[str, Quiz]:
    """Quiz of every ruleset, keyed by ruleset name."""
    return {r: load_quiz(r, root, problems) for r in RULESETS}
