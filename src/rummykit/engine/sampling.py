"""Deals that agree with what one seat has seen: the search bots' imagined worlds.

:func:`determinize` deals a full deal that agrees with a seat's view: its own hand, the
table, the pile, the known cards where they are known to be (its
:class:`~rummykit.engine.knowledge.Knowledge`), and the hidden cards of each group dealt
uniformly at random into that group's places from a given generator. A search bot plays
such deals to the end to judge its choices without seeing a hidden card.

One thing more is public than where the cards are: a player in the middle of his turn
holds a hand that can finish it. The engine accepted his pile draw (where the card taken
must be melded this turn) or the first melds of his opening (which must reach the
opening's points this turn) because his real hand could go on; a deal that gives him a
hand that cannot is not a deal the seat could be in. Such deals are never returned (see
:func:`determinize`).

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
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from rummykit.cards import JOKER_CODE, format_cards
from rummykit.engine.deal import Deal
from rummykit.engine.knowledge import Knowledge, Tracker
from rummykit.engine.layout import Layout, shuffle
from rummykit.engine.melds import fits, make_meld, meld_points
from rummykit.engine.views import View
from rummykit.engine.views import view as view_of
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules

__all__ = ["BUILDS", "REJECTIONS", "determinize", "turn_can_end"]

REJECTIONS: Final = 24
"""Deals drawn as usual (and thrown away where the player in the middle of his turn
could not finish it) before a deal is built around a way for him to finish it."""
BUILDS: Final = 64
"""Deals built around a way to finish the turn before giving up (see
:func:`determinize`)."""
_PLAN_STEPS: Final = 20_000
"""The most meld shapes one search for a way to finish a turn tries."""


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


def turn_can_end(deal: Deal) -> bool:
    """Whether the player to move can still end his turn legally (True outside the play
    of a turn): by the rule of no dead ends, he can exactly when some action is legal."""
    return deal.phase != "play" or bool(deal.legal_actions())


def determinize(source: View | Deal, rng: random.Random, *, seat: int | None = None,
                odds: Sequence[Mapping[int, float]] | None = None,
                holding: Sequence[int] = ()) -> Deal:
    """A full deal that agrees with everything one seat has seen, the cards it cannot
    place dealt at random from ``rng``.

    Without ``odds`` every way of filling the hidden places is equally likely. With
    ``odds`` (for each seat, a card's odds of being in that seat's hand rather than another
    hidden place; 1 for a card not named), each seat's hidden places are filled in turn,
    each card drawn with a chance in proportion to its odds among the cards still left,
    and the stock gets the rest in random order: a search that has judged which cards an
    opponent likely holds imagines those hands more often. The seats are filled in a
    random order.

    Where another seat is in the middle of its turn, its hand must be one that can finish
    the turn (:func:`turn_can_end`; the engine let it draw or meld so far because its real
    hand could, and everybody saw that). Deals are drawn as above and those that break
    this are thrown away, up to :data:`REJECTIONS` times (what is kept is then drawn
    exactly as above, among the deals that agree); after that a deal is built: a way to
    finish the turn (a meld holding the pile card it must use, or melds that reach its
    opening, made of cards it could hold) is chosen at random among those its hidden
    places allow, those cards are put in its hand and the rest is dealt as above. In the
    rare position where neither finds one in :data:`BUILDS` tries, the last deal drawn
    is returned as it is.

    ``source`` is the seat's :class:`~rummykit.engine.views.View` (with its whole
    history), or a deal and ``seat``. The new deal starts where the view is: its hands,
    stock and pile are the sampled position (also its ``layout``), its history is the
    public history, its seed is drawn from ``rng`` (for any later refill), and positions
    are counted for the repetition rule from here on. The seat sees in it exactly what it
    saw.

    ``holding``: cards the seat to move (another seat) is known to hold beyond what the
    view shows, such as the cards of a meld it has begun to choose one by one in a
    learning environment; they are put in its hand first (a ValueError where its hidden
    places cannot take them).
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
    players = len(v.hand_sizes)
    if odds is not None and len(odds) != players:
        raise ValueError(f"odds for {len(odds)} seats at a table of {players}")
    k = v.knowledge
    mover = v.to_move
    held = Counter(holding)
    held.subtract(k.known[mover])
    extra = sorted((+held).elements())
    # (Where ``extra`` cannot be placed, no deal places it: they go first, in one way.)
    if (v.phase != "play" or mover == v.seat or v.deal_result is not None
            or not any(group.hands[mover] for group in k.hidden)):
        deal = _deal(v, rng, odds, mover, extra)
        if deal is None:
            raise _cannot_hold(mover, extra)
        return deal
    last: Deal | None = None
    for _ in range(REJECTIONS):
        last = _deal(v, rng, odds, mover, extra)
        if last is None:
            raise _cannot_hold(mover, extra)
        if turn_can_end(last):
            return last
    for _ in range(BUILDS):
        forced = _way_to_finish(v, mover, rng)
        if forced is None:
            continue
        deal = _deal(v, rng, odds, mover, sorted((Counter(forced) | Counter(extra)).elements()))
        if deal is not None and turn_can_end(deal):
            return deal
    assert last is not None
    return last


