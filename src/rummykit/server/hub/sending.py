"""What each seat hears: its view with the table's public facts, sent to every connection."""

from __future__ import annotations

import contextlib
from typing import Any

from rummykit.engine.scoring import melded_points
from rummykit.engine.views import public_view, view
from rummykit.server.hub.base import (
    HISTORY_SENT,
    HubCore,
)
from rummykit.server.hub.table import (
    Table,
)
from rummykit.server.outbox import encode


class Sending(HubCore):
    """What each seat hears (a part of :class:`Hub`: see the module)."""

    async def current_state(self, table: Table, seat: int | None, *,
                            full: bool = False) -> dict[str, Any]:
        """:meth:`state_for` once ``table`` is up to date with the database (a ``sync``
        asks for the table as it is, not as this process last heard of it)."""
        if self.bus.shared or table.stale:
            async with table.lock:
                await self._fresh(table)
                await self._current(table)
        return self.state_for(table, seat, full=full)

    def state_for(self, table: Table, seat: int | None, *,
                  full: bool = False) -> dict[str, Any]:
        """Everything seat ``seat`` may see, with the table's public facts; for a
        spectator (``seat`` None), the public view (:func:`rummykit.engine.views.public_view`).
        With ``full`` (a seat's program), the seat's whole view: the deal's every action and
        what the seat knows of every card (``View.to_json(full=True)``), from which
        ``View.from_json`` makes the engine's view again for a bot."""
        # The page shows the recent actions; the whole history stays in the record.
        if seat is not None and full:
            v = view(table.match, seat).to_json(full=True)
        elif seat is not None:
            v = view(table.match, seat, recent=HISTORY_SENT).to_json()
        else:
            v = public_view(table.match, recent=HISTORY_SENT)
        v["history_length"] = table.match.deal.move_count
        rematch = None
        if seat is not None and table.next_table is not None:
            nxt = self.tables.get(table.next_table)
            if nxt is not None and nxt.seats.token_hashes[seat]:
                # The page adds its own token: the seat's key carries over to the rematch.
                rematch = f"/t/{nxt.id}"
        return {
            "type": "view",
            "table": {
                "id": table.id, "status": table.status, "rules": str(table.rules),
                "seats": [{"name": table.seats.names[s], "kind": table.seats.kinds[s],
                           "level": table.seats.levels[s], "joined": table.seats.joined[s],
                           **here}
                          for s, here in enumerate(self._presence(table))],
                "seq": table.seq, "last": table.last, "rematch": rematch,
                "settlement": table.match.settlement(),
                "hints": {str(number): counts for number, counts in table.hints.counts.items()},
                "opening": table.rules.opening,
                "reading": sorted(table.reading),
                "undo": (seat is not None and not table.rated
                         and self._undo_problem(table, seat) is None),
                "rated": table.rated,
                "watchers": table.presence.watching(),
                "target": table.match.target,
                "melded": self._melded(table),
                "last_melded": self._melded(table, last=True),
                "left": table.vote.left,
                "votes": {str(s): end for s, end in table.vote.choices.items()},
                "ended_by": table.ended_by,
                "abandoned": table.abandoned,
                "timer": table.turn_timer,
                "standin": table.standin,
                "time_left": self._time_left(table),
            },
            "view": v,
        }

    @staticmethod
    def _melded(table: Table, last: bool = False) -> list[int] | None:
        """Where melded cards score (rummy500): the points each seat has laid this deal
        (with ``last``, in the deal finished before it, which its summary shows)."""
        deal = table.match.deal
        if last:
            done = [d for d in table.match.finished[-2:] if d is not deal]
            if not done:
                return None
            deal = done[-1]
        return melded_points(table.rules, deal.table, table.players)

    async def broadcast(self, table: Table) -> None:
        """Each connected seat's view, encoded once for all of that seat's connections;
        the spectators share one public view."""
        full = table.presence.full
        for seat, sends in list(table.presence.sockets.items()):
            if not sends:
                continue
            message = whole = None
            for send in list(sends):
                if send in full:
                    if whole is None:
                        whole = encode(self.state_for(table, seat, full=True))
                    out = whole
                else:
                    if message is None:
                        message = encode(self.state_for(table, seat))
                    out = message
                with contextlib.suppress(Exception):
                    await send(out)
        if table.presence.watchers:
            public = encode(self.state_for(table, None))
            for send in list(table.presence.watchers):
                with contextlib.suppress(Exception):
                    await send(public)
