"""A server killed as a rated match ends (issue: ratings, "Storage and correctness"): the
process is killed (SIGKILL) at once after the match's last action is sent, at several
moments; started again on the same database, the table is finished (by the restart where
the end was not yet stored, or by playing the last action again where the action itself
was lost) and its match is stored once and rated once, on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rummykit.db import connect
from rummykit.db.models import GameRow, RatingChangeRow, RatingRow, TableRow

from ._support import Shadow, hello, person
from .conftest import sqlite_url
from .test_workers import KEYS, RULES, Seat, at, free_port, wait_up

SERVER = """
import sys, uvicorn
from rummykit.server.app import create_app
app = create_app(sys.argv[1], bot_delay=0.05)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def start(url: str, tmp_path: Path) -> tuple[int, subprocess.Popen[bytes]]:
    port = free_port()
    log = (tmp_path / f"server-{port}.log").open("wb")
    process = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)],
                               stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    wait_up(port, process)
    return port, process


def counts(url: str, table_id: str) -> dict[str, Any]:
    engine = connect(url)
    try:
        with Session(engine) as session:
            table = session.get(TableRow, table_id)
            assert table is not None
            games = session.scalar(select(func.count()).select_from(GameRow)) or 0
            changes = session.scalar(select(func.count()).select_from(RatingChangeRow)) or 0
            matches = sorted(session.scalars(select(RatingRow.matches)))
            return {"status": table.status, "games": games, "changes": changes,
                    "matches": matches, "seed": table.seed}
    finally:
        engine.dispose()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
@pytest.mark.parametrize("delay", [0.0, 0.03])
@pytest.mark.long
def test_a_kill_as_the_match_ends_rates_it_once(
        database: str, delay: float, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = (sqlite_url(tmp_path) if database == "sqlite"
           else request.getfixturevalue("postgres_db_url"))
    port, process = start(url, tmp_path)
    try:
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "rules": RULES, "seats": [person("Ann"), person("Bob")], "rated": True},
            timeout=10).json()
        table_id = made["id"]
        tokens = [s["link"].split("token=", 1)[1] for s in made["seats"]]
        people = {s: Seat(port, table_id, hello(tokens[s], KEYS[s]), s) for s in (0, 1)}
        for conn in people.values():
            conn.until(lambda m: m["table"]["status"] == "playing")
        # (the server shuffled; the test reads the seed it stored, to follow the deal)
        shadow = Shadow(RULES, ["Ann", "Bob"], counts(url, table_id)["seed"])
        rng = random.Random(delay)
        while True:
            mover = shadow.deal.to_move
            text = shadow.choose(mover, rng)
            people[mover].send({"type": "action", "action": text})
            shadow.apply(text)
            if shadow.match.is_over:
                break
            for conn in people.values():
                conn.until(at(shadow.seq))
            time.sleep(0.03)  # (at a pace the server allows)
        time.sleep(delay)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        for conn in people.values():
            conn.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    port, process = start(url, tmp_path)
    try:
        if counts(url, table_id)["status"] != "finished":
            # The last action never reached the database: played again, it ends the match.
            conn = Seat(port, table_id, hello(key=KEYS[mover], seat=mover), mover)
            conn.until(at(shadow.seq - 1))
            conn.send({"type": "action", "action": shadow.applied[-1]})
            conn.until(at(shadow.seq))
            conn.close()
            deadline = time.monotonic() + 10
            while counts(url, table_id)["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.1)
        found = counts(url, table_id)
        assert found["games"] == 1 and found["changes"] == 2 and found["matches"] == [1, 1]
        answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/ratings",
                           timeout=10).json()
        assert answer["rated"] and len(answer["changes"]) == 2
    finally:
        process.terminate()
        process.wait(20)
