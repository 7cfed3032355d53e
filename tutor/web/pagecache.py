"""Rendered HTML kept between requests: what does not change from one learner to another.

A lesson step's page and a quiz question's exercise are the same for every learner who sees them
in the same language and suit colours: the card table, the prompt, the answer widgets, the lesson
text. Rendering them (Jinja, translations, number formatting) was three quarters of a step page's
cost, so they are rendered once and kept here, in a bounded least-recently-used store per app
(``PAGE_CACHE_SIZE`` entries, default :data:`DEFAULT_SIZE`; ``0`` turns the cache off).

What is kept is never learner-specific:

* the key names everything the HTML depends on (the page, the language, the suit colours, and
  for a step page the learner-independent state it shows: done or not, which exercises were
  answered right before);
* forms are rendered with a placeholder instead of the CSRF token (and a quiz question's form
  with a placeholder instead of its action, which holds the quiz's token); the request's own
  values are put in when the HTML is served. A rendering in which the request's real CSRF token
  appears anyway (a template that called the global ``csrf_token`` directly) is served but not kept;
* pages *before* an answer are kept; a page with a form error, a hint or what the learner typed
  is rendered per request. HTML that holds a verdict (and so the engine's answer: an exercise's
  section after an answer, a lesson step's page after one, :func:`tutor.web.views.lessons._section`
  and :func:`tutor.web.views.practice._feedback_section`) is kept under a key that holds the answer
  given, so it is only ever served in reply to that same answer, after the learner has answered.
  A page before an answer never holds the key.

Every key is kept scoped by the script root and the language ``url_for`` puts in links
(:func:`_scoped`), so no request can keep HTML whose links are wrong for the next one. HTML whose
keys learners' input multiplies (a verdict per answer given, a generated question per seed) is
kept in a store of its own (``open``, :data:`STORES`), so that many of those cannot push out the
pages every learner reads.

One learner's own pages (the progress page) are kept apart, in :func:`learner_page_cache`
(``LEARNER_PAGE_CACHE_SIZE`` entries, default :data:`DEFAULT_LEARNER_SIZE`; ``0`` turns it off),
by :func:`cached_for_learner`: the key names the learner and a version of everything the page
shows of them (e.g. the id of their last answer), so an entry is served to that learner only and
stops matching as soon as they answer again; each entry also has a time after which it is not
served (pages that show times relative to now).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from datetime import datetime
from typing import Generic, TypeVar

from flask import current_app, g
from markupsafe import Markup, escape

from .sessions import csrf_token

__all__ = ["DEFAULT_LEARNER_SIZE", "DEFAULT_OPEN_SIZE", "DEFAULT_SIZE", "STORES", "PageCache", "cached",
           "cached_for_learner", "csrf_placeholder", "here", "here_placeholder", "learner_page_cache", "page_cache"]

#: Entries kept per app unless ``PAGE_CACHE_SIZE`` says otherwise: step pages (10-30 KB), exercise
#: sections and headers (2-10 KB); a simulated learners' mix over all games and languages filled
#: 4,096 entries with 38 MB, and 1,024 entries missed two and a half times as often.
DEFAULT_SIZE = 4096
#: Entries of the ``open`` store (verdicts, generated questions) unless ``OPEN_PAGE_CACHE_SIZE`` says otherwise.
DEFAULT_OPEN_SIZE = 2048
#: Learner-specific entries kept per app unless ``LEARNER_PAGE_CACHE_SIZE`` says otherwise (a
#: progress page is 20-40 KB, so about 10 MB at most).
DEFAULT_LEARNER_SIZE = 256

V = TypeVar("V")

#: Stands for the request's CSRF token in kept HTML (random per process, so no page can carry it).
_CSRF = "csrf-" + secrets.token_hex(12)


#: Stands for the page's own address (the settings form's ``next``) in kept HTML: a page kept for
#: several addresses (``?a=`` of different attempts) goes back to the one asked for.
_HERE = "here-" + secrets.token_hex(12)


def here_placeholder() -> str:
    """What :func:`tutor.web.lang.page_next` gives inside a page being kept."""
    return _HERE


def here() -> str:
    """Where the settings form (suit colours) goes back to: this page with its query (``GET`` or
    ``HEAD``), else the home page. ``tutor.js`` adds the place on the page (a fragment such as
    ``#ex-e1``) when the form is sent; the browser never sends a fragment, so none is here."""
    from flask import request, url_for

    if request.method not in ("GET", "HEAD"):
        return url_for("main.home")
    return request.full_path if request.query_string else request.path


def csrf_placeholder() -> str:
    """What templates rendered for the cache get from ``csrf_token()``."""
    return _CSRF


class PageCache(Generic[V]):
    """A thread-safe LRU mapping of keys to values (HTML text), at most ``size`` entries (0: keeps
    nothing). ``hits`` and ``misses`` count lookups."""

    def __init__(self, size: int) -> None:
        self.size = max(0, int(size))
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            html = self._data.get(key)
            if html is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return html

    def put(self, key: Hashable, html: V) -> None:
        if not self.size:
            return
        with self._lock:
            self._data[key] = html
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


#: The stores of :func:`cached`: ``content`` for HTML whose keys the content bounds (pages and
#: questions before an answer, headers), ``open`` for HTML whose keys learners' input multiplies
#: (a verdict on each answer given, a generated question per seed), so that many of those cannot
#: push the content out. Store -> (config key of its size, default size, ``app.extensions`` key).
STORES = {"content": ("PAGE_CACHE_SIZE", DEFAULT_SIZE, "tutor_page_cache"),
          "open": ("OPEN_PAGE_CACHE_SIZE", DEFAULT_OPEN_SIZE, "tutor_open_page_cache")}


def page_cache(store: str = "content") -> PageCache[str]:
    """The current app's cache ``store`` (a key of :data:`STORES`; made at first use with its
    size: ``PAGE_CACHE_SIZE`` or ``OPEN_PAGE_CACHE_SIZE`` entries)."""
    setting, default, name = STORES[store]
    cache = current_app.extensions.get(name)
    if cache is None:
        cache = current_app.extensions.setdefault(name, PageCache[str](current_app.config.get(setting, default)))
    return cache


def _scoped(key: Hashable) -> Hashable:
    """``key`` with what every URL in a page depends on besides its own arguments: the script root
    (the app mounted under a prefix) and the language that ``url_for`` puts in links (``g.lang``,
    unset on a page whose URL had no valid language: an error page in the reader's language
    links to English pages). Without them a request could keep a page whose links are wrong for
    everyone after it."""
    from flask import request

    return (request.script_root, g.get("lang"), key)


def learner_page_cache() -> PageCache[tuple[str, datetime]]:
    """The current app's cache of learner-specific pages, ``(html, served until)`` (made at first
    use with ``LEARNER_PAGE_CACHE_SIZE`` entries)."""
    cache = current_app.extensions.get("tutor_learner_page_cache")
    if cache is None:
        cache = current_app.extensions.setdefault(
            "tutor_learner_page_cache",
            PageCache[tuple[str, datetime]](current_app.config.get("LEARNER_PAGE_CACHE_SIZE", DEFAULT_LEARNER_SIZE)))
    return cache


def cached_for_learner(key: Hashable, render: Callable[[], tuple[str, datetime]], at: datetime) -> Markup:
    """The HTML of a learner's own page, kept under ``key`` (which must name the learner and the
    version of their data the page shows) until the time ``render()`` gave with it (compared with
    ``at``, both naive UTC). ``render()`` returns ``(html rendered with csrf_token=csrf_placeholder,
    served until)``; the request's CSRF token is put in when served."""
    cache = learner_page_cache()
    key = _scoped(key)
    hit = cache.get(key)
    if hit is not None and at < hit[1]:
        return Markup(_fill(hit[0], None))
    depth = g.get("tutor_caching", 0)
    g.tutor_caching = depth + 1
    try:
        html, until = render()
    finally:
        g.tutor_caching = depth
    if _real_token() not in html:
        cache.put(key, (html, until))
    return Markup(_fill(html, None, depth == 0))


def cached(key: Hashable, render: Callable[[], str], fill: Mapping[str, str] | None = None,
           store: str = "content") -> Markup:
    """The HTML of ``render()`` (a template rendered with ``csrf_token=csrf_placeholder`` and the
    placeholders of ``fill`` in place of request values), kept under ``key`` (scoped by
    :func:`_scoped`) in ``store`` (see :data:`STORES`), with the request's CSRF token and the
    values of ``fill`` (placeholder -> text, already HTML-safe) put in."""
    cache = page_cache(store)
    key = _scoped(key)
    html = cache.get(key)
    if html is None:
        depth = g.get("tutor_caching", 0)
        g.tutor_caching = depth + 1  # fragments kept inside this rendering keep the placeholder
        try:
            html = render()
        finally:
            g.tutor_caching = depth
        if _real_token() in html:  # the request's own token got in: do not keep
            return Markup(_fill(html, fill, depth == 0))
        cache.put(key, html)
    return Markup(_fill(html, fill, g.get("tutor_caching", 0) == 0))


def _real_token() -> str:
    token = g.get("tutor_csrf")
    if token is None:
        token = g.tutor_csrf = csrf_token()
    return token


def _fill(html: str, fill: Mapping[str, str] | None, token: bool = True) -> str:
    """``html`` with the values of ``fill`` put in, and (``token``: not inside the rendering of a
    larger kept page) the request's CSRF token."""
    if token and _CSRF in html:
        html = html.replace(_CSRF, _real_token())
    if token and _HERE in html:
        html = html.replace(_HERE, str(escape(here())))
    for placeholder, value in (fill or {}).items():
        html = html.replace(placeholder, value)
    return html
