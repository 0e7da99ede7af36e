"""The engine's shortcuts answer as the rules do: each quick test of a position is checked
on random positions against a plain or independent computation of the same question.

- ``forms_meld_with`` (bit tests) against the brute-force meld list of tests/engine/oracle;
- ``_reaches`` (a run extended by cards of the hand up to a pile card) against a search
  over the oracle's lay-offs, one card at a time;
- ``usable_after_draw`` and ``usable_pile_cards`` (every depth of rummy500's pile)
  against the oracle's melds and lay-offs of the hand with the cards taken, and
  ``melding_cards`` and ``shortest_meld_with`` against the oracle's melds;
- ``Shortcuts`` (a meld or lay-off settled without the search of the turn) against
  ``finishable_after``, on random positions of every kind of turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER_CODE, make_deck, parse_cards
from rummykit.engine import Deal
from rummykit.engine.finish import (
    Shortcuts,
    _reaches,
    ends_now,
    finishable_after,
    usable_after_draw,
    usable_pile_cards,
)
from rummykit.engine.melds import (
    Meld,
    find_melds,
    fits,
    forms_meld_with,
    layoff,
    layoff_targets,
    make_meld,
    melding_cards,
    pack,
    shortest_meld_with,
    suit_masks,
    without,
)
from rummykit.rules import Rules, preset

from .oracle._oracle import JK, Reading, layoff_results, melds_of

RULES = [
    preset("basic"),
    preset("classic").replace(aces="high-low"),
    preset("rummy500"),
    preset("rummy500").replace(set_min=4, run_min=4),
    preset("rummy500").replace(set_min=4),  # a run shorter than a set
    preset("rummy500").replace(decks=2, jokers=2, set_max=3),
    preset("ramino"),
    preset("ramino").replace(run_min=5),
]
rules_st = st.sampled_from(RULES)


def deck(rules: Rules, jokers: bool = True) -> list[int]:
    return [int(c) for c in make_deck(rules.decks, rules.jokers if jokers else 0)]


@st.composite
def hand_and_card(draw: st.DrawFn) -> tuple[Rules, list[int], int]:
    """Rules, a hand without jokers (twins where the rules have two decks) and one of its
    cards."""
    rules = draw(rules_st)
    cards = deck(rules, jokers=False)
    size = draw(st.integers(1, 16))
    hand = draw(st.permutations(cards))[:size]
    return rules, hand, draw(st.sampled_from(hand))


@settings(max_examples=400, deadline=None)
@given(hand_and_card())
def test_forms_meld_with_agrees_with_the_oracle(case: tuple[Rules, list[int], int]) -> None:
    rules, hand, card = case
    masks, jokers = suit_masks(hand)
    assert jokers == 0
    expected = any(card in m for m in melds_of(tuple(sorted(hand)), rules))
    assert forms_meld_with(card, masks, rules) == expected
    assert forms_meld_with(card, tuple(masks), rules) == expected  # any sequence of masks
    # and the engine's own list says the same
    assert expected == any(card in m for m in find_melds(hand, rules))
    # The fewest cards of such a meld, as the oracle's melds give it (0: none).
    fewest = min((len(m) for m in melds_of(tuple(sorted(hand)), rules) if card in m),
                 default=0)
    assert shortest_meld_with(card, masks, rules) == fewest


def test_shortest_meld_with_a_card_in_both_a_set_and_a_run() -> None:
    # The shorter of the two kinds, whichever it is, as the oracle's melds give it.
    for rules, text, card, fewest in [
        (preset("rummy500").replace(set_min=4), "5C 5D 5H 5S 6C 7C", "5C", 3),
        (preset("rummy500").replace(run_min=5), "5C 5D 5H 6C 7C 8C 9C", "5C", 3),
        (preset("rummy500").replace(set_min=4, run_min=4), "5C 5D 5H 5S 6C 7C", "5C", 4),
        (preset("rummy500").replace(aces="high-low"), "QH KH AH 2C", "AH", 3),
    ]:
        hand = [int(c) for c in parse_cards(text.split())]
        chosen = hand[text.split().index(card)]
        melds = melds_of(tuple(sorted(hand)), rules)
        assert fewest == min(len(m) for m in melds if chosen in m)
        assert shortest_meld_with(chosen, suit_masks(hand)[0], rules) == fewest


@settings(max_examples=400, deadline=None)
@given(hand_and_card())
def test_melding_cards_are_the_cards_in_some_meld_by_the_oracle(
    case: tuple[Rules, list[int], int],
) -> None:
    # Every card at once: the packed answer holds exactly the cards of the hand that are
    # in a meld the oracle finds in the hand.
    rules, hand, _ = case
    melds = melds_of(tuple(sorted(hand)), rules)
    expected = pack([c for c in hand if any(c in m for m in melds)])
    assert melding_cards(pack(hand), rules.set_min, rules.run_min, rules.high_aces) == expected


def _oracle_run(meld: Meld) -> Reading:
    return ("run", meld.suit, meld.low, meld.high)


def _extended_to(reading: Reading, hand: list[int], chosen: int, rules: Rules) -> bool:
    """Whether laying off cards of ``hand`` one at a time on the run ``reading`` (by the
    oracle's lay-off rule) can make a run that ``chosen`` can be laid off on."""
    seen: set[tuple[Reading, tuple[int, ...]]] = set()
    todo = [(reading, tuple(sorted(hand)))]
    while todo:
        now, left = todo.pop()
        if (now, left) in seen:
            continue
        seen.add((now, left))
        if layoff_results(now, chosen, rules):
            return True
        for c in set(left):
            rest = list(left)
            rest.remove(c)
            for new in layoff_results(now, c, rules).values():
                todo.append((new, tuple(rest)))
    return False


@st.composite
def run_hand_card(draw: st.DrawFn) -> tuple[Rules, Meld, list[int], int]:
    """A run on the table, a hand (jokers included) and a natural card of the run's suit."""
    rules = draw(rules_st)
    top = 14 if rules.high_aces else 13
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(rules.run_min, min(6, 13)))
    low = draw(st.integers(1, top - length + 1))
    run = tuple(suit * 13 + (p - 1) % 13 for p in range(low, low + length))
    meld = make_meld(run, rules, 0)
    # Cards not on the table, mostly of the run's suit, where the question is not
    # answered at once.
    free = Counter(deck(rules))
    free.subtract(run)
    pool = sorted(free.elements())
    hand = draw(st.permutations(pool))[:draw(st.integers(0, 9))]
    of_suit = [c for c in pool if c // 13 == suit and c != JOKER_CODE]
    hand += draw(st.lists(st.sampled_from(of_suit), max_size=6))
    hand = list((Counter(hand) & free).elements())
    chosen = draw(st.sampled_from([suit * 13 + r for r in range(13)]))
    return rules, meld, hand, chosen


@settings(max_examples=400, deadline=None)
@given(run_hand_card())
def test_a_run_reached_by_the_hand_agrees_with_laying_off_card_by_card(
    case: tuple[Rules, Meld, list[int], int],
) -> None:
    rules, meld, hand, chosen = case
    masks, jokers = suit_masks([*hand, chosen])
    quick = fits(meld, chosen, rules) or _reaches(meld, chosen, masks[meld.suit], jokers,
                                                       rules.high_aces)
    assert quick == _extended_to(_oracle_run(meld), hand, chosen, rules)


def _positions(rules: Rules, seed: int, count: int, pending: bool = False) -> list[Deal]:
    """Positions of random play of ``rules`` with 2 to 4 players (only those with a pile
    card to use when ``pending``)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = Deal.start(rules, players=rng.choice((2, 3, 4)), dealer=0,
                          seed=rng.randrange(10**9))
        while not deal.is_over:
            if (deal.pending >= 0 or not pending) and rng.random() < 0.2:
                out.append(deal.copy())
            actions = deal.legal_actions()
            deal.push(actions[rng.randrange(len(actions))])
    return out


def _usable_by_oracle(deal: Deal, index: int) -> bool:
    """The pile card at ``index``, taken with every card above it, can be melded or laid
    off this turn: on a table meld (once opened) directly or after cards of the hand
    extend a run up to it, or in a meld with cards of the hand (the oracle's melds)."""
    rules = deal.rules
    chosen = deal.pile[index]
    hand = deal.hands[deal.to_move] + deal.pile[index:]
    if any(chosen in m for m in melds_of(tuple(sorted(hand)), rules)):
        return True
    if not deal.opened(deal.to_move):
        return False
    for meld in deal.table:
        reading: Reading
        if meld.kind == "set":
            suits = frozenset(c // 13 for c in meld.cards if c != JK)
            reading = ("set", meld.rank, suits, len(meld.cards))
            if layoff_results(reading, chosen, rules):
                return True
        elif _extended_to(_oracle_run(meld), without(hand, [chosen]), chosen, rules):
            return True
    return False


def test_pile_use_agrees_with_the_oracle_at_every_depth() -> None:
    variants = [
        preset("rummy500"),
        preset("rummy500").replace(decks=2, jokers=2),
        preset("rummy500").replace(opening=30, hand_size=7),
        preset("rummy500").replace(run_min=4, set_min=4),
        preset("rummy500").replace(aces="high-low"),
    ]
    checked = 0
    for n, rules in enumerate(variants):
        for deal in _positions(rules, n, 60):
            if deal.phase != "draw" or not deal.pile:
                continue
            # Each depth alone, from the top down as the legal actions ask, then in
            # another order.
            order = list(range(len(deal.pile) - 1, -1, -1))
            for index in order + random.Random(n).sample(order, len(order)):
                assert usable_after_draw(deal, index) == _usable_by_oracle(deal, index), (
                    deal, index)
                checked += 1
            # All of them in one walk down the pile, and down to a given depth.
            usable = [i for i in order if _usable_by_oracle(deal, i)]
            assert usable_pile_cards(deal) == usable, deal
            assert usable_pile_cards(deal, len(order) // 2) == [i for i in usable
                                                                if i >= len(order) // 2]
    assert checked > 500


def _check_shortcuts(deal: Deal, answered: Counter[object]) -> None:
    """Every answer of ``Shortcuts`` in this position is ``finishable_after``'s, and a
    move after which the turn ends at once is settled by it."""
    rules = deal.rules
    seat = deal.to_move
    hand = deal.hands[seat]
    melds = find_melds(hand, rules) if not deal.meld_limit_reached else []
    short = Shortcuts(deal, melds)
    for cards in melds:
        known = short.meld(cards)
        full = finishable_after(deal, cards, make_meld(cards, rules, seat), None)
        assert known is None or known == full, (deal, cards)
        answered["meld", known] += 1
        _count_pile_answer(deal, cards, make_meld(cards, rules, seat), known, answered)
        if (deal.opened(seat) and (deal.pending < 0 or deal.pending in cards)
                and ends_now(deal, without(hand, cards))):
            assert known is True
    if not deal.opened(seat):
        return
    for i, meld in enumerate(deal.table):
        targets = layoff_targets(meld, rules)
        for c in targets.cards.intersection(hand):
            for low in targets.ends[c]:
                known = short.layoff(c, i, low)
                full = finishable_after(deal, (c,), layoff(meld, c, rules, seat, low), i)
                assert known is None or known == full, (deal, c, i)
                answered["layoff", known] += 1
                _count_pile_answer(deal, (c,), layoff(meld, c, rules, seat, low), known,
                                   answered)


def _count_pile_answer(deal: Deal, used: Sequence[int], made: Meld, known: bool | None,
                       answered: Counter[object]) -> None:
    """Count the answers about a pile card that must still be used after the move."""
    if not 0 <= deal.pending not in used:
        return
    if known is False:
        answered["pile card stranded"] += 1
    elif known:
        answered["pile card kept usable"] += 1
        rules = deal.rules
        if any(fits(m, deal.pending, rules) for m in deal.table):
            return
        if fits(made, deal.pending, rules):
            answered["pile card on the meld made"] += 1
        elif not any(deal.pending in m for m in melds_of(
                tuple(sorted(without(deal.hands[deal.to_move], used))), rules)):
            answered["pile card reached through a run"] += 1


def test_shortcuts_agree_with_the_search() -> None:
    variants = [
        preset("classic"),
        preset("limited-stock"),
        preset("rummy500"),
        preset("rummy500").replace(last_discard="required"),
        preset("rummy500").replace(melds_per_turn="one", decks=2, jokers=2),
        preset("rummy500").replace(opening=30, hand_size=7),
        preset("ramino"),
        preset("ramino").replace(taken_discard="last-card", opening=20),
        preset("ramino").replace(melds_per_turn="one"),
    ]
    answered: Counter[object] = Counter()
    for n, rules in enumerate(variants):
        for deal in _positions(rules, 100 + n, 80):
            if deal.phase == "play":
                _check_shortcuts(deal, answered)
    # Each kind of answer came up, a pile card kept usable among them.
    assert answered["meld", True] > 50 and answered["meld", False] > 50
    assert answered["meld", None] > 10 and answered["layoff", True] > 50
    assert answered["pile card kept usable"] > 20


def test_shortcuts_with_a_pile_card_to_use_agree_with_the_search() -> None:
    variants = [
        preset("rummy500"),
        preset("rummy500").replace(last_discard="required"),
        preset("rummy500").replace(melds_per_turn="one", decks=2, jokers=2),
        preset("rummy500").replace(hand_size=7),
    ]
    answered: Counter[object] = Counter()
    for n, rules in enumerate(variants):
        for deal in _positions(rules, 200 + n, 150, pending=True):
            _check_shortcuts(deal, answered)
    # Each way a pile card stays usable or is stranded came up.
    assert answered["pile card kept usable"] > 200
    assert answered["pile card on the meld made"] > 30
    assert answered["pile card reached through a run"] > 10
    assert answered["pile card stranded"] > 30
    assert answered["layoff", None] > 20
