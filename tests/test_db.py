"""The database schema: Alembic's migrations create exactly what the models describe."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from rummykit.db import connect
from rummykit.db.models import Base


def test_migrations_match_the_models(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'schema.db'}")
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert diff == []


def test_connect_is_idempotent_and_versioned(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'again.db'}"
    connect(url).dispose()
    engine = connect(url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert {"games", "game_seats", "tables", "table_seats", "table_actions",
            "alembic_version"} <= names


def test_sqlite_file_directory_is_created(tmp_path: Path) -> None:
    target = tmp_path / "nested" / "dir" / "r.db"
    connect(f"sqlite:///{target}").dispose()
    assert target.exists()
