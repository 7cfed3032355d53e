"""The learner's loop through Flask's test client: walk-through tricks judged each on its own,
answers sent with fetch (the exercise's section alone), errors kept in place with the learner's
choices, hints, stars per step, the unit summary, the streak and daily goal."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from web_support import (
    BOTH_DIRECTIONS,
    Clock,
    csrf_of,
    expected,
    form_for,
    lesson_exercise,
    rows,
    wrong_value,
)

from tutor import i18n
from tutor.content import kinds
from tutor.content.kinds.walk_through import picks_of, real_winners, seats_of_picks
from tutor.domain.models import Attempt, StepProgress
from tutor.domain.record import stars_for
from tutor.web import exercises as X

FETCH = {"X-Tutor-Fetch": "1"}
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)



@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
def app_config(clock):
    return {"CLOCK": clock}


def walk(ruleset: str):
    return lesson_exercise(ruleset, "walk-through")


def page_of(client, step, lang="en") -> str:
    return client.get(f"/{lang}/learn/{step.ruleset}/{step.id}").get_data(as_text=True)


def post(client, step, ex, data, lang="en", headers=None):
    token = csrf_of(page_of(client, step, lang))
    return client.post(f"/{lang}/learn/{step.ruleset}/{step.id}/{ex.id}", data=data | {"csrf_token": token},
                       headers=headers or {})


def trick_two_wrong(ex) -> dict:
    fields = form_for(ex, expected(ex))
    fields["t1"] = str((int(fields["t1"]) + 1) % len(ex.scenario["tricks"][1]))
    return fields


# ----------------------------------------------------------------------------- walk-through

@pytest.mark.parametrize("ruleset", ["hokm", "trinidad"])
def test_walk_through_trick_judged_on_its_own(ruleset):
    """A wrong card in trick 2 makes trick 2 wrong, and only trick 2: each trick is read from its
    real leader, not from the learner's chain of winners."""
    _step, ex = walk(ruleset)
    fields = trick_two_wrong(ex)
    raw = kinds.KINDS["walk-through"].read_form(ex, _Form(fields))
    v = kinds.grade(ex, raw)
    assert not v.correct
    assert [t["correct"] for t in v.details["tricks"]] == [i != 1 for i in range(len(ex.scenario["tricks"]))]
    assert v.details["result_correct"] is True
    # positions and seats are each other's inverse, against the real play
    picks = [int(fields[f"t{i}"]) for i in range(len(ex.scenario["tricks"]))]
    assert picks_of(ex, seats_of_picks(ex, picks)) == picks
    assert seats_of_picks(ex, picks_of(ex, real_winners(ex))) == real_winners(ex)


class _Form(dict):
    def getlist(self, name):
        v = self.get(name)
        return [] if v is None else [v]


@pytest.mark.both_databases
@pytest.mark.parametrize("lang", BOTH_DIRECTIONS)
def test_walk_through_feedback_marks_exactly_the_wrong_trick(client, lang):
    step, ex = walk("hokm")
    fields = trick_two_wrong(ex)
    r = post(client, step, ex, fields, lang, FETCH)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    marks = re.findall(r'<fieldset class="trick-row( right| wrong)" data-trick="(\d+)">', html)
    assert [m for m, _n in marks].count(" wrong") == 1 and (" wrong", "1") in marks
    assert len(marks) == len(ex.scenario["tricks"])
    # the learner's card is drawn bad (red ✗), the winner of that trick win (★); no other card bad
    assert len(re.findall(r'class="card [^"]*\bbad\b', html)) == 1
    row = re.search(r'<fieldset class="trick-row wrong".*?</fieldset>', html, re.DOTALL).group(0)
    assert re.search(r'checked disabled><span class="card [^"]* bad', row)
    assert len(re.findall(r'class="card [^"]*\bwin\b', row)) == 1


# ----------------------------------------------------------------------------- fetch and errors

@pytest.mark.both_databases
def test_fetch_answer_is_the_section_alone_and_recorded(client, app):
    step, ex = lesson_exercise("hokm", "trick-winner")
    r = post(client, step, ex, form_for(ex, expected(ex)), headers=FETCH)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "<html" not in html and "Location" not in r.headers
    assert html.strip().startswith(f'<section class="exercise kind-trick-winner answered is-right" id="ex-{ex.id}"')
    assert f'id="verdict-{ex.id}"' in html and 'class="button primary continue"' in html
    assert rows(app, Attempt) == 1


