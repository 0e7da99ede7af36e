"""Two bots, seat-swapped deals: who wins, by how much, and how long each one thinks.

Each deal is dealt from its own seed and played twice with the seats exchanged (the two
bots alternating around the table), or with ``--alone`` once per seat with the first bot
in that seat against the second in all the others, so the luck of the deal cancels out.
It reports for the first bot: deals won (with a 95% Wilson interval), mean points per
deal less the second bot's (95% interval, pairs of seat-swapped deals as the unit; where
points are penalties, as in ramino, the sign is turned so that higher is better), and
each bot's time per decision (median and 95th percentile, searched decisions only:
those with more than one legal action). With ``--matches`` it plays whole matches
instead and reports matches won and lost too.

``--hand-model FILE`` gives the first bot, a master, the odds of a learned model of the
hidden hands (``bench/hand_model.py``) to deal its imagined deals by; ``--no-reweight``
keeps its imagined deals as dealt. Both are measurements too.

``--oracle`` measures how much a master bot could gain from knowing the opponents' hands:
its search imagines only deals in which every other hand is the true one (the stock's
order is still shuffled). It is a measurement, not a way to play: no front end offers it.

Usage::

    python bench/duel.py "master(think=1)" expert --rules classic --deals 1000 --workers 2
    python bench/duel.py expert greedy --deals 2000
    python bench/duel.py "master(think=0.5)" expert --rules classic --matches 200
    python bench/duel.py "master(think=1)" expert --players 4 --alone --deals 100
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import rummykit.bots.master
from rummykit.bots import make_bot
from rummykit.bots.master import MasterBot
from rummykit.engine import Deal, Match
from rummykit.engine.views import view
from rummykit.intervals import wilson
from rummykit.rules import Rules


def seating(players: int, turn: int, alone: bool) -> list[int]:
    """Each seat's side, 0 for the first bot and 1 for the second: the first at every
    other seat from ``turn``, or with ``alone`` at seat ``turn`` only (one against the
    others). (By side, not by name: a bot may play itself.)"""
    if alone:
        return [0 if seat == turn else 1 for seat in range(players)]
    return [0 if (seat + turn) % 2 == 0 else 1 for seat in range(players)]


@cache
def _hand_model(path: str) -> Any:
    """The learned hand model of ``bench/hand_model.py`` whose weights are at ``path``."""
    from hand_model import load  # bench/ is where the script runs from

    return load(Path(path))


_PLAYING: list[Deal] = []
"""The deal being played (for ``--oracle``)."""


def _true_worlds(view: Any, rng: random.Random, count: int, **_: Any) -> list[Deal]:
    """The deal as it is, ``count`` times, each with the stock shuffled (``--oracle``)."""
    worlds = []
    for _ in range(count):
        world = _PLAYING[0].copy()
        rng.shuffle(world.stock)
        worlds.append(world)
    return worlds


Task = tuple[str, str, str, int, int, int, bool, bool, bool, str | None, bool]


def play(task: Task) -> dict[str, Any]:
    """One deal (or match) in one seating (see :func:`seating`)."""
    (first, second, rules_text, players, index, turn, matches, alone, oracle, hand_model,
     reweight) = task
    if oracle:
        rummykit.bots.master.sample_worlds = _true_worlds  # type: ignore[assignment]
    rules = Rules.parse(rules_text)
    side_of = seating(players, turn, alone)
    sides = [side_of.count(0), side_of.count(1)]
    bots = [make_bot(first if side == 0 else second) for side in side_of]
    for side, bot in zip(side_of, bots, strict=True):
        if side == 0 and isinstance(bot, MasterBot):
            if hand_model is not None:
                bot.odds = _hand_model(hand_model).odds
            bot.reweight = reweight
    rngs = [random.Random(f"duel/{index}/{turn}/{seat}") for seat in range(players)]
    times: dict[str, list[float]] = {"first": [], "second": []}
    game: Deal | Match
    if matches:
        game = Match(rules, players=players, seed=index, first_dealer=index % players)
    else:
        game = Deal.start(rules, players=players, dealer=index % players, seed=index)
    deals_won = [0, 0]
    points = [0.0, 0.0]
    while not game.is_over:
        deal = game.deal if isinstance(game, Match) else game
        seat = deal.to_move
        v = view(game, seat)
        _PLAYING[:] = [deal]
        start = time.perf_counter()
        action = bots[seat].choose(v, rngs[seat])
        spent = time.perf_counter() - start
        if len(v.legal_actions) > 1:
            times["first" if side_of[seat] == 0 else "second"].append(spent)
        before = len(game.finished) if isinstance(game, Match) else 0
        game.push(action)
        finished = ([game.finished[-1]] if isinstance(game, Match) and len(game.finished)
                    > before else [game] if isinstance(game, Deal) and game.is_over else [])
        for done in finished:
            result = done.result
            assert result is not None
            for s in range(players):
                side = side_of[s]
                sign = -1 if rules.scoring == "penalty" else 1  # higher is better
                points[side] += sign * result.points[s] / sides[side]
            if result.winner is not None:
                deals_won[side_of[result.winner]] += 1
    out: dict[str, Any] = {"index": index, "turn": turn, "deals_won": deals_won,
                           "points": points, "times": times,
                           "deals": len(game.finished) if isinstance(game, Match) else 1}
    if isinstance(game, Match):
        winner = game.winner
        out["match_winner"] = None if winner is None else side_of[winner]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--alone", action="store_true",
                        help="the first bot at one seat against the second at every other "
                        "(each deal once per seat); otherwise they alternate (even counts)")
    parser.add_argument("--deals", type=int, default=200, help="deals (each seat-swapped)")
    parser.add_argument("--matches", type=int, default=0, help="play matches instead")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", metavar="FILE",
                        help="also write each game's result to FILE, one JSON object a "
                        "line (to compare two bots on the same deals, deal by deal)")
    parser.add_argument("--oracle", action="store_true",
                        help="master bots search the true hands (a measurement of what "
                        "knowing them is worth; the stock stays hidden)")
    parser.add_argument("--hand-model", metavar="FILE",
                        help="the first bot, a master, deals the hidden cards by the odds "
                        "of this learned hand model (bench/hand_model.py's weights) instead "
                        "of its card odds")
    parser.add_argument("--no-reweight", action="store_true",
                        help="the first bot, a master, keeps its imagined deals as dealt "
                        "(not weighed by how well the hands explain what was played)")
    args = parser.parse_args(argv)
    if args.hand_model:
        try:
            _hand_model(args.hand_model)
        except (OSError, ValueError, KeyError) as error:
            parser.error(f"--hand-model {args.hand_model}: {error}")
    count = args.matches or args.deals
    if not args.alone and args.players % 2:
        parser.error("the bots alternate around the table: an even player count, or --alone")
    turns = range(args.players) if args.alone else (0, 1)
    tasks = [(args.first, args.second, args.rules, args.players, args.seed + i, t,
              bool(args.matches), args.alone, args.oracle, args.hand_model,
              not args.no_reweight)
             for i in range(count) for t in turns]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for k, result in enumerate(pool.map(play, tasks, chunksize=1), 1):
            results.append(result)
            if not args.json and k % max(1, len(tasks) // 20) == 0:
                print(f"  {k}/{len(tasks)} games, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr)
    if args.games:
        with open(args.games, "w", encoding="utf-8") as out:
            for r in results:
                out.write(json.dumps({k: v for k, v in r.items() if k != "times"}) + "\n")
    deals = sum(r["deals"] for r in results)
    won = sum(r["deals_won"][0] for r in results)
    lost = sum(r["deals_won"][1] for r in results)
    pairs: dict[int, float] = {}
    for r in results:
        pairs[r["index"]] = pairs.get(r["index"], 0.0) + (
            r["points"][0] - r["points"][1]) / len(turns)
    diffs = [pairs[i] / max(1, sum(x["deals"] for x in results if x["index"] == i)
                            / len(turns)) for i in pairs]
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("inf")
    rate = wilson(won, deals)
    low, high = rate.low, rate.high
    report: dict[str, Any] = {
        "first": args.first, "second": args.second, "rules": args.rules,
        "players": args.players, "deals": deals, "first_won": won, "second_won": lost,
        "first_win_rate": won / deals, "first_win_rate_ci": [low, high],
        "points_per_deal": mean, "points_per_deal_ci": [mean - 1.96 * se, mean + 1.96 * se],
        "seconds": time.perf_counter() - started,
    }
    for side in ("first", "second"):
        spent = sorted(t for r in results for t in r["times"][side])
        if spent:
            report[f"{side}_decision_median_s"] = spent[len(spent) // 2]
            report[f"{side}_decision_p95_s"] = spent[int(len(spent) * 0.95)]
    if args.matches:
        report["first_matches_won"] = sum(1 for r in results if r.get("match_winner") == 0)
        report["second_matches_won"] = sum(1 for r in results if r.get("match_winner") == 1)
    if args.json:
        print(json.dumps(report))
        return 0
    told = (" (told the true hands)" if args.oracle else "") + (
        f" (dealing by {args.hand_model})" if args.hand_model else "") + (
        " (not reweighing)" if args.no_reweight else "")
    print(f"{args.first}{told} vs {args.second}, {args.rules}, {args.players} players: "
          f"{deals} deals in {report['seconds']:.0f} s")
    share = f" (an even share: {1 / args.players:.0%})" if args.alone else ""
    print(f"  deals won{share}: {won} ({won / deals:.1%}, 95% CI {low:.1%} to {high:.1%}); "
          f"{args.second} {lost} ({lost / deals:.1%})")
    print(f"  points per deal, {args.first} less {args.second}: {mean:+.2f} "
          f"[{mean - 1.96 * se:+.2f}, {mean + 1.96 * se:+.2f}]")
    if args.matches:
        print(f"  matches won: {report['first_matches_won']} to "
              f"{report['second_matches_won']}")
    for side, name in (("first", args.first), ("second", args.second)):
        if f"{side}_decision_median_s" in report:
            print(f"  {name}: decision median {report[side + '_decision_median_s'] * 1000:.1f} "
                  f"ms, p95 {report[side + '_decision_p95_s'] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
