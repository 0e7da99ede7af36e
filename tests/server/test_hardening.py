"""The web server under faults and odd input (on SQLite and on PostgreSQL): a crash in the
wrong place leaves no table stuck, odd input gets a 4xx with a message, the pages carry
security headers, and bots draw their randomness from a secret.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from rummykit.db import connect
from rummykit.db.models import GameRow, SeatRow, TableRow

from ._support import Shadow, hello, run_async, seat_socket, who
from .test_api import TWO, app_client, create, play_to_the_end, seated

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

RULES = "one-deal"


@pytest.mark.postgresql
def test_a_crash_before_the_bookkeeping_leaves_no_table_playing(db_url: str) -> None:
    """The server stops between a match's last action (stored) and its bookkeeping (the
    table marked finished, the game in the statistics): on the next start the replayed
    game says the match is over, so the table is finished, its record and rematch work,
    and the game is counted once."""
    with app_client(db_url) as client:
        table_id, tokens, _ = play_to_the_end(client, 25)
    # Undo the bookkeeping, as if the server had stopped just before it.
    engine = connect(db_url)
    with Session(engine) as session:
        session.execute(update(TableRow).where(TableRow.id == table_id)
                        .values(status="playing", game_id=None))
        session.execute(delete(SeatRow))
        session.execute(delete(GameRow))
        session.commit()
    with app_client(db_url) as client:
        state = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
        assert state["table"]["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200
        answer = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
        assert answer.status_code == 200
        stats = client.get("/api/stats").json()["stats"]
        assert sum(line["matches"] for line in stats) == 2  # Ann's and Bob's line, once
    with Session(engine) as session:
        assert session.scalars(select(TableRow.status).where(TableRow.id == table_id)
                               ).one() == "finished"
        assert len(session.scalars(select(GameRow)).all()) == 1
    engine.dispose()
    # A third start finds nothing to do.
    with app_client(db_url) as client:
        assert client.get("/api/stats").json()["stats"] == stats


def test_bots_draw_their_randomness_from_the_tables_secret(db_url: str) -> None:
    """A bot's generator depends on the table's secret seed (which no player sees), not
    only on the public table id and move number: two tables that differ only in their
    seed give their bots other numbers, the same seed the same numbers."""
    from rummykit.server.hub import Hub

    with app_client(db_url) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        table_id, _ = create(client, [{"kind": "person", "name": "Ann"},
                                      {"kind": "bot", "name": "Bob", "level": "random"}],
                             seed=11)
        table = hub.tables[table_id]
        first, second = hub.bot_rng(table, 1), hub.bot_rng(table, 1)
        ours = [first.random() for _ in range(3)]
        assert ours == [second.random() for _ in range(3)]
        public = random.Random(f"rummykit/web/{table.id}/1/{table.seq}")
        assert hub.bot_rng(table, 1).random() != public.random()
        table.seed += 1
        assert hub.bot_rng(table, 1).random() != ours[0]


# -- headers, API pages, origins -----------------------------------------------------------


def test_every_response_carries_the_security_headers(db_url: str) -> None:
    """Pages and API answers forbid inline script, framing by other sites, type sniffing
    and Referer headers (seat links carry their token); the OpenAPI pages are off."""
    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        for path in ("/", "/rules", f"/t/{table_id}?token={tokens[0]}", "/api/presets",
                     "/static/table.js", "/no-such-page"):
            answer = client.get(path)
            csp = answer.headers["content-security-policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
            assert "frame-ancestors 'none'" in csp, path
            assert answer.headers["x-content-type-options"] == "nosniff", path
            assert answer.headers["referrer-policy"] == "no-referrer", path
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert client.get(path).status_code == 404, path


def test_the_api_pages_when_asked_for(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    with TestClient(create_app(db_url, api_docs=True)) as client:
        assert client.get("/openapi.json").status_code == 200
        assert client.get("/docs").status_code == 200


def test_a_websocket_from_another_sites_page_is_refused(db_url: str) -> None:
    """A browser says which page opened a WebSocket (Origin): another site's page is
    refused even with a good token; the app's own pages (and clients that are not
    browsers, which send no Origin) are served."""
    from starlette.websockets import WebSocketDisconnect

    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        with seat_socket(client, table_id, tokens[0],
                         headers={"origin": "https://evil.example"}) as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and "another site" in message["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        with seat_socket(client, table_id, tokens[0],
                         headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "view"


# -- odd messages, a database that does not answer -------------------------------------------


def test_deeply_nested_json_gets_an_error_and_a_proper_close(db_url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        with seat_socket(client, table_id, tokens[0]) as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_text("[" * 1000 + "]" * 1000)
            message = ws.receive_json()
            while message["type"] in ("view", "presence"):  # who is here is heard too
                message = ws.receive_json()
            assert message["type"] == "error" and message["code"] == "too-deep"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        # Nesting that Python reads is an ordinary bad message.
        with seat_socket(client, table_id, tokens[0]) as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_text("[" * 50 + "]" * 50)
            message = ws.receive_json()
            while message["type"] in ("view", "presence"):
                message = ws.receive_json()
            assert "JSON object" in message["message"]


def failing(times: int) -> Any:
    """A stand-in for the hub's action writer that fails ``times`` times as a database
    that does not answer would, then writes."""
    from sqlalchemy.exc import OperationalError

    from rummykit.server.hub import Hub

    real = Hub._save_actions
    left = [times]

    def save(self: Hub, actions: list[tuple[str, int, int, str]]) -> None:
        if left[0] > 0:
            left[0] -= 1
            raise OperationalError("INSERT", {}, Exception("the database is not answering"))
        real(self, actions)

    return save


@pytest.mark.postgresql
def test_an_action_while_the_database_is_down_gets_an_error(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The action is refused with a message (code "storage"), nothing is played, the
    connection stays, and the same action goes through once the database answers."""
    from rummykit.server.hub import Hub

    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        shadow = Shadow(RULES, ["Ann", "Bob"], 3)
        with seated(client, table_id, tokens) as conns:
            mover = conns[shadow.deal.to_move]
            monkeypatch.setattr(Hub, "_save_actions", failing(1))
            mover.act("draw stock")
            error = mover.recv()
            assert error["type"] == "error" and error["code"] == "storage"
            for conn in conns.values():
                conn.quiet(0.1)
            mover.act("draw stock")
            shadow.apply("draw stock")
            for conn in conns.values():
                assert conn.view()["table"]["seq"] == 1


