"""Writing a learner's answer: one transaction for the attempt, lesson progress, mistakes, mastery
of the skills it exercised (:mod:`tutor.domain.mastery`) and the Glicko-2 ratings (:mod:`tutor.domain.ratings`).

Every write takes the session it runs on and the learner as a :data:`LearnerId` (their id on the
transaction's connection, the row made there if new), every read the learner's id or anonymous
id: the web gives its request's session and the learner of the cookie (:mod:`tutor.web.record`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, Verdict

from . import mastery, ratings, review
from .db import now, table_of
from .models import Attempt, Learner, PlayedDeal, StepProgress

__all__ = ["TRIES", "LearnerId", "StepState", "activity", "mark_step_done", "played_deal_key", "record_answer",
           "record_hint", "record_played_deal", "stars_for", "step_progress", "step_state", "step_states", "write"]


T = TypeVar("T")

#: The learner a write is for: ``learner(conn)`` is their id (``learner.id``) on the
#: transaction's connection, the row made there if new (not committed).
LearnerId = Callable[[Connection], int]

#: Times a write is tried when a row it makes was made meanwhile by another request.
TRIES = 3


def write(db: Session, work: Callable[[Session], T]) -> T:
    """Run ``work(db)`` in one transaction and commit, all or nothing. Two requests of one learner
    answering at once may both make the same unique row (a review card, a step's progress): the
    one that loses gets an IntegrityError, and its whole transaction is run again, now finding
    the row (up to :data:`TRIES` times)."""
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


_ATTEMPT = table_of(Attempt)
_PROGRESS = table_of(StepProgress)
# The statements of the answer path, built once (a request binds their values; parameters
# ``learner``, ``step``, ``row`` and the columns set).
_INSERT_ATTEMPT = insert(_ATTEMPT)
_PROGRESS_ROW = (select(_PROGRESS.c.id, _PROGRESS.c.done, _PROGRESS.c.solved, _PROGRESS.c.hints, _PROGRESS.c.stars)
                 .where(_PROGRESS.c.learner_id == bindparam("learner"), _PROGRESS.c.step_id == bindparam("step")))
_INSERT_PROGRESS = insert(_PROGRESS)
_UPDATE_PROGRESS = update(_PROGRESS).where(_PROGRESS.c.id == bindparam("row"))
_WRONG_ANSWERS = (select(func.count()).select_from(_ATTEMPT)
                  .where(_ATTEMPT.c.learner_id == bindparam("learner"),
                         _ATTEMPT.c.exercise_ref.like(bindparam("prefix"), escape="/"),
                         _ATTEMPT.c.correct.is_(False)))


def record_answer(db: Session, learner: LearnerId, ex: Exercise, ref: str, verdict: Verdict[Any], *,
                  step_exercises: Collection[str] | None = None, quiz_id: int | None = None,
                  position: int | None = None, rated: bool = True,
                  also: Callable[[Session], None] | None = None) -> tuple[Attempt, StepState | None]:
    """Store the attempt and update progress, the mistake's review card, the mastery of each skill
    the verdict's reasons cite and both ratings (``rated`` False: not the ratings, for an answer
    that is not a first try, e.g. a quiz's retry of a question whose answer it showed: as on
    Lichess, a puzzle played again does not move the rating), all or nothing; ``also(db)``: more
    writes of the same answer, in the same transaction (one commit). ``step_exercises``: the ids of the
    exercises of ``ex``'s lesson step (``ex.step_id``; None: no such step, so never done).

    Returns the attempt (its ``id`` set; not a row of any session) and, for a lesson exercise
    answered right, its step's row as committed (else None). The writes are Core statements on
    the session's connection, about ten for an answer: this is the path every answer takes, and
    the ORM's unit of work cost more than all of them together (``tutor bench --pages``)."""
    rules = mastery.rules_of(verdict.why)
    column = mastery.rules_column(rules)
    # a right answer shows every rule it applied; a wrong one misses only the rules of its mistake
    missed = rules if verdict.correct else mastery.rules_of(KINDS[ex.kind].mistake_reasons(ex, verdict))
    solved: list[StepState] = []

    def work(db: Session) -> Attempt:
        solved.clear()
        conn = db.connection()
        learner_id = learner(conn)
        values: dict[str, Any] = {
            "learner_id": learner_id, "exercise_ref": ref, "ruleset": ex.ruleset or "", "kind": ex.kind,
            "quiz_id": quiz_id, "position": position, "given": verdict.given, "correct": verdict.correct,
            "rules": column, "created_at": now()}
        attempt_id = conn.execute(_INSERT_ATTEMPT, values).inserted_primary_key[0]  # type: ignore[index]
        review.review(conn, learner_id, ref, ex.ruleset or "", ex.kind, verdict.correct, column)
        mastery.update_mastery(conn, learner_id, [mastery.Skill(ex.ruleset or "", ex.kind, r) for r in missed],
                               verdict.correct)
        if rated:
            ratings.rate(conn, learner_id, ref, ex, verdict.correct)
        if ex.step_id and verdict.correct:
            solved.append(_solve_step_exercise(conn, learner_id, ex, step_exercises))
        if also is not None:
            also(db)
            db.flush()
        return Attempt(id=attempt_id, **values)
    attempt = write(db, work)
    return attempt, (solved[0] if solved else None)


