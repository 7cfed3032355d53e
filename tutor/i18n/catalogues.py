"""Locale choice and message catalogues: the current language, gettext, Flask-Babel.

The language is chosen once per request: Flask-Babel's locale selector (:mod:`tutor.web.lang`,
from the URL) decides it, and the web translates with Flask-Babel's ``gettext`` /
``lazy_gettext`` and the templates' ``_()``. Every function of :mod:`tutor.i18n` translates into
:func:`current_lang`:

* in a request, the request's locale (Flask-Babel's ``get_locale()``);
* inside ``with using(lang):`` that language (the CLI, tests, pre-rendering, the engine's English
  prompts; in an app context it also enters Flask-Babel's ``force_locale``);
* otherwise English.

Catalogues are loaded in one place, :func:`get_translations` (Babel's ``Translations``, cached
per language) from ``LOCALES_DIR/<lang>/LC_MESSAGES/messages.mo``.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from babel.support import NullTranslations, Translations

from . import registry
from .registry import DEFAULT_LANGUAGE, REGISTRY

if TYPE_CHECKING:
    from flask import Flask

__all__ = [
    "CURRENT", "DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "LANG_COOKIE", "RTL_LANGUAGES", "catalogue_files",
    "current_lang", "get_translations", "gettext", "install", "is_rtl", "ngettext", "normalize_lang",
    "select_locale", "text_direction", "using",
]

#: The supported languages, in menu order: the registry's codes, the ONE list used by routes,
#: catalogues, content and tests.
LANGUAGES: tuple[str, ...] = tuple(REGISTRY)
#: Each language's name in itself (for the language menu).
LANGUAGE_NAMES: dict[str, str] = {code: lang.name for code, lang in REGISTRY.items()}
#: The languages written right to left.
RTL_LANGUAGES: frozenset[str] = frozenset(code for code, lang in REGISTRY.items() if lang.rtl)
#: Name of the cookie that remembers the learner's language.
LANG_COOKIE = "lang"
DOMAIN = "messages"


def is_rtl(lang: str) -> bool:
    """True for languages written right to left (Persian)."""
    return normalize_lang(lang) in RTL_LANGUAGES


def text_direction(lang: str) -> str:
    """``"rtl"`` or ``"ltr"``: the value for the HTML ``dir`` attribute."""
    return "rtl" if is_rtl(lang) else "ltr"


def normalize_lang(tag: object) -> str | None:
    """A supported language code for a tag such as ``"fa"``, ``"fa-IR"``, ``"BG_bg"``; else None."""
    if isinstance(tag, str) and tag in REGISTRY:  # the common case: already a supported code
        return tag
    if not isinstance(tag, str):
        return None
    primary = re.split(r"[-_]", tag.strip().lower(), maxsplit=1)[0]
    return primary if primary in REGISTRY else None


def select_locale(url_lang: str | None = None, cookie_lang: str | None = None,
                  accept_language_header: str | None = None) -> str:
    """Choose the language: URL prefix, then cookie, then ``Accept-Language`` (q-values), then en.

    Unsupported or malformed values at one level fall through to the next. In the header, tags
    with ``q=0`` are refused and ``*`` is ignored; among equal q-values the first listed wins; a
    regional tag (``fa-IR``) counts as its language (``fa``).
    """
    for candidate in (url_lang, cookie_lang):
        lang = normalize_lang(candidate)
        if lang:
            return lang
    if accept_language_header:
        if len(accept_language_header) <= _ACCEPT_MOST:
            return _accepted(accept_language_header)
        return _accepted.__wrapped__(accept_language_header)
    return DEFAULT_LANGUAGE


#: Longest ``Accept-Language`` header whose choice is kept (a browser's is far shorter; longer
#: ones are read each time, so a client cannot fill the cache with long headers).
_ACCEPT_MOST = 200


@functools.lru_cache(maxsize=256)
def _accepted(header: str) -> str:
    """The language an ``Accept-Language`` header picks (see :func:`select_locale`), worked out
    once per header text: browsers send a handful of distinct ones."""
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    accepted = parse_accept_header(header, LanguageAccept)
    ranked = sorted(enumerate(accepted), key=lambda item: (-item[1][1], item[0]))
    for _pos, (tag, quality) in ranked:
        if quality <= 0:
            continue
        lang = normalize_lang(tag)
        if lang:
            return lang
    return DEFAULT_LANGUAGE


@functools.cache
def get_translations(lang: str) -> NullTranslations:
    """The :class:`babel.support.Translations` of ``lang`` from the locales directory: the one
    place the catalogues are loaded (once per language), for Flask-Babel and for code without
    Flask alike.

    Unknown languages or a missing ``.mo`` give :class:`NullTranslations` (English msgids).
    """
    lang = normalize_lang(lang) or DEFAULT_LANGUAGE
    return Translations.load(str(registry.LOCALES_DIR), [lang], domain=DOMAIN)


#: The current language (a code of :data:`LANGUAGES`): set for a request once its language is
#: chosen (:mod:`tutor.web.lang`, reset when the request ends) and for a block by :func:`using`;
#: None where neither did.
CURRENT: ContextVar[str | None] = ContextVar("tutor_lang", default=None)


def current_lang() -> str:
    """The language every function of :mod:`tutor.i18n` translates into now (a code of :data:`LANGUAGES`).

    :data:`CURRENT` (the request's language, or the innermost :func:`using` block's); else, in a
    Flask app context with Flask-Babel, its locale (``flask_babel.get_locale()``: the locale
    selector's choice, or ``force_locale``'s; e.g. an error answered before the request's language
    was set); else English.
    """
    lang = CURRENT.get()
    if lang is not None:
        return lang
    if "flask" in sys.modules:  # no Flask imported: no app context either (tutor check, tutor gen)
        from flask import current_app, has_app_context

        if has_app_context() and "babel" in current_app.extensions:
            from flask_babel import get_locale

            return normalize_lang(str(get_locale())) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Translate into ``lang`` inside the ``with`` block (an unsupported code means English).

    For code that renders outside a request, or in a language other than the request's: the CLI,
    tests, pre-rendering, the generators' English prompts. In a Flask app context it also enters
    Flask-Babel's ``force_locale``, so ``flask_babel.get_locale()`` agrees. Yields the language
    code used.
    """
    code = normalize_lang(lang) or DEFAULT_LANGUAGE
    token = CURRENT.set(code)
    try:
        if "flask" in sys.modules:
            from flask import has_app_context

            if has_app_context():
                from flask_babel import force_locale

                with force_locale(code):
                    yield code
                return
        yield code
    finally:
        CURRENT.reset(token)


