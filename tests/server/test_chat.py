"""Table chat: a person's message reaches everyone at the table and its spectators,
as text; it is 1 to 300 characters with no control, invisible or direction-changing
character, at most one a second (five at once); a spectator cannot chat; whoever
connects later hears the last fifty messages."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ._support import person
from .test_api import Conn, create, seated


def next_of(conn: Conn, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = conn.recv()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message came")


def test_a_message_reaches_the_table_and_its_spectators_as_sent(client: TestClient) -> None:
    table_id, tokens = create(client, [person("Ann"), person("Bob")])
    with seated(client, table_id, tokens) as conns, \
            client.websocket_connect(f"/ws/{table_id}?watch=1") as ws:
        watcher = Conn(ws, -1)
        watcher.recv()
        text = "hello <b>Bob</b> & <script>alert(1)</script> 🂡"
        conns[0].send({"type": "chat", "text": f"  {text}  "})
        for conn in (conns[0], conns[1], watcher):
            heard = next_of(conn, "chat")
            assert (heard["seat"], heard["name"], heard["text"]) == (0, "Ann", text)
        # Whoever comes later hears the chat so far.
        with client.websocket_connect(f"/ws/{table_id}?watch=1") as late_ws:
            late = Conn(late_ws, -1)
            log = next_of(late, "chat-log")
            assert [m["text"] for m in log["messages"]] == [text]
        # A spectator cannot chat.
        watcher.send({"type": "chat", "text": "hi"})
        assert next_of(watcher, "error")["code"] == "spectator"


@pytest.mark.parametrize("text, code", [
    ("", "chat-empty"), ("   ", "chat-empty"), (None, "chat-empty"), (42, "chat-empty"),
    ("x" * 301, "chat-long"), ("red \x1b[31m", "chat-text"), ("abc\u202edef", "chat-text"),
    ("zero\u200bwidth", "chat-text"),
])
def test_a_bad_message_is_refused_and_nobody_hears_it(client: TestClient, text: object,
                                                      code: str) -> None:
    table_id, tokens = create(client, [person("Ann"), person("Bob")])
    with seated(client, table_id, tokens) as conns:
        conns[0].send({"type": "chat", "text": text})
        assert next_of(conns[0], "error")["code"] == code
        conns[1].quiet(0.1)


def test_chatting_too_fast_is_refused(client: TestClient) -> None:
    table_id, tokens = create(client, [person("Ann"), person("Bob")])
    with seated(client, table_id, tokens) as conns:
        for n in range(6):
            conns[0].send({"type": "chat", "text": f"message {n}"})
        kinds = [conns[0].recv()["type"] for _ in range(6)]
        assert kinds.count("chat") == 5 and kinds.count("error") == 1
        texts = [next_of(conns[1], "chat")["text"] for _ in range(5)]
        assert texts == [f"message {n}" for n in range(5)]