def played_deal_key(ruleset: str, players: int, role: str, seed: int, actions: Sequence[str]) -> str:
    """The key of a finished deal (64 hex digits): SHA-256 of its address without the refusals,
    so the same deal played to the same end is one deal however it was reached or reloaded."""
    text = "|".join((ruleset, str(players), role, str(seed), ".".join(actions)))
    return hashlib.sha256(text.encode()).hexdigest()


def record_played_deal(db: Session, learner: LearnerId, ruleset: str, players: int, role: str, seed: int,
                       actions: Sequence[str], observations: Sequence[tuple[str, str, bool]]) -> bool:
    """Count a deal the learner finished toward mastery, once: each observation ``(ruleset, rule
    point(s), correct)`` (:func:`tutor.engine.play.played_deal_observations`, in the order played)
    moves the skill ``(ruleset, PLAY_KIND, rule)`` (:mod:`tutor.domain.mastery`) as one answer, and a
    :class:`~tutor.domain.models.PlayedDeal` row keyed by :func:`played_deal_key` is written in the same
    transaction. False (nothing written) when this learner had already finished this deal."""
    key = played_deal_key(ruleset, players, role, seed, actions)

    def work(db: Session) -> bool:
        learner_id = learner(db.connection())
        if db.scalar(select(PlayedDeal.id).where(PlayedDeal.learner_id == learner_id, PlayedDeal.key == key)):
            return False
        db.add(PlayedDeal(learner_id=learner_id, ruleset=ruleset, key=key, seed=seed,
                          cards=sum(1 for _r, _p, ok in observations if ok),
                          refused=sum(1 for _r, _p, ok in observations if not ok)))
        for game, rule, correct in observations:
            mastery.update_mastery(db.connection(), learner_id, [mastery.Skill(game, mastery.PLAY_KIND, r)
                                                  for r in mastery.rules_of([{"rule": rule}])], correct)
        db.flush()
        return True
    return write(db, work)


def _progress_row(db: Session, learner_id: int, ruleset: str, step_id: str) -> StepProgress:
    row = db.scalar(select(StepProgress).where(StepProgress.learner_id == learner_id,
                                               StepProgress.step_id == step_id))
    if row is None:
        row = StepProgress(learner_id=learner_id, ruleset=ruleset, step_id=step_id, done=False, solved=[])
        db.add(row)
    return row


def _solve_step_exercise(conn: Connection, learner_id: int, ex: Exercise,
                         step_exercises: Collection[str] | None) -> StepState:
    """Mark ``ex`` (a lesson exercise: ``ex.step_id`` set) answered right on its step's row, and
    the step done once all its exercises (``step_exercises``) are, on ``conn`` inside the caller's
    transaction; returns the row's new state. Nothing is written when nothing changes (the
    exercise was answered right before)."""
    assert ex.step_id is not None
    row = conn.execute(_PROGRESS_ROW, {"learner": learner_id, "step": ex.step_id}).first()
    before = set(row.solved or ()) if row is not None else set()
    solved = before | {ex.id}
    done = bool(row is not None and row.done)
    stars = row.stars if row is not None else None
    if step_exercises is not None and set(step_exercises) <= solved and not (done and stars is not None):
        done = True
        stars = stars_for(_wrong_answers(conn, learner_id, ex.step_id), (row.hints or 0) if row is not None else 0)
    state = StepState(done, sorted(solved), stars, finished=done and not (row is not None and row.done))
    if row is None:
        conn.execute(_INSERT_PROGRESS, {"learner_id": learner_id, "ruleset": ex.ruleset or "", "step_id": ex.step_id,
                                        "done": done, "solved": state.solved, "hints": 0, "stars": stars})
    elif (solved, done, stars) != (before, bool(row.done), row.stars):
        conn.execute(_UPDATE_PROGRESS, {"row": row.id, "done": done, "solved": state.solved, "stars": stars})
    return state


def _wrong_answers(conn: Connection, learner_id: int, step_id: str) -> int:
    """The learner's wrong answers to the exercises of a lesson step (refs ``lesson:<step>:``)."""
    prefix = "lesson:" + step_id.replace("/", "//").replace("%", "/%").replace("_", "/_") + ":%"
    return int(conn.execute(_WRONG_ANSWERS, {"learner": learner_id, "prefix": prefix}).scalar() or 0)


