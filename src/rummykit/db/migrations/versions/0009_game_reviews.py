"""Game reviews: a finished review is kept, so that opening it again is instant, with
each seat of a table's match as the statistics count it (their accuracy column).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("budget", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=True),
        sa.Column("result", sa.Text(), nullable=False),
    )
    op.create_index("ix_reviews_table_id", "reviews", ["table_id"])
    op.create_table(
        "review_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("review_id", sa.String(64), sa.ForeignKey("reviews.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("player_key", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=False),
        sa.Column("points_lost", sa.Float(), nullable=False),
        sa.UniqueConstraint("review_id", "seat"),
    )
    op.create_index("ix_review_seats_review_id", "review_seats", ["review_id"])
    op.create_index("ix_review_seats_player", "review_seats", ["player"])


def downgrade() -> None:
    op.drop_index("ix_review_seats_player", table_name="review_seats")
    op.drop_index("ix_review_seats_review_id", table_name="review_seats")
    op.drop_table("review_seats")
    op.drop_index("ix_reviews_table_id", table_name="reviews")
    op.drop_table("reviews")
