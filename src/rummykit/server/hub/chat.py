"""The table's chat."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import Any

from rummykit.limits import (
    CHAT_KEPT,
    CHAT_LENGTH,
)
from rummykit.names import printable_name
from rummykit.server.hub.base import (
    HubCore,
)
from rummykit.server.hub.errors import HubError
from rummykit.server.hub.table import (
    Table,
    encodable,
)


class Chat(HubCore):
    """The table's chat (a part of :class:`Hub`: see the module)."""

    async def say(self, table: Table, seat: int, text: object) -> None:
        """``seat``'s person says ``text`` at the table: everyone connected hears it,
        spectators too (a page shows it as text, never as markup)."""
        if not isinstance(text, str) or not text.strip():
            raise HubError("a chat message needs some text", code="chat-empty")
        text = text.strip()
        if len(text) > CHAT_LENGTH:
            raise HubError(f"a chat message is at most {CHAT_LENGTH} characters",
                           code="chat-long", params={"n": CHAT_LENGTH})
        if not encodable(text) or not printable_name(text):
            raise HubError("a chat message may not hold control, invisible or "
                           "direction-changing characters", code="chat-text")
        message = {"type": "chat", "seat": seat, "name": table.seats.names[seat], "text": text,
                   "at": datetime.now(UTC).isoformat(timespec="seconds")}
        await self.announce(table, "chat", m=message)
        await self._heard_chat(table, message)

    async def _heard_chat(self, table: Table, message: dict[str, Any]) -> None:
        table.chat.messages = [*table.chat.messages[-(CHAT_KEPT - 1):], message]
        for send in table.presence.everyone():
            with contextlib.suppress(Exception):
                await send(message)

    def chat_log(self, table: Table) -> dict[str, Any]:
        """The chat so far, for a connection that has just come."""
        return {"type": "chat-log", "messages": table.chat.messages}
