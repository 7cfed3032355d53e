"""Teacher tools: teacher accounts, their quizzes and lessons, classes, memberships, assignments
and class-quiz attempts (issue 8).

Revision ID: teacher
Revises: stars
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "teacher"
down_revision = "stars"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "teacher",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_teacher_name", "teacher", ["name"], unique=True)
    op.create_table(
        "teacher_quiz",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teacher.id"), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("doc", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_teacher_quiz_teacher_id", "teacher_quiz", ["teacher_id"])
    op.create_table(
        "teacher_lesson",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teacher.id"), nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("goal", sa.String(300), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_teacher_lesson_teacher_id", "teacher_lesson", ["teacher_id"])
    op.create_table(
        "classroom",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teacher.id"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_classroom_teacher_id", "classroom", ["teacher_id"])
    op.create_index("ix_classroom_code", "classroom", ["code"], unique=True)
    op.create_table(
        "membership",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("classroom_id", sa.Integer, sa.ForeignKey("classroom.id"), nullable=False),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("joined_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("classroom_id", "learner_id"),
    )
    op.create_index("ix_membership_classroom_id", "membership", ["classroom_id"])
    op.create_index("ix_membership_learner_id", "membership", ["learner_id"])
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("classroom_id", sa.Integer, sa.ForeignKey("classroom.id"), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("quiz_id", sa.Integer, sa.ForeignKey("teacher_quiz.id"), nullable=True),
        sa.Column("quiz_doc", sa.JSON, nullable=True),
        sa.Column("ruleset", sa.String(16), nullable=True),
        sa.Column("unit", sa.Integer, nullable=True),
        sa.Column("due", sa.DateTime, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_assignment_classroom_id", "assignment", ["classroom_id"])
    op.create_table(
        "class_attempt",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignment.id"), nullable=False),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("given", sa.JSON, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_class_attempt_assignment_id", "class_attempt", ["assignment_id"])
    op.create_index("ix_class_attempt_learner_id", "class_attempt", ["learner_id"])


def downgrade() -> None:
    for table in ("class_attempt", "assignment", "membership", "classroom", "teacher_lesson", "teacher_quiz",
                  "teacher"):
        op.drop_table(table)
