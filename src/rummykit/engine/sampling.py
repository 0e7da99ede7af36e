"""Deals that agree with what one seat has seen: the search bots' imagined worlds.

:func:`determinize` deals a full deal that agrees with a seat's view: its own hand, the
table, the pile, the known cards where they are known to be (its
:class:`~rummykit.engine.knowledge.Knowledge`), and the hidden cards of each group dealt
uniformly at random into that group's places from a given generator. A search bot plays
such deals to the end to judge its choices without seeing a hidden card.

>>> import random
>>> from rummykit.rules import preset
>>> from rummykit.engine import Deal
>>> deal = Deal.start(preset("classic"), players=2, dealer=0, seed=4)
>>> sample = determinize(deal, random.Random(0), seat=1)
>>> sorted(sample.hands[1]) == sorted(deal.hands[1]), sample.pile == deal.pile, len(sample.stock)
(True, True, 31)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rummykit.engine.deal import Deal
from rummykit.engine.knowledge import Tracker
from rummykit.engine.layout import Layout, shuffle
from rummykit.engine.views import View
from rummykit.engine.views import view as view_of

__all__ = ["determinize"]


def _draw_weighted(cards: list[int], odds: Mapping[int, float], count: int,
                   rng: random.Random) -> list[int]:
    """Take ``count`` cards out of ``cards`` (in place), one at a time, each with a chance
    in proportion to its odds among those left."""
    taken = []
    weights = [odds.get(c, 1.0) for c in cards]
    for _ in range(count):
        point = rng.random() * sum(weights)
        index = len(cards) - 1
        for i, w in enumerate(weights):
            point -= w
            if point < 0:
                index = i
                break
        taken.append(cards.pop(index))
        weights.pop(index)
    return taken


def determinize(source: View | Deal, rng: random.Random, *, seat: int | None = None,
                odds: Sequence[Mapping[int, float]] | None = None) -> Deal:
    """A full deal that agrees with everything one seat has seen, the cards it cannot
    place dealt at random from ``rng``.

    Without ``odds`` every way of filling the hidden places is equally likely. With
    ``odds`` (for each seat, a card's odds of being in that seat's hand rather than another
    hidden place; 1 for a card not named), each seat's hidden places are filled in turn,
    each card drawn with a chance in proportion to its odds among the cards still left,
    and the stock gets the rest in random order: a search that has judged which cards an
    opponent likely holds imagines those hands more often. The seats are filled in a
    random order.

    ``source`` is the seat's :class:`~rummykit.engine.views.View` (with its whole
    history), or a deal and ``seat``. The new deal starts where the view is: its hands,
    stock and pile are the sampled position (also its ``layout``), its history is the
    public history, its seed is drawn from ``rng`` (for any later refill), and positions
    are counted for the repetition rule from here on. The seat sees in it exactly what it
    saw.
    """
    if isinstance(source, Deal):
        if seat is None:
            raise ValueError("determinize(deal, rng, seat=...): name the seat")
        v = view_of(source, seat)
    else:
        v = source
        if seat is not None and seat != v.seat:
            raise ValueError(f"the view is seat {v.seat}'s, not seat {seat}'s")
    if len(v.history) != v.history_length:
        raise ValueError("determinize needs a view with the whole history (recent=None)")
    k = v.knowledge
    players = len(v.hand_sizes)
    if odds is not None and len(odds) != players:
        raise ValueError(f"odds for {len(odds)} seats at a table of {players}")
    hands = [list(k.known[s]) for s in range(players)]
    hands[v.seat] = list(k.hand)
    stock = list(k.stock)
    for group in k.hidden:
        cards = list(group.cards)
        shuffle(cards, rng)
        if odds is not None:
            # The seats in a random order, so that none is served first every time.
            order = [s for s, count in enumerate(group.hands) if count]
            shuffle(order, rng)
            for s in order:
                hands[s].extend(_draw_weighted(cards, odds[s], group.hands[s], rng))
        dealt = iter(cards)
        if odds is None:
            for s, count in enumerate(group.hands):
                hands[s].extend(next(dealt) for _ in range(count))
        for place in group.stock:
            stock[place] = next(dealt)
    layout = Layout(tuple(tuple(h) for h in hands), tuple(stock), tuple(k.pile))
    deal = Deal(v.rules, players=players, dealer=v.dealer, layout=layout,
                seed=rng.getrandbits(62), index=v.deal_number - 1, active=v.active,
                _blank=True)
    deal.hands = hands
    deal.stock = stock[::-1]
    deal.pile = list(k.pile)
    deal.table = list(v.melds)
    deal.to_move = v.to_move
    deal.phase = v.phase
    deal.taken = v.taken if v.taken is not None else -1
    deal.pending = v.must_use if v.must_use is not None else -1
    deal.turn_melds = v.melds_this_turn
    deal.turn_value = v.turn_value
    deal.turn_laid = v.turn_laid
    deal.turn_overs_used = v.turn_overs_used
    deal.refills_used = v.refills_used
    deal._opened = list(v.opened)
    deal._laid = list(v.laid)
    deal._set_moves(v.history)
    deal._pile_log = [(s, tuple(int(c) for c in cards)) for s, cards in v.pile_draws]
    deal._events = tuple(v.events)
    deal._positions = None
    deal._turn_key = None
    deal._tracker = Tracker.from_knowledge(k, done=len(v.history), events_done=len(v.events),
                                           players=players)
    deal._result = v.deal_result
    return deal
