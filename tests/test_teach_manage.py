"""Management for teachers (issue 18): delete after a confirmation that names the answers lost,
archive and unarchive quizzes, lessons and classes, unassign and restore, remove a learner and
let them join again, renew a join code. Nothing a learner answered is lost unless the teacher
deletes; each teacher acts only on their own things.

Every test that writes runs on SQLite and on PostgreSQL (``both_databases``)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from teach_support import (  # noqa: F401  (teachers: the fixture, used by name)
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
    teachers,
)
from test_teachlesson import assign_lesson, lesson_answer, new_lesson
from web_support import csrf_of, rows

from tutor.domain.models import (
    Assignment,
    ClassAttempt,
    ClassFingerprint,
    Classroom,
    Membership,
    TeacherLesson,
    TeacherQuiz,
)

pytestmark = pytest.mark.both_databases

CSRF_INPUT = re.compile(r'<input[^>]*name="(?:[\w-]+-)?csrf_token"[^>]*value="[^"]{20,}"')


def _answered(app, nickname="Zari"):
    """ana's class with a quiz assigned, a learner who answered question 1 twice (wrong, right)."""
    t, qid, cid, code, aid = class_with_quiz(app)
    learner = app.test_client()
    join(learner, code, nickname)
    assert answer(learner, cid, aid, 1, {"seat": "0"}).status_code == 302
    assert answer(learner, cid, aid, 1, {"seat": "3"}).status_code == 302
    return t, qid, cid, code, aid, learner


def _score(client, cid, aid) -> str:
    return re.search(r"Score: [^<]+", client.get(f"/en/classes/{cid}/assignments/{aid}/results").text).group(0)


def _delete(client, url, answers=None, confirm=False):
    data = {} if answers is None else {"answers": str(answers)}
    if confirm:
        data["confirm"] = "y"
    return post(client, url, data, page="/en/teach/")


def _get(app, model, key):
    with app.app_context():
        db = app.extensions["tutor_db"]()
        row = db.get(model, key)
        db.close()
    return row


# ------------------------------------------------------------------------------------------ delete

def test_deleting_a_class_names_the_answers_lost_and_needs_the_box_ticked(app):
    t, _qid, cid, code, aid, learner = _answered(app)
    url = f"/en/teach/classes/{cid}/delete"
    page = t.get(url)
    assert page.status_code == 200
    assert "2 answers will be lost." in page.text and "They were given by 1 learner." in page.text
    assert "1 learner leaves the class." in page.text and "1 assignment is deleted." in page.text
    assert "Yes, delete it and lose 2 answers" in page.text and CSRF_INPUT.search(page.text)
    # not from the page, box not ticked, or a count that is no longer the one lost: nothing deleted
    for answers, confirm in ((None, True), (2, False), (1, True)):
        r = _delete(t, url, answers, confirm)
        assert r.status_code == 400, (answers, confirm)
        assert _get(app, Classroom, cid) is not None and rows(app, ClassAttempt) == 2
    assert "Answers were given since this page was shown" in _delete(t, url, 1, True).text
    assert "Tick the box to confirm" in _delete(t, url, 2, False).text
    r = _delete(t, url, 2, True)
    assert r.status_code == 302 and r.headers["Location"] == "/en/teach/"
    assert t.get(f"/en/teach/classes/{cid}").status_code == 404
    assert (rows(app, ClassAttempt), rows(app, Membership), rows(app, Assignment), rows(app, ClassFingerprint)) \
        == (0, 0, 0, 0)
    assert learner.get(f"/en/classes/{cid}/assignments/{aid}/1").status_code == 404
    assert "7B" not in learner.get("/en/classes/").text
    join_page = post(learner, "/en/join", {"code": code, "nickname": "Zari"})
    assert join_page.status_code == 400 and "There is no class with this code." in join_page.text


