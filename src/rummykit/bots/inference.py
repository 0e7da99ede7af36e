"""Inference: which hidden hands explain what the opponents did.

A determinized deal deals the cards a seat cannot place uniformly at random. Real hands
are not uniform: a player keeps cards that make melds and throws the others away, takes
the pile card he can use and lets pass the one he cannot, lays off what fits the table.
So the search imagines hands in two steps, both measured in play by
``bench/inference.py``:

- each hidden card gets odds of being in each opponent's hand (:func:`card_odds`), from
  every pile card that opponent threw, took or let pass that goes with it (its rank, or
  near it in its suit), by how many turns ago, the cards he is known to hold, how many
  melds could still be made with it, whether it fits a meld on the table, and its
  points; the hidden places are filled by these odds (``determinize(..., odds=...)``);
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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rummykit.bots.expert import discard_costs, partition
from rummykit.bots.greedy import joins, near
from rummykit.cards import JOKER_CODE
from rummykit.engine.deal import Deal
from rummykit.engine.melds import Meld, card_points, fits, without
from rummykit.engine.sampling import determinize
from rummykit.engine.views import View
from rummykit.rules import Rules

__all__ = ["CARD_FEATURES", "CARD_WEIGHTS", "FEATURES", "WEIGHTS", "Observations",
           "card_features", "card_odds", "features", "live_melds", "observations", "out_of_play",
           "sample_worlds", "suit_card", "table_at_last_turn", "weight"]

FEATURES: tuple[str, ...] = (
    "deadwood", "near_pairs", "high_cards", "declined_joins", "discarded_joins",
    "discarded_near", "discard_logp", "melds",
)
"""What is measured of an imagined hand (see :func:`features`)."""

WEIGHTS: tuple[float, ...] = (0.040, -0.102, -0.151, -0.203, -0.049, 0.352, 1.448, -0.405)
"""The log-weight of each unit of each hand feature, over hands drawn by the card odds
(fitted in the same run as :data:`CARD_WEIGHTS`). On the 1,359 held-out positions of that
run, the Brier score of "the opponent holds this card" (40 imagined hands a position) is
0.1446 for uniform hands, 0.1311 drawn by the card odds and 0.1301 weighed by these too
(with the eight card features before these: 0.1359 and 0.1325). What the odds leave is
mostly the discard he chose (``discard_logp``) and that he would have laid down a meld
he held (``melds``: 3% of the expert's hands hold one when the other player draws, 13%
of hands drawn by the card odds)."""

_KINDS = ("discarded", "took", "declined")
_RELATIONS = ("rank", "next", "gap")
"""How a pile card goes with a hidden card: the same rank (another suit), the same suit
one place away, two places away (each one card short of a meld with it)."""
_AGES = ("latest", "recent", "older")
"""When: in the player's latest turn, one or two turns before, earlier."""

CARD_FEATURES: tuple[str, ...] = (
    *(f"{kind}_{relation}_{age}" for kind in _KINDS for relation in _RELATIONS
      for age in _AGES),
    "held_rank", "held_next", "held_gap", "live_sets", "live_runs", "fits_table", "points",
    "live_sets_late", "live_runs_late", "points_late",
)
"""What is measured of one hidden card for one opponent (see :func:`card_features`)."""

