"""Live sessions (:mod:`tutor.domain.live`): the teacher's controls and screen, the learner's
phone page, and their event streams (server-sent events, ``text/event-stream``).

Teacher (logged in; only their own classes, anyone else's is a 404):

* ``POST /<lang>/teach/classes/<cid>/assignments/<aid>/live`` — start a session of a quiz assignment;
* ``GET /<lang>/teach/live/<sid>`` — the screen: the current question, the live bar (how many
  answered; after the reveal, the answers given, the right one marked) and the leaderboard;
* ``POST .../next`` (field ``version``: the version the page showed) and ``POST .../end``;
* ``GET .../events`` — the stream: an ``update`` event with the bar's and the leaderboard's HTML
  each time an answer comes in, a ``state`` event when the session moves on.

Learner (a member of the class; anyone else gets a 404):

* ``GET /<lang>/classes/<cid>/live`` — the class's latest session: the lobby, the open question
  (its public view only, the form to answer), "your answer is in", the revealed result (the
  verdict and explanation of the learner's own answer, and the leaderboard), the end;
* ``POST /<lang>/classes/<cid>/live/<sid>/<n>`` — the answer, checked by the engine with the
  class quiz's grading (:func:`tutor.web.exercises.grade`); one per question, while it is open;
* ``GET /<lang>/classes/<cid>/live/events`` — the stream: a ``state`` event (``{"session",
  "state", "n", "version"}``) at the start and whenever the session moves; ``static/live.js``
  loads the page again when it differs from what the page shows.

The streams are fed by the app's publish/subscribe (:mod:`tutor.domain.pubsub`, from config
``PUBSUB_URL``, else ``TUTOR_REDIS_URL``: Redis, so a change made through any worker on any host
reaches every stream; without one, in the process's memory). A stream also reads the state from
the database every :data:`RECHECK` seconds (a message lost while Redis was away is made up for)
and ends after ``LIVE_STREAM_SECONDS`` (default 300; the browser's EventSource then reconnects),
so that a worker's thread is never held for good. Each open stream holds a thread: run gunicorn
with threaded workers (``-k gthread --threads N``; README "Production").
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required
from markupsafe import Markup
from sqlalchemy.orm import Session

from tutor.content import kinds
from tutor.domain import classes as C
from tutor.domain import live as L
from tutor.domain import pubsub
from tutor.domain import settings as S
from tutor.domain.assignments import QuizAssignment, kind_of
from tutor.domain.models import Assignment, Classroom, LiveSession
from tutor.domain.quizdoc import answer_text, exercise_of

from .. import exercises as X
from ..db import current_learner, get_session
from ..limits import limited
from ..security import BadInput
from .common import exercise_context, ruleset_name, wants_fragment
from .teach._common import mine

bp = Blueprint("live", __name__, url_prefix="/<lang>")

#: Seconds between two reads of the state from the database by a quiet stream (and between two
#: keep-alive comments, by which a stream finds out that its browser has gone).
RECHECK = 5.0


def init_app(app: Flask) -> None:
    """Give the app its publish/subscribe (``app.extensions["tutor_pubsub"]``): Redis for a
    ``redis://`` URL in config ``PUBSUB_URL`` or the environment's ``TUTOR_REDIS_URL``, else memory."""
    url = app.config.get("PUBSUB_URL")
    if url is None:
        url = os.environ.get("TUTOR_REDIS_URL", "")
    app.extensions["tutor_pubsub"] = pubsub.from_url(url)


def _pubsub() -> pubsub.PubSub:
    return current_app.extensions["tutor_pubsub"]


def _announce(classroom_id: int, message: dict[str, Any]) -> None:
    _pubsub().publish(L.channel(classroom_id), message)


# --------------------------------------------------------------------------------------- teacher

def _my_session(sid: int) -> tuple[LiveSession, Classroom, Assignment]:
    s = get_session().get(LiveSession, sid)
    if s is None:
        abort(404)
    cls = mine(Classroom, s.classroom_id)
    a = get_session().get(Assignment, s.assignment_id)
    if a is None:
        abort(404)
    return s, cls, a


@bp.post("/teach/classes/<int:cid>/assignments/<int:aid>/live")
@login_required
def start(cid: int, aid: int) -> ResponseReturnValue:
    cls = mine(Classroom, cid)
    db = get_session()
    a = db.get(Assignment, aid)
    if a is None or a.classroom_id != cls.id or not isinstance(kind_of(a), QuizAssignment) or not L.questions_of(a):
        abort(404)
    if not kind_of(a).can_run_live:
        return render_template("error.html", status=400, back=url_for("teach.classroom", cid=cls.id), message=_(
            "This assignment cannot run live: a live quiz shows every learner the same question, and here each "
            "learner has their own questions.")), 400
    s = L.start(db, a)
    db.commit()
    _announce(cls.id, {"kind": "state", "version": s.version})
    return redirect(url_for("live.teacher", sid=s.id))


