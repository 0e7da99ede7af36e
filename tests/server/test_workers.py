"""Several server processes on one PostgreSQL database.

Each test starts real server processes (two apps made with ``shared=True`` on their own
ports, so a test chooses which process each person reaches, or ``rummykit serve
--workers 2`` on one port) and plays over real WebSockets. What must hold: a person
hears every action played through another process, as their own seat's view; presence,
chat and spectators reach across; the database holds each action once, in order; and a
process killed mid-match loses nothing (its people reconnect to another process and go
on).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from rummykit import record as records
from rummykit.engine import Match
from rummykit.rules import Rules

from ._support import ActionLog, Shadow, bot, hello, person, who

RULES = "one-deal"
HEARTBEAT_HERE = 0.5
"""The test servers' heartbeat: a silent process counts as gone after three of them."""
SEED = 11
KEYS = ["A" * 20 + "ann-key-0", "B" * 20 + "bob-key-1"]

SERVER = """
import sys, uvicorn
from rummykit.server.app import create_app
app = create_app(sys.argv[1], shared=True, bot_delay=0.05, allow_seed=True,
                 heartbeat=float(sys.argv[3]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server process stopped"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=2).is_success:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


@contextmanager
def servers(url: str, tmp_path: Path, count: int = 2) -> Iterator[list[Any]]:
    """``count`` server processes on the database at ``url``, each on its own port: a
    list of [port, process] (a test may kill one and start another in its place)."""
    started: list[Any] = []
    try:
        for i in range(count):
            started.append(start_server(url, tmp_path, i))
        yield started
    finally:
        for _, process in started:
            if process.poll() is None:
                process.terminate()
                process.wait(20)


def start_server(url: str, tmp_path: Path, n: int) -> list[Any]:
    port = free_port()
    log = (tmp_path / f"server-{n}-{port}.log").open("wb")
    process = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port), str(HEARTBEAT_HERE)],
                               stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    wait_up(port, process)
    return [port, process]


class Seat:
    """One person's WebSocket to one server process."""

    def __init__(self, port: int, table_id: str, greeting: dict[str, Any] | None,
                 seat: int | None) -> None:
        """``greeting``: the seat's hello; None for a spectator (``?watch=1``)."""
        self.seat = seat
        self.ws: ClientConnection = ws_connect(  # (closed by the test)
            f"ws://127.0.0.1:{port}/ws/{table_id}" + ("?watch=1" if greeting is None else ""),
            origin=f"http://127.0.0.1:{port}")  # type: ignore[arg-type]
        if greeting is not None:
            self.send(greeting)
        self.presence: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.connected: list[bool] = []
        """Whether each seat's person is connected, as last heard (a view or presence)."""

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 15.0) -> dict[str, Any]:
        while True:
            data: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            if data["type"] == "view":
                self.connected = [s["connected"] for s in data["table"]["seats"]]
            if data["type"] == "presence":
                self.presence.append(data)
                self.connected = [s["connected"] for s in data["seats"]]
            elif data["type"] == "chat":
                self.chat.append(data)
            elif data["type"] != "chat-log":
                return data

    def until(self, done: Callable[[dict[str, Any]], bool],
              timeout: float = 20.0) -> dict[str, Any]:
        """Read until a view satisfies ``done``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.recv(max(0.1, deadline - time.monotonic()))
            assert message["type"] in ("view", "error"), message
            if message["type"] == "view" and done(message):
                return message
        raise AssertionError("no such view came")

    def hears(self, done: Callable[[], bool], timeout: float = 15.0) -> None:
        """Read until ``done()`` (of what was heard: presence, chat) holds."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, "it never came"
            with contextlib.suppress(TimeoutError):
                self.recv(timeout=0.2)

    def close(self) -> None:
        self.ws.close()


