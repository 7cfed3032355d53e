"""Languages, locale choice and localised game vocabulary (cards, suits, seats, numbers, reasons).

One list of languages is used everywhere: :data:`LANGUAGES` (English, Persian written right to
left, Bulgarian, Telugu). Message catalogues live in the repository's ``locales/`` directory
(``locales/<lang>/LC_MESSAGES/messages.po`` + compiled ``.mo``). Every message uses gettext's
``%(name)s`` placeholders (python-format), reason templates included.

One i18n path. The language is chosen once per request: Flask-Babel's locale selector
(:mod:`tutor.web.lang`, from the URL) decides it, and the web translates with Flask-Babel's
``gettext`` / ``lazy_gettext`` and the templates' ``_()``. Every function here translates into
:func:`current_lang` — no function takes a language to translate into:

* in a request, the request's locale (Flask-Babel's ``get_locale()``);
* inside ``with using(lang):`` that language (the CLI, tests, pre-rendering, the engine's English
  prompts; in an app context it also enters Flask-Babel's ``force_locale``);
* otherwise English.

Catalogues are loaded in one place, :func:`get_translations` (Babel's ``Translations``, cached
per language): the code that must run without Flask (``tutor check``, ``tutor gen``; the engine
never imports Flask) reads them directly, and :func:`init_app` gives Flask-Babel a message domain
that reads them through the same function.

Everything the engine explains comes as a :class:`~tutor.engine.reasons.Reason`;
:func:`render_reason` translates its template and fills the params in the current language:
cards become full card names as a sentence says them ("the ten of hearts", "ده دل"), suits suit
names, seats positions relative to the learner ("your partner"), numbers localised digits
(Persian digits in ``fa``), lists joined with the language's own list pattern.

Card, suit and rank vocabulary is kept in tables in this module (not in the catalogues) because
each language orders and inflects the words differently; everything else is a gettext message.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack

from babel.dates import format_date, format_datetime, format_interval, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

from tutor import shipped_content
from tutor.engine.cards import Card, Suit
from tutor.engine.errors import TutorError
from tutor.engine.reasons import N_, REASON_TEXTS, Reason

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
    "RTL_LANGUAGES",
    "anticlockwise",
    "card_label",
    "card_short",
    "cards_count_label",
    "cards_label",
    "catalogue_files",
    "category_name",
    "current_lang",
    "exercises_right_label",
    "fmt_datetime",
    "fmt_number",
    "fmt_timedelta",
    "font_family",
    "get_translations",
    "gettext",
    "init_app",
    "is_rtl",
    "join_list",
    "ngettext",
    "normalize_lang",
    "points_label",
    "rank_name",
    "rank_short",
    "ReasonText",
    "render_reason",
    "render_reasons",
    "result_name",
    "seat_label",
    "select_locale",
    "separator",
    "side_label",
    "steps_done_label",
    "suit_name",
    "text_direction",
    "tricks_label",
    "using",
]

#: The supported languages, in menu order. The ONE list used by routes, catalogues, tests.
LANGUAGES: tuple[str, ...] = ("en", "fa", "bg", "te")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself (for the language menu).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "fa": "فارسی", "bg": "Български", "te": "తెలుగు"}
RTL_LANGUAGES = frozenset({"fa"})
#: The catalogue directory (``locales/`` of the checkout or of the installed package).
LOCALES_DIR: Path = shipped_content() / "locales"
#: Name of the cookie that remembers the learner's language.
LANG_COOKIE = "lang"
DOMAIN = "messages"


#: CSS font stacks per language. Debian's ``fonts-noto-core`` provides "Noto Sans Telugu",
#: "Noto Serif Telugu", "Noto Naskh Arabic", "Noto Sans Arabic" and "Noto Sans" (Latin, Cyrillic).
FONT_FAMILIES: dict[str, str] = {
    "en": '"Noto Sans", "DejaVu Sans", system-ui, sans-serif',
    "bg": '"Noto Sans", "DejaVu Sans", system-ui, sans-serif',
    "fa": '"Vazirmatn", "Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans", sans-serif',
    "te": '"Noto Sans Telugu", "Noto Serif Telugu", "Gautami", "Noto Sans", sans-serif',
}


def font_family(lang: str) -> str:
    """The CSS ``font-family`` value for text in ``lang`` (covers Persian and Telugu scripts)."""
    return FONT_FAMILIES[normalize_lang(lang) or DEFAULT_LANGUAGE]


def is_rtl(lang: str) -> bool:
    """True for languages written right to left (Persian)."""
    return normalize_lang(lang) in RTL_LANGUAGES


def text_direction(lang: str) -> str:
    """``"rtl"`` or ``"ltr"``: the value for the HTML ``dir`` attribute."""
    return "rtl" if is_rtl(lang) else "ltr"


def normalize_lang(tag: object) -> str | None:
    """A supported language code for a tag such as ``"fa"``, ``"fa-IR"``, ``"BG_bg"``; else None."""
    if isinstance(tag, str) and tag in LANGUAGES:  # the common case: already a supported code
        return tag
    if not isinstance(tag, str):
        return None
    primary = re.split(r"[-_]", tag.strip().lower(), maxsplit=1)[0]
    return primary if primary in LANGUAGES else None


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
        from werkzeug.datastructures import LanguageAccept
        from werkzeug.http import parse_accept_header

        accepted = parse_accept_header(accept_language_header, LanguageAccept)
        ranked = sorted(enumerate(accepted), key=lambda item: (-item[1][1], item[0]))
        for _pos, (tag, quality) in ranked:
            if quality <= 0:
                continue
            lang = normalize_lang(tag)
            if lang:
                return lang
    return DEFAULT_LANGUAGE


# --------------------------------------------------------------------------------------------
# Catalogues


@functools.cache
def get_translations(lang: str) -> NullTranslations:
    """The :class:`babel.support.Translations` of ``lang`` from ``locales/``: the one place the
    catalogues are loaded (once per language), for Flask-Babel and for code without Flask alike.

    Unknown languages or a missing ``.mo`` give :class:`NullTranslations` (English msgids).
    """
    lang = normalize_lang(lang) or DEFAULT_LANGUAGE
    return Translations.load(str(LOCALES_DIR), [lang], domain=DOMAIN)


#: The current language (a code of :data:`LANGUAGES`): set for a request once its language is
#: chosen (:mod:`tutor.web.lang`, reset when the request ends) and for a block by :func:`using`;
#: None where neither did.
CURRENT: ContextVar[str | None] = ContextVar("tutor_lang", default=None)


def current_lang() -> str:
    """The language every function of this module translates into now (a code of :data:`LANGUAGES`).

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
    text = get_translations(current_lang()).ngettext(singular, plural, n)
    values = {"num": fmt_number(n)} | params
    try:
        return text % values
    except (KeyError, ValueError, TypeError):
        return text


