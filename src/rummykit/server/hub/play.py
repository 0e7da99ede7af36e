"""Playing: an action checked, stored and played; why an action is refused; hints; undo;
the deal's summary read."""

from __future__ import annotations

from typing import Any

from rummykit.bots.hints import hint
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError, NotationError, shown
from rummykit.server.hub.base import (
    HINT_ROLLOUTS,
    HINT_THINK,
    HubCore,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.storage import (
    Conflict,
)
from rummykit.server.hub.table import (
    Table,
    encodable,
)


class Play(HubCore):
    """Playing (a part of :class:`Hub`: see the module)."""

    async def act(self, table: Table, seat: int, text: str) -> None:
        """Play ``text`` for ``seat``: checked, stored, then every seat hears of it."""
        async with table.lock:
            await self._current(table)
            action = self._checked(table, seat, text)
            if table.seats.standing[seat]:
                # A person who plays their own turn is back from being away.
                await self._set_standing(table, seat, False)
                if seat in table.vote.left:
                    table.vote.left.remove(seat)
                    table.vote.choices = {}
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
            raise HubError(f"it is {table.seats.names[deal.to_move]}'s turn, not yours",
                           code="not-your-turn", params={"name": table.seats.names[deal.to_move]})
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
            if table.rated:
                raise HubError("a rated table gives no hints", code="rated-hint")
            if table.status != "playing" or table.match.is_over:
                raise HubError("a hint is for a game in play", code="hint-not-playing")
            if table.match.deal.to_move != seat:
                raise HubError("a hint is for your own turn", code="hint-not-your-turn")
            if seat in table.hints.busy:
                raise HubError("your hint is still being worked out", code="hint-busy")
            seq = table.seq
            kept = table.hints.given.get(seat)
            if kept is not None and kept[0] == seq:
                return kept[1]
            seen = view(table.match, seat)
            table.hints.busy.add(seat)
        try:
            # The view is immutable: the search reads it without the table's lock. Its
            # generator is seeded from the seat's position (hints.hint's default).
            found = await self.pool.run(
                table.id, lambda: hint(seen, rollouts=HINT_ROLLOUTS,
                                       think=min(self.think, HINT_THINK)))
        finally:
            table.hints.busy.discard(seat)
        counts = table.hints.counts.setdefault(seen.deal_number, [0] * table.players)
        counts[seat] += 1
        answer = {"type": "hint", "seq": seq, "action": str(found.action),
                  "reason": found.reason,
                  "parts": [[code, params] for code, params in found.parts]}
        table.hints.given[seat] = (seq, answer)
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
            if table.rated:
                raise HubError("a rated table takes nothing back", code="rated-undo")
            match self._undo_problem(table, seat):
                case "undo-nothing":
                    raise HubError("only a meld or lay-off of your turn can be taken back, "
                                   "before your discard", code="undo-nothing")
                case "undo-seen":
                    raise HubError("the other people at the table have seen it: no undo",
                                   code="undo-seen")
            first_dealer = table.match.dealers[0]
            match = Match(table.rules, players=table.seats.names, seed=table.seed,
                          first_dealer=first_dealer)
            for text in table.actions[:-1]:
                match.apply(text)
            await self._write(self._delete_action, table.id, table.seq)
            table.match = match
            table.actions.pop()
            table.seq -= 1
            table.hints.given.clear()  # the next action takes this seq again, another position
            table.last = []
            self._arm_timer(table)
        await self.broadcast(table)

    @staticmethod
    def _undo_problem(table: Table, seat: int) -> str | None:
        """Why :meth:`undo` would take nothing back for ``seat`` now (``"undo-nothing"``,
        ``"undo-seen"``), or None: it would."""
        if table.status != "playing" or table.match.is_over:
            return "undo-nothing"
        deal = table.match.deal
        last = deal.moves_since(deal.move_count - 1) if deal.move_count else []
        if deal.to_move != seat or not last or last[0][0] != seat or (
                last[0][1].kind not in ("meld", "layoff")) or table.seats.standing[seat]:
            return "undo-nothing"  # (nor what the stand-in played)
        if any(kind == "person" for s, kind in enumerate(table.seats.kinds) if s != seat) or (
                table.presence.watching()):
            return "undo-seen"  # (spectators see each action at once too)
        return None

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
            await self._write_action(table.id, seq, seat, str(action))
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
                             if table.seats.kinds[s] == "person" and not table.seats.standing[s]}
            table.read.clear()
        table.last = [f"{table.seats.names[seat]}: {text}"]
