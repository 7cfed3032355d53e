"""Importing Moodle XML and GIFT (tutor/export/lmsread.py): files written by another tool (by hand,
in the layout Moodle itself exports, tests/data/lms/) import when their questions carry a
scenario; questions without one are refused, each with its own line; the project's own exports
round-trip with nothing lost; the file's key is checked against the engine; ``teaches`` is
optional in every import; bad files (malformed, XXE, an entity bomb, huge, wrong encoding) give
clear messages: ``file:line: message`` and exit status 2 on the command line, 400 with the
messages beside the field on the web, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from teach_support import login, new_quiz, post, quiz_doc, teachers  # noqa: F401
from web_support import csrf_of

from tutor.content.generators import generate
from tutor.content.lessons import load_lesson_path
from tutor.content.quizzes import Quiz, load_quiz
from tutor.export.files import dump_quiz, import_quiz, quiz_document, same_value
from tutor.export.lms import gift, moodle_xml
from tutor.export.lmsread import (
    MAX_CHARS,
    detect_format,
    import_any,
    import_gift,
    import_moodle_xml,
    read_gift,
)
from tutor.problems import ContentError, Problems

DATA = Path(__file__).parent / "data" / "lms"


def _problems(text: str, path: str) -> list[str]:
    with pytest.raises(ContentError) as e:
        import_any(text, path)
    return [str(p) for p in e.value.problems]


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def _steps(ruleset: str) -> set[str]:
    return {s.id for s in load_lesson_path(ruleset, "en").steps}


# ------------------------------------------------------------------------------ third-party files

def test_a_moodle_xml_file_written_by_moodle_imports():
    path = DATA / "moodle-third-party.xml"
    quiz = import_any(path.read_text(encoding="utf-8"), str(path))
    assert quiz.ruleset == "hokm"
    assert [(q.id, q.kind) for q in quiz] == [("HK-TRUMP-01", "trick-winner"), ("Kot for the defenders", "round-score"),
                                              ("Follow suit", "legal-cards")]
    trick, kot, follow = quiz.questions
    assert trick.expect == {"winner": 2}  # the file's own wording of the answers; its expect checked by the engine
    assert kot.expect == {"points": 3, "result": "hakem-kot"} and kot.points == 2 and kot.difficulty == 2
    assert follow.expect == {"legal": ["4C", "QC"]}  # from the engine, once the file's key was the engine's
    assert trick.prompt["en"].startswith("Spades are trump. You lead the Q♥")
    assert "tutor" not in trick.prompt["en"]  # the comment is not part of the prompt
    # teaches derived from the engine's reasons: a real lesson step of the game
    assert [q.teaches for q in quiz] == ["hokm-highest-led", "hokm-tricks-not-points", "hokm-follow-suit"]
    assert all(q.teaches in _steps("hokm") for q in quiz)


def test_a_gift_file_written_by_hand_imports():
    path = DATA / "gift-third-party.gift"
    quiz = import_any(path.read_text(encoding="utf-8"), str(path))
    assert [(q.id, q.kind, q.expect) for q in quiz] == [
        ("Next hakem", "next-hakem", {"next_hakem": 3}),
        ("Kot against the hakem's opponents", "round-score", {"points": 2, "result": "kot"}),
        ("Low trump", "trick-winner", {"winner": 1}),
    ]
    assert quiz.questions[2].prompt == {"en": "Clubs are trump. You lead the K♦; then come the 2♣, the Q♦ and "
                                              "the A♦. Who wins the trick?"}
    assert all(q.teaches in _steps("hokm") for q in quiz)


def test_the_gift_reader_agrees_with_pygiftparser():
    """A second, independent reader of GIFT (pygiftparser, the test extra) finds the same questions,
    titles and right answers in the hand-written file and in the project's own export."""
    from pygiftparser import parser

    hand = (DATA / "gift-third-party.gift").read_text(encoding="utf-8")
    for text in (hand, gift(load_quiz("trinidad"), "te")):
        ours = read_gift(text, "x.gift", Problems())
        theirs = parser.parse(text).questions
        assert [q.name for q in ours] == [q.name for q in theirs]
        for a, b in zip(ours, theirs, strict=True):
            kind = type(b.answer).__name__
            if kind == "Numerical":
                assert a.type == "numerical" and a.number == float(b.answer.options[0].text.split(":")[0])
            elif kind.startswith("MultipleChoice"):
                assert a.type == "multichoice"
                # pygiftparser keeps a weight (%50%) in the option's text
                assert [t for _, t in a.answers] == [re.sub(r"^%-?[\d.]+%", "", o.text).replace("\\", "")
                                                     for o in b.answer.options]


