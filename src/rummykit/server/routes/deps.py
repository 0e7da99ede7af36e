"""What the routes get through FastAPI's dependencies: the app's state (the hub, the
replay cache, the options the app was made with), the table a request names, who asks
for a seat, and the client's address."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Annotated, Final

from fastapi import Depends, Header, Query
from sqlalchemy.engine import Engine
from starlette.datastructures import QueryParams
from starlette.requests import HTTPConnection

from rummykit.limits import PLAYERS, TOKEN_LENGTH
from rummykit.server.hub import Hub, HubError, Table
from rummykit.server.middleware import Bucket
from rummykit.server.replays import FrameCache
from rummykit.server.reviews import Reviews
from rummykit.server.schemas import KEY_PATTERN, TokenIn

__all__ = ["KEY_HEADER", "SECRET_IN_URL", "TOKEN_HEADER", "Client", "HubOf", "Server",
           "ServerOf", "TableOf", "Who", "no_secret_in_address", "secret_in", "using"]

KEY_HEADER = "X-Rummykit-Key"
TOKEN_HEADER = "X-Rummykit-Token"
"""The headers of an API request that carry the browser's key and a seat link's token."""


@dataclass
class Server:
    """The app's state beside its hub (``app.state.server``)."""

    hub: Hub
    engine: Engine
    replays: FrameCache
    """Finished tables' replays, ready to send again."""
    replayer: ThreadPoolExecutor
    """The threads that work out replays (a few at once)."""
    reviews: Reviews
    """The game reviews: their queue, and the finished ones."""
    allow_seed: bool
    tables_per_client: int
    max_record: int
    """The largest record a person may upload, in bytes."""
    openings: dict[str, Bucket] = field(default_factory=dict)
    """Each client's allowance of new tables."""
    mastering: dict[str, Bucket] = field(default_factory=dict)
    """Each client's allowance of new tables with a master."""
    redeeming: dict[str, Bucket] = field(default_factory=dict)
    """Each client's allowance of transfer codes tried."""
    chatting: dict[tuple[str, int], Bucket] = field(default_factory=dict)
    """Each seat's allowance of chat messages (the seat's, not its connection's)."""


def server_of(connection: HTTPConnection) -> Server:
    server: Server = connection.app.state.server
    return server


def hub_of(connection: HTTPConnection) -> Hub:
    return server_of(connection).hub


ServerOf = Annotated[Server, Depends(server_of)]
HubOf = Annotated[Hub, Depends(hub_of)]


@asynccontextmanager
async def using(hub: Hub, table_id: str) -> AsyncIterator[Table]:
    """The table, for one request: a finished table nobody is at goes back to the
    database afterwards (whatever the answer), so asking cannot fill memory."""
    table = await hub.fetch(table_id)
    try:
        yield table
    finally:
        hub.forget(table)


async def table_named(table_id: str, hub: HubOf) -> AsyncIterator[Table]:
    """The table of the request's path (``{table_id}``), as :func:`using` has it."""
    async with using(hub, table_id) as table:
        yield table


TableOf = Annotated[Table, Depends(table_named, scope="function")]


def who(seat: Annotated[int | None, Query(ge=0, le=PLAYERS[1] - 1)] = None,
        key: Annotated[str | None, Header(alias=KEY_HEADER, pattern=KEY_PATTERN)] = None,
        token: Annotated[str | None, Header(alias=TOKEN_HEADER, max_length=TOKEN_LENGTH)
                         ] = None,
        ) -> TokenIn:
    """Who asks: the seat link's token and the browser's key from the headers, the seat
    number (no secret) from the query string."""
    return TokenIn(token=token, seat=seat, key=key)


Who = Annotated[TokenIn, Depends(who)]


SECRETS = ("key", "token")
"""Query parameters that would put a secret in an address."""

SECRET_IN_URL: Final = "secret-in-url"
"""The code of a request refused for a secret in its address."""


def secret_in(query: QueryParams) -> bool:
    return any(name in query for name in SECRETS)


def no_secret_in_address(connection: HTTPConnection) -> None:
    """Every API request: a key or token in its query string is refused (400), so no
    client keeps writing secrets into logs and histories."""
    if (connection.scope["type"] == "http" and connection.url.path.startswith("/api/")
            and secret_in(connection.query_params)):
        raise HubError(f"send the browser's key and the link's token in the {KEY_HEADER} "
                       f"and {TOKEN_HEADER} headers, not in the address", 400,
                       code=SECRET_IN_URL)


def client_of(connection: HTTPConnection) -> str:
    """The client's address (``?`` if unknown)."""
    return connection.client.host if connection.client else "?"


Client = Annotated[str, Depends(client_of)]