def test_a_failed_bot_turn_is_tried_again(db_url: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails the bot's move twice: the bot tries again (after a short wait
    that doubles) and the game goes on without a restart."""
    from rummykit.server.hub import Hub

    with app_client(db_url) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.retry_delay = 0.05
        monkeypatch.setattr(Hub, "_save_actions", failing(2))
        # Seat 0 deals in one-deal, so the bot at seat 1 moves first.
        table_id, tokens = create(client, [{"kind": "person", "name": "Ann"},
                                           {"kind": "bot", "name": "Bob", "level": "greedy"}],
                                  seed=3)
        from .test_api import Conn

        with seat_socket(client, table_id, tokens[0]) as ws:
            conn = Conn(ws, 0)
            message = conn.until(lambda m: m["table"]["seq"] >= 1)
            assert message["view"]["history"][0][0] == 1


# -- odd input gets a 4xx ---------------------------------------------------------------------

ODD_NAMES = ["A\x00B", "A\x1b[31mB", "A\u202eB", "A\u200bB", "A\u2028B", "\u200f"]


@pytest.mark.postgresql
@pytest.mark.parametrize("name", ODD_NAMES, ids=["nul", "escape", "bidi-override",
                                                  "zero-width", "line-separator", "rtl-mark"])
def test_names_with_control_or_invisible_characters_are_refused(db_url: str,
                                                                name: str) -> None:
    """NUL (PostgreSQL cannot store it), terminal escapes, zero-width and bidirectional
    characters: 400 with a message naming the seat, and no table is made."""
    with app_client(db_url) as client:
        answer = client.post("/api/tables", json={
            "rules": "classic", "seats": [{"kind": "person", "name": "Ann"},
                                          {"kind": "person", "name": name}]})
        assert answer.status_code == 400, answer.text
        assert "seat 2" in answer.json()["error"]
        assert client.app.state.hub.tables == {}  # type: ignore[attr-defined]
        # Names in any script, with spaces and punctuation, are welcome.
        fine = client.post("/api/tables", json={
            "rules": "classic", "seats": [{"kind": "person", "name": "Вера-Мария O'Neil"},
                                          {"kind": "bot", "name": "Bob", "level": "greedy"}]})
        assert fine.status_code == 200, fine.text


@pytest.mark.postgresql
@pytest.mark.parametrize("query", [{"players": "9" * 30}, {"players": str(2**70)},
                                   {"players": "1"}, {"preset": "a\x00b"},
                                   {"preset": "x" * 5000}, {"preset": "nope"}])
def test_odd_statistics_filters_get_a_4xx(db_url: str, query: dict[str, str]) -> None:
    with app_client(db_url) as client:
        answer = client.get("/api/stats", params=query)
        assert 400 <= answer.status_code < 500, answer.text
        assert answer.json()["error"]


# -- a connection that never reads -----------------------------------------------------------


def test_a_connection_that_never_reads_holds_up_nobody(db_url: str) -> None:
    """Seat 0 has a connection whose sends never finish (its reader stopped) beside a
    working one, seat 1 a working one: every broadcast returns at once and reaches the
    working connections; once the stuck one's outbox is full it is dropped (and only it)."""
    import asyncio

    from rummykit.db import connect
    from rummykit.server.hub import Hub, SeatSpec
    from rummykit.server.outbox import Outbox

    async def scenario() -> None:
        engine = connect(db_url)
        hub = Hub(engine, bot_delay=0.0)
        table = hub.create("one-deal", [SeatSpec("person", "Ann"), SeatSpec("person", "Bob")],
                           seed=5)
        heard: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
        dropped: list[str] = []
        never = asyncio.Event()

        async def hang(message: dict[str, Any]) -> None:
            await never.wait()

        def sink(name: str) -> Any:
            async def send(message: dict[str, Any]) -> None:
                heard[name].append(message)
            return send

        boxes = {"stuck": Outbox(hang, on_stuck=lambda: _note(dropped, "stuck"), size=4),
                 "ann": Outbox(sink("ann"), on_stuck=lambda: _note(dropped, "ann")),
                 "bob": Outbox(sink("bob"), on_stuck=lambda: _note(dropped, "bob"))}
        for box in boxes.values():
            box.start()
        hub.connect(table, 0, boxes["stuck"].put)
        hub.connect(table, 0, boxes["ann"].put)
        hub.connect(table, 1, boxes["bob"].put)
        loop = asyncio.get_running_loop()
        for _ in range(8):
            started = loop.time()
            await hub.broadcast(table)
            assert loop.time() - started < 0.5
        await asyncio.sleep(0.05)
        assert len(heard["ann"]) == 8 and len(heard["bob"]) == 8
        assert dropped == ["stuck"] and boxes["stuck"].stuck
        for box in boxes.values():
            await box.close()
        await hub.shutdown()
        engine.dispose()

    run_async(scenario())


