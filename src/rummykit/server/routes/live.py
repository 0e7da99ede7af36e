"""The live connection, ``/ws/{id}``: a seat's (after its hello) or a spectator's
(``?watch=1``). What travels on it is :mod:`rummykit.server.schemas`' protocol: each
message a seat sends is parsed into one of :data:`~rummykit.server.schemas.Incoming`'s
models, then done."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from rummykit.server import app as conf
from rummykit.server.hub import Hub, HubError, Send, Table, good_key
from rummykit.server.middleware import Bucket
from rummykit.server.outbox import Outbox
from rummykit.server.routes.deps import SECRET_IN_URL, Server, ServerOf, secret_in
from rummykit.server.schemas import (
    INCOMING,
    INCOMING_TYPES,
    SHAPES,
    ActionIn,
    AwayIn,
    BackIn,
    ChatIn,
    HelloIn,
    HintIn,
    Incoming,
    PingIn,
    SeenIn,
    SyncIn,
    UndoIn,
    VoteIn,
    WhyIn,
)

__all__ = ["KICKED", "router"]

log = logging.getLogger("rummykit.server")

router = APIRouter()

KICKED = {
    "replaced": "this seat is now open in another tab or window of this browser",
    "claimed": "the browser that opened this seat's link first has claimed it",
    "revoked": "this seat's link was replaced by whoever made the table",
}
"""Why a connection was closed for another (the ``closed`` message's ``reason``)."""

CHAT_RATE = 1.0
CHAT_BURST = 5.0
"""Chat messages a connection may send: one a second, five at once."""

MAX_SOCKETS_PER_SEAT = 4
"""Connections one seat may have open at once (a few tabs or devices of its player)."""

HELLO_SHAPE = ('{"type": "hello", "token": "...", "key": "..."} or {"type": "hello", '
               '"seat": N, "key": "..."}')

HINTING: set[asyncio.Task[None]] = set()
"""Hints being worked out (kept until done)."""


@router.websocket("/ws/{table_id}")
async def live(socket: WebSocket, table_id: str, server: ServerOf,
               watch: str | None = None) -> None:
    """A seat's live connection: its first message, the hello, says who it is:
    ``{"type": "hello", "token": ..., "key": ...}`` (the seat's link, with the browser's
    key, which claims an unclaimed seat), or ``{"type": "hello", "seat": N, "key": ...}``
    for a seat this browser claimed. A claimed seat opens only with its browser's key;
    that browser opening it again (another tab) takes it over, and the older connection
    is told so. ``?watch=1``: a spectator, who sends no hello."""
    await socket.accept()
    if not same_origin(socket):
        # A page of another site may not play for a seat whose link it learned.
        await refuse(socket, "this connection comes from another site's page", 4403)
    elif secret_in(socket.query_params):
        await refuse(socket, "send the key and the link's token in the hello message, not "
                     "in the address", 4400, {"code": SECRET_IN_URL})
    elif watch is not None:
        await spectate(socket, server.hub, table_id)
    else:
        await seat_connection(socket, server, table_id)


async def refuse(socket: WebSocket, message: str, close: int,
                 details: dict[str, object] | None = None) -> None:
    """Tell the connection why it is refused, and close it with ``close``."""
    await socket.send_json({"type": "error", "message": message, **(details or {})})
    await socket.close(code=close)


def same_origin(socket: WebSocket) -> bool:
    """Whether a WebSocket comes from the app's own pages: a browser sends its page's
    Origin, which must name this host (clients that are not browsers send none)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == socket.headers.get("host", "")


def read_hello(raw: str | None) -> HelloIn | str:
    """A seat connection's hello, or what is wrong with the first message."""
    if raw is None or len(raw.encode()) > conf.MAX_MESSAGE:
        return f"the first message is the hello, a JSON text: {HELLO_SHAPE}"
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or message.get("type") != "hello":
        return f"the first message is the hello: {HELLO_SHAPE}"
    try:
        return HelloIn.model_validate(message)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in err.errors())
        return f"a bad hello ({problems}): {HELLO_SHAPE}"


async def hello_of(socket: WebSocket) -> HelloIn | None:
    """The connection's hello, or None when it is refused or gone (it was told why)."""
    try:
        frame = await asyncio.wait_for(socket.receive(), conf.HELLO_WAIT)
    except TimeoutError:
        await refuse(socket, f"no hello came within {conf.HELLO_WAIT:g} seconds: the first "
                     "message says who this is", 4408, {"code": "hello"})
        return None
    except (WebSocketDisconnect, RuntimeError):
        return None  # gone before it said who it was
    if frame["type"] == "websocket.disconnect":
        return None
    hello = read_hello(frame.get("text"))
    if isinstance(hello, str):
        await refuse(socket, hello, 4400, {"code": "hello"})
        return None
    if hello.key is not None and not good_key(hello.key):
        await refuse(socket, "a browser's key is 22 to 64 letters, digits, - or _", 4400,
                     {"code": "bad-key"})
        return None
    return hello


