"""Teacher tools (issue 8): log-in, per-teacher isolation, quiz authoring checked by the engine,
classes, class quizzes that record every attempt, results, statistics and CSV.

Every test that writes runs on SQLite and on PostgreSQL (``both_databases``).

Authoring, class-quiz attempts and statistics are in test_teach_authoring, test_teach_attempts and
test_teach_statistics; the helpers and the ``teachers`` fixture every teacher test uses are in
teach_support (imported here by name, which also keeps ``from teach_support import ...`` working).
"""

from __future__ import annotations

import io
import re

import pytest
from teach_support import (  # noqa: F401  (teachers: the fixture, used by name)
    DUE,
    PASSWORDS,
    TRICK,
    add_authored,
    add_generated,
    add_generated_form,
    answer,
    assign,
    class_with_quiz,
    join,
    login,
    new_class,
    new_quiz,
    post,
    quiz_doc,
    teachers,
)
from web_support import app_with_teachers, counted, csrf_of, dispose, make_app

from tutor.web.accounts import check_password, hash_password

pytestmark = pytest.mark.both_databases

# ------------------------------------------------------------------------------------------ accounts

def test_password_hashes_are_argon2_and_checked():
    h = hash_password("a long password")
    assert h.startswith("$argon2id$")
    assert check_password(h, "a long password") and not check_password(h, "another password")
    assert not check_password(None, "a long password")


def test_every_teacher_page_sends_a_visitor_to_log_in(app):
    """Walk the url_map: every teacher endpoint but log-in and sign-up redirects a visitor."""
    client = app.test_client()
    token = csrf_of(client.get("/en/teach/login").text)
    seen = 0
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("teach.") or rule.endpoint in (
                "teach.login", "teach.login_post", "teach.signup", "teach.signup_page"):
            continue
        url = rule.rule.replace("<lang>", "en")
        url = re.sub(r"<(?:int:)?[a-z]+>", "1", url)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            r = client.open(url, method=method, data={"csrf_token": token} if method == "POST" else None)
            assert r.status_code == 302, (method, url, r.status_code)
            assert r.headers["Location"].startswith("/en/teach/login"), (method, url)
            seen += 1
    assert seen >= 15


def test_wrong_password_is_refused_beside_the_form(app):
    client = app.test_client()
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": "ana", "password": "nope"})
    assert r.status_code == 400 and "The name or the password is wrong." in r.text
    r = client.post("/en/teach/login", data={"name": "ana", "password": PASSWORDS["ana"]})
    assert r.status_code == 400  # no CSRF token
    assert client.get("/en/teach/").status_code == 302
    for evil in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        r = client.post(f"/en/teach/login?next={evil}", data={"csrf_token": csrf_of(page.text), "name": "ana",
                                                              "password": PASSWORDS["ana"]})
        assert r.status_code == 302 and r.headers["Location"] == "/en/teach/", evil


def test_signup_is_off_by_default(app):
    assert app.test_client().get("/en/teach/signup").status_code == 404


