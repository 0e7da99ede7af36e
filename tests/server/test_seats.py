"""Seats that belong to one person (online play).

The rule, as the README and the rules page state it: a seat's link is claimed by the
first browser that opens it with its key; from then on only that browser's key opens the
seat (the link alone does not, whoever holds it). The same browser opening the seat again
(another tab) takes it over, and the older connection is told so and closed. The browser
that made the table can give a seat whose person is not connected a new link (the old
link and the old claim stop working). Everyone sees whether each person is connected.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ._support import person, who
from ._support import seat_socket as ws
from .test_api import TWO, Conn, play_to_the_end

ANN_KEY = "A" * 10 + secrets.token_urlsafe(16)
BOB_KEY = "B" * 10 + secrets.token_urlsafe(16)
EVE_KEY = "E" * 10 + secrets.token_urlsafe(16)


def refused(client: TestClient, table_id: str, **hello: Any) -> tuple[dict[str, Any], int]:
    """The error a connection gets, and the code it is closed with."""
    with ws(client, table_id, **hello) as socket:
        message = socket.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    return message, closed.value.code


def created(client: TestClient, seats: list[dict[str, Any]], key: str | None = ANN_KEY
            ) -> tuple[str, list[str | None]]:
    response = client.post("/api/tables", json={"rules": "classic", "seats": seats, "seed": 5,
                                                **({"key": key} if key else {})})
    assert response.status_code == 200, response.text
    data = response.json()
    return data["id"], [s["link"].split("token=", 1)[1] if s["link"] else None
                        for s in data["seats"]]


def state(client: TestClient, table_id: str, token: str | None = None, key: str | None = None,
          seat: int | None = None) -> Any:
    """The seat's view over HTTP: its token and key in the headers, its number in the
    query string."""
    return client.get(f"/api/tables/{table_id}", headers=who(token, key),
                      params={} if seat is None else {"seat": seat})


def test_the_first_browser_to_open_a_link_owns_the_seat(client: TestClient) -> None:
    table_id, tokens = created(client, TWO)
    assert state(client, table_id, token=tokens[1]).json()["table"]["seats"][1]["claimed"] \
        is False
    with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
        assert Conn(bob, 1).view()["table"]["seats"][1]["claimed"] is True
        # Another browser with the same link, or the link alone, is refused.
        for query in ({"token": tokens[1], "key": EVE_KEY}, {"token": tokens[1]}):
            message, code = refused(client, table_id, **query)
            assert (message["type"], message["code"], code) == ("error", "seat-claimed", 4403)
            assert "new link" in message["message"]
        # Over HTTP too: the link alone no longer shows the seat's hand.
        assert state(client, table_id, token=tokens[1]).status_code == 403
        assert state(client, table_id, token=tokens[1], key=EVE_KEY).json()["code"] == \
            "seat-claimed"
        assert state(client, table_id, token=tokens[1], key=BOB_KEY).status_code == 200
        assert state(client, table_id, seat=1, key=BOB_KEY).json()["view"]["seat"] == 1
        # The key opens the seat it claimed, not another.
        assert state(client, table_id, seat=0, key=BOB_KEY).status_code == 403
    # Bob's browser comes back without the link: its key and seat number open it.
    with ws(client, table_id, seat=1, key=BOB_KEY) as again:
        assert Conn(again, 1).view()["view"]["seat"] == 1


def test_a_second_tab_of_the_same_browser_takes_the_seat_over(client: TestClient) -> None:
    table_id, tokens = created(client, [person("Ann"), person("Bob")])
    with ws(client, table_id, token=tokens[0], key=ANN_KEY) as first:
        Conn(first, 0).view()
        with ws(client, table_id, seat=0, key=ANN_KEY) as second:
            closed = first.receive_json()
            assert closed["type"] == "closed" and closed["reason"] == "replaced"
            with pytest.raises(WebSocketDisconnect) as end:
                first.receive_json()
            assert end.value.code == 4409
            tab = Conn(second, 0)
            assert tab.view()["view"]["seat"] == 0
            # The seat is still one person's: it plays from the new tab.
            with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob_socket:
                bob = Conn(bob_socket, 1)
                bob.view()
                view = tab.until(lambda m: m["table"]["status"] == "playing")
                mover = {0: tab, 1: bob}[view["view"]["to_move"]]
                mover.act("draw stock")
                assert mover.until(lambda m: m["table"]["seq"] == 1)["view"]["phase"] == "play"


def test_a_claim_closes_the_connections_that_came_with_the_link_alone(
        client: TestClient) -> None:
    table_id, tokens = created(client, TWO)
    with ws(client, table_id, token=tokens[1]) as guest:
        Conn(guest, 1).view()
        with ws(client, table_id, token=tokens[1], key=BOB_KEY) as owner:
            closed = guest.receive_json()
            assert closed == {"type": "closed", "reason": "claimed", "message": closed["message"]}
            with pytest.raises(WebSocketDisconnect):
                guest.receive_json()
            assert Conn(owner, 1).view()["table"]["seats"][1]["claimed"] is True


def test_a_bad_key_or_seat_is_refused(client: TestClient) -> None:
    table_id, tokens = created(client, TWO)
    for key in ("short", "x" * 65, "bad key with spaces padding", "é" * 30):
        message, code = refused(client, table_id, token=tokens[1], key=key)
        assert code == 4400 and message["code"] == "bad-key"
    with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
        Conn(bob, 1).view()
    for hello in ({"seat": 1}, {"seat": 1, "key": EVE_KEY}, {"seat": 7, "key": BOB_KEY},
                  {"key": BOB_KEY}):
        message, code = refused(client, table_id, **hello)
        assert code == 4403 and message["code"] == "seat-link", hello
    assert state(client, table_id, seat=9, key=BOB_KEY).status_code == 422
    assert state(client, table_id, seat=1, key="short").status_code == 422


def test_the_creator_gives_an_absent_seat_a_new_link(client: TestClient) -> None:
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    link = f"/api/tables/{table_id}/seats/1/link"
    with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
        Conn(bob, 1).view()
        # Only the browser that made the table may; not while the person is here.
        assert client.post(link, json={"key": EVE_KEY}).json()["code"] == "not-creator"
        busy = client.post(link, json={"key": ANN_KEY})
        assert busy.status_code == 409 and busy.json()["code"] == "seat-in-use"
        assert client.post(f"/api/tables/{table_id}/seats/0/link",
                           json={"key": ANN_KEY}).status_code == 200  # Ann is not here
        bot_table, _ = created(client, [person("Ann"), {"kind": "bot", "name": "Bo",
                                                         "level": "random"}])
        assert client.post(f"/api/tables/{bot_table}/seats/1/link",
                           json={"key": ANN_KEY}).json()["code"] == "no-link"
    answer = client.post(link, json={"key": ANN_KEY})
    assert answer.status_code == 200
    new_token = answer.json()["link"].split("token=", 1)[1]
    # The old link and the old claim open nothing; the new link is claimed afresh.
    assert refused(client, table_id, token=tokens[1], key=BOB_KEY)[0]["code"] == "seat-link"
    assert refused(client, table_id, seat=1, key=BOB_KEY)[0]["code"] == "seat-link"
    with ws(client, table_id, token=new_token, key=EVE_KEY) as eve:
        assert Conn(eve, 1).view()["table"]["seats"][1]["claimed"] is True
    # A table made without a key has no creator: nobody may issue its links.
    keyless, _ = created(client, TWO, key=None)
    assert client.post(f"/api/tables/{keyless}/seats/1/link",
                       json={"key": ANN_KEY}).json()["code"] == "not-creator"


def test_no_new_link_for_a_person_playing_the_match(client: TestClient) -> None:
    """While Bob reloads his page mid-match (briefly not connected), the maker cannot take
    his seat with a new link; once he hands the seat over, or has been away long enough,
    the maker can."""
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    link = f"/api/tables/{table_id}/seats/1/link"
    with ws(client, table_id, token=tokens[0], key=ANN_KEY) as ann:
        Conn(ann, 0).view()
        with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
            assert Conn(bob, 1).until(lambda m: m["table"]["status"] == "playing")
        # Bob's page is reloading: his seat is his.
        busy = client.post(link, json={"key": ANN_KEY})
        assert busy.status_code == 409 and busy.json()["code"] == "seat-in-play"
        assert busy.json()["params"]["name"] == "Bob"
        with ws(client, table_id, seat=1, key=BOB_KEY) as bob:  # he is back
            Conn(bob, 1).view()
        # Away for long enough (the limit made short here), the seat may be given anew.
        client.app.state.hub.link_absence = 0.0
        assert client.post(link, json={"key": ANN_KEY}).status_code == 200


def test_a_new_link_for_a_person_who_handed_the_seat_over(client: TestClient) -> None:
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    link = f"/api/tables/{table_id}/seats/1/link"
    with ws(client, table_id, token=tokens[0], key=ANN_KEY) as ann:
        Conn(ann, 0).view()
        with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
            conn = Conn(bob, 1)
            conn.until(lambda m: m["table"]["status"] == "playing")
            conn.send({"type": "away"})
            conn.until(lambda m: m["table"]["seats"][1]["away"])
        answer = client.post(link, json={"key": ANN_KEY})
        assert answer.status_code == 200, answer.text
        assert refused(client, table_id, seat=1, key=BOB_KEY)[0]["code"] == "seat-link"


def test_a_browser_with_a_seat_does_not_take_another(client: TestClient) -> None:
    """One person, one hand: the maker (who has Ann's seat) opening Bob's link by mistake
    is refused, and Bob's link still opens his seat for him; so is a lobby seat taken by a
    browser that already took one."""
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    message, code = refused(client, table_id, token=tokens[1], key=ANN_KEY)
    assert code == 4403 and message["code"] == "one-seat"
    assert message["params"] == {"name": "Bob", "mine": "Ann"}
    with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob:
        assert Conn(bob, 1).view()["view"]["seat"] == 1
    response = client.post("/api/tables", json={
        "rules": "classic", "public": True, "key": ANN_KEY,
        "seats": [person("Ann"), person("Bob"), person("Cid")]})
    lobby_table = response.json()["id"]
    assert client.post(f"/api/tables/{lobby_table}/seats/1/take",
                       json={"key": EVE_KEY}).status_code == 200
    twice = client.post(f"/api/tables/{lobby_table}/seats/2/take", json={"key": EVE_KEY})
    assert twice.status_code == 403 and twice.json()["code"] == "one-seat"


def test_a_new_link_closes_a_connection_that_came_with_the_old_one(
        client: TestClient) -> None:
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    with ws(client, table_id, token=tokens[1]) as guest:  # the link alone: no claim
        Conn(guest, 1).view()
        answer = client.post(f"/api/tables/{table_id}/seats/1/link", json={"key": ANN_KEY})
        assert answer.status_code == 200
        message = guest.receive_json()
        while message["type"] == "presence":
            message = guest.receive_json()
        assert message["type"] == "closed" and message["reason"] == "revoked"


@pytest.mark.postgresql
def test_my_tables_lists_the_seats_a_browser_claimed(client: TestClient) -> None:
    first, tokens = created(client, TWO)
    second, tokens2 = created(client, [person("Cid"), person("Bob")])
    for table_id, token in ((first, tokens[1]), (second, tokens2[1])):
        with ws(client, table_id, token=token, key=BOB_KEY) as bob:
            Conn(bob, 1).view()
    mine = client.post("/api/mine", json={"key": BOB_KEY}).json()["tables"]
    assert [t["id"] for t in mine] == [second, first]  # newest first
    assert all(t["seat"] == 1 and t["status"] == "waiting" for t in mine)
    assert mine[0]["names"] == ["Cid", "Bob"]
    assert client.post("/api/mine", json={"key": EVE_KEY}).json()["tables"] == []
    assert client.post("/api/mine", json={"key": "short"}).status_code == 422


def test_everyone_sees_who_is_connected(client: TestClient) -> None:
    table_id, tokens = created(client, TWO)
    with ws(client, table_id, token=tokens[0], key=ANN_KEY) as ann_socket:
        ann = Conn(ann_socket, 0)
        first = ann.view()
        assert [s["connected"] for s in first["table"]["seats"]] == [True, False]
        with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob_socket:
            Conn(bob_socket, 1).view()
            ann.view()  # Bob's join starts the game
        ann.quiet(0.2)
        assert ann.presence[-1]["seats"] == [
            {"connected": True, "claimed": True, "standin": False, "away": False},
            {"connected": False, "claimed": True, "standin": False, "away": False}]
    # The view says it too, to whoever comes.
    with ws(client, table_id, seat=1, key=BOB_KEY) as bob_socket:
        seats = Conn(bob_socket, 1).view()["table"]["seats"]
        assert [s["connected"] for s in seats] == [False, True]


def test_a_rematch_keeps_each_seat_with_its_browser(client: TestClient) -> None:
    table_id, tokens, _ = play_to_the_end(client, 25, keys=[ANN_KEY, BOB_KEY])
    answer = client.post(f"/api/tables/{table_id}/rematch", json={"seat": 1, "key": BOB_KEY})
    assert answer.status_code == 200
    new_id = answer.json()["id"]
    assert answer.json()["link"] == f"/t/{new_id}?seat=1"
    # Each browser's claim carries over: its key opens its seat, the old link alone no
    # longer does, and nobody else's key does.
    assert state(client, new_id, seat=1, key=BOB_KEY).json()["view"]["seat"] == 1
    assert state(client, new_id, seat=0, key=ANN_KEY).json()["view"]["seat"] == 0
    assert state(client, new_id, token=tokens[1]).json()["code"] == "seat-claimed"
    assert state(client, new_id, seat=1, key=ANN_KEY).status_code == 403
    with ws(client, new_id, seat=0, key=ANN_KEY) as ann:
        assert Conn(ann, 0).view()["table"]["seats"][0]["claimed"] is True


# -- races and odd requests found in review ---------------------------------------------


def test_a_link_replaced_while_a_browser_opens_it_does_not_open_the_seat(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The maker asks for a new link while someone opens the old one (the database slow to
    write): whichever comes first, the old link ends up opening nothing and the new one
    opens the seat."""
    import threading
    import time

    table_id, tokens = created(client, TWO, key=ANN_KEY)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    write = hub._save_seat

    def slow(*args: Any) -> None:
        time.sleep(0.4)
        write(*args)

    monkeypatch.setattr(hub, "_save_seat", slow)
    answer: dict[str, Any] = {}
    renew = threading.Thread(target=lambda: answer.setdefault(
        "r", client.post(f"/api/tables/{table_id}/seats/1/link", json={"key": ANN_KEY})))
    renew.start()
    time.sleep(0.1)
    message, code = refused(client, table_id, token=tokens[1], key=EVE_KEY)
    renew.join()
    assert code == 4403 and message["code"] == "seat-link"
    new_token = answer["r"].json()["link"].split("token=", 1)[1]
    assert state(client, table_id, seat=1, key=EVE_KEY).status_code == 403
    assert state(client, table_id, token=new_token, key=BOB_KEY).status_code == 200


def test_the_makers_own_seat_is_theirs_from_the_start(client: TestClient) -> None:
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    assert state(client, table_id, seat=0, key=ANN_KEY).json()["view"]["seat"] == 0
    assert state(client, table_id, token=tokens[0]).json()["code"] == "seat-claimed"
    assert state(client, table_id, token=tokens[1]).status_code == 200  # Bob's: open


@pytest.mark.parametrize("seat", [-1, 10, 2**70])
def test_an_odd_seat_number_is_refused(client: TestClient, seat: int) -> None:
    table_id, _ = created(client, TWO, key=ANN_KEY)
    message, code = refused(client, table_id, seat=seat, key=ANN_KEY)
    assert code == 4403 and message["code"] == "seat-link"


@pytest.mark.parametrize("seat", ["\u00b2", "\u0661", "0", "1e3", " 1", "", 0.0, True, [0]])
def test_a_seat_number_that_is_no_integer_is_a_bad_hello(client: TestClient,
                                                         seat: object) -> None:
    table_id, _ = created(client, TWO, key=ANN_KEY)
    message, code = refused(client, table_id, seat=seat, key=ANN_KEY)
    assert code == 4400 and message["code"] == "hello" and "seat" in message["message"]


def test_a_seats_chat_allowance_does_not_grow_by_reconnecting(client: TestClient) -> None:
    table_id, tokens = created(client, TWO, key=ANN_KEY)
    refusals = 0
    with ws(client, table_id, seat=0, key=ANN_KEY) as ann:
        Conn(ann, 0).view()
        for _ in range(3):
            with ws(client, table_id, token=tokens[1], key=BOB_KEY) as bob_socket:
                bob = Conn(bob_socket, 1)
                bob.view()
                for n in range(4):
                    bob.send({"type": "chat", "text": f"hi {n}"})
                for _ in range(4):
                    message = bob.recv()
                    while message["type"] not in ("chat", "error"):
                        message = bob.recv()
                    refusals += message["type"] == "error"
    assert refusals >= 5  # 12 sent within a second or so, 5 at once allowed


@pytest.mark.postgresql
def test_a_finished_table_asked_for_by_anyone_does_not_stay_in_memory(
        client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table_id, _tokens, _ = play_to_the_end(client, 25)
    assert table_id not in hub.tables
    assert client.get(f"/t/{table_id}").status_code == 200
    assert client.get(f"/api/tables/{table_id}", headers=who("nope")).status_code == 403
    refused(client, table_id, token="nope", key=EVE_KEY)
    assert table_id not in hub.tables
