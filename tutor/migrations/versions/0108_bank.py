"""The question bank's tags: a teacher's own tags on the questions of their quizzes
(``question_tag``; issue 18).

Revision ID: bank
Revises: fingerprints2
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "bank"
down_revision = "fingerprints2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "question_tag",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teacher.id"), nullable=False),
        sa.Column("quiz_id", sa.Integer, sa.ForeignKey("teacher_quiz.id", ondelete="CASCADE"), nullable=False),
        sa.Column("question_id", sa.String(80), nullable=False),
        sa.Column("tag", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("quiz_id", "question_id", "tag", name="uq_question_tag"),
    )
    op.create_index("ix_question_tag_teacher_id", "question_tag", ["teacher_id"])
    op.create_index("ix_question_tag_quiz_id", "question_tag", ["quiz_id"])


def downgrade() -> None:
    op.drop_index("ix_question_tag_quiz_id", table_name="question_tag")
    op.drop_index("ix_question_tag_teacher_id", table_name="question_tag")
    op.drop_table("question_tag")
