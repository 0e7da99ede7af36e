"""Load benchmark of the web app: many tables at once through the real WebSocket API.

It starts ``rummykit serve`` (bots moving without delay) on a loopback port with a fresh
SQLite database (or ``--db URL``), creates ``--tables`` tables of two people each, and
plays every seat from this process over its own WebSocket: at each of its turns a seat
sends a random legal action from its view and waits for the view that answers it. The
time from sending an action to receiving the new view is the latency. Every seat connects
first (the time from opening its WebSocket to its first view is reported apart: a rush of
hundreds of connections in one second is not what a table in play meets); all then start
to play, and the measured seconds start after ``--warmup`` seconds of play (by then the
seats, which all started at once, have spread out as people at their tables do).

Each seat thinks before it acts (``--think``, by default the web app's bot delay of 0.6 s,
spread uniformly between half and one and a half times it), as bots at a table do;
``--think 0`` makes a closed loop that measures the server at saturation.

It reports actions per second, the latency's p50 and p99, and checks that nothing was
lost: every acknowledged action is in the database, in order.

With ``--attack``, it measures instead what one greedy client costs everyone else. The
server runs as deployed (bots wait 0.6 s before each move, the master thinks 1 s); a
victim at 127.0.0.1 plays a table against a ``random`` bot and asks for ``/api/stats``
twice a second, while an attacker at 127.0.0.2 (another address on loopback) does one of
the outside probe's attacks:

- ``masters``: 30 tables of one person and five ``master`` bots (``master`` stand-in too,
  ``basic(target=100000)``), each handed to the stand-in (``away``) and left;
- ``replays``: six loops uploading a legal record of about 20,000 steps (398 KiB);
- ``pages``: 45 requests a second for the page of a finished table (``/t/<id>``);
- ``none``: nothing (the baseline).

It reports the victim's bot's move time (from the view before the move to the move's
view, the 0.6 s wait included) and the statistics' answer time, p50 and p95.

Usage::

    .venv/bin/python bench/load.py --tables 200 --seconds 30
    .venv/bin/python bench/load.py --tables 50 --rules classic --json
    .venv/bin/python bench/load.py --think 0 --workers 2 --db postgresql+psycopg://...
    .venv/bin/python bench/load.py --attack masters --seconds 25
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


def seat_socket(base: str, link: str, seed: int, **kwargs: Any) -> Any:
    """A WebSocket to a seat's table: connected, it says hello with the link's token and
    a browser key of its own (``seed`` tells the seats' keys apart)."""
    table_id, token = link.split("/t/")[1].split("?token=")

    class Seat(websockets.connect):  # type: ignore[misc]
        async def __aenter__(self) -> Any:
            ws = await super().__aenter__()
            key = f"load-{seed:06d}-" + "k" * 16
            await ws.send(json.dumps({"type": "hello", "token": token, "key": key}))
            return ws

    return Seat(f"ws://{base}/ws/{table_id}", max_size=2**22,
                origin=f"http://{base}", **kwargs)


class Clock:
    """The measured window: play starts once every seat is connected (the connections'
    own rush is measured apart, as ``connect``); the window opens ``warmup`` seconds later
    (the seats, which all started at once, have spread out by then, as the people at
    tables do) and closes ``seconds`` after that."""

    def __init__(self, seats: int, seconds: float, warmup: float = 0.0) -> None:
        self.waiting = seats
        self.seconds = seconds
        self.warmup = warmup
        self.go = asyncio.Event()
        self.start = self.deadline = 0.0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0 and not self.go.is_set():
            self.start = time.perf_counter() + self.warmup
            self.deadline = self.start + self.seconds
            self.go.set()


async def play_seat(base: str, link: str, clock: Clock, seed: int, think: float,
                    latencies: list[float], acked: list[int],
                    connects: list[float] | None = None) -> None:
    """Connect one seat (the time to its first view goes in ``connects``), wait for the
    clock, then play it until the deadline or the match's end."""
    rng = random.Random(seed)
    # Each seat from its own loopback address, as each person comes from their own
    # (the server holds at most 64 connections per address).
    source = (f"127.1.{seed // 250}.{1 + seed % 250}", 0)
    asked = time.perf_counter()
    try:
        async with seat_socket(base, link, seed, local_addr=source) as ws:
            message = json.loads(await ws.recv())
            while message["type"] != "view":
                message = json.loads(await ws.recv())
            if connects is not None:
                connects.append(time.perf_counter() - asked)
            clock.ready()
            await clock.go.wait()
            await play(ws, message, clock, rng, think, latencies, acked)
    finally:
        clock.ready()  # (a seat that failed to connect holds nobody up)


async def play(ws: Any, message: dict[str, Any], clock: Clock, rng: random.Random,
               think: float, latencies: list[float], acked: list[int]) -> None:
    """Answer each view that gives the seat a move with a random legal action (after
    ``think``), timing each sent in the clock's window from sending it to the view that
    shows it played."""
    deadline = clock.deadline
    sent_at: float | None = None
    sent_seq = seq = 0
    legal: list[str] = []
    while True:
        if message["type"] == "error":
            sent_at = None
            if legal and message.get("code") == "rate":
                # Too fast for the server's limit: try again in a moment.
                await asyncio.sleep(0.1)
                sent_at, sent_seq = time.perf_counter(), seq
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
        elif message["type"] == "view":  # (presence, chat: not an answer)
            view, seq = message["view"], message["table"]["seq"]
            legal = view["legal_actions"]
            if sent_at is not None and seq > sent_seq:
                acked.append(1)
                if sent_at >= clock.start:
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if view["match_over"]:
                return
            if sent_at is None and legal:
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                sent_at, sent_seq = time.perf_counter(), seq
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
        if time.perf_counter() >= deadline:
            return
        try:
            raw = await asyncio.wait_for(
                ws.recv(), timeout=max(deadline - time.perf_counter(), 0.01))
        except TimeoutError:
            return
        message = json.loads(raw)


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
    connects: list[float] = []
    clock = Clock(len(links), args.seconds, args.warmup)
    await asyncio.gather(*(play_seat(base, link, clock, i, args.think, latencies, acked,
                                     connects)
                           for i, link in enumerate(links)))
    elapsed = time.perf_counter() - clock.start

    return {
        "tables": args.tables, "rules": args.rules, "think": args.think, "seconds": elapsed,
        "actions": len(latencies), "actions_per_s": len(latencies) / elapsed,
        "acknowledged": len(acked),
        "p50_ms": pct(latencies, 0.50), "p99_ms": pct(latencies, 0.99),
        "mean_ms": 1000 * statistics.mean(latencies) if latencies else 0,
        "connected": len(connects), "connect_p50_ms": pct(connects, 0.50),
        "connect_p99_ms": pct(connects, 0.99),
    }


ATTACKER = "127.0.0.2"
"""The attacker's address (the victim is 127.0.0.1): the server tells them apart."""


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile of ``values``, in milliseconds (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def long_record() -> bytes:
    """A legal record of about 20,000 steps (two players' random moves, one long match)."""
    from rummykit import record as records
    from rummykit.engine.match import Match
    from rummykit.rules import Rules

    match = Match(Rules.parse("basic(target=100000)"), players=["A", "B"], seed=1)
    rng = random.Random(1)
    steps = 1
    while not match.is_over and steps < 19_900:
        deals = len(match.finished)
        match.apply(rng.choice(match.deal.legal_actions()))
        steps += 1 + (len(match.finished) != deals)
    return records.dumps(records.from_match(match)).encode()


async def victim(base: str, deadline: float, moves: list[float]) -> None:
    """A person against a random bot: plays random legal moves (0.3 s to think) and
    times each of the bot's moves."""
    import httpx

    rng = random.Random(7)
    async with httpx.AsyncClient() as client:
        made = (await client.post(f"http://{base}/api/tables", json={
            "rules": "classic", "seats": [{"kind": "person", "name": "Vic"},
                                          {"kind": "bot", "name": "Rob", "level": "random"}]},
            timeout=60)).json()
    link = made["seats"][0]["link"]
    async with seat_socket(base, link, 999_999) as ws:
        bots_turn = False
        last = time.perf_counter()
        while time.perf_counter() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(deadline - time.perf_counter(),
                                                            0.01))
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] != "view":
                continue
            now = time.perf_counter()
            if bots_turn:
                moves.append(now - last)
            last = now
            view = message["view"]
            if view["match_over"]:
                return
            bots_turn = not view["legal_actions"]
            if not bots_turn:
                await asyncio.sleep(0.3)
                await ws.send(json.dumps({"type": "action",
                                          "action": rng.choice(view["legal_actions"])}))


