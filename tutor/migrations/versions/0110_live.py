"""Live sessions: a class quiz played live, one question at a time (``live_session``), and the
learners' answers to it (``live_answer``, one per learner and question).

Revision ID: live
Revises: fingerprints2
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "live"
down_revision = "manage"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_session",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("classroom_id", sa.Integer, sa.ForeignKey("classroom.id"), nullable=False),
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignment.id"), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("opened_at", sa.DateTime, nullable=True),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("ended_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_live_session_classroom_id", "live_session", ["classroom_id"])
    op.create_index("ix_live_session_assignment_id", "live_session", ["assignment_id"])
    op.create_table(
        "live_answer",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("live_session.id"), nullable=False),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("given", sa.JSON, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("ms", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("session_id", "learner_id", "position"),
    )
    op.create_index("ix_live_answer_session_id", "live_answer", ["session_id"])
    op.create_index("ix_live_answer_learner_id", "live_answer", ["learner_id"])


def downgrade() -> None:
    op.drop_table("live_answer")
    op.drop_table("live_session")
