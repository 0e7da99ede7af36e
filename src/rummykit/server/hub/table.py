"""A table in memory, made of small parts: its seats, who is connected, its clock, the
vote after someone left, its chat and its hints; and the hashes that open its seats."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from rummykit.engine.match import Match
from rummykit.limits import KEY_ALPHABET, KEY_LENGTH
from rummykit.rules import Rules

__all__ = ["STANDIN", "Chat", "Clock", "Hints", "Presence", "SeatSpec", "Seats", "Send", "Table",
           "Vote", "encodable", "good_key", "token_hash"]


Send = Callable[[dict[str, Any] | str], Awaitable[None]]
"""How a connection is sent a message."""

STANDIN = "expert"
"""The computer player that stands in for a person, unless the table chose another."""


def encodable(text: str) -> bool:
    """Whether ``text`` can be sent as it is (a lone surrogate cannot be encoded)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def token_hash(token: str) -> str:
    """What a table keeps of a seat's token or a browser's key: its SHA-256 (hex). Both
    are at least 128 random bits, so a plain hash is enough; a copy of the database opens
    no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def good_key(key: str | None) -> bool:
    """Whether ``key`` has the shape of a browser's key (:data:`rummykit.limits.KEY_LENGTH`
    URL-safe characters: a page makes its key from 128 random bits or more)."""
    return (key is not None and KEY_LENGTH[0] <= len(key) <= KEY_LENGTH[1]
            and set(key) <= KEY_ALPHABET)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    kind: str  # "person" or "bot"
    name: str
    level: str | None = None


@dataclass(eq=False)
class Seats:
    """Who sits where, one entry per seat."""

    names: list[str]
    kinds: list[str]
    """``"person"`` or ``"bot"``."""
    levels: list[str | None]
    """A bot's level (None for a person)."""
    token_hashes: list[str | None]
    """Each person's seat's token, hashed (:func:`token_hash`); the tokens themselves are
    only in the links given out."""
    joined: list[bool]
    key_hashes: list[str | None]
    """The hashed key of the browser that claimed the seat (None: unclaimed). A claimed
    seat opens only for that browser, whoever holds its link."""
    standing: list[bool]
    """Whether the stand-in plays the seat now (its person ran out of time, was not
    connected, or handed the seat over); until the person comes back."""
    away: list[bool]
    """Whether the seat's person handed it to the stand-in and left (stored; a
    reconnection alone does not bring them back, "back" does)."""
    links: list[str | None] = field(default_factory=list)
    """Each person's link with its token, only on the table as created (never stored)."""

    def __len__(self) -> int:
        return len(self.names)

    def of(self, token: str | None) -> int | None:
        """The seat whose link carries ``token``, if any."""
        if not token or len(token) > 200:
            return None
        digest = token_hash(token)
        for seat, stored in enumerate(self.token_hashes):
            if stored is not None and secrets.compare_digest(stored, digest):
                return seat
        return None

    def owns(self, seat: int, key: str | None) -> bool:
        """Whether the browser with ``key`` claimed ``seat``."""
        stored = self.key_hashes[seat]
        return (stored is not None and good_key(key)
                and secrets.compare_digest(stored, token_hash(key or "")))


@dataclass(eq=False)
class Presence:
    """Who is connected to the table, here and on the other server processes."""

    sockets: dict[int, set[Send]] = field(default_factory=dict)
    """Each seat's connections in this process."""
    watchers: set[Send] = field(default_factory=set)
    """The spectators' connections: they hear the public view only."""
    elsewhere: dict[str, tuple[frozenset[int], int, float]] = field(default_factory=dict)
    """With several server processes: for each other process, the seats whose people are
    connected there, how many watch there, and when it last said so (monotonic time)."""
    kicks: dict[Send, Callable[[str], Awaitable[None]]] = field(default_factory=dict)
    """How to close each connection that another may replace (its reason: ``"replaced"``,
    ``"claimed"`` or ``"revoked"``)."""
    gone_at: dict[int, float] = field(default_factory=dict)
    """For each seat whose person has no connection now, since when (loop time)."""
    full: set[Send] = field(default_factory=set)
    """The seat connections that asked for full views (a program's: the whole history and
    the seat's knowledge, to rebuild the engine's view; the hello's ``full``)."""

    def connected(self, seat: int) -> bool:
        """Whether ``seat``'s person is connected, here or to another server process."""
        return bool(self.sockets.get(seat)) or any(
            seat in seats for seats, _, _ in self.elsewhere.values())

    def watching(self) -> int:
        """How many watch the table, here and on the other server processes."""
        return len(self.watchers) + sum(n for _, n, _ in self.elsewhere.values())

    def here(self) -> bool:
        """Whether anyone is connected to this table in this process."""
        return bool(self.watchers) or any(self.sockets.values())

    def everyone(self) -> list[Send]:
        """Every connection in this process: the seats' and the spectators'."""
        return [*(send for sends in self.sockets.values() for send in sends),
                *self.watchers]


