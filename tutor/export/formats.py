"""Export formats: one class per format, one registry (:data:`FORMATS`).

Each format declares its ``name`` (as ``tutor export --format`` and the teacher's pages name it),
its media type, its file extension, the stem of a download's file name, whether it is written in
a language (``takes_lang``) and whether it has an answer key (``takes_key``), and writes a quiz
(:meth:`ExportFormat.write`: bytes, UTF-8 text or a PDF). Every list of formats in the project
comes from :data:`FORMATS`; adding a format is one class here.

* ``yaml`` — the quiz file itself (the ``quizzes/`` format, lossless; :func:`.files.dump_quiz`);
* ``moodle`` — Moodle XML (:func:`.lms.moodle_xml`), in a language;
* ``gift`` — GIFT (:func:`.lms.gift`), in a language;
* ``html`` — the printable worksheet or its answer key (:func:`.worksheet.worksheet_html`);
* ``pdf`` — the same as a PDF (:func:`.worksheet.worksheet_pdf`).

A quiz given as a mapping (a quiz document) is checked by the engine first
(:func:`.files.check_document`); a quiz that does not pass raises
:class:`~tutor.problems.ContentError` (``file:line: message``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..content.quizzes import Quiz
from ..registry import Registry
from .files import check_document, dump_quiz, read_quiz_file
from .lms import gift, moodle_xml
from .worksheet import Progress, worksheet_html, worksheet_pdf

__all__ = ["FORMATS", "ExportFormat", "ExportOptions", "export_quiz_file", "get_format", "register"]

QuizSource = Quiz | Mapping[str, Any]


@dataclass(frozen=True)
class ExportOptions:
    """How to write one export.

    ``lang``: the language of prompts, diagrams and feedback (formats that ``takes_lang``);
    ``key``: the answer key instead of the worksheet (formats that ``takes_key``); ``title``: a
    worksheet's heading (default: the game's name); ``category``: the LMS question category
    (Moodle XML, GIFT; default none); ``static``, ``pdf_href``, ``key_href``: the HTML
    worksheet's links to the app's static files (default ``/static/``), to its PDF and to its
    key (:func:`.worksheet.worksheet_html`; ``None``: none); ``progress``: told how a PDF's
    build goes.
    """

    lang: str = "en"
    key: bool = False
    title: str | None = None
    category: str | None = None
    static: str | None = "/static/"
    pdf_href: str | None = None
    key_href: str | None = None
    #: A long build's progress (:data:`.worksheet.Progress`): the PDF's.
    progress: Progress | None = None


def _checked(quiz: QuizSource) -> Quiz:
    """``quiz`` as a loaded quiz (a document checked by the engine first)."""
    return quiz if isinstance(quiz, Quiz) else check_document(quiz)


class ExportFormat:
    """One export format (see the module docstring). A subclass sets the class attributes and
    :meth:`write`; :func:`register` adds one instance of it to :data:`FORMATS`."""

    #: The format's name (``tutor export --format NAME``).
    name: ClassVar[str]
    #: The media type of the written file (the ``Content-Type`` of a download).
    media_type: ClassVar[str]
    #: The file extension, without the dot.
    extension: ClassVar[str]
    #: A download's file name after its prefix (:meth:`file_name`); the key's, for ``takes_key``.
    stem: ClassVar[str]
    key_stem: ClassVar[str] = ""
    #: Whether the file is written in a language (``ExportOptions.lang``).
    takes_lang: ClassVar[bool] = True
    #: Whether the file may be the answer key (``ExportOptions.key``).
    takes_key: ClassVar[bool] = False
    #: Whether the file is the quiz document itself, written as it is given (lossless): the
    #: teacher's pages give it the stored document rather than the quiz as loaded.
    writes_document: ClassVar[bool] = False

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        """The file: UTF-8 text, or a PDF. Raises :class:`~tutor.problems.ContentError`."""
        raise NotImplementedError

    def file_name(self, prefix: str, options: ExportOptions) -> str:
        """A download's file name: ``<prefix>-<stem>[-<lang>].<extension>`` (``quiz-3-hokm-moodle-fa.xml``)."""
        stem = self.key_stem if self.takes_key and options.key else self.stem
        lang = f"-{options.lang}" if self.takes_lang else ""
        return f"{prefix}-{stem}{lang}.{self.extension}"


#: Every export format, by name, in the order they were registered (the order ``tutor export`` lists them).
FORMATS: Registry[ExportFormat] = Registry("export format")

#: Class decorator: add one instance of the format to :data:`FORMATS` (a name used twice is a bug).
register = FORMATS.register


def get_format(name: str) -> ExportFormat:
    """The format called ``name``. Raises :class:`KeyError` for an unknown one."""
    return FORMATS[name]


@register
class YamlFormat(ExportFormat):
    """The quiz file (the ``quizzes/`` format): lossless, a document is written as it is."""

    name = "yaml"
    media_type = "application/yaml"
    extension = "yaml"
    stem = "quiz"
    takes_lang = False
    writes_document = True

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        return dump_quiz(quiz).encode("utf-8")


@register
class MoodleFormat(ExportFormat):
    """Moodle XML, each key and feedback from the engine."""

    name = "moodle"
    media_type = "application/xml"
    extension = "xml"
    stem = "moodle"

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        return moodle_xml(_checked(quiz), options.lang, category=options.category).encode("utf-8")


@register
class GiftFormat(ExportFormat):
    """Moodle's GIFT text format."""

    name = "gift"
    media_type = "text/plain"
    extension = "txt"
    stem = "gift"

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        return gift(_checked(quiz), options.lang, category=options.category).encode("utf-8")


@register
class HtmlFormat(ExportFormat):
    """The printable worksheet, or its answer key, as an HTML page."""

    name = "html"
    media_type = "text/html"
    extension = "html"
    stem = "worksheet"
    key_stem = "key"
    takes_key = True

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        return worksheet_html(quiz, options.lang, options.key, title=options.title, static=options.static,
                              pdf_href=options.pdf_href, key_href=options.key_href).encode("utf-8")


@register
class PdfFormat(ExportFormat):
    """The worksheet, or its answer key, as a PDF (A4)."""

    name = "pdf"
    media_type = "application/pdf"
    extension = "pdf"
    stem = "worksheet"
    key_stem = "key"
    takes_key = True

    def write(self, quiz: QuizSource, options: ExportOptions) -> bytes:
        return worksheet_pdf(quiz, options.lang, options.key, title=options.title, progress=options.progress)


def export_quiz_file(path: str, fmt: str, lang: str, *, key: bool = False,
                     progress: Progress | None = None) -> bytes:
    """The quiz file ``path`` exported as format ``fmt`` (a name in :data:`FORMATS`) in ``lang``
    (``key``: the answer key, for a format that ``takes_key``): bytes (UTF-8 text, or a PDF).
    ``progress``: told how a long export goes (:data:`.worksheet.Progress`; the PDF's build).

    Raises :class:`~tutor.problems.ContentError` (``file:line: message``) for a quiz that
    does not pass the engine's check, :class:`KeyError` for an unknown format."""
    return FORMATS[fmt].write(read_quiz_file(path), ExportOptions(lang=lang, key=key, progress=progress))
