"""Transfer codes: a one-time code carries a browser's player key to another device."""

from __future__ import annotations

from fastapi import APIRouter

from rummykit.server.hub import TRANSFER_TIME, HubError
from rummykit.server.middleware import Bucket, bucket_of
from rummykit.server.routes.deps import Client, HubOf, ServerOf
from rummykit.server.schemas import CodeIn, KeyIn, KeyOut, TransferOut

__all__ = ["router"]

router = APIRouter(prefix="/api/transfer")

TRIES = 10
"""Codes one client address may try in a minute."""


@router.post("")
async def transfer(body: KeyIn, hub: HubOf) -> TransferOut:
    """A one-time code that carries this browser's player key to another device."""
    return TransferOut(code=hub.transfer_code(body.key), expires_in=int(TRANSFER_TIME))


@router.post("/redeem")
async def redeem(body: CodeIn, server: ServerOf, client: Client) -> KeyOut:
    """The player key a transfer code carries (the code is spent). Ten tries a minute
    from one place, so codes cannot be guessed."""
    bucket = bucket_of(server.redeeming, client, lambda: Bucket(TRIES, TRIES / 60), 10_000)
    if not bucket.take():
        raise HubError("too many tries: wait a minute", 429, code="rate",
                       retry_after=bucket.wait())
    return KeyOut(key=server.hub.redeem(body.code))