def _question_context(a: Assignment, n: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    found = C.class_exercise(a, n)
    if found is None:
        return None
    ex, q = found
    return exercise_context(ex, f"live-{a.id}-{n}"), q


def _panels(db: Session, s: LiveSession, a: Assignment) -> dict[str, Markup]:
    """The teacher's live bar and leaderboard, as HTML (the page and the stream draw the same)."""
    questions = L.questions_of(a)
    stats = L.stats(db, s, questions)
    board = L.leaderboard(db, s, questions)
    return {"bar": Markup(render_template("live/_bar.html", s=s, stats=stats, total=len(questions))),
            "board": Markup(render_template("live/_board.html", board=board[:10], s=s))}


@bp.get("/teach/live/<int:sid>")
@login_required
def teacher(sid: int) -> ResponseReturnValue:
    s, cls, a = _my_session(sid)
    db = get_session()
    questions = L.questions_of(a)
    shown = _question_context(a, s.position) if s.state in ("question", "revealed") else None
    key = None
    if shown is not None and s.state == "revealed":
        ex = exercise_of(shown[1])
        try:
            key = answer_text(ex, kinds.expected_answer(ex)[0])
        except Exception:  # noqa: BLE001 - a question the engine cannot answer shows no key, never a 500
            key = None
    return render_template("live/teacher.html", s=s, cls=cls, a=a, total=len(questions), x=shown[0] if shown else None,
                           points=C.points_of(shown[1]) if shown else None, key=key,
                           game=ruleset_name(exercise_of(shown[1]).ruleset or "") if shown else "",
                           learner_url=url_for("live.learner", cid=cls.id, _external=True),
                           events=url_for("live.teacher_events", sid=s.id), **_panels(db, s, a))


@bp.post("/teach/live/<int:sid>/next")
@login_required
def next_step(sid: int) -> ResponseReturnValue:
    s, cls, a = _my_session(sid)
    db = get_session()
    at = request.form.get("version", type=int)
    if L.advance(db, s, len(L.questions_of(a)), at_version=at):
        db.commit()
        _announce(cls.id, {"kind": "state", "version": s.version})
    else:
        db.rollback()
    return redirect(url_for("live.teacher", sid=sid))


@bp.post("/teach/live/<int:sid>/end")
@login_required
def end(sid: int) -> ResponseReturnValue:
    s, cls, _a = _my_session(sid)
    db = get_session()
    if L.end(db, s):
        db.commit()
        _announce(cls.id, {"kind": "state", "version": s.version})
    return redirect(url_for("live.teacher", sid=sid))


def _sse(event: str, data: dict[str, Any], eid: int | None = None) -> str:
    head = f"id: {eid}\n" if eid is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _stream(classroom_id: int, read: Callable[[Session], tuple[Any, dict[str, Any] | None, bool]],
            on_answer: bool) -> Response:
    """An event stream of the class's channel: ``read(db)`` gives ``(key, event data or None,
    done)`` — an event is sent when the key changes (and at the start); ``on_answer`` also sends
    one for every answer announced. Ends when ``done`` or after ``LIVE_STREAM_SECONDS``."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    lifetime = float(app.config.get("LIVE_STREAM_SECONDS", 300))
    ps = _pubsub()
    make_session = app.extensions["tutor_db"]
    get_session().close()  # the request's session gives its connection back: the stream reads with its own

    def fresh() -> tuple[Any, dict[str, Any] | None, bool]:
        db = make_session()
        try:
            return read(db)
        finally:
            db.close()

    def events() -> Iterator[str]:
        with ps.subscribe(L.channel(classroom_id)) as sub:
            key, data, done = fresh()
            yield "retry: 2000\n\n" + _sse("state" if not on_answer else "update", data or {})
            ends = time.monotonic() + lifetime
            while not done and time.monotonic() < ends:
                msg = sub.get(timeout=min(RECHECK, max(ends - time.monotonic(), 0.0)))
                if msg is None or msg.get("kind") == "state" or (on_answer and msg.get("kind") == "answer"):
                    new_key, data, done = fresh()
                    if new_key != key or (msg is not None and msg.get("kind") == "answer"):
                        key = new_key
                        yield _sse("state" if not on_answer else "update", data or {})
                        continue
                yield ": keep-alive\n\n"

    response = Response(stream_with_context(events()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    # never read the stream into a list (werkzeug does so implicitly when something asks for the
    # length, as the request log does): the events must leave as they come
    response.implicit_sequence_conversion = False
    return response


@bp.get("/teach/live/<int:sid>/events")
@login_required
def teacher_events(sid: int) -> ResponseReturnValue:
    _s, cls, _a = _my_session(sid)

    def read(db: Session) -> tuple[Any, dict[str, Any] | None, bool]:
        now_s = db.get(LiveSession, sid)
        a = db.get(Assignment, now_s.assignment_id) if now_s is not None else None
        if now_s is None or a is None:
            return None, {"version": 0}, True
        data = {"version": now_s.version, **_panels(db, now_s, a)}
        return data, data, False  # any change: a move, an answer, a learner who joined (seen at the next recheck)

    return _stream(cls.id, read, on_answer=True)


# --------------------------------------------------------------------------------------- learner

def _member(cid: int) -> tuple[Classroom, int]:
    learner = current_learner()
    db = get_session()
    cls = db.get(Classroom, cid)
    if learner is None or cls is None or C.membership(db, cid, learner.id) is None:
        abort(404)
    return cls, learner.id


@bp.get("/classes/<int:cid>/live")
def learner(cid: int, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    cls, lid = _member(cid)
    db = get_session()
    s = L.latest(db, cid)
    ctx: dict[str, Any] = {"cls": cls, "s": s, "events": url_for("live.learner_events", cid=cid), "x": None,
                           "mine": None, "board": [], "me": None, "total": 0, "shut": S.archived(cls)}
    if s is not None:
        a = db.get(Assignment, s.assignment_id)
        questions = L.questions_of(a) if a is not None else []
        ctx |= {"a": a, "total": len(questions)}
        if a is not None and s.state in ("question", "revealed") and 1 <= s.position <= len(questions):
            ex, q = C.class_exercise(a, s.position)  # type: ignore[misc]
            mine_ = L.my_answer(db, s, lid, s.position)
            ctx |= {"mine": mine_, "points": C.points_of(q), "game": ruleset_name(ex.ruleset or "")}
            if s.state == "question" and mine_ is None and ctx["shut"] is None:
                ctx["x"] = exercise_context(ex, f"live-{s.id}-{s.position}", error=error)
                ctx["action"] = url_for("live.answer", cid=cid, sid=s.id, n=s.position)
            elif s.state == "revealed" and mine_ is not None:  # the result is out: the learner's own answer's verdict
                ctx["x"] = exercise_context(ex, f"live-{s.id}-{s.position}", verdict=X.grade(ex, mine_.given))
        if s.state in ("revealed", "ended"):
            board = L.leaderboard(db, s, questions)
            ctx |= {"board": board[:5], "me": next((e for e in board if e.learner_id == lid), None)}
    return render_template("live/learner.html", **ctx), status


@bp.post("/classes/<int:cid>/live/<int:sid>/<int:n>")
@limited("answer")
def answer(cid: int, sid: int, n: int) -> ResponseReturnValue:
    _cls, lid = _member(cid)
    db = get_session()
    s = db.get(LiveSession, sid)
    if s is None or s.classroom_id != cid:
        abort(404)
    a = db.get(Assignment, s.assignment_id)
    found = C.class_exercise(a, n) if a is not None else None
    if found is None:
        abort(404)
    ex, _q = found
    try:
        given = X.read_form(ex, request.form)
        verdict = X.grade(ex, given)
    except BadInput as e:
        if wants_fragment() and s.state == "question" and s.position == n:
            x = exercise_context(ex, f"live-{s.id}-{n}", error=e.message, typed=request.form.to_dict(flat=False))
            x["action"] = url_for("live.answer", cid=cid, sid=sid, n=n)
            return render_template("_fragment.html", x=x), 400
        return learner(cid, error=e.message, status=400)
    outcome = L.answer(db, s, lid, n, verdict)
    if outcome == "archived":
        return learner(cid, status=403)  # the page with the class's notice, nothing recorded
    if outcome == "recorded":
        _announce(cid, {"kind": "answer", "n": n})
    if wants_fragment():
        if outcome != "recorded":
            return Response(status=409)  # tutor.js sends the form again without script: the page as it is now
        return render_template("live/_received.html")
    return redirect(url_for("live.learner", cid=cid))


@bp.get("/classes/<int:cid>/live/events")
def learner_events(cid: int) -> ResponseReturnValue:
    cls, _lid = _member(cid)

    def read(db: Session) -> tuple[Any, dict[str, Any] | None, bool]:
        snap = L.snapshot(db, cls.id)
        return snap, snap.as_json(), False

    return _stream(cls.id, read, on_answer=False)