def catalogue_files() -> dict[str, Path]:
    """Language -> its compiled catalogue, ``LOCALES_DIR/<lang>/LC_MESSAGES/messages.mo``."""
    return {lang: LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo" for lang in LANGUAGES}


def init_app(app: Flask, locale_selector: Callable[[], str | None]) -> None:
    """Configure Flask-Babel on ``app`` with ``locale_selector`` (called once per request; see
    :mod:`tutor.web.lang`), its messages read through :func:`get_translations`.

    The caller checks that the compiled catalogues are there (:func:`catalogue_files`; the web's
    :func:`tutor.web.lang.init_app`): this module imports nothing of :mod:`tutor.content`.

    Also adds template globals: ``LANGUAGES``, ``LANGUAGE_NAMES``, ``current_lang``, ``is_rtl``,
    ``text_direction``, ``separator`` and the localisers of this module.
    """
    from flask_babel import Babel, Domain

    class Catalogues(Domain):
        """Flask-Babel's message domain, reading the catalogues through :func:`get_translations`
        in :func:`current_lang` (the request's locale, or a :func:`using` block's language)."""

        def get_translations(self) -> NullTranslations:
            return get_translations(current_lang())

    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(LOCALES_DIR)
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
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES, LANGUAGE_NAMES=LANGUAGE_NAMES, current_lang=current_lang, is_rtl=is_rtl,
        text_direction=text_direction, font_family=font_family, card_label=card_label, card_short=card_short,
        suit_name=suit_name, rank_name=rank_name, seat_label=seat_label, side_label=side_label,
        fmt_number=fmt_number, render_reason=render_reason, render_reasons=render_reasons,
        category_name=category_name, result_name=result_name,
        points_label=points_label, tricks_label=tricks_label, cards_count_label=cards_count_label,
        exercises_right_label=exercises_right_label, steps_done_label=steps_done_label, separator=separator,
    )


