"""No dead ends: whether the player to move could still finish the turn legally.

The rules: an action is legal only if the player can still finish the turn after it. A
meld or lay-off is refused when it would leave only cards that may not be discarded (and
that cannot all be laid off to go out), when it empties the hand under a compulsory last
discard, when a pile card that must be used could no longer be, or when a ramino opening
turn could no longer reach its points.

Most positions are decided at once (a card that may be discarded is left); the rest go
to an exact depth-first search over every meld and lay-off the hand could still make.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import FunctionType
from typing import TYPE_CHECKING, Final

from rummykit.cards import JOKER_CODE, format_cards
from rummykit.engine.melds import (
    _PACKED_BIT,
    _SUIT_MASK,
    Meld,
    _shortest_with_masks,
    find_melds,
    fit_mask,
    layoff,
    layoff_targets,
    make_meld,
    meld_points,
    melding_cards,
    most_meld_points,
    pack,
    suit_masks,
    without,
)
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules

if TYPE_CHECKING:
    from rummykit.engine.deal import Deal


__all__ = [
    "Shortcuts", "dead_end", "ends_now", "finishable_after", "usable_after_draw",
    "usable_pile_cards",
]

MANY: Final = 1 << 30
"""Melds left in a turn where the rules do not limit them."""


def _compiled() -> bool:
    """Whether this module runs compiled (by mypyc: see setup.py), where functions are not
    Python functions. The engine's modules are compiled together or not at all."""
    return not isinstance(_compiled, FunctionType)


COMPILED: Final = _compiled()
"""Whether the engine runs compiled: a few steps are done one way compiled (bit masks,
native arithmetic) and another in Python (sets and the deal's indexes)."""


def ends_now(deal: Deal, rest: Sequence[int]) -> bool:
    """With no rule of the turn still pending, whether a hand of ``rest`` ends the turn at
    once: empty (going out, where the last discard is optional) or holding a card that
    may be discarded."""
    if not rest:
        return deal.rules.last_discard == "optional"
    taken = deal.taken
    if taken < 0 or rest.count(taken) < len(rest):  # a card other than the taken one
        return True
    # Only the card taken from the pile (and its twin) is left.
    return len(rest) == 1 and deal.rules.taken_discard == "last-card"


