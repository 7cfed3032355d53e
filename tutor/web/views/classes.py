"""A learner's classes: joining with a code and a nickname, the assignments, class quizzes.

A class quiz question is shown, answered and given its feedback only here, by its place in the
assignment; every answer is recorded (:func:`tutor.domain.classes.record`) before its feedback is
shown. See :mod:`tutor.domain.classes` for why no stateless endpoint can check these questions.
A learner sees only the classes they joined (another class's pages are a 404) and only their own
answers.

Joining is rate-limited (:mod:`tutor.web.limits`): a code that names a class draws on that class's
budget (``join``: the learners of a school, behind one address, join together), a code that names
none on the address's (``join-guess``: guesses at codes). Over either, the form comes back (429,
``Retry-After``) with what was typed and the message beside the code.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import Row, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException

from tutor import i18n
from tutor.content.exercise import Exercise
from tutor.content.kinds import Verdict
from tutor.domain import classes as C
from tutor.domain import ratings
from tutor.domain import settings as S
from tutor.domain.assignments import AssignmentKind, LessonAssignment, QuizAssignment, kind_of, learner_order
from tutor.domain.db import now
from tutor.domain.manage import restore_member
from tutor.domain.models import Assignment, ClassAttempt, Classroom, Membership

from .. import exercises as X
from ..db import current_learner, get_session, learner_for_write
from ..forms import JoinForm
from ..limits import limited, note
from ..record import write
from ..security import BadInput, http_error
from .common import exercise_context, ruleset_name, wants_fragment

bp = Blueprint("classes", __name__, url_prefix="/<lang>")


@bp.get("/join")
def join(form: JoinForm | None = None, status: int = 200) -> ResponseReturnValue:
    form = form or JoinForm(code=request.args.get("code", "")[:20])
    return render_template("classes/join.html", form=form), status


def display_name(text: str) -> str:
    """A nickname as shown to the teacher: spaces collapsed, at most 40 characters, without control
    or invisible formatting characters (a right-to-left override would reorder the teacher's
    table, a bell or escape would end up in the CSV); the zero-width (non-)joiners that Persian
    and Telugu spelling needs are kept."""
    kept = "".join(ch for ch in text
                   if ch in "\u200c\u200d" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    return " ".join(kept.split())[:40]


@bp.post("/join")
@limited("join", "join-guess")
def join_post() -> ResponseReturnValue:
    form = JoinForm()
    if not form.validate():
        return join(form, 400)
    code = C.normal_code(form.code.data or "")
    nickname = display_name(form.nickname.data or "")
    row = get_session().scalar(select(Classroom).where(Classroom.code == code)) if code else None
    if row is None:
        note("unknown-code")  # a guess at a code, for all we know: counts against the address
        form.code.errors = [_("There is no class with this code.")]
        return join(form, 400)
    note("class-code")  # counts against the class
    if row.archived_at is not None:
        form.code.errors = [_("This class is archived: it takes no new learners.")]
        return join(form, 400)
    if not nickname:
        form.nickname.errors = [_("Choose a nickname.")]
        return join(form, 400)
    learner = current_learner()
    member = learner is not None and C.membership(get_session(), row.id, learner.id) is not None
    if not member and C.nickname_taken(get_session(), row.id, nickname):  # a member joining again keeps theirs
        form.nickname.errors = [_("Another learner in this class goes by this nickname: choose another one.")]
        return join(form, 400)

    def work(db: Session) -> None:
        learner = learner_for_write(db)
        found = C.membership(db, row.id, learner.id)
        if found is None:
            db.add(Membership(classroom_id=row.id, learner_id=learner.id, nickname=nickname))
        else:  # removed by the teacher: joining again restores the membership and its answers
            restore_member(found)
    with contextlib.suppress(IntegrityError):  # joined at once from two tabs: already a member
        write(work)
    return redirect(url_for("classes.mine"))


@bp.errorhandler(429)
def too_many(e: HTTPException) -> ResponseReturnValue:
    """A join over its limit: the join form again (429, with Retry-After) with the code and the
    nickname typed and the message beside the code; other views of these pages: the app's error page."""
    if request.endpoint != "classes.join_post":
        return http_error(e)
    form = JoinForm()
    form.code.errors = [_("Too many requests in a short time. Wait a little, then try again.")]  # the app's 429 message
    return join(form, 429)


