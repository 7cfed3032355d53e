"""Class statistics and results: a scripted class, the results page and CSV, nicknames, assigning
again, counts and names in each language. Helpers: test_teach.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from teach_support import (  # noqa: F401
    DUE,
    TRICK,
    add_authored,
    answer,
    assign,
    class_with_quiz,
    join,
    login,
    new_class,
    new_quiz,
    post,
    quiz_doc,
    teachers,
)
from web_support import expected, form_for, wrong_value

from tutor.domain import classes as C
from tutor.domain.models import Assignment, ClassAttempt, Membership
from tutor.web.authoring import exercise_of

pytestmark = pytest.mark.both_databases

# ------------------------------------------------------------------------------------------ statistics

def _attempt(learner, n, given, correct, rules=()):
    return ClassAttempt(assignment_id=1, learner_id=learner, position=n, given=given, correct=correct,
                        rules=list(rules))


def test_statistics_of_a_scripted_class():
    """Three learners, two questions (1 and 3 points).

    Q1: L1 wrong (0) then right; L2 right; L3 wrong (0), wrong (2).
        attempts 5, right 2 -> share 2/5 = 0.4; first tries: L1 0, L2 1, L3 0 -> facility 1/3;
        wrong answers: 0, 0, 2 -> most common 0 (twice).
    Q2 (3 points): L1 right; L2 wrong ["AS"]; (L3 did not answer).
        share 1/2; facility (3 + 0) / (3 * 2) = 0.5; most common wrong ["AS"] once.
    Scores: L1 0 + 3 = 3 of 4; L2 1 + 0 = 1 of 4; L3 0 of 4.
    Weak spots over wrong first tries: Q1 L1 [H17], L3 [H17, H18]; Q2 L2 [H14]
        -> H17 2 (2 learners), H14 1, H18 1.
    """
    questions = [{"kind": "trick-winner", "points": 1}, {"kind": "legal-cards", "points": 3}]
    attempts = [
        _attempt(1, 1, 0, False, ["H17"]), _attempt(2, 1, 3, True), _attempt(1, 1, 3, True),
        _attempt(3, 1, 0, False, ["H17", "H18"]), _attempt(1, 2, ["KS"], True),
        _attempt(2, 2, ["AS"], False, ["H14"]), _attempt(3, 1, 2, False, ["H17"]),
    ]
    s1, s2 = C.question_stats(questions, attempts)
    assert (s1.attempts, s1.learners, s1.share, s1.wrong, s1.wrong_count) == (5, 3, 0.4, 0, 2)
    assert s1.facility == pytest.approx(1 / 3)
    assert (s2.attempts, s2.learners, s2.share, s2.facility, s2.wrong, s2.wrong_count) == (2, 2, 0.5, 0.5, ["AS"], 1)
    assert [C.score(questions, attempts, i) for i in (1, 2, 3)] == [(3, 4), (1, 4), (0, 4)]
    assert [(w.rule, w.wrong, w.learners) for w in C.weak_spots(attempts)] == [("H17", 2, 2), ("H14", 1, 1), ("H18", 1, 1)]
    assert C.question_stats([{"kind": "beg", "points": 2}], []) == [C.QuestionStats(1, 0, 0, None, None, None, 0)]


def test_results_page_and_csv(app):
    t, qid, cid, code, aid = class_with_quiz(app)
    doc = quiz_doc(app, qid)
    ex2 = exercise_of(doc["questions"][1])
    right2 = expected(ex2)
    wrong2 = wrong_value(ex2, right2)
    zari = app.test_client()
    join(zari, code, "=Zari")  # a nickname a spreadsheet would read as a formula
    answer(zari, cid, aid, 1, {"seat": "0"})
    answer(zari, cid, aid, 2, form_for(ex2, right2))
    omid = app.test_client()
    join(omid, code, "Omid")
    answer(omid, cid, aid, 1, {"seat": "3"})
    answer(omid, cid, aid, 2, form_for(ex2, wrong2))
    answer(omid, cid, aid, 2, form_for(ex2, right2))
    page = t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    assert "Omid" in page and "=Zari" in page
    assert "Winner: your left-hand opponent" in page or "Winner:" in page  # Zari's wrong answer in words
    # Q1: 2 answers, 1 right -> 50%; facility 50%; Q2: 3 answers, 2 right -> 67%, facility 50%
    stats = re.findall(r"<td>([^<]*%)</td>", page)
    assert stats == ["50%", "50%", "67%", "50%"]
    assert "H17" in page or "H" in page
    r = t.get(f"/en/teach/classes/{cid}/assignments/{aid}/results.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and r.mimetype_params["charset"] == "utf-8"
    assert r.data.startswith(codecs.BOM_UTF8)  # so that Excel reads it as UTF-8
    reader = csv.DictReader(io.StringIO(r.data.decode("utf-8-sig")))
    rows = list(reader)
    assert reader.fieldnames == list(C.CSV_COLUMNS)
    assert [(x["learner"], x["question"], x["attempts"], x["first_correct"], x["points_scored"]) for x in rows] == [
        ("'=Zari", "1", "1", "no", "0"), ("'=Zari", "2", "1", "yes", str(doc["questions"][1]["points"])),
        ("Omid", "1", "1", "yes", "1"), ("Omid", "2", "2", "no", "0")]
    # answers as the teacher writes keys: seats from 1 (the page's "seat 1" and "seat 4"), cards by spaces
    assert [(x["first_answer"], x["last_answer"]) for x in rows if x["question"] == "1"] == [("1", "1"), ("4", "4")]
    assert rows[3]["first_answer"] == " ".join(wrong2) and rows[3]["last_answer"] == " ".join(right2)
    assert rows[3]["last_correct"] == "yes"
    # each learner's every answer
    with app.app_context():
        db = app.extensions["tutor_db"]()
        mid = db.scalar(select(Membership.id).where(Membership.nickname == "Omid"))
        db.close()
    page = t.get(f"/en/teach/classes/{cid}/assignments/{aid}/learners/{mid}").text
    assert page.count('class="good"') == 2 and page.count('class="wrong"') == 1


def _errors(page: str) -> dict[str, str]:
    """The messages beside the fields of a page: field error id -> its text."""
    from lxml import html as lxml_html

    return {e.get("id"): e.text_content() for e in lxml_html.fromstring(page).cssselect(".field-error")}


def _members(app, cid: int) -> list[tuple[int, str]]:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        out = [(m.learner_id, m.nickname) for m in db.scalars(
            select(Membership).where(Membership.classroom_id == cid).order_by(Membership.id))]
        db.close()
    return out


def test_a_nickname_taken_in_the_class_is_refused_and_joining_again_still_works(app):
    """Two learners under one nickname could not be told apart on the results page or in the CSV:
    another learner taking a nickname of the class (whatever its case) is refused beside the
    nickname, in the page's language, what was typed kept. The learner who has it joining again
    from the same browser is still let in, as before (still one membership, the nickname kept)."""
    from lxml import html as lxml_html

    t = login(app.test_client(), "ana")
    cid, code = new_class(t)
    zari = app.test_client()
    join(zari, code, "Zari")
    join(zari, code, "Zari")  # again, from the same browser
    join(zari, code, "Someone else")  # a member joining again keeps the nickname they have
    assert [n for _lid, n in _members(app, cid)] == ["Zari"]
    other = app.test_client()
    for lang, typed, message in (
            ("en", "Zari", "Another learner in this class goes by this nickname: choose another one."),
            ("fa", "zari", "یادگیرندهٔ دیگری در این کلاس همین نام مستعار را دارد: نام دیگری برگزین."),
            ("bg", "  ZARI ", "Друг ученик в този клас вече използва този прякор: изберете друг."),
            ("te", "Zari", "ఈ తరగతిలో మరో అభ్యాసకుడు ఇదే ముద్దుపేరుతో ఉన్నారు: వేరొకటి ఎంచుకోండి.")):
        r = post(other, f"/{lang}/join", {"code": code.lower(), "nickname": typed}, page=f"/{lang}/join")
        assert r.status_code == 400, lang
        assert _errors(r.text) == {"nickname-error": message}, lang
        doc = lxml_html.fromstring(r.text)
        assert doc.get_element_by_id("nickname").get("value") == typed
        assert doc.get_element_by_id("code").get("value") == code.lower()
        assert doc.get_element_by_id("nickname").get("aria-invalid") == "true"
    assert len(_members(app, cid)) == 1
    join(other, code, "Zari B")  # another nickname is welcome
    assert [n for _lid, n in _members(app, cid)] == ["Zari", "Zari B"]
    # the nickname is one class's: the same one in another class is fine
    cid2, code2 = new_class(t, "8A")
    join(other, code2, "Zari")
    assert [n for _lid, n in _members(app, cid2)] == ["Zari"]


def test_assigning_again_or_a_due_date_gone_by_is_refused_beside_the_field(app):
    """What a class has already (a quiz, a lesson unit) assigned again would be two identical
    columns: refused beside the choice. A due date before today is refused beside the date. Both
    in the page's language, the choice and the date typed kept, nothing assigned; today is fine."""
    from lxml import html as lxml_html

    t = login(app.test_client(), "ana")
    qid = new_quiz(t)
    add_authored(t, qid, TRICK, "4")
    cid, _code = new_class(t)
    assign(t, cid, qid)
    url = f"/{{}}/teach/classes/{cid}"
    r = post(t, url.format("bg"), {"what": f"quiz:{qid}", "due": DUE})
    assert r.status_code == 400 and _errors(r.text) == {"what-error": "Това вече е зададено на този клас."}
    doc = lxml_html.fromstring(r.text)
    assert doc.cssselect("#what option[selected]")[0].get("value") == f"quiz:{qid}"
    assert doc.get_element_by_id("due").get("value") == DUE
    assert post(t, url.format("en"), {"what": "unit:hokm:1"}).status_code == 302
    r = post(t, url.format("en"), {"what": "unit:hokm:1"})
    assert r.status_code == 400 and _errors(r.text) == {"what-error": "This is already assigned to this class."}
    today = datetime.now(UTC).date()
    yesterday = (today - timedelta(days=1)).isoformat()
    messages = {"en": "The due date has passed: choose today or a later day.",
                "fa": "این مهلت گذشته است: امروز یا روزی پس از آن را برگزین.",
                "te": "ఈ గడువు తేదీ దాటిపోయింది: ఈ రోజు లేదా తర్వాతి రోజును ఎంచుకోండి."}
    for lang, message in messages.items():
        r = post(t, url.format(lang), {"what": "unit:hokm:2", "due": yesterday})
        assert r.status_code == 400 and _errors(r.text) == {"due-error": message}, lang
        doc = lxml_html.fromstring(r.text)
        assert doc.get_element_by_id("due").get("value") == yesterday
        assert doc.cssselect("#what option[selected]")[0].get("value") == "unit:hokm:2"
    # both at once: each message beside its field
    r = post(t, url.format("en"), {"what": f"quiz:{qid}", "due": yesterday})
    assert r.status_code == 400 and set(_errors(r.text)) == {"what-error", "due-error"}
    with app.app_context():
        db = app.extensions["tutor_db"]()
        assert len(db.scalars(select(Assignment).where(Assignment.classroom_id == cid)).all()) == 2
        db.close()
    assert post(t, url.format("en"), {"what": "unit:hokm:2", "due": today.isoformat()}).status_code == 302