@dataclass(eq=False)
class Clock:
    """The turn timer's clock of the person to move."""

    deadline: float | None = None
    """When (loop time) the person to move runs out of time, if the timer runs."""
    timed: tuple[int, int] | None = None
    """The deal and seat the deadline is for (a turn keeps its deadline to its end)."""
    task: asyncio.Task[None] | None = None
    """What plays the stand-in when the time is up."""
    ticking: bool = False
    """Whether the clock of the person to move runs now."""


@dataclass(eq=False)
class Vote:
    """The question after someone left: go on with the stand-in, or end the match."""

    left: list[int] = field(default_factory=list)
    """The people who left (handed their seat over), in order, while the others have
    not decided."""
    choices: dict[int, bool] = field(default_factory=dict)
    """The others' choices about the last to leave: True to end the match."""

    def close(self) -> None:
        """Nobody is asked any more."""
        self.left, self.choices = [], {}


@dataclass(eq=False)
class Chat:
    """What was said at the table."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    """The last CHAT_KEPT chat messages (seat, name, text, time), oldest first."""


@dataclass(eq=False)
class Hints:
    """The hints asked for at the table."""

    counts: dict[int, list[int]] = field(default_factory=dict)
    """For each deal number, how many hints each seat asked for (kept in memory: a count
    shown in the deal summary, not part of the game)."""
    busy: set[int] = field(default_factory=set)
    """The seats whose hint is being worked out (one at a time each)."""
    given: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    """For each seat, its last hint and the position (``seq``) it was for: asked again in
    the same position, the same hint, counted once."""


@dataclass(eq=False)
class Table:
    """A table in memory: its settings, its match, and its state in small parts (seats,
    presence, clock, vote, chat, hints)."""

    id: str
    rules: Rules
    seed: int
    seats: Seats
    status: str
    match: Match
    creator_hash: str | None = None
    """The hashed key of the browser that made the table: it may issue new links."""
    listed: bool = False
    """Listed in the lobby, where anyone may take a free seat."""
    turn_timer: int | None = None
    """Seconds a person has for a turn before the stand-in plays it (None: no timer)."""
    standin: str = STANDIN
    """The level of the computer player that plays for a person who is away."""
    rated: bool = False
    """A rated table: no hints, no undo, no chosen seed; its match moves the ratings."""
    presence: Presence = field(default_factory=Presence)
    clock: Clock = field(default_factory=Clock)
    vote: Vote = field(default_factory=Vote)
    chat: Chat = field(default_factory=Chat)
    hints: Hints = field(default_factory=Hints)
    stale: bool = False
    """Another server process changed the table since it was last read here (it is read
    again before it is next shown or used here)."""
    created: float = field(default_factory=time.time)
    """When the table was made or rebuilt here (orders the lobby)."""
    ended_by: int | None = None
    """The seat whose leaving ended the match (the others chose so), if it ended so."""
    abandoned: bool = False
    """Every person had left (the stand-in played each person's seat) when the match
    ended: it counts for nobody (:meth:`Hub.nobody_played`)."""
    previous: str | None = None
    next_table: str | None = None
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    last: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    """Every action of the match, in order (what is stored; an undo replays the rest)."""
    reading: set[int] = field(default_factory=set)
    """The people who have not yet closed the last deal's summary (the bots wait)."""
    read: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once nobody is reading the summary any more."""

    @property
    def players(self) -> int:
        return len(self.seats)
