"""Load benchmark of the web app: many tables at once through the real WebSocket API.

It starts ``rummykit serve`` (bots moving without delay) on a loopback port with a fresh
SQLite database (or ``--db URL``), creates ``--tables`` tables of two people each, and
plays every seat from this process over its own WebSocket: at each of its turns a seat
sends a random legal action from its view and waits for the view that answers it. The
time from sending an action to receiving the new view is the latency.

Each seat thinks before it acts (``--think``, by default the web app's bot delay of 0.6 s,
spread uniformly between half and one and a half times it), as bots at a table do;
``--think 0`` makes a closed loop that measures the server at saturation.

It reports actions per second, the latency's p50 and p99, and checks that nothing was
lost: every acknowledged action is in the database, in order.

Usage::

    .venv/bin/python bench/load.py --tables 200 --seconds 30
    .venv/bin/python bench/load.py --tables 50 --rules classic --json
    .venv/bin/python bench/load.py --think 0 --workers 2 --db postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


async def play_seat(base: str, link: str, deadline: float, seed: int, think: float,
                    latencies: list[float], acked: list[int]) -> None:
    """Play one seat until the deadline or the match's end."""
    rng = random.Random(seed)
    table_id, token = link.split("/t/")[1].split("?token=")
    uri = f"ws://{base}/ws/{table_id}?token={token}"
    async with websockets.connect(uri, max_size=2**22) as ws:
        sent_at: float | None = None
        sent_seq = 0
        while time.perf_counter() < deadline:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(deadline - time.perf_counter(), 0.01))
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] == "error":
                sent_at = None
                continue
            if message["type"] != "view":
                continue  # presence, chat: not an answer
            view, seq = message["view"], message["table"]["seq"]
            if sent_at is not None and seq > sent_seq:
                latencies.append(time.perf_counter() - sent_at)
                acked.append(1)
                sent_at = None
            if view["match_over"]:
                return
            if sent_at is None and view["legal_actions"]:
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                sent_at, sent_seq = time.perf_counter(), seq
                await ws.send(json.dumps(
                    {"type": "action", "action": rng.choice(view["legal_actions"])}))


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    links: list[str] = []
    for _ in range(args.tables):
        table = post(f"http://{base}/api/tables", {
            "rules": args.rules,
            "seats": [{"kind": "person", "name": "A"}, {"kind": "person", "name": "B"}],
        })
        links += [s["link"] for s in table["seats"]]
    latencies: list[float] = []
    acked: list[int] = []
    start = time.perf_counter()
    deadline = start + args.seconds
    await asyncio.gather(*(play_seat(base, link, deadline, i, args.think, latencies, acked)
                           for i, link in enumerate(links)))
    elapsed = time.perf_counter() - start
    latencies.sort()

    def pct(p: float) -> float:
        if not latencies:
            return 0.0
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return {
        "tables": args.tables, "rules": args.rules, "think": args.think, "seconds": elapsed,
        "actions": len(acked), "actions_per_s": len(acked) / elapsed,
        "p50_ms": pct(0.50), "p99_ms": pct(0.99),
        "mean_ms": 1000 * statistics.mean(latencies) if latencies else 0,
    }


def stored_actions(db_url: str) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.connect() as conn:
        count = int(conn.execute(text("select count(*) from table_actions")).scalar_one())
    engine.dispose()
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--think", type=float, default=0.6,
                        help="mean seconds a seat waits before it acts, like the app's bots "
                        "(0: act at once, a closed loop that measures saturation)")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (more than one needs --db postgresql+psycopg:"
                        "//...)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.workers > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--workers above 1 needs --db postgresql+psycopg://...")
    workdir = Path(tempfile.mkdtemp(prefix="rummykit-load-"))
    db_url = args.db or f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    log = (workdir / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--port", str(port), "--db", db_url,
         "--bot-delay", "0", "--tables-per-client", "100000", "--workers", str(args.workers)],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://{base}/api/presets", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        report = asyncio.run(run(args, base))
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    stored = stored_actions(db_url)
    report["stored_actions"] = stored
    report["lost"] = report["actions"] - stored if stored < report["actions"] else 0
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['tables']} tables of {report['rules']} (think {args.think} s, "
              f"{args.workers} server process{'es' if args.workers > 1 else ''}) for "
              f"{report['seconds']:.1f} s: "
              f"{report['actions']} actions ({report['actions_per_s']:.0f}/s), "
              f"latency p50 {report['p50_ms']:.1f} ms, p99 {report['p99_ms']:.1f} ms; "
              f"{stored} actions stored, {report['lost']} lost (target: p99 < 100 ms, none lost)")
    return 0 if report["lost"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
