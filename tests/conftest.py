"""Shared fixtures: a real PostgreSQL server for the test session, and a check of every
game record the tests write against the record's JSON Schema.

``postgres_url`` starts a throw-away PostgreSQL cluster on loopback once per session and
yields a SQLAlchemy URL (``postgresql+psycopg://postgres@127.0.0.1:PORT/rummykit_test``)
of a database in it. ``postgres_db_url`` gives each test a fresh, empty database on the
same server (use it when a test must not see what other tests stored). ``postgres_server``
is the server itself, for tests that want to create databases of their own.

How the server is run:

- the binaries are the newest ``/usr/lib/postgresql/<version>/bin`` (Debian/Ubuntu), or
  the directory of ``pg_ctl`` on the PATH, or ``$PG_BINDIR`` when set;
- the cluster lives in a fresh temporary directory (data, unix socket, log), removed at the
  end of the session; it listens on 127.0.0.1 only, on a free port, with trust
  authentication (nothing but this test session can reach it);
- PostgreSQL refuses to run as root, so when the tests run as root, ``initdb`` and
  ``pg_ctl`` run as the ``postgres`` user (``runuser``, or ``su`` without it) and the
  temporary directory is handed to that user;
- durability is switched off (``fsync``, ``synchronous_commit``, ``full_page_writes``):
  the data is thrown away anyway.

When PostgreSQL is not installed, the tests that use it are skipped, except under CI
(the ``CI`` environment variable set), where the Makefile installs it: there a missing
server is a failure, so the PostgreSQL tests cannot silently stop running.

Every record text that :func:`rummykit.record.dumps` produces during a test (``dump``, the
command line, the server and the simulator all write through it) is validated against
the schema the package ships (:func:`rummykit.schemas.record_schema`): a test that writes
a record the schema refuses fails, naming the place and the reason. Records written by a
subprocess are not seen; ``tests/records/test_record_schema.py`` checks one written by the command.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PG_USER = "postgres"
"""The operating-system user that runs the server when the tests run as root, and the
database superuser's name."""

