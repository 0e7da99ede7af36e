"""The lobby: tables their makers listed (``public``) are shown while waiting or in play,
with every seat and whether it is free (a person's seat no browser has claimed); anyone
can take a free seat, which then belongs to their browser, under the name they choose
while the game has not started. Unlisted tables are never shown and their seats cannot
be taken from the lobby.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ._support import bot, person, seat_socket, who
from .test_api import Conn

KEY = "K" * 10 + "lobbykey-0123456789"
OTHER = "O" * 10 + "lobbykey-9876543210"


def new_table(client: TestClient, public: bool, seats: list[dict[str, Any]] | None = None
              ) -> dict[str, Any]:
    response = client.post("/api/tables", json={
        "rules": "classic", "seed": 3, "public": public,
        "seats": seats or [person("Ann"), person("Guest"), bot("Bo", "random")]})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def lobby(client: TestClient) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = client.get("/api/lobby").json()["tables"]
    return tables


@pytest.mark.postgresql
def test_only_listed_tables_are_in_the_lobby(client: TestClient) -> None:
    listed = new_table(client, public=True)
    hidden = new_table(client, public=False)
    shown = lobby(client)
    assert [t["id"] for t in shown] == [listed["id"]]
    assert hidden["id"] not in {t["id"] for t in shown}
    assert [(s["name"], s["kind"], s["free"]) for s in shown[0]["seats"]] == [
        ("Ann", "person", True), ("Guest", "person", True), ("Bo", "bot", False)]
    take = client.post(f"/api/tables/{hidden['id']}/seats/1/take", json={"key": KEY})
    assert take.status_code == 403 and take.json()["code"] == "not-listed"


@pytest.mark.postgresql
def test_taking_a_free_seat_makes_it_this_browsers(client: TestClient) -> None:
    table = new_table(client, public=True)
    table_id = table["id"]
    answer = client.post(f"/api/tables/{table_id}/seats/1/take",
                         json={"key": KEY, "name": "Zoe"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["link"] == f"/t/{table_id}?seat=1"
    seats = lobby(client)[0]["seats"]
    assert (seats[1]["name"], seats[1]["free"]) == ("Zoe", False)
    # Nobody else can take it, nor open it with its link.
    again = client.post(f"/api/tables/{table_id}/seats/1/take", json={"key": OTHER})
    assert again.status_code == 403 and again.json()["code"] == "seat-claimed"
    token = table["seats"][1]["link"].split("token=", 1)[1]
    assert client.get(f"/api/tables/{table_id}", headers=who(token)).status_code == 403
    # The taker's browser plays the seat, under the name it chose.
    with seat_socket(client, table_id, key=KEY, seat=1) as ws:
        view = Conn(ws, 1).view()
        assert view["view"]["names"][1] == "Zoe"
        assert view["table"]["seats"][1]["name"] == "Zoe"
    # A bot's seat cannot be taken; a bad name is refused.
    assert client.post(f"/api/tables/{table_id}/seats/2/take",
                       json={"key": OTHER}).json()["code"] == "no-link"
    bad = client.post(f"/api/tables/{table_id}/seats/0/take",
                      json={"key": OTHER, "name": "Eve\u202e"})
    assert bad.status_code == 400


def test_a_table_in_play_stays_in_the_lobby_with_its_seats_taken(
        client: TestClient) -> None:
    table = new_table(client, public=True, seats=[person("Ann"), person("Guest")])
    table_id = table["id"]
    tokens = [s["link"].split("token=", 1)[1] for s in table["seats"]]
    with seat_socket(client, table_id, tokens[0], OTHER) as ws:
        Conn(ws, 0).view()
        client.post(f"/api/tables/{table_id}/seats/1/take", json={"key": KEY, "name": "Zoe"})
        with seat_socket(client, table_id, key=KEY, seat=1) as ws1:
            Conn(ws1, 1).view()
    shown = lobby(client)
    assert shown[0]["status"] == "playing"
    assert [s["free"] for s in shown[0]["seats"]] == [False, False]


def test_no_seat_is_taken_from_the_lobby_once_the_game_is_on(client: TestClient) -> None:
    """A seat given a new link during play is not free in the lobby: a friend gets it by
    the link, nobody takes it from the lobby."""
    response = client.post("/api/tables", json={
        "rules": "classic", "seed": 3, "public": True, "key": OTHER,
        "seats": [person("Ann"), person("Bob")]})
    table_id = response.json()["id"]
    tokens = [s["link"].split("token=", 1)[1] for s in response.json()["seats"]]
    with seat_socket(client, table_id, key=OTHER, seat=0) as ann, \
            seat_socket(client, table_id, tokens[1]) as bob:
        Conn(ann, 0).view()
        Conn(bob, 1).view()
    assert lobby(client)[0]["status"] == "playing"
    client.app.state.hub.link_absence = 0.0  # Bob has been away long enough
    assert client.post(f"/api/tables/{table_id}/seats/1/link",
                       json={"key": OTHER}).status_code == 200
    assert [s["free"] for s in lobby(client)[0]["seats"]] == [False, False]
    take = client.post(f"/api/tables/{table_id}/seats/1/take", json={"key": KEY})
    assert take.status_code == 409 and take.json()["code"] == "not-in-play"


def test_taking_a_seat_closes_a_connection_that_came_by_its_link(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    table = new_table(client, public=True)
    token = table["seats"][1]["link"].split("token=", 1)[1]
    with seat_socket(client, table['id'], token) as guest:
        Conn(guest, 1).view()
        assert client.post(f"/api/tables/{table['id']}/seats/1/take",
                           json={"key": KEY}).status_code == 200
        message = guest.receive_json()
        while message["type"] != "closed":
            message = guest.receive_json()
        assert message["reason"] == "claimed"
        with pytest.raises(WebSocketDisconnect):
            guest.receive_json()