def test_an_answer_given_while_the_delete_is_sent_stops_it(app, monkeypatch):
    """The answers are counted again in the delete's own transaction: one given after the check
    (another learner answering at that moment) brings the page back with the new count."""
    from tutor.domain import manage
    from tutor.web.views.teach import manage as view

    t, _qid, cid, _code, aid, _learner = _answered(app)
    checked = manage.confirmed
    lid = _get(app, Membership, _member_id(app, cid)).learner_id

    def then_answered(found, shown, ticked):
        with app.app_context():
            db = app.extensions["tutor_db"]()
            db.add(ClassAttempt(assignment_id=aid, learner_id=lid, position=1, given=3, correct=True, rules=[]))
            db.commit()
            db.close()
        return checked(found, shown, ticked)
    monkeypatch.setattr(view.M, "confirmed", then_answered)
    r = _delete(t, f"/en/teach/classes/{cid}/delete", 2, True)
    assert r.status_code == 400 and "3 answers will be lost." in r.text
    assert _get(app, Classroom, cid) is not None and rows(app, ClassAttempt) == 3


def test_deleting_a_quiz_keeps_every_class_result(app):
    t, qid, cid, _code, aid, learner = _answered(app)
    before = _score(learner, cid, aid)
    teacher_before = t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    page = t.get(f"/en/teach/quizzes/{qid}/delete")
    assert "1 assignment keeps its own copy, with its answers: no class loses a result." in page.text
    assert "Yes, delete it" not in page.text  # no answer is lost: no box to tick
    assert _delete(t, f"/en/teach/quizzes/{qid}/delete").status_code == 400  # not from the page
    assert _get(app, TeacherQuiz, qid) is not None
    r = _delete(t, f"/en/teach/quizzes/{qid}/delete", 0)
    assert r.status_code == 302 and _get(app, TeacherQuiz, qid) is None
    assert t.get(f"/en/teach/quizzes/{qid}").status_code == 404
    assert rows(app, ClassAttempt) == 2 and _get(app, Assignment, aid).quiz_doc["questions"]
    assert _get(app, Assignment, aid).quiz_id is None
    assert before == "Score: 0 of 3 points" and _score(learner, cid, aid) == before
    results = t.get(f"/en/teach/classes/{cid}/assignments/{aid}")
    assert results.status_code == 200 and "Zari" in results.text
    assert re.findall(r"<td[^>]*>[^<]*\d", results.text) == re.findall(r"<td[^>]*>[^<]*\d", teacher_before)
    assert t.get(f"/en/teach/classes/{cid}/assignments/{aid}/results.csv").text.count("Zari") == 2
    assert learner.get(f"/en/classes/{cid}/assignments/{aid}/2").status_code == 200  # still answerable
    # a new quiz of the same teacher can be assigned to the class beside the old copy
    q2 = new_quiz(t, "Again")
    assert add_authored(t, q2, TRICK, "4").status_code == 302
    assign(t, cid, q2)


def test_deleting_a_lesson_keeps_its_assignment(app):
    t = login(app.test_client(), "ana")
    lid = new_lesson(t)
    cid, code = new_class(t)
    aid = assign_lesson(t, cid, lid)
    learner = app.test_client()
    join(learner, code, "Zari")
    assert lesson_answer(learner, cid, aid, 1, {"seat": "3"}).status_code in (200, 302)
    page = t.get(f"/en/teach/lessons/{lid}/delete")
    assert "1 assignment keeps its own copy" in page.text
    assert _delete(t, f"/en/teach/lessons/{lid}/delete", 0).status_code == 302
    assert _get(app, TeacherLesson, lid) is None and rows(app, ClassAttempt) == 1
    assert learner.get(f"/en/classes/{cid}/lessons/{aid}/").status_code == 200
    assert "1 of 2 exercises" in t.get(f"/en/teach/classes/{cid}").text


