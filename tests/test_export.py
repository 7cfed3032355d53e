"""Quiz export and import (tutor/export): the YAML round trip is lossless, imports are checked by
the engine (``file:line: message``), Moodle XML and GIFT hold the engine's keys and reasons,
worksheets and answer keys render as HTML and PDF, and their routes and the CLI behave."""

from __future__ import annotations

import functools
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from web_support import counted, fetch_pdf, make_app

from tutor import i18n
from tutor.content.exercise import MAX_POINTS
from tutor.content.generators import generate
from tutor.content.kinds import Names, expected_answer, kinds_for, learner_seat, players_of
from tutor.content.lessons import load_lesson_path
from tutor.content.quizzes import Quiz, load_quiz
from tutor.engine.rulesets import RULESETS
from tutor.export.files import (
    dump_lesson,
    dump_quiz,
    import_lesson,
    import_quiz,
    lesson_document,
    quiz_document,
    same_value,
)
from tutor.export.lms import gift, keyed, moodle_xml
from tutor.export.worksheet import worksheet_html, worksheet_pdf
from tutor.problems import ContentError

LANGS = i18n.LANGUAGES


@functools.cache
def _generated(ruleset: str, kind: str, seed: int, difficulty: int):
    return generate(ruleset, kind, seed, difficulty)


@functools.cache
def _steps(ruleset: str) -> tuple[str, ...]:
    return tuple(s.id for s in load_lesson_path(ruleset, "en"))


# ------------------------------------------------------------------------------ YAML round trip

#: Text that YAML treats specially, right-to-left and Telugu text, line breaks of every kind.
_SPECIAL = st.sampled_from([
    "تو حاکمی؛ کدام کارت را بازی می‌کنی؟", "మీ చేతిలో ఏ కార్డులు వేయవచ్చు?", "Кой печели взятката?",
    "yes", "no", "null", "~", "1.0", "0x1F", "- item", "key: value", "# not a comment", "a #b", "{a: b}",
    "[1, 2]", "&anchor", "*alias", "!tag", "|", ">", "'quoted'", '"double"', "%percent", "@at", "`tick`",
    "line\nbreak", "tab\there", "trailing ", " leading", "\u2028sep", "next\x85line", "RTL \u200f mark",
    "10♥ and A♠", "€ ﷼", "emoji 🂡",
])
_TEXT = st.one_of(_SPECIAL, st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30),
                  st.lists(_SPECIAL, min_size=2, max_size=3).map(" ".join)).filter(lambda t: bool(t.strip()))


@st.composite
def quiz_documents(draw) -> dict:
    ruleset = draw(st.sampled_from(list(RULESETS)))
    n = draw(st.integers(1, 4))
    questions = []
    for i in range(n):
        kind = draw(st.sampled_from(kinds_for(ruleset)))
        ex = _generated(ruleset, kind, draw(st.integers(0, 3)), draw(st.integers(1, 3)))
        block = ex.to_block()
        block["id"] = f"q{i}-" + draw(st.sampled_from(["a", "ب", "క", "x y"]))
        block["teaches"] = draw(st.sampled_from(_steps(ruleset)))
        langs = draw(st.lists(st.sampled_from(LANGS), unique=True, max_size=4))
        if langs:
            block["prompt"] = {lang: draw(_TEXT) for lang in langs}
        else:
            block.pop("prompt", None)
        points = draw(st.one_of(st.none(), st.integers(1, MAX_POINTS), st.floats(0.25, MAX_POINTS, allow_nan=False)))
        if points is not None:
            block["points"] = points
        questions.append(block)
    return {"ruleset": ruleset, "questions": questions}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quiz_documents())
def test_the_yaml_round_trip_is_lossless(doc):
    text = dump_quiz(doc)
    quiz = import_quiz(text, "teacher.yaml", engine=False)
    assert same_value(quiz_document(quiz), doc)
    assert same_value(quiz_document(import_quiz(dump_quiz(quiz), "again.yaml", engine=False)), doc)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_built_in_quizzes_export_and_import_unchanged(ruleset):
    quiz = load_quiz(ruleset)
    doc = quiz_document(quiz)
    again = import_quiz(dump_quiz(doc), f"{ruleset}.yaml")  # the engine checks every question
    assert same_value(quiz_document(again), doc)
    assert len(again) == len(quiz) >= 60


