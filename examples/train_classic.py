"""A small learner for ``classic``, 2 players, against random play: a linear softmax
policy over the legal indices, trained by REINFORCE with a running baseline, in NumPy
alone (no deep-learning library; one CPU core, under two minutes for 4,000 deals).

The learner is ``player_0`` of ``rummykit.rl.raw_env("classic", 2)``; the other seat
draws uniformly among its legal indices. Every ``--report`` deals it prints the mean
reward of the last ones (a deal's points, zero-sum, per 100 points) and how often it won
the deal. With the policy frozen, before training and after, it plays ``--eval`` new
deals against random play (and after training against the greedy bot too) and prints
the share of deals won and the mean reward, each with a 95% confidence interval, and how
long the training took. (A deal can end with nobody out: won is a reward above 0.)

    python examples/train_classic.py --episodes 4000 --plot curve.png

``--plot`` draws the learning curve with matplotlib (installed apart: it is no dependency
of rummykit).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import numpy.typing as npt

import rummykit.rl as rl
from rummykit.bots import Bot, make_bot
from rummykit.engine.views import view

Vector = npt.NDArray[np.float32]
Step = tuple[Vector, npt.NDArray[np.intp], int, npt.NDArray[np.float64]]


class Learner:
    """logits[a] = w[a] . observation + b[a], over the legal indices only."""

    def __init__(self, actions: int, features: int, rate: float) -> None:
        self.w = np.zeros((actions, features), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.rate = rate
        self.baseline = 0.0

    def probabilities(self, obs: Vector, legal: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        logits = (self.w[legal] @ obs + self.b[legal]).astype(np.float64)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def learn(self, steps: list[Step], reward: float) -> None:
        """One REINFORCE update: every decision of the deal pushed towards its choice in
        proportion to how much better than usual the deal went."""
        advantage = reward - self.baseline
        self.baseline += 0.02 * advantage
        size = self.rate * advantage / math.sqrt(max(1, len(steps)))
        for obs, legal, chosen, p in steps:
            g = -p
            g[chosen] += 1.0
            self.w[legal] += (size * np.outer(g, obs)).astype(np.float32)
            self.b[legal] += (size * g).astype(np.float32)


def play(env: rl.RummyEnv, learner: Learner, rng: np.random.Generator, *,
         opponent: Bot | None = None, learn: bool = True) -> float:
    """One deal; the learner's reward. ``opponent``: a bot, or None for random play."""
    env.reset(seed=int(rng.integers(2**31)))
    steps: list[Step] = []
    bot_rng = random.Random(int(rng.integers(2**31)))
    earned = 0.0
    while not any(env.terminations.values()):
        agent = env.agent_selection
        obs = env.observe(agent)
        legal = np.flatnonzero(obs["action_mask"])
        if agent == "player_0":
            p = learner.probabilities(obs["observation"], legal)
            k = int(rng.choice(len(legal), p=p))
            if learn:
                steps.append((obs["observation"], legal, k, p))
            env.step(int(legal[k]))
        elif opponent is None:
            env.step(int(rng.choice(legal)))
        else:
            assert env.match is not None
            action = opponent.choose(view(env.match, env.deal.to_move), bot_rng)
            for index in env.codec.steps(action):
                env.step(index)
        earned += env.rewards["player_0"]
    if learn:
        learner.learn(steps, earned)
    return earned


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--report", type=int, default=500)
    parser.add_argument("--eval", type=int, default=400)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the learning curve to this PNG file")
    args = parser.parse_args()

    env = rl.RummyEnv("classic", 2)
    features = env.encoder.layout.size
    learner = Learner(env.codec.size, features, args.rate)
    rng = np.random.default_rng(args.seed)
    report(env, learner, rng, "before training, against random", None, args.eval)
    start = time.perf_counter()
    rewards: list[float] = []
    print("  deals  mean reward  deals won   (the last block, against random play)")
    for n in range(1, args.episodes + 1):
        rewards.append(play(env, learner, rng))
        if n % args.report == 0:
            block = rewards[-args.report:]
            won = sum(r > 0 for r in block) / len(block)
            print(f"{n:7d}  {sum(block) / len(block):+11.3f}  {won:9.1%}", flush=True)
    seconds = time.perf_counter() - start
    print(f"trained on {args.episodes} deals in {seconds:.0f} s")
    if args.plot:
        plot(rewards, args.report, args.plot, seconds)
    report(env, learner, rng, "trained, against random", None, args.eval)
    report(env, learner, rng, "trained, against greedy", make_bot("greedy"), args.eval)


def plot(rewards: list[float], block: int, path: str, seconds: float) -> None:
    """The mean reward of each block of deals, against the deals played."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ends = list(range(block, len(rewards) + 1, block))
    means = [sum(rewards[end - block:end]) / block for end in ends]
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    ax.plot(ends, means, marker="o")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("deals played")
    ax.set_ylabel(f"mean reward of the last {block}")
    ax.set_title(f"classic, 2 players, against random play ({seconds:.0f} s on one core)")
    fig.tight_layout()
    fig.savefig(path)


def report(env: rl.RummyEnv, learner: Learner, rng: np.random.Generator, title: str,
           opponent: Bot | None, deals: int) -> None:
    """Play ``deals`` deals with the policy frozen and print how they went."""
    results = [play(env, learner, rng, opponent=opponent, learn=False) for _ in range(deals)]
    mean, half = interval(results)
    won, won_half = interval([float(r > 0) for r in results])
    print(f"{title}: deals won {won:.1%} ± {won_half:.1%}, "
          f"mean reward {mean:+.3f} ± {half:.3f} ({deals} deals)", flush=True)


if __name__ == "__main__":
    main()
