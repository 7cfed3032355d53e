"""Languages, locale choice and localised game vocabulary (cards, suits, seats, numbers, reasons).

One registry of languages is used everywhere (:mod:`tutor.i18n.registry`): one folder per
language in the locales directory, ``locales/<code>/language.yaml`` (name, direction, digits and
numbering system, calendar, font stack, card and seat grammar, ``partial``) beside its message
catalogue ``LC_MESSAGES/messages.po`` and compiled ``.mo``. :data:`LANGUAGES` (English, Persian
written right to left, Bulgarian, Telugu, in menu order) and every table of this package are
made from it: adding a language is adding a folder. Every message uses gettext's ``%(name)s``
placeholders (python-format), reason templates included.

The package's modules:

* :mod:`~tutor.i18n.registry`: the entries (:class:`~tutor.i18n.registry.Language`, pydantic),
  read once, and the languages' stylesheet (:func:`language_css`);
* :mod:`~tutor.i18n.catalogues`: the current language (:func:`current_lang`, :func:`using`, the
  locale choice :func:`select_locale`), the catalogues (:func:`get_translations`,
  :func:`gettext`, :func:`ngettext`) and Flask-Babel (:func:`init_app`);
* :mod:`~tutor.i18n.formatting`: numbers, dates, lists and plural labels in the language's digits;
* :mod:`~tutor.i18n.cards`: cards, suits, seats, sides and scoring words;
* :mod:`~tutor.i18n.reasons`: the engine's reasons (:func:`render_reason`) and the kinds' prompts.

No function translates into a language given to it: every one translates into
:func:`current_lang` (the request's language, a :func:`using` block's, else English).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import (
    SeatName,
    anticlockwise,
    card_label,
    card_short,
    cards_label,
    category_name,
    phase_name,
    rank_name,
    rank_short,
    result_name,
    seat_label,
    seat_names,
    side_label,
    suit_in_prose,
    suit_name,
)
from .catalogues import (
    CURRENT,
    LANG_COOKIE,
    LANGUAGE_NAMES,
    LANGUAGES,
    RTL_LANGUAGES,
    catalogue_files,
    current_lang,
    get_translations,
    gettext,
    install,
    is_rtl,
    ngettext,
    normalize_lang,
    select_locale,
    text_direction,
    using,
)
from .formatting import (
    ListStyle,
    ascii_digits,
    cards_count_label,
    exercises_right_label,
    fmt_date,
    fmt_datetime,
    fmt_day_range,
    fmt_number,
    fmt_percent,
    fmt_timedelta,
    join_list,
    points_label,
    separator,
    steps_done_label,
    tricks_label,
)
from .reasons import ReasonContext, ReasonText, render_reason, render_reasons
from .registry import (
    DEFAULT_LANGUAGE,
    LOCALES_DIR,
    REGISTRY,
    REGISTRY_PROBLEMS,
    Language,
    language,
    language_css,
)

if TYPE_CHECKING:
    from flask import Flask

__all__ = [
    "CURRENT",
    "DEFAULT_LANGUAGE",
    "FONT_FAMILIES",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LANG_COOKIE",
    "LOCALES_DIR",
    "REGISTRY",
    "REGISTRY_PROBLEMS",
    "RTL_LANGUAGES",
    "Language",
    "ListStyle",
    "ReasonContext",
    "ReasonText",
    "SeatName",
    "anticlockwise",
    "ascii_digits",
    "card_label",
    "card_short",
    "cards_count_label",
    "cards_label",
    "catalogue_files",
    "category_name",
    "current_lang",
    "exercises_right_label",
    "fmt_date",
    "fmt_datetime",
    "fmt_day_range",
    "fmt_number",
    "fmt_percent",
    "fmt_timedelta",
    "font_family",
    "get_translations",
    "gettext",
    "init_app",
    "is_rtl",
    "join_list",
    "language",
    "language_css",
    "ngettext",
    "normalize_lang",
    "phase_name",
    "points_label",
    "rank_name",
    "rank_short",
    "render_reason",
    "render_reasons",
    "result_name",
    "seat_label",
    "seat_names",
    "select_locale",
    "separator",
    "side_label",
    "steps_done_label",
    "suit_in_prose",
    "suit_name",
    "text_direction",
    "tricks_label",
    "using",
]

#: CSS font stacks per language (the registry's ``font``). Debian's ``fonts-noto-core`` provides
#: "Noto Sans Telugu", "Noto Serif Telugu", "Noto Naskh Arabic", "Noto Sans Arabic" and "Noto Sans".
FONT_FAMILIES: dict[str, str] = {code: lang.font for code, lang in REGISTRY.items()}


def font_family(lang: str) -> str:
    """The CSS ``font-family`` value for text in ``lang`` (covers Persian and Telugu scripts)."""
    return FONT_FAMILIES[normalize_lang(lang) or DEFAULT_LANGUAGE]


def init_app(app: Flask, locale_selector: Callable[[], str | None]) -> None:
    """Configure Flask-Babel on ``app`` with ``locale_selector`` (called once per request; see
    :mod:`tutor.web.lang`), its messages read through :func:`get_translations`.

    Raises :class:`~tutor.problems.ContentError` for a malformed ``language.yaml``
    (``file:line: message``, :data:`REGISTRY_PROBLEMS`) or a language whose compiled catalogue is
    missing.

    Also adds template globals: ``LANGUAGES``, ``LANGUAGE_NAMES``, ``current_lang``, ``is_rtl``,
    ``text_direction``, ``separator`` and the localisers of this package.
    """
    install(app, locale_selector, {
        "LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES, "current_lang": current_lang, "is_rtl": is_rtl,
        "text_direction": text_direction, "font_family": font_family, "card_label": card_label, "card_short": card_short,
        "suit_name": suit_name, "rank_name": rank_name, "seat_label": seat_label, "side_label": side_label,
        "fmt_number": fmt_number, "render_reason": render_reason, "render_reasons": render_reasons,
        "category_name": category_name, "result_name": result_name,
        "points_label": points_label, "tricks_label": tricks_label, "cards_count_label": cards_count_label,
        "exercises_right_label": exercises_right_label, "steps_done_label": steps_done_label, "separator": separator,
    })