class Shortcuts:
    """What the legal actions of one position can tell of a meld or lay-off of the hand
    without :func:`finishable_after`'s search: True or False where the answer is sure
    (the one ``finishable_after`` gives; tests/engine/test_shortcuts.py checks them against it on
    random positions), None where only the search can tell.

    - The turn can end at once after the move: the player has opened, no pile card is
      left to use and :func:`ends_now` holds of the cards left (``finishable_after``'s
      first test, counted from the hand). Most moves are settled here, with no meld made.
    - A pile card that must be used stays usable at once: the move leaves in place a table
      meld the card fits, or every card of a meld of the hand that holds it, or makes a
      meld the card fits (the search's second test).
    - A pile card that must be used is stranded by the move: it fits no meld of the table
      the move leaves nor the one it makes, joins no meld with the cards left, and the
      cards left extend no run of the table up to it (the search's third test).
    - An opening out of reach: the meld's points, with every other card of the hand that
      is in a meld the hand can form at its most (:func:`most_meld_points`), fall short
      of the opening; lay-offs wait for the opening, so no line of play reaches it.
    """

    __slots__ = ("_fits_on", "_in_melds", "_most", "_with_pending", "deal", "hand", "keep",
                 "melds", "others")

    def __init__(self, deal: Deal, melds: Sequence[tuple[int, ...]]) -> None:
        self.deal = deal
        self.hand = hand = deal.hands[deal.to_move]
        self.melds = melds
        """Every meld the hand can form."""
        self.others = len(hand) - hand.count(deal.taken) if deal.taken >= 0 else len(hand)
        """The cards of the hand other than the one taken from the pile."""
        self.keep = 1 if deal.rules.last_discard == "required" else 0
        """The cards that must be left to discard."""
        self._fits_on: list[int] | None = None
        self._with_pending: list[tuple[frozenset[int], int]] | None = None
        """The melds of :attr:`melds` that hold the pile card to use, as their cards and
        how many (made when first needed)."""
        self._most: tuple[int, ...] | None = None
        self._in_melds = 0

    def meld(self, cards: tuple[int, ...]) -> bool | None:
        """Whether the turn could be finished after melding ``cards``, if sure."""
        deal = self.deal
        if not deal.opened(deal.to_move):
            return self._opening(cards)
        if self._ends_at_once(cards):
            return True
        return self._pending_use(cards, None, False)

    def layoff(self, c: int, replaces: int, low: bool = False) -> bool | None:
        """Whether the turn could be finished after laying off ``c`` on table meld
        ``replaces`` (counted from 0; a joker at a run's low end with ``low``), if sure."""
        if not self.deal.opened(self.deal.to_move):
            return None  # the search refuses it (lay-offs wait for the opening)
        if self._ends_at_once((c,)):
            return True
        return self._pending_use((c,), replaces, low)

    def _ends_at_once(self, used: Sequence[int]) -> bool:
        deal = self.deal
        pending = deal.pending
        if pending >= 0 and pending not in used:
            return False
        left = len(self.hand) - len(used)
        if not left:
            return deal.rules.last_discard == "optional"
        taken = deal.taken
        if taken < 0 or self.others > len(used) - used.count(taken):
            return True  # a card other than the taken one is left
        return left == 1 and deal.rules.taken_discard == "last-card"

    def _pending_use(self, used: Sequence[int], replaces: int | None,
                     low: bool) -> bool | None:
        """Where a pile card must still be used after the move (melding ``used``, or
        laying off its card on table meld ``replaces`` with ``low``): True where it surely
        can be at once, False where no line of play could use it, None where only the
        search can tell (the counts of cards left decide, or the hand holds a joker)."""
        deal = self.deal
        pending = deal.pending
        if pending < 0 or pending in used:
            return None
        rules = deal.rules
        left = len(self.hand) - len(used)
        if self._fits_on is None:
            if COMPILED:
                self._fits_on = [i for i, m in enumerate(deal.table)
                                 if fit_mask(m, rules) >> pending & 1]
            else:  # the deal's index of the melds each card fits
                index = deal._fits if deal._fits is not None else deal._fits_by_card()
                self._fits_on = index.get(pending, [])
        fits_on = self._fits_on  # distinct places
        on_table = bool(fits_on) and (replaces is None or len(fits_on) > 1
                                      or fits_on[0] != replaces)
        if left > self.keep and on_table:
            return True
        can_meld = not (rules.melds_per_turn == "one"
                        and deal.turn_melds + (replaces is None) >= 1)
        # A meld of the cards the move leaves, holding the pile card and leaving a card to
        # discard where one must be: a meld of the hand that holds it and no card used
        # (the melds of fewer cards are among those of the hand). With a twin or a joker
        # left in the hand, a meld using its code is passed over: still a sure answer.
        meldable = False
        if can_meld:
            with_pending = self._with_pending
            if with_pending is None:
                with_pending = self._with_pending = [
                    (frozenset(cards), len(cards)) for cards in self.melds if pending in cards]
            room = left - self.keep
            for cards, size in with_pending:
                if cards.isdisjoint(used):
                    if size <= room:
                        return True
                    meldable = True
        # The meld the move makes.
        seat = deal.to_move
        made = (make_meld(tuple(used), rules, seat) if replaces is None
                else layoff(deal.table[replaces], used[0], rules, seat, low))
        if pending in layoff_targets(made, rules).cards:
            return True if left > self.keep else None
        hand = self.hand
        if pending == JOKER_CODE or JOKER_CODE in hand:
            return None
        # Cards left that extend a run of the table up to it are laid off one by one, and
        # then the card: sure where no card must be kept to discard. (The places of the
        # card's suit that the cards left hold; a twin of a card used is left out.)
        suit_of = pending // 13
        suit = 0
        for c in hand:
            if c // 13 == suit_of and c not in used:
                suit |= 2 << c % 13
        high = rules.high_aces
        if _reaches(made, pending, suit, 0, high) or any(
                i != replaces and _reaches(meld, pending, suit, 0, high)
                for i, meld in enumerate(deal.table)):
            return None if self.keep else True
        if on_table or meldable:
            return None  # a way is left, but the cards left may not allow it
        if rules.decks > 1 and any(hand.count(c) > 1 for c in used):
            return None  # a twin the hand keeps was passed over
        return False  # stranded

    def _opening(self, cards: tuple[int, ...]) -> bool | None:
        deal = self.deal
        rules = deal.rules
        opening = rules.opening
        value = deal.turn_value + meld_points(make_meld(cards, rules, deal.to_move), rules)
        if value >= opening:
            return None
        if rules.melds_per_turn == "one":
            return False  # no other meld may follow it this turn
        # At most, the cards left that are in some meld of the hand: those of every meld of
        # the hand less this meld's own; failing that, those of the melds of what is left
        # (as the search would find them).
        if self._most is None:
            self._most = most_meld_points(rules)
            self._in_melds = _most_points(self.melds, self.hand, self._most)
        most = self._most
        own = 0
        for c in cards:
            own += most[c]
        if value + self._in_melds - own < opening:
            return False
        rest = without(self.hand, cards)
        if value + _most_points(find_melds(rest, rules), rest, most) < opening:
            return False
        return None