@pytest.mark.both_databases
def test_fetch_empty_answer_is_an_error_beside_the_form(client, app):
    step, ex = lesson_exercise("hokm", "round-score")
    r = post(client, step, ex, {}, headers=FETCH)
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "<html" not in html
    assert re.search(rf'<form [^>]*aria-describedby="err-{ex.id}"', html)
    assert f'<p class="form-error" role="alert" id="err-{ex.id}" tabindex="-1">Give the number of points.</p>' in html
    assert rows(app, Attempt) == 0


@pytest.mark.both_databases
def test_without_js_an_invalid_answer_keeps_the_choices_and_the_anchor(client, app):
    step, ex = walk("hokm")
    fields = form_for(ex, expected(ex))
    r = post(client, step, ex, {"t0": fields["t0"], "t1": fields["t1"]})
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and 'role="alert"' in html
    for i in (0, 1):
        assert re.search(rf'name="t{i}" value="{fields[f"t{i}"]}" aria-label="[^"]*" checked', html)
    assert not re.search(r'name="t2" value="\d" aria-label="[^"]*" checked', html)
    # the form's action ends in the exercise's anchor, and opening that URL leads back to it
    assert f'action="/en/learn/hokm/{step.id}/{ex.id}#ex-{ex.id}"' in html
    back = client.get(f"/en/learn/hokm/{step.id}/{ex.id}")
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/en/learn/hokm/{step.id}#ex-{ex.id}")
    assert rows(app, Attempt) == 0


# ----------------------------------------------------------------------------- mistakes first

def test_the_learners_own_mistake_comes_first(client):
    step, ex = lesson_exercise("hokm", "trick-winner")
    right = expected(ex)
    wrong = wrong_value(ex, right)
    html = post(client, step, ex, form_for(ex, wrong), headers=FETCH).get_data(as_text=True)
    mistake = html.index('<div class="mistake">')
    assert mistake < html.index('<details class="explain">') < html.index('<ul class="why">')
    assert 'details class="explain" open' not in html  # folded after a wrong answer
    v = kinds.grade(ex, wrong)
    trick = ex.scenario["trick"]
    leader = ex.scenario.get("leader", 0)
    from tutor import i18n
    card = i18n.card_label(trick[(wrong - leader) % len(trick)])
    assert card in html[mistake:html.index("</div>", mistake)]
    assert not v.correct


