"""Printable worksheets: a quiz as a print-styled HTML page and as a PDF (WeasyPrint), in any of
the four languages (Persian right to left), with card diagrams drawn on the server; and a
separate answer key carrying the engine's answer and reasons.

* :func:`worksheet_html` ``(quiz_doc, lang, key=False, ...) -> str`` — the HTML page
  (``tutor/web/templates/worksheet.html``, card faces from ``_cards.html``; styles in
  ``static/worksheet.css`` and the PDF link's progress in ``static/worksheet.js``, linked, so the
  page keeps the strict CSP);
* :func:`worksheet_pdf` ``(quiz_doc, lang, key=False, ...) -> bytes`` — the same page as PDF
  (A4), the stylesheet read from the package.

``quiz_doc`` is a quiz document (the mapping of a ``quizzes/*.yaml`` file, see
:mod:`tutor.export`) or a loaded :class:`~tutor.content.quizzes.Quiz`. A document is checked first
(:func:`tutor.export.files.check_document`): problems raise
:class:`~tutor.problems.ContentError` (``file:line: message``). Neither function needs a
request or an app: both work in the CLI too.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .. import i18n
from ..content.kinds.base import N_
from ..content.quizzes import Quiz
from ..engine.rulesets import RULESETS
from .files import check_document
from .lms import Keyed, keyed_quiz

__all__ = ["STYLESHEET", "worksheet_html", "worksheet_pdf"]

_WEB = Path(__file__).resolve().parent.parent / "web"
#: The worksheet's stylesheet (screen and print).
STYLESHEET = _WEB / "static" / "worksheet.css"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_WEB / "templates")),
                             autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
                             trim_blocks=True, lstrip_blocks=True)
    env.globals.update(_=i18n.gettext, num=i18n.fmt_number)
    return env


def _quiz(quiz_doc: Quiz | Mapping[str, Any]) -> Quiz:
    return quiz_doc if isinstance(quiz_doc, Quiz) else check_document(quiz_doc)


def _choices(k: Keyed) -> list[dict]:
    """The answer choices a worksheet prints (shuffled the same way every time), each with
    whether it is right (shown only in the key)."""
    choices = [{"text": c.text, "right": c.fraction > 0} for c in k.key.choices]
    if k.key.type == "multichoice":  # several right answers (a hand of cards) keep their order
        random.Random(k.ex.id).shuffle(choices)
    return choices


def worksheet_html(quiz_doc: Quiz | Mapping[str, Any], lang: str, key: bool = False, *, title: str | None = None,
                   static: str | None = "/static/", pdf_href: str | None = None,
                   key_href: str | None = None, languages_css: str | None = None) -> str:
    """The worksheet (``key=False``) or its answer key (``key=True``) as an HTML page in ``lang``.

    ``title``: the heading (default: the ruleset's name and "worksheet"); ``static``: the URL of
    the app's static files, where the page links ``worksheet.css`` and ``worksheet.js`` from
    (``None``: no links, for the PDF); ``pdf_href``/``key_href``: links to the PDF and to the key,
    shown on screen only (``None``: none); ``languages_css``: the URL of the languages' stylesheet
    (fonts, line heights and page-number digits per language: :func:`tutor.i18n.language_css`),
    linked with the others (the PDF is given it as a stylesheet instead).
    """
    quiz = _quiz(quiz_doc)
    lang = i18n.normalize_lang(lang) or i18n.DEFAULT_LANGUAGE
    questions = keyed_quiz(quiz, lang)
    with i18n.using(lang):
        game = i18n.gettext(RULESETS[quiz.ruleset].title) if quiz.ruleset in RULESETS else quiz.ruleset
        heading = title or (i18n.gettext(N_("%(game)s: answer key"), game=game) if key
                            else i18n.gettext(N_("%(game)s: worksheet"), game=game))
        items = [{"n": i, "k": k, "choices": _choices(k)} for i, k in enumerate(questions, 1)]
        return _env().get_template("worksheet.html").render(
            lang=lang, dir=i18n.text_direction(lang), rtl=i18n.is_rtl(lang), title=heading, key=key, items=items,
            static=static, pdf_href=pdf_href, key_href=key_href, languages_css=languages_css,
            total=i18n.fmt_number(sum(k.points for k in questions)))


def worksheet_pdf(quiz_doc: Quiz | Mapping[str, Any], lang: str, key: bool = False, *,
                  title: str | None = None) -> bytes:
    """The worksheet or its answer key as a PDF (A4; WeasyPrint with the system's fonts: Noto for
    Persian and Telugu).

    A PDF costs seconds of CPU, its HTML milliseconds, and the HTML decides the PDF: the last
    :data:`PDF_CACHE_SIZE` PDFs are kept per process under the SHA-256 of their HTML, so the same
    worksheet asked again (the same quiz, language and key) is not built again."""
    page = worksheet_html(quiz_doc, lang, key, title=title, static=None)
    digest = hashlib.sha256(page.encode("utf-8")).digest()
    with _PDF_LOCK:
        kept = _PDFS.get(digest)
        if kept is not None:
            _PDFS.move_to_end(digest)
            return kept
    from weasyprint import CSS, HTML

    pdf = HTML(string=page, base_url=str(_WEB)).write_pdf(
        stylesheets=[CSS(filename=str(STYLESHEET)), CSS(string=i18n.language_css())])
    assert pdf is not None
    out = bytes(pdf)
    with _PDF_LOCK:
        _PDFS[digest] = out
        while len(_PDFS) > PDF_CACHE_SIZE:
            _PDFS.popitem(last=False)
    return out


#: PDFs kept per process (a worksheet PDF is some tens of KB).
PDF_CACHE_SIZE = 64
_PDFS: OrderedDict[bytes, bytes] = OrderedDict()
_PDF_LOCK = threading.Lock()
