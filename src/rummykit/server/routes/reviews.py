"""Game reviews: start (or join) the review of a finished table's match or of an uploaded
record, and follow it to its end (:mod:`rummykit.server.reviews`)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from rummykit import record as records
from rummykit.errors import RecordError
from rummykit.server.hub import HubError
from rummykit.server.routes.deps import ServerOf, using
from rummykit.server.schemas import ReviewIn, ReviewOut

__all__ = ["router"]

router = APIRouter(prefix="/api")


def _uploaded(text: str) -> records.Record:
    """The record of an upload, once it is seen to replay (a record that does not is
    refused here: nothing is queued or stored)."""
    try:
        rec = records.loads(text)
        records.replay(rec)
    except (RecordError, records.ReplayError) as err:
        raise HubError(f"not a valid record: {err}", code="record-invalid") from None
    return rec


@router.post("/reviews", response_model=ReviewOut)
async def ask_review(body: ReviewIn, server: ServerOf) -> object:
    """Review a finished table's match (whoever has the table's link may, as they may
    watch its replay) or an uploaded record: the review's state, at once (``done`` if it
    was reviewed before). A browser has one review waiting or running at a time."""
    if (body.table is None) == (body.record is None):
        raise HubError("name a table or send a record, not both", code="review-what")
    if body.table is not None:
        async with using(server.hub, body.table) as table:
            if table.status != "finished":
                raise HubError("a match is reviewed once it is over", 409,
                               code="record-not-over")
            rec = records.from_match(table.match)
        table_id: str | None = table.id
    else:
        assert body.record is not None
        if len(body.record) > server.max_record:
            raise HubError("that record is too large", code="record-large")
        rec = await asyncio.to_thread(_uploaded, body.record)
        table_id = None
    return await server.reviews.ask(rec, body.key, table_id)


@router.get("/reviews/{review_id}", response_model=ReviewOut)
async def get_review(review_id: str, server: ServerOf) -> object:
    """A review's state: waiting (with its place in the queue), running (with its
    progress), done (with the review) or failed (with why)."""
    if len(review_id) > 64:
        raise HubError("there is no such review", 404, code="no-review")
    return await server.reviews.get(review_id)
