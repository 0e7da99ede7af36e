"""Information sets: what one seat knows of where every card is.

Everything that happens at the table is seen by every player but the cards drawn from
the stock: the cards turned up and discarded (so the whole pile, also where only its top
may be taken), what is taken from the pile, what is melded and laid off, the pile turned
over into a stock (so that stock's order), the cards a refill puts in the stock (not their
order). A :class:`Tracker` follows this public record through a deal; joined with one
seat's own hand it gives that seat's :class:`Knowledge`:

- ``known``: for each seat the cards it is known to hold (taken from the pile, or drawn
  from a stock whose order was known, and not melded, laid off or discarded since);
- ``stock``: each place of the stock, top first, with its card where it is known;
- ``hidden``: the cards the seat cannot place, in groups: any card of a group may be in
  any of the group's places (some places in other hands, some in the stock), every way
  of filling them being equally likely. Usually there is one group, the cards never seen;
  each refill adds one, the pile cards that went into the refilled stock.

:func:`rummykit.engine.sampling.determinize` deals full deals that agree with it.

>>> from rummykit.rules import preset
>>> from rummykit.engine import Deal
>>> deal = Deal.start(preset("classic"), players=2, dealer=0, seed=4)
>>> k = deal.knowledge(1)
>>> len(k.unseen), k.hidden[0].hands, len(k.hidden[0].stock)
(41, (10, 0), 31)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from rummykit.cards import make_deck
from rummykit.engine.actions import Action

if TYPE_CHECKING:
    from rummykit.engine.deal import Deal

__all__ = ["Hidden", "Knowledge", "KnownChange", "Tracker"]

UNKNOWN: Final = -1
"""A stock place whose card the seat does not know."""

KnownChange = tuple[object, int, int, int]
"""A change to the known cards: the change before it (or None), the seat, the card and
the count added (1 or -1)."""


@dataclass(frozen=True, slots=True)
class Hidden:
    """Cards one seat cannot place and the places they fill: any card of ``cards`` may be
    in any of the places, each way of filling them equally likely."""

    cards: tuple[int, ...]
    """The cards, sorted."""
    hands: tuple[int, ...]
    """For each seat, how many of its cards are places of this group (0 for the seat
    whose knowledge this is)."""
    stock: tuple[int, ...]
    """The stock places of this group, counted from the top (0)."""
    mine: tuple[int, ...] = ()
    """The seat's own cards that the other seats count in this group (they cannot tell
    them from the group's other cards)."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # For pickle and copy.deepcopy of the compiled build (whose frozen classes cannot
        # be filled in field by field): made again by the constructor.
        return Hidden, (self.cards, self.hands, self.stock, self.mine)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of where every card of a deal is."""

    seat: int
    hand: tuple[int, ...]
    """The seat's own hand, sorted."""
    pile: tuple[int, ...]
    """The whole pile, bottom first: every card of it was seen face up."""
    known: tuple[tuple[int, ...], ...]
    """For each seat, the cards every player knows it holds, sorted (for this seat too:
    what the others know of its hand)."""
    stock: tuple[int, ...]
    """Each stock place, top first: its card where known, else ``UNKNOWN`` (-1)."""
    hidden: tuple[Hidden, ...]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # As Hidden's.
        return Knowledge, (self.seat, self.hand, self.pile, self.known, self.stock,
                           self.hidden)

    @property
    def unseen(self) -> tuple[int, ...]:
        """Every card this seat cannot place, sorted."""
        return tuple(sorted(c for group in self.hidden for c in group.cards))


_TRACKER_FIELDS: Final = ("_known_cards", "change_count", "changes", "done", "events_done",
                          "groups", "known", "pile", "slots", "stock")
"""Every attribute of a :class:`Tracker`."""


