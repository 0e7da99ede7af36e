"""Reinforcement learning: Rummy under any rules object as a PettingZoo and a Gymnasium
environment (the ``rl`` extra: ``pip install 'rummykit[rl]'``).

- :func:`env` / :class:`RummyEnv`: the PettingZoo AEC environment, every seat an agent.
- :class:`SingleAgentEnv`: the Gymnasium environment, one seat learning against bots,
  registered as ``rummykit/Rummy-v0`` (``gymnasium.make("rummykit/Rummy-v0",
  rules="ramino", players=4)`` once this package is imported).
- :class:`VectorRummyEnv`: many deals stepped in one call, arrays in and out (the
  environment's vector entry point: ``gymnasium.make_vec("rummykit/Rummy-v0",
  num_envs=N)``).
- :func:`evaluate`: the evaluation protocol (a policy against a bot level on seat-swapped
  deals, deals won and points per deal with 95% intervals), the way to report results.
- :class:`PolicyBot`: a policy as a bot, to play wherever bots play (a local game, the
  simulator, a server's table with ``rummykit.remote.play_at``).
- :class:`ActionCodec` and :class:`Encoder`: the action indices and the observation
  vector, documented in docs/rl.md.
"""

from __future__ import annotations

import gymnasium

from rummykit.rl.actions import ActionCodec, max_table_melds
from rummykit.rl.aec import RummyEnv, deal_rewards, env, match_rewards, resolve_rules
from rummykit.rl.evaluate import Evaluation, evaluate
from rummykit.rl.observation import Encoder, Layout
from rummykit.rl.policy import PolicyBot
from rummykit.rl.single import Opponent, Policy, SingleAgentEnv
from rummykit.rl.vector import VectorRummyEnv

__all__ = [
    "ENV_ID",
    "ActionCodec",
    "Encoder",
    "Evaluation",
    "Layout",
    "Opponent",
    "Policy",
    "PolicyBot",
    "RummyEnv",
    "SingleAgentEnv",
    "VectorRummyEnv",
    "deal_rewards",
    "env",
    "evaluate",
    "match_rewards",
    "max_table_melds",
    "raw_env",
    "resolve_rules",
]

ENV_ID = "rummykit/Rummy-v0"
"""The Gymnasium id of :class:`SingleAgentEnv`."""

raw_env = RummyEnv
"""The environment without PettingZoo's wrappers (PettingZoo's usual name for it)."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="rummykit.rl.single:SingleAgentEnv",
        vector_entry_point="rummykit.rl.vector:VectorRummyEnv",
        kwargs={"rules": "classic", "players": 2, "opponents": "expert"},
    )