CARD_WEIGHTS: tuple[float, ...] = (
    -1.372, -1.573, -1.191, -1.147, -1.209, -1.079, -0.593, -0.614, -0.501,
    0.266, 0.052, 0.359, -0.062, -0.117, 0.004, 0.076, -0.049, 0.166,
    -0.494, -0.494, -0.128, -0.334, -0.340, -0.208, -0.152, -0.147, 0.199,
    0.786, 1.324, 0.604, -0.041, -0.020, -5.029, 0.105, 0.791, 0.530,
    -1.016,
)
"""The log-odds of each unit of each card feature: fitted by ``bench/inference.py --deals
1500 --seed 100`` (2 players classic, expert against expert, 4,077 positions, two thirds to
fit). A card of the rank of one of his discards is about a quarter as likely in his hand
(whenever he threw it), one next to it in its suit a third; one next to a card he took
from the pile over three times as likely; one that fits a meld on the table almost never
there (he would have laid it off); late in a deal his hand holds the cards that can still
make melds and few high cards."""

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
    events: tuple[tuple[tuple[int, str, int], ...], ...]
    """For each seat, what it did with pile cards, latest first: ``(age, kind, card)``
    where ``kind`` is ``"discarded"``, ``"took"`` or ``"declined"`` and ``age`` counts the
    seat's turns since (0: its latest turn)."""
    turns: tuple[int, ...]
    """For each seat, how many turns it has ended with a discard this deal."""


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
    events: list[list[tuple[int, str, int]]] = [[] for _ in range(players)]
    turns = [0] * players  # each seat's discards this deal
    for seat, action in view.history:
        if action.kind == "discard":
            turns[seat] += 1
    after = [0] * players  # each seat's discards met so far, walking back
    for index in range(len(view.history) - 1, -1, -1):
        if start + index <= stop:
            break
        seat, action = view.history[index]
        age = max(after[seat] - 1, 0)  # a draw belongs to the turn its discard ended
        match action.kind:
            case "discard":
                if pile and pile[-1] == action.cards[0]:
                    pile.pop()
                discarded[seat].append(action.cards[0])
                events[seat].append((after[seat], "discarded", action.cards[0]))
                after[seat] += 1
            case "draw-pile":
                if draws:
                    _, cards = draws.pop()
                    pile.extend(int(c) for c in cards)
                    events[seat].extend((age, "took", int(c)) for c in cards)
            case "draw-stock":
                if pile:
                    declined[seat].append(pile[-1])
                    events[seat].append((age, "declined", pile[-1]))
            case "meld" | "layoff" | "end":
                pass
    # A pile draw counts for the last turn only if it came after the seat's discard before.
    for seat in range(players):
        if last_taken[seat] >= 0 and not _took_last_turn(view, seat):
            last_taken[seat] = -1
    return Observations(tuple(tuple(d) for d in declined), tuple(tuple(d) for d in discarded),
                        tuple(last_discard), tuple(last_taken),
                        tuple(tuple(e) for e in events), tuple(turns))


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
    the seat's opponents, give that player's position), and how many melds it holds (a
    player who could meld mostly has)."""
    deadwood, melds = partition(hand, rules)
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
                                        opponent_sizes or [len(hand)]), float(len(melds))]


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
                  rules: Rules, table: Sequence[Meld] = (),
                  out: Collection[int] = ()) -> list[float]:
    """The features of :data:`CARD_FEATURES` for ``seat`` holding the hidden ``card``.

    - For each of the seat's pile events (a card it discarded, took from the pile, or let
      pass on the pile), counted by how the event's card goes with this one (same rank;
      same suit one or two places away) and by how long ago: a player throws and lets
      pass cards that do not go with his hand, and takes the ones that do, and the latest
      say most of the hand as it is now.
    - The same relations to the cards it is known to hold (``held``: taken from the pile,
      not shown since).
    - How many sets and runs of three could still be made with the card (``out`` are the
      cards out of play for the seat: no meld can use them), whether it fits one of
      ``table``'s melds (those he could lay off on when he last played: he would have),
      its points; the first two and the points again scaled by how far the deal has gone
      (late in a deal a player has kept what goes together and thrown his high cards).
    """
    if card == JOKER_CODE:
        return [0.0] * len(CARD_FEATURES)
    events = [0.0] * (len(_KINDS) * len(_RELATIONS) * len(_AGES))
    for age, kind, other in seen.events[seat]:
        relation = _relation(card, other)
        if relation >= 0:
            slot = _KINDS.index(kind) * len(_RELATIONS) + relation
            events[slot * len(_AGES) + (0 if age == 0 else 1 if age <= 2 else 2)] += 1
    kept = [0.0, 0.0, 0.0]
    for other in held:
        relation = _relation(card, other)
        if relation >= 0:
            kept[relation] += 1
    sets, runs = live_melds(card, out, rules)
    fits_table = float(any(fits(m, card, rules) for m in table))
    points = card_points(card, rules) / 10
    late = seen.turns[seat] / 10
    return [*events, *kept, float(sets), float(runs), fits_table, points,
            sets * late, runs * late, points * late]


def live_melds(card: int, out: Collection[int], rules: Rules) -> tuple[int, int]:
    """How many sets of three (its rank, other suits) and runs of three (its suit) could
    still be made with the natural ``card``, none of whose other cards is in ``out``."""
    rank, suit = card % 13, card // 13
    sets = sum(1 for other in range(4) if other != suit and suit_card(other, rank) not in out)
    ranks = [*range(13), 0] if rules.high_aces else list(range(13))
    runs = sum(1 for i in range(len(ranks) - 2)
               if rank in ranks[i:i + 3]
               and all(r == rank or suit_card(suit, r) not in out for r in ranks[i:i + 3]))
    return sets, runs


def suit_card(suit: int, rank: int) -> int:
    """The natural card of this suit (0-3) and rank (0-12)."""
    return suit * 13 + rank


def _relation(card: int, other: int) -> int:
    """How ``other`` goes with ``card``: 0 the same rank, 1 the same suit one place away,
    2 two places away, -1 not one card short of a meld together."""
    if other in (card, JOKER_CODE):
        return -1
    if other % 13 == card % 13:
        return 0
    if other // 13 == card // 13:
        gap = abs(other % 13 - card % 13)
        if gap <= 2:
            return gap
    return -1


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
    out = out_of_play(view)
    result: list[dict[int, float]] = []
    for s in range(len(view.hand_sizes)):
        if s == view.seat:
            result.append({})
            continue
        odds = {}
        table = table_at_last_turn(view, s)
        for c in hidden:
            f = card_features(c, s, seen, k.known[s], view.rules, table, out)
            odds[c] = math.exp(sum(w * x for w, x in zip(CARD_WEIGHTS, f, strict=True)))
        result.append(odds)
    return result


def out_of_play(view: View) -> frozenset[int]:
    """The cards no opponent of ``view``'s seat can meld: the seat's own hand, the table's
    melds, and the pile below the cards a player may draw."""
    pile = view.knowledge.pile
    drawable = len(pile) if len(view.pile) == len(pile) else 1
    buried = pile[:len(pile) - drawable]
    return frozenset([*view.hand, *(c for m in view.melds for c in m.cards), *buried])


def weight(world: Deal, seat: int, seen: Observations) -> float:
    """How well ``seat``'s hand in ``world`` explains what it did (only ratios matter)."""
    hand = world.hands[seat]
    unseen = [c for s, h in enumerate(world.hands) if s != seat for c in h] + world.stock
    sizes = [len(h) for s, h in enumerate(world.hands) if s != seat and world.active[s]]
    values = features(hand, seat, seen, world.rules, world.table, unseen, sizes)
    return math.exp(sum(w * f for w, f in zip(WEIGHTS, values, strict=True)))


def sample_worlds(view: View, rng: random.Random, count: int, *,
                  weighted: bool = True, deadline: float | None = None,
                  odds: Sequence[Mapping[int, float]] | None = None,
                  reweight: bool = True) -> list[Deal]:
    """``count`` imagined deals that agree with ``view``; with ``weighted``, the hidden
    cards dealt by their odds (``odds``, for each seat; :func:`card_odds` where not given)
    and, with ``reweight`` too, the deals kept in proportion to how well the opponents'
    imagined hands explain their actions (a deal may be kept more than once). Past
    ``deadline`` (a ``time.perf_counter()`` reading) it draws no more and keeps fewer."""
    if not weighted:
        return [determinize(view, rng) for _ in range(count)]
    if odds is not None and not reweight:
        return [determinize(view, rng, odds=odds) for _ in range(count)]
    seen = observations(view)
    if odds is None:
        odds = card_odds(view, seen)
    if not reweight:
        return [determinize(view, rng, odds=odds) for _ in range(count)]
    hidden = [s for s in range(len(view.hand_sizes))
              if s != view.seat and view.active[s] and view.hand_sizes[s]]
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
