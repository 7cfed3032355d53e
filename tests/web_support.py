"""Helpers shared by the web tests (test_web_*.py, test_browser.py)."""

from __future__ import annotations

import os
import re

import pytest
from sqlalchemy import func, select

from tutor.content import kinds
from tutor.web import create_app, limits
from tutor.web import exercises as X
from tutor.web.db import Attempt, Learner, Mistake, Quiz, StepProgress
from tutor.web.review import LEAVE_AFTER
from tutor.web.table import players_of

#: Rate limits of the test apps: counted (the limiter stays in every request's path) but far above
#: what one test client sends. The limits' own tests (test_web_limits.py) set real ones.
HIGH_LIMITS = {action: "100000/minute" for action in limits.ACTIONS}


def in_ci() -> bool:
    """Whether this run is CI (``CI`` set and not false), where no service may be missing."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(what: str, why: str, hint: str) -> None:
    """Skip the test, with the reason (fail it under CI): ``what`` cannot be used because ``why``."""
    message = f"{what} is not available ({why}); {hint}"
    if in_ci():
        pytest.fail("CI needs " + message, pytrace=False)
    pytest.skip(message)


def make_app(tmp_path, **config):
    """A fresh app with its own instance folder and database; CSRF on unless told otherwise."""
    conf = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "test-secret",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}", "RATE_LIMITS": HIGH_LIMITS}
    conf.update(config)
    return create_app(conf)


def rows(app, model) -> int:
    """Number of rows of ``model`` in the app's database."""
    with app.app_context():
        session = app.extensions["tutor_db"]()
        try:
            return session.scalar(select(func.count()).select_from(model))
        finally:
            session.close()


def listed_mistakes(app) -> int:
    """Review cards still in the mistakes list (not yet answered right enough times in a row)."""
    with app.app_context():
        session = app.extensions["tutor_db"]()
        try:
            return session.scalar(select(func.count()).select_from(Mistake).where(Mistake.streak < LEAVE_AFTER))
        finally:
            session.close()


def all_rows(app) -> dict[str, int]:
    return {m.__name__: rows(app, m) for m in (Learner, Attempt, StepProgress, Mistake, Quiz)}


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert m, "no CSRF token in the page"
    return m.group(1)


def lesson_exercise(ruleset: str, kind: str, pred=None):
    """(step, exercise) of the first lesson exercise of ``kind`` (satisfying ``pred``)."""
    for s in X.lesson_path(ruleset, "en").steps:
        for e in s.exercises:
            if e.kind == kind and (pred is None or pred(e)):
                return s, e
    raise LookupError(f"no {kind} exercise in {ruleset} lessons")


def expected(ex):
    return kinds.expected_answer(ex)[0]


def form_for(ex, value) -> dict:
    """Form fields of the answer widgets that give ``value`` (a normalised answer of the kind)."""
    k = ex.kind
    if k == "legal-cards":
        return {"card": list(value)}
    if k in ("trick-winner", "next-hakem"):
        return {"seat": str(value)}
    if k in ("round-score", "turn-up"):
        return {"points": str(value)}
    if k == "beg":
        return {f"points-{i}": str(v) for i, v in enumerate(value)}
    if k == "hand-score":
        return {c: ("none" if v is None else str(v)) for c, v in value.items()}
    if k == "game-winner":
        return {"winner": "none" if value is None else str(value)}
    if k == "walk-through":
        players = players_of(ex.scenario)
        leader = X.first_leader(ex)
        out = {}
        for t, w in enumerate(value["trick_winners"]):
            out[f"t{t}"] = str((w - leader) % players)
            leader = w
        if "points" in value:
            out["points"] = str(value["points"])
        else:
            out.update({c: ("none" if v is None else str(v)) for c, v in value["awards"].items()})
        return out
    raise ValueError(k)


def wrong_value(ex, right):
    """A well-formed but wrong answer of the exercise's kind."""
    k = ex.kind
    players = players_of(ex.scenario)
    if k == "legal-cards":
        hand = [str(c) for c in ex.scenario["hand"]]
        wrong = [c for c in hand if c not in right]
        return wrong[:1] + list(right) if wrong else list(right)[:-1]
    if k in ("trick-winner", "next-hakem"):
        return (right + 1) % players
    if k == "round-score":
        return 1 if right != 1 else 2
    if k == "turn-up":
        return right + 1
    if k == "beg":
        return [v + 1 for v in right]
    if k == "game-winner":
        return None if right is not None else 0
    if k == "hand-score":
        return dict(right) | {"game": None if right["game"] is not None else 0}
    if k == "walk-through":
        if "points" in right:
            return dict(right) | {"points": 1 if right["points"] != 1 else 2}
        return dict(right) | {"awards": wrong_value_awards(right["awards"])}
    raise ValueError(k)


def wrong_value_awards(awards: dict) -> dict:
    return dict(awards) | {"game": None if awards["game"] is not None else 0}
