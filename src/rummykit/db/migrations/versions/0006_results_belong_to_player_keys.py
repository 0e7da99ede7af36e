"""Statistics belong to players' keys: a seat of a stored game keeps the hashed key of the
browser that played it (None for games played without one: the terminal, the simulator,
a seat opened by its link alone), so that nobody can add results under another person's
name.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.add_column(sa.Column("player_key", sa.String(64), nullable=True))
    op.create_index("ix_game_seats_player_key", "game_seats", ["player_key"])


def downgrade() -> None:
    op.drop_index("ix_game_seats_player_key", "game_seats")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("player_key")