def _cannot_hold(mover: int, cards: Sequence[int]) -> ValueError:
    return ValueError(f"seat {mover}'s hidden places cannot hold {format_cards(cards)}")


def _deal(v: View, rng: random.Random, odds: Sequence[Mapping[int, float]] | None,
          mover: int, forced: Sequence[int]) -> Deal | None:
    """One deal of the hidden cards; ``forced`` are hidden cards put in ``mover``'s hand
    first (None where its hidden places cannot take them all)."""
    k = v.knowledge
    players = len(v.hand_sizes)
    hands = [list(k.known[s]) for s in range(players)]
    hands[v.seat] = list(k.hand)
    stock = list(k.stock)
    owed = Counter(forced)
    for group in k.hidden:
        cards = list(group.cards)
        counts = list(group.hands)
        if owed:
            for c in sorted(owed.elements()):
                if counts[mover] and c in cards:
                    cards.remove(c)
                    counts[mover] -= 1
                    hands[mover].append(c)
                    owed[c] -= 1
            owed = +owed
        shuffle(cards, rng)
        if odds is not None:
            # The seats in a random order, so that none is served first every time.
            order = [s for s, count in enumerate(counts) if count]
            shuffle(order, rng)
            for s in order:
                hands[s].extend(_draw_weighted(cards, odds[s], counts[s], rng))
        dealt = iter(cards)
        if odds is None:
            for s, count in enumerate(counts):
                hands[s].extend(next(dealt) for _ in range(count))
        for place in group.stock:
            stock[place] = next(dealt)
    if owed:
        return None
    return _assemble(v, k, hands, stock, rng)


def _assemble(v: View, k: Knowledge, hands: list[list[int]], stock: list[int],
          rng: random.Random) -> Deal:
    """The deal of the view's position with these hands and stock (top first)."""
    players = len(v.hand_sizes)
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


# -- a way to finish a turn ----------------------------------------------------------


def _way_to_finish(v: View, mover: int, rng: random.Random) -> list[int] | None:
    """Hidden cards that, in ``mover``'s hand with the cards it is known to hold, make
    melds that finish its turn: one holding the pile card it must use (where the card fits
    no meld of the table it may lay off on), and enough to reach its opening (where its
    melds this turn have begun one); chosen at random among the ways its hidden places
    allow. None where the random search found none, or nothing is owed."""
    rules = v.rules
    k = v.knowledge
    free = Counter(k.known[mover])
    pool: Counter[int] = Counter()
    slots = 0
    for group in k.hidden:
        if group.hands[mover]:
            pool.update(group.cards)
            slots += group.hands[mover]
    if rules.last_discard == "required":
        slots -= 1  # a card is kept to discard
    opened = v.opened[mover]
    need = 0
    if rules.opening and not opened and v.turn_value:
        need = rules.opening - v.turn_value
    pending = -1 if v.must_use is None else int(v.must_use)
    if pending >= 0 and (opened or need <= 0) and any(fits(m, pending, rules)
                                                      for m in v.melds):
        pending = -1  # laid off on the table
    if pending >= 0 and rules.melds_per_turn == "one" and v.melds_this_turn:
        return None  # only lay-offs are left, and the table takes none of it
    if pending < 0 and need <= 0:
        return None
    templates = _templates(rules, slots + sum(free.values()))
    rng.shuffle(templates)
    most = max(max(rules.ace_points, rules.ace_low_run_points), rules.court_points, 10)
    steps = [0]
    free_cards = list(free.elements())
    left = free + pool

    def search(chosen: list[int], spent: int, points: int, covered: bool) -> list[int] | None:
        if covered and points >= need:
            return chosen
        if points + most * (slots - spent + len(free_cards)) < need:
            return None
        for template in templates:
            if not covered and not _holds(template, pending):
                continue
            steps[0] += 1
            if steps[0] > _PLAN_STEPS:
                return None
            cards = _realize(template, left, pending if not covered else -1, rng)
            if cards is None:
                continue
            hidden_used = _hidden_count(cards, free, chosen)
            if spent + hidden_used > slots:
                continue
            try:
                meld = make_meld(cards, rules, mover)
            except IllegalActionError:
                continue
            left.subtract(cards)
            found = search([*chosen, *cards], spent + hidden_used,
                           points + meld_points(meld, rules), True)
            left.update(cards)
            if found is not None:
                return found
        return None

    plan = search([], 0, 0, pending < 0)
    if plan is None:
        return None
    # The plan's cards beyond those the mover is known to hold come from its hidden places.
    owed = Counter(plan)
    owed.subtract(free)
    return sorted((+owed).elements())


