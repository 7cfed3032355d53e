"""Hand score: who scores High, Low, Jack and Game once a hand is played out (C22-C27,
T16-T20). Ask ``hand-score``; the rulesets that score by those categories.

Learner's value: ``{"high", "low", "jack", "game"}``, each a side ``int`` or ``None`` (nobody);
``hang-jack`` is accepted for ``jack``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ... import i18n
from ..deals import aimed_hand
from ..exercise import Exercise
from . import register
from .awards import (
    AWARDS_SCHEMA,
    CATEGORY_REASONS,
    HAND_FEATURES,
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
    Ctx,
    EditorField,
    EngineAnswer,
    ExerciseKind,
    FeedbackLine,
    Json,
    LmsKey,
    Names,
    ReasonJson,
    ScenarioDict,
    Verdict,
    n_sides,
    rulesets_with_categories,
)


@register
class HandScore(ExerciseKind[Awards]):
    name = "hand-score"
    order = 70
    asks = ("hand-score",)
    rulesets = rulesets_with_categories()
    answer_fields = ("awards",)
    expect_fields = ("awards",)
    answer_help = "for each of high, low, jack, game: the side that scores it, or none; details: categories"
    answer_schema: ClassVar[Json] = AWARDS_SCHEMA
    label = N_("Hand score")
    decides = frozenset().union(*CATEGORY_REASONS.values())
    prompt = N_("Who scores High, Low, Jack and Game in this hand? Choose a side or nobody for each.")
    editor_fields = (
        EditorField("dealer", "seat", N_("Dealer")),
        EditorField("trump", "suit", N_("Trump")),
        EditorField("tricks", "tricks", N_("The tricks")),
    )

    def parse(self, raw: object, ctx: Ctx) -> Awards:
        return parse_awards(raw, ctx)

    def expected(self, answer: EngineAnswer, ctx: Ctx) -> Awards:
        return awards_of(answer)

    def from_key(self, raw: object, ctx: Ctx) -> object:
        return awards_from_key(raw, ctx)

    def key_text(self, value: Awards, ctx: Ctx) -> str:
        return json.dumps(awards_key(value))

    def details(self, given: Awards, expected: Awards, answer: EngineAnswer, ctx: Ctx) -> Json:
        return {"categories": category_details(given, expected, answer),
                "game_points": answer.get("game_points"), "points": answer.get("points")}

    def read_form(self, ex: Exercise, form: Any) -> object:
        return read_awards(form)

    def shows_trick_seats(self, answered: bool) -> bool:
        return True

    def feedback_lines(self, ex: Exercise, verdict: Verdict[Awards], names: Names) -> list[FeedbackLine]:
        return feedback(verdict.expected, verdict.given, names)

    def mistake_reasons(self, ex: Exercise, verdict: Verdict[Awards]) -> list[ReasonJson]:
        """The reasons of the categories answered wrong (a trick's winner is not what was missed)."""
        if verdict.correct:
            return []
        return wrong_category_reasons(verdict.why, verdict.given, verdict.expected)[:3]

    def form_fields(self, ex: Exercise, value: Awards) -> Json:
        return awards_form(value)

    def distractor(self, ex: Exercise, right: Awards) -> Awards:
        return awards_distractor(right)

    def lms_key(self, ex: Exercise, expected: Awards, answer: Mapping[str, Any], names: Names) -> LmsKey:
        """A matching question: each of High, Low, Jack and Game to the side that scores it (or
        nobody); every other side is offered too."""
        pairs = tuple((i18n.category_name(c), names.side(s)) for c, s in expected.items())
        used = {b for _, b in pairs}
        others = [names.side(s) for s in [*range(n_sides(ex.scenario)), None]]
        return LmsKey("matching", pairs=pairs, extra=tuple(o for o in others if o not in used))

    def situation(self, ex: Exercise) -> list[tuple[str, str]]:
        return [(N_("Trump"), i18n.suit_name(str(ex.scenario["trump"]), plural=True))]

    # ------------------------------------------------------------------ question quality

    features = HAND_FEATURES

    def measure(self, scenario: ScenarioDict, answer: EngineAnswer) -> dict[str, float]:
        """``players``: the table; ``trap``: 1 if the hand holds a trap (hang jack, one trump in
        play, a Game tie, or High, Low and Jack split between sides)."""
        return hand_features(scenario, answer)

    def level(self, features: Mapping[str, float]) -> int:
        """1: two players, no trap; 2: more players, no trap; 3: more players and a trap."""
        return hand_level(features)

    def answer_class(self, scenario: ScenarioDict, answer: EngineAnswer) -> str:
        """Who scores High and who scores Game (``"high 0, game 1"``)."""
        return awards_class(answer)

    def answer_classes(self, ruleset: str, difficulty: int) -> tuple[str, ...]:
        return awards_classes(ruleset, difficulty)

    def generate(self, ruleset: str, rng: random.Random, d: int, want: str | None = None) -> tuple[ScenarioDict, str]:
        """A whole hand played out, aimed at who scores High and Game (``want``): 1: two
        players; 2: more; 3: the largest table, with a trap."""
        sc, _ = aimed_hand(ruleset, rng, d, want, lambda s, a: awards_class(a), sides_named(want),
                           keep=lambda s, a: self.level(self.measure(s, a)) == d)
        return sc, "Who scores High, Low, Jack and Game?"
