"""The observation: one seat's :func:`~rummykit.engine.views.sight` as a flat float32 vector.

The vector is ``planes * 53`` card planes followed by scalar features (docs/rl.md,
"Observation"). A card plane has one column per card code (52 natural cards in code order,
clubs, diamonds, hearts, spades, ace to king, then the joker); a count is divided by the
copies of that card in the deck (the decks for a natural card, the jokers for the joker),
so every entry of a plane lies in [0, 1]. Seats are counted from the observing seat: 0 is
the seat itself, 1 the next seat clockwise, and so on.

Planes, in order (``P`` players, ``M`` the table's bound of melds):

0. the seat's hand
1. the cards chosen so far for a new meld (see :mod:`rummykit.rl.actions`)
2. the pile as the rules expose it, by height: the top card 1, the card below it
   ``(n - 1) / n`` and so on for a pile of ``n`` cards (where only the top may be drawn,
   the top alone)
3. every card in the pile (each was seen face up)
4. the card taken from the pile this turn (it may not be discarded, or must be used)
5. every card on the table
6. the cards of the seat's hand that the others know it holds
7. to 7 + P - 2: for each other seat, the cards it is known to hold
7 + P - 1: the cards the seat cannot place (in the stock or hidden in another hand)
then M planes, one per table meld in the order melds reached the table (1, 2, ...): the
cards each place of the meld stands for (a run's every place, a set's natural cards), and
in the joker column the jokers in it.

Scalars, in order: the phase (draw, play, choosing a meld: one-hot, 3); the seat to move
(one-hot by relative seat, P); the dealer (P); each hand's size divided by the deck's (P);
the stock's and the pile's size divided by the deck's (2); the melds on the table divided
by M (1); opened, laid earlier in the deal, still in the match (each P); the match totals
divided by the target (100 where the rules have none) and clipped to [-2, 2] (P); whether
a meld was laid this turn (1); the points melded this turn towards an opening divided by
the opening (clipped to [0, 2]; 0 without an opening rule) (1); the turn-overs and the
refills used, each divided by the rules' limit (2).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from rummykit.cards import JOKER_CODE
from rummykit.engine.deal import Deal
from rummykit.engine.knowledge import Tracker
from rummykit.engine.match import Match
from rummykit.engine.melds import Meld
from rummykit.engine.views import Sight, sight
from rummykit.rl.actions import CARD_CODES, max_table_melds
from rummykit.rules import Rules

__all__ = ["FIXED_PLANES", "Encoder", "Layout", "SeatEncoder", "reference_observation"]

FIXED_PLANES = ("hand", "choosing", "pile_order", "pile", "taken", "table", "mine_known")
"""The first planes, whatever the player count."""

_COUNT_ROWS = [0, 1, 3, 5, 6]
"""The fixed planes that hold counts (the others hold 1 or a height)."""

Vector = npt.NDArray[np.float32]
_Counts = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the observation lies, for a rules object and a player count."""

    players: int
    max_melds: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # As the encoder's (a compiled frozen class cannot be filled field by field).
        return Layout, (self.players, self.max_melds)

    @property
    def opponent_planes(self) -> int:
        return len(FIXED_PLANES)

    @property
    def unseen_plane(self) -> int:
        return len(FIXED_PLANES) + self.players - 1

    @property
    def meld_planes(self) -> int:
        return self.unseen_plane + 1

    @property
    def planes(self) -> int:
        return self.meld_planes + self.max_melds

    @property
    def scalars(self) -> int:
        return 10 + 7 * self.players

    @property
    def size(self) -> int:
        return self.planes * CARD_CODES + self.scalars

    def plane(self, vector: Vector, number: int) -> Vector:
        """Plane ``number`` of an observation (53 entries)."""
        return vector[number * CARD_CODES:(number + 1) * CARD_CODES]

    def scalar_part(self, vector: Vector) -> Vector:
        return vector[self.planes * CARD_CODES:]

    def bounds(self) -> tuple[Vector, Vector]:
        """The lowest and highest value of each entry."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        base = self.planes * CARD_CODES
        p = self.players
        totals = base + 3 + 3 * p + 3 + 3 * p
        low[totals:totals + p] = -2.0
        high[totals:totals + p] = 2.0
        high[totals + p + 1] = 2.0  # the opening's points this turn
        return low, high


class Encoder:
    """Turns a seat's :class:`~rummykit.engine.views.Sight` into its observation vector.

    Every card plane is counted in one pass (one ``bincount`` over the flat positions of
    the cards), then scaled to fractions of the copies in the deck."""

    __slots__ = (
        "_base",
        "_cards",
        "_max_melds",
        "_opponents",
        "_orders",
        "_players",
        "_refills",
        "_scalar_at",
        "_scalar_places",
        "_scale",
        "_scaled",
        "_size",
        "_table",
        "_table_at",
        "_turn_overs",
        "_unseen",
        "_weights",
        "copies",
        "deck",
        "inv_copies",
        "layout",
        "opening",
        "rules",
    )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # For pickle and copy.deepcopy (a compiled class is made through its constructor
        # only): nothing in an encoder changes once made.
        return Encoder, (self.rules, self._players)

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        layout = self.layout = Layout(players, max_table_melds(rules))
        copies = np.full(CARD_CODES, rules.decks, dtype=np.float32)
        copies[JOKER_CODE] = rules.jokers
        self.copies = copies
        self.inv_copies = (1.0 / np.maximum(copies, 1.0)).astype(np.float32)
        self._cards = layout.planes * CARD_CODES
        self._size = layout.size
        self._players = players
        self._orders = [[(seat + r) % players for r in range(players)]
                        for seat in range(players)]
        self._max_melds = float(layout.max_melds)
        self._opponents = [(layout.opponent_planes + r - 1) * CARD_CODES
                           for r in range(players)]
        self._unseen = layout.unseen_plane * CARD_CODES
        self._scalar_at = list(range(self._cards, layout.size))
        at_sizes = self._cards + 3 + 2 * players
        self._scalar_places = (self._cards, at_sizes, at_sizes + players)
        """Where the scalars begin (the phase, the mover, the dealer), the hand sizes begin,
        and the stock's and the pile's sizes are."""
        base = np.zeros(layout.size)
        base[self._unseen:self._unseen + CARD_CODES] = copies
        self._base = base
        self._scaled = rules.decks > 1 or rules.jokers > 1
        weights = np.ones(layout.size)
        planes = weights[:self._cards].reshape(layout.planes, CARD_CODES)
        planes[_COUNT_ROWS] = self.inv_copies
        planes[layout.opponent_planes:layout.meld_planes] = self.inv_copies
        planes[layout.meld_planes:, JOKER_CODE] = self.inv_copies[JOKER_CODE]
        self._weights = weights
        self.deck = float(rules.deck_size)
        self.opening = float(max(rules.opening, 1))
        target = rules.target_for(players)
        self._scale = float(target if target else 100)
        self._turn_overs = float(max(rules.turn_overs, 1))
        self._refills = [float(max(rules.refills_for(n), 1)) if n >= 2 else 1.0
                         for n in range(players + 1)]
        self._table: tuple[Meld, ...] = ()
        self._table_at: tuple[list[int], list[int]] = ([], [])

    def _table_positions(self, melds: tuple[Meld, ...]) -> tuple[list[int], list[int]]:
        """The table's cards as flat positions (the table plane, the meld planes) and as
        codes; kept while the table stays the same (melds are immutable)."""
        if melds == self._table:
            return self._table_at
        at: list[int] = []
        codes: list[int] = []
        base = self.layout.meld_planes * CARD_CODES
        for meld in melds:
            codes += meld.cards
            at += [5 * CARD_CODES + c for c in meld.cards]
            at += [base + c for c in _places(meld)]
            at += [base + JOKER_CODE for c in meld.cards if c == JOKER_CODE]
            base += CARD_CODES
        self._table = melds
        self._table_at = (at, codes)
        return self._table_at

    def encode(self, seen: Sight, choosing: tuple[int, ...] = ()) -> Vector:
        """The observation of ``seen``, with ``choosing`` the cards picked for a new meld."""
        p = self._players
        seat = seen.seat
        hand = seen.hand
        pile_cards = seen.pile_cards
        table_at, table_codes = self._table_positions(seen.melds)
        known = seen.known
        # Every entry is a sum of weighted positions (plane * 53 + card, or a scalar's
        # place), added up in one bincount. Counts weigh 1 (scaled by the copies at the
        # end); what the seat cannot place is the copies (added at the end) less a count.
        at = [*hand, *[3 * CARD_CODES + c for c in pile_cards], *table_at,
              *[6 * CARD_CODES + c for c in known[seat]]]
        if choosing:
            at += [CARD_CODES + c for c in choosing]
        placed = [*hand, *pile_cards, *table_codes]
        for r in range(1, p):
            theirs = known[(seat + r) % p]
            if theirs:
                row = self._opponents[r]
                at += [row + c for c in theirs]
                placed += theirs
        weights = [1.0] * len(at)
        unseen = self._unseen
        at += [unseen + c for c in placed]
        weights += [-1.0] * len(placed)
        pile = seen.pile
        if pile:
            n = len(pile)
            heights = {c: (i + 1) / n for i, c in enumerate(pile)}  # the higher copy stays
            at += [2 * CARD_CODES + c for c in heights]
            weights += heights.values()
        taken = seen.taken if seen.taken >= 0 else seen.must_use
        if taken >= 0:
            at.append(4 * CARD_CODES + taken)
            weights.append(1.0)
        at += self._scalar_at
        weights += self._scalars(seen, choosing)
        # (A bincount with weights counts in float64; numpy's stubs say int.)
        n = len(at)
        out = cast(_Counts, np.bincount(np.fromiter(at, np.intp, n),
                                        np.fromiter(weights, np.float64, n),
                                        minlength=self._size))
        out += self._base
        if self._scaled:
            out *= self._weights
        return out.astype(np.float32)

    def _scalars(self, seen: Sight, choosing: tuple[int, ...]) -> list[float]:
        p = self._players
        seat = seen.seat
        order = self._orders[seat]
        phase = seen.phase
        flags = _flags(phase, seen.to_move, seen.dealer, seat, p, bool(choosing))
        deck = self.deck
        sizes = seen.hand_sizes
        scale = self._scale
        totals = seen.totals
        opened = seen.opened
        laid = seen.laid
        active = seen.active
        return [
            *flags,
            *[sizes[s] / deck for s in order],
            seen.stock_size / deck, len(seen.pile_cards) / deck,
            len(seen.melds) / self._max_melds,
            *[float(opened[s]) for s in order],
            *[float(laid[s]) for s in order],
            *[float(active[s]) for s in order],
            *[min(2.0, max(-2.0, totals[s] / scale)) for s in order],
            1.0 if seen.melds_this_turn else 0.0,
            min(2.0, seen.turn_value / self.opening) if self.rules.opening else 0.0,
            min(1.0, seen.turn_overs_used / self._turn_overs),
            min(1.0, seen.refills_used / self._refills[sum(active)]),
        ]


def _meld_entries(meld: Meld) -> list[int]:
    """A meld's entries in its plane, as card codes: its places, then a joker column
    entry for each joker in it."""
    return [*_places(meld), *[JOKER_CODE for c in meld.cards if c == JOKER_CODE]]


def _places(meld: Meld) -> list[int]:
    """The card codes the places of a meld stand for: a run's every place, a set's
    natural cards (its jokers stand for suits that the set does not name)."""
    if meld.kind == "set":
        return [c for c in meld.cards if c != JOKER_CODE]
    base = meld.suit * 13
    return [base + (0 if pos == 14 else pos - 1) for pos in range(meld.low, meld.high + 1)]


_SEAT_FIELDS = ("_cells", "_choosing", "_counts", "_encoder", "_flags", "_hand",
                "_known_count", "_melds", "_pile", "_pile_top", "_record", "_seat", "_slow",
                "_table_cards", "_taken", "_top", "_totals", "_unique", "_vector", "_weights")
"""Every attribute of a :class:`SeatEncoder`."""


class SeatEncoder:
    """One seat's observations, kept from one call to the next: only what changed since
    the seat's last observation is written again, read straight from the deal (the
    seat's own hand, never another's).

    The planes are kept as counts (and heights and scalars) in a float32 ``array``, where
    single-entry writes are cheap; each observation is that array scaled by the copies
    of each card, which gives the same numbers as :meth:`Encoder.encode` of the seat's
    :func:`~rummykit.engine.views.sight` (a small count times a float32 weight is exact in
    float64, so rounding it once to float32 is what float32 multiplication does; the
    tests compare the two at every step of random episodes)."""

    __slots__ = _SEAT_FIELDS

    def __init__(self, encoder: Encoder, seat: int) -> None:
        self._encoder = encoder
        self._seat = seat
        # The observation of nothing: no card counted, every card unseen.
        self._counts = array("f", encoder._base.astype(np.float32).tobytes())
        self._vector: Vector = np.frombuffer(self._counts, dtype=np.float32)
        """The same memory as ``_counts`` (which keeps its size, so the view stays valid)."""
        self._cells = _cells(self._counts)
        """The same memory again, where one entry is written for less than through the
        array."""
        self._totals: list[int] = []
        self._flags: dict[tuple[str, int, int, bool], array[float]] = {}
        self._slow: tuple[object, ...] = ()
        self._table_cards = 0
        self._weights = encoder._weights.astype(np.float32) if encoder._scaled else None
        self._unique = not encoder._scaled  # one copy of each card: a scan tells the changes
        self._hand: list[int] = []
        self._choosing: tuple[int, ...] = ()
        self._pile: list[int] = []
        self._top: dict[int, float] = {}
        """The pile order plane's entries, where any pile card may be drawn."""
        self._pile_top = -1
        """Its one entry (the top card; -1 for none), where only the top may be drawn."""
        self._taken = -1
        self._melds: list[Meld] = []
        self._record: Tracker | None = None
        """The public record whose changes of the known cards the planes follow (None:
        none yet, or a copy's; then the planes are compared with its known cards)."""
        self._known_count = 0
        """How many of ``_record``'s changes the planes count."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # For pickle and copy.deepcopy: the kept state without the array's view, made
        # again through the constructor (the only way to make a compiled class).
        state = {name: getattr(self, name) for name in _SEAT_FIELDS
                 if name not in ("_cells", "_vector", "_record")}
        return _seat_encoder, (self._encoder, self._seat, state)

    def _change(self, plane: int, old: Sequence[int], new: Sequence[int],
                placed: bool) -> None:
        """Plane ``plane`` counts ``new`` where it counted ``old``; with ``placed``, the
        unseen plane counts the difference the other way."""
        counts = self._cells
        at = plane * CARD_CODES
        unseen = self._encoder._unseen
        k = len(old)
        if len(new) >= k and new[:k] == old:  # cards added on top (a draw, a discard)
            for c in new[k:]:
                counts[at + c] += 1.0
                if placed:
                    counts[unseen + c] -= 1.0
            return
        if old[:len(new)] == new:  # cards taken from the top
            for c in old[len(new):]:
                counts[at + c] -= 1.0
                if placed:
                    counts[unseen + c] += 1.0
            return
        if self._unique:  # (one copy of each card: a scan of the lists beats making sets)
            for c in old:
                if c not in new:
                    counts[at + c] = 0.0
                    if placed:
                        counts[unseen + c] += 1.0
            for c in new:
                if c not in old:
                    counts[at + c] = 1.0
                    if placed:
                        counts[unseen + c] -= 1.0
            return
        delta = Counter(new)
        delta.subtract(old)
        for c, d in delta.items():
            if d:
                counts[at + c] += d
                if placed:
                    counts[unseen + c] -= d

    def encode(self, deal: Deal, totals: Sequence[int], choosing: tuple[int, ...] = ()) -> Vector:
        """The seat's observation of ``deal`` now (a new array), with ``totals`` the match
        totals and ``choosing`` the cards picked for a new meld."""
        encoder = self._encoder
        counts = self._cells
        seat = self._seat
        hand = deal.hands[seat]
        old = self._hand
        if hand != old:
            # Written here, the two changes of almost every action: a card drawn (added at
            # the end) and a card discarded (one gone; one copy of each card).
            k = len(old)
            if len(hand) == k + 1 and hand[:k] == old:
                c = hand[k]
                counts[c] += 1.0
                counts[encoder._unseen + c] -= 1.0
            else:
                # (With one copy of each card, one card of the old hand missing from the
                # new, one card shorter, is the one change.)
                gone = (set(old).difference(hand) if len(hand) + 1 == k and self._unique
                        else ())
                if len(gone) == 1:
                    c = min(gone)
                    counts[c] -= 1.0
                    counts[encoder._unseen + c] += 1.0
                else:
                    self._change(0, old, hand, True)
            self._hand = hand[:]
        if choosing != self._choosing:
            self._change(1, self._choosing, choosing, False)
            self._choosing = choosing
        pile = deal.pile
        old = self._pile
        if pile != old:
            # A discard (a card on top) and a draw (the top card gone) written here.
            k = len(old)
            if len(pile) == k + 1 and pile[:k] == old:
                c = pile[k]
                counts[3 * CARD_CODES + c] += 1.0
                counts[encoder._unseen + c] -= 1.0
            elif len(pile) + 1 == k and old[:-1] == pile:
                c = old[-1]
                counts[3 * CARD_CODES + c] -= 1.0
                counts[encoder._unseen + c] += 1.0
            else:
                self._change(3, old, pile, True)
            self._pile = pile[:]
            at = 2 * CARD_CODES
            if encoder.rules.draw_pile == "any":
                n = len(pile)
                heights = {c: (i + 1) / n for i, c in enumerate(pile)}  # the higher copy stays
                for c in self._top:
                    counts[at + c] = 0.0
                for c, h in heights.items():
                    counts[at + c] = h
                self._top = heights
            else:  # the top card alone, at height 1
                top = pile[-1] if pile else -1
                if top != self._pile_top:
                    if self._pile_top >= 0:
                        counts[at + self._pile_top] = 0.0
                    if top >= 0:
                        counts[at + top] = 1.0
                    self._pile_top = top
        taken = deal.taken if deal.taken >= 0 else deal.pending
        if taken != self._taken:
            if self._taken >= 0:
                counts[4 * CARD_CODES + self._taken] = 0.0
            if taken >= 0:
                counts[4 * CARD_CODES + taken] = 1.0
            self._taken = taken
        table = deal.table
        melds = self._melds
        if table != melds:
            self._change(5, [c for m in melds for c in m.cards],
                         [c for m in table for c in m.cards], True)
            planes = encoder.layout.meld_planes
            for m, meld in enumerate(table):
                if m >= len(melds) or meld is not melds[m]:
                    self._change(planes + m, _meld_entries(melds[m])
                                 if m < len(melds) else (), _meld_entries(meld), False)
            for m in range(len(table), len(melds)):
                self._change(planes + m, _meld_entries(melds[m]), (), False)
            self._melds = table[:]
            self._table_cards = sum(len(m.cards) for m in table)
        record = deal.public_record()
        if record is not self._record:
            self._read_known(record)
        elif record.change_count != self._known_count:
            # The newest changes of the cards each seat is known to hold, newest first
            # (each adds to a count, so their order does not matter; the others' known
            # cards are placed: the unseen plane counts them the other way).
            changes = record.changes
            seat = self._seat
            p = encoder._players
            opponents = encoder._opponents
            unseen = encoder._unseen
            for _ in range(record.change_count - self._known_count):
                changes, s, c, d = changes  # type: ignore[assignment,misc]
                r = (s - seat) % p
                if r:
                    counts[opponents[r] + c] += d
                    counts[unseen + c] -= d
                else:
                    counts[6 * CARD_CODES + c] += d
            self._known_count = record.change_count
        # The scalars that change at almost every action (the phase, the mover, the sizes
        # of the hands, the stock and the pile), each seat's list turned to start at this
        # seat as Encoder.encode makes them.
        phase = deal.phase
        key = (phase, deal.to_move, deal.dealer, bool(choosing))
        flags = self._flags.get(key)
        if flags is None:
            flags = self._flags[key] = array("f", _flags(phase, key[1], key[2], seat,
                                                         encoder._players, key[3]))
        at, at_sizes, at_slow = encoder._scalar_places
        counts[at:at_sizes] = flags
        deck = encoder.deck
        hands = deal.hands
        for r, s in enumerate(encoder._orders[seat]):
            counts[at_sizes + r] = len(hands[s]) / deck
        counts[at_slow] = len(deal.stock) / deck
        counts[at_slow + 1] = len(pile) / deck
        # The rest changes only when a card reaches the table (an opening, a seat that
        # laid: each turns at the end of a turn that laid cards, or at the deal's end), a
        # turn ends, the stock is turned or refilled, or a deal or the totals change.
        slow = (deal, phase == "over", self._table_cards, deal.turn_melds, deal.turn_laid,
                deal.turn_value, deal.turn_overs_used, deal.refills_used)
        if slow != self._slow or totals != self._totals:
            self._slow = slow
            self._totals = list(totals)
            self._write_slow_scalars(deal, totals)
        if self._weights is None:
            return self._vector.copy()
        return self._vector * self._weights

    def _read_known(self, record: Tracker) -> None:
        """Make the known planes count ``record``'s known cards (a new deal, or a copy of
        the encoder): each plane compared with them card by card."""
        layout = self._encoder.layout
        p = layout.players
        counts = self._cells
        for r in range(p):
            plane = 6 if r == 0 else layout.opponent_planes + r - 1
            at = plane * CARD_CODES
            before = [c for c in range(CARD_CODES) for _ in range(round(counts[at + c]))]
            self._change(plane, before, sorted(record.known[(self._seat + r) % p]), r > 0)
        self._record = record
        self._known_count = record.change_count

    def _write_slow_scalars(self, deal: Deal, totals: Sequence[int]) -> None:
        """Write the scalars that change seldom (see :meth:`encode`): the melds on the
        table, who opened, laid and is dealt in, the totals, this turn's melds and opening
        points, the turn-overs and refills used."""
        encoder = self._encoder
        order = encoder._orders[self._seat]
        at_slow = encoder._scalar_places[2]
        scale = encoder._scale
        active = deal.active
        rules = encoder.rules
        self._cells[at_slow + 2:] = array("f", [
            len(deal.table) / encoder._max_melds,
            *[deal.opened(s) for s in order], *[deal.has_laid(s) for s in order],
            *[active[s] for s in order],
            *[min(2.0, max(-2.0, totals[s] / scale)) for s in order],
            1.0 if deal.turn_melds else 0.0,
            min(2.0, deal.turn_value / encoder.opening) if rules.opening else 0.0,
            min(1.0, deal.turn_overs_used / encoder._turn_overs),
            min(1.0, deal.refills_used / encoder._refills[sum(active)]),
        ])


def _cells(counts: array[float]) -> memoryview[float]:
    """A float view of ``counts`` (through bytes: a view's format changes only so)."""
    return memoryview(counts).cast("B").cast("f")


def _seat_encoder(encoder: Encoder, seat: int, state: dict[str, object]) -> SeatEncoder:
    """The seat encoder that :meth:`SeatEncoder.__reduce__` took apart; a copy gets its own
    array, and the view is made over it."""
    made = SeatEncoder(encoder, seat)
    for name, value in state.items():
        setattr(made, name, value)
    made._vector = np.frombuffer(made._counts, dtype=np.float32)
    made._cells = _cells(made._counts)
    return made


def reference_observation(encoder: Encoder, game: Match | Deal, seat: int,
                          choosing: tuple[int, ...] = ()) -> Vector:
    """The observation encoded from scratch, from the seat's
    :func:`~rummykit.engine.views.sight`: the plain definition that :class:`SeatEncoder`'s kept
    vectors are tested against."""
    return encoder.encode(sight(game, seat, legal=False), choosing)


def _flags(phase: str, to_move: int, dealer: int, seat: int, players: int,
           choosing: bool) -> list[float]:
    """The phase (draw, play, choosing cards of a meld; none once the deal is over), the
    seat to move and the dealer, each seat counted from ``seat``."""
    flags = [0.0] * (3 + 2 * players)
    flags[2 if choosing else 0 if phase == "draw" else 1 if phase == "play" else 2] = \
        1.0 if choosing or phase != "over" else 0.0
    if phase != "over":
        flags[3 + (to_move - seat) % players] = 1.0
    flags[3 + players + (dealer - seat) % players] = 1.0
    return flags
