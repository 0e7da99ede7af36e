"""Reinforcement learning: Rummy under any rules object as a PettingZoo and a Gymnasium
environment (the ``rl`` extra: ``pip install 'rummykit[rl]'``).

- :func:`env` / :class:`RummyEnv`: the PettingZoo AEC environment, every seat an agent.
- :class:`SingleAgentEnv`: the Gymnasium environment, one seat learning against bots,
  registered as ``rummykit/Rummy-v0`` (``gymnasium.make("rummykit/Rummy-v0",
  rules="ramino", players=4)`` once this package is imported).
- :class:`VectorRummyEnv`: many deals stepped in one call, arrays in and out (the
  environment's vector entry point: ``gymnasium.make_vec("rummykit/Rummy-v0",
  num_envs=N)``).
- :class:`BatchedRummyEnv`: many deals as NumPy arrays against the ``random`` bot, each
  rule one array operation over the whole batch, for ``classic``, ``basic``,
  ``one-deal`` and ``limited-stock`` (``gymnasium.make_vec("rummykit/RummyArrays-v0",
  num_envs=1024)``), and
  :func:`sample_masked`, a masked uniform index for every row of a batch.
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
from rummykit.rl.batched import BatchedRummyEnv, sample_masked
from rummykit.rl.evaluate import Evaluation, evaluate
from rummykit.rl.observation import Encoder, Layout
from rummykit.rl.policy import PolicyBot
from rummykit.rl.single import Opponent, Policy, SingleAgentEnv
from rummykit.rl.vector import VectorRummyEnv

__all__ = [
    "ARRAYS_ENV_ID",
    "ENV_ID",
    "ActionCodec",
    "BatchedRummyEnv",
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
    "sample_masked",
]

ENV_ID = "rummykit/Rummy-v0"
"""The Gymnasium id of :class:`SingleAgentEnv`."""

ARRAYS_ENV_ID = "rummykit/RummyArrays-v0"
"""The Gymnasium id whose vector is :class:`BatchedRummyEnv` (its single environment:
:class:`SingleAgentEnv` against ``random``)."""

raw_env = RummyEnv
"""The environment without PettingZoo's wrappers (PettingZoo's usual name for it)."""

for _id, _vector, _opponents in (
    (ENV_ID, "rummykit.rl.vector:VectorRummyEnv", "expert"),
    (ARRAYS_ENV_ID, "rummykit.rl.batched:BatchedRummyEnv", "random"),
):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="rummykit.rl.single:SingleAgentEnv",
            vector_entry_point=_vector,
            kwargs={"rules": "classic", "players": 2, "opponents": _opponents},
        )
