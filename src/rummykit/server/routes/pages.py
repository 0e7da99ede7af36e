"""The pages: ``/`` (start a table), ``/t/{id}`` (a seat or a spectator), ``/replay``,
``/stats`` and ``/rules``; each is a file of web/static."""

from __future__ import annotations

import asyncio
import html
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from rummykit.db.models import TableRow
from rummykit.server.hub import BROKEN, BROKEN_MESSAGE
from rummykit.server.routes.deps import ServerOf

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html")


def stored_status(engine: Engine, table_id: str) -> str | None:
    """A stored table's status, read without replaying its match."""
    with Session(engine) as session:
        return session.scalars(select(TableRow.status).where(TableRow.id == table_id)).first()


@router.get("/")
async def index() -> FileResponse:
    return page("index.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str, server: ServerOf) -> Response:
    # The page needs only to know that the table is not broken: a table in memory says
    # so; another's stored status does, read without replaying its match.
    hub = server.hub
    if hub.tables.get(table_id) is None and table_id.isalnum() and len(table_id) <= 32 and (
            table_id in hub.broken
            or await asyncio.to_thread(stored_status, server.engine, table_id) == BROKEN):
        # A broken table gets its answer here; a bad link is told by the page itself.
        return HTMLResponse(f"<!doctype html><meta charset=\"utf-8\"><title>rummykit</title>"
                            f"<p>{html.escape(BROKEN_MESSAGE)}</p>\n", status_code=410)
    return page("table.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return page("replay.html")


@router.get("/stats")
async def stats_page() -> FileResponse:
    return page("stats.html")


@router.get("/rules")
async def rules_page() -> FileResponse:
    return page("rules.html")
