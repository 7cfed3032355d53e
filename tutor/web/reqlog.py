"""Request ids and structured request logs.

Every request gets an id: the client's ``X-Request-Id`` when it is short and safe (1-64 of
``A-Z a-z 0-9 . _ : -``, e.g. one set by the reverse proxy), otherwise a new random one (32 hex
digits). The response carries it back as ``X-Request-Id``, and every finished request is logged
as one JSON line on the ``tutor.request`` logger (level INFO)::

    {"event": "request", "id": "5f0c…", "method": "POST", "path": "/en/quiz/…/1", "status": 302,
     "ms": 12.4, "addr": "127.0.0.1", "bytes": 0}

Times are milliseconds of wall-clock time in the app; ``addr`` is the client address (as the
reverse proxies named by ``TUTOR_PROXIES`` report it). The query string and cookies are never
logged. Without a handler configured by the host program (gunicorn's ``--log-config``, say) the
logger writes to standard error.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from typing import TextIO

from flask import Flask, Response, g, request

__all__ = ["HEADER", "LOGGER", "init_app", "request_id"]

HEADER = "X-Request-Id"
LOGGER = logging.getLogger("tutor.request")
_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def request_id() -> str:
    """This request's id (made on first use)."""
    rid = g.get("request_id")
    if rid is None:
        given = request.environ.get("HTTP_X_REQUEST_ID", "")  # the header HEADER
        rid = given if _SAFE_ID.fullmatch(given) else secrets.token_hex(16)
        g.request_id = rid
    return rid


def _start() -> None:
    g.request_start = time.perf_counter()
    request_id()


#: The log line's encoder, made once (``json.dumps`` with an option makes a new one per call).
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _finish(response: Response) -> Response:
    rid = request_id()
    response.headers[HEADER] = rid
    if LOGGER.isEnabledFor(logging.INFO):
        start = g.get("request_start")
        LOGGER.info(_ENCODE({
            "event": "request",
            "id": rid,
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "ms": round((time.perf_counter() - start) * 1000, 1) if start is not None else None,
            "addr": request.remote_addr,
            "bytes": response.calculate_content_length(),
        }))
    return response


class _Stderr(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of each record."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


def _configure_logger() -> None:
    """INFO and up; to standard error unless the logger or the root logger has a handler already."""
    if LOGGER.level == logging.NOTSET:
        LOGGER.setLevel(logging.INFO)
    if not LOGGER.handlers and not logging.getLogger().handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.propagate = False


def init_app(app: Flask) -> None:
    """Give every request an id and log it when it is answered (see the module docstring)."""
    _configure_logger()
    app.before_request(_start)
    app.after_request(_finish)
