"""The teacher's quiz page and question editor: a previewed generated question is the one added,
each question's points refused beside them, one points limit for imports and forms, quiz edits
made at once all kept, import problems in line order and the prompts section open on a message.

Every test that writes runs on SQLite and on PostgreSQL (``both_databases``)."""

from __future__ import annotations

import json
import re
import threading

import pytest
from lxml import html as lxml_html
from teach_support import TRICK, add_authored, login, new_quiz, post, quiz_doc, teachers  # noqa: F401
from web_support import csrf_of

from tutor.content import generators
from tutor.content.exercise import MAX_POINTS
from tutor.content.quizzes import load_quiz
from tutor.export.files import dump_quiz, import_quiz, quiz_document, same_value
from tutor.problems import ContentError

pytestmark = pytest.mark.both_databases


def page(text: str):
    return lxml_html.fromstring(text)


def errors(doc) -> dict[str, str]:
    """Every message drawn beside a field: ``{its id: its text}``."""
    return {e.get("id"): e.text_content() for e in doc.cssselect(".field-error")}


def form_data(form, **changed) -> dict:
    """A form's fields as the page draws them (what a browser would send), with ``changed``."""
    return {**dict(form.form_values()), **changed}


def cards(node) -> list[str]:
    return [e.get("value") for e in node.cssselect('[name="card"]')]


# ------------------------------------------------------------------------------------------ 1. generated

def test_the_previewed_generated_question_is_the_one_added(app):
    """With the seed left empty, "Preview" draws a random seed's question and puts that seed in
    the field: sending the form as it came back adds exactly the question previewed."""
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    url = f"/en/teach/quizzes/{qid}/generated"
    doc = page(t.get(f"/en/teach/quizzes/{qid}").text)
    form = doc.xpath(f'//form[@action="{url}"]')[0]
    assert form.fields["g-seed"] in ("", None)
    r = t.post(url, data=form_data(form, **{"g-ruleset": "hokm", "g-gkind": "legal-cards", "action": "preview"}))
    assert r.status_code == 200
    doc = page(r.text)
    seed = doc.get_element_by_id("g-seed").get("value")
    assert seed and seed.isdigit(), seed
    previewed = cards(doc.cssselect(".preview")[0])
    assert previewed
    form = doc.xpath(f'//form[@action="{url}"]')[0]
    r = t.post(url, data=form_data(form, action="add"))
    assert r.status_code == 302 and r.headers["Location"].endswith("#question-1")
    [q] = quiz_doc(app, qid)["questions"]
    assert q["scenario"] == generators.generate("hokm", "legal-cards", int(seed), 1).scenario
    shown = page(t.get(f"/en/teach/quizzes/{qid}/questions/1/preview").text)
    assert cards(shown) == previewed
    # "Add" with the seed empty and no preview still adds a question (of a random seed)
    r = t.post(url, data=form_data(form, action="add", **{"g-seed": ""}))
    assert r.status_code == 302 and len(quiz_doc(app, qid)["questions"]) == 2


# ------------------------------------------------------------------------------------------ 2. points

REFUSED = {
    "en": {"0": "A whole number from 1 to 100.", "101": "A whole number from 1 to 100.",
           "abc": "Not a valid integer value.", "": "This field is required."},
    "fa": {"0": "عددی صحیح از ۱ تا ۱۰۰.", "101": "عددی صحیح از ۱ تا ۱۰۰.", "abc": "این عدد صحیح نیست.",
           "": "پر کردن این فیلد لازم است."},
}


