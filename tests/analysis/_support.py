"""Records of matches between bots, for the review's tests (seeded: the same each run)."""

from __future__ import annotations

import random

from rummykit.bots import make_bot
from rummykit.engine import Match
from rummykit.engine.views import view
from rummykit.record import Record, from_match
from rummykit.rules import preset


def played(rules: str = "one-deal", bots: tuple[str, str] = ("greedy", "random"),
           seed: int = 3, names: tuple[str, str] = ("Anna", "Bruno")) -> Record:
    """The record of a whole match between two bots."""
    match = Match(preset(rules), players=list(names), seed=seed)
    players = [make_bot(b) for b in bots]
    rngs = [random.Random(seed * 10 + seat) for seat in range(2)]
    while not match.is_over:
        seat = match.deal.to_move
        match.apply(players[seat].choose(view(match, seat), rngs[seat]))
    return from_match(match)
