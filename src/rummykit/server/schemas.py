"""Every body the web server takes or gives, and every message of a seat's live connection,
as pydantic models.

- Requests: what the API's routes read (:class:`TableIn`, :class:`TokenIn`, ...). Their
  limits are :mod:`rummykit.limits`' own, so the server, the database columns and the
  pages (``GET /api/config``) agree.
- Replies: what each route answers (:class:`TableCreated`, :class:`LobbyOut`, ...).
- The live connection, ``/ws/{table}``: :data:`Incoming` is every message a seat sends
  (one union on ``type``), :data:`Outgoing` every message the server sends. The server
  builds its outgoing messages as plain dictionaries (they are sent often, to many
  connections); these models say what they hold, and a test validates what the tests'
  clients receive against them.

``python -m rummykit.server.schemas docs/protocol.md`` writes the JSON Schema of the
protocol into that page; a test checks the page is current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rummykit.limits import (
    BOT_LEVEL_LENGTH,
    CHAT_KEPT,
    CHAT_LENGTH,
    KEY_LENGTH,
    NAME_LENGTH,
    PLAYERS,
    RULES_LENGTH,
    SEED_LIMIT,
    TIMER_CHOICES,
    TIMER_RANGE,
    TOKEN_LENGTH,
)
from rummykit.server.gameview import GameView
from rummykit.stats import StatLine

__all__ = [
    "INCOMING",
    "KEY_PATTERN",
    "OUTGOING",
    "Incoming",
    "Outgoing",
    "protocol_page",
]

KEY_PATTERN = f"^[A-Za-z0-9_-]{{{KEY_LENGTH[0]},{KEY_LENGTH[1]}}}$"
"""A browser's key (:data:`rummykit.limits.KEY_ALPHABET`, :data:`~rummykit.limits.KEY_LENGTH`):
128 random bits or more, URL-safe. The pages get this pattern from ``/api/config``."""

LAST_SEAT = PLAYERS[1] - 1


class Model(BaseModel):
    """A body or message of the server: unknown fields are refused in what it sends, so a
    test notices a field these models do not describe."""

    model_config = ConfigDict(extra="forbid")


# -- requests ----------------------------------------------------------------------------


class SeatIn(BaseModel):
    """One seat of a new table: a person (a name) or a computer player (a level)."""

    kind: str = Field(pattern="^(person|bot)$")
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    level: str | None = None
    """A computer player's level (the hub refuses one longer than
    :data:`~rummykit.limits.BOT_LEVEL_LENGTH` or unknown, in its own words)."""


class TableIn(BaseModel):
    """``POST /api/tables``: a new table."""

    rules: str = Field(min_length=1, max_length=RULES_LENGTH)
    seats: list[SeatIn] = Field(min_length=PLAYERS[0], max_length=PLAYERS[1])
    seed: int | None = Field(default=None, ge=0, lt=SEED_LIMIT)
    key: str | None = Field(default=None, pattern=KEY_PATTERN)
    """The key of the browser that makes the table: it may later issue new links."""
    timer: int | None = Field(default=None, ge=TIMER_RANGE[0], le=TIMER_RANGE[1])
    """Seconds a person has for a turn before the stand-in plays it (none: no timer)."""
    standin: str | None = Field(default=None, max_length=BOT_LEVEL_LENGTH)
    """The bot level that plays for a person who is away (``expert`` if not given)."""
    public: bool = False
    """Listed in the lobby, where anyone may take a free seat."""
    rated: bool = False
    """A rated table: its match moves its players' ratings; no hints, no undo, no seed."""


class TokenIn(BaseModel):
    """Who asks for a seat: its link's ``token``, or the ``seat`` that the browser with
    ``key`` claimed (a claimed seat needs the key either way)."""

    token: str | None = Field(default=None, max_length=TOKEN_LENGTH)
    seat: int | None = Field(default=None, ge=0, le=LAST_SEAT)
    key: str | None = Field(default=None, pattern=KEY_PATTERN)


class KeyIn(BaseModel):
    """A browser's key (``POST /api/transfer``, ``/api/mine``, a seat's new link)."""

    key: str = Field(pattern=KEY_PATTERN)


class ReviewIn(BaseModel):
    """``POST /api/reviews``: review a finished table's match (``table``) or an uploaded
    record (``record``: the file's text), for the browser with ``key``."""

    key: str = Field(pattern=KEY_PATTERN)
    table: str | None = Field(default=None, max_length=40)
    record: str | None = None


