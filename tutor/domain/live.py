"""Live sessions: a class quiz played live, Kahoot-style.

The teacher starts a session on a quiz assignment of a class (:func:`start`); the learners of the
class see one question at a time as the teacher moves it on (:func:`advance`):

``lobby`` → question 1 (``question``: open for answers) → ``revealed`` (closed; the result and the
leaderboard shown) → question 2 → ... → ``revealed`` (the last) → ``ended``. :func:`end` ends it at
any point. A class has at most one session that has not ended: starting one ends the others.

Each learner gives one answer per question while it is open (:func:`answer`), checked by the
engine as every class question is (the view grades it with the class quiz's grading and gives
the :class:`~tutor.content.kinds.Verdict`); nothing about the answer's verdict or the key is
shown to a learner before the question is revealed.
An answer given live is also one of the learner's attempts at that question of the assignment
(a :class:`~tutor.domain.models.ClassAttempt`, kept with it in one transaction): the class's
results grid and gradebook count it as they count the quiz's pages, the first attempt at a
question scoring.

The score (:func:`leaderboard`) counts only revealed questions: a right answer scores the
question's ``points`` (as in the class quiz, :func:`tutor.domain.classes.points_of`); equal scores
are ordered by the total time taken by the right answers (faster first), then by nickname.

Every change is announced on the class's channel (:func:`channel`) through a
:class:`~tutor.domain.pubsub.PubSub`, after it is committed: ``{"kind": "state", "version": v}``
for a state change, ``{"kind": "answer", "n": n}`` for an answer. The event streams of the pages
(:mod:`tutor.web.views.live`) read the state again from the database when told.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor.content.kinds import Verdict

from . import classes as C
from . import settings as S
from .db import now
from .models import Assignment, ClassAttempt, Classroom, LiveAnswer, LiveSession, Membership
from .quizdoc import answer_text, exercise_of

__all__ = ["STATES", "Entry", "Snapshot", "Stats", "advance", "answer", "channel", "current", "end",
           "latest", "leaderboard", "questions_of", "snapshot", "start", "stats"]

#: The states of a session, in the order they come.
STATES = ("lobby", "question", "revealed", "ended")


def channel(classroom_id: int) -> str:
    """The publish/subscribe channel of a class's live sessions: ``live:<class id>``."""
    return f"live:{classroom_id}"


def questions_of(a: Assignment) -> list[dict[str, Any]]:
    """The questions of a quiz assignment's copy (the class quiz's), in order."""
    return list((a.quiz_doc or {}).get("questions") or [])


def current(db: Session, classroom_id: int) -> LiveSession | None:
    """The class's session that has not ended (the latest), or None."""
    return db.scalar(select(LiveSession).where(LiveSession.classroom_id == classroom_id,
                                               LiveSession.state != "ended")
                     .order_by(LiveSession.id.desc()).limit(1))


def latest(db: Session, classroom_id: int) -> LiveSession | None:
    """The class's latest session, ended or not, or None."""
    return db.scalar(select(LiveSession).where(LiveSession.classroom_id == classroom_id)
                     .order_by(LiveSession.id.desc()).limit(1))


def start(db: Session, a: Assignment) -> LiveSession:
    """A new session of quiz assignment ``a`` in the lobby (not committed); the class's other
    sessions that have not ended are ended. ValueError if ``a`` has no questions."""
    if not questions_of(a):
        raise ValueError("a live session needs a quiz assignment with questions")
    at = now()
    for old in db.scalars(select(LiveSession).where(LiveSession.classroom_id == a.classroom_id,
                                                    LiveSession.state != "ended")):
        old.state, old.ended_at, old.version = "ended", at, old.version + 1
    s = LiveSession(classroom_id=a.classroom_id, assignment_id=a.id, state="lobby", position=0, version=1,
                    started_at=at)
    db.add(s)
    db.flush()
    return s


