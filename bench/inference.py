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
    python bench/inference.py --deals 1500 --seed 100 --hand-model build/hand_model.json
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from rummykit.bots import inference, make_bot, split_bots
from rummykit.bots.inference import (
    CARD_FEATURES,
    FEATURES,
    card_features,
    card_odds,
    features,
    observations,
    out_of_play,
    sample_worlds,
    table_at_last_turn,
)
from rummykit.engine import Deal, determinize
from rummykit.engine.views import view
from rummykit.rules import Rules

Position = tuple[Any, list[int]]
"""A view of seat 0 and seat 1's true hand."""


def collect(rules: Rules, bots: list[str], deals: int, seed: int) -> list[Position]:
    """Positions of seat 0 at about a third of its draws: its view and seat 1's hand."""
    out: list[Position] = []
    rng = random.Random(seed)
    players = [make_bot(b) for b in bots]
    for index in range(deals):
        deal = Deal.start(rules, players=2, dealer=index % 2, seed=seed + index)
        while not deal.is_over:
            seat = deal.to_move
            v = view(deal, seat)
            if seat == 0 and deal.phase == "draw" and rng.random() < 0.3:
                out.append((v, list(deal.hands[1])))
            deal.push(players[seat].choose(v, rng))
    return out


CardRow = tuple[list[float], float, bool]
"""One hidden card of one position: its features, the log-odds of the hand holding a
hidden card at all (its places against the other hidden places) and whether it does."""


def card_rows(positions: list[Position]) -> list[CardRow]:
    rows: list[CardRow] = []
    for v, truth in positions:
        seen = observations(v)
        k = v.knowledge
        places = sum(group.hands[1] for group in k.hidden)
        unseen = k.unseen
        if not 0 < places < len(unseen):
            continue
        offset = math.log(places / (len(unseen) - places))
        held = set(truth)
        table = table_at_last_turn(v, 1)
        out = out_of_play(v)
        for c in unseen:
            f = card_features(c, 1, seen, k.known[1], v.rules, table, out)
            rows.append((f, offset, c in held))
    return rows


def fit_cards(rows: list[CardRow], steps: int = 30) -> tuple[list[float], float]:
    """Logistic regression of 'seat 1 holds the card' on the card features (with each
    position's base rate as a fixed offset), by Newton's method with a little ridge: the
    weights and the mean log-likelihood."""
    x = np.array([f for f, _, _ in rows], dtype=float)
    offset = np.array([o for _, o, _ in rows])
    y = np.array([h for _, _, h in rows], dtype=float)
    theta = np.zeros(x.shape[1])
    ridge = 1e-3 * np.eye(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(offset + x @ theta)))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge
        theta = theta + np.linalg.solve(hessian, x.T @ (y - p) - ridge @ theta)
    p = np.clip(1 / (1 + np.exp(-(offset + x @ theta))), 1e-12, 1 - 1e-12)
    loglik = float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return [float(t) for t in theta], loglik


def _ascend(value_grad: Any, k: int, steps: int) -> tuple[list[float], float]:
    """Gradient ascent with a step that grows while it gains and halves when it
    overshoots."""
    theta = [0.0] * k
    value, grad = value_grad(theta)
    rate = 0.05
    for _ in range(steps):
        trial = [t + rate * g for t, g in zip(theta, grad, strict=True)]
        trial_value, trial_grad = value_grad(trial)
        if trial_value > value:
            theta, value, grad = trial, trial_value, trial_grad
            rate *= 1.5
        else:
            rate /= 2
            if rate < 1e-9:
                break
    return theta, value


HandRow = tuple[list[float], list[list[float]], Position]


def hand_rows(positions: list[Position], samples: int, rng: random.Random) -> list[HandRow]:
    """For each position, the true hand's features and those of ``samples`` hands drawn
    by the card odds (the search's proposal)."""
    rows: list[HandRow] = []
    for v, truth in positions:
        seen = observations(v)
        odds = card_odds(v, seen)
        sampled = [determinize(v, rng, odds=odds) for _ in range(samples)]
        true_f = _hand_features(truth, v, seen)
        rows.append((true_f, [_features(w, seen) for w in sampled], (v, truth)))
    return rows


def _hand_features(hand: list[int], v: Any, seen: Any) -> list[float]:
    unseen = [c for c in v.knowledge.unseen if c not in hand]
    return features(hand, 1, seen, v.rules, v.melds, [*v.hand, *unseen], [len(v.hand)])


