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
import json
import logging
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .. import i18n
from ..content.kinds.base import N_
from ..content.quizzes import Quiz
from ..engine.rulesets import RULESETS
from .files import check_document, quiz_document
from .lms import Keyed, keyed_quiz

__all__ = ["CACHE", "STYLESHEET", "PdfCache", "Progress", "build_pdf", "code_version", "drawn", "pdf_key",
           "worksheet_html", "worksheet_pdf"]

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


def drawn(quiz: Quiz, count: int, seed: int) -> Quiz:
    """``count`` questions of ``quiz`` drawn with ``seed`` (file order kept): the same seed gives
    the same questions, so a worksheet and its key match (the web's worksheets, ``tutor bench``)."""
    questions = quiz.questions
    picked = sorted(random.Random(f"worksheet|{quiz.ruleset}|{seed}").sample(range(len(questions)),
                                                                           min(count, len(questions))))
    return Quiz(quiz.ruleset, tuple(questions[i] for i in picked), quiz.path)


def _choices(k: Keyed) -> list[dict]:
    """The answer choices a worksheet prints (shuffled the same way every time), each with
    whether it is right (shown only in the key)."""
    choices = [{"text": c.text, "right": c.fraction > 0} for c in k.key.choices]
    if k.key.type == "multichoice":  # several right answers (a hand of cards) keep their order
        random.Random(k.ex.id).shuffle(choices)
    return choices


def worksheet_html(quiz_doc: Quiz | Mapping[str, Any], lang: str, key: bool = False, *, title: str | None = None,
                   static: str | None = "/static/", pdf_href: str | None = None,
                   key_href: str | None = None, languages_css: str | None = None,
                   progress: Progress | None = None) -> str:
    """The worksheet (``key=False``) or its answer key (``key=True``) as an HTML page in ``lang``.

    ``title``: the heading (default: the ruleset's name and "worksheet"); ``static``: the URL of
    the app's static files, where the page links ``worksheet.css`` and ``worksheet.js`` from
    (``None``: no links, for the PDF); ``pdf_href``/``key_href``: links to the PDF and to the key,
    shown on screen only (``None``: none); ``languages_css``: the URL of the languages' stylesheet
    (fonts, line heights and page-number digits per language: :func:`tutor.i18n.language_css`),
    linked with the others (the PDF is given it as a stylesheet instead); ``progress``: told
    ``("question", i, n)`` as the engine keys each question.
    """
    quiz = _quiz(quiz_doc)
    lang = i18n.normalize_lang(lang) or i18n.DEFAULT_LANGUAGE
    questions = keyed_quiz(quiz, lang, None if progress is None else lambda i, n: progress("question", i, n))
    with i18n.using(lang):
        game = i18n.gettext(RULESETS[quiz.ruleset].title) if quiz.ruleset in RULESETS else quiz.ruleset
        heading = title or (i18n.gettext(N_("%(game)s: answer key"), game=game) if key
                            else i18n.gettext(N_("%(game)s: worksheet"), game=game))
        items = [{"n": i, "k": k, "choices": _choices(k)} for i, k in enumerate(questions, 1)]
        return _env().get_template("worksheet.html").render(
            lang=lang, dir=i18n.text_direction(lang), rtl=i18n.is_rtl(lang), title=heading, key=key, items=items,
            static=static, pdf_href=pdf_href, key_href=key_href, languages_css=languages_css,
            total=i18n.fmt_number(sum(k.points for k in questions)))