class CodeIn(BaseModel):
    """``POST /api/transfer/redeem``: a transfer code (``ABCD-EFGH``)."""

    code: str = Field(min_length=4, max_length=20)


class TakeIn(BaseModel):
    """A browser taking a free seat from the lobby, under a name of its choice."""

    key: str = Field(pattern=KEY_PATTERN)
    name: str | None = Field(default=None, max_length=NAME_LENGTH)


class QrIn(BaseModel):
    """``POST /api/qr``: the link to draw as a QR code."""

    text: str


# -- replies -----------------------------------------------------------------------------


class ErrorOut(Model):
    """Any refused request: the message for a person, and for refusals a page translates,
    their ``code`` and ``params``."""

    error: str
    code: str | None = None
    params: dict[str, Any] | None = None


class SeatLink(Model):
    seat: int
    name: str
    kind: str
    link: str | None
    """A person's seat link (``/t/ID?token=...``); None for a bot."""


class TableCreated(Model):
    id: str
    rules: str
    seats: list[SeatLink]


class RematchOut(Model):
    id: str
    link: str


class LinkOut(Model):
    seat: int
    link: str


class TakenOut(Model):
    id: str
    seat: int
    link: str


class LobbySeat(Model):
    name: str
    kind: str
    level: str | None
    free: bool


class LobbyTable(Model):
    id: str
    rules: str
    status: str
    timer: int | None
    watchers: int
    seats: list[LobbySeat]


class LobbyOut(Model):
    tables: list[LobbyTable]


class MyTable(Model):
    id: str
    rules: str
    status: str
    seat: int
    names: list[str]
    created: str
    your_turn: bool


class MineOut(Model):
    tables: list[MyTable]


class TransferOut(Model):
    code: str
    expires_in: int


class KeyOut(Model):
    key: str


class QrOut(Model):
    size: int
    rows: list[str]


class PresetOut(Model):
    source: str
    options: dict[str, Any]


class PresetsOut(Model):
    presets: dict[str, PresetOut]
    help: dict[str, str]
    bots: list[str]
    think: float


class RulesOut(Model):
    rules: str
    options: dict[str, Any]


class StatsOut(Model):
    stats: list[StatLine]
    """(one line of ``rummykit stats`` each: :class:`rummykit.stats.StatLine`)"""
    total: int
    offset: int


class RatingChangeOut(Model):
    """What a rated match did to one seat's rating ("1532 → 1547, +15")."""

    seat: int
    name: str
    kind: str
    place: int
    before: int
    after: int
    change: int
    provisional: bool


class TableRatingsOut(Model):
    """``GET /api/tables/{id}/ratings``: whether the table is rated and, once its match is
    stored, each seat's change (empty while it goes on, or for a match without an
    outcome)."""

    rated: bool
    changes: list[RatingChangeOut]


class BoardLineOut(Model):
    place: int
    kind: str
    name: str
    rating: int
    provisional: bool
    matches: int


class BoardOut(Model):
    """``GET /api/ratings``: the leaderboard of a preset and player-count group."""

    preset: str
    group: str
    lines: list[BoardLineOut]


class AgainstOut(Model):
    """A person's results against one kind of opponent in the rated matches of one
    rating: each opponent seat of each match is one result, won (finished ahead of it),
    lost (behind it) or tied."""

    level: str | None
    """The bot level (None: people)."""
    won: int
    lost: int
    tied: int


class MyRatingOut(Model):
    """One of a person's ratings, with its history (the rating after each rated match)
    and its results by opponent."""

    preset: str
    group: str
    rating: int
    provisional: bool
    matches: int
    history: list[tuple[str, int]]
    """(when the match was stored, ISO 8601; the rating after it)"""
    against: list[AgainstOut]
    """People first, then each bot level played."""


class MyRatingsIn(Model):
    """``POST /api/ratings/mine``: a browser's ratings (its key is in the body: no secret
    goes in an address)."""

    key: str = Field(pattern=KEY_PATTERN)


class MyRatingsOut(Model):
    ratings: list[MyRatingOut]
    name: str | None
    """The name chosen for the leaderboard (None: the name played under)."""
    hidden: bool


class BoardNameIn(Model):
    """``POST /api/ratings/name``: a person's choice for the leaderboard."""

    key: str = Field(pattern=KEY_PATTERN)
    name: str | None = Field(default=None, min_length=1, max_length=NAME_LENGTH)
    hidden: bool = False