def _loglik(theta: list[float], data: list[HandRow]) -> tuple[float, list[float]]:
    """Mean log-chance of the true hand, and its gradient."""
    options = np.array([[true_f, *sample_f] for true_f, sample_f, _ in data], dtype=float)
    scores = options @ np.array(theta)
    scores -= scores.max(axis=1, keepdims=True)
    chances = np.exp(scores)
    chances /= chances.sum(axis=1, keepdims=True)
    loglik = float(np.mean(np.log(chances[:, 0])))
    expected = np.einsum("pk,pkf->pf", chances, options)
    grad = (options[:, 0, :] - expected).mean(axis=0)
    return loglik, [float(g) for g in grad]


def _features(world: Deal, seen: Any) -> list[float]:
    """The features of seat 1's hand in ``world`` (what it could not see: seat 0's hand and
    the stock)."""
    unseen = [*world.hands[0], *world.stock]
    return features(world.hands[1], 1, seen, world.rules, world.table, unseen,
                    [len(world.hands[0])])


def fit(data: list[HandRow], steps: int = 200) -> tuple[list[float], float]:
    """Weights maximising the mean log-chance of the true hand among the proposal's; and
    that mean."""
    return _ascend(lambda theta: _loglik(theta, data), len(FEATURES), steps)


def brier(positions: list[Position], how: str, rng: random.Random, worlds: int,
          model: Any = None) -> float:
    """Mean squared error of the chance given to 'the opponent holds card c' for every
    card seat 0 cannot place, the hands imagined ``how``: uniform, by the card odds, or
    by the card odds then weighed by the hand features (the search's own sampling), or by
    ``model``'s odds (``bench/hand_model.py``) alone or weighed too."""
    error = 0.0
    count = 0
    for v, truth in positions:
        if how == "uniform":
            sampled = [determinize(v, rng) for _ in range(worlds)]
        elif how == "odds":
            odds = card_odds(v)
            sampled = [determinize(v, rng, odds=odds) for _ in range(worlds)]
        elif how == "learned":
            sampled = sample_worlds(v, rng, worlds, odds=model.odds(v), reweight=False)
        elif how == "learned+weights":
            sampled = sample_worlds(v, rng, worlds, odds=model.odds(v))
        else:
            sampled = sample_worlds(v, rng, worlds)
        unseen = set(v.knowledge.unseen)
        held = set(truth)
        for c in unseen:
            p = sum(1 for w in sampled if c in w.hands[1]) / worlds
            error += (p - (1.0 if c in held else 0.0)) ** 2
            count += 1
    return error / max(count, 1)


def _show(title: str, names: tuple[str, ...], theta: list[float]) -> None:
    print(title)
    for name, t in zip(names, theta, strict=True):
        print(f"  {name:18} {t:+.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bots", default="expert,expert")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hand-model", metavar="FILE",
                        help="measure the hands imagined by this learned hand model's odds "
                        "too (bench/hand_model.py's weights), alone and weighed")
    args = parser.parse_args(argv)
    model = None
    if args.hand_model:
        from hand_model import load  # bench/ is where the script runs from

        model = load(Path(args.hand_model))
    rules = Rules.parse(args.rules)
    positions = collect(rules, split_bots(args.bots), args.deals, args.seed)
    print(f"{len(positions)} positions", file=sys.stderr)
    rng = random.Random(args.seed)
    test, train = positions[: len(positions) // 3], positions[len(positions) // 3:]
    rows = card_rows(train)
    card_theta, card_ll = fit_cards(rows)
    _show("card weights (log-odds per unit of each card feature):", CARD_FEATURES,
          card_theta)
    print(f"  mean log-likelihood per hidden card: {card_ll:.4f} "
          f"(no features: {fit_cards(rows, steps=0)[1]:.4f})")
    inference.CARD_WEIGHTS = tuple(card_theta)
    data = hand_rows(train, args.samples, rng)
    theta, loglik = fit(data)
    uniform = -math.log(args.samples + 1)
    _show("hand weights, over the card odds (log-weight per unit of each feature):",
          FEATURES, theta)
    print(f"log-chance of the true hand: {loglik:.3f} (no weights {uniform:.3f}); "
          f"gain {loglik - uniform:+.3f} per position")
    inference.WEIGHTS = tuple(theta)
    print(f"Brier score on {len(test)} held-out positions, 'opponent holds c' "
          "(lower is better):")
    hows = ("uniform", "odds", "search") + (("learned", "learned+weights") if model else ())
    for how in hows:
        print(f"  {how:15} {brier(test, how, rng, 40, model):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