Template = tuple[str, int, tuple[int, ...]]
"""A shape of meld: ``("set", rank, suits)`` (a joker where a suit is not held) or
``("run", suit, places)`` (places 1 to 14, a joker where a card is not held)."""


def _templates(rules: Rules, room: int) -> list[Template]:
    """Every set and run shape of at most ``room`` cards."""
    out: list[Template] = []
    for rank in range(13):
        for size in range(rules.set_min, min(rules.set_max, 4, room) + 1):
            for suits in _combinations(4, size):
                out.append(("set", rank, suits))
    top = 14 if rules.high_aces else 13
    for suit in range(4):
        for low in range(1, top + 1):
            for length in range(rules.run_min, min(room, 13) + 1):
                high = low + length - 1
                if high > top or (low == 1 and high == 14):
                    break
                out.append(("run", suit, tuple(range(low, high + 1))))
    return out


def _combinations(n: int, size: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    return [(*rest, last) for last in range(n) for rest in _combinations(last, size - 1)]


def _card(template: Template, i: int) -> int:
    """The natural card of place ``i`` of a template."""
    kind, key, parts = template
    if kind == "set":
        return parts[i] * 13 + key
    place = parts[i]
    return key * 13 + (0 if place == 14 else place - 1)


def _holds(template: Template, card: int) -> bool:
    """Whether the template has a place for ``card`` (a joker fits any)."""
    if card == JOKER_CODE:
        return True
    return any(_card(template, i) == card for i in range(len(template[2])))


def _realize(template: Template, left: Counter[int], pending: int,
             rng: random.Random) -> list[int] | None:
    """The template's cards out of ``left``: each place's natural card where it is there
    (mostly), else a joker; ``pending`` in its place (or a joker's). None where the cards
    are not there."""
    jokers = left[JOKER_CODE]
    used: Counter[int] = Counter()
    cards = []
    pending_joker = pending == JOKER_CODE
    for i in range(len(template[2])):
        natural = _card(template, i)
        if natural == pending and not pending_joker:
            if left[natural] - used[natural] <= 0:
                return None
            cards.append(natural)
            used[natural] += 1
            continue
        here = left[natural] - used[natural] > 0
        joker = jokers - used[JOKER_CODE] > 0
        if pending_joker and joker:
            cards.append(JOKER_CODE)
            used[JOKER_CODE] += 1
            pending_joker = False
            continue
        if here and (not joker or rng.random() < 0.8):
            cards.append(natural)
            used[natural] += 1
        elif joker:
            cards.append(JOKER_CODE)
            used[JOKER_CODE] += 1
        else:
            return None
    if pending_joker or not any(c != JOKER_CODE for c in cards):
        return None
    return cards


def _hidden_count(cards: Sequence[int], free: Counter[int], chosen: Sequence[int]) -> int:
    """How many of ``cards`` must come from hidden places: those beyond the copies the
    mover is known to hold that ``chosen`` has not used yet."""
    spare = free.copy()
    spare.subtract(chosen)
    count = 0
    for c in cards:
        if spare[c] > 0:
            spare[c] -= 1
        else:
            count += 1
    return count