def test_deleting_an_unassigned_assignment_destroys_its_answers_only(app):
    t, qid, cid, _code, aid, _learner = _answered(app)
    url = f"/en/teach/classes/{cid}/assignments/{aid}/delete"
    assert "2 answers will be lost." in t.get(url).text
    assert _delete(t, url, 2, True).status_code == 302
    assert _get(app, Assignment, aid) is None and rows(app, ClassAttempt) == 0 and rows(app, ClassFingerprint) == 0
    assert _get(app, TeacherQuiz, qid) is not None and rows(app, Membership) == 1


# ------------------------------------------------------------------------------------------ archive

@pytest.mark.parametrize("what", ["quiz", "lesson", "class"])
def test_archived_things_leave_the_lists_stay_readable_and_come_back(app, what):
    t, qid, cid, _code, aid, learner = _answered(app)
    lid = new_lesson(t, title="Follow suit")
    key, page, archive, name = {"quiz": (qid, "quizzes", "quizzes", "Trumps"),
                                "lesson": (lid, "lessons", "lessons", "Follow suit"),
                                "class": (cid, "classes", "classes", "7B")}[what]
    home = t.get("/en/teach/").text
    assert f"/{page}/{key}\"" in home and "Show archived" in home
    r = post(t, f"/en/teach/{archive}/{key}/archive", {"action": "archive"}, page="/en/teach/")
    assert r.status_code == 302
    assert f"/{page}/{key}\"" not in t.get("/en/teach/").text
    shown = t.get("/en/teach/archived").text
    assert f"/{page}/{key}\"" in shown and name in shown and "Unarchive" in shown
    item = t.get(f"/en/teach/{page}/{key}")
    assert item.status_code == 200 and "still readable, its results kept" in item.text
    assert rows(app, ClassAttempt) == 2
    if what == "class":  # its results are kept and readable
        assert "Zari" in t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
        assert _score(learner, cid, aid) == "Score: 0 of 3 points"
    if what == "quiz":  # not offered to assign any more
        c2, _ = new_class(t, "8C")
        assert f'value="quiz:{qid}"' not in t.get(f"/en/teach/classes/{c2}").text
        assert post(t, f"/en/teach/classes/{c2}", {"what": f"quiz:{qid}"}).status_code == 400
    post(t, f"/en/teach/{archive}/{key}/archive", {"action": "unarchive"}, page="/en/teach/")
    assert f"/{page}/{key}\"" in t.get("/en/teach/").text
    assert f"/{page}/{key}\"" not in t.get("/en/teach/archived").text


def test_an_archived_class_takes_no_new_learner(app):
    t, _qid, cid, code, _aid, _learner = _answered(app)
    post(t, f"/en/teach/classes/{cid}/archive", {"action": "archive"}, page="/en/teach/")
    r = post(app.test_client(), "/en/join", {"code": code, "nickname": "Reza"})
    assert r.status_code == 400 and "This class is archived" in r.text
    assert rows(app, Membership) == 1


# ------------------------------------------------------------------------------------------ unassign

def test_unassigning_hides_it_from_learners_keeps_its_answers_and_restores(app):
    t, qid, cid, _code, aid, learner = _answered(app)
    before = _score(learner, cid, aid)
    assert f"/classes/{cid}/assignments/{aid}/" in learner.get("/en/classes/").text
    r = post(t, f"/en/teach/classes/{cid}/assignments/{aid}/assigned", {"action": "unassign"})
    assert r.status_code == 302
    assert f"/classes/{cid}/assignments/{aid}/" not in learner.get("/en/classes/").text
    for url in (f"/en/classes/{cid}/assignments/{aid}/1", f"/en/classes/{cid}/assignments/{aid}/results"):
        assert learner.get(url).status_code == 404, url
    assert rows(app, ClassAttempt) == 2
    page = t.get(f"/en/teach/classes/{cid}").text
    assert "Unassigned" in page and f"/assignments/{aid}/delete" in page
    assert "Zari" in t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text  # its results stay readable
    again = post(t, f"/en/teach/classes/{cid}", {"what": f"quiz:{qid}"})
    assert again.status_code == 400 and "This was unassigned from this class: restore it below." in again.text
    post(t, f"/en/teach/classes/{cid}/assignments/{aid}/assigned", {"action": "restore"})
    assert _score(learner, cid, aid) == before
    assert "Unassigned" not in t.get(f"/en/teach/classes/{cid}").text


