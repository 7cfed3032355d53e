"""Skills and mastery: what a learner knows, per exercise kind x ruleset x rule point.

A **skill** is one exercise kind in one ruleset applying one rule point: ``("hokm",
"legal-cards", "H14")`` is "which cards may be played, in Hokm, when you can follow suit". The rule
points of an answer are those its verdict's reasons cite (``Verdict.why[*]["rule"]``, one id or
several joined by commas, RULES.md / :mod:`tutor.rules`). A right answer applied all of them; a
wrong one missed only those of the reasons that explain its mistake (the kind's
``mistake_reasons``: a hand's Game answered wrong misses C26, not the trick-winner rule C22 of
its tricks or High, Low and Jack answered right), and only those lose mastery.

**Mastery** is estimated with *Bayesian knowledge tracing* (Corbett & Anderson 1995), one hidden
"knows it / does not know it yet" state per skill: each answer updates the probability
``p_known`` by Bayes' rule, allowing a lucky guess (:data:`GUESS`) and a slip (:data:`SLIP`), then
adds the chance of having learnt it from the feedback (:data:`LEARN`). Why BKT and not a moving
average: a choice question can be guessed and a long walk-through can be slipped on, and BKT says
so with two named numbers; it needs no history (one row per skill, updated in place with the
attempt); and its output is a probability, so "weak" and "mastered" are thresholds a teacher can
read (:data:`WEAK` below, :data:`MASTERED` at or above). Every answer that cites a rule point
moves its skill: up after a right answer, down after a wrong one (test: tests/test_web_adaptive.py).

**A played deal** (``/<lang>/play/``) exercises skills too, of the kind :data:`PLAY_KIND`: each
card the learner played or decision taken is a right answer on the rule that decided it, each
card the engine refused a wrong one on the rule it broke
(:func:`tutor.engine.play.played_deal_observations`), counted once per finished deal
(:func:`tutor.domain.record.record_played_deal`). Practice serves a weak played skill with questions
of any kind on its rule (:mod:`tutor.web.adaptive`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection

from tutor.content.kinds import KINDS
from tutor.content.kinds.base import N_
from tutor.i18n import gettext as _

from .db import now, table_of
from .models import SkillMastery

__all__ = [
    "GUESS",
    "LEARN",
    "MASTERED",
    "PLAY_KIND",
    "PLAY_LABEL",
    "PRIOR",
    "SLIP",
    "WEAK",
    "Skill",
    "bkt_update",
    "kind_label",
    "rules_column",
    "rules_of",
    "skills_of",
    "update_mastery",
]

#: P(L0): the probability that a learner already knows a rule before answering on it.
PRIOR = 0.3
#: P(T): the chance of learning the rule from one answer and its explanation.
LEARN = 0.15
#: P(G): answering right without knowing the rule (choices can be guessed).
GUESS = 0.2
#: P(S): answering wrong while knowing it (a slip).
SLIP = 0.1
#: Below this ``p_known`` a practised skill is *weak* (practice serves it before new material).
WEAK = 0.6
#: At or above this ``p_known`` a skill is *mastered* (a strong rule on the dashboard).
MASTERED = 0.9
#: The ``kind`` of a skill exercised by playing a whole deal (not an exercise kind of the
#: registry: a deal is not a question), declared only here; :data:`PLAY_LABEL` is its name.
PLAY_KIND = "play"
PLAY_LABEL = N_("Played deals")


def kind_label(kind: str) -> str:
    """The name of a skill's kind in the current language: the registry kind's label, "Played
    deals" for :data:`PLAY_KIND`, else the id itself."""
    if kind in KINDS:
        return _(KINDS[kind].label)
    return _(PLAY_LABEL) if kind == PLAY_KIND else kind


class Skill(NamedTuple):
    """An exercise kind in a ruleset applying a rule point (``tutor rule RULE`` says what it is)."""

    ruleset: str
    kind: str
    rule: str


