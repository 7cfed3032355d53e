"""Class-quiz fingerprints: the canonical fingerprint of each question's scenario of an assigned
class quiz, so the stateless endpoints can refuse them (issue 8).

Revision ID: fingerprints
Revises: device_code
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "fingerprints"
down_revision = "device_code"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "class_fingerprint",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignment.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
    )
    op.create_index("ix_class_fingerprint_assignment_id", "class_fingerprint", ["assignment_id"])
    op.create_index("ix_class_fingerprint_fingerprint", "class_fingerprint", ["fingerprint"])
    _backfill()


def _backfill() -> None:
    """Fingerprints of the quizzes assigned before this revision."""
    from tutor.solve.fingerprint import fingerprint

    assignment = sa.table("assignment", sa.column("id", sa.Integer), sa.column("quiz_doc", sa.JSON))
    target = sa.table("class_fingerprint", sa.column("assignment_id", sa.Integer),
                      sa.column("position", sa.Integer), sa.column("fingerprint", sa.String))
    bind = op.get_bind()
    rows = []
    for aid, doc in bind.execute(sa.select(assignment.c.id, assignment.c.quiz_doc)):
        for n, q in enumerate((doc or {}).get("questions") or [], 1) if isinstance(doc, dict) else ():
            fp = fingerprint(q.get("scenario")) if isinstance(q, dict) else None
            if fp is not None:
                rows.append({"assignment_id": aid, "position": n, "fingerprint": fp})
    if rows:
        op.bulk_insert(target, rows)


def downgrade() -> None:
    op.drop_index("ix_class_fingerprint_fingerprint", table_name="class_fingerprint")
    op.drop_index("ix_class_fingerprint_assignment_id", table_name="class_fingerprint")
    op.drop_table("class_fingerprint")