class ConfigOut(Model):
    """``GET /api/config``: the limits on what a person types, for the pages (so that no
    page writes them again)."""

    name_length: int = NAME_LENGTH
    rules_length: int = RULES_LENGTH
    bot_level_length: int = BOT_LEVEL_LENGTH
    chat_length: int = CHAT_LENGTH
    players: tuple[int, int] = PLAYERS
    timer_range: tuple[int, int] = TIMER_RANGE
    timer_choices: tuple[int, ...] = TIMER_CHOICES
    key_pattern: str = KEY_PATTERN
    token_length: int = TOKEN_LENGTH


class Frame(Model):
    """One step of a replay, every hand shown."""

    deal: int
    action: str | None
    by: int | None
    to_move: int
    phase: str
    dealer: int
    hands: list[list[str]]
    stock: int
    pile: list[str]
    table: list[dict[str, Any]]
    totals: list[int]
    result: dict[str, Any] | None


class FramesOut(Model):
    """``GET /api/tables/{id}/frames`` and ``POST /api/replay``: every step of a match."""

    players: list[str]
    rules: str
    error: str | None
    result: dict[str, Any] | None
    frames: list[Frame]


class ReviewOut(Model):
    """``POST /api/reviews`` and ``GET /api/reviews/{id}``: a review's state. ``position``
    is its place in the queue while it waits (1: next); ``done`` of ``total`` decisions
    are judged; once ``status`` is ``done``, ``review`` is the review (the shape of
    ``rummykit analyze --json``); a ``failed`` one says why in ``error``."""

    id: str
    status: Literal["queued", "running", "done", "failed"]
    done: int
    total: int
    position: int
    budget: str
    error: str | None
    review: dict[str, Any] | None


# -- the live connection: what a seat sends -----------------------------------------------


class Message(BaseModel):
    """A message a seat sends: its fields have their JSON types exactly (no "5" for 5);
    fields it does not know are left alone."""

    model_config = ConfigDict(strict=True)


class HelloIn(Message):
    """A seat connection's first message: ``{"type": "hello", "token": ..., "key": ...}``
    (the seat's link, with the browser's key, which claims an unclaimed seat) or
    ``{"type": "hello", "seat": N, "key": ...}`` (a seat this browser claimed); a
    program adds ``"full": true`` to hear full views."""

    type: str = Field(pattern="^hello$")
    token: str | None = Field(default=None, max_length=TOKEN_LENGTH)
    seat: int | None = None
    key: str | None = None
    """(checked by the hub: a key of the wrong shape is refused with its own code,
    ``bad-key``)"""
    full: bool = False
    """A program's connection (``rummykit bot``): every view it hears is the seat's whole
    view, with the deal's every action and the seat's ``knowledge`` (``View.to_json(full=
    True)``; ``View.from_json`` makes the engine's view of it again)."""


class ActionIn(Message):
    """Play an action, written in the record notation (``draw stock``, ``meld 5H 6H 7H``)."""

    type: Literal["action"]
    action: str
    seat: int | None = None
    """If given, the sender's own seat (another is refused: ``own-seat-only``)."""


class WhyIn(Message):
    """Whether an action may be played now, and if not why (nothing is played)."""

    type: Literal["why"]
    action: str


class ChatIn(Message):
    """Say something to the table (the hub checks the text: ``chat-empty``, ``chat-long``,
    ``chat-text``)."""

    type: Literal["chat"]
    text: object = Field(default=None, description="the text: a string (anything else is "
                         "refused as empty, code chat-empty)")


class VoteIn(Message):
    """After someone left: ``end`` true to end the match, false to play on."""

    type: Literal["vote"]
    end: object = Field(default=None, description="true to end the match (anything else: "
                        "play on)")


class HintIn(Message):
    """The strongest computer player's suggestion for this turn."""

    type: Literal["hint"]


class UndoIn(Message):
    """Take back this turn's last meld or lay-off, where nobody else has seen it."""

    type: Literal["undo"]


class SeenIn(Message):
    """This seat has closed the deal's summary."""

    type: Literal["seen"]


class AwayIn(Message):
    """Hand the seat to the table's stand-in and leave."""

    type: Literal["away"]


class BackIn(Message):
    """Take the seat back from the stand-in."""

    type: Literal["back"]


class SyncIn(Message):
    """Send this seat's state again."""

    type: Literal["sync"]


class PingIn(Message):
    """Keep the connection alive (no answer)."""

    type: Literal["ping"]


Incoming = Annotated[
    ActionIn | HintIn | WhyIn | UndoIn | SeenIn | AwayIn | BackIn | VoteIn | ChatIn
    | SyncIn | PingIn,
    Field(discriminator="type"),
]
"""Every message a seat sends after its hello, told apart by ``type``."""

INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)

SHAPES = {
    "action": "an action message needs 'action': a text such as 'draw stock'",
    "why": "a why message needs 'action': a text such as 'meld 5H 6H 7H'",
}
"""What a message of a known type but the wrong shape is told (code ``message-shape``)."""

INCOMING_TYPES = ("action", "hint", "why", "undo", "seen", "away", "back", "vote", "chat",
                  "sync", "ping")


# -- the live connection: what the server sends -------------------------------------------


class TableSeat(Model):
    name: str
    kind: str
    level: str | None
    joined: bool
    connected: bool
    claimed: bool
    standin: bool
    away: bool


class TableFacts(Model):
    """The table's public facts, beside a seat's view."""

    id: str
    status: str
    rules: str
    seats: list[TableSeat]
    seq: int
    last: list[str]
    rematch: str | None
    settlement: list[int] | None
    hints: dict[str, list[int]]
    opening: int
    reading: list[int]
    undo: bool
    watchers: int
    target: int | None
    melded: list[int] | None
    last_melded: list[int] | None
    left: list[int]
    votes: dict[str, bool]
    ended_by: int | None
    abandoned: bool
    timer: int | None
    standin: str
    time_left: float | None
    rated: bool
    """A rated table: its match moves the ratings; no hints and no undo."""


class ViewOut(Model):
    """What a seat sees (after each change, and on ``sync``; also ``GET
    /api/tables/{id}``): the table's facts and the seat's view of the game (its own hand
    only; a spectator gets the public view)."""

    type: Literal["view"]
    table: TableFacts
    view: GameView


class PresenceSeat(Model):
    connected: bool
    claimed: bool
    standin: bool
    away: bool


class PresenceOut(Model):
    """Who is at the table now, and how many watch."""

    type: Literal["presence"]
    seats: list[PresenceSeat]
    watchers: int


class ChatOut(Model):
    """A chat message, to everyone at the table (spectators too)."""

    type: Literal["chat"]
    seat: int
    name: str
    text: str = Field(max_length=CHAT_LENGTH)
    at: str
    """When it was said (ISO 8601, UTC, to the second)."""


class ChatLogOut(Model):
    """The chat so far (the last few messages), for a connection that has just come."""

    type: Literal["chat-log"]
    messages: list[ChatOut] = Field(max_length=CHAT_KEPT)


class HintOut(Model):
    """The suggestion for the seat's turn, with its reason (``parts``: codes a page
    translates, and their params)."""

    type: Literal["hint"]
    seq: int
    action: str
    reason: str
    parts: list[tuple[str, dict[str, Any]]]


class WhyOut(Model):
    """Whether an action may be played now; if not, the refusal it would get."""

    type: Literal["why"]
    action: str
    legal: bool
    message: str
    code: str | None = None
    params: dict[str, Any] | None = None


class ErrorMessage(Model):
    """A refused message or connection: the message for a person, and its ``code`` and
    ``params`` (a page says it in its own language)."""

    type: Literal["error"]
    message: str
    code: str | None = None
    params: dict[str, Any] | None = None


class ClosedOut(Model):
    """This connection was closed for another (``replaced``: another tab of the browser;
    ``claimed``: a browser claimed the seat; ``revoked``: a new link was made)."""

    type: Literal["closed"]
    reason: Literal["replaced", "claimed", "revoked"]
    message: str


Outgoing = Annotated[
    ViewOut | PresenceOut | ChatOut | ChatLogOut | HintOut | WhyOut | ErrorMessage
    | ClosedOut,
    Field(discriminator="type"),
]
"""Every message the server sends on a seat's (or a spectator's) connection."""

OUTGOING: TypeAdapter[Outgoing] = TypeAdapter(Outgoing)


# -- the protocol page --------------------------------------------------------------------

