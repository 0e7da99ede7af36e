"""Opening the project's database: a URL, its migrations run, an engine.

A SQLite file in the user's data directory by default (``~/.local/share/rummykit/`` on
Linux, as ``platformdirs`` says for each system; ``$XDG_DATA_HOME`` moves it), the same
for every command; any SQLAlchemy URL (PostgreSQL included) through ``DATABASE_URL`` or
an explicit URL.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

__all__ = ["connect", "database_url", "default_url", "migrate"]

MIGRATIONS = Path(__file__).parent / "migrations"


def default_url() -> str:
    """The SQLite file every command uses unless told otherwise: ``rummykit.db`` in the
    user's data directory."""
    from platformdirs import user_data_path

    return f"sqlite:///{user_data_path('rummykit') / 'rummykit.db'}"


def database_url(explicit: str | None = None) -> str:
    """The URL to use: the one given, else ``DATABASE_URL``, else :func:`default_url`."""
    return explicit or os.environ.get("DATABASE_URL") or default_url()


def migrate(engine: Engine) -> None:
    """Bring the database's schema up to date (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def connect(url: str | None = None) -> Engine:
    """An engine on the database at ``url`` (see :func:`database_url`), migrated."""
    url = database_url(url)
    if url == default_url():
        # rummykit's own data directory is made where missing; the directory of a file
        # named by --db or DATABASE_URL must exist already (a typo makes no folders).
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    # A pooled connection is tested before each use: after the database restarts, the
    # first request gets a new connection instead of an error.
    engine = create_engine(url, future=True, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    migrate(engine)
    return engine


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    """Write-ahead logging: readers never wait for the writer, and a commit is one append."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()
