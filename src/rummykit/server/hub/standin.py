"""Leaving and coming back: a seat handed to the stand-in, the others' vote on going on or
ending the match."""

from __future__ import annotations

from rummykit.server.hub.base import (
    HubCore,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.table import (
    Table,
)


class StandIn(HubCore):
    """Leaving and coming back (a part of :class:`Hub`: see the module)."""

    async def hand_over(self, table: Table, seat: int) -> None:
        """``seat``'s person hands the seat to the table's stand-in and leaves: it plays
        their turns (from their seat's view, as any bot) until they come back."""
        if table.seats.kinds[seat] != "person":
            raise HubError("only a person's seat can be handed over", code="no-link")
        async with table.lock:
            await self._fresh(table)
            if table.status != "playing" or table.match.is_over:
                raise HubError("only a match in play can be left", code="not-in-play")
            await self._set_standing(table, seat, True, away=True)
            if self._others(table, seat) and seat not in table.vote.left:
                # The others choose: the stand-in goes on, or the match ends.
                table.vote.left.append(seat)
                table.vote.choices = {}
                await self._tell_question(table)
            self._arm_timer(table)
        await self.broadcast(table)
        self._schedule_bot(table)

    @staticmethod
    def _others(table: Table, seat: int) -> list[int]:
        """The people at the table but ``seat`` who have not left it."""
        return [s for s in range(table.players) if s != seat
                and table.seats.kinds[s] == "person" and not table.seats.away[s]]

    async def vote(self, table: Table, seat: int, end: bool) -> None:
        """``seat``'s choice after someone left: keep playing with the stand-in, or end
        the match. Once at least half of the others choose to end it, it ends there (its
        result says who left); if they all choose to keep playing, the question is
        closed."""
        async with table.lock:
            await self._fresh(table)
            if not table.vote.left or table.status != "playing":
                raise HubError("nobody has left: there is nothing to decide",
                               code="no-vote")
            leaver = table.vote.left[-1]
            others = self._others(table, leaver)
            if seat not in others:
                raise HubError("the others decide, not the one who left", code="no-vote")
            table.vote.choices[seat] = end
            ending = sum(1 for s in others if table.vote.choices.get(s))
            if 2 * ending >= len(others):
                table.status = "finished"
                table.ended_by = leaver
                table.vote.close()
                await self._write(self._save_finish, table)
                self._arm_timer(table)
            elif all(s in table.vote.choices for s in others):
                table.vote.left.pop()
                table.vote.choices = {}
            await self._tell_question(table)
        await self.broadcast(table)

    async def back(self, table: Table, seat: int) -> None:
        """``seat``'s person takes the seat back from the stand-in (with a whole turn's
        time, if it is their turn)."""
        async with table.lock:
            if table.seats.standing[seat]:
                await self._set_standing(table, seat, False)
                self._arm_timer(table)
            if seat in table.vote.left:
                table.vote.left.remove(seat)
                table.vote.choices = {}
                await self._tell_question(table)
        await self.broadcast(table)

    async def _set_standing(self, table: Table, seat: int, standing: bool, *,
                            away: bool = False) -> None:
        """The stand-in plays ``seat`` now, or stops (the caller holds the lock); a seat
        handed over (``away``) is stored as such, so a restart keeps it with the bot."""
        if table.seats.away[seat] != away:
            await self._write(self._save_seat, table.id, seat, {"away": away})
            table.seats.away[seat] = away
        if table.seats.standing[seat] != standing:
            table.seats.standing[seat] = standing
            await self.announce(table, "standing", seat=seat, on=standing)

    @staticmethod
    def nobody_played(table: Table) -> bool:
        """Whether every person at ``table`` has left it: the stand-in plays each person's
        seat, and each has handed it over or is not connected (a person at the table whose
        turn ran out has not left). A match that ends so was decided by the computer
        players alone, and is recorded as abandoned."""
        seats = table.seats
        return all(seats.standing[s] and (seats.away[s] or not table.presence.connected(s))
                   for s in range(table.players) if seats.kinds[s] == "person")