# --------------------------------------------------------------------------------------------
# Numbers and lists

_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def fmt_number(n: float, group: bool = True) -> str:
    """``n`` formatted for the current language with Babel; Persian uses Persian digits (``1234``
    -> ``۱٬۲۳۴``). ``group=False`` leaves out the thousands separator (for numbers one types back,
    such as seeds)."""
    return _fmt_number(n, current_lang(), group)


@functools.lru_cache(maxsize=4096)
def _fmt_number(n: float, lang: str, group: bool) -> str:
    """:func:`fmt_number` for a supported ``lang``, kept: a page shows the same small numbers
    (seats, points, positions) many times, and Babel's formatting costs tens of microseconds."""
    if lang == "fa":
        return format_decimal(n, locale="fa", numbering_system="arabext",
                              group_separator=group).translate(_PERSIAN_DIGITS)
    return format_decimal(n, locale=lang, group_separator=group)


def fmt_timedelta(delta: timedelta) -> str:
    """A time span from now with its direction, in words: "in 10 minutes", "۱۰ دقیقه بعد"."""
    lang = current_lang()
    out = format_timedelta(delta, add_direction=True, locale=lang)
    return out.translate(_PERSIAN_DIGITS) if lang == "fa" else out


def fmt_percent(p: float) -> str:
    """``p`` (a fraction, 0.8) as a whole percentage in the current language: "80%", "۸۰٪"."""
    return _fmt_percent(round(p * 100), current_lang())


@functools.lru_cache(maxsize=1024)
def _fmt_percent(whole: int, lang: str) -> str:
    """:func:`fmt_percent` of ``whole`` percent, kept (Babel's formatting costs about a millisecond)."""
    out = format_percent(whole / 100, format="#,##0%", locale=lang)
    return out.translate(_PERSIAN_DIGITS).replace("%", "\u066a") if lang == "fa" else out  # ٪ Arabic percent sign


def fmt_day(day: date) -> str:
    """A day and month, short ("3 Nov", "۳ نوامبر"), in the current language and digits."""
    lang = current_lang()
    out = format_date(day, format="d MMM", locale=lang)
    return out.translate(_PERSIAN_DIGITS) if lang == "fa" else out


#: The Babel locale of a language's spans of days where it is not the language's own: the app's
#: English dates read day first ("3 Nov", :func:`fmt_day`), as British English writes them.
_INTERVAL_LOCALES = {"en": "en_GB"}


def fmt_day_range(first: date, last: date) -> str:
    """A span of days, short, as Babel's interval formats (CLDR) write it in the current
    language, in its digits: "24 – 30 Nov", "28 Nov – 4 Dec", "۲۴ تا ۳۰ نوامبر"."""
    lang = current_lang()
    out = format_interval(first, last, skeleton="MMMd", locale=_INTERVAL_LOCALES.get(lang, lang))
    return out.translate(_PERSIAN_DIGITS) if lang == "fa" else out


def fmt_datetime(when: datetime) -> str:
    """A date and time (a naive ``when`` is UTC), shown in UTC with the zone named."""
    lang = current_lang()
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    out = format_datetime(when, format="long", tzinfo=UTC, locale=lang)
    return out.translate(_PERSIAN_DIGITS) if lang == "fa" else out


