"""Security headers and error pages.

Every response carries a strict Content-Security-Policy (scripts and styles only from this
site's static files: no inline script, no inline style, no CDN). Errors are answered in kind:
a JSON error object (``{"error": {"code", "message"}}``) under ``/api/``, a page with a clear
message elsewhere. A body larger than ``MAX_CONTENT_LENGTH`` is a 400, like any bad input.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

__all__ = ["CSP", "BadInput", "init_app"]

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


def _headers(response):
    h = response.headers
    h["Content-Security-Policy"] = CSP
    h["X-Content-Type-Options"] = "nosniff"
    h["X-Frame-Options"] = "DENY"
    h["Referrer-Policy"] = "same-origin"
    h["Cross-Origin-Opener-Policy"] = "same-origin"
    h["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
    if request.is_secure:
        h["Strict-Transport-Security"] = "max-age=31536000"
    if request.path.startswith("/api/") or response.mimetype == "text/html":
        h.setdefault("Cache-Control", "no-store")
    return response


def _is_api() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, code: str, message: str):
    message = clean_text(message)
    if _is_api():
        resp = jsonify({"error": {"code": code, "message": message}})
        resp.status_code = status
        return resp
    return render_template("error.html", status=status, message=message), status


_CODES = {400: "bad-request", 404: "not-found", 405: "method-not-allowed"}


def _http_error(e: HTTPException):
    if isinstance(e, RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return error_response(400, "too-large", _("The request body is too large (the limit is %(n)s bytes).",
                                                  n=limit))
    if isinstance(e, CSRFError):
        return error_response(400, "bad-csrf", _("The form has expired or was not sent from this site. "
                                                 "Reload the page and try again."))
    status = e.code or 500
    messages = {
        400: _("The request could not be understood."),
        404: _("There is no such page."),
        405: _("This address does not accept that kind of request."),
    }
    return error_response(status, _CODES.get(status, "error"), messages.get(status, e.description or ""))


def _bad_input(e: BadInput):
    return error_response(400, e.code, e.message)


def _unexpected(e: Exception):
    current_app.logger.exception("unexpected error")
    return error_response(500, "internal", _("Something went wrong on our side."))


def init_app(app: Flask) -> None:
    app.after_request(_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(BadInput, _bad_input)
    app.register_error_handler(Exception, _unexpected)
