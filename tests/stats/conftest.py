"""Fixtures of the statistics tests: an empty database on SQLite and on PostgreSQL, and the
store on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.stats import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty statistics database: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'stats.db'}"
    url: str = request.getfixturevalue("postgres_db_url")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()
