"""WebSocket compression: off unless ``rummykit serve --ws-deflate`` (docs/server.md, "The
web app under load": compressing every 2 KB view cost an eighth of the throughput)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .test_workers import free_port, wait_up


@pytest.mark.parametrize("deflate", [False, True])
def test_compression_is_offered_only_when_asked_for(tmp_path: Path, deflate: bool) -> None:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'rummy.db'}", *(["--ws-deflate"] if deflate else [])],
        stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        wait_up(port, server)
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "rules": "classic", "seats": [{"kind": "person", "name": "Ann"},
                                          {"kind": "bot", "name": "Bob", "level": "random"}]})
        assert made.status_code == 200, made.text
        table_id = made.json()["id"]
        # The client offers compression, as browsers do; the server's answer decides.
        with connect(f"ws://127.0.0.1:{port}/ws/{table_id}",
                     origin=f"http://127.0.0.1:{port}", compression="deflate") as ws:
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
            assert ("permessage-deflate" in agreed) is deflate
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
