"""What a new learner sees: localised prompts of generated questions, seat numbers at the table,
Persian digits on Persian pages, consistent wording, the page layout hooks (checked through
Flask's test client; the browser test checks the layout itself)."""

from __future__ import annotations

import itertools
import re

import pytest
from markupsafe import escape
from web_support import csrf_of, expected, form_for, wrong_value

from tutor import i18n
from tutor.content.generators import generate
from tutor.content.kinds import kind_prompt, question_prompt
from tutor.content.kinds.walk_through import first_leader
from tutor.domain.models import Quiz
from tutor.web import exercises as X

LANGS = i18n.LANGUAGES
#: What the generators' English authoring prompts look like; never to be shown to a learner.
RAW_PROMPT = re.compile(r"\bSeat \d|\bseat \d+ (led|is)|\b[SHDC] was led|trump is [SHDC]\b|Which seat wins")


def start_quiz(client, lang="en", game="hokm", seed="15570", count="5", difficulty="1"):
    page = client.get(f"/{lang}/practice/").get_data(as_text=True)
    r = client.post(f"/{lang}/practice/", data={"game": game, "count": count, "difficulty": difficulty, "seed": seed,
                                                 "csrf_token": csrf_of(page)})
    assert r.status_code == 302
    return r.headers["Location"].rsplit("/", 1)[0]


def quiz_of(app) -> Quiz:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        quiz = db.query(Quiz).order_by(Quiz.id.desc()).first()
        db.expunge(quiz)
        db.close()
    return quiz


def set_refs(app, refs: list[str]) -> None:
    """Make the learner's latest quiz ask exactly ``refs`` (to look at chosen exercises)."""
    with app.app_context():
        db = app.extensions["tutor_db"]()
        quiz = db.query(Quiz).order_by(Quiz.id.desc()).first()
        quiz.refs = refs
        db.commit()
        db.close()


def prompt_in(html: str) -> str:
    m = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html, re.DOTALL)
    assert m, "no prompt on the page"
    return m.group(1)


# ------------------------------------------------------------------------------ generated prompts

@pytest.mark.parametrize("lang", LANGS)
def test_generated_questions_show_their_own_localised_prompt(app, client, lang):
    base = start_quiz(client, lang)
    quiz = quiz_of(app)
    generated = [n for n, ref in enumerate(quiz.refs, 1) if ref.startswith("gen:")]
    assert generated, "seed 15570 draws generated questions"
    for n, ref in enumerate(quiz.refs, 1):
        ex = X.resolve(ref)
        html = client.get(f"{base}/{n}").get_data(as_text=True)
        assert not RAW_PROMPT.search(html)
        if ref.startswith("gen:"):  # its own prompt: what it states, then the kind's question
            assert set(ex.prompt) == set(LANGS)
            with i18n.using(lang):
                assert prompt_in(html) == str(escape(question_prompt(ex))) == str(escape(ex.prompt[lang]))
                assert question_prompt(ex).endswith(kind_prompt(ex.kind))
        r = client.post(f"{base}/{n}", data=form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(html)})
        assert r.status_code == 302
        assert not RAW_PROMPT.search(client.get(r.headers["Location"]).get_data(as_text=True))
    results = client.get(f"{base}/results").get_data(as_text=True)
    assert not RAW_PROMPT.search(results)
    for n in generated:
        with i18n.using(lang):
            assert str(escape(kind_prompt(quiz.refs[n - 1].split(":")[2]))) in results
    # the same prompts in "Replay my mistakes" (every answer above was wrong)
    progress = client.get(f"/{lang}/progress/").get_data(as_text=True)
    assert not RAW_PROMPT.search(progress)
    r = client.post(f"/{lang}/mistakes/replay", data={"csrf_token": csrf_of(progress)})
    replay = client.get(r.headers["Location"]).get_data(as_text=True)
    assert not RAW_PROMPT.search(replay)
    with app.app_context(), i18n.using(lang):
        first = X.resolve(quiz_of(app).refs[0])
        assert prompt_in(replay) == str(escape(X.prompt_of(first)))


def test_generated_question_in_the_api_has_its_own_prompt(client):
    ref = "gen:hokm:trick-winner:2:15570"
    ex = X.resolve(ref)
    for lang in LANGS:
        view = client.get(f"/api/v1/exercises/{ref}?lang={lang}").get_json()
        with i18n.using(lang):
            trump = i18n.suit_name(ex.scenario["trump"], plural=True)  # as the table names it
            assert view["prompt"] == f"{i18n.gettext('Trump')}: {trump}. {i18n.gettext('Who led')}: " \
                f"{i18n.seat_label(ex.scenario['leader'], 0, 4, 'hokm')}. {kind_prompt('trick-winner')}"