def finishable_after(
    deal: Deal, used: Sequence[int], meld: Meld, replaces: int | None
) -> bool:
    """Whether the player to move could still end the turn legally after melding or laying
    off ``used``, which makes ``meld`` (replacing table meld ``replaces`` when given)."""
    rules = deal.rules
    rest = without(deal.hands[deal.to_move], used)
    pending = deal.pending
    if pending >= 0 and pending in used:
        pending = -1
    opened = deal.opened(deal.to_move)
    value = deal.turn_value
    if not opened:
        value += meld_points(meld, rules)
        opened = value >= rules.opening
    if pending < 0 and opened and ends_now(deal, rest):
        return True
    table = list(deal.table)
    if replaces is None:
        table.append(meld)
    else:
        table[replaces] = meld
    if rules.melds_per_turn == "one":
        melds_left = max(0, 1 - deal.turn_melds - (1 if replaces is None else 0))
    else:
        melds_left = MANY
    return _search(deal, tuple(sorted(rest)), table, pending, opened, value, melds_left, {})


def dead_end(deal: Deal, used: Sequence[int], meld: Meld) -> IllegalActionError:
    """The refusal of a meld or lay-off after which the turn could not be finished."""
    rules = deal.rules
    rest = without(deal.hands[deal.to_move], used)
    if not rest and rules.last_discard == "required":
        return IllegalActionError("compulsory last discard: you must keep a card to discard",
                                  code="last-discard-required")
    if deal.pending >= 0 and deal.pending not in used:
        card = format_cards([deal.pending])
        return IllegalActionError(
            f"you must still meld or lay off {card} this turn, and after this you could not",
            code="pile-card-stranded", params={"card": card})
    if not deal.opened(deal.to_move) and rules.opening:
        return IllegalActionError(
            f"opening: after this your melds this turn could no longer reach {rules.opening}",
            code="opening-unreachable", params={"needed": rules.opening})
    left = format_cards(sorted(rest))
    what = f"the only card left ({left}) may not" if len(rest) == 1 else (
        f"the cards left ({left}) may not")
    taken = format_cards([deal.taken]) if deal.taken >= 0 else ""
    return IllegalActionError(
        f"you could not end the turn after this: {what} be discarded"
        + (f" (you took {taken} from the pile this turn)" if taken else "")
        + " and could not all be laid off", code="dead-end", params={"cards": left})


