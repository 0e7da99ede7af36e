"""The live protocol as the models of ``rummykit.server.schemas`` say it: every message a
test client sends and receives in a game played through the WebSocket validates against
its model, every reply of the API that a page reads against its own, and messages of
the wrong shape are refused with their codes. docs/protocol.md is what the models write."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from rummykit.server.schemas import (
    INCOMING,
    OUTGOING,
    ConfigOut,
    HelloIn,
    LobbyOut,
    PresetsOut,
    TableCreated,
    ViewOut,
)

from ._support import bot, hello, person, who

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 22


class Recorder:
    """A WebSocket test session that keeps every message it sends and receives."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.sent: list[Any] = []
        self.received: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)
        self.ws.send_json(message)

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.received.append(message)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while (message := self.recv())["type"] != kind:
            pass
        return message


@contextmanager
def recorded(client: TestClient, path: str) -> Iterator[Recorder]:
    with client.websocket_connect(path) as ws:
        yield Recorder(ws)


@pytest.fixture
def played(client: TestClient) -> Iterator[tuple[Recorder, Recorder]]:
    """A seat's and a spectator's connections through part of a game: hello, views,
    presence, chat, why, hint, sync, ping, actions, and a few refusals."""
    answer = client.post("/api/tables", json={
        "rules": "classic", "seed": 7, "key": KEY, "seats": [person("Ann"), bot("Bob")]})
    TableCreated.model_validate(answer.json())
    table_id = answer.json()["id"]
    with recorded(client, f"/ws/{table_id}") as ann, \
            recorded(client, f"/ws/{table_id}?watch=1") as watcher:
        ann.send(hello(seat=0, key=KEY))
        view = ann.until("view")
        ann.send({"type": "chat", "text": "hello"})
        ann.until("chat")
        ann.send({"type": "ping"})
        ann.send({"type": "sync"})
        view = ann.until("view")
        acted = 0
        while acted < 8 and view["table"]["status"] == "playing":
            legal = view["view"]["legal_actions"]
            if not legal:
                view = ann.until("view")
                continue
            if acted == 0:
                ann.send({"type": "hint"})
                ann.until("hint")
                ann.send({"type": "why", "action": legal[0]})
                ann.until("why")
                ann.send({"type": "why", "action": "fly away"})
                ann.until("why")
            ann.send({"type": "action", "action": legal[0]})
            acted += 1
            view = ann.until("view")
        for bad in ({"type": "shout"}, {"type": "action"}, {"type": "action",
                    "action": "draw stock", "seat": 1}, {"type": "chat", "text": ""}):
            ann.send(bad)
            ann.until("error")
        watcher.send({"type": "sync"})
        watcher.until("view")
        watcher.send({"type": "chat", "text": "hi"})
        watcher.until("error")
        yield ann, watcher


def test_every_message_of_a_played_game_validates_against_its_model(
        played: tuple[Recorder, Recorder]) -> None:
    ann, watcher = played
    HelloIn.model_validate(ann.sent[0])
    for message in ann.sent[1:]:
        if message.get("type") in ("shout",) or message == {"type": "action"} or (
                "seat" in message):
            continue  # (the refused ones: below)
        INCOMING.validate_python(message)
    kinds = set()
    for message in ann.received + watcher.received:
        OUTGOING.validate_python(message)
        kinds.add(message["type"])
    assert {"view", "presence", "chat", "hint", "why", "error"} <= kinds
    codes = {m.get("code") for m in ann.received if m["type"] == "error"}
    assert {"message-type", "message-shape", "own-seat-only", "chat-empty"} <= codes


def test_the_api_answers_as_its_models_say(client: TestClient) -> None:
    PresetsOut.model_validate(client.get("/api/presets").json())
    ConfigOut.model_validate(client.get("/api/config").json())
    answer = client.post("/api/tables", json={
        "rules": "classic", "seed": 7, "public": True,
        "seats": [person("Ann"), bot("Bob")]}).json()
    token = answer["seats"][0]["link"].split("token=", 1)[1]
    ViewOut.model_validate(client.get(f"/api/tables/{answer['id']}",
                                      headers=who(token)).json())
    lobby = LobbyOut.model_validate(client.get("/api/lobby").json())
    assert [t.id for t in lobby.tables] == [answer["id"]]


@pytest.mark.parametrize("message", [
    {"type": "action", "action": 5},
    {"type": "why"},
    {"type": "hello"},
    {"type": "nonsense"},
    {"action": "draw stock"},
])
def test_a_malformed_message_does_not_validate(message: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        INCOMING.validate_python(message)


def test_a_message_the_server_never_sends_does_not_validate() -> None:
    for message in ({"type": "chat", "seat": 0, "name": "Ann", "text": "hi"},
                    {"type": "presence", "seats": [], "watchers": 0, "hand": ["5H"]},
                    {"type": "closed", "reason": "bored", "message": "bye"}):
        with pytest.raises(ValueError):
            OUTGOING.validate_python(message)


def test_the_protocol_page_is_written_from_the_models() -> None:
    from rummykit.server.schemas import protocol_page

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert text == protocol_page(), "run: python -m rummykit.server.schemas docs/protocol.md"
