"""Inference: which hidden hands explain what the opponents did.

A determinized deal deals the cards a seat cannot place uniformly at random. Real hands
are not uniform: a player keeps cards that make melds and throws the others away, takes
the pile card he can use and lets pass the one he cannot, lays off what fits the table.
So the search imagines hands in two steps, both measured in play by
``bench/inference.py``:

- each hidden card gets odds of being in each opponent's hand (:func:`card_odds`), from
  that opponent's latest discards and passed pile cards of its rank or near it in its
  suit, the cards he is known to hold, and whether it fits a meld on the table; the hidden
  places are filled by these odds (``determinize(..., odds=...)``);
- each imagined hand is then weighed by how well it explains the player's public actions
  as a whole (naive Bayes: one factor per observation): the chance that a player who
  weighs discards as the expert does would have thrown his last discard from it; a card
  he let pass on the pile (he drew from the stock instead) or discarded that would join a
  meld with it (unlikely: he would have taken it, or kept it); its high cards and pairs
  one short of a meld; its deadwood.

:func:`sample_worlds` draws more imagined deals than it needs by the card odds and keeps
them in proportion to their weights.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots.expert import discard_costs, partition
from rummykit.bots.greedy import joins, near
from rummykit.cards import JOKER_CODE, without
from rummykit.engine.deal import Deal
from rummykit.engine.knowledge import determinize
from rummykit.melds import Meld, card_points, fits
from rummykit.rules import Rules
from rummykit.views import View

__all__ = ["CARD_FEATURES", "CARD_WEIGHTS", "FEATURES", "WEIGHTS", "Observations",
           "card_features", "card_odds", "features", "observations", "sample_worlds",
           "table_at_last_turn", "weight"]

FEATURES: tuple[str, ...] = (
    "deadwood", "near_pairs", "high_cards", "declined_joins", "discarded_joins",
    "discarded_near", "discard_logp",
)
"""What is measured of an imagined hand (see :func:`features`)."""

WEIGHTS: tuple[float, ...] = (0.052, 0.145, -0.293, -0.288, -0.093, 0.047, 1.510)
"""The log-weight of each unit of each hand feature, over hands drawn by the card odds
(fitted in the same run as :data:`CARD_WEIGHTS`). On held-out positions of that run, the
Brier score of "the opponent holds this card" is 0.1443 for uniform hands, 0.1359 drawn
by the card odds and 0.1325 weighed by these too. Over hands drawn by the card odds the
deadwood's own weight comes out slightly positive: the odds already favour the cards that
go with the opponent's hand, and what is left is the discard he chose (``discard_logp``)."""

CARD_FEATURES: tuple[str, ...] = (
    "discarded_rank", "discarded_run", "declined_rank", "declined_run", "held_rank",
    "held_run", "high", "fits_table",
)
"""What is measured of one hidden card for one opponent (see :func:`card_features`)."""

CARD_WEIGHTS: tuple[float, ...] = (-1.185, -0.523, -0.240, 0.125, 0.852, 0.741, 0.026, -4.014)
"""The log-odds of each unit of each card feature: fitted by ``bench/inference.py --deals
600 --seed 100`` (2 players classic, expert against expert, 1,609 positions): a card of
the rank of one of his latest discards is a third as likely in his hand, one that fits a
meld on the table a fiftieth (he would have laid it off)."""

CARD_RECENT = 6
"""How many of each player's latest discards and passes the card features look at."""

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


def features(hand: Sequence[int], seat: int, seen: Observations, rules: Rules,
             table: Sequence[Meld] = (), unseen: Sequence[int] = (),
             opponent_sizes: Sequence[int] = ()) -> list[float]:
    """The features of :data:`FEATURES` for ``hand`` held by ``seat``: its deadwood, its
    pairs of cards one short of a meld, its cards worth 10 or more, how many of the seat's
    latest passed pile cards and discards would join a meld with it (or be one short of
    one with a card of it), and the log-chance that a player who weighs discards as the
    expert does would have thrown the seat's last discard from this hand (``table``,
    ``unseen``, the cards the seat could not see, and ``opponent_sizes``, the hand sizes of
    the seat's opponents, give that player's position)."""
    deadwood, _ = partition(hand, rules)
    naturals = [c for c in hand if c != JOKER_CODE]
    pairs = sum(1 for i, a in enumerate(naturals) for b in naturals[i + 1:] if near(a, b))
    high = sum(1 for c in hand if card_points(c, rules) >= 10)
    declined = sum(1 for c in seen.declined[seat][:RECENT]
                   if c not in hand and joins(c, hand, rules))
    discarded = seen.discarded[seat][:RECENT]
    joined = sum(1 for c in discarded if c not in hand and joins(c, hand, rules))
    close = sum(1 for c in discarded if c != JOKER_CODE and any(near(c, h) for h in naturals))
    return [float(deadwood), float(pairs), float(high), float(declined), float(joined),
            float(close), _discard_logp(hand, seat, seen, rules, table, unseen,
                                        opponent_sizes or [len(hand)])]


