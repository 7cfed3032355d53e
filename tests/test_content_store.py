"""The content store (tutor/content/store.py): every lesson and quiz is loaded once, by
create_app, kept on the app, and broken content stops start-up with ``file:line: message``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from web_support import migrated_database

from tutor import i18n
from tutor.content import lessons, quizzes
from tutor.content.exercise import RULESETS
from tutor.content.lessons import content_root
from tutor.content.store import ContentStore
from tutor.i18n import LANGUAGES
from tutor.problems import ContentError
from tutor.web import create_app
from tutor.web import exercises as X


def _config(tmp_path: Path) -> dict:
    return {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "inst"), "SECRET_KEY": "k",
            "DATABASE_URL": migrated_database(tmp_path / "db.sqlite3")}


def _content_copy(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    for d in ("lessons", "quizzes"):
        shutil.copytree(content_root() / d, root / d)
    return root


def test_create_app_loads_every_lesson_and_quiz_before_the_first_request(tmp_path, monkeypatch):
    app = create_app(_config(tmp_path))
    store = app.extensions["tutor_content"]
    shared = ContentStore.shared()
    assert store is not shared  # the app's own, loaded by create_app
    assert set(store.paths) == {(r, lang) for r in RULESETS for lang in LANGUAGES}
    for r in RULESETS:
        assert len(shared.lesson_path(r, "en")) >= 25
        for lang in LANGUAGES:
            assert [s.id for s in store.lesson_path(r, lang)] == [s.id for s in shared.lesson_path(r, "en")]
            assert store.lesson_path(r, lang).steps[0].lang == lang  # translated, not the English fill-in
        assert len(store.quiz_questions(r)) >= 60
    # No request reads a content file any more: loading now would fail the request.
    def no_loading(*_a, **_k):
        raise AssertionError("content loaded during a request")

    monkeypatch.setattr(lessons, "load_step", no_loading)
    monkeypatch.setattr(quizzes, "load_quiz_file", no_loading)
    client = app.test_client()
    for lang in LANGUAGES:
        for r in RULESETS:
            step = store.lesson_path(r, lang).steps[1]
            html = client.get(f"/{lang}/learn/{r}/{step.id}").get_data(as_text=True)
            assert step.title in html
    question = store.quiz_questions("hokm")[0]
    r = client.get(f"/api/v1/exercises/{X.ref_of(question)}")
    assert r.status_code == 200 and r.get_json()["id"] == f"quiz:{question.id}"


def test_look_ups_read_the_current_apps_store(tmp_path, monkeypatch):
    root = _content_copy(tmp_path)
    step_file = min((root / "lessons" / "hokm" / "en").glob("*.md"))
    text = step_file.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    step_file.write_text(text.replace(title, 'title: "A title only this copy has"'), encoding="utf-8")
    monkeypatch.setenv("TUTOR_CONTENT_DIR", str(root))
    app = create_app(_config(tmp_path))
    monkeypatch.delenv("TUTOR_CONTENT_DIR")
    with app.app_context():
        assert X.lesson_path("hokm").steps[0].title == "A title only this copy has"
        assert X.content() is app.extensions["tutor_content"]
    assert X.lesson_path("hokm").steps[0].title != "A title only this copy has"  # outside: the repository's
    first = X.lesson_path("hokm").steps[0].id
    html = app.test_client().get(f"/en/learn/hokm/{first}").get_data(as_text=True)
    assert "A title only this copy has" in html


def _break_a_lesson(root: Path) -> tuple[Path, int]:
    """Make the ``order`` of the first Bulgarian Hokm step not a number; returns (file, line)."""
    path = min((root / "lessons" / "hokm" / "bg").glob("*.md"))
    lines = path.read_text(encoding="utf-8").split("\n")
    n = next(i for i, line in enumerate(lines) if line.startswith("order:"))
    lines[n] = "order: first"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, n + 1


def test_a_broken_lesson_file_stops_start_up_with_file_and_line(tmp_path, monkeypatch):
    root = _content_copy(tmp_path)
    path, line = _break_a_lesson(root)
    monkeypatch.setenv("TUTOR_CONTENT_DIR", str(root))
    with pytest.raises(ContentError) as e:
        create_app(_config(tmp_path))
    assert [str(p) for p in e.value.problems] == [
        f"{path}:{line}: front matter: order must be a positive whole number, not 'first'"]


def test_tutor_serve_refuses_broken_content_with_file_and_line(tmp_path):
    root = _content_copy(tmp_path)
    path, line = _break_a_lesson(root)
    env = dict(os.environ, TUTOR_CONTENT_DIR=str(root), TUTOR_INSTANCE_PATH=str(tmp_path / "inst"))
    done = subprocess.run([sys.executable, "-m", "tutor.cli", "serve", "--port", "9"], env=env, cwd=root, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    shown = path.relative_to(root)  # relative to the current folder, as tutor check prints it
    assert f"{shown}:{line}: front matter: order must be a positive whole number, not 'first'\n" in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_content_or_catalogues_stop_start_up(tmp_path, monkeypatch):
    """A server without its lessons, quizzes or compiled catalogues does not start silently."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("TUTOR_CONTENT_DIR", str(tmp_path / "empty"))
    with pytest.raises(ContentError) as e:
        create_app(_config(tmp_path))
    assert {str(p).removeprefix(str(tmp_path / "empty") + "/") for p in e.value.problems} == (
        {f"lessons/{r}/en:0: no lessons for {r}" for r in RULESETS}
        | {f"quizzes/{r}.yaml:0: quiz file missing for {r}" for r in RULESETS})
    monkeypatch.delenv("TUTOR_CONTENT_DIR")
    monkeypatch.setattr(i18n.registry, "LOCALES_DIR", tmp_path / "no-locales")
    with pytest.raises(ContentError) as e:
        create_app(_config(tmp_path), content=ContentStore.shared())
    assert [str(p) for p in e.value.problems] == [
        f"{tmp_path}/no-locales/{lang}/LC_MESSAGES/messages.mo:0: compiled catalogue missing (pybabel compile -d locales)"
        for lang in LANGUAGES]