# ------------------------------------------------------------------------------------------ members

def _member_id(app, cid) -> int:
    with app.app_context():
        db = app.extensions["tutor_db"]()
        mid = db.scalar(select(Membership.id).where(Membership.classroom_id == cid))
        db.close()
    return mid


def test_a_removed_learner_loses_the_class_keeps_the_answers_and_rejoining_restores(app):
    t, _qid, cid, code, aid, learner = _answered(app)
    before = _score(learner, cid, aid)
    mid = _member_id(app, cid)
    assert "1 wrong first answer" in t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    assert post(t, f"/en/teach/classes/{cid}/members/{mid}", {"action": "remove"}).status_code == 302
    assert "7B" not in learner.get("/en/classes/").text
    assert learner.get(f"/en/classes/{cid}/assignments/{aid}/1").status_code == 404
    assert rows(app, ClassAttempt) == 2 and _get(app, Membership, mid).removed_at is not None
    page = t.get(f"/en/teach/classes/{cid}").text
    assert "Removed learners" in page and "Zari" in page
    results = t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    assert "Zari" not in results and "No wrong first answers yet." in results  # nor in the statistics
    assert "Zari" not in t.get(f"/en/teach/classes/{cid}/assignments/{aid}/results.csv").text
    # another learner cannot take the removed learner's nickname
    r = post(app.test_client(), "/en/join", {"code": code, "nickname": "zari"})
    assert r.status_code == 400 and "goes by this nickname" in r.text
    join(learner, code, "Someone else")  # joining again: the membership and its answers come back
    assert _get(app, Membership, mid).removed_at is None and rows(app, Membership) == 1
    assert _get(app, Membership, mid).nickname == "Zari"
    assert _score(learner, cid, aid) == before
    assert "1 wrong first answer" in t.get(f"/en/teach/classes/{cid}/assignments/{aid}").text
    # and the teacher's restore does the same
    post(t, f"/en/teach/classes/{cid}/members/{mid}", {"action": "remove"})
    post(t, f"/en/teach/classes/{cid}/members/{mid}", {"action": "restore"})
    assert _score(learner, cid, aid) == before and "Removed learners" not in t.get(f"/en/teach/classes/{cid}").text


# ------------------------------------------------------------------------------------------ join code

def test_a_renewed_code_refuses_the_old_one_and_takes_the_new(app):
    t, _qid, cid, old, aid, learner = _answered(app)
    r = post(t, f"/en/teach/classes/{cid}/code", {"action": "renew"})
    assert r.status_code == 302
    new = re.search(r'class="join-code">([A-Z0-9]+)<', t.get(f"/en/teach/classes/{cid}").text).group(1)
    assert new != old and len(new) == 8
    refused = post(app.test_client(), "/en/join", {"code": old, "nickname": "Reza"})
    assert refused.status_code == 400 and "There is no class with this code." in refused.text
    join(app.test_client(), new, "Reza")
    assert rows(app, Membership) == 2
    assert _score(learner, cid, aid) == "Score: 0 of 3 points"  # a learner already in the class stays


# ------------------------------------------------------------------------------------------ security

