"""The rules reference: one page per game listing every rule point, and practice on one point.

* ``GET /<lang>/rules/<ruleset>/`` — every point of the ruleset (:func:`tutor.rules.points_for`)
  with its id, title and statement in the learner's language, its kind (a decision taken where the
  source documents are silent or disagree is marked, with why), its places in the source
  documents, the lesson steps that teach it (their front matter ``rules``) and, where there are
  questions that apply it, a button to practise it. Each point is the anchor ``#rule-<id>``.
* ``POST /<lang>/rules/<ruleset>/<point>/practice`` — starts a practice quiz (the practice quiz
  machinery of :mod:`.practice`) of up to :data:`PRACTICE_COUNT` questions whose engine verdict
  cites the point: authored quiz questions, lesson exercises and generated questions of the same
  kinds. 404 for an unknown ruleset or point, or a point with no such question.

The Jinja global :func:`rule_link` links a point id to its place on the reference page; every
page uses it (the reasons of feedback, "Rules taught" on a step, the reference itself).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from types import MappingProxyType

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape

from tutor import i18n
from tutor import rules as rulepoints
from tutor.content.kinds import KINDS

from .. import exercises as X
from ..limits import limited
from ..security import BadInput
from .common import RULESET_NAMES, ruleset_name
from .practice import _new_quiz

bp = Blueprint("rules", __name__, url_prefix="/<lang>/rules")

#: Seeds tried per (kind, difficulty) when looking for generated questions on a point.
GENERATED_SEEDS = 12
#: Questions in a practice quiz on one point (fewer if there are fewer).
PRACTICE_COUNT = 10
_DIFFICULTIES = (1, 2, 3)


def _cited_ids(ex) -> set[str]:
    """The rule point ids the engine's verdict on ``ex`` cites (its reasons' ``rule`` fields)."""
    out: set[str] = set()
    for reason in X.engine_solution(ex).get("why", []):
        if isinstance(reason, dict):
            out.update(part.strip() for part in str(reason.get("rule") or "").split(",") if part.strip())
    return out


def practice_pool(ruleset: str) -> Mapping[str, tuple[str, ...]]:
    """Point id -> the refs of the authored questions of ``ruleset`` whose verdict cites it: quiz
    questions and lesson exercises. Built once per app and ruleset (tens of milliseconds); a point
    with none gets no practice button."""
    cache = current_app.extensions.setdefault("tutor_rule_practice", {})
    if ruleset in cache:
        return cache[ruleset]
    pool: dict[str, list[str]] = {}
    candidates = [(X.ref_of(q), q) for q in X.quiz_questions(ruleset)]
    candidates += [(X.ref_of(e), e) for s in X.content().lesson_path(ruleset, "en").steps for e in s.exercises]
    for ref, ex in candidates:
        if ex.kind not in KINDS:
            continue
        for rule in _cited_ids(ex):
            pool.setdefault(rule, []).append(ref)
    frozen = MappingProxyType({k: tuple(v) for k, v in pool.items()})
    cache[ruleset] = frozen
    return frozen


def practice_refs(ruleset: str, point: str) -> tuple[str, ...]:
    """The questions of a practice set on ``point``: its authored ones (:func:`practice_pool`),
    then generated questions of the same kinds (:data:`GENERATED_SEEDS` seeds per kind and
    difficulty) whose verdict cites it. ``()`` if the point has no authored question. Kept per app."""
    cache = current_app.extensions.setdefault("tutor_rule_practice_sets", {})
    key = (ruleset, point)
    if key in cache:
        return cache[key]
    authored = practice_pool(ruleset).get(point, ())
    generated = []
    for kind in dict.fromkeys(X.resolve(r).kind for r in authored):
        for difficulty in _DIFFICULTIES:
            for seed in range(GENERATED_SEEDS):
                ref = f"gen:{ruleset}:{kind}:{difficulty}:{seed}"
                try:
                    ex = X.resolve(ref)
                except BadInput:
                    continue
                if point in _cited_ids(ex):
                    generated.append(ref)
    cache[key] = tuple(authored) + tuple(generated)
    return cache[key]


def _place(place: rulepoints.Place, lang: str) -> dict:
    """A source place for the page: document number and what it is about in ``lang``, the
    number of lines and the lines (numbers in the language's digits), the section (English)."""
    doc = rulepoints.documents()[place.document]
    return {"number": "".join(i18n.fmt_number(int(d)) for d in doc.number), "about": doc.about_in(lang),
            "n": len(place.lines), "lines": i18n.join_list([i18n.fmt_number(n, group=False) for n in place.lines]),
            "section": place.section}


def _ruleset_or_404(ruleset: str) -> str:
    if ruleset not in RULESET_NAMES:
        abort(404)
    return ruleset


@bp.get("/<ruleset>/")
def page(ruleset: str):
    _ruleset_or_404(ruleset)
    pool = practice_pool(ruleset)
    store = X.content()
    lang = i18n.current_lang()
    groups: dict[str, list[dict]] = {k: [] for k in rulepoints.KINDS}
    for p in rulepoints.points_for(ruleset):
        steps = [st for st in (X.find_step(sid) for sid in store.steps_teaching(ruleset, p.id)) if st is not None]
        groups[p.kind].append({"p": p, "steps": steps, "practice": len(pool.get(p.id, ())),
                               "sources": [_place(pl, lang) for pl in p.sources]})
    sections = [(k, _(rulepoints.KIND_LABELS[k]), items) for k, items in groups.items() if items]
    return render_template("rules.html", ruleset=ruleset, game=ruleset_name(ruleset), sections=sections,
                           games=[(r, ruleset_name(r)) for r in RULESET_NAMES],
                           count=sum(len(items) for _k, _l, items in sections))


@bp.post("/<ruleset>/<point>/practice")
@limited("quiz")
def practice(ruleset: str, point: str):
    """A practice quiz on one point: up to :data:`PRACTICE_COUNT` questions citing it, drawn at
    random (the seed is stored with the quiz)."""
    _ruleset_or_404(ruleset)
    try:
        p = rulepoints.get(point)
    except rulepoints.UnknownRulePoint:
        abort(404)
    if ruleset not in p.games:
        abort(404)
    refs = list(practice_refs(ruleset, p.id))
    if not refs:
        abort(404)
    seed = secrets.randbelow(10**6)
    random.Random(f"{ruleset}|{p.id}|{seed}").shuffle(refs)
    refs = refs[:PRACTICE_COUNT]
    kinds = list(dict.fromkeys(X.resolve(r).kind for r in refs))
    quiz = _new_quiz(ruleset, seed, 0, kinds, refs)
    return redirect(url_for("practice.question", token=quiz.token, n=1))


@bp.app_context_processor
def _globals() -> dict:
    return {"RULESET_IDS": RULESET_NAMES}


@bp.app_template_global()
def rule_link(point: str, ruleset: str | None = None, titled: bool = False) -> Markup:
    """A link to rule point ``point`` (an id such as ``"H14"``) on the rules reference page of
    ``ruleset`` (if the point belongs to it, else of its first game): the id, and its short title
    in the request's language (shown with ``titled``, else for screen readers only). An id that is
    not a point is returned as plain (escaped) text."""
    try:
        p = rulepoints.get(point)
    except rulepoints.UnknownRulePoint:
        return escape(point)

    game = ruleset if ruleset in p.games else p.games[0]
    href = url_for("rules.page", ruleset=game) + f"#rule-{p.id}"
    title = p.title_in(i18n.current_lang())
    cls = "rule-title" if titled else "sr-only"
    return Markup('<a class="rule-link" href="{href}"><bdi class="rule-id">{id}</bdi>'
                  '<span class="{cls}"> {title}</span></a>').format(href=href, id=p.id, cls=cls, title=title)
