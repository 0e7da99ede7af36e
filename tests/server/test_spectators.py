"""Spectators: anyone with a table's watch link (``/t/{id}?watch=1``, the WebSocket
``/ws/{id}?watch=1``) sees the table as the public sees it, live, and cannot act.

Over whole matches, every message a spectator receives is checked against an oracle
that does not use the server's public view: each seat's own view (computed by a shadow
match) with that seat's number, hand and legal actions taken out must be the same for
every seat, and equal what the spectator got. A spectator's attempts to act change
nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server import app as app_module

from ._support import Shadow, person
from .test_api import RULES, Conn, create, seated, step

PRIVATE = ("seat", "hand", "legal_actions")


class Watcher(Conn):
    """A spectator's connection: views whose seat is None."""

    def view(self, timeout: float = 10.0) -> dict[str, Any]:
        message = self.recv(timeout)
        assert message["type"] == "view", message
        return message


def public_of(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PRIVATE}


def test_a_spectator_sees_the_public_table_of_a_whole_match(client: TestClient) -> None:
    names = ["Ann", "Bob", "Cid"]
    seed = 12
    table_id, tokens = create(client, [person(n) for n in names], seed=seed)
    shadow = Shadow(RULES, names, seed)
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{table_id}?watch=1") as ws:
        watcher = Watcher(ws, -1)
        first = watcher.view()
        assert first["table"]["status"] == "waiting"
        assert first["view"]["seat"] is None and first["view"]["hand"] == []
        with seated(client, table_id, tokens) as conns:
            watcher.pending()  # the joins
            heard = 0
            while not shadow.match.is_over:
                step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
                message = watcher.view()
                assert message["table"]["seq"] == shadow.seq
                seen = message["view"]
                assert seen["seat"] is None and seen["hand"] == []
                assert seen["legal_actions"] == []
                # The oracle: what every seat sees alike.
                publics = [public_of(shadow.view_json(s)) for s in range(len(names))]
                assert all(p == publics[0] for p in publics)
                assert public_of(seen) == publics[0]
                heard += 1
            assert heard == shadow.seq
            # Acting is refused, and nothing changes.
            for attempt in ({"type": "action", "action": "draw stock"}, {"type": "hint"},
                            {"type": "undo"}, {"type": "away"}, {"type": "seen"}):
                watcher.send(attempt)
                refused = watcher.recv()
                assert refused["type"] == "error" and refused["code"] == "spectator"
            for conn in conns.values():
                conn.quiet(0.1)


def test_spectators_are_counted_and_limited(client: TestClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, tokens = create(client, [person("Ann"), person("Bob")])
    monkeypatch.setattr(app_module, "MAX_WATCHERS", 1)
    with seated(client, table_id, tokens) as conns:
        with client.websocket_connect(f"/ws/{table_id}?watch=1") as ws:
            Watcher(ws, -1).view()
            conns[0].quiet(0.2)  # the count reaches the players as presence
            assert conns[0].presence[-1]["watchers"] == 1
            with client.websocket_connect(f"/ws/{table_id}?watch=1") as second:
                refused = second.receive_json()
                assert refused["code"] == "too-many-connections"
        conns[0].quiet(0.2)
        assert conns[0].presence[-1]["watchers"] == 0


def test_watching_a_table_that_is_not_there(client: TestClient) -> None:
    with client.websocket_connect("/ws/0123456789ab?watch=1") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and "no such table" in message["message"]
