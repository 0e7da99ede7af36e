"""A maskable PPO agent (sb3-contrib, CPU) for ``classic``, 2 players, against random play.

The agent is the learning seat of ``rummykit.rl.SingleAgentEnv("classic", 2,
opponents="random")``: one deal per episode, the deal's points as its reward (zero-sum,
per 100 points), the action mask from the environment's ``action_masks()``, which
MaskablePPO reads. Before training and after, it plays ``--eval`` new deals against
random play and against the greedy bot, and prints the share of deals won (a reward above
0; a deal can end with nobody out) and the mean reward, each with a 95% confidence
interval, and how long the training took.

    pip install 'rummykit[rl,train]'
    python examples/train_ppo.py --steps 200000 --plot curve.png

``--plot`` draws the learning curve (the mean reward of each block of training deals).
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from rummykit.rl import SingleAgentEnv


class Rewards(BaseCallback):
    """Keeps the reward of every training deal."""

    def __init__(self) -> None:
        super().__init__()
        self.rewards: list[float] = []

    def _on_step(self) -> bool:
        for done, reward in zip(self.locals["dones"], self.locals["rewards"], strict=True):
            if done:
                self.rewards.append(float(reward))
        return True


def evaluate(model: MaskablePPO | None, opponents: str, deals: int,
             seed: int) -> tuple[float, float, float, float]:
    """Deals won (share and 95% half-width) and mean reward (and its half-width) over
    ``deals`` new deals; without a model, the agent plays uniformly among its legal
    actions."""
    env = SingleAgentEnv("classic", 2, opponents=opponents)
    rng = np.random.default_rng(seed)
    rewards = []
    for deal in range(deals):
        obs, _ = env.reset(seed=seed + deal)
        done = False
        total = 0.0
        while not done:
            mask = env.action_masks().astype(bool)
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                chosen, _ = model.predict(obs, action_masks=mask, deterministic=True)
                action = int(chosen)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        rewards.append(total)
    won = [1.0 if r > 0 else 0.0 for r in rewards]
    return (*interval(won), *interval(rewards))


def interval(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1)
    return mean, 1.96 * math.sqrt(var / len(values))


def show(title: str, found: tuple[float, float, float, float]) -> None:
    won, won_ci, reward, reward_ci = found
    print(f"{title}: deals won {100 * won:.1f}% ± {100 * won_ci:.1f}%, "
          f"mean reward {reward:+.3f} ± {reward_ci:.3f}", flush=True)


def plot(rewards: list[float], block: int, path: str, seconds: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    means = [float(np.mean(rewards[i:i + block]))
             for i in range(0, len(rewards) - block + 1, block)]
    figure, axes = plt.subplots(figsize=(7, 3.5))
    axes.plot([block * (i + 1) for i in range(len(means))], means, marker="o")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("training deals")
    axes.set_ylabel(f"mean reward per block of {block} deals")
    axes.set_title(f"Maskable PPO, classic, 2 players, against random ({seconds:.0f} s)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="the agent's decisions")
    parser.add_argument("--eval", type=int, default=400, help="deals of each evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--block", type=int, default=500, help="deals per point of the curve")
    parser.add_argument("--plot", help="write the learning curve to this PNG file")
    args = parser.parse_args()

    show("before training, against random", evaluate(None, "random", args.eval, 10_000))
    env = SingleAgentEnv("classic", 2, opponents="random")
    options: dict[str, Any] = {"net_arch": [128, 128]}
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, device="cpu", verbose=0,
                        n_steps=2048, batch_size=256, policy_kwargs=options)
    rewards = Rewards()
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=rewards)
    seconds = time.perf_counter() - start
    print(f"trained on {len(rewards.rewards)} deals ({args.steps} decisions) in "
          f"{seconds:.0f} s", flush=True)
    blocks = [float(np.mean(rewards.rewards[i:i + args.block]))
              for i in range(0, len(rewards.rewards) - args.block + 1, args.block)]
    print("mean reward per block of", args.block, "deals:",
          ", ".join(f"{m:+.3f}" for m in blocks), flush=True)
    show("after training, against random", evaluate(model, "random", args.eval, 20_000))
    show("after training, against greedy", evaluate(model, "greedy", args.eval, 30_000))
    if args.plot:
        plot(rewards.rewards, args.block, args.plot, seconds)


if __name__ == "__main__":
    main()
