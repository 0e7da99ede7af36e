"""The expert bot: plays the best partition of its hand and reads the table.

- It keeps the partition of its hand into melds that leaves the least deadwood, and
  takes the pile card only when it joins a meld (of the pile draws that do, the one that
  leaves the best hand).
- It tracks what each opponent took from the pile and threw onto it, and prefers
  discards that no opponent can use (nothing they collect, nothing that fits a meld on
  the table).
- It keeps cards that are one card short of a meld (strongly: a card with outs is worth
  more than a high card), and dumps its highest cards when an opponent is close to going
  out (where hand points are penalties, it always throws its highest cards first).
- It holds its melds back while going rummy pays and nobody is close, and otherwise meets
  each preset's incentives: melding at once where melded cards score (rummy500), opening
  as soon as the engine lets it (ramino).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rummykit.bots.greedy import fits_table, pile_index, uses_card
from rummykit.cards import JOKER_CODE
from rummykit.engine.actions import Action
from rummykit.engine.melds import (
    Meld,
    best_deadwood,
    card_points,
    find_melds,
    make_meld,
    meld_points,
    outs_in_masks,
    without,
)
from rummykit.engine.scoring import points_against
from rummykit.engine.views import View
from rummykit.rules import Rules

__all__ = ["PENALTY_WEIGHTS", "WEIGHTS", "DiscardWeights", "ExpertBot", "count_outs",
           "discard_costs", "opponent_interest", "partition"]



@dataclass(frozen=True, slots=True)
class DiscardWeights:
    """How the expert weighs a discard: the card's points against its outs (unseen cards
    that would make a meld with it) and the chance an opponent uses it."""

    keep: float
    """Points a card is worth keeping for each of its outs."""
    danger: float
    """Points a discard costs when an opponent is sure to use it (scaled by the chance)."""
    close: int
    """An opponent with this many cards or fewer is close to going out."""
    close_points: float
    """When one is close: how much each point of a card counts (dump high cards)."""
    close_keep: float
    """When one is close: what each out is still worth."""


WEIGHTS = DiscardWeights(keep=9.0, danger=1.0, close=3, close_points=2.0, close_keep=6.0)
"""Where the winner collects or melded cards score. Measured (``bench/duel.py expert
greedy``, 2 players ``classic``, 3,000 seat-swapped deals): with outs worth 3 points and
dumping at 2 cards the expert won 54.5% of the deals and +1.0 points a deal; with these,
60.9% and +1.9."""

PENALTY_WEIGHTS = DiscardWeights(keep=2.0, danger=1.0, close=99, close_points=2.0,
                                 close_keep=0.0)
"""Where hand points are penalties (``ramino``): every point kept is a point risked, so the
highest card goes first. Measured against the weights above in ``ramino``: +7 points a
deal."""
_EXACT_LIMIT = 14
"""Above this many cards, the partition is found greedily (big rummy500 pile draws)."""


def partition(hand: Sequence[int], rules: Rules) -> tuple[int, list[tuple[int, ...]]]:
    """The least-deadwood partition (exact for ordinary hands, greedy for huge ones)."""
    if len(hand) <= _EXACT_LIMIT:
        return best_deadwood(hand, rules)
    rest = list(hand)
    chosen: list[tuple[int, ...]] = []
    while True:
        melds = find_melds(rest, rules)
        if not melds:
            break
        best = max(melds, key=lambda cards: sum(card_points(c, rules) for c in cards))
        chosen.append(best)
        for c in best:
            rest.remove(c)
    return sum(card_points(c, rules) for c in rest), chosen


def _score(hand: Sequence[int], rules: Rules) -> float:
    """Lower is better: deadwood, less what the melds would score where melds score."""
    deadwood, melds = partition(hand, rules)
    if rules.scoring == "melded":
        return deadwood - sum(meld_points(make_meld(m, rules, 0), rules) for m in melds)
    return deadwood


class ExpertBot:
    """The expert: see the module's description.

    ``weights`` replaces the discard weights of the rules' scoring, ``hold_back=False``
    melds at once, ``pile=False`` never takes the pile card by choice: variants that
    ``bench/expert_rules.py`` plays against the expert to measure what each rule earns."""

    name = "expert"

    def __init__(self, *, weights: DiscardWeights | None = None, hold_back: bool = True,
                 pile: bool = True) -> None:
        self.weights = weights
        self.holds_back = hold_back
        self.takes_pile = pile

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("it is not this bot's turn: the view offers no legal action")
        if view.phase == "draw":
            return self._draw(view, legal)
        return self._play(view, legal)

    # -- drawing -----------------------------------------------------------------------

    def _draw(self, view: View, legal: Sequence[Action]) -> Action:
        rules = view.rules
        hand = list(view.hand)
        # Of the pile draws whose card joins a meld, the one that leaves the best hand
        # after the discard that would follow; otherwise the stock.
        best_action: Action | None = None
        best_value = float("inf")
        pile_draws = [a for a in legal if a.kind == "draw-pile"]
        pile_draws.sort(key=lambda a: -pile_index(view, a))
        for action in pile_draws[:4] if self.takes_pile else ():
            index = pile_index(view, action)
            taken = list(view.pile[index:])
            if not uses_card(view, taken[0], taken[1:]):
                continue  # a card that joins no meld only tells the others what we keep
            after = hand + taken
            value = _score(after, rules)
            # It will discard one loose card (never the card it took).
            loose_after = [c for c in _loose_cards(after, rules) if c != taken[0]]
            value -= max((card_points(c, rules) for c in loose_after), default=0)
            if value < best_value:
                best_value, best_action = value, action
        if best_action is not None:
            return best_action
        for action in legal:
            if action.kind == "draw-stock":
                return action
        if any(a.kind == "end" for a in legal) and not pile_draws:
            return next(a for a in legal if a.kind == "end")
        return pile_draws[0] if pile_draws else legal[0]

    # -- melding, laying off, discarding -----------------------------------------------

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        rules = view.rules
        hand = list(view.hand)
        _, melds = partition(hand, rules)
        loose = without(hand, [c for m in melds for c in m])
        meld_actions = [a for a in legal if a.kind == "meld"]
        wanted = {tuple(sorted(m)) for m in melds}
        planned = [a for a in meld_actions if tuple(sorted(a.cards)) in wanted]
        going_out = len(loose) <= 1 and (len(loose) == 1 or rules.last_discard == "optional")
        if planned and (going_out or not self._hold_back(view)):
            return max(planned, key=lambda a: len(a.cards))
        if view.must_use is not None:
            # rummy500: the chosen pile card must be used; any meld or lay-off with it.
            using = [a for a in legal if a.kind in ("meld", "layoff")
                     and view.must_use in a.cards]
            if using:
                return max(using, key=lambda a: len(a.cards))
        layoffs = [a for a in legal if a.kind == "layoff"
                   and a.cards[0] in loose and (a.cards[0] != JOKER_CODE or len(hand) == 1)]
        if layoffs and (going_out or not self._hold_back(view) or len(loose) == 1):
            return max(layoffs, key=lambda a: card_points(a.cards[0], rules))
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            # Something must be played first (an opening in progress, a card to use).
            return max(legal, key=lambda a: len(a.cards))
        return self._ranked_discards(view, discards, loose)[0]

    def _hold_back(self, view: View) -> bool:
        """Keep melds in hand to go rummy later, while that pays and is still safe."""
        rules = view.rules
        if not self.holds_back:
            return False
        if rules.rummy_multiplier <= 1 or rules.melds_per_turn == "one":
            return False
        if rules.scoring == "melded" or rules.opening:
            return False
        if view.laid[view.seat]:
            return False
        opponents = [view.hand_sizes[s] for s in range(len(view.hand_sizes))
                     if s != view.seat and view.active[s]]
        return min(opponents) >= 5 and view.stock_size >= 10

    def ranked_discards(self, view: View) -> list[Action]:
        """This seat's legal discards, the one the expert would choose first, then the
        others from cheapest to dearest by :func:`discard_costs` (the master searches the
        first few; a card in one of the hand's best melds comes after every loose one)."""
        discards = [a for a in view.legal_actions if a.kind == "discard"]
        if not discards:
            return []
        hand = list(view.hand)
        _, melds = partition(hand, view.rules)
        loose = without(hand, [c for m in melds for c in m])
        return self._ranked_discards(view, discards, loose)

    def _ranked_discards(self, view: View, discards: Sequence[Action],
                         loose: list[int]) -> list[Action]:
        rules = view.rules
        pool = [a for a in discards if a.cards[0] in loose and a.cards[0] != JOKER_CODE]
        if not pool:
            pool = [a for a in discards if a.cards[0] != JOKER_CODE] or list(discards)
        opponents = [s for s in range(len(view.hand_sizes)) if s != view.seat and view.active[s]]
        wanted, unwanted = opponent_interest(view)
        cards = sorted({a.cards[0] for a in discards})
        costs = discard_costs(
            list(view.hand), cards, rules=rules, table=view.melds,
            unseen=_unseen(view), opponent_sizes=[view.hand_sizes[s] for s in opponents],
            wanted=wanted, unwanted=unwanted, weights=self.weights)
        first = min(pool, key=lambda a: (costs[a.cards[0]], a.cards[0]))
        rest = sorted((a for a in discards if a != first),
                      key=lambda a: (a.cards[0] not in loose, costs[a.cards[0]], a.cards[0]))
        return [first, *rest]


def discard_costs(
    hand: Sequence[int], candidates: Sequence[int], *, rules: Rules, table: Sequence[Meld],
    unseen: Sequence[int], opponent_sizes: Sequence[int], wanted: Sequence[int] = (),
    unwanted: Collection[int] = (), weights: DiscardWeights | None = None,
) -> dict[int, float]:
    """What discarding each of ``candidates`` from ``hand`` costs the expert (lower is
    better): the card's points against its outs and the chance an opponent uses it.

    ``unseen`` are the cards the player cannot place, ``opponent_sizes`` the opponents'
    hand sizes, ``wanted`` cards opponents took from the pile and ``unwanted`` ranks (0-12)
    they threw; ``weights``, where given, replace those of the rules' scoring. The
    inference calls it too, to judge how likely an opponent's discard was.
    """
    if weights is None:
        weights = PENALTY_WEIGHTS if points_against(rules) else WEIGHTS
    opponents_close = any(size <= weights.close for size in opponent_sizes)
    # The chance that one given unseen card is in some opponent's hand.
    p_held = min(1.0, sum(opponent_sizes) / max(len(unseen), 1))
    unseen_set = set(unseen)
    # The outs from bit masks where no unseen card is one the hand holds (with two decks
    # one can be: then counted card by card).
    held = unseen_bits = 0
    for c in hand:
        held |= 1 << c
    for c in unseen_set:
        if c != JOKER_CODE:
            unseen_bits |= 1 << c
    by_masks = not held & unseen_bits
    costs: dict[int, float] = {}
    for c in candidates:
        if c == JOKER_CODE:
            costs[c] = 1000.0
            continue
        value = card_points(c, rules)
        rank, suit = c % 13, c // 13
        # Its worth to us: unseen cards that would make a meld with it and our cards.
        outs = (outs_in_masks(c, held, unseen_bits) if by_masks
                else count_outs(c, hand, unseen_set, rules))
        # Its worth to an opponent: a certain lay-off, or a meld with two cards they may
        # hold (both unseen), likelier for ranks and suits they collect.
        if fits_table(table, c, rules):
            feed = 1.0
        else:
            pairs = _meld_pairs(c, unseen_set)
            feed = min(1.0, pairs * p_held * p_held)
            for w in wanted:
                if w % 13 == rank or (w // 13 == suit and abs(w % 13 - rank) <= 2):
                    feed = min(1.0, feed + 0.3)
            if rank in unwanted:
                feed *= 0.5
        if opponents_close:
            costs[c] = (-weights.close_points * value + weights.close_keep * outs
                        + weights.danger * feed)
        else:
            costs[c] = -value + weights.keep * outs + weights.danger * feed
    return costs


def _unseen(view: View) -> list[int]:
    """Cards this seat cannot place: not in its hand, on the table, in the pile, nor known
    to be in another hand (the view's knowledge)."""
    return list(view.knowledge.unseen)


def count_outs(card: int, hand: Sequence[int], unseen: Collection[int],
               rules: Rules) -> int:
    """Unseen cards that would complete a meld with ``card`` and one other card in hand."""
    rank, suit = card % 13, card // 13
    pool = unseen
    outs = 0
    others = [c for c in hand if c != card and c != JOKER_CODE]
    if any(c % 13 == rank for c in others):
        outs += sum(1 for s in range(4) if s != suit and s * 13 + rank in pool
                    and not any(c == s * 13 + rank for c in others))
    same_suit = {c % 13 for c in others if c // 13 == suit}
    for other in same_suit:
        gap = other - rank
        if abs(gap) == 1:
            for r in (min(rank, other) - 1, max(rank, other) + 1):
                if 0 <= r < 13 and suit * 13 + r in pool:
                    outs += 1
        elif abs(gap) == 2 and suit * 13 + (rank + other) // 2 in pool:
            outs += 1
    return outs


def _meld_pairs(card: int, unseen: set[int]) -> int:
    """Pairs of unseen cards that would make a meld with ``card``."""
    rank, suit = card % 13, card // 13
    same_rank = sum(1 for s in range(4) if s != suit and s * 13 + rank in unseen)
    pairs = same_rank * (same_rank - 1) // 2
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        ra, rb = rank + a, rank + b
        if 0 <= ra < 13 and 0 <= rb < 13 and suit * 13 + ra in unseen and suit * 13 + rb in unseen:
            pairs += 1
    return pairs


def _loose_cards(hand: Sequence[int], rules: Rules) -> list[int]:
    _, melds = partition(hand, rules)
    return without(list(hand), [c for m in melds for c in m])


def _potential(card: int, hand: Sequence[int]) -> int:
    """How many other cards of the hand could share a meld with ``card`` one day."""
    if card == JOKER_CODE:
        return 3
    rank, suit = card % 13, card // 13
    return sum(
        1 for c in hand
        if c != card and c != JOKER_CODE
        and (c % 13 == rank or (c // 13 == suit and abs(c % 13 - rank) <= 2))
    )


def opponent_interest(view: View) -> tuple[list[int], set[int]]:
    """Cards opponents took from the pile (they collect these), and ranks they threw away."""
    wanted = [int(c) for seat, cards in view.pile_draws if seat != view.seat for c in cards[:1]]
    unwanted = {
        action.cards[0] % 13 for seat, action in view.history
        if seat != view.seat and action.kind == "discard" and action.cards[0] != JOKER_CODE
    }
    return wanted, unwanted

