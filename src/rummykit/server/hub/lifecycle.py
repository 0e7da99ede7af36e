"""A table's life: made, joined, rematched; rebuilt after a start; read into memory and
forgotten."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence

from rummykit.bots import BOTS, parse_bot
from rummykit.engine.match import Match
from rummykit.errors import RulesError
from rummykit.limits import (
    BOT_LEVEL_LENGTH,
    NAME_LENGTH,
    RULES_LENGTH,
    SEED_LIMIT,
    TIMER_RANGE,
)
from rummykit.names import printable_name
from rummykit.rules import Rules
from rummykit.server.hub.base import (
    HubCore,
    log,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.storage import (
    BROKEN_MESSAGE,
)
from rummykit.server.hub.table import (
    STANDIN,
    Seats,
    SeatSpec,
    Table,
    token_hash,
)


class Lifecycle(HubCore):
    """A table's life (a part of :class:`Hub`: see the module)."""

    def restore(self) -> int:
        """Rebuild every unfinished table from the database; return how many were rebuilt.

        A table that cannot be rebuilt is logged, marked ``broken`` (and not tried again on
        the next start); the others are restored all the same. A table whose replayed
        match is over but is not marked finished (the server stopped between the last
        action and the match's bookkeeping) is finished now: its status comes from the
        game, not from what was written last."""
        rebuilt = self._rebuild_unfinished()
        for table in rebuilt:
            self.tables[table.id] = table
        unfinished = [table for table in rebuilt if table.match.is_over]
        restored = len(rebuilt)
        for table in unfinished:
            log.warning("table %s: its match was over but not recorded; recording it now",
                        table.id)
            table.abandoned = self.nobody_played(table)
            self._save_finish(table)
            table.status = "finished"
        return restored

    def get(self, table_id: str) -> Table:
        """The table ``table_id``, rebuilt from the database if it is not in memory: 404 if
        there is none, 410 if it is broken (now or before)."""
        table = self.tables.get(table_id)
        if table is None:
            table = self.tables[table_id] = self._load(table_id)
        return table

    def _load(self, table_id: str) -> Table:
        """:meth:`get`'s reading and replay, without putting the table in memory."""
        if table_id in self.broken:
            raise HubError(BROKEN_MESSAGE, 410, code="table-broken")
        if not table_id.isalnum() or len(table_id) > 32:
            raise HubError("there is no such table", 404, code="no-table")
        rebuilt = self._read_table(table_id)
        if rebuilt is None:
            # The mark goes through the writer thread, like every write while serving.
            self._writer.submit(self._save_broken, table_id).add_done_callback(self._saved)
            raise HubError(BROKEN_MESSAGE, 410, code="table-broken")
        return rebuilt

    async def fetch(self, table_id: str) -> Table:
        """:meth:`get` from the event loop: a table not in memory is read and replayed in
        a worker thread, so the other tables go on meanwhile (two requests for the same
        table get the same one)."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.stale:
                async with table.lock:
                    await self._current(table)
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    # Read and replayed in a worker thread; put in memory here, on the
                    # event loop, so nothing that goes over the tables sees them change.
                    loaded = await asyncio.to_thread(self._load, table_id)
                    table = self.tables.setdefault(table_id, loaded)
                    if table is loaded and self.bus.shared:
                        await self.announce(table, "who")  # who is at it elsewhere
                return table
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    def forget(self, table: Table) -> None:
        """A finished table nobody is connected to leaves memory (it is read again from
        the database if anyone asks for it)."""
        if (table.status == "finished" and not any(table.presence.sockets.values())
                and not table.presence.watchers and not table.lock.locked()
                and self.tables.get(table.id) is table):
            del self.tables[table.id]

    async def open_table(
        self, rules_text: str, seats: Sequence[SeatSpec], *, seed: int | None = None,
        previous: str | None = None, first_dealer: int | None = None,
        token_hashes: Sequence[str | None] | None = None,
        key_hashes: Sequence[str | None] | None = None, creator_hash: str | None = None,
        turn_timer: int | None = None, standin: str | None = None, listed: bool = False,
        rated: bool = False,
    ) -> Table:
        """:meth:`create` from the event loop: the database write goes to the writer thread
        (the table is put in memory here, on the event loop)."""
        table = await asyncio.get_running_loop().run_in_executor(
            self._writer, lambda: self.create(rules_text, seats, seed=seed, previous=previous,
                                              first_dealer=first_dealer,
                                              token_hashes=token_hashes,
                                              key_hashes=key_hashes,
                                              creator_hash=creator_hash,
                                              turn_timer=turn_timer, standin=standin,
                                              listed=listed, rated=rated, keep=False))
        self.tables[table.id] = table
        await self.announce(table, "changed")  # (the other processes hold it too: the lobby)
        return table

    def _check_level(self, level: str) -> None:
        """Refuse a bot level this server does not play (unknown, too long, or thinking
        longer than the server allows)."""
        if len(level) > BOT_LEVEL_LENGTH:
            raise HubError(f"a bot's level is at most {BOT_LEVEL_LENGTH} characters",
                           code="level-long", params={"max": BOT_LEVEL_LENGTH})
        try:
            _, options = parse_bot(level)
        except ValueError as err:
            raise HubError(str(err), code="bot-level") from None
        if float(options.get("think", 0.0)) > self.think or "rollouts" in options:
            # A search holds a worker thread while it thinks: the server says how long it
            # may.
            raise HubError(f"a master thinks at most {self.think:g} s a move on this server "
                           "(think=), and only by time", code="think-limit",
                           params={"seconds": self.think})

    def create(self, rules_text: str, seats: Sequence[SeatSpec], *, seed: int | None = None,
               previous: str | None = None, first_dealer: int | None = None,
               token_hashes: Sequence[str | None] | None = None,
               key_hashes: Sequence[str | None] | None = None,
               creator_hash: str | None = None, turn_timer: int | None = None,
               standin: str | None = None, listed: bool = False, rated: bool = False,
               keep: bool = True) -> Table:
        """A new table; people's seats get unguessable tokens (their links are on the
        table as made, ``table.seats.links``), or, for a rematch, the seats' ``token_hashes`` and
        ``key_hashes`` of the table before: the same people keep their seats.
        ``creator_hash`` is the hashed key of the browser that asked for the table;
        ``turn_timer`` the seconds a person has for a turn before ``standin`` (a bot level,
        :data:`STANDIN` by default) plays it; a ``listed`` table is in the lobby; a
        ``rated`` table's match moves its players' ratings (it has no chosen seed, no
        hints and no undo). With ``keep``, the table is put in memory too."""
        try:
            rules = Rules.parse(rules_text)
            rules.check_players(len(seats))
        except RulesError as err:
            raise HubError(str(err), code="rules") from None
        if len(str(rules)) > RULES_LENGTH:
            raise HubError(f"these rules change too many options to store with a table "
                           f"(their text is {len(str(rules))} characters, at most "
                           f"{RULES_LENGTH}): keep the preset's defaults where you can",
                           code="rules-long", params={"length": len(str(rules)),
                                                      "max": RULES_LENGTH})
        if not any(s.kind == "person" for s in seats):
            raise HubError("a table needs at least one person (bots-only tables are for the "
                           "simulator)",
                           code="no-person")
        for number, s in enumerate(seats, 1):
            if s.kind not in ("person", "bot"):
                raise HubError(f"a seat is a person or a bot, not {s.kind!r}", code="seat-kind")
            if s.kind == "bot" and not s.level:
                raise HubError(f"a bot seat needs a level; the bots are: {', '.join(BOTS)}",
                               code="level-missing")
            if s.kind == "bot" and s.level:
                self._check_level(s.level)
            if not s.name.strip() or len(s.name) > NAME_LENGTH:
                raise HubError(f"each seat needs a name of 1 to {NAME_LENGTH} characters",
                               code="name-length", params={"max": NAME_LENGTH})
            if not printable_name(s.name):
                raise HubError(f"seat {number}: a name may hold letters, digits, "
                               "spaces and punctuation, not control, invisible or "
                               "direction-changing characters", code="name-text",
                               params={"seat": number})
        if turn_timer is not None and not TIMER_RANGE[0] <= turn_timer <= TIMER_RANGE[1]:
            raise HubError(f"a turn timer is {TIMER_RANGE[0]} to {TIMER_RANGE[1]} seconds",
                           code="timer-range",
                           params={"min": TIMER_RANGE[0], "max": TIMER_RANGE[1]})
        standin = standin or STANDIN
        self._check_level(standin)
        if rated and seed is not None:
            raise HubError("a rated table is shuffled by the server: no chosen seed",
                           code="rated-seed")
        if rated and str(rules) != rules.preset_name:
            raise HubError("a rated table plays a preset's own rules, with no house rules "
                           "(a rating is per preset)", code="rated-rules")
        if rated and any(parse_bot(level)[1] for level in
                         [standin, *(s.level for s in seats if s.kind == "bot" and s.level)]):
            raise HubError("a rated table's computer players play at their levels' own "
                           "settings (a level is rated as itself)", code="rated-level")
        names = [s.name.strip() for s in seats]
        if seed is None:
            # Wide enough that nobody can find it from the cards he sees by trying them all.
            seed = secrets.randbelow(SEED_LIMIT)
        try:
            match = Match(rules, players=names, seed=seed, first_dealer=first_dealer)
        except RulesError as err:
            raise HubError(str(err), code="rules") from None
        table_id = secrets.token_hex(6)
        tokens = [secrets.token_urlsafe(24) if s.kind == "person" and token_hashes is None
                  else None for s in seats]
        hashes = (list(token_hashes) if token_hashes is not None
                  else [None if t is None else token_hash(t) for t in tokens])
        table = Table(
            id=table_id, rules=rules, seed=seed,
            seats=Seats(
                names=names, kinds=[s.kind for s in seats],
                levels=[s.level if s.kind == "bot" else None for s in seats],
                token_hashes=hashes, joined=[s.kind == "bot" for s in seats],
                key_hashes=(list(key_hashes) if key_hashes is not None
                            else [None] * len(seats)),
                standing=[False] * len(seats), away=[False] * len(seats),
                links=[None if t is None else f"/t/{table_id}?token={t}" for t in tokens]),
            status="waiting", match=match, previous=previous,
            creator_hash=creator_hash, turn_timer=turn_timer, standin=standin, listed=listed,
            rated=rated,
        )
        self._save_new(table, first_dealer)
        if keep:
            self.tables[table.id] = table
        return table

    async def join(self, table: Table, seat: int) -> bool:
        """A person opened a seat's link: the seat is taken; the game starts when all are.
        True when this took the seat (every connection at the table, this one included, has
        then been sent its view)."""
        async with table.lock:
            await self._fresh(table)
            if table.seats.joined[seat]:
                return False
            table.seats.joined[seat] = True
            started = all(table.seats.joined)
            if started:
                table.status = "playing"
            await self._write(self._save_join, table.id, seat)
            await self._fresh(table)  # (another process's seat may have joined meanwhile)
            self._arm_timer(table)
        await self.broadcast(table)
        self._schedule_bot(table)
        return True

    async def rematch(self, table: Table, seat: int) -> str:
        """A new table with the same seats; each person's new link reaches that person."""
        async with table.lock:
            await self._fresh(table)
            if table.status != "finished":
                raise HubError("the match is not over yet", 409, code="match-not-over")
            if table.next_table is None:
                # The rematch goes on with the next dealer by the rules (one-deal: the winner).
                new = await self.open_table(str(table.rules), [
                    SeatSpec(table.seats.kinds[s], table.seats.names[s], table.seats.levels[s])
                    for s in range(table.players)
                ], previous=table.id, first_dealer=table.match.next_dealer(),
                    token_hashes=table.seats.token_hashes, key_hashes=table.seats.key_hashes,
                    creator_hash=table.creator_hash, turn_timer=table.turn_timer,
                    standin=table.standin, listed=table.listed, rated=table.rated)
                table.next_table = new.id
                await self._write(self._save_next, table.id, new.id)
        await self.broadcast(table)
        return table.next_table
