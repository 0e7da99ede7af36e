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
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rummykit.cards import JOKER_CODE, format_cards, make_deck
from rummykit.engine.actions import DRAW_PILE, DRAW_STOCK, END, Action
from rummykit.errors import IllegalActionError, RecordError
from rummykit.melds import (
    Meld,
    find_melds,
    hand_points,
    layoff,
    make_meld,
    meld_points,
)
from rummykit.rules import Rules

__all__ = ["Deal", "DealResult", "Layout", "LegalActions"]

DRAW, PLAY, OVER = "draw", "play", "over"


@dataclass(frozen=True, slots=True)
class Layout:
    """A deal's starting position: the hands, the stock (top card first) and the pile
    (bottom card first, so its last card is the top)."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: ``winner`` went out (None in a stalemate), whether it was rummy,
    and what the deal adds to each player's total."""

    winner: int | None
    rummy: bool
    points: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"winner": self.winner, "rummy": self.rummy, "points": list(self.points)}


def shuffled_layout(
    rules: Rules, players: int, dealer: int, seed: int, index: int,
    active: Sequence[bool] | None = None,
) -> Layout:
    """The layout the engine deals from a seed: shuffle, then one card at a time clockwise
    from the dealer's left, then one card face up to start the pile."""
    deck = make_deck(rules.decks, rules.jokers)
    random.Random(f"rummykit/deal/{seed}/{index}").shuffle(deck)
    seats = _seats_from(dealer, players, active)
    size = rules.hand_size_for(sum(1 for s in range(players) if active is None or active[s]))
    hands: list[list[int]] = [[] for _ in range(players)]
    top = 0
    for _ in range(size):
        for seat in seats:
            hands[seat].append(deck[top])
            top += 1
    pile = (deck[top],)
    stock = tuple(deck[top + 1:])
    return Layout(tuple(tuple(h) for h in hands), stock, pile)


def _seats_from(dealer: int, players: int, active: Sequence[bool] | None) -> list[int]:
    """Active seats clockwise, starting left of the dealer."""
    order = [(dealer + k) % players for k in range(1, players + 1)]
    return [s for s in order if active is None or active[s]]


