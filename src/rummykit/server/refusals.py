"""Every reason the web server refuses a request, as a stable code.

The engine's refusals of an action are :data:`rummykit.errors.REFUSALS`; these are the
server's own (a table, a seat, a link, a chat line, a message on the WebSocket). A refusal
carries its code beside the message (``{"error" or "message": ..., "code": ...,
"params": {...}}``), so that a page can say it in its own language: each code has a text
``refusal.<code>`` in every catalog under ``web/static/i18n`` (plural forms where a param
counts something). The tests check that every code the server sends is listed here, that
every code listed here is sent somewhere, and that every language has a text for each.

This module imports nothing of the server's: the hub, the routes and the tests read it.
"""

from __future__ import annotations

from typing import Literal, get_args

from rummykit.errors import RefusalCode

__all__ = ["WEB_REFUSALS", "Refusal", "WebRefusal"]

WebRefusal = Literal[
    # tables
    "no-table",
    "table-broken",
    "tables-full",
    "tables-per-client",
    "master-limit",
    "seed-not-allowed",
    "rules",
    "rules-long",
    "no-preset",
    "no-person",
    "seat-kind",
    "level-missing",
    "level-long",
    "bot-level",
    "think-limit",
    "name-length",
    "name-text",
    "name-invalid",
    "timer-range",
    "rated-seed",
    "rated-hint",
    "rated-undo",
    "rated-rules",
    "rated-level",
    "match-not-over",
    "record-not-over",
    "record-large",
    "record-invalid",
    "record-steps",
    # reviews
    "review-what",
    "review-long",
    "review-busy",
    "review-queue-full",
    "no-review",
    "qr-text",
    # seats, links and keys
    "seat-link",
    "seat-claimed",
    "one-seat",
    "not-creator",
    "no-link",
    "seat-in-use",
    "seat-in-play",
    "not-listed",
    "not-in-play",
    "bad-key",
    "bad-code",
    "secret-in-url",
    "hello",
    "too-many-connections",
    # play
    "notation",
    "game-waiting",
    "stale",
    "storage",
    "undo-nothing",
    "undo-seen",
    "hint-not-playing",
    "hint-not-your-turn",
    "hint-busy",
    "no-vote",
    "spectator",
    # chat
    "chat-empty",
    "chat-long",
    "chat-text",
    # the messages themselves
    "rate",
    "busy",
    "too-deep",
    "not-json",
    "binary-frame",
    "message-long",
    "message-shape",
    "message-type",
    "own-seat-only",
]
"""Every reason the web server refuses a request (beside the engine's)."""

Refusal = RefusalCode | WebRefusal
"""A code a refusal of the web server may carry: the engine's or the server's own."""

WEB_REFUSALS: dict[WebRefusal, str] = {
    "no-table": "there is no table with this id (404)",
    "table-broken": "the table's stored game can no longer be rebuilt by this version (410)",
    "tables-full": "the server has as many tables open as it can hold (503)",
    "tables-per-client": "too many new tables from one place in ten minutes (429; params: n)",
    "master-limit": "too many new tables with a master from one place in ten minutes (429)",
    "seed-not-allowed": "this server shuffles itself: a chosen seed is refused (403)",
    "rules": "the rules text does not parse, or does not allow this many seats",
    "rules-long": "the rules change too many options to store (params: length, max)",
    "no-preset": "there is no preset of that name",
    "no-person": "a table needs at least one person",
    "seat-kind": "a seat is a person or a bot",
    "level-missing": "a bot's seat needs a level",
    "level-long": "a bot's level is too long (params: max)",
    "bot-level": "a bot's level does not name a computer player this server knows",
    "think-limit": "a master may not think that long, or by rollouts, on this server "
                   "(params: seconds)",
    "name-length": "a seat's name is empty or too long (params: max)",
    "name-text": "a seat's name holds control, invisible or direction-changing characters "
                 "(params: seat)",
    "name-invalid": "a name taken from the lobby is empty, too long or not printable "
                    "(params: max)",
    "timer-range": "a turn timer out of its range (params: min, max)",
    "rated-seed": "a rated table asked for with a chosen seed (the server shuffles)",
    "rated-hint": "a hint asked for at a rated table",
    "rated-undo": "an undo asked for at a rated table",
    "rated-rules": "a rated table asked for with house rules (options changed)",
    "rated-level": "a rated table asked for with a computer player's settings changed",
    "match-not-over": "a rematch comes once the match is over (409)",
    "record-not-over": "a table's record and replay come once the match is over (409)",
    "record-large": "a record to replay is too large",
    "record-invalid": "a record to replay is not a valid record",
    "record-steps": "a record to replay has more steps than the viewer shows "
                    "(params: steps, max)",
    "review-what": "a review names a table or sends a record, not both",
    "review-long": "a record to review has too many actions (params: steps, max)",
    "review-busy": "this browser has a review waiting or running already (429)",
    "review-queue-full": "too many reviews wait: try again in a few minutes (503)",
    "no-review": "there is no review of that id (404)",
    "qr-text": "a QR code is made only of a link to a table of this app",
    "seat-link": "the link's token (or the browser's key) opens no seat at this table (403)",
    "seat-claimed": "another browser claimed this seat (403)",
    "one-seat": "this browser has another seat at this table already (403; params: name, "
                "mine)",
    "not-creator": "only the browser that made the table issues its links (403)",
    "no-link": "the seat is a bot's: it has no link, and cannot be taken or handed over",
    "seat-in-use": "the seat's person is at the table now (409; params: name)",
    "seat-in-play": "the seat's person plays the match (409; params: name, minutes)",
    "not-listed": "the table is not in the lobby (403)",
    "not-in-play": "the match is not in play (or has started, for a seat from the lobby)",
    "bad-key": "a browser's key of the wrong shape",
    "bad-code": "a transfer code that is unknown, used or too old (404)",
    "secret-in-url": "a key or token in an address rather than in a header",
    "hello": "a seat's connection did not say who it is in time, or not in the right shape",
    "too-many-connections": "too many connections to one seat or from one place",
    "notation": "an action not written in the record notation",
    "game-waiting": "the game starts when every seat is taken",
    "stale": "another server process played at the table first (409)",
    "storage": "the database did not answer: nothing was done (503)",
    "undo-nothing": "nothing of this turn can be taken back",
    "undo-seen": "the other people at the table have seen it: no undo",
    "hint-not-playing": "a hint is for a game in play",
    "hint-not-your-turn": "a hint is for the seat's own turn",
    "hint-busy": "the seat's last hint is still being worked out",
    "no-vote": "nobody has left, or the one who left does not vote",
    "spectator": "a spectator cannot act",
    "chat-empty": "a chat message with no text",
    "chat-long": "a chat message that is too long (params: n)",
    "chat-text": "a chat message with control, invisible or direction-changing characters",
    "rate": "too many requests or messages: slow down (429)",
    "busy": "too many requests from one place at once (429)",
    "too-deep": "a WebSocket message nested too deep: the connection is closed",
    "not-json": "a WebSocket message that is not JSON",
    "binary-frame": "a binary WebSocket frame (messages are text frames of JSON)",
    "message-long": "a WebSocket message that is too long (params: max)",
    "message-shape": "a WebSocket message that is not a JSON object with a 'type'",
    "message-type": "a WebSocket message of a type the server does not know (params: type)",
    "own-seat-only": "an action for another seat than the connection's own",
}
"""What each of :data:`WebRefusal` means (one line; the catalogs say it to people)."""

assert set(WEB_REFUSALS) == set(get_args(WebRefusal))
