"""What the question and feedback templates need to draw one exercise."""

from __future__ import annotations

import json
import re

from flask import url_for

from tutor import i18n
from tutor.content.exercise import Exercise

from .. import exercises as X
from ..table import build_table, players_of

__all__ = ["RULESET_NAMES", "exercise_context", "ruleset_name", "safe_next"]


def ruleset_name(ruleset: str) -> str:
    from flask_babel import gettext as _

    return {"hokm": _("Hokm"), "all-fours": _("All Fours (classic)"),
            "trinidad": _("All Fours (Trinidad)")}.get(ruleset, ruleset)


RULESET_NAMES = ("hokm", "all-fours", "trinidad")


def safe_next(target: str | None, default: str) -> str:
    """A same-site path to go back to, or ``default``."""
    if target and _SAFE_PATH.fullmatch(target) and not target.startswith("//"):
        return target
    return default


#: A same-site path: no scheme, no host, no backslash, no control character or space.
_SAFE_PATH = re.compile(r"/[A-Za-z0-9/_.~%?=&+:;,@!-]*")


def exercise_context(ex: Exercise, ref: str, lang: str, verdict: X.Verdict | None = None, error: str | None = None,
                     given: dict | None = None) -> dict:
    """Table, prompt and widget data; with ``verdict`` also the feedback (reasons, right answer)."""
    players = players_of(ex.scenario)
    you = X.you_of(ex)
    ruleset = ex.ruleset or "hokm"
    shown = ex.kind in ("hand-score", "game-winner") or (ex.kind == "walk-through" and verdict is not None)
    trick_seats = X.walk_seats(ex) if shown else None
    table = build_table(ex.kind, ex.scenario, ex.you, lang, trick_seats=trick_seats)
    ctx = {
        "ex": ex,
        "ref": ref,
        "kind": ex.kind,
        "prompt": X.prompt_of(ex, lang),
        "table": table,
        "players": players,
        "you": you,
        "sides": X.side_choices(ex, lang),
        "categories": [(c, i18n.category_name(c, lang)) for c in X.CATEGORIES],
        "seat_choices": [(s.seat, s.label) for s in table.seats],
        "hokm": ruleset == "hokm",
        "error": error,
        "given": given or (verdict.given if verdict else {}),
        "verdict": verdict,
    }
    if ex.kind == "walk-through":
        ctx["seat_names_json"] = json.dumps([s.label for s in table.seats], ensure_ascii=False)
        ctx["seat_numbers_json"] = json.dumps([s.number for s in table.seats], ensure_ascii=False)
        ctx["first_leader"] = X.first_leader(ex)
        if verdict is not None:
            ctx["given_picks"] = _picks(ex, verdict.given.get("trick_winners") or [])
            ctx["trick_wins"] = _picks(ex, verdict.expected.get("trick_winners") or [])
    if verdict is not None:
        ctx.update(feedback_context(ex, lang, verdict, table))
    return ctx


def _nth(items, i):
    return items[i] if isinstance(items, list | tuple) and i < len(items) else None


def _picks(ex: Exercise, winners: list) -> list[int]:
    """Position in each trick of the winning card, from a list of trick winners (each leads the next)."""
    players = players_of(ex.scenario)
    leader = X.first_leader(ex)
    out = []
    for w in winners:
        if not isinstance(w, int):
            out.append(-1)
            continue
        out.append((w - leader) % players)
        leader = w
    return out


def feedback_context(ex: Exercise, lang: str, verdict: X.Verdict, table) -> dict:
    from flask_babel import gettext as _

    players = players_of(ex.scenario)
    you = X.you_of(ex)
    ruleset = ex.ruleset
    exp = verdict.expected
    lines: list[tuple[str, str, bool | None]] = []     # (what, right answer in words, learner right?)

    def seat(s):
        return i18n.seat_label(s, you, players, ruleset, lang) if isinstance(s, int) else i18n.side_label(
            None, you, players, lang, ruleset)

    def side(s):
        return i18n.side_label(s, you, players, lang, ruleset)

    sol = verdict.answer
    got = verdict.given

    def add(what, value, ok=None):
        lines.append((what, value, ok))

    if ex.kind == "legal-cards":
        add(_("Cards you may play"), i18n.cards_label(exp, lang) if exp else "—", verdict.correct)
    elif ex.kind == "trick-winner":
        card = sol.get("card")
        add(_("Winner"), seat(exp) + (" — " + i18n.card_label(card, lang) if card else ""), verdict.correct)
    elif ex.kind == "next-hakem":
        add(_("Next hakem"), seat(exp), verdict.correct)
    elif ex.kind in ("round-score", "turn-up"):
        add(_("Points"), i18n.fmt_number(exp, lang), verdict.correct)
        if ex.kind == "round-score" and sol.get("result"):
            add(_("Result"), i18n.result_name(sol["result"], lang))
    elif ex.kind == "beg":
        for s, pts in enumerate(exp or []):
            add(side(s), i18n.fmt_number(pts, lang), _nth(got, s) == pts)
    elif ex.kind == "hand-score":
        for c, s in exp.items():
            add(i18n.category_name(c, lang), side(s), (got or {}).get(c) == s)
    elif ex.kind == "game-winner":
        # the same words as the answer option ("nobody yet"): nobody has won the game so far
        add(_("Winner"), side(exp) if exp is not None else _("nobody yet"), verdict.correct)
    elif ex.kind == "walk-through":
        given_winners = (got or {}).get("trick_winners") or []
        for t, w in enumerate(exp["trick_winners"]):
            add(_("Trick %(n)s", n=i18n.fmt_number(t + 1, lang)), seat(w), _nth(given_winners, t) == w)
        if "points" in exp:
            add(_("Points"), i18n.fmt_number(exp["points"], lang) if exp["points"] else "—",
                (got or {}).get("points") == exp["points"])
        else:
            for c, s in exp["awards"].items():
                add(i18n.category_name(c, lang), side(s), ((got or {}).get("awards") or {}).get(c) == s)
    teaches = X.teaching_step(ex)
    step = X.find_step(teaches, lang) if teaches else None
    return {
        "why": X.render_why(ex, verdict, lang),
        "card_notes": X.card_notes(ex, verdict, lang),
        "right_answer": lines,
        "legal_set": set(exp) if ex.kind == "legal-cards" else set(),
        "winning_card": sol.get("card"),
        "lesson_link": url_for("lessons.step", ruleset=step.ruleset, step_id=step.id) if step else None,
        "lesson_title": step.title if step else None,
    }
