"""Adaptive practice: which question comes next.

An adaptive session is a :class:`~tutor.domain.models.Quiz` with ``mode="adaptive"`` whose ``refs`` grow
one question at a time: the next one is picked when the learner has answered the last
(:func:`advance`), in this order:

1. **due reviews**: the learner's mistakes whose FSRS review is due now (:mod:`tutor.domain.review`,
   UTC), soonest due first;
2. **weak skills**: a question that exercises the learner's weakest practised skill (mastery below
   :data:`tutor.domain.mastery.WEAK`, :mod:`tutor.domain.mastery`); for a skill weak in played deals
   (:data:`tutor.domain.mastery.PLAY_KIND`), a question of any kind on its rule;
3. **new material**: a question on a skill the learner has not practised yet (then, once every
   skill has been met, any question not served in this session), of the kinds open to the learner
   (:func:`open_kinds`): a game's kinds come in their registry order, the basics first (legal
   cards, the trick's winner), and a learner meets the kinds they have shown they can answer plus
   the next :data:`NEW_KINDS` of that path; among them the kind served least in the session comes
   first (:func:`choose`), so a session mixes kinds;
4. **retry**: the session's own fresh mistakes, at most one in five places (:func:`retry_max`),
   asked again before the session ends, never in the place right after the mistake (FSRS
   schedules the long term; this queue is the short term). A waiting mistake comes back before
   the other steps once it is ready, at most once in :data:`SPACING` places, and in the session's
   last places when the places left are no more than the mistakes waiting.

No kind is served more than :data:`RUN_MAX` times in a row by the weak and new steps while another
kind has a question to give, and after :data:`RUN_MAX` places of mistakes in a row (weak skills,
retries) new material comes before the weak skills (interleaved practice), so a learner who gets
much wrong still meets more than the kinds they find hard.

Reviews and new questions already served in this session are not served again, so a fresh
mistake (which FSRS makes due at once) comes back through the retry queue, not as a review. A
retry has had its answer shown: it is marked as a retry and never counts as a first try
(:mod:`tutor.domain.firsttry`).

Among the questions of a step, the one whose Glicko-2 rating (:mod:`tutor.domain.ratings`) is nearest
the band's target in its game is taken ("easier", "about right", "harder"); ties are broken by the
session's seed (``Quiz.seed``, drawn at its start), so the same seed and answers give the same
session. A session may be limited to one
rule point ("Practise this rule"): then every step takes only questions whose reasons cite it.

The questions come from a catalogue per ruleset (:func:`catalogue`): the authored quiz questions,
the lesson exercises and generated questions (every kind and difficulty, :data:`GEN_SEEDS`
seeds), each with the rule points the engine's answer cites.
"""

from __future__ import annotations

import secrets
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor import rules as rule_points
from tutor.content.exercise import RULESETS, Exercise
from tutor.content.kinds import KINDS, kinds_for
from tutor.content.quality import scenario_key
from tutor.domain import mastery, ratings
from tutor.domain.db import now
from tutor.domain.models import Learner, Mistake, Quiz, SkillMastery
from tutor.domain.review import LEAVE_AFTER

from . import exercises as X
from .security import BadInput

__all__ = ["BANDS", "GEN_SEEDS", "MODE", "NEW_KINDS", "RUN_MAX", "SIZES", "SPACING", "Candidate", "advance", "after_answer",
           "by_rule", "catalogue", "choose", "open_kinds", "pick", "retry_max", "rules_scope", "rulesets_of_rule",
           "start"]

#: ``Quiz.mode`` of an adaptive session.
MODE = "adaptive"
#: The bands a learner can choose, in order (keys of :data:`tutor.domain.ratings.BANDS`).
BANDS = ("easier", "right", "harder")
#: Questions in a session.
SIZES = (5, 10, 20)
#: Kinds of a game's path a learner meets before showing they can answer the ones before.
NEW_KINDS = 3
#: Most places in a row the weak and new steps give one kind while another kind has a question.
RUN_MAX = 2
#: Places from one retry to the next: a waiting mistake comes back as soon as it is ready (not in
#: the place right after it), unless a retry came in the last ``SPACING - 1`` places.
SPACING = 5
#: Generated questions per kind and difficulty in the catalogue.
GEN_SEEDS = 4


@dataclass(frozen=True)
class Candidate:
    """A question practice may serve: its ref, ruleset, kind, difficulty and the rule points its
    answer cites."""

    ref: str
    ruleset: str
    kind: str
    difficulty: int
    rules: tuple[str, ...]


def _rules_of(ex: Exercise) -> tuple[str, ...]:
    why = X.engine_solution(ex).get("why")
    return mastery.rules_of(why) if isinstance(why, list) else ()