def test_an_import_is_checked_by_the_engine_with_file_and_line():
    doc = quiz_document(load_quiz("hokm"))
    doc["questions"] = doc["questions"][:3]
    right = doc["questions"][0]["expect"]["legal"]
    doc["questions"][0]["expect"] = {"legal": right[:1]}  # a wrong key
    doc["questions"][1]["scenario"] = dict(doc["questions"][1]["scenario"], hand=["AS", "XX"])
    doc["questions"][2]["points"] = -2
    text = dump_quiz(doc)
    with pytest.raises(ContentError) as e:
        import_quiz(text, "mine.yaml")
    lines = text.split("\n")
    found = {(p.line, p.message.split(":")[0]) for p in e.value.problems}
    messages = "\n".join(str(p) for p in e.value.problems)
    assert all(str(p).startswith("mine.yaml:") for p in e.value.problems)
    wrong = next(p for p in e.value.problems if "expect.legal" in p.message)
    assert lines[wrong.line - 1].strip().startswith("expect:")
    assert f"the engine says {right!r}" in wrong.message
    card = next(p for p in e.value.problems if "'XX'" in p.message)
    assert '"XX"' in lines[card.line - 1]
    assert "points must be a number above 0" in messages
    assert found


def test_a_quiz_under_any_name_keeps_its_own_ruleset():
    text = dump_quiz(quiz_document(load_quiz("trinidad")))
    assert import_quiz(text, "my-class-quiz.yaml").ruleset == "trinidad"


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: Markdown text between exercise blocks: any lines (no carriage return; a fence line would open a block).
_MARKDOWN = st.lists(st.one_of(_TEXT, st.just(""), st.just("---"), st.just("# Heading"), st.just("- item *em*")),
                     max_size=5).map("\n".join).filter(
    lambda t: "\r" not in t and not any(_FENCE.match(line) for line in t.split("\n")))


@st.composite
def lesson_documents(draw) -> tuple[dict, str]:
    ruleset = draw(st.sampled_from(list(RULESETS)))
    lang = draw(st.sampled_from(LANGS))
    front = {"id": draw(st.sampled_from(["step-a", "قدم", "దశ-1"])), "ruleset": ruleset, "unit": draw(st.integers(1, 9)),
             "unit_title": draw(_TEXT.filter(lambda t: "\r" not in t)), "order": draw(st.integers(1, 99)),
             "title": draw(_TEXT.filter(lambda t: "\r" not in t)), "goal": draw(_TEXT.filter(lambda t: "\r" not in t)),
             "rules": draw(st.lists(st.sampled_from(["H4", "C21", "T7", "K3"]), max_size=3)),
             "source": draw(_TEXT.filter(lambda t: "\r" not in t))}
    parts = [{"markdown": draw(_MARKDOWN)}]
    for i in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(kinds_for(ruleset)))
        block = _generated(ruleset, kind, draw(st.integers(0, 3)), draw(st.integers(1, 3))).to_block()
        block["id"] = f"ex-{i}"
        block["prompt"] = draw(_TEXT.filter(lambda t: "\r" not in t))
        if draw(st.booleans()):
            block["points"] = draw(st.integers(1, 10))
        parts += [{"exercise": block}, {"markdown": draw(_MARKDOWN)}]
    return {"front_matter": front, "parts": parts}, lang


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lesson_documents())
def test_the_lesson_round_trip_is_lossless(doc_lang):
    doc, lang = doc_lang
    step = import_lesson(dump_lesson(doc), f"lessons/x/{lang}/01-x.md", lang, engine=False)
    assert same_value(lesson_document(step), doc)


def test_every_lesson_file_exports_and_imports_unchanged():
    from tutor.content.lessons import load_lesson_path

    n = 0
    for ruleset in RULESETS:
        for lang in LANGS:
            for step in load_lesson_path(ruleset, lang):
                again = import_lesson(dump_lesson(step), step.path, lang, engine=(lang == "en"))
                assert same_value(lesson_document(again), lesson_document(step)), step.path
                assert again.segments == step.segments
                n += 1
    assert n >= 300


