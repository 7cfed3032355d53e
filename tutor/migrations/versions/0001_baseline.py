"""Baseline: the schema as the app made it before migrations (create_all plus its ALTER TABLEs).

On a new database this creates the five tables exactly as ``create_all`` did (main at c1581fb, the
review columns of ``mistake`` included). On a database made before migrations (tables there, no
``alembic_version``) it adopts what is there: it creates only the missing tables, adds the
missing columns (``mistake.card``, ``due``, ``streak``, which start-up used to add with ALTER
TABLE) with their indexes, and gives old mistakes rows a due date, ``added_at`` — then Alembic
stamps the database at this revision. Rows are kept.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The tables as of this revision: a frozen copy, never imported from the models (which move on).
meta = sa.MetaData()
sa.Table(
    "learner", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("anon_id", sa.String(64), nullable=False, unique=True, index=True),
    sa.Column("display_name", sa.String(40), nullable=True),
    sa.Column("created_at", sa.DateTime, nullable=False),
)
sa.Table(
    "quiz", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("token", sa.String(32), nullable=False, unique=True, index=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False, index=True),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("seed", sa.Integer, nullable=False),
    sa.Column("difficulty", sa.Integer, nullable=False),
    sa.Column("kinds", sa.JSON, nullable=False),
    sa.Column("refs", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
)
sa.Table(
    "attempt", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False, index=True),
    sa.Column("exercise_ref", sa.String(200), nullable=False, index=True),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("quiz_id", sa.Integer, sa.ForeignKey("quiz.id"), nullable=True, index=True),
    sa.Column("position", sa.Integer, nullable=True),
    sa.Column("given", sa.JSON, nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
)
sa.Table(
    "step_progress", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False, index=True),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("step_id", sa.String(100), nullable=False),
    sa.Column("done", sa.Boolean, nullable=False),
    sa.Column("solved", sa.JSON, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    sa.UniqueConstraint("learner_id", "step_id"),
)
sa.Table(
    "mistake", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False, index=True),
    sa.Column("exercise_ref", sa.String(200), nullable=False),
    sa.Column("ruleset", sa.String(16), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("added_at", sa.DateTime, nullable=False),
    sa.Column("card", sa.JSON, nullable=True),
    sa.Column("due", sa.DateTime, nullable=True, index=True),
    sa.Column("streak", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.UniqueConstraint("learner_id", "exercise_ref"),
)


def upgrade() -> None:
    bind = op.get_bind()
    have = set(sa.inspect(bind).get_table_names())
    meta.create_all(bind, tables=[t for t in meta.sorted_tables if t.name not in have])
    for table in meta.sorted_tables:
        if table.name in have:
            _add_missing_columns(bind, table)


def _add_missing_columns(bind: sa.Connection, table: sa.Table) -> None:
    """Adopt a table made before migrations: add the columns it lacks, with their indexes."""
    have = {c["name"] for c in sa.inspect(bind).get_columns(table.name)}
    missing = [c for c in table.columns if c.name not in have]
    for col in missing:
        if not col.nullable and col.server_default is None:
            raise RuntimeError(f"cannot add the required column {table.name}.{col.name} to existing rows")
        default = sa.text(str(col.server_default.arg)) if isinstance(col.server_default, sa.DefaultClause) else None
        op.add_column(table.name, sa.Column(col.name, col.type, nullable=col.nullable, server_default=default))
    names = {c.name for c in missing}
    for index in table.indexes:
        if names & {c.name for c in index.columns}:
            index.create(bind, checkfirst=True)
    if table.name == "mistake" and "due" in names:  # mistakes from before reviews: due when added
        op.execute("UPDATE mistake SET due = added_at WHERE due IS NULL")


def downgrade() -> None:
    bind = op.get_bind()
    meta.drop_all(bind)
