"""The deal: a state machine from the first draw to going out or a stalemate.

Every action comes three ways (``verify`` raises the rule it breaks, ``can`` answers yes
or no, ``apply`` checks then plays it); :meth:`Deal.push` plays an action the engine
generated without checking it again, for bots and search.

>>> from rummykit.rules import preset
>>> deal = Deal.start(preset("classic"), players=2, dealer=0, seed=1)
>>> deal.to_move, deal.phase
(1, 'draw')
>>> deal.apply(Action.parse("draw stock")).kind
'draw-stock'
>>> deal.phase
'play'

The dealing and the layout check live in :mod:`rummykit.engine.layout`, the look-ahead of
the no-dead-ends rule in :mod:`rummykit.engine.finish`, the deal's score in
:mod:`rummykit.engine.scoring` and what each seat may know in
:mod:`rummykit.engine.knowledge`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Final, Literal, cast

from rummykit.cards import JOKER_CODE, format_cards
from rummykit.engine.actions import (
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    END,
    PILE_DRAWS,
    Action,
    layoff_action,
    meld_action,
)
from rummykit.engine.finish import (
    COMPILED,
    Shortcuts,
    dead_end,
    finishable_after,
    usable_after_draw,
    usable_pile_cards,
)
from rummykit.engine.knowledge import Knowledge, Tracker
from rummykit.engine.layout import (
    Layout,
    check_layout,
    deal_layout,
    refill_rng,
    shuffle,
)
from rummykit.engine.legal import LegalActions
from rummykit.engine.melds import (
    Meld,
    find_melds,
    fit_mask,
    layoff,
    layoff_targets,
    make_meld,
    meld_points,
)
from rummykit.engine.scoring import DealEnd, DealResult, deal_points
from rummykit.errors import IllegalActionError, RecordError
from rummykit.rules import Rules
from rummykit.words import plural

__all__ = ["Deal", "DealResult", "Event", "Layout", "LegalActions", "Phase"]

Phase = Literal["draw", "play", "over"]
"""A turn starts in ``draw``; after the draw the player melds, lays off and discards in
``play``; ``over`` once the deal has ended."""

DrawRefusal = Literal["pile-card-unusable", "pile-draw-dead-end"]
"""The rules that can forbid a draw from the pile."""

DiscardRefusal = Literal["must-use-pile-card", "opening-short", "taken-discard"]
"""The rules that can forbid a discard."""

Event = Literal["turn-over", "refill"]
"""What happens to the stock between actions: the pile turned over into a new stock, or
all of it but its top card shuffled into one."""


_Move = tuple[object, int, Action]
"""One move of a deal: the moves before it (a ``_Move``, or None before the first), the
seat that played it and its action; the moves of a deal newest first. A tuple: immutable,
so copies of a deal share them, and made at every action more cheaply than an object."""


_FIELDS: Final = (
    "_events",
    "_fits",
    "_laid",
    "_log",
    "_melds",
    "_move_count",
    "_moves",
    "_opened",
    "_pile_log",
    "_positions",
    "_result",
    "_tracker",
    "_turn_key",
    "active",
    "dealer",
    "hands",
    "index",
    "layout",
    "pending",
    "phase",
    "pile",
    "players",
    "refills_used",
    "rules",
    "seed",
    "stock",
    "table",
    "taken",
    "to_move",
    "turn_laid",
    "turn_melds",
    "turn_overs_used",
    "turn_value",
)
"""Every attribute of a deal."""


class Deal:
    """One deal of Rummy under a rules object.

    Players are seats 0..n-1, clockwise; in a ramino match players who are out stay
    seated but hold no cards and never move (``active``).
    """

    __slots__ = _FIELDS

    rules: Rules
    players: int
    dealer: int
    active: tuple[bool, ...]
    seed: int
    index: int
    layout: Layout
    hands: list[list[int]]
    stock: list[int]  # top card last
    pile: list[int]  # top card last
    table: list[Meld]
    to_move: int
    phase: Phase
    taken: int  # card taken from the pile this turn, or -1
    pending: int  # pile card that must still be used this turn, or -1
    turn_melds: int
    turn_value: int
    turn_laid: bool
    turn_overs_used: int
    refills_used: int
    _opened: list[bool]
    _laid: list[bool]
    _log: _Move | None
    _move_count: int
    _moves: tuple[tuple[int, Action], ...]
    """The first moves of the deal, as :attr:`moves` last made them (a tuple never
    changed: copies share it, and the next call adds the moves played since)."""
    _pile_log: list[tuple[int, tuple[int, ...]]]
    _events: tuple[tuple[int, Event], ...]  # rare and immutable: shared by copies
    _positions: dict[tuple[object, ...], int] | None
    _turn_key: tuple[object, ...] | None
    _tracker: Tracker | None
    _result: DealResult | None
    _fits: dict[int, list[int]] | None
    """For each card, the places (from 0) of the table's melds it can be laid off on; made
    when first needed by the Python build (:meth:`_fits_by_card`) and kept up to date as
    melds are laid and added to, so that a hand's lay-offs are found from its cards rather
    than by asking every meld of the table. None until made (the compiled build asks each
    meld's bit mask instead and never makes it)."""
    _melds: list[tuple[int, ...]] | None
    """Every meld the hand of the player to move can form, in :func:`find_melds`'s order,
    during the play of a turn: made when first needed and kept through the turn's melds and
    lay-offs (the melds of a hand that has lost some cards are those of the hand before
    that hold none of them, where no card is held twice and no joker stands in for one;
    a hand that forms none forms none once it holds fewer cards). None until made, and
    again at every draw (the discard that ends a turn leaves it to the next turn's draw)."""

    def __init__(
        self, rules: Rules, *, players: int, dealer: int, layout: Layout, seed: int = 0,
        index: int = 0, active: Sequence[bool] | None = None, _blank: bool = False,
        _dealt: bool = False,
    ) -> None:
        if _blank:
            # For copy() and determinize(), which set every field themselves (a deal made
            # this way is not checked and not ready to play until they have).
            self.rules, self.players, self.dealer, self.layout = rules, players, dealer, layout
            self.seed, self.index = seed, index
            self.active = tuple(active) if active is not None else (True,) * players
            self._fits = None
            self._melds = None
            self._moves = ()
            return
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise RecordError(f"dealer {dealer} is not a seat (0 to {players - 1})")
        self.active = tuple(active) if active is not None else (True,) * players
        if len(self.active) != players or sum(self.active) < 2:
            raise RecordError("a deal needs at least two active players")
        if not self.active[dealer]:
            raise RecordError(f"dealer {dealer} is out of the match")
        if not _dealt:  # a layout the engine dealt itself is the deck by construction
            check_layout(rules, layout, players=players, active=self.active)
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.seed = seed
        self.index = index
        self.layout = layout
        self.hands = [list(h) for h in layout.hands]
        self.stock = list(reversed(layout.stock))
        self.pile = list(layout.pile)
        self.table = []
        self.to_move = self._next_seat(dealer)
        self.phase = "draw"
        self.taken = -1
        self.pending = -1
        self.turn_melds = 0
        self.turn_value = 0
        self.turn_laid = False
        self.turn_overs_used = 0
        self.refills_used = 0
        self._opened = [rules.opening == 0] * players
        self._laid = [False] * players
        self._log = None
        self._move_count = 0
        self._moves = ()
        self._pile_log = []
        self._events = ()
        self._positions = None
        self._turn_key = None
        self._tracker = None
        self._result = None
        self._fits = None
        self._melds = None
        self._begin_turn()

    @classmethod
    def start(
        cls, rules: Rules, *, players: int, dealer: int, seed: int, index: int = 0,
        active: Sequence[bool] | None = None,
    ) -> Deal:
        """Shuffle and deal from ``seed`` (``index`` tells deals of one match apart)."""
        rules.check_players(players)
        layout = deal_layout(rules, players, dealer, seed, index, active)
        return cls(rules, players=players, dealer=dealer, layout=layout, seed=seed,
                   index=index, active=active, _dealt=True)

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        """``copy.deepcopy``: :meth:`copy` (what it shares never changes)."""
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """For pickle: the deal's fields, with its moves as a flat list (the move log is a
        chain as long as the deal, too deep to take apart link by link), made into a deal
        again by :func:`_remade`."""
        fields = {name: getattr(self, name) for name in _FIELDS
                  if name not in ("_log", "_fits", "_melds", "_moves")}
        return _remade, (fields, self.moves)

    def copy(self) -> Deal:
        """An independent copy (cheap: melds are immutable and shared)."""
        if COMPILED:  # a compiled class is made through its constructor only
            new = Deal(self.rules, players=self.players, dealer=self.dealer,
                       layout=self.layout, seed=self.seed, index=self.index,
                       active=self.active, _blank=True)
        else:  # without the constructor's call: a third of the time of a copy
            new = Deal.__new__(Deal)
            new.rules, new.players, new.dealer = self.rules, self.players, self.dealer
            new.layout, new.seed, new.index = self.layout, self.seed, self.index
            new.active = self.active
        new.hands = [h[:] for h in self.hands]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.table = self.table[:]
        new.to_move = self.to_move
        new.phase = self.phase
        new.taken = self.taken
        new.pending = self.pending
        new.turn_melds = self.turn_melds
        new.turn_value = self.turn_value
        new.turn_laid = self.turn_laid
        new.turn_overs_used = self.turn_overs_used
        new.refills_used = self.refills_used
        new._opened = self._opened[:]
        new._laid = self._laid[:]
        new._log = self._log  # immutable: shared
        new._move_count = self._move_count
        new._moves = self._moves
        new._pile_log = self._pile_log[:]
        new._events = self._events
        new._positions = dict(self._positions) if self._positions else None
        new._turn_key = self._turn_key
        new._tracker = self._tracker.copy() if self._tracker is not None else None
        new._result = self._result
        new._fits = None  # made again when needed (cheaper than copying it every time)
        new._melds = None
        return new

    def _set_moves(self, moves: Iterable[tuple[int, Action]]) -> None:
        """Take ``moves`` (seat and action, oldest first) as the moves played so far."""
        self._log = None
        self._move_count = 0
        self._moves = ()
        for seat, action in moves:
            before: object = self._log
            self._log = (before, seat, action)
            self._move_count += 1

    # -- reading the state -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> DealResult | None:
        """How the deal ended, or None while it goes on."""
        return self._result

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action played in this deal, in order."""
        return tuple(action for _, action in self.moves)

    @property
    def pile_draws(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every draw from the pile: the seat and the cards it took (public, bottom first)."""
        return tuple(self._pile_log)

    @property
    def events(self) -> tuple[tuple[int, Event], ...]:
        """Every turn-over and refill of the stock, each with the number of actions played
        before it (a turn-over happens within the ``draw stock`` at that index)."""
        return self._events

    @property
    def move_count(self) -> int:
        """The number of actions played in this deal (``len(deal.history)``, at once)."""
        return self._move_count

    @property
    def last_mover(self) -> int | None:
        """The seat that played the last action of the deal (None before any)."""
        return self._log[1] if self._log is not None else None

    def last_move(self) -> tuple[int, Action]:
        """The last action of the deal with the seat that played it (an IndexError before
        any)."""
        log = self._log
        if log is None:
            raise IndexError("no action has been played in this deal")
        return log[1], log[2]

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """Every action played in this deal with the seat that played it (made from the
        moves last made and those played since, so asking at every action stays cheap)."""
        moves = self._moves
        if len(moves) != self._move_count:
            moves = self._moves = moves + tuple(self.moves_since(len(moves)))
        return moves

    def moves_since(self, count: int) -> list[tuple[int, Action]]:
        """The moves after the first ``count``, oldest first, in time proportional to their
        number (for code that follows a deal move by move)."""
        out = []
        log = self._log
        for _ in range(self._move_count - count):
            assert log is not None
            out.append((log[1], log[2]))
            log = cast("_Move | None", log[0])
        out.reverse()
        return out

    def opened(self, seat: int) -> bool:
        """Whether the player has made his opening (always true without an opening rule)."""
        return self._opened[seat]

    def has_laid(self, seat: int) -> bool:
        """Whether the player melded or laid off in an earlier turn of this deal."""
        return self._laid[seat]

    @property
    def meld_limit_reached(self) -> bool:
        return self.rules.melds_per_turn == "one" and self.turn_melds >= 1

    def knowledge(self, seat: int) -> Knowledge:
        """What ``seat`` knows of where every card is (see :mod:`rummykit.engine.knowledge`)."""
        return self.public_record().knowledge(self, seat)

    def public_record(self) -> Tracker:
        """The deal's :class:`~rummykit.engine.knowledge.Tracker` of what every player saw,
        brought up to date (its ``known`` and :meth:`~Tracker.known_changes` are what all
        players know; a seat's own hand is not in it)."""
        tracker = self._tracker
        if tracker is None:
            tracker = self._tracker = Tracker(self)
        log = self._log
        if (tracker.done + 1 == self._move_count and log is not None
                and tracker.events_done == len(self._events)):
            # One new action and no stock event: the common case, followed in place.
            tracker.follow(log[1], log[2])
            tracker.done = self._move_count
        else:
            tracker.advance(self)
        return tracker

    def known_cards(self) -> tuple[tuple[int, ...], ...]:
        """For each seat, the cards every player knows it holds: ``knowledge(seat).known``
        without joining any seat's own hand to it, so it is cheap to ask at every move."""
        return self.public_record().known_cards(self)

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (none once the deal is over)."""
        match self.phase:
            case "play":
                return self._play_actions()
            case "draw":
                return self._draw_actions()
            case "over":
                return []

    @property
    def legal(self) -> LegalActions:
        """The legal actions as a cheap view: membership is checked without listing them."""
        return LegalActions(self)

    def _draw_actions(self) -> list[Action]:
        rules = self.rules
        out = []
        if self.stock or (rules.stock_out == "turn-over" and self.pile):
            out.append(DRAW_STOCK)
        pile = self.pile
        if pile:
            if rules.draw_pile == "any":
                top = len(pile) - 1
                places: Sequence[int] = range(top, -1, -1)
                if rules.decks > 1:
                    # A card can be on the pile twice: it is taken from the top-most place.
                    seen: set[int] = set()
                    tops = []
                    for i in places:
                        if pile[i] not in seen:
                            seen.add(pile[i])
                            tops.append(i)
                    places = tops
                usable: bool | None = None
                checked = True
                if rules.pile_card_must_be_used:
                    # Only the usable cards, found in one walk down the pile; where any turn
                    # can be finished, no other rule refuses one.
                    found = usable_pile_cards(self)
                    places = found if rules.decks == 1 else [i for i in places if i in found]
                    usable = True
                    checked = not self._turn_ends_freely()
                for i in places:
                    if not checked or self._draw_pile_refusal(i, usable) is None:
                        out.append(DRAW_PILE if i == top else PILE_DRAWS[pile[i]])
            elif self._draw_pile_refusal(len(pile) - 1) is None:
                out.append(DRAW_PILE)
        if rules.stock_out == "end" and not self.stock:
            out.append(END)
        return out

    def _play_actions(self) -> list[Action]:
        rules = self.rules
        seat = self.to_move
        hand = self.hands[seat]
        out: list[Action] = []
        melds: list[tuple[int, ...]] | None
        if rules.melds_per_turn == "one" and self.turn_melds >= 1:  # meld_limit_reached
            melds = []
        else:
            melds = self._melds
            if melds is None:
                melds = self._melds = find_melds(hand, rules)
        # Where the turn can end after any move that leaves no pile card to use (opened, no
        # taken card to keep, the last discard optional), such a move is legal at once;
        # the others are most often settled without making their meld or searching the
        # turn (made when first needed: most positions have no meld nor lay-off).
        pending = self.pending
        ends = self.taken < 0 and rules.last_discard == "optional" and self._opened[seat]
        short: Shortcuts | None = None
        if ends and pending < 0:
            out.extend(map(meld_action, melds))
        else:
            for cards in melds:
                if not (ends and pending in cards):
                    if short is None:
                        short = Shortcuts(self, melds)
                    legal = short.meld(cards)
                    if legal is None:
                        legal = finishable_after(self, cards, make_meld(cards, rules, seat),
                                                 None)
                    if not legal:
                        continue
                out.append(meld_action(cards))
        # Compiled, the hand's cards as a bit mask find the melds a card of the hand fits
        # (a bit test per meld) and list the discards (the mask's bits in order); in Python
        # the loop that makes the mask costs more than it saves, and sets answer.
        held = 0
        if COMPILED:
            for c in hand:
                held |= 1 << c
        table = self.table
        distinct: set[int] | None = None
        if self._opened[seat] and table:
            places: Iterable[int]
            if COMPILED:
                places = range(len(table))
            else:
                # Only the melds that a card of the hand fits are visited, in table order.
                distinct = set(hand)
                fits = self._fits if self._fits is not None else self._fits_by_card()
                hit: set[int] = set()
                for c in fits.keys() & distinct:
                    hit.update(fits[c])
                places = sorted(hit)
            for place in places:
                meld = table[place]
                number = place + 1
                fitting: Collection[int]
                if COMPILED:
                    bits = fit_mask(meld, rules) & held
                    if not bits:
                        continue
                    targets = layoff_targets(meld, rules)
                    if not bits & (bits - 1):  # one card of the hand fits: no set needed
                        fitting = (bits.bit_length() - 1,)
                    else:
                        if distinct is None:
                            distinct = set(hand)
                        fitting = targets.cards.intersection(distinct)
                else:
                    assert distinct is not None
                    targets = layoff_targets(meld, rules)
                    fitting = targets.cards.intersection(distinct)
                # Several cards are listed in the order of ``distinct``, as they always were.
                for c in distinct if len(fitting) > 1 and distinct is not None else fitting:
                    for low in targets.ends[c]:
                        if not (ends and (pending < 0 or c == pending)):
                            if short is None:
                                short = Shortcuts(self, melds)
                            legal = short.layoff(c, number - 1, low)
                            if legal is None:
                                legal = finishable_after(
                                    self, (c,), layoff(meld, c, rules, seat, low), number - 1)
                            if not legal:
                                continue
                        out.append(layoff_action(c, number, low))
        if self._turn_discard_refusal() is None:
            # Of the rules of a discard, only the taken card's depends on the card.
            taken = self.taken
            ordered = ([c for c in range(JOKER_CODE + 1) if held >> c & 1] if COMPILED
                       else sorted(set(hand) if distinct is None else distinct))
            if taken < 0:  # (most turns: the card drawn came from the stock)
                out.extend(map(DISCARDS.__getitem__, ordered))
            else:
                out.extend([DISCARDS[c] for c in ordered
                            if c != taken or self._discard_refusal(c) is None])
        return out

    # -- checking ----------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is illegal now."""
        problem = self._problem(action)
        if problem is not None:
            raise problem

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now (a refused meld or lay-off is not put into
        words: a search asks this of many)."""
        return self._problem(action, words=False) is None

    def apply(self, action: Action | str) -> Action:
        """Check and play an action (or its notation); return the action played.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        self.verify(action)
        self.push(action)
        return action

    def _problem(self, action: Action, words: bool = True) -> IllegalActionError | None:
        if self.phase == "over":
            return IllegalActionError("the deal is over", code="deal-over")
        kind = action.kind
        cards = action.cards
        if kind in ("meld", "layoff", "discard") and (
                not cards or (kind != "meld" and len(cards) != 1)):
            return IllegalActionError(f"{kind} needs its cards: {kind} takes "
                                      + ("cards" if kind == "meld" else "one card"),
                                      code="malformed-action")
        if self.phase == "draw":
            if kind in ("draw-stock", "draw-pile", "end"):
                return self._draw_problem(action)
            return IllegalActionError(
                "you must draw first: 'draw stock' or 'draw pile'",
                code="draw-first", params={"player": self.to_move})
        seat = self.to_move
        match kind:
            case "draw-stock" | "draw-pile":
                return IllegalActionError(
                    "you have drawn already this turn: meld, lay off or discard",
                    code="drawn-already")
            case "end":
                return IllegalActionError(
                    "'end' only declines the pile when the stock is empty, before drawing",
                    code="drawn-already")
        missing = _missing(self.hands[seat], cards)
        if missing is not None:
            return IllegalActionError(f"{missing} is not in your hand", code="not-in-hand",
                                      params={"card": missing})
        match kind:
            case "discard":
                return self._discard_problem(cards[0])
            case "meld":
                if self.meld_limit_reached:
                    return IllegalActionError(
                        "one meld per turn: you have laid a meld this turn (lay-offs are "
                        "still open)", code="one-meld-per-turn")
                try:
                    meld = make_meld(cards, self.rules, seat)
                except IllegalActionError as err:
                    return err
                if finishable_after(self, cards, meld, None):
                    return None
                return dead_end(self, cards, meld) if words else _DEAD_END
            case "layoff":
                if not self._opened[seat]:
                    return IllegalActionError(
                        f"opening: lay-offs come once you have opened with melds worth "
                        f"{self.rules.opening} or more", code="not-opened",
                        params={"needed": self.rules.opening})
                if not 1 <= action.meld <= len(self.table):
                    return IllegalActionError(
                        f"there is no meld {action.meld} on the table "
                        f"({plural(len(self.table), 'meld')})",
                        code="no-such-meld",
                        params={"meld": action.meld, "melds": len(self.table)})
                try:
                    new = layoff(self.table[action.meld - 1], cards[0], self.rules, seat,
                                 action.low)
                except IllegalActionError as err:
                    return err
                if finishable_after(self, cards, new, action.meld - 1):
                    return None
                return dead_end(self, cards, new) if words else _DEAD_END
        return None  # pragma: no cover - every kind is matched above

    def _draw_problem(self, action: Action) -> IllegalActionError | None:
        rules = self.rules
        match action.kind:
            case "end":
                if rules.stock_out != "end":
                    return IllegalActionError("'end' is not a move in these rules",
                                              code="end-not-a-move")
                if self.stock:
                    return IllegalActionError(
                        "'end' declines the pile only when the stock is empty",
                        code="end-stock-not-empty")
                return None
            case "draw-stock":
                if self.stock:
                    return None
                if rules.stock_out == "turn-over":
                    return None if self.pile else IllegalActionError(
                        "the stock and the pile are empty", code="stock-and-pile-empty")
                return IllegalActionError(
                    "the stock is empty: take from the pile" + (
                        " or write 'end' to end the deal" if rules.stock_out == "end" else ""),
                    code="stock-empty")
        if not self.pile:
            return IllegalActionError("the pile is empty", code="pile-empty")
        index = len(self.pile) - 1
        if action.cards:
            c = action.cards[0]
            found = _last_index(self.pile, c)
            if found < 0:
                text = format_cards([c])
                return IllegalActionError(f"{text} is not in the pile", code="not-in-pile",
                                          params={"card": text})
            if found != index and rules.draw_pile != "any":
                return IllegalActionError("only the top card of the pile may be taken",
                                          code="pile-top-only")
            index = found
        return self._draw_pile_problem(index)

    def _draw_pile_problem(self, index: int) -> IllegalActionError | None:
        refusal = self._draw_pile_refusal(index)
        if refusal is None:
            return None
        text = format_cards([self.pile[index]])
        if refusal == "pile-card-unusable":
            return IllegalActionError(
                f"{text} can be taken only to be melded or laid off this turn, and it "
                "cannot be", code=refusal, params={"card": text})
        if self.rules.pile_card_must_be_used:
            return IllegalActionError(
                f"you could not finish the turn after taking {text}: using it would leave no "
                "legal way to end the turn", code=refusal, params={"card": text})
        return IllegalActionError(
            f"you could not end the turn after taking {text}: it may not be discarded and "
            "nothing else could be played", code=refusal, params={"card": text})

    def _turn_ends_freely(self) -> bool:
        """Whether any turn that takes a usable pile card can be finished, so that no draw
        needs to be tried out: the last discard is optional and there is no opening to
        reach."""
        rules = self.rules
        return rules.last_discard == "optional" and not (
            rules.opening and not self._opened[self.to_move])

    def _draw_pile_refusal(self, index: int, usable: bool | None = None) -> DrawRefusal | None:
        """The rule that forbids taking the pile from ``index`` up now, or None (the one
        home of these rules: :meth:`_draw_pile_problem` says them in words). ``usable``,
        where the pile card must be used, is :func:`usable_after_draw` when already known."""
        chosen = self.pile[index]
        if self.rules.pile_card_must_be_used:
            if not (usable_after_draw(self, index) if usable is None else usable):
                return "pile-card-unusable"
            if self._turn_ends_freely():
                return None
            # A compulsory last discard or an opening to reach: try the turn out.
            trial = self.copy()
            trial.push(Action("draw-pile", (chosen,)) if index < len(self.pile) - 1
                       else DRAW_PILE)
            return None if trial.legal_actions() else "pile-draw-dead-end"
        hand = self.hands[self.to_move]
        if hand.count(chosen) < len(hand):  # a card other than the one taken is left
            return None
        trial = self.copy()
        trial.push(DRAW_PILE)
        return None if trial.legal_actions() else "pile-draw-dead-end"

    def _discard_problem(self, c: int) -> IllegalActionError | None:
        refusal = self._discard_refusal(c)
        if refusal is None:
            return None
        rules = self.rules
        match refusal:
            case "must-use-pile-card":
                text = format_cards([self.pending])
                return IllegalActionError(
                    f"you took {text} from the pile and must meld or lay it off before the "
                    "turn ends", code=refusal, params={"card": text})
            case "opening-short":
                return IllegalActionError(
                    f"opening: your melds this turn are worth {self.turn_value}; a first "
                    f"melding turn needs {rules.opening} or more", code=refusal,
                    params={"value": self.turn_value, "needed": rules.opening})
            case "taken-discard":
                text = format_cards([c])
                return IllegalActionError(
                    f"you took {text} from the pile this turn and may not discard it"
                    + (" (unless it is your last card)" if rules.taken_discard == "last-card"
                       else ""), code=refusal, params={"card": text})

    def _discard_refusal(self, c: int) -> DiscardRefusal | None:
        """The rule that forbids discarding ``c`` now, or None (the one home of the
        discard rules: :meth:`_discard_problem` says them in words)."""
        turn = self._turn_discard_refusal()
        if turn is not None:
            return turn
        if c == self.taken and not (self.rules.taken_discard == "last-card"
                                    and len(self.hands[self.to_move]) == 1):
            return "taken-discard"
        return None

    def _turn_discard_refusal(self) -> DiscardRefusal | None:
        """The rule that forbids any discard now, whatever the card, or None."""
        if self.pending >= 0:
            return "must-use-pile-card"
        if self.turn_value and not self._opened[self.to_move]:
            return "opening-short"
        return None

    # -- playing -----------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Play an action without checking it: only for actions from :meth:`legal_actions`."""
        seat = self.to_move
        rules = self.rules
        before: object = self._log  # (typed as the tuple's first field, for the compiler)
        self._log = (before, seat, action)
        self._move_count += 1
        match action.kind:
            case "draw-stock":
                if not self.stock:
                    # Turn the pile over without shuffling: its bottom card is the new top.
                    self.stock = self.pile[::-1]
                    self.pile = []
                    self.turn_overs_used += 1
                    self._events += ((self._move_count - 1, "turn-over"),)
                self.hands[seat].append(self.stock.pop())
                self.phase = "play"
                self._melds = None
                # The stock never grows back within a turn-over: no earlier position returns.
                self._positions = None
                self._turn_key = None
            case "draw-pile":
                must_use = rules.pile_card_must_be_used
                if not must_use:
                    # A card that must be used goes on the table this turn: the position
                    # it leaves can never come back, and is not counted.
                    self._count_position()
                pile = self.pile
                index = _last_index(pile, action.cards[0]) if action.cards else len(pile) - 1
                taken = pile[index:]
                del pile[index:]
                self._pile_log.append((seat, tuple(taken)))
                self.hands[seat].extend(taken)
                if must_use:
                    self.pending = taken[0]
                else:
                    self.taken = taken[0]
                self.phase = "play"
                self._melds = None
            case "meld":
                melds = self._melds
                if melds:  # else none, or not made yet
                    if rules.decks == 1 and not rules.jokers:
                        used = set(action.cards)
                        self._melds = [cards for cards in melds if used.isdisjoint(cards)]
                    else:
                        self._melds = None
                meld = make_meld(action.cards, rules, seat)
                self.table.append(meld)
                if self._fits is not None:
                    _enter_fits(self._fits, meld, len(self.table) - 1, rules)
                self._use(seat, action.cards)
                self.turn_melds += 1
                if not self._opened[seat]:
                    self.turn_value += meld_points(meld, rules)
                    if self.turn_value >= rules.opening:
                        self._opened[seat] = True
                self._after_lay(seat)
            case "layoff":
                melds = self._melds
                if melds:
                    if rules.decks == 1 and not rules.jokers:
                        c = action.cards[0]
                        self._melds = [cards for cards in melds if c not in cards]
                    else:
                        self._melds = None
                i = action.meld - 1
                before = self.table[i]
                self.table[i] = layoff(before, action.cards[0], rules, seat, action.low)
                fits = self._fits
                if fits is not None:
                    for c in layoff_targets(before, rules).cards:
                        fits[c].remove(i)
                    _enter_fits(fits, self.table[i], i, rules)
                self._use(seat, action.cards)
                self._after_lay(seat)
            case "discard":
                hand = self.hands[seat]
                hand.remove(action.cards[0])
                self.pile.append(action.cards[0])
                if not hand:
                    self._finish(seat, "out")
                else:
                    self._end_turn()
            case "end":
                self._finish(None, "declined")

    def _fits_by_card(self) -> dict[int, list[int]]:
        """Make :attr:`_fits` from the table as it is."""
        fits: dict[int, list[int]] = {}
        for place, meld in enumerate(self.table):
            _enter_fits(fits, meld, place, self.rules)
        self._fits = fits
        return fits

    def _use(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        if self.pending >= 0 and self.pending in cards:
            self.pending = -1
        self.turn_laid = True
        # Cards on the table never come back: no earlier position can return.
        self._positions = None

    def _after_lay(self, seat: int) -> None:
        if not self.hands[seat]:
            self._finish(seat, "out")

    def _end_turn(self) -> None:
        seat = self.to_move
        if self.turn_laid:
            self._laid[seat] = True
        self.taken = -1
        self.pending = -1
        self.turn_melds = 0
        self.turn_value = 0
        self.turn_laid = False
        n = self.players
        nxt = (seat + 1) % n
        while not self.active[nxt]:
            nxt = (nxt + 1) % n
        self.to_move = nxt
        self.phase = "draw"
        if not self.stock:
            self._begin_turn()
        # (The repetition check in place where no position is counted: most turns.)
        if not self._positions:
            self._turn_key = None
        elif self.phase == "draw":
            self._check_repetition()

    def _begin_turn(self) -> None:
        """At the start of a turn: handle an empty stock by the rules."""
        if self.stock:
            return
        rules = self.rules
        match rules.stock_out:
            case "turn-over":
                if self.turn_overs_used >= rules.turn_overs or not self.pile:
                    self._finish(None, "turn-overs")
            case "refill":
                if self.refills_used < rules.refills_for(sum(self.active)) and len(self.pile) > 1:
                    new_stock = self.pile[:-1]
                    shuffle(new_stock, refill_rng(self.seed, self.index, self.refills_used))
                    self.stock = new_stock
                    self.pile = self.pile[-1:]
                    self.refills_used += 1
                    self._events += ((self._move_count, "refill"),)
                    self._positions = None
                else:
                    self._finish(None, "refills")
            case "end":
                pass

    def _next_seat(self, seat: int) -> int:
        n = self.players
        nxt = (seat + 1) % n
        while not self.active[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    # -- repetition ------------------------------------------------------------------

    def _position(self) -> tuple[object, ...]:
        """The position at the start of a turn, as far as it can differ from another one
        since the stock or the table last changed: the player to move, the pile and every
        hand. (The stock, the table, the turn-overs and refills used and who has opened or
        laid cards are the same for all of them: a change to any of those is for good.)
        A hand is its set of cards where no card has two copies (one deck, no jokers), else
        its cards sorted."""
        if self.rules.decks == 1 and not self.rules.jokers:
            return (self.to_move, tuple(self.pile), *map(frozenset, self.hands))
        return (self.to_move, tuple(self.pile), *[tuple(sorted(h)) for h in self.hands])

    def _check_repetition(self) -> None:
        """A new turn starts: end the deal if its position has now come up ``repetition``
        times. Only positions left by a draw from the pile can come up again (a stock draw
        or a card laid on the table changes the position for good), so only those are
        counted (:meth:`_count_position`); where the pile card must be used, not even those
        (it is laid this turn)."""
        positions = self._positions
        if not positions:
            self._turn_key = None
            return
        key = self._position()
        if positions.get(key, 0) + 1 >= self.rules.repetition:
            self._finish(None, "repetition")
        else:
            self._turn_key = key

    def _count_position(self) -> None:
        """A draw from the pile leaves the position the turn started with: count it."""
        key = self._turn_key if self._turn_key is not None else self._position()
        self._turn_key = None
        if self._positions is None:
            self._positions = {}
        self._positions[key] = self._positions.get(key, 0) + 1

    # -- the end of the deal -----------------------------------------------------------

    def _finish(self, winner: int | None, end: DealEnd) -> None:
        rummy = winner is not None and not self._laid[winner]
        points = deal_points(self.rules, self.hands, self.table, self.active, winner, rummy)
        self._result = DealResult(winner, rummy, points, end)
        if self.phase == "play" and winner is not None and self.turn_laid:
            self._laid[winner] = True
        self.phase = "over"
        self._positions = None
        self._turn_key = None

    # -- debugging help ----------------------------------------------------------------

    def __repr__(self) -> str:
        return (f"<Deal {self.rules} players={self.players} to_move={self.to_move} "
                f"phase={self.phase} stock={len(self.stock)} pile={len(self.pile)} "
                f"table={len(self.table)}>")

    def card_count(self) -> int:
        """Cards in hands, stock, pile and on the table (always the deck's size)."""
        return (sum(len(h) for h in self.hands) + len(self.stock) + len(self.pile)
                + sum(len(m.cards) for m in self.table))

    def all_cards(self) -> Iterator[int]:
        """Every card of the deal wherever it is (for invariants and tests)."""
        for h in self.hands:
            yield from h
        yield from self.stock
        yield from self.pile
        for m in self.table:
            yield from m.cards


def _remade(fields: dict[str, object], moves: Sequence[tuple[int, Action]]) -> Deal:
    """The deal that :meth:`Deal.__reduce__` took apart (made through the constructor's
    blank path, the only way to make a compiled deal)."""
    rules, layout = fields["rules"], fields["layout"]
    players, dealer, seed, index = (fields["players"], fields["dealer"], fields["seed"],
                                    fields["index"])
    active = fields["active"]
    assert isinstance(rules, Rules) and isinstance(layout, Layout) and isinstance(active, tuple)
    assert isinstance(players, int) and isinstance(dealer, int)
    assert isinstance(seed, int) and isinstance(index, int)
    deal = Deal(rules, players=players, dealer=dealer, layout=layout, seed=seed, index=index,
                active=active, _blank=True)
    for name, value in fields.items():
        setattr(deal, name, value)
    deal._set_moves(moves)
    return deal


# -- helpers -------------------------------------------------------------------------


def _missing(hand: list[int], cards: Sequence[int]) -> str | None:
    if len(cards) == 1:
        return None if cards[0] in hand else format_cards(cards)
    # Most often the cards are distinct and all held (a search asks of the melds it found
    # in the hand): no count needed.
    if len(set(cards)) == len(cards) and all(c in hand for c in cards):
        return None
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    for c in cards:
        if counts.get(c, 0) == 0:
            return format_cards([c])
        counts[c] -= 1
    return None


_DEAD_END: Final = IllegalActionError("the turn could not be finished after this",
                                      code="dead-end")
"""What :meth:`Deal.can` is told of a meld or lay-off after which the turn could not be
finished, instead of :func:`dead_end`'s words (only whether there is a refusal matters
there)."""


def _enter_fits(fits: dict[int, list[int]], meld: Meld, place: int, rules: Rules) -> None:
    """Enter in ``fits`` (:attr:`Deal._fits`) the cards that fit ``meld``, at ``place`` on
    the table."""
    for c in layoff_targets(meld, rules).cards:
        found = fits.get(c)
        if found is None:
            fits[c] = [place]
        else:
            found.append(place)


def _last_index(pile: list[int], c: int) -> int:
    for i in range(len(pile) - 1, -1, -1):
        if pile[i] == c:
            return i
    return -1
