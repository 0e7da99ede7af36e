"""What melds keep for speed answers as the rules do: the lay-off targets and the bit mask
of fitting cards kept on a meld agree with the one lay-off predicate for every card (and
follow the rules they were asked under), kept melds and hashes survive copies and pickles
only as fresh values, the tables behind ``find_melds`` give the melds that the hand's
cards form (checked against every sub-multiset, small hands only), and the actions made
once per meld or lay-off are the actions they stand for, and the deal's index of the
table melds each card fits stays, move by move, what asking every meld would say."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError
from itertools import combinations

import pytest

from rummykit.cards import JOKER_CODE, make_deck
from rummykit.engine import Deal
from rummykit.engine.actions import Action, layoff_action, meld_action
from rummykit.engine.melds import (
    Meld,
    find_melds,
    fit_mask,
    layoff,
    layoff_ends,
    layoff_targets,
    make_meld,
)
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules

PRESETS = ("basic", "classic", "rummy500", "ramino")
VARIANTS = (*PRESETS, "classic(run_min=4,aces=high-low)", "basic(set_min=4,run_min=5)")
"""The presets, and meld rules the presets do not use (longer runs, bigger sets)."""


def _table_melds(rules: Rules, seed: int) -> list[Meld]:
    """Melds of random hands of these rules (with their jokers)."""
    rng = random.Random(seed)
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    out = []
    for owner in range(30):
        hand = rng.sample(deck, 14)
        for cards in find_melds(hand, rules):
            out.append(make_meld(cards, rules, owner % 4))
    return out


@pytest.mark.parametrize("name", (*VARIANTS, "ramino(set_max=3)", "rummy500(aces=low)"))
def test_layoff_targets_agree_with_layoff_ends_for_every_card(name: str) -> None:
    # Melds alike share their targets across rules objects, so every rule set of this
    # process is asked, in turn, of melds that others have made too.
    rules = Rules.parse(name)
    melds = _table_melds(rules, 7)
    assert melds
    for meld in melds:
        targets = layoff_targets(meld, rules)
        mask = fit_mask(meld, rules)
        for code in range(JOKER_CODE + 1):
            ends = layoff_ends(meld, code, rules)
            assert targets.ends[code] == ends
            assert (code in targets.cards) == bool(ends)
            assert bool(mask >> code & 1) == bool(ends)


def test_fit_mask_follows_the_rules_it_is_asked_under() -> None:
    """The same run J-Q-K of hearts with a low-ace rules object and a high-ace one: the ace
    fits only under the second, asked one after the other on the one meld."""
    low, high = Rules.parse("classic"), Rules.parse("classic(aces=high-low)")
    meld = Meld("run", (36, 37, 38), (0, 0, 0), 0, suit=2, low=11, high=13)  # JH QH KH
    ace = 26  # AH
    assert not fit_mask(meld, low) >> ace & 1
    assert fit_mask(meld, high) >> ace & 1
    assert not fit_mask(meld, low) >> ace & 1


@pytest.mark.parametrize("name", VARIANTS)
def test_find_melds_lists_exactly_the_melds_of_the_cards(name: str) -> None:
    """Every meld listed is a meld of the hand's cards, and every set of the hand's cards
    that is a meld (in the order find_melds writes them) is listed."""
    rules = Rules.parse(name)
    rng = random.Random(11)
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    for i in range(40):
        hand = rng.sample(deck, 8)
        if rules.jokers >= 2 and i % 4 == 0:  # two jokers at once: drawn too rarely
            naturals = [c for c in hand if c != JOKER_CODE]
            hand = [JOKER_CODE, JOKER_CODE, *naturals[:6]]
        listed = find_melds(hand, rules)
        assert len(set(listed)) == len(listed)
        for cards in listed:
            make_meld(cards, rules, 0)  # raises if it is not a meld
            rest = list(hand)
            for c in cards:
                rest.remove(c)  # the hand holds every card of the meld
        found = set(listed)
        for size in range(3, len(hand) + 1):
            for combo in combinations(sorted(hand), size):
                try:
                    meld = make_meld(combo, rules, 0)
                except IllegalActionError:
                    continue
                # A set whatever its order; a run in the order written, which the sorted
                # order is when it holds no joker (and makes the run at all).
                if meld.kind == "set" or JOKER_CODE not in combo:
                    assert tuple(meld.cards) in found


def test_copies_and_pickles_of_a_meld_keep_nothing_cached() -> None:
    rules = Rules.parse("rummy500")
    meld = make_meld((24, 25, 13), rules, 1)  # QD KD AD: a run with a high ace
    layoff_targets(meld, rules)
    hash(meld)
    for other in (pickle.loads(pickle.dumps(meld)), copy.copy(meld), copy.deepcopy(meld)):
        assert other == meld
        assert hash(other) == hash(meld)
        assert other._targets is None
        assert other._fits_for is None


def test_layoff_targets_copy_and_pickle_as_equal_values() -> None:
    rules = Rules.parse("rummy500")
    targets = layoff_targets(make_meld((24, 25, 13), rules, 1), rules)  # QD KD AD
    assert 23 in targets.cards  # JD below the queen
    for other in (pickle.loads(pickle.dumps(targets)), copy.copy(targets),
                  copy.deepcopy(targets)):
        assert other == targets and hash(other) == hash(targets)
        assert other.cards == targets.cards and other.ends == targets.ends


def test_a_meld_matches_by_position_as_its_fields_are_written() -> None:
    meld = Meld("run", (36, 37, 38), (0, 0, 1), 0, suit=2, low=11, high=13)
    match meld:
        case Meld("run", cards, _, owner, _, suit, low, high):
            assert (cards, owner, suit, low, high) == ((36, 37, 38), 0, 2, 11, 13)
        case _:
            pytest.fail("a run meld did not match as a run")


def test_a_meld_cannot_be_changed_and_compares_by_its_fields_only() -> None:
    """A meld is a value: no field can be set or deleted, equal fields make equal melds
    with one hash whatever each keeps, and its repr reads back as the same meld."""
    rules = Rules.parse("classic")
    meld = Meld("run", (36, 37, 38), (0, 0, 1), 0, suit=2, low=11, high=13)
    twin = Meld("run", (36, 37, 38), (0, 0, 1), 0, suit=2, low=11, high=13)
    layoff_targets(meld, rules)
    fit_mask(meld, rules)
    with pytest.raises(FrozenInstanceError):
        meld.owner = 1
    with pytest.raises(FrozenInstanceError):
        del meld.cards
    assert meld.owner == 0 and meld.cards == (36, 37, 38)
    assert meld == twin and hash(meld) == hash(twin)
    assert meld != Meld("run", (36, 37, 38), (0, 0, 0), 0, suit=2, low=11, high=13)
    assert meld != Meld("set", (36, 37, 38), (0, 0, 1), 0, suit=2, low=11, high=13)
    assert meld != (36, 37, 38)
    assert eval(repr(meld), {"Meld": Meld}) == meld


def test_actions_made_once_are_the_actions_they_stand_for() -> None:
    run = (24, 25, 13)
    assert meld_action(run) == Action("meld", run)
    assert meld_action(run) is meld_action(run)
    for card, number, low in ((52, 3, True), (52, 3, False), (7, 1, False), (40, 12, False)):
        assert layoff_action(card, number, low) == Action("layoff", (card,), number, low)
    assert layoff_action(52, 3, True) != layoff_action(52, 3, False)


def _index_is_the_table(deal: Deal) -> None:
    """The deal's index names, for each card, exactly the places of the table's melds that
    :func:`layoff_ends` lets the card be laid off on."""
    index = deal._fits
    assert index is not None
    for code in range(JOKER_CODE + 1):
        expected = [place for place, meld in enumerate(deal.table)
                    if layoff_ends(meld, code, deal.rules)]
        assert sorted(index.get(code, [])) == expected


@pytest.mark.parametrize("name", [*PRESETS, "classic(run_min=4,aces=high-low)"])
def test_the_deals_index_of_fitting_melds_follows_every_meld_and_layoff(name: str) -> None:
    """The index is kept up to date as melds are laid and added to rather than made again
    (the Python build makes it when first needed; here it is made at the deal's start in
    both builds): after every move it is what asking every meld would say. A copy and a
    pickle taken mid-deal start without it (it is made again, not shared), and theirs
    follow the same moves as the original's."""
    rules = Rules.parse(name)
    rng = random.Random(11)
    layoffs = 0
    for seed in range(12):
        deal = Deal.start(rules, players=2 + seed % 3, dealer=0, seed=seed)
        deal._fits_by_card()
        others: list[Deal] = []
        while not deal.is_over:
            action = rng.choice(deal.legal_actions())
            for d in (deal, *others):
                d.push(action)
                _index_is_the_table(d)
            layoffs += action.kind == "layoff"
            if not others and len(deal.table) >= 2:
                others = [deal.copy(), pickle.loads(pickle.dumps(deal))]
                assert [d._fits for d in others] == [None, None]
                for d in others:
                    d._fits_by_card()
                    _index_is_the_table(d)
    assert layoffs >= 5  # the index was updated by lay-offs, not only by new melds