async def _note(into: list[str], name: str) -> None:
    into.append(name)


def test_a_send_that_does_not_finish_in_time_drops_the_connection() -> None:
    import asyncio

    from rummykit.server.outbox import Outbox

    async def scenario() -> None:
        dropped: list[str] = []

        async def slow(message: dict[str, Any]) -> None:
            await asyncio.sleep(10)

        box = Outbox(slow, on_stuck=lambda: _note(dropped, "slow"), timeout=0.1)
        box.start()
        await box.put({"type": "view"})
        await asyncio.sleep(0.3)
        assert dropped == ["slow"]
        await box.close()

    run_async(scenario())


def test_a_seat_has_at_most_four_connections(db_url: str) -> None:
    from contextlib import ExitStack

    from starlette.websockets import WebSocketDisconnect

    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        with ExitStack() as stack:
            for _ in range(4):
                ws = stack.enter_context(seat_socket(client, table_id, tokens[0]))
                assert ws.receive_json()["type"] == "view"
            with seat_socket(client, table_id, tokens[0]) as fifth:
                message = fifth.receive_json()
                while message["type"] == "view":
                    message = fifth.receive_json()
                assert message["code"] == "too-many-connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    fifth.receive_json()
                assert closed.value.code == 4429


# -- limits ------------------------------------------------------------------------------------


