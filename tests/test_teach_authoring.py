"""Teacher authoring: answer keys and scenarios checked at the field, previews, prompts in four
languages, lessons per teacher, forms that fail their checks. Helpers: test_teach.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from teach_support import (  # noqa: F401
    TRICK,
    add_authored,
    add_generated,
    add_generated_form,
    answer,
    join,
    login,
    new_class,
    new_quiz,
    post,
    quiz_doc,
    teachers,
)
from web_support import csrf_of, expected, form_for

from tutor.content import kinds
from tutor.web.authoring import FieldErrors, authored_question, exercise_of

pytestmark = pytest.mark.both_databases

# ------------------------------------------------------------------------------------------ authoring

def test_a_wrong_answer_key_is_flagged_at_the_field(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = add_authored(t, qid, TRICK, "1")  # the engine: seat 4 (the jack of spades) wins, not seat 1
    assert r.status_code == 400
    m = re.search(r'<p class="field-error" id="key-error" role="alert">([^<]*)</p>', r.text)
    assert m and "The engine disagrees with this key" in m.group(1)
    assert "Jack of Spades" in m.group(1) or "J♠" in m.group(1) or "jack" in m.group(1).lower()
    assert re.search(r'<textarea[^>]* name="scenario"', r.text) and re.search(r'<select[^>]* name="kind"', r.text)
    assert 'aria-invalid="true"' in r.text and json.dumps(TRICK).replace('"', "&#34;") in r.text  # input kept
    assert quiz_doc(app, qid)["questions"] == []
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    q = quiz_doc(app, qid)["questions"][0]
    assert q["kind"] == "trick-winner" and q["expect"] == {"winner": 3, "card": "JS"} and q["points"] == 1
    assert q["scenario"] == TRICK and q["teaches"]


@pytest.mark.parametrize(("scenario", "key", "field", "message"), [
    ("{not json", "1", "scenario", "not valid JSON"),
    ('["a list"]', "1", "scenario", "must be a JSON object"),
    (json.dumps({**TRICK, "ask": "legal-plays"}), "1", "scenario", "needs the ask trick-winner"),
    (json.dumps({**TRICK, "trick": ["AD", "AD", "KD", "JS"]}), "1", "scenario", "The engine rejects this scenario"),
    (json.dumps(TRICK), "seven", "key", "cannot be read"),
])
def test_bad_scenarios_and_keys_are_flagged(scenario, key, field, message):
    from flask import Flask
    from flask_babel import Babel
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context(), pytest.raises(FieldErrors) as e:
        authored_question("trick-winner", scenario, key)
    assert list(e.value.errors) == [field] and message in e.value.errors[field]


def test_generated_question_preview_is_the_learners_question_and_reorder_points(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    r = add_generated(t, qid, seed=42, action="preview")
    assert r.status_code == 200 and "What learners will see" in r.text
    assert quiz_doc(app, qid)["questions"] == []
    assert add_generated(t, qid, seed=42).status_code == 302
    assert add_authored(t, qid, TRICK, "4").status_code == 302
    doc = quiz_doc(app, qid)
    gen = doc["questions"][0]
    assert gen["kind"] == "legal-cards" and gen["points"] == 2 and "seed" not in json.dumps(gen)
    from tutor.content import generators
    assert gen["scenario"] == generators.generate("hokm", "legal-cards", 42, 1).scenario
    # the preview of the stored question shows the same hand as the generator's preview did
    hand = re.findall(r'name="card" value="([0-9A-Z]+)"', t.get(f"/en/teach/quizzes/{qid}/questions/1/preview").text)
    assert set(gen["scenario"]["hand"]) <= set(hand)
    post(t, f"/en/teach/quizzes/{qid}/questions/2", {"action": "up"}, page="/en/teach/")
    assert [q["kind"] for q in quiz_doc(app, qid)["questions"]] == ["trick-winner", "legal-cards"]
    post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "points", "points": "5"}, page="/en/teach/")
    assert quiz_doc(app, qid)["questions"][0]["points"] == 5
    assert post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "points", "points": "0"},
                page="/en/teach/").status_code == 400
    post(t, f"/en/teach/quizzes/{qid}/questions/1", {"action": "delete"}, page="/en/teach/")
    assert [q["kind"] for q in quiz_doc(app, qid)["questions"]] == ["legal-cards"]


def test_prompts_in_four_languages_are_kept_and_shown(app):
    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4", prompt_en="Who takes it?", prompt_fa="کی می‌برد؟")
    q = quiz_doc(app, qid)["questions"][0]
    assert q["prompt"] == {"en": "Who takes it?", "fa": "کی می‌برد؟"}
    assert "کی می‌برد؟" in t.get(f"/fa/teach/quizzes/{qid}/questions/1/preview").text
    bg = t.get(f"/bg/teach/quizzes/{qid}/questions/1/preview").text
    assert "Who takes it?" not in bg and "کی" not in bg  # no prompt in Bulgarian: the kind's own, in Bulgarian


def test_lesson_preview_is_sanitised_and_shows_exercises(app):
    t = login(app.test_client(), "ana")
    body = ("Follow **suit** <script>alert(1)</script> <a href=\"javascript:alert(1)\">x</a>\n\n"
            "```exercise\nid: e1\nkind: trick-winner\nprompt: Who wins?\ndifficulty: 1\n"
            f"scenario: {json.dumps(TRICK)}\nexpect: {{winner: 3}}\n```\n")
    r = post(t, "/en/teach/lessons/", {"lesson-title": "Trumps", "lesson-goal": "Know trumps", "lesson-ruleset": "hokm",
                                        "lesson-lang": "en", "lesson-body": body}, page="/en/teach/")
    assert r.status_code == 302
    page = t.get(r.headers["Location"]).text
    page = page[page.index('id="h-lpreview"'):]
    assert "<strong>suit</strong>" in page and "<script>alert" not in page and "javascript:" not in page
    assert "Who wins?" in page and 'class="exercise kind-trick-winner' in page


def test_lessons_are_per_teacher_and_units_can_be_assigned(app):
    a = login(app.test_client(), "ana")
    r = post(a, "/en/teach/lessons/", {"lesson-title": "Mine", "lesson-goal": "g", "lesson-ruleset": "hokm",
                                        "lesson-lang": "fa", "lesson-body": "سلام"}, page="/en/teach/")
    url = r.headers["Location"]
    assert a.get(url).status_code == 200
    b = login(app.test_client(), "bob")
    assert b.get(url).status_code == 404
    assert post(b, url, {"lesson-title": "x", "lesson-goal": "g", "lesson-ruleset": "hokm", "lesson-lang": "en",
                         "lesson-body": "x"}, page="/en/teach/").status_code == 404
    assert "Mine" not in b.get("/en/teach/").text
    cid, code = new_class(a)
    r = post(a, f"/en/teach/classes/{cid}", {"what": "unit:hokm:1"})
    assert r.status_code == 302
    learner = app.test_client()
    join(learner, code, "Zari")
    page = learner.get("/en/classes/").text
    assert "/en/learn/hokm/#unit-1" in page
    # the learner does the first step of unit 1: the teacher's progress table counts it
    from tutor.web import exercises as X
    with app.test_request_context("/en/"):
        unit = next(u for u in X.lesson_path("hokm").units if u.number == 1)
    step = unit.steps[0]
    form_page = learner.get(f"/en/learn/hokm/{step.id}")
    if step.exercises:
        for ex in step.exercises:
            learner.post(f"/en/learn/hokm/{step.id}/{ex.id}",
                         data={"csrf_token": csrf_of(form_page.text), **form_for(ex, expected(ex))})
    else:
        learner.post(f"/en/learn/hokm/{step.id}/done", data={"csrf_token": csrf_of(form_page.text)})
    page = a.get(f"/en/teach/classes/{cid}").text
    assert f"1 of {len(unit.steps)} steps done" in page


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(["hokm", "trick-winner", "legal-plays", "S", "AD",
                                                                        "JS", "10H", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["ruleset", "ask", "trump", "trick", "hand", "leader", "players", "options", "x"]),
        inner, max_size=5),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=json_values, key=json_values, kind=st.sampled_from(sorted(kinds.KINDS)))
def test_any_scenario_and_key_is_a_question_or_a_message_at_a_field(scenario, key, kind):
    """Odd input gives a question the engine agrees with, or a message at one field: nothing else."""
    from flask import Flask
    from flask_babel import Babel
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context():
        base = {"ruleset": "hokm", "ask": kinds.KINDS[kind].asks[0]}
        sc = {**base, **scenario} if isinstance(scenario, dict) else scenario
        try:
            q = authored_question(kind, json.dumps(sc), json.dumps(key))
        except FieldErrors as e:
            assert len(e.errors) == 1 and set(e.errors) <= {"kind", "scenario", "key"}
        else:  # the key counts seats and sides from 1, the learner's raw answer from 0
            ex = exercise_of(q)
            assert kinds.grade(ex, kinds.from_key(ex, kinds.KINDS[kind].typed(key))).correct


def test_a_new_quiz_class_or_lesson_that_fails_its_checks_comes_back_with_the_message(app):
    """A form on the teaching home that does not validate is the page again (400) with the
    message beside its field, what was typed kept, the other forms empty and nothing made; a
    quiz title that does not validate is the quiz page again with the message, the title kept."""
    from lxml import html as lxml_html

    c = login(app.test_client(), "ana")

    def errors(page) -> dict[str, str]:
        doc = lxml_html.fromstring(page)
        return {e.get("id"): e.text_content() for e in doc.cssselect(".field-error")}

    r = post(c, "/fa/teach/quizzes/", {"quiz-title": "   "}, page="/fa/teach/")
    assert r.status_code == 400 and errors(r.text) == {"quiz-title-error": "پر کردن این فیلد لازم است."}
    assert 'dir="rtl"' in r.text and 'aria-invalid="true"' in r.text
    body = "Trumps beat every other suit.\n"
    r = post(c, "/en/teach/lessons/", {"lesson-title": "Ruffing", "lesson-goal": "", "lesson-ruleset": "hokm",
                                       "lesson-lang": "en", "lesson-body": body}, page="/en/teach/")
    assert r.status_code == 400 and errors(r.text) == {"lesson-goal-error": "This field is required."}
    doc = lxml_html.fromstring(r.text)
    assert doc.get_element_by_id("lesson-title").get("value") == "Ruffing"
    assert doc.get_element_by_id("lesson-body").text_content().strip() == body.strip()  # the text typed is not lost
    assert doc.get_element_by_id("quiz-title").get("value") in (None, "")
    # the messages WTForms would give in its own words (and not at all in Telugu) are the app's
    too_long = {"en": "At most 80 characters.", "fa": "حداکثر ۸۰ نویسه.", "bg": "Най-много 80 знака.",
                "te": "గరిష్ఠంగా 80 అక్షరాలు."}
    for lang, message in too_long.items():
        r = post(c, f"/{lang}/teach/classes/", {"class-name": "x" * 81}, page=f"/{lang}/teach/")
        assert r.status_code == 400 and errors(r.text) == {"class-name-error": message}, lang
        assert lxml_html.fromstring(r.text).get_element_by_id("class-name").get("value") == "x" * 81
    home = c.get("/en/teach/").text
    assert "No quizzes yet." in home and "No classes yet." in home and "No lessons yet." in home
    qid = new_quiz(c, "Trumps")
    r = post(c, f"/en/teach/quizzes/{qid}/title", {"quiz-title": ""}, page=f"/en/teach/quizzes/{qid}")
    assert r.status_code == 400 and errors(r.text) == {"quiz-title-error": "This field is required."}
    assert "<h1>Trumps</h1>" in r.text or ">Trumps<" in r.text
    assert post(c, f"/en/teach/quizzes/{qid}/title", {"quiz-title": "Ruffs"}, page=f"/en/teach/quizzes/{qid}").status_code == 302
    # numbers: one that is not a number, and one out of range, in the page's digits
    r = add_generated_form(c, qid, {"g-seed": "seven"}, lang="te")
    assert r.status_code == 400 and errors(r.text) == {"g-seed-error": "ఇది పూర్ణసంఖ్య కాదు."}
    r = add_generated_form(c, qid, {"g-points": "0"}, lang="fa")
    assert r.status_code == 400 and errors(r.text)["g-points-error"] == "عددی صحیح از ۱ تا ۱۰۰."
    r = add_generated_form(c, qid, {"g-ruleset": "bridge"}, lang="bg")
    assert r.status_code == 400 and errors(r.text)["g-ruleset-error"] == "Този избор не е сред предложените."
    assert ">Ruffs<" in c.get("/en/teach/").text


def test_the_scenario_example_keeps_its_own_direction_in_persian(app):
    """The authoring form's example scenario is code, left to right inside the Persian sentence
    (it was scrambled by the right-to-left layout)."""
    from lxml import html as lxml_html

    c = login(app.test_client(), "ana")
    qid = new_quiz(c)
    doc = lxml_html.fromstring(c.get(f"/fa/teach/quizzes/{qid}").text)
    hint = doc.get_element_by_id("scenario-hint")
    assert hint.text_content().startswith("سناریویی در قالب JSON رابط solve، مثلاً ")
    code = hint.cssselect("code")[0]
    assert code.get("dir") == "ltr"
    assert json.loads(code.text_content()) == {"ruleset": "hokm", "ask": "trick-winner", "trump": "S",
                                               "trick": ["AD", "2S", "KD", "JS"]}
