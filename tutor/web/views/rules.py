"""The rules reference: one page per game listing every rule point.

``GET /<lang>/rules/<ruleset>/`` — every point of the ruleset (:func:`tutor.rules.points_for`)
  with its id, title and statement in the learner's language, its kind (a decision taken where the
  source documents are silent or disagree is marked, with why), its places in the source
  documents, the lesson steps that teach it (their front matter ``rules``) and, where there are
  questions that apply it, a button to practise it. Each point is the anchor ``#rule-<id>``.

A point's "Practise" link goes to the one "Practise this rule" page (``practice.rule``, kept to
this game), which starts adaptive practice on it; the number of questions shown beside it comes
from the same rule -> questions index (:func:`tutor.web.adaptive.by_rule`), so a point without
questions whose verdict cites it has no link.

The Jinja global :func:`rule_link` links a point id to its place on the reference page; every
page uses it (the reasons of feedback, "Rules taught" on a step, the reference itself).
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup, escape

from tutor import i18n
from tutor import rules as rulepoints

from .. import adaptive
from .. import exercises as X
from .common import RULESET_NAMES, ruleset_name

bp = Blueprint("rules", __name__, url_prefix="/<lang>/rules")


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
def page(ruleset: str) -> ResponseReturnValue:
    _ruleset_or_404(ruleset)
    pool = adaptive.by_rule(ruleset)
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
