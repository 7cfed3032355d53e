"""Device codes: a learner's personal code to continue on another browser (hash only, revocable).

Revision ID: device_code
Revises: teacher
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "device_code"
down_revision = "teacher"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "device_code",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("revoked_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_device_code_learner_id", "device_code", ["learner_id"])
    op.create_index("ix_device_code_code_hash", "device_code", ["code_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_device_code_code_hash", table_name="device_code")
    op.drop_index("ix_device_code_learner_id", table_name="device_code")
    op.drop_table("device_code")
