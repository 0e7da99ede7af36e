"""The greedy bot: takes the pile when its top card completes a meld, melds and lays off
at once, and discards its highest-value card that is in no meld."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.cards import JOKER_CODE
from rummykit.engine.actions import Action
from rummykit.engine.melds import (
    Meld,
    best_deadwood,
    card_points,
    find_melds,
    fits,
    forms_meld_with,
    make_meld,
    meld_points,
    suit_masks,
)
from rummykit.engine.views import View
from rummykit.rules import Rules

__all__ = ["GreedyBot", "fits_table", "joins", "near", "pile_index", "uses_card"]


def joins(card: int, hand: Sequence[int], rules: Rules) -> bool:
    """Whether ``card`` would be in some meld with cards of ``hand`` (from the hand's suit
    masks where no joker is involved: the bots ask it of many cards)."""
    masks, jokers = suit_masks(hand)
    if jokers or card == JOKER_CODE:
        return any(card in cards for cards in find_melds([*hand, card], rules))
    masks[card // 13] |= 2 << card % 13
    return forms_meld_with(card, masks, rules)


def near(a: int, b: int) -> bool:
    """Whether two natural cards are one card short of a meld together: the same rank, or
    the same suit within two places (two equal cards of two decks are neither)."""
    if a == b:
        return False
    return a % 13 == b % 13 or (a // 13 == b // 13 and 0 < abs(a % 13 - b % 13) <= 2)


def fits_table(melds: Sequence[Meld], card: int, rules: Rules) -> bool:
    """Whether ``card`` could be laid off on one of ``melds``."""
    return any(fits(meld, card, rules) for meld in melds)


def uses_card(view: View, card: int, extra: Sequence[int] = ()) -> bool:
    """Whether ``card`` would join a meld with the hand (and ``extra`` cards taken with it)
    that can be laid this turn, or could be laid off on the table.

    Before a player has opened (ramino), a meld counts only when the hand's melds with it
    reach the opening: a card that cannot be melded yet would only go round the pile."""
    rules = view.rules
    hand = [*view.hand, *extra, card]
    if not view.opened[view.seat]:
        _, melds = best_deadwood(hand, rules)
        if not any(card in cards for cards in melds):
            return False
        value = sum(meld_points(make_meld(cards, rules, view.seat), rules) for cards in melds)
        return value >= rules.opening
    if any(card in cards for cards in find_melds(hand, rules)):
        return True
    return fits_table(view.melds, card, rules)


def pile_index(view: View, action: Action) -> int:
    """Where in the visible pile the card a pile draw chooses lies."""
    if action.cards:
        for i in range(len(view.pile) - 1, -1, -1):
            if view.pile[i] == action.cards[0]:
                return i
    return len(view.pile) - 1


class GreedyBot:
    """Plays for the points in hand now, without looking ahead."""

    name = "greedy"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("it is not this bot's turn: the view offers no legal action")
        if view.phase == "draw":
            return self._draw(view, legal)
        rules = view.rules
        melds = [a for a in legal if a.kind == "meld"]
        if melds:
            return max(melds, key=lambda a: (
                meld_points(make_meld(a.cards, rules, 0), rules), len(a.cards)))
        layoffs = [a for a in legal if a.kind == "layoff" and a.cards[0] != JOKER_CODE]
        if layoffs:
            return max(layoffs, key=lambda a: card_points(a.cards[0], rules))
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return legal[0]
        in_melds = {c for cards in find_melds(list(view.hand), rules) for c in cards}
        naturals = [a for a in discards if a.cards[0] != JOKER_CODE]
        loose = [a for a in naturals if a.cards[0] not in in_melds]
        pool = loose or naturals or discards
        return max(pool, key=lambda a: (card_points(a.cards[0], rules), a.cards[0]))

    def _draw(self, view: View, legal: Sequence[Action]) -> Action:
        best: tuple[int, Action] | None = None
        for action in legal:
            if action.kind != "draw-pile" or not view.pile:
                continue
            index = pile_index(view, action)
            extra = view.pile[index + 1:]
            if uses_card(view, view.pile[index], extra) and (best is None or len(extra) < best[0]):
                best = (len(extra), action)
        if best is not None:
            return best[1]
        for action in legal:
            if action.kind == "draw-stock":
                return action
        return legal[0]
