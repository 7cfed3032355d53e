"""The learner's progress: per game and unit, reset a lesson, the mistakes to review, display name."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup, escape
from sqlalchemy import Integer, bindparam, cast, delete, func, select

from tutor import i18n
from tutor import rules as rule_points
from tutor.content.kinds import KINDS
from tutor.domain import dashboard, mastery, ratings
from tutor.domain.db import now
from tutor.domain.mastery import MASTERED, WEAK
from tutor.domain.models import Attempt, Learner, StepProgress
from tutor.domain.review import due_of

from .. import exercises as X
from ..adaptive import rulesets_of_rule
from ..db import current_learner, get_session, learner_for_write, read_connection, session_anon
from ..pagecache import cached_for_learner, csrf_placeholder
from ..record import step_states
from ..security import BadInput
from .common import RULESET_NAMES, four_colour, ruleset_name

bp = Blueprint("progress", __name__, url_prefix="/<lang>/progress")


#: Highest page number of the mistakes list a request may ask for.
MAX_PAGE = 10_000


def filters_from(args: Mapping[str, str]) -> dashboard.Filters:
    """The mistakes list's filters from a query string or form; unknown values mean "any"."""
    game = args.get("game") or None
    kind = args.get("kind") or None
    rule = args.get("rule") or None
    if rule is not None and (len(rule) > 20 or not rulesets_of_rule(rule)):
        rule = None
    return dashboard.Filters(game if game in RULESET_NAMES else None, kind if kind in KINDS else None,
                             rule_points.get(rule).id if rule else None)


def _kind_name(kind: str) -> str:
    return mastery.kind_label(kind)


def _rule_title(rule: str) -> Markup:
    """The rule point's title in the learner's language; one not translated yet is the English
    title marked ``lang="en"`` (left to right inside a Persian page)."""
    lang = i18n.current_lang()
    try:
        point = rule_points.get(rule)
    except KeyError:
        return Markup(escape(rule))
    if lang in point.title:
        return Markup(escape(point.title[lang]))
    return Markup('<span lang="en" dir="ltr">%s</span>') % point.title["en"]


#: Longest time a kept progress page is served again (seconds): it shows times relative to now
#: ("due in 3 hours"), which may be this much older on a revisit.
KEEP_SECONDS = 60

#: The version of what the progress page shows of a learner, found from the session's learner id:
#: ``(learner id, display name, id of the last answer, and the count, steps done, hints, stars and
#: latest change of the lesson progress rows)``. Every answer adds an attempt (and only answers
#: change the mistakes, skills and ratings shown); lesson progress also changes by marking a step
#: read, a hint or a reset. One query on the indexes ``learner (anon_id)``, ``attempt (learner_id)``
#: and ``step_progress (learner_id)``.
_SP = StepProgress
_VERSION = select(
    Learner.id, Learner.display_name,
    select(func.max(Attempt.id)).where(Attempt.learner_id == Learner.id).scalar_subquery(),
    *(select(agg).where(_SP.learner_id == Learner.id).scalar_subquery() for agg in (
        func.count(_SP.id), func.sum(cast(_SP.done, Integer)), func.sum(_SP.hints), func.sum(_SP.stars),
        func.max(_SP.updated_at))),
).where(Learner.anon_id == bindparam("anon"))


def _version() -> tuple | None:
    anon = session_anon()
    if anon is None:
        return None
    row = read_connection().execute(_VERSION, {"anon": anon}).first()
    return tuple(row) if row is not None else None


@bp.get("/")
def page(error: str | None = None, status: int = 200) -> ResponseReturnValue:
    """The progress page. A learner's page is kept rendered (:func:`~tutor.web.pagecache.cached_for_learner`)
    under the version of their data (:data:`_VERSION`), the language, suit colours, the URL (filters,
    page of mistakes) and the day, for at most :data:`KEEP_SECONDS` and never past the moment its
    figures change with time (:func:`~tutor.domain.dashboard.next_change`): a revisit without a new
    answer costs that one query."""
    if error is None and request.method == "GET":
        version = _version()
        if version is not None:
            at = now()
            key = ("progress", version, i18n.current_lang(), four_colour(), request.full_path, at.date())
            return cached_for_learner(key, lambda: _render(None, at, keep=True), at), status
    return _render(error, now())[0], status