# ------------------------------------------------------------------------------ Moodle XML

def _engine_right(ex, lang) -> list[str]:
    """The right answers of the kinds with a plain key, computed here from the engine."""
    expected, answer = expected_answer(ex)
    with i18n.using(lang):
        names = Names(learner_seat(ex), players_of(ex.scenario), ex.ruleset)
        if ex.kind == "legal-cards":
            return [i18n.card_label(c) for c in expected]
        if ex.kind in ("next-leader", "next-hakem"):
            return [names.seat(expected)]
        if ex.kind == "trick-winner":
            return [names.seat(expected) + " — " + i18n.card_label(answer["card"])]
        if ex.kind in ("turn-up", "round-score"):
            return [str(expected)]
    raise AssertionError(ex.kind)


def _moodle(quiz, lang):
    root = etree.fromstring(moodle_xml(quiz, lang).encode("utf-8"))
    return root.findall("question")[1:], root.findall("question")[0]


@pytest.mark.parametrize("ruleset,lang", [("hokm", "fa"), ("all-fours", "en"), ("trinidad", "te")])
def test_moodle_xml_holds_every_question_with_the_engines_key(ruleset, lang):
    quiz = load_quiz(ruleset)
    questions, category = _moodle(quiz, lang)
    assert category.get("type") == "category"
    assert category.findtext("category/text") == f"$course$/top/tutor/{ruleset}"
    assert [q.findtext("name/text") for q in questions] == [ex.id for ex in quiz]
    plain = {"legal-cards", "next-leader", "next-hakem", "trick-winner", "turn-up", "round-score"}
    checked = 0
    for q, ex in zip(questions, quiz, strict=True):
        k = keyed(ex, lang)
        qtype = q.get("type")
        if qtype == "multichoice":
            right = [a.findtext("text") for a in q.findall("answer") if float(a.get("fraction")) > 0]
            fractions = [float(a.get("fraction")) for a in q.findall("answer")]
            assert sum(f for f in fractions if f > 0) == pytest.approx(100, abs=0.001)
            assert q.findtext("single") == ("false" if ex.kind == "legal-cards" else "true")
        elif qtype == "numerical":
            right = [a.findtext("text") for a in q.findall("answer")]
            assert q.findtext("answer/tolerance") == "0"
        elif qtype == "shortanswer":
            right = [a.findtext("text") for a in q.findall("answer")]
            expected, _ = expected_answer(ex)
            assert right[0] == ", ".join(map(str, expected))
        else:
            assert qtype == "matching", qtype
            right = [f"{s.findtext('text')} -> {s.findtext('answer/text')}" for s in q.findall("subquestion")
                     if s.findtext("text")]
            expected, _ = expected_answer(ex)
            with i18n.using(lang):
                names = Names(learner_seat(ex), players_of(ex.scenario), ex.ruleset)
                assert right == [f"{i18n.category_name(c)} -> {names.side(s)}" for c, s in expected.items()]
        assert right == k.key.right()
        if ex.kind in plain:
            assert sorted(right) == sorted(_engine_right(ex, lang))
            checked += 1
        feedback = q.findtext("generalfeedback/text")
        for reason in k.reasons:
            assert etree.fromstring(feedback).xpath("string()").count(reason) == 1
        assert q.findtext("defaultgrade") == "1"
        assert f'dir="{i18n.text_direction(lang)}"' in q.findtext("questiontext/text")
    assert checked > 20


def test_the_key_is_the_engines_not_the_authored_expect():
    """A wrong ``expect`` (imported without the engine check) does not reach the export."""
    doc = quiz_document(load_quiz("hokm"))
    doc["questions"] = [q for q in doc["questions"] if q["kind"] == "trick-winner"][:1] + \
                       [q for q in doc["questions"] if q["kind"] == "round-score"][:1]
    trick, score = doc["questions"]
    trick["expect"] = {"winner": (trick["expect"]["winner"] + 1) % 4}
    score["expect"] = {"points": 3 if score["expect"]["points"] != 3 else 1}
    score["points"] = 2.5
    quiz = import_quiz(dump_quiz(doc), "w.yaml", engine=False)
    questions, _ = _moodle(quiz, "en")
    assert [a.findtext("text") for a in questions[0].findall("answer") if a.get("fraction") == "100"] \
        == _engine_right(quiz.questions[0], "en")
    assert questions[1].findtext("answer/text") == str(expected_answer(quiz.questions[1])[0])
    assert questions[1].findtext("defaultgrade") == "2.5"


