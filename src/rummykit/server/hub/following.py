"""The other server processes: this one's heartbeat, the announcements it hears and
follows, and catching a table up with the database."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from typing import Any

from rummykit.engine.match import Match
from rummykit.errors import RummyError
from rummykit.server import announcements
from rummykit.server.hub.base import (
    HubCore,
    log,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.storage import (
    StorageError,
)
from rummykit.server.hub.table import (
    Table,
)


class Following(HubCore):
    """The other server processes (a part of :class:`Hub`: see the module)."""

    def start(self) -> None:
        """From the event loop, once the tables are restored: hear the other server
        processes (if any) and tell them every ``heartbeat`` seconds that this one lives."""
        if not self.bus.shared:
            return
        loop = asyncio.get_running_loop()

        def deliver(message: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(self._heard, message)

        self.bus.start(deliver)
        self._later(self._heartbeat())
        # Whoever is connected elsewhere to the tables restored here: they say so.
        self._later(self.announce(None, "who"))

    def _heard(self, message: dict[str, Any]) -> None:
        self._later(self._on_message(message))

    async def _heartbeat(self) -> None:
        """Every ``heartbeat`` seconds: tell the others this process lives; forget who was
        connected to a process not heard of for three of them (it stopped, or lost the
        database)."""
        while True:
            await asyncio.sleep(self.heartbeat)
            await self.announce(None, "alive")
            now = time.monotonic()
            for table in list(self.tables.values()):
                gone = [p for p in table.presence.elsewhere
                        if now - self.alive.get(p, 0.0) > 3 * self.heartbeat]
                if gone:
                    await self._elsewhere(table, {p: None for p in gone})
            await self._audit()

    async def _audit(self) -> None:
        """Compare each table that someone here watches or plays with what is stored, and
        read again those that differ: an announcement lost while the database was away
        leaves no table behind for longer than a heartbeat."""
        here = {t.id: t for t in list(self.tables.values()) if t.presence.here() and not t.stale}
        if not here:
            return
        try:
            stored = await asyncio.to_thread(self._stored_seqs, list(here))
        except StorageError:
            return  # (the database is away: the next heartbeat looks again)
        for table_id, table in here.items():
            if stored.get(table_id, (table.seq, table.status))[0] != table.seq or (
                    table.status != "finished"
                    and stored.get(table_id, (0, table.status))[1] == "finished"):
                log.warning("table %s was behind the database here; read again", table_id)
                table.stale = True
                with contextlib.suppress(StorageError):
                    await self.refresh(table)

    async def _tell_here(self, table: Table) -> None:
        seats = sorted(s for s, sends in table.presence.sockets.items() if sends)
        await self.announce(table, "here", seats=seats, watchers=len(table.presence.watchers))

    async def _tell_question(self, table: Table) -> None:
        await self.announce(table, "question", left=table.vote.left,
                            votes={str(s): end for s, end in table.vote.choices.items()})

    async def _on_message(self, message: Mapping[str, object]) -> None:
        """What another server process announced (see :mod:`rummykit.server.bus`): parsed
        into its :mod:`~rummykit.server.announcements` type first; one that is not
        understood is logged (by its kind and field, never its values: a transfer's
        announcement holds a key) and ignored."""
        sender = message.get("from")
        if isinstance(sender, str) and sender:
            self.alive[sender] = time.monotonic()
        try:
            heard = announcements.parse(message)
        except announcements.BadAnnouncement as err:
            log.warning("an announcement of another process was not understood: %s", err)
            return
        try:
            await self._follow(heard, sender)
        except StorageError:
            # The table could not be read again: it is read when next needed.
            held = self.tables.get(str(message.get("t")))
            if held is not None:
                held.stale = True
            log.warning("an announcement of another process could not be followed (the "
                        "database did not answer)")

    async def _follow(self, heard: announcements.Announcement, sender: object) -> None:
        """Do what another process's announcement asks of this one."""
        match heard:
            case announcements.Alive():
                return
            case announcements.Who(table=wanted):
                # Another process (re)started or read a table: who is connected here.
                for table in list(self.tables.values()):
                    if table.presence.here() and wanted in (None, table.id):
                        await self._tell_here(table)
                return
            case announcements.Resync():
                # Heard again after a break: whatever was announced meanwhile is lost, so
                # every table is read again before it is next shown or used here.
                for table in list(self.tables.values()):
                    table.stale = True
                for table in list(self.tables.values()):
                    if table.presence.here():
                        with contextlib.suppress(StorageError):
                            await self.refresh(table)
                return
            case announcements.Transfer(code=code, key=key):
                self.transfers.heard(code, key)
                return
            case announcements.Spent(code=code):
                self.transfers.spend(code)
                return
        table_id = heard.table
        held = self.tables.get(table_id)
        if held is None:
            if isinstance(heard, announcements.Changed) and table_id not in self.broken:
                # A table made (or started) in another process: held here too, so the
                # lobby and every page here show it.
                with contextlib.suppress(HubError):
                    loaded = await self.fetch(table_id)
                    await self.refresh(loaded)  # (it may have been read before this)
                    if loaded.status != "finished":
                        self.resume(loaded)
            return
        table = held
        match heard:
            case announcements.Changed() | announcements.Played() if not (
                    table.presence.here() or table.listed or self._plays_bots(table)):
                table.stale = True  # nobody here to tell: read when next needed
            case announcements.Played(seq=seq, seat=seat, text=text):
                await self._heard_action(table, seq, seat, text)
            case announcements.Changed():
                await self.refresh(table)
            case announcements.Here(seats=seats, watchers=watchers):
                if isinstance(sender, str) and sender:
                    await self._elsewhere(table, {sender: (seats, watchers,
                                                           time.monotonic())})
            case announcements.Chat(message=said):
                await self._heard_chat(table, said)
            case announcements.Seen(seat=seat):
                await self._heard_seen(table, seat)
            case announcements.Standing(seat=seat, on=on) if seat < table.players:
                table.seats.standing[seat] = on
                self._arm_timer(table)
                await self.broadcast(table)
                self._schedule_bot(table)
            case announcements.Question(left=left, votes=votes):
                table.vote.left = list(left)
                table.vote.choices = dict(votes)
                await self.broadcast(table)
            case announcements.Kick(seat=seat, reason=reason):
                for send in list(table.presence.sockets.get(seat, ())):
                    await self.kick(table, send, reason)

    async def _elsewhere(self, table: Table,
                         changes: dict[str, tuple[frozenset[int], int, float] | None]) -> None:
        """Another process's connections at ``table`` changed (None: it has none now)."""
        before = [table.presence.connected(s) for s in range(table.players)]
        watching = table.presence.watching()
        for process, entry in changes.items():
            if entry is None:
                table.presence.elsewhere.pop(process, None)
            else:
                table.presence.elsewhere[process] = entry
        after = [table.presence.connected(s) for s in range(table.players)]
        now = asyncio.get_running_loop().time()
        for seat in range(table.players):
            if table.seats.kinds[seat] != "person":
                continue
            if before[seat] and not after[seat]:
                table.presence.gone_at[seat] = now
            elif after[seat]:
                table.presence.gone_at.pop(seat, None)
        self._arm_timer(table)
        self._schedule_bot(table)
        if after != before or table.presence.watching() != watching:
            await self._show_presence(table)

    async def _fresh(self, table: Table) -> None:
        """With several server processes: bring ``table`` up to date before deciding
        anything from it (the caller holds its lock)."""
        if self.bus.shared:
            await self._catch_up(table)

    async def _current(self, table: Table) -> None:
        """Read ``table`` again if another process changed it since (the caller holds
        its lock)."""
        if table.stale:
            await self._catch_up(table)

    async def _heard_action(self, table: Table, seq: int, seat: int, text: str) -> None:
        """Another process stored action ``seq``: played here too if it is the next one
        (it was checked and stored there), else the table is read again."""
        async with table.lock:
            if table.stale or seq != table.seq + 1:
                if seq > table.seq:
                    await self._catch_up(table)
            else:
                try:
                    self._played(table, seat, seq, text)
                except RummyError:
                    await self._catch_up(table)
                if table.match.is_over and table.status == "playing":
                    table.status = "finished"  # (its bookkeeping is under way there)
                    table.abandoned = self.nobody_played(table)
                self._arm_timer(table)
        await self.broadcast(table)
        self._schedule_bot(table)

    async def refresh(self, table: Table) -> None:
        """Bring ``table`` up to date with the database (another process changed it) and
        tell the connections here."""
        async with table.lock:
            await self._catch_up(table)
        await self.broadcast(table)
        self._schedule_bot(table)

    async def _catch_up(self, table: Table) -> None:
        """Read ``table`` again and play what another process stored (the caller holds
        the table's lock): its seats and status, and the actions from the last one played
        here on. A table whose stored actions no longer continue the ones played here (an
        undo there) is replayed from its start."""
        row = await asyncio.to_thread(self._reread, table.id, table.seq)
        if row is None:
            return
        seats, actions = row["seats"], row["actions"]
        names = [stored["name"] for stored in seats]
        continues = table.seq == 0 or (
            bool(actions) and actions[0][0] == table.seq and actions[0][2] == table.actions[-1])
        if names != table.seats.names or not continues:
            if table.seq:
                row = await asyncio.to_thread(self._reread, table.id, 0)
                if row is None:
                    return
                seats, actions = row["seats"], row["actions"]
            table.seats.names = names
            table.match = Match(table.rules, players=names, seed=table.seed,
                                first_dealer=table.match.dealers[0])
            table.actions = []
            table.seq = 0
            table.hints.given.clear()
        for seat, stored in enumerate(seats):
            table.seats.joined[seat] = stored["joined"]
            table.seats.key_hashes[seat] = stored["key_hash"]
            table.seats.token_hashes[seat] = stored["token_hash"]
            if table.seats.away[seat] != stored["away"]:
                table.seats.away[seat] = table.seats.standing[seat] = stored["away"]
        for seq, seat, text in actions:
            if seq > table.seq:
                self._played(table, seat, seq, text)
        table.status = row["status"]
        if table.match.is_over and table.status == "playing":
            # Its last action is stored; its bookkeeping is under way there.
            table.status = "finished"
        table.next_table = row["next_table"]
        table.ended_by = row["ended_by"]
        table.abandoned = row["abandoned"]
        table.listed = row["listed"]
        if table.status != "playing":
            table.vote.close()
        table.stale = False
        self._arm_timer(table)
