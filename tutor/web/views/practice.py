"""Practice quizzes: setup, one question at a time, feedback, results; replaying mistakes.

A quiz is drawn from authored questions (``quizzes/<ruleset>.yaml``) and, where the content
package can generate them, generated ones, with a seeded random generator: the same settings and
seed give the same questions.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup, escape
from sqlalchemy import Row, bindparam, select
from sqlalchemy.orm import Session

from tutor import i18n
from tutor import rules as rule_points
from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, Verdict, kinds_for
from tutor.content.quality import scenario_key
from tutor.domain import dashboard, firsttry, ratings
from tutor.domain.db import now, table_of
from tutor.domain.models import Attempt, Learner, Quiz
from tutor.domain.review import REPLAY_SIZE

from .. import adaptive
from .. import exercises as X
from ..db import current_learner, get_session, learner_for_write, session_anon
from ..limits import limited
from ..pagecache import cached, csrf_placeholder
from ..record import record_answer, write
from ..security import BadInput
from .common import RULESET_NAMES, exercise_context, four_colour, ruleset_name, wants_fragment

bp = Blueprint("practice", __name__, url_prefix="/<lang>")

#: Kinds that apply to each ruleset, from the kinds registry.
RULESET_KINDS: dict[str, tuple[str, ...]] = {r: tuple(kinds_for(r)) for r in RULESET_NAMES}
COUNTS = (5, 10, 15, 20)
#: The ``ruleset`` stored for a replay of mistakes (questions of every game, no seed).
MISTAKES_QUIZ = "mixed"
#: A quiz as the pages read it: a :class:`~tutor.domain.models.Quiz` or a row of its columns.
QuizRow = Quiz | Row

#: Stand for one quiz's own URLs (its answer form's action, the next and retry links: they hold
#: the quiz's token) in a question's section kept for every quiz that has the question (random
#: per process, so no page can carry them); put in when the section is served.
_ACTION, _NEXT, _RETRY = ("quiz-" + what + "-" + secrets.token_hex(8) for what in ("action", "next", "retry"))


def draw_quiz(ruleset: str, kinds: list[str], count: int, difficulty: int, seed: int) -> list[str]:
    """The refs of a quiz: authored and generated questions mixed, reproducible from ``seed``."""
    rng = random.Random(f"{ruleset}|{','.join(kinds)}|{count}|{difficulty}|{seed}")
    authored = [q for q in X.quiz_questions(ruleset) if q.kind in kinds]
    if not authored:  # no quiz file yet: the lesson exercises stand in
        authored = [e for s in X.content().lesson_path(ruleset, "en").steps for e in s.exercises if e.kind in kinds]
    authored.sort(key=lambda q: (abs(q.difficulty - difficulty), rng.random()))
    seen: set[str] = set()  # no scenario twice in a quiz (an authored one, or one several seeds draw)
    unique = []
    for q in authored:
        if scenario_key(q) not in seen:
            seen.add(scenario_key(q))
            unique.append(q)
    authored = unique
    pool = [X.ref_of(q) for q in authored]
    n_gen = count // 2
    generated: list[str] = []
    tries = 0
    while len(generated) < count and tries < count * 4:
        tries += 1
        kind = kinds[rng.randrange(len(kinds))]
        ref = f"gen:{ruleset}:{kind}:{difficulty}:{rng.randrange(10**8)}"
        try:
            key = scenario_key(X.resolve(ref))
        except BadInput:
            continue
        if key in seen:
            continue
        seen.add(key)
        generated.append(ref)
    refs = pool[: count - min(n_gen, len(generated))]
    refs += generated[: count - len(refs)]
    rng.shuffle(refs)
    return refs


@bp.get("/practice/")
def setup(error: str | None = None, status: int = 200) -> ResponseReturnValue:
    ruleset = request.args.get("game", RULESET_NAMES[0])
    if ruleset not in RULESET_NAMES:
        ruleset = RULESET_NAMES[0]
    games = [(r, ruleset_name(r)) for r in RULESET_NAMES]
    kinds = {r: [(k, _(KINDS[k].prompt), _kind_name(k)) for k in RULESET_KINDS[r]] for r in RULESET_NAMES}
    return render_template("practice.html", games=games, selected=ruleset, kinds=kinds, counts=COUNTS,
                           error=error, bands=band_choices(), sizes=adaptive.SIZES), status


def band_choices() -> list[tuple[str, str]]:
    """``(band, its name)`` for the adaptive practice form, in order."""
    names = {"easier": _("Easier"), "right": _("About right"), "harder": _("Harder")}
    return [(b, names[b]) for b in adaptive.BANDS]


@bp.post("/practice/adaptive")
@limited("quiz")
def adaptive_start() -> ResponseReturnValue:
    """Start adaptive practice: of one game (``game``) or of one rule point (``rule``; with
    ``game`` one of its games, only that game's questions), aimed at a band (``band``: easier,
    right, harder) of ``count`` questions (:mod:`tutor.web.adaptive`)."""
    f = request.form
    band = f.get("band", "right")
    count = f.get("count", str(adaptive.SIZES[1]))
    rule = f.get("rule", "").strip() or None
    if band not in adaptive.BANDS:
        band = "right"
    size = int(count) if count.isascii() and count.isdigit() and len(count) < 3 and int(count) in adaptive.SIZES \
        else adaptive.SIZES[1]
    game = f.get("game", "")
    if rule is not None:
        rulesets = adaptive.rules_scope(rule, game)
        if not rulesets:
            abort(404)
        rule = rule_points.get(rule).id
    else:
        if game not in RULESET_NAMES:
            return setup(error=_("Choose a game."), status=400)
        rulesets = [game]

    def work(db: Session) -> Quiz | None:
        return adaptive.start(db, learner_for_write(db), rulesets, band, size, rule)
    quiz = write(work)
    if quiz is None:
        return rule_page(rule, game, error=_("No question practises this rule yet."), status=400) if rule else \
            setup(error=_("There are no questions of these kinds yet."), status=400)
    return redirect(url_for("practice.question", token=quiz.token, n=1))


@bp.get("/practice/rule/<rule>")
def rule(rule: str) -> ResponseReturnValue:
    """"Practise this rule": what the rule point says, how many questions practise it, and a form
    to start adaptive practice on it. This is the one place practice on a rule point starts: the
    rules reference page, feedback and the dashboard link here. ``?game=`` (one of the point's
    games) keeps to that game's questions."""
    return rule_page(rule, request.args.get("game", ""))