PG_DATABASE = "rummykit_test"
START_TIMEOUT = 60
"""Seconds ``pg_ctl -w`` waits for the server to accept connections."""
START_ATTEMPTS = 3
"""Tries at starting the server (another process may grab the chosen port meanwhile)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "ray: starts a local Ray instance (part of the normal suite; skipped only "
        "when Ray is not installed)")
    config.addinivalue_line(
        "markers", "long: takes several seconds (whole deals or matches, a browser, servers or "
        "programs to wait on): started before the others")
    config.addinivalue_line(
        "markers", "uncompiled: checks code that the compiled build leaves in Python (a "
        "test oracle against itself, the views' JSON): left out of the compiled run")
    config.addinivalue_line(
        "markers", "postgresql: a web test of storage, run on PostgreSQL as well as SQLite "
        "(tests/server/conftest.py); the other web tests run on SQLite alone")
    if os.environ.get("RUMMYKIT_COMPILED") == "1":
        check_compiled()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Against the compiled build (``RUMMYKIT_COMPILED=1``), the tests marked
    ``uncompiled`` are left out: what they check is not compiled, so the Python run has
    already said all they can say.

    The tests marked ``long`` start first. Alone, they run first; under ``pytest -n N
    --dist worksteal`` (``make test``), which hands each of the N processes one of N equal
    stretches of the list and lets a process that ran out take tests from the end of
    another's, each stretch starts with a share of the long tests and goes on with the
    others (each kind in the order collected). So they are spread over the processes from
    the start, and what is left for the end is short."""
    if os.environ.get("RUMMYKIT_COMPILED") == "1":
        left_out = [item for item in items if item.get_closest_marker("uncompiled")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("uncompiled")]
    long = [item for item in items if item.get_closest_marker("long") is not None]
    short = [item for item in items if item.get_closest_marker("long") is None]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    order: list[pytest.Item] = []
    for k in range(workers):
        order += long[k::workers]
        order += short[len(short) * k // workers:len(short) * (k + 1) // workers]
    items[:] = order


def check_compiled() -> None:
    """With ``RUMMYKIT_COMPILED=1`` (the engine's suite run against the compiled build by
    ``make test``), stop unless every module that setup.py compiles is imported from its
    compiled extension: a wrong path would run the Python modules a second time instead."""
    import importlib
    import importlib.machinery

    setup = (Path(__file__).parent.parent / "setup.py").read_text()
    names = [path.replace("/", ".").removesuffix(".py")
             for path in re.findall(r'"src/(rummykit/[\w/]+\.py)"', setup)]
    assert names, "setup.py lists no compiled module"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in names:
        location = importlib.import_module(name).__file__ or ""
        if not location.endswith(suffixes):
            raise pytest.UsageError(f"RUMMYKIT_COMPILED=1 but {name} is {location}, not "
                                    "compiled (build it with make test)")


def _version_key(path: Path) -> tuple[int, ...]:
    """``/usr/lib/postgresql/15/bin`` -> (15,); ``.../9.6/bin`` -> (9, 6)."""
    return tuple(int(part) for part in re.findall(r"\d+", path.parent.name)) or (0,)


def find_pg_bindir() -> Path | None:
    """The directory of the newest installed PostgreSQL server binaries, or None."""
    candidates: list[Path] = []
    explicit = os.environ.get("PG_BINDIR")
    if explicit:
        candidates.append(Path(explicit))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key,
                         reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for bindir in candidates:
        if all((bindir / tool).is_file() and os.access(bindir / tool, os.X_OK)
               for tool in ("initdb", "pg_ctl", "postgres")):
            return bindir
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_server_user(argv: Sequence[str]) -> list[str]:
    """``argv`` run as the server's user when we are root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return list(argv)
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", PG_USER, "--", *argv]
    return ["su", PG_USER, "-s", "/bin/sh", "-c", shlex.join(argv)]


@dataclass
class PostgresServer:
    """A running throw-away PostgreSQL server (see the module's description)."""

    bindir: Path
    root: Path
    port: int = 0
    host: str = "127.0.0.1"
    user: str = PG_USER
    databases: list[str] = field(default_factory=list)

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "socket"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def url(self, database: str = PG_DATABASE) -> str:
        """The SQLAlchemy URL of a database on this server."""
        return f"postgresql+psycopg://{self.user}@{self.host}:{self.port}/{database}"

    # -- running the binaries ------------------------------------------------------

    def _run(self, argv: Sequence[str], *, as_server: bool = True) -> None:
        command = _as_server_user(argv) if as_server else list(argv)
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
        if proc.returncode != 0:
            raise RuntimeError(
                f"{shlex.join(command)} failed with exit code {proc.returncode}\n"
                f"stdout: {proc.stdout}\nstderr: {proc.stderr}\n{self._log_tail()}")

    def _log_tail(self) -> str:
        try:
            lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no server log)"
        return "server log (end):\n" + "\n".join(lines[-30:])

    # -- life cycle ----------------------------------------------------------------

    def init(self) -> None:
        """Create the cluster: an empty data directory owned by the server's user."""
        self.socket_dir.mkdir()
        if os.geteuid() == 0:
            entry = pwd.getpwnam(PG_USER)
            for path in (self.root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run([
            str(self.bindir / "initdb"), "-D", str(self.data), "-U", self.user,
            "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync",
        ])

    def start(self) -> None:
        """Start on a free port (trying again on another port if that one got taken)."""
        for attempt in range(1, START_ATTEMPTS + 1):
            self.port = free_port()
            options = " ".join([
                "-c listen_addresses=127.0.0.1", f"-c port={self.port}",
                f"-c unix_socket_directories={self.socket_dir}",
                "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
                "-c max_connections=100",
            ])
            try:
                self._run([
                    str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                    "-w", "-t", str(START_TIMEOUT), "-o", options, "start",
                ])
                return
            except RuntimeError:
                if attempt == START_ATTEMPTS:
                    raise

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                       "-w", "stop"])

    def create_database(self, name: str) -> str:
        """Create a database on the server and return its SQLAlchemy URL."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"not a plain database name: {name!r}")
        createdb = self.bindir / "createdb"
        if createdb.is_file():
            self._run([str(createdb), "-h", self.host, "-p", str(self.port), "-U", self.user,
                       name], as_server=False)
        else:  # pragma: no cover - createdb ships with the server binaries
            import psycopg

            with psycopg.connect(host=self.host, port=self.port, user=self.user,
                                 dbname="postgres", autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
        self.databases.append(name)
        return self.url(name)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is needed for these tests under CI (the Makefile installs "
                    f"it): {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL is not available: {reason}")


@pytest.fixture(scope="session", autouse=True)
def own_data_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data directory (where every command keeps its default database) is a
    temporary one for the whole test session: no test writes to the real one."""
    place = tmp_path_factory.mktemp("data-home")
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(place)
    yield place
    if before is None:
        del os.environ["XDG_DATA_HOME"]
    else:
        os.environ["XDG_DATA_HOME"] = before


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server on loopback for the whole session (see the module)."""
    bindir = find_pg_bindir()
    if bindir is None:
        _unavailable("no initdb/pg_ctl/postgres under /usr/lib/postgresql/*/bin, $PG_BINDIR "
                     "or the PATH")
    assert bindir is not None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(PG_USER)
        except KeyError:
            _unavailable(f"running as root and there is no {PG_USER!r} user to run it")
    try:
        import psycopg  # noqa: F401  (the URLs name the psycopg driver)
    except ImportError:
        _unavailable("the psycopg driver is not installed (pip install 'rummykit[postgres]')")
    root = Path(tempfile.mkdtemp(prefix="rummykit-pg-"))
    server = PostgresServer(bindir=bindir, root=root)
    started = False
    try:
        server.init()
        server.start()
        started = True
        server.create_database(PG_DATABASE)
        yield server
    finally:
        if started:
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """SQLAlchemy URL of a database on the session's PostgreSQL server (shared by every
    test that uses it: tests must not assume it is empty)."""
    return postgres_server.url(PG_DATABASE)


@pytest.fixture
def postgres_db_url(postgres_server: PostgresServer) -> str:
    """SQLAlchemy URL of a fresh, empty database on the session's PostgreSQL server."""
    return postgres_server.create_database(f"test_{uuid.uuid4().hex[:16]}")


