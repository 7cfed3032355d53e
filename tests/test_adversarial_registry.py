"""Adversarial input after the redesign: the command line (`tutor db`, `tutor serve`) with bad
arguments and a bad environment, the exercise-kind registry's new kinds (next-leader, game-points)
through the API, the lesson forms and generated refs, and the practice quiz form.

Every test pins what the team's standards promise for bad input: a command line answers with one
clear line on standard error and exit status 2, never a traceback; HTTP answers 400 with a message
(a JSON error, or a form message beside the exercise with the learner kept on the page), never 500,
and writes nothing for a refused request; no page or API view shows the answer before the learner
has answered.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from web_support import all_rows, csrf_of, expected, form_for, lesson_exercise

from tutor import cli
from tutor.content.kinds import KINDS
from tutor.migrations import head

# ================================================================================ tutor db, tutor serve


def one_error_line(err: str, prefix: str) -> str:
    """The single line a command printed on standard error for bad input."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), err
    return lines[0]


@pytest.fixture
def db_env(tmp_path, monkeypatch):
    """A private instance folder and a fresh SQLite database for `tutor db`."""
    monkeypatch.setenv("TUTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    for name in ("TUTOR_ENV", "TUTOR_PROXIES"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.mark.parametrize("to", ["nope", "", "-1", "+50", "abc:def"])
def test_db_upgrade_to_a_revision_that_does_not_exist(db_env, capsys, to):
    """`tutor db upgrade --to nope` (or "", -1, +50, a range) printed Alembic's traceback and exited 1."""
    assert cli.main(["db", "upgrade", "--to", to]) == 2
    line = one_error_line(capsys.readouterr().err, "tutor db upgrade: ")
    assert "revision" in line
    assert cli.main(["db", "current"]) == 0 and capsys.readouterr().out == "none\n"  # nothing was applied


@pytest.mark.parametrize("action", ["current", "upgrade"])
@pytest.mark.parametrize("url", ["garbage", "nope://x", "sqlite:////no-such-folder/x/db.sqlite3",
                                 "postgresql+psycopg://tutor:s3cret@127.0.0.1:1/tutor"],
                         ids=["unparseable", "unknown-dialect", "no-folder", "no-server"])
def test_db_with_a_database_it_cannot_reach(db_env, monkeypatch, capsys, action, url):
    """`tutor db current` printed a traceback for any database it could not open, and `tutor db
    upgrade` for a URL SQLAlchemy cannot parse. The password never shows."""
    monkeypatch.setenv("TUTOR_DATABASE_URL", url)
    assert cli.main(["db", action]) == 2
    line = one_error_line(capsys.readouterr().err, f"tutor db {action}: ")
    assert "s3cret" not in line


BAD_ENV = [("TUTOR_ENV", "staging"), ("TUTOR_PROXIES", "abc"),
           ("TUTOR_INSTANCE_PATH", "/proc/no-such-folder"), ("TUTOR_INSTANCE_PATH", "relative/instance")]


@pytest.mark.parametrize(("name", "value"), BAD_ENV)
@pytest.mark.parametrize("action", ["current", "upgrade"])
def test_db_with_a_bad_environment(db_env, monkeypatch, capsys, name, value, action):
    """A bad TUTOR_* variable made `tutor db` print a traceback (ConfigError; FileNotFoundError for
    an instance folder it cannot make; Flask's ValueError for a relative one). `tutor db head`
    reads no configuration at all."""
    monkeypatch.setenv(name, value)
    assert cli.main(["db", action]) == 2
    one_error_line(capsys.readouterr().err, f"tutor db {action}: ")
    assert cli.main(["db", "head"]) == 0 and capsys.readouterr().out == f"{head()}\n"


@pytest.mark.parametrize("instance", ["/proc/no-such-folder", "relative/instance"])
def test_serve_with_an_instance_folder_it_cannot_use(tmp_path, instance):
    """`tutor serve` with TUTOR_INSTANCE_PATH under /proc (FileNotFoundError) or relative (Flask's
    ValueError) printed a traceback and exited 1; gunicorn's create_app() the same."""
    env = {"PATH": "/usr/bin:/bin", "TUTOR_INSTANCE_PATH": instance, "HOME": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "tutor.cli", "serve", "--port", "1"], check=False, env=env,
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2
    assert "TUTOR_INSTANCE_PATH" in one_error_line(p.stderr, "tutor serve: ")
    assert not (tmp_path / "relative").exists()


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "http"])
def test_serve_port_out_of_range_is_a_usage_error(capsys, port):
    """`tutor serve --port 99999` listened on port 34463 (99999 mod 65536), `--port -1` on another
    port: a port outside 0-65535 is a usage error (exit 2) before anything starts."""
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["serve", "--port", port])
    assert e.value.code == 2
    assert "--port" in capsys.readouterr().err



@pytest.mark.parametrize("ids", [["H" * 3000], ["H14," + "x" * 3000], ["\u202e" * 500]])
def test_rule_unknown_long_id_is_quoted_short(capsys, ids):
    """`tutor rule HHH…(3 000 characters)` repeated the whole id in its one-line message."""
    assert cli.main(["rule", *ids]) == 2
    line = one_error_line(capsys.readouterr().err, "tutor: unknown rule point ")
    assert len(line) < 300, len(line)  # 40 characters quoted, escapes and all


# ================================================================================ practice quiz form

@pytest.fixture
def app(app):
    """The shared app with its error log off (these tests make it log on purpose)."""
    app.logger.disabled = True
    return app