def _mistakes(html: str) -> list[str]:
    from html import unescape

    box = html[html.index('<div class="mistake">'):]
    box = box[:box.index("</div>")]
    return [unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", box, re.DOTALL)]


#: Trick 5 of the sample round answered with the 4♥ (played by the learner's partner), not the A♥.
_PICKED_FOUR = {
    "en": "Trick 5: the four of hearts you picked (played by your partner) did not win. "
          "The ace of hearts is the highest trump (hearts) played, so the trick goes to you.",
    "fa": "دست ۵: کارتی که انتخاب کردی، چهار دل (بازی‌شده از طرف یارت)، دست را نبرد. "
          "آس دل بالاترین کارتِ حکم (دل) در این دست است، پس برندهٔ این دست: تو.",
    "bg": "Взятка 5: избраната от вас карта четворка купа (изиграна от партньора ви) не печели. "
          "Асо купа е най-високият изигран коз (купа), затова победител във взятката е: вие.",
    "te": "ట్రిక్ 5: మీరు ఎంచుకున్న కార్డు, మీ భాగస్వామి వేసిన ఆటీను నాలుగు, గెలవలేదు. ",
}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_wrong_trick_names_the_card_picked_and_who_played_it(client, lang):
    """Not "your four of hearts": the card the learner picked, and the seat that played it, in the
    form the language gives a seat after its "by"."""
    step, ex = lesson_exercise("hokm", "walk-through", lambda e: e.id == "sample-1")
    fields = form_for(ex, expected(ex))
    assert ex.scenario["tricks"][4][0] == "4H" and fields["t4"] != "0"
    html = post(client, step, ex, fields | {"t4": "0"}, lang, headers=FETCH).get_data(as_text=True)
    got = _mistakes(html)
    assert len(got) == 1 and got[0].startswith(_PICKED_FOUR[lang]), got


@pytest.mark.parametrize(("lang", "seat", "text"), [
    ("en", 0, "The ace of diamonds you picked (played by you) does not win the trick."),
    ("en", 1, "The two of spades you picked (played by your right-hand opponent) does not win the trick."),
    ("bg", 0, "Избраната от вас карта асо каро (изиграна от вас) не печели взятката."),
    ("bg", 1, "Избраната от вас карта двойка пика (изиграна от противника отдясно) не печели взятката."),
    ("fa", 2, "کارتی که انتخاب کردی، شاه خشت (بازی‌شده از طرف یارت)، دست را نمی‌برد."),
    ("te", 1, "మీరు ఎంచుకున్న కార్డు, మీ కుడి వైపు ప్రత్యర్థి వేసిన ఇస్పేటు రెండు, ట్రిక్‌ను గెలవదు."),
])
def test_a_wrong_trick_winner_names_who_played_the_card(client, lang, seat, text):
    step, ex = lesson_exercise("hokm", "trick-winner", lambda e: e.id == "ex2-1")
    html = post(client, step, ex, {"seat": str(seat)}, lang, headers=FETCH).get_data(as_text=True)
    got = _mistakes(html)
    assert got[0] == text and len(got) == 2, got
    if lang == "en":  # the engine's reason names its card with the article too
        assert got[1] == "The jack of spades is the highest trump (spades) played, so the trick goes to your left-hand opponent."


# ----------------------------------------------------------------------------- stars and hints

@pytest.mark.parametrize(("wrong", "hints", "stars"), [(0, 0, 3), (1, 0, 2), (0, 1, 2), (1, 1, 1), (5, 2, 1)])
def test_stars_for(wrong, hints, stars):
    assert stars_for(wrong, hints) == stars


def _stars(app, step_id):
    with app.app_context():
        db = app.extensions["tutor_db"]()
        row = db.query(StepProgress).filter_by(step_id=step_id).one()
        db.close()
    return row.stars


@pytest.mark.both_databases
def test_stars_count_retries_and_hints(client, app):
    lp = X.content().lesson_path("hokm", "en")
    singles = [s for s in lp.steps if len(s.exercises) == 1]
    first, second, third = singles[:3]
    # right on the first try: three stars
    post(client, first, first.exercises[0], form_for(first.exercises[0], expected(first.exercises[0])))
    assert _stars(app, first.id) == 3
    # a wrong answer, then right: two
    ex = second.exercises[0]
    post(client, second, ex, form_for(ex, wrong_value(ex, expected(ex))))
    post(client, second, ex, form_for(ex, expected(ex)))
    assert _stars(app, second.id) == 2
    # a hint (the rule, not the answer) and a wrong answer, then right: one
    ex = third.exercises[0]
    token = csrf_of(page_of(client, third))
    r = client.post(f"/en/learn/hokm/{third.id}/{ex.id}/hint", data={"csrf_token": token}, headers=FETCH)
    hint = r.get_data(as_text=True)
    assert r.status_code == 200 and f'id="hint-{ex.id}"' in hint and 'class="verdict' not in hint
    assert "hint-button" not in hint
    post(client, third, ex, form_for(ex, wrong_value(ex, expected(ex))))
    post(client, third, ex, form_for(ex, expected(ex)))
    assert _stars(app, third.id) == 1
    # the stars stay once the step is done: a later wrong answer takes none away
    post(client, first, first.exercises[0], form_for(first.exercises[0], wrong_value(first.exercises[0], expected(first.exercises[0]))))
    assert _stars(app, first.id) == 3
    path = client.get("/en/learn/hokm/").get_data(as_text=True)
    for s, n in ((first, 3), (second, 2), (third, 1)):
        item = re.search(rf'<a href="/en/learn/hokm/{s.id}".*?</a>', path, re.DOTALL).group(0)
        assert f'aria-label="{n} of 3 stars"' in item and "★" * n + "</span>" in item


@pytest.mark.both_databases
def test_hint_without_js_redirects_to_the_exercise_with_the_rule(client):
    step, ex = lesson_exercise("hokm", "trick-winner")
    token = csrf_of(page_of(client, step))
    r = client.post(f"/en/learn/hokm/{step.id}/{ex.id}/hint", data={"csrf_token": token})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"?hint={ex.id}#ex-{ex.id}")
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    rule = X.engine_solution(ex)["why"][0]["rule"].split(",")[0]
    assert f'<span class="muted">({rule})</span>' in html


# ----------------------------------------------------------------------------- flow

