"""The web app's JSON API and live protocol, through FastAPI's TestClient.

Every test runs on a fresh SQLite file and on a fresh PostgreSQL database (``db_url``).
The app is always used inside ``with TestClient(app)`` so its lifespan (restoring tables,
scheduling bots) runs and every socket shares one event loop. Games are followed by a
*shadow* match (same rules, names and seed, see ``_support.Shadow``), so the tests know every
hand and the stock and can check each message a seat receives against the engine's own view
of that seat.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from rummykit import record as records
from rummykit.bots import make_bot
from rummykit.cards import CARDS
from rummykit.db.models import TableRow
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.views import view
from rummykit.errors import RummyError
from rummykit.rules import PRESET_SOURCES, Rules
from rummykit.server.app import MAX_MESSAGE, create_app
from rummykit.server.hub import Hub

from ._support import ActionLog, Shadow, bot, card_words, person, who
from ._support import seat_socket as socket

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

RULES = "one-deal"
SEED = 7
PRESET_NAMES = ["basic", "one-deal", "classic", "rummy500", "limited-stock", "ramino"]
TOO_MANY = "too many messages"


# -- connections ---------------------------------------------------------------------


class Conn:
    """One WebSocket of one seat, read with timeouts (TestClient's own receive waits
    forever, and cannot tell that nothing is waiting)."""

    RATE = 18.0
    BURST = 36.0
    """A little under the server's limit (20 a second, bursts of 40): long games are sent
    at a pace the server accepts."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.tokens = self.BURST
        self.stamp = time.monotonic()
        self.presence: list[dict[str, Any]] = []
        """The presence messages heard (who is connected), kept aside: ``recv`` and
        ``pending`` skip them."""

    def _throttle(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / self.RATE)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1

    def send(self, message: object) -> None:
        self._throttle()
        if isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_text(json.dumps(message))

    def act(self, text: str, **extra: object) -> None:
        self.send({"type": "action", "action": text, **extra})

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        while True:
            message = self.ws.portal.call(get)
            self.ws._raise_on_close(message)
            data: dict[str, Any] = json.loads(message["text"])
            if data.get("type") != "presence":
                return data
            self.presence.append(data)

    def view(self, timeout: float = 10.0) -> dict[str, Any]:
        message = self.recv(timeout)
        assert message["type"] == "view", message
        assert message["view"]["seat"] == self.seat
        return message

    def error(self, timeout: float = 10.0) -> str:
        message = self.recv(timeout)
        assert message["type"] == "error", message
        assert isinstance(message["message"], str) and message["message"]
        return message["message"]

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read views until one satisfies ``done``."""
        for _ in range(5000):
            message = self.view()
            if done(message):
                return message
        raise AssertionError("no such view came")

    def pending(self) -> list[dict[str, Any]]:
        """Every message already waiting, without waiting for more."""

        def take() -> list[Any]:
            out = []
            while True:
                try:
                    out.append(self.ws._send_rx.receive_nowait())
                except anyio.WouldBlock:
                    return out

        found = []
        for message in self.ws.portal.call(take):
            self.ws._raise_on_close(message)
            data = json.loads(message["text"])
            if data.get("type") == "presence":
                self.presence.append(data)
            else:
                found.append(data)
        return found

    def quiet(self, wait: float = 0.05) -> None:
        """Nothing came (and nothing comes in ``wait`` seconds)."""
        time.sleep(wait)
        assert self.pending() == []


@contextmanager
def app_client(url: str, bot_delay: float = 0.0) -> Iterator[TestClient]:
    with TestClient(create_app(url, bot_delay=bot_delay, allow_seed=True)) as client:
        yield client


def create(client: TestClient, seats: list[dict[str, Any]], rules: str = RULES,
           seed: int = SEED) -> tuple[str, list[str | None]]:
    """A new table: its id and each seat's token (None for bots)."""
    response = client.post("/api/tables", json={"rules": rules, "seats": seats, "seed": seed})
    assert response.status_code == 200, response.text
    data = response.json()
    tokens = [s["link"].split("token=", 1)[1] if s["link"] else None for s in data["seats"]]
    return data["id"], tokens


@contextmanager
def seated(client: TestClient, table_id: str, tokens: list[str | None],
           keys: list[str] | None = None) -> Iterator[dict[int, Conn]]:
    """Every person seat of a people-only table connected, in seat order, with the join
    messages read: a seat's first connection hears its own join (its view, once); those
    already there hear each join."""
    assert all(tokens), "seated() is for tables of people only"
    with ExitStack() as stack:
        conns: dict[int, Conn] = {}
        for seat, token in enumerate(tokens):
            key = None if keys is None else keys[seat]
            conn = Conn(stack.enter_context(socket(client, table_id, token, key)), seat)
            for other in conns.values():
                other.view()
            conn.view()
            conns[seat] = conn
        for conn in conns.values():
            conn.quiet(0)
        yield conns


def step(conns: dict[int, Conn], shadow: Shadow, text: str) -> dict[int, dict[str, Any]]:
    """The player to move plays ``text``: every connected seat hears the new state, which is
    the engine's own view of that seat."""
    conns[shadow.deal.to_move].act(text)
    shadow.apply(text)
    views = {seat: conn.view() for seat, conn in conns.items()}
    for seat, message in views.items():
        assert message["table"]["seq"] == shadow.seq
        assert message["view"] == shadow.view_json(seat)
    return views


