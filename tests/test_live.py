"""Live sessions (tutor/domain/live.py, tutor/web/views/live.py): starting, advancing, answering
and the leaderboard; the publish/subscribe in memory and in Redis; the event streams; and two
gunicorn processes sharing one database and one Redis, a learner on one seeing the teacher's
advance made on the other within a second."""

from __future__ import annotations

import http.client
import json
import queue
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select
from teach_support import assign, class_with_quiz, join, login, new_class, post, quiz_doc, teachers  # noqa: F401
from web_support import READY_WITHIN, csrf_of, form_for, free_port, wrong_value

from tutor.content import kinds
from tutor.domain import pubsub
from tutor.domain.models import LiveAnswer, LiveSession
from tutor.domain.quizdoc import exercise_of

# ------------------------------------------------------------------------------------- pubsub


def test_memory_pubsub_delivers_to_each_subscriber_once_in_order_and_nothing_before_subscribing():
    ps = pubsub.MemoryPubSub()
    assert ps.publish("c", {"kind": "state", "version": 1})  # nobody listens: lost, as in Redis
    with ps.subscribe("c") as a, ps.subscribe("c") as b, ps.subscribe("other") as o:
        assert ps.subscribers("c") == 2
        ps.publish("c", {"kind": "state", "version": 2})
        ps.publish("c", {"kind": "answer", "n": 1})
        assert a.get(1) == {"kind": "state", "version": 2}
        assert a.get(1) == {"kind": "answer", "n": 1}
        assert b.get(1) == {"kind": "state", "version": 2}
        assert b.get(1) == {"kind": "answer", "n": 1}
        assert a.get(0) is None and o.get(0) is None
    assert ps.subscribers("c") == 0


def test_memory_pubsub_wakes_a_waiting_subscriber_from_another_thread():
    ps = pubsub.MemoryPubSub()
    got: list[tuple[dict | None, float]] = []
    ready = threading.Event()

    def wait() -> None:
        with ps.subscribe("c") as sub:
            ready.set()
            start = time.monotonic()
            got.append((sub.get(10), time.monotonic() - start))

    t = threading.Thread(target=wait)
    t.start()
    assert ready.wait(10)
    ps.publish("c", {"v": 3})
    t.join(10)
    assert got[0][0] == {"v": 3}
    assert got[0][1] < 5  # woken by the message, not by the 10 s timeout


def test_from_url_picks_redis_for_a_redis_url_and_memory_otherwise():
    assert isinstance(pubsub.from_url(""), pubsub.MemoryPubSub)
    assert isinstance(pubsub.from_url(None), pubsub.MemoryPubSub)
    assert isinstance(pubsub.from_url("redis://127.0.0.1:6379/0"), pubsub.RedisPubSub)


def test_redis_pubsub_carries_messages_between_two_clients(redis_url):
    prefix = f"test-{secrets.token_hex(4)}:"
    a, b = pubsub.RedisPubSub(redis_url, prefix), pubsub.RedisPubSub(redis_url, prefix)
    with a.subscribe("live:1") as sub, a.subscribe("live:2") as other:
        start = time.monotonic()
        assert b.publish("live:1", {"kind": "state", "version": 7})
        assert sub.get(5) == {"kind": "state", "version": 7}
        assert time.monotonic() - start < 1
        assert other.get(0.2) is None  # another channel hears nothing
        assert sub.get(0.2) is None  # each message once


def test_redis_pubsub_publish_to_an_unreachable_redis_is_false_not_an_error():
    ps = pubsub.RedisPubSub(f"redis://127.0.0.1:{free_port()}/0")
    assert ps.publish("live:1", {"kind": "state"}) is False
    with ps.subscribe("live:1") as sub:
        assert sub.get(0.1) is None


