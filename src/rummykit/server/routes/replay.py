"""Replays: a finished table's record and its steps for the viewer, and the steps of an
uploaded record."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rummykit import record as records
from rummykit.errors import RecordError
from rummykit.server import app as conf
from rummykit.server.hub import HubError
from rummykit.server.routes.deps import ServerOf, TableOf, using
from rummykit.server.schemas import FramesOut

__all__ = ["router"]

router = APIRouter(prefix="/api")

FRAMES = {200: {"model": FramesOut, "content": {"application/json": {}}}}
"""(what the OpenAPI pages say of a replay: it is sent as the bytes it was encoded to)"""


async def replayed(server: ServerOf, record: records.Record) -> bytes:
    """A record's frames as JSON (replayed and encoded in a replay thread)."""
    return await asyncio.get_running_loop().run_in_executor(server.replayer,
                                                            conf.frames_json, record)


@router.get("/tables/{table_id}/record")
async def table_record(table: TableOf) -> Response:
    """A finished match's record: open to whoever has the table's link, as its replay is
    (every hand is shown once the match is over, not before)."""
    if table.status != "finished":
        raise HubError("the record can be had once the match is over", 409, code="record-not-over")
    text = records.dumps(records.from_match(table.match))
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="rummykit-{table.id}.json"'})


@router.get("/tables/{table_id}/frames", responses=FRAMES)  # type: ignore[arg-type]
async def table_frames(table_id: str, server: ServerOf) -> Response:
    """Every step of a finished match, for the replay viewer (as the record). A finished
    table's replay never changes: worked out once, then kept (and answered from there
    without reading the table again)."""
    ready = server.replays.get(table_id)
    if ready is None:
        async with using(server.hub, table_id) as table:
            if table.status != "finished":
                raise HubError("the replay can be watched once the match is over", 409,
                    code="record-not-over")
            record = records.from_match(table.match)
        ready = await replayed(server, record)
        server.replays.put(table_id, ready)
    return Response(ready, media_type="application/json")


@router.post("/replay", responses=FRAMES)  # type: ignore[arg-type]
async def replay_upload(request: Request, server: ServerOf) -> Response:
    """The steps of an uploaded record (its JSON as the body)."""
    body = await request.body()
    if len(body) > conf.MAX_RECORD:
        raise HubError("that record is too large", code="record-large")
    try:
        rec = records.loads(body)
    except RecordError as err:
        raise HubError(f"not a valid record: {err}", code="record-invalid") from None
    steps = sum(len(d.actions) + 1 for d in rec.deals)
    if steps > conf.MAX_FRAMES:
        raise HubError(f"that record has {steps} steps; the viewer shows at most "
                       f"{conf.MAX_FRAMES}", code="record-steps")
    # Replaying is work for the processor: off the event loop, so tables keep going.
    return Response(await replayed(server, rec), media_type="application/json")