def test_teacher_cli_adds_a_teacher(app, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setenv("TUTOR_DATABASE_URL", app.config["DATABASE_URL"])
    assert cli.main(["teacher", "add", "carla", "--generate"]) == 0
    out = capsys.readouterr().out
    password = re.search(r"password: (\S+)", out).group(1)
    assert len(password) >= 16
    assert cli.main(["teacher", "add", "carla", "--generate"]) == 2
    assert "already a teacher called 'carla'" in capsys.readouterr().err
    client = app.test_client()
    page = client.get("/en/teach/login")
    r = client.post("/en/teach/login", data={"csrf_token": csrf_of(page.text), "name": "carla", "password": password})
    assert r.status_code == 302 and r.headers["Location"] == "/en/teach/"


# ------------------------------------------------------------------------------------------ isolation

def test_teacher_a_gets_404_for_teacher_b(app):
    a = login(app.test_client(), "ana")
    qid = new_quiz(a)
    assert add_authored(a, qid, TRICK, "4").status_code == 302
    cid, _code = new_class(a)
    aid = assign(a, cid, qid)
    b = login(app.test_client(), "bob")
    for url in (f"/en/teach/quizzes/{qid}", f"/en/teach/quizzes/{qid}/questions/1/preview",
                f"/en/teach/classes/{cid}", f"/en/teach/classes/{cid}/qr.svg",
                f"/en/teach/classes/{cid}/assignments/{aid}", f"/en/teach/classes/{cid}/assignments/{aid}/results.csv"):
        assert a.get(url).status_code == 200, url
        assert b.get(url).status_code == 404, url
    r = post(b, f"/en/teach/quizzes/{qid}/questions/1", {"action": "delete"}, page="/en/teach/")
    assert r.status_code == 404
    assert len(quiz_doc(app, qid)["questions"]) == 1
    qr = a.get(f"/en/teach/classes/{cid}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and b'xmlns="http://www.w3.org/2000/svg"' in qr.data
    # bob cannot assign ana's quiz to his own class either
    bcid, _ = new_class(b, "bob's")
    r = post(b, f"/en/teach/classes/{bcid}", {"what": f"quiz:{qid}"})
    assert r.status_code == 400  # not one of his choices: a message beside the field
    assert "Not a valid choice" in r.text


def test_a_learner_cannot_see_another_class(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4")
    c1, code1 = new_class(t, "Class Alpha")
    c2, _code2 = new_class(t, "Class Beta")
    a1, a2 = assign(t, c1, qid), assign(t, c2, qid)
    learner = app.test_client()
    join(learner, code1, "Zari")
    assert learner.get(f"/en/classes/{c1}/assignments/{a1}/results").status_code == 200
    for url in (f"/en/classes/{c2}/assignments/{a2}/results", f"/en/classes/{c2}/assignments/{a2}/1",
                f"/en/classes/{c1}/assignments/{a2}/1", f"/en/classes/{c2}/assignments/{a2}/"):
        assert learner.get(url).status_code == 404, url
    # and the teacher's results pages are behind the log-in
    r = learner.get(f"/en/teach/classes/{c1}/assignments/{a1}")
    assert r.status_code == 302 and "/teach/login" in r.headers["Location"]
    r = learner.get("/en/classes/")
    assert "Class Alpha" in r.text and "Class Beta" not in r.text


# ------------------------------------------------------------------------------------------ class quiz

# ------------------------------------------------------------------------------------------ more

def test_signup_when_turned_on_and_the_login_limit(tmp_path, app_database):
    app = make_app(tmp_path, DATABASE_URL=app_database, TEACHER_SIGNUP=True,
                   RATE_LIMITS={"login": counted("3/day"), "join-guess": counted("2/day")})
    try:
        c = app.test_client()
        page = c.get("/en/teach/signup")
        assert page.status_code == 200
        r = c.post("/en/teach/signup", data={"csrf_token": csrf_of(page.text), "name": "dina", "password": "short"})
        assert r.status_code == 400 and 'id="password-error"' in r.text
        r = c.post("/en/teach/signup", data={"csrf_token": csrf_of(page.text), "name": "dina",
                                              "password": "dina-password-1"})
        assert r.status_code == 302 and c.get("/en/teach/").status_code == 200
        other = app.test_client()
        token = csrf_of(other.get("/en/teach/login").text)
        r = other.post("/en/teach/login", data={"csrf_token": token, "name": "dina", "password": "wrong-password"})
        assert r.status_code == 400  # the two sign-up POSTs and this one: 3 of 3 from this address
        r = other.post("/en/teach/login", data={"csrf_token": token, "name": "dina", "password": "dina-password-1"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        # the log-in page again, the message above the form, the name kept and the password not
        from lxml import html as lxml_html

        doc = lxml_html.fromstring(r.text)
        assert doc.cssselect(".form-error")[0].text_content() == (
            "Too many log-in attempts in a short time. Wait a little, then try again.")
        assert doc.get_element_by_id("name").get("value") == "dina"
        assert doc.get_element_by_id("password").get("value") in (None, "")
        # joining with a code is limited too, and an unknown code is a message beside the field
        learner = app.test_client()
        token = csrf_of(learner.get("/en/join").text)
        for _ in range(2):
            r = learner.post("/en/join", data={"csrf_token": token, "code": "NOPE", "nickname": "Zari"})
            assert r.status_code == 400 and "There is no class with this code." in r.text
        r = learner.post("/en/join", data={"csrf_token": token, "code": "NOPE", "nickname": "Zari"})
        assert r.status_code == 429 and "Retry-After" in r.headers
    finally:
        dispose(app)


class _Terminal(io.StringIO):
    """Standard input as a terminal (``isatty``), with nothing typed ahead."""

    def isatty(self) -> bool:
        return True


def test_teacher_cli_asks_for_the_password(app, monkeypatch, capsys):
    from tutor import cli

    monkeypatch.setenv("TUTOR_DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setattr("sys.stdin", _Terminal())  # typed at a terminal: asked twice (piped: tests/test_cli_errors.py)
    answers = iter(["a-typed-password", "a-typed-password"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    assert cli.main(["teacher", "add", "emil"]) == 0
    assert capsys.readouterr().out == "teacher emil added\n"
    answers = iter(["one-password-1", "another-password"])
    assert cli.main(["teacher", "add", "fred"]) == 2
    assert "the two passwords differ" in capsys.readouterr().err
    answers = iter(["short", "short"])
    assert cli.main(["teacher", "add", "fred"]) == 2
    assert "at least 10 characters" in capsys.readouterr().err


def test_guesses_at_one_teacher_from_many_addresses_share_one_budget(tmp_path, app_database):
    """The per-address log-in limit does not stop guesses spread over many addresses; the per-name
    budget does (names compared trimmed and case-folded), and another teacher's log-in is not
    affected."""

    app = app_with_teachers(tmp_path, app_database, {"dina": "dina-password-1", "omid": "omid-password-1"},
                            RATE_LIMITS={"login": "100/minute", "login-name": counted("3/day")})
    try:
        statuses = []
        for i, name in enumerate(["dina", " DINA", "Dina ", "dina"]):
            c = app.test_client()
            token = csrf_of(c.get("/en/teach/login").text)
            r = c.post("/en/teach/login", data={"csrf_token": token, "name": name, "password": "wrong-password"},
                       environ_base={"REMOTE_ADDR": f"198.51.100.{i + 1}"})
            statuses.append(r.status_code)
        assert statuses == [400, 400, 400, 429]  # four addresses, one name: the fourth guess refused
        c = app.test_client()
        token = csrf_of(c.get("/en/teach/login").text)
        r = c.post("/en/teach/login", data={"csrf_token": token, "name": "omid", "password": "omid-password-1"},
                   environ_base={"REMOTE_ADDR": "198.51.100.9"})
        assert r.status_code == 302  # another name: its own budget
    finally:
        dispose(app)