# -- every record written is checked against the JSON Schema ------------------------------

_schema_checked: set[int] = set()
"""Hashes of the record texts validated so far (equality of records dumps them again)."""
_schema_problems: list[str] = []
"""What the schema refused since the current test started."""


@pytest.fixture(scope="session", autouse=True)
def _records_match_their_schema() -> Iterator[None]:
    """Wrap :func:`rummykit.record.dumps` for the session: each new record text it returns is
    validated against the shipped schema; a refusal is kept for the test that wrote it."""
    from jsonschema import Draft202012Validator

    from rummykit import record
    from rummykit.schemas import record_schema

    validator = Draft202012Validator(record_schema())
    original = record.dumps

    def dumps(rec: record.Record) -> str:
        text = original(rec)
        key = hash(text)
        if key not in _schema_checked:
            _schema_checked.add(key)
            for error in validator.iter_errors(json.loads(text)):
                where = "/".join(str(part) for part in error.absolute_path) or "(the record)"
                _schema_problems.append(f"{where}: {error.message}")
        return text

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(record, "dumps", dumps)
        yield


@pytest.fixture
def record_schema_problems() -> list[str]:
    """What the record schema refused since this test started: a test of the check itself
    reads it, and empties it so as not to fail."""
    return _schema_problems


def _fail_on_schema_problems(when: str) -> None:
    if _schema_problems:
        problems = list(dict.fromkeys(_schema_problems))
        _schema_problems.clear()
        pytest.fail(f"a record written {when} does not match rummykit's record schema:\n  "
                    + "\n  ".join(problems[:10]), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    _schema_problems.clear()
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    yield  # a test that fails already is not failed again here
    _fail_on_schema_problems("by this test")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[
        None, None, None]:
    yield
    _fail_on_schema_problems("while tearing this test down")
