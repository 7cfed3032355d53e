"""The domain layer: what the tutor keeps and computes about learners, teachers and classes,
below the web (nothing here imports Flask or :mod:`tutor.web`); used by the web, the exports, the
migrations and the CLI alike.

* :mod:`~tutor.domain.db` — the declarative base, the engine, the clock (:func:`~tutor.domain.db.now`), row locks;
* :mod:`~tutor.domain.models` — the database models;
* :mod:`~tutor.domain.record` — the answer's write, one transaction on a session it is given;
* :mod:`~tutor.domain.classes` — classes, class quizzes, their fingerprints, results and statistics;
  :mod:`~tutor.domain.quizdoc` — a quiz document's question as an exercise;
  :mod:`~tutor.domain.assignments` — the assignment kinds (quiz, lesson, unit), one class each;
* :mod:`~tutor.domain.dashboard`, :mod:`~tutor.domain.ratings` (Glicko-2), :mod:`~tutor.domain.review`
  (FSRS), :mod:`~tutor.domain.mastery` (skills, Bayesian knowledge tracing);
* :mod:`~tutor.domain.table` — the card table of an exercise as plain data, the engine's cached answer.

Layers, lowest first: :mod:`tutor.engine` < :mod:`tutor.i18n` < :mod:`tutor.content` < this
package < :mod:`tutor.export`, :mod:`tutor.web` < the CLI (``tests/test_layers.py`` checks them).
The web gives the domain its request's session and learner (:mod:`tutor.web.db`,
:mod:`tutor.web.record`) and its app's clock (:func:`tutor.domain.db.set_clock_source`).
"""
