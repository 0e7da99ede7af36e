"""A policy over the RL actions, playing as a bot: :class:`PolicyBot`.

A trained agent is a :data:`~rummykit.rl.single.Policy`: a function of a seat's
observation vector and action mask that returns an index. :class:`PolicyBot` makes one a
:class:`~rummykit.bots.Bot`, so it plays wherever a bot plays: a local game, the
simulator, or a server's table (``rummykit.remote.play_at``). It encodes the bot's view as
the environments encode the seat's observation, asks the policy, and where the index
starts a meld, asks again card by card (the same observations and masks as the
environment's meld steps) until the meld is laid.

>>> import numpy as np
>>> from rummykit.engine import Match
>>> from rummykit.engine.views import view
>>> from rummykit.rules import preset
>>> first = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> bot = PolicyBot(first, preset("classic"), 2)
>>> match = Match(preset("classic"), players=2, seed=1)
>>> str(bot.choose(view(match, match.deal.to_move), None))
'draw stock'
"""

from __future__ import annotations

import random

import numpy as np

from rummykit.engine.actions import Action
from rummykit.engine.views import View
from rummykit.rl.actions import LAY_MELD, MELD_CARD, ActionCodec, MeldChoice
from rummykit.rl.observation import Encoder
from rummykit.rl.single import Mask, Policy
from rummykit.rules import Rules

__all__ = ["PolicyBot"]


class PolicyBot:
    """``policy`` as a bot, for ``rules`` and ``players`` (those it was trained on: the
    observation's size depends on them)."""

    def __init__(self, policy: Policy, rules: Rules, players: int, *,
                 name: str = "policy") -> None:
        self.policy = policy
        self.rules = rules
        self.players = players
        self.name = name
        self.codec = ActionCodec(rules)
        self.encoder = Encoder(rules, players)

    def choose(self, view: View, rng: random.Random | None) -> Action:
        """The policy's action for ``view`` (``rng`` is not used: the policy is its own)."""
        if view.rules != self.rules or len(view.names) != self.players:
            raise ValueError(f"this policy plays {self.rules} with {self.players} players, "
                             f"not {view.rules} with {len(view.names)}")
        legal = list(view.legal_actions)
        if not legal:
            raise ValueError("it is not this seat's move: the view has no legal actions")
        seen = view.sight()
        mask: Mask = np.zeros(self.codec.size, dtype=np.int8)
        mask[self.codec.indices(legal)] = 1
        choosing: tuple[int, ...] = ()
        melds: MeldChoice | None = None
        while True:
            index = int(self.policy(self.encoder.encode(seen, choosing), mask.copy()))
            if not (0 <= index < self.codec.size and mask[index]):
                raise ValueError(f"the policy chose index {index}, which its action mask "
                                 "does not allow")
            if index == LAY_MELD:
                return Action("meld", choosing)
            if not MELD_CARD <= index < LAY_MELD:
                found = self.codec.action(index)
                assert found is not None
                return found
            if melds is None:
                melds = MeldChoice([a.cards for a in legal if a.kind == "meld"])
            choosing += (index - MELD_CARD,)
            mask = np.zeros(self.codec.size, dtype=np.int8)
            for card in melds.next_cards(choosing):
                mask[MELD_CARD + card] = 1
            if melds.is_meld(choosing):
                mask[LAY_MELD] = 1
