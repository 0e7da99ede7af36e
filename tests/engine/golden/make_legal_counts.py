"""Generate ``legal_counts.json``: golden counts of legal actions for fixed positions in
every preset, the rummykit analogue of chess perft tables.

For each preset, a deal is dealt from a fixed seed (fixed player count and dealer), then
played for up to ``STEPS`` decisions, each chosen by ``random.Random(CHOICE_SEED)`` among
the legal actions sorted by their notation (so the choice does not depend on the order in
which the engine lists them); a meld or lay-off is preferred three times in four when there
is one, so that the positions reach melds, lay-offs, openings and the end of the deal.

The file stores, at every step, the number of legal actions and the action played, and,
from a few of those positions, perft counts: the number of legal action sequences of
length 1 to 5 (a sequence that ends the deal early is not counted at the longer depths).

``tests/engine/test_golden_counts.py`` recomputes everything with :func:`compute` and compares
it with the file.

Regenerate ONLY on a deliberate change of the engine's rules (a rule fixed, an option
default changed), after checking by hand that the new numbers are right, and say so in
the commit message::

    .venv/bin/python tests/engine/golden/make_legal_counts.py

A count that changes without such a change is a bug: do not regenerate to make the test
pass.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from rummykit.engine import Action, Deal
from rummykit.rules import preset

OUT = Path(__file__).with_name("legal_counts.json")
STEPS = 150
CHOICE_SEED = 20240501

# preset -> (players, seed, dealer, steps at which perft is counted, perft depth)
POSITIONS: dict[str, tuple[int, int, int, tuple[int, ...], int]] = {
    "basic": (2, 11, 0, (0, 1, 2, 40, 80, 120), 5),
    "one-deal": (3, 12, 1, (0, 1, 2, 40, 80, 120), 5),
    "classic": (4, 13, 2, (0, 1, 2, 40, 80, 120), 5),
    "rummy500": (2, 14, 0, (0, 1, 2, 40, 80, 120), 5),
    "limited-stock": (5, 15, 4, (0, 1, 2, 40, 80, 120), 5),
    "ramino": (3, 16, 0, (0, 1, 2, 40, 80, 120), 5),
}


def ordered(deal: Deal) -> list[Action]:
    """The legal actions in notation order."""
    return sorted(deal.legal_actions(), key=str)


def choose(actions: list[Action], rng: random.Random) -> Action:
    """A meld or lay-off three times in four when there is one, else any legal action."""
    lays = [a for a in actions if a.kind in ("meld", "layoff")]
    pick = rng.random() < 0.75
    pool = lays if lays and pick else actions
    return pool[rng.randrange(len(pool))]


def perft(deal: Deal, depth: int) -> int:
    """The number of legal action sequences of exactly ``depth`` actions from ``deal``."""
    if depth == 0:
        return 1
    actions = deal.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = deal.copy()
        child.push(action)
        total += perft(child, depth - 1)
    return total


def compute_one(name: str) -> dict[str, Any]:
    players, seed, dealer, perft_steps, depth = POSITIONS[name]
    deal = Deal.start(preset(name), players=players, dealer=dealer, seed=seed)
    rng = random.Random(CHOICE_SEED)
    steps: list[list[Any]] = []
    perfts: list[dict[str, Any]] = []
    for step in range(STEPS):
        if deal.is_over:
            break
        if step in perft_steps:
            perfts.append({"step": step, "phase": deal.phase,
                           "nodes": [perft(deal, d) for d in range(1, depth + 1)]})
        actions = ordered(deal)
        action = choose(actions, rng)
        steps.append([len(actions), str(action)])
        deal.push(action)
    result = deal.result
    return {
        "players": players,
        "seed": seed,
        "dealer": dealer,
        "steps": steps,
        "perft": perfts,
        "result": None if result is None else result.to_json(),
    }


def compute() -> dict[str, Any]:
    return {
        "about": "golden legal-action counts; made by make_legal_counts.py (see its docstring)",
        "steps": STEPS,
        "choice_seed": CHOICE_SEED,
        "positions": {name: compute_one(name) for name in POSITIONS},
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one step or one perft position per line, for readable diffs."""
    text = json.dumps(data, indent=1)
    # Put each innermost list / small object on one line.
    return re.sub(
        r"\[\s+(-?\d+),\s+(\"[^\"]*\")\s+\]",
        r"[\1, \2]",
        re.sub(r"\[\s+((?:-?\d+,\s+)*-?\d+)\s+\]",
               lambda m: "[" + ", ".join(m.group(1).split()).replace(",,", ",") + "]", text),
    ) + "\n"


def main() -> int:
    data = compute()
    text = dumps(data)
    assert json.loads(text) == data
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
