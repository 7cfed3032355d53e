"""Writing a learner's answer: one transaction for the attempt, lesson progress and mistakes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor.content.exercise import Exercise

from . import review
from .db import Attempt, Learner, Quiz, StepProgress, current_learner, get_session, learner_for_write, session_anon
from .exercises import Verdict

__all__ = ["mark_step_done", "mistakes_of", "record_answer", "step_progress", "step_states", "write"]


T = TypeVar("T")

#: Times a write is tried when a row it makes was made meanwhile by another request.
TRIES = 3


def write(work: Callable[[Session], T]) -> T:
    """Run ``work(db)`` in one transaction and commit, all or nothing. Two requests of one learner
    answering at once may both make the same unique row (a review card, a step's progress): the
    one that loses gets an IntegrityError, and its whole transaction is run again, now finding
    the row (up to :data:`TRIES` times)."""
    db = get_session()
    for _ in range(TRIES - 1):
        try:
            return _commit(db, work)
        except IntegrityError:
            pass
    return _commit(db, work)


def _commit(db: Session, work: Callable[[Session], T]) -> T:
    try:
        result = work(db)
        db.commit()
        return result
    except Exception:
        db.rollback()
        raise


def record_answer(ex: Exercise, ref: str, verdict: Verdict, *, quiz: Quiz | None = None,
                  position: int | None = None) -> Attempt:
    """Store the attempt and update progress and the mistake's review card, all or nothing."""
    def work(db: Session) -> Attempt:
        learner = learner_for_write(db)
        attempt = Attempt(learner_id=learner.id, exercise_ref=ref, ruleset=ex.ruleset or "", kind=ex.kind,
                          quiz_id=quiz.id if quiz else None, position=position, given=verdict.given,
                          correct=verdict.correct)
        db.add(attempt)
        review.review(db, learner, ref, ex.ruleset or "", ex.kind, verdict.correct)
        if ex.step_id and verdict.correct:
            _solve_step_exercise(db, learner, ex)
        db.flush()
        return attempt
    return write(work)


def _progress_row(db, learner: Learner, ruleset: str, step_id: str) -> StepProgress:
    row = db.scalar(select(StepProgress).where(StepProgress.learner_id == learner.id,
                                               StepProgress.step_id == step_id))
    if row is None:
        row = StepProgress(learner_id=learner.id, ruleset=ruleset, step_id=step_id, done=False, solved=[])
        db.add(row)
    return row


def _solve_step_exercise(db, learner: Learner, ex: Exercise) -> None:
    from .exercises import content

    if ex.step_id is None:  # a quiz question: no lesson step to mark
        return
    step = content().find_step(ex.step_id, "en")
    row = _progress_row(db, learner, ex.ruleset or "", ex.step_id)
    solved = set(row.solved or []) | {ex.id}
    row.solved = sorted(solved)
    if step is not None and {e.id for e in step.exercises} <= solved:
        row.done = True


def mark_step_done(ruleset: str, step_id: str) -> None:
    def work(db: Session) -> None:
        _progress_row(db, learner_for_write(db), ruleset, step_id).done = True
    write(work)


def step_states(ruleset: str | None = None) -> dict[str, StepProgress]:
    learner = current_learner()
    if learner is None:
        return {}
    q = select(StepProgress).where(StepProgress.learner_id == learner.id)
    if ruleset:
        q = q.where(StepProgress.ruleset == ruleset)
    return {row.step_id: row for row in get_session().scalars(q)}


#: :func:`step_progress`'s query, built once (a Core statement run on the session's connection).
_STEP_PROGRESS = (select(StepProgress.done, StepProgress.solved)
                  .join(Learner, Learner.id == StepProgress.learner_id)
                  .where(Learner.anon_id == bindparam("anon"), StepProgress.step_id == bindparam("step")))


def step_progress(step_id: str) -> tuple[bool, frozenset[str]]:
    """(done, ids of the exercises answered right) of one lesson step for the current learner;
    (False, empty) for a learner never seen. One query (the learner joined, not looked up first)."""
    anon = session_anon()
    if anon is None:
        return False, frozenset()
    row = get_session().connection().execute(_STEP_PROGRESS, {"anon": anon, "step": step_id}).first()
    if row is None:
        return False, frozenset()
    return bool(row.done), frozenset(row.solved or ())


def mistakes_of() -> review.Queue:
    """The current learner's mistakes list (review cards, soonest due first)."""
    return review.queue(get_session(), current_learner())
