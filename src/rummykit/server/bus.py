"""How the server's processes tell each other what changed: PostgreSQL's LISTEN/NOTIFY.

One server process keeps every table it serves in memory. With several processes on one
PostgreSQL database (``rummykit serve --workers N``) the database stays the one authority
for the game (an action is played once it is stored, and a table's action numbers are
unique, so two processes can never both play the n-th action); what one process does is
announced on a channel, and every other process that holds the table brings its copy up
to date from the database and tells its own connections:

- ``action``: an action was stored (it comes whole: the others play it without reading);
- ``changed``: something else stored changed (a seat, the status, an undo): read it again;
- ``here``: which seats a process has people connected to, and how many watch there (sent
  on every change; ``who`` asks every process to say it again, for a table or for all);
- ``alive``: sent every :data:`HEARTBEAT` seconds; a process not heard of for
  :data:`PRESENCE_TTL` seconds has nobody connected (it stopped or lost the database);
- ``chat``, ``seen``, ``standing``, ``question``, ``kick``, ``transfer``, ``spent``: what
  is kept in memory only (a chat line, a person who closed the deal summary, a seat the
  stand-in plays, the question after someone left, a connection replaced by another tab,
  a one-time code made or used).

A message is JSON of at most :data:`PAYLOAD_LIMIT` bytes (PostgreSQL's limit is 8,000);
its kind is its ``"k"``, and :mod:`rummykit.server.announcements` gives each kind its type
(the hub parses every message it hears there, and ignores one it cannot, with a warning).
With one process, or on SQLite, :class:`LocalBus` announces nothing.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

__all__ = ["CHANNEL", "HEARTBEAT", "PAYLOAD_LIMIT", "PRESENCE_TTL", "Bus", "LocalBus",
           "PostgresBus", "bus_for"]

log = logging.getLogger("rummykit.server")

CHANNEL = "rummykit"
HEARTBEAT = 5.0
"""Seconds between a process's reminders of who is connected to it."""
PRESENCE_TTL = 3 * HEARTBEAT
"""A process not heard of for this long is taken to have nobody connected (it stopped);
with another heartbeat (:class:`rummykit.server.hub.Hub`'s ``heartbeat``), three of it."""
PAYLOAD_LIMIT = 7_000


class Bus:
    """What every bus does; this one (for one process) announces nothing."""

    shared = False
    """Whether other processes hear this one."""

    def __init__(self) -> None:
        self.process = secrets.token_hex(6)
        """This process's name on the bus (its own messages come back to it: ignored)."""

    def start(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        """Hand every message from another process to ``deliver`` (called from a
        thread of the bus: ``deliver`` must pass it on to the event loop itself)."""

    def publish(self, message: dict[str, Any]) -> None:
        """Announce ``message`` to the other processes (blocking: call it from a worker
        thread)."""

    def publish_with(self, session: Session, message: dict[str, Any]) -> None:
        """Announce ``message`` when ``session`` commits (not at all if it does not)."""

    def stop(self) -> None:
        """Stop listening."""


LocalBus = Bus


class PostgresBus(Bus):
    """LISTEN/NOTIFY on :data:`CHANNEL` of the server's PostgreSQL database."""

    shared = True

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        self._thread = threading.Thread(target=self._listen, args=(deliver,),
                                        name="rummykit-bus", daemon=True)
        self._thread.start()

    def publish(self, message: dict[str, Any]) -> None:
        with Session(self.engine) as session:
            self.publish_with(session, message)
            session.commit()

    def publish_with(self, session: Session, message: dict[str, Any]) -> None:
        payload = json.dumps({**message, "from": self.process}, separators=(",", ":"))
        if len(payload.encode()) > PAYLOAD_LIMIT:
            log.warning("a %s message of %d bytes is too long to announce", message.get("k"),
                        len(payload))
            return
        session.execute(text("SELECT pg_notify(:channel, :payload)"),
                        {"channel": CHANNEL, "payload": payload})

    def _listen(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        delay = 0.5
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    delay = 0.5
                    # Heard again after a break: every table may have missed something.
                    deliver({"k": "resync", "from": ""})
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            self._deliver(deliver, note.payload)
            except Exception:  # the database went away: listen again when it is back
                if self._stop.is_set():
                    return
                log.warning("lost the database's announcements; listening again in %.1f s",
                            delay, exc_info=True)
                time.sleep(delay)
                delay = min(delay * 2, 10.0)

    def _deliver(self, deliver: Callable[[dict[str, Any]], None], payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            log.warning("an announcement that is not JSON was ignored")
            return
        if isinstance(message, dict) and message.get("from") != self.process:
            deliver(message)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)


def bus_for(engine: Engine, *, shared: bool) -> Bus:
    """The bus of a server on ``engine``: PostgreSQL's announcements when ``shared`` (the
    server runs as several processes), else none."""
    if shared:
        if engine.dialect.name != "postgresql":
            raise ValueError("several server processes need a PostgreSQL database: SQLite "
                             "cannot tell one process what another did")
        return PostgresBus(engine)
    return LocalBus()