def _search(
    deal: Deal, rest: tuple[int, ...], table: list[Meld], pending: int, opened: bool,
    value: int, melds_left: int, memo: dict[tuple[object, ...], bool],
) -> bool:
    """Depth first over every meld and lay-off: is there a way to end the turn from here?
    Exact: every meld the cards left can form and every place each card fits is tried."""
    rules = deal.rules
    if pending < 0 and opened and ends_now(deal, rest):
        return True
    if pending >= 0 and opened and _usable_at_once(rest, table, pending, melds_left > 0, deal):
        # Using the pile card settles the turn: what is left may then be discarded (a pile
        # card that must be used is never a card that may not be discarded), or nothing is
        # left and the player is out where that is allowed.
        return True
    if pending >= 0 and not _could_use(rest, table, pending, melds_left > 0, opened, deal):
        return False
    key = (rest, pending, opened, value, melds_left, tuple(table))
    known = memo.get(key)
    if known is not None:
        return known
    memo[key] = False
    seat = deal.to_move
    if melds_left > 0:
        melds = find_melds(rest, rules)
        if not opened and melds and value + _most_points(
                melds, rest, most_meld_points(rules)) < rules.opening:
            return False  # lay-offs wait for the opening, and these melds cannot reach it
        for cards in melds:
            meld = make_meld(cards, rules, seat)
            new_value = value if opened else value + meld_points(meld, rules)
            if _search(
                deal, tuple(without(rest, cards)), [*table, meld],
                -1 if pending in cards else pending, opened or new_value >= rules.opening,
                new_value, melds_left - 1, memo,
            ):
                memo[key] = True
                return True
    if opened:
        for i, meld in enumerate(table):
            targets = layoff_targets(meld, rules)
            for c in targets.cards.intersection(rest):
                for low in targets.ends[c]:
                    new_table = table[:]
                    new_table[i] = layoff(meld, c, rules, seat, low)
                    if _search(deal, tuple(without(rest, (c,))), new_table,
                               -1 if c == pending else pending, opened, value, melds_left,
                               memo):
                        memo[key] = True
                        return True
    return False


def _most_points(
    melds: Sequence[tuple[int, ...]], rest: Sequence[int], most: Sequence[int]
) -> int:
    """The most that disjoint melds of ``rest`` could add to the turn's points: every card
    of ``rest`` that is in one of its ``melds`` (every meld it can form) at its ``most``
    (:func:`most_meld_points`)."""
    in_melds = 0  # bit c for card code c
    for cards in melds:
        for c in cards:
            in_melds |= _BIT[c]
    total = 0
    for c in rest:
        if in_melds & _BIT[c]:
            total += most[c]
    return total


_BIT: Final = tuple(1 << code for code in range(JOKER_CODE + 1))


def _usable_at_once(
    hand: Sequence[int], table: Sequence[Meld], card: int, can_meld: bool, deal: Deal
) -> bool:
    """Whether ``card`` fits a meld of ``table`` or joins a meld with cards of ``hand``,
    keeping a card to discard where the last card must be discarded."""
    rules = deal.rules
    keep = 1 if rules.last_discard == "required" else 0
    if len(hand) > keep and _fits_table(table, card, rules):
        return True
    if not can_meld:
        return False
    shortest = _shortest_meld(card, hand, rules)
    return 0 < shortest < len(hand) + 1 - keep


def _fits_table(table: Sequence[Meld], card: int, rules: Rules) -> bool:
    """Whether ``card`` can be laid off on a meld of ``table``: a bit of the melds' fit
    masks taken together (cheaper in Python than a generator stopping at the first)."""
    return bool(_table_fit_mask(table, rules) >> card & 1)


def _table_fit_mask(table: Sequence[Meld], rules: Rules) -> int:
    """The cards that can be laid off on some meld of ``table``, as a bit mask (bit ``c``
    for card code ``c``): the melds' :func:`fit_mask` taken together."""
    fitting = 0
    for meld in table:
        fitting |= fit_mask(meld, rules)
    return fitting


def _could_use(
    hand: Sequence[int], table: Sequence[Meld], card: int, can_meld: bool, opened: bool,
    deal: Deal,
) -> bool:
    """Whether ``card`` could still be used by any line of play: in a meld of cards of
    ``hand`` (a meld laid first and extended up to it is such a meld too), or laid off on
    a meld of ``table``, at once or once cards of the hand have extended a run up to it.
    When not even this holds, no search is needed: the card is stranded."""
    rules = deal.rules
    if opened and _fits_table(table, card, rules):
        return True
    if opened and card != JOKER_CODE:
        masks, jokers = suit_masks(hand)
        if any(_reaches(m, card, masks[m.suit], jokers, rules.high_aces) for m in table):
            return True
    return can_meld and _shortest_meld(card, hand, rules) > 0


def _shortest_meld(card: int, hand: Sequence[int], rules: Rules) -> int:
    """The fewest cards of a meld of cards of ``hand`` (which holds ``card``) that holds
    ``card``, or 0 where there is none: from the hand's suit masks where no joker is
    involved (:func:`shortest_meld_with`), else from the list of those melds."""
    if card != JOKER_CODE:
        masks, jokers = suit_masks(hand)
        if not jokers:
            return _shortest_with_masks(card, masks, rules.set_min, rules.run_min,
                                        rules.high_aces)
    return min((len(cards) for cards in _melds_with(card, hand, rules)), default=0)


