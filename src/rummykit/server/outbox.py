"""Each connection's own outbox: nothing a slow client does can hold up the others.

The hub hands every message for a connection to its outbox and goes on at once. The
outbox keeps at most ``size`` messages waiting and sends them one by one, each within
``timeout`` seconds; a connection whose outbox is full (its reader has stopped reading)
or whose send does not finish in time is dropped: ``on_stuck`` closes it, and the page's
reconnection (which starts from a fresh view) is the way back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

__all__ = ["OUTBOX_SIZE", "SEND_TIMEOUT", "Message", "Outbox", "encode"]

Message = dict[str, Any] | str
"""A message for a connection: a JSON object, or one encoded already (by :func:`encode`:
a view encoded once for every connection of its seat)."""


def encode(message: dict[str, Any]) -> str:
    """``message`` as the compact JSON text a connection receives (orjson: about ten
    times faster than the standard library's encoder, and the same JSON)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()

OUTBOX_SIZE = 32
"""Messages a connection may have waiting; each view supersedes the last, so a reader
that is this far behind has stopped reading."""

SEND_TIMEOUT = 10.0
"""Seconds one message may take to reach the connection's socket buffers."""


class Outbox:
    """A bounded queue and its sender for one connection (see the module's description)."""

    def __init__(self, send: Callable[[str], Awaitable[None]], *,
                 on_stuck: Callable[[], Awaitable[None]], size: int = OUTBOX_SIZE,
                 timeout: float = SEND_TIMEOUT) -> None:
        self._send = send
        self._on_stuck = on_stuck
        self._timeout = timeout
        self._queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=size)
        self._task: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self.stuck = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def put(self, message: Message) -> None:
        """Queue ``message`` for this connection (encoded as it is sent, unless it is
        already); never waits."""
        if self.stuck:
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            await self._give_up()

    async def _run(self) -> None:
        while True:
            message = await self._queue.get()
            try:
                text = message if isinstance(message, str) else encode(message)
                async with asyncio.timeout(self._timeout):  # no task of its own per send
                    await self._send(text)
            except TimeoutError:
                await self._give_up()
                return
            except Exception:
                # This message could not be sent (the peer has gone: the receiving side
                # ends the connection), or not encoded: the next ones still go.
                pass
            finally:
                self._queue.task_done()

    async def drain(self) -> None:
        """Wait (within the send timeout) until every queued message has been sent: before
        the connection is closed on purpose, so that its last words arrive."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._queue.join(), self._timeout)

    async def _give_up(self) -> None:
        """Drop the connection, without waiting on it: closing a socket whose reader has
        stopped may itself wait, so that goes on by itself (within the send timeout)."""
        if self.stuck:
            return
        self.stuck = True
        self._closing = asyncio.get_running_loop().create_task(self._drop())

    async def _drop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._on_stuck(), self._timeout)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
