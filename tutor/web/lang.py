"""Language of a request: URL prefix ``/<lang>/...``, then the ``lang`` cookie, then Accept-Language.

Every page blueprint is mounted under ``/<lang>``; the prefix is taken off the view arguments
and put in ``g.lang``, and ``url_for`` fills it in again. Pages without a prefix (``/``, the API)
pick the language from the cookie and Accept-Language (the API also reads ``?lang=``).
"""

from __future__ import annotations

from flask import Flask, abort, g, request

from tutor import i18n

__all__ = ["COOKIE", "LANGUAGES", "i18n", "init_app"]

LANGUAGES = i18n.LANGUAGES
COOKIE = "lang"
NATIVE_NAMES = i18n.LANGUAGE_NAMES


def _pull_lang(endpoint, values) -> None:
    if values is not None and "lang" in values:
        lang = values.pop("lang")
        if lang not in LANGUAGES:
            abort(404)
        g.lang = lang
        g.url_lang = True


def _add_lang(endpoint, values) -> None:
    from flask import current_app

    if "lang" in values or not endpoint:
        return
    rule_args = current_app.url_map._rules_by_endpoint.get(endpoint)
    if rule_args and any("lang" in r.arguments for r in rule_args):
        values["lang"] = g.get("lang", "en")


def _default_lang() -> None:
    if "lang" not in g:
        url_lang = request.args.get("lang") if request.path.startswith("/api/") else None
        g.lang = i18n.select_locale(url_lang, request.cookies.get(COOKIE),
                                    request.headers.get("Accept-Language", ""))


def _remember_lang(response):
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
    if request.method == "GET" and endpoint and request.view_args is not None and g.get("url_lang"):
        try:
            return url_for(endpoint, **request.view_args, lang=target)
        except BuildError:
            pass
    return url_for("main.home", lang=target)


def _template_globals() -> dict:
    lang = g.get("lang", "en")
    return {
        "lang": lang,
        "rtl": i18n.is_rtl(lang),
        "LANGUAGES": LANGUAGES,
        "NATIVE_NAMES": NATIVE_NAMES,
        "num": lambda n, group=True: i18n.fmt_number(n, lang, group),
        "four_colour": request.cookies.get("suits") == "4",
        "lang_url": lang_url,
    }


def init_app(app: Flask) -> None:
    i18n.init_app(app)
    app.url_value_preprocessor(_pull_lang)
    app.url_defaults(_add_lang)
    app.before_request(_default_lang)
    app.after_request(_remember_lang)
    app.context_processor(_template_globals)
