"""The installed package (a wheel, not an editable checkout) carries its lessons, quizzes,
compiled catalogues and migrations, and serves them from any folder."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest
from markupsafe import escape
from web_support import server_process

from tutor import i18n, shipped_content
from tutor.content.exercise import RULESETS
from tutor.content.store import ContentStore
from tutor.i18n import LANGUAGES

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
#: UI strings of a lesson step page (templates base.html, step.html), translated in every catalogue.
UI_STRINGS = ("Card rules tutor", "Goal:", "Rules taught:")


def test_the_package_list_names_every_folder_of_tutor():
    """pyproject lists the packages (a package-dir mapping needs that): every folder of tutor/
    with files is listed, and the content packages map to the top-level folders."""
    on_disk = {".".join(p.relative_to(REPO).parts) for p in (REPO / "tutor").rglob("*")
               if p.is_dir() and p.name != "__pycache__" and any(f.is_file() for f in p.iterdir())}
    on_disk.add("tutor")
    content = {f"tutor._content.{name}": name for name in ("lessons", "quizzes", "locales")}
    assert set(SETUPTOOLS["packages"]) == on_disk | set(content)
    assert SETUPTOOLS["package-dir"] == content
    assert shipped_content() == REPO  # in a checkout the loaders read the top-level folders


def _copy_sources(dest: Path) -> Path:
    """The files a build reads (so the build writes nothing into the checkout)."""
    dest.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    for name in ("tutor", "lessons", "quizzes", "locales"):
        shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        assert r.status == 200
        return r.read().decode()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel of this checkout installed (not editable, no dependencies:
    they come from this test environment's site-packages through a .pth file, offline)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = _copy_sources(tmp / "src")
    dist = tmp / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
                   check=True, capture_output=True, cwd=tmp)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()]
    (Path(purelib) / "test-environment.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    wheel = next(dist.glob("tutor-*.whl"))
    subprocess.run([*pip, "--python", str(py), "install", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    return venv


def test_the_wheel_holds_content_catalogues_and_migrations(installed):
    names = set(zipfile.ZipFile(next((installed.parent / "dist").glob("tutor-*.whl"))).namelist())
    lessons = [p.relative_to(REPO).as_posix() for p in (REPO / "lessons").rglob("*.md")]
    assert len(lessons) > 300
    assert {f"tutor/_content/{p}" for p in lessons} <= names
    assert {f"tutor/_content/quizzes/{r}.yaml" for r in RULESETS} <= names
    assert {f"tutor/_content/locales/{lang}/LC_MESSAGES/messages.mo" for lang in LANGUAGES} <= names
    assert {f"tutor/_content/locales/{lang}/language.yaml" for lang in LANGUAGES} <= names  # the registry
    assert {"tutor/migrations/env.py", "tutor/migrations/versions/0001_baseline.py",
            "tutor/migrations/script.py.mako", "tutor/web/templates/step.html"} <= names
    assert not any(n.startswith(("lessons/", "quizzes/", "locales/")) for n in names)


def test_the_installed_server_serves_lessons_in_every_language_from_another_folder(installed, tmp_path):
    py, tutor = installed / "bin" / "python", installed / "bin" / "tutor"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_CONTENT_DIR", "TUTOR_DATABASE_URL", "PYTHONPATH")}
    env["TUTOR_INSTANCE_PATH"] = str(tmp_path / "inst")
    where = subprocess.run([str(py), "-c", "import tutor; print(tutor.__file__); print(tutor.shipped_content())"],
                           check=True, capture_output=True, text=True, cwd=elsewhere, env=env).stdout.split()
    assert where[0].startswith(str(installed)) and where[1].endswith("tutor/_content")
    with server_process([str(tutor), "serve", "--port", "{port}"], tmp_path / "serve.log", env=env, cwd=elsewhere) as server:
        server.wait_ready("/healthz")
        port = server.port
        store = ContentStore.shared(REPO)  # what the checkout's files say
        for lang in LANGUAGES:
            for ruleset in RULESETS:
                step = store.lesson_path(ruleset, lang).steps[2]
                assert step.lang == lang and step.path.startswith(("lessons/", str(REPO)))
                html = _get(f"http://127.0.0.1:{port}/{lang}/learn/{ruleset}/{step.id}")
                assert f'<html lang="{lang}"' in html
                assert str(escape(step.title)) in html and str(escape(step.goal)) in html
                for text in UI_STRINGS:
                    with i18n.using(lang):
                        translated = i18n.gettext(text)
                    assert lang == "en" or translated != text, (lang, text)
                    assert str(escape(translated)) in html, (lang, text)
    assert not (elsewhere / "instance").exists() and (tmp_path / "inst" / "tutor.sqlite3").exists()
