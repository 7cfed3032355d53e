"""Teacher accounts: password hashes (argon2, argon2-cffi), making a teacher, and log-in
(Flask-Login).

A teacher is made on the command line (``tutor teacher add NAME``: a password typed twice, or
``--generate`` to print a random one) or, when ``TUTOR_TEACHER_SIGNUP`` (config
``TEACHER_SIGNUP``) is on, by self sign-up; it is off by default. Every teacher page is behind
:func:`flask_login.login_required`: a visitor who is not logged in is sent to the log-in page
(with ``next``). Log-in attempts draw on the ``login`` rate limit (:mod:`tutor.web.limits`, per
address). A log-in name that does not exist costs the same hashing time as a wrong password, so
the answer's timing does not tell which names exist.
"""

from __future__ import annotations

import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from flask import Flask
from flask_login import LoginManager
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.domain.db import id_from_request
from tutor.domain.models import Teacher

from .db import get_session

__all__ = ["MIN_PASSWORD", "NAME_RE", "AccountError", "add_teacher", "check_password", "generate_password",
           "hash_password", "init_app", "login_manager"]

#: Shortest password accepted (characters).
MIN_PASSWORD = 10
#: A log-in name: 2 to 40 letters, digits, ``.``, ``_`` or ``-`` (any script's letters).
NAME_RE = re.compile(r"[\w.\-]{2,40}")

_hasher = PasswordHasher()
_DUMMY = _hasher.hash("not a password of anyone")

login_manager = LoginManager()
login_manager.login_view = "teach.login"
login_manager.login_message = None  # type: ignore[assignment]  # the log-in page says why on its own
login_manager.session_protection = "basic"


class AccountError(ValueError):
    """A name or password that cannot be used (the message says why)."""


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (a ``$argon2id$...`` string)."""
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash; with ``stored`` None (no such teacher) a
    dummy hash is checked so that the time taken is the same, and False is returned."""
    try:
        ok = _hasher.verify(stored or _DUMMY, password)
    except (VerificationError, InvalidHashError):
        return False
    return ok and stored is not None


def generate_password() -> str:
    """A random password of 16 URL-safe characters (96 bits)."""
    return secrets.token_urlsafe(12)


def check_new(name: str, password: str) -> None:
    """Raise :class:`AccountError` for a name or a password that cannot be used."""
    if not NAME_RE.fullmatch(name):
        raise AccountError("the name must be 2 to 40 letters, digits, '.', '_' or '-'")
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"the password must have at least {MIN_PASSWORD} characters")


def add_teacher(db: Session, name: str, password: str) -> Teacher:
    """Make a teacher (not committed). Raises :class:`AccountError` for a bad or taken name or a
    short password."""
    check_new(name, password)
    if db.scalar(select(Teacher).where(Teacher.name == name)) is not None:
        raise AccountError(f"there is already a teacher called {name!r}")
    teacher = Teacher(name=name, password_hash=hash_password(password))
    db.add(teacher)
    return teacher


def find_teacher(db: Session, name: str) -> Teacher | None:
    """The teacher with log-in name ``name``, or None."""
    return db.scalar(select(Teacher).where(Teacher.name == name))


@login_manager.user_loader
def _load(user_id: str) -> Teacher | None:
    key = id_from_request(user_id)
    return get_session().get(Teacher, key) if key is not None else None


def init_app(app: Flask) -> None:
    """Flask-Login on the app; ``TEACHER_SIGNUP`` from ``TUTOR_TEACHER_SIGNUP`` (default off)."""
    import os

    if "TEACHER_SIGNUP" not in app.config:
        value = os.environ.get("TUTOR_TEACHER_SIGNUP", "").strip().lower()
        app.config["TEACHER_SIGNUP"] = value in ("1", "true", "yes", "on")
    login_manager.init_app(app)
