"""No secret in an address (README, "Playing online with friends").

The browser's key and a seat link's token never travel in an address, which access logs,
proxies and the browser's history keep: a seat's WebSocket says who it is in its first
message (the hello), an API request in its headers (``X-Rummykit-Key``,
``X-Rummykit-Token``); a key or token in the query string of either is refused, with the
code ``secret-in-url``. A finished match's replay and record are open to whoever has the
table's link, so their links hold no secret. Nothing the app answers for a seat or a key
may be kept by a cache, and the server's log never shows a query string.
"""

from __future__ import annotations

import json
import logging
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.server import app as app_module

from ._support import hello, person, seat_socket, served, who
from .test_api import TWO, Conn, create, play_to_the_end

KEY = "K" * 10 + secrets.token_urlsafe(16)
BOB_KEY = "B" * 10 + secrets.token_urlsafe(16)


def closed_with(ws: Any) -> tuple[dict[str, Any], int]:
    """The error message a connection hears, and the code it is then closed with."""
    message: dict[str, Any] = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return message, closed.value.code


# -- the WebSocket -------------------------------------------------------------------


@pytest.mark.parametrize("query", ["token={token}", "key={key}", "token={token}&key={key}",
                                   "seat=0&key={key}", "watch=1&key={key}"])
def test_a_secret_in_the_websockets_address_is_refused(client: TestClient,
                                                       query: str) -> None:
    table_id, tokens = create(client, TWO)
    address = f"/ws/{table_id}?" + query.format(token=tokens[0], key=KEY)
    with client.websocket_connect(address) as ws:
        message, code = closed_with(ws)
    assert code == 4400 and message["type"] == "error"
    assert message["code"] == "secret-in-url" and "hello" in message["message"]
    # Nothing was opened or claimed: the link still opens the seat for another browser.
    state = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
    assert state["table"]["seats"][0]["claimed"] is False


def test_the_hello_opens_the_seat_and_claims_it(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1], "key": KEY})
        view = Conn(ws, 1).view()
        assert view["view"]["seat"] == 1 and view["table"]["seats"][1]["claimed"] is True
    # The same browser comes back with its seat number and key; the link alone no longer
    # opens the claimed seat.
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "key": KEY})
        assert Conn(ws, 1).view()["view"]["seat"] == 1
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1]})
        message, code = closed_with(ws)
    assert (message["code"], code) == ("seat-claimed", 4403)


@pytest.mark.parametrize("first", [
    '{"type": "action", "action": "draw stock"}', '{"type": "ping"}', "not json", "[]",
    '"hello"', '{"type": "hello", "token": 5}', '{"type": "hello", "key": ["x"]}',
    '{"type": "hello", "seat": "0"}', '{"type": "hello", "token": "' + "x" * 200 + '"}',
    '{"type": "hello", "token": "' + "x" * 3000 + '"}',
])
def test_a_first_message_that_is_no_hello_is_refused(client: TestClient, first: str) -> None:
    table_id, tokens = create(client, TWO)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(first)
        message, code = closed_with(ws)
    assert code == 4400 and message["code"] == "hello", message
    assert '{"type": "hello"' in message["message"]  # it says what to send
    state = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
    assert state["table"]["seq"] == 0 and state["table"]["status"] == "waiting"


def test_a_connection_that_sends_no_hello_is_closed(client: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "HELLO_WAIT", 0.2)
    table_id, _ = create(client, TWO)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        message, code = closed_with(ws)
    assert code == 4408 and message["code"] == "hello" and "hello" in message["message"]


@pytest.mark.parametrize("key", ["short", "x" * 200, "bad key with spaces padding"])
def test_a_bad_key_in_the_hello_is_refused_as_before(client: TestClient, key: str) -> None:
    table_id, tokens = create(client, TWO)
    with seat_socket(client, table_id, tokens[0], key) as ws:
        message, code = closed_with(ws)
    assert (message["code"], code) == ("bad-key", 4400)


