"""Who may open a seat: links, claims by a browser's key, new links, the lobby's free
seats, transfer codes and a browser's tables."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from rummykit.engine.match import Match
from rummykit.limits import (
    NAME_LENGTH,
)
from rummykit.names import printable_name
from rummykit.server.hub.base import (
    HubCore,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.table import (
    Table,
    good_key,
    token_hash,
)


class Access(HubCore):
    """Who may open a seat (a part of :class:`Hub`: see the module)."""

    def seat_for(self, table: Table, *, token: str | None = None, seat: int | None = None,
                 key: str | None = None) -> int:
        """The seat a request opens: the one whose link carries ``token``, or ``seat`` for
        the browser that claimed it (with its ``key``). A claimed seat opens only with its
        browser's key, whoever holds the link; an unclaimed one opens with its link (the
        first browser to bring its key claims it: :meth:`claim`)."""
        if token is not None or seat is None:
            found = table.seats.of(token)
            if found is None:
                raise HubError("this link's token does not open a seat at this table", 403,
                               code="seat-link")
        elif seat is not None and 0 <= seat < table.players and table.seats.owns(seat, key):
            found = seat
        else:
            raise HubError("this browser has no seat at this table", 403, code="seat-link")
        if table.seats.key_hashes[found] is not None and not table.seats.owns(found, key):
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
            if token is not None and table.seats.of(token) != seat:
                raise HubError("this link's token does not open a seat at this table", 403,
                               code="seat-link")
            if table.seats.key_hashes[seat] is not None:
                if table.seats.owns(seat, key):
                    return False
                raise HubError("this seat belongs to the browser that opened its link "
                               "first; ask whoever made the table for a new link", 403,
                               code="seat-claimed")
            mine = next((s for s in range(table.players) if table.seats.owns(s, key)), None)
            if mine is not None:
                # One person, one hand: a browser that has a seat here does not take
                # another's (the maker opening a friend's link by mistake, say).
                raise HubError(f"this browser has a seat at this table already "
                               f"({table.seats.names[mine]}'s): this link is for "
                               f"{table.seats.names[seat]}, send it to them", 403,
                               code="one-seat", params={"name": table.seats.names[seat],
                                                        "mine": table.seats.names[mine]})
            digest = token_hash(key)
            await self._write(self._save_seat, table.id, seat, {"key_hash": digest})
            table.seats.key_hashes[seat] = digest
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
        if not 0 <= seat < table.players or table.seats.kinds[seat] != "person":
            raise HubError("only a person's seat has a link", 400, code="no-link")
        async with table.lock:
            await self._fresh(table)
            if table.seats.key_hashes[seat] is not None and table.presence.connected(seat):
                raise HubError(f"{table.seats.names[seat]} is at the table now: their seat keeps "
                               "its link", 409, code="seat-in-use",
                               params={"name": table.seats.names[seat]})
            if table.status == "playing" and not self._left_the_match(table, seat):
                minutes = max(1, round(self.link_absence / 60))
                name = table.seats.names[seat]
                raise HubError(f"{name} is playing this match: their seat gets a "
                               f"new link only once they leave it, or after {minutes} "
                               "minutes away", 409, code="seat-in-play",
                               params={"name": table.seats.names[seat], "minutes": minutes})
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)
            await self._write(self._save_seat, table.id, seat,
                              {"key_hash": None, "token_hash": digest})
            table.seats.token_hashes[seat] = digest
            table.seats.key_hashes[seat] = None
        for send in list(table.presence.sockets.get(seat, ())):
            await self.kick(table, send, "revoked")
        await self.announce(table, "kick", seat=seat, reason="revoked")
        await self.send_presence(table)
        return f"/t/{table.id}?token={token}"

    def _left_the_match(self, table: Table, seat: int) -> bool:
        """Whether ``seat``'s person has left the match in play: handed the seat over, or
        not connected for :attr:`link_absence` seconds."""
        if table.seats.away[seat]:
            return True
        gone = table.presence.gone_at.get(seat)
        return (gone is not None and not table.presence.connected(seat)
                and asyncio.get_running_loop().time() - gone >= self.link_absence)

    async def take(self, table: Table, seat: int, key: str, name: str | None) -> None:
        """The browser with ``key`` takes a free seat of a listed table from the lobby
        (under ``name``, while the game has not started): the seat is its own."""
        if not table.listed:
            raise HubError("this table is not in the lobby: its seats open with their "
                           "links", 403, code="not-listed")
        if not 0 <= seat < table.players or table.seats.kinds[seat] != "person":
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
        for send in list(table.presence.sockets.get(seat, ())):
            # Whoever had the seat open by its link alone no longer has it.
            await self.kick(table, send, "claimed")
        await self.announce(table, "kick", seat=seat, reason="claimed")
        if name is not None and name != table.seats.names[seat]:
            async with table.lock:
                if table.seq == 0 and table.status == "waiting":
                    names = [*table.seats.names]
                    names[seat] = name
                    # Nothing has been played: the same deal under the new name.
                    table.match = Match(table.rules, players=names, seed=table.seed,
                                        first_dealer=table.match.dealers[0])
                    table.seats.names = names
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

    def lobby(self, limit: int) -> list[dict[str, Any]]:
        """The listed tables that are waiting or in play, newest first: rules, every
        seat (name, kind, whether it is free) and how many watch. A free seat is a
        person's seat that no browser has claimed."""
        listed = [t for t in list(self.tables.values())
                  if t.listed and t.status in ("waiting", "playing")]
        listed.sort(key=lambda t: (t.status != "waiting", -t.created))
        return [{"id": t.id, "rules": str(t.rules), "status": t.status,
                 "timer": t.turn_timer, "watchers": t.presence.watching(),
                 "seats": [{"name": t.seats.names[s], "kind": t.seats.kinds[s],
                            "level": t.seats.levels[s],
                            "free": t.status == "waiting" and t.seats.kinds[s] == "person"
                            and t.seats.key_hashes[s] is None}
                           for s in range(t.players)]}
                for t in listed[:limit]]