def _member_classes() -> Sequence[Row[Membership, Classroom]]:
    learner = current_learner()
    if learner is None:
        return []
    db = get_session()
    return db.execute(select(Membership, Classroom).join(Classroom, Classroom.id == Membership.classroom_id)
                      .where(Membership.learner_id == learner.id, Membership.removed_at.is_(None))
                      .order_by(Membership.id)).all()


@bp.get("/classes/")
def mine() -> ResponseReturnValue:
    db = get_session()
    learner = current_learner()
    out = []
    for m, cls in _member_classes():
        rows = []
        for a in db.scalars(select(Assignment).where(Assignment.classroom_id == cls.id, Assignment.archived_at.is_(None))
                            .order_by(Assignment.id)):
            item = {"a": a, "url": _assignment_url(cls, a), "due": a.due, "late": bool(a.due and a.due < now()),
                    "held": not S.results_visible(a, now()), "state": S.state(a, now())}
            if learner is not None:
                item |= kind_of(a).learner_summary(db, a, learner.id)
            rows.append(item)
        out.append({"m": m, "cls": cls, "assignments": rows, "shut": S.archived(cls)})
    return render_template("classes/mine.html", classes=out)


def _assignment_url(cls: Classroom, a: Assignment) -> str:
    endpoint, values, fragment = kind_of(a).learner_link(a, cls.id)
    return url_for(endpoint, **values) + fragment


def _member_assignment(cid: int, aid: int, kind: type[AssignmentKind] = QuizAssignment
                       ) -> tuple[Classroom, Assignment, int]:
    """The class, its assignment of ``kind`` (a quiz unless told; see
    :mod:`tutor.domain.assignments`) and the learner's id; 404 unless the learner is a member (not
    removed by the teacher) and the assignment is not unassigned."""
    learner = current_learner()
    db = get_session()
    if learner is None or C.active_membership(db, cid, learner.id) is None:
        abort(404)
    a = db.get(Assignment, aid)
    cls = db.get(Classroom, cid)
    if a is None or cls is None or a.classroom_id != cid or a.archived_at is not None \
            or not isinstance(kind_of(a), kind):
        abort(404)
    return cls, a, learner.id


# A quiz's questions are named in its addresses by their place in the learner's order (n, from 1;
# shuffled per learner if the assignment says so: tutor.domain.settings.order); an answer is kept
# under the question's stored place. The assignment's settings decide what may be answered when
# (S.refusal) and what the learner is shown (S.results_visible: in test mode, "Answer saved" only).

def _order(a: Assignment, lid: int) -> list[int]:
    """The stored places of the learner's questions in their order (:func:`tutor.domain.assignments.learner_order`)."""
    return learner_order(a, lid)


def _place(a: Assignment, lid: int, n: int) -> int:
    """The stored place of the learner's question ``n``; 404 for none."""
    places = _order(a, lid)
    if not 1 <= n <= len(places):
        abort(404)
    return places[n - 1]


@bp.get("/classes/<int:cid>/assignments/<int:aid>/")
def overview(cid: int, aid: int) -> ResponseReturnValue:
    cls, a, lid = _member_assignment(cid, aid)
    db = get_session()
    when = S.state(a, now())
    if when == "closed":
        return redirect(url_for("classes.results", cid=cid, aid=aid))
    if when == "not-open" or (a.time_limit and S.start_of(db, a, lid) is None):
        return render_template("classes/start.html", cls=cls, a=a, state=when, total=len(_order(a, lid)),
                               action=url_for("classes.start", cid=cid, aid=aid))
    firsts = C.first_attempts(C.attempts_of(db, a.id, lid))
    nxt = next((n for n, p in enumerate(_order(a, lid), 1) if (lid, p) not in firsts), None)
    if nxt is None:
        return redirect(url_for("classes.results", cid=cid, aid=aid))
    return redirect(url_for("classes.question", cid=cid, aid=aid, n=nxt))