def _build(ruleset: str) -> tuple[Candidate, ...]:
    out: dict[str, Candidate] = {}
    store = X.content()
    exercises = [(X.ref_of(q), q) for q in store.quiz_questions(ruleset)]
    exercises += [(X.ref_of(e), e) for s in store.lesson_path(ruleset, "en").steps for e in s.exercises]
    for kind in kinds_for(ruleset):
        for difficulty in (1, 2, 3):
            for seed in range(1, GEN_SEEDS + 1):
                ref = f"gen:{ruleset}:{kind}:{difficulty}:{seed}"
                try:
                    exercises.append((ref, X.resolve(ref)))
                except BadInput:
                    continue
    seen: set[str] = set()
    for ref, ex in exercises:
        if ex.ruleset != ruleset or ref in out:
            continue
        key = scenario_key(ex)
        if X.generated(ref) and key in seen:  # two seeds that drew one scenario: one question
            continue
        seen.add(key)
        out[ref] = Candidate(ref, ruleset, ex.kind, ex.difficulty, _rules_of(ex))
    return tuple(out.values())


_CATALOGUES: dict[tuple[int, str], tuple[Candidate, ...]] = {}


def catalogue(ruleset: str) -> tuple[Candidate, ...]:
    """Every question practice may serve in ``ruleset`` (built once per content store)."""
    key = (id(X.content()), ruleset)
    if key not in _CATALOGUES:
        _CATALOGUES[key] = _build(ruleset)
    return _CATALOGUES[key]


_BY_RULE: dict[tuple[int, str], Mapping[str, tuple[str, ...]]] = {}


def by_rule(ruleset: str) -> Mapping[str, tuple[str, ...]]:
    """Rule point id -> the refs of :func:`catalogue` questions of ``ruleset`` whose engine answer
    cites it (catalogue order). The one rule -> questions index: "Practise this rule" serves from
    it and the rules reference page counts with it (a point absent here gets no practice)."""
    key = (id(X.content()), ruleset)
    if key not in _BY_RULE:
        index: dict[str, list[str]] = {}
        for c in catalogue(ruleset):
            for r in c.rules:
                index.setdefault(r, []).append(c.ref)
        _BY_RULE[key] = MappingProxyType({r: tuple(refs) for r, refs in index.items()})
    return _BY_RULE[key]


def rules_scope(rule: str, game: str | None = None) -> list[str]:
    """The rulesets a practice on ``rule`` draws from: ``[game]`` when ``game`` is one of the
    point's games (practice started from that game's reference page or one of its questions),
    else every game of the point (:func:`rulesets_of_rule`); empty for an unknown id."""
    games = rulesets_of_rule(rule)
    return [game] if game in games else games


def rulesets_of_rule(rule: str) -> list[str]:
    """The rulesets whose questions may cite ``rule`` (its games); empty for an unknown id."""
    try:
        point = rule_points.get(rule)
    except KeyError:
        return []
    return [g for g in point.games if g in RULESETS]


def _settings(quiz: Quiz) -> dict:
    return dict(quiz.target or {})


def _rulesets(quiz: Quiz) -> list[str]:
    return list(_settings(quiz).get("rulesets") or [quiz.ruleset])