def test_counts_percentages_and_names_in_each_language(app):
    """Counts are plural-aware in every language ("1 point", "1 wrong first answer by 1 learner",
    Bulgarian "1 грешен първи отговор от 1 ученик"); Persian percentages have the Persian percent
    sign and the facility index has one name; typed names (nickname, class, quiz) are in <bdi>, so
    a nickname starting with "=" keeps its own direction in Persian."""
    from lxml import html as lxml_html

    t, qid, cid, code, aid = class_with_quiz(app)
    points2 = quiz_doc(app, qid)["questions"][1]["points"]
    zari = app.test_client()
    join(zari, code, '=HYPERLINK("http://x")')
    page = lxml_html.fromstring(zari.get(f"/en/classes/{cid}/assignments/{aid}/1").text)
    assert page.cssselect(".quiz-head p.meta")[0].text_content().split(" · ")[-1] == "1 point"
    assert page.cssselect(".quiz-head h1 bdi")[0].text_content() == "Trumps"
    answer(zari, cid, aid, 1, {"seat": "0"})  # wrong
    page = lxml_html.fromstring(zari.get(f"/en/classes/{cid}/assignments/{aid}/results").text)
    assert page.cssselect(".score-big")[0].text_content() == f"Score: 0 of {1 + points2} points"
    assert [m.text_content().strip("· ") for m in page.cssselect(".review .meta")] == [
        "1 point", f"{points2} points"]

    def results(lang):
        return lxml_html.fromstring(t.get(f"/{lang}/teach/classes/{cid}/assignments/{aid}").text)

    weak = {"en": "1 wrong first answer by 1 learner", "bg": "1 грешен първи отговор от 1 ученик",
            "fa": "۱ پاسخ نخستِ نادرست از ۱ یادگیرنده", "te": "1 అభ్యాసకుడు ఇచ్చిన 1 తప్పు మొదటి జవాబు"}
    for lang, text in weak.items():
        spots = [li.cssselect(".meta")[0].text_content() for li in results(lang).cssselect(".weak li")]
        assert spots and set(spots) == {text}, (lang, spots)
    fa = results("fa")
    assert fa.cssselect(".stats-table thead th")[3].text_content() == "شاخص سهولت"
    assert "شاخص سهولت" in fa.cssselect("#h-stats + p")[0].text_content()
    first = fa.cssselect(".stats-table tbody tr")[0].cssselect("td")
    assert [first[1].text_content(), first[2].text_content()] == ["۰٪", "۰٪"]  # share correct, facility
    assert [b.text_content() for b in fa.cssselect(".results-table tbody th bdi")] == ['=HYPERLINK("http://x")']
    assert fa.cssselect("h1 bdi")[0].text_content() == "Trumps"
    assert [b.text_content() for b in fa.cssselect(".crumbs bdi")] == ["7B", "Trumps"]
    cls = lxml_html.fromstring(t.get(f"/en/teach/classes/{cid}").text)
    assert cls.cssselect(".progress-table tbody td")[0].text_content() == f"0 of {1 + points2} points, 1 of 2 answered"
    assert [b.text_content() for b in cls.cssselect(".plain-list bdi")][:1] == ['=HYPERLINK("http://x")']
    region = cls.cssselect(".table-scroll")[0]
    assert (region.get("tabindex"), region.get("role"), region.get("aria-labelledby")) == ("0", "region", "h-progress")
