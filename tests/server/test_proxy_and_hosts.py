"""Who a client is, and which host names the server answers to (README, "Playing online
with friends" and "What the server will not do").

- ``X-Forwarded-For`` names the visitor only when it comes from a proxy the operator
  named (``rummykit serve --trust-proxy``): otherwise any client could give itself fresh
  per-address limits by making the header up.
- A server on a loopback address answers only to the host names localhost and 127.0.0.1
  (``--allowed-hosts`` names others): a page of another site that renames itself to the
  server's address ("DNS rebinding") reaches nothing.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from rummykit.server.workers import allowed_hosts

from ._support import person, served

TWO = [person("Ann"), person("Bob")]


@contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[str]:
    """``rummykit serve`` with ``options`` in a subprocess: its base URL."""
    with served(tmp_path, *options) as port:
        yield f"http://127.0.0.1:{port}"


def tables_made(url: str, forwarded: list[str]) -> list[int]:
    return [httpx.post(f"{url}/api/tables", json={"rules": "classic", "seats": TWO},
                       headers={"X-Forwarded-For": address}).status_code
            for address in forwarded]


def test_a_made_up_forwarded_header_gives_no_fresh_limits(tmp_path: Path) -> None:
    with serving(tmp_path, "--tables-per-client", "2") as url:
        answers = tables_made(url, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    assert answers == [200, 200, 429]


def test_a_named_proxy_is_believed(tmp_path: Path) -> None:
    with serving(tmp_path, "--tables-per-client", "2", "--trust-proxy", "127.0.0.1") as url:
        answers = tables_made(url, ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.3",
                                    "10.0.0.3"])
    assert answers == [200, 200, 200, 200, 429]


def test_a_server_on_loopback_answers_to_its_own_names_only(tmp_path: Path) -> None:
    with serving(tmp_path) as url:
        port = url.rsplit(":", 1)[1]
        assert httpx.get(f"{url}/api/presets").status_code == 200
        assert httpx.get(f"{url}/api/presets",
                         headers={"Host": f"localhost:{port}"}).status_code == 200
        rebound = httpx.get(f"{url}/api/presets", headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 400
        assert "table" not in rebound.text
    with serving(tmp_path, "--allowed-hosts", "rummy.example") as url:
        assert httpx.get(f"{url}/api/presets",
                         headers={"Host": "rummy.example"}).status_code == 200
        assert httpx.get(f"{url}/api/presets").status_code == 400


@pytest.mark.parametrize(("names", "host", "expected"), [
    (None, "127.0.0.1", ["localhost", "127.0.0.1", "::1", "127.0.0.1"]),
    (None, "0.0.0.0", ["*"]),
    ("Rummy.example, *.rummy.example", "127.0.0.1", ["rummy.example", "*.rummy.example"]),
    ("*", "127.0.0.1", ["*"]),
    ("bad host", "127.0.0.1", None),
    ("", "127.0.0.1", None),
])
def test_allowed_hosts_option(names: str | None, host: str,
                              expected: list[str] | None) -> None:
    assert allowed_hosts(names, host) == expected


def test_a_bad_allowed_hosts_option_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "rummykit.cli", "serve", "--allowed-hosts",
                           "no good", "--db", f"sqlite:///{tmp_path / 'r.db'}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--allowed-hosts" in done.stderr