@bp.post("/classes/<int:cid>/assignments/<int:aid>/start")
def start(cid: int, aid: int) -> ResponseReturnValue:
    """Start a timed assignment: the learner's time limit runs from now (a second start changes nothing)."""
    _cls, a, _lid = _member_assignment(cid, aid)
    if S.state(a, now()) == "open":
        write(lambda db: S.start(db, a, learner_for_write(db).id, now()))
    return redirect(url_for("classes.overview", cid=cid, aid=aid))


def _item(a: Assignment, n: int) -> tuple[Exercise, dict]:
    found = C.class_exercise(a, n)
    if found is None:
        abort(404)
    return found


def _shuffle_options(a: Assignment, lid: int, p: int, x: dict) -> dict:
    """The exercise context ``x`` of stored question ``p`` with its options (the seats and sides a
    learner picks from) in the learner's order (:func:`tutor.domain.settings.shuffled`)."""
    for name in ("seat_choices", "sides"):
        if name in x:
            x[name] = S.shuffled(a, lid, p, x[name])
    return x


def _timer(a: Assignment, lid: int) -> datetime | None:
    return S.deadline(a, S.start_of(get_session(), a, lid)) if a.time_limit else None


@bp.get("/classes/<int:cid>/assignments/<int:aid>/<int:n>")
def question(cid: int, aid: int, n: int, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    cls, a, lid = _member_assignment(cid, aid)
    p = _place(a, lid, n)
    ex, q = _item(a, p)
    total = len(_order(a, lid))
    refused = S.refusal(get_session(), a, lid, p, now())
    if refused is not None and refused.code in ("not-started", "not-open"):
        return redirect(url_for("classes.overview", cid=cid, aid=aid))
    if refused is not None and refused.code == "answered":
        return redirect(url_for("classes.feedback", cid=cid, aid=aid, n=n))
    ctx = _shuffle_options(a, lid, p, exercise_context(ex, f"class-{aid}-{n}", error=error))
    return render_template("classes/question.html", cls=cls, a=a, n=n, total=total, x=ctx,
                           game=ruleset_name(ex.ruleset or ""), points=C.points_of(q),
                           refused=refused, deadline=_timer(a, lid), results_url=url_for(
                               "classes.results", cid=cid, aid=aid),
                           action=url_for("classes.answer", cid=cid, aid=aid, n=n)), status


def _refused_page(cid: int, aid: int, n: int, refused: S.Refusal) -> ResponseReturnValue:
    """The question's page with why its answer was not taken (403; nothing recorded)."""
    cls, a, lid = _member_assignment(cid, aid)
    p = _place(a, lid, n)
    ex, q = _item(a, p)
    total = len(_order(a, lid))
    ctx = _shuffle_options(a, lid, p, exercise_context(ex, f"class-{aid}-{n}"))
    return render_template("classes/question.html", cls=cls, a=a, n=n, total=total, x=ctx,
                           game=ruleset_name(ex.ruleset or ""), points=C.points_of(q), refused=refused,
                           deadline=None, results_url=url_for("classes.results", cid=cid, aid=aid),
                           action=url_for("classes.answer", cid=cid, aid=aid, n=n)), 403


@bp.post("/classes/<int:cid>/assignments/<int:aid>/<int:n>")
@limited("answer")
def answer(cid: int, aid: int, n: int) -> ResponseReturnValue:
    _cls, a, lid = _member_assignment(cid, aid)
    p = _place(a, lid, n)
    ex, _q = _item(a, p)
    refused = S.refusal(get_session(), a, lid, p, now())
    if refused is not None:
        return _refused_page(cid, aid, n, refused)
    try:
        given = X.read_form(ex, request.form)
        verdict = X.grade(ex, given)
    except BadInput as e:
        return question(cid, aid, n, error=e.message, status=400)

    def work(db: Session) -> None:
        learner = learner_for_write(db)
        if S.refusal(db, a, learner.id, p, now()) is not None:  # again inside the write: narrows the window of two posts at once
            return
        first = db.scalar(select(ClassAttempt.id).where(ClassAttempt.assignment_id == a.id,
                                                        ClassAttempt.learner_id == learner.id,
                                                        ClassAttempt.position == p).limit(1)) is None
        C.record(db, a, learner.id, p, verdict)
        if first:  # the first attempt is the score, and what rates the question
            ratings.rate(db.connection(), learner.id, C.rating_ref(a, _q), ex, verdict.correct)
    write(work)
    return redirect(url_for("classes.feedback", cid=cid, aid=aid, n=n))


@bp.get("/classes/<int:cid>/assignments/<int:aid>/<int:n>/feedback")
def feedback(cid: int, aid: int, n: int) -> ResponseReturnValue:
    cls, a, lid = _member_assignment(cid, aid)
    p = _place(a, lid, n)
    ex, q = _item(a, p)
    mine = [t for t in C.attempts_of(get_session(), a.id, lid) if t.position == p]
    if not mine:
        return redirect(url_for("classes.question", cid=cid, aid=aid, n=n))
    total = len(_order(a, lid))
    nxt = url_for("classes.question", cid=cid, aid=aid, n=n + 1) if n < total else \
        url_for("classes.results", cid=cid, aid=aid)
    common = {"cls": cls, "a": a, "n": n, "total": total, "game": ruleset_name(ex.ruleset or ""),
              "points": C.points_of(q), "next_url": nxt}
    if not S.results_visible(a, now()):  # a test: the answer is kept, nothing of its verdict shown
        return render_template("classes/question.html", saved=True, x={"ex": ex, "kind": ex.kind,
                                                                      "prompt": X.prompt_of(ex)}, **common)
    verdict = X.grade(ex, mine[-1].given)
    again = S.state(a, now()) == "open" and S.attempts_left(a, len(mine)) != 0
    return render_template("classes/question.html", **common,
                           x=_shuffle_options(a, lid, p, exercise_context(ex, f"class-{aid}-{n}", verdict=verdict)),
                           first_counts=(not mine[0].correct and len(mine) > 1) or None,
                           retry_url=url_for("classes.question", cid=cid, aid=aid, n=n) if again else None)


@bp.get("/classes/<int:cid>/assignments/<int:aid>/results")
def results(cid: int, aid: int) -> ResponseReturnValue:
    cls, a, lid = _member_assignment(cid, aid)
    questions = (a.quiz_doc or {}).get("questions") or []
    attempts = C.attempts_of(get_session(), a.id, lid)
    firsts = C.first_attempts(attempts)
    visible = S.results_visible(a, now())
    rows = []
    for n, p in enumerate(_order(a, lid), 1):
        first = firsts.get((lid, p))
        rows.append({"n": n, "answered": first is not None,
                     "correct": (first.correct if first else None) if visible else None,
                     "points": C.points_of(questions[p - 1]),
                     "url": url_for("classes.feedback" if first else "classes.question", cid=cid, aid=aid, n=n)})
    got, total = C.score_at(kind_of(a).learner_questions(a, lid), attempts, lid)
    return render_template("classes/results.html", cls=cls, a=a, rows=rows, got=got, total=total, held=not visible,
                           state=S.state(a, now()))


# ------------------------------------------------------------------------------- a teacher's lesson
# The lesson is drawn as the teacher's preview draws it (the copy taken when it was assigned,
# nh3-sanitised Markdown, each exercise in the lesson's language); each exercise is answered by its
# place n in the lesson (it has no exercise ref, so the exercise API cannot show or check it) and
# every answer is recorded (:func:`tutor.domain.classes.record`) before its verdict is shown.

def _member_lesson(cid: int, aid: int) -> tuple[Classroom, Assignment, int]:
    """The class, its lesson assignment and the learner's id; 404 unless the learner is a member."""
    return _member_assignment(cid, aid, LessonAssignment)


def _lesson_exercise(cid: int, a: Assignment, n: int, ex: Exercise, verdict: Verdict | None = None,
                     error: str | None = None, typed: Mapping[str, Any] | None = None) -> dict:
    url = url_for("classes.lesson", cid=cid, aid=a.id)
    with i18n.using(str(a.lesson_doc["lang"])):  # type: ignore[index]
        x = exercise_context(ex, f"class-lesson-{a.id}-{n}", verdict=verdict, error=error, typed=typed)
    x["action"] = url_for("classes.lesson_answer", cid=cid, aid=a.id, n=n)
    x["retry_url"] = f"{url}?again={n}#ex-{ex.id}" if verdict is not None else None
    return x


def _lesson_exercise_html(a: Assignment, x: dict) -> Markup:
    with i18n.using(str(a.lesson_doc["lang"])):  # type: ignore[index]
        return Markup(render_template("_fragment.html", x=x))


@bp.get("/classes/<int:cid>/lessons/<int:aid>/")
def lesson(cid: int, aid: int, error_at: int | None = None, error: str | None = None,
           typed: Mapping[str, Any] | None = None, status: int = 200) -> ResponseReturnValue:
    cls, a, lid = _member_lesson(cid, aid)
    doc = a.lesson_doc or {}
    step, _problems = C.lesson_step(doc)
    attempts = C.attempts_of(get_session(), a.id, lid)
    last = {t.position: t for t in attempts}
    shut = S.archived(cls)
    again = request.args.get("again", type=int) if shut is None else None
    parts: list[dict] = []
    n = 0
    for _what, item in (step.parts() if step is not None else []):
        if isinstance(item, str):
            parts.append({"html": item})
            continue
        n += 1
        verdict = None
        if n in last and n not in (again, error_at):
            verdict = X.grade(item, last[n].given)
        elif shut is not None:  # an archived class: no form, the notice in its place
            parts.append({"note": shut.message})
            continue
        try:  # a copy assigned before the engine checked teachers' lessons may hold an exercise it cannot draw
            x = _lesson_exercise(cid, a, n, item, verdict=verdict, error=error if n == error_at else None,
                                 typed=typed if n == error_at else None)
            if shut is not None:
                x["retry_url"] = None
            parts.append({"exercise": _lesson_exercise_html(a, x)})
        except Exception:  # noqa: BLE001 - a note in its place, never a 500
            parts.append({"note": _("This exercise cannot be shown: it has a mistake that your teacher can fix.")})
    right, total = C.lesson_progress(n, attempts, lid)
    return render_template("classes/lesson.html", cls=cls, a=a, doc=doc, parts=parts, right=right, total=total,
                           shut=shut, game=ruleset_name(str(doc.get("ruleset", ""))),
                           lesson_dir=i18n.text_direction(str(doc.get("lang") or ""))), status


@bp.post("/classes/<int:cid>/lessons/<int:aid>/<int:n>")
@limited("answer")
def lesson_answer(cid: int, aid: int, n: int) -> ResponseReturnValue:
    cls, a, lid = _member_lesson(cid, aid)
    exercises = C.lesson_exercises(a)
    if not 1 <= n <= len(exercises):
        abort(404)
    ex = exercises[n - 1]
    if S.archived(cls) is not None:  # the page with the class's notice, nothing recorded
        return lesson(cid, aid, status=403)
    try:
        given = X.read_form(ex, request.form)
        verdict = X.grade(ex, given)
    except BadInput as e:
        if wants_fragment():
            x = _lesson_exercise(cid, a, n, ex, error=e.message, typed=request.form.to_dict(flat=False))
            return _lesson_exercise_html(a, x), 400
        return lesson(cid, aid, error_at=n, error=e.message, typed=request.form.to_dict(flat=False), status=400)

    def work(db: Session) -> None:
        learner = learner_for_write(db)
        C.record(db, a, learner.id, n, verdict)
    write(work)
    if wants_fragment():  # the section, and the lesson's count as this answer left it (tutor.js puts it in place)
        right, total = C.lesson_progress(len(exercises), C.attempts_of(get_session(), a.id, lid), lid)
        return _lesson_exercise_html(a, _lesson_exercise(cid, a, n, ex, verdict=verdict)) + Markup(
            render_template("_page_meta.html", page_meta={"progress": {"right": right, "total": total}}))
    return redirect(url_for("classes.lesson", cid=cid, aid=aid) + f"#ex-{ex.id}")
