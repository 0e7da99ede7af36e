"""The Gymnasium environment as training code meets it: every kind of opponent through
``gymnasium.make`` (a level, a Bot object, a per-seat list, a policy over indices, a copy
of the learner for self-play), and ``gymnasium.make_vec`` in sync and async modes with each
autoreset mode, its masks checked against the engine's legal actions at every step."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from rummykit.bots import make_bot  # noqa: E402
from rummykit.engine.actions import Action  # noqa: E402
from rummykit.engine.views import View  # noqa: E402
from rummykit.rl import ENV_ID, SingleAgentEnv  # noqa: E402

from .test_rl import _reference_mask  # noqa: E402


class CountingBot:
    """A Bot of the test's own: the first legal action, and a count of its moves."""

    name = "first"

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, view: View, rng: random.Random) -> Action:
        self.moves += 1
        return view.legal_actions[0]


class LowestIndex:
    """A policy over indices: the lowest index the mask allows (it remembers what it saw)."""

    def __init__(self) -> None:
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.seen.append((observation, mask))
        return int(np.flatnonzero(mask)[0])


def play_episode(env: Any, seed: int) -> tuple[float, dict[str, Any]]:
    """One episode of random masked actions; the total reward and the last info."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = terminated or truncated
    return total, info


def test_a_bot_object_plays_every_other_seat_through_make() -> None:
    bot = CountingBot()
    e = gymnasium.make(ENV_ID, rules="classic", players=3, opponents=bot)
    play_episode(e, 1)
    game = e.unwrapped.game
    assert game.deal.is_over
    others = sum(1 for seat, _ in game.deal.moves if seat != 0)
    assert bot.moves == others > 0


def test_one_opponent_per_seat_of_every_kind() -> None:
    """A level, a Bot object and a policy, one for each of three other seats, in the order
    of play from the learner's left."""
    bot, policy = CountingBot(), LowestIndex()
    e = gymnasium.make(ENV_ID, rules="basic", players=4, seat=1,
                       opponents=["random", bot, policy])
    assert [type(p).__name__ for _, p in sorted(e.unwrapped.bots.items())] == \
        ["LowestIndex", "RandomBot", "CountingBot"]
    play_episode(e, 2)
    moves = e.unwrapped.game.deal.moves
    assert bot.moves == sum(1 for seat, _ in moves if seat == 3)
    assert policy.seen, "the policy's seat never moved"
    for observation, mask in policy.seen:
        assert observation.shape == e.observation_space.shape
        assert mask.any()


def test_a_policy_plays_from_its_own_seats_observation() -> None:
    """The policy of seat 1 is shown seat 1's observation and mask: its mask is the
    engine's legal actions for that seat at that moment."""
    masks: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        masks.append((mask, _reference_mask(e.game, "player_1")))
        return int(np.flatnonzero(mask)[-1])

    e = SingleAgentEnv("classic", 2, opponents=policy)
    play_episode(e, 3)
    assert masks
    for mask, reference in masks:
        assert np.array_equal(mask, reference)


def test_self_play_against_a_copy_of_the_learner() -> None:
    """A learner's policy (here a fixed linear scorer of the observation) plays the other
    seat too: the same function, asked from each seat's own view."""
    e0 = SingleAgentEnv("classic", 2)
    weights = np.random.default_rng(0).standard_normal(
        (e0.action_space.n, e0.observation_space.shape[0])).astype(np.float32)

    def learner(observation: np.ndarray, mask: np.ndarray) -> int:
        scores = weights @ observation.astype(np.float32)
        scores[mask == 0] = -np.inf
        return int(np.argmax(scores))

    e = gymnasium.make(ENV_ID, rules="classic", players=2, opponents=learner)
    obs, info = e.reset(seed=4)
    done = False
    while not done:
        obs, _reward, done, _truncated, info = e.step(learner(obs, info["action_mask"]))
    assert e.unwrapped.game.deal.is_over