def test_a_huge_body_is_refused_before_it_is_read(db_url: str) -> None:
    """A body over the limit is answered 413 from its declared length, and a body that
    streams in without one (chunked) is cut off as soon as it passes the limit: the app
    is called as the server calls it, and of a 400 MiB upload it reads only the first
    few MiB."""

    from rummykit.server.app import MAX_BODY, MAX_RECORD, create_app

    with app_client(db_url) as client:
        answer = client.post("/api/tables", content=b"x" * (MAX_BODY + 1),
                             headers={"content-type": "application/json"})
        assert answer.status_code == 413 and "too large" in answer.json()["error"]
        # Chunked (no declared length) to a route that parses its JSON body: 413 too.
        streamed = client.post("/api/tables", content=(b"x" * 10_000 for _ in range(100)),
                               headers={"content-type": "application/json"})
        assert streamed.status_code == 413 and "too large" in streamed.json()["error"]
        served = client.post("/api/tables", json={"rules": "classic", "seats": TWO})
        assert served.status_code == 200

    async def upload() -> tuple[int, list[dict[str, Any]]]:
        app = create_app(db_url)
        read = 0
        answered: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            nonlocal read
            read += 1
            return {"type": "http.request", "body": b" " * (1 << 20), "more_body": read < 400}

        async def send(message: dict[str, Any]) -> None:
            answered.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": "/api/replay",
                 "raw_path": b"/api/replay", "root_path": "", "query_string": b"",
                 "headers": [(b"host", b"testserver"),
                             (b"content-type", b"application/json"),
                             (b"transfer-encoding", b"chunked")],
                 "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
        await app(scope, receive, send)
        return read, answered

    read, answered = run_async(upload())
    assert answered[0]["status"] == 413
    assert read <= MAX_RECORD // (1 << 20) + 2, f"read {read} MiB of 400"


def test_table_creation_is_limited_per_client(db_url: str) -> None:
    """One client address opens at most the configured number of tables in ten minutes;
    then 429 with a message, and no table is made."""
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    with TestClient(create_app(db_url, tables_per_client=3)) as client:
        for _ in range(3):
            assert client.post("/api/tables", json={"rules": "classic",
                                                    "seats": TWO}).status_code == 200
        answer = client.post("/api/tables", json={"rules": "classic", "seats": TWO})
        assert answer.status_code == 429 and "try again later" in answer.json()["error"]
        # Three tables in ten minutes: the next one may be made in 200 s.
        assert 190 <= int(answer.headers["retry-after"]) <= 200
        assert len(client.app.state.hub.tables) == 3  # type: ignore[attr-defined]


