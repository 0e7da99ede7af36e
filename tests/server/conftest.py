"""Fixtures of the web tests: an empty database per test, SQLite, and PostgreSQL where the
test is about storage.

``db_url`` is a SQLite file in the test's ``tmp_path``, a copy of one migrated once per
test process (copying it takes a millisecond, running the migrations on a new file 60 ms;
the migrations themselves are tested in tests/db). A test marked ``postgresql`` (the
tests of storage: rebuilding tables after a restart, damaged rows, what the database
refuses or pages, the database going down, stored claims and codes, and a representative
slice of play) runs a second time on a PostgreSQL database of these tests on the session's
server (``postgres_server`` from tests/conftest.py: one per test process), created once
and emptied before each test (cheaper than a database per test; the PostgreSQL cases are
skipped where PostgreSQL is not installed, as that fixture does). The tests of several
server processes use PostgreSQL alone (``postgres_db_url``).
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from rummykit.db import connect
from rummykit.db.models import Base

DATABASES = ["sqlite", "postgres"]
"""The databases of a test marked ``postgresql``; the others run on SQLite alone."""

CHROMIUMS = ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium")
"""Where Chromium is looked for: its headless shell first (the browser without its window,
which Playwright runs for headless pages: about half the work of the whole browser for the
same tests), then the whole browser. ``RUMMYKIT_CHROMIUM`` names another."""

CHROMIUM = os.environ.get("RUMMYKIT_CHROMIUM") or next(
    (path for path in CHROMIUMS if Path(path).exists()), CHROMIUMS[0])
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    """The app on the test's database, in process (bots move at once, seeds may be
    chosen)."""
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0.0, allow_seed=True)) as client:
        yield client


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for every browser test of the session (Playwright's sync API runs
    one instance at a time)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):  # (as for PostgreSQL: under CI a missing browser fails)
            pytest.fail(f"Chromium is needed for these tests under CI (the Makefile installs "
                        f"its headless shell): nothing at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM}")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def sqlite_url(directory: Path) -> str:
    return f"sqlite:///{directory / 'rummykit.db'}"


def new_postgres_database(server: Any, prefix: str) -> str:
    """A new database on the session's server, with the schema in place."""
    url: str = server.create_database(f"{prefix}_{uuid.uuid4().hex[:12]}")
    connect(url).dispose()  # runs the migrations
    return url


def empty(url: str) -> None:
    """Delete every row of the app's tables (the schema stays)."""
    engine = connect(url)
    try:
        names = ", ".join(table.name for table in Base.metadata.sorted_tables)
        with engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def web_postgres_url(request: pytest.FixtureRequest) -> str:
    """The web tests' own database on the session's PostgreSQL server."""
    return new_postgres_database(request.getfixturevalue("postgres_server"), "web")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``db_url`` is SQLite, and PostgreSQL too for a test marked ``postgresql``."""
    if "db_url" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker("postgresql") is not None
        metafunc.parametrize("db_url", DATABASES if marked else DATABASES[:1], indirect=True)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database with the schema in place and no rows, for tests to copy."""
    directory = tmp_path_factory.mktemp("sqlite-template")
    connect(sqlite_url(directory)).dispose()  # runs the migrations
    # Closing the last connection wrote the write-ahead log into the file: a copy of the
    # file alone holds the schema.
    assert not (directory / "rummykit.db-wal").exists(), "the template's log was left open"
    return directory / "rummykit.db"


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database for this test: SQLite, then PostgreSQL for a test marked
    ``postgresql``."""
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("sqlite_template"), tmp_path / "rummykit.db")
        yield sqlite_url(tmp_path)
        return
    url: str = request.getfixturevalue("web_postgres_url")
    empty(url)
    yield url


@pytest.fixture
def actions_db(db_url: str) -> Iterator[Any]:
    """Every action a table stored, read straight from the database (``_support.ActionLog``)."""
    from ._support import ActionLog

    log = ActionLog(db_url)
    yield log
    log.close()
