"""How well the master's inference guesses hidden hands, and the weights it should use.

Plays deals between two bots (the expert by default) and, at sampled decision points of
seat 0, compares the opponent's true hand with hands dealt uniformly at random from seat
0's view (``determinize``). For each hand it computes the features the inference weighs
(``rummykit.bots.inference.features``) and fits, by maximum likelihood, the weights of a
conditional logit model: the chance that the true hand is the true one among itself and
the uniform samples. It prints the fitted weights, the log-likelihood gained over uniform
sampling per position, and how well each way of sampling predicts where each hidden card
is (the Brier score of "the opponent holds this card", lower is better).

Usage::

    python bench/inference.py --deals 300
    python bench/inference.py --deals 300 --bots expert,greedy --rules classic
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import Any

from rummykit.bots import make_bot, split_bots
from rummykit.bots.inference import FEATURES, features, observations, sample_worlds
from rummykit.engine import Deal, determinize
from rummykit.rules import Rules
from rummykit.views import view


def collect(rules: Rules, bots: list[str], deals: int, samples: int,
            seed: int) -> list[tuple[list[float], list[list[float]], Any]]:
    """Positions: the true hand's features, the samples' features, and what is needed to
    score predictions (the view and the true hand)."""
    out = []
    rng = random.Random(seed)
    players = [make_bot(b) for b in bots]
    for index in range(deals):
        deal = Deal.start(rules, players=2, dealer=index % 2, seed=seed + index)
        while not deal.is_over:
            seat = deal.to_move
            v = view(deal, seat)
            if seat == 0 and deal.phase == "draw" and rng.random() < 0.3:
                seen = observations(v)
                truth = list(deal.hands[1])
                true_f = _features(deal, seen)
                sampled = [determinize(v, rng) for _ in range(samples)]
                out.append((true_f, [_features(w, seen) for w in sampled], (v, truth)))
            deal.push(players[seat].choose(v, rng))
    return out


def _loglik(theta: list[float], data: list[tuple[list[float], list[list[float]], Any]]
            ) -> tuple[float, list[float]]:
    """Mean log-chance of the true hand, and its gradient."""
    k = len(theta)
    grad = [0.0] * k
    total = 0.0
    for true_f, sample_f, _ in data:
        options = [true_f, *sample_f]
        scores = [sum(t * f for t, f in zip(theta, x, strict=True)) for x in options]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        norm = sum(exps)
        total += scores[0] - top - math.log(norm)
        for j in range(k):
            expected = sum(e * x[j] for e, x in zip(exps, options, strict=True)) / norm
            grad[j] += true_f[j] - expected
    n = len(data)
    return total / n, [g / n for g in grad]


def _features(world: Deal, seen: Any) -> list[float]:
    """The features of seat 1's hand in ``world`` (what it could not see: seat 0's hand and
    the stock)."""
    unseen = [*world.hands[0], *world.stock]
    return features(world.hands[1], 1, seen, world.rules, world.table, unseen)


def fit(data: list[tuple[list[float], list[list[float]], Any]], steps: int = 200
        ) -> tuple[list[float], float]:
    """Weights maximising the mean log-chance of the true hand (gradient ascent with a
    step that halves whenever it overshoots); and that mean."""
    theta = [0.0] * len(FEATURES)
    value, grad = _loglik(theta, data)
    rate = 0.01
    for _ in range(steps):
        trial = [t + rate * g for t, g in zip(theta, grad, strict=True)]
        trial_value, trial_grad = _loglik(trial, data)
        if trial_value > value:
            theta, value, grad = trial, trial_value, trial_grad
            rate *= 1.5
        else:
            rate /= 2
            if rate < 1e-9:
                break
    return theta, value


def brier(data: list[tuple[list[float], list[list[float]], Any]], weighted: bool,
          rng: random.Random, worlds: int) -> float:
    """Mean squared error of the chance given to 'the opponent holds card c' for every
    card seat 0 cannot place."""
    error = 0.0
    count = 0
    for _, _, (v, truth) in data:
        sampled = sample_worlds(v, rng, worlds, weighted=weighted)
        unseen = set(v.knowledge.unseen)
        held = set(truth)
        for c in unseen:
            p = sum(1 for w in sampled if c in w.hands[1]) / worlds
            error += (p - (1.0 if c in held else 0.0)) ** 2
            count += 1
    return error / max(count, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bots", default="expert,expert")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    data = collect(rules, split_bots(args.bots), args.deals, args.samples, args.seed)
    print(f"{len(data)} positions", file=sys.stderr)
    theta, loglik = fit(data)
    uniform = -math.log(args.samples + 1)
    print("fitted weights (log-weight per unit of each feature):")
    for name, t in zip(FEATURES, theta, strict=True):
        print(f"  {name:18} {t:+.3f}")
    print(f"log-chance of the true hand: {loglik:.3f} (uniform {uniform:.3f}); "
          f"gain {loglik - uniform:+.3f} per position")
    rng = random.Random(args.seed)
    half = data[: max(1, len(data) // 3)]
    print(f"Brier score, 'opponent holds c': uniform {brier(half, False, rng, 40):.4f}, "
          f"weighted {brier(half, True, rng, 40):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
