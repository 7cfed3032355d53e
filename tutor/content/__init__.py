"""Lesson and quiz content: loading, exercise kinds and grading, generators, ``tutor check``.

* :mod:`tutor.content.lessons` — lesson steps (``LessonStep``, ``Unit``, ``LessonPath``);
* :mod:`tutor.content.quizzes` — quiz files (``Quiz``);
* :mod:`tutor.content.exercise` — the ``Exercise`` value type shared by both;
* :mod:`tutor.content.kinds` — exercise kinds: parse a learner's answer, ``grade`` it against the
  engine, ``public_view`` of an exercise before it is answered;
* :mod:`tutor.content.generators` — seeded exercise generators (``tutor gen``);
* :mod:`tutor.content.check` — the content validator (``tutor check``).

No web framework is imported here.
"""

from tutor.problems import ContentError, Problem, Problems

from .exercise import LANGUAGES, RULESETS, Exercise
from .lessons import LessonPath, LessonStep, Unit, content_root, load_lesson_path, load_step
from .quizzes import Quiz, load_quiz

__all__ = [
    "LANGUAGES",
    "RULESETS",
    "ContentError",
    "Exercise",
    "LessonPath",
    "LessonStep",
    "Problem",
    "Problems",
    "Quiz",
    "Unit",
    "content_root",
    "load_lesson_path",
    "load_quiz",
    "load_step",
]
