"""The random bot: a uniformly random legal action at every decision."""

from __future__ import annotations

import random

from rummykit.engine.actions import Action
from rummykit.engine.views import View

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a legal action chosen uniformly at random."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        actions = view.legal_actions
        if not actions:
            raise ValueError("it is not this bot's turn: the view offers no legal action")
        return actions[rng.randrange(len(actions))]