@pytest.mark.parametrize("name,fmt", [("moodle-plain.xml", "Moodle XML"), ("gift-plain.gift", "GIFT")])
def test_questions_without_a_scenario_are_refused_each_on_its_line(name, fmt):
    """A plain multiple-choice, numerical or true/false question about a card situation, in words
    only: each refused at its own line, saying why; nothing is imported."""
    path = DATA / name
    problems = _problems(path.read_text(encoding="utf-8"), str(path))
    first = "<question type=\"multichoice\">" if fmt == "Moodle XML" else "::Who wins?::"
    second = "<question type=\"numerical\">" if fmt == "Moodle XML" else "::Kot points::"
    third = "<question type=\"truefalse\">" if fmt == "Moodle XML" else "::Trump beats::"
    assert problems == [
        f"{path}:{_line_of(path, first)}: question Who wins?: it has no scenario the engine can check: a question "
        'is imported with its scenario, written <!-- tutor: {"kind": ..., "scenario": {...}} --> in its text '
        "(this app's exports write it)",
        f"{path}:{_line_of(path, second)}: question Kot points: it has no scenario the engine can check: a question "
        'is imported with its scenario, written <!-- tutor: {"kind": ..., "scenario": {...}} --> in its text '
        "(this app's exports write it)",
        f"{path}:{_line_of(path, third)}: question Trump beats: it is a true/false question; the engine checks "
        "only multiple-choice, numerical, short-answer and matching questions that carry a scenario",
    ]


def test_the_files_key_is_checked_against_the_engine():
    path = DATA / "gift-third-party.gift"
    text = path.read_text(encoding="utf-8")
    wrong_number = text.replace("{#2}", "{#3}")
    line = _line_of(path, "{#2}")
    assert _problems(wrong_number, "w.gift") == [
        f"w.gift:{line}: question Kot against the hakem's opponents: the file's right answer (3) is not the "
        "engine's (2)"]
    # the engine's own words, the wrong one marked right
    swapped = text.replace("=your left-hand opponent", "~your left-hand opponent").replace("~your partner",
                                                                                           "=your partner")
    [problem] = _problems(swapped, "w.gift")
    assert problem.endswith("question Next hakem: the file's right answer (your partner) is not the engine's "
                            "(your left-hand opponent)")
    # an expect the engine does not give
    bad_expect = text.replace('"expect": {"winner": 1}', '"expect": {"winner": 2}')
    [problem] = _problems(bad_expect, "w.gift")
    line = _line_of(path, "::Low trump::")
    assert problem.startswith(f"w.gift:{line}: question Low trump:") and "the engine says 1" in problem, problem
    # a question asked as another type than the engine's, without an expect
    as_choice = text.replace("{#2}", "{=2 ~1 ~3}")
    [problem] = _problems(as_choice, "w.gift")
    assert "the file asks it as multichoice; the engine keys a round-score question as numerical" in problem


