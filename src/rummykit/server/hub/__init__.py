"""The tables of the web app: the server is the only authority.

Every action goes through the engine's checked path, is written to the database before
anyone hears of it, and then each connected seat receives its own view (and nothing
else). On start the hub rebuilds every unfinished table from its stored actions;
a table this version can no longer rebuild is marked ``broken`` and refused with 410.
"""

from __future__ import annotations

from rummykit.limits import TIMER_RANGE
from rummykit.server.hub.access import Access
from rummykit.server.hub.base import HISTORY_SENT, SUMMARY_WAIT, TRANSFER_TIME
from rummykit.server.hub.bots import Bots
from rummykit.server.hub.chat import Chat
from rummykit.server.hub.clock import Clock
from rummykit.server.hub.errors import HubError, RebuildError
from rummykit.server.hub.following import Following
from rummykit.server.hub.lifecycle import Lifecycle
from rummykit.server.hub.play import Play
from rummykit.server.hub.presence import Presence
from rummykit.server.hub.sending import Sending
from rummykit.server.hub.standin import StandIn
from rummykit.server.hub.storage import BROKEN, BROKEN_MESSAGE
from rummykit.server.hub.table import (
    STANDIN,
    SeatSpec,
    Send,
    Table,
    encodable,
    good_key,
    token_hash,
)

__all__ = [
    "BROKEN",
    "BROKEN_MESSAGE",
    "HISTORY_SENT",
    "STANDIN",
    "SUMMARY_WAIT",
    "TIMER_RANGE",
    "TRANSFER_TIME",
    "Hub",
    "HubError",
    "RebuildError",
    "SeatSpec",
    "Send",
    "Table",
    "encodable",
    "good_key",
    "token_hash",
]


class Hub(Lifecycle, Access, Presence, Chat, StandIn, Clock, Play, Bots, Following, Sending):
    """All tables, their storage and their connections: one object made of the parts
    above, each a concern of its own."""
