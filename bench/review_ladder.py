"""Does the review measure play? Mean points lost per decision of each bot level, reviewed.

For each pair of neighbouring levels (random-greedy, greedy-expert, expert-master), ``N``
deals of 2-player ``classic`` are each played twice with the seats exchanged (one shuffle,
the same for both), and every decision of both seats is reviewed (``rummykit.analysis``,
the default budget unless ``--budget``). A level's figure in a deal is its points lost
per decision over the two games; the step of a pair is the weaker level's figure less the
stronger's, deal by deal, with a 95% interval (normal, over the ``N`` deals). Every level
is also given over all its deals, and the master's own games are summed up (how much the
review finds to fix in them).

Usage::

    python bench/review_ladder.py --deals 50 --jobs 2                 # the page's numbers
    python bench/review_ladder.py --deals 4 --master "master(rollouts=16)" --budget 24

It prints a Markdown section (for docs/review.md) and, with ``--json FILE``, every
decision's figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import shlex
import statistics
import sys
import time
from collections.abc import Sequence

from rummykit.analysis import Budget, Decision, Position, judge, positions
from rummykit.bots import make_bot
from rummykit.engine import Match
from rummykit.engine.views import view
from rummykit.record import Record, from_match
from rummykit.rules import preset

LEVELS = ("random", "greedy", "expert", "master")


def play(task: tuple[str, str, int]) -> Record:
    """One deal of 2-player classic, ``first`` at seat 0 and ``second`` at seat 1, dealt
    from ``seed`` (the same shuffle and dealer whoever sits where)."""
    first, second, seed = task
    match = Match(preset("classic"), players=[first, second], seed=seed)
    match.auto_deal = False
    bots = [make_bot(first), make_bot(second)]
    rngs = [random.Random(f"review-ladder/{seed}/{seat}") for seat in range(2)]
    while not match.deal.is_over:
        seat = match.deal.to_move
        match.apply(bots[seat].choose(view(match, seat), rngs[seat]))
    return from_match(match)


def review_one(task: tuple[int, Position, Budget]) -> tuple[int, Decision]:
    index, position, budget = task
    return index, judge(position, budget)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="seat-swapped deals per pair")
    parser.add_argument("--master", default="master(rollouts=64)",
                        help="the master that plays (the review's search is the default's)")
    parser.add_argument("--budget", default=None, help="the review's budget (default: "
                        "rummykit.analysis's)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--json", metavar="FILE", help="write every decision's figures")
    args = parser.parse_args(argv)
    from rummykit.analysis.review import DEFAULT_BUDGET

    budget = DEFAULT_BUDGET if args.budget is None else Budget.parse(args.budget)
    levels = [*LEVELS[:3], args.master]
    pairs = [(levels[i], levels[i + 1]) for i in range(3)]
    started = time.perf_counter()
    games: list[tuple[int, int, tuple[str, str]]] = []  # (pair, deal, seating)
    tasks = []
    for p, (weak, strong) in enumerate(pairs):
        for d in range(args.deals):
            for seating in ((weak, strong), (strong, weak)):
                games.append((p, d, seating))
                tasks.append((*seating, args.seed + d))
    context = multiprocessing.get_context("fork")
    with context.Pool(args.jobs) as pool:
        recs = pool.map(play, tasks, chunksize=1)
        played_in = time.perf_counter() - started
        print(f"played {len(recs)} deals in {played_in:.0f} s", file=sys.stderr)
        found: list[tuple[int, Position]] = []
        for g, rec in enumerate(recs):
            found.extend((g, p) for p in positions(rec))
        results: list[Decision | None] = [None] * len(found)
        work = [(i, p, budget) for i, (_, p) in enumerate(found)]
        for done, (i, decision) in enumerate(
                pool.imap_unordered(review_one, work, chunksize=4), 1):
            results[i] = decision
            if done % 500 == 0:
                print(f"reviewed {done} of {len(work)} decisions, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    # Each game's decisions and counted losses by seat.
    lost = [[0.0, 0.0] for _ in recs]
    count = [[0, 0] for _ in recs]
    decisions = [d for d in results if d is not None]
    for (g, _), decision in zip(found, decisions, strict=True):
        lost[g][decision.seat] += decision.counted
        count[g][decision.seat] += 1
    per_level: dict[str, list[float]] = {level: [] for level in levels}
    classes: dict[str, dict[str, int]] = {level: {} for level in levels}
    level_decisions: dict[str, int] = dict.fromkeys(levels, 0)
    for (g, _), decision in zip(found, decisions, strict=True):
        level = games[g][2][decision.seat]
        classes[level][decision.cls] = classes[level].get(decision.cls, 0) + 1
        level_decisions[level] += 1
    steps = []
    for p, (weak, strong) in enumerate(pairs):
        diffs = []
        for d in range(args.deals):
            pair_games = [g for g, (pp, dd, _) in enumerate(games) if pp == p and dd == d]
            figure = {}
            for level in (weak, strong):
                total = sum(lost[g][games[g][2].index(level)] for g in pair_games)
                n = sum(count[g][games[g][2].index(level)] for g in pair_games)
                figure[level] = total / n if n else 0.0
                per_level[level].append(figure[level])
            diffs.append(figure[weak] - figure[strong])
        steps.append((weak, strong, interval(diffs)))
    spent = time.perf_counter() - started
    command = shlex.join(["python", "bench/review_ladder.py",
                          *(argv if argv is not None else sys.argv[1:])])
    lines = [
        f"2-player `classic`, {args.deals} seat-swapped deals per pair, review budget "
        f"{budget} imagined deals a decision; {len(decisions)} decisions reviewed in "
        f"{spent / 60:.0f} minutes on {args.jobs} processes (`{command}`).",
        "",
        "| level | deals | decisions | points lost per decision [95%] | inaccuracies | "
        "mistakes | blunders |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    for level in levels:
        mean, low, high = interval(per_level[level])
        c = classes[level]
        lines.append(f"| {level} | {len(per_level[level])} | {level_decisions[level]} | "
                     f"{mean:.2f} [{low:.2f}, {high:.2f}] | {c.get('inaccuracy', 0)} | "
                     f"{c.get('mistake', 0)} | {c.get('blunder', 0)} |")
    lines += ["", "| step | difference in points lost per decision [95%] |", "|---|---|"]
    for weak, strong, (mean, low, high) in steps:
        lines.append(f"| {weak} − {strong} | {mean:+.2f} [{low:+.2f}, {high:+.2f}] |")
    master = args.master
    m = classes[master]
    named = sum(m.get(k, 0) for k in ("inaccuracy", "mistake", "blunder"))
    counted = sum(1 for (g, _), d in zip(found, decisions, strict=True)
                  if games[g][2][d.seat] == master and d.counted > 0)
    agreed = 100 * m.get("best", 0) / max(1, level_decisions[master])
    lines += ["", f"In its own {len(per_level[master])} deals the master ({master}) made "
              f"{level_decisions[master]} decisions: the review agreed with "
              f"{m.get('best', 0)} ({agreed:.0f}%),"
              f" found {counted} losses above the noise ({named} inaccuracies or worse: "
              f"{m.get('inaccuracy', 0)} inaccuracies, {m.get('mistake', 0)} mistakes, "
              f"{m.get('blunder', 0)} blunders)."]
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"levels": levels, "games": [
                {"pair": p, "deal": d, "seating": list(s), "lost": lost[g], "decisions": count[g]}
                for g, (p, d, s) in enumerate(games)],
                "decisions": [d.to_json() | {"game": g}
                              for (g, _), d in zip(found, decisions, strict=True)]}, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
