"""Played deals: one row per deal a learner finished at the play table, so that it counts toward
mastery once (``played_deal``, unique per learner and deal key: a reloaded or replayed address
of the same finished deal finds its row and counts nothing).

Revision ID: played
Revises: teachlesson
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "played"
down_revision = "teachlesson"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "played_deal",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("refused", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("learner_id", "key"),
    )


def downgrade() -> None:
    op.drop_table("played_deal")