async def reader(base: str, deadline: float, reads: list[float]) -> None:
    """The victim's page asks for the statistics twice a second."""
    import httpx

    async with httpx.AsyncClient() as client:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            answer = await client.get(f"http://{base}/api/stats", timeout=60)
            answer.raise_for_status()
            reads.append(time.perf_counter() - started)
            await asyncio.sleep(0.5)


async def finished_table(base: str) -> str:
    """A table of two people played to its end (random moves, about 800 actions): its
    id."""
    import httpx

    async with httpx.AsyncClient(timeout=120) as client:
        made = (await client.post(f"http://{base}/api/tables", json={
            "rules": "classic", "seats": [{"kind": "person", "name": "A"},
                                          {"kind": "person", "name": "B"}]})).json()
    links = [s["link"] for s in made["seats"]]
    clock = Clock(len(links), 300)
    await asyncio.gather(*(play_seat(base, link, clock, i, 0.0, [], [])
                           for i, link in enumerate(links)))
    table_id: str = made["id"]
    return table_id


async def attack(kind: str, base: str, deadline: float, done: dict[str, int],
                 finished: str | None) -> None:
    """One of the probe's attacks from the attacker's address until the deadline."""
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(transport=transport, timeout=120) as client:
        if kind == "masters":
            master = {"kind": "bot", "name": "M", "level": "master"}
            for _ in range(30):
                made = await client.post(f"http://{base}/api/tables", json={
                    "rules": "basic(target=100000)", "standin": "master",
                    "seats": [{"kind": "person", "name": "P"},
                              *[master | {"name": f"M{i}"} for i in range(5)]]})
                if made.status_code != 200:
                    done["refused"] = done.get("refused", 0) + 1
                    continue
                link = made.json()["seats"][0]["link"]
                async with seat_socket(base, link, done.get("tables", 0),
                                       local_addr=(ATTACKER, 0)) as ws:
                    await ws.recv()
                    await ws.send(json.dumps({"type": "away"}))
                    await asyncio.sleep(0.1)
                done["tables"] = done.get("tables", 0) + 1
            await asyncio.sleep(max(0.0, deadline - time.perf_counter()))
        elif kind == "replays":
            body = await asyncio.to_thread(long_record)

            async def upload_loop() -> None:
                while time.perf_counter() < deadline:
                    answer = await client.post(f"http://{base}/api/replay", content=body)
                    done[str(answer.status_code)] = done.get(str(answer.status_code), 0) + 1

            await asyncio.gather(*(upload_loop() for _ in range(6)))
        elif kind == "pages":
            page = f"http://{base}/t/{finished}"

            async def one() -> None:
                answer = await client.get(page)
                done[str(answer.status_code)] = done.get(str(answer.status_code), 0) + 1

            asked: set[asyncio.Task[None]] = set()
            while time.perf_counter() < deadline:
                task = asyncio.ensure_future(one())
                asked.add(task)
                task.add_done_callback(asked.discard)
                await asyncio.sleep(1 / 45)
            for task in list(asked):
                task.cancel()


