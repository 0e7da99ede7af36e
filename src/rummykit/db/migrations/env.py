"""Alembic environment: migrations run on the connection the program hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from rummykit.db.models import Base

config = context.config
target_metadata = Base.metadata

connection = config.attributes.get("connection")
if connection is None:
    # Run from the alembic command line: the URL comes from the ini file or -x url=...
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=postgresql+psycopg://... upgrade head")
    engine = create_engine(url)
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