#: What stands between two items of one line ("Hokm · 80%", a page's title and the site's name):
#: a spaced middle dot, except in Persian, where "·" beside Persian digits reads as the digit zero
#: ("حکم · ۱۹٪" looks like "۱۹۰٪"), so Persian writes its comma.
_SEPARATORS = {"en": " · ", "fa": "، ", "bg": " · ", "te": " · "}


def separator() -> str:
    """The separator between two items of one line in the current language, with its spaces:
    " · ", in Persian "، " (:data:`_SEPARATORS`)."""
    return _SEPARATORS[current_lang()]


#: The list patterns of :func:`babel.lists.format_list`.
ListStyle = Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"]


def join_list(items: Iterable[str], style: ListStyle = "standard") -> str:
    """Join ``items`` with the language's list pattern ("a, b and c"); ``style="or"`` for choices."""
    items = list(items)
    if not items:
        return ""
    return format_list(items, style=style, locale=current_lang())


def points_label(n: int) -> str:
    """``"1 point"``, ``"3 points"``, ``"۳ امتیاز"``, ``"3 точки"``: a number of points, plural-aware."""
    return ngettext("%(num)s point", "%(num)s points", n)


def tricks_label(n: int) -> str:
    """``"1 trick"``, ``"7 tricks"`` in the current language, plural-aware."""
    return ngettext("%(num)s trick", "%(num)s tricks", n)


def cards_count_label(n: int) -> str:
    """``"1 card"``, ``"6 cards"`` in the current language, plural-aware."""
    return ngettext("%(num)s card", "%(num)s cards", n)


def exercises_right_label(right: int, total: int) -> str:
    """``"0 of 1 exercise answered right"``, ``"2 of 5 exercises answered right"``: plural-aware
    (by the number of exercises)."""
    return ngettext("%(right)s of %(num)s exercise answered right", "%(right)s of %(num)s exercises answered right",
                    total, right=fmt_number(right))


def steps_done_label(done: int, total: int) -> str:
    """``"0 of 1 step done"``, ``"2 of 5 steps done"``: plural-aware (by the number of steps)."""
    return ngettext("%(done)s of %(num)s step done", "%(done)s of %(num)s steps done", total, done=fmt_number(done))


# --------------------------------------------------------------------------------------------
# Cards

#: rank number -> full name, per language (used in accessible card names).
_RANK_NAMES: dict[str, dict[int, str]] = {
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
           10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"},
    "fa": {2: "دو", 3: "سه", 4: "چهار", 5: "پنج", 6: "شش", 7: "هفت", 8: "هشت", 9: "نه",
           10: "ده", 11: "سرباز", 12: "بی‌بی", 13: "شاه", 14: "آس"},
    "bg": {2: "двойка", 3: "тройка", 4: "четворка", 5: "петица", 6: "шестица", 7: "седмица",
           8: "осмица", 9: "деветка", 10: "десетка", 11: "вале", 12: "дама", 13: "поп", 14: "асо"},
    "te": {2: "రెండు", 3: "మూడు", 4: "నాలుగు", 5: "ఐదు", 6: "ఆరు", 7: "ఏడు", 8: "ఎనిమిది",
           9: "తొమ్మిది", 10: "పది", 11: "జాక్", 12: "రాణి", 13: "రాజు", 14: "ఏస్"},
}
#: rank number -> index letter on the card face, per language (numbers use the language's digits).
_RANK_LETTERS: dict[str, dict[int, str]] = {
    "en": {11: "J", 12: "Q", 13: "K", 14: "A"},
    "fa": {11: "س", 12: "ب", 13: "ش", 14: "آ"},
    "bg": {11: "В", 12: "Д", 13: "П", 14: "А"},
    # Cards sold in India carry the A K Q J indices; Telugu players read them as such.
    "te": {11: "J", 12: "Q", 13: "K", 14: "A"},
}
#: suit -> (singular, plural) names per language.
_SUIT_NAMES: dict[str, dict[Suit, tuple[str, str]]] = {
    "en": {Suit.S: ("spade", "spades"), Suit.H: ("heart", "hearts"), Suit.D: ("diamond", "diamonds"),
           Suit.C: ("club", "clubs")},
    "fa": {Suit.S: ("پیک", "پیک"), Suit.H: ("دل", "دل"), Suit.D: ("خشت", "خشت"), Suit.C: ("گشنیز", "گشنیز")},
    "bg": {Suit.S: ("пика", "пики"), Suit.H: ("купа", "купи"), Suit.D: ("каро", "кара"),
           Suit.C: ("спатия", "спатии")},
    "te": {Suit.S: ("ఇస్పేటు", "ఇస్పేటు"), Suit.H: ("ఆటీను", "ఆటీను"), Suit.D: ("డైమను", "డైమను"),
           Suit.C: ("కళావరు", "కళావరు")},
}
#: Which form names a suit in running prose ("hearts were led" / "купа" / "دل" / "ఆటీను").
_SUIT_PROSE_PLURAL = {"en": True, "fa": False, "bg": False, "te": False}
#: How a full card name is built: rank and suit in the language's order.
_CARD_PATTERN = {"en": "%(rank)s of %(suit)s", "fa": "%(rank)s %(suit)s", "bg": "%(rank)s %(suit)s",
                 "te": "%(suit)s %(rank)s"}
