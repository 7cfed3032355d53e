"""A class's results on an assignment with per-question results (a quiz; see
:attr:`tutor.domain.assignments.AssignmentKind.per_question`): every learner's score and first
answers, each question's statistics, rating and most common wrong answer, the rule points of the
wrong answers (weak spots), the results as CSV, and one learner's answers. Any other assignment's
results are a 404."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Response, abort, render_template
from flask.typing import ResponseReturnValue
from flask_login import login_required
from sqlalchemy import select

from tutor import i18n
from tutor.domain import assignments as A
from tutor.domain import classes as C
from tutor.domain import ratings
from tutor.domain.db import id_from_request
from tutor.domain.models import Assignment, ClassAttempt, Classroom, Membership
from tutor.rules import UnknownRulePoint
from tutor.rules import get as rule_point

from ...authoring import exercise_of
from ...db import get_session
from ._common import assignment_of, bp, kind_label, mine


def _scored(row: Classroom, aid: int) -> Assignment:
    """Assignment ``aid`` of the class; 404 for none or one without per-question results."""
    a = assignment_of(row, aid)
    if not A.kind_of(a).per_question:
        abort(404)
    return a


def _questions(a: Assignment) -> list[Mapping[str, Any]]:
    return list((a.quiz_doc or {}).get("questions") or [])


def _results_data(row: Classroom, a: Assignment) -> tuple[Sequence[Membership], list[ClassAttempt]]:
    db = get_session()
    members = db.scalars(select(Membership).where(Membership.classroom_id == row.id, Membership.removed_at.is_(None))
                         .order_by(Membership.id)).all()
    active = {m.learner_id for m in members}  # a removed learner's answers are kept, not counted
    attempts = [t for t in C.attempts_of(get_session(), a.id) if t.learner_id in active]
    return members, attempts


@bp.get("/classes/<int:cid>/assignments/<int:aid>")
@login_required
def results(cid: int, aid: int) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    a = _scored(row, aid)
    questions = _questions(a)
    members, attempts = _results_data(row, a)
    firsts = C.first_attempts(attempts)
    kind = A.kind_of(a)
    learners = []
    for m in members:
        theirs = kind.learner_questions(a, m.learner_id)  # a random draw's learner: their own questions
        drawn = {n for n, _q in theirs}
        got, total = C.score_at(theirs, attempts, m.learner_id)
        cells = []
        for n, q in enumerate(questions, 1):
            first = firsts.get((m.learner_id, n))
            cells.append({"answered": first is not None, "correct": first.correct if first else None,
                          "drawn": n in drawn, "text": C.given_text(q, first.given) if first else ""})
        learners.append({"m": m, "got": got, "total": total, "cells": cells,
                         "done": sum(1 for c in cells if c["answered"])})
    stats = []
    db = get_session()
    for s in C.question_stats(questions, attempts):
        q = questions[s.n - 1]
        r = ratings.question_rating(db, C.rating_ref(a, q), exercise_of(q))
        stats.append({"s": s, "kind": kind_label(q["kind"]),
                      "wrong": C.given_text(q, s.wrong) if s.wrong_count else None,
                      "rating": i18n.fmt_number(round(r.rating)), "rd": i18n.fmt_number(round(r.rd)),
                      "rated": r.games})
    weak = []
    for w in C.weak_spots(attempts):
        try:
            text = rule_point(w.rule).title_in(i18n.current_lang())
        except (UnknownRulePoint, AttributeError):
            text = ""
        weak.append({"w": w, "text": text})
    return render_template("teach/results.html", cls=row, a=a, questions=questions, learners=learners, stats=stats,
                           weak=weak)


@bp.get("/classes/<int:cid>/assignments/<int:aid>/results.csv")
@login_required
def results_csv(cid: int, aid: int) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    a = _scored(row, aid)
    members, attempts = _results_data(row, a)
    kind = A.kind_of(a)
    body = C.csv_rows(row, a, members, attempts, lambda lid: kind.learner_questions(a, lid))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="results-{cid}-{aid}.csv"', "Cache-Control": "no-store"})


@bp.get("/classes/<int:cid>/assignments/<int:aid>/learners/<mid>")
@login_required
def learner_answers(cid: int, aid: int, mid: str) -> ResponseReturnValue:
    row = mine(Classroom, cid)
    a = _scored(row, aid)
    key = id_from_request(mid)
    m = get_session().get(Membership, key) if key else None
    if m is None or m.classroom_id != row.id:
        abort(404)
    questions = _questions(a)
    rows = []
    for t in C.attempts_of(get_session(), a.id, m.learner_id):
        q = questions[t.position - 1] if 1 <= t.position <= len(questions) else None
        if q is not None:
            rows.append({"t": t, "kind": kind_label(q["kind"]), "text": C.given_text(q, t.given)})
    got, total = C.score_at(A.kind_of(a).learner_questions(a, m.learner_id),
                            C.attempts_of(get_session(), a.id, m.learner_id), m.learner_id)
    return render_template("teach/learner.html", cls=row, a=a, m=m, rows=rows, got=got, total=total)