def test_generator_prompts_are_readable_english():
    seat = re.compile(r"\b[Ss]eat\b|\b[SHDC]\b|\d+[SHDC]\b")
    for ruleset, kinds in (("hokm", ("legal-cards", "trick-winner", "round-score", "next-hakem", "game-winner")),
                           ("all-fours", ("legal-cards", "trick-winner", "turn-up")),
                           ("trinidad", ("trick-winner", "turn-up"))):
        for kind in kinds:
            for d in (1, 2, 3):
                for seed in range(6):
                    prompt = generate(ruleset, kind, seed, d).prompt
                    assert not seat.search(prompt), prompt
    ex = generate("hokm", "trick-winner", 15570, 1)
    assert ex.scenario["leader"] == 0 and ex.prompt.startswith("You led and ")
    trump = i18n.suit_name(ex.scenario["trump"], plural=True)
    assert f"{trump} are trump. Who wins the trick?" in ex.prompt
    legal = generate("hokm", "legal-cards", 15570, 1)
    led = i18n.suit_name(legal.scenario["trick"][0][-1], plural=True)
    assert legal.prompt.startswith(f"{led.capitalize()} were led and ")
    for seed in range(12):
        rs = generate("hokm", "round-score", seed, 2)
        who = i18n.seat_label(rs.scenario["hakem"], 0, 4, "hokm")
        assert rs.prompt.startswith(who[:1].upper() + who[1:] + (" are hakem;" if who == "you" else " is hakem;"))
        mine, theirs = rs.scenario["team_tricks"]
        assert f"your team took {mine} trick" in rs.prompt and f"the other team {theirs} trick" in rs.prompt
        t = generate("trinidad", "turn-up", seed, 1)
        assert f"turns up the {i18n.card_label(t.scenario['card'])}." in t.prompt
    # English also where another language is in use (a request in Persian draws generated questions)
    with i18n.using("fa"):
        assert generate("hokm", "trick-winner", 15570, 1).prompt == ex.prompt
        assert generate("trinidad", "turn-up", 11, 1).prompt == t.prompt


# ------------------------------------------------------------------------------ seat numbers

def seat_numbers(html: str) -> list[str]:
    return re.findall(r'<span class="seat-no"[^>]*>([^<]*)</span>', html)


@pytest.mark.parametrize(("lang", "words"), [("en", ["seat 1", "seat 2", "seat 3", "seat 4"]),
                                             ("fa", ["جایگاه ۱", "جایگاه ۲", "جایگاه ۳", "جایگاه ۴"])])
def test_table_shows_each_seat_number_under_its_name(app, client, lang, words):
    base = start_quiz(client, lang)
    set_refs(app, ["gen:hokm:trick-winner:2:3"])
    html = client.get(f"{base}/1").get_data(as_text=True)
    assert sorted(seat_numbers(html)) == words
    with i18n.using(lang):
        you, partner = i18n.seat_label(0, 0, 4, "hokm"), i18n.seat_label(2, 0, 4, "hokm")
    assert re.search(rf'>{re.escape(you)}</span>\s*<span class="seat-no"[^>]*>{words[0]}</span>', html)
    assert re.search(rf'>{re.escape(partner)}</span>\s*<span class="seat-no"[^>]*>{words[2]}</span>', html)


def test_trick_rows_name_the_seat_numbers(app, client):
    base = start_quiz(client)
    set_refs(app, ["gen:all-fours:hand-score:2:0", "gen:all-fours:walk-through:2:0"])
    hand = X.resolve("gen:all-fours:hand-score:2:0")
    html = client.get(f"{base}/1").get_data(as_text=True)
    seats = X.walk_seats(hand)
    rows = re.findall(r'<fieldset class="trick-row".*?</fieldset>', html, re.DOTALL)
    assert len(rows) == len(seats)
    for row, who in zip(rows, seats, strict=True):
        assert seat_numbers(row) == [f"seat {s + 1}" for s in who]
    # walk-through: the first trick's seats are known before any pick, and the page script gets them all
    walk = client.get(f"{base}/2").get_data(as_text=True)
    first = first_leader(X.resolve("gen:all-fours:walk-through:2:0"))
    players = 3
    row0 = re.search(r'<fieldset class="trick-row" data-trick="0">.*?</fieldset>', walk, re.DOTALL).group(0)
    assert seat_numbers(row0) == [f"seat {(first + i) % players + 1}" for i in range(players)]
    assert 'data-numbers="[&#34;seat 1&#34;, &#34;seat 2&#34;, &#34;seat 3&#34;]"' in walk


