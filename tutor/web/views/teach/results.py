"""A class's results on an assignment with per-question results (a quiz; see
:attr:`tutor.domain.assignments.AssignmentKind.per_question`): the grid of every learner's first
answers (✓/✗ per question, the answer on demand), sorted and filtered by the query, the class
summary with the score distribution drawn as SVG, each question's facility, discrimination,
rating and most common wrong answer, the rule points of the wrong answers (weak spots), the
results as CSV, and one learner's answers. The figures are :mod:`tutor.domain.results`'s; only
members' answers count. Any other assignment's results are a 404."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import Response, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy import select

from tutor import i18n
from tutor.domain import assignments as A
from tutor.domain import classes as C
from tutor.domain import ratings
from tutor.domain import results as R
from tutor.domain.db import id_from_request
from tutor.domain.models import Assignment, ClassAttempt, Classroom, Membership
from tutor.domain.quizdoc import answer_text
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
    ids = {m.learner_id for m in members}  # a removed learner's answers are kept, not counted
    attempts = [t for t in C.attempts_of(get_session(), a.id) if t.learner_id in ids]
    return members, attempts


def _time_label(seconds: int | None) -> str:
    """A learner's time in whole minutes, rounded up ("3 min"); "–" before a first answer."""
    if seconds is None:
        return "–"
    return _("%(num)s min", num=i18n.fmt_number(-(-seconds // 60)))


def _sort_links(cid: int, aid: int, sort: str, descending: bool, show: str, name: str) -> dict[str, dict[str, str]]:
    """For each sort key: the URL that sorts by it (the other way round when it is the current
    one) and its ``aria-sort`` value (``none`` for the others)."""
    out = {}
    for key in R.SORTS:
        current = key == sort
        down = not descending if current else key != "name"  # a score or a time is read best first
        args: dict[str, Any] = {"sort": key, "order": "desc" if down else "asc"} | ({"show": show} if show != "all" else {}) \
            | ({"name": name} if name else {})
        out[key] = {"url": url_for("teach.results", cid=cid, aid=aid, **args) + "#h-learners",
                    "aria": ("descending" if descending else "ascending") if current else "none"}
    return out


@bp.get("/classes/<int:cid>/assignments/<int:aid>")
@login_required
def results(cid: int, aid: int) -> ResponseReturnValue:
    """The results grid (query: ``sort`` one of :data:`tutor.domain.results.SORTS`, ``order``
    ``asc``/``desc``, ``show`` one of :data:`~tutor.domain.results.STATUSES`, ``name`` a part of a
    nickname; anything else is read as the default), the class summary, the questions' figures and
    the weak spots (:mod:`tutor.domain.results`)."""
    row = mine(Classroom, cid)
    a = _scored(row, aid)
    questions = _questions(a)
    members, attempts = _results_data(row, a)
    sort = request.args.get("sort", "name")
    sort = sort if sort in R.SORTS else "name"
    descending = request.args.get("order") == "desc"
    show = request.args.get("show", "all")
    show = show if show in R.STATUSES else "all"
    name = request.args.get("name", "").strip()[:40]
    kind = A.kind_of(a)
    every = R.learner_rows(questions, members, attempts,  # a random draw's learner: their own questions
                           lambda learner: {n for n, _q in kind.learner_questions(a, learner)})
    shown = R.filter_rows(R.sort_rows(every, sort, descending), show, name)
    summary = R.summary(every, sum(C.points_of(q) for q in questions))
    exercises = [exercise_of(q) for q in questions]
    meta = _cell_meta()
    learners = [{"r": r, "time": _time_label(r.seconds),
                 "cells": [{"c": c, "text": answer_text(exercises[c.n - 1], c.first.given) if c.first else "",
                            "meta": meta(c.points, c.attempts) if c.first else ""}
                           for c in r.cells]} for r in shown]
    words = {"right": _("right"), "wrong": _("wrong"), "none": _("not answered"),
             "q": [_("Q%(n)s", n=i18n.fmt_number(n)) for n in range(1, len(questions) + 1)]}
    stats = []
    db = get_session()
    for f in R.question_figures(questions, every, attempts):
        q = questions[f.n - 1]
        r = ratings.question_rating(db, C.rating_ref(a, q), exercise_of(q))
        stats.append({"s": f, "kind": kind_label(q["kind"]),
                      "wrong": C.given_text(q, f.wrong) if f.wrong_count else None,
                      "discrimination": i18n.fmt_number(round(f.discrimination, 2)) if f.discrimination is not None
                      else None,
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
                           weak=weak, summary=summary, words=words, chart=_chart(summary), sort=sort, descending=descending,
                           show=show, name=name, sorts=_sort_links(cid, aid, sort, descending, show, name),
                           shown=len(shown), statuses=_status_labels())


def _cell_meta() -> Callable[[int, int], str]:
    """``meta(points, attempts)``: a cell's "2 points · 3 attempts" in the page's language, each
    wording made once (a grid of 40 × 20 cells repeats a few)."""
    @functools.cache
    def meta(points: int, attempts: int) -> str:
        return (i18n.ngettext("%(num)s point", "%(num)s points", points) + " · "
                + i18n.ngettext("%(num)s attempt", "%(num)s attempts", attempts))
    return meta


def _status_labels() -> list[tuple[str, str]]:
    return [("all", _("Everyone")), ("not-started", _("Not started")), ("not-finished", _("Not finished")),
            ("finished", _("Finished"))]


#: The chart's drawing box (SVG user units): bars of this width and gap, this tall at most.
CHART = {"bar": 40, "gap": 8, "height": 120, "top": 18, "bottom": 34}


def _chart(s: R.Summary) -> dict[str, Any]:
    """The score distribution's bars for the template's SVG: per bin its x, y, height, count and
    label (the bin's range of percentages in the page's digits)."""
    bar, gap, height, top = CHART["bar"], CHART["gap"], CHART["height"], CHART["top"]
    gap0 = 2 * gap  # room at the start for the first tick's label
    tallest = max(s.largest_bin, 1)
    bars = []
    for i, count in enumerate(s.bins):
        h = round(height * count / tallest)
        lo, hi = i * 100 // R.BINS, (i + 1) * 100 // R.BINS
        bars.append({"x": gap0 + i * (bar + gap), "y": top + height - h, "h": h, "count": i18n.fmt_number(count),
                     "n": count, "label": i18n.fmt_percent(lo / 100), "range": _("%(low)s–%(high)s", low=i18n.fmt_percent(lo / 100),
                                                                          high=i18n.fmt_percent(hi / 100))})
    return {"bars": bars, "width": 2 * gap0 + R.BINS * (bar + gap), "height": top + height + CHART["bottom"],
            "base": top + height, "bar": bar, "gap": gap, "end": gap0 - gap / 2 + R.BINS * (bar + gap),
            "last": i18n.fmt_percent(1)}


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
