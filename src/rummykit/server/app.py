"""The web app: FastAPI with WebSockets, serving plain HTML, CSS and JavaScript.

Pages: ``/`` (start a table), ``/t/{id}?token=...`` (play a seat), ``/replay`` (the
replay viewer), ``/stats`` and ``/rules``. The JSON API is under ``/api`` and a seat's live
connection is ``/ws/{id}``, whose first message says who it is (the hello).

No secret travels in an address the app uses (addresses end up in access logs, proxies'
logs and the browser's history): the browser's key and a seat link's token come in the
WebSocket's hello, in the headers ``X-Rummykit-Key`` and ``X-Rummykit-Token`` of an API
request, or in a POST's JSON body; ``key`` or ``token`` in the query string of an API
request or of the WebSocket is refused (code ``secret-in-url``). Only the seat link
itself, ``/t/{id}?token=...``, holds its token, and the page takes it out of the address
bar once it has claimed the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final
from urllib.parse import quote, urlsplit

import segno
from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, HTTPConnection

from rummykit import record as records
from rummykit.bots import BOTS, parse_bot
from rummykit.cards import CARDS
from rummykit.db import connect
from rummykit.db.models import TableRow
from rummykit.engine.match import Match
from rummykit.errors import RecordError, RulesError, shown
from rummykit.rules import OPTION_HELP, PRESET_SOURCES, PRESETS, Rules
from rummykit.server.bus import HEARTBEAT, bus_for
from rummykit.server.hub import (
    BROKEN,
    BROKEN_MESSAGE,
    SUMMARY_WAIT,
    TIMER_RANGE,
    TRANSFER_TIME,
    Hub,
    HubError,
    SeatSpec,
    Send,
    Table,
    good_key,
    token_hash,
)
from rummykit.server.logs import hide_queries
from rummykit.server.outbox import Outbox
from rummykit.server.pool import IDLE_LIMIT
from rummykit.stats import Store

__all__ = ["MAX_MESSAGE", "create_app"]

log = logging.getLogger("rummykit.server")

KICKED = {
    "replaced": "this seat is now open in another tab or window of this browser",
    "claimed": "the browser that opened this seat's link first has claimed it",
    "revoked": "this seat's link was replaced by whoever made the table",
}
"""Why a connection was closed for another (the ``closed`` message's ``reason``)."""

IN_FLIGHT = 32
"""HTTP requests one client address may have in flight at once (then 429 ``busy``)."""

REQUEST_RATE = 50.0
REQUEST_BURST = 200.0
"""HTTP requests one client address may make: fifty a second, two hundred at once (a
page asks for a dozen files as it loads)."""

CHAT_RATE = 1.0
CHAT_BURST = 5.0
"""Chat messages a connection may send: one a second, five at once."""

MAX_WATCHERS = 50
"""Spectators one table may have at once."""

LOBBY_LIMIT = 100
"""The most tables the lobby lists."""

MINE_LIMIT = 50
"""The most tables "my tables" lists for one browser."""

MAX_SOCKETS_PER_SEAT = 4
"""Connections one seat may have open at once (a few tabs or devices of its player)."""

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
MAX_MESSAGE = 2048
"""Bytes: a longer WebSocket message is refused."""
RATE = 20.0
"""Messages a second a connection may send, on average."""
BURST = 40.0
"""Messages a connection may send at once."""
MAX_RECORD = 5_000_000
MAX_BODY = 65_536
"""The largest request body but a record's upload (MAX_RECORD): counted as it streams in,
so a huge upload is refused before it is read, not after."""
STATS_PAGE = 200
"""The most statistics lines one request returns (the page asks for the next ones)."""
TABLES_PER_CLIENT = 30
"""Tables one client address may open in TABLE_WINDOW seconds (then 429)."""
TABLE_WINDOW = 600.0
MASTER_TABLES_PER_CLIENT = 5
"""Tables with a ``master`` bot or stand-in one client address may open in TABLE_WINDOW
seconds (then 429 ``master-limit``): each of its moves is a search of up to a second."""
REPLAYS_AT_ONCE = 2
"""Replays (an uploaded record's, a finished table's) worked out at once; more wait."""
FRAMES_KEPT = 32_000_000
"""Bytes of finished tables' replays kept ready to send again."""
MAX_OPEN_TABLES = 5_000
"""Unfinished tables the server keeps at once (then 503): each holds a match in memory."""
"""Bytes of an uploaded record."""
MAX_FRAMES = 20_000
"""Steps of a record the replay viewer takes."""


STORAGE_MESSAGE = ("the game's database is not answering just now: nothing was changed; try "
                   "again in a moment")
"""What a client hears while the database is down (code ``storage``)."""
STORAGE_RETRY = 2
"""Seconds a client is asked to wait then (``Retry-After``)."""


class SeatIn(BaseModel):
    kind: str = Field(pattern="^(person|bot)$")
    name: str = Field(min_length=1, max_length=40)
    level: str | None = None


KEY_PATTERN = "^[A-Za-z0-9_-]{22,64}$"
"""A browser's key: 128 random bits or more, URL-safe (see :func:`hub.good_key`)."""


class TableIn(BaseModel):
    rules: str = Field(min_length=1, max_length=400)
    seats: list[SeatIn] = Field(min_length=2, max_length=6)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    key: str | None = Field(default=None, pattern=KEY_PATTERN)
    """The key of the browser that makes the table: it may later issue new links."""
    timer: int | None = Field(default=None, ge=TIMER_RANGE[0], le=TIMER_RANGE[1])
    """Seconds a person has for a turn before the stand-in plays it (none: no timer)."""
    standin: str | None = Field(default=None, max_length=20)
    """The bot level that plays for a person who is away (``expert`` if not given)."""
    public: bool = False
    """Listed in the lobby, where anyone may take a free seat."""


class TokenIn(BaseModel):
    """Who asks for a seat: its link's ``token``, or the ``seat`` that the browser with
    ``key`` claimed (a claimed seat needs the key either way)."""

    token: str | None = Field(default=None, max_length=100)
    seat: int | None = Field(default=None, ge=0, le=5)
    key: str | None = Field(default=None, pattern=KEY_PATTERN)


class QrIn(BaseModel):
    text: str


MAX_QR_TEXT = 300
QR_LINK = re.compile(r"https?://[A-Za-z0-9.:\[\]-]{1,200}/t/[A-Za-z0-9]{1,32}"
                     r"\?(token=[A-Za-z0-9_-]{16,64}|watch=1)")
"""What ``POST /api/qr`` makes a code of: a table's seat link or watch link, no more."""


KEY_HEADER = "X-Rummykit-Key"
TOKEN_HEADER = "X-Rummykit-Token"
"""The headers of an API request that carry the browser's key and a seat link's token."""


def who(seat: Annotated[int | None, Query(ge=0, le=5)] = None,
        key: Annotated[str | None, Header(alias=KEY_HEADER, pattern=KEY_PATTERN)] = None,
        token: Annotated[str | None, Header(alias=TOKEN_HEADER, max_length=100)] = None,
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


HELLO_WAIT = 10.0
"""Seconds a new seat connection has to send its hello."""


class HelloIn(BaseModel):
    """A seat connection's first message: ``{"type": "hello", "token": ..., "key": ...}``
    or ``{"type": "hello", "seat": N, "key": ...}``."""

    model_config = ConfigDict(strict=True)
    type: str = Field(pattern="^hello$")
    token: str | None = Field(default=None, max_length=100)
    seat: int | None = None
    key: str | None = None
    """(checked by :func:`hub.good_key`: a bad key is refused with its own code)"""


class KeyIn(BaseModel):
    key: str = Field(pattern=KEY_PATTERN)


class CodeIn(BaseModel):
    code: str = Field(min_length=4, max_length=20)


class TakeIn(BaseModel):
    """A browser taking a free seat from the lobby, under a name of its choice."""

    key: str = Field(pattern=KEY_PATTERN)
    name: str | None = Field(default=None, max_length=40)


class BodyTooLarge(StarletteHTTPException):
    """A body that grew past its limit while it was read: an HTTP error (413), so that
    a route reading the body (FastAPI parsing a JSON body turns other errors into 400)
    answers 413 like the middleware does."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request is too large (at most {limit} bytes)")


class BodyLimit:
    """ASGI middleware: a request body larger than its path's limit is answered 413 as soon
    as its declared length, or the bytes streamed so far, pass the limit; the rest of the
    body is never read."""

    def __init__(self, app: Any, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and len(declared) < 19 and int(declared) > limit:
            await self._refuse(send, limit)
            return
        received = 0
        started = False

        async def counted() -> Any:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Any, limit: int) -> None:
        body = json.dumps({"error": f"the request is too large (at most {limit} bytes)"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                *[(k.lower().encode(), v.encode())
                                  for k, v in SECURITY_HEADERS.items()]]})
        await send({"type": "http.response.body", "body": body.encode()})


class ClientGuard:
    """ASGI middleware: one client address has at most ``limit`` HTTP requests in flight
    (more: 429 ``busy``), and a request whose client goes away before its body is in is
    logged in one line, without a traceback (the body's deadline, or a client that hung
    up: nobody is there to answer)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_flight: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else "?"
        if self.in_flight.get(client, 0) >= self.limit:
            await JSONResponse({"error": f"at most {self.limit} requests from one place at "
                                "once: wait for the answers", "code": "busy"},
                               status_code=429, headers={"Retry-After": "1", **SECURITY_HEADERS}
                               )(scope, receive, send)
            return
        self.in_flight[client] = self.in_flight.get(client, 0) + 1
        cut = False

        async def watched() -> Any:
            nonlocal cut
            message = await receive()
            cut = cut or message["type"] == "http.disconnect"
            return message

        try:
            await self.app(scope, watched, send)
        except ClientDisconnect:
            cut = True
        finally:
            left = self.in_flight.pop(client) - 1
            if left:
                self.in_flight[client] = left
        if cut:
            # (the path only: a query string may carry a seat's token)
            log.warning("%s %s: the client went away before its request's body was in",
                     scope.get("method"), scope.get("path"))


class Bucket:
    """A token bucket: ``rate`` a second with bursts up to ``burst`` (by default a
    connection's messages: ``RATE`` and ``BURST``)."""

    def __init__(self, burst: float = BURST, rate: float = RATE) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> int:
        """Whole seconds until the next token (what a 429's ``Retry-After`` says)."""
        return max(1, math.ceil((1 - self.tokens) / self.rate))


def create_app(
    database_url: str | None = None, *, bot_delay: float = 0.6, allow_seed: bool = False,
    think: float = 1.0, summary_wait: float = SUMMARY_WAIT, api_docs: bool = False,
    tables_per_client: int = TABLES_PER_CLIENT, timer_unit: float = 1.0,
    requests_per_client: tuple[float, float] = (REQUEST_RATE, REQUEST_BURST),
    shared: bool = False, heartbeat: float = HEARTBEAT, in_flight: int = IN_FLIGHT,
    idle_limit: float = IDLE_LIMIT, allowed_hosts: Sequence[str] | None = None,
) -> FastAPI:
    """The app on the database at ``database_url`` (DATABASE_URL, or by default the
    SQLite file in the user's data directory).

    ``allow_seed`` lets a table's creator choose its seed, and so know every card: for
    tests and demonstrations only. ``think`` is the seconds the master bot thinks over
    each decision; ``summary_wait`` the longest the bots wait, after a deal, for the
    people at the table to close its summary; ``api_docs`` serves the OpenAPI pages
    (/docs, /openapi.json), off by default; ``tables_per_client`` how many tables one
    client address may open in ten minutes; ``timer_unit`` the real seconds in a second
    of a turn timer (below 1 for tests and demonstrations only); ``requests_per_client``
    the HTTP requests one client address may make, a second and at once; ``shared``
    that other server processes serve the same (PostgreSQL) database: each hears what the
    others change (:mod:`rummykit.server.bus`), and says it lives every ``heartbeat``
    seconds; ``in_flight`` the HTTP requests one client address may have under way at
    once; ``idle_limit`` the seconds a table's bots play on once no person is connected
    to it; ``allowed_hosts`` the host names the app answers to (the Host header; None
    or ``["*"]``: any), so that a page of another site that renames itself to this
    server's address ("DNS rebinding") reaches nothing."""
    engine = connect(database_url)
    try:
        bus = bus_for(engine, shared=shared)
    except ValueError:
        engine.dispose()
        raise
    hub = Hub(engine, bot_delay=bot_delay, think=think, summary_wait=summary_wait,
              timer_unit=timer_unit, bus=bus, heartbeat=heartbeat, idle_limit=idle_limit)
    # Replays are work for the processor and answers of megabytes: a few at a time, in
    # threads of their own (the database reads keep the loop's threads).
    replayer = ThreadPoolExecutor(max_workers=REPLAYS_AT_ONCE,
                                  thread_name_prefix="rummykit-replay")
    replays = FrameCache(FRAMES_KEPT)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.restore()
        for table in list(hub.tables.values()):
            hub.resume(table)
        hub.start()
        yield
        await hub.shutdown()
        replayer.shutdown(wait=True, cancel_futures=True)
        engine.dispose()

    hide_queries()
    app = FastAPI(title="rummykit", lifespan=lifespan,
                  dependencies=[Depends(no_secret_in_address)],
                  docs_url="/docs" if api_docs else None,
                  redoc_url="/redoc" if api_docs else None,
                  openapi_url="/openapi.json" if api_docs else None)

    app.add_middleware(BodyLimit, limit_for=lambda path: MAX_RECORD if path == "/api/replay"
                       else MAX_BODY)
    if allowed_hosts is not None and "*" not in allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    openings: dict[str, Bucket] = {}
    mastering: dict[str, Bucket] = {}

    asking: dict[str, Bucket] = {}
    rate, burst = requests_per_client

    @app.middleware("http")
    async def request_limit(request: Request, call_next: Any) -> Response:
        # Every HTTP route: a client that asks faster than a person could is told to wait.
        client = request.client.host if request.client else "?"
        bucket = asking.get(client)
        if bucket is None:
            if len(asking) > 10 * MAX_OPEN_TABLES:
                asking.clear()  # forget old clients rather than grow without end
            bucket = asking[client] = Bucket(burst, rate)
        if not bucket.take():
            return JSONResponse({"error": "too many requests: slow down", "code": "rate"},
                                status_code=429, headers={"Retry-After": "1"})
        response: Response = await call_next(request)
        return response

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        if private(request.url.path):
            response.headers["Cache-Control"] = "no-store"
        return response

    # Outermost (added last): it sees a request's end, a client gone mid-body included.
    app.add_middleware(ClientGuard, limit=in_flight)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        # The page needs only to know that the table is not broken: a table in memory
        # says so; another's stored status does, read without replaying its match.
        table = hub.tables.get(table_id)
        if table is None and table_id.isalnum() and len(table_id) <= 32 and (
                table_id in hub.broken
                or await asyncio.to_thread(stored_status, table_id) == BROKEN):
            # A broken table gets its answer here; a bad link is told by the page itself.
            return HTMLResponse(
                f"<!doctype html><meta charset=\"utf-8\"><title>rummykit</title>"
                f"<p>{html.escape(BROKEN_MESSAGE)}</p>\n", status_code=410)
        return page("table.html")

    def stored_status(table_id: str) -> str | None:
        with Session(engine) as session:
            return session.scalars(select(TableRow.status)
                                   .where(TableRow.id == table_id)).first()

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @app.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return page("stats.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        return page("rules.html")

    # -- the API ---------------------------------------------------------------------

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ())[1:])
            problems.append(f"{where}: {error.get('msg', 'invalid')}" if where
                            else str(error.get("msg", "invalid")))
        return JSONResponse({"error": "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, exc: StarletteHTTPException) -> Response:
        # A page that does not exist gets a page, in the app's style; the API and the
        # files keep their JSON answers.
        path = request.url.path
        if exc.status_code == 404 and not path.startswith(("/api/", "/static/", "/ws/")):
            return FileResponse(STATIC / "404.html", status_code=404, media_type="text/html")
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(request: Request | WebSocket, exc: SQLAlchemyError
                            ) -> Response | None:
        # The database is not answering (restarting, unreachable, full): nothing was
        # changed, and the client is told to try again soon, in JSON on the API and as a
        # short page elsewhere; a live connection is told so and closed with 1013 ("try
        # again later": the page reconnects). The log keeps one line, not a traceback.
        log.warning("%s %s: the database did not answer (%s)",
                    request.scope.get("method", "WebSocket"), request.url.path,
                    type(exc).__name__)
        if isinstance(request, WebSocket):
            with contextlib.suppress(Exception):
                await request.send_json({"type": "error", "message": STORAGE_MESSAGE,
                                         "code": "storage", "params": {}})
            with contextlib.suppress(Exception):
                await request.close(code=1013)
            return None
        headers = {"Retry-After": str(STORAGE_RETRY)}
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": STORAGE_MESSAGE, "code": "storage", "params": {}},
                                status_code=503, headers=headers)
        return HTMLResponse(f"<!doctype html><meta charset=\"utf-8\"><title>rummykit</title>"
                            f"<p>{html.escape(STORAGE_MESSAGE)}</p>\n", status_code=503,
                            headers=headers)

    @app.exception_handler(HubError)
    async def hub_error(request: Request, exc: HubError) -> JSONResponse:
        headers = (None if exc.retry_after is None
                   else {"Retry-After": str(exc.retry_after)})
        return JSONResponse({"error": str(exc), **exc.details()}, status_code=exc.status,
                            headers=headers)

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """Every preset with every option's value and what the option changes."""
        out = {}
        for name, rules in PRESETS.items():
            out[name] = {
                "source": PRESET_SOURCES[name],
                "options": {k: _json_value(getattr(rules, k)) for k in OPTION_HELP},
            }
        return {"presets": out, "help": OPTION_HELP, "bots": list(BOTS), "think": hub.think}

    @app.get("/api/rules")
    async def rules_check(text: str) -> dict[str, Any]:
        """Check a rules text; answer its canonical form and every option's value."""
        try:
            rules = Rules.parse(text)
        except RulesError as err:
            raise HubError(str(err)) from None
        return {"rules": str(rules),
                "options": {k: _json_value(getattr(rules, k)) for k in OPTION_HELP}}

    @app.post("/api/tables")
    async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "?"
        bucket = openings.setdefault(client, Bucket(tables_per_client,
                                                    tables_per_client / TABLE_WINDOW))
        if sum(1 for t in hub.tables.values() if t.status != "finished") >= MAX_OPEN_TABLES:
            raise HubError("the server has as many tables open as it can hold: try again "
                           "later", 503)
        searching = [s.level for s in body.seats if s.kind == "bot"] + [body.standin]
        if any(masterly(level) for level in searching):
            masters = mastering.setdefault(client, Bucket(
                MASTER_TABLES_PER_CLIENT, MASTER_TABLES_PER_CLIENT / TABLE_WINDOW))
            if len(mastering) > 10 * MAX_OPEN_TABLES:
                mastering.clear()
            if not masters.take():
                raise HubError(f"at most {MASTER_TABLES_PER_CLIENT} new tables with a master "
                               "in ten minutes from one place (each of its moves is a long "
                               "search): choose expert, or try again later", 429,
                               code="master-limit")
        if not bucket.take():
            raise HubError(f"at most {tables_per_client} new tables in ten minutes from one "
                           "place: try again later", 429, retry_after=bucket.wait())
        if len(openings) > 10 * MAX_OPEN_TABLES:
            openings.clear()  # forget old clients rather than grow without end
        if body.seed is not None and not allow_seed:
            raise HubError("the server shuffles: a chosen seed would show its chooser every "
                           "card", 403)
        creator = None if body.key is None else token_hash(body.key)
        # The maker sits in the first person's seat: it is theirs from the start (the
        # lobby never offers it).
        first = next((i for i, s in enumerate(body.seats) if s.kind == "person"), None)
        table = await hub.open_table(
            body.rules, [SeatSpec(s.kind, s.name, s.level) for s in body.seats], seed=body.seed,
            creator_hash=creator,
            key_hashes=None if creator is None else [
                creator if i == first else None for i in range(len(body.seats))],
            turn_timer=body.timer, standin=body.standin, listed=body.public)
        hub.pool.own(table.id, client)  # (its bots' searches are this client's)
        return {
            "id": table.id,
            "rules": str(table.rules),
            "seats": [{"seat": s, "name": table.names[s], "kind": table.kinds[s],
                       "link": table.links[s]} for s in range(table.players)],
        }

    @asynccontextmanager
    async def using(table_id: str) -> AsyncIterator[Table]:
        """The table, for one request: a finished table nobody is at goes back to the
        database afterwards (whatever the answer), so asking cannot fill memory."""
        table = await hub.fetch(table_id)
        try:
            yield table
        finally:
            hub.forget(table)

    def seat_or_403(table: Table, who: TokenIn) -> int:
        return hub.seat_for(table, token=who.token, seat=who.seat, key=who.key)

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str, who: Who) -> dict[str, Any]:
        async with using(table_id) as table:
            return await hub.current_state(table, seat_or_403(table, who))

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: TokenIn) -> dict[str, Any]:
        async with using(table_id) as table:
            seat = seat_or_403(table, body)
            new_id = await hub.rematch(table, seat)
            mine = body.key is not None and table.owns(seat, body.key)
        hub.pool.own(new_id, hub.pool.client_of(table_id))
        # The seat's token and its browser's claim carry over to the rematch (kept hashed):
        # a browser that owns the seat goes on with its key, and no token in the address.
        link = (f"/t/{new_id}?token={quote(body.token)}" if body.token and not mine
                else f"/t/{new_id}?seat={seat}")
        return {"id": new_id, "link": link}

    @app.post("/api/tables/{table_id}/seats/{seat}/link")
    async def new_link(table_id: str, seat: int, body: KeyIn) -> dict[str, Any]:
        """A new link for a seat whose person is not at the table (the old one no longer
        opens it), asked by the browser that made the table."""
        async with using(table_id) as table:
            return {"seat": seat, "link": await hub.new_link(table, seat, body.key)}

    @app.get("/api/lobby")
    async def lobby() -> dict[str, Any]:
        """The tables listed in the lobby that are waiting or in play (at most
        LOBBY_LIMIT), those waiting for players first."""
        return {"tables": hub.lobby(LOBBY_LIMIT)}

    @app.post("/api/tables/{table_id}/seats/{seat}/take")
    async def take_seat(table_id: str, seat: int, body: TakeIn) -> dict[str, Any]:
        """Take a free seat of a table listed in the lobby: it becomes this browser's."""
        async with using(table_id) as table:
            await hub.take(table, seat, body.key, body.name)
        return {"id": table.id, "seat": seat, "link": f"/t/{table.id}?seat={seat}"}

    redeeming: dict[str, Bucket] = {}

    @app.post("/api/transfer")
    async def transfer(body: KeyIn) -> dict[str, Any]:
        """A one-time code that carries this browser's player key to another device."""
        return {"code": hub.transfer_code(body.key), "expires_in": int(TRANSFER_TIME)}

    @app.post("/api/transfer/redeem")
    async def redeem(body: CodeIn, request: Request) -> dict[str, Any]:
        """The player key a transfer code carries (the code is spent). Ten tries a
        minute from one place, so codes cannot be guessed."""
        client = request.client.host if request.client else "?"
        bucket = redeeming.setdefault(client, Bucket(10, 10 / 60))
        if len(redeeming) > 10_000:
            redeeming.clear()
        if not bucket.take():
            raise HubError("too many tries: wait a minute", 429, code="rate",
                           retry_after=bucket.wait())
        return {"key": hub.redeem(body.code)}

    @app.post("/api/mine")
    async def my_tables(body: KeyIn) -> dict[str, Any]:
        """Every table where the browser with this key has claimed a seat, newest first
        (at most MINE_LIMIT): so that losing a link never loses a seat."""
        return {"tables": await asyncio.to_thread(hub.tables_of, body.key, MINE_LIMIT)}

    @app.post("/api/qr")
    async def qr_code(body: QrIn) -> dict[str, Any]:
        """The QR code of one of the app's own links (a seat's, or the watch link), as
        its module matrix for the page to draw: a POST, so no token enters an address."""
        if len(body.text) > MAX_QR_TEXT or not QR_LINK.fullmatch(body.text):
            raise HubError("a QR code is made only of a link to a table of this app "
                           "(https://HOST/t/TABLE?token=... or ?watch=1)", 400, code="qr-text")
        qr = segno.make_qr(body.text, error="m")
        return {"size": qr.symbol_size(border=0)[0],
                "rows": ["".join("1" if dark else "0" for dark in row) for row in qr.matrix]}

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str) -> Response:
        """A finished match's record: open to whoever has the table's link, as its
        replay is (every hand is shown once the match is over, not before)."""
        async with using(table_id) as table:
            if table.status != "finished":
                raise HubError("the record can be had once the match is over", 409)
            text = records.dumps(records.from_match(table.match))
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="rummykit-{table.id}.json"'})

    @app.get("/api/tables/{table_id}/frames")
    async def table_frames(table_id: str) -> Response:
        """Every step of a finished match, for the replay viewer (as the record). A
        finished table's replay never changes: worked out once, then kept (and answered
        from there without reading the table again)."""
        ready = replays.get(table_id)
        if ready is None:
            async with using(table_id) as table:
                if table.status != "finished":
                    raise HubError("the replay can be watched once the match is over", 409)
                record = records.from_match(table.match)
            ready = await replayed(record)
            replays.put(table_id, ready)
        return Response(ready, media_type="application/json")

    async def replayed(record: records.Record) -> bytes:
        """A record's frames as JSON (replayed and encoded in a replay thread)."""
        return await asyncio.get_running_loop().run_in_executor(replayer, frames_json,
                                                                 record)

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_RECORD:
            raise HubError("that record is too large")
        try:
            rec = records.loads(body)
        except RecordError as err:
            raise HubError(f"not a valid record: {err}") from None
        steps = sum(len(d.actions) + 1 for d in rec.deals)
        if steps > MAX_FRAMES:
            raise HubError(f"that record has {steps} steps; the viewer shows at most "
                           f"{MAX_FRAMES}")
        # Replaying is work for the processor: off the event loop, so tables keep going.
        return Response(await replayed(rec), media_type="application/json")

    @app.get("/api/stats")
    async def stats(preset: str | None = None,
                    players: int | None = Query(None, ge=2, le=6),
                    offset: int = Query(0, ge=0, le=1_000_000),
                    limit: int = Query(STATS_PAGE, ge=1, le=STATS_PAGE)) -> dict[str, Any]:
        """A page of the statistics (``limit`` lines from ``offset``) and how many there
        are in all."""
        if preset is not None and preset not in PRESETS:
            raise HubError(f"no preset {shown(preset)}; the presets are: {', '.join(PRESETS)}")
        store = Store(engine=engine)
        # Reading the statistics is work for the database: off the event loop.
        lines = await asyncio.to_thread(store.lines, preset=preset, players=players)
        return {"stats": [line.to_json() for line in lines[offset:offset + limit]],
                "total": len(lines), "offset": offset}

    # -- the live connection ---------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def live(socket: WebSocket, table_id: str, watch: str | None = None) -> None:
        """A seat's live connection: its first message, the hello, says who it is:
        ``{"type": "hello", "token": ..., "key": ...}`` (the seat's link, with the
        browser's key, which claims an unclaimed seat), or ``{"type": "hello", "seat": N,
        "key": ...}`` for a seat this browser claimed. A claimed seat opens only with its
        browser's key; that browser opening it again (another tab) takes it over, and the
        older connection is told so. ``?watch=1``: a spectator, who sends no hello."""
        await socket.accept()

        async def refuse(message: str, close: int, details: dict[str, object] | None = None
                         ) -> None:
            await socket.send_json({"type": "error", "message": message, **(details or {})})
            await socket.close(code=close)

        if not same_origin(socket):
            # A page of another site may not play for a seat whose link it learned.
            await refuse("this connection comes from another site's page", 4403)
            return
        if secret_in(socket.query_params):
            await refuse("send the key and the link's token in the hello message, not in "
                         "the address", 4400, {"code": SECRET_IN_URL})
            return
        if watch is not None:
            try:
                watched = await hub.fetch(table_id)
            except HubError as err:
                await refuse(str(err), 4000 + err.status, err.details())
                return
            if len(watched.watchers) >= MAX_WATCHERS:
                await refuse(f"this table has {MAX_WATCHERS} spectators already", 4429,
                             {"code": "too-many-connections"})
                return
            await spectate(socket, watched)
            return
        try:
            frame = await asyncio.wait_for(socket.receive(), HELLO_WAIT)
        except TimeoutError:
            await refuse(f"no hello came within {HELLO_WAIT:g} seconds: the first message "
                         "says who this is", 4408, {"code": "hello"})
            return
        except (WebSocketDisconnect, RuntimeError):
            return  # gone before it said who it was
        if frame["type"] == "websocket.disconnect":
            return
        hello = read_hello(frame.get("text"))
        if isinstance(hello, str):
            await refuse(hello, 4400, {"code": "hello"})
            return
        token, number, key = hello.token, hello.seat, hello.key
        if key is not None and not good_key(key):
            await refuse("a browser's key is 22 to 64 letters, digits, - or _", 4400,
                         {"code": "bad-key"})
            return
        try:
            table = await hub.fetch(table_id)
            place = hub.seat_for(table, token=token, seat=number, key=key)
            claimed_now = key is not None and await hub.claim(table, place, key, token)
        except HubError as err:
            # 4403: not this browser's seat; 4404: no such table; 4410: broken.
            await refuse(str(err), 4000 + err.status, err.details())
            if table_id in hub.tables:
                hub.forget(hub.tables[table_id])
            return
        others = list(table.sockets.get(place, ()))
        if key is None and len(others) >= MAX_SOCKETS_PER_SEAT:
            await refuse(f"this seat is open in {MAX_SOCKETS_PER_SEAT} places already: close "
                         "one of them first", 4429, {"code": "too-many-connections"})
            return

        ended = False

        async def stuck() -> None:
            # Its reader stopped reading: it hears no more, and is closed (the page
            # reconnects and gets a fresh view).
            hub.disconnect(table, place, send)
            await socket.close(code=1013)  # "try again later"

        async def kick(reason: str) -> None:
            # Another connection has the seat now: this one is told why and closed.
            nonlocal ended
            ended = True
            await send({"type": "closed", "reason": reason, "message": KICKED[reason]})
            await outbox.drain()
            with contextlib.suppress(Exception):
                await socket.close(code=4409)

        outbox = Outbox(socket.send_json, on_stuck=stuck)
        send = outbox.put
        outbox.start()
        if key is not None:
            # This browser's seat: its older connections (other tabs) give way, and on a
            # claim, so do the connections that came with the link alone.
            reason = "claimed" if claimed_now else "replaced"
            for other in others:
                await hub.kick(table, other, reason)
            # (and those of this seat on the other server processes, if any)
            await hub.announce(table, "kick", seat=place, reason=reason)
        hub.connect(table, place, send, kick)
        try:
            # Checked again now that the connection is in place: a new link or another
            # browser's claim may have come while this one was being let in.
            if hub.seat_for(table, token=token, seat=number, key=key) != place:
                raise HubError("this seat's link was replaced", 403, code="seat-link")
        except HubError as err:
            hub.disconnect(table, place, send)
            await outbox.close()
            await refuse(str(err), 4000 + err.status, err.details())
            return
        bucket = Bucket()
        # A seat's chat allowance is the seat's, not the connection's: reconnecting
        # gives no more.
        if len(chatting) > 10 * MAX_OPEN_TABLES:
            chatting.clear()
        chats = chatting.setdefault((table.id, place), Bucket(CHAT_BURST, CHAT_RATE))
        try:
            if not await hub.join(table, place):
                await send(hub.state_for(table, place))
                if not others or claimed_now:
                    await hub.send_presence(table)
            if table.chat:
                await send(hub.chat_log(table))
            while not ended:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect" or ended:
                    break
                raw = frame.get("text")
                if raw is None:
                    await send({"type": "error", "message":
                                "send text frames holding JSON, not binary ones"})
                    continue
                error = await handle(table, place, raw, bucket, chats, send)
                if error is not None:
                    await send({"type": "error", **error})
                    if error.get("code") == "too-deep":
                        await outbox.drain()
                        await socket.close(code=1008)  # a policy the client broke
                        break
        except (WebSocketDisconnect, RuntimeError):
            # RuntimeError: Starlette's "not connected" when the peer has gone meanwhile.
            pass
        finally:
            hub.disconnect(table, place, send)
            await outbox.close()
            if not ended and not table.connected(place):
                await hub.send_presence(table)
            hub.forget(table)

    chatting: dict[tuple[str, int], Bucket] = {}

    async def spectate(socket: WebSocket, table: Table) -> None:
        """A spectator's connection: the public view, live; any message but ping and
        sync is refused (a spectator never acts)."""

        async def stuck() -> None:
            table.watchers.discard(send)
            await socket.close(code=1013)

        outbox = Outbox(socket.send_json, on_stuck=stuck)
        send = outbox.put
        outbox.start()
        table.watchers.add(send)
        bucket = Bucket()
        try:
            await send(hub.state_for(table, None))
            await hub.send_presence(table)
            if table.chat:
                await send(hub.chat_log(table))
            while True:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text") or ""
                if not bucket.take():
                    await send({"type": "error", "code": "rate",
                                "message": "too many messages: slow down"})
                    continue
                try:
                    kind = json.loads(raw).get("type") if len(raw) <= MAX_MESSAGE else None
                except (ValueError, RecursionError, AttributeError):
                    kind = None
                if kind == "sync":
                    await send(await hub.current_state(table, None))
                elif kind != "ping":
                    await send({"type": "error", "code": "spectator",
                                "message": "a spectator watches the table and cannot act"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            table.watchers.discard(send)
            await outbox.close()
            await hub.send_presence(table)
            hub.forget(table)

    hinting: set[asyncio.Task[None]] = set()

    async def give_hint(table: Table, seat: int, send: Send) -> None:
        try:
            answer = await hub.hint(table, seat)
        except HubError as err:
            answer = {"type": "error", "message": str(err), **err.details()}
        with contextlib.suppress(Exception):  # the page may have gone meanwhile
            await send(answer)
        if answer["type"] == "hint":
            await hub.broadcast(table)  # every seat sees the count (the deal's summary)

    async def handle(table: Table, seat: int, raw: str, bucket: Bucket, chats: Bucket,
                     send: Send) -> dict[str, Any] | None:
        """None, or the error message (with a refused action's code and params)."""
        refused = await refusal(table, seat, raw, bucket, chats, send)
        if isinstance(refused, HubError):
            return {"message": str(refused), **refused.details()}
        return None if refused is None else {"message": refused}

    async def refusal(table: Table, seat: int, raw: str, bucket: Bucket, chats: Bucket,
                      send: Send) -> str | HubError | None:
        if not bucket.take():
            return HubError("too many messages: slow down", code="rate")
        if len(raw.encode()) > MAX_MESSAGE:
            return f"message too long (at most {MAX_MESSAGE} bytes)"
        try:
            message = json.loads(raw)
        except json.JSONDecodeError:
            return "not JSON: send {\"type\": \"action\", \"action\": \"draw stock\"}"
        except RecursionError:
            return HubError("JSON nested too deep: the connection is closed", code="too-deep")
        if not isinstance(message, dict) or "type" not in message:
            return "a message is a JSON object with a 'type'"
        kind = message["type"]
        if kind == "ping":
            return None
        if kind == "sync":
            await send(await hub.current_state(table, seat))
            return None
        if kind == "undo":
            try:
                await hub.undo(table, seat)
            except HubError as err:
                return err
            return None
        if kind == "seen":
            await hub.seen(table, seat)
            return None
        if kind == "away":
            try:
                await hub.hand_over(table, seat)
            except HubError as err:
                return err
            return None
        if kind == "vote":
            try:
                await hub.vote(table, seat, message.get("end") is True)
            except HubError as err:
                return err
            return None
        if kind == "chat":
            if not chats.take():
                return HubError("you are chatting too fast: wait a moment", code="rate")
            try:
                await hub.say(table, seat, message.get("text"))
            except HubError as err:
                return err
            return None
        if kind == "back":
            await hub.back(table, seat)
            return None
        if kind == "hint":
            # The search takes a while: the connection goes on hearing and sending.
            task = asyncio.get_running_loop().create_task(give_hint(table, seat, send))
            hinting.add(task)
            task.add_done_callback(hinting.discard)
            return None
        if kind == "why":
            text = message.get("action")
            if not isinstance(text, str):
                return "a why message needs 'action': a text such as 'meld 5H 6H 7H'"
            await send(await hub.why(table, seat, text))
            return None
        if kind != "action":
            return (f"unknown message type {kind!r}: action, hint, why, undo, seen, away, "
                    "back, vote, chat, sync or ping")
        if "seat" in message and message["seat"] != seat:
            return "you can only play for your own seat"
        text = message.get("action")
        if not isinstance(text, str):
            return "an action message needs 'action': a text such as 'draw stock'"
        try:
            await hub.act(table, seat, text)
        except HubError as err:
            return err
        except SQLAlchemyError:
            # Nothing was played (an action is stored before it is applied): say so and
            # keep the connection, so the player can try again.
            log.warning("table %s: an action could not be stored (the database did not "
                        "answer)", table.id)
            return HubError("the game could not be saved just now (the database is not "
                            "answering): nothing was played; try again", code="storage")
        return None

    return app


SECURITY_HEADERS = {
    # Scripts and styles only from the app's own files (no inline script), no framing by
    # other sites, no sniffing, and no Referer: seat links carry their token in the URL.
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Headers on every HTTP response."""


def private(path: str) -> bool:
    """Whether a response of ``path`` may hold a secret or a seat's view, which no cache
    may keep (the API, a seat's page, the replay page)."""
    return path.startswith(("/api/", "/t/")) or path == "/replay"


def read_hello(raw: str | None) -> HelloIn | str:
    """A seat connection's hello, or what is wrong with the first message."""
    shape = ('{"type": "hello", "token": "...", "key": "..."} or {"type": "hello", '
             '"seat": N, "key": "..."}')
    if raw is None or len(raw.encode()) > MAX_MESSAGE:
        return f"the first message is the hello, a JSON text: {shape}"
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or message.get("type") != "hello":
        return f"the first message is the hello: {shape}"
    try:
        return HelloIn.model_validate(message)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in err.errors())
        return f"a bad hello ({problems}): {shape}"


def same_origin(socket: WebSocket) -> bool:
    """Whether a WebSocket comes from the app's own pages: a browser sends its page's
    Origin, which must name this host (clients that are not browsers send none)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == socket.headers.get("host", "")


def _json_value(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    return value


def frames(rec: records.Record) -> dict[str, Any]:
    """Every step of a record with all hands shown, for the replay viewer."""
    answer: dict[str, Any] = json.loads(frames_json(rec))
    return answer


def frames_json(rec: records.Record) -> bytes:
    """:func:`frames` as JSON. Each step is encoded as it is replayed, so that no tree of
    every step's objects is ever held at once (a 20,000-step record's answer is
    megabytes)."""
    out: list[str] = []

    def step(match: Match, deal_number: int, text: str | None) -> None:
        deal = match.deal
        out.append(json.dumps({
            "deal": deal_number, "action": text,
            "by": None if text is None else deal.last_mover,
            "to_move": deal.to_move, "phase": deal.phase, "dealer": deal.dealer,
            "hands": [[str(CARDS[c]) for c in sorted(h)] for h in deal.hands],
            "stock": len(deal.stock), "pile": [str(CARDS[c]) for c in deal.pile],
            "table": [{"cards": [str(CARDS[c]) for c in m.cards], "owner": m.owner}
                      for m in deal.table],
            "totals": list(match.totals),
            "result": None if deal.result is None else deal.result.to_json(),
        }))

    try:
        outcome = records.replay(rec, on_step=step)
        error = None
    except (records.ReplayError, RecordError) as err:
        outcome = None
        error = str(err)
    head = json.dumps({
        "players": rec.players, "rules": str(rec.rules), "error": error,
        "result": None if outcome is None else outcome.to_json()["result"], "frames": [],
    })
    # (the steps go in the empty list that ends the head)
    return "".join((head[:-2], ",".join(out), "]}")).encode()


def masterly(level: str | None) -> bool:
    """Whether a bot level is the master (a search of up to a second a move)."""
    if level is None:
        return False
    try:
        name, _ = parse_bot(level)
    except ValueError:
        return False
    return name == "master"


class FrameCache:
    """Finished tables' replays as JSON, the most recently asked kept up to ``limit``
    bytes in all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.kept: OrderedDict[str, bytes] = OrderedDict()

    def get(self, table_id: str) -> bytes | None:
        found = self.kept.get(table_id)
        if found is not None:
            self.kept.move_to_end(table_id)
        return found

    def put(self, table_id: str, data: bytes) -> None:
        if len(data) > self.limit or table_id in self.kept:
            return
        self.kept[table_id] = data
        self.size += len(data)
        while self.size > self.limit:
            _, dropped = self.kept.popitem(last=False)
            self.size -= len(dropped)
