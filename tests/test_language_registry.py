"""The language registry (tutor.i18n.registry): a language is one folder of the locales directory.

A Spanish folder (tests/data/locale-es: its language.yaml and a small messages.po) is added to a
copy of locales/ and the app, started on that copy (TUTOR_LOCALES_DIR) in a fresh process, serves
every page type in Spanish with no code edited. A malformed language.yaml is reported as
``file:line: message`` by ``tutor check`` and stops ``tutor serve``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tutor import i18n
from tutor.i18n.registry import LANGUAGE_FILE, check_languages, load_registry
from tutor.problems import Problems

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SPANISH = TESTS / "data" / "locale-es"


def _locales_with_spanish(tmp_path: Path) -> Path:
    """A copy of locales/ with the Spanish folder added and its catalogue compiled with Babel."""
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    es = locales / "es"
    (es / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(SPANISH / LANGUAGE_FILE, es / LANGUAGE_FILE)
    shutil.copy(SPANISH / "messages.po", es / "LC_MESSAGES" / "messages.po")
    with open(es / "LC_MESSAGES" / "messages.po", "rb") as po, open(es / "LC_MESSAGES" / "messages.mo", "wb") as mo:
        write_mo(mo, read_po(po, locale="es"))
    return locales


#: Run in a fresh process (the registry is read once, when tutor.i18n is imported): starts the app on
#: the locales named by TUTOR_LOCALES_DIR and prints, as JSON, what each page type answered in Spanish.
_VISIT = r"""
import json, re, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from web_support import csrf_of, make_app
from tutor import i18n
from tutor.web import exercises as X

app = make_app(Path(sys.argv[1]))
client = app.test_client()
out = {"languages": list(i18n.LANGUAGES), "names": i18n.LANGUAGE_NAMES, "pages": {}}
store = app.extensions["tutor_content"]
step = store.lesson_path("hokm", "es").steps[0]
question = store.quiz_questions("hokm")[0]

def visit(kind, url, response=None):
    r = response or client.get(url)
    text = r.get_data(as_text=True)
    html_lang = re.search(r'<html lang="([^"]*)"', text)
    out["pages"][kind] = {"url": url, "status": r.status_code, "type": r.mimetype,
                          "lang": html_lang.group(1) if html_lang else None,
                          "spanish": "Tutor de reglas de cartas" in text, "menu": "Español" in text,
                          "suits": sorted({s for s in ("picas", "corazones", "diamantes", "tréboles") if s in text}),
                          "json_lang": r.get_json(silent=True).get("lang") if r.is_json and isinstance(
                              r.get_json(silent=True), dict) else None}
    return text

visit("root", "/")
visit("home", "/es/")
visit("lesson path", "/es/learn/hokm/")
visit("lesson unit", "/es/learn/hokm/unit/1")
visit("lesson step", f"/es/learn/hokm/{step.id}")
page = visit("practice setup", "/es/practice/")
started = client.post("/es/practice/", data={"game": "hokm", "count": "5", "difficulty": "1", "seed": "7",
                                             "csrf_token": csrf_of(page)})
