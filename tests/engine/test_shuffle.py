"""RULES.md: «The same rules, seed and actions give the same deal, every time, on every
machine and every Python version: the shuffle is the engine's own, over the generator's
raw bits, pinned by golden deals in the tests.»

``golden/deals.json`` was written by ``golden/make_deals.py`` from the standard library's
shuffle of CPython 3.11 and dealing written there by hand (see its docstring), not by the
engine; the engine must deal exactly those layouts on any Python.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import format_cards
from rummykit.engine import Deal, Match, deal_layout, shuffle
from rummykit.engine.layout import below, check_layout, refill_rng
from rummykit.rules import preset

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden" / "deals.json").read_text(encoding="utf-8"))


def _names(cards: Any) -> list[str]:
    return format_cards(cards).split() if cards else []


@pytest.mark.parametrize("entry", GOLDEN["deals"],
                         ids=lambda e: f"{e['preset']}-{e['players']}p-seed{e['seed']}")
def test_rulesmd_same_seed_deals_the_golden_layout(entry: dict[str, Any]) -> None:
    rules = preset(entry["preset"])
    layout = deal_layout(rules, entry["players"], entry["dealer"], entry["seed"], entry["index"])
    want = entry["layout"]
    assert [_names(h) for h in layout.hands] == want["hands"]
    assert _names(layout.pile) == want["pile"]
    assert _names(layout.stock) == want["stock"]
    deal = Deal.start(rules, players=entry["players"], dealer=entry["dealer"],
                      seed=entry["seed"], index=entry["index"])
    assert deal.layout == layout


@pytest.mark.parametrize("entry", GOLDEN["refills"], ids=lambda e: f"seed{e['seed']}-{e['refill']}")
def test_seed004_refill_shuffle_is_pinned(entry: dict[str, Any]) -> None:
    """004: «cards from the discard pile ... are shuffled»: from the seed, the same way on
    every Python."""
    cards = list(range(1, 52))  # 2C to KS in deck order
    shuffle(cards, refill_rng(entry["seed"], entry["index"], entry["refill"]))
    assert _names(cards) == entry["order"]


def test_seed002_first_dealer_at_random_is_pinned() -> None:
    """002: «Pick a dealer at random»: drawn from the seed, the same on every Python."""
    for entry in GOLDEN["first_dealers"]:
        match = Match(preset("classic"), players=entry["players"], seed=entry["seed"])
        assert match.deal.dealer == entry["dealer"], entry


@pytest.mark.skipif(not (3, 11) <= sys.version_info[:2] <= (3, 13),
                    reason="the standard library's shuffle is only known to match up to 3.13")
def test_own_shuffle_is_the_standard_librarys_on_this_python() -> None:
    """On the Python versions whose ``random.shuffle`` made the existing deals, the
    engine's shuffle gives the same order for any seed and length."""
    for n in (0, 1, 2, 3, 52, 53, 108):
        for seed in range(50):
            mine, theirs = list(range(n)), list(range(n))
            shuffle(mine, random.Random(f"x/{seed}"))
            random.Random(f"x/{seed}").shuffle(theirs)
            assert mine == theirs


def test_below_is_uniform() -> None:
    """Each of n outcomes about equally often (chi-square, 5 degrees of freedom, fixed seed;
    the 0.1% critical value is 20.5)."""
    rng = random.Random(5)
    counts = Counter(below(rng, 6) for _ in range(60_000))
    chi2 = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(6))
    assert set(counts) == set(range(6))
    assert chi2 < 20.5


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        below(random.Random(0), 0)


@pytest.mark.parametrize("name", ["basic", "one-deal", "classic", "rummy500", "limited-stock",
                                  "ramino"])
def test_every_layout_the_engine_deals_passes_the_layout_check(name: str) -> None:
    """``Deal.start`` does not check the layout it dealt itself (it is the deck by
    construction); this test is that check, for every preset, player count, dealer and
    a seat out of play."""
    rules = preset(name)
    for players in rules.player_counts:
        for seed in range(20):
            dealer = seed % players
            layout = deal_layout(rules, players, dealer, seed, seed % 3)
            check_layout(rules, layout, players=players)
            if players > 2:
                active = [seat != (dealer + 1) % players for seat in range(players)]
                layout = deal_layout(rules, players, dealer, seed, 0, active)
                check_layout(rules, layout, players=players, active=active)
                assert not layout.hands[(dealer + 1) % players]
