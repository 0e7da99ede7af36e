"""A computer player at a server's table: ``rummykit bot LINK --bot master``.

A program takes a seat the way a person does: it opens the seat's link (the one the
table's maker sends a friend), says hello on the table's live connection
(docs/protocol.md), hears the seat's view after every change and plays its moves. It asks
for full views (the hello's ``full``): each holds the deal's whole history and what the
seat knows of every card, from which :meth:`~rummykit.engine.views.View.from_json` makes
the engine's own view, and any :class:`~rummykit.bots.Bot` plays from that as it would in
a local game. It never hears more than the seat may see: the server sends it what the
engine's view of the seat holds, and nothing else.

A lost connection is opened again (with the same key, which claimed the seat), a few
times with growing waits; a refusal (a link that opens no seat, a seat another browser
has claimed) ends the play with the server's reason.

>>> parse_link("http://localhost:8000/t/abc123?token=XYZ").socket
'ws://localhost:8000/ws/abc123'
"""

from __future__ import annotations

import contextlib
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from rummykit.bots import Bot
from rummykit.engine.views import View

__all__ = ["Link", "LinkError", "Outcome", "RemoteError", "SeatTaken", "parse_link",
           "play_at"]

RETRIES = 6
"""Times a lost connection is opened again in a row before the play gives up."""
FIRST_WAIT = 0.5
"""Seconds before the first try to reconnect; each next try waits twice as long."""
GAP = 0.06
"""Seconds between two messages the program sends: the server takes twenty a second from
a connection (docs/protocol.md), and two programs at a table may play that fast."""
RATE_WAIT = 0.5
"""Seconds to wait after a refused message before asking for the position again."""
REFUSALS = 5
"""Moves refused in a row (a bot that plays what the rules do not allow) that end the play."""
FATAL = {4400, 4403, 4404, 4409, 4410, 4429}
"""Close codes that end the play: the server refused this connection for good (a bad
hello, not this seat, no such table, replaced, a broken table, too many connections)."""


class RemoteError(Exception):
    """The server refused the seat, or the connection could not be kept."""


class LinkError(RemoteError, ValueError):
    """A seat link that is not one: the words say what a link looks like."""


class SeatTaken(RemoteError):
    """Another connection took the seat (the same key elsewhere, or a new link)."""


@dataclass(frozen=True)
class Link:
    """A seat's link, read: where its table's live connection is and who the seat is."""

    socket: str
    """The table's live connection, ``ws://host/ws/<table>`` (``wss`` for https)."""
    table: str
    token: str | None
    seat: int | None
    """A claimed seat's number (a ``?seat=N`` link opens only with that browser's key)."""