#: How a card's full name stands inside a sentence: English gives it the definite article ("you
#: hold the queen of spades and the four of spades"); Persian, Bulgarian and Telugu name a card
#: without one.
_CARD_IN_PROSE = {"en": "the %(card)s", "fa": "%(card)s", "bg": "%(card)s", "te": "%(card)s"}


def _rank_number(rank: int | str) -> int:
    if isinstance(rank, int) and not isinstance(rank, bool):
        number = rank
    else:
        number = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}.get(str(rank).strip().upper(), 0)
        if not number and str(rank).strip().isdigit():
            number = int(str(rank).strip())
    if not 2 <= number <= 14:
        raise ValueError(f"not a rank: {rank!r}")
    return number


def rank_name(rank: int | str) -> str:
    """Full rank name: ``"ten"`` for 10 in English, ``"поп"`` for ``"K"`` in Bulgarian."""
    return _RANK_NAMES[current_lang()][_rank_number(rank)]


def rank_short(rank: int | str) -> str:
    """Index of a rank on the card face: ``"A"``, ``"10"``; ``"آ"``/``"۱۰"`` in fa, ``"П"`` in bg."""
    number = _rank_number(rank)
    return _RANK_LETTERS[current_lang()].get(number) or fmt_number(number)


def suit_name(letter: str | Suit, plural: bool = False) -> str:
    """Name of a suit (letter ``S H D C`` or symbol): ``"hearts"`` for ``("H", plural=True)`` in English.

    Persian and Telugu suit names do not change in the plural.
    """
    suit = letter if isinstance(letter, Suit) else Suit.parse(letter)
    return _SUIT_NAMES[current_lang()][suit][1 if plural else 0]


def _suit_in_prose(letter: str | Suit) -> str:
    return suit_name(letter, plural=_SUIT_PROSE_PLURAL[current_lang()])


def card_label(card_str: str | Card, prose: bool = False) -> str:
    """The full accessible name of a card: "ten of hearts", "ده دل", "десетка купа", "ఆటీను పది".

    ``prose=True``: the name as it stands in a sentence, with the language's article where it has
    one ("you hold the ten of hearts"; :data:`_CARD_IN_PROSE`); the bare name is the card's label
    (aria-label, a list of legal cards, a line of the right answer)."""
    card = Card.parse(card_str)
    lang = current_lang()
    name = _CARD_PATTERN[lang] % {"rank": rank_name(card.rank), "suit": suit_name(card.suit, plural=lang == "en")}
    return _CARD_IN_PROSE[lang] % {"card": name} if prose else name


def card_short(card_str: str | Card) -> str:
    """Rank index in the language + suit symbol: ``"10♥"``, ``"آ♠"``/``"۱۰♥"`` in fa, ``"П♣"`` in bg."""
    card = Card.parse(card_str)
    return rank_short(card.rank) + card.suit.symbol


