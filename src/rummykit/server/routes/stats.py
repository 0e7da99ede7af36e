"""The statistics, a page at a time."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query

from rummykit.errors import shown
from rummykit.limits import PLAYERS
from rummykit.rules import PRESETS
from rummykit.server.hub import HubError
from rummykit.server.routes.deps import ServerOf
from rummykit.server.schemas import StatsOut
from rummykit.stats import Store

__all__ = ["router"]

router = APIRouter(prefix="/api")

STATS_PAGE = 200
"""The most statistics lines one request returns (the page asks for the next ones)."""


@router.get("/stats")
async def stats(server: ServerOf, preset: str | None = None,
                players: Annotated[int | None, Query(ge=PLAYERS[0], le=PLAYERS[1])] = None,
                offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                limit: Annotated[int, Query(ge=1, le=STATS_PAGE)] = STATS_PAGE,
                ) -> StatsOut:
    """A page of the statistics (``limit`` lines from ``offset``) and how many there are
    in all."""
    if preset is not None and preset not in PRESETS:
        raise HubError(f"no preset {shown(preset)}; the presets are: {', '.join(PRESETS)}",
            code="no-preset")
    store = Store(engine=server.engine)
    # Reading the statistics is work for the database: off the event loop.
    lines = await asyncio.to_thread(store.lines, preset=preset, players=players)
    return StatsOut(stats=lines[offset:offset + limit], total=len(lines), offset=offset)
