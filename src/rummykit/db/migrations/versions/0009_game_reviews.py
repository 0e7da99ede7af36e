"""Game reviews: a finished review is kept, so that opening it again is instant.

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


def downgrade() -> None:
    op.drop_index("ix_reviews_table_id", table_name="reviews")
    op.drop_table("reviews")
