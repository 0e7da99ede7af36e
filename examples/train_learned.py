"""Fit the learned bot's network (``rummykit.bots.learned``) from the bots' self-play, in
one command:

    python examples/train_learned.py                 # writes src/rummykit/bots/learned.json
    python examples/train_learned.py --games 200 --out /tmp/small.json   # a small try

1. Positions: whole matches of every preset with 2, 3 and 4 players, the expert at each
   seat against the expert, greedy and random bots (their seats chosen at random), each
   match from its own seed. At every decision of an expert seat with more than one legal
   action, each legal action's description (``action_features``) and which one the expert
   chose.
2. Then ``--rounds`` more rounds of the same with the learned bot of the round before at
   those seats (DAgger): the positions its own play reaches, labelled with the expert's
   choice there, so it learns to come back from its own mistakes.
3. The fit: a softmax over each position's legal actions of the network's scores, the
   expert's choice its target (cross-entropy), Adam, a tenth of the positions held out to
   report how often the network picks the expert's action.

Needs NumPy (the ``rl`` extra); play needs nothing but rummykit. It prints the held-out
agreement of each round; ``python bench/duel.py learned greedy --deals 200`` then measures
the result.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from rummykit.bots import make_bot
from rummykit.bots.expert import ExpertBot
from rummykit.bots.learned import FEATURES, LearnedBot, Network, Position, action_features
from rummykit.engine import Match
from rummykit.engine.views import view
from rummykit.rules import PRESETS

OUT = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "bots" / "learned.json"
OPPONENTS = ("expert", "greedy", "random")


def positions(task: tuple[int, dict[str, object] | None]) -> list[tuple[list[list[float]], int]]:
    """One match's labelled positions (see the module): its seed, and the network that
    plays at the learning seats (None: the expert itself)."""
    seed, weights = task
    rng = random.Random(seed)
    preset = sorted(PRESETS)[seed % len(PRESETS)]
    players = 2 + (seed // len(PRESETS)) % 3
    teacher = ExpertBot()
    actor = LearnedBot(Network.from_json(weights)) if weights else teacher
    learning = [rng.random() < 0.6 for _ in range(players)]
    learning[rng.randrange(players)] = True
    others = [make_bot(rng.choice(OPPONENTS)) for _ in range(players)]
    match = Match(PRESETS[preset], players=players, seed=seed)
    out: list[tuple[list[list[float]], int]] = []
    for _ in range(3000):
        if match.is_over:
            break
        seat = match.deal.to_move
        v = view(match, seat)
        if learning[seat]:
            chosen = teacher.choose(v, rng)
            if len(v.legal_actions) > 1:
                position = Position(v)
                out.append(([action_features(v, a, position) for a in v.legal_actions],
                            v.legal_actions.index(chosen)))
            played = chosen if actor is teacher else actor.choose(v, rng)
        else:
            played = others[seat].choose(v, rng)
        match.push(played)
    return out


def gather(games: int, start: int, weights: dict[str, object] | None, workers: int
           ) -> list[tuple[list[list[float]], int]]:
    tasks = [(start + i, weights) for i in range(games)]
    found: list[tuple[list[list[float]], int]] = []
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(positions, tasks, chunksize=4):
            found.extend(part)
    return found


def arrays(data: list[tuple[list[list[float]], int]]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of features, each position's first row, and each position's chosen row."""
    x = np.array([row for rows, _ in data for row in rows], dtype=np.float64)
    sizes = np.array([len(rows) for rows, _ in data])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([c for _, c in data])
    return x, starts, chosen


class Fit:
    """The network's parameters and Adam's moments."""

    def __init__(self, features: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0, (2 / features) ** 0.5, (features, hidden)),
            "b1": np.zeros(hidden), "w2": rng.normal(0, (1 / hidden) ** 0.5, hidden),
            "b2": np.zeros(1)}
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def scores(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = x @ self.params["w1"] + self.params["b1"]
        return z, np.maximum(z, 0) @ self.params["w2"] + self.params["b2"][0]

    def step(self, x: np.ndarray, starts: np.ndarray, chosen: np.ndarray, lr: float) -> float:
        z, s = self.scores(x)
        group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(x))))
        top = np.maximum.reduceat(s, starts)
        e = np.exp(s - top[group])
        total = np.add.reduceat(e, starts)
        p = e / total[group]
        loss = float(-np.mean(np.log(p[chosen] + 1e-12)))
        ds = p.copy()
        ds[chosen] -= 1.0
        ds /= len(starts)
        a = np.maximum(z, 0)
        dz = np.outer(ds, self.params["w2"]) * (z > 0)
        grads = {"w2": a.T @ ds, "b2": np.array([ds.sum()]), "w1": x.T @ dz,
                 "b1": dz.sum(axis=0)}
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.params[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss

    def agreement(self, x: np.ndarray, starts: np.ndarray, chosen: np.ndarray) -> float:
        _, s = self.scores(x)
        ends = np.append(starts[1:], len(x))
        picks = np.array([a + int(np.argmax(s[a:b])) for a, b in zip(starts, ends,
                                                                      strict=True)])
        return float(np.mean(picks == chosen))

    def network(self) -> Network:
        w1, b1, w2, b2 = (self.params[k] for k in ("w1", "b1", "w2", "b2"))
        return Network(tuple(tuple(float(v) for v in w1[:, j]) for j in range(w1.shape[1])),
                       tuple(float(v) for v in b1), tuple(float(v) for v in w2), float(b2[0]))


def train(data: list[tuple[list[list[float]], int]], fit: Fit, epochs: int, rng: random.Random
          ) -> float:
    """Fit on nine tenths of ``data``; the held-out tenth's agreement with the expert."""
    rng.shuffle(data)
    cut = len(data) // 10
    held, learn = data[:cut], data[cut:]
    batch = 256
    for epoch in range(epochs):
        rng.shuffle(learn)
        losses = []
        for i in range(0, len(learn), batch):
            x, starts, chosen = arrays(learn[i:i + batch])
            losses.append(fit.step(x, starts, chosen, lr=3e-3 if epoch < epochs - 2 else 1e-3))
        print(f"  epoch {epoch + 1}: loss {np.mean(losses):.4f}", flush=True)
    return fit.agreement(*arrays(held))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=800, help="matches per round")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of the learned bot's own positions after the first")
    parser.add_argument("--hidden", type=int, default=24, help="hidden units")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    fit = Fit(len(FEATURES), args.hidden, np.random.default_rng(args.seed))
    data: list[tuple[list[list[float]], int]] = []
    weights: dict[str, object] | None = None
    for round_ in range(args.rounds + 1):
        began = time.perf_counter()
        start = args.seed * 1_000_000 + round_ * args.games
        found = gather(args.games, start, weights, args.workers)
        data.extend(found)
        print(f"round {round_ + 1}: {len(found)} positions ({len(data)} in all) in "
              f"{time.perf_counter() - began:.0f} s", flush=True)
        agreement = train(data, fit, args.epochs, rng)
        weights = fit.network().to_json()
        print(f"round {round_ + 1}: picks the expert's action on {agreement:.1%} of held-out "
              "positions", flush=True)
    args.out.write_text(json.dumps(weights) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
