"""The Gymnasium environment: one learning seat, the other seats played by rummykit bots.

The observation is the seat's vector (:mod:`rummykit.rl.observation`); the legal indices
come as ``info["action_mask"]`` and from :meth:`SingleAgentEnv.action_masks` (the method
maskable learners such as sb3-contrib's ``MaskablePPO`` ask). The reward of a step is what
the seat earned from its action up to its next decision (deals end on the others' moves
too).

>>> from rummykit.rl import SingleAgentEnv
>>> e = SingleAgentEnv("classic", players=2, opponents="random")
>>> obs, info = e.reset(seed=3)
>>> obs.shape == e.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.bots import Bot, make_bot
from rummykit.engine.views import view
from rummykit.rl.aec import Episode, RewardKind, RummyEnv
from rummykit.rl.observation import Vector
from rummykit.rules import Rules

__all__ = ["Opponent", "Policy", "SingleAgentEnv"]

Mask: TypeAlias = npt.NDArray[np.int8]

Policy: TypeAlias = Callable[[Vector, Mask], int]
"""A policy over action indices: given a seat's observation vector and its action mask, an
index the mask allows. A trained network is one (wrapped in a function); so is a copy of
the learner itself, for self-play."""

Opponent: TypeAlias = "str | Bot | Policy"
"""Who plays a seat other than the learner's: a bot level (``"expert"``,
``"master(think=0.2)"``), a :class:`~rummykit.bots.Bot` object (anything with a
``choose(view, rng)`` method) or a :data:`Policy`."""


def _is_single(opponents: object) -> bool:
    """Whether ``opponents`` names one opponent (for every other seat) rather than one per
    seat."""
    return isinstance(opponents, str) or callable(getattr(opponents, "choose", None)) \
        or callable(opponents)


def _opponent(spec: object, where: str) -> Bot | Policy:
    """The bot or policy ``spec`` stands for (a level is made into its bot)."""
    if isinstance(spec, str):
        return make_bot(spec)
    if callable(getattr(spec, "choose", None)):
        bot: Bot = spec  # type: ignore[assignment]
        return bot
    if callable(spec):
        policy: Policy = spec
        return policy
    raise TypeError(f"{where}: {type(spec).__name__} is not an opponent; give a bot level "
                    "such as 'expert', a Bot (an object with choose(view, rng)) or a "
                    "policy (a function of an observation and an action mask that "
                    "returns an index)")


class SingleAgentEnv(gymnasium.Env[Vector, np.int64]):
    """Rummy for one learning seat against rummykit bots.

    ``opponents``: one :data:`Opponent` for every other seat (a level such as ``"expert"``,
    options included, a :class:`~rummykit.bots.Bot` object, or a :data:`Policy` over
    indices such as a copy of the learner for self-play), or a list of one per other
    seat, clockwise from the learner's left. ``seat``: the learner's seat. ``episode``,
    ``reward``: as for :class:`~rummykit.rl.aec.RummyEnv`. An index the mask does not allow
    ends the episode with ``illegal_reward`` (and ``info["illegal"]``), as in PettingZoo's
    classic environments; once the episode is over the mask allows every index (see
    :meth:`action_masks`). A deal that the bots end before the learner's first move is
    reported by the next step (terminated, with its reward), whatever index it is given.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (as Env)

    def __init__(
        self, rules: str | Rules = "classic", players: int = 2,
        opponents: Opponent | Sequence[Opponent] = "expert", *, seat: int = 0,
        episode: Episode = "deal", reward: RewardKind = "points",
        render_mode: str | None = None, seed: int | None = None, illegal_reward: float = -1.0,
    ) -> None:
        self.game = RummyEnv(rules, players, None, seed, episode=episode, reward=reward)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: the modes are 'ansi' and 'human'")
        self.render_mode = render_mode
        self.seat = seat
        self.agent = self.game.possible_agents[seat]
        if _is_single(opponents):
            specs: list[object] = [opponents] * (players - 1)
        elif isinstance(opponents, Sequence):
            specs = list(opponents)
        else:
            raise TypeError(f"opponents: {type(opponents).__name__} is neither an opponent "
                            "nor a list of them")
        if len(specs) != players - 1:
            raise ValueError(f"{len(specs)} opponents for the {players - 1} other seats")
        self.bots: dict[int, Bot | Policy] = {
            (seat + 1 + i) % players: _opponent(spec, f"opponent {i + 1}")
            for i, spec in enumerate(specs)}
        space = self.game.observation_space(self.agent)
        assert isinstance(space, spaces.Dict)
        box = space["observation"]
        assert isinstance(box, spaces.Box)
        self.observation_space = box
        self.action_space = spaces.Discrete(self.game.codec.size)
        self._rng = random.Random(seed)
        self.illegal_reward = float(illegal_reward)
        self._illegal = False
        self._early = False
        self._carried = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.game.reset(seed=self._rng.getrandbits(48))
        self._illegal = False
        self._play_others()
        # The bots may end the deal before the learner's first move (a rummy in the first
        # turns): the next step reports it, whatever index it is given.
        self._early = self.game.terminations.get(self.agent, False)
        # In a match, deals the bots ended before it (paid, the match going on) are part of
        # the learner's first reward.
        self._carried = 0.0 if self._early else float(
            self.game._cumulative_rewards.get(self.agent, 0.0))
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int,
    ) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._early:  # the deal ended before the learner's first move: reported now
            self._early = False
            return (self._observation(), float(game._cumulative_rewards[self.agent]), True,
                    False, self._info())
        if game.terminations.get(self.agent, True) or self._illegal:
            raise RuntimeError("the episode is over: reset() the environment")
        index = int(action)
        if not (0 <= index < game.codec.size and self.action_masks()[index]):
            # As PettingZoo's classic environments do: the episode ends, the learner pays.
            self._illegal = True
            return (self._observation(), self.illegal_reward, True, False,
                    {**self._info(), "illegal": True})
        game.step(index)
        self._play_others()
        reward = float(game._cumulative_rewards[self.agent]) + self._carried
        self._carried = 0.0
        terminated = game.terminations[self.agent]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> Mask:
        """The legal indices of the learner's next action (1 legal, 0 not).

        Once the episode is over every index is allowed: no action is legal any more, but
        a vector environment that resets on the next step (Gymnasium's ``NEXT_STEP``
        autoreset) still asks for one, which it does not play, and a masked sampler needs
        one index at least to draw from."""
        if self._illegal or self.game.terminations.get(self.agent, True):
            return np.ones(self.game.codec.size, dtype=np.int8)
        return self.game.observe(self.agent)["action_mask"].copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _observation(self) -> Vector:
        obs: Vector = self.game.observe(self.agent)["observation"].copy()
        return obs

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _play_others(self) -> None:
        """The bots' moves until it is the learner's turn or the episode ends."""
        game = self.game
        while not game.terminations.get(self.agent, True) and game.agent_selection != self.agent:
            assert game.match is not None
            seat = game.deal.to_move
            player = self.bots[seat]
            if callable(getattr(player, "choose", None)):
                bot: Bot = player  # type: ignore[assignment]
                action = bot.choose(view(game.match, seat), self._rng)
                for index in game.codec.steps(action):
                    game.step(index)
                continue
            policy: Policy = player  # type: ignore[assignment]
            agent = game.agent_selection
            seen = game.observe(agent)
            mask = seen["action_mask"]
            index = int(policy(seen["observation"].copy(), mask.copy()))
            if not (0 <= index < game.codec.size and mask[index]):
                raise ValueError(f"the policy of seat {seat} chose index {index}, which its "
                                 "action mask does not allow")
            game.step(index)
