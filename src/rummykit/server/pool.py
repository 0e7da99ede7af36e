"""The search pool: where bots' moves and hints are worked out, fairly between clients.

A search (a bot's move, a hint) takes the processor for up to a second. Run in the event
loop's shared threads, one client's many tables of thinking bots would hold every thread,
and every other table's bots, and every database read, would wait behind them. Here the
searches have threads of their own (``workers`` of them), and the next search to run is
the first waiting of the client served longest ago, and of that client's table served
longest ago (round-robin across clients, then tables); one client runs at
most ``per_client`` searches at once (by default half the threads), so the other threads
are always there for everyone else: another client's bot waits for no search of theirs.

A table's client is the address that made it (:meth:`SearchPool.own`); a table restored
after a restart, whose maker is not known, is a client of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rummykit.server.hub import Table

__all__ = ["IDLE_LIMIT", "SEARCH_WORKERS", "SearchPool", "nobody_since"]

T = TypeVar("T")

SEARCH_WORKERS = 2
"""Threads that work out bots' moves and hints."""
IDLE_LIMIT = 300.0
"""Seconds a table's bots go on playing once no person is connected to it (then they
wait until a person connects again)."""
OWNERS_KEPT = 100_000
"""Tables whose client the pool remembers (then it forgets them all and starts again)."""

_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class SearchPool:
    """At most ``workers`` searches at once, taken in turn across clients and their
    tables, at most ``per_client`` of one client's at once (see the module)."""

    def __init__(self, workers: int = SEARCH_WORKERS, per_client: int | None = None) -> None:
        self.workers = workers
        self.per_client = per_client or max(1, workers // 2)
        self.owners: dict[str, str] = {}
        """Each table's client (its maker's address)."""
        self._executor = ThreadPoolExecutor(max_workers=workers,
                                            thread_name_prefix="rummykit-search")
        # Waiting jobs: client -> table -> jobs.
        self._waiting: dict[str, dict[str, deque[_Job]]] = {}
        self._running: dict[str, int] = {}
        # When each client and each table was last served (a count of jobs started).
        self._served: dict[tuple[str, str], int] = {}
        self._tick = 0

    def own(self, table_id: str, client: str) -> None:
        """``table_id``'s searches count as ``client``'s."""
        if len(self.owners) >= OWNERS_KEPT:
            self.owners.clear()
        self.owners[table_id] = client

    def client_of(self, table_id: str) -> str:
        return self.owners.get(table_id, f"table:{table_id}")

    def running(self) -> int:
        return sum(self._running.values())

    async def run(self, table_id: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a search thread, when its turn comes."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        client = self.client_of(table_id)
        tables = self._waiting.setdefault(client, {})
        tables.setdefault(table_id, deque()).append((fn, args, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        """Start waiting jobs while threads are free, taking clients in turn."""
        while self.running() < self.workers:
            job = self._next()
            if job is None:
                return
            client, (fn, args, future) = job
            self._running[client] = self._running.get(client, 0) + 1
            loop = asyncio.get_running_loop()
            done: Future[Any] = self._executor.submit(fn, *args)
            done.add_done_callback(functools.partial(self._hand_back, loop, client, future))

    def _next(self) -> tuple[str, _Job] | None:
        """The next job to start: of the clients that may run one more, the one served
        longest ago (or never) gives its first job of its table served longest ago."""
        while True:
            ready = [c for c in self._waiting if self._running.get(c, 0) < self.per_client]
            if not ready:
                return None
            client = min(ready, key=lambda c: self._served.get(("client", c), -1))
            tables = self._waiting[client]
            table_id = min(tables, key=lambda t: self._served.get(("table", t), -1))
            jobs = tables[table_id]
            job = jobs.popleft()
            if not jobs:
                del tables[table_id]
                if not tables:
                    del self._waiting[client]
            if job[2].done():
                continue  # its caller stopped waiting (a table's bots stopped)
            if len(self._served) >= OWNERS_KEPT:
                self._served.clear()
            self._tick += 1
            self._served["client", client] = self._served["table", table_id] = self._tick
            return client, job

    def _hand_back(self, loop: asyncio.AbstractEventLoop, client: str,
                   out: asyncio.Future[Any], done: Future[Any]) -> None:
        """(In the search thread) the job's end goes to the event loop."""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
            loop.call_soon_threadsafe(self._finished, client, done, out)

    def _finished(self, client: str, done: Future[Any], out: asyncio.Future[Any]) -> None:
        left = self._running[client] - 1
        if left:
            self._running[client] = left
        else:
            del self._running[client]
        if not out.done():
            err = done.exception()
            if err is not None:
                out.set_exception(err)
            else:
                out.set_result(done.result())
        self._dispatch()

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def nobody_since(table: Table, now: float) -> float | None:
    """Since when (loop time) no person is connected to ``table``'s seats, here or on
    another server process: the last to leave's time, or ``now`` for a person who never
    came; None while one is connected."""
    people = [s for s in range(table.players) if table.seats.kinds[s] == "person"]
    if any(table.presence.connected(s) for s in people):
        return None
    return max((table.presence.gone_at.get(s, now) for s in people), default=now)