@pytest.mark.postgresql
def test_rules_too_long_to_store_get_a_4xx(db_url: str) -> None:
    """A rules text within the request's limit whose canonical form outgrows the table's
    column (``1`` is written ``true``; PostgreSQL would refuse to store it): 400 with a
    message, no table."""
    from rummykit.rules import Rules

    text = ("classic(decks=2,jokers=2,hand_size=9,first_dealer=first,next_dealer=winner,"
            "aces=high-low,run_min=4,draw_pile=any,melds_per_turn=many,"
            "taken_discard=last-card,pile_card_must_be_used=1,last_discard=required,"
            "opening=30,stock_out=refill,turn_overs=5,refills=2,repetition=7,"
            "scoring=penalty,ace_points=11,court_points=9,joker_points=20,"
            "rummy_multiplier=3,match_end=elimination,target=150,target_strict=1)")
    assert len(text) <= 400 < len(str(Rules.parse(text)))
    with app_client(db_url) as client:
        answer = client.post("/api/tables", json={"rules": text, "seats": TWO})
        assert answer.status_code == 400, answer.text
        assert "too many options" in answer.json()["error"]
        assert client.app.state.hub.tables == {}  # type: ignore[attr-defined]


def test_lone_surrogates_in_messages_get_an_answer(db_url: str) -> None:
    """A lone surrogate (valid JSON, not valid Unicode text) in an action or a why: the
    seat gets a refusal it can read, and the connection goes on working."""
    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        shadow = Shadow(RULES, ["Ann", "Bob"], 3)
        with seated(client, table_id, tokens) as conns:
            mover = conns[shadow.deal.to_move]
            mover.send('{"type": "why", "action": "discard \\ud800"}')
            answer = mover.recv()
            assert answer["type"] == "why" and answer["legal"] is False
            mover.send('{"type": "action", "action": "meld \\udfff 5H"}')
            assert mover.recv()["type"] == "error"
            mover.act("draw stock")
            assert mover.view()["table"]["seq"] == 1


# -- slow headers ------------------------------------------------------------------------------


def test_slow_headers_are_cut_off_and_tokens_never_logged(tmp_path: Any) -> None:
    """A client that drips its request headers a byte at a time is disconnected once the
    header deadline passes (here 1 s), and so is one that opens and sends nothing; a
    client that sends its headers at once is served, twice on one connection. The
    server's log never shows a seat's token."""
    import json
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'rummykit.db'}", "--header-timeout", "1"],
        stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=2).is_success:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)

        def lasts(drip: bytes) -> float:
            """How long the server keeps a connection that sends ``drip`` slowly."""
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.settimeout(0.3)
                for byte in drip:
                    try:
                        conn.sendall(bytes([byte]))
                        if conn.recv(1024) == b"":
                            break
                    except TimeoutError:
                        continue
                    except OSError:
                        break
                    if time.monotonic() - started > 8:
                        break
            return time.monotonic() - started

        assert lasts(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100) < 4
        with socket.create_connection(("127.0.0.1", port)) as idle:
            idle.settimeout(5)
            started = time.monotonic()
            assert idle.recv(1) == b""  # closed by the server
            assert time.monotonic() - started < 4
        with httpx.Client() as client:
            for _ in range(2):
                assert client.get(f"http://127.0.0.1:{port}/api/presets").is_success
            # Links carry tokens: using them, well or badly, writes none to the log.
            base = f"http://127.0.0.1:{port}"
            made = client.post(f"{base}/api/tables", json={"rules": "classic", "seats": [
                {"kind": "person", "name": "Ann"}, {"kind": "bot", "name": "Bob",
                                                    "level": "greedy"}]}).json()
            link = made["seats"][0]["link"]
            token = link.split("token=", 1)[1]
            assert client.get(base + link).is_success
            assert client.get(f"{base}/api/tables/{made['id']}",
                              headers=who(token)).is_success
            assert client.get(f"{base}/api/tables/{made['id']}",
                              headers=who(token[::-1])).status_code == 403
            # A WebSocket is no request waiting for headers: it outlives the deadline.
            from websockets.sync.client import connect as ws_connect

            with ws_connect(f"ws://127.0.0.1:{port}/ws/{made['id']}") as ws:
                ws.send(json.dumps(hello(token)))
                assert json.loads(ws.recv(timeout=5))["type"] == "view"
                time.sleep(2.5)
                ws.send(json.dumps({"type": "sync"}))
                assert json.loads(ws.recv(timeout=5))["type"] == "view"
    finally:
        server.terminate()
        server.wait(20)
        log.close()
    text = (tmp_path / "server.log").read_text(errors="replace")
    assert token not in text and token[::-1] not in text and "token=" not in text


