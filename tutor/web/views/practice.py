"""Practice quizzes: setup, one question at a time, feedback, results; replaying mistakes.

A quiz is drawn from authored questions (``quizzes/<ruleset>.yaml``) and, where the content
package can generate them, generated ones, with a seeded random generator: the same settings and
seed give the same questions.
"""

from __future__ import annotations

import random
import secrets

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import bindparam, select

from tutor.content.kinds import KINDS, kinds_for

from .. import exercises as X
from ..db import Attempt, Learner, Quiz, get_session, learner_for_write, session_anon
from ..limits import limited
from ..pagecache import cached, csrf_placeholder
from ..record import mistakes_of, record_answer
from ..review import REPLAY_SIZE
from ..security import BadInput
from .common import RULESET_NAMES, exercise_context, exercise_form, four_colour, ruleset_name

bp = Blueprint("practice", __name__, url_prefix="/<lang>")

#: Kinds that apply to each ruleset, from the kinds registry.
RULESET_KINDS: dict[str, tuple[str, ...]] = {r: tuple(kinds_for(r)) for r in RULESET_NAMES}
COUNTS = (5, 10, 15, 20)
#: The ``ruleset`` stored for a replay of mistakes (questions of every game, no seed).
MISTAKES_QUIZ = "mixed"
_PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")


def draw_quiz(ruleset: str, kinds: list[str], count: int, difficulty: int, seed: int) -> list[str]:
    """The refs of a quiz: authored and generated questions mixed, reproducible from ``seed``."""
    rng = random.Random(f"{ruleset}|{','.join(kinds)}|{count}|{difficulty}|{seed}")
    authored = [q for q in X.quiz_questions(ruleset) if q.kind in kinds]
    if not authored:  # no quiz file yet: the lesson exercises stand in
        authored = [e for s in X.content().lesson_path(ruleset, "en").steps for e in s.exercises if e.kind in kinds]
    authored.sort(key=lambda q: (abs(q.difficulty - difficulty), rng.random()))
    pool = [X.ref_of(q) for q in authored]
    n_gen = count // 2
    generated: list[str] = []
    tries = 0
    while len(generated) < count and tries < count * 4:
        tries += 1
        kind = kinds[rng.randrange(len(kinds))]
        ref = f"gen:{ruleset}:{kind}:{difficulty}:{rng.randrange(10**8)}"
        try:
            X.resolve(ref)
        except BadInput:
            continue
        generated.append(ref)
    refs = pool[: count - min(n_gen, len(generated))]
    refs += generated[: count - len(refs)]
    rng.shuffle(refs)
    return refs


@bp.get("/practice/")
def setup(error: str | None = None, status: int = 200):
    ruleset = request.args.get("game", RULESET_NAMES[0])
    if ruleset not in RULESET_NAMES:
        ruleset = RULESET_NAMES[0]
    def render(**extra) -> str:
        games = [(r, ruleset_name(r)) for r in RULESET_NAMES]
        kinds = {r: [(k, _(KINDS[k].prompt), _kind_name(k)) for k in RULESET_KINDS[r]] for r in RULESET_NAMES}
        return render_template("practice.html", games=games, selected=ruleset, kinds=kinds, counts=COUNTS,
                               error=error, **extra)

    # the same page for everyone (no error; at most ?game=): kept rendered (tutor.web.pagecache)
    if error is None and request.method == "GET" and set(request.args) <= {"game"} and len(request.full_path) < 100:
        return cached(("setup", g.lang, four_colour(), request.full_path),
                      lambda: render(csrf_token=csrf_placeholder)), status
    return render(), status


def _kind_name(kind: str) -> str:
    k = KINDS.get(kind)
    return _(k.label) if k is not None else kind


@bp.post("/practice/")
@limited("quiz")
def start():
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
    seed_text = f.get("seed", "").strip().translate(_PERSIAN_DIGITS)
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
                    difficulty=difficulty, kinds=kinds, refs=refs)
        db.add(quiz)
        db.commit()
        return quiz
    except Exception:
        db.rollback()
        raise


@bp.post("/mistakes/replay")
@limited("quiz")
def replay():
    """A quiz of the mistakes due for review now, soonest first; with ``more`` set in the form,
    then those due next (review ahead). Exercises gone from the content since are left out."""
    refs = []
    for m in mistakes_of().replay(more=bool(request.form.get("more"))):
        try:
            X.resolve(m.exercise_ref)
        except BadInput:
            continue
        refs.append(m.exercise_ref)
        if len(refs) == REPLAY_SIZE:
            break
    if not refs:
        return redirect(url_for("progress.page"))
    quiz = _new_quiz(MISTAKES_QUIZ, 0, 0, [], refs)
    return redirect(url_for("practice.question", token=quiz.token, n=1))


