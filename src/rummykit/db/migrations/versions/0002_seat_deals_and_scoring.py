"""Deals each seat played (players out of a ramino match sit out deals) and each game's
scoring (whether a high or a low total is best).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("scoring", sa.String(10), nullable=False,
                                   server_default="collect"))
    with op.batch_alter_table("game_seats") as batch:
        batch.add_column(sa.Column("deals_played", sa.Integer(), nullable=True))
    # Games stored before this revision: every seat played every deal of its game.
    op.execute(
        "UPDATE game_seats SET deals_played = "
        "(SELECT games.deals FROM games WHERE games.id = game_seats.game_id)"
    )
    op.execute(
        "UPDATE games SET scoring = 'penalty' WHERE preset = 'ramino'"
    )
    op.execute(
        "UPDATE games SET scoring = 'melded' WHERE preset = 'rummy500'"
    )
    with op.batch_alter_table("game_seats") as batch:
        batch.alter_column("deals_played", existing_type=sa.Integer(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("deals_played")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("scoring")
