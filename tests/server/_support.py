"""Helpers shared by the web tests: a shadow game, what a seat may know, the stored actions.

The shadow is a :class:`~rummykit.engine.Match` built from the same rules, names and seed
as a table: applying the actions the server reports (the public history) keeps it in step
with the server's game, so a test knows every hand and the stock without asking the server.
"""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.testclient import TestClient, WebSocketTestSession

from rummykit.bots import make_bot
from rummykit.cards import CARDS
from rummykit.db.models import ActionRow
from rummykit.engine import Deal, Match
from rummykit.engine.views import view
from rummykit.rules import Rules
from rummykit.server.hub import HISTORY_SENT

from .._loops import run_async

__all__ = [
    "ActionLog",
    "Shadow",
    "bot",
    "card_words",
    "hello",
    "person",
    "run_async",
    "seat_socket",
    "served",
    "who",
]


def person(name: str) -> dict[str, Any]:
    return {"kind": "person", "name": name}


def bot(name: str, level: str = "greedy") -> dict[str, Any]:
    return {"kind": "bot", "name": name, "level": level}


def hello(token: str | None = None, key: str | None = None, *,
          seat: int | None = None) -> dict[str, Any]:
    """A seat connection's first message: who it is (the fields given)."""
    out: dict[str, Any] = {"type": "hello"}
    for name, value in (("token", token), ("seat", seat), ("key", key)):
        if value is not None:
            out[name] = value
    return out


def who(token: str | None = None, key: str | None = None) -> dict[str, str]:
    """The headers of an API request that asks as a seat: its link's token, the
    browser's key (the seat number, no secret, goes in the query string)."""
    out = {}
    if token is not None:
        out["X-Rummykit-Token"] = token
    if key is not None:
        out["X-Rummykit-Key"] = key
    return out


@contextmanager
def seat_socket(client: TestClient, table_id: str, token: str | None = None,
                key: str | None = None, *, seat: int | None = None,
                **options: Any) -> Iterator[WebSocketTestSession]:
    """A seat's live connection: ``/ws/<table>``, then the hello (its link's ``token``
    or the ``seat`` this browser claimed, with the browser's ``key``)."""
    with client.websocket_connect(f"/ws/{table_id}", **options) as ws:
        ws.send_json(hello(token, key, seat=seat))
        yield ws


@contextmanager
def served(workdir: Path, *options: str, port: int | None = None) -> Iterator[int]:
    """``rummykit serve`` with ``options`` in a subprocess on a SQLite file in
    ``workdir``, its output (stdout and stderr) in ``workdir/server.log``: its port (a free
    one unless ``port`` is given), once it answers; stopped afterwards."""
    if port is None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    with (workdir / "server.log").open("ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "rummykit.cli", "serve", "--port", str(port), "--db",
             f"sqlite:///{workdir / 'rummykit.db'}", *options],
            stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and server.poll() is None:
                try:
                    answer = httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=2)
                    if answer.status_code < 500:  # (a refusal answers too: a host check)
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            assert server.poll() is None, (workdir / "server.log").read_text(errors="replace")
            yield port
        finally:
            server.terminate()
            server.wait(20)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def card_words(message: object) -> set[str]:
    """Every card name written anywhere in a JSON message (inside texts too)."""
    names = {str(card) for card in CARDS}
    return {word for text in _strings(message) for word in text.split() if word in names}


class Shadow:
    """The table's game, replayed here from the actions the server reports."""

    def __init__(self, rules: str, names: list[str], seed: int) -> None:
        self.match = Match(Rules.parse(rules), players=names, seed=seed)
        self.applied: list[str] = []
        self.face_up: set[str] = set()
        """Every card that was ever face up in the current deal (pile or table)."""
        self._deal = self.match.deal
        self._note_face_up()

    @property
    def deal(self) -> Deal:
        return self.match.deal

    @property
    def seq(self) -> int:
        return len(self.applied)

    def _note_face_up(self) -> None:
        if self.match.deal is not self._deal:
            self._deal = self.match.deal
            self.face_up = set()
        deal = self.match.deal
        self.face_up |= {str(CARDS[c]) for c in deal.pile}
        for meld in deal.table:
            self.face_up |= {str(CARDS[c]) for c in meld.cards}

    def apply(self, text: str) -> None:
        self.match.apply(text)
        self.applied.append(text)
        self._note_face_up()

    def follow(self, message: dict[str, Any]) -> None:
        """Apply what a view message shows that the shadow has not played yet (one deal).

        A view holds the last ``HISTORY_SENT`` actions and the deal's whole length."""
        total = message["view"]["history_length"]
        assert message["table"]["seq"] == total, "follow() is for one-deal tables"
        history = [text for _seat, text in message["view"]["history"]]
        new = total - self.seq
        assert 0 <= new <= len(history), "too many actions to follow at once"
        for text in history[len(history) - new:]:
            self.apply(text)
        assert self.recent() == [tuple(pair) for pair in message["view"]["history"]]

    def recent(self) -> list[tuple[int, str]]:
        """The history a view holds now: the last ``HISTORY_SENT`` actions of the deal."""
        return [(seat, str(action)) for seat, action in self.deal.moves][-HISTORY_SENT:]

    def choose(self, seat: int, rng: random.Random, level: str = "greedy") -> str:
        """What a bot of ``level`` would play for ``seat`` now."""
        return str(make_bot(level).choose(view(self.match, seat), rng))

    def view_json(self, seat: int) -> dict[str, Any]:
        """What the server sends ``seat`` as its view (the recent history only)."""
        out = view(self.match, seat, recent=HISTORY_SENT).to_json()
        out["history_length"] = len(self.deal.history)
        return out

    def hand(self, seat: int) -> list[str]:
        return [str(CARDS[c]) for c in sorted(self.match.deal.hands[seat])]

    def hidden_from(self, seat: int) -> set[str]:
        """Cards ``seat`` cannot know: other hands and the stock, minus all ever face up."""
        deal = self.match.deal
        unseen: set[str] = set()
        for other, hand in enumerate(deal.hands):
            if other != seat:
                unseen |= {str(CARDS[c]) for c in hand}
        unseen |= {str(CARDS[c]) for c in deal.stock}
        return unseen - self.face_up


class ActionLog:
    """Reads the ``table_actions`` rows the app wrote (its own engine on the database)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)

    def rows(self, table_id: str) -> list[tuple[int, int, str]]:
        with Session(self.engine) as session:
            found = session.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.text)
                .where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ).all()
        return [(seq, seat, text) for seq, seat, text in found]

    def close(self) -> None:
        self.engine.dispose()
