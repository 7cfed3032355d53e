"""A teacher's question bank (``/<lang>/teach/bank``): every question of their own quizzes,
filtered by a category (game, exercise kind, rule point, the teacher's tags;
:mod:`tutor.domain.bank`), the tags added and taken off question by question, and a random
draw from the category shown assigned to one of their classes
(:class:`tutor.domain.assignments.DrawAssignment`).

The category is the page's query string (``ruleset``, ``kind``, ``rule``, ``tag``; empty: any),
read by :class:`~tutor.web.forms.BankFilterForm`: a value that is not one of the choices gives
the page with status 400 and the message beside its field, the whole bank listed. The tag and
draw forms post to URLs carrying the same query string, so the page they come back to (a
redirect, or the page again with 400 and the message beside the field) shows the same category.
Another teacher's quiz or class is a 404 (a class not among the form's choices: the message
beside the field); nothing is written then.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tutor import i18n
from tutor.content.kinds import KINDS
from tutor.domain import assignments as A
from tutor.domain import bank as B
from tutor.domain.db import now
from tutor.domain.models import Assignment, Classroom, TeacherQuiz
from tutor.domain.quizdoc import exercise_of
from tutor.engine.rulesets import RULESETS
from tutor.rules import all_points
from tutor.web.record import write

from ... import exercises as X
from ...db import get_session
from ...forms import BankFilterForm, DrawForm, TagForm, choices
from ..common import ruleset_name
from ._common import bp, kind_label, me, mine

#: The query-string names of a category (:class:`tutor.domain.bank.Filter`'s fields).
FILTER_FIELDS = ("ruleset", "kind", "rule", "tag")


def _filter_form(questions: Sequence[B.BankQuestion]) -> tuple[BankFilterForm, B.Filter, bool]:
    """The category form read from the query string, its choices filled (the rule points and tags
    found in the teacher's bank), the category it names and whether it is valid (a bad value:
    the message beside its field, the category "any")."""
    form = BankFilterForm(formdata=request.args)
    anything = ("", _("Any"))
    form.ruleset.choices = choices([anything] + [(r, ruleset_name(r)) for r in RULESETS])
    form.kind.choices = choices([anything] + [(k, _(kind.label)) for k, kind in KINDS.items()])
    cited = {r for b in questions for r in b.rules}
    lang = i18n.current_lang()
    form.rule.choices = choices([anything] + [(p.id, f"{p.id} {p.title_in(lang)}")
                                              for p in all_points() if p.id in cited])
    tags: dict[str, str] = {}
    for b in questions:
        for t in b.tags:
            tags.setdefault(t.casefold(), t)
    form.tag.choices = choices([anything, *sorted(((t, t) for t in tags.values()), key=lambda kv: kv[0].casefold())])
    if not form.validate():
        return form, B.Filter(), False
    return form, B.Filter(*(str(getattr(form, name).data or "") for name in FILTER_FIELDS)), True


def _query(f: B.Filter) -> dict[str, str]:
    """The query string of category ``f`` (its non-empty fields)."""
    return {k: v for k, v in f.as_dict().items() if v}


def _classes() -> list[Classroom]:
    return list(get_session().scalars(select(Classroom).where(Classroom.teacher_id == me().id)
                                      .order_by(Classroom.id)))


def _item(b: B.BankQuestion, lang: str) -> dict[str, Any]:
    ex = exercise_of(b.q)
    rules = []
    for rid in b.rules:
        point = next((p for p in all_points() if p.id == rid), None)
        rules.append({"id": rid, "title": point.title_in(lang) if point is not None else ""})
    return {"b": b, "kind": kind_label(b.kind), "game": ruleset_name(b.ruleset), "prompt": X.prompt_of(ex),
            "rules": rules, "key": f"{b.quiz_id}-{b.question_id}"}


@bp.get("/bank")
@login_required
def bank(tag_form: tuple[str, TagForm] | None = None, draw_form: DrawForm | None = None,
         status: int = 200) -> ResponseReturnValue:
    """The bank page: the questions of the category in the query string, the tag forms, the
    draw form. After a tag or draw form that did not validate: that form as sent with its
    messages (``tag_form``: the question's key ``<quiz>-<question id>`` and the form), 400."""
    questions = B.questions_of(get_session(), me().id)
    form, f, valid = _filter_form(questions)
    shown = B.select_questions(questions, f)
    lang = i18n.current_lang()
    items = [_item(b, lang) for b in shown]
    draw = draw_form or DrawForm(formdata=None)
    draw.classroom.choices = choices([(str(c.id), c.name) for c in _classes()])
    return render_template("teach/bank.html", form=form, items=items, total=len(questions), category=f,
                           query=_query(f), tag_form=tag_form, draw=draw, has_classes=bool(draw.classroom.choices),
                           empty_tag=TagForm(formdata=None)), status if valid else 400


def _tagged_quiz(form: TagForm) -> TeacherQuiz:
    return mine(TeacherQuiz, int(form.quiz.data or 0))


@bp.post("/bank/tags")
@login_required
def bank_tag() -> ResponseReturnValue:
    """Add the posted tag to the posted question (``action=add``) or take it off
    (``action=remove``); back to the bank's category. A question not in the teacher's quiz: 404."""
    form = TagForm()
    action = request.form.get("action", "")
    if action not in ("add", "remove"):
        abort(400)
    if form.quiz.data is not None:
        _tagged_quiz(form)  # 404 for another teacher's quiz, before any message
    if not form.validate():
        key = f"{form.quiz.data}-{form.question.data}"
        return bank(tag_form=(key, form), status=400)
    quiz_id, question_id, tag = int(form.quiz.data or 0), str(form.question.data), str(form.tag.data)

    def work(db: Session) -> bool:
        quiz = db.get(TeacherQuiz, quiz_id)
        if quiz is None or quiz.teacher_id != me().id:
            return False
        if action == "remove":
            B.remove_tag(db, quiz, question_id, tag)
            return True
        return B.add_tag(db, quiz, question_id, tag)
    try:
        if not write(work):
            abort(404)
    except IntegrityError:  # the same tag added at once from two tabs: it is there
        pass
    query: dict[str, Any] = {k: v for k, v in request.args.items() if k in FILTER_FIELDS and v}
    return redirect(url_for("teach.bank", **query) + f"#q-{quiz_id}-{question_id}")


@bp.post("/bank/draw")
@login_required
def bank_draw() -> ResponseReturnValue:
    """Assign the chosen class a random draw of ``n`` questions per learner from the category in
    the query string; the class's page after. Too many questions, an empty category, a bad
    category, a due date gone by, the same draw assigned already: the bank page again (400) with
    the message beside the field, nothing written."""
    questions = B.questions_of(get_session(), me().id)
    _fform, f, valid = _filter_form(questions)
    form = DrawForm()
    form.classroom.choices = choices([(str(c.id), c.name) for c in _classes()])
    if not form.validate() or not valid:
        if not valid and not form.n.errors:
            form.n.errors = [_("Choose a category of the bank first: one of its fields is not valid.")]
        return bank(draw_form=form, status=400)
    cid = int(form.classroom.data or 0)
    row = mine(Classroom, cid)
    if form.due.data and form.due.data < now().date():
        form.due.errors = [_("The due date has passed: choose today or a later day.")]
        return bank(draw_form=form, status=400)
    n = int(form.n.data or 0)
    title = (form.title.data or "").strip()  # none: the default, in each page's language
    a = Assignment(classroom_id=row.id, title="",
                   due=datetime.combine(form.due.data, time(23, 59)) if form.due.data else None)
    kind = A.KINDS[A.DrawAssignment.name]
    try:
        kind.fill(a, get_session(), me().id, ["draw", str(n), f.ruleset, f.kind, f.rule, f.tag], title)
    except A.Refused as e:
        form.n.errors = [str(e)]
        return bank(draw_form=form, status=400)
    assignments = get_session().scalars(select(Assignment).where(Assignment.classroom_id == row.id)).all()
    if A.assigned_already(assignments, a):
        form.classroom.errors = [_("This is already assigned to this class.")]
        return bank(draw_form=form, status=400)

    def work(db: Session) -> None:
        db.add(a)
        db.flush()
        A.add_fingerprints(db, a)
    write(work)
    return redirect(url_for("teach.classroom", cid=row.id))
