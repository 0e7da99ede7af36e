"""The rollout policy's shortcuts give what the plain computations give.

The policy (:mod:`rummykit.bots.rollout`) plays every imagined deal of the master's search,
so it works from bit masks: the outs of a card from the hand as a mask
(``outs_in_masks``), whether a card joins a meld from the hand's suit masks (``joins``),
what fits the table from each meld's mask. Each is checked here against the plain
computation it stands for (the expert's ``count_outs``, the list of the hand's melds,
``fits_table``), and the whole policy against the same policy written plainly, at
positions of random play in every preset. This file is in the engine's suite, so the
compiled build (which compiles the policy and the meld module) is checked too."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.bots.expert import PENALTY_WEIGHTS, WEIGHTS, count_outs
from rummykit.bots.greedy import fits_table, joins
from rummykit.bots.rollout import _table_fits, fast_action
from rummykit.cards import JOKER_CODE
from rummykit.engine import Deal
from rummykit.engine.actions import DRAW_PILE, DRAW_STOCK, END, Action
from rummykit.engine.melds import card_points, find_melds, fits, outs_in_masks
from rummykit.rules import PRESETS, Rules


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_outs_are_the_experts_count(data: st.DataObject) -> None:
    """``outs_in_masks`` of every card of a hand equals ``count_outs`` with the unseen cards as a
    set (the unseen cards never include one the hand holds)."""
    hand = data.draw(st.lists(st.integers(0, 51), min_size=1, max_size=14, unique=True))
    rest = [c for c in range(52) if c not in hand]
    unseen = data.draw(st.lists(st.sampled_from(rest), unique=True)) if rest else []
    held = sum(1 << c for c in hand)
    mask = sum(1 << c for c in unseen)
    rules = Rules.parse("classic")
    for card in hand:
        assert outs_in_masks(card, held, mask) == count_outs(card, hand, set(unseen), rules), card


def _plain_joins(card: int, hand: list[int], rules: Rules) -> bool:
    """Whether ``card`` is in some meld of the hand with it, from the list of its melds."""
    return any(card in cards for cards in find_melds([*hand, card], rules))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_joins_is_the_list_of_melds(data: st.DataObject) -> None:
    """``joins`` (from suit masks where no joker is involved) answers as the list of the
    melds of the hand with the card does, with and without jokers, aces high or low, with
    the two decks of ramino."""
    preset = data.draw(st.sampled_from(["classic", "rummy500", "ramino"]))
    rules = Rules.parse(preset)
    top = JOKER_CODE if rules.jokers else 51
    hand = data.draw(st.lists(st.integers(0, top), min_size=0, max_size=14))
    card = data.draw(st.integers(0, top))
    assert joins(card, hand, rules) == _plain_joins(card, hand, rules)


def _plain_action(deal: Deal, rng: random.Random) -> Action:
    """The rollout policy written with the plain functions: what ``fast_action`` must
    choose (and the same draws from ``rng``)."""
    rules = deal.rules
    seat = deal.to_move
    hand = deal.hands[seat]
    if deal.phase == "draw":
        if deal.pile:
            top = deal.pile[-1]
            if (_plain_joins(top, hand, rules) or (deal.opened(seat) and fits_table(
                    deal.table, top, rules))) and deal.can(DRAW_PILE):
                return DRAW_PILE
        for action in (DRAW_STOCK, END):
            if deal.can(action):
                return action
        return Action("fallback")
    melds = find_melds(hand, rules)
    if melds and not deal.meld_limit_reached:
        for cards in sorted(melds, key=len, reverse=True)[:3]:
            if deal.can(Action("meld", cards)):
                return Action("meld", cards)
    in_melds = {c for cards in melds for c in cards}
    if deal.opened(seat) and deal.table:
        for c in sorted(set(hand), key=lambda c: -card_points(c, rules)):
            if c in in_melds or c == JOKER_CODE:
                continue
            for number, meld in enumerate(deal.table, 1):
                if fits(meld, c, rules) and deal.can(Action("layoff", (c,), number)):
                    return Action("layoff", (c,), number)
    loose = [c for c in set(hand) if c not in (deal.taken, JOKER_CODE) and c not in in_melds]
    pool = loose or [c for c in set(hand) if c not in (deal.taken, JOKER_CODE)]
    weights = PENALTY_WEIGHTS if rules.scoring == "penalty" else WEIGHTS
    close = any(len(h) <= weights.close for s, h in enumerate(deal.hands)
                if s != seat and deal.active[s])
    scale, keep = (weights.close_points, weights.close_keep) if close else (1.0, weights.keep)
    seen = {*hand, *deal.pile, *(c for m in deal.table for c in m.cards)}
    unseen = {c for c in range(52) if c not in seen}
    ranked = sorted(((scale * card_points(c, rules)
                      - (keep * count_outs(c, hand, unseen, rules) if keep else 0.0)
                      + rng.random() * 0.1, c) for c in pool), reverse=True)[:3]
    for _, c in ranked:
        if deal.can(Action("discard", (c,))):
            return Action("discard", (c,))
    return Action("fallback")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fast_action_is_the_plain_policy(preset: str) -> None:
    """At every position of 2- and 4-player deals of random play, ``fast_action`` chooses
    what the plain policy chooses and draws the same numbers from its generator (where
    the plain policy finds nothing, ``fast_action``'s last resort lists the legal
    actions: it must then give one of them)."""
    rules = Rules.parse(preset)
    positions = 0
    for seed in range(6):
        for players in (2, 4):
            deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
            play = random.Random(seed)
            while not deal.is_over:
                a, b = random.Random(positions), random.Random(positions)
                chosen = fast_action(deal, a)
                expected = _plain_action(deal, b)
                if expected.kind == "fallback":
                    assert chosen in deal.legal_actions()
                else:
                    assert chosen == expected, (preset, seed, positions)
                    assert a.random() == b.random()
                positions += 1
                deal.push(play.choice(deal.legal_actions()))
    assert positions > 200


def test_table_fits_is_fits_table() -> None:
    """The table's mask holds exactly the cards ``fits_table`` says fit (positions of
    random rummy500 play, where the table grows big)."""
    rules = Rules.parse("rummy500")
    play = random.Random(1)
    checked = 0
    for seed in range(4):
        deal = Deal.start(rules, players=2, dealer=0, seed=seed)
        while not deal.is_over:
            mask = _table_fits(deal.table, rules)
            for c in range(JOKER_CODE + 1):
                assert bool(mask >> c & 1) == fits_table(deal.table, c, rules)
            checked += bool(deal.table)
            deal.push(play.choice(deal.legal_actions()))
    assert checked > 20