def test_a_policy_that_breaks_its_mask_is_named() -> None:
    e = SingleAgentEnv("classic", 2,
                       opponents=lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    refusal = r"policy of seat 1 chose index \d+, which its action mask does not allow"
    with pytest.raises(ValueError, match=refusal):
        play_episode(e, 5)


@pytest.mark.parametrize("opponents, message", [
    (42, "int is neither an opponent nor a list of them"),
    (["random", 3.5], "opponent 2: float is not an opponent"),
    (["random", "random", "random"], "3 opponents for the 2 other seats"),
])
def test_what_is_no_opponent_is_refused(opponents: object, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        gymnasium.make(ENV_ID, rules="classic", players=3, opponents=opponents)


def test_the_mask_at_an_episodes_end_allows_every_index() -> None:
    """No action is legal once the deal is over, but a vector environment that resets on
    the next step asks for one (and does not play it): every index is allowed then."""
    e = SingleAgentEnv("classic", 2, opponents="random")
    _total, info = play_episode(e, 6)
    assert info["action_mask"].all() and e.action_masks().all()


MODES = [(vector, autoreset) for vector in ("sync", "async")
         for autoreset in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP,
                           AutoresetMode.DISABLED)]


@pytest.mark.parametrize("vector, autoreset", MODES, ids=[f"{v}-{a.value}" for v, a in MODES])
def test_make_vec_samples_masked_actions_across_resets(vector: str,
                                                        autoreset: AutoresetMode) -> None:
    """Random masked actions through ``make_vec``: the mask always allows an index, and
    (in sync mode, where the sub-environments can be read) a deal in play has the
    engine's legal actions as its mask. 10,000 steps in all over the six modes' runs of
    the sync vector (2,000 each) and the async ones (1,000 each, in processes)."""
    n = 4
    steps = 500 if vector == "sync" else 250
    v = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode=vector,
                           vector_kwargs={"autoreset_mode": autoreset},
                           rules="basic", players=2, opponents="random")
    try:
        rng = np.random.default_rng(7)
        _obs, info = v.reset(seed=7)
        ended = np.zeros(n, dtype=bool)
        episodes = 0
        for _ in range(steps):
            masks = info["action_mask"]
            assert masks.shape == (n, v.single_action_space.n)
            assert masks.any(axis=1).all(), "a sub-environment allows no index"
            if vector == "sync":
                for i, sub in enumerate(v.envs):
                    single = sub.unwrapped
                    if not single.game.terminations.get(single.agent, True):
                        assert np.array_equal(masks[i], _reference_mask(single.game, single.agent))
            actions = np.array([rng.choice(np.flatnonzero(masks[i])) for i in range(n)])
            _obs, _rewards, terminated, truncated, info = v.step(actions)
            ended = terminated | truncated
            episodes += int(ended.sum())
            if autoreset == AutoresetMode.DISABLED and ended.any():
                # Only the ended ones are reset; the others keep the step's mask.
                stepped = info["action_mask"]
                _obs, info = v.reset(options={"reset_mask": ended})
                info["action_mask"] = np.where(ended[:, None], info["action_mask"], stepped)
        assert episodes >= n, f"only {episodes} episodes ended in {steps} steps"
    finally:
        v.close()


def test_a_deal_the_bots_end_before_the_learners_first_move_is_reported_by_the_next_step(
) -> None:
    # Three cards each: a seat before the learner may go out in its first turn.
    env = SingleAgentEnv("basic(hand_size=3)", 4, opponents="random", seat=0)
    seed = next(s for s in range(5000)
                if env.reset(seed=s) and env.game.terminations[env.agent])
    assert np.all(env.action_masks() == 1)
    _obs, reward, terminated, truncated, _info = env.step(0)
    assert terminated and not truncated and reward < 0  # another seat went out
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step(0)
    vec = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync",
                             rules="basic(hand_size=3)", players=4, opponents="random")
    vec.reset(seed=[seed, seed])
    _obs, rewards, terminated, _, _ = vec.step(np.zeros(2, dtype=np.int64))
    assert list(terminated) == [True, True] and np.all(rewards < 0)


