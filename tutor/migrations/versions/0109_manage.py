"""Management for teachers (issue 18): archiving a teacher's quizzes, lessons and classes
(``archived_at``), removing a learner from a class (``membership.removed_at``) and unassigning
an assignment (``assignment.archived_at``); each a nullable naive-UTC time, None for "in use", so
nothing a learner answered is destroyed by them (:mod:`tutor.domain.manage`).

Revision ID: manage
Revises: fingerprints2
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "manage"
down_revision = "bank"
branch_labels = None
depends_on = None

#: ``(table, column)`` added, each a nullable DateTime.
COLUMNS = (("teacher_quiz", "archived_at"), ("teacher_lesson", "archived_at"), ("classroom", "archived_at"),
           ("membership", "removed_at"), ("assignment", "archived_at"))


def upgrade() -> None:
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column(column, sa.DateTime, nullable=True))


def downgrade() -> None:
    for table, column in reversed(COLUMNS):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