def test_the_app_publishes_through_redis_when_told_and_in_memory_otherwise(tmp_path, redis_url):
    from web_support import dispose, make_app

    app = make_app(tmp_path / "a", PUBSUB_URL=redis_url)
    assert isinstance(app.extensions["tutor_pubsub"], pubsub.RedisPubSub)
    dispose(app)
    app = make_app(tmp_path / "b", PUBSUB_URL="")
    assert isinstance(app.extensions["tutor_pubsub"], pubsub.MemoryPubSub)
    dispose(app)


# ------------------------------------------------------------------------------------- the flow

def _start(t, cid, aid) -> int:
    r = post(t, f"/en/teach/classes/{cid}/assignments/{aid}/live", {}, page=f"/en/teach/classes/{cid}")
    assert r.status_code == 302, r.text
    return int(re.search(r"/teach/live/(\d+)$", r.headers["Location"]).group(1))


def _next(t, sid, version=None):
    page = t.get(f"/en/teach/live/{sid}").text
    if version is None:
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
    r = t.post(f"/en/teach/live/{sid}/next", data={"csrf_token": csrf_of(page), "version": str(version)})
    assert r.status_code == 302
    return r


def _answer(client, cid, sid, n, fields):
    page = client.get(f"/en/classes/{cid}/live")
    return client.post(f"/en/classes/{cid}/live/{sid}/{n}", data={"csrf_token": csrf_of(page.text), **fields})


def _state(app, sid) -> tuple[str, int, int]:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        s = db.get(LiveSession, sid)
        out = (s.state, s.position, s.version)
        db.close()
    return out


def _answers(app) -> int:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        n = db.scalar(select(func.count()).select_from(LiveAnswer))
        db.close()
    return n


def _board(html: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<span class="live-place">(\S+)</span> <bdi class="live-who">([^<]+)</bdi> '
                      r'<span class="live-points">([^<]+)</span>', html)