@pytest.mark.postgresql
@pytest.mark.parametrize("path", ["/api/tables", "/api/replay"])
def test_a_number_too_long_to_read_gets_a_4xx(db_url: str, path: str) -> None:
    """An integer of more digits than Python reads (its limit is 4,300) in a request body:
    a 400 with a message, not a server error."""
    body = ('{"rules": "classic", "seats": [{"kind": "person", "name": "A"}], "seed": '
            + "9" * 5000 + "}")
    with app_client(db_url) as client:
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert answer.json()


@pytest.mark.postgresql
def test_tokens_are_stored_hashed(db_url: str) -> None:
    """The database keeps only each seat's token hash: a copy of it opens no seat (the
    hash itself is refused as a token), while the link's token does."""
    import hashlib

    from rummykit.db.models import TableSeatRow

    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        engine = connect(db_url)
        with Session(engine) as session:
            rows = session.scalars(select(TableSeatRow).where(
                TableSeatRow.table_id == table_id).order_by(TableSeatRow.seat)).all()
            stored = [(row.token, row.token_hash) for row in rows]
        engine.dispose()
        assert stored == [(None, hashlib.sha256(t.encode()).hexdigest()) for t in tokens]
        for token, (_, digest) in zip(tokens, stored, strict=True):
            assert token is not None and token not in str(stored)
            assert client.get(f"/api/tables/{table_id}",
                              headers=who(digest)).status_code == 403
            assert client.get(f"/api/tables/{table_id}",
                              headers=who(token)).status_code == 200


def test_older_tables_keep_working_once_their_tokens_are_hashed(tmp_path: Any) -> None:
    """A database made before tokens were hashed (schema 0003, plain tokens) is upgraded:
    the tokens become hashes and the old links still open their seats."""
    import hashlib

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from rummykit.db import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    raw = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with raw.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
    with raw.begin() as conn:
        conn.execute(text("INSERT INTO tables (id, created_at, rules, seed, status) VALUES "
                          "('abc123', '2026-11-30', 'one-deal', 3, 'waiting')"))
        conn.execute(text("INSERT INTO table_seats (table_id, seat, name, kind, level, token, "
                          "joined) VALUES ('abc123', 0, 'Ann', 'person', NULL, 'plain-token-0', "
                          "0), ('abc123', 1, 'Bob', 'person', NULL, 'plain-token-1', 0)"))
    raw.dispose()
    with app_client(url) as client:  # the app runs the migrations when it starts
        assert client.get("/api/tables/abc123",
                          headers=who("plain-token-1")).json()["view"]["seat"] == 1
    raw = create_engine(url)
    with raw.begin() as conn:
        rows = conn.execute(text("SELECT token, token_hash FROM table_seats ORDER BY seat")
                            ).all()
    raw.dispose()
    assert [tuple(r) for r in rows] == [
        (None, hashlib.sha256(b"plain-token-0").hexdigest()),
        (None, hashlib.sha256(b"plain-token-1").hexdigest())]