@dataclass
class Seat:
    """One seat's connection: what its messages act on."""

    hub: Hub
    table: Table
    seat: int
    send: Send
    bucket: Bucket
    """Its messages' allowance."""
    chats: Bucket
    """Its seat's chat allowance."""
    full: bool = False
    """Whether it hears full views (its hello's ``full``)."""

    async def heard(self, raw: str) -> dict[str, Any] | None:
        """Do what the message ``raw`` asks; None, or the error message to send back."""
        refused = await self.refusal(raw)
        return None if refused is None else {"type": "error", "message": str(refused),
                                             **refused.details()}

    async def refusal(self, raw: str) -> HubError | None:
        if not self.bucket.take():
            return HubError("too many messages: slow down", code="rate")
        message = parse(raw, self.seat)
        if isinstance(message, HubError):
            return message
        try:
            await self.obey(message)
        except HubError as err:
            return err
        except SQLAlchemyError:
            if not isinstance(message, ActionIn):
                raise
            # Nothing was played (an action is stored before it is applied): say so and
            # keep the connection, so the player can try again.
            log.warning("table %s: an action could not be stored (the database did not "
                        "answer)", self.table.id)
            return HubError("the game could not be saved just now (the database is not "
                            "answering): nothing was played; try again", code="storage")
        return None

    async def obey(self, message: Incoming) -> None:
        hub, table, seat = self.hub, self.table, self.seat
        match message:
            case PingIn():
                pass
            case SyncIn():
                await self.send(await hub.current_state(table, seat, full=self.full))
            case UndoIn():
                await hub.undo(table, seat)
            case SeenIn():
                await hub.seen(table, seat)
            case AwayIn():
                await hub.hand_over(table, seat)
            case BackIn():
                await hub.back(table, seat)
            case VoteIn():
                await hub.vote(table, seat, message.end is True)
            case ChatIn():
                if not self.chats.take():
                    raise HubError("you are chatting too fast: wait a moment", code="rate")
                await hub.say(table, seat, message.text)
            case HintIn():
                # The search takes a while: the connection goes on hearing and sending.
                task = asyncio.get_running_loop().create_task(self.hint())
                HINTING.add(task)
                task.add_done_callback(HINTING.discard)
            case WhyIn():
                await self.send(await hub.why(table, seat, message.action))
            case ActionIn():
                await hub.act(table, seat, message.action)

    async def hint(self) -> None:
        try:
            answer = await self.hub.hint(self.table, self.seat)
        except HubError as err:
            answer = {"type": "error", "message": str(err), **err.details()}
        with contextlib.suppress(Exception):  # the page may have gone meanwhile
            await self.send(answer)
        if answer["type"] == "hint":
            await self.hub.broadcast(self.table)  # every seat sees the count (the summary)


def parse(raw: str, seat: int) -> Incoming | HubError:
    """The message ``raw`` that ``seat`` sent, or why it is refused."""
    if len(raw.encode()) > conf.MAX_MESSAGE:
        return HubError(f"message too long (at most {conf.MAX_MESSAGE} bytes)",
                        code="message-long", params={"n": conf.MAX_MESSAGE})
    try:
        message = json.loads(raw)
    except json.JSONDecodeError:
        return HubError("not JSON: send {\"type\": \"action\", \"action\": \"draw stock\"}",
                        code="not-json")
    except RecursionError:
        return HubError("JSON nested too deep: the connection is closed", code="too-deep")
    if not isinstance(message, dict) or "type" not in message:
        return HubError("a message is a JSON object with a 'type'", code="message-shape")
    kind = message["type"]
    if not isinstance(kind, str) or kind not in INCOMING_TYPES:
        return HubError(f"unknown message type {kind!r}: action, hint, why, undo, seen, "
                        "away, back, vote, chat, sync or ping", code="message-type")
    if kind == "action" and "seat" in message and message["seat"] != seat:
        return HubError("you can only play for your own seat", code="own-seat-only")
    try:
        return INCOMING.validate_python(message)
    except ValidationError:
        return HubError(SHAPES.get(kind, f"a bad {kind} message"), code="message-shape")


