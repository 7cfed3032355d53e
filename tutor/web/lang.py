"""Language of a request, chosen once: URL prefix ``/<lang>/...``, then (API) ``?lang=``, then the
``lang`` cookie, then Accept-Language.

Every page blueprint is mounted under ``/<lang>``; the prefix is taken off the view arguments
and put in ``g.lang``, and ``url_for`` fills it in again. Pages without a prefix (``/``, the API)
pick the language from the cookie and Accept-Language (the API also reads ``?lang=`` and its
body's ``lang``, see :func:`use`). :func:`locale` is Flask-Babel's locale selector (Flask-Babel
asks it once per request and keeps the answer); the same language is made
:data:`tutor.i18n.CURRENT` for the rest of the request, so every translation of the request —
``flask_babel.gettext``, the templates' ``_()``, :mod:`tutor.i18n` — is in it.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from flask import Flask, abort, g, has_request_context, request
from flask_babel import refresh
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from tutor import i18n

__all__ = ["COOKIE", "LANGUAGES", "i18n", "init_app", "lang_url", "locale", "use"]

LANGUAGES = i18n.LANGUAGES
COOKIE = i18n.LANG_COOKIE
NATIVE_NAMES = i18n.LANGUAGE_NAMES


def _pull_lang(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if values is not None and "lang" in values:
        lang = values.pop("lang")
        if lang not in LANGUAGES:
            abort(404)
        g.lang = lang
        g.url_lang = True


def _add_lang(endpoint: str, values: dict[str, Any]) -> None:
    from flask import current_app

    if "lang" in values or not endpoint:
        return
    takes = current_app.extensions.setdefault("tutor_lang_endpoints", {})  # endpoint -> has a lang prefix
    has_lang = takes.get(endpoint)
    if has_lang is None:
        rule_args = current_app.url_map._rules_by_endpoint.get(endpoint)
        has_lang = takes[endpoint] = bool(rule_args and any("lang" in r.arguments for r in rule_args))
    if has_lang:
        values["lang"] = g.get("lang", "en")


def _choose() -> str:
    """The language of a request whose URL has no (valid) prefix: the API's ``?lang=``, the
    cookie, Accept-Language (:func:`tutor.i18n.select_locale`)."""
    url_lang = (request.view_args or {}).get("lang")
    if url_lang is None and request.path.startswith("/api/"):
        url_lang = request.args.get("lang")
    return i18n.select_locale(url_lang, request.cookies.get(COOKIE), request.environ.get("HTTP_ACCEPT_LANGUAGE", ""))


def _begin() -> None:
    """Before the view: the request's language (the URL prefix's, else :func:`_choose`) becomes
    :data:`tutor.i18n.CURRENT` until the request ends."""
    if "lang" not in g:
        g.lang = _choose()
    g.lang_token = i18n.CURRENT.set(g.lang)


def _end(_exc: BaseException | None) -> None:
    token = g.pop("lang_token", None)
    if token is not None:
        i18n.CURRENT.reset(token)


def locale() -> str:
    """Flask-Babel's locale selector: the request's language (``g.lang``; before the URL was read,
    e.g. for an early error, :func:`_choose`); English outside a request."""
    if not has_request_context():
        return i18n.DEFAULT_LANGUAGE
    return g.lang if "lang" in g else _choose()


def use(lang: str) -> None:
    """Make ``lang`` (a code of :data:`LANGUAGES`) the request's language, for a view that learns
    it from the request's body (the API's ``lang`` field): links and every translation from now
    on follow it."""
    g.lang = lang
    i18n.CURRENT.set(lang)  # _end resets the request's first token, which undoes this one too
    refresh()


def _remember_lang(response: Response) -> Response:
    if g.get("url_lang") and request.cookies.get(COOKIE) != g.lang:
        response.set_cookie(COOKIE, g.lang, max_age=365 * 24 * 3600, samesite="Lax", httponly=True,
                            secure=_secure())
    return response


def _secure() -> bool:
    from flask import current_app

    return bool(current_app.config.get("SESSION_COOKIE_SECURE"))


def lang_url(target: str) -> str:
    """This page in language ``target`` (the home page when this page cannot be linked)."""
    from flask import url_for
    from werkzeug.routing import BuildError

    endpoint = request.endpoint
    # HEAD is a GET without the body (Flask runs the GET view): the same links, so a page kept
    # rendered after a HEAD (a link checker's, a monitor's) is the GET's page
    if request.method in ("GET", "HEAD") and endpoint and request.view_args is not None and g.get("url_lang"):
        try:
            # a played deal lives in its query string (views/play.py): keep it
            query: dict[str, Any] = request.args.to_dict() if endpoint.startswith("play.") else {}
            query = {k: v for k, v in query.items() if k not in request.view_args and k != "lang"}
            return url_for(endpoint, **request.view_args, **query, lang=target)
        except BuildError:
            pass
    return url_for("main.home", lang=target)


#: Stand for the links to this page in each language in the header kept rendered (random per
#: process, so no page can carry them); :func:`site_header` puts the real ones in.
_LANG_HREF = {code: f"lang-{code}-{secrets.token_hex(8)}" for code in LANGUAGES}


def site_header(ruleset: str | None = None) -> Markup:
    """The site's header (``_header.html``): the same on every page of one section (the menu
    entry marked current) in one language, but for the links to this page in the other languages,
    so it is kept rendered (:mod:`tutor.web.pagecache`) per language, section and the game its
    "Rules" link opens (``ruleset``, the page's game if it has one), and those links put in per
    request. Rendering it was the larger part of every page not kept whole."""
    from flask import render_template

    from .pagecache import cached
    from .views.common import RULESET_NAMES

    endpoint = request.endpoint or ""
    rules_ruleset = ruleset if ruleset in RULESET_NAMES else RULESET_NAMES[0]
    key = ("header", i18n.current_lang(), endpoint.split(".", 1)[0], endpoint == "main.home", rules_ruleset)
    return cached(key, lambda: render_template("_header.html", endpoint=endpoint, rules_ruleset=rules_ruleset,
                                               lang_href=_LANG_HREF),
                  {_LANG_HREF[code]: str(escape(lang_url(code))) for code in LANGUAGES})


def static_url(filename: str) -> str:
    """``url_for("static", filename=...)``, worked out once per app and script root (the same for
    every request)."""
    from flask import current_app, url_for

    known = current_app.extensions.setdefault("tutor_static_urls", {})
    key = (filename, request.script_root)
    found = known.get(key)
    if found is None:
        found = known[key] = url_for("static", filename=filename)
    return found


#: The languages' stylesheet (:func:`tutor.i18n.language_css`: each language's font stack, line
#: height and list numbers, from the registry), made once; its URL carries its digest, so browsers
#: keep it until the registry changes.
_LANGUAGES_CSS = i18n.language_css()
_LANGUAGES_CSS_DIGEST = hashlib.sha256(_LANGUAGES_CSS.encode()).hexdigest()[:12]


def languages_css() -> Response:
    """``GET /languages.css``: the languages' stylesheet (text/css), kept a year by browsers."""
    response = Response(_LANGUAGES_CSS, mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 365 * 24 * 3600
    return response


def languages_css_url() -> str:
    """The URL of ``/languages.css`` with the stylesheet's digest (``?v=...``)."""
    from flask import url_for

    return url_for("languages_css", v=_LANGUAGES_CSS_DIGEST)


def page_next() -> str:
    """Where the settings form (suit colours) goes back to (:func:`tutor.web.pagecache.here`); a
    placeholder inside a page being kept rendered, put in when it is served."""
    from .pagecache import here, here_placeholder

    return here_placeholder() if g.get("tutor_caching", 0) else here()


def _template_globals() -> dict[str, Any]:
    lang = i18n.current_lang()
    return {
        "lang": lang,
        "rtl": i18n.is_rtl(lang),
        "LANGUAGES": LANGUAGES,
        "NATIVE_NAMES": NATIVE_NAMES,
        "num": i18n.fmt_number,
        "four_colour": request.cookies.get("suits") == "4",  # views.common.four_colour
        "lang_url": lang_url,
        "site_header": site_header,
        "static_url": static_url,
        "languages_css_url": languages_css_url,
        "page_next": page_next,
    }


def init_app(app: Flask) -> None:
    """Flask-Babel with :func:`locale` as its locale selector (:func:`tutor.i18n.init_app`), the
    URL prefix handlers, the cookie and the template globals (``lang``, ``rtl``, ``num`` ...).

    Raises :class:`~tutor.problems.ContentError` for a language file's problems or a missing
    compiled catalogue (:func:`tutor.i18n.catalogues.install`)."""
    i18n.init_app(app, locale_selector=locale)
    app.url_value_preprocessor(_pull_lang)
    app.url_defaults(_add_lang)
    app.before_request(_begin)
    app.teardown_request(_end)
    app.after_request(_remember_lang)
    app.context_processor(_template_globals)
    app.add_url_rule("/languages.css", "languages_css", languages_css)
