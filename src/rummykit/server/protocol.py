"""The HTTP protocol the server speaks: uvicorn's h11 protocol, with deadlines for a
request's headers and body and a cap on one client address's connections.

A client that opens a connection and sends its request headers a byte at a time (or not
at all) holds a connection for as long as it likes: many such clients exhaust the server
(the "slow headers" attack). Here a connection must deliver a request's whole headers
within ``header_timeout`` seconds of opening, and again of each response on a kept-alive
connection, or it is closed. The same goes for a body sent a byte now and then (the "slow
body" attack): a request's whole body must come within ``body_timeout`` seconds of its
headers, or the request is answered 408 and the connection closed. And one client address
holds at most ``max_connections`` connections at once (its WebSockets count too): the
next is answered 429 and closed, while other addresses are served as before.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BODY_TIMEOUT", "HEADER_TIMEOUT", "MAX_CONNECTIONS", "timely_protocol"]

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers."""
BODY_TIMEOUT = 30.0
"""Seconds a client has, from its request's headers, to send the whole body (a 5 MB
record upload needs about 1.4 Mbit/s; every other body is at most 64 KiB)."""
MAX_CONNECTIONS = 64
"""Connections one client address may hold at once, WebSockets included: a browser keeps
at most six HTTP connections to a site and one WebSocket per open table, so this leaves
room for a family's few browsers and tabs behind one address."""


def _answer(status: int, reason: str, message: str, code: str) -> bytes:
    """A whole HTTP answer that closes the connection (JSON, like the API's errors)."""
    body = json.dumps({"error": message, "code": code}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n"
            "retry-after: 1\r\n\r\n").encode() + body


def timely_protocol(header_timeout: float = HEADER_TIMEOUT, *,
                    body_timeout: float = BODY_TIMEOUT,
                    max_connections: int = MAX_CONNECTIONS) -> type[H11Protocol]:
    """An h11 protocol class for uvicorn (``uvicorn.run(app, http=...)``) whose requests'
    headers must come within ``header_timeout`` seconds, their bodies within
    ``body_timeout`` seconds of the headers, and of which one client address may have at
    most ``max_connections`` open at once."""
    # The connections of each client address (a WebSocket keeps its HTTP connection's
    # transport, so it counts until that transport closes).
    held: dict[str, set[Any]] = {}
    too_many = _answer(429, "Too Many Requests", f"at most {max_connections} connections "
                       "from one place at once: close some first", "too-many-connections")
    too_slow = _answer(408, "Request Timeout", f"the request's body did not come within "
                       f"{body_timeout:g} s of its headers", "body-timeout")

    class TimelyH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _body_timer: asyncio.TimerHandle | None = None
        _address: str | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            if address is not None:
                if len(held) > 10_000:  # forget the addresses whose connections all closed
                    for gone in [a for a, ts in held.items()
                                 if all(t.is_closing() for t in ts)]:
                        del held[gone]
                mine = held.setdefault(address, set())
                for other in [t for t in mine if t.is_closing()]:
                    mine.discard(other)  # (closed WebSockets: their protocol was not ours)
                if len(mine) >= max_connections:
                    transport.write(too_many)
                    transport.close()
                    return
                mine.add(transport)
                self._address = address
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _late(self) -> None:
            if self.transport.get_protocol() is not self:
                return  # upgraded to a WebSocket: that protocol has the connection now
            # No request under way: its headers did not come in time.
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

        def _slow_body(self) -> None:
            cycle = self.cycle
            if (self.transport.get_protocol() is not self or cycle is None
                    or not cycle.more_body or cycle.response_complete):
                return  # the body came (or the connection is a WebSocket now)
            if not cycle.response_started:
                self.transport.write(too_slow)
            # The app hears that the client went away (and stops waiting for the body).
            cycle.disconnected = True
            cycle.message_event.set()
            self.transport.close()

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request's headers are in
                self._disarm()
                if self.cycle is not None and self.cycle.more_body:
                    self._body_timer = self.loop.call_later(body_timeout, self._slow_body)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection has the same deadline

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._address is not None:
                mine = held.get(self._address)
                if mine is not None:
                    mine.discard(self.transport)
                    if not mine:
                        del held[self._address]
            super().connection_lost(exc)

    return TimelyH11Protocol