def test_persian_feedback_is_the_engines_reasons_in_persian():
    quiz = load_quiz("hokm")
    ex = quiz.by_kind("legal-cards")[0]
    _, answer = expected_answer(ex)
    with i18n.using("fa"):
        reasons = i18n.render_reasons(answer["why"], you=learner_seat(ex), players=4, ruleset="hokm")
    questions, _ = _moodle(Quiz("hokm", (ex,)), "fa")
    text = etree.fromstring(questions[0].findtext("generalfeedback/text")).xpath("string()")
    assert reasons and all(r in text for r in reasons)
    assert any("\u0600" <= ch <= "\u06ff" for ch in text)


# ------------------------------------------------------------------------------ GIFT

def _parse_gift(text: str):
    from pygiftparser import parser
    return parser.parse(text).questions


@pytest.mark.parametrize("ruleset,lang", [("hokm", "en"), ("all-fours", "bg"), ("trinidad", "fa")])
def test_gift_parses_and_holds_the_engines_keys(ruleset, lang):
    quiz = load_quiz(ruleset)
    parsed = _parse_gift(gift(quiz, lang))
    assert [q.name for q in parsed] == [ex.id for ex in quiz]
    kinds = {type(q.answer).__name__ for q in parsed}
    assert {"MultipleChoiceRadio", "MultipleChoiceCheckbox", "Numerical"} <= kinds | {"Numerical"}
    for q, ex in zip(parsed, quiz, strict=True):
        key = keyed(ex, lang).key

        def unescape(s: str) -> str:
            return s.replace("\\", "")

        options = q.answer.options
        if key.type == "numerical":
            assert type(q.answer).__name__ == "Numerical"
            assert float(options[0].text) == expected_answer(ex)[0]
        elif key.type == "multiresponse":
            assert type(q.answer).__name__ == "MultipleChoiceCheckbox"
            # the parser reads whole percentages only; Moodle takes 33.33333 (read it from the option)
            weights = [float(re.match(r"~%(-?[\d.]+)%", o.raw_text).group(1)) for o in options]
            right = [re.sub(r"^%-?[\d.]+%", "", unescape(o.text)) for o, w in zip(options, weights, strict=True)
                         if w > 0]
            assert sum(w for w in weights if w > 0) == pytest.approx(100, abs=0.001)
            assert right == key.right()
        elif key.type == "multichoice":
            assert type(q.answer).__name__ == "MultipleChoiceRadio"
            assert [unescape(o.text) for o in options if o.prefix == "="] == key.right()
        elif key.type == "matching":
            assert type(q.answer).__name__ == "Matching"
            assert [unescape(o.text).replace(" -> ", " -> ") for o in options] == key.right()
        else:
            assert type(q.answer).__name__ == "Short"
            assert [unescape(o.text) for o in options] == key.right()
        if ex.kind in ("legal-cards", "trick-winner", "turn-up", "round-score", "next-hakem", "next-leader"):
            assert sorted(key.right()) == sorted(_engine_right(ex, lang))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quiz_documents(), st.sampled_from(LANGS))
def test_generated_quizzes_export_to_moodle_and_gift_with_the_engines_keys(doc, lang):
    quiz = import_quiz(dump_quiz(doc), "gen.yaml", engine=False)
    questions, _ = _moodle(quiz, lang)
    parsed = _parse_gift(gift(quiz, lang))
    assert len(questions) == len(parsed) == len(quiz)
    for q, g, ex in zip(questions, parsed, quiz, strict=True):
        k = keyed(ex, lang)
        assert q.findtext("defaultgrade") == f"{ex.points or 1:.7f}".rstrip("0").rstrip(".")
        if k.key.type == "numerical":
            assert float(q.findtext("answer/text")) == float(g.answer.options[0].text) == expected_answer(ex)[0]
        elif k.key.type in ("multichoice", "multiresponse"):
            right = [a.findtext("text") for a in q.findall("answer") if float(a.get("fraction")) > 0]
            assert right == k.key.right() and right
        if ex.kind in ("legal-cards", "trick-winner", "turn-up", "round-score", "next-hakem", "next-leader"):
            assert sorted(k.key.right()) == sorted(_engine_right(ex, lang))