def _render(error: str | None, at: datetime, keep: bool = False) -> tuple[str, datetime]:
    """The page's HTML and when it stops being current (``keep``: rendered to be kept, with the
    CSRF token's placeholder)."""
    until = at + timedelta(seconds=KEEP_SECONDS)
    learner = current_learner()
    states = step_states()
    games: list[dict[str, Any]] = []
    for r in RULESET_NAMES:
        lp = X.lesson_path(r)
        units: list[dict[str, Any]] = []
        for u in lp.units:
            steps: list[dict[str, Any]] = [{"step": s, "state": states.get(s.id)} for s in u.steps]
            units.append({"unit": u, "steps": steps,
                          "done": sum(1 for x in steps if x["state"] and x["state"].done),
                          "started": any(x["state"] for x in steps)})
        games.append({"id": r, "name": ruleset_name(r), "units": units, "total": len(lp),
                      "done": sum(u["done"] for u in units)})
    filters = filters_from(request.args)
    number_text = request.args.get("page", "")
    number = int(number_text) if number_text.isascii() and number_text.isdigit() and len(number_text) < 6 else 0
    number = min(number, MAX_PAGE)
    ctx: dict[str, Any] = {"learner": learner, "games": games, "error": error, "filters": filters,
                           "answered": 0, "right": 0, "dash": None, "mistakes": [], "page": None}
    rtl = i18n.is_rtl(i18n.current_lang())
    if learner is not None:
        db = get_session()
        answered, right = dashboard.totals(db, learner)
        ctx.update(answered=answered, right=right)
        per_day = dashboard.daily(db, learner, at, 7 * dashboard.WEEKS)
        weeks = dashboard.accuracy_weeks(db, learner, at, per_day=per_day)
        by_game = dashboard.mastery_by_game(db, learner)
        skill_rows = dashboard.skills(db, learner)
        strong, weak = dashboard.rule_mastery(db, learner)
        fc = dashboard.forecast(db, learner, at)
        game_bars = [dashboard.Bar(ruleset_name(r), by_game[r][0], dashboard.percent(by_game[r][0]))
                     for r in RULESET_NAMES if r in by_game]
        per_game: list[dict[str, Any]] = []
        for r in RULESET_NAMES:
            rows = [m for m in skill_rows if m.ruleset == r]
            if not rows:
                continue
            items = [{"rule": m.rule, "title": _rule_title(m.rule), "kind": _kind_name(m.kind), "p": m.p_known,
                      "pct": dashboard.percent(m.p_known), "attempts": m.attempts, "right": m.right,
                      "level": _level(m.p_known)} for m in rows]
            bars = [dashboard.Bar(f"{m.rule}{i18n.separator()}{_kind_name(m.kind)}", m.p_known, dashboard.percent(m.p_known),
                                  _level(m.p_known)) for m in rows]
            per_game.append({"id": r, "name": ruleset_name(r), "rows": items, "svg": dashboard.bars_svg(bars, rtl)})
        week_labels = [dashboard.week_label(c) for c in weeks]  # the column's label and its row's in the table
        cols = [(label, c.accuracy, dashboard.percent(c.accuracy) if c.accuracy is not None else "")
                for label, c in zip(week_labels, weeks, strict=True)]
        rated = ratings.learner_ratings(db, learner)
        ctx["dash"] = {
            "accuracy": dashboard.percent(right / answered) if answered else None,
            "streak": dashboard.streak(db, learner, at, per_day),
            "forecast": fc,
            "games_svg": dashboard.bars_svg(game_bars, rtl) if game_bars else None,
            "games": [{"name": b.label, "pct": b.text, "skills": by_game[r][1]}
                      for b, r in zip(game_bars, [r for r in RULESET_NAMES if r in by_game], strict=True)],
            "skills": per_game,
            "strong": [_rule_item(x) for x in strong],
            "weak": [_rule_item(x) for x in weak],
            "weeks": [{"label": label, "answered": c.answered, "right": c.right, "pct": text or None}
                      for (label, _value, text), c in zip(cols, weeks, strict=True)],
            "weeks_svg": dashboard.columns_svg(cols, rtl),
            "rules": sorted({m.rule for m in skill_rows}),
            "ratings": [(ruleset_name(r), ratings.change(None, rated, r)) for r in RULESET_NAMES if r in rated],
        }
        pg = dashboard.mistakes_page(db, learner, filters, number)
        mistakes: list[dict[str, Any]] = []
        for m in pg.rows:
            try:
                ex = X.resolve(m.exercise_ref)
            except BadInput:  # the exercise is gone from the content since
                continue
            due = due_of(m)
            when = _("due now") if due <= at else i18n.fmt_timedelta(due - at)
            mistakes.append({"m": m, "prompt": X.prompt_of(ex), "game": ruleset_name(m.ruleset),
                             "kind": _kind_name(m.kind), "when": when, "is_due": due <= at})
        ctx["mistakes"] = mistakes
        ctx["page"] = pg
        args: dict[str, Any] = dict(filters.args())
        ctx["next_page"] = url_for("progress.page", **args, page=number + 1) + "#mistakes" if pg.more else None
        ctx["prev_page"] = url_for("progress.page", **args, page=number - 1) + "#mistakes" if number > 0 else None
        due_in_filter = dashboard.mistakes_page(db, learner, filters, 0, due_before=at, size=0).total \
            if filters.args() else fc.now
        ctx["due_count"] = due_in_filter
        ctx["next_due"] = None
        later = [due_of(x["m"]) for x in mistakes if not x["is_due"]]
        if later:
            ctx["next_due"] = {"iso": later[0].isoformat() + "Z", "in": i18n.fmt_timedelta(later[0] - at),
                               "at": i18n.fmt_datetime(later[0])}
        if keep:
            until = min(until, dashboard.next_change(db, learner, at))
    ctx["filter_games"] = [(r, ruleset_name(r)) for r in RULESET_NAMES]
    ctx["filter_kinds"] = [(k, _kind_name(k)) for k in KINDS]
    if keep:
        ctx["csrf_token"] = csrf_placeholder
    return render_template("progress.html", **ctx), until


