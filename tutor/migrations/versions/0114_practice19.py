"""Ratings per game (issue 19): ``learner_rating`` gets a ``ruleset`` column, its key becomes
(learner, ruleset), so a learner has one Glicko-2 rating per game, as Lichess keeps one per variant.
A learner's one rating from before is copied to every game they have answered in (the best guess
there is: it was earned on those games' questions). ``quiz.ratings_before`` keeps the learner's
rating of each game when the quiz started, so its results show the change.

Revision ID: 0114_practice19
Revises: testmode
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0114_practice19"
down_revision = "testmode"
branch_labels = None
depends_on = None

_COLUMNS = "rating, rd, vol, games, updated_at"


def _rating_table(name: str, per_game: bool) -> None:
    key = [sa.Column("ruleset", sa.String(16), primary_key=True)] if per_game else []
    op.create_table(name, sa.Column("learner_id", sa.Integer, sa.ForeignKey("learner.id"), primary_key=True), *key,
                    *(sa.Column(c, sa.Float, nullable=False) for c in ("rating", "rd", "vol")),
                    sa.Column("games", sa.Integer, nullable=False), sa.Column("updated_at", sa.DateTime, nullable=False))


def upgrade() -> None:
    _rating_table("learner_rating_game", per_game=True)
    op.execute(f"INSERT INTO learner_rating_game (learner_id, ruleset, {_COLUMNS}) "
               f"SELECT r.learner_id, g.ruleset, r.rating, r.rd, r.vol, r.games, r.updated_at FROM learner_rating r "
               "JOIN (SELECT DISTINCT learner_id, ruleset FROM attempt WHERE ruleset <> '') g "
               "ON g.learner_id = r.learner_id")
    op.drop_table("learner_rating")
    op.rename_table("learner_rating_game", "learner_rating")
    # a plain ADD COLUMN: a batch would copy and drop ``quiz`` on SQLite, which attempts refer to
    op.add_column("quiz", sa.Column("ratings_before", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quiz") as batch:
        batch.drop_column("ratings_before")
    _rating_table("learner_rating_one", per_game=False)
    # one rating again: the game the learner answered most in
    op.execute(f"INSERT INTO learner_rating_one (learner_id, {_COLUMNS}) "
               f"SELECT learner_id, {_COLUMNS} FROM learner_rating r WHERE NOT EXISTS (SELECT 1 FROM learner_rating o "
               "WHERE o.learner_id = r.learner_id AND (o.games > r.games OR (o.games = r.games AND o.ruleset < r.ruleset)))")
    op.drop_table("learner_rating")
    op.rename_table("learner_rating_one", "learner_rating")