def rule_page(rule: str, game: str = "", error: str | None = None, status: int = 200) -> tuple[str, int]:
    scope = adaptive.rules_scope(rule, game) if len(rule) <= 20 else []
    if not scope:
        abort(404)
    point = rule_points.get(rule)
    lang = i18n.current_lang()
    count = sum(len(adaptive.by_rule(r).get(point.id, ())) for r in scope)
    return render_template("practice_rule.html", point=point, title=point.title_in(lang), text=point.text_in(lang),
                           title_lang=lang if lang in point.title else "en",
                           text_lang=lang if lang in point.text else "en",
                           game=scope[0] if len(scope) == 1 else "",
                           games=i18n.join_list(ruleset_name(g) for g in scope), count=count,
                           bands=band_choices(), sizes=adaptive.SIZES, error=error), status


def _kind_name(kind: str) -> str:
    k = KINDS.get(kind)
    return _(k.label) if k is not None else kind


@bp.post("/practice/")
@limited("quiz")
def start() -> ResponseReturnValue:
    f = request.form
    ruleset = f.get("game", "")
    if ruleset not in RULESET_NAMES:
        return setup(error=_("Choose a game."), status=400)
    kinds = [k for k in dict.fromkeys(f.getlist(f"kinds-{ruleset}")) if k in RULESET_KINDS[ruleset]]  # each once
    if not kinds:
        kinds = list(RULESET_KINDS[ruleset])
    count = f.get("count", "5")
    difficulty = f.get("difficulty", "1")
    # a seed copied from a Persian page (or typed on a Persian keyboard) has Persian digits
    seed_text = i18n.ascii_digits(f.get("seed", "").strip())
    if not count.isascii() or not count.isdigit() or len(count) > 3 or int(count) not in COUNTS:
        return setup(error=_("Choose how many questions."), status=400)
    if difficulty not in ("1", "2", "3"):
        return setup(error=_("Choose a difficulty."), status=400)
    if seed_text and (not seed_text.isascii() or not seed_text.isdigit() or len(seed_text) > 9):
        return setup(error=_("The seed must be a whole number (up to nine digits)."), status=400)
    seed = int(seed_text) if seed_text else secrets.randbelow(10**6)
    refs = draw_quiz(ruleset, kinds, int(count), int(difficulty), seed)
    if not refs:
        return setup(error=_("There are no questions of these kinds yet."), status=400)
    quiz = _new_quiz(ruleset, seed, int(difficulty), kinds, refs)
    return redirect(url_for("practice.question", token=quiz.token, n=1))