@pytest.mark.parametrize("name", [*PRESETS, "rummy500(decks=2)", "rummy500(jokers=2)",
                                  "classic(run_min=4,aces=high-low)"])
def test_the_melds_kept_through_a_turn_are_those_of_the_hand(name: str) -> None:
    """The deal keeps the melds of the hand of the player to move from one play position
    of a turn to the next, dropping those that hold a card just melded or laid off: at
    every play position they are what ``find_melds`` lists for the hand as it is, in the
    same order, and the legal actions are those of a copy, which starts without them. A
    turn of several melds and lay-offs (rummy500's) reuses them; with two decks or jokers
    they are made again."""
    rules = Rules.parse(name)
    rng = random.Random(5)
    reused = 0
    for seed in range(10):
        deal = Deal.start(rules, players=2 + seed % 3, dealer=0, seed=seed)
        while not deal.is_over:
            kept = deal._melds if deal.phase == "play" else None
            actions = deal.legal_actions()
            if deal.phase == "play" and not deal.meld_limit_reached:
                assert deal._melds == find_melds(deal.hands[deal.to_move], rules)
                assert deal.copy().legal_actions() == actions
                reused += kept is not None
            deal.push(rng.choice(actions))
    if rules.decks == 1 and not rules.jokers and rules.melds_per_turn == "many":
        assert reused > 50


