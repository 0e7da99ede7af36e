"""A policy as a bot (``rummykit.rl.PolicyBot``): it plays exactly as the same policy does
inside the environment.

The check is the environment itself: a deterministic policy that reads its observation
(a hash of the vector picks one of the allowed indices) plays whole episodes of the
PettingZoo environment at every seat; the same policy as a bot, given only each seat's
view, plays a match of the same seed. Every observation and mask the bot gives the policy
must be the environment's, or the picks, and so the games, part.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit.engine import Match
from rummykit.engine.views import view
from rummykit.rl import PolicyBot, raw_env
from rummykit.rules import PRESETS


def reader(observation: np.ndarray, mask: np.ndarray) -> int:
    """An allowed index that depends on every entry of the observation."""
    allowed = np.flatnonzero(mask)
    weights = np.arange(1, observation.size + 1, dtype=np.float64)
    return int(allowed[int(abs(float(observation @ weights)) * 1000) % len(allowed)])


@pytest.mark.parametrize("preset", ["classic", "ramino", "rummy500"])
def test_the_bot_plays_as_the_policy_does_in_the_environment(preset: str) -> None:
    bot = PolicyBot(reader, PRESETS[preset], 2)
    melds = 0
    for episode in range(4):
        env = raw_env(rules=preset, players=2, episode="deal")
        env.reset(seed=episode)
        assert env.match is not None
        seed = env.match.seed
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            env.step(None if terminated or truncated else reader(obs["observation"],
                                                                 obs["action_mask"]))
        played = [str(a) for _s, a in env.match.finished[0].moves]

        match = Match(PRESETS[preset], players=2, seed=seed)
        mine = []
        while match.deal_number == 1 and not match.is_over:
            action = bot.choose(view(match, match.deal.to_move), None)
            mine.append(str(action))
            match.push(action)
        assert mine == played
        melds += sum(a.startswith("meld") for a in played)
    assert melds > 0  # (the meld steps were played through the bot too)


def test_a_policy_that_breaks_its_mask_or_the_wrong_game_is_refused() -> None:
    match = Match(PRESETS["classic"], players=2, seed=1)
    v = view(match, match.deal.to_move)
    with pytest.raises(ValueError, match="does not allow"):
        PolicyBot(lambda o, m: int(np.flatnonzero(m == 0)[0]), PRESETS["classic"], 2).choose(
            v, random.Random())
    with pytest.raises(ValueError, match="with 3 players"):
        PolicyBot(reader, PRESETS["classic"], 3).choose(v, None)
    with pytest.raises(ValueError, match="not this seat's move"):
        PolicyBot(reader, PRESETS["classic"], 2).choose(view(match, 1 - match.deal.to_move),
                                                        None)
