"""The tables of the web app: the server is the only authority.

Every action goes through the engine's checked path, is written to the database before
anyone hears of it, and then each connected seat receives its own view (and nothing
else). On start the hub rebuilds every unfinished table from its stored actions;
a table this version can no longer rebuild is marked ``broken`` and refused with 410.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from rummykit.bots import BOTS, Bot, make_bot, parse_bot
from rummykit.bots.hints import ROLLOUTS, hint
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.scoring import melded_points
from rummykit.engine.views import public_view, view
from rummykit.errors import IllegalActionError, NotationError, RulesError, RummyError, shown
from rummykit.limits import (
    BOT_LEVEL_LENGTH,
    CHAT_KEPT,
    CHAT_LENGTH,
    NAME_LENGTH,
    RULES_LENGTH,
    SEED_LIMIT,
    TIMER_RANGE,
)
from rummykit.names import printable_name
from rummykit.rules import Rules
from rummykit.server import announcements
from rummykit.server.bus import HEARTBEAT, Bus, LocalBus
from rummykit.server.hub.errors import HubError, RebuildError
from rummykit.server.hub.storage import (
    BROKEN,
    BROKEN_MESSAGE,
    Conflict,
    Engine,
    Storage,
    StorageError,
)
from rummykit.server.hub.table import (
    STANDIN,
    SeatSpec,
    Send,
    Table,
    encodable,
    good_key,
    token_hash,
)
from rummykit.server.pool import IDLE_LIMIT, SearchPool, nobody_since
from rummykit.server.transfers import LIFETIME as TRANSFER_LIFETIME
from rummykit.server.transfers import TransferCodes

__all__ = [
    "BROKEN",
    "BROKEN_MESSAGE",
    "HISTORY_SENT",
    "STANDIN",
    "SUMMARY_WAIT",
    "TIMER_RANGE",
    "TRANSFER_TIME",
    "Hub",
    "HubError",
    "RebuildError",
    "SeatSpec",
    "Send",
    "Table",
    "encodable",
    "good_key",
    "token_hash",
]

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



class Hub(Storage):
    """All tables, their storage and their connections."""

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
        # One announcer thread: announcements stay in order and never delay a write.
        self._announcer = ThreadPoolExecutor(max_workers=1,
                                             thread_name_prefix="rummykit-announce")

    async def _write(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(table_id or table, ...)`` in the writer thread; then the other server
        processes hear that the table changed."""
        await asyncio.get_running_loop().run_in_executor(self._writer, self._stored, fn,
                                                         args)

    def _stored(self, fn: Callable[..., None], args: tuple[Any, ...]) -> None:
        fn(*args)
        if fn == self._save_action or not self.bus.shared:
            return  # (an action is announced as it is stored)
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

    # -- storage -------------------------------------------------------------------

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
        if (table.status == "finished" and not any(table.sockets.values())
                and not table.watchers and not table.lock.locked()
                and self.tables.get(table.id) is table):
            del self.tables[table.id]

    # -- creating, joining ---------------------------------------------------------

    async def open_table(
        self, rules_text: str, seats: Sequence[SeatSpec], *, seed: int | None = None,
        previous: str | None = None, first_dealer: int | None = None,
        token_hashes: Sequence[str | None] | None = None,
        key_hashes: Sequence[str | None] | None = None, creator_hash: str | None = None,
        turn_timer: int | None = None, standin: str | None = None, listed: bool = False,
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
                                              listed=listed, keep=False))
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
               standin: str | None = None, listed: bool = False, keep: bool = True) -> Table:
        """A new table; people's seats get unguessable tokens (their links are on the
        table as made, ``table.links``), or, for a rematch, the seats' ``token_hashes`` and
        ``key_hashes`` of the table before: the same people keep their seats.
        ``creator_hash`` is the hashed key of the browser that asked for the table;
        ``turn_timer`` the seconds a person has for a turn before ``standin`` (a bot level,
        :data:`STANDIN` by default) plays it; a ``listed`` table is in the lobby. With
        ``keep``, the table is put in memory too."""
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
            id=table_id, rules=rules, seed=seed, names=names,
            kinds=[s.kind for s in seats],
            levels=[s.level if s.kind == "bot" else None for s in seats],
            token_hashes=hashes,
            joined=[s.kind == "bot" for s in seats], status="waiting", match=match,
            previous=previous,
            links=[None if t is None else f"/t/{table_id}?token={t}" for t in tokens],
            key_hashes=list(key_hashes) if key_hashes is not None else [None] * len(seats),
            creator_hash=creator_hash, turn_timer=turn_timer, standin=standin,
            standing=[False] * len(seats), away=[False] * len(seats), listed=listed,
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
            if table.joined[seat]:
                return False
            table.joined[seat] = True
            started = all(table.joined)
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
                    SeatSpec(table.kinds[s], table.names[s], table.levels[s])
                    for s in range(table.players)
                ], previous=table.id, first_dealer=table.match.next_dealer(),
                    token_hashes=table.token_hashes, key_hashes=table.key_hashes,
                    creator_hash=table.creator_hash, turn_timer=table.turn_timer,
                    standin=table.standin, listed=table.listed)
                table.next_table = new.id
                await self._write(self._save_next, table.id, new.id)
        await self.broadcast(table)
        return table.next_table

    # -- who may open a seat -------------------------------------------------------

    def seat_for(self, table: Table, *, token: str | None = None, seat: int | None = None,
                 key: str | None = None) -> int:
        """The seat a request opens: the one whose link carries ``token``, or ``seat`` for
        the browser that claimed it (with its ``key``). A claimed seat opens only with its
        browser's key, whoever holds the link; an unclaimed one opens with its link (the
        first browser to bring its key claims it: :meth:`claim`)."""
        if token is not None or seat is None:
            found = table.seat_of(token)
            if found is None:
                raise HubError("this link's token does not open a seat at this table", 403,
                               code="seat-link")
        elif seat is not None and 0 <= seat < table.players and table.owns(seat, key):
            found = seat
        else:
            raise HubError("this browser has no seat at this table", 403, code="seat-link")
        if table.key_hashes[found] is not None and not table.owns(found, key):
            raise HubError("this seat belongs to the browser that opened its link first; "
                           "ask whoever made the table for a new link", 403,
                           code="seat-claimed")
        return found

    async def claim(self, table: Table, seat: int, key: str,
                    token: str | None = None) -> bool:
        """The browser with ``key`` opened ``seat``'s link (``token``, checked again here:
        the link may have been replaced meanwhile): an unclaimed seat becomes its own
        (stored). True if it claimed the seat now; a seat claimed by another browser
        meanwhile is refused (403), and so is a browser that has another seat here.
        """
        async with table.lock:
            await self._fresh(table)
            if token is not None and table.seat_of(token) != seat:
                raise HubError("this link's token does not open a seat at this table", 403,
                               code="seat-link")
            if table.key_hashes[seat] is not None:
                if table.owns(seat, key):
                    return False
                raise HubError("this seat belongs to the browser that opened its link "
                               "first; ask whoever made the table for a new link", 403,
                               code="seat-claimed")
            mine = next((s for s in range(table.players) if table.owns(s, key)), None)
            if mine is not None:
                # One person, one hand: a browser that has a seat here does not take
                # another's (the maker opening a friend's link by mistake, say).
                raise HubError(f"this browser has a seat at this table already "
                               f"({table.names[mine]}'s): this link is for "
                               f"{table.names[seat]}, send it to them", 403,
                               code="one-seat", params={"name": table.names[seat],
                                                        "mine": table.names[mine]})
            digest = token_hash(key)
            await self._write(self._save_seat, table.id, seat, {"key_hash": digest})
            table.key_hashes[seat] = digest
        return True

    async def new_link(self, table: Table, seat: int, creator_key: str | None) -> str:
        """A new link for ``seat``, asked by the browser that made the table: the old
        link no longer opens the seat, and the seat is unclaimed again. Only for a seat
        whose person is not here, and once the match has started only for one who left
        it: they handed the seat to the stand-in, or have not been connected for
        :data:`LINK_ABSENCE` seconds. Nobody is put out of a game they are playing, nor
        while they reload a page."""
        if table.creator_hash is None or not good_key(creator_key) or not (
                secrets.compare_digest(table.creator_hash, token_hash(creator_key or ""))):
            raise HubError("only the browser that made the table may issue its links", 403,
                           code="not-creator")
        if not 0 <= seat < table.players or table.kinds[seat] != "person":
            raise HubError("only a person's seat has a link", 400, code="no-link")
        async with table.lock:
            await self._fresh(table)
            if table.key_hashes[seat] is not None and table.connected(seat):
                raise HubError(f"{table.names[seat]} is at the table now: their seat keeps "
                               "its link", 409, code="seat-in-use",
                               params={"name": table.names[seat]})
            if table.status == "playing" and not self._left_the_match(table, seat):
                minutes = max(1, round(self.link_absence / 60))
                raise HubError(f"{table.names[seat]} is playing this match: their seat gets a "
                               f"new link only once they leave it, or after {minutes} "
                               "minutes away", 409, code="seat-in-play",
                               params={"name": table.names[seat], "minutes": minutes})
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)
            await self._write(self._save_seat, table.id, seat,
                              {"key_hash": None, "token_hash": digest})
            table.token_hashes[seat] = digest
            table.key_hashes[seat] = None
        for send in list(table.sockets.get(seat, ())):
            await self.kick(table, send, "revoked")
        await self.announce(table, "kick", seat=seat, reason="revoked")
        await self.send_presence(table)
        return f"/t/{table.id}?token={token}"

    def _left_the_match(self, table: Table, seat: int) -> bool:
        """Whether ``seat``'s person has left the match in play: handed the seat over, or
        not connected for :attr:`link_absence` seconds."""
        if table.away[seat]:
            return True
        gone = table.gone_at.get(seat)
        return (gone is not None and not table.connected(seat)
                and asyncio.get_running_loop().time() - gone >= self.link_absence)

    async def kick(self, table: Table, send: Send, reason: str) -> None:
        """Close one connection, saying why (``"replaced"``: the same browser opened the
        seat elsewhere; ``"claimed"``: a browser claimed the seat; ``"revoked"``: the
        link it came with was replaced)."""
        close = table.kicks.get(send)
        for sends in table.sockets.values():
            sends.discard(send)
        table.kicks.pop(send, None)
        if close is not None:
            with contextlib.suppress(Exception):
                await close(reason)

    def presence(self, table: Table) -> dict[str, Any]:
        """Who is at the table now: for each seat, whether its person is connected and
        whether a browser has claimed it (public: everyone sees who is here)."""
        return {"type": "presence", "seats": self._presence(table),
                "watchers": table.watching()}

    def _presence(self, table: Table) -> list[dict[str, bool]]:
        return [{"connected": table.kinds[s] == "bot" or table.connected(s),
                 "claimed": table.kinds[s] == "bot" or table.key_hashes[s] is not None,
                 "standin": table.standing[s], "away": table.away[s]}
                for s in range(table.players)]

    async def send_presence(self, table: Table) -> None:
        """Who is here, to everyone connected (after a change here: the other server
        processes hear of it too)."""
        await self._tell_here(table)
        await self._show_presence(table)

    async def _show_presence(self, table: Table) -> None:
        message = self.presence(table)
        for send in [*(s for sends in table.sockets.values() for s in sends),
                     *table.watchers]:
            with contextlib.suppress(Exception):
                await send(message)

    def lobby(self, limit: int) -> list[dict[str, Any]]:
        """The listed tables that are waiting or in play, newest first: rules, every
        seat (name, kind, whether it is free) and how many watch. A free seat is a
        person's seat that no browser has claimed."""
        listed = [t for t in list(self.tables.values())
                  if t.listed and t.status in ("waiting", "playing")]
        listed.sort(key=lambda t: (t.status != "waiting", -t.created))
        return [{"id": t.id, "rules": str(t.rules), "status": t.status,
                 "timer": t.turn_timer, "watchers": t.watching(),
                 "seats": [{"name": t.names[s], "kind": t.kinds[s],
                            "level": t.levels[s],
                            "free": t.status == "waiting" and t.kinds[s] == "person"
                            and t.key_hashes[s] is None}
                           for s in range(t.players)]}
                for t in listed[:limit]]

    async def take(self, table: Table, seat: int, key: str, name: str | None) -> None:
        """The browser with ``key`` takes a free seat of a listed table from the lobby
        (under ``name``, while the game has not started): the seat is its own."""
        if not table.listed:
            raise HubError("this table is not in the lobby: its seats open with their "
                           "links", 403, code="not-listed")
        if not 0 <= seat < table.players or table.kinds[seat] != "person":
            raise HubError("only a person's seat can be taken", code="no-link")
        if table.status != "waiting":
            raise HubError("a seat is taken from the lobby before the game starts; this "
                           "one has started", 409, code="not-in-play")
        if name is not None:
            name = name.strip()
            if not name or len(name) > NAME_LENGTH or not printable_name(name):
                raise HubError(f"a name is 1 to {NAME_LENGTH} letters, digits, spaces and "
                               "punctuation", code="name-invalid", params={"max": NAME_LENGTH})
        await self.claim(table, seat, key)
        for send in list(table.sockets.get(seat, ())):
            # Whoever had the seat open by its link alone no longer has it.
            await self.kick(table, send, "claimed")
        await self.announce(table, "kick", seat=seat, reason="claimed")
        if name is not None and name != table.names[seat]:
            async with table.lock:
                if table.seq == 0 and table.status == "waiting":
                    names = [*table.names]
                    names[seat] = name
                    # Nothing has been played: the same deal under the new name.
                    table.match = Match(table.rules, players=names, seed=table.seed,
                                        first_dealer=table.match.dealers[0])
                    table.names = names
                    await self._write(self._save_seat, table.id, seat, {"name": name})
        await self.broadcast(table)

    def transfer_code(self, key: str) -> str:
        """A one-time code for ``key``, good for TRANSFER_TIME seconds: another device
        that brings it gets the key (:meth:`redeem`), and with it this player's seats and
        results. A new code replaces the player's earlier one."""
        code = self.transfers.make(key)
        if self.bus.shared:
            self._later(self.announce(None, "transfer", code=code, key=key))
        return f"{code[:4]}-{code[4:]}"

    def redeem(self, code: str) -> str:
        """The key a transfer code carries; the code is spent (404 if it is unknown,
        used or too old)."""
        wanted = "".join(ch for ch in code.upper() if ch.isalnum())
        key = self.transfers.spend(wanted)
        if self.bus.shared:
            self._later(self.announce(None, "spent", code=wanted))
        if key is None:
            raise HubError("this code is unknown, used already or too old: make a new one",
                           404, code="bad-code")
        return key

    def tables_of(self, key: str, limit: int) -> list[dict[str, Any]]:
        """The tables where the browser with ``key`` claimed a seat, newest first: each
        with its rules, status, the seat, every seat's name, and whether it is that
        seat's move (run in a worker thread: it reads the database)."""
        out = self._claimed(token_hash(key), limit)
        for entry in out:
            table = self.tables.get(str(entry["id"]))
            seat = entry["seat"]
            entry["your_turn"] = (table is not None and table.status == "playing"
                                  and not table.match.is_over
                                  and table.match.deal.to_move == seat)
        return out

    # -- chat --------------------------------------------------------------------------

    async def say(self, table: Table, seat: int, text: object) -> None:
        """``seat``'s person says ``text`` at the table: everyone connected hears it,
        spectators too (a page shows it as text, never as markup)."""
        if not isinstance(text, str) or not text.strip():
            raise HubError("a chat message needs some text", code="chat-empty")
        text = text.strip()
        if len(text) > CHAT_LENGTH:
            raise HubError(f"a chat message is at most {CHAT_LENGTH} characters",
                           code="chat-long", params={"n": CHAT_LENGTH})
        if not encodable(text) or not printable_name(text):
            raise HubError("a chat message may not hold control, invisible or "
                           "direction-changing characters", code="chat-text")
        message = {"type": "chat", "seat": seat, "name": table.names[seat], "text": text,
                   "at": datetime.now(UTC).isoformat(timespec="seconds")}
        await self.announce(table, "chat", m=message)
        await self._heard_chat(table, message)

    async def _heard_chat(self, table: Table, message: dict[str, Any]) -> None:
        table.chat = [*table.chat[-(CHAT_KEPT - 1):], message]
        for send in [*(s for sends in table.sockets.values() for s in sends),
                     *table.watchers]:
            with contextlib.suppress(Exception):
                await send(message)

    def chat_log(self, table: Table) -> dict[str, Any]:
        """The chat so far, for a connection that has just come."""
        return {"type": "chat-log", "messages": table.chat}

    # -- away, back, and the turn timer ----------------------------------------------

    async def hand_over(self, table: Table, seat: int) -> None:
        """``seat``'s person hands the seat to the table's stand-in and leaves: it plays
        their turns (from their seat's view, as any bot) until they come back."""
        if table.kinds[seat] != "person":
            raise HubError("only a person's seat can be handed over", code="no-link")
        async with table.lock:
            await self._fresh(table)
            if table.status != "playing" or table.match.is_over:
                raise HubError("only a match in play can be left", code="not-in-play")
            await self._set_standing(table, seat, True, away=True)
            if self._others(table, seat) and seat not in table.left:
                # The others choose: the stand-in goes on, or the match ends.
                table.left.append(seat)
                table.votes = {}
                await self._tell_question(table)
            self._arm_timer(table)
        await self.broadcast(table)
        self._schedule_bot(table)

    @staticmethod
    def _others(table: Table, seat: int) -> list[int]:
        """The people at the table but ``seat`` who have not left it."""
        return [s for s in range(table.players) if s != seat
                and table.kinds[s] == "person" and not table.away[s]]

    async def vote(self, table: Table, seat: int, end: bool) -> None:
        """``seat``'s choice after someone left: keep playing with the stand-in, or end
        the match. Once at least half of the others choose to end it, it ends there (its
        result says who left); if they all choose to keep playing, the question is
        closed."""
        async with table.lock:
            await self._fresh(table)
            if not table.left or table.status != "playing":
                raise HubError("nobody has left: there is nothing to decide",
                               code="no-vote")
            leaver = table.left[-1]
            others = self._others(table, leaver)
            if seat not in others:
                raise HubError("the others decide, not the one who left", code="no-vote")
            table.votes[seat] = end
            ending = sum(1 for s in others if table.votes.get(s))
            if 2 * ending >= len(others):
                table.status = "finished"
                table.ended_by = leaver
                table.left = []
                table.votes = {}
                await self._write(self._save_finish, table)
                self._arm_timer(table)
            elif all(s in table.votes for s in others):
                table.left.pop()
                table.votes = {}
            await self._tell_question(table)
        await self.broadcast(table)

    async def back(self, table: Table, seat: int) -> None:
        """``seat``'s person takes the seat back from the stand-in (with a whole turn's
        time, if it is their turn)."""
        async with table.lock:
            if table.standing[seat]:
                await self._set_standing(table, seat, False)
                self._arm_timer(table)
            if seat in table.left:
                table.left.remove(seat)
                table.votes = {}
                await self._tell_question(table)
        await self.broadcast(table)

    async def _set_standing(self, table: Table, seat: int, standing: bool, *,
                            away: bool = False) -> None:
        """The stand-in plays ``seat`` now, or stops (the caller holds the lock); a seat
        handed over (``away``) is stored as such, so a restart keeps it with the bot."""
        if table.away[seat] != away:
            await self._write(self._save_seat, table.id, seat, {"away": away})
            table.away[seat] = away
        if table.standing[seat] != standing:
            table.standing[seat] = standing
            await self.announce(table, "standing", seat=seat, on=standing)

    def _arm_timer(self, table: Table) -> None:
        """Start or stop the clock of the person to move. With a turn timer, a person
        has ``turn_timer`` seconds for a whole turn, and a person who is not connected
        at most AWAY_GRACE of them; then the stand-in plays for them until they come back.
        The clock waits while people read a deal's summary."""
        if table.timer_task is not None:
            table.timer_task.cancel()
            table.timer_task = None
        table.ticking = False
        if table.turn_timer is None or table.status != "playing" or table.match.is_over:
            table.deadline = None
            table.timed = None
            return
        seat = table.match.deal.to_move
        if table.kinds[seat] != "person" or table.standing[seat] or table.reading:
            # No clock runs now; a turn keeps its deadline (leaving and coming back
            # within a turn gives no more time).
            return
        loop = asyncio.get_running_loop()
        turn = (table.match.deal_number, seat)
        if table.timed != turn or table.deadline is None:
            table.timed = turn
            table.deadline = loop.time() + table.turn_timer * self.timer_unit
        due = table.deadline
        if seat in table.gone_at:
            grace = min(AWAY_GRACE, table.turn_timer) * self.timer_unit
            due = min(due, table.gone_at[seat] + grace)
        table.ticking = True
        if self._plays_bots(table):
            # (With several server processes, the one that plays the table's bots.)
            table.timer_task = loop.create_task(self._time_up(table, turn, table.seq, due))

    async def _time_up(self, table: Table, turn: tuple[int, int], seq: int,
                       due: float) -> None:
        await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
        async with table.lock:
            seat = turn[1]
            if (table.timed != turn or table.seq != seq or table.status != "playing"
                    or table.standing[seat]):
                return
            log.info("table %s: %s's time is up; the stand-in plays", table.id,
                     table.names[seat])
            table.standing[seat] = True
            table.deadline = None
            table.timed = None
            await self.announce(table, "standing", seat=seat, on=True)
        await self.broadcast(table)
        self._schedule_bot(table)

    def resume(self, table: Table) -> None:
        """After a start: the bots and the clock of a restored table go on (nobody is
        connected yet: each person's grace counts from now)."""
        now = asyncio.get_running_loop().time()
        for seat in range(table.players):
            if table.kinds[seat] == "person" and not table.connected(seat):
                table.gone_at.setdefault(seat, now)
        self._schedule_bot(table)
        self._arm_timer(table)

    # -- playing -------------------------------------------------------------------

    async def act(self, table: Table, seat: int, text: str) -> None:
        """Play ``text`` for ``seat``: checked, stored, then every seat hears of it."""
        async with table.lock:
            await self._current(table)
            action = self._checked(table, seat, text)
            if table.standing[seat]:
                # A person who plays their own turn is back from being away.
                await self._set_standing(table, seat, False)
                if seat in table.left:
                    table.left.remove(seat)
                    table.votes = {}
                    await self._tell_question(table)
            stale: HubError | None = None
            try:
                await self._commit(table, seat, action)
            except HubError as err:
                if err.code != "stale":
                    raise
                stale = err
        await self.broadcast(table)
        self._schedule_bot(table)
        if stale is not None:
            raise stale

    async def why(self, table: Table, seat: int, text: str) -> dict[str, Any]:
        """Whether ``seat`` may play ``text`` now, and if not, why (the refusal the action
        would get: message, code and params); nothing is played."""
        async with table.lock:
            try:
                action = self._checked(table, seat, text)
            except HubError as err:
                # The action as the engine would print it back (text that did not parse
                # is quoted: it may hold anything, a lone surrogate included).
                return {"type": "why", "action": text if encodable(text) else shown(text),
                        "legal": False, "message": str(err), **err.details()}
        return {"type": "why", "action": str(action), "legal": True, "message": ""}

    def _checked(self, table: Table, seat: int, text: str) -> Action:
        """``text`` as an action ``seat`` may play now (the caller holds the lock)."""
        if not isinstance(text, str) or not text.strip() or len(text) > 120:
            raise HubError("an action is a short text in the record notation", code="notation")
        if table.status == "waiting":
            raise HubError("the game starts when every seat is taken", code="game-waiting")
        if table.status == "finished" or table.match.is_over:
            raise HubError("the match is over", code="match-over")
        deal = table.match.deal
        if deal.to_move != seat:
            raise HubError(f"it is {table.names[deal.to_move]}'s turn, not yours",
                           code="not-your-turn", params={"name": table.names[deal.to_move]})
        try:
            action = Action.parse(text)
            deal.verify(action)
        except NotationError as err:
            raise HubError(str(err), code="notation") from None
        except IllegalActionError as err:
            raise HubError(str(err), code=err.code, params=err.params) from None
        return action

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        """The strongest bot's action for ``seat`` and its reason, worked out from that
        seat's view only (off the event loop; the table goes on meanwhile). Each hint is
        counted for the deal's summary: the caller broadcasts the new count."""
        async with table.lock:
            if table.status != "playing" or table.match.is_over:
                raise HubError("a hint is for a game in play", code="hint-not-playing")
            if table.match.deal.to_move != seat:
                raise HubError("a hint is for your own turn", code="hint-not-your-turn")
            if seat in table.hinting:
                raise HubError("your hint is still being worked out", code="hint-busy")
            seq = table.seq
            kept = table.hinted.get(seat)
            if kept is not None and kept[0] == seq:
                return kept[1]
            seen = view(table.match, seat)
            table.hinting.add(seat)
        try:
            # The view is immutable: the search reads it without the table's lock. Its
            # generator is seeded from the seat's position (hints.hint's default).
            found = await self.pool.run(
                table.id, lambda: hint(seen, rollouts=HINT_ROLLOUTS,
                                       think=min(self.think, HINT_THINK)))
        finally:
            table.hinting.discard(seat)
        counts = table.hints.setdefault(seen.deal_number, [0] * table.players)
        counts[seat] += 1
        answer = {"type": "hint", "seq": seq, "action": str(found.action),
                  "reason": found.reason,
                  "parts": [[code, params] for code, params in found.parts]}
        table.hinted[seat] = (seq, answer)
        return answer

    async def undo(self, table: Table, seat: int) -> None:
        """Take back ``seat``'s last meld or lay-off of this turn, where nobody else has
        seen it: every other seat is a computer player and nobody watches (people and
        spectators see each action at once, so with them there is no undo). A draw is
        never taken back (a card from the stock was seen) nor a discard (it ended the
        turn). The action is
        deleted from the database and the match replayed without it: the position is
        the one before it, the stock in the same order."""
        async with table.lock:
            await self._fresh(table)
            match self._undo_problem(table, seat):
                case "undo-nothing":
                    raise HubError("only a meld or lay-off of your turn can be taken back, "
                                   "before your discard", code="undo-nothing")
                case "undo-seen":
                    raise HubError("the other people at the table have seen it: no undo",
                                   code="undo-seen")
            first_dealer = table.match.dealers[0]
            match = Match(table.rules, players=table.names, seed=table.seed,
                          first_dealer=first_dealer)
            for text in table.actions[:-1]:
                match.apply(text)
            await self._write(self._delete_action, table.id, table.seq)
            table.match = match
            table.actions.pop()
            table.seq -= 1
            table.hinted.clear()  # the next action takes this seq again, another position
            table.last = []
            self._arm_timer(table)
        await self.broadcast(table)

    async def seen(self, table: Table, seat: int) -> None:
        """``seat`` has closed the last deal's summary: once every person has, the bots
        go on with the next deal."""
        await self.announce(table, "seen", seat=seat)
        await self._heard_seen(table, seat)

    async def _heard_seen(self, table: Table, seat: int) -> None:
        table.reading.discard(seat)
        if not table.reading:
            table.read.set()
            self._arm_timer(table)
        await self.broadcast(table)

    async def _commit(self, table: Table, seat: int, action: Action) -> None:
        """Write the action, then play it (the caller holds the table's lock)."""
        seq = table.seq + 1
        try:
            await self._write(self._save_action, table.id, seq, seat, str(action))
        except Conflict:
            # Another server process stored this table's next action first: this one
            # came too late (what it answered is no longer the position).
            await self._catch_up(table)
            raise HubError("the game moved on meanwhile: look at the table again", 409,
                           code="stale") from None
        self._played(table, seat, seq, str(action))
        if table.match.is_over:
            table.status = "finished"
            table.abandoned = self.nobody_played(table)
            await self._write(self._save_finish, table)
        self._arm_timer(table)

    def _played(self, table: Table, seat: int, seq: int, text: str) -> None:
        """Play the stored action ``seq`` in memory (checked already)."""
        table.seq = seq
        deal = table.match.deal_number
        table.match.apply(text)
        table.actions.append(text)
        table.reading.discard(seat)  # a person who plays has seen what came before
        if table.match.deal_number != deal and not table.match.is_over:
            # A deal ended: the people read its summary before the bots go on.
            table.reading = {s for s in range(table.players)
                             if table.kinds[s] == "person" and not table.standing[s]}
            table.read.clear()
        table.last = [f"{table.names[seat]}: {text}"]

    @staticmethod
    def nobody_played(table: Table) -> bool:
        """Whether every person at ``table`` has left it: the stand-in plays each person's
        seat, and each has handed it over or is not connected (a person at the table whose
        turn ran out has not left). A match that ends so was decided by the computer
        players alone, and is recorded as abandoned."""
        return all(table.standing[s] and (table.away[s] or not table.connected(s))
                   for s in range(table.players) if table.kinds[s] == "person")

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
        if table.kinds[seat] == "bot":
            return table.levels[seat]
        return table.standin if table.standing[seat] else None

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

    # -- other server processes ------------------------------------------------------

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
                gone = [p for p in table.elsewhere
                        if now - self.alive.get(p, 0.0) > 3 * self.heartbeat]
                if gone:
                    await self._elsewhere(table, {p: None for p in gone})
            await self._audit()

    async def _audit(self) -> None:
        """Compare each table that someone here watches or plays with what is stored, and
        read again those that differ: an announcement lost while the database was away
        leaves no table behind for longer than a heartbeat."""
        here = {t.id: t for t in list(self.tables.values()) if t.here() and not t.stale}
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
        seats = sorted(s for s, sends in table.sockets.items() if sends)
        await self.announce(table, "here", seats=seats, watchers=len(table.watchers))

    async def _tell_question(self, table: Table) -> None:
        await self.announce(table, "question", left=table.left,
                            votes={str(s): end for s, end in table.votes.items()})

    def _plays_bots(self, table: Table) -> bool:
        """Whether this process plays the table's bots and keeps its clock: with several
        server processes, each one where someone is at the table, or every one while
        nobody is anywhere. Two processes may so work out the same move: the database
        keeps the first stored (a bot's choice is seeded by the table and the move, so it
        is the same move), and a process that stopped never holds the table up."""
        if not self.bus.shared or table.here():
            return True
        return not any(seats or watchers for seats, watchers, _ in table.elsewhere.values())

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
                    if table.here() and wanted in (None, table.id):
                        await self._tell_here(table)
                return
            case announcements.Resync():
                # Heard again after a break: whatever was announced meanwhile is lost, so
                # every table is read again before it is next shown or used here.
                for table in list(self.tables.values()):
                    table.stale = True
                for table in list(self.tables.values()):
                    if table.here():
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
                    table.here() or table.listed or self._plays_bots(table)):
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
                table.standing[seat] = on
                self._arm_timer(table)
                await self.broadcast(table)
                self._schedule_bot(table)
            case announcements.Question(left=left, votes=votes):
                table.left = list(left)
                table.votes = dict(votes)
                await self.broadcast(table)
            case announcements.Kick(seat=seat, reason=reason):
                for send in list(table.sockets.get(seat, ())):
                    await self.kick(table, send, reason)

    async def _elsewhere(self, table: Table,
                         changes: dict[str, tuple[frozenset[int], int, float] | None]) -> None:
        """Another process's connections at ``table`` changed (None: it has none now)."""
        before = [table.connected(s) for s in range(table.players)]
        watching = table.watching()
        for process, entry in changes.items():
            if entry is None:
                table.elsewhere.pop(process, None)
            else:
                table.elsewhere[process] = entry
        after = [table.connected(s) for s in range(table.players)]
        now = asyncio.get_running_loop().time()
        for seat in range(table.players):
            if table.kinds[seat] != "person":
                continue
            if before[seat] and not after[seat]:
                table.gone_at[seat] = now
            elif after[seat]:
                table.gone_at.pop(seat, None)
        self._arm_timer(table)
        self._schedule_bot(table)
        if after != before or table.watching() != watching:
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
        if names != table.names or not continues:
            if table.seq:
                row = await asyncio.to_thread(self._reread, table.id, 0)
                if row is None:
                    return
                seats, actions = row["seats"], row["actions"]
            table.names = names
            table.match = Match(table.rules, players=names, seed=table.seed,
                                first_dealer=table.match.dealers[0])
            table.actions = []
            table.seq = 0
            table.hinted.clear()
        for seat, stored in enumerate(seats):
            table.joined[seat] = stored["joined"]
            table.key_hashes[seat] = stored["key_hash"]
            table.token_hashes[seat] = stored["token_hash"]
            if table.away[seat] != stored["away"]:
                table.away[seat] = table.standing[seat] = stored["away"]
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
            table.left, table.votes = [], {}
        table.stale = False
        self._arm_timer(table)

    # -- what each seat hears ------------------------------------------------------

    async def current_state(self, table: Table, seat: int | None) -> dict[str, Any]:
        """:meth:`state_for` once ``table`` is up to date with the database (a ``sync``
        asks for the table as it is, not as this process last heard of it)."""
        if self.bus.shared or table.stale:
            async with table.lock:
                await self._fresh(table)
                await self._current(table)
        return self.state_for(table, seat)

    def state_for(self, table: Table, seat: int | None) -> dict[str, Any]:
        """Everything seat ``seat`` may see, with the table's public facts; for a
        spectator (``seat`` None), the public view (:func:`rummykit.engine.views.public_view`)."""
        # The page shows the recent actions; the whole history stays in the record.
        v = (view(table.match, seat, recent=HISTORY_SENT).to_json() if seat is not None
             else public_view(table.match, recent=HISTORY_SENT))
        v["history_length"] = len(table.match.deal.history)
        rematch = None
        if seat is not None and table.next_table is not None:
            nxt = self.tables.get(table.next_table)
            if nxt is not None and nxt.token_hashes[seat]:
                # The page adds its own token: the seat's key carries over to the rematch.
                rematch = f"/t/{nxt.id}"
        return {
            "type": "view",
            "table": {
                "id": table.id, "status": table.status, "rules": str(table.rules),
                "seats": [{"name": table.names[s], "kind": table.kinds[s],
                           "level": table.levels[s], "joined": table.joined[s],
                           **here}
                          for s, here in enumerate(self._presence(table))],
                "seq": table.seq, "last": table.last, "rematch": rematch,
                "settlement": table.match.settlement(),
                "hints": {str(number): counts for number, counts in table.hints.items()},
                "opening": table.rules.opening,
                "reading": sorted(table.reading),
                "undo": seat is not None and self._undo_problem(table, seat) is None,
                "watchers": table.watching(),
                "target": table.match.target,
                "melded": self._melded(table),
                "last_melded": self._melded(table, last=True),
                "left": table.left,
                "votes": {str(s): end for s, end in table.votes.items()},
                "ended_by": table.ended_by,
                "abandoned": table.abandoned,
                "timer": table.turn_timer,
                "standin": table.standin,
                "time_left": self._time_left(table),
            },
            "view": v,
        }

    def _time_left(self, table: Table) -> float | None:
        """Seconds the person to move has left for this turn (None: no clock runs)."""
        if table.deadline is None or not table.ticking:
            return None
        left = (table.deadline - asyncio.get_running_loop().time()) / self.timer_unit
        return round(max(0.0, left), 1)

    @staticmethod
    def _undo_problem(table: Table, seat: int) -> str | None:
        """Why :meth:`undo` would take nothing back for ``seat`` now (``"undo-nothing"``,
        ``"undo-seen"``), or None: it would."""
        if table.status != "playing" or table.match.is_over:
            return "undo-nothing"
        deal = table.match.deal
        moves = deal.moves
        if deal.to_move != seat or not moves or moves[-1][0] != seat or (
                moves[-1][1].kind not in ("meld", "layoff")) or table.standing[seat]:
            return "undo-nothing"  # (nor what the stand-in played)
        if any(kind == "person" for s, kind in enumerate(table.kinds) if s != seat) or (
                table.watching()):
            return "undo-seen"  # (spectators see each action at once too)
        return None

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

    def connect(self, table: Table, seat: int, send: Send,
                kick: Callable[[str], Awaitable[None]] | None = None) -> None:
        table.sockets.setdefault(seat, set()).add(send)
        if kick is not None:
            table.kicks[send] = kick
        if self.bus.shared:
            self._later(self._tell_here(table))
        if table.gone_at.pop(seat, None) is not None and table.standing[seat] and (
                not table.away[seat]):
            # Back after losing the connection: the seat is theirs again (with what is
            # left of the turn's time, if it is theirs).
            table.standing[seat] = False
            if self.bus.shared:
                self._later(self.announce(table, "standing", seat=seat, on=False))
        if table.turn_timer is not None and table.status == "playing":
            self._arm_timer(table)
        if table.kinds[seat] == "person":
            self._schedule_bot(table)  # (bots left waiting by an idle table go on)

    def disconnect(self, table: Table, seat: int, send: Send) -> None:
        table.sockets.get(seat, set()).discard(send)
        table.kicks.pop(send, None)
        if self.bus.shared:
            self._later(self._tell_here(table))
        if not table.connected(seat) and table.kinds[seat] == "person":
            table.gone_at[seat] = asyncio.get_running_loop().time()
            if table.turn_timer is not None and table.status == "playing":
                self._arm_timer(table)

    async def broadcast(self, table: Table) -> None:
        for seat, sends in list(table.sockets.items()):
            if not sends:
                continue
            message = self.state_for(table, seat)
            for send in list(sends):
                with contextlib.suppress(Exception):
                    await send(message)
        if table.watchers:
            public = self.state_for(table, None)
            for send in list(table.watchers):
                with contextlib.suppress(Exception):
                    await send(public)

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