@pytest.mark.postgresql
def test_statistics_come_a_page_at_a_time(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """/api/stats answers at most a page of lines with the total; ``offset`` goes on where
    the last page stopped, and a page larger than the limit is a 4xx."""
    from rummykit.engine import DealResult
    from rummykit.rules import preset
    from rummykit.stats import Store

    engine = connect(db_url)
    store = Store(engine=engine)
    for i in range(5):
        store.add_game(rules=preset("classic"), names=[f"P{i}", f"Q{i}"],
                       kinds=["person", "person"], winner=0, finished=True,
                       results=[DealResult(0, False, (10, 0))], totals=[10, 0])
    engine.dispose()
    with app_client(db_url) as client:
        every = client.get("/api/stats").json()
        assert every["total"] == 10 and len(every["stats"]) == 10
        first = client.get("/api/stats", params={"limit": 4}).json()
        rest = client.get("/api/stats", params={"limit": 4, "offset": 4}).json()
        last = client.get("/api/stats", params={"limit": 4, "offset": 8}).json()
        assert first["stats"] + rest["stats"] + last["stats"] == every["stats"]
        assert len(last["stats"]) == 2
        assert client.get("/api/stats", params={"limit": 10_000}).status_code == 422


def test_the_server_holds_a_limited_number_of_open_tables(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummykit.server import app as app_module

    monkeypatch.setattr(app_module, "MAX_OPEN_TABLES", 2)
    with app_client(db_url) as client:
        for _ in range(2):
            assert client.post("/api/tables", json={"rules": "classic",
                                                    "seats": TWO}).status_code == 200
        full = client.post("/api/tables", json={"rules": "classic", "seats": TWO})
        assert full.status_code == 503 and "try again later" in full.json()["error"]


def test_a_replay_upload_with_too_many_steps_is_refused(db_url: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay viewer sends every step of a record with every hand: a record of more
    steps than the viewer shows is refused (400) before any is replayed."""
    from rummykit import record as records
    from rummykit.bots import make_bot
    from rummykit.engine import Match
    from rummykit.engine.views import view
    from rummykit.rules import preset
    from rummykit.server import app as app_module

    match = Match(preset("one-deal"), players=["Ann", "Bob"], seed=4)
    bot, rng = make_bot("greedy"), random.Random(4)
    while not match.is_over:
        match.apply(bot.choose(view(match, match.deal.to_move), rng))
    text = records.dumps(records.from_match(match))
    steps = len(match.finished[0].history) + 1
    monkeypatch.setattr(app_module, "MAX_FRAMES", steps - 1)
    with app_client(db_url) as client:
        answer = client.post("/api/replay", content=text)
        assert answer.status_code == 400
        assert f"that record has {steps} steps" in answer.json()["error"]
        monkeypatch.setattr(app_module, "MAX_FRAMES", steps)
        assert client.post("/api/replay", content=text).status_code == 200


# -- every route limited; finished tables leave memory ---------------------------------


def test_every_http_route_is_rate_limited_per_client(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    with TestClient(create_app(db_url, requests_per_client=(1.0, 5.0))) as client:
        answers = [client.get(path).status_code
                   for path in ("/api/presets", "/", "/static/table.js", "/api/lobby",
                                "/api/stats", "/api/presets", "/rules")]
        assert answers[:5] == [200] * 5
        assert answers[5:] == [429, 429]
        refused = client.get("/api/presets")
        assert refused.json()["code"] == "rate" and refused.headers["retry-after"] == "1"
        # The refusal carries the security headers like any answer.
        assert "content-security-policy" in refused.headers


@pytest.mark.postgresql
def test_a_finished_table_leaves_memory_and_comes_back_on_demand(db_url: str) -> None:
    with app_client(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table_id, tokens, last = play_to_the_end(client, 25)
        assert table_id not in hub.tables  # nobody is connected to it any more
        state = client.get(f"/api/tables/{table_id}", headers=who(tokens[0]))
        assert state.status_code == 200 and state.json()["view"] == last[0]["view"]
        assert table_id not in hub.tables
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200
        assert table_id not in hub.tables