def _level(p: float) -> str:
    return "strong" if p >= MASTERED else "weak" if p < WEAK else "middle"


def _rule_item(x: dashboard.RuleMastery) -> dict[str, Any]:
    return {"rule": x.rule, "title": _rule_title(x.rule), "game": ruleset_name(x.ruleset),
            "pct": dashboard.percent(x.p), "attempts": x.attempts, "right": x.right,
            "practise": url_for("practice.rule", rule=x.rule, game=x.ruleset)}


@bp.post("/reset/<step_id>")
def reset(step_id: str) -> ResponseReturnValue:
    if X.content().find_step(step_id, "en") is None:
        abort(404)
    learner = current_learner()
    if learner is not None:
        db = get_session()
        try:
            db.execute(delete(StepProgress).where(StepProgress.learner_id == learner.id,
                                                  StepProgress.step_id == step_id))
            db.commit()
        except Exception:
            db.rollback()
            raise
    return redirect(url_for("progress.page"))


@bp.post("/name")
def name() -> ResponseReturnValue:
    raw = request.form.get("name", "")
    text = " ".join("".join(ch for ch in raw if ch.isprintable() and unicodedata.category(ch) != "Cf").split())
    if len(text) > 40:
        return page(error=_("A name can be at most 40 characters long."), status=400)
    db = get_session()
    try:
        learner = learner_for_write(db)
        learner.display_name = text or None
        db.commit()
    except Exception:
        db.rollback()
        raise
    return redirect(url_for("progress.page"))
