"""Security headers, request bodies, redirects and error pages.

Every response carries a strict Content-Security-Policy (scripts and styles only from this
site's static files: no inline script, no inline style, no CDN). Errors are answered in kind:
a JSON error object (``{"error": {"code", "message"}}``) under ``/api/``, a page with a clear
message elsewhere, with the headers the status calls for (``Allow`` on a 405, ``Retry-After`` on
a 429). A body larger than ``MAX_CONTENT_LENGTH`` (``TEACH_MAX_CONTENT_LENGTH`` on a logged-in
teacher's pages, ``/<lang>/teach/``), sent with a length or chunked, is a 400 ``too-large``, like
any bad input, and is never processed. Redirects are relative (``Location``
never repeats the ``Host`` header), and a host outside ``TRUSTED_HOSTS`` gets a plain 400.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

__all__ = ["CSP", "BadInput", "BodyLimit", "error_response", "http_error", "init_app"]

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")


def clean_text(text: str) -> str:
    """``text`` with anything that is not Unicode text (lone surrogates) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8") if isinstance(text, str) else str(text)


class BadInput(Exception):
    """Input a learner or client got wrong: answered with 400 and ``message``."""

    def __init__(self, message: str, code: str = "bad-field"):
        super().__init__(message)
        self.message = message
        self.code = code


#: The headers of every response, set in one go (:func:`_headers`).
_EVERY_RESPONSE = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)
_EVERY_NAME = frozenset(name.lower() for name, _ in _EVERY_RESPONSE)
#: The same, checked once by werkzeug (no new line in a value): appended as they are, since
#: ``Headers.extend`` checks every value again on every response (some 130 calls a response).
_EVERY_CHECKED = tuple(Headers(_EVERY_RESPONSE).items())


def _headers(response: Response) -> Response:
    h = response.headers
    names = {name.lower() for name, _ in h.items()}  # looked at once: a missed look-up raises inside werkzeug
    if names & _EVERY_NAME:  # a view set one of them: replaced, as before
        for name, value in _EVERY_RESPONSE:
            h[name] = value
    elif isinstance(getattr(h, "_list", None), list):
        h._list.extend(_EVERY_CHECKED)
    else:  # a werkzeug whose Headers keep their items otherwise
        h.extend(_EVERY_CHECKED)
    req = request._get_current_object()  # type: ignore[attr-defined]
    if req.is_secure:
        h["Strict-Transport-Security"] = "max-age=31536000"
    if "cache-control" not in names and (_is_html(h.get("Content-Type", "")) or req.path.startswith("/api/")):
        h["Cache-Control"] = "no-store"
    # Flask-Limiter puts Retry-After (whole seconds to the window's reset, 0 in its last second) on
    # every response of a limited view: it belongs to a 429 only, and there says wait at least 1 s
    if "retry-after" in names:
        retry = h.get("Retry-After", "")
        if response.status_code != 429:
            del h["Retry-After"]
        elif retry.isdigit() and int(retry) < 1:
            h["Retry-After"] = "1"
        wait_page = getattr(response, "wait_page", None)
        if response.status_code == 429 and wait_page is not None and h["Retry-After"].isdigit():
            response.set_data(wait_page(int(h["Retry-After"])))
    if "location" in names:
        _relative_location(response)
    return response


def _is_html(content_type: str) -> bool:
    """Whether a ``Content-Type`` value is ``text/html`` (``Response.mimetype``, without parsing
    its parameters)."""
    return content_type.split(";", 1)[0].strip().lower() == "text/html"


def _relative_location(response: Response) -> Response:
    """A redirect to this very host becomes a relative one: the reply never repeats ``Host``."""
    location = response.headers.get("Location")
    if location and "//" in location:
        parts = urlsplit(location)
        if parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower():
            path = parts.path if parts.path.startswith("/") and not parts.path.startswith("//") else "/"
            response.headers["Location"] = urlunsplit(("", "", path, parts.query, parts.fragment))
    return response


