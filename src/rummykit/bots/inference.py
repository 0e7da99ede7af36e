"""Inference: which hidden hands explain what the opponents did.

A determinized deal deals the cards a seat cannot place uniformly at random. Real hands
are not uniform: a player keeps cards that make melds and throws the others away, takes
the pile card he can use and lets pass the one he cannot. Each imagined opponent hand is
weighed by how well it explains that player's public actions (naive Bayes: one factor per
observation, each measured in play by ``bench/inference.py``):

- the hand's deadwood (the points left once its best melds are put aside): players keep
  meld-rich hands, so a low deadwood is likelier than in a random hand;
- a card the player let pass on the pile (he drew from the stock instead) that would join
  a meld with his hand: unlikely, he would have taken it;
- a card he discarded that would join a meld with his hand: unlikely, he would have kept it.

:func:`sample_worlds` draws more imagined deals than it needs and keeps them in proportion
to their weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots.expert import discard_costs
from rummykit.cards import JOKER_CODE, without
from rummykit.engine.deal import Deal
from rummykit.engine.knowledge import determinize
from rummykit.melds import Meld, best_deadwood, card_points, find_melds
from rummykit.rules import Rules
from rummykit.views import View

__all__ = ["FEATURES", "WEIGHTS", "Observations", "features", "observations", "sample_worlds",
           "weight"]

FEATURES: tuple[str, ...] = (
    "deadwood", "near_pairs", "high_cards", "declined_joins", "discarded_joins",
    "discarded_near", "discard_logp",
)
"""What is measured of an imagined hand (see :func:`features`)."""

WEIGHTS: tuple[float, ...] = (0.048, 0.237, -0.442, -0.281, -0.199, -0.532, 1.585)
"""The log-weight of each unit of each feature (fitted by ``bench/inference.py``)."""

TEMPERATURE = 3.0
"""How sharply a player prefers the discard the expert's weighing finds best: the chance of
each discard goes as e**(-cost/TEMPERATURE)."""
UNLIKELY = 0.02
"""The chance given to a discard of a card the hand had in a meld."""

RECENT = 4
"""How many of each player's latest passes and discards are weighed (older ones were
weighed against a hand that has changed since)."""
OVERSAMPLE = 4
"""Imagined deals drawn for each one kept."""


@dataclass(frozen=True, slots=True)
class Observations:
    """What each seat was seen to do with the pile this deal, latest first."""

    declined: tuple[tuple[int, ...], ...]
    """For each seat, the pile tops it let pass (it drew from the stock instead)."""
    discarded: tuple[tuple[int, ...], ...]
    """For each seat, the cards it discarded that are still on the pile or gone."""
    last_discard: tuple[int, ...]
    """For each seat, the card that ended its last turn (-1 before its first)."""
    last_taken: tuple[int, ...]
    """For each seat, the pile card it took in its last turn (-1: it drew from the stock)."""


def observations(view: View) -> Observations:
    """Read the public history backwards from the pile as it is: undoing each discard and
    each pile draw gives the pile's top card at every stock draw (up to the last time the
    pile was turned over or refilled, before which the pile was another)."""
    players = len(view.hand_sizes)
    pile = list(view.knowledge.pile)
    declined: list[list[int]] = [[] for _ in range(players)]
    discarded: list[list[int]] = [[] for _ in range(players)]
    draws = list(view.pile_draws)
    last_discard = [-1] * players
    last_taken = [-1] * players
    for seat, action in reversed(view.history):
        if action.kind == "discard" and last_discard[seat] < 0:
            last_discard[seat] = action.cards[0]
    for seat, cards in reversed(draws):
        if last_taken[seat] < 0:
            last_taken[seat] = int(cards[0])
    stop = max((index for index, _ in view.events), default=-1)
    start = view.history_length - len(view.history)
    for index in range(len(view.history) - 1, -1, -1):
        if start + index <= stop:
            break
        seat, action = view.history[index]
        match action.kind:
            case "discard":
                if pile and pile[-1] == action.cards[0]:
                    pile.pop()
                discarded[seat].append(action.cards[0])
            case "draw-pile":
                if draws:
                    _, cards = draws.pop()
                    pile.extend(int(c) for c in cards)
            case "draw-stock":
                if pile:
                    declined[seat].append(pile[-1])
            case "meld" | "layoff" | "end":
                pass
    # A pile draw counts for the last turn only if it came after the seat's discard before.
    for seat in range(players):
        if last_taken[seat] >= 0 and not _took_last_turn(view, seat):
            last_taken[seat] = -1
    return Observations(tuple(tuple(d) for d in declined), tuple(tuple(d) for d in discarded),
                        tuple(last_discard), tuple(last_taken))


def _took_last_turn(view: View, seat: int) -> bool:
    """Whether ``seat``'s last turn began with a draw from the pile."""
    discards = 0
    for s, action in reversed(view.history):
        if s != seat:
            continue
        if action.kind == "discard":
            discards += 1
            if discards > 1:
                return False
        elif action.kind in ("draw-pile", "draw-stock") and discards == 1:
            return action.kind == "draw-pile"
    return False