def test_a_live_session_from_the_lobby_to_the_final_leaderboard(app):
    t, qid, cid, code, aid = class_with_quiz(app)
    ava, ben, cy = app.test_client(), app.test_client(), app.test_client()
    join(ava, code, "Ava")
    join(ben, code, "Ben")
    join(cy, code, "Cy")
    assert 'Run it live' in t.get(f"/en/teach/classes/{cid}").text  # linked from the class page
    sid = _start(t, cid, aid)
    assert _state(app, sid) == ("lobby", 0, 1)
    assert f"/en/classes/{cid}/live" in ava.get("/en/classes/").text  # the learner's class page links to it
    page = ava.get(f"/en/classes/{cid}/live").text
    assert "Wait for your teacher to show the first question." in page
    assert 'class="answer-form"' not in page
    assert "Learners in the class: 3" in t.get(f"/en/teach/live/{sid}").text

    _next(t, sid)
    assert _state(app, sid) == ("question", 1, 2)
    questions = quiz_doc(app, qid)["questions"]
    ex1 = exercise_of(questions[0])
    right1 = kinds.expected_answer(ex1)[0]
    page = ava.get(f"/en/classes/{cid}/live").text
    assert f'action="/en/classes/{cid}/live/{sid}/1"' in page and "Question 1 of 2" in page
    assert 'class="verdict' not in page and "The right answer" not in page  # no key before the answer

    assert _answer(ava, cid, sid, 1, form_for(ex1, right1)).status_code == 302
    assert _answer(ben, cid, sid, 1, form_for(ex1, wrong_value(ex1, right1))).status_code == 302
    # a second answer does not replace the first
    assert _answer(ben, cid, sid, 1, form_for(ex1, right1)).status_code == 302
    assert _answers(app) == 2
    # answered, not yet revealed: no verdict, no key, no score
    for who in (ava, ben):
        page = who.get(f"/en/classes/{cid}/live").text
        assert "Your answer is in. Wait for your teacher to show the result." in page
        assert 'class="verdict good' not in page and 'class="verdict wrong' not in page
        assert "The right answer" not in page and "Leaderboard" not in page
    screen = t.get(f"/en/teach/live/{sid}").text
    assert "2 of 3 answered" in screen
    assert "The right answer" not in screen and "live-bars" not in screen  # the distribution waits for the reveal
    assert {name: pts for _p, name, pts in _board(screen)} == {"Ava": "0 points", "Ben": "0 points", "Cy": "0 points"}

    _next(t, sid)  # close and reveal
    assert _state(app, sid) == ("revealed", 1, 3)
    late = _answer(cy, cid, sid, 1, form_for(ex1, right1))  # too late: the question is closed
    assert late.status_code == 302 and _answers(app) == 2
    screen = t.get(f"/en/teach/live/{sid}").text
    assert "2 of 3 answered" in screen and "Right: 1" in screen
    assert len(re.findall(r'<li class="is-right">', screen)) == 1 and len(re.findall(r'<li class="is-wrong">', screen)) == 1
    assert "The right answer" in screen
    assert _board(screen)[0] == ("1", "Ava", "1 point")
    page = ava.get(f"/en/classes/{cid}/live").text
    assert 'class="verdict good' in page and "You: place 1, 1 point" in page
    page = ben.get(f"/en/classes/{cid}/live").text
    assert 'class="verdict wrong' in page
    assert "You did not answer this question in time." in cy.get(f"/en/classes/{cid}/live").text

    # a click on a page of an older version moves nothing (two tabs, a double click)
    _next(t, sid, version=2)
    assert _state(app, sid) == ("revealed", 1, 3)

    _next(t, sid)
    assert _state(app, sid) == ("question", 2, 4)
    ex2 = exercise_of(questions[1])
    right2 = kinds.expected_answer(ex2)[0]
    assert _answer(ben, cid, sid, 2, form_for(ex2, right2)).status_code == 302
    assert _answer(cy, cid, sid, 2, form_for(ex2, right2)).status_code == 302
    _next(t, sid)
    _next(t, sid)  # after the last question: the end
    assert _state(app, sid) == ("ended", 2, 6)
    screen = t.get(f"/en/teach/live/{sid}").text
    assert "The live quiz has ended." in screen and 'name="version"' not in screen
    board = _board(screen)
    assert questions[1]["points"] == 2
    assert {b[1] for b in board[:2]} == {"Ben", "Cy"} and {b[2] for b in board[:2]} == {"2 points"}
    assert board[2] == ("3", "Ava", "1 point")
    page = ava.get(f"/en/classes/{cid}/live").text
    assert "The live quiz has ended." in page and "Leaderboard" in page


def test_equal_scores_share_a_place_and_the_faster_answers_come_first(app):
    from datetime import UTC, datetime

    from web_support import Clock

    clock = Clock(datetime(2026, 12, 3, 10, 0, tzinfo=UTC))
    app.config["CLOCK"] = clock
    t, qid, cid, code, aid = class_with_quiz(app)
    learners = {name: app.test_client() for name in ("Dee", "Eli", "Fay")}
    for name, c in learners.items():
        join(c, code, name)
    sid = _start(t, cid, aid)
    _next(t, sid)
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    right = form_for(ex1, kinds.expected_answer(ex1)[0])
    clock.advance(seconds=9)
    _answer(learners["Fay"], cid, sid, 1, right)  # 9 s
    clock.advance(seconds=-6)
    _answer(learners["Eli"], cid, sid, 1, right)  # 3 s
    _answer(learners["Dee"], cid, sid, 1, right)  # 3 s too
    _next(t, sid)
    board = _board(t.get(f"/en/teach/live/{sid}").text)
    assert board == [("1", "Dee", "1 point"), ("1", "Eli", "1 point"), ("3", "Fay", "1 point")]