@pytest.mark.both_databases
def test_continue_goes_to_the_next_exercise_then_the_unit_summary(client):
    lp = X.content().lesson_path("trinidad", "en")
    unit = lp.units[0]
    two = next(s for s in unit.steps if len(s.exercises) == 2)
    a, b = two.exercises
    html = post(client, two, a, form_for(a, expected(a)), headers=FETCH).get_data(as_text=True)
    assert re.search(rf'class="button primary continue" href="/en/learn/trinidad/{two.id}#ex-{b.id}"', html)
    html = post(client, two, b, form_for(b, expected(b)), headers=FETCH).get_data(as_text=True)
    nxt = lp.next_step(two.id)
    assert re.search(rf'class="button primary continue" href="/en/learn/trinidad/{nxt.id}"', html)
    last = unit.steps[-1]
    for ex in last.exercises:
        html = post(client, last, ex, form_for(ex, expected(ex)), headers=FETCH).get_data(as_text=True)
    assert 'class="button primary continue" href="/en/learn/trinidad/unit/1"' in html
    summary = client.get("/en/learn/trinidad/unit/1").get_data(as_text=True)
    assert f'href="/en/learn/trinidad/{lp.units[1].steps[0].id}"' in summary
    assert client.get("/en/learn/trinidad/unit/99").status_code == 404


@pytest.mark.both_databases
def test_streak_and_daily_goal_on_home(client, clock):
    step, ex = lesson_exercise("hokm", "trick-winner")
    assert 'class="daily' not in client.get("/en/").get_data(as_text=True)
    for day in range(3):
        clock.at = T0 + timedelta(days=day)
        post(client, step, ex, form_for(ex, expected(ex)))
    html = client.get("/en/").get_data(as_text=True)
    assert "3 days in a row" in html and "Daily goal: 1 of 10 answers" in html
    clock.at = T0 + timedelta(days=3, hours=5)  # a day without answers yet: the streak still counts
    assert "3 days in a row" in client.get("/en/").get_data(as_text=True)
    clock.at = T0 + timedelta(days=5)  # a day missed: the streak is broken
    html = client.get("/en/").get_data(as_text=True)
    assert "3 days in a row" not in html and "Daily goal: 0 of 10 answers" in html
    for _ in range(10):
        post(client, step, ex, form_for(ex, expected(ex)))
    html = client.get("/fa/").get_data(as_text=True)
    assert "۱ روز پشت سر هم" in html and "هدف روزانه: ۱۰ از ۱۰ پاسخ" in html and "به هدف رسیدی" in html


def test_the_answer_that_finishes_a_step_sends_its_header_done_with_its_stars(client):
    """Through fetch only the exercise's section comes back; the answer that finishes the step
    also brings the step's header line, done with its stars (one wrong answer first: two), and
    no later answer does."""
    lp = X.content().lesson_path("hokm", "en")
    step = next(s for s in lp.steps if len(s.exercises) == 1)
    ex = step.exercises[0]
    url = f"/en/learn/hokm/{step.id}"
    token = csrf_of(client.get(url).get_data(as_text=True))
    wrong = client.post(f"{url}/{ex.id}", data=form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": token},
                        headers=FETCH).get_data(as_text=True)
    assert "data-page-meta" not in wrong
    right = client.post(f"{url}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": token},
                        headers=FETCH).get_data(as_text=True)
    meta = re.search(r"<div data-page-meta hidden>(.*?)</div>", right, re.DOTALL)
    assert meta is not None
    assert f"Step {lp.index(step.id) + 1} of {len(lp)}" in meta.group(1) and "✓ done" in meta.group(1)
    assert 'aria-label="2 of 3 stars"' in meta.group(1) and ">★★<" in meta.group(1)
    again = client.post(f"{url}/{ex.id}", data=form_for(ex, expected(ex)) | {"csrf_token": token},
                        headers=FETCH).get_data(as_text=True)
    assert "data-page-meta" not in again  # already done: the header has it


@pytest.mark.parametrize(("game", "rule"), [("hokm", "H14"), ("all-fours", "C20"), ("trinidad", "T14")])
def test_a_playable_card_left_out_is_named_with_the_rule_that_allows_it(client, game, rule):
    """Leaving out a card you may play is a mistake with its reason, as a card refused is: the
    card, why it may be played (the engine's reason for this hand) and the rule's link."""
    step, ex = lesson_exercise(game, "legal-cards", lambda e: len(expected(e)) >= 2)
    right = expected(ex)
    html = post(client, step, ex, form_for(ex, right[:1]), headers=FETCH).get_data(as_text=True)
    from lxml import html as lxml_html

    missed = [" ".join(li.text_content().split()) for li in lxml_html.fromstring(html).cssselect("li.missed")]
    assert len(missed) == len(right) - 1, missed
    for card, text in zip(right[1:], missed, strict=True):
        assert text.startswith(f"You may play the {i18n.card_label(card)} too. "), text
        assert len(text) > len(f"You may play the {i18n.card_label(card)} too. ") + 20 and rule in text, text
