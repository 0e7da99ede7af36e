"""What the server's processes tell each other on the bus (:mod:`rummykit.server.bus`),
as typed messages.

On the wire each is a JSON object whose ``"k"`` names its kind, ``"t"`` the table (where
it is about one) and ``"from"`` the process that sent it; :func:`parse` turns one into its
dataclass, or refuses it with :class:`BadAnnouncement`, which names the kind and the field
at fault and never a field's value (a transfer's announcement holds a player's key).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Alive",
    "Announcement",
    "BadAnnouncement",
    "Changed",
    "Chat",
    "Here",
    "Kick",
    "Played",
    "Question",
    "Resync",
    "Seen",
    "Spent",
    "Standing",
    "Transfer",
    "Who",
    "parse",
]


class BadAnnouncement(ValueError):
    """An announcement that is not one of :data:`Announcement`, or a field of the wrong
    type; the message names its kind and the field, not the values."""


@dataclass(frozen=True, slots=True)
class Alive:
    """The sender lives (every heartbeat)."""


@dataclass(frozen=True, slots=True)
class Who:
    """Every process says who is connected to ``table`` there (None: to every table)."""
    table: str | None


@dataclass(frozen=True, slots=True)
class Resync:
    """The bus was heard again after a break: every table may have missed something."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """A one-time code that carries ``key`` to another device was made."""
    code: str
    key: str


@dataclass(frozen=True, slots=True)
class Spent:
    """A one-time code was used (or tried)."""
    code: str


@dataclass(frozen=True, slots=True)
class Changed:
    """Something stored of ``table`` changed (a seat, its status, an undo): read it."""
    table: str


@dataclass(frozen=True, slots=True)
class Played:
    """Action ``seq`` of ``table`` was stored: ``seat`` played ``text``."""
    table: str
    seq: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Here:
    """The seats of ``table`` whose people are connected to the sender, and how many
    watch there."""
    table: str
    seats: frozenset[int]
    watchers: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line said at ``table`` (the message as the pages receive it)."""
    table: str
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Seen:
    """``seat``'s person closed the last deal's summary."""
    table: str
    seat: int


@dataclass(frozen=True, slots=True)
class Standing:
    """The stand-in plays ``seat`` now (``on``), or stopped."""
    table: str
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class Question:
    """Who left (in order) and the others' votes on the last to leave (True: end)."""
    table: str
    left: tuple[int, ...]
    votes: dict[int, bool]


@dataclass(frozen=True, slots=True)
class Kick:
    """Close the connections of ``seat`` there, saying ``reason``."""
    table: str
    seat: int
    reason: str


Announcement = (Alive | Who | Resync | Transfer | Spent | Changed | Played | Here | Chat
                | Seen | Standing | Question | Kick)
"""Every kind of announcement."""


def _field(data: Mapping[str, object], kind: str, name: str, wanted: type) -> Any:
    value = data.get(name)
    # (a bool is an int to Python; not here)
    if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
        raise BadAnnouncement(f"a {kind!r} announcement needs {name!r}: a "
                              f"{wanted.__name__}")
    return value


def _seat(data: Mapping[str, object], kind: str, name: str = "seat") -> int:
    seat: int = _field(data, kind, name, int)
    if seat < 0:
        raise BadAnnouncement(f"a {kind!r} announcement's {name!r} is a seat number")
    return seat


def _seats(data: Mapping[str, object], kind: str, name: str) -> tuple[int, ...]:
    values: list[object] = _field(data, kind, name, list)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise BadAnnouncement(f"a {kind!r} announcement's {name!r} lists seat numbers")
    return tuple(int(str(v)) for v in values)


def parse(data: Mapping[str, object]) -> Announcement:
    """The announcement ``data`` (a decoded JSON object) holds; :class:`BadAnnouncement`
    if it holds none."""
    kind = data.get("k")
    if not isinstance(kind, str):
        raise BadAnnouncement("an announcement needs 'k': its kind")
    if kind == "alive":
        return Alive()
    if kind == "resync":
        return Resync()
    if kind == "who":
        table = data.get("t")
        if table is not None and not isinstance(table, str):
            raise BadAnnouncement("a 'who' announcement's 't' is a table's id")
        return Who(table)
    if kind == "transfer":
        return Transfer(_field(data, kind, "code", str), _field(data, kind, "key", str))
    if kind == "spent":
        return Spent(_field(data, kind, "code", str))
    if kind not in ("changed", "action", "here", "chat", "seen", "standing", "question",
                    "kick"):
        raise BadAnnouncement(f"no announcement is of kind {kind[:40]!r}")
    table = _field(data, kind, "t", str)
    if kind == "changed":
        return Changed(table)
    if kind == "action":
        return Played(table, _seat(data, kind, "seq"), _seat(data, kind),
                      _field(data, kind, "text", str))
    if kind == "here":
        watchers = _seat(data, kind, "watchers")
        return Here(table, frozenset(_seats(data, kind, "seats")), watchers)
    if kind == "chat":
        return Chat(table, dict(_field(data, kind, "m", dict)))
    if kind == "seen":
        return Seen(table, _seat(data, kind))
    if kind == "standing":
        return Standing(table, _seat(data, kind), _field(data, kind, "on", bool))
    if kind == "question":
        votes: dict[str, object] = _field(data, kind, "votes", dict)
        if not all(s.isdigit() and isinstance(end, bool) for s, end in votes.items()):
            raise BadAnnouncement("a 'question' announcement's 'votes' are seat: bool")
        return Question(table, _seats(data, kind, "left"),
                        {int(s): bool(end) for s, end in votes.items()})
    return Kick(table, _seat(data, kind), _field(data, kind, "reason", str))