# ------------------------------------------------------------------------------ Persian digits

def test_persian_results_use_persian_digits_for_the_seed_and_the_list(app, client):
    base = start_quiz(client, "fa", seed="699211")
    html = client.get(f"{base}/results").get_data(as_text=True)
    assert "۶۹۹۲۱۱" in html and "699211" not in html
    with i18n.using("fa"):
        assert i18n.gettext("Quiz seed: %(seed)s", seed="۶۹۹۲۱۱") in html
    assert '<ol class="review">' in html
    assert visible_digits(html) == []
    css = re.search(r'<link rel="stylesheet" href="(/languages\.css[^"]*)">', html).group(1)  # from the registry
    assert ":where(:lang(fa)) ol { list-style-type: persian; }" in client.get(css).get_data(as_text=True)


def test_a_seed_copied_from_a_persian_page_repeats_the_quiz(app, client):
    start_quiz(client, "fa", seed="۶۹۹۲۱۱")
    a = quiz_of(app)
    start_quiz(client, "en", seed="699211")
    b = quiz_of(app)
    assert a.seed == b.seed == 699211 and a.refs == b.refs


def test_fmt_number_without_grouping():
    with i18n.using("fa"):
        assert i18n.fmt_number(699211, group=False) == "۶۹۹۲۱۱"
        assert i18n.fmt_number(699211) == "۶۹۹٬۲۱۱"
    assert i18n.fmt_number(699211, group=False) == "699211"


# ------------------------------------------------------------------------------ small things

@pytest.mark.parametrize("ref", ["gen:hokm:game-winner:3:2", "gen:all-fours:game-winner:2:3"])  # seeds aimed at "none"
def test_game_winner_nobody_reads_the_same_in_option_and_feedback(app, client, ref):
    ex = X.resolve(ref)
    assert expected(ex) is None
    base = start_quiz(client)
    set_refs(app, [ref])
    page = client.get(f"{base}/1").get_data(as_text=True)
    assert "<span>nobody yet</span>" in page
    r = client.post(f"{base}/1", data=form_for(ex, 0) | {"csrf_token": csrf_of(page)})
    fb = client.get(r.headers["Location"]).get_data(as_text=True)
    assert re.search(r"<dt>Winner</dt><dd>nobody yet ", fb)


def test_home_cards_have_a_footer_and_beg_points_a_grid(client):
    html = client.get("/en/").get_data(as_text=True)
    assert html.count('<div class="game-foot">') == 3
    for card in re.findall(r'<article class="game-card">.*?</article>', html, re.DOTALL):
        foot = card.split('<div class="game-foot">', 1)[1]
        assert "<progress" in foot and 'class="actions"' in foot
    step = client.get("/en/learn/all-fours/af-discard").get_data(as_text=True)
    assert '<div class="choice-row points-row">' in step
    assert step.count('name="points-') == 3


