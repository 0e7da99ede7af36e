"""The computer players at a table: bots' seats and the stand-in, played off the event loop
in the search pool."""

from __future__ import annotations

import asyncio
import contextlib
import random

from rummykit.bots import Bot, make_bot
from rummykit.engine.views import view
from rummykit.server.hub.base import (
    RETRY_MAX,
    HubCore,
    log,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.table import (
    Table,
)
from rummykit.server.pool import nobody_since


class Bots(HubCore):
    """The computer players at a table (a part of :class:`Hub`: see the module)."""

    @staticmethod
    def bot_rng(table: Table, seat: int) -> random.Random:
        """The generator of ``seat``'s bot for its next move: from the table's secret seed
        (never shown to a player), so nobody can work out a bot's next choice from what is
        public (the table's id and the move's number)."""
        return random.Random(f"rummykit/bot/{table.seed}/{seat}/{table.seq}")

    def _bot_spec(self, level: str) -> str:
        """A seat's bot: a level alone gets the server's think time where it thinks."""
        if level == "master":
            return f"master(think={self.think})"
        return level

    @staticmethod
    def _level_at(table: Table, seat: int) -> str | None:
        """The level of the computer player that plays ``seat`` now: the seat's bot, or
        the table's stand-in for a person who is away; None while a person plays it."""
        if table.seats.kinds[seat] == "bot":
            return table.seats.levels[seat]
        return table.standin if table.seats.standing[seat] else None

    def _schedule_bot(self, table: Table) -> None:
        if table.status != "playing" or table.match.is_over or not self._plays_bots(table):
            return
        seat = table.match.deal.to_move
        if self._level_at(table, seat) is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        delay = self.retry_delay
        while True:
            try:
                await self._play_bots(table)
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # a bot or the database failed: say so, and try again
                log.exception("table %s: the bot's turn failed; trying again in %.1f s",
                              table.id, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)

    async def _play_bots(self, table: Table) -> None:
        bots: dict[tuple[int, str], Bot] = {}
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.bot_delay)
            since = nobody_since(table, loop.time())
            if since is not None and loop.time() - since >= self.idle_limit:
                # Nobody's here to watch: the bots wait until a person connects again.
                log.info("table %s: no person connected for %.0f s; its bots wait",
                         table.id, loop.time() - since)
                return
            if table.reading:
                # The people read the last deal's summary; then the next deal goes on.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.read.wait(), self.summary_wait)
                if table.reading:
                    table.reading.clear()
                    self._arm_timer(table)
                    await self.broadcast(table)
            async with table.lock:
                await self._current(table)
                if table.status != "playing" or table.match.is_over:
                    return
                seat = table.match.deal.to_move
                level = self._level_at(table, seat)
                if level is None:
                    return
                bot = bots.setdefault((seat, level), make_bot(self._bot_spec(level)))
                rng = self.bot_rng(table, seat)
                seen, seq = view(table.match, seat), table.seq
            # A bot that searches thinks for a while: off the event loop, so that every
            # other table goes on meanwhile, and without the table's lock, so that the
            # people at this one can still ask for hints and reasons (the view is a
            # snapshot; only the bot moves at its seat, so the position waits for it).
            action = await self.pool.run(table.id, bot.choose, seen, rng)
            async with table.lock:
                if table.seq != seq or table.status != "playing" or (
                        self._level_at(table, seat) != level):
                    continue  # the table changed meanwhile (or its person came back)
                with contextlib.suppress(HubError):  # stale: another process played it
                    await self._commit(table, seat, action)
            await self.broadcast(table)
            if not self._plays_bots(table):
                return

    def _plays_bots(self, table: Table) -> bool:
        """Whether this process plays the table's bots and keeps its clock: with several
        server processes, each one where someone is at the table, or every one while
        nobody is anywhere. Two processes may so work out the same move: the database
        keeps the first stored (a bot's choice is seeded by the table and the move, so it
        is the same move), and a process that stopped never holds the table up."""
        if not self.bus.shared or table.presence.here():
            return True
        return not any(seats or watchers
                       for seats, watchers, _ in table.presence.elsewhere.values())