def make_table(port: int, seats: list[dict[str, Any]], *, public: bool = False,
               key: str | None = None) -> tuple[str, list[str | None]]:
    """A table made on the process at ``port``: its id and each seat's token."""
    body: dict[str, Any] = {"rules": RULES, "seats": seats, "seed": SEED, "public": public}
    if key is not None:
        body["key"] = key
    answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    tokens = [s["link"].split("token=", 1)[1] if s["link"] else None for s in data["seats"]]
    return data["id"], tokens


def stored_rows(url: str, table_id: str) -> list[tuple[int, int, str]]:
    """The table's stored actions: (number, seat, text), in order."""
    stored = ActionLog(url)
    try:
        return stored.rows(table_id)
    finally:
        stored.close()


def plays_to_the_end(rows: list[tuple[int, int, str]], names: list[str]) -> bool:
    """Whether the stored actions, numbered 1, 2, ... without a gap, are each legal in turn
    (none stored twice) and end the match."""
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
    replay = Match(Rules.parse(RULES), players=names, seed=SEED)
    for _, _, text in rows:
        replay.apply(text)
    return replay.is_over


def at(seq: int) -> Callable[[dict[str, Any]], bool]:
    return lambda message: bool(message["table"]["seq"] >= seq)


def test_several_processes_need_postgresql(tmp_path: Path) -> None:
    """SQLite cannot tell one process what another did: refused, before anything starts."""
    from rummykit.server.app import create_app

    with pytest.raises(ValueError, match="PostgreSQL"):
        create_app(f"sqlite:///{tmp_path / 'one.db'}", shared=True)
    done = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "serve", "--workers", "2", "--port",
         str(free_port()), "--db", f"sqlite:///{tmp_path / 'two.db'}"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "needs a PostgreSQL database" in done.stderr and "Traceback" not in done.stderr
    bad = subprocess.run([sys.executable, "-m", "rummykit.cli", "serve", "--workers", "0"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert bad.returncode == 2 and "--workers is 1 to 64" in bad.stderr


def test_two_processes_play_one_match(postgres_db_url: str, tmp_path: Path) -> None:
    """Ann plays through one process and Bob through another: each hears every action as
    their own seat's view (the engine's view of the same game, replayed here), sees the
    other connected, hears the other's chat; the database holds each action once, in
    order, and the finished match's record replays to the same game."""
    with servers(postgres_db_url, tmp_path) as [(a, _), (b, _)]:
        table_id, tokens = make_table(a, [person("Ann"), person("Bob")])
        ann = Seat(a, table_id, hello(tokens[0], KEYS[0]), 0)
        ann.until(at(0))
        bob = Seat(b, table_id, hello(tokens[1], KEYS[1]), 1)
        bob.until(lambda m: m["table"]["status"] == "playing")
        # Presence crosses: each sees the other connected (through the other process).
        ann.hears(lambda: ann.connected[1])
        bob.hears(lambda: bob.connected[0])
        ann.send({"type": "chat", "text": "hello from the first process"})
        bob.hears(lambda: bool(bob.chat))
        assert bob.chat[0]["text"] == "hello from the first process"
        assert bob.chat[0]["name"] == "Ann"

        shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
        people = {0: ann, 1: bob}
        rng = random.Random(SEED)
        last: dict[int, dict[str, Any]] = {}
        while not shadow.match.is_over:
            mover = shadow.deal.to_move
            text = shadow.choose(mover, rng)
            people[mover].send({"type": "action", "action": text})
            shadow.apply(text)
            for seat, conn in people.items():
                last[seat] = conn.until(at(shadow.seq))
                assert last[seat]["table"]["seq"] == shadow.seq
                assert last[seat]["view"] == shadow.view_json(seat)
        assert shadow.seq > 10
        for seat, conn in people.items():
            if last[seat]["table"]["status"] != "finished":
                last[seat] = conn.until(lambda m: m["table"]["status"] == "finished")
            assert last[seat]["view"] == shadow.view_json(seat)
            conn.close()
        rows = stored_rows(postgres_db_url, table_id)
        assert [seq for seq, _, _ in rows] == list(range(1, shadow.seq + 1))
        assert [text for _, _, text in rows] == shadow.applied
        record = httpx.get(f"http://127.0.0.1:{b}/api/tables/{table_id}/record", timeout=10)
        assert record.status_code == 200, record.text
        replayed = records.replay(records.loads(record.text))
        assert replayed.match.is_over and not replayed.mid_deal
        assert replayed.match.totals == shadow.match.totals


def test_a_table_made_through_one_process_is_in_every_lobby(postgres_db_url: str,
                                                           tmp_path: Path) -> None:
    """An open table made through one process is listed, with its free seat, by the
    other's lobby at once (before anyone joins), and a seat taken there is taken."""
    with servers(postgres_db_url, tmp_path) as [(a, _), (b, _)]:
        table_id, _ = make_table(a, [person("Ann"), person("Bob")], public=True,
                                 key=KEYS[0])
        deadline = time.monotonic() + 10
        while True:
            lobby = httpx.get(f"http://127.0.0.1:{b}/api/lobby", timeout=5).json()
            listed = [t for t in lobby["tables"] if t["id"] == table_id]
            if listed:
                break
            assert time.monotonic() < deadline, "the other process never listed the table"
            time.sleep(0.1)
        assert [s["free"] for s in listed[0]["seats"]] == [False, True]
        taken = httpx.post(f"http://127.0.0.1:{b}/api/tables/{table_id}/seats/1/take",
                           json={"key": KEYS[1], "name": "Bea"}, timeout=5)
        assert taken.status_code == 200, taken.text
        deadline = time.monotonic() + 10
        while True:
            lobby = httpx.get(f"http://127.0.0.1:{a}/api/lobby", timeout=5).json()
            seats = next(t for t in lobby["tables"] if t["id"] == table_id)["seats"]
            if not seats[1]["free"]:
                break
            assert time.monotonic() < deadline, "the first process never saw the seat taken"
            time.sleep(0.1)
        assert seats[1]["name"] == "Bea"


def test_bots_and_spectators_across_processes(postgres_db_url: str, tmp_path: Path) -> None:
    """Ann plays through one process against two bots; a spectator watches through the
    other. Both processes hold the table and may both try the bots' moves: the database
    keeps each action once, in order, and the spectator sees the game to its end."""
    with servers(postgres_db_url, tmp_path) as [(a, _), (b, _)]:
        seats = [person("Ann"), bot("Cy", "greedy"), bot("Di", "greedy")]
        table_id, tokens = make_table(a, seats)
        spectator = Seat(b, table_id, None, None)
        ann = Seat(a, table_id, hello(tokens[0], KEYS[0]), 0)
        shadow = Shadow(RULES, ["Ann", "Cy", "Di"], SEED)
        rng = random.Random(SEED)
        message = ann.until(at(0))
        while message["table"]["status"] != "finished":
            if message["view"]["to_move"] == 0 and message["view"]["legal_actions"]:
                while shadow.seq < message["table"]["seq"]:
                    shadow.follow(message)
                text = shadow.choose(0, rng)
                ann.send({"type": "action", "action": text})
                seq = message["table"]["seq"] + 1
                message = ann.until(at(seq))
            else:
                message = ann.recv()
                assert message["type"] == "view", message
        public = spectator.until(lambda m: m["table"]["status"] == "finished")
        assert public["table"]["seq"] == message["table"]["seq"]
        rows = stored_rows(postgres_db_url, table_id)
        assert plays_to_the_end(rows, ["Ann", "Cy", "Di"])
        ann.close()
        spectator.close()


@pytest.mark.long
def test_a_process_killed_mid_match_loses_nothing(postgres_db_url: str,
                                                  tmp_path: Path) -> None:
    """Bob's process is killed (SIGKILL) in the middle of the match: Ann sees him gone
    once his process is silent, every action that was acknowledged is in the database,
    Bob reconnects to the other process with his
    browser's key and goes on from the same position, and the match ends with every
    action stored once; a process started afterwards serves the finished table."""
    with servers(postgres_db_url, tmp_path) as started:
        (a, _), (b, victim) = started
        table_id, tokens = make_table(a, [person("Ann"), person("Bob")])
        ann = Seat(a, table_id, hello(tokens[0], KEYS[0]), 0)
        bob = Seat(b, table_id, hello(tokens[1], KEYS[1]), 1)
        people = {0: ann, 1: bob}
        for conn in people.values():
            conn.until(lambda m: m["table"]["status"] == "playing")
        shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
        rng = random.Random(SEED + 1)

        def play(moves: int) -> None:
            for _ in range(moves):
                if shadow.match.is_over:
                    return
                mover = shadow.deal.to_move
                text = shadow.choose(mover, rng)
                people[mover].send({"type": "action", "action": text})
                shadow.apply(text)
                for seat, conn in people.items():
                    assert conn.until(at(shadow.seq))["view"] == shadow.view_json(seat)

        play(9)
        ann.hears(lambda: ann.connected[1])
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(10)
        # Bob's process no longer says it lives: Ann sees him gone.
        ann.hears(lambda: not ann.connected[1], timeout=HEARTBEAT_HERE * 4 + 10)
        stored = ActionLog(postgres_db_url)
        try:
            assert [text for _, _, text in stored.rows(table_id)] == shadow.applied
            bob = people[1] = Seat(a, table_id, hello(key=KEYS[1], seat=1), 1)
            assert bob.until(at(shadow.seq))["view"] == shadow.view_json(1)
            play(10_000)
            assert shadow.match.is_over
            rows = stored.rows(table_id)
        finally:
            stored.close()
        assert [seq for seq, _, _ in rows] == list(range(1, shadow.seq + 1))
        assert [text for _, _, text in rows] == shadow.applied
        port, _ = started[1] = start_server(postgres_db_url, tmp_path, 9)
        state = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}",
                          params={"seat": 0}, headers=who(key=KEYS[0]), timeout=10).json()
        assert state["table"]["status"] == "finished"
        assert state["table"]["seq"] == shadow.seq
        for conn in people.values():
            conn.close()


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_serve_workers_restarts_a_killed_worker(postgres_db_url: str, tmp_path: Path) -> None:
    """``rummykit serve --workers 2``: two processes on one port. Ann plays against a bot
    through whichever process the kernel hands her connection; one worker is killed in
    the middle of the match and started again by the server, Ann reconnects and finishes,
    every action stored once; Ctrl-C stops every process."""
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--workers", "2", "--port", str(port),
         "--db", postgres_db_url, "--bot-delay", "0.05", "--allow-seed"],
        stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)

    def workers() -> list[int]:
        found = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True,
                               text=True).stdout.split()
        # (not the resource tracker that multiprocessing starts beside them)
        return [int(pid) for pid in found if b"spawn_main" in _cmdline(int(pid))]

    try:
        wait_up(port, server)
        deadline = time.monotonic() + 30
        while len(workers()) < 2:
            assert time.monotonic() < deadline, "two workers never ran"
            time.sleep(0.2)
        table_id, tokens = make_table(port, [person("Ann"), bot("Cy", "greedy")])
        shadow = Shadow(RULES, ["Ann", "Cy"], SEED)
        rng = random.Random(SEED)
        ann = Seat(port, table_id, hello(tokens[0], KEYS[0]), 0)
        message = ann.until(at(0))
        killed = False
        while message["table"]["status"] != "finished":
            if not killed and message["table"]["seq"] >= 8:
                os.kill(workers()[0], signal.SIGKILL)
                killed = True
                ann.close()
                time.sleep(0.5)
                wait_up(port, server)
                ann = Seat(port, table_id, hello(key=KEYS[0], seat=0), 0)
                message = ann.until(at(message["table"]["seq"]))
                continue
            if message["view"]["to_move"] == 0 and message["view"]["legal_actions"]:
                while shadow.seq < message["table"]["seq"]:
                    shadow.follow(message)
                ann.send({"type": "action", "action": shadow.choose(0, rng)})
                message = ann.until(at(message["table"]["seq"] + 1))
            else:
                message = ann.recv()
                assert message["type"] == "view", message
        assert killed
        ann.close()
        rows = stored_rows(postgres_db_url, table_id)
        assert plays_to_the_end(rows, ["Ann", "Cy"])
        deadline = time.monotonic() + 30
        while len(workers()) < 2:
            assert time.monotonic() < deadline, "the killed worker was not started again"
            time.sleep(0.2)
        before = workers()
        server.send_signal(signal.SIGINT)
        assert server.wait(30) == 0
        for pid in before:
            assert not running(pid), f"worker {pid} still runs"
    finally:
        left = workers()
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        log.close()
    text = (tmp_path / "serve.log").read_text(errors="replace")
    assert "starting another" in text and "Traceback" not in text


