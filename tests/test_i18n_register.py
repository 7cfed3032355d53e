"""The register and the glossary of each language (``avoid`` in ``locales/<code>/language.yaml``,
checked by ``tutor check`` through :func:`tutor.i18n.registry.check_languages`).

The app speaks to its reader one way in each language (Persian تو, never شما; Bulgarian вие,
lowercase, never ти) and uses one term per concept (Telugu తురుపు for trump, ఎంపిక for an
option; Persian «کارت روشده» for the kick, «گونه‌های بازی» for the variants). The shipped
catalogues and lessons hold none of the avoided forms; a copy with one added is reported at its
line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tutor.i18n.registry import LANGUAGE_FILE, REGISTRY, check_languages

ROOT = Path(__file__).resolve().parent.parent


def _copy(tmp_path: Path, *, lessons: bool = False) -> tuple[Path, Path]:
    """A copy of locales/ and, with ``lessons``, of lessons/ (else an empty lessons folder)."""
    locales, lessons_copy = tmp_path / "locales", tmp_path / "lessons"
    shutil.copytree(ROOT / "locales", locales)
    if lessons:
        shutil.copytree(ROOT / "lessons", lessons_copy)
    else:
        lessons_copy.mkdir()
    return locales, lessons_copy


def test_the_shipped_catalogues_and_lessons_keep_their_register_and_glossary():
    assert check_languages(ROOT / "locales", ROOT / "lessons") == []


def test_every_language_but_english_declares_what_it_avoids():
    assert {code for code, entry in REGISTRY.items() if entry.avoid} == {"fa", "bg", "te"}


@pytest.mark.parametrize(("lang", "text", "found"), [
    # Persian: the pronoun, the possessive, the perfect and the verbs of شما
    ("fa", "کد شخصی شما", "شما"),
    ("fa", "معلمتان این نام را می‌بیند.", "تان"),
    ("fa", "هنوز به کلاسی نپیوسته‌اید.", "\u200cاید"),
    ("fa", "هنوز کلاسی ندارید.", "ندارید"),
    ("fa", "یک نام مستعار برگزینید.", "برگزینید"),
    ("fa", "نوع پرسش را انتخاب کنید.", "کنید"),
    ("fa", "می‌توانید آن را ببرید.", "می\u200cتوانید"),
    ("fa", "امتیاز کیک", "کیک"),
    # Bulgarian: ти, and a capital Ви inside a sentence
    ("bg", "Отговорът ти се записва.", "ти"),
    ("bg", "Хвърляйте карти, докато Ви останат шест.", "Ви"),
    # Telugu: the loans
    ("te", "ట్రంప్ వేయాలి.", "ట్రంప్"),
    ("te", "ఈ ఆప్షన్ ఆన్ చేస్తే", "ఆప్షన్"),
])
def test_an_avoided_form_in_a_catalogue_is_reported_at_its_line(tmp_path, lang, text, found):
    locales, lessons = _copy(tmp_path)
    po = locales / lang / "LC_MESSAGES" / "messages.po"
    before = po.read_text(encoding="utf-8")
    at = before.count("\n") + 3  # the msgid line of the entry appended below
    po.write_text(before + f'\n#: tests\nmsgid "A sentence added by the test"\nmsgstr "{text}"\n', encoding="utf-8")
    problems = [str(p) for p in check_languages(locales, lessons)]
    name = REGISTRY[lang].english_name
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{po}:{at}: {name} avoids {found!r}: "), problems


@pytest.mark.parametrize("text", [
    "می‌آید", "می‌گوید", "باید", "نباید", "بشمار", "شماره", "داستان", "تو می‌توانی", "کرده‌ای", "معلمت",
])
def test_the_persian_forms_of_tu_and_of_the_third_person_pass(text):
    assert [a.found(text) for a in REGISTRY["fa"].avoid if a.found(text)] == []


@pytest.mark.parametrize("text", ["Вие можете да изиграете", "вие имате", "Можете ли", "тих", "тиква"])
def test_the_bulgarian_forms_of_vie_pass(text):
    assert [a.found(text) for a in REGISTRY["bg"].avoid if a.found(text)] == []


def test_a_glossary_term_in_a_lesson_is_reported_at_its_line_and_a_register_form_is_left_to_the_lesson(tmp_path):
    locales, lessons = _copy(tmp_path, lessons=True)
    te = sorted((lessons / "trinidad" / "te").glob("*.md"))[0]
    lines = te.read_text(encoding="utf-8").splitlines()
    te.write_text("\n".join([*lines, "", "ట్రంప్ వేయాలి."]) + "\n", encoding="utf-8")
    # a lesson may address two players together: the register is the catalogue's
    fa = sorted((lessons / "hokm" / "fa").glob("*.md"))[0]
    fa.write_text(fa.read_text(encoding="utf-8") + "\nهر کدام از شما\n", encoding="utf-8")
    assert [str(p) for p in check_languages(locales, lessons)] == [
        f"{te}:{len(lines) + 2}: Telugu avoids 'ట్రంప్': trump is తురుపు (తురుపులు, తురుపును, తురుపుతో)"]


def test_a_pattern_that_is_not_a_regular_expression_is_a_problem_of_the_language_file(tmp_path):
    locales, lessons = _copy(tmp_path)
    path = locales / "te" / LANGUAGE_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("pattern: 'ఆప్షన్'", "pattern: '(ఆప్షన్'"),
                    encoding="utf-8")
    problems = [str(p) for p in check_languages(locales, lessons)]
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}:") and "avoid.1.pattern: not a regular expression" in problems[0]
