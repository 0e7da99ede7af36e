"""While the database does not answer (README, "What the server will not do"): every
route answers a JSON 503 with the code ``storage`` and ``Retry-After`` (a page route, a
short page), nothing is changed, and everything works again once the database answers;
a database restart costs no request an error (pooled connections are tested first).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from ._support import person, seat_socket, who
from .test_api import TWO, Conn, app_client, create, play_to_the_end

pytestmark = pytest.mark.postgresql

KEY = "K" * 10 + "database-down-key-01"


@contextmanager
def database_down(engine: Engine) -> Iterator[None]:
    """Every statement on ``engine`` fails as it does when the database is unreachable."""

    def refuse(*args: Any) -> None:
        raise OperationalError("SELECT", {}, Exception("the database is not answering"))

    event.listen(engine, "before_cursor_execute", refuse)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", refuse)


def storage(response: Any) -> bool:
    return (response.status_code == 503 and response.json()["code"] == "storage"
            and int(response.headers["retry-after"]) > 0
            and response.headers["content-type"].startswith("application/json"))


def test_every_route_answers_503_storage_while_the_database_is_down(db_url: str) -> None:
    with app_client(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        lobby = client.post("/api/tables", json={
            "rules": "classic", "public": True, "key": KEY,
            "seats": [person("Ann"), person("Bob")]}).json()["id"]
        finished, _, _ = play_to_the_end(client, seed=4)
        elsewhere, _ = create(client, TWO, seed=5)
        hub.tables.pop(elsewhere)  # (as a table another process holds)
        with database_down(hub.engine):
            answers = {
                "create": client.post("/api/tables", json={"rules": "classic",
                                                           "seats": TWO}),
                "mine": client.post("/api/mine", json={"key": KEY}),
                "stats": client.get("/api/stats"),
                "take": client.post(f"/api/tables/{lobby}/seats/1/take",
                                    json={"key": "T" * 22}),
                "link": client.post(f"/api/tables/{lobby}/seats/1/link", json={"key": KEY}),
                "state": client.get(f"/api/tables/{elsewhere}"),
                "record": client.get(f"/api/tables/{finished}/record"),
            }
            for name, answer in answers.items():
                assert storage(answer), (name, answer.status_code, answer.text)
            page = client.get(f"/t/{elsewhere}")
            assert page.status_code == 503 and "database" in page.text
            assert page.headers["content-type"].startswith("text/html")
        # Back: the same requests work, and nothing was made meanwhile.
        assert client.post("/api/mine", json={"key": KEY}).json()["tables"][0]["id"] == lobby
        assert client.get(f"/t/{elsewhere}").status_code == 200
        assert client.post(f"/api/tables/{lobby}/seats/1/take",
                           json={"key": "T" * 22}).status_code == 200


def test_a_connection_while_the_database_is_down_is_told_and_closed_to_retry(
        db_url: str) -> None:
    """A page that (re)connects to a table the database must be read for is told why and
    closed with 1013 ("try again later"), so that it tries again; then it plays."""
    from starlette.websockets import WebSocketDisconnect

    with app_client(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table_id, tokens = create(client, TWO, seed=5)
        hub.tables.pop(table_id)
        with database_down(hub.engine), \
                seat_socket(client, table_id, tokens[0]) as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["code"] == "storage"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013
        with seat_socket(client, table_id, tokens[0]) as ws:
            assert Conn(ws, 0).view()["table"]["id"] == table_id


def test_a_restarted_database_costs_no_request_an_error(db_url: str) -> None:
    """Every connection of the pool is closed by the server (as a restart does): the next
    requests get fresh connections and succeed."""
    if not db_url.startswith("postgresql"):
        pytest.skip("a restart of a database server: PostgreSQL")
    with app_client(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert client.get("/api/stats").status_code == 200  # a pooled connection
        table_id, _ = create(client, TWO, seed=5)
        outside = create_engine(db_url, poolclass=NullPool)
        with outside.connect() as connection:
            ended = connection.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
            connection.commit()
        outside.dispose()
        assert ended
        hub.tables.pop(table_id)
        for _ in range(3):
            assert client.get("/api/stats").status_code == 200
            assert client.get(f"/t/{table_id}").status_code == 200


@pytest.mark.parametrize("heartbeat", [60.0, 0.2])
def test_a_process_that_missed_announcements_catches_up(postgres_db_url: str,
                                                        heartbeat: float) -> None:
    """Two server processes on one database; the second hears nothing the first announces
    (as when the database dropped its announcements). With a long heartbeat, its
    spectator's ``sync`` and its HTTP read answer the stored game; with a short one, it
    shows its spectator the stored game unasked within a few heartbeats."""
    from fastapi.testclient import TestClient

    from rummykit.server.app import create_app

    from ._support import Shadow
    from .test_api import RULES
    from .test_spectators import Watcher

    apps = [TestClient(create_app(postgres_db_url, shared=True, bot_delay=0.0,
                                  allow_seed=True, heartbeat=heartbeat)) for _ in range(2)]
    with apps[0] as first, apps[1] as second:
        table_id, tokens = create(first, TWO, seed=3)
        shadow = Shadow(RULES, ["Ann", "Bob"], 3)
        with second.websocket_connect(f"/ws/{table_id}?watch=1") as watching, \
                seat_socket(first, table_id, tokens[0]) as ann, \
                seat_socket(first, table_id, tokens[1]) as bob:
            spectator = Watcher(watching, 0)
            conns = {0: Conn(ann, 0), 1: Conn(bob, 1)}
            conns[1].until(lambda m: m["table"]["status"] == "playing")
            spectator.until(lambda m: m["table"]["status"] == "playing")
            second.app.state.hub._heard = lambda message: None  # type: ignore[attr-defined]
            for _ in range(3):
                text = "draw stock" if shadow.deal.phase == "draw" else next(
                    str(a) for a in shadow.deal.legal_actions() if a.kind == "discard")
                conns[shadow.deal.to_move].act(text)
                shadow.apply(text)
                conns[0].until(lambda m: m["table"]["seq"] == shadow.seq)
            if heartbeat < 1:
                assert spectator.until(lambda m: m["table"]["seq"] == 3)
                return
            # Nothing of the moves came: the process heard nothing. (A message of the
            # table as it was before it stopped hearing may still arrive late.)
            time.sleep(0.3)
            late = spectator.pending()
            assert all(m.get("table", {}).get("seq", 0) == 0 for m in late), late
            watching.send_json({"type": "sync"})
            assert spectator.until(lambda m: m["table"]["seq"] == 3)
            read = second.get(f"/api/tables/{table_id}", headers=who(tokens[0]))
            assert read.json()["table"]["seq"] == 3
