"""Seeded exercise generators for every kind and ruleset (``tutor gen RULESET KIND --seed N``).

:func:`generate` ``(ruleset, kind, seed, difficulty) -> Exercise`` is reproducible: the same
arguments give the same exercise on every machine (a :class:`random.Random` seeded with the text
``"ruleset/kind/seed/difficulty"``). Every exercise is answered by the engine
(:func:`tutor.solve.solve`) while it is built; a candidate the engine rejects, or that lacks the
feature the difficulty asks for, is dropped and another drawn from the same random stream. The
engine's answer is stored as ``expect`` (so the exercise can be written to a lesson or quiz) but
grading never reads it.

Difficulty (1 easy, 2 medium, 3 hard) is defined by each kind's measurable features: the kind's
``level(measure(scenario, answer))`` must equal the difficulty asked, or the candidate is dropped.
Each seed aims at one of the kind's answer classes (``answer_classes``: seed ``n`` at class
``n mod k``, so over the seeds every class comes as often) and a candidate whose
``answer_class`` differs is dropped too (after :data:`AIM_ATTEMPTS` draws any class is taken).
The features, the level rule and the classes of each kind are in its docstrings
(:mod:`tutor.content.kinds`) and in ``tutor/ARCHITECTURE.md``; ``tutor check --quality``
(:mod:`tutor.content.quality`) measures them:

* legal-cards — 1: a plain suit followed, no trump in play; 2: a trump in the hand or the trick;
  3: trump led, or the ``must_trump`` / ``no_undertrump`` options; aimed at 2, 3 or 4+ legal
  cards, always with an illegal one; the hand grows (4-5, 5-6, 6-8 cards);
* trick-winner — 1: everyone follows; 2: one card off the suit led (a discard or one trump); 3:
  two trumps or more; aimed at the winning seat;
* next-leader — 1: a deal's first lead or a trick everyone followed; 2: an off-suit card; 3: a
  trump wins; aimed at the seat that leads next;
* round-score — the hakem 1: in your team; 2: in the other (seat 1); 3: seat 3; aimed at 1, 2 or
  3 points; next-hakem — 1: the hakem's team wins plainly; 2: loses, or wins by kot; 3:
  hakem-kot, or the turn wraps from seat 3; aimed at the next hakem's seat;
* game-winner — the scorings to check: a Hokm round won plainly (1), by kot (2), by hakem-kot
  (3); All Fours/Trinidad a stand (1), a beg (2), a whole hand (3); aimed at each side and
  nobody (the scores before the deal set so);
* turn-up — 1 + the other scale + a look-alike (a card the two scales score differently);
* beg — 1: two players, one card turned; 2: more players; 3: and the pack run; aimed at who
  scores (nothing, the eldest's gift, the dealer's side's turn-up points);
* hand-score / game-points / walk-through — a whole hand: 1: two players; 2: more; 3: and a
  trap (hand-score: hang jack, one trump, a Game tie, High, Low and Jack split; game-points: the
  two best totals within two points); aimed at who scores High and Game (game-points: Game and
  the lead). Hokm walk-through: 1: at most 8 tricks; 2: 9-10; 3: 11 or more; aimed at the seat
  with most tricks.

Errors: :class:`~tutor.content.kinds.ExerciseError` for a kind the ruleset does not use,
``ValueError`` for a difficulty outside 1..3, :class:`GeneratorError` (an ``ExerciseError``) when
no candidate fits within :data:`ATTEMPTS` draws: it names the ruleset, kind, difficulty and seed
and carries the engine's last error (``tutor gen`` prints it and exits with status 2).
"""

from __future__ import annotations

import copy
import random

from .. import i18n
from ..engine.errors import TutorError
from ..solve.common import parse_scenario
from .exercise import Exercise
from .kinds import KINDS, ExerciseError, Reject, kinds_for

__all__ = ["AIM_ATTEMPTS", "ATTEMPTS", "GeneratorError", "generate", "kinds_for", "to_yaml"]

#: How many candidates one call may draw before giving up (never reached in practice).
ATTEMPTS = 400
#: How many of them must have the answer class aimed at; the later ones may have any class (a
#: kind whose aimed class is rare there still gives a question: ``tutor check --quality`` shows
#: how balanced the answers come out).
AIM_ATTEMPTS = 200


