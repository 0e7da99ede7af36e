"""The hub's place in the server (rummykit.server.hub): it holds the tables and their
storage, and knows nothing of HTTP; the limits it holds people's input to are the ones of
rummykit.limits, written once."""

from __future__ import annotations

import ast
from pathlib import Path

from rummykit import limits
from rummykit.server import hub

SERVER = Path(__file__).parents[2] / "src" / "rummykit" / "server"


def hub_files() -> list[Path]:
    """The hub's source: one module, or a package of them."""
    package = SERVER / "hub"
    return sorted(package.rglob("*.py")) if package.is_dir() else [SERVER / "hub.py"]


def imported(path: Path) -> set[str]:
    """The top-level packages ``path`` imports, anywhere in it (inside functions too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_the_hub_never_imports_the_web_framework() -> None:
    files = hub_files()
    assert files and all(path.exists() for path in files)
    for path in files:
        assert imported(path) & {"fastapi", "starlette", "uvicorn"} == set(), path.name


def test_the_hubs_limits_are_rummykits_own() -> None:
    assert hub.TIMER_RANGE is limits.TIMER_RANGE
    low, high = limits.KEY_LENGTH
    assert hub.good_key("a" * low) and hub.good_key("b" * high)
    assert not hub.good_key("a" * (low - 1)) and not hub.good_key("b" * (high + 1))
    assert not hub.good_key("a" * (low - 1) + "!")


def test_only_the_hubs_storage_speaks_to_the_database() -> None:
    speaking = {path.name for path in hub_files() if "sqlalchemy" in imported(path)}
    assert speaking == {"storage.py"}