def _move(db: Session, s: LiveSession, at_version: int | None, state: str, position: int) -> bool:
    """Move ``s`` to ``state`` at ``position`` if it is still at ``at_version`` (when given): one
    conditional UPDATE, so two clicks (two tabs, two workers) on one version move it once."""
    version = s.version if at_version is None else at_version
    values: dict[str, Any] = {"state": state, "position": position, "version": version + 1}
    if state == "question":
        values["opened_at"] = now()
    if state == "ended":
        values["ended_at"] = now()
    done = cast("CursorResult[Any]", db.execute(update(LiveSession).where(LiveSession.id == s.id, LiveSession.version == version)
                      .values(**values))).rowcount
    db.refresh(s)
    return bool(done)


def advance(db: Session, s: LiveSession, total: int, at_version: int | None = None) -> bool:
    """The teacher's "next" (not committed): the lobby or a revealed question opens the next
    question (after the last one: ``ended``); an open question is revealed. ``total``: the
    number of questions; ``at_version``: the version the teacher's page showed (a click on an
    older page changes nothing). True if the session moved."""
    if s.state == "question":
        return _move(db, s, at_version, "revealed", s.position)
    if s.state in ("lobby", "revealed"):
        if s.position >= total:
            return _move(db, s, at_version, "ended", s.position)
        return _move(db, s, at_version, "question", s.position + 1)
    return False


def end(db: Session, s: LiveSession) -> bool:
    """End the session (not committed); False if it had ended already."""
    if s.state == "ended":
        return False
    return _move(db, s, None, "ended", s.position)


def answer(db: Session, s: LiveSession, learner_id: int, n: int, verdict: Verdict[Any]) -> str:
    """Keep a member's answer to question ``n`` (committed), and the same answer as their class
    attempt at the assignment's question ``n``: ``"recorded"``; ``"closed"`` if
    question ``n`` is not open now (not yet, or revealed), ``"already"`` if the learner answered
    it before (the first answer stands), ``"not-member"`` for a learner not in the class,
    ``"archived"`` when the class is archived (:func:`tutor.domain.settings.archived`)."""
    db.refresh(s)
    if s.state != "question" or s.position != n:
        return "closed"
    if S.archived(db.get(Classroom, s.classroom_id)) is not None:
        return "archived"
    if db.scalar(select(Membership.id).where(Membership.classroom_id == s.classroom_id,
                                             Membership.learner_id == learner_id)) is None:
        return "not-member"
    if db.scalar(select(LiveAnswer.id).where(LiveAnswer.session_id == s.id, LiveAnswer.learner_id == learner_id,
                                             LiveAnswer.position == n)) is not None:
        return "already"
    at = now()
    opened = s.opened_at or at
    rules = sorted({str(r["rule"]) for r in verdict.why if isinstance(r, Mapping) and r.get("rule")})
    db.add(LiveAnswer(session_id=s.id, learner_id=learner_id, position=n, given=verdict.given,
                      correct=verdict.correct, rules=rules, created_at=at,
                      ms=max(0, int((at - opened).total_seconds() * 1000))))
    db.add(ClassAttempt(assignment_id=s.assignment_id, learner_id=learner_id, position=n, given=verdict.given,
                        correct=verdict.correct, rules=rules, created_at=at))
    try:
        db.commit()
    except IntegrityError:  # the same answer sent twice at once: the first one stands
        db.rollback()
        return "already"
    return "recorded"


def answers_of(db: Session, s: LiveSession, n: int | None = None) -> list[LiveAnswer]:
    """The session's answers (to question ``n``), oldest first."""
    q = select(LiveAnswer).where(LiveAnswer.session_id == s.id)
    if n is not None:
        q = q.where(LiveAnswer.position == n)
    return list(db.scalars(q.order_by(LiveAnswer.id)))


def my_answer(db: Session, s: LiveSession, learner_id: int, n: int) -> LiveAnswer | None:
    """The learner's answer to question ``n`` of the session, or None."""
    return db.scalar(select(LiveAnswer).where(LiveAnswer.session_id == s.id, LiveAnswer.learner_id == learner_id,
                                              LiveAnswer.position == n))