def test_the_live_pages_are_only_for_their_teacher_and_their_class(app):
    t, qid, cid, code, aid = class_with_quiz(app)
    member, stranger = app.test_client(), app.test_client()
    join(member, code, "Gus")
    stranger.get("/en/join")  # has a learner id, is in no class
    sid = _start(t, cid, aid)
    bob = login(app.test_client(), "bob")
    for path in (f"/en/teach/live/{sid}", f"/en/teach/live/{sid}/events"):
        assert bob.get(path).status_code == 404
    r = post(bob, f"/en/teach/live/{sid}/next", {"version": "1"}, page="/en/teach/")
    assert r.status_code == 404 and _state(app, sid) == ("lobby", 0, 1)
    r = post(bob, f"/en/teach/classes/{cid}/assignments/{aid}/live", {}, page="/en/teach/")
    assert r.status_code == 404
    assert app.test_client().get(f"/en/teach/live/{sid}").status_code == 302  # to the log-in page
    for path in (f"/en/classes/{cid}/live", f"/en/classes/{cid}/live/events"):
        assert stranger.get(path).status_code == 404
    _next(t, sid)
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    r = _answer(member, cid, sid, 1, {"winner": "x"})
    assert r.status_code == 400 and _answers(app) == 0  # unreadable: the message, nothing kept
    page = stranger.get("/en/join").text
    r = stranger.post(f"/en/classes/{cid}/live/{sid}/1",
                      data={"csrf_token": csrf_of(page), **form_for(ex1, kinds.expected_answer(ex1)[0])})
    assert r.status_code == 404 and _answers(app) == 0


def _events(response):
    """The events of a streamed response, as (name, data) pairs, read chunk by chunk."""
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            m = re.search(r"^event: (\S+)\ndata: (.*)$", block, re.MULTILINE)
            if m:
                yield m.group(1), json.loads(m.group(2))


class Stream:
    """An event stream of the app read in a thread of its own (as a server gives each request
    one: a request's context stays pushed while its stream is read), its events in a queue."""

    def __init__(self, client, path: str) -> None:
        self.events: queue.Queue = queue.Queue()
        self.opened: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(client, path), daemon=True)
        self.thread.start()
        self.status, self.mimetype, self.asked = self.opened.get(timeout=60)

    def _read(self, client, path: str) -> None:
        asked = time.monotonic()
        r = client.get(path, buffered=False)
        self.opened.put((r.status_code, r.mimetype, asked))
        try:
            for event in _events(r):
                self.events.put((time.monotonic(), *event))
        finally:
            r.close()

    def next(self, timeout: float = 30) -> tuple[float, str, dict]:
        """(when it came, event name, data) of the next event."""
        return self.events.get(timeout=timeout)


def test_the_event_streams_tell_the_learner_of_a_move_and_the_teacher_of_an_answer(app):
    app.config["LIVE_STREAM_SECONDS"] = 20  # the streams end by themselves after the test
    t, qid, cid, code, aid = class_with_quiz(app)
    ava = app.test_client()
    join(ava, code, "Ava")
    sid = _start(t, cid, aid)
    learner = Stream(ava, f"/en/classes/{cid}/live/events")
    assert learner.status == 200 and learner.mimetype == "text/event-stream"
    at, name, data = learner.next()
    assert (name, data) == ("state", {"session": sid, "state": "lobby", "n": 0, "version": 1})
    # the first event leaves at once, not when the stream ends (nothing reads it into a list first)
    assert at - learner.asked < 10
    teacher = Stream(t, f"/en/teach/live/{sid}/events")
    _at, name, first = teacher.next()
    assert name == "update" and first["version"] == 1 and "Learners in the class: 1" in first["bar"]

    _next(t, sid)
    assert learner.next()[1:] == ("state", {"session": sid, "state": "question", "n": 1, "version": 2})
    assert teacher.next()[2]["version"] == 2
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    _answer(ava, cid, sid, 1, form_for(ex1, kinds.expected_answer(ex1)[0]))
    _at, name, data = teacher.next()
    assert name == "update" and data["version"] == 2 and "1 of 1 answered" in data["bar"]
    assert "Ava" in data["board"]
    assert learner.events.empty()  # an answer moves nothing on the learners' pages


