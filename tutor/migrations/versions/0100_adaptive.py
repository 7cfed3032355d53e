"""Adaptive practice: skills and mastery, Glicko-2 ratings, rule points of attempts and mistakes.

Adds the tables ``skill_mastery`` (one row per learner and skill: kind x ruleset x rule point),
``learner_rating`` and ``question_rating`` (Glicko-2); the columns ``attempt.rules`` and
``mistake.rules`` (the verdict's rule points, for filters by rule), ``quiz.mode`` and
``quiz.target`` (adaptive practice); and the indexes the progress page queries by:
``attempt (learner_id, created_at)`` (accuracy over time, streak) and ``mistake (learner_id,
streak, due)`` (the mistakes list paged with LIMIT, the review forecast). Existing rows are kept
(new columns are nullable; old attempts and mistakes have no rule points).

Revision ID: adaptive
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "adaptive"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skill_mastery",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("rule", sa.String(20), nullable=False),
        sa.Column("p_known", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("right", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("learner_id", "ruleset", "kind", "rule"),
    )
    op.create_index("ix_skill_mastery_learner_p", "skill_mastery", ["learner_id", "p_known"])
    op.create_table(
        "learner_rating",
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "question_rating",
        sa.Column("exercise_ref", sa.String(200), primary_key=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("right", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    with op.batch_alter_table("attempt") as batch:
        batch.add_column(sa.Column("rules", sa.String(120), nullable=True))
    op.create_index("ix_attempt_learner_created", "attempt", ["learner_id", "created_at"])
    with op.batch_alter_table("mistake") as batch:
        batch.add_column(sa.Column("rules", sa.String(120), nullable=True))
    op.create_index("ix_mistake_learner_streak_due", "mistake", ["learner_id", "streak", "due"])
    with op.batch_alter_table("quiz") as batch:
        batch.add_column(sa.Column("mode", sa.String(16), nullable=True))
        batch.add_column(sa.Column("target", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quiz") as batch:
        batch.drop_column("target")
        batch.drop_column("mode")
    op.drop_index("ix_mistake_learner_streak_due", "mistake")
    with op.batch_alter_table("mistake") as batch:
        batch.drop_column("rules")
    op.drop_index("ix_attempt_learner_created", "attempt")
    with op.batch_alter_table("attempt") as batch:
        batch.drop_column("rules")
    op.drop_table("question_rating")
    op.drop_table("learner_rating")
    op.drop_index("ix_skill_mastery_learner_p", "skill_mastery")
    op.drop_table("skill_mastery")