def cards_label(cards: Iterable[str | Card], style: ListStyle = "standard", prose: bool = False) -> str:
    """Full names of several cards joined with the language's list pattern (``prose``: as in
    :func:`card_label`, each name as it stands in a sentence)."""
    return join_list((card_label(c, prose) for c in cards), style)


# --------------------------------------------------------------------------------------------
# Seats and sides

def anticlockwise(ruleset: str | None) -> bool:
    """True where play passes to the right (the ruleset registry's ``anticlockwise``: Hokm and
    Trinidad); False for classic All Fours and an unknown ruleset."""
    from .engine.rulesets import RULESETS

    r = RULESETS.get(ruleset) if ruleset is not None else None
    return r.anticlockwise if r is not None else False


#: Seat and side words (gettext msgids).
_WORDS = {
    "you": N_("you"), "partner": N_("your partner"), "right": N_("your right-hand opponent"),
    "left": N_("your left-hand opponent"), "opponent": N_("your opponent"), "seat": N_("seat %(n)s"),
    "dealer": N_("%(who)s (dealer)"), "hakem": N_("%(who)s (hakem)"), "your-team": N_("your team"),
    "other-team": N_("the other team"), "team": N_("team %(n)s"), "nobody": N_("nobody"),
}
#: A seat as the one who did something, after "by" ("played by your partner"): words of their own,
#: since a language may change a name after its preposition (Bulgarian "от противника отляво",
#: "от вас") or say it otherwise (Persian "از طرف یارت").
_BY_WORDS = {
    "you": N_("by you"), "partner": N_("by your partner"), "right": N_("by your right-hand opponent"),
    "left": N_("by your left-hand opponent"), "opponent": N_("by your opponent"), "seat": N_("by seat %(n)s"),
}


def _position(seat: int, you: int, players: int, ruleset: str | None) -> str:
    """Where ``seat`` sits from ``you``: the key of its words (``you partner right left opponent``)."""
    offset = (seat - you) % players
    if offset == 0:
        return "you"
    if players == 2:
        return "opponent"
    if players == 4 and offset == 2:
        return "partner"
    next_in_play = offset == 1
    on_right = next_in_play if anticlockwise(ruleset) else not next_in_play
    return "right" if on_right else "left"


def seat_label(seat: int, you: int | None, players: int, ruleset: str | None,
               dealer: int | None = None, hakem: int | None = None, by: bool = False) -> str:
    """Name a seat relative to the learner's seat ``you``.

    4 players: "you", "your partner" (opposite), "your right-hand opponent"/"... left-hand ..."; the
    seat after ``you`` in play order is on the right in Hokm and Trinidad (anticlockwise) and on
    the left in classic All Fours (clockwise). 3 players: you, left and right opponent; 2 players:
    "your opponent". ``you=None`` names the seat by number. A seat that is the ``dealer`` or the
    ``hakem`` gets that role added: "your partner (hakem)". Seat numbers shown to a learner count from 1 (the engine's seat 0 is
    "seat 1"). ``by=True``: the seat as the one who did something, with its "by" ("by your
    partner", "от партньора ви"), for "played %(by)s".
    """
    seat = int(seat)
    words = _BY_WORDS if by else _WORDS
    if you is None or not players:
        text = gettext(words["seat"], n=fmt_number(seat + 1))  # learners count seats from 1
    else:
        text = gettext(words[_position(seat, int(you), int(players), ruleset)])
    if hakem is not None and int(hakem) == seat:
        text = gettext(_WORDS["hakem"], who=text)
    if dealer is not None and int(dealer) == seat:
        text = gettext(_WORDS["dealer"], who=text)
    return text


