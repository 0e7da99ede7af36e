"""An independent model of melds, lay-offs and the play of one turn, written from RULES.md.

Nothing here imports ``rummykit.engine.melds`` or ``rummykit.engine``: the only things taken from
the package are the card codes (``suit * 13 + rank - 1``, joker 52) and the option values of
a :class:`rummykit.rules.Rules`. Everything else is derived from the rules text:

- a *set* is ``set_min``..``set_max`` cards of one rank whose natural cards all have
  different suits; jokers stand for suits the set lacks (so no more than four cards);
- a *run* is ``run_min`` or more cards of one suit at consecutive places; places go from
  1 (a low ace) to 13 (king), and to 14 (a high ace) when ``aces="high-low"``; a run never
  has both a low and a high ace (no K-A-2, no 14-card run); a joker stands for the card of
  its place;
- every meld holds a natural card; a meld of one natural card and jokers is read as a set
  when it is no longer than ``set_max`` and as a run otherwise;
- a set's order is not significant; a run is written from its low end up.

Two ways of listing melds are given, both brute force: :func:`melds_by_orderings` reads
every ordering of every sub-multiset of a hand, :func:`melds_by_submultisets` decides each
sub-multiset from first principles (every ace high or low, every low end) and is used
where the orderings are too many. The tests check the two against each other.

The turn model (:class:`Turn`, :func:`finishable`) encodes RULES.md "No dead ends": an
action is legal only if the player can still finish the turn after it, searched by brute
force over every meld and lay-off the rules allow.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from rummykit.rules import Rules

JK = 52
"""The joker's code."""

Hand = tuple[int, ...]
"""A multiset of cards, kept sorted."""

# A reading of cards as a meld: ("set", rank, natural suits, size) or ("run", suit, low, high).
Reading = tuple[str, int, frozenset[int], int] | tuple[str, int, int, int]


def rank(c: int) -> int:
    return c % 13 + 1


def suit(c: int) -> int:
    return c // 13


def top_place(rules: Rules) -> int:
    """The highest place in a run: 14 (a high ace) with aces high-low, else 13 (king)."""
    return 14 if rules.aces == "high-low" else 13


def places_of(c: int, rules: Rules) -> tuple[int, ...]:
    """Where a natural card can stand in a run."""
    if rank(c) == 1:
        return (1, 14) if rules.aces == "high-low" else (1,)
    return (rank(c),)


def run_span_ok(low: int, high: int, rules: Rules) -> bool:
    """A run from place ``low`` to ``high`` exists: inside 1..13 or 2..14, never both aces."""
    return 1 <= low <= high <= top_place(rules) and high - low + 1 <= 13


def card_points(c: int, rules: Rules) -> int:
    """A card's points in hand (RULES.md "card values")."""
    if c == JK:
        return rules.joker_points
    r = rank(c)
    if r == 1:
        return rules.ace_points
    if r >= 11:
        return rules.court_points
    return r


def hand_points(cards: Iterable[int], rules: Rules) -> int:
    return sum(card_points(c, rules) for c in cards)


# -- reading cards as a meld ------------------------------------------------------------


def read_set(cards: Sequence[int], rules: Rules) -> Reading | None:
    naturals = [c for c in cards if c != JK]
    if not naturals or len({rank(c) for c in naturals}) != 1:
        return None
    suits = frozenset(suit(c) for c in naturals)
    if len(suits) != len(naturals):
        return None
    if not rules.set_min <= len(cards) <= rules.set_max or len(cards) > 4:
        return None
    return ("set", rank(naturals[0]), suits, len(cards))


def run_low(cards: Sequence[int], rules: Rules) -> int | None:
    """The low place fixed by the naturals' written places, if they agree on one."""
    naturals = [(i, c) for i, c in enumerate(cards) if c != JK]
    if not naturals or len({suit(c) for _, c in naturals}) != 1:
        return None
    lows: set[int] | None = None
    for i, c in naturals:
        options = {p - i for p in places_of(c, rules)}
        lows = options if lows is None else lows & options
    assert lows is not None
    fitting = [low for low in lows if run_span_ok(low, low + len(cards) - 1, rules)]
    if fitting:
        assert len(fitting) == 1
        return fitting[0]
    # The naturals agree on a low end that lies off the ranks (or they do not agree).
    return min(lows) if lows else None


def read_run(cards: Sequence[int], rules: Rules) -> Reading | None:
    """Read cards, in their written order, as a run."""
    if len(cards) < rules.run_min:
        return None
    low = run_low(cards, rules)
    if low is None:
        return None
    high = low + len(cards) - 1
    if not run_span_ok(low, high, rules):
        return None
    return ("run", suit(next(c for c in cards if c != JK)), low, high)


