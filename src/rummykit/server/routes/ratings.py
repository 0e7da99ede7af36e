"""Ratings: what a rated table's match did to each player's rating, the leaderboards per
preset and player-count group, a person's own ratings with their history, and their
choice of a name on the leaderboard (or none)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select
from sqlalchemy.orm import Session

from rummykit.db.models import BoardNameRow, SeatRow, TableRow
from rummykit.errors import shown
from rummykit.limits import NAME_LENGTH
from rummykit.names import printable_name
from rummykit.ratings import GROUPS, Group
from rummykit.rules import PRESETS
from rummykit.server.hub import HubError
from rummykit.server.hub.table import token_hash
from rummykit.server.routes.deps import ServerOf
from rummykit.server.schemas import (
    AgainstOut,
    BoardLineOut,
    BoardNameIn,
    BoardOut,
    MyRatingOut,
    MyRatingsIn,
    MyRatingsOut,
    RatingChangeOut,
    TableRatingsOut,
)
from rummykit.stats import Store, rated

__all__ = ["router"]

router = APIRouter(prefix="/api")

BOARD_LINES = 100
"""The most lines of a leaderboard."""


def _preset(preset: str) -> str:
    if preset not in PRESETS:
        raise HubError(f"no preset {shown(preset)}; the presets are: {', '.join(PRESETS)}",
                       code="no-preset")
    return preset


@router.get("/tables/{table_id}/ratings")
async def table_ratings(table_id: str, server: ServerOf) -> TableRatingsOut:
    """Whether a table is rated and what its stored match did to each seat's rating (but
    the rating of a person who chose to stay off the leaderboard)."""

    def read() -> TableRatingsOut:
        with Session(server.engine) as session:
            table = session.get(TableRow, table_id[:40])
            if table is None:
                raise HubError("there is no such table", 404, code="no-table")
            if table.game_id is None:
                return TableRatingsOut(rated=table.rated, changes=[])
            seats = {row.seat: row for row in session.scalars(
                select(SeatRow).where(SeatRow.game_id == table.game_id))}
            # (a person who chose to stay off the leaderboard: their rating is not shown)
            hidden = set(session.scalars(select(BoardNameRow.subject).where(
                BoardNameRow.hidden)))
            changes = [RatingChangeOut(
                seat=c.seat, name=seats[c.seat].player, kind=seats[c.seat].kind,
                place=c.place, before=c.before, after=c.after, change=c.after - c.before,
                provisional=c.provisional) for c in rated.changes(session, table.game_id)
                if c.subject not in hidden]
            return TableRatingsOut(rated=table.rated, changes=changes)

    return await asyncio.to_thread(read)


@router.get("/ratings")
async def leaderboard(server: ServerOf, preset: str,
                      group: Annotated[str, Query(pattern="^(2|3-4|5-6)$")] = "2",
                      ) -> BoardOut:
    """The leaderboard of ``preset`` and player-count ``group`` (``2``, ``3-4``, ``5-6``):
    people under the name they chose (those who chose to be hidden are not there) and
    bot levels, the highest rating first."""
    grp: Group = next(g for g in GROUPS if g == group)
    store = Store(engine=server.engine)
    lines = await asyncio.to_thread(store.board, _preset(preset), grp, limit=BOARD_LINES)
    return BoardOut(preset=preset, group=grp, lines=[
        BoardLineOut(place=line.place, kind=line.kind, name=line.name, rating=line.rating,
                     provisional=line.provisional, matches=line.matches)
        for line in lines])


@router.post("/ratings/mine")
async def my_ratings(body: MyRatingsIn, server: ServerOf) -> MyRatingsOut:
    """This browser's ratings (each preset and group it played rated matches in), with
    each one's history, and its choice for the leaderboard."""
    subject = f"key:{token_hash(body.key)}"

    def read() -> MyRatingsOut:
        found = rated.mine(server.engine, subject)
        return MyRatingsOut(
            ratings=[MyRatingOut(preset=r.preset, group=r.group, rating=r.rating,
                                 provisional=r.provisional, matches=r.matches,
                                 history=[(at.isoformat(), value) for at, value in r.history],
                                 against=[AgainstOut(level=a.level, won=a.won, lost=a.lost,
                                                     tied=a.tied) for a in r.against])
                     for r in found.ratings],
            name=found.name, hidden=found.hidden)

    return await asyncio.to_thread(read)


@router.post("/ratings/name")
async def board_name(body: BoardNameIn, server: ServerOf) -> MyRatingsOut:
    """A person's choice for the leaderboard: a name of their own (none: the name they
    play under), or hidden from it."""
    if body.name is not None and (not body.name.strip() or not printable_name(body.name)):
        raise HubError(f"a name is 1 to {NAME_LENGTH} letters, digits, spaces and "
                       "punctuation, not control, invisible or direction-changing "
                       "characters", code="name-invalid", params={"max": NAME_LENGTH})
    store = Store(engine=server.engine)
    await asyncio.to_thread(store.set_board_name, f"key:{token_hash(body.key)}",
                            None if body.name is None else body.name.strip(),
                            hidden=body.hidden)
    return await my_ratings(MyRatingsIn(key=body.key), server)

