"""A fast playing policy for rollouts: whole deals played out inside a search.

A search bot imagines a deal (a determinized deal of its view) and plays it to the end
many times; each play must be cheap. :func:`fast_action` decides for the player to move
from what that player holds and sees (its hand, the table, the pile's top), never from
another hand, and checks its choice with the engine's ``can`` (the engine stays the one
judge of legality); only when its first choice is refused does it list the legal actions.

The policy is greedy with refinements that cost little: it takes the pile card when the
card joins a meld with its hand or fits the table, and of the cards in no meld it discards
the one the expert would weigh cheapest (its points against its outs: the cards not in
sight that would make a meld with it and a card of the hand; the highest card first when
an opponent is close to going out or where hand points are penalties). It agrees with
the expert's discard nine times in ten (2-player ``classic``; three in four when it threw
the highest card short of a meld partner), and the master measured stronger with it.

It is most of what a search costs, so it reads the hand, the table and the cards in sight
as bit masks (a card's outs are a few bit tests, what fits the table one number) and is
compiled with the engine in the compiled build: it chooses exactly what the same policy
written with the expert's ``count_outs`` and the greedy bot's ``joins`` and
``fits_table`` chooses (``tests/bots/test_rollout.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rummykit.bots.expert import PENALTY_WEIGHTS, WEIGHTS
from rummykit.bots.greedy import joins
from rummykit.cards import JOKER_CODE
from rummykit.engine.actions import DRAW_PILE, DRAW_STOCK, END, Action
from rummykit.engine.deal import Deal
from rummykit.engine.melds import Meld, card_points, find_melds, fit_mask, outs_in_masks
from rummykit.engine.scoring import points_against
from rummykit.rules import Rules

__all__ = ["MAX_ROLLOUT_ACTIONS", "fast_action", "play_out"]

MAX_ROLLOUT_ACTIONS = 2_000
"""A rollout that has not ended after this many actions is scored where it stands."""


def fast_action(deal: Deal, rng: random.Random) -> Action:
    """The policy's action for the player to move (legal: checked with ``deal.can``)."""
    rules = deal.rules
    seat = deal.to_move
    hand = deal.hands[seat]
    if deal.phase == "draw":
        pile = deal.pile
        if pile:
            top = pile[-1]
            if (joins(top, hand, rules) or (deal.opened(seat) and _table_fits(
                    deal.table, rules) >> top & 1)) and deal.can(DRAW_PILE):
                return DRAW_PILE
        if deal.can(DRAW_STOCK):
            return DRAW_STOCK
        if deal.can(END):
            return END
        return _fallback(deal, rng)
    melds = find_melds(hand, rules)
    if melds and not deal.meld_limit_reached:
        # The biggest meld first (more cards out of the hand).
        for cards in sorted(melds, key=len, reverse=True)[:3]:
            action = Action("meld", cards)
            if deal.can(action):
                return action
    in_melds = {c for cards in melds for c in cards}
    distinct = set(hand)
    table = deal.table
    if deal.opened(seat) and table:
        # The cards in no meld that fit the table, the highest first; each on the first
        # meld of the table it fits.
        fit = _table_fits(table, rules)
        fitting = [c for c in distinct
                   if fit >> c & 1 and c not in in_melds and c != JOKER_CODE]
        for c in sorted(fitting, key=lambda c: -card_points(c, rules)):
            for number, meld in enumerate(table, 1):
                if fit_mask(meld, rules) >> c & 1:
                    action = Action("layoff", (c,), number)
                    if deal.can(action):
                        return action
    taken = deal.taken
    # A card in no meld; where every card is in a meld that may not be laid yet (an
    # opening not reached), any card.
    loose = [c for c in distinct if c not in (taken, JOKER_CODE) and c not in in_melds]
    pool = loose or [c for c in distinct if c not in (taken, JOKER_CODE)]
    # The expert's weighing of a discard (its points against its outs), which the
    # opponent in a search is most often modelled as.
    weights = PENALTY_WEIGHTS if points_against(rules) else WEIGHTS
    close = any(len(h) <= weights.close for s, h in enumerate(deal.hands)
                if s != seat and deal.active[s])
    scale, keep = (weights.close_points, weights.close_keep) if close else (1.0, weights.keep)
    held = unseen = 0
    if keep:
        for c in hand:
            held |= 1 << c
        seen = held
        for c in deal.pile:
            seen |= 1 << c
        for meld in table:
            for c in meld.cards:
                seen |= 1 << c
        unseen = _DECK & ~seen
    ranked = sorted(((scale * card_points(c, rules)
                      - (keep * outs_in_masks(c, held, unseen) if keep else 0.0)
                      + rng.random() * 0.1, c) for c in pool), reverse=True)[:3]
    for _, c in ranked:
        action = Action("discard", (c,))
        if deal.can(action):
            return action
    return _fallback(deal, rng)


_DECK = (1 << 52) - 1
"""The natural cards as a bit mask (bit ``c`` for card code ``c``)."""


def _table_fits(table: Sequence[Meld], rules: Rules) -> int:
    """The cards that fit some meld of ``table``, as a bit mask (:func:`fit_mask`)."""
    fit = 0
    for meld in table:
        fit |= fit_mask(meld, rules)
    return fit


def _fallback(deal: Deal, rng: random.Random) -> Action:
    legal = deal.legal_actions()
    discards = [a for a in legal if a.kind == "discard"]
    if discards:
        rules = deal.rules
        return max(discards, key=lambda a: (card_points(a.cards[0], rules), a.cards[0]))
    melds = [a for a in legal if a.kind in ("meld", "layoff")]
    if melds:
        return max(melds, key=lambda a: len(a.cards))
    return legal[0] if len(legal) == 1 else rng.choice(legal)


def play_out(deal: Deal, rng: random.Random, *, limit: int = MAX_ROLLOUT_ACTIONS,
             deadline: float | None = None) -> int | None:
    """Play ``deal`` (in place) to its end with :func:`fast_action`; return the number of
    actions played (it stops, unfinished, after ``limit``). With ``deadline`` (a
    ``time.perf_counter()`` reading), a play still going on then is abandoned: None."""
    played = 0
    while not deal.is_over and played < limit:
        deal.push(fast_action(deal, rng))
        played += 1
        if deadline is not None and played % 16 == 0 and time.perf_counter() > deadline:
            return None
    return played
