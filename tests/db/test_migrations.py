"""The database schema: Alembic's migrations create exactly what the models describe."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.exc import OperationalError

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


def test_only_the_default_files_directory_is_made(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """rummykit's own data directory is made with its parents; the directory of a file
    named by a URL is not (a typo in --db makes no chain of folders)."""
    target = tmp_path / "nested" / "dir" / "r.db"
    with pytest.raises(OperationalError):
        connect(f"sqlite:///{target}")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data" / "home"))
    connect().dispose()
    assert (tmp_path / "data" / "home" / "rummykit" / "rummykit.db").exists()
