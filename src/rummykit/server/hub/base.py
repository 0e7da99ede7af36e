"""The hub's core: its settings, its tables, its writer and announcer threads, and the few
helpers every part uses."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from rummykit.bots.hints import ROLLOUTS
from rummykit.engine.actions import Action
from rummykit.server.bus import HEARTBEAT, Bus, LocalBus
from rummykit.server.hub.storage import (
    Engine,
    Storage,
)
from rummykit.server.hub.table import Send, Table
from rummykit.server.pool import IDLE_LIMIT, SearchPool
from rummykit.server.transfers import LIFETIME as TRANSFER_LIFETIME
from rummykit.server.transfers import TransferCodes

log = logging.getLogger("rummykit.server")

HISTORY_SENT = 60
"""The most recent actions sent with each view."""

RETRY_FIRST = 1.0
RETRY_MAX = 30.0
"""A bot turn that failed (the database not answering) is tried again after RETRY_FIRST
seconds, then twice as long each time, at most RETRY_MAX."""

SUMMARY_WAIT = 20.0
"""After a deal, the longest the bots wait for the people at the table to close its
summary before the next deal goes on (seconds)."""

HINT_THINK = 1.0
"""The longest a hint searches, in seconds (less where the server's ``--think`` is less)."""
HINT_ROLLOUTS = ROLLOUTS
"""The imagined deals a hint's search plays, where :data:`HINT_THINK` allows: with the
position's seed, the same position gets the same hint."""

AWAY_GRACE = 20.0
"""With a turn timer, the longest a person who is not connected keeps the table waiting
on their turn before the stand-in plays it (seconds; less where the timer is less)."""

TRANSFER_TIME = TRANSFER_LIFETIME
"""Seconds a code that carries a player's key to another device stays good."""

LINK_ABSENCE = 600.0
"""Seconds a person must have been away from a match in play (no connection) before the
table's maker may give their seat a new link; one who handed the seat over may be
replaced at once."""


class HubCore(Storage):
    """The hub's core (a part of :class:`Hub`: see the module)."""

    if TYPE_CHECKING:
        # What the parts ask of each other (each is defined in the part named).
        def _plays_bots(self, table: Table) -> bool: ...  # bots
        def _schedule_bot(self, table: Table) -> None: ...  # bots
        async def _heard_chat(self, table: Table, message: dict[str, Any]) -> None: ...  # chat
        def _arm_timer(self, table: Table) -> None: ...  # clock
        def _time_left(self, table: Table) -> float | None: ...  # clock
        def resume(self, table: Table) -> None: ...  # clock
        async def _catch_up(self, table: Table) -> None: ...  # following
        async def _current(self, table: Table) -> None: ...  # following
        async def _fresh(self, table: Table) -> None: ...  # following
        async def _tell_here(self, table: Table) -> None: ...  # following
        async def _tell_question(self, table: Table) -> None: ...  # following
        async def fetch(self, table_id: str) -> Table: ...  # lifecycle
        async def _commit(self, table: Table, seat: int, action: Action) -> None: ...  # play
        async def _heard_seen(self, table: Table, seat: int) -> None: ...  # play
        def _played(self, table: Table, seat: int, seq: int, text: str) -> None: ...  # play
        @staticmethod
        def _undo_problem(table: Table, seat: int) -> str | None: ...  # play
        def _presence(self, table: Table) -> list[dict[str, bool]]: ...  # presence
        async def _show_presence(self, table: Table) -> None: ...  # presence
        async def kick(self, table: Table, send: Send, reason: str) -> None: ...  # presence
        async def send_presence(self, table: Table) -> None: ...  # presence
        async def broadcast(self, table: Table) -> None: ...  # sending
        async def _set_standing(self, table: Table, seat: int, standing: bool, *,
                                away: bool = False) -> None: ...  # standin
        @staticmethod
        def nobody_played(table: Table) -> bool: ...  # standin

    def __init__(self, engine: Engine, *, bot_delay: float = 0.6, think: float = 1.0,
                 summary_wait: float = SUMMARY_WAIT, timer_unit: float = 1.0,
                 bus: Bus | None = None, heartbeat: float = HEARTBEAT,
                 idle_limit: float = IDLE_LIMIT, pool: SearchPool | None = None) -> None:
        self.engine = engine
        self.pool = pool or SearchPool()
        """Where bots' moves and hints are worked out (fairly between clients)."""
        self.idle_limit = idle_limit
        """Seconds a table's bots play on once no person is connected to it."""
        self.bus = bus or LocalBus()
        """How this process hears of the others (:mod:`rummykit.server.bus`)."""
        self.heartbeat = heartbeat
        """Seconds between this process's "alive" announcements; another process not heard
        of for three of them has nobody connected (less only for tests)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.alive: dict[str, float] = {}
        """When each other server process was last heard of (monotonic time)."""
        self.timer_unit = timer_unit
        """Real seconds in a second of the turn timer (less than 1 only for tests and
        demonstrations: a 10-second timer then runs out sooner)."""
        self.bot_delay = bot_delay
        self.summary_wait = summary_wait
        self.retry_delay = RETRY_FIRST
        """Seconds before a failed bot turn is tried again (doubling up to RETRY_MAX)."""
        self.link_absence = LINK_ABSENCE
        """Seconds of absence from a match in play before a seat may get a new link (less
        only for tests)."""
        self.think = think
        """Seconds the master thinks over each decision where its level names none, and
        the most a seat may ask for."""
        self.tables: dict[str, Table] = {}
        self.transfers = TransferCodes(TRANSFER_TIME)
        """One-time codes that carry a player's key to another device."""
        self.broken: set[str] = set()
        """Tables found broken: refused at once, never rebuilt again."""
        self._loading: dict[str, asyncio.Lock] = {}
        # One writer thread: writes stay in order and never contend for the database.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-db")
        # Actions waiting for the writer (stored together: see _write_action).
        self._waiting: list[tuple[tuple[str, int, int, str], asyncio.Future[None]]] = []
        self._waiting_lock = threading.Lock()
        self._batch_due = False
        # One announcer thread: announcements stay in order and never delay a write.
        self._announcer = ThreadPoolExecutor(max_workers=1,
                                             thread_name_prefix="rummykit-announce")

    async def _write_action(self, table_id: str, seq: int, seat: int, text: str) -> None:
        """Store one action (as :meth:`_write` would), committed with the others that
        arrived while the writer was busy: a group commit. It returns once its own
        transaction has committed, so no view is sent before its action is stored."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._waiting_lock:
            self._waiting.append(((table_id, seq, seat, text), done))
            start = not self._batch_due
            self._batch_due = True
        if start:
            loop.run_in_executor(self._writer, self._store_batch, loop)
        await done

    def _store_batch(self, loop: asyncio.AbstractEventLoop) -> None:
        """(In the writer thread.) Store every action waiting now in one transaction. If
        it fails, each is tried alone, so one action's failure (another process stored
        that table's next action first: a conflict) is only its own."""
        with self._waiting_lock:
            batch, self._waiting = self._waiting, []
            self._batch_due = False
        if not batch:
            return
        try:
            self._save_actions([action for action, _ in batch])
            results: list[BaseException | None] = [None] * len(batch)
        except Exception:
            if len(batch) == 1:
                results = [sys.exc_info()[1]]
            else:
                results = []
                for action, _ in batch:
                    try:
                        self._save_actions([action])
                        results.append(None)
                    except Exception as failed:
                        results.append(failed)
        for (_, done), outcome in zip(batch, results, strict=True):
            loop.call_soon_threadsafe(_settle, done, outcome)

    async def _write(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(table_id or table, ...)`` in the writer thread; then the other server
        processes hear that the table changed."""
        await asyncio.get_running_loop().run_in_executor(self._writer, self._stored, fn,
                                                         args)

    def _stored(self, fn: Callable[..., None], args: tuple[Any, ...]) -> None:
        fn(*args)
        if not self.bus.shared:
            return  # (an action is announced as it is stored: see _save_actions)
        first = args[0]
        self._announcer.submit(self._announce, {
            "k": "changed", "t": first if isinstance(first, str) else first.id})

    def _announce(self, message: dict[str, Any]) -> None:
        """Tell the other server processes (in the announcer thread, after what was
        stored); a failure is logged: they catch up at the next change."""
        if not self.bus.shared:
            return
        try:
            self.bus.publish(message)
        except Exception:
            log.warning("could not tell the other processes of a %s", message.get("k"),
                        exc_info=True)

    async def announce(self, table: Table | None, kind: str, **data: Any) -> None:
        """Tell the other server processes of what only memory holds (see the bus)."""
        if self.bus.shared:
            message = {"k": kind, **data}
            if table is not None:
                message["t"] = table.id
            await asyncio.get_running_loop().run_in_executor(self._announcer,
                                                             self._announce, message)

    def _later(self, work: Awaitable[None]) -> None:
        """Run ``work`` on the event loop without waiting for it (kept until it ends)."""
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def shutdown(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        self.bus.stop()
        self._writer.shutdown(wait=True)
        self._announcer.shutdown(wait=True)
        self.pool.shutdown()


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """(On the event loop.) A stored action's waiter: done, or its error."""
    if done.cancelled():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