def visible_digits(html: str) -> list[str]:
    """ASCII digits in the words of the page's <main> (rule ids such as "C15", "H27" or "K12" are codes, left out)."""
    main = re.search(r"<main.*?</main>", html, re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", main.group(0) if main else html)
    text = re.sub(r"\b[CTHK]\d+\b", " ", text)
    return re.findall(r".{0,25}[0-9].{0,15}", text)


def test_persian_pages_show_no_latin_digits(app, client):
    from tutor.web.views.practice import RULESET_KINDS

    # (lesson prose is the content writers'; the pages the app draws itself are checked here)
    pages = ["/fa/", "/fa/practice/"] + [f"/fa/learn/{r}/" for r in RULESET_KINDS]
    for url in pages:
        assert visible_digits(client.get(url).get_data(as_text=True)) == [], url
    refs = [f"gen:{r}:{k}:{d}:5" for r, kinds in RULESET_KINDS.items() for k in kinds for d in (1, 3)]
    base = start_quiz(client, "fa")
    set_refs(app, refs)
    for n, ref in enumerate(refs, 1):
        ex = X.resolve(ref)
        page = client.get(f"{base}/{n}").get_data(as_text=True)
        assert visible_digits(page) == [], ref
        value = wrong_value(ex, expected(ex)) if n % 2 else expected(ex)
        r = client.post(f"{base}/{n}", data=form_for(ex, value) | {"csrf_token": csrf_of(page)})
        assert visible_digits(client.get(r.headers["Location"]).get_data(as_text=True)) == [], ref
    assert visible_digits(client.get(f"{base}/results").get_data(as_text=True)) == []
    assert visible_digits(client.get("/fa/progress/").get_data(as_text=True)) == []


_OPT = re.compile(r'<label class="opt( right| miss)?(?: chosen)?"><input type="radio" name="([\w-]+)" value="([^"]+)"([^>]*)>')


@pytest.mark.parametrize(("ref", "name"), [("gen:hokm:next-leader:1:0", "seat"), ("gen:trinidad:next-leader:3:2", "seat"),
                                           ("gen:hokm:next-hakem:1:0", "seat"), ("gen:hokm:round-score:1:0", "points"),
                                           ("gen:hokm:game-winner:3:1", "winner"),
                                           ("gen:all-fours:game-points:1:0", "game"),
                                           ("gen:trinidad:game-points:3:4", "game")])
@pytest.mark.parametrize("right_answer", [True, False])
def test_answered_options_mark_the_right_one_and_a_wrong_choice(app, client, ref, name, right_answer):
    """After answering, the right option is marked ✓ and the learner's other choice ✗; nothing else."""
    ex = X.resolve(ref)
    right = expected(ex)
    given = right if right_answer else wrong_value(ex, right)
    right_value, given_value = form_for(ex, right)[name], form_for(ex, given)[name]
    base = start_quiz(client)
    set_refs(app, [ref])
    page = client.get(f"{base}/1").get_data(as_text=True)
    assert " right\"" not in page and " miss\"" not in page and "opt-mark" not in page  # no key before answering
    r = client.post(f"{base}/1", data=form_for(ex, given) | {"csrf_token": csrf_of(page)})
    fb = client.get(r.headers["Location"]).get_data(as_text=True)
    opts = [(mark.strip(), value, "checked" in rest) for mark, n, value, rest in _OPT.findall(fb) if n == name]
    assert len(opts) >= 2
    for mark, value, checked in opts:
        assert checked == (value == given_value)
        assert mark == ("right" if value == right_value else "miss" if value == given_value else ""), (value, mark)
    marks = re.findall(r'<span class="opt-mark">(.)<span class="sr-only"> (?:right answer|your answer)</span></span>', fb)
    assert marks == ["✓" if value == right_value else "✗" for _m, value, _c in opts if value in (right_value, given_value)]


def heading_levels(html: str) -> list[int]:
    main = re.search(r"<main.*?</main>", html, re.DOTALL)
    return [int(h) for h in re.findall(r"<h([1-6])[\s>]", main.group(0) if main else "")]


def test_question_and_feedback_pages_pass_axe_structure_rules(app, client):
    """One h1 and no skipped heading level (axe-core's page-has-heading-one, heading-order), on a quiz
    question, its feedback and a lesson step's feedback."""
    ref = "gen:all-fours:game-points:1:0"
    ex = X.resolve(ref)
    base = start_quiz(client)
    set_refs(app, [ref])
    page = client.get(f"{base}/1").get_data(as_text=True)
    r = client.post(f"{base}/1", data=form_for(ex, wrong_value(ex, expected(ex))) | {"csrf_token": csrf_of(page)})
    fb = client.get(r.headers["Location"]).get_data(as_text=True)
    step = client.get("/en/learn/hokm/hokm-hakem").get_data(as_text=True)
    s_ex = next(e for e in X.content().lesson_path("hokm", "en").get("hokm-hakem").exercises if e.id == "lead-2")
    r = client.post("/en/learn/hokm/hokm-hakem/lead-2",
                    data=form_for(s_ex, wrong_value(s_ex, expected(s_ex))) | {"csrf_token": csrf_of(step)})
    step_fb = client.get(r.headers["Location"]).get_data(as_text=True)
    for html in (page, fb, step_fb):
        levels = heading_levels(html)
        assert levels[0] == 1 and levels.count(1) == 1, levels
        assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), levels
    assert "<h2>The right answer</h2>" in fb and "<h2>The right answer</h2>" in step_fb
    # (axe-core's aria-prohibited-attr: a plain span cannot be named; the ✓ of a line is read as words)
    for html in (page, fb, step_fb):
        assert not re.search(r"<span(?![^>]*\brole=)[^>]*\baria-label=", html)
    assert '<span class="sr-only">you got this right</span>' in fb