@dataclass(frozen=True)
class Bar:
    """One answer given to the current question: its text (in words, seats by number), how
    many learners gave it, and whether it is right."""

    answer: str
    count: int
    correct: bool


@dataclass(frozen=True)
class Stats:
    """The live bar of the current question: ``answered`` of the class's ``members``; once the
    question is revealed, ``right`` and the answers given (``bars``, most given first), else
    ``right`` None and no bars."""

    n: int
    answered: int
    members: int
    right: int | None
    bars: tuple[Bar, ...]


def members_of(db: Session, classroom_id: int) -> list[Membership]:
    return list(db.scalars(select(Membership).where(Membership.classroom_id == classroom_id)
                           .order_by(Membership.id)))


def stats(db: Session, s: LiveSession, questions: Sequence[Mapping[str, Any]]) -> Stats:
    """The live bar of the session's current question (see :class:`Stats`)."""
    members = {m.learner_id for m in members_of(db, s.classroom_id)}
    if not 1 <= s.position <= len(questions):
        return Stats(s.position, 0, len(members), None, ())
    mine = [a for a in answers_of(db, s, s.position) if a.learner_id in members]
    if s.state == "question":
        return Stats(s.position, len(mine), len(members), None, ())
    q = questions[s.position - 1]
    counts: Counter[str] = Counter()
    right: dict[str, bool] = {}
    for a in mine:
        key = json.dumps(a.given, sort_keys=True, ensure_ascii=False)
        counts[key] += 1
        right[key] = a.correct
    ex = exercise_of(q)
    bars = tuple(Bar(answer_text(ex, json.loads(k)), c, right[k])
                 for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], not right[kv[0]], kv[0])))
    return Stats(s.position, len(mine), len(members), sum(a.correct for a in mine), bars)


@dataclass(frozen=True)
class Entry:
    """One learner's line of the leaderboard: place (1-based; equal score and time share it),
    nickname, points, right answers and milliseconds taken by them."""

    place: int
    learner_id: int
    nickname: str
    points: int
    right: int
    ms: int


def leaderboard(db: Session, s: LiveSession, questions: Sequence[Mapping[str, Any]]) -> list[Entry]:
    """Every member's score over the revealed questions (the current one once revealed, and
    every earlier one), best first (see the module docstring)."""
    last = s.position if s.state in ("revealed", "ended") else s.position - 1
    members = members_of(db, s.classroom_id)
    got: dict[int, list[int]] = {m.learner_id: [0, 0, 0] for m in members}
    for a in answers_of(db, s):
        if a.correct and 1 <= a.position <= min(last, len(questions)) and a.learner_id in got:
            row = got[a.learner_id]
            row[0] += C.points_of(questions[a.position - 1])
            row[1] += 1
            row[2] += a.ms
    ordered = sorted(members, key=lambda m: (-got[m.learner_id][0], got[m.learner_id][2], m.nickname.casefold()))
    out: list[Entry] = []
    for i, m in enumerate(ordered):
        pts, right, ms = got[m.learner_id]
        place = out[-1].place if out and (out[-1].points, out[-1].ms) == (pts, ms) else i + 1
        out.append(Entry(place, m.learner_id, m.nickname, pts, right, ms))
    return out


@dataclass(frozen=True)
class Snapshot:
    """What a learner's page follows: the class's current session (None: none), its state,
    question and version."""

    session: int | None
    state: str | None
    n: int
    version: int

    def as_json(self) -> dict[str, Any]:
        return {"session": self.session, "state": self.state, "n": self.n, "version": self.version}


def snapshot(db: Session, classroom_id: int) -> Snapshot:
    """The :class:`Snapshot` of the class now (its latest session)."""
    s = latest(db, classroom_id)
    if s is None:
        return Snapshot(None, None, 0, 0)
    return Snapshot(s.id, s.state, s.position, s.version)
