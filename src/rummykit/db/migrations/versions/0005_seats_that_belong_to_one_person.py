"""Online play: a seat belongs to the browser that claimed it (the hash of that browser's
key), the table knows the browser that made it, whether it is listed in the lobby, its
turn timer and the computer player that stands in for a person away; a seat remembers
whether its person handed it to that player.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("turn_timer", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("standin", sa.String(20), nullable=True))
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("away", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_table_seats_key_hash", "table_seats", ["key_hash"])


def downgrade() -> None:
    op.drop_index("ix_table_seats_key_hash", "table_seats")
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("away")
        batch.drop_column("key_hash")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("standin")
        batch.drop_column("turn_timer")
        batch.drop_column("public")
        batch.drop_column("creator_hash")