def parse_link(text: str) -> Link:
    """The seat link ``text``: ``http(s)://host/t/<table>?token=<token>`` (what the table's
    maker shares), or ``...?seat=N`` for a seat claimed with a key of one's own."""
    shape = "a seat's link looks like http://host:port/t/TABLE?token=TOKEN"
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        raise LinkError(f"{text!r} is not a link: {shape}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"{text!r} is not an http(s) link: {shape}")
    path = parts.path.rstrip("/").split("/")
    if len(path) != 3 or path[1] != "t" or not path[2]:
        raise LinkError(f"{text!r} does not open a table: {shape}")
    query = parse_qs(parts.query)
    tokens = query.get("token", [])
    seats = query.get("seat", [])
    if not tokens and not seats:
        raise LinkError(f"{text!r} names no seat (no token): {shape}")
    seat = None
    if seats and not tokens:
        if not (seats[0].isascii() and seats[0].isdigit()):
            raise LinkError(f"{text!r}: the seat is a number")
        seat = int(seats[0])
    scheme = "wss" if parts.scheme == "https" else "ws"
    return Link(f"{scheme}://{parts.netloc}/ws/{path[2]}", path[2],
                tokens[0] if tokens else None, seat)


@dataclass
class Outcome:
    """How the match went for the seat the program played."""

    seat: int = -1
    names: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()
    winner: int | None = None
    deals: int = 0
    moves: int = 0
    """Actions the program played."""
    reconnects: int = 0
    """Times the connection was lost and opened again."""
    refused: list[str] = field(default_factory=list)
    """Each move the server refused (its reason): none, for a bot that only ever plays one
    of the view's legal actions, unless the position moved on as it was sent."""
    errors: list[str] = field(default_factory=list)
    """Each other message of the program's that the server refused (a vote that came too
    late, say)."""
    over: bool = False
    """Whether the match is over (its ``winner``, or ``ended_by`` a vote)."""
    ended_by: int | None = None
    """Where the others voted to end the match after someone left: who asked first."""


class Socket(Protocol):
    """What the play needs of a WebSocket connection (``websockets``' sync client)."""

    def send(self, message: str) -> None: ...

    def __iter__(self) -> Iterator[str | bytes]: ...


Connect = Callable[[str], AbstractContextManager[Socket]]
"""Opens a connection: ``websockets.sync.client.connect`` by default."""


def _connect(url: str) -> AbstractContextManager[Socket]:
    from websockets.sync.client import connect

    # A full view of a long deal is tens of kilobytes; the server pings on its own.
    return connect(url, open_timeout=10, max_size=2**22, close_timeout=2)


def play_at(link: str | Link, bot: Bot, *, key: str | None = None,
            rng: random.Random | None = None, say: Callable[[str], None] = lambda _: None,
            connect: Connect = _connect, retries: int = RETRIES) -> Outcome:
    """Play the seat of ``link`` with ``bot`` until the match is over; its outcome.

    ``key`` claims the seat (a new random one if not given; it must be given for a
    ``?seat=N`` link, whose seat that key claimed). ``say`` hears a line on each deal's
    end and each reconnection. Raises :class:`RemoteError` when the server refuses the
    seat, or the connection is lost ``retries`` times in a row."""
    where = parse_link(link) if isinstance(link, str) else link
    if where.seat is not None and key is None:
        raise LinkError("a ?seat=N link opens only with the key that claimed the seat: "
                        "give it, or use the seat's link with its token")
    player = _Player(bot, rng or random.Random(), say)
    hello: dict[str, Any] = {"type": "hello", "key": key or secrets.token_urlsafe(24),
                             "full": True}
    if where.token is not None:
        hello["token"] = where.token
    else:
        hello["seat"] = where.seat
    lost = 0
    while True:
        # A new connection hears the position afresh: a move sent as the last one was
        # lost may not have been stored (then the seat is still to move at that seq).
        player.acted = player.read = player.voted = None
        try:
            with connect(where.socket) as ws:
                ws.send(json.dumps(hello))
                try:
                    for raw in ws:
                        if lost:
                            player.outcome.reconnects += 1  # back at the table
                        lost = 0
                        if _heard(player, ws, raw):
                            return player.outcome
                except KeyboardInterrupt:
                    if player.in_play:
                        # Stopped: the seat goes to the table's stand-in, as a person's
                        # "leave" does, so the others are not left waiting.
                        with contextlib.suppress(Exception):
                            ws.send(json.dumps({"type": "away"}))
                    raise
            reason = player.refusal or "the server closed the connection"
        except OSError as error:  # refused, reset, timed out
            reason = f"{type(error).__name__}: {error}"
        except Exception as error:
            code = getattr(getattr(error, "rcvd", None), "code", None)
            if code in FATAL or (player.refusal is not None and player.outcome.seat < 0):
                raise RemoteError(player.refusal or f"the server closed the seat ({code})") \
                    from None
            if type(error).__module__.split(".")[0] != "websockets":
                raise
            reason = str(error) or type(error).__name__
        if player.outcome.seat < 0:
            # Never let in: a refusal, or no server there (nothing to go back to).
            raise RemoteError(player.refusal or f"could not open the seat at "
                              f"{where.socket} ({reason})")
        lost += 1
        if lost > retries:
            raise RemoteError(f"the connection was lost {lost} times in a row ({reason})")
        wait = FIRST_WAIT * 2 ** (lost - 1)
        say(f"connection lost ({reason}); connecting again in {wait:g} s")
        time.sleep(wait)


def _heard(player: _Player, ws: Socket, raw: str | bytes) -> bool:
    """The player's :meth:`_Player.heard` of one frame; a frame it cannot take (not JSON,
    not the protocol's shape, a view the bot cannot play from) ends the play in words."""
    try:
        return player.heard(ws, json.loads(raw))
    except RemoteError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
        raise RemoteError(f"the play stopped on a message it could not take "
                          f"({type(error).__name__}: {error})") from error


class _Player:
    """What the program does with each message it hears."""

    def __init__(self, bot: Bot, rng: random.Random, say: Callable[[str], None]) -> None:
        self.bot = bot
        self.rng = rng
        self.say = say
        self.outcome = Outcome()
        self.acted: int | None = None
        """The table's ``seq`` at the last move played (one move per position)."""
        self.read: int | None = None
        """The ``seq`` at which the last deal's summary was marked seen."""
        self.sent = 0.0
        """When the last message was sent (monotonic time)."""
        self.last_sent = ""
        """The type of the last message sent."""
        self.voted: tuple[tuple[int, ...], int] | None = None
        """Who had left, and the ``seq``, when the program last voted to play on."""
        self.refusal: str | None = None
        """The last error's words (a refused hello ends the play with them)."""
        self.refused_in_a_row = 0
        """Moves refused since the last one the server took."""

    @property
    def in_play(self) -> bool:
        """Whether the program sits at a match still being played."""
        return self.outcome.seat >= 0 and not self.outcome.over

    def heard(self, ws: Socket, message: dict[str, Any]) -> bool:
        """Act on one message; True once the match is over."""
        kind = message.get("type")
        if kind == "error":
            self.refusal = str(message.get("message", "refused"))
            if self.outcome.seat >= 0:
                self._refused(ws, message)
            return False
        if kind == "closed":
            raise SeatTaken(str(message.get("message", "another connection took the seat")))
        if kind != "view":
            return False
        table, data = message["table"], message["view"]
        self.refusal = None
        out = self.outcome
        out.seat, out.names = data["seat"], tuple(data["names"])
        out.totals, out.deals = tuple(data["totals"]), data["deal_number"]
        seq = table["seq"]
        if self.acted is not None and seq != self.acted:
            self.refused_in_a_row = 0  # the position moved on: the move was taken
        if data["match_over"] or table["status"] == "finished":
            # Over: played to its end, or ended early (the others voted to end it after
            # someone left).
            out.over = True
            out.winner = data["match_winner"]
            out.ended_by = table.get("ended_by")
            if data["deal_result"] is not None:
                self.say(f"deal {out.deals}: {data['deal_result']['why']}")
            return True
        if out.seat in table["reading"] and self.read != seq:
            last = data.get("last_deal")
            if last is not None:
                self.say(f"deal {out.deals - 1}: {last['why']}; totals "
                         + ", ".join(f"{n} {t}" for n, t in zip(out.names, out.totals,
                                                                 strict=True)))
            self.read = seq
            self.send(ws, {"type": "seen"})
        left = table["left"]
        if left and out.seat not in left and str(out.seat) not in table["votes"] \
                and self.voted != (tuple(left), seq):
            # Someone left and the others choose: a program plays the match to its end.
            self.voted = (tuple(left), seq)
            self.send(ws, {"type": "vote", "end": False})
        if data["legal_actions"] and self.acted != seq and table["status"] == "playing":
            action = self.bot.choose(View.from_json(data), self.rng)
            self.acted = seq
            out.moves += 1
            self.send(ws, {"type": "action", "action": str(action)})
        return False

    def _refused(self, ws: Socket, message: dict[str, Any]) -> None:
        """The server refused the last message: nothing changed. A refused move is tried
        again once the position is heard again (it may have moved on meanwhile); one that
        keeps being refused ends the play."""
        reason = self.refusal or "refused"
        if self.last_sent == "action":
            if message.get("code") != "rate":
                self.outcome.refused.append(reason)
                self.refused_in_a_row += 1
                if self.refused_in_a_row >= REFUSALS:
                    raise RemoteError(f"the server refused the bot's move {REFUSALS} times "
                                      f"in a row: {reason}")
            self.acted = None
        elif self.last_sent == "seen":
            self.read = None
        elif message.get("code") != "rate":
            self.outcome.errors.append(reason)
        time.sleep(RATE_WAIT)
        self.send(ws, {"type": "sync"})

    def send(self, ws: Socket, message: dict[str, Any]) -> None:
        """Send ``message``, keeping under the server's allowance of messages a second."""
        wait = self.sent + GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        ws.send(json.dumps(message))
        self.sent = time.monotonic()
        self.last_sent = str(message["type"])