PROTOCOL = """\
# The live protocol

A seat's page talks to the server over one WebSocket, `/ws/<table>`, in JSON text
frames. This page is written by `python -m rummykit.server.schemas docs/protocol.md`
from the server's own models (`rummykit.server.schemas`); a test checks it is current.

## Connecting

1. Open `/ws/<table>` (no key or token in the address: those are refused).
2. Send the **hello** first, within ten seconds: `{"type": "hello", "token": "...",
   "key": "..."}` with the seat link's token, or `{"type": "hello", "seat": N, "key":
   "..."}` for a seat this browser has claimed. The key is the browser's own random key
   (the pattern below); it claims the seat, so only that browser opens it again.
3. The server answers with the seat's **view**, then **presence** and, if anyone has
   spoken, the **chat-log**. From then on it sends a new view after every change.

A spectator opens `/ws/<table>?watch=1`, sends no hello, and receives the public view;
it may send `sync` and `ping`, nothing else.

A message the server refuses is answered with an **error** (a `message` for a person, a
`code` and `params` a page translates); the connection stays open, and nothing changes.
A message is at most 2048 bytes, and a connection may send twenty a second.

## A program at a table

A program plays a seat as a person's page does (`rummykit bot LINK --bot master` is one,
in docs/bots.md). Given a seat's link, `http://host/t/<table>?token=<token>`:

1. Open `ws://host/ws/<table>` and send `{"type": "hello", "token": "<token>", "key":
   "<key>", "full": true}`, with a key of the program's own (a random string of the
   pattern below: it claims the seat, and opens it again after a lost connection).
   `full` asks for full views: each view's `history` is the deal's whole history, and
   the view carries the seat's `knowledge` and the fields after it (see **The view**).
   In Python, `rummykit.engine.views.View.from_json(message["view"])` makes the engine's
   own view of it, which any bot (`rummykit.bots.Bot`) plays from.
2. On each **view**: when its `legal_actions` are not empty, it is the seat's move: send
   one of them as an **action**. When the table's `reading` holds the seat, a deal has
   just ended: send **seen** (the next deal waits until every person's seat, a
   program's too, has read the summary). When `match_over` is true, the match is over.
3. An **error** answers a refused message, and nothing changed: send **sync** to hear
   the view again. The table's `seq` counts the actions stored: a view with the same
   `seq` as the last one acted on is the same position.

## What a seat sends

{incoming}

## What the server sends

{outgoing}

## The view

A **view** message's `view`, field by field:

{view}

## The JSON Schema

Generated from the models: the hello, every message a seat sends (one union on `type`),
and every message the server sends.

```json
{schema}
```
"""


def _table(models: list[type[BaseModel]]) -> str:
    lines = ["| `type` | fields | what it is |", "|---|---|---|"]
    for model in models:
        tag = get_args(model.model_fields["type"].annotation) or ("hello",)
        fields = ", ".join(f"`{name}`" for name in model.model_fields if name != "type")
        doc = " ".join((model.__doc__ or "").split())
        lines.append(f"| `{tag[0]}` | {fields or '-'} | {doc} |")
    return "\n".join(lines)


def _fields(model: type[BaseModel]) -> str:
    """A table of ``model``'s fields: name, JSON Schema type and description."""
    schema = model.model_json_schema()
    lines = ["| field | type | what it is |", "|---|---|---|"]
    for name, prop in schema["properties"].items():
        doc = " ".join(str(prop.get("description", "")).split())
        lines.append(f"| `{name}` | {_type_of(prop)} | {doc} |")
    return "\n".join(lines)


def _type_of(prop: dict[str, Any]) -> str:
    """A JSON Schema property's type in a few words."""
    if "anyOf" in prop:
        return " or ".join(_type_of(p) for p in prop["anyOf"])
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    if "enum" in prop or "const" in prop:
        return " / ".join(f"`{v}`" for v in prop.get("enum", [prop.get("const")]))
    kind = prop.get("type", "any")
    if kind == "array":
        if "prefixItems" in prop:
            return "[" + ", ".join(_type_of(p) for p in prop["prefixItems"]) + "]"
        return f"list of {_type_of(prop.get('items', {}))}"
    return str(kind)


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the protocol: ``hello``, ``incoming`` and ``outgoing``."""
    return {
        "hello": HelloIn.model_json_schema(),
        "incoming": INCOMING.json_schema(),
        "outgoing": OUTGOING.json_schema(),
    }


def protocol_page() -> str:
    """docs/protocol.md, as the models say."""
    incoming: list[type[BaseModel]] = [HelloIn, ActionIn, HintIn, WhyIn, UndoIn, SeenIn,
                                       AwayIn, BackIn, VoteIn, ChatIn, SyncIn, PingIn]
    outgoing: list[type[BaseModel]] = [ViewOut, PresenceOut, ChatOut, ChatLogOut, HintOut,
                                       WhyOut, ErrorMessage, ClosedOut]
    return (PROTOCOL.replace("{incoming}", _table(incoming))
            .replace("{view}", _fields(GameView))
            .replace("{outgoing}", _table(outgoing))
            .replace("{schema}", json.dumps(protocol_schema(), indent=2, sort_keys=True)))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m rummykit.server.schemas docs/protocol.md", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(protocol_page(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