def side_label(side: int | None, you: int | None, players: int, ruleset: str | None = None) -> str:
    """Name a scoring side relative to the learner (spec: 4 players -> team ``seat % 2``, else a seat).

    4 players: "your team" / "the other team"; 2 or 3 players: the seat's label ("you", "your
    opponent", ...). ``side=None`` is "nobody"; ``you=None`` names the side by number.
    """
    if side is None:
        return gettext(_WORDS["nobody"])
    side = int(side)
    if players == 4:
        if you is None:
            return gettext(_WORDS["team"], n=fmt_number(side + 1))  # learners count teams from 1
        return gettext(_WORDS["your-team"] if side == int(you) % 2 else _WORDS["other-team"])
    return seat_label(side, you, players, ruleset)


# --------------------------------------------------------------------------------------------
# Scoring words

_CATEGORIES = {
    "high": N_("High"), "low": N_("Low"), "jack": N_("Jack"), "hang-jack": N_("Hang jack"),
    "game": N_("Game"),
}
_RESULTS = {"win": N_("win"), "kot": N_("kot"), "hakem-kot": N_("hakem-kot")}
#: Steps of an All Fours deal (engine phase names) as they read in "the game is at the ... step".
_PHASES = {
    "decide": N_("stand-or-beg"), "choose": N_("give-or-run"), "discard": N_("discard"),
    "bunch": N_("bunch"), "vote": N_("bunch-vote"), "play": N_("play"), "over": N_("end-of-hand"),
}


def category_name(category: str) -> str:
    """Name of an All Fours scoring category (``high low jack hang-jack game``); an unknown one as it is."""
    msg = _CATEGORIES.get(category)
    return gettext(msg) if msg else category


def result_name(result: str) -> str:
    """Name of a Hokm round result (``win kot hakem-kot``); an unknown one as it is."""
    msg = _RESULTS.get(result)
    return gettext(msg) if msg else result


# --------------------------------------------------------------------------------------------
# Reasons

_SUIT_PARAMS = frozenset({"suit", "trump", "led", "led_suit", "trump_suit", "turned_suit", "old_trump",
                          "new_trump", "refused"})
_SEAT_PARAMS = frozenset({"seat", "winner", "hakem", "dealer", "leader", "next_hakem", "player", "holder",
                          "caller", "eldest", "beggar", "taker", "captor", "next_dealer", "previous_hakem"})
_SIDE_PARAMS = frozenset({"side", "team", "winner_team", "winner_side", "match_winner", "scorer",
                          "holder_side", "holder_team", "captor_side", "captor_team", "dealer_side",
                          "dealer_team", "beggar_side", "beggar_team"})


def _role_of_param(name: str) -> str:
    if name in _SUIT_PARAMS or name.endswith(("_suit", "suits")):
        return "suit"
    if name in _SEAT_PARAMS or name.endswith(("_seat", "seats")):
        return "seat"
    if name in _SIDE_PARAMS or name.endswith(("_side", "_team", "sides", "teams")):
        return "side"
    if "card" in name:
        return "card"
    if name in ("category", "categories"):
        return "category"
    if name == "result":
        return "result"
    if name == "phase":
        return "phase"
    return "plain"


def _is_card(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        Card.parse(text)
    except (TutorError, ValueError):
        return False
    return True


class ReasonContext(TypedDict, total=False):
    """Who a reason is told to (:func:`render_reason`): the learner's seat ``you`` (``None``: seat
    numbers), the number of ``players`` (``None``: 4) and the ``ruleset`` name."""

    you: int | None
    players: int | None
    ruleset: str | None


def _localize_value(name: str, value: object, ctx: ReasonContext) -> str:
    role = _role_of_param(name)
    if isinstance(value, list | tuple) and value and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value) and role == "plain":
        # per-side numbers (totals, scores): "10 – 7"
        return " – ".join(fmt_number(v) for v in value)
    if isinstance(value, list | tuple):
        parts = [_localize_value(name, v, ctx) for v in value]
        return join_list(parts) if parts else gettext(_WORDS["nobody"])
    if value is None:
        return gettext(_WORDS["nobody"])
    if isinstance(value, bool):
        return str(value)
    try:
        if role == "suit":
            return _suit_in_prose(str(value))
        if role == "seat" and isinstance(value, int):
            return seat_label(value, ctx.get("you"), ctx.get("players") or 4, ctx.get("ruleset"))
        if role == "side" and isinstance(value, int):
            return side_label(value, ctx.get("you"), ctx.get("players") or 4, ctx.get("ruleset"))
        if role == "category":
            return category_name(str(value))
        if role == "result":
            return result_name(str(value))
        if role == "phase" and str(value) in _PHASES:
            return gettext(_PHASES[str(value)])
        if (role == "card" or role == "plain") and _is_card(value):
            return card_label(str(value), prose=True)
    except (TutorError, ValueError):
        pass
    if isinstance(value, int | float):
        return fmt_number(value)
    return str(value)


