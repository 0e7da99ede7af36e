"""Slow and greedy clients against a real server (uvicorn on loopback, with the app's
protocol): a body sent a byte now and then is cut off at its deadline, one address holds a
bounded number of connections, and a client that goes away mid-body costs one log line.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from ._support import hello
from .test_workers import free_port, wait_up

pytestmark = [pytest.mark.timeout(120)]

SERVER = """
import sys, uvicorn
from rummykit.server.app import create_app
from rummykit.server.protocol import timely_protocol
app = create_app(sys.argv[1])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            http=timely_protocol(30, body_timeout=1.0, max_connections=6))
"""
"""A server whose bodies must come within 1 s, six connections an address."""

HEAD = (b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n")
"""A record upload's headers whose body is then sent slowly."""


@contextmanager
def server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVER, f"sqlite:///{tmp_path / 'rummykit.db'}", str(port)],
            stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
        try:
            wait_up(port, process)
            yield port, log_path
        finally:
            process.terminate()
            process.wait(20)


def trickle(port: int, seconds: float) -> tuple[float, bytes]:
    """Send a body's headers, then a byte of it every 0.2 s for up to ``seconds``: how
    long the server kept the connection, and what it answered."""
    started = time.monotonic()
    answer = b""
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(HEAD)
        conn.settimeout(0.2)
        while time.monotonic() - started < seconds:
            try:
                conn.sendall(b" ")
                got = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not got:
                break
            answer += got
    return time.monotonic() - started, answer


def test_a_body_sent_slowly_is_cut_off_at_its_deadline(tmp_path: Path) -> None:
    """Headers at once, then the body a byte at a time: the server answers 408 and closes
    the connection once the body's deadline (1 s here) has passed, not when the client
    likes; a body sent at once is served."""
    import httpx

    with server(tmp_path) as (port, log_path):
        lasted, answer = trickle(port, 8)
        assert lasted < 4, lasted
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"body-timeout" in answer
        # A record sent at once is worked out as before.
        answer2 = httpx.post(f"http://127.0.0.1:{port}/api/replay", content=b"{}",
                             headers={"content-type": "application/json"})
        assert answer2.status_code == 400 and "record" in answer2.json()["error"]
    text = log_path.read_text(errors="replace")
    assert "Traceback" not in text and "ClientDisconnect" not in text, text
    assert text.count("went away before its request's body was in") == 1, text


def test_a_client_that_hangs_up_mid_body_logs_one_line(tmp_path: Path) -> None:
    """A client that sends half a record and hangs up: one line in the log, naming the
    route but no query string, and no traceback."""
    with server(tmp_path) as (port, log_path):
        for path in (b"/api/replay", b"/api/tables?token=secret-token"):
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.sendall(HEAD.replace(b"/api/replay", path) + b'{"rules": ')
                time.sleep(0.3)
        time.sleep(0.5)
    text = log_path.read_text(errors="replace")
    assert "Traceback" not in text and "ClientDisconnect" not in text, text
    lines = [line for line in text.splitlines() if "went away" in line]
    assert len(lines) == 2, text
    assert "/api/replay" in lines[0] and "/api/tables" in lines[1]
    assert "secret-token" not in text


def test_one_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    """Six connections from one address are held (WebSockets among them); the seventh is
    answered 429 and closed at once; once some close, a new one is served."""
    import httpx
    from websockets.sync.client import connect as ws_connect

    with server(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/tables", json={"rules": "classic", "seats": [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "name": "Bob", "level": "random"}]}).json()
        token = made["seats"][0]["link"].split("token=", 1)[1]
        with ExitStack() as stack:
            held = [stack.enter_context(socket.create_connection(("127.0.0.1", port)))
                    for _ in range(4)]
            for _ in range(2):
                ws = stack.enter_context(ws_connect(f"ws://127.0.0.1:{port}/ws/{made['id']}"))
                ws.send(json.dumps(hello(token)))
                assert json.loads(ws.recv(timeout=5))["type"] == "view"
            with socket.create_connection(("127.0.0.1", port)) as extra:
                extra.settimeout(5)
                answer = b""  # (told at once, before it asks)
                while chunk := extra.recv(4096):
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 429"), answer
                assert b"too-many-connections" in answer
            for conn in held[:2]:
                conn.close()
            time.sleep(0.3)
            assert httpx.get(f"{base}/api/presets", timeout=5).is_success
        # All closed, WebSockets included: the address has its whole allowance again.
        time.sleep(0.3)
        with ExitStack() as stack:
            for _ in range(5):
                stack.enter_context(socket.create_connection(("127.0.0.1", port)))
            assert httpx.get(f"{base}/api/presets", timeout=5).is_success