def page_token(client, url: str = "/en/practice/") -> str:
    return csrf_of(client.get(url).get_data(as_text=True))


def test_practice_kinds_repeated_in_the_form_are_stored_once(client, app):
    """The practice form's kinds were stored as sent: `kinds-hokm=next-leader` 2 500 times (55 KB,
    under the body limit) made a quiz row holding a 2 500-item list."""
    from sqlalchemy import select
    from werkzeug.datastructures import MultiDict

    from tutor.domain.models import Quiz

    form = MultiDict([("csrf_token", page_token(client)), ("game", "hokm"), ("count", "5"),
                      ("difficulty", "1")]
                     + [("kinds-hokm", "next-leader")] * 2500 + [("kinds-hokm", "trick-winner")])
    r = client.post("/en/practice/", data=form)
    assert r.status_code == 302
    with app.app_context():
        db = app.extensions["tutor_db"]()
        try:
            assert db.scalars(select(Quiz.kinds)).one() == ["next-leader", "trick-winner"]
        finally:
            db.close()


# ================================================================================ the new kinds

ANSWER_KEYS = {"legal", "winner", "leader", "card", "expect", "why", "awards", "trick_winners",
               "scores_after",
               "result", "next_hakem", "winner_team", "match_winner", "game_points", "points", "redeal",
               "hand_size", "runs", "correct", "expected", "verdict"}
#: Answer-like names that are inputs of some asks (who led the trick, the turned-up card).
SCENARIO_INPUTS = {"trick-winner": {"leader"}, "next-lead": {"leader"}, "turn-up": {"card"}}  # inputs that share an answer's name


def keys_of(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


@pytest.mark.parametrize(("ruleset", "kind"), [(r, k) for k, v in KINDS.items() for r in v.rulesets])
def test_public_view_of_generated_exercises_holds_no_answer(client, ruleset, kind):
    """GET /api/v1/exercises/gen:<ruleset>:<kind>:<d>:<seed> at every difficulty: only the ask's
    inputs, never the engine's answer (next-leader: no leader or winner; game-points: no
    game_points or awards)."""
    for d in (1, 2, 3):
        r = client.get(f"/api/v1/exercises/gen:{ruleset}:{kind}:{d}:5")
        assert r.status_code == 200, r.data[:200]
        view = r.get_json()
        scenario = view.pop("scenario")
        allowed = SCENARIO_INPUTS.get(scenario["ask"], set())
        assert not keys_of(view) & ANSWER_KEYS, view
        assert not (set(scenario) - allowed) & ANSWER_KEYS, scenario


ODD = ["", " ", "x", "-1", "99", "1.5", "²", "\u202e1", "\x00", "<b>1</b>", "9" * 5000, "٩٩"]


@pytest.mark.parametrize(("ruleset", "kind"), [(r, k) for r in ("all-fours", "trinidad")
                                               for k in ("next-leader", "game-points")])
def test_new_kinds_odd_form_values_are_a_message_beside_the_exercise(client, app, ruleset, kind):
    """Each field of the next-leader and game-points forms, missing or odd (blank, text, negative,
    too large, superscript or Arabic-Indic digits out of range, bidi control, NUL, markup, 5 000
    digits): 400, the step page again with the message inside this exercise's section, and
    nothing written."""
    step, ex = lesson_exercise(ruleset, kind)
    url = f"/en/learn/{ruleset}/{step.id}"
    token = page_token(client, url)
    right = form_for(ex, expected(ex))
    forms = [{k: v for k, v in right.items() if k != name} for name in right]
    forms += [right | {name: odd} for name in right for odd in ODD
              if not (name == "game" and not odd.strip())]  # a blank side is "nobody" (kinds.is_none)
    for form in forms:
        r = client.post(f"{url}/{ex.id}", data={"csrf_token": token, **form})
        assert r.status_code == 400, (form, r.status_code)
        html = r.get_data(as_text=True)
        if any("\x00" in v for v in form.values()):  # refused before any view (tutor.web.security)
            assert "not allowed (NUL)" in html, form
            continue
        section = re.search(rf'<section class="exercise[^"]*" id="ex-{re.escape(ex.id)}".*?</section>', html,
                            re.DOTALL)
        assert section and 'class="form-error"' in section.group(0), form
        assert "<b>1</b>" not in html
    assert set(all_rows(app).values()) == {0}
    r = client.post(f"{url}/{ex.id}", data={"csrf_token": token, **right})
    assert r.status_code == 302 and all_rows(app)["Attempt"] == 1


# ================================================================================ API messages

@pytest.mark.parametrize(("lang", "shown"), [("%01", '"\\u0001"'), ("it's", '"it\'s"'), ("x" * 50, '"xxxxxxxxxx')])
def test_api_unknown_language_is_quoted_json_style(client, lang, shown):
    """`?lang=%00` was answered "Unknown language '\\x00'" (Python's repr); the API's messages
    quote a bad value JSON-style, as the solve contract's do."""
    r = client.get(f"/api/v1/exercises/gen:hokm:next-leader:1:1?lang={lang}")
    assert r.status_code == 400
    message = r.get_json()["error"]["message"]
    assert message.startswith(f"Unknown language {shown}"), message
    r = client.post("/api/v1/exercises/gen:hokm:next-leader:1:1/answer", json={"answer": 0, "lang": "it's"})
    assert r.get_json()["error"]["message"].startswith('Unknown language "it\'s"')