def test_another_teacher_gets_404_for_every_action_and_nothing_changes(app):
    t, qid, cid, code, aid, _learner = _answered(app)
    lid = new_lesson(t)
    mid = _member_id(app, cid)
    bob = login(app.test_client(), "bob")
    gets = [f"/en/teach/quizzes/{qid}/delete", f"/en/teach/lessons/{lid}/delete", f"/en/teach/classes/{cid}/delete",
            f"/en/teach/classes/{cid}/assignments/{aid}/delete"]
    for url in gets:
        assert t.get(url).status_code == 200, url
        assert bob.get(url).status_code == 404, url
    posts = [(u, {"answers": "2", "confirm": "y"}) for u in gets] + [
        (f"/en/teach/quizzes/{qid}/archive", {"action": "archive"}),
        (f"/en/teach/lessons/{lid}/archive", {"action": "archive"}),
        (f"/en/teach/classes/{cid}/archive", {"action": "archive"}),
        (f"/en/teach/classes/{cid}/assignments/{aid}/assigned", {"action": "unassign"}),
        (f"/en/teach/classes/{cid}/members/{mid}", {"action": "remove"}),
        (f"/en/teach/classes/{cid}/code", {"action": "renew"})]
    for url, data in posts:
        assert post(bob, url, data, page="/en/teach/").status_code == 404, url
    # bob's own class does not reach ana's assignment or learner either
    bcid, _ = new_class(bob, "bob's")
    for url, data in ((f"/en/teach/classes/{bcid}/assignments/{aid}/assigned", {"action": "unassign"}),
                      (f"/en/teach/classes/{bcid}/members/{mid}", {"action": "remove"}),
                      (f"/en/teach/classes/{bcid}/assignments/{aid}/delete", {"answers": "2", "confirm": "y"})):
        assert post(bob, url, data, page="/en/teach/").status_code == 404, url
    assert _get(app, TeacherQuiz, qid).archived_at is None and _get(app, TeacherLesson, lid).archived_at is None
    c = _get(app, Classroom, cid)
    assert c.archived_at is None and c.code == code
    assert _get(app, Assignment, aid).archived_at is None and _get(app, Membership, mid).removed_at is None
    assert rows(app, ClassAttempt) == 2


def test_bad_ids_and_actions_are_404_and_400_never_500(app):
    t, _qid, cid, _code, aid, _learner = _answered(app)
    for url in ("/en/teach/quizzes/999999/delete", "/en/teach/lessons/999999/delete",
                "/en/teach/classes/999999/delete", f"/en/teach/classes/{cid}/assignments/999999/delete",
                f"/en/teach/classes/{cid}/assignments/99999999999999999999/delete"):
        assert t.get(url).status_code == 404, url
    for url in (f"/en/teach/classes/{cid}/members/999999", "/en/teach/classes/999999/code",
                f"/en/teach/classes/{cid}/assignments/999999/assigned", "/en/teach/quizzes/999999/archive"):
        assert post(t, url, {"action": "remove"}, page="/en/teach/").status_code == 404, url
    for url, action in ((f"/en/teach/classes/{cid}/assignments/{aid}/assigned", "delete"),
                        (f"/en/teach/classes/{cid}/code", ""),
                        (f"/en/teach/classes/{cid}/archive", "archive'; drop table classroom")):
        assert post(t, url, {"action": action}, page="/en/teach/").status_code == 400, url
    huge = _delete(t, f"/en/teach/classes/{cid}/delete", "9" * 40, True)
    assert huge.status_code == 400 and _get(app, Classroom, cid) is not None


