"""The web app: FastAPI with WebSockets, serving plain HTML, CSS and JavaScript.

Pages: ``/`` (start a table), ``/t/{id}?token=...`` (play a seat), ``/replay`` (the
replay viewer), ``/stats`` and ``/rules``. The JSON API is under ``/api`` and a seat's live
connection is ``/ws/{id}``, whose first message says who it is (the hello). This module
builds the app (its middleware, its lifespan, how errors are answered); the routes are in
:mod:`rummykit.server.routes`, the bodies and messages in :mod:`rummykit.server.schemas`.

No secret travels in an address the app uses (addresses end up in access logs, proxies'
logs and the browser's history): the browser's key and a seat link's token come in the
WebSocket's hello, in the headers ``X-Rummykit-Key`` and ``X-Rummykit-Token`` of an API
request, or in a POST's JSON body; ``key`` or ``token`` in the query string of an API
request or of the WebSocket is refused (code ``secret-in-url``). Only the seat link
itself, ``/t/{id}?token=...``, holds its token, and the page takes it out of the address
bar once it has claimed the seat.
"""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from rummykit.analysis import DEFAULT_BUDGET
from rummykit.db import connect
from rummykit.server.bus import HEARTBEAT, bus_for
from rummykit.server.hub import SUMMARY_WAIT, Hub, HubError
from rummykit.server.logs import hide_queries
from rummykit.server.middleware import (
    BodyLimit,
    ClientGuard,
    private,
    request_limit,
    security_headers,
)
from rummykit.server.pool import IDLE_LIMIT
from rummykit.server.replays import FrameCache, frames, frames_json
from rummykit.server.reviews import AT_ONCE as REVIEWS_AT_ONCE
from rummykit.server.reviews import Reviews
from rummykit.server.routes import (
    live,
    pages,
    ratings,
    replay,
    reviews,
    seats,
    stats,
    tables,
    transfer,
)
from rummykit.server.routes.deps import Server, no_secret_in_address
from rummykit.server.routes.pages import STATIC

__all__ = ["MASTER_TABLES_PER_CLIENT", "MAX_BODY", "MAX_MESSAGE", "MAX_RECORD", "create_app",
           "frames", "frames_json", "private"]

log = logging.getLogger("rummykit.server")

# The server's limits, read by the routes at each use (so that they may be tuned):
MAX_MESSAGE = 2048
"""Bytes: a longer WebSocket message is refused."""
MAX_RECORD = 5_000_000
"""Bytes of an uploaded record."""
MASTER_TABLES_PER_CLIENT = 5
"""Tables with a ``master`` bot or stand-in one client address may open in ten minutes
(then 429 ``master-limit``): each of its moves is a search of up to a second."""
MAX_OPEN_TABLES = 5_000
"""Unfinished tables the server keeps at once (then 503): each holds a match in memory."""
MAX_WATCHERS = 50
"""Spectators one table may have at once."""
HELLO_WAIT = 10.0
"""Seconds a new seat connection has to send its hello."""
MAX_FRAMES = 20_000
"""Steps of a record the replay viewer takes."""

IN_FLIGHT = 32
"""HTTP requests one client address may have in flight at once (then 429 ``busy``)."""
REQUEST_RATE = 50.0
REQUEST_BURST = 200.0
"""HTTP requests one client address may make: fifty a second, two hundred at once (a
page asks for a dozen files as it loads)."""
MAX_BODY = 65_536
"""The largest request body but a record's upload (MAX_RECORD): counted as it streams in,
so a huge upload is refused before it is read, not after."""
TABLES_PER_CLIENT = 30
"""Tables one client address may open in ten minutes (then 429)."""
REPLAYS_AT_ONCE = 2
"""Replays (an uploaded record's, a finished table's) worked out at once; more wait."""
FRAMES_KEPT = 32_000_000
"""Bytes of finished tables' replays kept ready to send again."""

STORAGE_MESSAGE = ("the game's database is not answering just now: nothing was changed; try "
                   "again in a moment")
"""What a client hears while the database is down (code ``storage``)."""
STORAGE_RETRY = 2
"""Seconds a client is asked to wait then (``Retry-After``)."""