def stars_for(wrong: int, hints: int) -> int:
    """Stars of a step done: 3 for right on the first try with no hint, one fewer for each wrong
    answer or hint before it was done, at least 1 (as Lichess Learn's stages)."""
    return max(1, 3 - max(0, wrong) - max(0, hints))


def _finish(row: StepProgress, wrong: int = 0) -> None:
    """Mark the step done and give its stars, once."""
    row.done = True
    if row.stars is None:
        row.stars = stars_for(wrong, row.hints or 0)


def record_hint(db: Session, learner: LearnerId, ex: Exercise) -> None:
    """Count a hint shown for a lesson exercise (before its step is done: it costs a star)."""
    def work(db: Session) -> None:
        if ex.step_id is None:
            return
        row = _progress_row(db, learner(db.connection()), ex.ruleset or "", ex.step_id)
        if not row.done:
            row.hints = (row.hints or 0) + 1
    write(db, work)


def activity(db: Session, learner: Learner | None, goal: int = 10, days: int = 60) -> dict[str, Any]:
    """A learner's streak and daily goal: ``{"known": a learner who has answered or read before
    (``learner`` not None), "streak": days in a row with an answer, ending today or yesterday
    (UTC), "today": answers today, "goal": goal, "met": bool}``; ``days``: how far back the
    streak is counted."""
    out: dict[str, Any] = {"known": learner is not None, "streak": 0, "today": 0, "goal": goal, "met": False}
    if learner is None:
        return out
    today = now().date()
    since = now() - timedelta(days=days)
    q = (select(func.date(Attempt.created_at), func.count())
         .where(Attempt.learner_id == learner.id, Attempt.created_at >= since)
         .group_by(func.date(Attempt.created_at)))
    per_day = {str(d): n for d, n in db.execute(q)}
    out["today"] = per_day.get(str(today), 0)
    out["met"] = out["today"] >= goal
    day = today if str(today) in per_day else today - timedelta(days=1)
    while str(day) in per_day:
        out["streak"] += 1
        day -= timedelta(days=1)
    return out


def mark_step_done(db: Session, learner: LearnerId, ruleset: str, step_id: str) -> None:
    """Mark a lesson step done for the learner (its stars given once)."""
    def work(db: Session) -> None:
        _finish(_progress_row(db, learner(db.connection()), ruleset, step_id))
    write(db, work)


def step_states(db: Session, learner: Learner | None, ruleset: str | None = None) -> dict[str, StepProgress]:
    """Step id -> the learner's progress row (of one ruleset, if given); empty for no learner."""
    if learner is None:
        return {}
    q = select(StepProgress).where(StepProgress.learner_id == learner.id)
    if ruleset:
        q = q.where(StepProgress.ruleset == ruleset)
    return {row.step_id: row for row in db.scalars(q)}


#: :func:`step_progress`'s and :func:`step_state`'s query, built once (a Core statement; parameters
#: ``anon``, the learner's anonymous id, and ``step``).
_STEP_PROGRESS = (select(StepProgress.done, StepProgress.solved, StepProgress.stars)
                  .join(Learner, Learner.id == StepProgress.learner_id)
                  .where(Learner.anon_id == bindparam("anon"), StepProgress.step_id == bindparam("step")))


def step_progress(conn: Connection, anon: str, step_id: str) -> tuple[bool, frozenset[str]]:
    """(done, ids of the exercises answered right) of one lesson step for the learner of
    anonymous id ``anon``; (False, empty) for a learner never seen. One query (the learner
    joined, not looked up first)."""
    row = conn.execute(_STEP_PROGRESS, {"anon": anon, "step": step_id}).first()
    if row is None:
        return False, frozenset()
    return bool(row.done), frozenset(row.solved or ())


@dataclass(frozen=True)
class StepState:
    """What a lesson step's page shows of one learner's progress row: ``done``, ``solved`` (ids of
    the exercises answered right, a list) and ``stars`` (None until done, or for a step done
    before stars were kept)."""

    done: bool
    solved: list[str]
    stars: int | None
    #: the answer just recorded finished the step (it was not done before)
    finished: bool = False


def step_state(conn: Connection, anon: str, step_id: str) -> StepState | None:
    """The progress on one lesson step of the learner of anonymous id ``anon``, or None (no row,
    or a learner never seen). One query, the learner joined (not looked up first); nothing is
    written."""
    row = conn.execute(_STEP_PROGRESS, {"anon": anon, "step": step_id}).first()
    if row is None:
        return None
    return StepState(bool(row.done), list(row.solved or ()), row.stars)
