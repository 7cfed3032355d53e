"""The database in a request: the session of each request and the learner of its cookie.

A *learner* is anonymous: a random id kept in the signed session cookie, with an optional display
name. The id is put in the session by the first response that sets the cookie (any page with a
form, since it holds the CSRF token), before anything is written; the learner's row is made by the
first write (insert-or-get on the unique id), so answers sent at once from a new browser all land
on one learner. The models, the engine and the clock are the domain's (:mod:`tutor.domain.models`,
:mod:`tutor.domain.db`); here the app's ``CLOCK`` setting becomes :func:`tutor.domain.db.now`'s clock.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from flask import Flask, Response, current_app, g, has_app_context, session
from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, sessionmaker

from tutor.domain.db import make_engine, now, set_clock_source, table_of
from tutor.domain.models import Learner

__all__ = [
    "current_learner",
    "get_session",
    "init_app",
    "learner_for_write",
    "learner_id_for_write",
    "read_connection",
    "session_anon",
]


def _app_clock() -> Callable[[], datetime] | None:
    """The app's ``CLOCK`` setting (a callable returning a timezone-aware datetime), if any."""
    return current_app.config.get("CLOCK") if has_app_context() else None


set_clock_source(_app_clock)


def init_app(app: Flask) -> None:
    """Open the app's database (``DATABASE_URL``) and check that it is at the migrations' head.

    Nothing is created or altered here: ``tutor db upgrade`` (or ``tutor serve``, which runs it
    first) applies the migrations of :mod:`tutor.migrations`. Raises
    :class:`~tutor.migrations.SchemaNotCurrent` if the database is not at head.
    """
    from tutor.migrations import require_head

    engine = make_engine(app.config["DATABASE_URL"])
    require_head(engine)
    app.extensions["tutor_db"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)
    app.after_request(_give_learner_id)


def get_session() -> Session:
    if "db" not in g:
        g.db = current_app.extensions["tutor_db"]()
    return g.db



def read_connection() -> Connection:
    """A connection for a read of one or two Core statements (nothing written): the session's,
    if this request has one, else a connection of its own from the pool, kept for the rest of the
    request and given back at its end (cheaper than a session's when the request needs no more)."""
    if "db" in g:
        return g.db.connection()
    conn = g.get("tutor_read_conn")
    if conn is None:
        conn = g.tutor_read_conn = current_app.extensions["tutor_db"].kw["bind"].connect()
    return conn


def _close_session(_exc: BaseException | None) -> None:
    conn = g.pop("tutor_read_conn", None)
    if conn is not None:
        conn.close()
    db = g.pop("db", None)
    if db is not None:
        db.close()


def _session_anon() -> str | None:
    anon = session.get("learner")
    return anon if isinstance(anon, str) and 0 < len(anon) <= 64 else None


def session_anon() -> str | None:
    """The learner id (anonymous, random) of this request's session cookie, or None: for a query
    that joins the learner table instead of looking the learner up first."""
    return _session_anon()


def _new_anon() -> str:
    anon = secrets.token_urlsafe(24)
    session["learner"] = anon
    session.permanent = True
    return anon


def _give_learner_id(response: Response) -> Response:
    """A response that sets the session cookie (a page with a form) also gives the learner id."""
    if session.modified and session and _session_anon() is None:
        _new_anon()
    return response


def current_learner() -> Learner | None:
    """The learner of this request's cookie, or None (nothing is written). A learner found is
    kept for the rest of the request (a page asks several times)."""
    anon = _session_anon()
    if anon is None:
        return None
    found = g.get("tutor_learner")
    if found is not None and found.anon_id == anon:
        return found
    found = get_session().scalar(select(Learner).where(Learner.anon_id == anon))
    if found is not None:
        g.tutor_learner = found
    return found


#: The id of the learner of an anonymous id (parameter ``anon``; built once: statements on the
#: answer path are built at import, so a request only binds their values).
_LEARNER_ID = select(table_of(Learner).c.id).where(table_of(Learner).c.anon_id == bindparam("anon"))


def learner_id_for_write(conn: Connection) -> int:
    """The current learner's id (``learner.id``), the row made on ``conn`` if new (not committed);
    call inside a transaction. One ``SELECT`` for a learner seen before.

    Insert-or-get on the unique ``anon_id``: a request that finds the row made by another one
    answering at the same time (another worker, another host) uses it.
    """
    anon = _session_anon() or _new_anon()
    known = g.get("tutor_learner")
    if known is not None and known.anon_id == anon:  # read earlier in this request (current_learner)
        return int(known.id)
    found = conn.execute(_LEARNER_ID, {"anon": anon}).scalar()
    if found is not None:
        return int(found)
    table = table_of(Learner)
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(insert(table).values(anon_id=anon, created_at=now()).on_conflict_do_nothing(index_elements=["anon_id"]))
    return int(conn.execute(_LEARNER_ID, {"anon": anon}).scalar_one())


def learner_for_write(db: Session) -> Learner:
    """The current learner as a row of ``db``, made if new (not committed): see
    :func:`learner_id_for_write`."""
    learner = db.get(Learner, learner_id_for_write(db.connection()))
    assert learner is not None
    return learner
