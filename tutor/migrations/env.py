"""Alembic environment of tutor's database (run by :mod:`tutor.migrations`, never imported).

Online only: the whole upgrade is one transaction that first takes the migration lock
(:func:`tutor.migrations.lock`), so processes that migrate one database at once take turns.
"""

from __future__ import annotations

from alembic import context

from tutor.domain import models as _models  # noqa: F401  (the tables, on Base.metadata)
from tutor.domain.db import Base, make_engine
from tutor.migrations import lock

config = context.config


def run_migrations_online() -> None:
    engine = make_engine(config.attributes["url"], migrating=True)
    try:
        with engine.connect() as connection, connection.begin():
            lock(connection)
            context.configure(connection=connection, target_metadata=Base.metadata, compare_type=True,
                              render_as_batch=connection.dialect.name == "sqlite")
            config.attributes["before"] = context.get_context().get_current_heads()  # read under the lock
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("tutor's migrations run online only: use `tutor db upgrade`")
run_migrations_online()
