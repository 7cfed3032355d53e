"""A class member's class quiz in JSON (``/api/v1/classes/...``): the assignment with the
learner's own answers, and answering one of its questions.

The learner is the one of the session cookie (as on the class pages); anyone else, a class they
have not joined or an assignment that is not a quiz is a 404. The assignment's settings
(:mod:`tutor.domain.settings`) decide here as on the pages: an answer is refused (403, codes
:data:`REFUSALS`) before the open date, after the close date, after the time limit, without a
start of a timed assignment, once the attempts are used, or answered already in a test whose
results are not shown; in test mode the verdict, the right answer and the reasons are left out
(``results_visible: false``, the answer only ``saved``) until the close date has passed or the
teacher released them. Bodies are JSON (``Content-Type: application/json``), so a cross-site form
cannot post here (the blueprint is exempt from the CSRF token, as the API is).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.domain import classes as C
from tutor.domain import ratings
from tutor.domain import settings as S
from tutor.domain.assignments import QuizAssignment, kind_of, learner_order, title_of
from tutor.domain.db import now
from tutor.domain.models import Assignment, ClassAttempt
from tutor.domain.table import players_of

from .. import exercises as X
from ..db import current_learner, get_session, learner_for_write
from ..limits import limited
from ..openapi import Operation, operation
from ..record import write
from ..security import BadInput
from .api import _error, _json_body

bp = Blueprint("class_api", __name__, url_prefix="/api/v1/classes")

#: The 403 codes of an answer that is not taken (:func:`tutor.domain.settings.refusal`).
REFUSALS = ("archived", "not-open", "closed", "not-started", "time-up", "no-attempts-left", "answered")

_VERDICT = {"correct": {"type": "boolean"}, "expected": {}, "why": {"type": "array", "items": {"type": "string"}}}
_QUESTION = {"type": "object", "required": ["n", "answered", "attempts"],
             "properties": {"n": {"type": "integer"}, "answered": {"type": "boolean"},
                            "attempts": {"type": "integer"}, "exercise": {"type": "object"}, **_VERDICT}}
_ASSIGNMENT = {"type": "object", "required": ["assignment", "mode", "state", "results_visible", "questions"],
               "properties": {"assignment": {"type": "integer"}, "title": {"type": "string"},
                              "mode": {"type": "string", "enum": list(S.MODES)},
                              "state": {"type": "string", "enum": ["not-open", "open", "closed"]},
                              "results_visible": {"type": "boolean"},
                              "questions": {"type": "array", "items": _QUESTION},
                              "score": {"type": ["object", "null"]}}}
_SAVED = {"type": "object", "required": ["n", "saved", "results_visible"],
          "properties": {"n": {"type": "integer"}, "saved": {"const": True}, "results_visible": {"type": "boolean"},
                         **_VERDICT}}


def _member_quiz(cid: int, aid: int) -> tuple[Assignment, int]:
    learner = current_learner()
    db = get_session()
    if learner is None or C.membership(db, cid, learner.id) is None:
        abort(404)
    a = db.get(Assignment, aid)
    if a is None or a.classroom_id != cid or not isinstance(kind_of(a), QuizAssignment):
        abort(404)
    return a, learner.id


def _when(value: Any) -> str | None:
    return value.isoformat() + "Z" if value is not None else None


def _verdict(ex: Any, given: object) -> dict[str, Any]:
    verdict = X.grade(ex, given)
    ctx: i18n.ReasonContext = {"you": X.you_of(ex), "players": players_of(ex.scenario), "ruleset": ex.ruleset}
    return {"correct": verdict.correct, "expected": verdict.expected,
            "why": [i18n.render_reason(r, **ctx) for r in verdict.why]}


@bp.get("/<int:cid>/assignments/<int:aid>")
@operation(Operation(
    "getClassAssignment", "A class member's quiz assignment: its settings, each question's public view in the "
    "learner's order and their answers; the verdicts, right answers and reasons only once its results are visible "
    "(always in practice mode; in test mode after the close date or the teacher's release).", _ASSIGNMENT,
    not_found=True, params=("lang",)))
def assignment(cid: int, aid: int) -> ResponseReturnValue:
    a, lid = _member_quiz(cid, aid)
    db, at = get_session(), now()
    attempts = C.attempts_of(db, a.id, lid)
    visible = S.results_visible(a, at)
    out = []
    for n, p in enumerate(learner_order(a, lid), 1):
        ex, _q = C.class_exercise(a, p) or abort(404)
        mine = [t for t in attempts if t.position == p]
        item: dict[str, Any] = {"n": n, "answered": bool(mine), "attempts": len(mine),
                                "exercise": X.public_view(ex, f"class-{aid}-{n}")}
        if visible and mine:
            item |= _verdict(ex, mine[0].given)  # the first answer: the one that scores
        out.append(item)
    got, total = C.score_at(kind_of(a).learner_questions(a, lid), attempts, lid)
    return jsonify({"assignment": a.id, "title": title_of(a), "mode": a.mode, "state": S.state(a, at),
                    "results_visible": visible, "attempts_allowed": a.attempts_allowed, "time_limit": a.time_limit,
                    "opens_at": _when(a.opens_at), "closes_at": _when(a.closes_at),
                    "deadline": _when(S.deadline(a, S.start_of(db, a, lid))) if a.time_limit else None,
                    "questions": out, "score": {"got": got, "total": total} if visible else None})


@bp.post("/<int:cid>/assignments/<int:aid>/<int:n>/answer")
@operation(Operation(
    "answerClassQuestion", "Answer question n (the learner's order) of a class member's quiz; the answer is "
    "recorded. In test mode before the results are visible only `saved` comes back.", _SAVED,
    request={"type": "object", "required": ["answer"], "properties": {"answer": {}, "lang": {"type": "string"}}},
    errors=("bad-json", "too-large", "bad-field", "bad-answer", "bad-card"), not_found=True, limited=True,
    forbidden=REFUSALS, params=("lang",),
    forbidden_description="Refused: the class is archived, the assignment is not open or closed, the time is up or not started, the "
                          "attempts are used, or a test's question is answered already."))
@limited("answer")
def answer(cid: int, aid: int, n: int) -> ResponseReturnValue:
    a, lid = _member_quiz(cid, aid)
    places = learner_order(a, lid)
    if not 1 <= n <= len(places):
        abort(404)
    p = places[n - 1]
    ex, q = C.class_exercise(a, p) or abort(404)
    body = _json_body()
    if not isinstance(body, dict) or "answer" not in body or set(body) - {"answer", "lang"}:
        raise BadInput('The body must be a JSON object with the field "answer" (and "lang").', "bad-field")
    refused = S.refusal(get_session(), a, lid, p, now())
    if refused is not None:
        return _error(refused.code, refused.message, 403)
    verdict = X.grade(ex, X.read_json(ex, body["answer"]))

    def work(db: Session) -> None:
        learner = learner_for_write(db)
        if S.refusal(db, a, learner.id, p, now()) is not None:  # again inside the write: narrows the window of two posts at once
            return
        first = db.query(ClassAttempt.id).filter_by(assignment_id=a.id, learner_id=learner.id,
                                                    position=p).first() is None
        C.record(db, a, learner.id, p, verdict)
        if first:
            ratings.rate(db.connection(), learner.id, C.rating_ref(a, q), ex, verdict.correct)
    write(work)
    visible = S.results_visible(a, now())
    out: dict[str, Any] = {"n": n, "saved": True, "results_visible": visible}
    if visible:
        out |= _verdict(ex, verdict.given)
    return jsonify(out)
