"""Bot strength and speed: each level against the one below, and time per decision.

For each pair (greedy vs random, expert vs greedy) and each player count (2 and 4), the
same ``--deals`` deals of ``--rules`` are played once per rotation of the seats (with 4
players the two levels alternate around the table), and the stronger bot's mean points
per deal less the weaker's is reported with its 95% confidence interval (the pair's
difference computed deal by deal, so the seat rotations of one deal count together). Where
points count against you (ramino) the sign is turned so that higher is better.

The median time per decision of each bot is measured in this process over a few hundred
deals of random positions.

Usage::

    .venv/bin/python bench/bots.py                 # 2,000 deals per pair, 2 workers
    .venv/bin/python bench/bots.py --deals 200 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rummykit.bots import make_bot
from rummykit.engine.deal import Deal
from rummykit.engine.views import view
from rummykit.rules import Rules
from rummykit.sim import Config, run_jobs
from rummykit.sim.report import mean_ci

PAIRS = (("greedy", "random"), ("expert", "greedy"))


def duel(rules: str, players: int, strong: str, weak: str, deals: int, seed: int,
         workers: int) -> dict[str, Any]:
    seats = tuple(strong if s % 2 == 0 else weak for s in range(players))
    config = Config(rules=rules, players=players, bots=seats, count=deals, seed=seed,
                    duplicate=True)
    penalty = Rules.parse(rules).scoring == "penalty"
    by_deal: dict[int, list[float]] = {}
    for outcome in run_jobs(config, workers=workers):
        for points in outcome.deal_points:
            own = [p for seat, p in enumerate(points) if seats[outcome.bot_of[seat]] == strong]
            other = [p for seat, p in enumerate(points) if seats[outcome.bot_of[seat]] == weak]
            diff = sum(own) / len(own) - sum(other) / len(other)
            by_deal.setdefault(outcome.index, []).append(-diff if penalty else diff)
    diffs = [sum(v) / len(v) for _, v in sorted(by_deal.items())]
    est = mean_ci(diffs)
    return {"rules": rules, "players": players, "strong": strong, "weak": weak,
            "deals": len(diffs), "plays": len(diffs) * config.rotations,
            "points_per_deal_diff": est.mean, "ci95": [est.low, est.high],
            "stronger": est.low > 0}


def decision_times(rules_text: str, deals: int, seed: int) -> dict[str, float]:
    rules = Rules.parse(rules_text)
    times: dict[str, list[float]] = {"random": [], "greedy": [], "expert": []}
    for k in range(deals):
        players = 2 + k % 3
        levels = [["random", "greedy", "expert"][(k + s) % 3] for s in range(players)]
        bots = [make_bot(level) for level in levels]
        deal = Deal.start(rules, players=players, dealer=k % players, seed=seed, index=k)
        rng = random.Random(k)
        while not deal.is_over and len(deal.history) < 5000:
            seat = deal.to_move
            v = view(deal, seat)
            start = time.perf_counter()
            action = bots[seat].choose(v, rng)
            times[levels[seat]].append(time.perf_counter() - start)
            deal.push(action)
    return {level: 1000 * statistics.median(t) for level, t in times.items() if t}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    duels = [duel(args.rules, players, strong, weak, args.deals, args.seed, args.workers)
             for players in (2, 4) for strong, weak in PAIRS]
    medians = {preset: decision_times(preset, 60, args.seed)
               for preset in ("classic", "rummy500", "ramino")}
    if args.json:
        print(json.dumps({"duels": duels, "median_decision_ms": medians}))
        return 0
    print(f"{'pair':22} {'players':>7} {'deals':>6}  points/deal, stronger less weaker [95% CI]")
    for d in duels:
        verdict = "stronger" if d["stronger"] else "NOT shown stronger"
        print(f"{d['strong'] + ' vs ' + d['weak']:22} {d['players']:>7} {d['deals']:>6}  "
              f"{d['points_per_deal_diff']:+.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]"
              f"  {verdict}")
    print("\nmedian time per decision (ms; target < 5):")
    for preset, levels in medians.items():
        print(f"  {preset:10} " + "  ".join(f"{k} {v:.2f}" for k, v in levels.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