def play_out(conns: dict[int, Conn], shadow: Shadow, rng: random.Random,
             on_view: Callable[[dict[str, Any]], None] | None = None) -> dict[int, dict[str, Any]]:
    """Play a one-deal table to the end: the people by the greedy bot's choice, the bots by
    the server. The first connection watches; returns every seat's last view."""
    watcher = next(iter(conns.values()))
    acted_at = -1
    for _ in range(5000):
        message = watcher.view()
        shadow.follow(message)
        if on_view is not None:
            on_view(message)
        if shadow.match.is_over:
            break
        mover = shadow.deal.to_move
        if mover in conns and acted_at != shadow.seq:
            acted_at = shadow.seq
            conns[mover].act(shadow.choose(mover, rng))
    assert shadow.match.is_over
    final = {}
    for seat, conn in conns.items():
        final[seat] = message if conn is watcher else conn.until(
            lambda m: m["table"]["seq"] == shadow.seq)
        assert final[seat]["table"]["status"] == "finished"
        assert final[seat]["view"] == shadow.view_json(seat)
    return final


def error_text(response: Any) -> str:
    """The message of a refused request: ``{"error": ...}`` or FastAPI's ``detail``."""
    data = response.json()
    if "error" in data:
        assert isinstance(data["error"], str)
        return str(data["error"])
    detail = data["detail"]
    if isinstance(detail, str):
        return detail
    return " ".join(str(item["msg"]) for item in detail)


def count_tables(url: str) -> int:
    log = ActionLog(url)
    try:
        with Session(log.engine) as session:
            return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)
    finally:
        log.close()


# -- creating tables -----------------------------------------------------------------


@pytest.mark.postgresql
def test_create_table(client: TestClient) -> None:
    response = client.post("/api/tables", json={
        "rules": "classic(aces=high-low)", "seed": 5,
        "seats": [person("Ann"), bot("Bob", "expert"), person(" Cid ")],
    })
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["id"].isalnum()
    assert data["rules"] == "classic(aces=high-low)"
    seats = data["seats"]
    assert [(s["seat"], s["name"], s["kind"]) for s in seats] == [
        (0, "Ann", "person"), (1, "Bob", "bot"), (2, "Cid", "person")]
    assert seats[1]["link"] is None
    links = [seats[0]["link"], seats[2]["link"]]
    for link in links:
        assert link.startswith(f"/t/{data['id']}?token=")
        assert len(link.split("token=")[1]) >= 20
    assert links[0] != links[1]
    state = client.get(f"/api/tables/{data['id']}",
                       headers=who(links[0].split("token=")[1])).json()
    assert state["type"] == "view"
    assert state["table"]["status"] == "waiting"
    assert [s["joined"] for s in state["table"]["seats"]] == [False, True, False]
    assert [s["level"] for s in state["table"]["seats"]] == [None, "expert", None]
    assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) == 7


TWO = [person("Ann"), person("Bob")]
BAD_TABLES: dict[str, tuple[dict[str, Any], int, str]] = {
    "unknown preset": ({"rules": "gin", "seats": TWO}, 400, "unknown preset 'gin'"),
    "unknown option": ({"rules": "classic(colour=red)", "seats": TWO}, 400,
                       "unknown option 'colour'"),
    "bad option value": ({"rules": "classic(aces=sideways)", "seats": TWO}, 400, "aces"),
    "empty rules": ({"rules": "", "seats": TWO}, 422, "at least 1 character"),
    "one seat": ({"rules": "classic", "seats": [person("Ann")]}, 422, "at least 2"),
    "seven seats": ({"rules": "classic", "seats": [person(f"P{i}") for i in range(7)]}, 422,
                    "at most 6"),
    "unknown bot level": ({"rules": "classic", "seats": [person("Ann"), bot("Bob", "god")]},
                          400, "unknown bot 'god'; the bots are: random, greedy, learned, expert, "
                          "master"),
    "unknown bot option": ({"rules": "classic",
                            "seats": [person("Ann"), bot("Bob", "master(speed=2)")]},
                           400, "bot master has no option 'speed'"),
    "think out of range": ({"rules": "classic",
                            "seats": [person("Ann"), bot("Bob", "master(think=99)")]},
                           400, "think=99.0 is out of range"),
    "options of a bot without any": ({"rules": "classic",
                                      "seats": [person("Ann"), bot("Bob", "greedy(think=1)")]},
                                     400, "bot greedy has no option 'think'"),
    "think longer than the server's": ({"rules": "classic",
                                        "seats": [person("Ann"), bot("Bob", "master(think=2)")]},
                                       400, "a master thinks at most 1 s a move on this server"),
    "a rollout budget": ({"rules": "classic",
                          "seats": [person("Ann"), bot("Bob", "master(rollouts=500)")]},
                         400, "only by time"),
    "bot level too long": ({"rules": "classic",
                            "seats": [person("Ann"), bot("Bob", "master(think=0.5000000001)")]},
                           400, "at most 20 characters"),
    "bot without level": ({"rules": "classic",
                           "seats": [person("Ann"), {"kind": "bot", "name": "Bob"}]},
                          400, "the bots are: random, greedy, learned, expert, master"),
    "no person": ({"rules": "classic", "seats": [bot("A"), bot("B")]}, 400,
                  "at least one person"),
    "empty name": ({"rules": "classic", "seats": [person("Ann"), person("")]}, 422,
                   "at least 1 character"),
    "blank name": ({"rules": "classic", "seats": [person("Ann"), person("   ")]}, 400,
                   "name of 1 to 40 characters"),
    "long name": ({"rules": "classic", "seats": [person("Ann"), person("x" * 41)]}, 422,
                  "at most 40 characters"),
    "unknown kind": ({"rules": "classic", "seats": [person("Ann"),
                                                    {"kind": "ghost", "name": "B"}]},
                     422, "pattern"),
    "negative seed": ({"rules": "classic", "seats": TWO, "seed": -1}, 422,
                      "greater than or equal to 0"),
    "no seats": ({"rules": "classic"}, 422, "Field required"),
}