# ------------------------------------------------------------------------------ worksheets

def _small(ruleset="hokm"):
    quiz = load_quiz(ruleset)
    seen, picked = set(), []
    for ex in quiz:
        if ex.kind not in seen:
            seen.add(ex.kind)
            picked.append(ex)
    return Quiz(ruleset, tuple(picked), quiz.path)


def test_worksheet_html_hides_the_answers_and_the_key_gives_the_reasons():
    quiz = _small("hokm")
    sheet = worksheet_html(quiz, "fa")
    key = worksheet_html(quiz, "fa", key=True)
    assert '<html lang="fa" dir="rtl">' in sheet
    assert "☑" not in sheet and "key-box" not in sheet
    for ex in quiz:
        k = keyed(ex, "fa")
        assert k.prompt in sheet
        for r in k.reasons:
            assert r not in sheet
            assert r in key
    assert key.count('class="key-box"') == len(quiz)
    assert re.search(r'class="cardbox (red|black)" role="img" aria-label="[^"]+">', sheet)  # card faces with their names


def test_worksheet_of_a_teacher_document_is_checked_first():
    doc = quiz_document(_small("all-fours"))
    doc["questions"][0]["scenario"] = dict(doc["questions"][0]["scenario"], trick=["QQ"])
    with pytest.raises(ContentError) as e:
        worksheet_html(doc, "en")
    assert "unknown card 'QQ'" in str(e.value)


def test_worksheet_pdf_is_a_pdf_in_telugu():
    pdf = worksheet_pdf(_small("trinidad"), "te", key=True)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000


def test_worksheet_routes(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    r = client.get("/fa/worksheet/hokm?count=5&seed=7")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert 'dir="rtl"' in page and "worksheet.js" in page and "<script>" not in page
    assert "/fa/worksheet/hokm/pdf?" in page and "key=1" in page
    assert page.count('<section class="q"') == 5
    assert "default-src" in r.headers["Content-Security-Policy"]
    r = fetch_pdf(client, "/en/worksheet/hokm/pdf?count=5&seed=7&key=1")
    assert r.status_code == 200 and r.mimetype == "application/pdf" and r.data.startswith(b"%PDF-")
    assert 'filename="hokm-key-en-7.pdf"' in r.headers["Content-Disposition"]
    assert client.get("/en/worksheet/hokm?count=7").status_code == 400
    assert client.get("/en/worksheet/hokm?seed=x1").status_code == 400
    assert client.get("/en/worksheet/chess").status_code == 404


def test_the_pdf_route_is_rate_limited(tmp_path):
    """The budget is for builds: the one build of the day's PDF is hers (its progress page and the
    PDF, asked again, cost nothing more), and so is the last request she is checked with."""
    app = make_app(tmp_path, RATE_LIMITS={"pdf": counted("1/day")})
    client = app.test_client()
    assert fetch_pdf(client, "/en/worksheet/hokm/pdf?count=5").status_code == 200
    r = client.get("/en/worksheet/hokm/pdf?count=5&seed=2")  # another PDF: a second build
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0


# ------------------------------------------------------------------------------ CLI

def test_cli_export_and_its_errors(tmp_path):
    good = tmp_path / "mine.yaml"
    doc = quiz_document(_small("hokm"))
    good.write_text(dump_quiz(doc), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tutor.cli", "export", str(good), "--format", "gift", "--lang", "bg"],
                         capture_output=True, check=False)
    assert out.returncode == 0, out.stderr
    assert len(_parse_gift(out.stdout.decode("utf-8"))) == len(doc["questions"])
    doc["questions"][0]["expect"] = {"legal": []}
    bad = tmp_path / "bad.yaml"
    bad.write_text(dump_quiz(doc), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tutor.cli", "export", str(bad), "--format", "moodle"],
                         capture_output=True, check=False)
    assert out.returncode == 2 and out.stdout == b""
    line = out.stderr.decode().strip().splitlines()[0]
    assert line.startswith(f"{bad}:") and "expect.legal" in line
    assert int(line.split(":")[1]) > 1


@pytest.mark.parametrize(("lang", "click"), [("en", "Click"), ("fa", "کلیک"), ("bg", "Щракнете"), ("te", "క్లిక్")])
def test_paper_and_lms_prompts_do_not_ask_for_a_click(lang, click):
    """A worksheet is printed and a Moodle question has its own choices: the trick-winner prompt
    there asks who wins, without "click the winning card"."""
    quiz = load_quiz("hokm")
    doc = quiz_document(quiz)
    doc["questions"] = [q for q in doc["questions"] if q["kind"] == "trick-winner" and not q.get("prompt")][:3]
    assert doc["questions"]
    sheet = worksheet_html(doc, lang)
    assert click not in sheet and sheet.count("<h2 id=\"q") == len(doc["questions"])
    assert click not in moodle_xml(import_quiz(dump_quiz(doc)), lang)


@pytest.mark.parametrize(("lang", "digits"), [("en", "0123456789"), ("fa", "۰۱۲۳۴۵۶۷۸۹")])
def test_pdf_pages_are_numbered_in_the_sheets_digits(tmp_path, lang, digits):
    """Each page of a worksheet PDF says "n / total" in the sheet's digits (a Persian sheet used to
    show "6 / 2" on page 2 of 6: the number is now isolated left to right; looked at as an image)."""
    import shutil

    from web_support import unavailable

    if not shutil.which("pdftotext"):
        unavailable("pdftotext", "not on PATH", "install poppler-utils (apt-get install poppler-utils)")
    client = make_app(tmp_path).test_client()
    r = fetch_pdf(client, f"/{lang}/worksheet/hokm/pdf?count=10&seed=3")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(r.data)
    second = subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(path), "-"], capture_output=True, text=True,
                            check=True).stdout
    found = re.findall(f"([{digits}]+)\\s*/\\s*([{digits}]+)", second)  # the footer: the page's last text
    assert found, second[-200:]
    page, total = (int(n.translate(str.maketrans(digits, "0123456789"))) for n in found[-1])
    assert page == 2 and total >= 2