async def run_attack(args: argparse.Namespace, base: str) -> dict[str, Any]:
    moves: list[float] = []
    reads: list[float] = []
    done: dict[str, int] = {}
    finished = await finished_table(base) if args.attack == "pages" else None
    deadline = time.perf_counter() + args.seconds
    jobs = [victim(base, deadline, moves), reader(base, deadline, reads)]
    if args.attack != "none":
        jobs.append(attack(args.attack, base, deadline, done, finished))
    await asyncio.gather(*jobs)
    return {"attack": args.attack, "seconds": args.seconds, "attacker": done,
            "bot_moves": len(moves), "bot_p50_ms": pct(moves, 0.5),
            "bot_p95_ms": pct(moves, 0.95), "stats_reads": len(reads),
            "stats_p50_ms": pct(reads, 0.5), "stats_p95_ms": pct(reads, 0.95)}


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
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before the measured seconds (default 5)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--think", type=float, default=0.6,
                        help="mean seconds a seat waits before it acts, like the app's bots "
                        "(0: act at once, a closed loop that measures saturation)")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (more than one needs --db postgresql+psycopg:"
                        "//...)")
    parser.add_argument("--attack", choices=["none", "masters", "replays", "pages"],
                        help="measure a victim's bot and reads while one client attacks "
                        "(see above) instead of many tables' actions")
    parser.add_argument("--deflate", action="store_true",
                        help="the server offers WebSocket compression (serve --ws-deflate)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.workers > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--workers above 1 needs --db postgresql+psycopg://...")
    workdir = Path(tempfile.mkdtemp(prefix="rummykit-load-"))
    db_url = args.db or f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    log = (workdir / "server.log").open("w")
    served = (["--bot-delay", "0.6"] if args.attack else
              ["--bot-delay", "0", "--tables-per-client", "100000"])
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--port", str(port), "--db", db_url,
         *served, "--workers", str(args.workers), *(["--ws-deflate"] if args.deflate else [])],
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
        if args.attack:
            attacked = asyncio.run(run_attack(args, base))
            load = os.getloadavg()[0]
        else:
            report = asyncio.run(run(args, base))
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    if args.attack:
        attacked["load_1min"] = load
        if args.json:
            print(json.dumps(attacked))
        else:
            print(f"attack {args.attack} for {args.seconds:.0f} s (attacker: "
                  f"{attacked['attacker']}): victim's bot {attacked['bot_moves']} moves, "
                  f"p50 {attacked['bot_p50_ms']:.0f} ms, p95 {attacked['bot_p95_ms']:.0f} ms; "
                  f"/api/stats {attacked['stats_reads']} reads, p50 "
                  f"{attacked['stats_p50_ms']:.0f} ms, p95 {attacked['stats_p95_ms']:.0f} ms "
                  f"(machine load {load:.1f}; targets: bot p95 < 1500 ms, reads < 250 ms)")
        return 0
    stored = stored_actions(db_url)
    report["stored_actions"] = stored
    report["lost"] = max(0, report["acknowledged"] - stored)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['tables']} tables of {report['rules']} (think {args.think} s, "
              f"{'compressed, ' if args.deflate else ''}"
              f"{args.workers} server process{'es' if args.workers > 1 else ''}) for "
              f"{report['seconds']:.1f} s: "
              f"{report['actions']} actions ({report['actions_per_s']:.0f}/s), "
              f"latency p50 {report['p50_ms']:.1f} ms, p99 {report['p99_ms']:.1f} ms "
              f"({report['connected']} seats connected first: p50 "
              f"{report['connect_p50_ms']:.0f} ms, p99 {report['connect_p99_ms']:.0f} ms); "
              f"{report['acknowledged']} acknowledged in all, {stored} stored, "
              f"{report['lost']} lost (target: p99 < 100 ms, none lost)")
    return 0 if report["lost"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
