"""Class-question fingerprints without the table's options: :func:`tutor.solve.fingerprint.canonical`
no longer writes them (the same cards asked with an option that changes nothing, e.g. a match
target beside "which cards may be played", got an answer to a class question), so every stored
fingerprint is made again from the assignments' copies of their quizzes and lessons.

Revision ID: fingerprints2
Revises: played
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "fingerprints2"
down_revision = "played"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _refill()


def downgrade() -> None:
    """The fingerprints stay as this code makes them (an older code refuses fewer variants)."""


def _refill() -> None:
    from tutor.domain.classes import fingerprints_of

    assignment = sa.table("assignment", sa.column("id", sa.Integer), sa.column("quiz_doc", sa.JSON),
                          sa.column("lesson_doc", sa.JSON))
    target = sa.table("class_fingerprint", sa.column("assignment_id", sa.Integer),
                      sa.column("position", sa.Integer), sa.column("fingerprint", sa.String))
    bind = op.get_bind()
    rows = []
    for aid, quiz_doc, lesson_doc in bind.execute(sa.select(assignment.c.id, assignment.c.quiz_doc,
                                                            assignment.c.lesson_doc)):
        quiz = quiz_doc if isinstance(quiz_doc, dict) else None
        lesson = lesson_doc if isinstance(lesson_doc, dict) else None
        rows += [{"assignment_id": aid, "position": n, "fingerprint": fp} for n, fp in fingerprints_of(quiz, lesson)]
    bind.execute(sa.delete(target))
    if rows:
        op.bulk_insert(target, rows)