def test_a_match_pays_the_learner_every_deal_even_those_over_before_it_moved() -> None:
    """In a match episode, the rewards add up to every deal's payment to the learner,
    deals the bots ended before its first move included (three cards each make them
    common)."""
    from rummykit.rl import deal_rewards

    env = SingleAgentEnv("basic(hand_size=3)", 4, opponents="random", seat=3,
                         episode="match")
    rng = np.random.default_rng(0)
    early = 0
    for seed in range(470, 500):  # (483 ends a deal before the learner's first move)
        env.reset(seed=seed)
        early += env.game.match is not None and len(env.game.match.finished) > 0
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            _obs, reward, done, _trunc, _info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
        assert env.game.match is not None
        paid = sum(deal_rewards(d, "points", env.game.reward_scale)[3]
                   for d in env.game.match.finished)
        assert total == pytest.approx(paid), seed
    assert early  # some match had a deal over before the learner's first move


def test_the_learning_seat_is_never_played_by_an_opponent() -> None:
    e = SingleAgentEnv("basic", 3, opponents=[make_bot("random"), CountingBot()], seat=2)
    assert sorted(e.bots) == [0, 1]


# -- the batched environment (the vector entry point) -----------------------------------


def test_make_vec_gives_the_batched_environment_by_default() -> None:
    from rummykit.rl import VectorRummyEnv

    v = gymnasium.make_vec(ENV_ID, num_envs=3, rules="basic", players=3, opponents="random")
    assert isinstance(v.unwrapped, VectorRummyEnv)
    obs, info = v.reset(seed=1)
    assert obs.shape == (3, v.single_observation_space.shape[0]) and obs.dtype == np.float32
    assert info["action_mask"].shape == (3, v.single_action_space.n)
    v.close()


@pytest.mark.parametrize("autoreset", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP],
                         ids=lambda a: a.value)
def test_the_batch_plays_as_separate_environments_do(autoreset: AutoresetMode) -> None:
    """The batch and four separate environments, given the same seeds and the same
    actions, give the same observations, rewards, ends and masks at every step, across
    resets; each mask in play is the engine's legal actions."""
    from rummykit.rl import VectorRummyEnv

    n = 4
    batch = VectorRummyEnv(n, "classic", 2, opponents="random", autoreset_mode=autoreset)
    alone = [SingleAgentEnv("classic", 2, opponents="random") for _ in range(n)]
    obs, info = batch.reset(seed=11)
    pending = [False] * n
    for i, env in enumerate(alone):
        o, inf = env.reset(seed=11 + i)
        assert np.array_equal(obs[i], o) and np.array_equal(info["action_mask"][i],
                                                            inf["action_mask"])
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(600):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, info = batch.step(actions)
        for i, env in enumerate(alone):
            if pending[i]:
                o, inf = env.reset()
                r, term = 0.0, False
                pending[i] = False
            else:
                o, r, term, _trunc, inf = env.step(int(actions[i]))
                if term and autoreset == AutoresetMode.SAME_STEP:
                    assert np.array_equal(info["final_obs"][i], o)
                    o, inf = env.reset()
                elif term:
                    pending[i] = True
            assert np.array_equal(obs[i], o)
            assert (rewards[i], terminated[i]) == (r, term)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
            if not env.game.terminations.get(env.agent, True):
                assert np.array_equal(inf["action_mask"], _reference_mask(env.game, env.agent))
        assert not truncated.any()  # a deal always ends; nothing is cut short
        ends += int(terminated.sum())
    assert ends >= n


def test_the_batch_refuses_what_it_cannot_do() -> None:
    from rummykit.rl import VectorRummyEnv

    with pytest.raises(ValueError, match="num_envs must be at least 1"):
        VectorRummyEnv(0)
    with pytest.raises(ValueError, match="DISABLED"):
        VectorRummyEnv(2, opponents="random", autoreset_mode=AutoresetMode.DISABLED)
    v = VectorRummyEnv(2, opponents="random")
    with pytest.raises(ValueError, match="3 seeds for 2 deals"):
        v.reset(seed=[1, 2, 3])
