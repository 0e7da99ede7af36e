"""Ratings: each person's and each bot level's rating per preset and player-count group,
every change a rated match made (its history, and the proof that a match was rated once),
the choice of a name on the leaderboard, and which tables and games are rated.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("left_seats", sa.String(20), nullable=False,
                                   server_default=""))
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("subject", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("grp", sa.String(4), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("subject", "preset", "grp"),
    )
    op.create_index("ix_ratings_board", "ratings", ["preset", "grp", "kind"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(100), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("grp", sa.String(4), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("shown_before", sa.Integer(), nullable=False),
        sa.Column("shown_after", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("ix_rating_changes_game_id", "rating_changes", ["game_id"])
    op.create_index("ix_rating_changes_subject", "rating_changes", ["subject"])
    op.create_table(
        "board_names",
        sa.Column("subject", sa.String(100), primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("board_names")
    op.drop_index("ix_rating_changes_subject", table_name="rating_changes")
    op.drop_index("ix_rating_changes_game_id", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("left_seats")
        batch.drop_column("rated")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