# ------------------------------------------------------------------------------ distractors

def _parts(text: str) -> dict[str, str]:
    """An option's text (``Trick 1: you; ...; Points: 1``) as ``{what: value}``."""
    return dict(part.split(": ", 1) for part in text.split("; "))


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_walk_through_and_game_points_options_differ_in_more_than_one_place(ruleset):
    """The defect: the walk-through's options listed the same trick winners and differed only in
    the points; the Game points' options varied one number. Now every wrong option of the Moodle
    XML export differs from the right one in two places at least (a walk-through's in the trick
    winners too), the options differ from each other in the winners, and each is a wrong answer
    by the engine."""
    from tutor.content.kinds import KINDS, grade

    quiz = load_quiz(ruleset)
    chosen = [ex for ex in quiz if ex.kind in ("walk-through", "game-points")]
    assert chosen
    questions = {q.findtext("name/text"): q for q in _moodle(Quiz(ruleset, tuple(chosen)), "en")[0]}
    for ex in chosen:
        answers = questions[ex.id].findall("answer")
        right = [_parts(a.findtext("text")) for a in answers if a.get("fraction") == "100"]
        wrong = [_parts(a.findtext("text")) for a in answers if a.get("fraction") == "0"]
        assert len(right) == 1 and len(wrong) >= 2, ex.id
        for option in wrong:
            assert option.keys() == right[0].keys()
            differ = [k for k in option if option[k] != right[0][k]]
            assert len(differ) >= 2, (ex.id, differ)
            if ex.kind == "walk-through":
                assert any(k.startswith("Trick") for k in differ), (ex.id, differ)
        if ex.kind == "walk-through":
            winners = {tuple(v for k, v in o.items() if k.startswith("Trick")) for o in [*right, *wrong]}
            assert len(winners) == len(wrong) + 1, ex.id  # no two options share their trick winners
        expected, _ = expected_answer(ex)
        kind = KINDS[ex.kind]
        offered = [v for v in kind.wrong_values(ex, expected) if v != expected]
        assert offered
        for value in offered:
            assert not grade(ex, value).correct, (ex.id, value)