async def seat_connection(socket: WebSocket, server: Server, table_id: str) -> None:
    """A seat's connection, from its hello to its end."""
    hub = server.hub
    hello = await hello_of(socket)
    if hello is None:
        return
    token, number, key = hello.token, hello.seat, hello.key
    try:
        table = await hub.fetch(table_id)
        place = hub.seat_for(table, token=token, seat=number, key=key)
        claimed_now = key is not None and await hub.claim(table, place, key, token)
    except HubError as err:
        # 4403: not this browser's seat; 4404: no such table; 4410: broken.
        await refuse(socket, str(err), 4000 + err.status, err.details())
        if table_id in hub.tables:
            hub.forget(hub.tables[table_id])
        return
    others = list(table.presence.sockets.get(place, ()))
    if key is None and len(others) >= MAX_SOCKETS_PER_SEAT:
        await refuse(socket, f"this seat is open in {MAX_SOCKETS_PER_SEAT} places already: "
                     "close one of them first", 4429, {"code": "too-many-connections"})
        return

    ended = False

    async def stuck() -> None:
        # Its reader stopped reading: it hears no more, and is closed (the page
        # reconnects and gets a fresh view).
        hub.disconnect(table, place, send)
        await socket.close(code=1013)  # "try again later"

    async def kick(reason: str) -> None:
        # Another connection has the seat now: this one is told why and closed.
        nonlocal ended
        ended = True
        await send({"type": "closed", "reason": reason, "message": KICKED[reason]})
        await outbox.drain()
        with contextlib.suppress(Exception):
            await socket.close(code=4409)

    outbox = Outbox(socket.send_text, on_stuck=stuck)
    send = outbox.put
    outbox.start()
    if key is not None:
        # This browser's seat: its older connections (other tabs) give way, and on a
        # claim, so do the connections that came with the link alone.
        reason = "claimed" if claimed_now else "replaced"
        for other in others:
            await hub.kick(table, other, reason)
        # (and those of this seat on the other server processes, if any)
        await hub.announce(table, "kick", seat=place, reason=reason)
    hub.connect(table, place, send, kick, full=hello.full)
    try:
        # Checked again now that the connection is in place: a new link or another
        # browser's claim may have come while this one was being let in.
        if hub.seat_for(table, token=token, seat=number, key=key) != place:
            raise HubError("this seat's link was replaced", 403, code="seat-link")
    except HubError as err:
        hub.disconnect(table, place, send)
        await outbox.close()
        await refuse(socket, str(err), 4000 + err.status, err.details())
        return
    # A seat's chat allowance is the seat's, not the connection's: reconnecting gives no
    # more.
    if len(server.chatting) > 10 * conf.MAX_OPEN_TABLES:
        server.chatting.clear()
    chats = server.chatting.setdefault((table.id, place), Bucket(CHAT_BURST, CHAT_RATE))
    line = Seat(hub, table, place, send, Bucket(), chats, hello.full)
    try:
        if not await hub.join(table, place):
            await send(hub.state_for(table, place, full=hello.full))
            if not others or claimed_now:
                await hub.send_presence(table)
        if table.chat.messages:
            await send(hub.chat_log(table))
        while not ended:
            frame = await socket.receive()
            if frame["type"] == "websocket.disconnect" or ended:
                break
            raw = frame.get("text")
            if raw is None:
                await send({"type": "error", "message": "send text frames holding JSON, not "
                            "binary ones", "code": "binary-frame", "params": {}})
                continue
            error = await line.heard(raw)
            if error is not None:
                await send(error)
                if error.get("code") == "too-deep":
                    await outbox.drain()
                    await socket.close(code=1008)  # a policy the client broke
                    break
    except (WebSocketDisconnect, RuntimeError):
        # RuntimeError: Starlette's "not connected" when the peer has gone meanwhile.
        pass
    finally:
        hub.disconnect(table, place, send)
        await outbox.close()
        if not ended and not table.presence.connected(place):
            await hub.send_presence(table)
        hub.forget(table)


async def spectate(socket: WebSocket, hub: Hub, table_id: str) -> None:
    """A spectator's connection: the public view, live; any message but ping and sync is
    refused (a spectator never acts)."""
    try:
        table = await hub.fetch(table_id)
    except HubError as err:
        await refuse(socket, str(err), 4000 + err.status, err.details())
        return
    if len(table.presence.watchers) >= conf.MAX_WATCHERS:
        await refuse(socket, f"this table has {conf.MAX_WATCHERS} spectators already", 4429,
                     {"code": "too-many-connections"})
        return

    async def stuck() -> None:
        table.presence.watchers.discard(send)
        await socket.close(code=1013)

    outbox = Outbox(socket.send_text, on_stuck=stuck)
    send = outbox.put
    outbox.start()
    table.presence.watchers.add(send)
    bucket = Bucket()
    try:
        await send(hub.state_for(table, None))
        await hub.send_presence(table)
        if table.chat.messages:
            await send(hub.chat_log(table))
        while True:
            frame = await socket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text") or ""
            if not bucket.take():
                await send({"type": "error", "code": "rate",
                            "message": "too many messages: slow down"})
                continue
            try:
                kind = json.loads(raw).get("type") if len(raw) <= conf.MAX_MESSAGE else None
            except (ValueError, RecursionError, AttributeError):
                kind = None
            if kind == "sync":
                await send(await hub.current_state(table, None))
            elif kind != "ping":
                await send({"type": "error", "code": "spectator",
                            "message": "a spectator watches the table and cannot act"})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.presence.watchers.discard(send)
        await outbox.close()
        await hub.send_presence(table)
        hub.forget(table)