# -- a pile card that must be used (rummy500) ----------------------------------------


def usable_after_draw(deal: Deal, index: int) -> bool:
    """Whether the pile card at ``index`` could be melded or laid off this turn if taken
    (with every card above it): directly on a meld of the table, in a meld with cards of
    the hand, or on a run of the table once cards of the hand have extended it up to it."""
    found = usable_pile_cards(deal, index)
    return bool(found) and found[-1] == index


def usable_pile_cards(deal: Deal, lowest: int = 0) -> list[int]:
    """The indexes of the pile cards from the top down to ``lowest`` that
    :func:`usable_after_draw` accepts, from the top down, found in one walk down the pile
    (the legal draws list them all).

    What the table offers is read once: compiled, the cards that fit one of its melds as a
    bit mask; in Python, the deal's index of the melds each card fits (kept from move to
    move); its runs by suit only when a card fits neither the table nor a meld. The cards
    the hand would hold are one packed mask (:func:`pack`), one pile card added at each
    step down. Without jokers, the cards that the hand and the pile down to ``lowest``
    could meld (:func:`melding_cards`, one answer for the whole pile) leave out most pile
    cards at once; only a card among them is asked again with the cards above it alone."""
    rules = deal.rules
    fits = 0
    index: dict[int, list[int]] | None = None
    runs: tuple[list[Meld], ...] | None = None
    if deal._opened[deal.to_move]:
        if COMPILED:
            fits = _table_fit_mask(deal.table, rules)
        else:
            index = deal._fits if deal._fits is not None else deal._fits_by_card()
    else:
        runs = _NO_RUNS  # lay-offs wait for the opening
    pile = deal.pile
    held = pack(deal.hands[deal.to_move])
    everything = held | pack(pile[lowest:] if lowest else pile)
    if everything >> 60:  # a joker
        return _usable_with_jokers(deal, lowest, fits, index, runs)
    set_min = rules.set_min
    run_min = rules.run_min
    high = rules.high_aces
    melding = melding_cards(everything, set_min, run_min, high)
    neighbours = _NEIGHBOURS_HIGH if high else _NEIGHBOURS
    out: list[int] = []
    for i in range(len(pile) - 1, lowest - 1, -1):
        chosen = pile[i]
        bit = _PACKED_BIT[chosen]
        held |= bit  # the hand with the pile from i up
        # (At the bottom card, the hand with the pile from there up is ``everything``.)
        if ((index.get(chosen) if index is not None else fits >> chosen & 1)
                or (melding & bit and (i == lowest
                                       or melding_cards(held, set_min, run_min, high) & bit))):
            out.append(i)
            continue
        # Cards of the hand extend a run of the table up to the card only through a card
        # held next to it (a run ending next to it is one it fits, asked above).
        if not held & neighbours[chosen]:
            continue
        if runs is None:
            runs = _runs_by_suit(deal.table)
        suit = chosen // 13
        for meld in runs[suit]:
            if _reaches(meld, chosen, held >> 15 * suit & _SUIT_MASK, 0, high):
                out.append(i)
                break
    return out


