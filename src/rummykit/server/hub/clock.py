"""The turn timer: the clock of the person to move, and the stand-in when it runs out."""

from __future__ import annotations

import asyncio

from rummykit.server.hub.base import (
    AWAY_GRACE,
    HubCore,
    log,
)
from rummykit.server.hub.table import (
    Table,
)


class Clock(HubCore):
    """The turn timer (a part of :class:`Hub`: see the module)."""

    def _arm_timer(self, table: Table) -> None:
        """Start or stop the clock of the person to move. With a turn timer, a person
        has ``turn_timer`` seconds for a whole turn, and a person who is not connected
        at most AWAY_GRACE of them; then the stand-in plays for them until they come back.
        The clock waits while people read a deal's summary."""
        if table.clock.task is not None:
            table.clock.task.cancel()
            table.clock.task = None
        table.clock.ticking = False
        if table.turn_timer is None or table.status != "playing" or table.match.is_over:
            table.clock.deadline = None
            table.clock.timed = None
            return
        seat = table.match.deal.to_move
        if table.seats.kinds[seat] != "person" or table.seats.standing[seat] or table.reading:
            # No clock runs now; a turn keeps its deadline (leaving and coming back
            # within a turn gives no more time).
            return
        loop = asyncio.get_running_loop()
        turn = (table.match.deal_number, seat)
        if table.clock.timed != turn or table.clock.deadline is None:
            table.clock.timed = turn
            table.clock.deadline = loop.time() + table.turn_timer * self.timer_unit
        due = table.clock.deadline
        if seat in table.presence.gone_at:
            grace = min(AWAY_GRACE, table.turn_timer) * self.timer_unit
            due = min(due, table.presence.gone_at[seat] + grace)
        table.clock.ticking = True
        if self._plays_bots(table):
            # (With several server processes, the one that plays the table's bots.)
            table.clock.task = loop.create_task(self._time_up(table, turn, table.seq, due))

    async def _time_up(self, table: Table, turn: tuple[int, int], seq: int,
                       due: float) -> None:
        await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
        async with table.lock:
            seat = turn[1]
            if (table.clock.timed != turn or table.seq != seq or table.status != "playing"
                    or table.seats.standing[seat]):
                return
            log.info("table %s: %s's time is up; the stand-in plays", table.id,
                     table.seats.names[seat])
            table.seats.standing[seat] = True
            table.clock.deadline = None
            table.clock.timed = None
            await self.announce(table, "standing", seat=seat, on=True)
        await self.broadcast(table)
        self._schedule_bot(table)

    def _time_left(self, table: Table) -> float | None:
        """Seconds the person to move has left for this turn (None: no clock runs)."""
        if table.clock.deadline is None or not table.clock.ticking:
            return None
        left = (table.clock.deadline - asyncio.get_running_loop().time()) / self.timer_unit
        return round(max(0.0, left), 1)

    def resume(self, table: Table) -> None:
        """After a start: the bots and the clock of a restored table go on (nobody is
        connected yet: each person's grace counts from now)."""
        now = asyncio.get_running_loop().time()
        for seat in range(table.players):
            if table.seats.kinds[seat] == "person" and not table.presence.connected(seat):
                table.presence.gone_at.setdefault(seat, now)
        self._schedule_bot(table)
        self._arm_timer(table)
