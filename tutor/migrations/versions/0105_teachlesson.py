"""A teacher's own lesson assigned to a class: ``assignment.lesson_doc`` (a copy of the lesson
taken when it is assigned; issue 8).

Revision ID: teachlesson
Revises: fingerprints
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "teachlesson"
down_revision = "fingerprints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("assignment") as batch:
        batch.add_column(sa.Column("lesson_doc", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("assignment") as batch:
        batch.drop_column("lesson_doc")