def create_app(
    database_url: str | None = None, *, bot_delay: float = 0.6, allow_seed: bool = False,
    think: float = 1.0, summary_wait: float = SUMMARY_WAIT, api_docs: bool = False,
    tables_per_client: int = TABLES_PER_CLIENT, timer_unit: float = 1.0,
    requests_per_client: tuple[float, float] = (REQUEST_RATE, REQUEST_BURST),
    shared: bool = False, heartbeat: float = HEARTBEAT, in_flight: int = IN_FLIGHT,
    idle_limit: float = IDLE_LIMIT, allowed_hosts: Sequence[str] | None = None,
    review_budget: str = str(DEFAULT_BUDGET), reviews_at_once: int = REVIEWS_AT_ONCE,
    review_jobs: int = 2,
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
    server's address ("DNS rebinding") reaches nothing; ``review_budget`` the search's
    budget per decision of a game review (:class:`rummykit.analysis.Budget`),
    ``reviews_at_once`` the reviews run together (the others wait in a queue) and
    ``review_jobs`` the worker processes of each."""
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
    server = Server(hub=hub, engine=engine, replays=FrameCache(FRAMES_KEPT),
                    replayer=ThreadPoolExecutor(max_workers=REPLAYS_AT_ONCE,
                                                thread_name_prefix="rummykit-replay"),
                    reviews=Reviews(engine, budget=review_budget, at_once=reviews_at_once,
                                    jobs=review_jobs),
                    allow_seed=allow_seed, tables_per_client=tables_per_client,
                    max_record=MAX_RECORD)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.restore()
        for table in list(hub.tables.values()):
            hub.resume(table)
        hub.start()
        yield
        await server.reviews.shutdown()
        await hub.shutdown()
        server.replayer.shutdown(wait=True, cancel_futures=True)
        engine.dispose()

    hide_queries()
    app = FastAPI(title="rummykit", lifespan=lifespan,
                  dependencies=[Depends(no_secret_in_address)],
                  docs_url="/docs" if api_docs else None,
                  redoc_url="/redoc" if api_docs else None,
                  openapi_url="/openapi.json" if api_docs else None)
    app.state.hub = hub
    app.state.server = server

    app.add_middleware(BodyLimit, limit_for=body_limit)
    if allowed_hosts is not None and "*" not in allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    # Every HTTP route: a client that asks faster than a person could is told to wait.
    app.middleware("http")(request_limit(*requests_per_client,
                                         most_clients=10 * MAX_OPEN_TABLES))
    app.middleware("http")(security_headers)
    # Outermost (added last): it sees a request's end, a client gone mid-body included.
    app.add_middleware(ClientGuard, limit=in_flight)

    app.exception_handler(RequestValidationError)(bad_request)
    app.exception_handler(StarletteHTTPException)(not_found)
    app.exception_handler(SQLAlchemyError)(storage_error)
    app.exception_handler(HubError)(hub_error)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for routes in (pages, tables, seats, transfer, replay, reviews, ratings, stats, live):
        app.include_router(routes.router)
    return app


def body_limit(path: str) -> int:
    """The largest body of a request to ``path``: a record's upload may be a large one
    (for a review, inside a JSON string: its quotes escaped, so up to twice as long)."""
    if path == "/api/replay":
        return MAX_RECORD
    if path == "/api/reviews":
        return 2 * MAX_RECORD
    return MAX_BODY


async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A body or parameter that its model refuses: 422, every problem in one line."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ())[1:])
        problems.append(f"{where}: {error.get('msg', 'invalid')}" if where
                        else str(error.get("msg", "invalid")))
    return JSONResponse({"error": "; ".join(problems)}, status_code=422)


async def not_found(request: Request, exc: StarletteHTTPException) -> Response:
    """A page that does not exist gets a page, in the app's style; the API and the files
    keep their JSON answers."""
    path = request.url.path
    if exc.status_code == 404 and not path.startswith(("/api/", "/static/", "/ws/")):
        return FileResponse(STATIC / "404.html", status_code=404, media_type="text/html")
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def storage_error(request: Request | WebSocket, exc: SQLAlchemyError) -> Response | None:
    """The database is not answering (restarting, unreachable, full): nothing was
    changed, and the client is told to try again soon, in JSON on the API and as a short
    page elsewhere; a live connection is told so and closed with 1013 ("try again later":
    the page reconnects). The log keeps one line, not a traceback."""
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


async def hub_error(request: Request, exc: HubError) -> JSONResponse:
    """A request the hub refused: its status, message, code and params."""
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return JSONResponse({"error": str(exc), **exc.details()}, status_code=exc.status,
                        headers=headers)
