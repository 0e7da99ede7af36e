"""A batch of deals as one Gymnasium vector environment: one call steps every deal.

``VectorRummyEnv(num_envs, rules, players, opponents, ...)`` holds ``num_envs``
:class:`~rummykit.rl.single.SingleAgentEnv` deals in one process and answers with arrays:
observations ``(num_envs, D)`` float32, rewards, terminations and truncations
``(num_envs,)``, and the masks as one ``(num_envs, n)`` int8 array in
``infos["action_mask"]``. It is the environment's vector entry point, so
``gymnasium.make_vec("rummykit/Rummy-v0", num_envs=N)`` gives it (``vectorization_mode=
"sync"`` or ``"async"`` give Gymnasium's own vectors of single environments).

Autoreset as Gymnasium's vectors do: with ``autoreset_mode=AutoresetMode.NEXT_STEP`` (the
default) a deal that ended is dealt again on the next call and its action there is not
played; with ``SAME_STEP`` it is dealt again at once, the ended deal's observation in
``infos["final_obs"]`` and ``infos["_final_obs"]`` marking which. A deal that ended allows
every index until it is dealt again (see :meth:`SingleAgentEnv.action_masks`).

>>> import numpy as np
>>> v = VectorRummyEnv(3, "classic", 2, opponents="random")
>>> obs, infos = v.reset(seed=1)
>>> obs.shape[0], infos["action_mask"].shape[0]
(3, 3)
>>> actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
>>> obs, rewards, terminated, truncated, infos = v.step(actions)
>>> rewards.dtype, terminated.shape
(dtype('float64'), (3,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rummykit.rl.aec import Episode, RewardKind
from rummykit.rl.single import Opponent, SingleAgentEnv
from rummykit.rules import Rules

__all__ = ["VectorRummyEnv"]

Array = npt.NDArray[Any]


class VectorRummyEnv(VectorEnv[Array, Array, Array]):
    """``num_envs`` deals against the same opponents, stepped together (see the module's
    description). The other arguments are :class:`SingleAgentEnv`'s."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (as VectorEnv)

    def __init__(
        self, num_envs: int = 1, rules: str | Rules = "classic", players: int = 2,
        opponents: Opponent | Sequence[Opponent] = "expert", *, seat: int = 0,
        episode: Episode = "deal", reward: RewardKind = "points",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode DISABLED: use make_vec's sync or async "
                             "vectors, which reset only the deals asked for")
        self.envs = [SingleAgentEnv(rules, players, opponents, seat=seat, episode=episode,
                                    reward=reward, illegal_reward=illegal_reward)
                     for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self._size = int(self.single_action_space.n)
        self._ended = np.zeros(num_envs, dtype=bool)
        width = int(np.prod(first.observation_space.shape or (0,)))
        self._obs = np.zeros((num_envs, width), dtype=np.float32)
        self._masks = np.zeros((num_envs, self._size), dtype=np.int8)

    def reset(
        self, *, seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Array, dict[str, Any]]:
        """Deal every deal again (deal ``i`` from ``seed + i``, or from ``seed[i]``)."""
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} deals")
            seeds = list(seed)
        for i, env in enumerate(self.envs):
            self._obs[i], info = env.reset(seed=seeds[i])
            self._masks[i] = info["action_mask"]
        self._ended[:] = False
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Array,
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        chosen = np.asarray(actions).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        illegal = np.zeros(self.num_envs, dtype=bool)
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        final_obs: list[Array | None] = [None] * self.num_envs
        for i, env in enumerate(self.envs):
            if self._ended[i]:  # NEXT_STEP: dealt again, the action not played
                self._obs[i], info = env.reset()
                self._masks[i] = info["action_mask"]
                self._ended[i] = False
                continue
            obs, reward, term, trunc, info = env.step(int(chosen[i]))
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
            illegal[i] = bool(info.get("illegal", False))
            if term or trunc:
                if same_step:
                    final_obs[i] = obs
                    obs, info = env.reset()
                else:
                    self._ended[i] = True
            self._obs[i] = obs
            self._masks[i] = info["action_mask"]
        infos: dict[str, Any] = {"action_mask": self._masks.copy()}
        if illegal.any():
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        if same_step and (terminated | truncated).any():
            ended = terminated | truncated
            infos["final_obs"] = np.array(final_obs, dtype=object)
            infos["_final_obs"] = ended
        return self._obs.copy(), rewards, terminated, truncated, infos

    def action_masks(self) -> Array:
        """Every deal's legal indices, one row each (as maskable learners ask)."""
        return self._masks.copy()
