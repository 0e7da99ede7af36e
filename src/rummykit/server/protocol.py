"""The HTTP protocol the server speaks: uvicorn's h11 protocol, with a deadline for a
request's headers.

A client that opens a connection and sends its request headers a byte at a time (or not
at all) holds a connection for as long as it likes: many such clients exhaust the server
(the "slow headers" attack). Here a connection must deliver a request's whole headers
within ``header_timeout`` seconds of opening, and again of each response on a kept-alive
connection, or it is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_TIMEOUT", "timely_protocol"]

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers."""


def timely_protocol(header_timeout: float = HEADER_TIMEOUT) -> type[H11Protocol]:
    """An h11 protocol class for uvicorn (``uvicorn.run(app, http=...)``) whose requests'
    headers must come within ``header_timeout`` seconds."""

    class TimelyH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _late(self) -> None:
            if self.transport.get_protocol() is not self:
                return  # upgraded to a WebSocket: that protocol has the connection now
            # No request under way: its headers did not come in time.
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request's headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection has the same deadline

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimelyH11Protocol