class BodyLimit:
    """WSGI middleware: a body sent without ``Content-Length`` (chunked) is read here, at most
    ``limit() + 1`` bytes, and handed on with its length set; one longer than the limit is handed
    on cut to ``limit() + 1`` bytes with that length, so the app refuses it as too large instead of
    reading a silently truncated body. Bodies with a length pass untouched."""

    def __init__(self, app: Callable, limit: Callable[[str], int]):
        self.app = app
        self.limit = limit  # of a path

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if not environ.get("CONTENT_LENGTH") and environ.get("wsgi.input_terminated"):
            most = self.limit(environ.get("PATH_INFO", "")) + 1
            stream, chunks, size = environ["wsgi.input"], [], 0
            while size < most:
                chunk = stream.read(min(64 * 1024, most - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            environ["wsgi.input"] = io.BytesIO(b"".join(chunks))
            environ["CONTENT_LENGTH"] = str(size)
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # the body is de-chunked now, its length known
        return self.app(environ, start_response)


_TEACH = re.compile(r"/[a-z]{2}/teach/")


def _limit_of_path(config: Any, path: str) -> int:
    """The largest body a request to ``path`` may have (bytes), whoever sends it."""
    return config["TEACH_MAX_CONTENT_LENGTH"] if _TEACH.match(path) else config["MAX_CONTENT_LENGTH"]


def _body_limit() -> int:
    """The largest body this request may have (bytes): a teacher's pages take a teacher's files
    and lessons, once the teacher is logged in; every other request ``MAX_CONTENT_LENGTH``."""
    from flask_login import current_user

    if getattr(current_user, "is_authenticated", False):
        return _limit_of_path(current_app.config, request.path)
    return current_app.config["MAX_CONTENT_LENGTH"]


def _refuse_large_body() -> None:
    """Refuse an over-long body before any view or hook reads it (a view may not read it at all).
    A request without a body (no length, or 0: :class:`BodyLimit` gives a chunked one its length)
    has nothing to refuse or limit."""
    if not request.content_length:
        return
    limit = _body_limit()
    if (request.content_length or 0) > limit:
        raise RequestEntityTooLarge()
    request.max_content_length = request.max_form_memory_size = limit


def _refuse_nul() -> None:
    """Refuse a NUL character anywhere in the path, query or form (400): no one types one, and
    PostgreSQL cannot store one in a text column, so it must never reach a query."""
    if "\x00" in request.path or any("\x00" in k or "\x00" in v for d in _sent_values()
                                      for k, v in d.items(multi=True)):
        raise BadInput(_("The request contains a character that is not allowed (NUL)."), "bad-request")


def _same_site_referrer() -> str | None:
    """The page the request came from, as a path, when it is one of this site's (else None): where
    a 429 page sends the learner back to."""
    ref = request.referrer
    if not ref:
        return None
    parts = urlsplit(ref)
    if parts.netloc != request.host or parts.scheme not in ("http", "https") or not parts.path.startswith("/") \
            or parts.path.startswith("//"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _sent_values() -> list[Any]:
    """The query's values and, for a request with a body, the form's (none to parse otherwise)."""
    sent = [request.args] if request.query_string else []
    if request.content_length:
        sent.append(request.form)
    return sent


def _is_api() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, code: str, message: str, headers: Any = ()) -> Response:
    """The error answer: JSON under ``/api/``, else the error page (in the learner's language)."""
    message = clean_text(message)
    if _is_api():
        resp = jsonify({"error": {"code": code, "message": message}})
    else:
        back = _same_site_referrer() if status == 429 else None
        resp = current_app.make_response(render_template("error.html", status=status, message=message, back=back))
        if status == 429:  # drawn again with the wait once Flask-Limiter has set Retry-After (_headers)
            resp.wait_page = lambda wait: render_template(  # type: ignore[attr-defined]
                "error.html", status=status, message=message, back=back, wait=wait)
    resp.status_code = status
    for name, value in headers:
        if name.lower() != "content-type":
            resp.headers[name] = value
    return resp


_CODES = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 429: "too-many-requests"}
#: The message of each HTTP error status (translated when an error is answered).
_MESSAGES = {
    400: lazy_gettext("The request could not be understood."),
    404: lazy_gettext("There is no such page."),
    405: lazy_gettext("This address does not accept that kind of request."),
    429: lazy_gettext("Too many requests in a short time. Wait a little, then try again."),
}


def http_error(e: HTTPException) -> Response:
    """The app's answer to an HTTP error ``e``: its message in the learner's language, as JSON under
    ``/api/`` or as the error page, with the headers its status calls for."""
    if isinstance(e, SecurityError):  # a Host outside TRUSTED_HOSTS: no URL can be built for it
        return Response("Bad request: unknown host.\n", 400, mimetype="text/plain")
    if isinstance(e, RequestEntityTooLarge):
        limit = _body_limit()
        return error_response(400, "too-large", _("The request body is too large (the limit is %(n)s bytes).",
                                                  n=limit))
    if isinstance(e, CSRFError):
        return error_response(400, "bad-csrf", _("The form has expired or was not sent from this site. "
                                                 "Reload the page and try again."))
    status = e.code or 500
    message = str(_MESSAGES[status]) if status in _MESSAGES else e.description or ""
    return error_response(status, _CODES.get(status, "error"), message, e.get_headers())


def _bad_input(e: BadInput) -> Response:
    return error_response(400, e.code, e.message)


def _unexpected(e: Exception) -> Response:
    from .reqlog import request_id

    current_app.logger.exception("unexpected error (request %s)", request_id())
    return error_response(500, "internal", _("Something went wrong on our side."))


def init_app(app: Flask) -> None:
    app.wsgi_app = BodyLimit(app.wsgi_app, lambda path: _limit_of_path(app.config, path))  # type: ignore[method-assign]
    if app.config.get("PROXIES"):
        n = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]
    app.before_request(_refuse_large_body)
    app.before_request(_refuse_nul)
    app.after_request(_headers)  # with _relative_location
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(BadInput, _bad_input)
    app.register_error_handler(Exception, _unexpected)