def test_one_game_per_file_and_a_block_needs_kind_and_scenario():
    text = (DATA / "gift-third-party.gift").read_text(encoding="utf-8")
    other = text.replace('"ruleset": "hokm", "ask": "trick-winner", "trump": "C", "trick": ["KD", "2C", "QD", "AD"]',
                         '"ruleset": "all-fours", "ask": "trick-winner", "trump": "C", "trick": ["KD", "2C"]')
    [problem] = _problems(other, "w.gift")
    assert problem.endswith("question Low trump: it is a all-fours question, and this file's first question is "
                            "hokm: import one game per file")
    # without a kind: the one kind that takes the ask and is asked as the file asks it
    no_kinds = text.replace('{"kind": "next-hakem", ', "{").replace('{"kind": "round-score", ', "{")
    assert [q.kind for q in import_any(no_kinds, "k.gift")] == ["next-hakem", "round-score", "trick-winner"]
    # a walk-through and a Game points question both take hand-score and are asked as a choice
    ambiguous = ("// tutor: {\"scenario\": {\"ruleset\": \"all-fours\", \"ask\": \"hand-score\", \"dealer\": 1, "
                 "\"trump\": \"C\", \"tricks\": [[\"3C\", \"5C\"], [\"JD\", \"8D\"], [\"7H\", \"JC\"], [\"8C\", \"10C\"], "
                 "[\"2D\", \"7D\"], [\"2H\", \"4D\"]]}}\n::Q::Who?{=a ~b}\n")
    [problem] = _problems(ambiguous, "a.gift")
    assert problem.startswith("a.gift:2: question Q: its tutor comment needs a kind, one of legal-cards")
    not_json = text.replace('"team_tricks": [4, 7]}}', '"team_tricks": [4, 7]}')
    [problem] = _problems(not_json, "w.gift")
    assert "question Next hakem: its tutor comment is not valid JSON" in problem


# ------------------------------------------------------------------------------ round trip

def _blocks(quiz: Quiz) -> list[dict]:
    return [q.to_block() for q in quiz.questions]


@pytest.mark.parametrize("ruleset,fmt,lang", [("hokm", "moodle", "fa"), ("hokm", "gift", "en"),
                                              ("all-fours", "moodle", "en"), ("all-fours", "gift", "bg"),
                                              ("trinidad", "moodle", "te"), ("trinidad", "gift", "fa")])
def test_the_projects_own_exports_round_trip_with_nothing_lost(ruleset, fmt, lang):
    quiz = load_quiz(ruleset)
    text = moodle_xml(quiz, lang) if fmt == "moodle" else gift(quiz, lang)
    back = import_any(text, f"quiz.{'xml' if fmt == 'moodle' else 'gift'}")
    assert back.ruleset == ruleset
    before, after = _blocks(quiz), _blocks(back)
    assert len(after) == len(before) == len(quiz.questions)
    for a, b in zip(before, after, strict=True):
        assert same_value(a, b), (a["id"], {k for k in set(a) | set(b) if not same_value(a.get(k), b.get(k))})


#: Prompts that GIFT, XML and HTML comments treat specially.
_AWKWARD = ["a -- b --> c <!-- d", "{braces} :colons: =eq ~tilde #hash \\back\\slash", "تو حاکمی؛  دو  فاصله",
            "line\nbreak\ttab", "<b>not html</b> &amp; &lt;", "\u2028sep\x85next", "emoji 🂡 and ♥"]


def test_a_teachers_quiz_with_awkward_prompts_points_and_seats_round_trips():
    questions = []
    for i, kind in enumerate(["legal-cards", "trick-winner", "walk-through", "hand-score", "game-points"]):
        block = generate("all-fours", kind, i, 2).to_block()
        block["id"] = f"q{i} — {kind}"
        block["prompt"] = {"en": _AWKWARD[i], "fa": _AWKWARD[(i + 2) % len(_AWKWARD)], "te": _AWKWARD[-1]}
        block["points"] = [2.5, 7, 1, 100, 0.25][i]
        block.pop("teaches", None)
        questions.append(block)
    quiz = import_quiz(dump_quiz({"ruleset": "all-fours", "questions": questions}), "t.yaml")
    for write, name in ((moodle_xml, "t.xml"), (gift, "t.gift")):
        back = import_any(write(quiz, "fa"), name)
        assert same_value(_blocks(quiz), _blocks(back)), name