def reads_as_set(cards: Sequence[int], rules: Rules) -> bool:
    """Whether the meld rules read these cards as a set (rather than a run)."""
    naturals = [c for c in cards if c != JK]
    if len(naturals) == 1:
        return len(cards) <= rules.set_max
    return len(naturals) >= 2 and len({rank(c) for c in naturals}) == 1


def read_meld(cards: Sequence[int], rules: Rules) -> Reading | None:
    """The meld that ``cards`` written in this order make, or None."""
    if not any(c != JK for c in cards):
        return None
    if reads_as_set(cards, rules):
        return read_set(cards, rules)
    return read_run(cards, rules)


def read_as(cards: Sequence[int], kind: str, rules: Rules) -> Reading | None:
    """Read a table meld whose kind is known."""
    return read_set(cards, rules) if kind == "set" else read_run(cards, rules)


def canonical(cards: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """A meld's canonical form: a set sorted, a run as written."""
    return tuple(sorted(cards)) if reads_as_set(cards, rules) else tuple(cards)


def naturals_consistent(cards: Sequence[int], rules: Rules) -> bool:
    """Whether written cards' naturals agree on one place each (a run's written order)."""
    if reads_as_set(cards, rules):
        return True
    return run_low(cards, rules) is not None


def meld_value(reading: Reading, rules: Rules) -> int:
    """A meld's worth toward an opening: a joker counts as the card it stands for."""
    if reading[0] == "set":
        _, r, _, size = reading
        assert isinstance(size, int)
        return size * card_points(r - 1, rules)
    _, _, low, high = reading
    assert isinstance(low, int)
    total = 0
    for place in range(low, high + 1):
        if place == 1:
            total += rules.ace_low_run_points
        elif place == 14:
            total += rules.ace_points
        elif place >= 11:
            total += rules.court_points
        else:
            total += place
    return total


# -- listing melds ----------------------------------------------------------------------


def sub_multisets(hand: Sequence[int], least: int = 3) -> Iterator[Hand]:
    """Every distinct sub-multiset of ``hand`` with at least ``least`` cards, sorted."""
    counts = sorted(Counter(hand).items())
    ranges = [range(n + 1) for _, n in counts]
    for picks in itertools.product(*ranges):
        if sum(picks) >= least:
            yield tuple(c for (c, _), k in zip(counts, picks, strict=True) for _ in range(k))


def distinct_orderings(cards: Sequence[int]) -> set[tuple[int, ...]]:
    return set(itertools.permutations(cards))


def melds_by_orderings(hand: Sequence[int], rules: Rules) -> set[tuple[int, ...]]:
    """Every meld of the hand: every ordering of every sub-multiset, read by the rules."""
    found: set[tuple[int, ...]] = set()
    for sub in sub_multisets(hand):
        for order in distinct_orderings(sub):
            if read_meld(order, rules) is not None:
                found.add(canonical(order, rules))
    return found


@functools.cache
def readings_of(sub: Hand, rules: Rules) -> frozenset[tuple[int, ...]]:
    """Every way a multiset of cards is one meld, each in canonical written form.

    Decided from first principles: a set when its naturals share a rank; else a run,
    trying every ace low or high and every low end that holds all the naturals.
    """
    naturals = [c for c in sub if c != JK]
    if not naturals:
        return frozenset()
    n = len(sub)
    if reads_as_set(sub, rules):
        return frozenset([sub]) if read_set(sub, rules) is not None else frozenset()
    if len({suit(c) for c in naturals}) != 1 or n < rules.run_min:
        return frozenset()
    out: set[tuple[int, ...]] = set()
    for places in itertools.product(*(places_of(c, rules) for c in naturals)):
        if len(set(places)) != len(places):
            continue
        lo, hi = min(places), max(places)
        for low in range(hi - n + 1, lo + 1):
            if not run_span_ok(low, low + n - 1, rules):
                continue
            row = [JK] * n
            for c, p in zip(naturals, places, strict=True):
                row[p - low] = c
            out.add(tuple(row))
    return frozenset(out)


def melds_by_submultisets(hand: Sequence[int], rules: Rules) -> set[tuple[int, ...]]:
    """Every meld of the hand, deciding each sub-multiset by :func:`readings_of`."""
    found: set[tuple[int, ...]] = set()
    for sub in sub_multisets(hand):
        found |= readings_of(sub, rules)
    return found


@functools.cache
def melds_of(hand: Hand, rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Every meld of a sorted hand, built place by place (fast on large hands).

    Sets: every choice of the rank's suits in hand plus jokers; runs: every suit, low end
    and length, each place filled by its natural card when held or by a joker. Checked
    against :func:`melds_by_submultisets` by the tests.
    """
    jokers = hand.count(JK)
    held = set(hand) - {JK}
    found: list[tuple[int, ...]] = []
    for r in range(1, 14):
        here = sorted(c for c in held if rank(c) == r)
        for k in range(1, len(here) + 1):
            for naturals in itertools.combinations(here, k):
                for j in range(min(jokers, 4 - k) + 1):
                    meld = (*naturals, *[JK] * j)
                    if reads_as_set(meld, rules) and read_set(meld, rules) is not None:
                        found.append(meld)
    top = top_place(rules)
    for s in range(4):
        at = {p: s * 13 + (p - 1) % 13 for p in range(1, top + 1)}
        present = {p for p, c in at.items() if c in held}
        if not present:
            continue
        for low in range(1, top + 1):
            # Places low..high, high going up: the places held grow one by one, and once
            # more places are missing than there are jokers, no longer run fits either.
            have: list[int] = []
            for high in range(low, min(top, low + 12) + 1):
                if high in present:
                    have.append(high)
                places = range(low, high + 1)
                missing = len(places) - len(have)
                if missing > jokers:
                    break
                if len(places) < rules.run_min or not have:
                    continue
                for k in range(min(jokers - missing, len(have)) + 1):
                    for replaced in itertools.combinations(have, k):
                        row = tuple(JK if p not in present or p in replaced else at[p]
                                    for p in places)
                        if not reads_as_set(row, rules) and read_run(row, rules) is not None:
                            found.append(row)
    return tuple(found)


def is_sub_multiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    need = Counter(part)
    have = Counter(whole)
    return all(have[c] >= n for c, n in need.items())


def minus(whole: Sequence[int], part: Iterable[int]) -> Hand:
    rest = list(whole)
    for c in part:
        rest.remove(c)
    return tuple(sorted(rest))


def brute_deadwood(hand: Sequence[int], rules: Rules) -> int:
    """The least points left in hand over every collection of disjoint melds.

    Exhaustive: the lowest card left is either kept in hand or laid in one of the melds
    that contain it; every meldable sub-multiset of the hand is tried.
    """
    hand = tuple(sorted(hand))
    meldable = [sub for sub in sub_multisets(hand) if readings_of(sub, rules)]

    @functools.cache
    def best(rest: Hand) -> int:
        if not rest:
            return 0
        first = rest[0]
        result = card_points(first, rules) + best(rest[1:])
        for sub in meldable:
            if first in sub and is_sub_multiset(sub, rest):
                result = min(result, best(minus(rest, sub)))
        return result

    return best(hand)


# -- lay-offs ---------------------------------------------------------------------------


def layoff_results(reading: Reading, c: int, rules: Rules) -> dict[bool, Reading]:
    """Where card ``c`` can be added to a meld: {at the low end?: the meld it makes}.

    For a set the key is False (a set has no ends).
    """
    if reading[0] == "set":
        _, r, suits, size = reading
        assert isinstance(suits, frozenset) and isinstance(size, int)
        if size + 1 > rules.set_max or size + 1 > 4:
            return {}
        if c == JK:
            return {False: ("set", r, suits, size + 1)}
        if rank(c) != r or suit(c) in suits:
            return {}
        return {False: ("set", r, suits | {suit(c)}, size + 1)}
    _, s, low, high = reading
    assert isinstance(low, int)
    out: dict[bool, Reading] = {}
    if c != JK and suit(c) != s:
        return out
    wanted = (low - 1, high + 1) if c == JK else places_of(c, rules)
    if low - 1 in wanted and run_span_ok(low - 1, high, rules):
        out[True] = ("run", s, low - 1, high)
    if high + 1 in wanted and run_span_ok(low, high + 1, rules):
        out[False] = ("run", s, low, high + 1)
    return out


# -- the turn ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """The part of a position that decides what the player to move may still do this turn."""

    hand: Hand
    table: tuple[Reading, ...]
    melds: int = 0
    """New melds laid this turn."""
    value: int | None = None
    """Worth of this turn's melds while the player has not opened (None: no opening due)."""
    taken: int | None = None
    """The card taken from the pile this turn (may not be discarded)."""
    used_taken: int = 0
    """Copies of the taken card melded or laid off this turn."""
    chosen: int | None = None
    """The pile card that must still be melded or laid off this turn."""


def opened_now(turn: Turn, rules: Rules) -> bool:
    return turn.value is None or (turn.melds > 0 and turn.value >= rules.opening)


def turn_may_end(turn: Turn, rules: Rules) -> bool:
    """The whole-turn rules checked where the turn ends: the opening and the pile card."""
    opening_ok = turn.value is None or turn.melds == 0 or turn.value >= rules.opening
    return opening_ok and turn.chosen is None


def discard_ok(turn: Turn, c: int, rules: Rules, lenient: bool) -> bool:
    """Discarding ``c`` now is allowed (it ends the turn).

    ``lenient`` settles what RULES.md leaves open with two equal copies: when the hand
    holds the taken card and its twin, may the twin be discarded? (lenient: yes).
    """
    if c not in turn.hand or not turn_may_end(turn, rules):
        return False
    if turn.taken is None or c != turn.taken:
        return True
    if rules.taken_discard == "last-card" and len(turn.hand) == 1:
        return True
    if not lenient:
        return False
    taken_left = max(0, 1 - turn.used_taken)
    return turn.hand.count(c) > taken_left


def _after(turn: Turn, cards: Sequence[int], table: tuple[Reading, ...],
           value_added: int | None, chosen_used: bool) -> Turn:
    melds = turn.melds + (value_added is not None)
    value = turn.value
    if value is not None and value_added is not None:
        value += value_added
    return replace(
        turn,
        hand=minus(turn.hand, cards),
        table=table,
        melds=melds,
        value=value,
        used_taken=turn.used_taken + sum(1 for c in cards if c == turn.taken),
        chosen=None if chosen_used else turn.chosen,
    )


def after_meld(turn: Turn, cards: Sequence[int], rules: Rules) -> Turn | None:
    """The turn after laying ``cards`` (as written) as a new meld, if the rules allow it."""
    reading = read_meld(cards, rules)
    if reading is None or not is_sub_multiset(cards, turn.hand):
        return None
    if rules.melds_per_turn == "one" and turn.melds >= 1:
        return None
    return _after(turn, cards, (*turn.table, reading), meld_value(reading, rules),
                  turn.chosen is not None and turn.chosen in cards)


def after_layoff(turn: Turn, c: int, k: int, new: Reading, rules: Rules) -> Turn | None:
    """The turn after laying ``c`` off on meld ``k`` (0-based), making ``new``."""
    if c not in turn.hand or not opened_now(turn, rules):
        return None
    table = (*turn.table[:k], new, *turn.table[k + 1:])
    return _after(turn, (c,), table, None, turn.chosen == c)


def move_ok(nxt: Turn | None, rules: Rules, lenient: bool) -> bool:
    """A meld or lay-off that led to ``nxt`` leaves the player a legal way to finish."""
    _visits[0] = 0
    return _move_ok(nxt, rules, lenient)


def _move_ok(nxt: Turn | None, rules: Rules, lenient: bool) -> bool:
    if nxt is None:
        return False
    if not nxt.hand:
        return rules.last_discard == "optional" and turn_may_end(nxt, rules)
    return _finishable(nxt, rules, lenient)


def successors(turn: Turn, rules: Rules) -> Iterator[Turn]:
    """Every turn one meld or lay-off away."""
    if not (rules.melds_per_turn == "one" and turn.melds >= 1):
        for meld in melds_of(turn.hand, rules):
            nxt = after_meld(turn, meld, rules)
            if nxt is not None:
                yield nxt
    if opened_now(turn, rules):
        for c in set(turn.hand):
            for k, reading in enumerate(turn.table):
                for new in layoff_results(reading, c, rules).values():
                    nxt = after_layoff(turn, c, k, new, rules)
                    if nxt is not None:
                        yield nxt


class SearchTooLong(Exception):
    """The search for a way to finish the turn went past its budget (the model abstains)."""


SEARCH_BUDGET = 20_000
"""Turns the search may visit for one question before it gives up."""
_visits = [0]


def chosen_may_be_used(turn: Turn, rules: Rules) -> bool:
    """A necessary condition for using the pending pile card later this turn: it is in a
    meld of the hand, or a table meld has its suit (a run) or its rank (a set), or it is
    a joker (exact answers come from the search; this only cuts hopeless branches)."""
    c = turn.chosen
    if c is None or c == JK:
        return True
    if any(c in meld for meld in melds_of(turn.hand, rules)):
        return True
    return any((r[0] == "run" and r[1] == suit(c)) or (r[0] == "set" and r[1] == rank(c))
               for r in turn.table)


def finishable(turn: Turn, rules: Rules, lenient: bool) -> bool:
    """Whether the player can still end this turn legally: discard, or go out.

    Raises :class:`SearchTooLong` past ``SEARCH_BUDGET`` visited turns.
    """
    _visits[0] = 0
    return _finishable(turn, rules, lenient)


@functools.lru_cache(maxsize=200_000)
def _finishable(turn: Turn, rules: Rules, lenient: bool) -> bool:
    _visits[0] += 1
    if _visits[0] > SEARCH_BUDGET:
        raise SearchTooLong
    if any(discard_ok(turn, c, rules, lenient) for c in set(turn.hand)):
        return True
    if not chosen_may_be_used(turn, rules):
        return False
    return any(_move_ok(nxt, rules, lenient) for nxt in successors(turn, rules))