def retry_max(size: int) -> int:
    """Most retries in a session of ``size`` questions: one in five places."""
    return max(1, size // 5)


def open_kinds(ruleset: str, passed: set[str]) -> list[str]:
    """The kinds of ``ruleset`` a learner meets, in the game's path (registry) order: those in
    ``passed`` (a skill of the kind at or above :data:`tutor.domain.mastery.WEAK`) and the first
    :data:`NEW_KINDS` others, so a new learner starts with legal cards and the trick's winner."""
    out: list[str] = []
    new = 0
    for kind in kinds_for(ruleset):
        if kind in passed:
            out.append(kind)
        elif new < NEW_KINDS:
            out.append(kind)
            new += 1
    return out


def _tie(seed: int, ref: str) -> int:
    return zlib.crc32(f"{seed}|{ref}".encode())


def _no_long_run(cands: list[Candidate], kinds_served: Sequence[str]) -> list[Candidate]:
    """``cands`` without the kind of the last :data:`RUN_MAX` places when they all had one kind
    and another kind has a candidate."""
    run = kinds_served[-RUN_MAX:]
    if len(run) < RUN_MAX or len(set(run)) != 1:
        return cands
    return [c for c in cands if c.kind != run[0]] or cands


def _nearest(cands: list[Candidate], rated: Mapping[str, ratings.Rating], aims: Mapping[str, float],
             seed: int) -> Candidate | None:
    if not cands:
        return None

    def distance(c: Candidate) -> tuple[float, int, str]:
        r = rated.get(c.ref) or ratings.prior(c.difficulty)
        return (abs(r.rating - aims.get(c.ruleset, ratings.START[0])), _tie(seed, c.ref), c.ref)
    return min(cands, key=distance)


def choose(cands: Sequence[Candidate], rated: Mapping[str, ratings.Rating], aims: Mapping[str, float],
           kinds_served: Sequence[str], seed: int, spread: bool = True) -> Candidate | None:
    """The question a step takes from ``cands``: no kind more than :data:`RUN_MAX` times in a row
    (``kinds_served``: the session's kinds so far, in order); with ``spread``, of the kind served
    least in the session (then the earliest in the path); the one whose rating (``rated``, else
    the prior of its difficulty) is nearest the aim of its game (``aims``), ties broken by
    ``seed``. Pure: the same arguments give the same question."""
    pool = _no_long_run(list(cands), kinds_served)
    if spread and pool:
        served = Counter(kinds_served)
        path = {k: i for i, k in enumerate(KINDS)}
        kind = min({c.kind for c in pool}, key=lambda k: (served[k], path.get(k, len(path)), k))
        pool = [c for c in pool if c.kind == kind]
    return _nearest(pool, rated, aims, seed)


_KIND_OF: dict[tuple[int, str], str] = {}


def _kind_of(ref: str) -> str:
    """The kind of the question ``ref`` ("" for one gone from the content)."""
    key = (id(X.content()), ref)
    if key not in _KIND_OF:
        try:
            _KIND_OF[key] = X.resolve(ref).kind
        except BadInput:
            _KIND_OF[key] = ""
    return _KIND_OF[key]


def _retries_ready(quiz: Quiz, retry: list[str]) -> list[str]:
    """The waiting mistakes that may come now: not the one answered in the last place (a retry
    right after its answer was shown would test memory, not the rule)."""
    last = quiz.refs[-1] if quiz.refs else None
    return [r for r in retry if r != last]


def pick(db: Session, learner: Learner, quiz: Quiz) -> tuple[str, str] | None:
    """The next question of the session and the step it comes from (``"due"``, ``"weak"``,
    ``"new"``, ``"retry"``), or None when there is nothing left; nothing is written."""
    settings = _settings(quiz)
    rule: str | None = settings.get("rule")
    retry = _retries_ready(quiz, list(settings.get("retry") or []))
    size = int(settings.get("size") or SIZES[1])
    seed = int(quiz.seed or 0)
    served = set(quiz.refs)
    left = size - len(quiz.refs)
    kinds_served = [_kind_of(ref) for ref in quiz.refs]
    run = kinds_served[-RUN_MAX:]
    run_kind = run[0] if len(run) == RUN_MAX and len(set(run)) == 1 else None
    if retry and left <= len(retry):  # the last places: the retries waiting, another kind than the run's first
        return next((r for r in retry if _kind_of(r) != run_kind), retry[0]), "retry"
    upcoming = _kind_of(retry[0]) if retry and left - 1 <= len(retry) else None
    if run_kind is None and upcoming and kinds_served and kinds_served[-1] == upcoming:
        run_kind = upcoming  # the next place is a retry of the last place's kind: this one is another kind
    steps = list(settings.get("steps") or [])
    spaced = [r for r in retry if _kind_of(r) != run_kind]
    if spaced and "retry" not in steps[-(SPACING - 1):]:  # one retry in every SPACING places at most, while ready
        return spaced[0], "retry"
    rulesets = _rulesets(quiz)
    # 1. due reviews
    q = (select(Mistake.exercise_ref).where(Mistake.learner_id == learner.id, Mistake.streak < LEAVE_AFTER,
                                            Mistake.due <= now(), Mistake.ruleset.in_(rulesets))
         .order_by(Mistake.due, Mistake.id).limit(len(served) + 5))
    if rule:
        q = q.where(Mistake.rules.like(f"% {rule} %"))
    for ref in db.scalars(q):
        if ref in served:
            continue
        try:
            X.resolve(ref)
        except BadInput:
            continue
        return ref, "due"
    cands = [c for r in rulesets for c in catalogue(r) if c.ref not in served and (not rule or rule in c.rules)]
    if not cands and not retry:
        return None
    rated = ratings.question_ratings(db, [c.ref for c in cands])
    band = settings.get("band", "right")
    aims = {r: ratings.target(db, learner, band, r) for r in rulesets}
    known = {(m.ruleset, m.kind, m.rule): m for m in db.scalars(
        select(SkillMastery).where(SkillMastery.learner_id == learner.id, SkillMastery.ruleset.in_(rulesets)))}
    # 2. weak skills, weakest first; a third place running of one kind waits while new material has another
    weak = sorted((m for m in known.values() if m.p_known < mastery.WEAK and (not rule or m.rule == rule)),
                  key=lambda m: (m.p_known, m.ruleset, m.kind, m.rule))
    options = [c for c in (_nearest([c for c in cands if c.ruleset == m.ruleset and m.rule in c.rules
                                     and m.kind in {c.kind, mastery.PLAY_KIND}], rated, aims, seed) for m in weak)
               if c is not None]
    # interleaved: after two places of mistakes (weak skills, retries) in a row, new material comes first
    mended = [st for st in steps[-RUN_MAX:] if st in ("weak", "retry")]
    found = next((c for c in options if c.kind != run_kind), None)
    if found is not None and len(mended) < RUN_MAX:
        return found.ref, "weak"
    # 3. new material: skills never practised, of the kinds open to the learner; then anything not served yet
    passed = {(m.ruleset, m.kind) for m in known.values() if m.p_known >= mastery.WEAK}
    opened = {(r, k) for r in rulesets for k in open_kinds(r, {k for g, k in passed if g == r})}
    fresh = [c for c in cands if c.rules and any((c.ruleset, c.kind, r) not in known for r in c.rules)]
    pool = [c for c in fresh if (c.ruleset, c.kind) in opened] or fresh
    if options:  # a weak skill waits only for another kind
        pool = [c for c in pool if c.kind != run_kind and c.kind not in {o.kind for o in options[:1]}] or \
            [c for c in pool if c.kind != run_kind]
    pool = [c for c in pool if c.kind != run_kind] or pool
    found = choose(pool, rated, aims, kinds_served, seed)
    if found is not None:
        return found.ref, "new"
    if options:
        return options[0].ref, "weak"
    # 4. the retry queue
    if retry:
        return retry[0], "retry"
    found = choose(cands, rated, aims, kinds_served, seed)
    return (found.ref, "new") if found is not None else None


def start(db: Session, learner: Learner, rulesets: list[str], band: str, size: int,
          rule: str | None = None, seed: int | None = None) -> Quiz | None:
    """A new adaptive session (added to ``db``, not committed) with its first question, or None
    when no question fits (e.g. a rule no question cites). ``seed`` breaks ties between equally
    fit questions (None: drawn at random)."""
    quiz = Quiz(token=secrets.token_urlsafe(12), learner_id=learner.id, ruleset=rulesets[0],
                seed=secrets.randbelow(10**6) if seed is None else seed, ratings_before=ratings.snapshot(db, learner),
                difficulty=0, kinds=[], refs=[], mode=MODE,
                target={"band": band, "size": size, "rule": rule, "rulesets": rulesets, "retry": []})
    first = pick(db, learner, quiz)
    if first is None:
        return None
    quiz.refs = [first[0]]
    quiz.target = {**(quiz.target or {}), "steps": [first[1]]}
    _drop_retry(quiz, first[0])
    db.add(quiz)
    return quiz


def _drop_retry(quiz: Quiz, ref: str) -> None:
    settings = _settings(quiz)
    retry = [r for r in settings.get("retry") or [] if r != ref]
    if retry != (settings.get("retry") or []):
        quiz.target = {**settings, "retry": retry}


def after_answer(quiz: Quiz, n: int, correct: bool) -> None:
    """After the learner's first answer to question ``n`` of an adaptive session: a wrong one joins
    the retry queue (unless it is a retry itself, or the session's retries, served and waiting,
    are already :func:`retry_max`). Changes ``quiz`` only."""
    if quiz.mode != MODE or correct:
        return
    ref = quiz.refs[n - 1]
    settings = _settings(quiz)
    retry = list(settings.get("retry") or [])
    served = list(settings.get("steps") or []).count("retry")
    if ref in retry or quiz.refs.count(ref) > 1 or len(retry) + served >= retry_max(int(settings.get("size") or SIZES[1])):
        return
    quiz.target = {**settings, "retry": [*retry, ref]}


def advance(db: Session, learner: Learner, quiz: Quiz) -> bool:
    """Append the next question to the session (changes ``quiz``, not committed); False when the
    session is full or nothing is left."""
    size = int(_settings(quiz).get("size") or SIZES[1])
    if len(quiz.refs) >= size:
        return False
    nxt = pick(db, learner, quiz)
    if nxt is None:
        return False
    quiz.refs = [*quiz.refs, nxt[0]]
    settings = _settings(quiz)
    quiz.target = {**settings, "steps": [*(settings.get("steps") or []), nxt[1]]}
    _drop_retry(quiz, nxt[0])
    return True