def test_formats_are_told_apart_by_extension_then_content():
    xml = moodle_xml(load_quiz("hokm"), "en")
    text = gift(load_quiz("hokm"), "en")
    assert detect_format(xml, "upload") == "moodle" and detect_format(text, "upload") == "gift"
    assert detect_format(text, "hokm.txt") == "gift" and detect_format("ruleset: hokm\n", "x.txt") == "yaml"
    assert detect_format("", "a.xml") == "moodle" and detect_format("", "a.gift") == "gift"
    assert detect_format(dump_quiz(quiz_document(load_quiz("hokm"))), "quiz") == "yaml"


# ------------------------------------------------------------------------------ teaches optional

def test_teaches_is_optional_in_a_yaml_import_and_derived_from_the_engine():
    doc = quiz_document(load_quiz("hokm"))
    doc["questions"] = [q for q in doc["questions"] if q["kind"] == "legal-cards"][:2]
    for q in doc["questions"]:
        del q["teaches"]
    quiz = import_quiz(dump_quiz(doc), "no-teaches.yaml")
    assert [q.teaches for q in quiz] == ["hokm-follow-suit", "hokm-hakem"]  # H14 (follow suit), H6 (the hakem leads)


# ------------------------------------------------------------------------------ bad files

_QUIZ_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n'


@pytest.mark.parametrize("text,line,message", [
    (_QUIZ_OPEN + "<quiz>\n  <question type=\"numerical\">\n    <name><text>x</name>\n</quiz>\n", 4,
     "the XML is not well-formed: Opening and ending tag mismatch: text line 4 and name"),
    (_QUIZ_OPEN + '<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<quiz><question type="numerical">'
     "<name><text>&xxe;</text></name></question></quiz>\n", 1,
     "the file has a DOCTYPE: a quiz file may not declare a DTD or entities"),
    (_QUIZ_OPEN + '<!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
     '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>\n'
     "<quiz><question type=\"numerical\"><name><text>&d;&d;&d;&d;</text></name></question></quiz>\n", 1,
     "the file has a DOCTYPE: a quiz file may not declare a DTD or entities"),
    ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<quiz></quiz>\n', 1,
     "the file declares the encoding ISO-8859-1: save it as UTF-8 (Moodle writes UTF-8)"),
    (_QUIZ_OPEN + "<html>\n<body/></html>\n", 2, "this is not Moodle XML: its root element is <html>, not <quiz>"),
    (_QUIZ_OPEN + "<quiz>\n</quiz>\n", 1, "the file holds no questions (Moodle XML)"),
    (_QUIZ_OPEN + "<quiz>\n<question type=\"numerical\"><name><text>&nope;</text></name></question></quiz>", 3,
     "the XML is not well-formed: Entity 'nope' not defined"),
])
def test_bad_xml_is_refused_with_its_line(text, line, message):
    assert _problems(text, "bad.xml") == [f"bad.xml:{line}: {message}"]


def test_an_external_entity_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    text = (_QUIZ_OPEN + f'<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n'
            "<quiz><question type=\"numerical\"><name><text>&xxe;</text></name></question></quiz>\n")
    problems = _problems(text, "xxe.xml")
    assert problems and not any("TOP-SECRET" in p for p in problems)


def test_bad_gift_is_refused_with_its_line():
    text = "::One::Who wins?{=you ~me}\n\n::Two::Who wins?{=you ~me\n\n::Three no close\n"
    assert _problems(text, "bad.gift") == [
        "bad.gift:1: question One: it has no scenario the engine can check: a question is imported with its "
        'scenario, written <!-- tutor: {"kind": ..., "scenario": {...}} --> in its text (this app\'s exports write it)',
        "bad.gift:3: question Two: its answers ({...}) do not close with }",
        "bad.gift:5: the question's title (::title::) does not close",
    ]
    assert _problems("// only a comment\n", "empty.gift") == ["empty.gift:1: the file holds no questions (GIFT)"]


def test_a_huge_file_is_refused_before_it_is_parsed():
    text = "<quiz>" + " " * MAX_CHARS + "</quiz>"
    for reader in (import_moodle_xml, import_gift):
        with pytest.raises(ContentError) as e:
            reader(text, "huge")
        assert [str(p) for p in e.value.problems] == [
            f"huge:1: the file is too big: {len(text):,} characters, at most {MAX_CHARS:,}"]


