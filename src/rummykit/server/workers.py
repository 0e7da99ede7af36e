"""The web app as several processes on one PostgreSQL database (``rummykit serve
--workers N``).

The parent process opens the listening socket and migrates the database once; each worker
process builds its own app on that database, hears the others through PostgreSQL
(:mod:`rummykit.server.bus`) and accepts connections from the shared socket (the kernel
hands each new connection to one of them). A worker that dies is started again; the
others go on meanwhile, and its tables are rebuilt from the database by whichever
process a player reaches next. Ctrl-C or SIGTERM stops them all.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import re
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from rummykit.server.logs import log_config

__all__ = ["listen", "serve_workers"]

log = logging.getLogger("rummykit.server")

RESTART_PAUSE = 1.0
"""Seconds between a worker's death and its restart (a worker that cannot start at all
is not restarted in a tight loop)."""


LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"]
"""The host names a server on a loopback address answers to by default (a page of another
site that renames itself to 127.0.0.1, "DNS rebinding", is refused)."""


def allowed_hosts(names: str | None, host: str) -> list[str] | None:
    """The host names to answer to: ``names`` (comma-separated, ``*`` for any), or by
    default :data:`LOOPBACK_HOSTS` for a server on a loopback ``host``, else any. None
    where ``names`` is not a list of host names."""
    if names is None:
        loopback = host in ("localhost", "::1") or host.startswith("127.")
        return [*LOOPBACK_HOSTS, host] if loopback else ["*"]
    parts = [part.strip().lower() for part in names.split(",")]
    shape = re.compile(r"(\*|(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?|[0-9a-f:]+)")
    if not all(shape.fullmatch(part) for part in parts) or not parts:
        return None
    return parts


@dataclass(frozen=True)
class Wire:
    """How the server meets its clients (the ``serve`` options that uvicorn applies)."""

    header_timeout: float = 10.0
    """Seconds a client has to send a request's headers."""
    trusted_proxies: str | None = None
    """Comma-separated addresses whose ``X-Forwarded-For`` is believed (none by default,
    so a client cannot give itself fresh per-address limits with a made-up header)."""
    access_log: bool = False
    """An access line per request (never a query string)."""
    deflate: bool = False
    """Offer WebSocket compression (permessage-deflate). Off by default: a view is about
    2 KB of JSON, which a phone's connection carries in a millisecond, while compressing
    every message cost the server an eighth of its throughput (docs/server.md)."""


def server_config(app: Any, wire: Wire) -> Any:
    """uvicorn's configuration of the app: the log as :func:`logs.log_config` sets it,
    WebSocket messages of 64 KiB at most, and ``wire``'s settings."""
    import uvicorn

    from rummykit.server.protocol import timely_protocol

    return uvicorn.Config(app, log_config=log_config(wire.access_log),
                          access_log=wire.access_log, ws_max_size=65536,
                          http=timely_protocol(wire.header_timeout),
                          proxy_headers=bool(wire.trusted_proxies),
                          forwarded_allow_ips=wire.trusted_proxies or "",
                          ws_per_message_deflate=wire.deflate)


def freeze_startup() -> None:
    """Put what the process made while starting (the modules, the app, its database
    engine: about 135,000 objects, all living as long as the process) out of the garbage
    collector's sight. Its full passes, which stop every table while they run, then look
    at the tables' own objects only: on the 2-core development machine a full pass over
    everything took 110-190 ms. Called once, just before the server starts serving."""
    gc.collect()
    gc.freeze()


def _worker(options: dict[str, Any], listener: socket.socket, wire: Wire) -> None:
    """One worker process: the app on the shared socket."""
    # Ctrl-C reaches every process of the terminal: the parent stops the workers (a
    # worker still starting would otherwise die with a traceback); uvicorn, once it runs,
    # answers both signals by finishing what it is doing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphaned, args=(os.getppid(),), name="rummykit-parent",
                     daemon=True).start()
    import uvicorn

    from rummykit.server.app import create_app

    app = create_app(**options, shared=True)
    config = server_config(app, wire)
    freeze_startup()
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: stopped, as it was asked to
        uvicorn.Server(config).run(sockets=[listener])


def _orphaned(parent: int) -> None:
    """Stop this worker (as SIGTERM does) once the process that started it is gone: a
    server killed outright leaves no worker serving on its own."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)


def listen(host: str, port: int) -> socket.socket | None:
    """A socket listening on ``host:port``; None (and one line on stderr saying why)
    where it cannot be had (the port in use, an address not of this machine)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except (OSError, OverflowError) as err:
        listener.close()
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        print(f"cannot listen on {host}:{port}: {reason}", file=sys.stderr, flush=True)
        return None
    listener.listen(2048)
    return listener


def serve_workers(options: dict[str, Any], *, workers: int, host: str, port: int,
                  wire: Wire) -> int:
    """Serve ``create_app(**options)`` from ``workers`` processes on ``host:port`` until
    Ctrl-C or SIGTERM; return the exit status."""
    listener = listen(host, port)
    if listener is None:
        return 2
    listener.set_inheritable(True)
    # Listening: a connection made now waits for the first worker that is ready.
    print(f"rummykit: open http://{host}:{port}/ in a browser ({workers} processes)",
          flush=True)
    context = multiprocessing.get_context("spawn")

    def start() -> BaseProcess:
        process = context.Process(target=_worker, args=(options, listener, wire),
                                  name="rummykit-worker", daemon=False)
        process.start()
        return process

    stopping = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    running = [start() for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for i, process in enumerate(running):
                if not process.is_alive() and not stopping:
                    print(f"rummykit: worker {process.pid} stopped (exit {process.exitcode});"
                          " starting another", flush=True)
                    time.sleep(RESTART_PAUSE)
                    running[i] = start()
    finally:
        for process in running:
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(process.pid, signal.SIGTERM)  # uvicorn stops gracefully on it
        deadline = time.monotonic() + 10
        for process in running:
            process.join(max(0.1, deadline - time.monotonic()))
            if process.is_alive():
                process.terminate()
                process.join(2)
        listener.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0