class Tracker:
    """The public record of one deal, followed action by action (see the module's
    description). The deal keeps one and brings it up to date when asked."""

    __slots__ = _TRACKER_FIELDS

    done: int
    """Actions of the deal followed so far."""
    events_done: int
    pile: list[int]
    known: list[list[int]]
    slots: list[list[int]]
    """For each seat, how many cards of its hand are places of each group."""
    stock: list[int]
    """Top card last (as the deal holds it): a card, or ``-(g + 1)`` for a place of group g."""
    groups: list[Counter[int]]
    """The cards of each group whose places nobody outside knows."""
    changes: KnownChange | None
    """The changes to ``known`` since the tracker was made, newest first (see
    :meth:`known_changes`)."""
    change_count: int
    """How many changes ``changes`` holds."""

    def __init__(self, deal: Deal | None = None) -> None:
        self._known_cards: tuple[tuple[int, ...], ...] | None = None
        """:meth:`known_cards` as last made; None once ``known`` has changed since."""
        self.changes = None
        self.change_count = 0
        if deal is None:
            return
        layout = deal.layout
        self.done = 0
        self.events_done = 0
        self.pile = list(layout.pile)
        self.known = [[] for _ in layout.hands]
        self.slots = [[len(h)] for h in layout.hands]
        self.stock = [-1] * len(layout.stock)
        never_seen: Counter[int] = Counter(int(c) for c in make_deck(deal.rules.decks,
                                                                     deal.rules.jokers))
        never_seen.subtract(layout.pile)
        self.groups = [+never_seen]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """For pickle and ``copy.deepcopy``: the fields, with the changes as a flat list
        (their chain is as long as the deal's changes of the known cards, too deep to take
        apart link by link), made into a tracker again by :func:`_remade_tracker`."""
        fields = {name: getattr(self, name) for name in _TRACKER_FIELDS
                  if name not in ("changes", "change_count")}
        return _remade_tracker, (fields, self.known_changes(0))

    def copy(self) -> Tracker:
        new = Tracker()
        new.done = self.done
        new.events_done = self.events_done
        new.pile = self.pile[:]
        new.known = [k[:] for k in self.known]
        new.slots = [s[:] for s in self.slots]
        new.stock = self.stock[:]
        new.groups = [g.copy() for g in self.groups]
        new._known_cards = self._known_cards
        new.changes = self.changes  # (a chain of tuples: shared, never changed)
        new.change_count = self.change_count
        return new

    # -- following the deal ----------------------------------------------------------

    def advance(self, deal: Deal) -> None:
        """Follow every action and stock event of ``deal`` not followed yet."""
        events = deal.events
        count = deal.move_count
        done = self.done
        if done == count and self.events_done == len(events):
            return
        # (One new action and no stock event, the common case, is followed by
        # Deal.public_record without coming here.)
        for i, (seat, action) in enumerate(deal.moves_since(done), done):
            self._events_before(events, i)
            self.follow(seat, action)
        self.done = count
        self._events_before(events, count)

    def follow(self, seat: int, action: Action) -> None:
        """Follow one action of ``seat`` (the stock events before it followed already;
        :meth:`advance` is the way to call it, unless the caller counts ``done``)."""
        match action.kind:
            case "draw-stock":
                place = self.stock.pop()
                if place >= 0:
                    self.known[seat].append(place)
                    self._known_cards = None
                    self.changes = (self.changes, seat, place, 1)
                    self.change_count += 1
                else:
                    self.slots[seat][-place - 1] += 1
            case "draw-pile":
                pile = self.pile
                index = len(pile) - 1
                if action.cards:
                    index = max(j for j, c in enumerate(pile) if c == action.cards[0])
                self.known[seat].extend(pile[index:])
                for card in pile[index:]:
                    self._changed(seat, card, 1)
                del pile[index:]
                self._known_cards = None
            case "meld" | "layoff":
                for c in action.cards:
                    self._lay(seat, c)
            case "discard":
                self._lay(seat, action.cards[0])
                self.pile.append(action.cards[0])
            case "end":
                pass

    def _events_before(self, events: Sequence[tuple[int, str]], index: int) -> None:
        while self.events_done < len(events) and events[self.events_done][0] <= index:
            if events[self.events_done][1] == "turn-over":
                self.stock = self.pile[::-1]
                self.pile = []
            else:  # refill: all pile cards but the top, in an order nobody saw
                group = len(self.groups)
                self.groups.append(Counter(self.pile[:-1]))
                for seat_slots in self.slots:
                    seat_slots.append(0)
                self.stock = [-(group + 1)] * (len(self.pile) - 1)
                self.pile = self.pile[-1:]
            self.events_done += 1

    def _lay(self, seat: int, card: int) -> None:
        """``seat`` showed ``card`` from its hand: one it was known to hold, or one of a
        group's places in its hand."""
        known = self.known[seat]
        if card in known:
            known.remove(card)
            self._known_cards = None
            self.changes = (self.changes, seat, card, -1)  # (as _changed, in place)
            self.change_count += 1
            return
        slots = self.slots[seat]
        for g, group in enumerate(self.groups):
            if slots[g] and group[card]:
                slots[g] -= 1
                group[card] -= 1
                return
        # Twins can blur which group a card came from; the counts stay right.
        g = next(g for g, group in enumerate(self.groups) if group[card])
        self.groups[g][card] -= 1
        slots[next(h for h in range(len(slots)) if slots[h])] -= 1

    def _changed(self, seat: int, card: int, delta: int) -> None:
        """Record that ``seat`` is known to hold ``delta`` more of ``card``."""
        self.changes = (self.changes, seat, card, delta)
        self.change_count += 1

    # -- one seat's knowledge --------------------------------------------------------

    def known_changes(self, since: int) -> list[tuple[int, int, int]]:
        """The changes to ``known`` after the first ``since`` (call :meth:`advance` first),
        oldest first, each ``(seat, card, delta)``: ``seat`` is known to hold ``delta``
        (1 or -1) more of ``card``. In time proportional to their number, for code that
        keeps its own copy of ``known`` up to date."""
        out = []
        node = self.changes
        for _ in range(self.change_count - since):
            assert node is not None
            out.append((node[1], node[2], node[3]))
            node = cast("KnownChange | None", node[0])
        out.reverse()
        return out

    def known_cards(self, deal: Deal) -> tuple[tuple[int, ...], ...]:
        """For each seat, the cards every player knows it holds, sorted."""
        self.advance(deal)
        if self._known_cards is None:
            self._known_cards = tuple(tuple(sorted(k)) for k in self.known)
        return self._known_cards

    def knowledge(self, deal: Deal, seat: int) -> Knowledge:
        """``seat``'s knowledge now: the public record joined with its own hand."""
        self.advance(deal)
        hand = sorted(deal.hands[seat])
        # The seat's own cards that the others cannot place: its hand less what it is
        # known to hold (a multiset difference; the hand is sorted, so is this).
        own = hand
        if self.known[seat]:
            drop = dict.fromkeys(self.known[seat], 0)
            for c in self.known[seat]:
                drop[c] += 1
            own = []
            for c in hand:
                if drop.get(c, 0) > 0:
                    drop[c] -= 1
                else:
                    own.append(c)
        groups = [dict(g) for g in self.groups]
        mine: list[list[int]] = [[] for _ in groups]
        if len(groups) == 1:
            group = groups[0]
            for c in own:
                group[c] -= 1
            mine[0] = own
        else:
            need = self.slots[seat][:]
            for c in own:
                g = next((g for g in range(len(groups)) if need[g] and groups[g].get(c, 0) > 0),
                         None)
                if g is None:  # twins across groups: take it where the card is
                    g = next(g for g in range(len(groups)) if groups[g].get(c, 0) > 0)
                need[g] -= 1
                groups[g][c] -= 1
                mine[g].append(c)
        top_first = self.stock[::-1]
        hidden = []
        for g, group in enumerate(groups):
            code = -(g + 1)
            places = tuple([i for i, p in enumerate(top_first) if p == code])
            counts = tuple([0 if s == seat else slots[g] for s, slots in enumerate(self.slots)])
            cards = tuple([c for c in sorted(group) for _ in range(group[c])])
            if cards or places or any(counts) or mine[g]:
                hidden.append(Hidden(cards, counts, places, tuple(mine[g])))
        if self._known_cards is None:
            self._known_cards = tuple(tuple(sorted(k)) for k in self.known)
        return Knowledge(
            seat=seat,
            hand=tuple(hand),
            pile=tuple(self.pile),
            known=self._known_cards,
            stock=tuple([p if p >= 0 else UNKNOWN for p in top_first]),
            hidden=tuple(hidden),
        )

    @classmethod
    def from_knowledge(
        cls, knowledge: Knowledge, *, done: int, events_done: int, players: int
    ) -> Tracker:
        """The public record behind a seat's knowledge (what any player knows)."""
        new = cls()
        new.done = done
        new.events_done = events_done
        new.pile = list(knowledge.pile)
        new.known = [list(k) for k in knowledge.known]
        new.groups = []
        new.slots = [[] for _ in range(players)]
        new.stock = [p if p >= 0 else UNKNOWN for p in reversed(knowledge.stock)]
        for g, group in enumerate(knowledge.hidden):
            new.groups.append(Counter([*group.cards, *group.mine]))
            for s in range(players):
                new.slots[s].append(len(group.mine) if s == knowledge.seat else group.hands[s])
            for place in group.stock:
                new.stock[len(new.stock) - 1 - place] = -(g + 1)
        return new


def _remade_tracker(fields: dict[str, object], changes: list[tuple[int, int, int]]) -> Tracker:
    """The tracker that :meth:`Tracker.__reduce__` took apart, its chain of changes linked
    again oldest first."""
    tracker = Tracker()
    for name, value in fields.items():
        setattr(tracker, name, value)
    chain: KnownChange | None = None
    for seat, card, delta in changes:
        chain = (chain, seat, card, delta)
    tracker.changes = chain
    tracker.change_count = len(changes)
    return tracker