def test_every_management_form_carries_csrf_and_a_post_without_it_changes_nothing(app):
    t, qid, cid, code, aid, _learner = _answered(app)
    post(t, f"/en/teach/classes/{cid}/assignments/{aid}/assigned", {"action": "unassign"})
    post(t, f"/en/teach/classes/{cid}/assignments/{aid}/assigned", {"action": "restore"})
    pages = [f"/en/teach/classes/{cid}", f"/en/teach/quizzes/{qid}", f"/en/teach/classes/{cid}/delete",
             f"/en/teach/quizzes/{qid}/delete", "/en/teach/archived"]
    mid = _member_id(app, cid)
    post(t, f"/en/teach/classes/{cid}/members/{mid}", {"action": "remove"})
    for url in pages:
        html = t.get(url).text
        forms = re.findall(r"<form[^>]*method=\"post\".*?</form>", html, re.S)
        assert forms, url
        for f in forms:
            assert CSRF_INPUT.search(f), (url, f[:120])
    html = t.get(f"/en/teach/classes/{cid}").text
    for action in ("/code", f"/members/{mid}", f"/assignments/{aid}/assigned", "/archive"):
        assert f'action="/en/teach/classes/{cid}{action}"' in html, action
    for url, data in ((f"/en/teach/classes/{cid}/code", {"action": "renew"}),
                      (f"/en/teach/classes/{cid}/delete", {"answers": "2", "confirm": "y"}),
                      (f"/en/teach/classes/{cid}/archive", {"action": "archive"})):
        assert t.post(url, data=data).status_code == 400, url
    c = _get(app, Classroom, cid)
    assert c is not None and c.code == code and c.archived_at is None
    assert csrf_of(html)


def test_an_archived_class_can_no_longer_be_answered(app):
    """Archived, a class's work stays readable but takes no answer anywhere: its quiz pages and the
    class API, a teacher's lesson, a live quiz; each shows or sends the notice (403), nothing is
    recorded, in the learner's language."""
    from teach_support import quiz_doc
    from test_live import _next, _start
    from web_support import form_for

    from tutor.content import kinds
    from tutor.domain.models import LiveAnswer
    from tutor.domain.quizdoc import exercise_of

    t, qid, cid, _code, aid, learner = _answered(app)
    lesson = assign_lesson(t, cid, new_lesson(t, title="Follow suit"))
    sid = _start(t, cid, aid)
    _next(t, sid)  # question 1 is open in the live quiz
    ex1, ex2 = (exercise_of(q) for q in quiz_doc(app, qid)["questions"][:2])
    right2 = form_for(ex2, kinds.expected_answer(ex2)[0])
    assert post(t, f"/en/teach/classes/{cid}/archive", {"action": "archive"}, page="/en/teach/").status_code == 302
    notice = "This class is archived: its assignments take no more answers."
    before = rows(app, ClassAttempt)

    assert notice in learner.get("/en/classes/").text
    page = learner.get(f"/en/classes/{cid}/assignments/{aid}/2")
    assert page.status_code == 200 and notice in page.text and 'class="answer-form' not in page.text
    fa = learner.get(f"/fa/classes/{cid}/assignments/{aid}/2").text
    assert "این کلاس بایگانی شده است: تکلیف‌هایش دیگر پاسخی نمی‌پذیرند." in fa
    r = answer(learner, cid, aid, 2, right2)
    assert r.status_code == 403 and notice in r.text
    api = learner.post(f"/api/v1/classes/{cid}/assignments/{aid}/2/answer", json={"answer": kinds.expected_answer(ex2)[0]})
    assert api.status_code == 403 and api.json["error"]["code"] == "archived" and api.json["error"]["message"] == notice
    assert learner.get(f"/api/v1/classes/{cid}/assignments/{aid}").status_code == 200  # still readable
    assert _score(learner, cid, aid) == "Score: 0 of 3 points"

    page = learner.get(f"/en/classes/{cid}/lessons/{lesson}/")
    assert page.status_code == 200 and notice in page.text and 'class="answer-form' not in page.text
    r = lesson_answer(learner, cid, lesson, 1, {"seat": "3"})
    assert r.status_code == 403 and notice in r.text

    page = learner.get(f"/en/classes/{cid}/live")
    assert page.status_code == 200 and notice in page.text and 'class="answer-form' not in page.text
    csrf = csrf_of(page.text)
    r = learner.post(f"/en/classes/{cid}/live/{sid}/1",
                     data={"csrf_token": csrf, **form_for(ex1, kinds.expected_answer(ex1)[0])})
    assert r.status_code == 403 and notice in r.text
    assert rows(app, ClassAttempt) == before and rows(app, LiveAnswer) == 0
