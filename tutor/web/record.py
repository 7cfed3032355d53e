"""Writing a learner's answer: one transaction for the attempt, lesson progress and mistakes."""

from __future__ import annotations

from sqlalchemy import select

from tutor.content.exercise import Exercise

from . import review
from .db import Attempt, Learner, Quiz, StepProgress, current_learner, get_session, learner_for_write
from .exercises import Verdict

__all__ = ["mark_step_done", "mistakes_of", "record_answer", "step_states"]


def record_answer(ex: Exercise, ref: str, verdict: Verdict, *, quiz: Quiz | None = None,
                  position: int | None = None) -> Attempt:
    """Store the attempt and update progress and the mistake's review card, all or nothing."""
    db = get_session()
    try:
        learner = learner_for_write(db)
        attempt = Attempt(learner_id=learner.id, exercise_ref=ref, ruleset=ex.ruleset or "", kind=ex.kind,
                          quiz_id=quiz.id if quiz else None, position=position, given=verdict.given,
                          correct=verdict.correct)
        db.add(attempt)
        review.review(db, learner, ref, ex.ruleset or "", ex.kind, verdict.correct)
        if ex.step_id and verdict.correct:
            _solve_step_exercise(db, learner, ex)
        db.commit()
        return attempt
    except Exception:
        db.rollback()
        raise


def _progress_row(db, learner: Learner, ruleset: str, step_id: str) -> StepProgress:
    row = db.scalar(select(StepProgress).where(StepProgress.learner_id == learner.id,
                                               StepProgress.step_id == step_id))
    if row is None:
        row = StepProgress(learner_id=learner.id, ruleset=ruleset, step_id=step_id, done=False, solved=[])
        db.add(row)
    return row


def _solve_step_exercise(db, learner: Learner, ex: Exercise) -> None:
    from .exercises import find_step

    step = find_step(ex.step_id, "en")
    row = _progress_row(db, learner, ex.ruleset or "", ex.step_id)
    solved = set(row.solved or []) | {ex.id}
    row.solved = sorted(solved)
    if step is not None and {e.id for e in step.exercises} <= solved:
        row.done = True


def mark_step_done(ruleset: str, step_id: str) -> None:
    db = get_session()
    try:
        learner = learner_for_write(db)
        _progress_row(db, learner, ruleset, step_id).done = True
        db.commit()
    except Exception:
        db.rollback()
        raise


def step_states(ruleset: str | None = None) -> dict[str, StepProgress]:
    learner = current_learner()
    if learner is None:
        return {}
    q = select(StepProgress).where(StepProgress.learner_id == learner.id)
    if ruleset:
        q = q.where(StepProgress.ruleset == ruleset)
    return {row.step_id: row for row in get_session().scalars(q)}


def mistakes_of() -> review.Queue:
    """The current learner's mistakes list (review cards, soonest due first)."""
    return review.queue(get_session(), current_learner())