def test_an_answer_sent_with_fetch_gets_the_received_section_and_a_late_one_409(app):
    t, qid, cid, code, aid = class_with_quiz(app)
    ava = app.test_client()
    join(ava, code, "Ava")
    sid = _start(t, cid, aid)
    _next(t, sid)
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    fields = form_for(ex1, kinds.expected_answer(ex1)[0])
    page = ava.get(f"/en/classes/{cid}/live").text
    r = ava.post(f"/en/classes/{cid}/live/{sid}/1", data={"csrf_token": csrf_of(page), **fields},
                 headers={"X-Tutor-Fetch": "1"})
    assert r.status_code == 200 and '<section class="exercise live-received"' in r.text
    assert 'class="verdict good' not in r.text
    r = ava.post(f"/en/classes/{cid}/live/{sid}/1", data={"csrf_token": csrf_of(page), **fields},
                 headers={"X-Tutor-Fetch": "1"})
    assert r.status_code == 409 and _answers(app) == 1


# -------------------------------------------------------------------- two gunicorn processes

def _gunicorn(env: dict, port: int, log: Path) -> subprocess.Popen:
    with open(log, "w") as out:
        return subprocess.Popen([sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "4", "-w", "1",
                                 "--graceful-timeout", "3", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
                                 "tutor.web:create_app()"], env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait_ready(proc: subprocess.Popen, port: int, log: Path) -> None:
    deadline = time.monotonic() + READY_WITHIN
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"gunicorn on {port} did not start: {log.read_text()[-3000:]}", pytrace=False)
        time.sleep(0.2)


def _cookie(client) -> str:
    """The session cookie of a test client, as a Cookie header for another server with the same key."""
    return f"tutor={client.get_cookie('tutor').value}"


def test_two_gunicorn_processes_and_redis_a_learner_on_one_sees_the_advance_made_on_the_other(tmp_path, redis_url,
                                                                                               teachers):  # noqa: F811
    import os

    from web_support import app_with_teachers, migrated_database

    key = secrets.token_hex(32)
    database = migrated_database(tmp_path / "live.sqlite3")
    setup = app_with_teachers(tmp_path / "setup", database, teachers, SECRET_KEY=key)
    t, _qid, cid, code, aid = class_with_quiz(setup)
    ava = setup.test_client()
    join(ava, code, "Ava")
    sid = _start(t, cid, aid)
    teacher_page = t.get(f"/en/teach/live/{sid}").text
    token = csrf_of(teacher_page)

    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTOR_")}
    env.update(TUTOR_ENV="production", TUTOR_SECRET_KEY=key, TUTOR_DATABASE_URL=database,
               TUTOR_INSTANCE_PATH=str(tmp_path / "instance"), TUTOR_COOKIE_SECURE="0", TUTOR_REDIS_URL=redis_url)
    port_a, port_b = free_port(), free_port()
    procs = [_gunicorn(env, port_a, tmp_path / "a.log"), _gunicorn(env, port_b, tmp_path / "b.log")]
    try:
        _wait_ready(procs[0], port_a, tmp_path / "a.log")
        _wait_ready(procs[1], port_b, tmp_path / "b.log")
        # the learner's event stream on A
        stream = http.client.HTTPConnection("127.0.0.1", port_a, timeout=30)
        stream.request("GET", f"/en/classes/{cid}/live/events", headers={"Cookie": _cookie(ava)})
        r = stream.getresponse()
        assert r.status == 200 and r.getheader("Content-Type", "").startswith("text/event-stream")

        def next_state() -> dict:
            data = None
            while True:
                line = r.fp.readline().decode()
                assert line, "the stream ended"
                if line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "\n" and data is not None:
                    return data

        assert next_state()["version"] == 1  # the lobby, as the stream starts
        # the teacher's advance on B
        conn = http.client.HTTPConnection("127.0.0.1", port_b, timeout=30)
        body = f"csrf_token={token}&version=1"
        sent = time.monotonic()
        conn.request("POST", f"/en/teach/live/{sid}/next", body=body,
                     headers={"Cookie": _cookie(t), "Content-Type": "application/x-www-form-urlencoded"})
        answer = conn.getresponse()
        assert answer.status == 302, answer.read()[:500]
        seen = next_state()
        delay = time.monotonic() - sent
        assert seen == {"session": sid, "state": "question", "n": 1, "version": 2}
        print(f"live advance on B seen on A after {delay * 1000:.0f} ms")
        assert delay < 1.0
        stream.close()
        conn.close()
    finally:
        for p in procs:
            p.send_signal(signal.SIGINT)
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        from web_support import dispose

        dispose(setup)


