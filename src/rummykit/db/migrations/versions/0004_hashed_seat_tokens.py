"""Seats keep a hash of their token, never the token: a copy of the database opens no
seat. The token column stays (empty) for older versions' sake; a seat's hash goes on to
its rematch tables (the same person keeps the same key).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    seats = sa.table("table_seats", sa.column("id", sa.Integer()),
                     sa.column("token", sa.String(64)), sa.column("token_hash", sa.String(64)))
    bind = op.get_bind()
    rows = bind.execute(sa.select(seats.c.id, seats.c.token).where(
        seats.c.token.is_not(None))).all()
    for row_id, token in rows:
        digest = hashlib.sha256(token.encode()).hexdigest()
        bind.execute(seats.update().where(seats.c.id == row_id)
                     .values(token_hash=digest, token=None))


def downgrade() -> None:
    # The tokens cannot be had back from their hashes: their links no longer open seats.
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("token_hash")
