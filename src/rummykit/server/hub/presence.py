"""Who is connected to a table: connections come and go, are replaced or closed, and
everyone hears who is here."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from rummykit.server.hub.base import (
    HubCore,
)
from rummykit.server.hub.table import (
    Send,
    Table,
)


class Presence(HubCore):
    """Who is connected to a table (a part of :class:`Hub`: see the module)."""

    def connect(self, table: Table, seat: int, send: Send,
                kick: Callable[[str], Awaitable[None]] | None = None, *,
                full: bool = False) -> None:
        """``send`` is one of ``seat``'s connections now (with ``full``, one that hears
        full views: see :meth:`state_for`)."""
        table.presence.sockets.setdefault(seat, set()).add(send)
        if full:
            table.presence.full.add(send)
        if kick is not None:
            table.presence.kicks[send] = kick
        if self.bus.shared:
            self._later(self._tell_here(table))
        if table.presence.gone_at.pop(seat, None) is not None and table.seats.standing[seat] and (
                not table.seats.away[seat]):
            # Back after losing the connection: the seat is theirs again (with what is
            # left of the turn's time, if it is theirs).
            table.seats.standing[seat] = False
            if self.bus.shared:
                self._later(self.announce(table, "standing", seat=seat, on=False))
        if table.turn_timer is not None and table.status == "playing":
            self._arm_timer(table)
        if table.seats.kinds[seat] == "person":
            self._schedule_bot(table)  # (bots left waiting by an idle table go on)

    def disconnect(self, table: Table, seat: int, send: Send) -> None:
        table.presence.sockets.get(seat, set()).discard(send)
        table.presence.kicks.pop(send, None)
        table.presence.full.discard(send)
        if self.bus.shared:
            self._later(self._tell_here(table))
        if not table.presence.connected(seat) and table.seats.kinds[seat] == "person":
            table.presence.gone_at[seat] = asyncio.get_running_loop().time()
            if table.turn_timer is not None and table.status == "playing":
                self._arm_timer(table)

    async def kick(self, table: Table, send: Send, reason: str) -> None:
        """Close one connection, saying why (``"replaced"``: the same browser opened the
        seat elsewhere; ``"claimed"``: a browser claimed the seat; ``"revoked"``: the
        link it came with was replaced)."""
        close = table.presence.kicks.get(send)
        for sends in table.presence.sockets.values():
            sends.discard(send)
        table.presence.kicks.pop(send, None)
        table.presence.full.discard(send)
        if close is not None:
            with contextlib.suppress(Exception):
                await close(reason)

    def presence(self, table: Table) -> dict[str, Any]:
        """Who is at the table now: for each seat, whether its person is connected and
        whether a browser has claimed it (public: everyone sees who is here)."""
        return {"type": "presence", "seats": self._presence(table),
                "watchers": table.presence.watching()}

    def _presence(self, table: Table) -> list[dict[str, bool]]:
        return [{"connected": table.seats.kinds[s] == "bot" or table.presence.connected(s),
                 "claimed": table.seats.kinds[s] == "bot" or table.seats.key_hashes[s] is not None,
                 "standin": table.seats.standing[s], "away": table.seats.away[s]}
                for s in range(table.players)]

    async def send_presence(self, table: Table) -> None:
        """Who is here, to everyone connected (after a change here: the other server
        processes hear of it too)."""
        await self._tell_here(table)
        await self._show_presence(table)

    async def _show_presence(self, table: Table) -> None:
        message = self.presence(table)
        for send in table.presence.everyone():
            with contextlib.suppress(Exception):
                await send(message)
