"""Stars and hints per lesson step: ``step_progress.hints`` (hints shown before the step was done)
and ``stars`` (1-3, set once when the step is done: 3 for right on the first try, one fewer for
each wrong answer (counted from ``attempt``) or hint, at least 1).

Revision ID: stars
Revises: adaptive
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "stars"
down_revision = "adaptive"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("step_progress") as batch:
        batch.add_column(sa.Column("hints", sa.Integer, nullable=False, server_default=sa.text("0")))
        batch.add_column(sa.Column("stars", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("step_progress") as batch:
        batch.drop_column("stars")
        batch.drop_column("hints")