@pytest.mark.parametrize("case", list(BAD_TABLES))
def test_create_table_refuses_bad_input(db_url: str, case: str) -> None:
    body, status, message = BAD_TABLES[case]
    with app_client(db_url) as client:
        response = client.post("/api/tables", json=body)
    assert response.status_code == status, response.text
    assert message in error_text(response)
    assert count_tables(db_url) == 0


def test_rules_endpoint(client: TestClient) -> None:
    answer = client.get("/api/rules", params={"text": "classic( aces = high-low )"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["rules"] == "classic(aces=high-low)"
    assert data["options"]["aces"] == "high-low"
    assert data["options"]["melds_per_turn"] == "one"
    plain = client.get("/api/rules", params={"text": "ramino"}).json()
    assert plain["rules"] == "ramino" and plain["options"]["decks"] == 2
    for text, message in [("classic(aces=sideways)", "aces='sideways' is not allowed"),
                          ("nope", "unknown preset 'nope'"),
                          ("classic(colour=red)", "unknown option 'colour'")]:
        refused = client.get("/api/rules", params={"text": text})
        assert refused.status_code == 400
        assert message in error_text(refused)
    assert client.get("/api/rules").status_code == 422


def test_presets_endpoint(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert list(data["presets"]) == PRESET_NAMES
    help_texts = data["help"]
    assert help_texts and all(isinstance(t, str) and t for t in help_texts.values())
    for name, preset in data["presets"].items():
        assert preset["source"] == PRESET_SOURCES[name], name
        assert set(preset["options"]) == set(help_texts), name
    assert data["presets"]["ramino"]["options"]["jokers"] == 4
    assert data["presets"]["one-deal"]["options"]["match_end"] == "one-deal"
    assert data["bots"] == ["random", "greedy", "learned", "expert", "master"]
    assert data["think"] == 1.0  # the server's --think: the longest a master seat may think


# -- tokens --------------------------------------------------------------------------


def test_table_state_needs_the_right_token(client: TestClient) -> None:
    table_id, tokens = create(client, [person("Ann"), bot("Bob"), person("Cid")])
    _other_id, other_tokens = create(client, TWO)
    for seat in (0, 2):
        state = client.get(f"/api/tables/{table_id}", headers=who(tokens[seat]))
        assert state.status_code == 200
        assert state.json()["view"]["seat"] == seat
    for headers in ({}, who(""), who("x" * 32), who(tokens[0][:-1]), who(other_tokens[0])):
        refused = client.get(f"/api/tables/{table_id}", headers=headers)
        assert refused.status_code == 403, headers
        assert "token" in error_text(refused)
    for bad_id in ("0123456789ab", "nosuchtable", "a" * 40, "bad-id"):
        missing = client.get(f"/api/tables/{bad_id}", headers=who(tokens[0]))
        assert missing.status_code == 404
        assert error_text(missing) == "there is no such table"
    for path in ("record", "frames"):
        # Open to whoever has the table's link, once the match is over (not before).
        assert client.get(f"/api/tables/nosuchtable/{path}").status_code == 404
        for headers in ({}, who("nope"), who(tokens[0])):
            early = client.get(f"/api/tables/{table_id}/{path}", headers=headers)
            assert early.status_code == 409
            assert "once the match is over" in error_text(early)
    assert client.post(f"/api/tables/{table_id}/rematch",
                       json={"token": "nope"}).status_code == 403
    early = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert early.status_code == 409 and "not over" in error_text(early)


@pytest.mark.parametrize("which", ["missing", "empty", "wrong", "other table's", "bot seat"])
def test_websocket_refuses_a_bad_token(client: TestClient, which: str) -> None:
    table_id, tokens = create(client, [person("Ann"), bot("Bob")])
    _, other_tokens = create(client, TWO)
    token = {"missing": None, "empty": "", "wrong": "x" * 32,
             "other table's": other_tokens[0], "bot seat": "None"}[which]
    with socket(client, table_id, token) as ws:
        conn = Conn(ws, -1)
        assert "token does not open a seat" in conn.error()
        with pytest.raises(WebSocketDisconnect) as closed:
            conn.recv()
        assert closed.value.code == 4403
    state = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
    assert state["table"]["status"] == "waiting"


def test_websocket_to_an_unknown_table(client: TestClient) -> None:
    with socket(client, "0123456789ab", "whatever") as ws:
        conn = Conn(ws, -1)
        assert conn.error() == "there is no such table"
        with pytest.raises(WebSocketDisconnect) as closed:
            conn.recv()
        assert closed.value.code == 4404


# -- bad messages --------------------------------------------------------------------

Bad = Callable[[Shadow, int, int], tuple[int, object, str]]
"""(shadow, seat to move, other seat) -> (sender, message, words of the error)."""

BAD_MESSAGES: dict[str, Bad] = {
    "malformed JSON": lambda s, me, other: (me, '{"type": "action", "action"', "not JSON"),
    "JSON but not an object": lambda s, me, other: (me, "[1, 2]", "a JSON object with a 'type'"),
    "no type": lambda s, me, other: (me, {"action": "draw stock"}, "with a 'type'"),
    "oversized": lambda s, me, other: (
        me, {"type": "action", "action": "draw stock", "pad": "x" * MAX_MESSAGE},
        f"message too long (at most {MAX_MESSAGE} bytes)"),
    "unknown type": lambda s, me, other: (me, {"type": "shout"}, "unknown message type 'shout'"),
    "action without text": lambda s, me, other: (me, {"type": "action"}, "needs 'action'"),
    "action not a text": lambda s, me, other: (
        me, {"type": "action", "action": ["draw", "stock"]}, "needs 'action'"),
    "blank action": lambda s, me, other: (me, {"type": "action", "action": "  "}, "short text"),
    "unknown notation": lambda s, me, other: (
        me, {"type": "action", "action": "fly to the moon"}, "unknown action 'fly'"),
    "not a card": lambda s, me, other: (
        me, {"type": "action", "action": "discard ZZ"}, "'ZZ' is not a card"),
    "illegal action": lambda s, me, other: (
        me, {"type": "action", "action": f"discard {s.hand(me)[0]}"}, "must draw first"),
    "out of turn": lambda s, me, other: (
        other, {"type": "action", "action": "draw stock"}, "turn, not yours"),
    "for the seat to move": lambda s, me, other: (
        other, {"type": "action", "action": "draw stock", "seat": me},
        "only play for your own seat"),
    "for a seat not to move": lambda s, me, other: (
        me, {"type": "action", "action": "draw stock", "seat": other},
        "only play for your own seat"),
}

BAD_IN_PLAY: dict[str, Bad] = {
    "draw twice": lambda s, me, other: (
        me, {"type": "action", "action": "draw stock"}, "draw"),
    "discard a card not held": lambda s, me, other: (
        me, {"type": "action", "action": f"discard {s.hand(other)[0]}"}, "not in your hand"),
    "meld too short": lambda s, me, other: (
        me, {"type": "action", "action": "meld " + " ".join(s.hand(me)[:2])}, "meld"),
}


def check_refused(conns: dict[int, Conn], shadow: Shadow, make: Bad,
                  before: dict[int, dict[str, Any]]) -> None:
    me = shadow.deal.to_move
    other = 1 - me
    sender, message, words = make(shadow, me, other)
    conns[sender].send(message)
    assert words in conns[sender].error()
    for conn in conns.values():
        conn.quiet()
    # Nothing changed: a sync re-sends its sender's state.
    for seat, conn in conns.items():
        conn.send({"type": "sync"})
        assert conn.view() == before[seat]
    # The connection is still open and the game goes on.
    after = step(conns, shadow, shadow.choose(me, random.Random(1)))
    assert after[me]["table"]["seq"] == before[me]["table"]["seq"] + 1


@pytest.mark.parametrize("case", list(BAD_MESSAGES))
def test_bad_message_is_refused_to_its_sender_only(client: TestClient, case: str) -> None:
    table_id, tokens = create(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
    with seated(client, table_id, tokens) as conns:
        for conn in conns.values():  # "sync" answers its sender with its view
            conn.send({"type": "sync"})
        before = {seat: conn.view() for seat, conn in conns.items()}
        assert before[0]["table"]["status"] == "playing"
        assert shadow.deal.phase == "draw"
        check_refused(conns, shadow, BAD_MESSAGES[case], before)


@pytest.mark.parametrize("case", list(BAD_IN_PLAY))
def test_illegal_action_in_the_play_phase(client: TestClient, case: str) -> None:
    table_id, tokens = create(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
    with seated(client, table_id, tokens) as conns:
        before = step(conns, shadow, "draw stock")
        assert shadow.deal.phase == "play"
        check_refused(conns, shadow, BAD_IN_PLAY[case], before)


def test_a_refused_action_says_its_code_and_params(client: TestClient) -> None:
    """Beside its message (as before), a refused action carries the engine's refusal code
    and params (a notation error: "notation"); a message of the wrong shape carries the
    server's own code ("message-type", "not-json") and no params."""
    table_id, tokens = create(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
    with seated(client, table_id, tokens) as conns:
        me = shadow.deal.to_move
        card = str(CARDS[shadow.deal.pile[-1]])
        step(conns, shadow, "draw pile")
        cases: list[tuple[int, object, dict[str, Any]]] = [
            (me, {"type": "action", "action": f"discard {card}"},
             {"code": "taken-discard", "params": {"card": card}}),
            (me, {"type": "action", "action": "draw stock"},
             {"code": "drawn-already", "params": {}}),
            (me, {"type": "action", "action": "discard ZZ"}, {"code": "notation", "params": {}}),
            (1 - me, {"type": "action", "action": "draw stock"},
             {"code": "not-your-turn", "params": {"name": ["Ann", "Bob"][me]}}),
            (me, {"type": "shout"}, {"code": "message-type", "params": {}}),
            (me, '{"type": "action"', {"code": "not-json", "params": {}}),
        ]
        for sender, message, expected in cases:
            conns[sender].send(message)
            error = conns[sender].recv()
            assert error["type"] == "error" and isinstance(error["message"], str)
            assert {k: v for k, v in error.items() if k not in ("type", "message")} == expected
            if expected.get("code") not in ("not-your-turn", "message-type", "not-json"):
                # the message is the engine's own, unchanged
                assert isinstance(message, dict)
                with pytest.raises(RummyError) as refused:
                    shadow.deal.verify(Action.parse(message["action"]))
                assert error["message"] == str(refused.value)
        for conn in conns.values():
            conn.quiet()


def test_binary_frame_gets_an_error(tmp_path: Path) -> None:
    with app_client(f"sqlite:///{tmp_path / 'binary.db'}") as client:
        table_id, tokens = create(client, TWO)
        shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
        with seated(client, table_id, tokens) as conns:
            me = shadow.deal.to_move
            conns[me].ws.send_bytes(b'{"type": "action", "action": "draw stock"}')
            assert conns[me].error(timeout=3)
            step(conns, shadow, "draw stock")


def test_rate_limit(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
    with seated(client, table_id, tokens) as conns:
        me = shadow.deal.to_move
        for _ in range(60):  # straight to the socket, past the polite pace of send()
            conns[me].ws.send_text('{"type": "ping"}')
        errors = []
        while True:
            try:
                errors.append(conns[me].recv(timeout=0.5))
            except TimeoutError:
                break
        assert 1 <= len(errors) <= 20
        assert all(m["type"] == "error" and TOO_MANY in m["message"] for m in errors)
        conns[1 - me].quiet()
        time.sleep(0.3)  # the bucket refills at 20 a second
        step(conns, shadow, "draw stock")


def test_pings_get_no_answer(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    with seated(client, table_id, tokens) as conns:
        for _ in range(5):
            conns[0].send({"type": "ping"})
        conns[0].quiet(0.2)


# -- playing -------------------------------------------------------------------------


@pytest.mark.postgresql
def test_every_connected_seat_hears_each_action(client: TestClient) -> None:
    names = ["Ann", "Bob", "Cid"]
    table_id, tokens = create(client, [person(n) for n in names])
    shadow = Shadow(RULES, names, SEED)
    rng = random.Random(3)
    with seated(client, table_id, tokens) as conns, \
            socket(client, table_id, tokens[0]) as second_ws:
        second = Conn(second_ws, 0)
        first_view = second.view()
        assert first_view["view"] == shadow.view_json(0)
        for _ in range(8):
            text = shadow.choose(shadow.deal.to_move, rng)
            step(conns, shadow, text)
            assert second.view()["view"] == shadow.view_json(0)
        # An error goes to the socket that sent it, not to the seat's other socket.
        sender = 0 if shadow.deal.to_move != 0 else 1
        conns[sender].act("draw stock")
        assert "not yours" in conns[sender].error()
        second.quiet()
        for conn in conns.values():
            conn.quiet(0)


@pytest.mark.parametrize("seed", [9, 6], ids=["pile draws", "stock turned over"])
def test_no_message_shows_what_a_seat_may_not_see(client: TestClient, actions_db: ActionLog,
                                                  seed: int) -> None:
    """Two people play a whole deal. Every message to a seat is that seat's engine view:
    its own hand, and no card of another hand or of the stock that was never face up. Every
    action is in table_actions before any seat hears of it. (Seed 9: cards drawn from the
    pile, a winner; seed 6: the stock turned over three times, then a stalemate.)"""
    table_id, tokens = create(client, TWO, seed=seed)
    shadow = Shadow(RULES, ["Ann", "Bob"], seed)
    rng = random.Random(seed)
    seen = 0

    def check(seat: int, message: dict[str, Any]) -> None:
        nonlocal seen
        seen += 1
        assert message["view"]["hand"] == shadow.hand(seat)
        assert message["view"] == shadow.view_json(seat)
        assert "stock" not in message["view"] and "hands" not in message["view"]
        if message["view"]["deal_result"] is None:
            assert message["view"]["revealed_hands"] is None
            leaked = card_words(message) & shadow.hidden_from(seat)
            assert not leaked, f"seat {seat} was sent {sorted(leaked)}"

    with seated(client, table_id, tokens) as conns:
        for seat, conn in conns.items():
            conn.send({"type": "sync"})
            check(seat, conn.view())
        for _ in range(1000):
            if shadow.match.is_over:
                break
            mover = shadow.deal.to_move
            text = shadow.choose(mover, rng)
            conns[mover].act(text)
            shadow.apply(text)
            for seat, conn in conns.items():
                message = conn.view()
                assert message["table"]["seq"] == shadow.seq
                # stored before it was told: the row of this action is already there
                rows = actions_db.rows(table_id)
                assert len(rows) == shadow.seq
                assert rows[-1] == (shadow.seq, mover, text)
                check(seat, message)
        assert shadow.match.is_over
        assert seen > 40
    rows = actions_db.rows(table_id)
    assert [text for _seq, _seat, text in rows] == shadow.applied
    assert [seq for seq, _seat, _text in rows] == list(range(1, shadow.seq + 1))


@pytest.mark.postgresql
def test_bot_actions_are_stored_before_their_views(client: TestClient,
                                                   actions_db: ActionLog) -> None:
    table_id, tokens = create(client, [person("Ann"), bot("Bob"), bot("Cid", "random")])
    shadow = Shadow(RULES, ["Ann", "Bob", "Cid"], SEED)
    checked = 0

    def stored_first(message: dict[str, Any]) -> None:
        nonlocal checked
        seq = message["table"]["seq"]
        rows = [row for row in actions_db.rows(table_id) if row[0] <= seq]
        assert [row[0] for row in rows] == list(range(1, seq + 1))
        shown = message["view"]["history"]
        assert [(seat, text) for _seq, seat, text in rows][len(rows) - len(shown):] == [
            tuple(pair) for pair in shown]
        checked += 1

    with socket(client, table_id, tokens[0]) as ws:
        final = play_out({0: Conn(ws, 0)}, shadow, random.Random(5), on_view=stored_first)
    assert checked >= shadow.seq // 2
    assert final[0]["view"]["match_over"]
    assert len(actions_db.rows(table_id)) == shadow.seq


def test_a_master_seat_plays_a_whole_deal(db_url: str) -> None:
    """A master bot seat (thinking 0.05 s a decision, the server's --think) plays its
    turns off the event loop, and a seat may name its own think time: every view the
    person gets is the engine's own, and the deal ends."""
    with TestClient(create_app(db_url, bot_delay=0.0, allow_seed=True, think=0.05)) as client:
        table_id, tokens = create(client, [person("Ann"), bot("Max", "master"),
                                           bot("Mia", "master(think=0.02)")])
        shadow = Shadow(RULES, ["Ann", "Max", "Mia"], SEED)
        with socket(client, table_id, tokens[0]) as ws:
            final = play_out({0: Conn(ws, 0)}, shadow, random.Random(2))
        assert final[0]["view"]["match_over"]
        bot_moves = [seat for seat, _ in shadow.match.finished[0].moves if seat != 0]
        assert len(bot_moves) > 4
        seats = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
        assert [s.get("level") for s in seats["table"]["seats"]][1:] == [
            "master", "master(think=0.02)"]


def test_the_game_starts_when_every_seat_is_taken(client: TestClient) -> None:
    table_id, tokens = create(client, TWO)
    with socket(client, table_id, tokens[0]) as ws:
        ann = Conn(ws, 0)
        waiting = ann.view()
        assert waiting["table"]["status"] == "waiting"
        assert [s["joined"] for s in waiting["table"]["seats"]] == [True, False]
        ann.act("draw stock")
        assert "every seat is taken" in ann.error()
        with socket(client, table_id, tokens[1]) as ws2:
            bob = Conn(ws2, 1)
            assert ann.view()["table"]["status"] == "playing"
            assert bob.view()["table"]["status"] == "playing"
            bob.quiet(0.1)


# -- restart -------------------------------------------------------------------------


def lasting(table: dict[str, Any]) -> dict[str, Any]:
    """A table's public facts that a restart keeps: all but its last action's line and
    who is connected."""
    return {**{k: v for k, v in table.items() if k != "last"},
            "seats": [{k: v for k, v in s.items() if k != "connected"}
                      for s in table["seats"]]}


@pytest.mark.postgresql
def test_restart_rebuilds_the_tables(db_url: str) -> None:
    shadow = Shadow(RULES, ["Ann", "Bob"], 3)
    rng = random.Random(3)
    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO, seed=3)
        waiting_id, waiting_tokens = create(client, [person("Eve"), person("Fay")])
        with socket(client, waiting_id, waiting_tokens[1]) as ws:
            Conn(ws, 1).view()
        with seated(client, table_id, tokens) as conns:
            for _ in range(9):
                last = step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    assert shadow.seq > 0 and not shadow.match.is_over

    with app_client(db_url) as client:
        for seat, token in enumerate(tokens):
            state = client.get(f"/api/tables/{table_id}", headers=who(token)).json()
            assert state["view"] == last[seat]["view"]
            assert state["view"] == shadow.view_json(seat)
            # every public fact of the table but the line of its last action and who is
            # connected (nobody, after the restart)
            assert lasting(state["table"]) == lasting(last[seat]["table"])
            assert not any(s["connected"] for s in state["table"]["seats"])
        waiting = client.get(f"/api/tables/{waiting_id}",
                             headers=who(waiting_tokens[0])).json()
        assert waiting["table"]["status"] == "waiting"
        assert [s["joined"] for s in waiting["table"]["seats"]] == [False, True]
        with socket(client, table_id, tokens[0]) as ws0, \
                socket(client, table_id, tokens[1]) as ws1:
            conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
            for seat, conn in conns.items():  # seats already taken: just the state
                assert conn.view()["view"] == last[seat]["view"]
            for _ in range(1000):
                if shadow.match.is_over:
                    break
                step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
        assert shadow.match.is_over


@pytest.mark.postgresql
def test_restart_lets_the_bots_go_on(db_url: str, actions_db: ActionLog) -> None:
    shadow = Shadow(RULES, ["Ann", "Bob"], SEED)
    with app_client(db_url, bot_delay=600) as client:  # the bot never moves in this app
        table_id, tokens = create(client, [person("Ann"), bot("Bob")])
        with socket(client, table_id, tokens[0]) as ws:
            ann = Conn(ws, 0)
            ann.view()
            if shadow.deal.to_move == 0:
                for text in ("draw stock", f"discard {shadow.hand(0)[0]}"):
                    ann.act(text)
                    shadow.apply(text)
                    assert ann.view()["view"] == shadow.view_json(0)
            assert shadow.deal.to_move == 1
            ann.quiet(0.1)
    stored = len(actions_db.rows(table_id))
    assert stored == shadow.seq
    with app_client(db_url, bot_delay=0) as client, \
            socket(client, table_id, tokens[0]) as ws:
        ann = Conn(ws, 0)
        message = ann.until(lambda m: m["view"]["to_move"] == 0 or m["view"]["match_over"])
        shadow.follow(message)
        assert shadow.seq > stored
        assert message["view"] == shadow.view_json(0)
    assert len(actions_db.rows(table_id)) == shadow.seq


def play_to_the_end(client: TestClient, seed: int, keys: list[str] | None = None
                    ) -> tuple[str, list[str | None], dict[int, dict[str, Any]]]:
    """A table of Ann and Bob (two people) played to its end over their WebSockets with
    greedy moves (from browsers with ``keys``, which claim the seats, if given): its id,
    its tokens and the last view each seat heard."""
    shadow = Shadow(RULES, ["Ann", "Bob"], seed)
    table_id, tokens = create(client, TWO, seed=seed)
    last: dict[int, dict[str, Any]] = {}
    with seated(client, table_id, tokens, keys) as conns:
        rng = random.Random(seed)
        while not shadow.match.is_over:
            last = step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    return table_id, tokens, last


@pytest.mark.postgresql
def test_a_finished_table_after_restart(db_url: str) -> None:
    """A finished table is not rebuilt at start, but its links, record and rematch work."""
    with app_client(db_url) as client:
        table_id, tokens, last = play_to_the_end(client, 25)
        record = client.get(f"/api/tables/{table_id}/record").text
    with app_client(db_url) as client:
        assert table_id not in client.app.state.hub.tables  # type: ignore[attr-defined]
        state = client.get(f"/api/tables/{table_id}", headers=who(tokens[1])).json()
        assert state["view"] == last[1]["view"]
        assert state["table"]["status"] == "finished"
        again = client.get(f"/api/tables/{table_id}/record")
        assert again.status_code == 200 and again.text == record
        with socket(client, table_id, tokens[0]) as ws:
            ann = Conn(ws, 0)
            assert ann.view()["view"] == last[0]["view"]
            ann.act("draw stock")
            assert ann.error() == "the match is over"
        answer = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
        assert answer.status_code == 200
        new_token = answer.json()["link"].split("token=", 1)[1]
        assert client.get(f"/api/tables/{answer.json()['id']}",
                          headers=who(new_token)).status_code == 200
        assert new_token == tokens[0]  # a seat's key carries over to its rematch


# -- a finished match ----------------------------------------------------------------


def test_a_rummy500_summary_has_each_seats_melded_points() -> None:
    """500 Rum (seed "500 рам", scoring): a deal scores the cards each player laid less the
    cards left in hand. The table message gives each seat's melded points of the deal just
    finished (``last_melded``, which the summary shows beside the hands; ``melded`` is the
    deal in play): those less the points of the hand left are the deal's points."""
    rules = Rules.parse("rummy500")
    match = Match(rules, players=["Ann", "Bob"], seed=4)
    bots = [make_bot("greedy"), make_bot("expert")]
    rng = random.Random(4)
    stand = SimpleNamespace(rules=rules, match=match, players=2)
    assert Hub._melded(stand, last=True) is None  # no deal finished yet
    while not match.finished:
        seat = match.deal.to_move
        match.push(bots[seat].choose(view(match, seat), rng))
    done = match.finished[0]
    assert done.result is not None and not match.is_over
    melded = Hub._melded(stand, last=True)
    assert melded is not None and Hub._melded(stand) == [0, 0]  # the new deal: nothing yet
    for seat, hand in enumerate(done.hands):
        left = sum(card_value(str(CARDS[c]), rules) for c in hand)
        assert melded[seat] - left == done.result.points[seat], (seat, melded, done.hands)
    assert sum(melded) > 0
    assert Hub._melded(SimpleNamespace(rules=Rules.parse("classic"), match=match,
                                       players=2), last=True) is None


def card_value(text: str, rules: Rules) -> int:
    """A card's points by the rules' point options (docs/rules.md: aces, courts, jokers;
    number cards at their number)."""
    rank = text[:-1]
    if text == "JK":
        return rules.joker_points
    if rank == "A":
        return rules.ace_points
    if rank in ("J", "Q", "K"):
        return rules.court_points
    return int(rank)


@pytest.mark.postgresql
def test_finished_match_record_frames_and_stats(client: TestClient) -> None:
    table_id, tokens = create(client, [person("Ann"), bot("Bob")], seed=21)
    shadow = Shadow(RULES, ["Ann", "Bob"], 21)
    with socket(client, table_id, tokens[0]) as ws:
        final = play_out({0: Conn(ws, 0)}, shadow, random.Random(21))[0]
    totals = final["view"]["totals"]
    winner = final["view"]["match_winner"]
    assert final["view"]["match_over"] and totals == shadow.match.totals

    response = client.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert f'filename="rummykit-{table_id}.json"' in response.headers["content-disposition"]
    rec = records.loads(response.text)
    assert rec.players == ["Ann", "Bob"] and rec.seed == 21
    assert [d.actions for d in rec.deals] == [shadow.applied]
    outcome = records.replay(rec)
    assert list(outcome.match.totals) == totals
    assert outcome.match.winner == winner and not outcome.mid_deal

    frames = client.get(f"/api/tables/{table_id}/frames").json()
    assert frames["error"] is None
    assert frames["players"] == ["Ann", "Bob"] and frames["rules"] == RULES
    assert frames["result"] == {"totals": totals, "winner": winner}
    steps = frames["frames"]
    assert len(steps) == shadow.seq + 1
    assert steps[0]["action"] is None and steps[0]["by"] is None
    assert [f["action"] for f in steps[1:]] == shadow.applied
    fresh = Shadow(RULES, ["Ann", "Bob"], 21)
    assert steps[0]["hands"] == [fresh.hand(0), fresh.hand(1)]
    assert steps[-1]["result"] is not None and steps[-1]["totals"] == totals
    assert all(f["deal"] == 1 for f in steps)

    uploaded = client.post("/api/replay", content=response.text)
    assert uploaded.status_code == 200

    assert uploaded.json() == frames

    stats = client.get("/api/stats").json()["stats"]
    by_player = {line["player"]: line for line in stats}
    assert set(by_player) == {"Ann", "greedy"}  # a bot is counted under its level
    assert by_player["Ann"]["kind"] == "person" and by_player["greedy"]["kind"] == "bot"
    for seat, name in enumerate(["Ann", "greedy"]):
        line = by_player[name]
        assert (line["preset"], line["players"], line["matches"], line["deals"]) == (
            RULES, 2, 1, 1)
        assert line["matches_won"] == (1 if winner == seat else 0)
    assert client.get("/api/stats", params={"preset": "classic"}).json() == {
        "stats": [], "total": 0, "offset": 0}


def test_uploaded_record_frames_name_the_cards(client: TestClient) -> None:
    table_id, tokens = create(client, TWO, seed=25)
    shadow = Shadow(RULES, ["Ann", "Bob"], 25)
    with seated(client, table_id, tokens) as conns:
        rng = random.Random(25)
        while not shadow.match.is_over:
            step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    text = client.get(f"/api/tables/{table_id}/record").text
    frames = client.get(f"/api/tables/{table_id}/frames").json()
    uploaded = client.post("/api/replay", content=text).json()
    assert uploaded["frames"][0]["hands"] == [Shadow(RULES, ["Ann", "Bob"], 25).hand(seat)
                                              for seat in (0, 1)]
    assert uploaded == frames


def test_replay_upload_refuses_or_stops_at_a_bad_record(client: TestClient) -> None:
    table_id, tokens = create(client, TWO, seed=13)
    shadow = Shadow(RULES, ["Ann", "Bob"], 13)
    with seated(client, table_id, tokens) as conns:
        rng = random.Random(13)
        while not shadow.match.is_over:
            step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    text = client.get(f"/api/tables/{table_id}/record").text

    for junk in ("not json", "{}", "[]", json.dumps({"rules": "classic"})):
        refused = client.post("/api/replay", content=junk)
        assert refused.status_code == 400
        assert error_text(refused).startswith("not a valid record")
    big = client.post("/api/replay", content=b" " * 5_000_001)
    assert big.status_code == 413 and "too large" in error_text(big)

    data = json.loads(text)
    actions = data["deals"][0]["actions"]
    k = next(i for i, a in enumerate(actions) if a.startswith("discard"))
    replayed = Shadow(RULES, ["Ann", "Bob"], 13)
    for action in actions[:k]:
        replayed.apply(action)
    not_held = replayed.hand(1 - replayed.deal.to_move)[0]
    actions[k] = f"discard {not_held}"
    broken = client.post("/api/replay", content=json.dumps(data)).json()
    assert broken["error"] is not None and f"action {k + 1}" in broken["error"]
    assert broken["result"] is None
    assert len(broken["frames"]) == k + 1


@pytest.mark.postgresql
def test_rematch(client: TestClient) -> None:
    seats = [person("Ann"), person("Bob"), bot("Cid", "expert")]
    table_id, tokens = create(client, seats, seed=9)
    shadow = Shadow(RULES, ["Ann", "Bob", "Cid"], 9)
    with socket(client, table_id, tokens[0]) as ws0, \
            socket(client, table_id, tokens[1]) as ws1:
        conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
        play_out(conns, shadow, random.Random(9))
        answer = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
        assert answer.status_code == 200, answer.text
        new_id = answer.json()["id"]
        assert new_id != table_id
        # Every seat hears where the rematch is; its page adds its own token, which opens
        # the same seat there (the server keeps only the tokens' hashes).
        links = {seat: conn.view()["table"]["rematch"] for seat, conn in conns.items()}
    assert links == {0: f"/t/{new_id}", 1: f"/t/{new_id}"}
    assert answer.json()["link"] == f"/t/{new_id}?token={tokens[1]}"

    again = client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
    assert again == {"id": new_id, "link": f"/t/{new_id}?token={tokens[0]}"}
    for seat in (0, 1):
        state = client.get(f"/api/tables/{new_id}", headers=who(tokens[seat])).json()
        assert state["view"]["seat"] == seat
        assert state["table"]["status"] == "waiting" and state["table"]["seq"] == 0
        assert [(s["name"], s["kind"], s["level"]) for s in state["table"]["seats"]] == [
            ("Ann", "person", None), ("Bob", "person", None), ("Cid", "bot", "expert")]
        assert state["table"]["rules"] == RULES
    # the old links still open the finished table, now pointing at the rematch
    old = client.get(f"/api/tables/{table_id}", headers=who(tokens[0])).json()
    assert old["table"]["status"] == "finished" and old["table"]["rematch"] == links[0]


def test_an_unknown_page_gets_a_page_and_the_api_json(tmp_path: Any) -> None:
    """A mistyped address gets a 404 page in the app's style (its stylesheet, its links
    to the start page), the API and the files a 404 in JSON like every other refusal."""
    with app_client(f"sqlite:///{tmp_path / 'pages.db'}") as client:
        page = client.get("/no/such/page")
        assert page.status_code == 404
        assert page.headers["content-type"].startswith("text/html")
        assert "There is no such page" in page.text and "/static/style.css" in page.text
        assert 'href="/"' in page.text
        for path in ("/api/no-such-thing", "/static/no-such-file.js"):
            answer = client.get(path)
            assert answer.status_code == 404
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.json()["error"]
        assert client.delete("/").status_code == 405
        assert client.delete("/").json()["error"] == "Method Not Allowed"
