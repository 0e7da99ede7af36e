"""Instructions per decision of random play, counted by callgrind: a measure of the
engine's speed that a busy machine does not move.

Wall-clock rates on a shared machine move by a fifth from run to run; the number of
instructions the interpreter executes does not (with ``PYTHONHASHSEED=0``: the string
hashes a process draws move a count by about 1%). For each preset and player count this
runs, under ``valgrind --tool=callgrind``, a child Python that plays deals ``--first`` to
``--first + --deals - 1`` of random play (the action drawn uniformly from
``deal.legal_actions()`` by ``random.Random(--seed)``), and the same child with no deal
(the imports); the difference over the decisions played is the count per decision.
Every ratio is against ``classic`` with 2 players of the same run, as in ``bench/run.py``.

``--src`` puts another copy of the engine first on the path: ``build/compiled/src`` (the
compiled build, ``make compiled``) or the ``src`` of another revision, to compare.
valgrind must be installed (``apt-get install valgrind``); a run takes minutes (Python
under callgrind is some fifty times slower).

Usage::

    python bench/instructions.py                              # the Python build
    python bench/instructions.py --src build/compiled/src     # the compiled one
    python bench/instructions.py --presets rummy500 --players 2 6
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import random, sys
from rummykit.engine import Deal
from rummykit.rules import Rules
preset, players, first, count, seed = sys.argv[1], int(sys.argv[2]), *map(int, sys.argv[3:])
rules = Rules.parse(preset)
rng = random.Random(seed)
decisions = 0
for i in range(first, first + count):
    deal = Deal.start(rules, players=players, dealer=i % players, seed=i, index=0)
    while not deal.is_over:
        deal.push(rng.choice(deal.legal_actions()))
        decisions += 1
print("decisions", decisions)
"""


def count(src: Path, preset: str, players: int, first: int, deals: int,
          seed: int) -> tuple[int, int]:
    """The decisions played and the instructions counted, for one child run."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(src))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", CHILD, preset, str(players), str(first), str(deals), str(seed)],
        env=env, capture_output=True, text=True, check=False)
    played = re.search(r"decisions (\d+)", done.stdout)
    counted = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or played is None or counted is None:
        raise RuntimeError(f"{preset} with {players} players: the counted run failed:\n"
                           f"{done.stderr[-2000:]}")
    return int(played.group(1)), int(counted.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the engine to count (default: this checkout's src)")
    parser.add_argument("--presets", nargs="+",
                        default=["classic", "rummy500", "ramino"])
    parser.add_argument("--players", nargs="+", type=int, default=[2])
    parser.add_argument("--first", type=int, default=40, help="first deal seed")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    if not (args.src / "rummykit").is_dir():
        parser.error(f"--src {args.src}: no rummykit package there")
    cells = [("classic", 2)] + [(p, n) for p in args.presets for n in args.players
                                if (p, n) != ("classic", 2)]
    base: float | None = None
    for preset, players in cells:
        _, empty = count(args.src, preset, players, args.first, 0, args.seed)
        decisions, total = count(args.src, preset, players, args.first, args.deals, args.seed)
        per = (total - empty) / decisions
        base = per if base is None else base
        print(f"{preset:>14} {players}p: {decisions:>6} decisions, {per:>9,.0f} instructions "
              f"a decision, {base / per:.3f} of classic 2p's rate", flush=True)
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        raise SystemExit(130) from None