def _joins(card: int, hand: Sequence[int], rules: Rules) -> bool:
    return any(card in cards for cards in find_melds([*hand, card], rules))


def _near(a: int, b: int) -> bool:
    """Whether two natural cards are one card short of a meld together."""
    return a % 13 == b % 13 or (a // 13 == b // 13 and 0 < abs(a % 13 - b % 13) <= 2)


def features(hand: Sequence[int], seat: int, seen: Observations, rules: Rules,
             table: Sequence[Meld] = (), unseen: Sequence[int] = ()) -> list[float]:
    """The features of :data:`FEATURES` for ``hand`` held by ``seat``: its deadwood, its
    pairs of cards one short of a meld, its cards worth 10 or more, how many of the seat's
    latest passed pile cards and discards would join a meld with it (or be one short of
    one with a card of it), and the log-chance that a player who weighs discards as the
    expert does would have thrown the seat's last discard from this hand (``table`` and
    ``unseen``, the cards the seat could not see, give that player's position)."""
    deadwood, _ = best_deadwood(hand, rules)
    naturals = [c for c in hand if c != JOKER_CODE]
    pairs = sum(1 for i, a in enumerate(naturals) for b in naturals[i + 1:] if _near(a, b))
    high = sum(1 for c in hand if card_points(c, rules) >= 10)
    declined = sum(1 for c in seen.declined[seat][:RECENT]
                   if c not in hand and _joins(c, hand, rules))
    discarded = seen.discarded[seat][:RECENT]
    joins = sum(1 for c in discarded if c not in hand and _joins(c, hand, rules))
    near = sum(1 for c in discarded if c != JOKER_CODE and any(_near(c, h) for h in naturals))
    return [float(deadwood), float(pairs), float(high), float(declined), float(joins),
            float(near), _discard_logp(hand, seat, seen, rules, table, unseen)]


def _discard_logp(hand: Sequence[int], seat: int, seen: Observations, rules: Rules,
                  table: Sequence[Meld], unseen: Sequence[int]) -> float:
    thrown = seen.last_discard[seat]
    if thrown < 0:
        return 0.0
    before = [*hand, thrown]
    _, melds = best_deadwood(before, rules)
    loose = without(before, [c for m in melds for c in m])
    taken = seen.last_taken[seat]
    pool = sorted({c for c in loose if c != JOKER_CODE and c != taken})
    if thrown not in pool:
        return math.log(UNLIKELY)
    costs = discard_costs(before, pool, rules=rules, table=table, unseen=unseen,
                          opponent_sizes=[len(hand)])
    low = min(costs.values())
    norm = sum(math.exp(-(cost - low) / TEMPERATURE) for cost in costs.values())
    return -(costs[thrown] - low) / TEMPERATURE - math.log(norm)


def weight(world: Deal, seat: int, seen: Observations) -> float:
    """How well ``seat``'s hand in ``world`` explains what it did (only ratios matter)."""
    hand = world.hands[seat]
    unseen = [c for s, h in enumerate(world.hands) if s != seat for c in h] + world.stock
    values = features(hand, seat, seen, world.rules, world.table, unseen)
    return math.exp(sum(w * f for w, f in zip(WEIGHTS, values, strict=True)))


def sample_worlds(view: View, rng: random.Random, count: int, *,
                  weighted: bool = True) -> list[Deal]:
    """``count`` imagined deals that agree with ``view``; with ``weighted``, drawn in
    proportion to how well the opponents' imagined hands explain their actions."""
    if not weighted:
        return [determinize(view, rng) for _ in range(count)]
    seen = observations(view)
    hidden = [s for s in range(len(view.hand_sizes))
              if s != view.seat and view.active[s] and view.hand_sizes[s]]
    pool = [determinize(view, rng) for _ in range(count * OVERSAMPLE)]
    weights = [math.prod(weight(w, s, seen) for s in hidden) for w in pool]
    total = sum(weights)
    if total <= 0:
        return pool[:count]
    # Systematic resampling: each kept deal stands for an equal share of the weight.
    step = total / count
    point = rng.random() * step
    kept: list[Deal] = []
    running = 0.0
    for world, w in zip(pool, weights, strict=True):
        running += w
        while point < running and len(kept) < count:
            kept.append(world)
            point += step
    while len(kept) < count:
        kept.append(pool[-1])
    return kept
