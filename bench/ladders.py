"""Every preset's bot ladder with 2 and 4 players, written to one page (docs/ladder.md).

Each ladder is ``rummykit ladder``'s round robin (rummykit.sim.ladder.run_ladder): every
pair of levels plays the same deals with the seats rotated, the ratings are a
Bradley-Terry fit on the Elo scale with 95% intervals from resampling whole deals, and
beside it the same games rated by OpenSkill on the same scale. The master searches, so
it is slow: it plays here with a short think time, named in the page.

Usage::

    python bench/ladders.py --deals 30 --deals4 10 --master "master(think=0.1)" --workers 2
    python bench/ladders.py --presets classic --players 2 --deals 200   # one ladder
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from rummykit.bots.master import MARGIN, WIN
from rummykit.rules import PRESETS
from rummykit.sim.ladder import run_ladder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--deals", type=int, default=30, help="deals per pair, 2 players")
    parser.add_argument("--deals4", type=int, default=10, help="deals per pair, 4 players")
    parser.add_argument("--master", default="master(think=0.1)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/ladder.md")
    args = parser.parse_args(argv)
    levels = ["random", "greedy", "learned", "expert", args.master]
    sections = []
    started = time.perf_counter()
    for name in args.presets.split(","):
        for players in (int(p) for p in args.players.split(",")):
            deals = args.deals if players == 2 else args.deals4
            began = time.perf_counter()
            result = run_ladder(name, players, levels, deals=deals, seed=args.seed,
                                workers=args.workers)
            spent = time.perf_counter() - began
            print(f"{name}, {players} players: {spent:.0f} s", file=sys.stderr)
            sections.append(result.markdown().replace("## Bot ladder", "### Bot ladder", 1))
    command = shlex.join(["python", "bench/ladders.py",
                          *(argv if argv is not None else sys.argv[1:])])
    minutes = max(1, round((time.perf_counter() - started) / 60))
    page = [
        "# Bot ladders",
        "",
        "Every preset with 2 and 4 players: a round robin of the bot levels, each pair on "
        "the same deals with the seats rotated (so both sit everywhere), each deal a game "
        "won by the level whose seats scored more (fewer penalty points in `ramino`). "
        "Ratings are a Bradley-Terry fit of every game on the Elo scale (mean 1500); their "
        "95% intervals resample whole deals, all rotations of a deal together. The "
        "OpenSkill column rates the same games one by one by OpenSkill (the rated matches' "
        "method), on the same scale, with its 95% interval.",
        "",
        f"The master plays as `{args.master}` (the options it does not name at their "
        f"defaults, `margin={MARGIN:g},win={WIN:g}`): a short search, far weaker than its default "
        "of 1 s a decision ([the computer players' measured strength]"
        "(bots.md#measured-strength) and [the strength page](strength.md) measure the master "
        "against the expert). Few deals per pair, so the intervals are wide: they say which "
        "levels are apart, not by how much exactly.",
        "",
        f"Made with `{command}` on the 2-core development machine in about {minutes} "
        f"minute{'s' if minutes > 1 else ''}.",
        "",
        *sections,
    ]
    Path(args.out).write_text("\n".join(page), encoding="utf-8")
    print(f"written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