# ------------------------------------------------------------------------------ command line

def _tutor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tutor.cli", *args], check=False, capture_output=True, text=True,
                          timeout=300)


def test_cli_import_writes_the_quiz_yaml_and_refuses_bad_files(tmp_path):
    good = _tutor("import", str(DATA / "moodle-third-party.xml"))
    assert good.returncode == 0, good.stderr
    quiz = import_quiz(good.stdout, "back.yaml")
    assert [q.id for q in quiz] == ["HK-TRUMP-01", "Kot for the defenders", "Follow suit"]
    # tutor export takes such a file too
    out = _tutor("export", str(DATA / "gift-third-party.gift"), "--format", "moodle")
    assert out.returncode == 0 and out.stdout.count('<question type="multichoice">') == 2, out.stderr
    plain = DATA / "gift-plain.gift"
    bad = _tutor("import", str(plain))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert [ln.split(":")[1] for ln in bad.stderr.splitlines()] == [
        str(_line_of(plain, "::Who wins?::")), str(_line_of(plain, "::Kot points::")),
        str(_line_of(plain, "::Trump beats::"))]
    xxe = tmp_path / "xxe.xml"
    xxe.write_text(_QUIZ_OPEN + '<!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz/>', encoding="utf-8")
    latin = tmp_path / "latin.gift"
    latin.write_bytes("::Pik::Wer gewinnt? Pik ist Trumpf {=ich ~du}".encode("latin-1").replace(b"?", b"\xbf"))
    broken = tmp_path / "broken.xml"
    broken.write_text("<quiz><question>", encoding="utf-8")
    for path, message in ((xxe, "1: the file has a DOCTYPE"), (latin, "1: file is not UTF-8 text"),
                          (broken, "1: the XML is not well-formed")):
        r = _tutor("import", str(path))
        assert r.returncode == 2 and r.stderr.startswith(f"{path}:{message}"), r.stderr
        assert "Traceback" not in r.stderr


# ------------------------------------------------------------------------------ web

def _upload(client, qid: int, data: bytes, name: str):
    token = csrf_of(client.get(f"/en/teach/quizzes/{qid}").text)
    return client.post(f"/en/teach/quizzes/{qid}/import", content_type="multipart/form-data",
                       data={"csrf_token": token, "import-upload": (BytesIO(data), name)})


def _errors(page: str, field: str) -> list[str]:
    m = re.search(rf'id="import-{field}-error"[^>]*>(.*?)</p>', page, re.S)
    assert m, page[-3000:]
    return re.findall(r'<span class="problem">(.*?)</span>', m.group(1)) or [m.group(1)]


