"""Numbers, dates, lists and plural labels in the current language, with its own digits.

Every function formats with Babel in the current language's ``babel_locale`` and numbering
system, then writes the digits in the language's own (its registry entry's ``digits``: Persian
``۰۱۲۳۴۵۶۷۸۹``), so that a number reads the same in a count, a date or a percentage.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from babel.dates import format_date, format_datetime, format_interval, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from .catalogues import current_lang, ngettext
from .registry import REGISTRY, language

__all__ = [
    "ListStyle", "ascii_digits", "cards_count_label", "exercises_right_label", "fmt_date", "fmt_datetime",
    "fmt_day_range", "fmt_number", "fmt_percent", "fmt_timedelta", "join_list", "points_label",
    "separator", "steps_done_label", "tricks_label",
]


def fmt_number(n: float, group: bool = True) -> str:
    """``n`` formatted for the current language with Babel, in its digits (``1234`` -> ``۱٬۲۳۴``
    in Persian). ``group=False`` leaves out the thousands separator (for numbers one types back,
    such as seeds)."""
    return _fmt_number(n, current_lang(), group)


@functools.lru_cache(maxsize=4096)
def _fmt_number(n: float, lang: str, group: bool) -> str:
    """:func:`fmt_number` for a supported ``lang``, kept: a page shows the same small numbers
    (seats, points, positions) many times, and Babel's formatting costs tens of microseconds."""
    entry = language(lang)
    return entry.to_digits(format_decimal(n, locale=entry.babel_locale, numbering_system=entry.numbering,
                                          group_separator=group))


def ascii_digits(text: str) -> str:
    """``text`` with the digits of every language of the registry written as ASCII ones ("۱۲" ->
    "12"), for a number a learner types back: a seed copied from a Persian page, or typed on a
    Persian keyboard, reads the same on every page."""
    return text.translate(_ascii_table())


@functools.cache
def _ascii_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for entry in REGISTRY.values():
        table |= str.maketrans(entry.digits, "0123456789")
    return table


def fmt_timedelta(delta: timedelta) -> str:
    """A time span from now with its direction, in words: "in 10 minutes", "۱۰ دقیقه بعد"."""
    entry = language(current_lang())
    return entry.to_digits(format_timedelta(delta, add_direction=True, locale=entry.babel_locale))


def fmt_percent(p: float) -> str:
    """``p`` (a fraction, 0.8) as a whole percentage in the current language: "80%", "۸۰٪"."""
    return _fmt_percent(round(p * 100), current_lang())


@functools.lru_cache(maxsize=1024)
def _fmt_percent(whole: int, lang: str) -> str:
    """:func:`fmt_percent` of ``whole`` percent, kept (Babel's formatting costs about a millisecond)."""
    entry = language(lang)
    out = entry.to_digits(format_percent(whole / 100, format="#,##0%", locale=entry.babel_locale))
    return out.replace("%", entry.percent_sign) if entry.percent_sign else out


def fmt_date(day: date) -> str:
    """A whole date, medium length ("Nov 3, 2026", "۳ نوامبر ۲۰۲۶"), in the current language and
    its digits (Babel's ``medium`` date format of the language's locale)."""
    entry = language(current_lang())
    return entry.to_digits(format_date(day, format="medium", locale=entry.babel_locale))


def fmt_day_range(first: date, last: date) -> str:
    """A span of days, short, as Babel's interval formats (CLDR) write it in the current
    language, in its digits: "24 – 30 Nov", "28 Nov – 4 Dec", "۲۴ تا ۳۰ نوامبر"."""
    entry = language(current_lang())
    return entry.to_digits(format_interval(first, last, skeleton="MMMd", locale=entry.dates_locale))


def fmt_datetime(when: datetime) -> str:
    """A date and time (a naive ``when`` is UTC), shown in UTC with the zone named."""
    entry = language(current_lang())
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return entry.to_digits(format_datetime(when, format="long", tzinfo=UTC, locale=entry.babel_locale))


def separator() -> str:
    """The separator between two items of one line in the current language, with its spaces:
    " · ", in Persian "، " (the registry's ``separator``: "·" beside Persian digits reads as the
    digit zero)."""
    return language(current_lang()).separator


#: The list patterns of :func:`babel.lists.format_list`.
ListStyle = Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"]


def join_list(items: Iterable[str], style: ListStyle = "standard") -> str:
    """Join ``items`` with the language's list pattern ("a, b and c"); ``style="or"`` for choices."""
    items = list(items)
    if not items:
        return ""
    return format_list(items, style=style, locale=language(current_lang()).babel_locale)


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