_ENGINE_MODULES = ("tricks", "hokm", "allfours", "trinidad")


@functools.cache
def _load_engine_texts() -> bool:
    """Import the ruleset modules once so that every reason template is in REASON_TEXTS."""
    import importlib

    for name in _ENGINE_MODULES:  # a broken module fails here, loudly
        importlib.import_module(f"tutor.engine.{name}")
    return True


class _KeepMissing(dict):
    """Params of a template; a placeholder without a param stays as it is (``%(card)s``)."""

    def __missing__(self, key: str) -> str:
        return f"%({key})s"


def render_reason(reason_json: Mapping[str, Any] | Reason, *, you: int | None = None,
                  players: int | None = None, ruleset: str | None = None) -> str:
    """The explanation of one engine Reason in the current language.

    ``reason_json`` is ``Reason.to_json()`` (or a :class:`Reason`). The English template
    ``REASON_TEXTS[code]`` is translated with gettext and its ``%(param)s`` placeholders filled with
    localised values, chosen by param name: cards (``card``, ``cards``, ``*card*``) -> full card
    names as a sentence says them (:func:`card_label` with ``prose``: "the ten of hearts"), suits
    (``suit``, ``trump``, ``led``) -> suit names, seats (``seat``, ``winner``,
    ``hakem``, ``dealer``, ``leader`` ...) -> :func:`seat_label` relative to ``you`` (seat numbers
    when ``you`` is None), sides/teams -> :func:`side_label`, numbers -> :func:`fmt_number`;
    lists joined with the language's list pattern. ``players`` defaults to 4.
    """
    if isinstance(reason_json, Reason):
        reason_json = reason_json.to_json()
    code = str(reason_json.get("code", ""))
    params: Mapping[str, object] = reason_json.get("params") or {}
    _load_engine_texts()
    template = REASON_TEXTS.get(code)
    if template is None:
        return code
    text = gettext(template)
    ctx: ReasonContext = {"you": you, "players": players, "ruleset": ruleset}
    values = _KeepMissing({k: _localize_value(k, v, ctx) for k, v in params.items()})
    try:
        text = text % values
    except (ValueError, TypeError):
        return text
    # A sentence may start with a localised value ("ten of hearts is ..."): capitalise it.
    return text[:1].upper() + text[1:]


class ReasonText(str):
    """A rendered reason: the explanation text itself (a ``str``), carrying ``rules``, the ids of
    the rule points the reason applied (its ``rule`` field split at commas: ``("C21", "K20")``),
    so that a page can link each reason to the rules reference."""

    rules: tuple[str, ...]

    def __new__(cls, text: str, rules: tuple[str, ...] = ()) -> ReasonText:
        self = super().__new__(cls, text)
        self.rules = rules
        return self


def _rule_ids(reason: Mapping[str, Any] | Reason) -> tuple[str, ...]:
    rule = reason.rule if isinstance(reason, Reason) else reason.get("rule")
    if not isinstance(rule, str):
        return ()
    return tuple(part.strip() for part in rule.split(",") if part.strip())


def render_reasons(reasons: Iterable[Mapping[str, Any]], **context: Unpack[ReasonContext]) -> list[ReasonText]:
    """:func:`render_reason` over an answer's ``why`` list; each text is a :class:`ReasonText`
    that also carries the ids of the rule points the reason cites."""
    return [ReasonText(render_reason(r, **context), _rule_ids(r)) for r in reasons or ()]
