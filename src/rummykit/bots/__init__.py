"""Computer players, all behind one small interface: :class:`Bot`.

A bot is given its seat's :class:`~rummykit.views.View` (which holds the legal actions)
and its own seeded random generator, and returns one of the legal actions. It sees
nothing the view does not hold.
"""

from __future__ import annotations

import random
from typing import Protocol

from rummykit.engine.actions import Action
from rummykit.views import View

__all__ = ["BOTS", "Bot", "make_bot"]


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        ...


def make_bot(level: str) -> Bot:
    """The bot of this level; an unknown level is an error that lists them."""
    try:
        factory = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot {level!r}; the bots are: {', '.join(BOTS)}") from None
    return factory()


from rummykit.bots.expert import ExpertBot  # noqa: E402  (the registry needs Bot first)
from rummykit.bots.greedy import GreedyBot  # noqa: E402
from rummykit.bots.random import RandomBot  # noqa: E402

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
"""Every bot level, weakest first."""