out["started"] = [started.status_code, started.headers.get("Location")]
visit("quiz question", started.headers.get("Location", "/es/practice/"))
visit("play setup", "/es/play/")
visit("play", "/es/play/hokm?seed=7")
visit("rules", "/es/rules/hokm/")
visit("progress", "/es/progress/")
visit("ask", "/es/ask")
visit("device", "/es/device/")
visit("join a class", "/es/join")
visit("worksheet", "/es/worksheet/hokm")
visit("teacher log-in", "/es/teach/login")
visit("not found", "/es/no-such-page")
visit("api exercise", f"/api/v1/exercises/{X.ref_of(question)}?lang=es")
visit("api table check", "/api/v1/table/check", client.post("/api/v1/table/check", json={
    "scenario": {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH"], "trick": ["10C"]},
    "lang": "es"}))
visit("languages.css", "/languages.css")
out["css"] = client.get("/languages.css").get_data(as_text=True)
print(json.dumps(out))
"""


def test_a_language_added_by_a_folder_alone_serves_every_page_type(tmp_path):
    locales = _locales_with_spanish(tmp_path)
    assert check_languages(locales) == []  # tutor check's view of the copy: valid, with its catalogue
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_CONTENT_DIR", "TUTOR_DATABASE_URL")}
    env["TUTOR_LOCALES_DIR"] = str(locales)
    done = subprocess.run([sys.executable, "-c", _VISIT, str(tmp_path / "app"), str(TESTS)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["languages"] == ["en", "fa", "bg", "te", "es"]  # menu order: its entry's order 5
    assert out["names"]["es"] == "Español"
    assert out["started"][0] == 302 and out["started"][1].startswith("/es/quiz/")
    pages = out["pages"]
    assert len(pages) == 20
    for kind, page in pages.items():
        expected = 404 if kind == "not found" else 302 if kind == "root" else 200
        assert page["status"] == expected, (kind, page)
        if page["type"] == "text/html" and kind != "root":
            assert page["lang"] == "es", (kind, page)
            assert page["spanish"] or kind == "worksheet", (kind, page)  # its catalogue's title
    for kind in ("home", "lesson step", "quiz question", "rules", "teacher log-in", "not found"):
        assert pages[kind]["menu"], kind  # the language menu offers Español
    # cards are named in the entry's words (partial: the English lesson's text, Spanish card names)
    assert pages["lesson step"]["suits"] or pages["quiz question"]["suits"] or pages["play"]["suits"]
    assert pages["api table check"]["suits"] == ["tréboles"]  # "tres de tréboles" in its reasons
    assert 'html[lang="es"] { font-family: system-ui, "Noto Sans", "DejaVu Sans", sans-serif; }' in out["css"]


def test_a_malformed_language_file_is_reported_with_its_line(tmp_path):
    locales = _locales_with_spanish(tmp_path)
    path = locales / "es" / LANGUAGE_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.startswith("direction:"))
    lines[at - 1] = "direction: sideways"
    pattern = next(n for n, line in enumerate(lines, 1) if line.startswith("  pattern:"))
    lines[pattern - 1] = '  pattern: "%(rank)s"'
    lines.append("seats_extra: 1")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = str(path)
    problems = Problems()
    entries = load_registry(locales, problems)
    assert list(entries) == ["en", "fa", "bg", "te"]  # the malformed one is left out, the others stay
    assert [str(p) for p in problems] == [
        f"{shown}:{at}: direction: Input should be 'ltr' or 'rtl'",
        f"{shown}:{pattern}: cards.pattern: must hold %(rank)s and %(suit)s and no other placeholder",
        f"{shown}:{len(lines)}: seats_extra: Extra inputs are not permitted",
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_CONTENT_DIR", "TUTOR_DATABASE_URL")}
    env |= {"TUTOR_LOCALES_DIR": str(locales), "TUTOR_INSTANCE_PATH": str(tmp_path / "inst")}
    for command in (["check"], ["serve", "--port", "9"]):
        done = subprocess.run([sys.executable, "-m", "tutor.cli", *command], env=env, cwd=ROOT, check=False,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 2, (command, done.stderr[-2000:])
        said = done.stdout + done.stderr
        assert f"{shown}:{at}: direction: Input should be 'ltr' or 'rtl'\n" in said, command
        assert "Traceback" not in said, command


def test_a_language_without_its_catalogue_is_reported(tmp_path):
    locales = _locales_with_spanish(tmp_path)
    (locales / "es" / "LC_MESSAGES" / "messages.mo").unlink()
    assert [str(p) for p in check_languages(locales)] == [
        f"{locales}/es/LC_MESSAGES/messages.mo:0: compiled catalogue missing (pybabel compile -d locales)"]
    shutil.rmtree(locales / "es" / "LC_MESSAGES")
    assert [str(p) for p in check_languages(locales)] == [
        f"{locales}/es/LC_MESSAGES/messages.po:0: catalogue missing: es has a language.yaml but no messages.po"]


def test_every_table_comes_from_the_registry():
    assert i18n.LANGUAGES == tuple(i18n.REGISTRY) == ("en", "fa", "bg", "te")
    assert {"fa"} == i18n.RTL_LANGUAGES
    for code, entry in i18n.REGISTRY.items():
        assert i18n.LANGUAGE_NAMES[code] == entry.name
        assert i18n.FONT_FAMILIES[code] == entry.font
        assert i18n.text_direction(code) == entry.direction
        with i18n.using(code):
            assert i18n.separator() == entry.separator
            assert i18n.rank_name(13) == entry.cards.ranks[13]
            assert i18n.seat_label(2, 0, 4, "hokm") == entry.seats["partner"]
            assert i18n.seat_label(2, 0, 4, "hokm", by=True) == entry.by_seats["partner"]
            assert i18n.fmt_number(1907, group=False) == entry.to_digits("1907")
    with i18n.using("fa"):
        assert i18n.fmt_number(1907, group=False) == "۱۹۰۷"
    assert i18n.ascii_digits("۱۹۰۷ and 12") == "1907 and 12"
    assert f'html[lang="fa"] {{ font-family: {i18n.REGISTRY["fa"].font}; line-height: 1.8; }}' in i18n.language_css()