def test_workers_stop_when_the_server_is_killed(postgres_db_url: str, tmp_path: Path) -> None:
    """A server killed outright (SIGKILL, no chance to stop its workers) leaves no worker
    serving on its own: each notices and stops within seconds."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--workers", "2", "--port", str(port),
         "--db", postgres_db_url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=tmp_path)
    try:
        wait_up(port, server)
        found = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True,
                               text=True).stdout.split()
        children = [int(pid) for pid in found if b"spawn_main" in _cmdline(int(pid))]
        assert len(children) == 2
    finally:
        server.kill()
        server.wait(10)
    deadline = time.monotonic() + 15
    while any(running(pid) for pid in children):
        assert time.monotonic() < deadline, "a worker goes on serving without its server"
        time.sleep(0.2)
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=2)


@pytest.mark.long
def test_a_rated_match_across_two_processes_is_rated_once(postgres_db_url: str,
                                                          tmp_path: Path) -> None:
    """Ratings (issue: ratings and leaderboards, "several server processes rate a match
    once"): Ann plays a rated table through one process and Bob through another, each by
    their own seat's view (a rated table is shuffled by the server: nobody here knows the
    deal). The match is stored once and rated once, and both processes say the same
    changes."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from rummykit.db import connect
    from rummykit.db.models import GameRow, RatingChangeRow, RatingRow, TableRow

    with servers(postgres_db_url, tmp_path) as [(a, _), (b, _)]:
        made = httpx.post(f"http://127.0.0.1:{a}/api/tables", json={
            "rules": RULES, "seats": [person("Ann"), person("Bob")], "rated": True},
            timeout=10)
        assert made.status_code == 200, made.text
        table_id = made.json()["id"]
        tokens = [s["link"].split("token=", 1)[1] for s in made.json()["seats"]]
        people = [Seat(a, table_id, hello(tokens[0], KEYS[0]), 0),
                  Seat(b, table_id, hello(tokens[1], KEYS[1]), 1)]
        last = [p.until(lambda m: m["table"]["status"] == "playing") for p in people]
        rng = random.Random(5)
        while not last[0]["view"]["match_over"]:
            seq = last[0]["table"]["seq"]
            mover = last[0]["view"]["to_move"]
            legal = last[mover]["view"]["legal_actions"]
            going = [x for x in legal if x.startswith(("meld", "layoff"))] or legal
            time.sleep(0.02)
            people[mover].send({"type": "action", "action": rng.choice(going)})
            last = [p.until(at(seq + 1)) for p in people]
        for p in people:
            p.close()
        said = []
        for port in (a, b):
            deadline = time.monotonic() + 20
            while True:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/ratings",
                                   timeout=10).json()
                if answer["changes"] or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            said.append(answer)
        assert said[0] == said[1] and said[0]["rated"] and len(said[0]["changes"]) == 2
    engine = connect(postgres_db_url)
    try:
        with Session(engine) as session:
            row = session.get(TableRow, table_id)
            assert row is not None and row.status == "finished" and row.game_id is not None
            assert session.scalar(select(func.count()).select_from(GameRow)) == 1
            assert session.scalar(select(func.count()).select_from(RatingChangeRow)) == 2
            assert sorted(session.scalars(select(RatingRow.matches))) == [1, 1]
    finally:
        engine.dispose()