def rules_of(why: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The distinct rule points the reasons cite, in order of first citation (``"C21,K20"`` is two)."""
    out: dict[str, None] = {}
    for reason in why:
        rule = reason.get("rule") if isinstance(reason, Mapping) else None
        if isinstance(rule, str):
            for part in rule.split(","):
                if part.strip():
                    out[part.strip()] = None
    return tuple(out)


def rules_column(rules: Iterable[str]) -> str | None:
    """The ``rules`` column of an attempt or mistake: ``" H14 K12 "`` (space at each end, for
    ``LIKE '% H14 %'``), or None for none; at most 120 characters (whole ids only)."""
    text = " "
    for r in rules:
        if len(text) + len(r) + 1 > 120:
            break
        text += r + " "
    return text if text.strip() else None


def skills_of(ruleset: str, kind: str, why: Iterable[Mapping[str, Any]]) -> list[Skill]:
    """The skills an answer exercises (one per rule point its reasons cite)."""
    return [Skill(ruleset, kind, r) for r in rules_of(why)]


def bkt_update(p_known: float, correct: bool) -> float:
    """One step of Bayesian knowledge tracing: ``p_known`` (0..1) after one answer.

    Posterior given the answer (right: ``p(1-S) / (p(1-S) + (1-p)G)``; wrong: ``pS / (pS +
    (1-p)(1-G))``), then learning: ``post + (1-post)T``. A right answer always raises it, a wrong
    one lowers it unless it is already below the fixed point of learning after a slip.
    """
    if correct:
        post = p_known * (1 - SLIP) / (p_known * (1 - SLIP) + (1 - p_known) * GUESS)
    else:
        post = p_known * SLIP / (p_known * SLIP + (1 - p_known) * (1 - GUESS))
    return post + (1 - post) * LEARN


_MASTERY = table_of(SkillMastery)
#: The update of one mastery row, run once per row changed (parameters ``row``, ``p``, ``n``,
#: ``r``, ``at``; built once).
_MASTERY_UPDATE = (update(_MASTERY).where(_MASTERY.c.id == bindparam("row"))
                   .values(p_known=bindparam("p"), attempts=bindparam("n"), right=bindparam("r"),
                           updated_at=bindparam("at")))


#: A learner's rows of one kind in one ruleset, every rule (parameters ``learner``, ``ruleset``,
#: ``kind``; a few rows at most, and no list parameter to expand per call).
_MASTERY_ROWS = (select(_MASTERY.c.id, _MASTERY.c.ruleset, _MASTERY.c.kind, _MASTERY.c.rule, _MASTERY.c.p_known,
                        _MASTERY.c.attempts, _MASTERY.c.right)
                 .where(_MASTERY.c.learner_id == bindparam("learner"), _MASTERY.c.ruleset == bindparam("ruleset"),
                        _MASTERY.c.kind == bindparam("kind")))
_MASTERY_INSERT = insert(_MASTERY)


def update_mastery(conn: Connection, learner_id: int, skills: Iterable[Skill], correct: bool) -> dict[Skill, float]:
    """Move the mastery of each skill of the learner ``learner_id`` after one answer, on ``conn``
    inside the caller's transaction (a new skill starts at :data:`PRIOR`). Returns each skill's
    new ``p_known``. Core statements: one read per kind and ruleset among the skills (an answer's
    skills share both), then one insert and one update, each for all the rows concerned."""
    skills = list(dict.fromkeys(skills))
    if not skills:
        return {}
    rows = {Skill(r.ruleset, r.kind, r.rule): r
            for ruleset, kind in sorted({(s.ruleset, s.kind) for s in skills})  # one query for an answer's skills
            for r in conn.execute(_MASTERY_ROWS, {"learner": learner_id, "ruleset": ruleset, "kind": kind})}
    at = now()
    out: dict[Skill, float] = {}
    new, changed = [], []
    for s in skills:
        row = rows.get(s)
        p = bkt_update(row.p_known if row is not None else PRIOR, correct)
        out[s] = p
        if row is None:
            new.append({"learner_id": learner_id, "ruleset": s.ruleset, "kind": s.kind, "rule": s.rule,
                        "p_known": p, "attempts": 1, "right": int(correct), "updated_at": at})
        else:
            changed.append({"row": row.id, "p": p, "n": (row.attempts or 0) + 1,
                            "r": (row.right or 0) + (1 if correct else 0), "at": at})
    if new:
        conn.execute(_MASTERY_INSERT, new)
    if changed:
        conn.execute(_MASTERY_UPDATE, changed)
    return out
