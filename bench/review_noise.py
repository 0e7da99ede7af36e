"""How noisy is a review? Every decision of some matches reviewed twice, with other seeds.

The review's search is seeded from the position (as the hint's is); here each decision is
judged a second time with another seed (``judge(..., seed=...)``), and the two verdicts
are compared: how often the best action is the same, how often a loss that counted in one
run counts in the other, and whether the standard errors a run gives say how far two runs'
losses lie apart (the difference of two runs' losses of one decision should have a
standard deviation of about the root of the sum of their squared standard errors: the
ratio printed is near 1 when the errors are right).

Usage::

    python bench/review_noise.py --matches 4 --jobs 2      # the numbers of docs/review.md
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time

from rummykit.analysis import Budget, Decision, Position, judge, positions
from rummykit.analysis.review import DEFAULT_BUDGET
from rummykit.bots import make_bot
from rummykit.bots.hints import position_seed
from rummykit.engine import Match
from rummykit.engine.views import view
from rummykit.record import Record, from_match
from rummykit.rules import preset

PAIRS = (("greedy", "random"), ("expert", "greedy"), ("master(rollouts=64)", "expert"))


def play(task: tuple[str, str, int]) -> Record:
    first, second, seed = task
    match = Match(preset("classic"), players=[first, second], seed=seed)
    bots = [make_bot(first), make_bot(second)]
    rngs = [random.Random(f"review-noise/{seed}/{seat}") for seat in range(2)]
    while not match.is_over:
        seat = match.deal.to_move
        match.apply(bots[seat].choose(view(match, seat), rngs[seat]))
    return from_match(match)


def twice(task: tuple[Position, Budget]) -> tuple[Decision, Decision]:
    position, budget = task
    return (judge(position, budget),
            judge(position, budget, seed=position_seed(position.view) + "/other"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4, help="2-deal classic matches a pair")
    parser.add_argument("--budget", default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    budget = DEFAULT_BUDGET if args.budget is None else Budget.parse(args.budget)
    started = time.perf_counter()
    tasks = [(a, b, 500 + i) for a, b in PAIRS for i in range(args.matches)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        recs = pool.map(play, tasks, chunksize=1)
        work = [(p, budget) for rec in recs for p in positions(rec)]
        pairs = pool.map(twice, work, chunksize=4)
    same_best = sum(a.best == b.best for a, b in pairs)
    counted_a = [(a, b) for a, b in pairs if a.counted > 0]
    again = sum(b.counted > 0 for _, b in counted_a)
    named_a = [(a, b) for a, b in pairs if a.named]
    named_again = sum(b.named for _, b in named_a)
    # Calibration: decisions where both runs measured the same two actions in a second run.
    z = [(a.loss - b.loss) / math.sqrt(a.noise ** 2 + b.noise ** 2)
         for a, b in pairs if a.confirmed and b.confirmed and a.best == b.best
         and a.noise > 0 and b.noise > 0]
    n = len(pairs)
    print(f"{n} decisions of {len(recs)} 2-deal classic matches, each reviewed twice "
          f"(budget {budget}), {time.perf_counter() - started:.0f} s")
    print(f"- the same best action in both runs: {same_best} ({100 * same_best / n:.0f}%)")
    share = 100 * again / max(1, len(counted_a))
    print(f"- a loss counted in the first run: {len(counted_a)} "
          f"({100 * len(counted_a) / n:.1f}%); counted in the second run too: {again} "
          f"({share:.0f}%)")
    print(f"- an inaccuracy or worse in the first run: {len(named_a)}; one in the second "
          f"run too: {named_again} ({100 * named_again / max(1, len(named_a)):.0f}%)")
    if len(z) > 2:
        print(f"- two runs' losses of one decision apart by {statistics.pstdev(z):.2f} "
              f"times the standard error of their difference ({len(z)} decisions; 1 = the "
              "errors are right)")
    lost_a = statistics.fmean(a.counted for a, _ in pairs)
    lost_b = statistics.fmean(b.counted for _, b in pairs)
    print(f"- points lost per decision: {lost_a:.3f} and {lost_b:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
