"""Replays for the viewer: every step of a record with all hands shown, as JSON, and the
cache of finished tables' replays."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from rummykit import record as records
from rummykit.cards import CARDS
from rummykit.engine.match import Match
from rummykit.errors import RecordError

__all__ = ["FrameCache", "frames", "frames_json"]


def frames(rec: records.Record) -> dict[str, Any]:
    """Every step of a record with all hands shown, for the replay viewer."""
    answer: dict[str, Any] = json.loads(frames_json(rec))
    return answer


def frames_json(rec: records.Record) -> bytes:
    """:func:`frames` as JSON. Each step is encoded as it is replayed, so that no tree of
    every step's objects is ever held at once (a 20,000-step record's answer is
    megabytes)."""
    out: list[str] = []

    def step(match: Match, deal_number: int, text: str | None) -> None:
        deal = match.deal
        out.append(json.dumps({
            "deal": deal_number, "action": text,
            "by": None if text is None else deal.last_mover,
            "to_move": deal.to_move, "phase": deal.phase, "dealer": deal.dealer,
            "hands": [[str(CARDS[c]) for c in sorted(h)] for h in deal.hands],
            "stock": len(deal.stock), "pile": [str(CARDS[c]) for c in deal.pile],
            "table": [{"cards": [str(CARDS[c]) for c in m.cards], "owner": m.owner}
                      for m in deal.table],
            "totals": list(match.totals),
            "result": None if deal.result is None else deal.result.to_json(),
        }))

    try:
        outcome = records.replay(rec, on_step=step)
        error = None
    except (records.ReplayError, RecordError) as err:
        outcome = None
        error = str(err)
    head = json.dumps({
        "players": rec.players, "rules": str(rec.rules), "error": error,
        "result": None if outcome is None else outcome.to_json()["result"], "frames": [],
    })
    # (the steps go in the empty list that ends the head)
    return "".join((head[:-2], ",".join(out), "]}")).encode()


class FrameCache:
    """Finished tables' replays as JSON, the most recently asked kept up to ``limit``
    bytes in all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.kept: OrderedDict[str, bytes] = OrderedDict()

    def get(self, table_id: str) -> bytes | None:
        found = self.kept.get(table_id)
        if found is not None:
            self.kept.move_to_end(table_id)
        return found

    def put(self, table_id: str, data: bytes) -> None:
        if len(data) > self.limit or table_id in self.kept:
            return
        self.kept[table_id] = data
        self.size += len(data)
        while self.size > self.limit:
            _, dropped = self.kept.popitem(last=False)
            self.size -= len(dropped)