# -- HTTP ------------------------------------------------------------------------------


def test_the_state_route_reads_who_asks_from_the_headers(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    by_token = client.get(f"/api/tables/{table_id}", headers=who(tokens[1]))
    assert by_token.status_code == 200 and by_token.json()["view"]["seat"] == 1
    # A browser's key claims a seat through the hello; then key and seat number open it.
    with seat_socket(client, table_id, tokens[1], KEY) as ws:
        Conn(ws, 1).view()
    by_key = client.get(f"/api/tables/{table_id}", params={"seat": 1}, headers=who(key=KEY))
    assert by_key.status_code == 200 and by_key.json()["view"]["seat"] == 1
    assert client.get(f"/api/tables/{table_id}", params={"seat": 1}).status_code == 403
    assert client.get(f"/api/tables/{table_id}", headers=who(tokens[1])).json()["code"] == \
        "seat-claimed"
    bad = client.get(f"/api/tables/{table_id}", params={"seat": 1}, headers=who(key="short"))
    assert bad.status_code == 422 and "X-Rummykit-Key" in bad.json()["error"]


def test_a_secret_in_an_api_address_is_refused(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    with seat_socket(client, table_id, tokens[0], KEY) as ws:
        Conn(ws, 0).view()
    for method, path, query in [
        ("GET", f"/api/tables/{table_id}", {"token": tokens[0]}),
        ("GET", f"/api/tables/{table_id}", {"seat": 0, "key": KEY}),
        ("GET", f"/api/tables/{table_id}/frames", {"key": KEY}),
        ("GET", f"/api/tables/{table_id}/record", {"token": tokens[0]}),
        ("GET", "/api/lobby", {"key": KEY}),
        ("POST", "/api/mine", {"key": KEY}),
    ]:
        answer = client.request(method, path, params=query,
                                json={"key": KEY} if method == "POST" else None)
        assert answer.status_code == 400, (path, query, answer.text)
        assert answer.json()["code"] == "secret-in-url"
        assert "X-Rummykit-Key" in answer.json()["error"]
        assert KEY not in answer.text and tokens[0] not in answer.text


def test_a_finished_matchs_replay_and_record_need_no_seat(client: TestClient) -> None:
    table_id, _ = create(client, TWO, seed=25)
    for path in ("frames", "record"):
        early = client.get(f"/api/tables/{table_id}/{path}")
        assert early.status_code == 409 and "once the match is over" in early.json()["error"]
        assert client.get(f"/api/tables/0123456789ab/{path}").status_code == 404
    finished_id, _tokens, _last = play_to_the_end(client, 25)
    frames = client.get(f"/api/tables/{finished_id}/frames")
    assert frames.status_code == 200 and frames.json()["players"] == ["Ann", "Bob"]
    record = client.get(f"/api/tables/{finished_id}/record")
    assert record.status_code == 200 and json.loads(record.text)["players"] == ["Ann", "Bob"]


def test_a_rematch_link_of_a_browsers_own_seat_holds_no_token(client: TestClient) -> None:
    table_id, tokens, _ = play_to_the_end(client, 25, keys=[KEY, "B" * 30])
    answer = client.post(f"/api/tables/{table_id}/rematch",
                         json={"token": tokens[0], "key": KEY}).json()
    assert answer["link"] == f"/t/{answer['id']}?seat=0"


@pytest.mark.parametrize("path", ["/api/tables/{id}", "/api/tables/{id}/record",
                                  "/api/transfer/redeem", "/api/tables", "/api/mine",
                                  "/t/{id}", "/t/{id}?token={token}", "/replay",
                                  "/replay?table={id}", "/api/tables/{id}?key=x"])
def test_no_cache_keeps_a_seat_or_a_key(client: TestClient, path: str) -> None:
    table_id, tokens = create(client, [person("Ann"), person("Bob")])
    url = path.format(id=table_id, token=tokens[0])
    if url == "/api/transfer/redeem":
        code = client.post("/api/transfer", json={"key": KEY}).json()["code"]
        answer = client.post(url, json={"code": code})
        assert answer.json() == {"key": KEY}
    elif url == "/api/tables":
        answer = client.post(url, json={"rules": "classic", "seats": TWO})
        assert "token=" in answer.text  # the seat links
    elif url == "/api/mine":
        answer = client.post(url, json={"key": KEY})
    else:
        answer = client.get(url, headers=who(tokens[0]))
    assert answer.headers["cache-control"] == "no-store", (url, answer.status_code)


def test_other_pages_and_files_may_be_cached(client: TestClient) -> None:
    for path in ("/", "/rules", "/static/common.js"):
        assert "cache-control" not in client.get(path).headers, path


# -- the log ---------------------------------------------------------------------------


def test_the_servers_log_never_shows_a_secret(tmp_path: Path) -> None:
    """``rummykit serve --access-log`` writes a line for each request (time, method,
    path, status) and never an address's query string: a seat's link, a key or token
    sent in an address by an old client, none of it reaches the log."""
    from websockets.sync.client import connect as ws_connect

    with served(tmp_path, "--access-log") as port:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as http:
            made = http.post("/api/tables", json={"rules": "classic", "key": KEY, "seats": [
                person("Ann"), person("Bob")]}).json()
            table_id = made["id"]
            token = made["seats"][1]["link"].split("token=", 1)[1]
            assert http.get(f"/t/{table_id}", params={"token": token}).is_success
            assert http.get(f"/api/tables/{table_id}", params={"token": token}
                            ).status_code == 400
            assert http.get(f"/api/tables/{table_id}", params={"seat": 0, "key": KEY}
                            ).status_code == 400
            assert http.get(f"/api/tables/{table_id}", headers=who(token)).is_success
        with ws_connect(f"ws://127.0.0.1:{port}/ws/{table_id}?key={KEY}") as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "secret-in-url"
        with ws_connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            ws.send(json.dumps(hello(token, BOB_KEY)))  # (Bob's browser: KEY has seat 0)
            assert json.loads(ws.recv(timeout=10))["type"] == "view"
    text = (tmp_path / "server.log").read_text(errors="replace")
    # The requests are there (so the log was on), without their query strings.
    assert f"GET /t/{table_id} 200" in text
    assert f"GET /api/tables/{table_id} 400" in text
    assert f"GET /api/tables/{table_id} 200" in text
    for secret in (KEY, BOB_KEY, token, "token=", "key="):
        assert secret not in text, secret


def test_uvicorns_lines_lose_their_query_strings(caplog: pytest.LogCaptureFixture,
                                                 client: TestClient) -> None:
    """The app cuts the query string off the addresses of uvicorn's lines, whatever level
    an operator turns its loggers to (its access lines, its WebSocket lines)."""
    secret = secrets.token_urlsafe(16)
    with caplog.at_level(logging.INFO):
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/t/abc?token={secret}",
            "1.1", 200)
        logging.getLogger("uvicorn.error").info(
            '%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", f"/ws/abc?key={secret}")
    assert [r.getMessage() for r in caplog.records[-2:]] == [
        '127.0.0.1:5000 - "GET /t/abc HTTP/1.1" 200',
        '127.0.0.1:5000 - "WebSocket /ws/abc" [accepted]']


def test_a_bad_announcement_is_logged_without_its_key(caplog: pytest.LogCaptureFixture,
                                                      client: TestClient) -> None:
    """Another server process's announcement that cannot be understood is logged by its
    kind, never with its content (a transfer's holds a player's key)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        client.portal.call(hub._on_message, {"k": "transfer", "key": KEY})  # no code
    lines = [r.getMessage() for r in caplog.records if "not understood" in r.getMessage()]
    assert lines and "transfer" in lines[0]
    assert all(KEY not in line for line in lines)
