"""Writes ``deals.json``: golden deals that pin the engine's shuffle and dealing.

How it was made, independently of the engine's code: the deck is written out here in
the engine's card order (each 52-card deck clubs A-K, diamonds, hearts, spades, then the
jokers), shuffled with the standard library's ``random.Random(SEED_TEXT).shuffle`` of
CPython 3.11 (the shuffle every deal was made with before the engine had its own), and
dealt by hand as the rule books say: one card at a time, clockwise from the dealer's left,
then one card face up to start the pile, the rest the stock (top card first). The refill
and first-dealer entries use the same generator texts with ``shuffle`` and ``randrange``.

The file is a pin, not a snapshot: tests/engine/test_shuffle.py checks that the engine deals
exactly these layouts, so existing records and saved tables keep replaying on every
Python version. Regenerate only with CPython 3.11 (``python tests/engine/golden/make_deals.py``),
and never to make a failing test pass.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"

# (preset, decks, jokers, players, hand size, dealer, seed, deal index)
DEALS = [
    ("basic", 1, 0, 2, 10, 0, 1, 0),
    ("basic", 1, 0, 4, 7, 2, 7, 3),
    ("one-deal", 1, 0, 6, 6, 5, 11, 0),
    ("classic", 1, 0, 2, 10, 1, 7, 0),
    ("classic", 1, 0, 3, 7, 0, 123456789, 2),
    ("rummy500", 1, 0, 2, 13, 0, 5, 0),
    ("rummy500", 1, 0, 5, 7, 4, 2**61 + 17, 1),
    ("limited-stock", 1, 0, 2, 10, 0, 3, 0),
    ("ramino", 2, 4, 2, 8, 1, 9, 0),
    ("ramino", 2, 4, 6, 8, 3, 42, 4),
]

REFILLS = [(3, 0, 0), (3, 0, 1), (2**40 + 5, 2, 0)]
"""(seed, deal index, refill number): the order in which a refill shuffles the cards 2C
to KS (the 51 cards after the AC, in deck order)."""

DEALERS = [(seed, players) for seed in (0, 1, 7, 99, 2**62 - 1) for players in (2, 3, 6)]


def name(code: int) -> str:
    return "JK" if code == 52 else RANKS[code % 13] + SUITS[code // 13]


def deck(decks: int, jokers: int) -> list[int]:
    return [code for _ in range(decks) for code in range(52)] + [52] * jokers


def deal(entry: tuple[str, int, int, int, int, int, int, int]) -> dict[str, object]:
    preset, decks, jokers, players, size, dealer, seed, index = entry
    cards = deck(decks, jokers)
    random.Random(f"rummykit/deal/{seed}/{index}").shuffle(cards)
    order = [(dealer + k) % players for k in range(1, players + 1)]
    hands: list[list[str]] = [[] for _ in range(players)]
    position = 0
    for _ in range(size):
        for seat in order:
            hands[seat].append(name(cards[position]))
            position += 1
    return {
        "preset": preset, "players": players, "dealer": dealer, "seed": seed, "index": index,
        "layout": {"hands": hands, "pile": [name(cards[position])],
                   "stock": [name(c) for c in cards[position + 1:]]},
    }


def refill(seed: int, index: int, number: int) -> dict[str, object]:
    cards = list(range(1, 52))
    random.Random(f"rummykit/refill/{seed}/{index}/{number}").shuffle(cards)
    return {"seed": seed, "index": index, "refill": number, "order": [name(c) for c in cards]}


def main() -> None:
    if sys.version_info[:2] != (3, 11):
        raise SystemExit("make the golden deals with CPython 3.11 (its shuffle is the pin)")
    data = {
        "made_by": "tests/engine/golden/make_deals.py with CPython "
                   f"{'.'.join(map(str, sys.version_info[:3]))}: see its docstring",
        "deals": [deal(entry) for entry in DEALS],
        "refills": [refill(*entry) for entry in REFILLS],
        "first_dealers": [
            {"seed": seed, "players": players,
             "dealer": random.Random(f"rummykit/dealer/{seed}").randrange(players)}
            for seed, players in DEALERS
        ],
    }
    # One entry a line, so that a change shows which deal it touches.
    lines = ["{", f' "made_by": {json.dumps(data["made_by"])},']
    for key in ("deals", "refills", "first_dealers"):
        entries = data[key]
        assert isinstance(entries, list)
        lines.append(f' "{key}": [')
        lines += [f"  {json.dumps(e)}," for e in entries]
        lines[-1] = lines[-1].rstrip(",")
        lines.append(" ]," if key != "first_dealers" else " ]")
    lines.append("}")
    path = Path(__file__).with_name("deals.json")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
