"""Assignment settings and test mode: the mode (practice or test), attempts allowed, time limit,
open and close dates, the release of a test's results and the shuffles on ``assignment``; when each
learner started a timed assignment in ``assignment_start`` (:mod:`tutor.domain.settings`).

Revision ID: testmode
Revises: fingerprints2
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "testmode"
down_revision = "live"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs (constant defaults): a batch would copy and drop ``assignment`` on SQLite,
    # which its foreign keys (class attempts, fingerprints) refuse once it has rows
    op.add_column("assignment", sa.Column("mode", sa.String(8), nullable=False, server_default="practice"))
    op.add_column("assignment", sa.Column("attempts_allowed", sa.Integer, nullable=True))
    op.add_column("assignment", sa.Column("time_limit", sa.Integer, nullable=True))
    op.add_column("assignment", sa.Column("opens_at", sa.DateTime, nullable=True))
    op.add_column("assignment", sa.Column("closes_at", sa.DateTime, nullable=True))
    op.add_column("assignment", sa.Column("released_at", sa.DateTime, nullable=True))
    op.add_column("assignment", sa.Column("shuffle_questions", sa.Boolean, nullable=False,
                                          server_default=sa.text("false")))
    op.add_column("assignment", sa.Column("shuffle_options", sa.Boolean, nullable=False,
                                          server_default=sa.text("false")))
    op.create_table(
        "assignment_start",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignment.id"), nullable=False, index=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False, index=True),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("assignment_id", "learner_id"),
    )


def downgrade() -> None:
    op.drop_table("assignment_start")
    with op.batch_alter_table("assignment") as batch:
        for name in ("shuffle_options", "shuffle_questions", "released_at", "closes_at", "opens_at", "time_limit",
                     "attempts_allowed", "mode"):
            batch.drop_column(name)