def _new_quiz(ruleset: str, seed: int, difficulty: int, kinds: list[str], refs: list[str]) -> Quiz:
    db = get_session()
    try:
        learner = learner_for_write(db)
        quiz = Quiz(token=secrets.token_urlsafe(12), learner_id=learner.id, ruleset=ruleset, seed=seed,
                    difficulty=difficulty, kinds=kinds, refs=refs, ratings_before=ratings.snapshot(db, learner))
        db.add(quiz)
        db.commit()
        return quiz
    except Exception:
        db.rollback()
        raise


@bp.post("/mistakes/replay")
@limited("quiz")
def replay() -> ResponseReturnValue:
    """A quiz of the mistakes due for review now, soonest first; with ``more`` set in the form,
    then those due next (review ahead). Only the mistakes matching the form's filters (``game``,
    ``kind``, ``rule``), at most :data:`REPLAY_SIZE` (one query with LIMIT). Exercises gone from the
    content since are left out."""
    from .progress import filters_from

    learner = current_learner()
    if learner is None:
        return redirect(url_for("progress.page"))
    db = get_session()
    filters = filters_from(request.form)
    more = bool(request.form.get("more"))
    rows = dashboard.mistakes_page(db, learner, filters, 0, due_before=None if more else now(),
                                   size=REPLAY_SIZE).rows
    refs = []
    for m in rows:
        try:
            X.resolve(m.exercise_ref)
        except BadInput:
            continue
        refs.append(m.exercise_ref)
    if not refs:
        args: dict[str, Any] = dict(filters.args())
        return redirect(url_for("progress.page", **args))
    quiz = _new_quiz(MISTAKES_QUIZ, 0, 0, [], refs)
    return redirect(url_for("practice.question", token=quiz.token, n=1))


#: A learner's quiz by its token (parameters ``token``, ``anon``): all its columns, the learner
#: joined on the session's id (a Core statement, built once).
_QUIZ = (select(*table_of(Quiz).c).join(Learner, Learner.id == Quiz.learner_id)
         .where(Quiz.token == bindparam("token"), Learner.anon_id == bindparam("anon")))


def _quiz(token: str) -> QuizRow:
    """The current learner's quiz ``token`` as a read-only row (its columns as attributes; a
    write loads the :class:`~tutor.domain.models.Quiz` itself), else 404. One query."""
    anon = session_anon()
    if (anon is None or len(token) > 32 or not token.isascii()
            or not token.replace("-", "").replace("_", "").isalnum()):  # e.g. a NUL byte (PostgreSQL)
        abort(404)
    quiz = get_session().connection().execute(_QUIZ, {"token": token, "anon": anon}).first()
    if quiz is None:
        abort(404)
    return quiz