#: :func:`_quiz`'s query, built once.
_QUIZ_OF_LEARNER = (select(Quiz).join(Learner, Learner.id == Quiz.learner_id)
                    .where(Quiz.token == bindparam("token"), Learner.anon_id == bindparam("anon")))


def _quiz(token: str) -> Quiz:
    """The current learner's quiz of ``token`` (one query, the learner joined), else 404."""
    anon = session_anon()
    if anon is None or len(token) > 32:
        abort(404)
    quiz = get_session().scalar(_QUIZ_OF_LEARNER, {"token": token, "anon": anon})
    if quiz is None:
        abort(404)
    return quiz


def _item(quiz: Quiz, n: int):
    if not 1 <= n <= len(quiz.refs):
        abort(404)
    ref = quiz.refs[n - 1]
    return ref, X.resolve(ref)


def _attempts(quiz: Quiz) -> dict[int | None, list[Attempt]]:
    out: dict[int | None, list[Attempt]] = {}
    for a in get_session().scalars(select(Attempt).where(Attempt.quiz_id == quiz.id).order_by(Attempt.id)):
        out.setdefault(a.position, []).append(a)
    return out


@bp.get("/quiz/<token>/<int:n>")
def question(token: str, n: int, error: str | None = None, status: int = 200):
    """One question. Its exercise form is the same for every learner who meets this question in
    the same language and suit colours, so it is kept rendered (:mod:`tutor.web.pagecache`, the
    form's action, which holds the quiz's token, put in per request); with a form error it is
    rendered for the request."""
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    action = url_for("practice.answer", token=token, n=n)
    page = {"quiz": quiz, "n": n, "total": len(quiz.refs), "game": _game(quiz, ex), "action": action}
    if error is None:
        return render_template("question.html", x=None, x_html=exercise_form(ex, ref, action), **page), status
    return render_template("question.html", x=exercise_context(ex, ref, error=error), **page), status


def _game(quiz: Quiz, ex) -> str:
    return ruleset_name(ex.ruleset or quiz.ruleset)


@bp.post("/quiz/<token>/<int:n>")
@limited("answer")
def answer(token: str, n: int):
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    try:
        given = X.read_form(ex, request.form)
        verdict = X.grade(ex, given)
    except BadInput as e:
        return question(token, n, error=e.message, status=400)
    record_answer(ex, ref, verdict, quiz=quiz, position=n)
    return redirect(url_for("practice.feedback", token=token, n=n))


@bp.get("/quiz/<token>/<int:n>/feedback")
def feedback(token: str, n: int):
    quiz = _quiz(token)
    ref, ex = _item(quiz, n)
    tries = _attempts(quiz).get(n)
    if not tries:
        return redirect(url_for("practice.question", token=token, n=n))
    verdict = X.grade(ex, tries[-1].given)
    ctx = exercise_context(ex, ref, verdict=verdict)
    nxt = url_for("practice.question", token=token, n=n + 1) if n < len(quiz.refs) else \
        url_for("practice.results", token=token)
    return render_template("question.html", quiz=quiz, n=n, total=len(quiz.refs), game=_game(quiz, ex),
                           next_url=nxt, retry_url=url_for("practice.question", token=token, n=n), x=ctx)


@bp.get("/quiz/<token>/results")
def results(token: str):
    quiz = _quiz(token)
    attempts = _attempts(quiz)
    rows = []
    by_kind: dict[str, list[int]] = {}
    for n, ref in enumerate(quiz.refs, 1):
        ex = X.resolve(ref)
        tries = attempts.get(n, [])
        first = tries[0].correct if tries else None
        rows.append({"n": n, "ex": ex, "kind": _kind_name(ex.kind), "prompt": X.prompt_of(ex),
                     "answered": bool(tries), "correct": first, "retried": len(tries) > 1,
                     "url": url_for("practice.feedback" if tries else "practice.question", token=token, n=n)})
        k = by_kind.setdefault(_kind_name(ex.kind), [0, 0])
        k[1] += 1
        k[0] += 1 if first else 0
    score = sum(1 for r in rows if r["correct"])
    game = quiz.ruleset if quiz.ruleset in RULESET_NAMES else None  # None: a replay of mistakes
    return render_template("results.html", quiz=quiz, rows=rows, score=score, total=len(rows),
                           by_kind=sorted(by_kind.items()), seeded=game is not None,
                           again=game or RULESET_NAMES[0],
                           game=ruleset_name(game) if game else _("My mistakes"))
