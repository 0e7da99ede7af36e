"""Every limit rummykit holds people's input to, in one place.

The engine's rules need none of these: they bound what a person may type or store (a name,
a rules text, a chat line) and what a server keeps. The command line, the server's request
models, its hub, the database columns and the pages (through ``/api/config``) all read them
from here, so a limit changes in one line.

This module imports nothing of rummykit's: any layer may use it.
"""

from __future__ import annotations

__all__ = [
    "BOT_LEVEL_LENGTH",
    "CHAT_KEPT",
    "CHAT_LENGTH",
    "KEY_ALPHABET",
    "KEY_LENGTH",
    "NAME_LENGTH",
    "PLAYERS",
    "RULES_LENGTH",
    "SEED_LIMIT",
    "STORED_NAME_LENGTH",
    "TIMER_CHOICES",
    "TIMER_RANGE",
    "TOKEN_LENGTH",
]

NAME_LENGTH = 40
"""The longest player's name, in characters (at least one that is not a space)."""

STORED_NAME_LENGTH = 80
"""The longest name the statistics store keeps for a seat (its database column's width): a
person's name (:data:`NAME_LENGTH`) or a computer player as the command line names it,
options and all (``master(think=0.5,rollouts=200,margin=1)``), which may be longer."""

RULES_LENGTH = 400
"""The longest rules text (``preset`` or ``preset(option=value, ...)``) a table stores."""

BOT_LEVEL_LENGTH = 20
"""The longest computer player's level a seat stores: ``master(think=0.5)`` fits."""

SEED_LIMIT = 2**62
"""Seeds are drawn below this, and a chosen seed must be below it too."""

PLAYERS = (2, 6)
"""The fewest and the most seats at a table."""

TIMER_RANGE = (10, 600)
"""The turn timer a table may have, in seconds (or none)."""

TIMER_CHOICES = (30, 60, 120, 300)
"""The turn timers the start page offers (each within :data:`TIMER_RANGE`)."""

CHAT_LENGTH = 300
"""The longest chat message, in characters."""

CHAT_KEPT = 50
"""The chat messages a table keeps for whoever connects later."""

KEY_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
"""The characters of a browser's key (URL-safe base64 without padding)."""

KEY_LENGTH = (22, 64)
"""The shortest and longest browser's key: 22 characters carry 128 random bits."""

TOKEN_LENGTH = 100
"""The longest seat token or code a request may carry."""