def _neighbours(high_aces: bool) -> tuple[int, ...]:
    """Each natural card's neighbours in its suit, packed as :func:`pack` packs cards: the
    cards a rank above and below it; an ace's are the two and, where aces may be high
    (``high_aces``), the king."""
    out = []
    for code in range(JOKER_CODE):
        bit = _PACKED_BIT[code]
        near = bit << 1 | bit >> 1
        if high_aces and code % 13 == 0:
            near |= bit << 12
        out.append(near & _PACKED_SUIT_MASKS[code // 13])
    return tuple(out)


_PACKED_SUIT_MASKS: Final = tuple(((1 << 15) - 2) << 15 * s for s in range(4))
"""The places of each suit in a packed hand (bit 0 of each suit's fifteen is never set)."""
_NEIGHBOURS: Final = _neighbours(False)
_NEIGHBOURS_HIGH: Final = _neighbours(True)


def _usable_with_jokers(
    deal: Deal, lowest: int, fits: int, index: dict[int, list[int]] | None,
    runs: tuple[list[Meld], ...] | None,
) -> list[int]:
    """:func:`usable_pile_cards` where the hand or the pile holds a joker (``fits``,
    ``index`` and ``runs`` what it read of the table): card by card, the hand's suit
    masks growing by one pile card a step."""
    rules = deal.rules
    pile = deal.pile
    hand = deal.hands[deal.to_move]
    masks, jokers = suit_masks(hand)
    high = rules.high_aces
    out: list[int] = []
    for i in range(len(pile) - 1, lowest - 1, -1):
        chosen = pile[i]
        if chosen == JOKER_CODE:
            jokers += 1
            masks[4] = 2
        else:
            masks[chosen // 13] |= 2 << chosen % 13
        if fits >> chosen & 1 or (index is not None and index.get(chosen)):
            out.append(i)
            continue
        if chosen != JOKER_CODE:
            if not jokers and _shortest_with_masks(chosen, masks, rules.set_min,
                                                   rules.run_min, high):
                out.append(i)
                continue
            if runs is None:
                runs = _runs_by_suit(deal.table)
            if any(_reaches(m, chosen, masks[m.suit], jokers, high)
                   for m in runs[chosen // 13]):
                out.append(i)
                continue
            if not jokers:
                continue
        if _melds_with(chosen, hand + pile[i:], rules):
            out.append(i)
    return out


def _runs_by_suit(table: Sequence[Meld]) -> tuple[list[Meld], ...]:
    """The runs of ``table`` by suit."""
    runs: tuple[list[Meld], ...] = ([], [], [], [])
    for meld in table:
        if meld.kind == "run":
            runs[meld.suit].append(meld)
    return runs


_NO_RUNS: Final[tuple[list[Meld], ...]] = ([], [], [], [])


def _reaches(meld: Meld, chosen: int, held: int, jokers: int, high_aces: bool) -> bool:
    """Whether cards of a hand could extend run ``meld`` until ``chosen`` fits its end: the
    hand holds the places of ``held`` in the run's suit (its suit mask) and ``jokers``
    jokers, enough to fill every place between the run and the card (``high_aces``: the
    rules' ``aces=high-low``)."""
    if meld.kind != "run" or chosen == JOKER_CODE or chosen // 13 != meld.suit:
        return False
    rank = chosen % 13 + 1
    if held & 2 and high_aces:
        held |= 1 << 14
    if _fills(meld, rank, held, jokers):
        return True
    # An ace may also be reached at the high end (place 14).
    return rank == 1 and high_aces and _fills(meld, 14, held, jokers)


def _fills(meld: Meld, pos: int, held: int, jokers: int) -> bool:
    """Whether ``held`` and ``jokers`` fill every place between run ``meld`` and place
    ``pos`` beyond one of its ends (False where ``pos`` is not beyond an end)."""
    if pos > meld.high + 1:
        if meld.low == 1 and pos == 14:
            return False  # the ace is low or high in a run, never both
        low, high = meld.high + 1, pos
    elif pos < meld.low - 1:
        if meld.high == 14 and pos == 1:
            return False
        low, high = pos + 1, meld.low
    else:
        return False
    missing = ((1 << high) - (1 << low)) & ~held  # the places low .. high - 1 not held
    # Compiled, clearing the lowest bit once per joker is native arithmetic (a method
    # call such as ``int.bit_count`` is not).
    while missing and jokers:
        missing &= missing - 1
        jokers -= 1
    return not missing


def _melds_with(card: int, hand: Sequence[int], rules: Rules) -> list[tuple[int, ...]]:
    """The melds of cards of ``hand`` (which holds ``card``) that hold ``card``: only the
    cards near it can share a meld with it, so only those are listed."""
    return [cards for cards in find_melds(_near(list(hand), card), rules) if card in cards]


def _near(hand: list[int], chosen: int) -> list[int]:
    """The cards of a hand that could share a meld with ``chosen``."""
    if chosen == JOKER_CODE:
        return hand
    suit = chosen // 13
    rank = chosen % 13
    return [c for c in hand if c == JOKER_CODE or c % 13 == rank or c // 13 == suit]