class Deal:
    """One deal of Rummy under a rules object.

    Players are seats 0..n-1, clockwise; in a ramino match players who are out stay
    seated but hold no cards and never move (``active``).
    """

    __slots__ = (
        "_history",
        "_laid",
        "_movers",
        "_opened",
        "_pile_log",
        "_result",
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
    phase: str
    taken: int  # card taken from the pile this turn, or -1
    pending: int  # pile card that must still be used this turn, or -1
    turn_melds: int
    turn_value: int
    turn_laid: bool
    turn_overs_used: int
    refills_used: int
    _opened: list[bool]
    _laid: list[bool]
    _history: list[Action]
    _movers: list[int]
    _pile_log: list[tuple[int, tuple[int, ...]]]
    _result: DealResult | None

    def __init__(
        self, rules: Rules, *, players: int, dealer: int, layout: Layout, seed: int = 0,
        index: int = 0, active: Sequence[bool] | None = None,
    ) -> None:
        if not 2 <= players <= 6:
            raise RecordError(f"{players} players: Rummy is played by 2 to 6")
        if not 0 <= dealer < players:
            raise RecordError(f"dealer {dealer} is not a seat (0 to {players - 1})")
        self.active = tuple(active) if active is not None else (True,) * players
        if len(self.active) != players or sum(self.active) < 2:
            raise RecordError("a deal needs at least two active players")
        if not self.active[dealer]:
            raise RecordError(f"dealer {dealer} is out of the match")
        _check_layout(rules, players, self.active, layout)
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
        self.phase = DRAW
        self.taken = -1
        self.pending = -1
        self.turn_melds = 0
        self.turn_value = 0
        self.turn_laid = False
        self.turn_overs_used = 0
        self.refills_used = 0
        self._opened = [rules.opening == 0] * players
        self._laid = [False] * players
        self._history = []
        self._movers = []
        self._pile_log = []
        self._result = None
        self._begin_turn()

    @classmethod
    def start(
        cls, rules: Rules, *, players: int, dealer: int, seed: int, index: int = 0,
        active: Sequence[bool] | None = None,
    ) -> Deal:
        """Shuffle and deal from ``seed`` (``index`` tells deals of one match apart)."""
        if not 2 <= players <= 6:
            raise RecordError(f"{players} players: Rummy is played by 2 to 6")
        layout = shuffled_layout(rules, players, dealer, seed, index, active)
        return cls(rules, players=players, dealer=dealer, layout=layout, seed=seed,
                   index=index, active=active)

    def copy(self) -> Deal:
        """An independent copy (cheap: melds are immutable and shared)."""
        new = Deal.__new__(Deal)
        new.rules = self.rules
        new.players = self.players
        new.dealer = self.dealer
        new.active = self.active
        new.seed = self.seed
        new.index = self.index
        new.layout = self.layout
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
        new._history = self._history[:]
        new._movers = self._movers[:]
        new._pile_log = self._pile_log[:]
        new._result = self._result
        return new

    # -- reading the state -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def result(self) -> DealResult | None:
        """How the deal ended, or None while it goes on."""
        return self._result

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action played in this deal, in order."""
        return tuple(self._history)

    @property
    def pile_draws(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every draw from the pile: the seat and the cards it took (public, bottom first)."""
        return tuple(self._pile_log)

    @property
    def last_mover(self) -> int | None:
        """The seat that played the last action of the deal (None before any)."""
        return self._movers[-1] if self._movers else None

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """Every action played in this deal with the seat that played it."""
        return tuple(zip(self._movers, self._history, strict=True))

    def opened(self, seat: int) -> bool:
        """Whether the player has made his opening (always true without an opening rule)."""
        return self._opened[seat]

    def has_laid(self, seat: int) -> bool:
        """Whether the player melded or laid off in an earlier turn of this deal."""
        return self._laid[seat]

    @property
    def meld_limit_reached(self) -> bool:
        return self.rules.melds_per_turn == "one" and self.turn_melds >= 1

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (none once the deal is over)."""
        if self.phase == PLAY:
            return self._play_actions()
        if self.phase == DRAW:
            return self._draw_actions()
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
                seen: set[int] = set()
                for i in range(len(pile) - 1, -1, -1):
                    c = pile[i]
                    if c in seen:
                        continue
                    seen.add(c)
                    if self._draw_pile_problem(i) is None:
                        out.append(DRAW_PILE if i == len(pile) - 1 else Action("draw-pile", (c,)))
            elif self._draw_pile_problem(len(pile) - 1) is None:
                out.append(DRAW_PILE)
        if rules.stock_out == "end" and not self.stock:
            out.append(END)
        return out

    def _play_actions(self) -> list[Action]:
        rules = self.rules
        seat = self.to_move
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.meld_limit_reached:
            for cards in find_melds(hand, rules):
                meld = make_meld(cards, rules, seat)
                if self._finishable_after(cards, meld, None):
                    out.append(Action("meld", cards))
        if self._opened[seat] and self.table:
            distinct = set(hand)
            for number, meld in enumerate(self.table, 1):
                for c in distinct:
                    ends = (False, True) if c == JOKER_CODE and meld.kind == "run" else (False,)
                    for low in ends:
                        try:
                            new = layoff(meld, c, rules, seat, low)
                        except IllegalActionError:
                            continue
                        if self._finishable_after((c,), new, number - 1):
                            out.append(Action("layoff", (c,), number, low))
        for c in sorted(set(hand)):
            if self._discard_problem(c) is None:
                out.append(Action("discard", (c,)))
        return out

    # -- checking ----------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is illegal now."""
        problem = self._problem(action)
        if problem is not None:
            raise IllegalActionError(problem)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return self._problem(action) is None

    def apply(self, action: Action | str) -> Action:
        """Check and play an action (or its notation); return the action played.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        self.verify(action)
        self.push(action)
        return action

    def _problem(self, action: Action) -> str | None:
        if self.phase == OVER:
            return "the deal is over"
        seat = self.to_move
        kind = action.kind
        if self.phase == DRAW:
            if kind in ("draw-stock", "draw-pile", "end"):
                return self._draw_problem(action)
            return f"player {seat} must draw first: 'draw stock' or 'draw pile'"
        if kind in ("draw-stock", "draw-pile"):
            return "you have drawn already this turn: meld, lay off or discard"
        if kind == "end":
            return "'end' only declines the pile when the stock is empty, before drawing"
        hand = self.hands[seat]
        missing = _missing(hand, action.cards)
        if missing:
            return f"{missing} is not in your hand"
        if kind == "discard":
            return self._discard_problem(action.cards[0])
        if kind == "meld":
            if self.meld_limit_reached:
                return "one meld per turn: you have laid a meld this turn (lay-offs are still open)"
            try:
                meld = make_meld(action.cards, self.rules, seat)
            except IllegalActionError as err:
                return str(err)
            return self._dead_end_problem(action.cards, meld, None)
        if kind == "layoff":
            if not self._opened[seat]:
                return (f"opening: lay-offs come once you have opened with melds worth "
                        f"{self.rules.opening} or more")
            if not 1 <= action.meld <= len(self.table):
                return f"there is no meld {action.meld} on the table ({len(self.table)} melds)"
            c = action.cards[0]
            if action.low and (c != JOKER_CODE or self.table[action.meld - 1].kind != "run"):
                return "'low' places a joker at a run's low end; other lay-offs take no 'low'"
            try:
                new = layoff(self.table[action.meld - 1], c, self.rules, seat, action.low)
            except IllegalActionError as err:
                return str(err)
            return self._dead_end_problem(action.cards, new, action.meld - 1)
        return f"unknown action kind {kind!r}"

    def _draw_problem(self, action: Action) -> str | None:
        rules = self.rules
        if action.kind == "end":
            if rules.stock_out != "end":
                return "'end' is not a move in these rules"
            if self.stock:
                return "'end' declines the pile only when the stock is empty"
            return None
        if action.kind == "draw-stock":
            if self.stock:
                return None
            if rules.stock_out == "turn-over":
                return None if self.pile else "the stock and the pile are empty"
            return "the stock is empty: take from the pile" + (
                " or write 'end' to end the deal" if rules.stock_out == "end" else "")
        if not self.pile:
            return "the pile is empty"
        index = len(self.pile) - 1
        if action.cards:
            c = action.cards[0]
            found = _last_index(self.pile, c)
            if found < 0:
                return f"{format_cards([c])} is not in the pile"
            if found != index and rules.draw_pile != "any":
                return "only the top card of the pile may be taken"
            index = found
        return self._draw_pile_problem(index)

    def _draw_pile_problem(self, index: int) -> str | None:
        chosen = self.pile[index]
        if self.rules.pile_card_must_be_used:
            if not self._usable_after_draw(index):
                return (f"{format_cards([chosen])} can be taken only to be melded or laid off "
                        "this turn, and it cannot be")
            rules = self.rules
            if rules.last_discard == "optional" and not (rules.opening and not self._opened[
                    self.to_move]):
                return None
            # A compulsory last discard or an opening to reach: try the turn out.
            trial = self.copy()
            trial.push(Action("draw-pile", (chosen,)) if index < len(self.pile) - 1
                       else DRAW_PILE)
            if trial.legal_actions():
                return None
            return (f"you could not finish the turn after taking {format_cards([chosen])}: "
                    "using it would leave no legal way to end the turn")
        if any(c != chosen for c in self.hands[self.to_move]):
            return None
        trial = self.copy()
        trial.push(DRAW_PILE)
        if trial.legal_actions():
            return None
        return (f"you could not end the turn after taking {format_cards([chosen])}: it may not "
                "be discarded and nothing else could be played")

    def _discard_problem(self, c: int) -> str | None:
        rules = self.rules
        seat = self.to_move
        if self.pending >= 0:
            return (f"you took {format_cards([self.pending])} from the pile and must meld or lay "
                    "it off before the turn ends")
        if not self._opened[seat] and self.turn_value:
            return (f"opening: your melds this turn are worth {self.turn_value}; a first "
                    f"melding turn needs {rules.opening} or more")
        if c == self.taken:
            hand = self.hands[seat]
            if not (rules.taken_discard == "last-card" and len(hand) == 1):
                return (f"you took {format_cards([c])} from the pile this turn and may not "
                        "discard it" + (" (unless it is your last card)"
                                        if rules.taken_discard == "last-card" else ""))
        return None

    # -- the no-dead-ends rule ---------------------------------------------------------

    def _dead_end_problem(
        self, used: Sequence[int], meld: Meld, replaces: int | None
    ) -> str | None:
        if self._finishable_after(used, meld, replaces):
            return None
        rules = self.rules
        rest = _without(self.hands[self.to_move], used)
        if not rest and rules.last_discard == "required":
            return "compulsory last discard: you must keep a card to discard"
        if self.pending >= 0 and self.pending not in used:
            return (f"you must still meld or lay off {format_cards([self.pending])} this turn, "
                    "and after this you could not")
        if not self._opened[self.to_move] and rules.opening:
            return (f"opening: after this your melds this turn could no longer reach "
                    f"{rules.opening}")
        return ("you could not end the turn after this: the only card left may not be "
                "discarded")

    def _finishable_after(self, used: Sequence[int], meld: Meld, replaces: int | None) -> bool:
        """Whether the player could still end the turn legally after melding or laying
        off ``used`` (making ``meld``, which replaces table meld ``replaces`` if given)."""
        rules = self.rules
        seat = self.to_move
        hand = self.hands[seat]
        rest = _without(hand, used)
        pending = self.pending
        if pending >= 0 and pending in used:
            pending = -1
        opened = self._opened[seat]
        value = self.turn_value
        if not opened:
            value += meld_points(meld, rules)
            opened = value >= rules.opening
        if pending < 0 and opened:
            return self._can_end_with(rest, meld, replaces)
        table = self.table[:]
        if replaces is None:
            table.append(meld)
        else:
            table[replaces] = meld
        if rules.melds_per_turn == "one":
            melds_left = max(0, 1 - self.turn_melds - (1 if replaces is None else 0))
        else:
            melds_left = 99
        return self._search_finish(tuple(sorted(rest)), table, pending, opened, value,
                                   melds_left, {})

    def _ends_now(self, rest: Sequence[int]) -> bool:
        """With no rule of the turn pending, whether a hand of ``rest`` ends the turn at
        once: empty (going out, where allowed) or holding a card that may be discarded."""
        rules = self.rules
        if not rest:
            return rules.last_discard == "optional"
        taken = self.taken
        if taken < 0 or any(c != taken for c in rest):
            return True
        return len(rest) == 1 and rules.taken_discard == "last-card"

    def _can_end_with(self, rest: list[int], meld: Meld, replaces: int | None) -> bool:
        """No rule of the whole turn is pending: can ``rest`` be discarded from or emptied?"""
        if self._ends_now(rest):
            return True
        taken = self.taken
        if len(rest) == 1 and rest[0] == taken and self.rules.last_discard == "optional":
            # The one card left may not be discarded; laying it off would still go out.
            table = self.table[:]
            if replaces is None:
                table.append(meld)
            else:
                table[replaces] = meld
            return any(_fits_any(m, taken, self.rules) for m in table)
        return False

    def _search_finish(
        self, rest: tuple[int, ...], table: list[Meld], pending: int, opened: bool, value: int,
        melds_left: int, memo: dict[tuple[object, ...], bool],
    ) -> bool:
        """Depth-first: is there a way to finish the turn from here? (Rare, slow path.)"""
        rules = self.rules
        if pending < 0 and opened and self._ends_now(rest):
            return True
        key = (rest, pending, opened, value, melds_left, tuple(table))
        if key in memo:
            return memo[key]
        memo[key] = False
        seat = self.to_move
        found = False
        if pending >= 0 and opened and rules.last_discard == "optional":
            # The pile card must be used: a meld with it or a lay-off of it settles that
            # (what is left can then be discarded, or the hand is empty and the player out).
            found = self._pending_usable(list(rest), table, pending, melds_left > 0)
            if found:
                memo[key] = True
                return True
        if melds_left > 0:
            for cards in find_melds(rest, rules):
                meld = make_meld(cards, rules, seat)
                new_value = value if opened else value + meld_points(meld, rules)
                left = tuple(_without(list(rest), cards))
                if self._search_finish(
                    left, [*table, meld], -1 if pending in cards else pending,
                    opened or new_value >= rules.opening, new_value, melds_left - 1, memo,
                ):
                    found = True
                    break
        if not found and opened:
            for i, meld in enumerate(table):
                for c in set(rest):
                    try:
                        new = layoff(meld, c, rules, seat)
                    except IllegalActionError:
                        continue
                    left = tuple(_without(list(rest), (c,)))
                    new_table = table[:]
                    new_table[i] = new
                    if self._search_finish(left, new_table, -1 if c == pending else pending,
                                           opened, value, melds_left, memo):
                        found = True
                        break
                if found:
                    break
        memo[key] = found
        return found

    def _pending_usable(
        self, hand: list[int], table: list[Meld], card: int, can_meld: bool
    ) -> bool:
        rules = self.rules
        if any(_fits_any(m, card, rules) for m in table):
            return True
        return can_meld and any(card in cards for cards in find_melds(hand, rules))

    def _usable_after_draw(self, index: int) -> bool:
        """rummy500: could the chosen pile card be melded or laid off this turn?

        Directly, in a meld with cards of the hand, or on a run of the table once cards of
        the hand have extended that run up to it."""
        chosen = self.pile[index]
        hand = self.hands[self.to_move] + self.pile[index:]
        rules = self.rules
        if self._opened[self.to_move]:
            for meld in self.table:
                if _fits_any(meld, chosen, rules) or _reaches(meld, chosen, hand, rules):
                    return True
        return any(chosen in cards for cards in find_melds(_near(hand, chosen), rules))

    # -- playing -----------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Play an action without checking it: only for actions from :meth:`legal_actions`."""
        kind = action.kind
        seat = self.to_move
        rules = self.rules
        self._history.append(action)
        self._movers.append(seat)
        if kind == "draw-stock":
            if not self.stock:
                # Turn the pile over without shuffling: its bottom card is the new top.
                self.stock = self.pile[::-1]
                self.pile = []
                self.turn_overs_used += 1
            self.hands[seat].append(self.stock.pop())
            self.phase = PLAY
        elif kind == "draw-pile":
            pile = self.pile
            index = _last_index(pile, action.cards[0]) if action.cards else len(pile) - 1
            taken = pile[index:]
            del pile[index:]
            self._pile_log.append((seat, tuple(taken)))
            self.hands[seat].extend(taken)
            if rules.pile_card_must_be_used:
                self.pending = taken[0]
            else:
                self.taken = taken[0]
            self.phase = PLAY
        elif kind == "meld":
            meld = make_meld(action.cards, rules, seat)
            self.table.append(meld)
            self._use(seat, action.cards)
            self.turn_melds += 1
            if not self._opened[seat]:
                self.turn_value += meld_points(meld, rules)
                if self.turn_value >= rules.opening:
                    self._opened[seat] = True
            self._after_lay(seat)
        elif kind == "layoff":
            i = action.meld - 1
            self.table[i] = layoff(self.table[i], action.cards[0], rules, seat, action.low)
            self._use(seat, action.cards)
            self._after_lay(seat)
        elif kind == "discard":
            hand = self.hands[seat]
            hand.remove(action.cards[0])
            self.pile.append(action.cards[0])
            if not hand:
                self._finish(seat)
            else:
                self._end_turn()
        elif kind == "end":
            self._finish(None)

    def _use(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        if self.pending >= 0 and self.pending in cards:
            self.pending = -1
        self.turn_laid = True

    def _after_lay(self, seat: int) -> None:
        if not self.hands[seat]:
            self._finish(seat)

    def _end_turn(self) -> None:
        seat = self.to_move
        if self.turn_laid:
            self._laid[seat] = True
        self.taken = -1
        self.pending = -1
        self.turn_melds = 0
        self.turn_value = 0
        self.turn_laid = False
        self.to_move = self._next_seat(seat)
        self.phase = DRAW
        self._begin_turn()

    def _begin_turn(self) -> None:
        """At the start of a turn: handle an empty stock by the rules."""
        if self.stock:
            return
        rules = self.rules
        if rules.stock_out == "turn-over":
            if self.turn_overs_used >= rules.turn_overs or not self.pile:
                self._finish(None)
        elif rules.stock_out == "refill":
            if self.refills_used < rules.refills_for(sum(self.active)) and len(self.pile) > 1:
                new_stock = self.pile[:-1]
                random.Random(
                    f"rummykit/refill/{self.seed}/{self.index}/{self.refills_used}"
                ).shuffle(new_stock)
                self.stock = new_stock
                self.pile = self.pile[-1:]
                self.refills_used += 1
            else:
                self._finish(None)

    def _next_seat(self, seat: int) -> int:
        n = self.players
        nxt = (seat + 1) % n
        while not self.active[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    # -- the end of the deal -----------------------------------------------------------

    def _finish(self, winner: int | None) -> None:
        rules = self.rules
        rummy = winner is not None and not self._laid[winner]
        multiplier = rules.rummy_multiplier if rummy else 1
        hands = [hand_points(h, rules) for h in self.hands]
        points = [0] * self.players
        if rules.scoring == "collect":
            if winner is not None:
                points[winner] = multiplier * sum(hands)
        elif rules.scoring == "penalty":
            if winner is not None:
                points = [0 if s == winner else multiplier * hands[s] for s in range(self.players)]
        else:
            for s in range(self.players):
                if not self.active[s]:
                    continue
                melded = sum(meld_points(m, rules, by=s) for m in self.table)
                points[s] = melded - (multiplier if s != winner else 1) * hands[s]
        self._result = DealResult(winner, rummy, tuple(points))
        if self.phase == PLAY and winner is not None and self.turn_laid:
            self._laid[winner] = True
        self.phase = OVER

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


class LegalActions:
    """A view of the legal actions: ``len``, iteration and ``in`` (checked without listing)."""

    __slots__ = ("_actions", "_deal")

    def __init__(self, deal: Deal) -> None:
        self._deal = deal
        self._actions: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._actions is None:
            self._actions = self._deal.legal_actions()
        return self._actions

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._deal.can(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())


# -- helpers -------------------------------------------------------------------------


def _missing(hand: list[int], cards: Sequence[int]) -> str | None:
    if len(cards) == 1:
        return None if cards[0] in hand else format_cards(cards)
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    for c in cards:
        if counts.get(c, 0) == 0:
            return format_cards([c])
        counts[c] -= 1
    return None


def _without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def _last_index(pile: list[int], c: int) -> int:
    for i in range(len(pile) - 1, -1, -1):
        if pile[i] == c:
            return i
    return -1


def _fits_any(meld: Meld, c: int, rules: Rules) -> bool:
    try:
        layoff(meld, c, rules, 0)
    except IllegalActionError:
        if c == JOKER_CODE and meld.kind == "run":
            try:
                layoff(meld, c, rules, 0, low=True)
            except IllegalActionError:
                return False
            return True
        return False
    return True


def _reaches(meld: Meld, chosen: int, hand: list[int], rules: Rules) -> bool:
    """Whether cards of ``hand`` could extend run ``meld`` until ``chosen`` fits its end."""
    if meld.kind != "run" or chosen == JOKER_CODE or chosen // 13 != meld.suit:
        return False
    rank = chosen % 13 + 1
    positions = [rank] + ([14] if rank == 1 and rules.high_aces else [])
    present = {c % 13 + 1 for c in hand if c != JOKER_CODE and c // 13 == meld.suit}
    if 1 in present and rules.high_aces:
        present.add(14)
    jokers = sum(1 for c in hand if c == JOKER_CODE)
    for pos in positions:
        if pos > meld.high + 1:
            gap = range(meld.high + 1, pos)
        elif pos < meld.low - 1:
            gap = range(pos + 1, meld.low)
        else:
            continue
        if sum(1 for p in gap if p not in present) <= jokers:
            return True
    return False


def _near(hand: list[int], chosen: int) -> list[int]:
    """The cards of a hand that could share a meld with ``chosen``."""
    if chosen == JOKER_CODE:
        return hand
    suit, rank = divmod(chosen, 13)
    return [c for c in hand if c == JOKER_CODE or c % 13 == rank or c // 13 == suit]


def _check_layout(rules: Rules, players: int, active: tuple[bool, ...], layout: Layout) -> None:
    if len(layout.hands) != players:
        raise RecordError(f"the layout has {len(layout.hands)} hands for {players} players")
    size = rules.hand_size_for(sum(active))
    for seat, hand in enumerate(layout.hands):
        want = size if active[seat] else 0
        if len(hand) != want:
            raise RecordError(
                f"the layout gives player {seat} {len(hand)} cards; the rules deal {want}"
            )
    if not layout.pile:
        raise RecordError("the layout's pile is empty: the deal turns up one card to start it")
    counts: dict[int, int] = {}
    for deck_card in make_deck(rules.decks, rules.jokers):
        counts[deck_card] = counts.get(deck_card, 0) + 1
    for group in (*layout.hands, layout.stock, layout.pile):
        for c in group:
            if counts.get(c, 0) == 0:
                raise RecordError(
                    f"the layout is not the deck: {format_cards([c])} appears too often"
                )
            counts[c] -= 1
    short = [c for c, k in counts.items() if k]
    if short:
        raise RecordError(
            f"the layout is not the deck: {format_cards(short[:5])} missing"
        )