@pytest.mark.parametrize("lang", list(REFUSED))
def test_points_of_a_question_that_are_refused_show_the_message_beside_them(app, lang):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4", points="3")
    add_authored(t, qid, TRICK, "4", points="4")
    url = f"/{lang}/teach/quizzes/{qid}/questions/2"
    for typed, message in REFUSED[lang].items():
        r = post(t, url, {"action": "points", "points": typed}, page=f"/{lang}/teach/quizzes/{qid}")
        assert r.status_code == 400, typed
        doc = page(r.text)
        assert errors(doc) == {"points-2-error": message}, typed
        field = doc.get_element_by_id("points-2")
        assert field.get("value", "") == typed and field.get("aria-invalid") == "true"
        assert field.get("aria-describedby") == "points-2-error"
        assert doc.get_element_by_id("points-1").get("value") == "3"
        assert doc.get_element_by_id("points").get("value") == "1"  # the authoring form's, untouched
        assert doc.get_element_by_id("g-points").get("value") == "1"
        assert [q["points"] for q in quiz_doc(app, qid)["questions"]] == [3, 4]
    r = post(t, url, {"action": "points", "points": str(MAX_POINTS)}, page=f"/{lang}/teach/quizzes/{qid}")
    assert r.status_code == 302 and r.headers["Location"].endswith("#question-2")
    assert [q["points"] for q in quiz_doc(app, qid)["questions"]] == [3, MAX_POINTS]
    doc = page(t.get(f"/{lang}/teach/quizzes/{qid}").text)
    assert doc.get_element_by_id("points-2").get("value") == str(MAX_POINTS) and not errors(doc)


# ------------------------------------------------------------------------------------------ 3. one limit

def _file(points: int, n: int = 2) -> str:
    doc = quiz_document(load_quiz("hokm"))
    doc["questions"] = doc["questions"][:n]
    doc["questions"][-1]["points"] = points
    return dump_quiz(doc)


def test_an_imported_question_has_points_the_forms_take_and_saves_unchanged(app):
    """One limit (MAX_POINTS, 100): a quiz file over it is refused at the line of its points, with
    the limit in the message; a question at it imports, and its edit page saves it unchanged."""
    assert MAX_POINTS == 100
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    url = f"/en/teach/quizzes/{qid}/import"
    text = _file(MAX_POINTS + 1)
    r = post(t, url, {"import-text": text}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 400
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.strip() == f"points: {MAX_POINTS + 1}")
    [problem] = [e.text_content() for e in page(r.text).cssselect("#import-text-error .problem")]
    qname = quiz_document(load_quiz("hokm"))["questions"][1]["id"]
    assert problem == (f"Line {line}: quiz question {qname}: points must be a number above 0 and at most 100, "
                       f"not {MAX_POINTS + 1}")
    assert quiz_doc(app, qid)["questions"] == []
    assert post(t, url, {"import-text": _file(MAX_POINTS)}, page=f"/en/teach/quizzes/{qid}").status_code == 302
    before = quiz_doc(app, qid)["questions"]
    assert before[1]["points"] == MAX_POINTS
    edit = f"/en/teach/quizzes/{qid}/questions/2/edit"
    doc = page(t.get(edit).text)
    assert doc.get_element_by_id("points").get("value") == str(MAX_POINTS)
    form = doc.xpath(f'//form[@action="{edit}"]')[0]
    r = t.post(edit, data=form_data(form))
    assert r.status_code == 302, errors(page(r.text))
    assert same_value(quiz_doc(app, qid)["questions"], before)


# ------------------------------------------------------------------------------------------ 4. at once

def _at_once(clients, send) -> list[int]:
    """``send(client)`` from every client at the same moment (one thread each); their statuses."""
    ready = threading.Barrier(len(clients))
    statuses: list[int] = []

    def run(c):
        ready.wait()
        statuses.append(send(c))
    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return statuses