def gettext(message: str, **params: object) -> str:
    """``message`` translated into :func:`current_lang`; ``params`` (if any) fill its ``%(name)s``
    placeholders (the same as ``flask_babel.gettext``, also without Flask).

    Mark literal strings with ``N_`` (or ``_``) where they are defined so they are extracted.
    """
    text = get_translations(current_lang()).gettext(message)
    return text % params if params else text


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """Plural-aware translation into :func:`current_lang`; ``%(num)s`` is filled with ``n`` in
    the language's digits."""
    from .formatting import fmt_number

    text = get_translations(current_lang()).ngettext(singular, plural, n)
    values = {"num": fmt_number(n)} | params
    try:
        return text % values
    except (KeyError, ValueError, TypeError):
        return text


def catalogue_files() -> dict[str, Path]:
    """Language -> its compiled catalogue, ``LOCALES_DIR/<lang>/LC_MESSAGES/messages.mo``."""
    return {lang: registry.LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo" for lang in LANGUAGES}


def install(app: Flask, locale_selector: Callable[[], str | None], template_globals: dict[str, object]) -> None:
    """Configure Flask-Babel on ``app`` with ``locale_selector`` (called once per request; see
    :mod:`tutor.web.lang`), its messages read through :func:`get_translations`, and add
    ``template_globals`` to its templates (see :func:`tutor.i18n.init_app`).

    Raises :class:`~tutor.problems.ContentError` for the registry's problems
    (:data:`~tutor.i18n.registry.REGISTRY_PROBLEMS`) and for a language whose compiled catalogue
    is missing.
    """
    from flask_babel import Babel, Domain

    from tutor.problems import ContentError, Problem

    class Catalogues(Domain):
        """Flask-Babel's message domain, reading the catalogues through :func:`get_translations`
        in :func:`current_lang` (the request's locale, or a :func:`using` block's language)."""

        def get_translations(self) -> NullTranslations:
            return get_translations(current_lang())

    missing = [Problem(str(p), 0, "compiled catalogue missing (pybabel compile -d locales)")
               for p in catalogue_files().values() if not p.is_file()]
    if registry.REGISTRY_PROBLEMS or missing:  # Babel would fall back to English without a word
        raise ContentError([*registry.REGISTRY_PROBLEMS, *missing])
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(registry.LOCALES_DIR)
    app.config.setdefault("BABEL_DOMAIN", DOMAIN)
    babel = Babel(app, locale_selector=locale_selector)
    babel.domain_instance = Catalogues(domain=DOMAIN)  # replaces the cached_property
    # The templates' _() and ngettext(): the same catalogues in the same language as the domain's,
    # without Flask-Babel's per-call lookup of its extension and domain (a page calls them 30 to
    # 100 times). Jinja's new-style wrappers around them (autoescaping, %(name)s) stay.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: get_translations(current_lang()).ugettext(s),
        ngettext=lambda s, p, n: get_translations(current_lang()).ungettext(s, p, n),
        pgettext=lambda c, s: get_translations(current_lang()).upgettext(c, s),
        npgettext=lambda c, s, p, n: get_translations(current_lang()).unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.globals.update(template_globals)
