"""The web app: lessons, practice quizzes, progress and the JSON API.

``create_app(config)`` builds a Flask app. Configuration comes from the environment and then from
``config`` (a dict, e.g. for tests); the README's production section lists every variable:

* ``TUTOR_ENV``: ``production`` (the default of ``create_app()``, so of gunicorn) or
  ``development`` (the default of ``tutor serve``; also implied by ``TESTING`` in ``config``).
* ``TUTOR_SECRET_KEY``: required in production, at least :data:`MIN_SECRET_BYTES` bytes. In
  development without it a random key is made once and kept in the instance folder (mode 0600,
  written atomically, so workers starting together all read the same complete key).
* ``TUTOR_DATABASE_URL`` (default SQLite ``tutor.sqlite3`` in the instance folder, mode 0600),
  ``TUTOR_INSTANCE_PATH`` (an absolute path; made with mode 0700), ``TUTOR_COOKIE_SECURE`` (default on),
  ``TUTOR_TRUSTED_HOSTS`` (comma-separated host names; others get 400), ``TUTOR_PROXIES`` (number
  of reverse proxies in front whose ``X-Forwarded-For/-Proto/-Host`` are trusted, default 0),
  ``TUTOR_REDIS_URL`` and ``TUTOR_LIMIT_*`` (rate limits, :mod:`tutor.web.limits`).

The app never creates or alters a table: it checks at start-up that the database is at the
migrations' head (:mod:`tutor.migrations`; ``tutor db upgrade`` applies them, ``tutor serve`` does
so before it starts). A configuration that cannot work raises :class:`ConfigError` (a clear
one-line message) before the app serves anything. Nothing is fetched from the network at run time: all CSS and JS are static
files of this package.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from werkzeug.routing import IntegerConverter, Map

from tutor.content.store import ContentStore
from tutor.migrations import private_sqlite_file

__all__ = ["MAX_BODY", "MAX_TEACH_BODY", "MIN_SECRET_BYTES", "ConfigError", "configure", "create_app", "csrf", "secret_key"]

csrf = CSRFProtect()

#: Largest request body accepted (bytes); larger bodies, chunked ones too, are answered with 400.
MAX_BODY = 64 * 1024
#: Largest request body of a logged-in teacher's pages (bytes): a pasted quiz file may hold 200,000
#: characters and a lesson 30,000, up to 4 bytes each in UTF-8 (Telugu takes 3).
MAX_TEACH_BODY = 1024 * 1024
#: Shortest secret key accepted in production (bytes of its UTF-8 text).
MIN_SECRET_BYTES = 32
ENVIRONMENTS = ("production", "development")


class ConfigError(RuntimeError):
    """The configuration (environment variables or ``config``) cannot work; the message says why."""


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def _env_list(name: str) -> list[str] | None:
    value = os.environ.get(name, "")
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def _env_count(name: str, default: int = 0) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or int(value) > 10:
        raise ConfigError(f"{name} must be a whole number from 0 to 10, not {value[:20]!r}.")
    return int(value)


def _environment(config: dict) -> str:
    env = config.pop("TUTOR_ENV", None) or os.environ.get("TUTOR_ENV", "").strip() or \
        ("development" if config.get("TESTING") else "production")
    if env not in ENVIRONMENTS:
        raise ConfigError(f"TUTOR_ENV must be one of {', '.join(ENVIRONMENTS)}, not {env[:20]!r}.")
    return env


def _secret_key_file(instance: Path) -> str:
    """The key kept in ``instance/secret_key``, made now if missing.

    The key is written to a private temporary file first and then hard-linked into place, which
    fails if another process got there first: the file is never seen half-written, and every
    process starting together ends up with the one key that won.
    """
    path = instance / "secret_key"
    while True:
        try:
            key = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            pass
        else:
            if len(key) < MIN_SECRET_BYTES:
                raise ConfigError(f"{path} holds no usable key (fewer than {MIN_SECRET_BYTES} characters): "
                                  "delete it and a new one is made at the next start.")
            return key
        key = secrets.token_hex(32)
        tmp = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(key)
                f.flush()
                os.fsync(f.fileno())
            try:
                os.link(tmp, path)
                return key
            except FileExistsError:
                continue  # another process won the race: read its key
        finally:
            tmp.unlink(missing_ok=True)


def secret_key(app: Flask) -> str:
    """The app's secret key (see the module docstring: required in production, made once in
    development). Raises :class:`ConfigError`."""
    return _secret_key(app, app.config["TUTOR_ENV"])


def _secret_key(app: Flask, env: str) -> str:
    key = app.config.get("SECRET_KEY") or os.environ.get("TUTOR_SECRET_KEY", "")
    if env == "development":
        return key or _secret_key_file(Path(app.instance_path))
    if not key:
        raise ConfigError("TUTOR_SECRET_KEY is not set: in production give a random key of at least "
                          f"{MIN_SECRET_BYTES} bytes, e.g. python3 -c 'import secrets; print(secrets.token_hex(32))' "
                          "(or set TUTOR_ENV=development to keep a generated one in the instance folder).")
    if len(key.encode("utf-8")) < MIN_SECRET_BYTES:
        raise ConfigError(f"TUTOR_SECRET_KEY is too short: production needs at least {MIN_SECRET_BYTES} bytes.")
    return key


class TutorFlask(Flask):
    """Flask, with the check of each hook and view for a coroutine made once per function: Flask
    asks ``inspect`` again for every hook of every request (some twenty a request here). At most
    :attr:`SYNC_KEPT` functions are kept (the app's hooks and views; a function made per request,
    as ``after_this_request`` takes, is checked each time once that many are kept)."""

    SYNC_KEPT = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            found = self._sync.get(func)
        except TypeError:  # an unhashable callable: asked each time, as Flask does
            return super().ensure_sync(func)
        if found is None:
            found = super().ensure_sync(func)
            if len(self._sync) < self.SYNC_KEPT:
                self._sync[func] = found
        return found


def configure(config: dict | None = None) -> Flask:
    """A bare app with its configuration and instance folder, nothing else (no secret key made,
    no content loaded): what :func:`create_app` starts from, and how ``tutor db`` finds the
    database URL. ``config`` (a dict) overrides the environment. Raises :class:`ConfigError`."""
    config = dict(config or {})
    env = _environment(config)
    instance = os.environ.get("TUTOR_INSTANCE_PATH") or config.pop("INSTANCE_PATH", None)
    if instance and not os.path.isabs(instance):
        raise ConfigError(f"TUTOR_INSTANCE_PATH must be an absolute path, not {instance[:80]!r}.")
    app = TutorFlask(__name__, instance_path=instance, instance_relative_config=True)
    try:
        Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot make the instance folder {app.instance_path[:80]!r} "
                          f"(TUTOR_INSTANCE_PATH): {e.strerror}.") from None
    db_default = "sqlite:///" + str(Path(app.instance_path) / "tutor.sqlite3")
    secure = _env_flag("TUTOR_COOKIE_SECURE", True)
    app.config.update(
        TUTOR_ENV=env,
        DATABASE_URL=os.environ.get("TUTOR_DATABASE_URL") or db_default,
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        TEACH_MAX_CONTENT_LENGTH=MAX_TEACH_BODY,
        SESSION_COOKIE_NAME="tutor",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=secure,
        PREFERRED_URL_SCHEME="https" if secure else "http",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        TRUSTED_HOSTS=_env_list("TUTOR_TRUSTED_HOSTS"),
        PROXIES=_env_count("TUTOR_PROXIES"),
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    return app


class RowNumberConverter(IntegerConverter):
    """The ``<int:...>`` of every route: a number above the largest row key (``db.MAX_ID``) is no
    page (404), so it never reaches a query, where PostgreSQL and SQLite would fail on it."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        from tutor.domain.db import MAX_ID

        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def create_app(config: dict | None = None, *, content: ContentStore | None = None) -> Flask:
    """Build the app. ``config`` (a dict) overrides the environment, e.g. for tests.

    Every lesson and quiz is loaded and validated here, once, and kept in
    ``app.extensions["tutor_content"]`` (``content``: an already loaded
    :class:`~tutor.content.store.ContentStore` to use instead, e.g. one shared by many test apps).
    Raises :class:`ConfigError` for a configuration that cannot work (see the module docstring),
    :class:`~tutor.problems.ContentError` (``file:line: message`` per problem) if a
    content file is broken, and :class:`~tutor.migrations.SchemaNotCurrent` if the database is not
    at the migrations' head (run ``tutor db upgrade`` first).
    """
    app = configure(config)
    app.url_map.converters["int"] = RowNumberConverter  # before any route is added
    app.config["SECRET_KEY"] = secret_key(app)
    private_sqlite_file(app.config["DATABASE_URL"])

    from . import accounts, db, lang, limits, reqlog, security, sessions
    from .views import (
        api,
        ask,
        class_api,
        classes,
        device,
        lessons,
        live,
        main,
        play,
        practice,
        progress,
        rules,
        teach,
        worksheet,
    )

    sessions.init_app(app)
    db.init_app(app)
    app.extensions["tutor_content"] = content or ContentStore.load()
    reqlog.init_app(app)
    lang.init_app(app)
    security.init_app(app)  # first: its body limit is set before any hook (CSRF's) reads a form
    csrf.init_app(app)
    app.register_blueprint(main.bp)
    app.register_blueprint(lessons.bp)
    app.register_blueprint(practice.bp)
    app.register_blueprint(progress.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(worksheet.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(ask.bp)
    app.register_blueprint(device.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(teach.bp)
    app.register_blueprint(classes.bp)
    app.register_blueprint(live.bp)
    live.init_app(app)
    accounts.init_app(app)
    csrf.exempt(api.bp)
    app.register_blueprint(class_api.bp)  # a class member's quiz in JSON (JSON bodies only)
    csrf.exempt(class_api.bp)
    limits.init_app(app)  # after the blueprints: it wraps the views marked with limits.limited
    return app