def test_the_web_imports_moodle_xml_and_gift_and_shows_problems_beside_the_field(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t, "From Moodle")
    r = _upload(t, qid, (DATA / "moodle-third-party.xml").read_bytes(), "hokm.xml")
    assert r.status_code == 302, r.text[-2000:]
    r = post(t, f"/en/teach/quizzes/{qid}/import", {"import-text": (DATA / "gift-third-party.gift").read_text("utf-8")},
             page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 302
    questions = quiz_doc(app, qid)["questions"]
    assert [q["kind"] for q in questions] == ["trick-winner", "round-score", "legal-cards", "next-hakem",
                                              "round-score", "trick-winner"]
    assert all(q["teaches"] in _steps("hokm") for q in questions)
    # the quiz's own Moodle export imports into another quiz with nothing lost
    for route, name in (("moodle.xml?lang=fa", "quiz-moodle-fa.xml"), ("gift.txt?lang=te", "quiz-gift-te.txt")):
        exported = t.get(f"/en/teach/quizzes/{qid}/export/hokm/{route}")
        assert exported.status_code == 200, route
        other = new_quiz(t, "Copy")
        r = _upload(t, other, exported.data, name)
        assert r.status_code == 302, route
        assert same_value(quiz_doc(app, other)["questions"], questions), route

    plain = DATA / "moodle-plain.xml"
    before = len(quiz_doc(app, qid)["questions"])
    r = _upload(t, qid, plain.read_bytes(), "plain.xml")
    assert r.status_code == 400
    errors = _errors(r.text, "upload")
    lines = [_line_of(plain, f'type="{t}"') for t in ("multichoice", "numerical", "truefalse")]
    assert [e.split(":")[0] for e in errors] == [f"Line {n}" for n in lines]
    assert "no scenario the engine can check" in errors[0]
    for data, name, message in (
        (b'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz>&x;</quiz>', "x.xml",
         "the file has a DOCTYPE"),
        (b"<quiz><question>", "broken.xml", "the XML is not well-formed"),
        ("::Pik::Wer gewinnt? {=ich ~du}".encode("latin-1") + b"\xbf", "latin.gift", "The file is not UTF-8 text."),
        (b"x" * 200001, "huge.xml", "The file is too big: at most 200,000 bytes."),
    ):
        r = _upload(t, qid, data, name)
        assert r.status_code == 400 and "Traceback" not in r.text
        assert message in " ".join(_errors(r.text, "upload")), (name, _errors(r.text, "upload"))
    assert len(quiz_doc(app, qid)["questions"]) == before


# ------------------------------------------------------------------------------ files other tools write
# gift-wrapper (a YAML bank made into GIFT) and quizpy (Moodle XML built in Python), both in the test
# extra: a teacher's questions written with them, each carrying its scenario in the question text as the
# module docstring of tutor/export/lmsread.py says, import through the function and the command line.

_NEXT = {"kind": "next-hakem", "scenario": {"ruleset": "hokm", "ask": "round-score", "hakem": 2, "team_tricks": [4, 7]}}
_KOT = {"scenario": {"ruleset": "hokm", "ask": "round-score", "hakem": 1, "team_tricks": [0, 7]}}
_FOLLOW = {"scenario": {"ruleset": "hokm", "ask": "legal-plays", "trump": "D", "hand": ["4C", "QC", "9H", "AD"],
                        "trick": ["JC"]}}
#: (id, kind, expect) of the three questions, as the engine keys them.
_KEYED = [("Next hakem", "next-hakem", {"next_hakem": 3}), ("Kot", "round-score", {"points": 2, "result": "kot"}),
          ("Follow suit", "legal-cards", {"legal": ["4C", "QC"]})]


def _scenario_comment(block: dict) -> str:
    import json

    return f"<!-- tutor: {json.dumps(block)} -->"


def _gift_text(text: str) -> str:
    """Text as GIFT wants it in a question (gift-wrapper writes the statement as given)."""
    for ch in "\\{}=~#:":
        text = text.replace(ch, "\\" + ch)
    return text


def _gift_wrapper_file(tmp_path: Path) -> Path:
    import yaml
    from gift_wrapper.core import wrap

    bank = {"pictures base directory": "hokm", "categories": [{"name": "Card games/Hokm", "questions": [
        {"class": "MultipleChoice", "name": "Next hakem", "time": 1,
         "statement": "The hakem sits on your partner's seat; his team lost 4 to 7.\nWho is the next hakem?"
                      + _gift_text(_scenario_comment(_NEXT)),
         "answers": {"perfect": "your left-hand opponent", "wrong": ["you", "your partner", "your right-hand opponent"]},
         "feedback": "The hakem changes when his team loses."},
        {"class": "Numerical", "name": "Kot", "statement": "Your team took no trick. How many points?"
                                                           + _gift_text(_scenario_comment(_KOT)),
         "solution": {"value": 2, "error": 0}},
        {"class": "MultipleChoice", "name": "Follow suit",
         "statement": "Diamonds are trump; the J♣ was led. Which cards may you play?"
                      + _gift_text(_scenario_comment(_FOLLOW)),
         "answers": {"partial": [["four of clubs", 50], ["queen of clubs", 50], ["nine of hearts", -100],
                                 ["ace of diamonds", -100]]}},
    ]}]}
    source = tmp_path / "bank.yaml"
    source.write_text(yaml.safe_dump(bank, allow_unicode=True), encoding="utf-8")
    wrap(parameters=str(tmp_path / "none.yaml"), questions_file=str(source), local_run=True, no_checks=True,
         embed_images=True)
    return tmp_path / "bank.gift.txt"


def _quizpy_file(tmp_path: Path) -> Path:
    import quizpy

    quiz = quizpy.Quiz()
    category = quiz.add_category("Card games/Hokm")
    # quizpy's multiple choice is a check-box question unless told single=True: as written, a teacher's
    # one right answer of the four is still the engine's key
    nxt = quizpy.MultipleChoice("Next hakem", "<p>His team lost 4 to 7. Who is the next hakem?</p>"
                                + _scenario_comment(_NEXT), 1.0)
    for text, fraction in (("you", 0.0), ("your right-hand opponent", 0.0), ("your partner", 0.0),
                           ("your left-hand opponent", 100.0)):
        nxt.add_choice(text, fraction)
    kot = quizpy.Numerical("Kot", "<p>Your team took no trick. How many points?</p>" + _scenario_comment(_KOT), 1.0)
    kot.add_answer(2, 100.0)
    follow = quizpy.MultipleChoice("Follow suit", "<p>Diamonds are trump; the J♣ was led. Which cards may you play?"
                                   "</p>" + _scenario_comment(_FOLLOW), 2.0)
    for text, fraction in (("four of clubs", 50.0), ("queen of clubs", 50.0), ("nine of hearts", -100.0),
                           ("ace of diamonds", -100.0)):
        follow.add_choice(text, fraction)
    category.questions.extend([nxt, kot, follow])
    out = tmp_path / "hokm.xml"
    quiz.export(str(out))
    return out


def test_files_written_by_gift_wrapper_and_quizpy_import(tmp_path):
    files = {"gift": _gift_wrapper_file(tmp_path), "moodle": _quizpy_file(tmp_path)}
    gift_text = files["gift"].read_text(encoding="utf-8")
    assert gift_text.startswith("$CATEGORY: $course$/Card games/Hokm") and "\\{" in gift_text  # their own layout
    assert "&lt;!-- tutor" in files["moodle"].read_text(encoding="utf-8")  # quizpy escapes the HTML
    for fmt, path in files.items():
        quiz = import_any(path.read_text(encoding="utf-8"), str(path))
        assert quiz.ruleset == "hokm"
        assert [(q.id, q.kind, q.expect) for q in quiz] == _KEYED, fmt
        assert all(q.teaches in _steps("hokm") for q in quiz)  # derived from the engine's reasons
        nxt = quiz.questions[0]
        assert "tutor" not in nxt.prompt["en"] and "\\" not in nxt.prompt["en"]
        assert nxt.prompt["en"].endswith("Who is the next hakem?" if fmt == "moodle" else "Estimated time: 1 minutes")
    assert import_any(files["moodle"].read_text(encoding="utf-8"), "x").questions[2].points == 2
    for fmt, path in files.items():
        r = _tutor("import", str(path))
        assert r.returncode == 0, r.stderr
        back = import_quiz(r.stdout, "back.yaml")
        assert [(q.id, q.kind, q.expect) for q in back] == _KEYED, fmt


def test_a_check_box_question_with_one_right_answer_is_keyed_only_when_the_engine_has_one():
    quiz = import_any(_quizpy_file_text(), "q.xml")
    assert quiz.questions[0].expect == {"next_hakem": 3}
    # the same check box question with two right answers is not the engine's key
    two = _quizpy_file_text().replace('fraction="0.0" format="html"><text>you<', 'fraction="100.0" format="html"><text>you<', 1)
    problems = _problems(two, "q.xml")
    assert any("question Next hakem: the file asks it as multiresponse" in p for p in problems), problems


def _quizpy_file_text() -> str:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        return _quizpy_file(Path(d)).read_text(encoding="utf-8")
