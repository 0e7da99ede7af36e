"""``find_melds`` and ``best_deadwood`` against a brute-force oracle written from RULES.md.

How the oracle was built (see ``_oracle.py``): from the rules text alone (RULES.md rows
"set", "run", "ace in runs", "card values"; the option help of ``rules/options.py``), not
from ``rummykit.engine.melds`` nor the engine, which this module calls only to get the answers
under test. A meld is decided by reading cards written in an order:

- a set: ``set_min``..``set_max`` cards of one rank, natural suits all different, jokers
  standing for missing suits; a run: ``run_min``+ cards of one suit at consecutive places
  1..13, or 2..14 with ``aces="high-low"`` (never both aces: no K-A-2, no 14-card run);
  jokers fill places; one natural card at least; one natural card plus jokers is a set when
  no longer than ``set_max``, otherwise a run.
- ``melds_by_orderings`` lists a hand's melds by reading every ordering of every
  sub-multiset of the hand; ``melds_by_submultisets`` decides every sub-multiset by trying
  every ace high or low and every low end. The two are checked against each other here,
  and the second is used where the first would be too slow (hands of 7+ cards).
- the least deadwood is the minimum, over every collection of disjoint meldable
  sub-multisets, of the points left in hand (exhaustive recursion on the lowest card).

Hands are drawn by seeded ``random.Random`` generators (fixed seeds, so a failure repeats),
in every configuration the brief names: aces low, aces high-low, two decks (twins), one to
four jokers, ramino, and larger structured hands of 12 to 14 cards. A few hands are written
out by hand with their expected meld lists, so the oracle itself is pinned too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from rummykit.cards import JOKER, format_cards, make_deck, parse_cards
from rummykit.engine.melds import best_deadwood, find_melds
from rummykit.rules import Rules, preset

from ._oracle import (
    JK,
    brute_deadwood,
    canonical,
    hand_points,
    is_sub_multiset,
    melds_by_orderings,
    melds_by_submultisets,
    melds_of,
    minus,
    rank,
    read_meld,
    suit,
)

BASIC = preset("basic")
CONFIGS: dict[str, Rules] = {
    "basic": BASIC,
    "basic-high-low": BASIC.replace(aces="high-low"),
    "rummy500": preset("rummy500"),
    "two-decks": BASIC.replace(decks=2),
    "two-decks-high-low": BASIC.replace(decks=2, aces="high-low"),
    "jokers-1": BASIC.replace(jokers=1),
    "jokers-2-high-low": BASIC.replace(jokers=2, aces="high-low"),
    "jokers-3": BASIC.replace(jokers=3),
    "jokers-4": BASIC.replace(jokers=4),
    "ramino": preset("ramino"),
    "run4-set3-jokers": BASIC.replace(run_min=4, set_max=3, jokers=2),
}
NAMES = sorted(CONFIGS)

SMALL_HANDS = 160
"""Random hands of 3 to 9 cards per configuration and test."""
LARGE_HANDS = 6
"""Structured hands of 12 to 14 cards per configuration."""
ORDERINGS_UP_TO = 6
"""Hands up to this size are listed by reading every ordering (larger: by sub-multiset)."""


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text.split()))


def show(melds: Sequence[Sequence[int]]) -> list[str]:
    return sorted(format_cards(m) for m in melds)


# -- hands ------------------------------------------------------------------------------


def concentrated(rng: random.Random, rules: Rules, size: int, suits: int,
                 jokers: int) -> tuple[int, ...]:
    """A hand drawn from a few suits and a window of ranks (melds are likely)."""
    chosen = rng.sample(range(4), suits)
    width = rng.randint(4, 9)
    start = rng.randint(1, 14 - width + (rules.aces == "high-low"))
    ranks = [(start + i - 1) % 13 + 1 for i in range(width)]
    pool = [s * 13 + r - 1 for s in chosen for r in ranks for _ in range(rules.decks)]
    if rng.random() < 0.5:  # some cards of one rank in other suits, for sets
        r = rng.choice(ranks)
        pool += [s * 13 + r - 1 for s in range(4) if s not in chosen]
    jokers = min(jokers, rules.jokers, size - 1)
    naturals = rng.sample(pool, min(size - jokers, len(pool)))
    return tuple(sorted(naturals + [JK] * jokers))


def random_hand(rng: random.Random, rules: Rules, size: int) -> tuple[int, ...]:
    style = rng.random()
    if style < 0.2:
        return tuple(sorted(int(c) for c in rng.sample(make_deck(rules.decks, rules.jokers),
                                                       size)))
    if style < 0.35 and rules.jokers:  # joker-heavy, down to one natural card
        most = min(4, rules.jokers, size - 1)
        jokers = rng.randint(min(2, most), most)
        return concentrated(rng, rules, size, 1, jokers)
    return concentrated(rng, rules, size, rng.choice((1, 1, 2)), rng.randint(0, 2))


def small_hands(name: str, salt: int) -> list[tuple[int, ...]]:
    rules = CONFIGS[name]
    rng = random.Random(f"{name}/{salt}")
    return [random_hand(rng, rules, rng.randint(3, 9)) for _ in range(SMALL_HANDS)]


def oracle_melds(hand: Sequence[int], rules: Rules) -> Counter[tuple[int, ...]]:
    if len(hand) <= ORDERINGS_UP_TO:
        return Counter(melds_by_orderings(hand, rules))
    return Counter(melds_by_submultisets(hand, rules))


def engine_melds(hand: Sequence[int], rules: Rules) -> Counter[tuple[int, ...]]:
    return Counter(canonical(m, rules) for m in find_melds(list(hand), rules))


def meld_difference(hand: Sequence[int], rules: Rules,
                    oracle: Callable[[Sequence[int], Rules], Counter[tuple[int, ...]]]
                    ) -> str | None:
    got = engine_melds(hand, rules)
    want = oracle(hand, rules)
    if got == want:
        return None
    return (f"hand {format_cards(hand)}: find_melds lists wrongly {show(list(got - want))}, "
            f"misses {show(list(want - got))}")


def deadwood_difference(hand: Sequence[int], rules: Rules) -> str | None:
    points, melds = best_deadwood(list(hand), rules)
    want = brute_deadwood(hand, rules)
    problems = []
    if points != want:
        problems.append(f"points {points}, brute force {want}")
    laid = [c for m in melds for c in m]
    if not is_sub_multiset(laid, hand):
        problems.append(f"melds {show(melds)} are not disjoint cards of the hand")
    else:
        bad = [m for m in melds if read_meld(m, rules) is None]
        if bad:
            problems.append(f"{show(bad)} are not melds as written")
        left = hand_points(minus(hand, laid), rules)
        if left != points:
            problems.append(f"the melds {show(melds)} leave {left} points, not {points}")
    if not problems:
        return None
    return f"hand {format_cards(hand)}: " + "; ".join(problems)


def report(failures: list[str], total: int) -> None:
    if failures:
        failures.sort(key=len)
        shown = "\n  ".join(failures[:6])
        pytest.fail(f"{len(failures)} of {total} hands disagree with the oracle, e.g.:\n  {shown}",
                    pytrace=False)


# -- the oracle checked against itself and against hands written out by hand ------------


@pytest.mark.uncompiled
@pytest.mark.parametrize("name", NAMES)
def test_the_two_brute_forces_agree(name: str) -> None:
    rules = CONFIGS[name]
    rng = random.Random(f"self/{name}")
    for _ in range(40):
        hand = random_hand(rng, rules, rng.randint(3, ORDERINGS_UP_TO))
        listed = melds_by_orderings(hand, rules)
        assert listed == melds_by_submultisets(hand, rules), hand
        built = melds_of(hand, rules)
        assert len(built) == len(set(built)) and set(built) == listed, hand
    for _ in range(10):
        hand = structured_hand(rng, rules)
        built = melds_of(hand, rules)
        assert len(built) == len(set(built)), hand
        assert set(built) == melds_by_submultisets(hand, rules), hand


@pytest.mark.uncompiled
def test_oracle_on_hands_written_out() -> None:
    ramino = preset("ramino")
    assert show(list(melds_by_orderings(cards("5H JK JK JK JK"), ramino))) == sorted([
        "5H JK JK", "5H JK JK JK",
        "5H JK JK JK JK", "JK 5H JK JK JK", "JK JK 5H JK JK", "JK JK JK 5H JK",
        "JK JK JK JK 5H",
    ])
    assert show(list(melds_by_orderings(cards("AH JK JK JK JK"), ramino))) == sorted([
        "AH JK JK", "AH JK JK JK", "AH JK JK JK JK", "JK JK JK JK AH",
    ])
    assert show(list(melds_by_orderings(cards("QH KH AH"), BASIC))) == []
    assert show(list(melds_by_orderings(cards("QH KH AH"), CONFIGS["basic-high-low"]))) == [
        "QH KH AH"]
    assert show(list(melds_by_orderings(cards("KH AH 2H"), CONFIGS["basic-high-low"]))) == []
    twins = CONFIGS["two-decks"]
    assert show(list(melds_by_orderings(cards("7C 7C 7D 7H"), twins))) == [
        "7C 7D 7H"]
    suit_hearts = tuple(range(26, 39))
    runs = melds_by_submultisets(suit_hearts, CONFIGS["basic-high-low"])
    assert max(len(m) for m in runs) == 13
    assert cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH") in runs
    assert cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH") in runs
    # every run of 3+ cards of one suit: 11 + 10 + ... + 1 low, plus 11 ending in a high ace
    assert len(runs) == sum(range(1, 12)) + 11
    assert brute_deadwood(cards("5H 6H 7H 7C 7D KS"), BASIC) == 21


# -- find_melds ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_find_melds_lists_exactly_the_melds_of_small_hands(name: str) -> None:
    rules = CONFIGS[name]
    hands = small_hands(name, 1)
    failures = [d for h in hands if (d := meld_difference(h, rules, oracle_melds))]
    report(failures, len(hands))


@pytest.mark.parametrize("name", NAMES)
def test_best_deadwood_is_the_brute_force_minimum_on_small_hands(name: str) -> None:
    rules = CONFIGS[name]
    hands = small_hands(name, 2)
    failures = [d for h in hands if (d := deadwood_difference(h, rules))]
    report(failures, len(hands))


def structured_hand(rng: random.Random, rules: Rules) -> tuple[int, ...]:
    """12 to 14 cards in one or two suits, long runs likely, at most two jokers."""
    size = rng.randint(12, 14)
    jokers = min(rules.jokers, rng.randint(0, 2))
    suits = rng.sample(range(4), rng.choice((1, 2)))
    pool = [s * 13 + r for s in suits for r in range(13) for _ in range(rules.decks)]
    if rng.random() < 0.3:  # and one rank in every suit, for sets across the runs
        r = rng.randrange(13)
        pool += [s * 13 + r for s in range(4) if s not in suits]
    naturals = rng.sample(pool, min(size - jokers, len(pool)))
    return tuple(sorted(naturals + [JK] * jokers))


@pytest.mark.parametrize("name", NAMES)
def test_large_structured_hands(name: str) -> None:
    rules = CONFIGS[name]
    rng = random.Random(f"large/{name}")
    hands = [structured_hand(rng, rules) for _ in range(LARGE_HANDS)]
    failures = []
    for hand in hands:
        for diff in (meld_difference(hand, rules, lambda h, r: Counter(
                melds_by_submultisets(h, r))), deadwood_difference(hand, rules)):
            if diff:
                failures.append(diff)
    report(failures, len(hands))


# -- hands named in the brief --------------------------------------------------------------


@pytest.mark.parametrize("name", ["basic", "basic-high-low", "rummy500", "ramino"])
@pytest.mark.parametrize("which", [0, 2])
def test_a_whole_suit(name: str, which: int) -> None:
    """13 cards of one suit: with aces high-low, A..K and 2..A are runs, A..K..A is not
    (one ace cannot stand at both ends)."""
    rules = CONFIGS[name]
    hand = tuple(range(which * 13, which * 13 + 13))
    diff = meld_difference(hand, rules, lambda h, r: Counter(melds_by_submultisets(h, r)))
    longest = max(len(m) for m in find_melds(list(hand), rules))
    assert longest <= 13, f"{name}: a {longest}-card run from 13 cards uses an ace twice"
    assert diff is None, diff
    assert best_deadwood(list(hand), rules)[0] == 0


def test_two_aces_are_not_both_ends_of_one_run() -> None:
    """Two decks: AH 2H .. KH AH is not a run (an ace is low or high, never both)."""
    rules = CONFIGS["two-decks-high-low"]
    hand = tuple(sorted([*range(26, 39), 26]))
    longest = [m for m in find_melds(list(hand), rules) if len(m) > 13]
    assert not longest, f"find_melds lists {show(longest)}"
    diff = meld_difference(hand, rules, lambda h, r: Counter(melds_by_submultisets(h, r)))
    assert diff is None, diff


@pytest.mark.parametrize("text", ["5H JK JK JK JK", "AH JK JK JK JK", "KS JK JK JK JK",
                                  "5H 6H JK JK JK JK", "5H 5S JK JK JK"])
def test_one_natural_and_jokers_in_ramino(text: str) -> None:
    rules = preset("ramino")
    hand = tuple(sorted(cards(text)))
    diff = meld_difference(hand, rules, oracle_melds)
    assert diff is None, diff
    assert best_deadwood(list(hand), rules)[0] == brute_deadwood(hand, rules)


@pytest.mark.parametrize("text", ["7C 7C 7D 7H", "5H 5H 6H 6H 7H 7H", "7C 7C 7D 7D 7H 7S",
                                  "AH AH 2H 3H QH KH", "5H 5H 6H 6H 7H 7H 8H 8H"])
def test_twins(text: str) -> None:
    for name in ("two-decks", "two-decks-high-low", "ramino"):
        rules = CONFIGS[name]
        hand = tuple(sorted(cards(text)))
        diff = meld_difference(hand, rules, oracle_melds)
        assert diff is None, f"{name}: {diff}"
        assert deadwood_difference(hand, rules) is None, name


def test_twins_hands_written_out() -> None:
    rules = CONFIGS["two-decks"]
    assert show(list(engine_melds(cards("7C 7C 7D 7H"), rules))) == ["7C 7D 7H"]
    assert best_deadwood(list(cards("5H 5H 6H 6H 7H 7H")), rules)[0] == 0
    assert best_deadwood(list(cards("7C 7C 7D 7D 7H 7H")), rules)[0] == 0
    assert best_deadwood(list(cards("7C 7C 7D 7H")), rules)[0] == 7
    assert not [m for m in find_melds(list(cards("7C 7C 7D")), rules)]


@pytest.mark.uncompiled
def test_card_codes_are_what_the_oracle_assumes() -> None:
    assert int(JOKER) == JK
    assert [(rank(c), suit(c)) for c in cards("AC KD 10H 2S")] == [(1, 0), (13, 1),
                                                                  (10, 2), (2, 3)]
