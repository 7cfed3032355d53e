"""The signed session cookie, refreshed only when it changes or once a day (issue 21).

Flask's cookie session (:class:`flask.sessions.SecureCookieSessionInterface`) signs and sets the
cookie again on every response of a permanent session (``SESSION_REFRESH_EACH_REQUEST``), which
cost a compression, a signature and a ``Set-Cookie`` on every request. Here the cookie is set
when the session changed, and otherwise only once it was signed :data:`REFRESH_AFTER` seconds ago
or more (a day), so a learner who comes back within the year of ``PERMANENT_SESSION_LIFETIME``
keeps the session as before, with its expiry at most a day short of a year.

Reading is the same check as Flask's (the signature with the secret key or one of
``SECRET_KEY_FALLBACKS``, the age against ``PERMANENT_SESSION_LIFETIME``); a cookie verified
before is not verified again: its data are kept, per app, for the next requests that send the
same cookie (:data:`KNOWN_COOKIES` of them, only cookies whose values are plain strings,
numbers, booleans or null, so that no request can change what another reads), and its age
checked again each time.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request, current_app, g, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

__all__ = ["KNOWN_COOKIES", "REFRESH_AFTER", "DailySession", "DailySessionInterface", "csrf_token", "init_app"]

#: Seconds after which an unchanged permanent session's cookie is signed and set again.
REFRESH_AFTER = 24 * 3600
#: Verified cookies kept per app (their data and signing time).
KNOWN_COOKIES = 4096
_PLAIN = (str, int, float, bool, type(None))


class DailySession(SecureCookieSession):
    """Flask's cookie session, knowing when its cookie was signed (``signed_at``, a Unix time;
    ``None`` for a new session)."""

    signed_at: int | None = None


class DailySessionInterface(SecureCookieSessionInterface):
    """See the module docstring."""

    session_class = DailySession

    def __init__(self) -> None:
        self._serializers: dict[tuple[Any, ...], URLSafeTimedSerializer] = {}
        self._known: OrderedDict[str, tuple[dict[str, Any], int]] = OrderedDict()

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once per secret key and fallbacks."""
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        found = self._serializers.get(key)
        if found is None:
            found = super().get_signing_serializer(app)
            if found is not None:
                self._serializers = {key: found}  # a new key: forget the old ones' serializers and cookies
                self._known.clear()
        return found

    def open_session(self, app: Flask, request: Request) -> DailySession | None:
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        val = request.cookies.get(self.get_cookie_name(app))
        if not val:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        known = self._known.get(val)
        if known is not None:
            data, signed = known
            if time.time() - signed <= max_age:
                session = self.session_class(data)
                session.signed_at = signed
                return session
            self._known.pop(val, None)
        try:
            data, stamp = s.loads(val, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        signed = int(stamp.timestamp())
        if isinstance(data, dict) and all(type(v) in _PLAIN for v in data.values()):
            self._known[val] = (dict(data), signed)
            if len(self._known) > KNOWN_COOKIES:
                self._known.popitem(last=False)
        session = self.session_class(data)
        session.signed_at = signed
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Set the cookie when the session changed, or when a permanent session's cookie was signed
        a day ago or more (``SESSION_REFRESH_EACH_REQUEST`` on, as by default)."""
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "signed_at", None)
        return signed is None or time.time() - signed >= REFRESH_AFTER


def init_app(app: Flask) -> None:
    """Use :class:`DailySessionInterface` for ``app``'s sessions."""
    app.session_interface = DailySessionInterface()


#: Signed CSRF tokens by raw token (the value Flask-WTF keeps in the session), per secret key.
_SIGNED: OrderedDict[tuple[Any, str], str] = OrderedDict()


def csrf_token() -> str:
    """The request's CSRF token, as :func:`flask_wtf.csrf.generate_csrf` gives it, signed once per
    raw token of a session and process: with ``WTF_CSRF_TIME_LIMIT`` off (the app's setting) a
    token signed earlier for the same session passes the same check, so a learner's pages give the
    one token they gave before instead of signing it again (an HMAC each page). Any other setting
    of Flask-WTF's (a time limit, its own key or field name) signs per request, as Flask-WTF does."""
    from flask_wtf.csrf import generate_csrf

    found = g.get("csrf_token")
    if found is not None:
        return str(found)
    config = current_app.config
    if (config.get("WTF_CSRF_TIME_LIMIT") is not None or config.get("WTF_CSRF_SECRET_KEY")
            or config.get("WTF_CSRF_FIELD_NAME", "csrf_token") != "csrf_token"):
        return str(generate_csrf())
    raw = session.get("csrf_token")
    if isinstance(raw, str):
        token = _SIGNED.get((current_app.secret_key, raw))
        if token is not None:
            g.csrf_token = token  # where Flask-WTF keeps the request's token (its forms read it there)
            return token
    token = str(generate_csrf())  # makes the session's raw token if it has none
    raw = session.get("csrf_token")
    if isinstance(raw, str):
        _SIGNED[(current_app.secret_key, raw)] = token
        if len(_SIGNED) > KNOWN_COOKIES:
            _SIGNED.popitem(last=False)
    return token