def _item(quiz: QuizRow, n: int) -> tuple[str, Exercise]:
    if not 1 <= n <= len(quiz.refs):
        abort(404)
    ref = quiz.refs[n - 1]
    return ref, X.resolve(ref)


#: A quiz's attempts, oldest first: only what its pages show of them (a Core statement, built once).
_QUIZ_ATTEMPTS = (select(Attempt.position, Attempt.correct, Attempt.given)
                  .where(Attempt.quiz_id == bindparam("quiz")).order_by(Attempt.id))


def _attempts(quiz: QuizRow) -> dict[int | None, list[Row]]:
    """The quiz's attempts by question number, oldest first: rows of ``position``, ``correct``
    and ``given``."""
    out: dict[int | None, list[Row]] = {}
    for a in get_session().connection().execute(_QUIZ_ATTEMPTS, {"quiz": quiz.id}):
        out.setdefault(a.position, []).append(a)
    return out


class _Try(NamedTuple):
    """An answer just recorded, as :func:`_places` reads the quiz's attempts."""

    position: int
    correct: bool


def _places(quiz: QuizRow, attempts: Mapping[int | None, Sequence[Row | _Try]]) -> list[firsttry.Place]:
    """The quiz's places: first tries and retries (:mod:`tutor.domain.firsttry`)."""
    return firsttry.places(quiz.refs, {n: [a.correct for a in tries] for n, tries in attempts.items()
                                       if n is not None})


def _meta(quiz: QuizRow, n: int, ex: Exercise, places: list[firsttry.Place], answered: bool) -> dict[str, Any]:
    """The quiz header's lines that an answer changes (``_page_meta.html``, ``quiz``): the
    streak after question ``n`` (before it while it is not answered), whether ``n`` is a retry,
    and the learner's rating in its game with the change since the quiz began."""
    game = ex.ruleset or quiz.ruleset
    rating = ratings.change(quiz.ratings_before, ratings.learner_ratings(get_session(), quiz.learner_id), game)
    return {"streak": firsttry.streak(places, n if answered else n - 1), "retry": places[n - 1].retry,
            "game": ruleset_name(game), "rating": rating}


@bp.get("/quiz/<token>/<int:n>")
def question(token: str, n: int, error: str | None = None, status: int = 200,
             typed: Mapping[str, Any] | None = None) -> ResponseReturnValue:
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    if error is not None or typed is not None:  # the learner's choices kept, the error beside them
        ctx = _question_context(quiz, token, n, ex, ref, error=error, typed=typed)
        return _page(quiz, n, ex, Markup(render_template("_fragment.html", x=ctx)), answered=False), status

    def render() -> str:  # the question before an answer: the same in every quiz that has it
        return render_template("_fragment.html", x=dict(exercise_context(ex, ref), action=_ACTION),
                               csrf_token=csrf_placeholder)
    section = cached(("quiz-question", i18n.current_lang(), four_colour(), ref), render,
                     {_ACTION: str(escape(_answer_action(token, n, ex)))},
                     store="open" if X.generated(ref) else "content")
    return _page(quiz, n, ex, section, answered=False), status


def _page(quiz: QuizRow, n: int, ex: Exercise, section: Markup, answered: bool) -> str:
    """Question ``n``'s page around its exercise's ``section``: the quiz's header and progress
    (``answered``: this question counts as answered), the streak, the rating, a retry marked."""
    meta = _meta(quiz, n, ex, _places(quiz, _attempts(quiz)), answered)
    return render_template("question.html", quiz=quiz, n=n, total=_total(quiz), game=_game(quiz, ex),
                           origin=_origin(quiz, n), section=section, answered=answered, meta=meta)


def _answer_action(token: str, n: int, ex: Exercise) -> str:
    return url_for("practice.answer", token=token, n=n) + f"#ex-{ex.id}"