class GeneratorError(ExerciseError):
    """No candidate of a generator fitted within ``tries`` draws: ``ruleset``, ``kind``,
    ``difficulty``, ``seed`` say which call; ``last_error`` is the engine's last error on a
    candidate (a :class:`~tutor.engine.errors.TutorError`, ``None`` when every candidate was
    rejected for its difficulty instead), ``rejected`` how many were. The message reads
    ``hokm legal-cards difficulty 3 seed 7: no exercise after 400 tries; last engine error:
    bad-card: ...``."""

    def __init__(self, ruleset: str, kind: str, difficulty: int, seed: int, tries: int,
                 last_error: TutorError | None, rejected: int) -> None:
        last = (f"last engine error: {last_error.code}: {last_error.message}" if last_error is not None
                else f"the engine refused none; all {rejected} candidates were rejected for the difficulty")
        super().__init__(f"{ruleset} {kind} difficulty {difficulty} seed {seed}: no exercise after {tries} tries; "
                         f"{last}")
        self.ruleset, self.kind, self.difficulty, self.seed = ruleset, kind, difficulty, seed
        self.tries, self.last_error, self.rejected = tries, last_error, rejected


def generate(ruleset: str, kind: str, seed: int, difficulty: int = 1) -> Exercise:
    """A new exercise of ``kind`` for ``ruleset`` (see module docstring), answered by the engine.

    Raises :class:`ExerciseError` when the kind does not apply to the ruleset, ``ValueError`` for a
    difficulty outside 1..3 or an unknown ruleset, :class:`GeneratorError` if no candidate fits
    (a bug of the kind's generator or of the engine: the error carries the engine's last error).
    """
    from ..engine.rulesets import RULESETS

    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}: use one of {', '.join(RULESETS)}")
    if kind not in KINDS:
        raise ExerciseError(f"unknown exercise kind {kind!r}: use one of {', '.join(KINDS)}")
    k = KINDS[kind]
    if ruleset not in k.rulesets:
        raise ExerciseError(f"kind {kind} is not used with ruleset {ruleset} (use {', '.join(kinds_for(ruleset))})")
    if isinstance(difficulty, bool) or difficulty not in (1, 2, 3):
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    rng = random.Random(f"{ruleset}/{kind}/{seed}/{difficulty}")
    classes = k.answer_classes(ruleset, difficulty)
    want = classes[seed % len(classes)] if classes else None  # each class as often, seed by seed
    last_error: TutorError | None = None
    rejected = 0
    for attempt in range(ATTEMPTS):
        aim = want if attempt < AIM_ATTEMPTS else None
        try:
            with i18n.using("en"):  # the prompt is an English authoring aid, also during a request
                scenario, prompt = k.generate(ruleset, rng, difficulty, aim)
            parsed = parse_scenario(copy.deepcopy(scenario))
            answer = parsed[1](parsed[0])
            if k.features and k.level(k.measure(scenario, answer)) != difficulty:
                raise Reject
            if aim is not None and k.answer_class(scenario, answer) != aim:
                raise Reject
        except Reject:
            rejected += 1
            continue
        except TutorError as e:
            last_error = e
            continue
        expect = {f: answer[f] for f in k.expect_fields if f in answer}
        return Exercise(id=f"gen-{ruleset}-{kind}-{seed}-{difficulty}", kind=kind, scenario=scenario,
                        difficulty=difficulty, prompt=prompt, expect=expect, parsed=parsed)
    raise GeneratorError(ruleset, kind, difficulty, seed, ATTEMPTS, last_error, rejected)


def _flow(value: object) -> str:
    import json
    return json.dumps(value, ensure_ascii=False)


def to_yaml(exercise: Exercise) -> str:
    """The exercise as an exercise block / quiz question in YAML (scenario and expect as JSON-style
    flow mappings, like the authored content)."""
    import yaml
    lines = []
    for key, value in exercise.to_block().items():
        if isinstance(value, dict | list):
            lines.append(f"{key}: {_flow(value)}")
        else:
            lines.append(yaml.safe_dump({key: value}, allow_unicode=True, width=1000).strip())
    return "\n".join(lines) + "\n"
