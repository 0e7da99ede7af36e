"""The web app's middleware and its token buckets: the body limit, the guard of requests
in flight per client, the request rate per client, and the security headers."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

__all__ = ["SECURITY_HEADERS", "BodyLimit", "BodyTooLarge", "Bucket", "ClientGuard",
           "private", "request_limit", "security_headers"]

log = logging.getLogger("rummykit.server")

RATE = 20.0
"""Messages a second a connection may send, on average."""
BURST = 40.0
"""Messages a connection may send at once."""

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

CallNext = Callable[[Request], Awaitable[Response]]
HttpMiddleware = Callable[[Request, CallNext], Awaitable[Response]]


def private(path: str) -> bool:
    """Whether a response of ``path`` may hold a secret or a seat's view, which no cache
    may keep (the API, a seat's page, the replay page)."""
    return path.startswith(("/api/", "/t/")) or path == "/replay"


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


def bucket_of(buckets: dict[Any, Bucket], who: Any, make: Callable[[], Bucket],
              most: int) -> Bucket:
    """``who``'s bucket in ``buckets`` (made if new); past ``most`` clients, the old ones
    are forgotten rather than kept without end."""
    bucket = buckets.get(who)
    if bucket is None:
        if len(buckets) > most:
            buckets.clear()
        bucket = buckets[who] = make()
    return bucket


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


def request_limit(rate: float, burst: float, most_clients: int) -> HttpMiddleware:
    """HTTP middleware: a client that asks faster than a person could (``rate`` a second,
    ``burst`` at once) is told to wait (429 ``rate``)."""
    asking: dict[str, Bucket] = {}

    async def limited(request: Request, call_next: CallNext) -> Response:
        client = request.client.host if request.client else "?"
        bucket = bucket_of(asking, client, lambda: Bucket(burst, rate), most_clients)
        if not bucket.take():
            return JSONResponse({"error": "too many requests: slow down", "code": "rate"},
                                status_code=429, headers={"Retry-After": "1"})
        return await call_next(request)

    return limited


async def security_headers(request: Request, call_next: CallNext) -> Response:
    """HTTP middleware: the security headers on every answer, and no caching of one that
    may hold a secret."""
    response = await call_next(request)
    response.headers.update(SECURITY_HEADERS)
    if private(request.url.path):
        response.headers["Cache-Control"] = "no-store"
    return response