def _feedback_section(quiz: QuizRow, token: str, n: int, ex: Exercise, ref: str, verdict: Verdict) -> Markup:
    """The question's section with the verdict on the answer just given (the page after the
    answer, and what ``fetch`` puts in place). It is the same in every quiz for the same answer
    in the same language and suit colours, but for the quiz's own next and retry links, so it is
    kept (:mod:`tutor.web.pagecache`) under a key that holds the answer given (served only in
    reply to that answer), with those links put in when served."""
    ctx = _feedback_links(quiz, token, n)

    def render() -> str:
        x = dict(exercise_context(ex, ref, verdict=verdict), next_url=_NEXT, retry_url=_RETRY,
                 next_label=ctx["next_label"])
        return render_template("_fragment.html", x=x, csrf_token=csrf_placeholder)
    key = ("quiz-feedback", i18n.current_lang(), four_colour(), ref, json.dumps(verdict.given, sort_keys=True),
           ctx["next_label"])
    return cached(key, render, {_NEXT: str(escape(ctx["next_url"])), _RETRY: str(escape(ctx["retry_url"]))},
                  store="open")


def _total(quiz: QuizRow) -> int:
    """Questions in the quiz: for adaptive practice, the session's size (its refs grow)."""
    if quiz.mode == adaptive.MODE:
        return max(len(quiz.refs), int((quiz.target or {}).get("size") or 0))
    return len(quiz.refs)


def _origin(quiz: QuizRow, n: int) -> str | None:
    """Why adaptive practice chose question ``n``, for the learner; None for other quizzes."""
    steps = (quiz.target or {}).get("steps") or [] if quiz.mode == adaptive.MODE else []
    if not 1 <= n <= len(steps):
        return None
    return {"due": _("A review that is due"), "weak": _("A rule you find hard"),
            "new": _("Something new"), "retry": _("Another try at a recent mistake")}.get(steps[n - 1])


def _game(quiz: QuizRow, ex: Exercise) -> str:
    return ruleset_name(ex.ruleset or quiz.ruleset)


@bp.post("/quiz/<token>/<int:n>")
@limited("answer")
def answer(token: str, n: int) -> ResponseReturnValue:
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    try:
        given = X.read_form(ex, request.form)
        verdict = X.grade(ex, given)
    except BadInput as e:
        if wants_fragment():
            x = _question_context(quiz, token, n, ex, ref, error=e.message, typed=request.form)
            return render_template("_fragment.html", x=x), 400
        return question(token, n, error=e.message, status=400, typed=request.form)
    attempts = _attempts(quiz)
    first = not attempts.get(n)  # the first answer to it
    retry = _places(quiz, attempts)[n - 1].retry  # its answer shown at an earlier place

    def after(db: Session) -> None:  # adaptive practice keeps a fresh mistake to retry: in the answer's transaction
        adaptive.after_answer(db.get_one(Quiz, quiz.id), n, verdict.correct)
    keep = first and not verdict.correct and quiz.mode == adaptive.MODE
    record_answer(ex, ref, verdict, quiz_id=quiz.id, position=n, rated=first and not retry,
                  also=after if keep else None)
    if wants_fragment():
        now_tried: dict[int | None, Sequence[Row | _Try]] = {**attempts, n: [*attempts.get(n, []), _Try(n, verdict.correct)]}
        meta = _meta(quiz, n, ex, _places(quiz, now_tried), answered=True)
        return _feedback_section(quiz, token, n, ex, ref, verdict) + Markup(
            render_template("_page_meta.html", page_meta={"quiz": meta}))
    return redirect(url_for("practice.feedback", token=token, n=n))


def _question_context(quiz: QuizRow, token: str, n: int, ex: Exercise, ref: str, error: str | None = None,
                      typed: Mapping[str, Any] | None = None) -> dict:
    x = exercise_context(ex, ref, error=error, typed=typed)
    x["action"] = _answer_action(token, n, ex)
    return x