def _discard_logp(hand: Sequence[int], seat: int, seen: Observations, rules: Rules,
                  table: Sequence[Meld], unseen: Sequence[int],
                  opponent_sizes: Sequence[int]) -> float:
    thrown = seen.last_discard[seat]
    if thrown < 0:
        return 0.0
    before = [*hand, thrown]
    _, melds = partition(before, rules)
    loose = without(before, [c for m in melds for c in m])
    taken = seen.last_taken[seat]
    pool = sorted({c for c in loose if c != JOKER_CODE and c != taken})
    if thrown not in pool:
        return math.log(UNLIKELY)
    costs = discard_costs(before, pool, rules=rules, table=table, unseen=unseen,
                          opponent_sizes=opponent_sizes)
    low = min(costs.values())
    norm = sum(math.exp(-(cost - low) / TEMPERATURE) for cost in costs.values())
    return -(costs[thrown] - low) / TEMPERATURE - math.log(norm)


def card_features(card: int, seat: int, seen: Observations, held: Sequence[int],
                  rules: Rules, table: Sequence[Meld] = ()) -> list[float]:
    """The features of :data:`CARD_FEATURES` for ``seat`` holding the hidden ``card``: how
    many of its latest discards and passed pile cards share the card's rank, or its suit
    within two places (a player keeps cards that go with his hand, and takes them), the
    same for the cards it is known to hold (``held``: taken from the pile, not shown
    since), whether the card is worth 10 or more, and whether it fits one of ``table``'s
    melds (the ones he could lay off on when he last played: he would have)."""
    if card == JOKER_CODE:
        return [0.0] * len(CARD_FEATURES)
    rank = card % 13

    def counts(cards: Sequence[int]) -> tuple[float, float]:
        close = [c for c in cards if c != JOKER_CODE and near(card, c)]
        same_rank = sum(1 for c in close if c % 13 == rank)
        return float(same_rank), float(len(close) - same_rank)

    discarded = counts(seen.discarded[seat][:CARD_RECENT])
    declined = counts(seen.declined[seat][:CARD_RECENT])
    kept = counts(held)
    fits_table = any(fits(m, card, rules) for m in table)
    return [*discarded, *declined, *kept, float(card_points(card, rules) >= 10),
            float(fits_table)]


def table_at_last_turn(view: View, seat: int) -> tuple[Meld, ...]:
    """The melds ``seat`` could lay off on in its last turn: none before it has opened,
    else those already on the table when it last discarded (melds are numbered in the
    order they reached the table; later lay-offs are not undone)."""
    if not view.opened[seat]:
        return ()
    laid = 0
    before = 0
    for s, action in view.history:
        if action.kind == "meld":
            laid += 1
        elif action.kind == "discard" and s == seat:
            before = laid
    return view.melds[:before]


def card_odds(view: View, seen: Observations | None = None) -> list[dict[int, float]]:
    """For each seat, each hidden card's odds of being in that seat's hand (relative to
    the other hidden places), from :func:`card_features` and :data:`CARD_WEIGHTS`; empty
    for the viewing seat."""
    seen = observations(view) if seen is None else seen
    k = view.knowledge
    hidden = k.unseen
    out: list[dict[int, float]] = []
    for s in range(len(view.hand_sizes)):
        if s == view.seat:
            out.append({})
            continue
        odds = {}
        table = table_at_last_turn(view, s)
        for c in hidden:
            f = card_features(c, s, seen, k.known[s], view.rules, table)
            odds[c] = math.exp(sum(w * x for w, x in zip(CARD_WEIGHTS, f, strict=True)))
        out.append(odds)
    return out


def weight(world: Deal, seat: int, seen: Observations) -> float:
    """How well ``seat``'s hand in ``world`` explains what it did (only ratios matter)."""
    hand = world.hands[seat]
    unseen = [c for s, h in enumerate(world.hands) if s != seat for c in h] + world.stock
    sizes = [len(h) for s, h in enumerate(world.hands) if s != seat and world.active[s]]
    values = features(hand, seat, seen, world.rules, world.table, unseen, sizes)
    return math.exp(sum(w * f for w, f in zip(WEIGHTS, values, strict=True)))


def sample_worlds(view: View, rng: random.Random, count: int, *,
                  weighted: bool = True, deadline: float | None = None) -> list[Deal]:
    """``count`` imagined deals that agree with ``view``; with ``weighted``, the hidden
    cards dealt by their odds (:func:`card_odds`) and the deals kept in proportion to how
    well the opponents' imagined hands explain their actions (a deal may be kept more than
    once). Past ``deadline`` (a ``time.perf_counter()`` reading) it draws no more and keeps
    fewer."""
    if not weighted:
        return [determinize(view, rng) for _ in range(count)]
    seen = observations(view)
    hidden = [s for s in range(len(view.hand_sizes))
              if s != view.seat and view.active[s] and view.hand_sizes[s]]
    odds = card_odds(view, seen)
    pool: list[Deal] = []
    weights: list[float] = []
    for _ in range(count * OVERSAMPLE):
        world = determinize(view, rng, odds=odds)
        pool.append(world)
        weights.append(math.prod(weight(world, s, seen) for s in hidden))
        if deadline is not None and time.perf_counter() > deadline:
            break  # fewer to choose from, but in time
    count = min(count, len(pool))
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