def _forms_run(cards: tuple[int, ...], rules: Rules) -> bool:
    try:
        return make_meld(cards, rules, 0).kind == "run"
    except IllegalActionError:
        return False


@pytest.mark.parametrize("name", VARIANTS)
def test_a_layoff_puts_the_card_where_it_fits_and_keeps_who_laid_each_card(name: str) -> None:
    """Every card that fits a meld, laid off by a player: on a set it joins the natural
    cards in order, jokers last (a card after a card alike); on a run a natural card goes
    at the end where the run it makes reads in order, the high end where both do (an ace
    on a run from the two to the king), and a joker at the end it is laid at. Who laid
    each card follows it."""
    rules = Rules.parse(name)
    by = 7
    seen = {"set": 0, "run": 0}
    for meld in [m for seed in range(12) for m in _table_melds(rules, seed)]:
        targets = layoff_targets(meld, rules)
        for code in targets.cards:
            for low in targets.ends[code]:
                got = layoff(meld, code, rules, by, low)
                if meld.kind == "set":
                    pairs = sorted(zip((*meld.cards, code), (*meld.layers, by), strict=True),
                                   key=lambda p: (p[0] == JOKER_CODE, p[0]))
                    expected = (tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))
                else:
                    up = (*meld.cards, code)
                    at_high = not low if code == JOKER_CODE else _forms_run(up, rules)
                    expected = ((up, (*meld.layers, by)) if at_high
                                else ((code, *meld.cards), (by, *meld.layers)))
                assert (got.cards, got.layers) == expected, (meld, code, low)
                assert got.kind == meld.kind and got.owner == meld.owner
                seen[meld.kind] += 1
    assert seen["run"] > 5
    assert seen["set"] > 5 or rules.set_min == rules.set_max  # else a set is full when laid
