"""Pages: home, lesson path, lesson step with its exercises, answering (right, wrong, malformed),
practice quiz, results and progress, checked through Flask's test client."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape
from web_support import (
    BOTH_DIRECTIONS,
    all_rows,
    csrf_of,
    expected,
    form_for,
    lesson_exercise,
    listed_mistakes,
    rows,
    wrong_value,
)

from tutor import i18n
from tutor.content import kinds
from tutor.content.kinds import KINDS
from tutor.domain.models import Attempt, Learner, Mistake, Quiz, StepProgress
from tutor.domain.table import players_of
from tutor.web import exercises as X


def post_answer(client, lang, step, ex, data):
    page = client.get(f"/{lang}/learn/{step.ruleset}/{step.id}").get_data(as_text=True)
    return client.post(f"/{lang}/learn/{step.ruleset}/{step.id}/{ex.id}", data=data | {"csrf_token": csrf_of(page)})


def reasons_text(ex, given, lang):
    verdict = kinds.grade(ex, given)
    with i18n.using(lang):
        return i18n.render_reasons(verdict.why, you=X.you_of(ex), players=players_of(ex.scenario),
                                   ruleset=ex.ruleset)


# ------------------------------------------------------------------------------------------ pages

def test_home_lists_the_three_games(client):
    html = client.get("/en/").get_data(as_text=True)
    for name in ("Hokm", "All Fours (classic)", "All Fours (Trinidad)"):
        assert name in html
    for r in ("hokm", "all-fours", "trinidad"):
        assert f'href="/en/learn/{r}/"' in html
        assert f"of {len(X.lesson_path(r))} steps done" in html


@pytest.mark.both_databases
def test_lesson_path_lists_units_and_highlights_next_step(client):
    path = X.lesson_path("hokm")
    html = client.get("/en/learn/hokm/").get_data(as_text=True)
    for u in path.units:
        assert str(escape(u.title)) in html
    for s in path.steps:
        assert f'href="/en/learn/hokm/{s.id}"' in html
    first = path.steps[0]
    assert re.search(rf'href="/en/learn/hokm/{first.id}" aria-current="step"', html)
    # finishing the first step moves the highlight to the second
    page = client.get(f"/en/learn/hokm/{first.id}").get_data(as_text=True)
    if first.exercises:
        for ex in first.exercises:
            post_answer(client, "en", first, ex, form_for(ex, expected(ex)))
    else:
        client.post(f"/en/learn/hokm/{first.id}/done", data={"csrf_token": csrf_of(page)})
    html = client.get("/en/learn/hokm/").get_data(as_text=True)
    assert re.search(rf'href="/en/learn/hokm/{path.steps[1].id}" aria-current="step"', html)
    assert "1 of 29 steps done" in html or f"1 of {len(path)} steps done" in html


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_step_shows_goal_lesson_and_the_hand_as_accessible_cards(client, lang):
    step, ex = lesson_exercise("hokm", "legal-cards", lambda e: bool(e.scenario.get("trick")))
    html = client.get(f"/{lang}/learn/hokm/{step.id}").get_data(as_text=True)
    with i18n.using(lang):
        s = X.find_step(step.id)
        assert s.lang == lang
        assert str(escape(s.title)) in html and str(escape(s.goal)) in html
        for card in ex.scenario["hand"]:
            label = str(escape(i18n.card_label(card)))
            assert f'<input type="checkbox" name="card" value="{card}" aria-label="{label}">' in html
        for card in ex.scenario["trick"]:
            assert f'aria-label="{escape(i18n.card_label(card))}"' in html
        trump = ex.scenario["trump"]
        assert str(escape(i18n.suit_name(trump, plural=True))) in html


def test_question_page_does_not_leak_the_legal_set(client):
    step, ex = lesson_exercise("hokm", "legal-cards",
                               lambda e: 1 < len(expected(e)) < len(e.scenario["hand"]))
    legal = expected(ex)
    html = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    section = html[html.index(f'id="ex-{ex.id}"'):]
    section = section[:section.index("</section>")]
    assert " checked" not in section
    assert not re.search(r'class="card [^"]*\bok\b', section)
    assert "Cards you may play" not in section and "Right!" not in section
    assert json.dumps(legal) not in html and json.dumps(ex.expect) not in html
    assert i18n.cards_label(legal) not in html
    # every hand card is offered the same way, legal or not
    for card in ex.scenario["hand"]:
        assert f'name="card" value="{card}"' in section


def test_question_page_does_not_leak_the_trick_winner(client):
    step, ex = lesson_exercise("hokm", "trick-winner")
    html = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    section = html[html.index(f'id="ex-{ex.id}"'):]
    section = section[:section.index("</section>")]
    assert not re.search(r'class="card [^"]*\bwin\b', section)
    assert " checked" not in section and "Winner" not in section
    assert section.count('type="radio" name="seat"') == len(ex.scenario["trick"])


# ------------------------------------------------------------------------------------------ answering

@pytest.mark.both_databases
def test_right_answer_is_recorded_and_marks_progress(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    r = post_answer(client, "en", step, ex, form_for(ex, expected(ex)))
    assert r.status_code == 302 and f"#ex-{ex.id}" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Right!" in html
    assert rows(app, Attempt) == 1 and rows(app, Learner) == 1 and rows(app, Mistake) == 0
    with app.app_context():
        db = app.extensions["tutor_db"]()
        prog = db.query(StepProgress).one()
        assert prog.step_id == step.id and ex.id in prog.solved
        assert prog.done == (len(step.exercises) == 1)
        db.close()


@pytest.mark.both_databases
@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_wrong_answer_shows_the_engines_reason_right_answer_and_lesson_link(client, app, lang):
    step, ex = lesson_exercise("hokm", "legal-cards",
                               lambda e: 0 < len(expected(e)) < len(e.scenario["hand"]))
    right = expected(ex)
    wrong = wrong_value(ex, right)
    r = post_answer(client, lang, step, ex, form_for(ex, wrong))
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'class="verdict wrong"' in html
    texts = reasons_text(ex, wrong, lang)
    assert texts
    for text in texts:
        assert str(escape(text)) in html
    illegal = next(c for c in wrong if c not in right)
    with i18n.using(lang):
        assert str(escape(i18n.card_label(illegal))) in html
    section = html[html.index(f'id="ex-{ex.id}"'):]
    for card in right:  # the right answer highlighted on the table
        assert re.search(rf'value="{card}"[^>]*>(<span[^>]*>)?<span class="card [^"]*\bok\b', section), card
    assert f'href="/{lang}/learn/hokm/{step.id}#ex-{ex.id}"' in section  # retry
    assert listed_mistakes(app) == 1
    # answering right later keeps it for review; right twice in a row takes it out of the mistakes list
    post_answer(client, lang, step, ex, form_for(ex, right))
    assert listed_mistakes(app) == 1 and rows(app, Attempt) == 2
    post_answer(client, lang, step, ex, form_for(ex, right))
    assert listed_mistakes(app) == 0 and rows(app, Mistake) == 1 and rows(app, Attempt) == 3


def _lesson_kinds() -> list[tuple[str, str]]:
    """Every (ruleset, kind) of the registry that a lesson of that ruleset has an exercise of."""
    return [(r, k) for k, kind in KINDS.items() for r in kind.rulesets
            if any(e.kind == k for s in X.content().lesson_path(r, "en").steps for e in s.exercises)]


@pytest.mark.parametrize(("ruleset", "kind"), _lesson_kinds())
def test_every_kind_widget_takes_its_right_answer_and_explains_a_wrong_one(client, ruleset, kind):
    step, ex = lesson_exercise(ruleset, kind)
    html = client.get(f"/en/learn/{ruleset}/{step.id}").get_data(as_text=True)
    right = expected(ex)
    data = form_for(ex, right)
    for name in data:  # every field the answer needs is on the page
        assert f'name="{name}"' in html, name
    r = client.post(f"/en/learn/{ruleset}/{step.id}/{ex.id}", data=data | {"csrf_token": csrf_of(html)})
    assert r.status_code == 302
    assert "Right!" in client.get(r.headers["Location"]).get_data(as_text=True)
    wrong = form_for(ex, wrong_value(ex, right))
    r = client.post(f"/en/learn/{ruleset}/{step.id}/{ex.id}", data=wrong | {"csrf_token": csrf_of(html)})
    feedback = client.get(r.headers["Location"])
    assert feedback.status_code == 200 and 'class="verdict wrong"' in feedback.get_data(as_text=True)


def test_every_kind_has_a_lesson_exercise():
    assert {k for _r, k in _lesson_kinds()} == set(KINDS)


def test_hand_score_wrong_category_explained(client):
    step, ex = lesson_exercise("all-fours", "hand-score")
    right = expected(ex)
    wrong = dict(right)
    wrong["game"] = None if right["game"] is not None else 0
    r = post_answer(client, "en", step, ex, form_for(ex, wrong))
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'class="verdict wrong"' in html
    for text in reasons_text(ex, wrong, "en"):
        assert str(escape(text)) in html


@pytest.mark.parametrize("data", [
    {"seat": "abc"}, {"seat": "9"}, {"seat": "-1"}, {"seat": ""}, {},
])
def test_malformed_seat_is_400_with_a_message_and_no_rows(client, app, data):
    step, ex = lesson_exercise("hokm", "trick-winner")
    r = post_answer(client, "en", step, ex, data)
    assert r.status_code == 400
    assert 'class="form-error" role="alert"' in r.get_data(as_text=True)
    assert set(all_rows(app).values()) == {0}


@pytest.mark.parametrize("cards", [["ZZ"], ["1X"], ["AS", "AS"], []])
def test_unknown_or_foreign_cards_are_400(client, app, cards):
    step, ex = lesson_exercise("hokm", "legal-cards")
    hand = ex.scenario["hand"]
    cards = [c if c != "AS" or "AS" not in hand else hand[0] for c in cards]
    if cards == ["AS", "AS"]:
        cards = [next(c for c in ("AS", "2C", "3C", "4D") if c not in hand)]
    r = post_answer(client, "en", step, ex, {"card": cards})
    assert r.status_code == 400
    assert 'class="form-error"' in r.get_data(as_text=True)
    assert set(all_rows(app).values()) == {0}


def test_forged_exercise_and_step_ids(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    page = client.get(f"/en/learn/hokm/{step.id}").get_data(as_text=True)
    token = csrf_of(page)
    r = client.post(f"/en/learn/hokm/{step.id}/no-such-exercise", data={"seat": "0", "csrf_token": token})
    assert r.status_code == 400 and "There is no such exercise." in r.get_data(as_text=True)
    r = client.post(f"/en/learn/hokm/no-such-step/{ex.id}", data={"seat": "0", "csrf_token": token})
    assert r.status_code == 404
    r = client.post(f"/en/learn/chess/{step.id}/{ex.id}", data={"seat": "0", "csrf_token": token})
    assert r.status_code == 404
    assert client.get("/en/quiz/forged-token/1").status_code == 404
    assert set(all_rows(app).values()) == {0}


@pytest.mark.both_databases
def test_someone_elses_attempt_is_not_shown(client, app, tmp_path):
    step, ex = lesson_exercise("hokm", "trick-winner")
    r = post_answer(client, "en", step, ex, form_for(ex, expected(ex)))
    other = app.test_client()
    html = other.get(r.headers["Location"]).get_data(as_text=True)
    assert "Right!" not in html and 'class="verdict' not in html


# ------------------------------------------------------------------------------------------ practice

def start_quiz(client, lang="en", game="hokm", seed="7", count="5", difficulty="1", kinds_=None):
    page = client.get(f"/{lang}/practice/").get_data(as_text=True)
    data = {"game": game, "count": count, "difficulty": difficulty, "seed": seed, "csrf_token": csrf_of(page)}
    if kinds_:
        data[f"kinds-{game}"] = kinds_
    return client.post(f"/{lang}/practice/", data=data)


@pytest.mark.both_databases
def test_quiz_is_reproducible_from_its_seed(app):
    a, b = app.test_client(), app.test_client()
    start_quiz(a, seed="12345")
    start_quiz(b, seed="12345")
    start_quiz(b, seed="54321")
    with app.app_context():
        db = app.extensions["tutor_db"]()
        quizzes = db.query(Quiz).order_by(Quiz.id).all()
        assert quizzes[0].refs == quizzes[1].refs
        assert quizzes[0].refs != quizzes[2].refs
        assert len(quizzes[0].refs) == 5
        assert any(r.startswith("gen:") for r in quizzes[0].refs)
        assert any(r.startswith("quiz:") for r in quizzes[0].refs)
        db.close()


@pytest.mark.both_databases
def test_quiz_flow_feedback_and_results(client, app):
    r = start_quiz(client, seed="99", kinds_=["trick-winner", "legal-cards", "round-score"])
    assert r.status_code == 302
    base = r.headers["Location"].rsplit("/", 1)[0]
    with app.app_context():
        db = app.extensions["tutor_db"]()
        refs = db.query(Quiz).one().refs
        db.close()
    for n, ref in enumerate(refs, 1):
        ex = X.resolve(ref)
        assert ex.kind in ("trick-winner", "legal-cards", "round-score")
        page = client.get(f"{base}/{n}").get_data(as_text=True)
        assert f"Question {n} of 5" in page
        right = expected(ex)
        value = wrong_value(ex, right) if n == 2 else right
        r = client.post(f"{base}/{n}", data=form_for(ex, value) | {"csrf_token": csrf_of(page)})
        assert r.status_code == 302 and r.headers["Location"].endswith(f"/{n}/feedback")
        fb = client.get(r.headers["Location"]).get_data(as_text=True)
        if n == 2:
            assert 'class="verdict wrong"' in fb
            for text in reasons_text(ex, value, "en"):
                assert str(escape(text)) in fb
            assert "Try again" in fb and "/en/learn/" in fb
        else:
            assert "Right!" in fb
    html = client.get(f"{base}/results").get_data(as_text=True)
    assert "4 of 5 right at the first try" in html
    assert html.count('<th scope="row">') >= 1
    assert html.count("<li class=\"good\">") == 4 and html.count("<li class=\"wrong\">") == 1
    assert rows(app, Mistake) == 1 and rows(app, Attempt) == 5


@pytest.mark.both_databases
def test_quiz_of_another_learner_is_404(client, app):
    r = start_quiz(client)
    url = r.headers["Location"]
    assert client.get(url).status_code == 200
    assert app.test_client().get(url).status_code == 404


def test_practice_setup_rejects_bad_settings(client, app):
    page = client.get("/en/practice/").get_data(as_text=True)
    for data in ({"game": "chess"}, {"game": "hokm", "count": "1000"}, {"game": "hokm", "difficulty": "9"},
                 {"game": "hokm", "seed": "abc"}):
        r = client.post("/en/practice/", data=data | {"csrf_token": csrf_of(page)})
        assert r.status_code == 400 and 'class="form-error"' in r.get_data(as_text=True)
    assert set(all_rows(app).values()) == {0}


# ------------------------------------------------------------------------------------------ progress

@pytest.mark.both_databases
def test_progress_reset_and_replay_mistakes(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    post_answer(client, "en", step, ex, form_for(ex, wrong_value(ex, expected(ex))))
    post_answer(client, "en", step, ex, form_for(ex, expected(ex)))
    step2, ex2 = lesson_exercise("hokm", "round-score")
    post_answer(client, "en", step2, ex2, form_for(ex2, wrong_value(ex2, expected(ex2))))
    html = client.get("/en/progress/").get_data(as_text=True)
    assert "Right answers: 1 of 3" in html
    assert "Replay my mistakes" in html and str(escape(X.prompt_of(ex2))) in html
    assert rows(app, StepProgress) == 1
    r = client.post(f"/en/progress/reset/{step.id}", data={"csrf_token": csrf_of(html)})
    assert r.status_code == 302 and rows(app, StepProgress) == 0
    r = client.post("/en/mistakes/replay", data={"csrf_token": csrf_of(html)})
    assert r.status_code == 302
    q = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Question 1 of 1" in q and str(escape(X.prompt_of(ex2))) in q
    r = client.post(r.headers["Location"], data=form_for(ex2, expected(ex2)) | {"csrf_token": csrf_of(q)})
    # ex (right once, due later) was not replayed; both now wait for their next review
    assert listed_mistakes(app) == 2 and rows(app, Mistake) == 2


@pytest.mark.both_databases
def test_display_name(client, app):
    html = client.get("/en/progress/").get_data(as_text=True)
    r = client.post("/en/progress/name", data={"name": "  Shirin  ", "csrf_token": csrf_of(html)})
    assert r.status_code == 302
    assert "Progress of Shirin" in client.get("/en/progress/").get_data(as_text=True)
    r = client.post("/en/progress/name", data={"name": "x" * 41, "csrf_token": csrf_of(html)})
    assert r.status_code == 400


def test_lesson_markup_is_sanitised(client):
    for r in ("hokm", "all-fours", "trinidad"):
        for s in X.lesson_path(r).steps[:5]:
            html = client.get(f"/en/learn/{r}/{s.id}").get_data(as_text=True)
            body = html[html.index('<article class="lesson">'):]
            assert "<script" not in body and "javascript:" not in body


@pytest.mark.parametrize("a", ["99999999999999999999999999", "-1", "abc", "٣", "1" * 13])
def test_odd_attempt_ids_in_the_url_are_ignored(client, a):
    step, ex = lesson_exercise("hokm", "trick-winner")
    post_answer(client, "en", step, ex, form_for(ex, expected(ex)))  # a learner with a row
    r = client.get(f"/en/learn/hokm/{step.id}?a={a}")
    assert r.status_code == 200 and 'class="verdict' not in r.get_data(as_text=True)


@pytest.mark.both_databases
def test_home_continue_goes_to_the_next_step(client):
    path = X.lesson_path("all-fours")
    first = path.steps[0]
    page = client.get(f"/en/learn/all-fours/{first.id}").get_data(as_text=True)
    if first.exercises:
        for ex in first.exercises:
            post_answer(client, "en", first, ex, form_for(ex, expected(ex)))
    else:
        client.post(f"/en/learn/all-fours/{first.id}/done", data={"csrf_token": csrf_of(page)})
    html = client.get("/en/").get_data(as_text=True)
    assert f'href="/en/learn/all-fours/{path.steps[1].id}">Continue</a>' in html


def test_points_may_be_typed_in_persian_digits(client):
    step, ex = lesson_exercise("trinidad", "turn-up")
    right = expected(ex)
    persian = str(right).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    r = post_answer(client, "fa", step, ex, {"points": persian})
    assert r.status_code == 302
    assert 'class="verdict good"' in client.get(r.headers["Location"]).get_data(as_text=True)
