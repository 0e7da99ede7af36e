"""Which of the expert's rules earn their keep: each variant, with one rule taken out,
plays the expert on seat-swapped deals (each deal twice, the seats exchanged).

For each variant it prints the expert's mean points per deal less the variant's (95%
interval over the deal pairs) and the share of deals each won: a rule earns its keep
where the expert is clearly ahead of the variant without it.

Usage::

    python bench/expert_rules.py --rules classic --deals 2000
    python bench/expert_rules.py --rules basic --deals 2000 --only no-hold-back
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from rummykit.bots.expert import PENALTY_WEIGHTS, WEIGHTS, ExpertBot
from rummykit.engine import Deal
from rummykit.engine.views import view
from rummykit.rules import Rules


def _weights(rules: Rules, **change: float) -> Callable[[], ExpertBot]:
    base = PENALTY_WEIGHTS if rules.scoring == "penalty" else WEIGHTS
    weights = dataclasses.replace(base, **change)  # type: ignore[arg-type]
    return lambda: ExpertBot(weights=weights)


def variants(rules: Rules) -> dict[str, Callable[[], ExpertBot]]:
    """The expert with one rule taken out, by name."""
    return {
        "no-outs": _weights(rules, keep=0.0, close_keep=0.0),
        "no-defence": _weights(rules, danger=0.0),
        "no-dump": _weights(rules, close=0),
        "no-pile": lambda: ExpertBot(pile=False),
        "no-hold-back": lambda: ExpertBot(hold_back=False),
    }


def play_pair(task: tuple[str, str, int]) -> tuple[float, int, int]:
    """One deal played twice (the expert at seat 0, then at seat 1): the expert's points
    less the variant's (mean of the two), and the deals each won."""
    rules_text, name, index = task
    rules = Rules.parse(rules_text)
    diff = 0.0
    won = [0, 0]
    for expert_seat in (0, 1):
        bots = [ExpertBot(), variants(rules)[name]()]
        if expert_seat == 1:
            bots.reverse()
        rngs = [random.Random(f"rules/{index}/{expert_seat}/{s}") for s in range(2)]
        deal = Deal.start(rules, players=2, dealer=index % 2, seed=index)
        while not deal.is_over:
            seat = deal.to_move
            deal.push(bots[seat].choose(view(deal, seat), rngs[seat]))
        result = deal.result
        assert result is not None
        sign = -1 if rules.scoring == "penalty" else 1
        diff += sign * (result.points[expert_seat] - result.points[1 - expert_seat]) / 2
        if result.winner is not None:
            won[0 if result.winner == expert_seat else 1] += 1
    return diff, won[0], won[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--only", default="", help="comma list of variants (default: all)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    names = [n for n in variants(rules) if not args.only or n in args.only.split(",")]
    print(f"expert against each variant, {args.rules}, 2 players, {args.deals} deals "
          "played twice (seats exchanged)")
    print("| variant (rule taken out) | expert less variant, points/deal [95% CI] | "
          "deals won: expert / variant |")
    print("|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name in names:
            tasks = [(args.rules, name, i) for i in range(args.deals)]
            results = list(pool.map(play_pair, tasks, chunksize=50))
            diffs = [r[0] for r in results]
            mean = statistics.mean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            deals = 2 * len(results)
            ours = sum(r[1] for r in results) / deals
            theirs = sum(r[2] for r in results) / deals
            print(f"| {name} | {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] | "
                  f"{ours:.1%} / {theirs:.1%} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
