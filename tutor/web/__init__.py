"""The web app: lessons, practice quizzes, progress and the JSON API.

``create_app(config)`` builds a Flask app. Configuration comes from the environment
(``TUTOR_SECRET_KEY``, ``TUTOR_DATABASE_URL``, ``TUTOR_COOKIE_SECURE``) and then from ``config``.
Without ``TUTOR_SECRET_KEY`` a random key is generated once and kept in the instance folder; the
default database is SQLite in the instance folder. The app never creates or alters a table: it
checks at start-up that the database is at the migrations' head (:mod:`tutor.migrations`;
``tutor db upgrade`` applies them, ``tutor serve`` does so before it starts). Nothing is fetched
from the network at run time: all CSS and JS are static files of this package.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from tutor.content.store import ContentStore

__all__ = ["configure", "create_app", "csrf"]

csrf = CSRFProtect()

#: Largest request body accepted (bytes); larger bodies are answered with 400.
MAX_BODY = 64 * 1024


def _secret_key(instance: Path) -> str:
    key = os.environ.get("TUTOR_SECRET_KEY")
    if key:
        return key
    path = instance / "secret_key"
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key)
    return key


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def configure(config: dict | None = None) -> Flask:
    """A bare app with its configuration and instance folder, nothing else (no secret key made,
    no database opened, no content loaded): what :func:`create_app` starts from, and how
    ``tutor db`` finds the database URL. ``config`` (a dict) overrides the environment."""
    config = dict(config or {})
    instance = os.environ.get("TUTOR_INSTANCE_PATH") or config.pop("INSTANCE_PATH", None)
    app = Flask(__name__, instance_path=instance, instance_relative_config=True)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    db_default = "sqlite:///" + str(Path(app.instance_path) / "tutor.sqlite3")
    secure = _env_flag("TUTOR_COOKIE_SECURE", True)
    app.config.update(
        DATABASE_URL=os.environ.get("TUTOR_DATABASE_URL") or db_default,
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        SESSION_COOKIE_NAME="tutor",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=secure,
        PREFERRED_URL_SCHEME="https" if secure else "http",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    return app


def create_app(config: dict | None = None, *, content: ContentStore | None = None) -> Flask:
    """Build the app. ``config`` (a dict) overrides the environment, e.g. for tests.

    Every lesson and quiz is loaded and validated here, once, and kept in
    ``app.extensions["tutor_content"]`` (``content``: an already loaded
    :class:`~tutor.content.store.ContentStore` to use instead, e.g. one shared by many test apps).
    Raises :class:`~tutor.content.problems.ContentError` (``file:line: message`` per problem) if a
    content file is broken, and :class:`~tutor.migrations.SchemaNotCurrent` if the database is not
    at the migrations' head (run ``tutor db upgrade`` first).
    """
    app = configure(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    from . import db, lang, security
    from .views import api, lessons, main, practice, progress

    db.init_app(app)
    app.extensions["tutor_content"] = content or ContentStore.load()
    lang.init_app(app)
    csrf.init_app(app)
    security.init_app(app)
    app.register_blueprint(main.bp)
    app.register_blueprint(lessons.bp)
    app.register_blueprint(practice.bp)
    app.register_blueprint(progress.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    return app
