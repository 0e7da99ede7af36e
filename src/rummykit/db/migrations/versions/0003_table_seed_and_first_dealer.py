"""Tables: 62-bit seeds (a 31-bit seed could be found from one's own hand by trying them
all) and the first dealer (a rematch goes on with the next dealer by the rules).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", existing_type=sa.Integer(), type_=sa.BigInteger(),
                           existing_nullable=False)
        batch.add_column(sa.Column("first_dealer", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("first_dealer")
        batch.alter_column("seed", existing_type=sa.BigInteger(), type_=sa.Integer(),
                           existing_nullable=False)