def test_deleting_a_class_or_an_assignment_deletes_its_live_sessions_and_their_answers(app):
    from tutor.domain import manage
    from tutor.domain.models import Assignment, Classroom

    t, qid, cid, code, aid = class_with_quiz(app)
    ava = app.test_client()
    join(ava, code, "Ava")
    sid = _start(t, cid, aid)
    _next(t, sid)
    ex1 = exercise_of(quiz_doc(app, qid)["questions"][0])
    assert _answer(ava, cid, sid, 1, form_for(ex1, kinds.expected_answer(ex1)[0])).status_code == 302
    assert _answers(app) == 1
    with app.app_context():
        db = app.extensions["tutor_db"]()
        manage.delete_assignment(db, db.get(Assignment, aid))
        db.commit()
        assert db.get(LiveSession, sid) is None
        db.close()
    assert _answers(app) == 0
    # a whole class, with a session of its assignment
    cid2, _code2 = new_class(t)
    sid2 = _start(t, cid2, assign(t, cid2, qid))
    with app.app_context():
        db = app.extensions["tutor_db"]()
        manage.delete_class(db, db.get(Classroom, cid2))
        db.commit()
        assert db.get(LiveSession, sid2) is None
        db.close()


def test_answers_given_live_are_in_the_class_results_grid_and_the_gradebook(app):
    """A live answer is the learner's attempt at the assignment's question: the results grid marks
    it, the gradebook counts it; the first attempt scores, so an answer on the quiz page after a live
    one does not change it."""
    from lxml import html as lxml_html
    from teach_support import answer as page_answer

    t, qid, cid, code, aid = class_with_quiz(app)
    ava, ben = app.test_client(), app.test_client()
    join(ava, code, "Ava")
    join(ben, code, "Ben")
    questions = quiz_doc(app, qid)["questions"]
    ex1, ex2 = exercise_of(questions[0]), exercise_of(questions[1])
    right1, right2 = kinds.expected_answer(ex1)[0], kinds.expected_answer(ex2)[0]
    sid = _start(t, cid, aid)
    _next(t, sid)
    assert _answer(ava, cid, sid, 1, form_for(ex1, right1)).status_code == 302
    assert _answer(ben, cid, sid, 1, form_for(ex1, wrong_value(ex1, right1))).status_code == 302
    _next(t, sid)
    _next(t, sid)
    assert _answer(ava, cid, sid, 2, form_for(ex2, right2)).status_code == 302
    # Ben answers question 1 again on the quiz page, rightly: his live answer was his first
    assert page_answer(ben, cid, aid, 1, form_for(ex1, right1)).status_code == 302

    grid = lxml_html.fromstring(t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text)
    rows = {tr.cssselect("th bdi")[0].text_content(): [c.get("class") for c in tr.cssselect("td.cell")]
            for tr in grid.cssselect(".results-table tbody tr")}
    assert rows == {"Ava": ["cell good", "cell good"], "Ben": ["cell wrong", "cell skipped"]}
    total = 1 + questions[1]["points"]
    book = lxml_html.fromstring(t.get(f"/en/teach/classes/{cid}/gradebook").text)
    marks = {tr.cssselect("th")[0].text_content(): tr.cssselect("td")[0].text_content()
             for tr in book.cssselect(".gradebook-table tbody tr")}
    assert marks == {"Ava": f"{total} of {total}", "Ben": f"0 of {total}"}
    # the learner's own class page counts the live answers too
    assert f"{total} of {total} points, 2 of 2 answered" in t.get(f"/en/teach/classes/{cid}").text
