"""Seats: a seat's new link, a free seat taken from the lobby, the tables a browser has
seats at, and the QR code of a seat's link."""

from __future__ import annotations

import asyncio
import re

import segno
from fastapi import APIRouter

from rummykit.server.hub import HubError
from rummykit.server.routes.deps import HubOf, TableOf
from rummykit.server.schemas import KeyIn, LinkOut, MineOut, QrIn, QrOut, TakeIn, TakenOut

__all__ = ["router"]

router = APIRouter(prefix="/api")

MINE_LIMIT = 50
"""The most tables "my tables" lists for one browser."""
MAX_QR_TEXT = 300
QR_LINK = re.compile(r"https?://[A-Za-z0-9.:\[\]-]{1,200}/t/[A-Za-z0-9]{1,32}"
                     r"\?(token=[A-Za-z0-9_-]{16,64}|watch=1)")
"""What ``POST /api/qr`` makes a code of: a table's seat link or watch link, no more."""


@router.post("/tables/{table_id}/seats/{seat}/link")
async def new_link(table: TableOf, seat: int, body: KeyIn, hub: HubOf) -> LinkOut:
    """A new link for a seat whose person is not at the table (the old one no longer
    opens it), asked by the browser that made the table."""
    return LinkOut(seat=seat, link=await hub.new_link(table, seat, body.key))


@router.post("/tables/{table_id}/seats/{seat}/take")
async def take_seat(table: TableOf, seat: int, body: TakeIn, hub: HubOf) -> TakenOut:
    """Take a free seat of a table listed in the lobby: it becomes this browser's."""
    await hub.take(table, seat, body.key, body.name)
    return TakenOut(id=table.id, seat=seat, link=f"/t/{table.id}?seat={seat}")


@router.post("/mine", response_model=MineOut)
async def my_tables(body: KeyIn, hub: HubOf) -> object:
    """Every table where the browser with this key has claimed a seat, newest first (at
    most MINE_LIMIT): so that losing a link never loses a seat."""
    return {"tables": await asyncio.to_thread(hub.tables_of, body.key, MINE_LIMIT)}


@router.post("/qr")
async def qr_code(body: QrIn) -> QrOut:
    """The QR code of one of the app's own links (a seat's, or the watch link), as its
    module matrix for the page to draw: a POST, so no token enters an address."""
    if len(body.text) > MAX_QR_TEXT or not QR_LINK.fullmatch(body.text):
        raise HubError("a QR code is made only of a link to a table of this app "
                       "(https://HOST/t/TABLE?token=... or ?watch=1)", 400, code="qr-text")
    qr = segno.make_qr(body.text, error="m")
    return QrOut(size=int(qr.symbol_size(border=0)[0]),
                 rows=["".join("1" if dark else "0" for dark in row) for row in qr.matrix])
