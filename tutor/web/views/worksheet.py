"""Worksheets of the built-in quizzes: ``/<lang>/worksheet/<ruleset>`` (HTML, print-styled) and
``/<lang>/worksheet/<ruleset>/pdf`` (PDF, built once in the background with a progress page:
:func:`tutor.web.pdfjobs.pdf_download`; rate-limited: actions ``pdf`` and ``pdf-all``, the builds).

Query: ``count`` (one of :data:`~tutor.web.views.practice.COUNTS`, default 10), ``seed`` (a whole
number up to nine digits; default 1: the same seed gives the same questions, so a worksheet and
its key match), ``key`` (``1``: the answer key). Bad values are 400 with a message; an unknown
game is 404. Teacher quizzes use
:func:`tutor.export.worksheet.worksheet_html` and :func:`tutor.web.pdfjobs.pdf_download` too.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from tutor import i18n
from tutor.content.quizzes import Quiz
from tutor.export.worksheet import drawn, worksheet_html

from .. import exercises as X
from ..limits import limited
from ..pdfjobs import pdf_download
from ..security import BadInput
from .common import RULESET_NAMES
from .practice import COUNTS

bp = Blueprint("worksheet", __name__, url_prefix="/<lang>")

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩౦౧౨౩౪౫౬౭౮౯", "0123456789" * 3)


def drawn_quiz(ruleset: str, count: int, seed: int) -> Quiz:
    """``count`` questions of the built-in quiz of ``ruleset``, drawn with ``seed`` (file order kept)."""
    return drawn(Quiz(ruleset, tuple(X.quiz_questions(ruleset)), f"quizzes/{ruleset}.yaml"), count, seed)


def _arg_int(name: str, default: int, ok: tuple[int, ...] | None, message: str) -> int:
    text = request.args.get(name, "").strip().translate(_DIGITS)
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 9 or (ok is not None and int(text) not in ok):
        raise BadInput(message)
    return int(text)


def _query(ruleset: str) -> tuple[int, int, bool]:
    if ruleset not in RULESET_NAMES:
        abort(404)
    count = _arg_int("count", 10, COUNTS, _("Choose how many questions."))
    seed = _arg_int("seed", 1, None, _("The seed must be a whole number (up to nine digits)."))
    return count, seed, request.args.get("key", "") == "1"


@bp.get("/worksheet/<ruleset>")
def sheet(ruleset: str) -> ResponseReturnValue:
    lang = i18n.current_lang()
    count, seed, key = _query(ruleset)
    quiz = drawn_quiz(ruleset, count, seed)
    args: dict[str, Any] = {"lang": lang, "ruleset": ruleset, "count": count, "seed": seed} | ({"key": 1} if key else {})
    page = worksheet_html(quiz, lang, key, static=url_for("static", filename=""), languages_css=url_for("languages_css"),
                          pdf_href=url_for("worksheet.pdf", **args),
                          key_href=None if key else url_for("worksheet.sheet", **args, key=1))
    return Response(page, mimetype="text/html")


@bp.get("/worksheet/<ruleset>/pdf")
@limited("pdf")
@limited("pdf-all")
def pdf(ruleset: str) -> ResponseReturnValue:
    lang = i18n.current_lang()
    count, seed, key = _query(ruleset)
    name = f"{ruleset}-{'key' if key else 'worksheet'}-{lang}-{seed}.pdf"
    return pdf_download(drawn_quiz(ruleset, count, seed), lang, key, name)