def _feedback_links(quiz: QuizRow, token: str, n: int) -> dict:
    """Where the feedback on question ``n`` leads: ``next_url``, ``next_label``, ``retry_url``."""
    return {"next_url": url_for("practice.question", token=token, n=n + 1) if n < len(quiz.refs) else
            url_for("practice.adaptive_next", token=token) if quiz.mode == adaptive.MODE else
            url_for("practice.results", token=token),
            "next_label": _("Next question") if n < _total(quiz) else _("See my results"),
            "retry_url": url_for("practice.question", token=token, n=n)}


@bp.get("/quiz/<token>/<int:n>/feedback")
def feedback(token: str, n: int) -> ResponseReturnValue:
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    tries = _attempts(quiz).get(n)
    if not tries:
        return redirect(url_for("practice.question", token=token, n=n))
    # the last try (just answered); ?try=first: the one the results count, which they link to
    verdict = X.grade(ex, (tries[0] if request.args.get("try") == "first" else tries[-1]).given)
    return _page(quiz, n, ex, _feedback_section(quiz, token, n, ex, ref, verdict), answered=True)


@bp.get("/quiz/<token>/next")
def adaptive_next(token: str) -> ResponseReturnValue:
    """Adaptive practice: pick the next question once the last one is answered (then go to it), or
    go to the results when the session is over. Asked again, it picks nothing new."""
    quiz = _quiz(token)
    if quiz.mode != adaptive.MODE:
        abort(404)
    n = len(quiz.refs)
    if not _attempts(quiz).get(n):
        return redirect(url_for("practice.question", token=token, n=n))

    def work(db: Session) -> bool:
        row = db.get_one(Quiz, quiz.id)
        return adaptive.advance(db, current_learner() or learner_for_write(db), row)
    if write(work):
        return redirect(url_for("practice.question", token=token, n=n + 1))
    return redirect(url_for("practice.results", token=token))


def _result_url(token: str, n: int, tries: int) -> str:
    """Where question ``n``'s line of the results leads: the question if not answered, else the
    first try's feedback (the try the results count)."""
    if not tries:
        return url_for("practice.question", token=token, n=n)
    params: dict[str, Any] = {"try": "first"} if tries > 1 else {}
    return url_for("practice.feedback", token=token, n=n, **params)


@bp.get("/quiz/<token>/results")
def results(token: str) -> ResponseReturnValue:
    quiz = _quiz(token)
    attempts = _attempts(quiz)
    places = _places(quiz, attempts)
    rows = []
    by_kind: dict[str, list[int]] = {}
    games: list[str] = []
    for p in places:
        ex = X.resolve(p.ref)
        rows.append({"n": p.n, "ex": ex, "kind": _kind_name(ex.kind), "prompt": X.prompt_of(ex),
                     "answered": p.first is not None, "correct": p.first, "retried": p.tries > 1, "retry": p.retry,
                     "url": _result_url(token, p.n, p.tries)})
        if p.first is not None and (ex.ruleset or quiz.ruleset) not in games:
            games.append(ex.ruleset or quiz.ruleset)
        if p.retry:  # not a first try: not in the score
            continue
        k = by_kind.setdefault(_kind_name(ex.kind), [0, 0])
        k[1] += 1
        k[0] += 1 if p.first else 0
    score, total = firsttry.score(places)
    now_rated = ratings.learner_ratings(get_session(), quiz.learner_id)
    rated = [(ruleset_name(g), r) for g in games if (r := ratings.change(quiz.ratings_before, now_rated, g))]
    game = quiz.ruleset if quiz.ruleset in RULESET_NAMES else None  # None: a replay of mistakes
    return render_template("results.html", quiz=quiz, rows=rows, score=score, total=total,
                           retries=sum(1 for p in places if p.retry), rated=rated,
                           best_streak=max((firsttry.streak(places, p.n) for p in places), default=0),
                           by_kind=sorted(by_kind.items()), seeded=game is not None and quiz.mode is None,
                           again=game or RULESET_NAMES[0],
                           game=ruleset_name(game) if game else _("My mistakes"))
