"""The statistics store and the web app's tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("unit", sa.String(10), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False, index=True),
        sa.Column("players", sa.Integer(), nullable=False, index=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=True),
    )
    op.create_table(
        "game_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(80), nullable=False, index=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("deals_won", sa.Integer(), nullable=False),
        sa.Column("deal_points", sa.Integer(), nullable=False),
        sa.Column("rummies", sa.Integer(), nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False, index=True),
        sa.Column("previous", sa.String(32), nullable=True),
        sa.Column("next_table", sa.String(32), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
    )
    op.create_table(
        "table_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
                  index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("token", sa.String(64), nullable=True, unique=True),
        sa.Column("joined", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "table_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
                  index=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(120), nullable=False),
        sa.UniqueConstraint("table_id", "seq"),
    )


def downgrade() -> None:
    for name in ("table_actions", "table_seats", "tables", "game_seats", "games"):
        op.drop_table(name)
