"""Walk-through: play a recorded deal through — the winner of each trick in turn (each winner
leads the next), then the result: the round's points in Hokm (H20-H22), or who scores High, Low,
Jack and Game in All Fours and Trinidad. Asks ``round-playout`` (Hokm) and ``hand-score``.

Learner's value: ``{"trick_winners": [seat, ...], "points": 1|2|3|None}`` (``round-playout``)
or ``{"trick_winners": [...], "awards": {...}}`` (``hand-score``, awards as hand-score); a list
``[w1, ..., wn, final]`` is accepted. The page's form sends, per trick, the position of the
card the learner picked (``t0``, ``t1`` ...), turned into seats against the real play: each trick
is read from its real leader, so each trick is judged on its own (a wrong pick in trick 2 leaves
tricks 3 onwards judged by the cards the learner picked there).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Required, TypedDict

from ... import i18n
from ...engine.errors import BadFieldError, show
from ...engine.rulesets import get_ruleset
from ...solve.asks import HandScore as HandScoreAsk
from ...solve.asks import RoundPlayout
from ..deals import aimed_hand, hokm_round, solve
from ..exercise import Exercise
from . import register
from .awards import (
    AWARDS_SCHEMA,
    Awards,
    awards_class,
    awards_classes,
    awards_distractor,
    awards_form,
    awards_from_key,
    awards_key,
    awards_of,
    category_details,
    feedback,
    hand_features,
    hand_level,
    parse_awards,
    read_awards,
    sides_named,
    wrong_category_reasons,
)
from .base import (
    N_,
    AnswerError,
    Ctx,
    EditorField,
    EngineAnswer,
    ExerciseKind,
    FeedbackLine,
    Json,
    Names,
    ReasonJson,
    ScenarioDict,
    Verdict,
    as_int,
    as_list,
    as_mapping,
    digits,
    fields_of,
    is_none,
    near_misses,
    players_of,
    seat_from_key,
)
from .round_score import RoundScore

#: The ask whose result is the round's points (Hokm); the other ask's result is the awards.
_POINTS_ASK = "round-playout"


def _final_key(ask: str | None) -> str:
    return "points" if ask == _POINTS_ASK else "awards"


def _count_tricks(sc: ScenarioDict) -> int:
    t = sc.get("tricks")
    return len(t) if isinstance(t, list) else 0


def first_leader(ex: Exercise) -> int:
    """The seat that leads the first trick (the ruleset's rule: hakem, or after the dealer)."""
    return get_ruleset(ex.ruleset).first_leader(ex.scenario)


def real_winners(ex: Exercise) -> list[int]:
    """The seat winning each trick in the real play (the engine's ``trick_winners``; cached per
    scenario). Raises the engine's TutorError for a scenario it rejects."""
    return list(_real_winners(json.dumps(ex.scenario, sort_keys=True)))


@functools.lru_cache(maxsize=1024)
def _real_winners(key: str) -> tuple[int, ...]:
    winners = solve(json.loads(key)).get("trick_winners") or []
    return tuple(w for w in winners if isinstance(w, int))


def leaders(ex: Exercise) -> list[int]:
    """The seat that led each trick in the real play: the first leader, then each real winner
    (rule: the winner of a trick leads the next; H11, C12, T9)."""
    out = [first_leader(ex)]
    out += real_winners(ex)[: max(0, _count_tricks(ex.scenario) - 1)]
    return out


def seats_of_picks(ex: Exercise, picks: list[int]) -> list[int]:
    """The seats that played the learner's picked cards (positions in each trick), each trick read
    against the real play: its real leader, so a wrong pick in one trick never shifts the
    next."""
    players = players_of(ex.scenario)
    return [(lead + p) % players for lead, p in zip(leaders(ex), picks, strict=False)]


def picks_of(ex: Exercise, winners: list[Any]) -> list[int]:
    """Position in each trick of the card played by each seat of ``winners`` (the real play's
    order; -1: unknown): the inverse of :func:`seats_of_picks`."""
    players = players_of(ex.scenario)
    return [(w - lead) % players if isinstance(w, int) and not isinstance(w, bool) else -1
            for lead, w in zip(leaders(ex), winners, strict=False)]


class WalkThroughValue(TypedDict, total=False):
    """A walk-through answer: ``trick_winners`` (the seat that wins each trick, in order), then
    ``points`` (Hokm's round-playout: the round's value, ``None`` while no team has 7 tricks) or
    ``awards`` (All Fours' hand-score: who scores each category)."""

    trick_winners: Required[list[int]]
    points: int | None
    awards: Awards


@register
class WalkThrough(ExerciseKind[WalkThroughValue]):
    name = "walk-through"
    order = 90
    asks = ("round-playout", "hand-score")
    answer_fields = ("trick_winners", "points", "awards")
    expect_fields = ("trick_winners", "points", "awards")
    answer_help = ("trick_winners (the seat winning each trick) and the result: points (Hokm) or awards; "
                   "details: tricks, result/categories")
    answer_schema: ClassVar[Json] = {"oneOf": [
        {"type": "object", "additionalProperties": False, "required": ["trick_winners"],
         "properties": {"trick_winners": {"type": "array", "items": {"type": ["integer", "string"]}, "maxItems": 13},
                        "points": {"type": ["integer", "string", "null"]}, "awards": AWARDS_SCHEMA}},
        {"type": "array", "maxItems": 14},
    ], "description": "the winner of each trick, then the result", "example": {"trick_winners": [0, 1], "points": 1}}
    label = N_("Walk-through")
    prompt = N_("Play the deal through: choose the winner of each trick in turn, then the result.")
    hint = N_("For each trick, pick the card that wins it; the winner leads the next trick.")
    picks = "tricks"
    editor_fields = (
        EditorField("trump", "suit", N_("Trump")),
        EditorField("tricks", "tricks", N_("The tricks")),
    )

    # ------------------------------------------------------------------ answer

    def parse(self, raw: object, ctx: Ctx) -> WalkThroughValue:
        final_key = _final_key(ctx.exercise.ask)
        if isinstance(raw, list | tuple):
            if not raw:
                raise BadFieldError("give the winner of each trick, then the result.")
            raw = {"trick_winners": list(raw[:-1]), final_key: raw[-1]}
        m = as_mapping(raw, "the walk-through answer")
        extra = [k for k in m if k not in ("trick_winners", final_key)]
        if extra:
            raise BadFieldError(f"the walk-through answer has no field {show(extra[0])}.")
        if "trick_winners" not in m or final_key not in m:
            raise BadFieldError(f"give trick_winners and {final_key}.")
        winners = as_list(m["trick_winners"], "the trick winners")
        ex = ctx.exercise
        n = len(fields_of(ex, RoundPlayout).tricks if final_key == "points" else fields_of(ex, HandScoreAsk).tricks)
        if len(winners) != n:
            raise BadFieldError(f"give the winner of each of the {n} tricks, not {len(winners)}.")
        seats = [as_int(w, f"the winner of trick {i}", 0, ctx.players - 1) for i, w in enumerate(winners, 1)]
        if final_key == "points":
            points = None if is_none(m[final_key]) else as_int(m[final_key], "the points", 1, 3)
            return {"trick_winners": seats, "points": points}
        return {"trick_winners": seats, "awards": parse_awards(m[final_key], ctx)}

    def from_key(self, raw: object, ctx: Ctx) -> object:
        """The trick winners counted from 1, and the sides of the awards (the points stay)."""
        final_key = _final_key(ctx.exercise.ask)
        if isinstance(raw, list | tuple) and raw:
            raw = {"trick_winners": list(raw[:-1]), final_key: raw[-1]}
        if not isinstance(raw, Mapping):
            return raw
        out = dict(raw)
        winners = out.get("trick_winners")
        if isinstance(winners, str | list | tuple):
            out["trick_winners"] = [seat_from_key(w, ctx) for w in as_list(winners, "the trick winners")]
        if final_key == "awards" and "awards" in out:
            out["awards"] = awards_from_key(out["awards"], ctx)
        return out

    def key_text(self, value: WalkThroughValue, ctx: Ctx) -> str:
        final_key = _final_key(ctx.exercise.ask)
        final = awards_key(value["awards"]) if "awards" in value else value.get("points")
        return json.dumps({"trick_winners": [w + 1 for w in value["trick_winners"]], final_key: final})

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> WalkThroughValue:
        if _final_key(ctx.exercise.ask) == "points":
            return {"trick_winners": list(answer["trick_winners"]), "points": answer["points"]}
        return {"trick_winners": list(answer["trick_winners"]), "awards": awards_of(answer)}

    def details(self, given: WalkThroughValue, expected: WalkThroughValue, answer: EngineAnswer, ctx: Ctx) -> Json:
        per_trick: dict[int, dict[str, Any]] = {}
        for r in answer.get("why", []):
            n = r.get("params", {}).get("trick") if isinstance(r, dict) else None
            if isinstance(n, int) and n not in per_trick:
                per_trick[n] = r
        tricks = [{"trick": i, "given": g, "expected": e, "correct": g == e,
                   "why": [per_trick[i]] if i in per_trick else []}
                  for i, (g, e) in enumerate(zip(given["trick_winners"], expected["trick_winners"], strict=True), 1)]
        out: dict[str, Any] = {"tricks": tricks}
        if "points" in expected:
            out["result"] = {k: answer.get(k) for k in ("winner_team", "points", "result", "next_hakem")}
            out["result_correct"] = given["points"] == expected["points"]
        else:
            out["categories"] = category_details(given["awards"], expected["awards"], answer)
            out["result_correct"] = given["awards"] == expected["awards"]
            out["points"] = answer.get("points")
        return out

    def required_expect(self, ex: Exercise, answer: EngineAnswer) -> list[str]:
        return ["trick_winners", _final_key(ex.ask)]

    def read_form(self, ex: Exercise, form: Any) -> object:
        tricks = ex.scenario.get("tricks") or []
        players = players_of(ex.scenario)
        picks = []
        for t in range(len(tricks)):
            v = digits(form.get(f"t{t}", ""))
            if not (v.isascii() and v.isdigit() and len(v) < 3) or int(v) >= players:
                raise AnswerError("bad-answer", N_("Choose the winning card of each trick."))
            picks.append(int(v))
        raw: dict[str, Any] = {"trick_winners": seats_of_picks(ex, picks)}
        if _final_key(ex.ask) == "points":
            if not form.get("points"):
                raise AnswerError("bad-answer", N_("Give the number of points."))
            raw["points"] = digits(form.get("points", ""))
        else:
            raw["awards"] = read_awards(form)
        return raw

    # ------------------------------------------------------------------ views

    def public_extra(self, ex: Exercise) -> Json:
        return {"tricks": _count_tricks(ex.scenario)}

    def shows_trick_seats(self, answered: bool) -> bool:
        return answered

    def view_context(self, ex: Exercise, table: Any, verdict: Verdict[WalkThroughValue] | None) -> Json:
        ctx: dict[str, Any] = {
            "seat_names_json": json.dumps([s.label for s in table.seats], ensure_ascii=False),
            "seat_numbers_json": json.dumps([s.number for s in table.seats], ensure_ascii=False),
            "first_leader": first_leader(ex),
            "points_result": _final_key(ex.ask) == "points",
        }
        if verdict is not None:
            ctx["given_picks"] = picks_of(ex, verdict.given.get("trick_winners") or [])
            ctx["trick_wins"] = picks_of(ex, verdict.expected.get("trick_winners") or [])
        return ctx

    def feedback_lines(self, ex: Exercise, verdict: Verdict[WalkThroughValue], names: Names) -> list[FeedbackLine]:
        exp, got = verdict.expected, verdict.given
        given_winners = got.get("trick_winners", [])
        lines = [FeedbackLine(names.text(N_("Trick %(n)s"), n=names.num(t + 1)), names.seat(w),
                              (given_winners[t] if t < len(given_winners) else None) == w)
                 for t, w in enumerate(exp["trick_winners"])]
        if "points" in exp:
            lines.append(FeedbackLine(names.text(N_("Points")), names.num(exp["points"]) if exp["points"] else "—",
                                      got.get("points") == exp["points"]))
        else:
            lines += feedback(exp["awards"], got.get("awards"), names)
        return lines

    def mistake_reasons(self, ex: Exercise, verdict: Verdict[WalkThroughValue]) -> list[ReasonJson]:
        """The reason of each trick answered wrong, then those of the result if it was wrong (the
        round's score and the next hakem, or the categories answered wrong)."""
        if verdict.correct:
            return []
        out = [r for t in verdict.details.get("tricks", []) if not t["correct"] for r in t.get("why", [])]
        if verdict.details.get("result_correct") is False:
            if "points" in verdict.expected:
                out += [r for r in verdict.why if r.get("code") in RoundScore.decides]
            else:
                out += wrong_category_reasons(verdict.why, verdict.given.get("awards"), verdict.expected["awards"])
        return out

    def mistake(self, ex: Exercise, verdict: Verdict[WalkThroughValue], names: Names) -> list[str]:
        """Each trick answered wrong, judged on its own against the real play: the card the
        learner picked did not win, and that trick's reason; then the result if it was wrong."""
        if verdict.correct:
            return []
        from ... import i18n

        tricks = ex.scenario.get("tricks") or []
        given = verdict.given.get("trick_winners", [])
        picked = picks_of(ex, given)
        out = []
        for t in verdict.details.get("tricks", []):
            n = t["trick"]
            if t["correct"] or n - 1 >= len(tricks) or n - 1 >= len(picked):
                continue
            cards = tricks[n - 1]
            p = picked[n - 1]
            if not 0 <= p < len(cards):  # a parsed answer always names a seat of the trick
                continue
            card = i18n.card_label(cards[p])
            reason = " ".join(names.reasons(t.get("why", [])))
            # the seat the learner named is the one that played the picked card (seats_of_picks)
            out.append(names.text(N_("Trick %(n)s: the %(card)s you picked (played %(by)s) did not win. %(why)s"),
                                  n=names.num(n), card=card, by=names.by(given[n - 1]), why=reason).strip())
        if verdict.details.get("result_correct") is False:
            wrong = [line for line in self.feedback_lines(ex, verdict, names)[len(tricks):] if line.ok is False]
            out += [names.text(N_("%(what)s: the right answer is %(value)s."), what=line.what, value=line.value)
                    for line in wrong]
        return out

    # ------------------------------------------------------------------ generator

    def form_fields(self, ex: Exercise, value: WalkThroughValue) -> Json:
        out = {f"t{t}": str(p) for t, p in enumerate(picks_of(ex, value["trick_winners"]))}
        if "points" in value:
            out["points"] = str(value["points"])
        else:
            out.update(awards_form(value["awards"]))
        return out

    def wrong_values(self, ex: Exercise, right: WalkThroughValue) -> list[WalkThroughValue]:
        """The engine's outcomes of the play misread (another trump, another first leader:
        :func:`~.base.near_misses`) whose trick winners differ from the right ones in at least
        one trick and the whole in at least two places, the closest first; then
        :meth:`distractor`'s."""
        def places(value: WalkThroughValue, exp: WalkThroughValue) -> int:
            tricks = sum(a != b for a, b in zip(value["trick_winners"], exp["trick_winners"], strict=False))
            final = _final_key(ex.ask)
            return tricks + (value.get(final) != exp.get(final)) if tricks else 0
        return [*near_misses(ex, self, right, places), self.distractor(ex, right)]

    def distractor(self, ex: Exercise, right: WalkThroughValue) -> WalkThroughValue:
        """The last trick given to the next seat, and another result (two places differ)."""
        winners = list(right["trick_winners"])
        if winners:
            winners[-1] = (winners[-1] + 1) % players_of(ex.scenario)
        if "points" in right:
            return {"trick_winners": winners, "points": 1 if right["points"] != 1 else 2}
        return {"trick_winners": winners, "awards": awards_distractor(right["awards"])}

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        return [(N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True))]

    # ------------------------------------------------------------------ question quality

    features = ("tricks", "players", "trap")

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``tricks``: the tricks to walk through; ``players`` and ``trap`` as hand-score (a Hokm
        round: four players, no trap)."""
        if scenario.get("ask") == _POINTS_ASK:
            return {"tricks": float(_count_tricks(scenario)), "players": 4.0, "trap": 0.0}
        return {"tricks": float(_count_tricks(scenario)), **hand_features(scenario, answer)}

    def level(self, features: Mapping[str, float]) -> int:
        """Hokm: the round's length, 1: at most 8 tricks; 2: 9 or 10; 3: 11 or more. All Fours
        and Trinidad (six tricks): as hand-score."""
        if features["tricks"] > 6:  # a Hokm round (an All Fours hand has six tricks)
            return 1 if features["tricks"] <= 8 else 2 if features["tricks"] <= 10 else 3
        return hand_level(features)

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """Hokm: the seat that wins the most tricks (the first of them on a tie); else who scores
        High and Game, as hand-score."""
        if scenario.get("ask") == _POINTS_ASK:
            winners = list(answer["trick_winners"])
            return f"most tricks {max(range(4), key=winners.count)}"
        return awards_class(answer)

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        if get_ruleset(ruleset).categories:
            return awards_classes(ruleset, difficulty)
        return tuple(f"most tricks {s}" for s in range(4))

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """Hokm: a round played to 7 tricks (1: at most 8 tricks, 2: 9-10, 3: 11 or more), aimed
        at the seat that wins the most tricks (the round seen from another seat). All Fours and
        Trinidad: a whole hand, as hand-score (aimed at who scores High and Game)."""
        if get_ruleset(ruleset).categories:
            sc, _ = aimed_hand(ruleset, rng, d, want, lambda s, a: awards_class(a), sides_named(want),
                               keep=lambda s, a: self.level(self.measure(s, a)) == d)
            return sc, "Say who wins each trick, then who scores High, Low, Jack and Game."
        sc = hokm_round(rng, d)
        if want is not None:  # the same round with every seat moved on: the seat with most tricks is ``want``
            winners = list(solve(sc)["trick_winners"])
            most = max(range(4), key=winners.count)
            sc["hakem"] = (sc["hakem"] + int(want.rsplit(" ", 1)[1]) - most) % 4
        return sc, "Say who wins each trick, then what the round is worth."