def pdf_key(quiz_doc: Quiz | Mapping[str, Any], lang: str, key: bool = False, *, title: str | None = None) -> str:
    """The cache key of a worksheet PDF (hex SHA-256): the quiz's content (its document, as
    :func:`~tutor.export.files.quiz_document` writes it, keys sorted), the language, the key flag,
    the title and :func:`code_version`. A document is checked first (ContentError)."""
    quiz = _quiz(quiz_doc)
    lang = i18n.normalize_lang(lang) or i18n.DEFAULT_LANGUAGE
    what = {"quiz": quiz_document(quiz), "lang": lang, "key": bool(key), "title": title, "code": code_version()}
    return hashlib.sha256(json.dumps(what, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def code_version() -> str:
    """What a worksheet PDF is made with, as one hash (once per process): every source, template,
    stylesheet and data file of the ``tutor`` package (the engine, the reasons, the layout), every
    compiled catalogue and language file, and WeasyPrint's version. Any change to them is a new
    PDF; nothing else is."""
    from importlib.metadata import version

    h = hashlib.sha256(f"weasyprint {version('weasyprint')}".encode())
    package = Path(__file__).resolve().parent.parent
    files = [f for f in package.rglob("*") if f.suffix in {".py", ".html", ".css", ".yaml", ".json"}]
    files += [f for f in Path(i18n.LOCALES_DIR).rglob("*") if f.suffix in {".mo", ".yaml"}]
    for f in sorted(files):
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(f.as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


#: ``progress(stage, n, total)``: what a build is doing — ``("question", i, n)`` while the engine
#: keys question ``i`` of ``n``, ``("page", p, 0)`` while WeasyPrint lays out page ``p`` (the total
#: is not known before the end), ``("pdf", pages, pages)`` while it writes the file.
Progress = Callable[[str, int, int], None]


class PdfCache:
    """Worksheet PDFs by :func:`pdf_key`: the last ``kept`` in the process's memory and, with a
    ``directory``, as files there (``<key>.pdf``, written whole then renamed, so any process reading
    the folder sees a whole file or none; the oldest beyond ``max_files`` are removed), shared by
    every process and kept across restarts. A file that cannot be read or written is a miss."""

    def __init__(self, directory: str | Path | None = None, *, kept: int = 64, max_files: int = 500) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.kept, self.max_files = kept, max_files
        self._mem: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def path(self, key: str) -> Path | None:
        """The file of ``key`` in the directory (``None`` without one)."""
        return self.directory / f"{key}.pdf" if self.directory is not None else None

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._mem.get(key)
            if data is not None:
                self._mem.move_to_end(key)
                return data
        path = self.path(key)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if not data.startswith(b"%PDF-"):
            return None
        self._remember(key, data)
        return data

    def put(self, key: str, data: bytes) -> None:
        """Keep ``data`` as ``key``: the file first, then memory, so a PDF this process serves is
        already there for every other process."""
        path = self.path(key)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
                tmp.write_bytes(data)
                os.replace(tmp, path)
                self._prune()
            except OSError:
                pass
        self._remember(key, data)

    def _remember(self, key: str, data: bytes) -> None:
        with self._lock:
            self._mem[key] = data
            self._mem.move_to_end(key)
            while len(self._mem) > self.kept:
                self._mem.popitem(last=False)

    def _prune(self) -> None:
        assert self.directory is not None
        files = sorted(self.directory.glob("*.pdf"), key=lambda f: f.stat().st_mtime)
        for old in files[:max(0, len(files) - self.max_files)]:
            old.unlink(missing_ok=True)


#: The process's PDFs (memory only): what :func:`worksheet_pdf` uses unless given another cache.
CACHE = PdfCache()


def worksheet_pdf(quiz_doc: Quiz | Mapping[str, Any], lang: str, key: bool = False, *,
                  title: str | None = None, cache: PdfCache | None = None,
                  progress: Progress | None = None) -> bytes:
    """The worksheet or its answer key as a PDF (A4; WeasyPrint with the system's fonts: Noto for
    Persian and Telugu).

    A PDF costs most of a second of CPU for 20 questions, seconds for a long quiz: it is built once
    per :func:`pdf_key` (the quiz's content, language, key flag, title and code version) and kept in
    ``cache`` (default :data:`CACHE`, the process's memory). ``progress`` is told what the build
    is doing (:data:`Progress`); a PDF from the cache is not built, so it hears nothing."""
    quiz = _quiz(quiz_doc)
    cache = CACHE if cache is None else cache
    digest = pdf_key(quiz, lang, key, title=title)
    kept = cache.get(digest)
    if kept is not None:
        return kept
    out = build_pdf(quiz, lang, key, title=title, progress=progress)
    cache.put(digest, out)
    return out


def build_pdf(quiz: Quiz, lang: str, key: bool = False, *, title: str | None = None,
              progress: Progress | None = None) -> bytes:
    """The PDF built now (no cache: use :func:`worksheet_pdf`). One build at a time per process
    (Pango's font map is not shared between threads; the builds are CPU-bound anyway)."""
    tell = progress or (lambda stage, n, total: None)
    page = worksheet_html(quiz, lang, key, title=title, static=None, progress=tell)
    from weasyprint import CSS, HTML

    with _BUILD_LOCK, _told(tell):
        pdf = HTML(string=page, base_url=str(_WEB)).write_pdf(
            stylesheets=[CSS(filename=str(STYLESHEET)), CSS(string=i18n.language_css())])
    assert pdf is not None
    return bytes(pdf)


_BUILD_LOCK = threading.Lock()
_LISTENERS: dict[int, Progress] = {}


class _WeasyProgress(logging.Handler):
    """WeasyPrint's progress log (``weasyprint.progress``: "Step 5 - Creating layout - Page 3")
    as :data:`Progress` calls to the listener of the thread that logged it."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.pages = 0

    def emit(self, record: logging.LogRecord) -> None:
        tell = _LISTENERS.get(threading.get_ident())
        if tell is None or not isinstance(record.msg, str):
            return
        if record.msg.startswith("Step 5") and record.args and isinstance(record.args, tuple):
            self.pages = int(str(record.args[0]))
            tell("page", self.pages, 0)
        elif record.msg.startswith("Step 6"):
            tell("pdf", self.pages, self.pages)


@lru_cache(maxsize=1)
def _progress_handler() -> _WeasyProgress:
    """The one handler on WeasyPrint's progress logger (made at the first build). The logger is
    set to INFO and not passed on to the root logger: its records are only progress."""
    from weasyprint.logger import PROGRESS_LOGGER

    handler = _WeasyProgress()
    PROGRESS_LOGGER.addHandler(handler)
    PROGRESS_LOGGER.setLevel(logging.INFO)
    PROGRESS_LOGGER.propagate = False
    return handler


@contextmanager
def _told(tell: Progress) -> Iterator[None]:
    _progress_handler().pages = 0
    me = threading.get_ident()
    _LISTENERS[me] = tell
    try:
        yield
    finally:
        _LISTENERS.pop(me, None)