def test_questions_added_at_once_are_all_kept(app):
    """Ten adds sent together (a double submit, several tabs) store ten questions: each edit reads
    and writes the quiz's questions in one transaction holding its row. So do imports, moves and
    points sent at once."""
    n = 10
    first = login(app.test_client(), "ana")
    qid = new_quiz(first)
    clients = [first, *(login(app.test_client(), "ana") for _ in range(n - 1))]
    quiz_url = f"/en/teach/quizzes/{qid}"
    tokens = {id(c): csrf_of(c.get(quiz_url).text) for c in clients}
    data = {"kind": "trick-winner", "scenario": json.dumps(TRICK), "key": "4", "difficulty": "1", "points": "1"}
    statuses = _at_once(clients, lambda c: c.post(f"{quiz_url}/authored",
                                                  data={"csrf_token": tokens[id(c)], **data}).status_code)
    assert statuses == [302] * n
    questions = quiz_doc(app, qid)["questions"]
    assert len(questions) == n and len({q["id"] for q in questions}) == n
    # imports at once: every file's questions, each with an id of its own
    text = _file(2, n=3)
    statuses = _at_once(clients[:4], lambda c: c.post(f"{quiz_url}/import", data={
        "csrf_token": tokens[id(c)], "import-text": text}).status_code)
    assert statuses == [302] * 4
    questions = quiz_doc(app, qid)["questions"]
    assert len(questions) == n + 12 and len({q["id"] for q in questions}) == n + 12
    # each client sets the points of its own question: every one is kept
    statuses = _at_once(clients, lambda c: c.post(f"{quiz_url}/questions/{clients.index(c) + 1}", data={
        "csrf_token": tokens[id(c)], "action": "points", "points": str(clients.index(c) + 2)}).status_code)
    assert statuses == [302] * n
    assert [q["points"] for q in quiz_doc(app, qid)["questions"][:n]] == list(range(2, n + 2))


# ------------------------------------------------------------------------------------------ 5. line order

def test_import_problems_are_listed_in_line_order(app):
    doc = quiz_document(load_quiz("hokm"))
    doc["questions"] = doc["questions"][:4]
    right = doc["questions"][0]["expect"]["legal"]
    doc["questions"][0]["expect"] = {"legal": right[:1]}  # a wrong key: found by the engine, last
    doc["questions"][2]["points"] = -2                    # found while reading the file, first
    doc["questions"][3]["difficulty"] = 9
    text = dump_quiz(doc)
    with pytest.raises(ContentError) as e:
        import_quiz(text, "quiz.yaml")
    found = [p.line for p in e.value.problems]
    assert len(found) >= 3 and found != sorted(found)  # the checker's own order is not the lines'
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = post(t, f"/en/teach/quizzes/{qid}/import", {"import-text": text}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 400
    shown = [e.text_content() for e in page(r.text).cssselect("#import-text-error .problem")]
    lines = [int(re.match(r"Line (\d+): ", s).group(1)) for s in shown]
    assert lines == sorted(found), shown


# ------------------------------------------------------------------------------------------ 6. prompts

def _prompts_open(doc, form_action: str) -> bool:
    [details] = doc.xpath(f'//form[@action="{form_action}"]//details[contains(@class, "prompts")]')
    return details.get("open") is not None


@pytest.mark.parametrize("lang, message", [("en", "At most 300 characters."), ("fa", "حداکثر ۳۰۰ نویسه.")])
def test_the_prompts_section_opens_when_a_prompt_has_a_message(app, lang, message):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4")
    edit = f"/{lang}/teach/quizzes/{qid}/questions/1/edit"
    doc = page(t.get(edit).text)
    assert not _prompts_open(doc, edit)
    long = "ب" * 301
    r = t.post(edit, data=form_data(doc.xpath(f'//form[@action="{edit}"]')[0], prompt_te=long))
    assert r.status_code == 400
    doc = page(r.text)
    assert errors(doc) == {"prompt_te-error": message}
    assert _prompts_open(doc, edit) and doc.get_element_by_id("prompt_te").get("value") == long
    # the quiz page's two forms likewise
    gen = f"/{lang}/teach/quizzes/{qid}/generated"
    quiz = page(t.get(f"/{lang}/teach/quizzes/{qid}").text)
    assert not _prompts_open(quiz, gen)
    r = t.post(gen, data=form_data(quiz.xpath(f'//form[@action="{gen}"]')[0], action="preview",
                                   **{"g-gkind": "legal-cards", "g-prompt_bg": long}))
    assert r.status_code == 400
    doc = page(r.text)
    assert errors(doc) == {"g-prompt_bg-error": message} and _prompts_open(doc, gen)
    authored = f"/{lang}/teach/quizzes/{qid}/authored"
    assert not _prompts_open(doc, authored)
    r = add_authored(t, qid, TRICK, "4", prompt_en=long)
    assert r.status_code == 400 and _prompts_open(page(r.text), f"/en/teach/quizzes/{qid}/authored")
    assert len(quiz_doc(app, qid)["questions"]) == 1
