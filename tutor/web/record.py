"""The answer's write in a request: :mod:`tutor.domain.record` on the request's session, for the
learner of its cookie (made by the first write), the lesson steps read from the app's content."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flask import g
from sqlalchemy.orm import Session

from tutor.content.exercise import Exercise
from tutor.content.kinds import Verdict
from tutor.domain import record as R
from tutor.domain import review
from tutor.domain.models import Attempt, StepProgress
from tutor.domain.record import StepState

from .db import current_learner, get_session, learner_id_for_write, read_connection, session_anon

__all__ = ["StepState", "activity", "mark_step_done", "mistakes_of", "record_answer", "record_hint",
           "record_played_deal", "step_progress", "step_state", "step_states", "write"]

T = TypeVar("T")


def write(work: Callable[[Session], T]) -> T:
    """:func:`tutor.domain.record.write` on the request's session (all or nothing, retried)."""
    return R.write(get_session(), work)


def record_answer(ex: Exercise, ref: str, verdict: Verdict, *, quiz_id: int | None = None,
                  position: int | None = None, rated: bool = True,
                  also: Callable[[Session], None] | None = None) -> Attempt:
    """:func:`tutor.domain.record.record_answer` for the current learner; returns the attempt. A
    lesson step's row just committed is kept for the rest of the request (:func:`step_state`)."""
    step_exercises = None
    if ex.step_id and verdict.correct:
        from .exercises import content

        step = content().find_step(ex.step_id, "en")
        step_exercises = frozenset(e.id for e in step.exercises) if step is not None else None
    attempt, state = R.record_answer(get_session(), learner_id_for_write, ex, ref, verdict,
                                     step_exercises=step_exercises, quiz_id=quiz_id, position=position,
                                     rated=rated, also=also)
    if state is not None:  # the step's row as committed: the page answered now need not read it again
        assert ex.step_id is not None
        _remember_step_state(ex.step_id, state)
    return attempt


def record_played_deal(ruleset: str, players: int, role: str, seed: int, actions: Sequence[str],
                       observations: Sequence[tuple[str, str, bool]]) -> bool:
    """:func:`tutor.domain.record.record_played_deal` for the current learner."""
    return R.record_played_deal(get_session(), learner_id_for_write, ruleset, players, role, seed, actions,
                                observations)


def record_hint(ex: Exercise) -> None:
    """Count a hint shown for a lesson exercise, for the current learner."""
    R.record_hint(get_session(), learner_id_for_write, ex)


def mark_step_done(ruleset: str, step_id: str) -> None:
    R.mark_step_done(get_session(), learner_id_for_write, ruleset, step_id)


def activity(goal: int = 10, days: int = 60) -> dict[str, Any]:
    """The current learner's streak and daily goal (:func:`tutor.domain.record.activity`)."""
    return R.activity(get_session(), current_learner(), goal, days)


def step_states(ruleset: str | None = None) -> dict[str, StepProgress]:
    return R.step_states(get_session(), current_learner(), ruleset)


def step_progress(step_id: str) -> tuple[bool, frozenset[str]]:
    """(done, ids of the exercises answered right) of one lesson step for the current learner;
    (False, empty) for a learner never seen. One query (the learner joined, not looked up first)."""
    anon = session_anon()
    if anon is None:
        return False, frozenset()
    return R.step_progress(get_session().connection(), anon, step_id)


def step_state(step_id: str) -> StepState | None:
    """The current learner's progress on one lesson step, or None (no row, or a learner never
    seen). One query, the learner joined on the session's id (not looked up first); nothing is
    written. The value of :func:`step_states` ``[step_id]`` in fewer round trips."""
    anon = session_anon()
    if anon is None:
        return None
    known = g.get("tutor_step_states")
    if known is not None and (anon, step_id) in known:
        return known[anon, step_id]
    return R.step_state(read_connection(), anon, step_id)


def _remember_step_state(step_id: str, state: StepState) -> None:
    """Keep for the rest of the request the row this request has just committed for ``step_id``."""
    anon = session_anon()
    if anon is not None:
        g.setdefault("tutor_step_states", {})[anon, step_id] = state


def mistakes_of() -> review.Queue:
    """The current learner's mistakes list (review cards, soonest due first)."""
    return review.queue(get_session(), current_learner())
