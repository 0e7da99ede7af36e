"""The action space: every engine action of a position as one index, or as a few.

The space is ``Discrete(size)``, fixed by the rules object (docs/rl.md, "Actions"). With
``C = 53`` card codes (52 natural cards, then the joker) and ``M`` the most melds a deal's
table can hold (:func:`max_table_melds`):

========================  ===============================  ==================================
index                     engine action                    notes
========================  ===============================  ==================================
0                         ``draw stock``
1                         ``draw pile`` (its top card)
2 + c                     ``draw pile C``                  a card below the top (500 Rum)
55                        ``end``                          decline the pile (500 Rum)
56 + c                    ``discard C``
109 + c                   put card ``c`` in the new meld   one step of a meld, in the order
                                                           the meld is written
162                       lay the new meld                 the last step of a meld
163 + 53 (m - 1) + c      ``layoff C m``                   a joker on a set or at a run's
                                                           high end too
163 + 53 M + (m - 1)      ``layoff JK m low``              a joker at a run's low end
========================  ===============================  ==================================

A meld is chosen card by card, then laid: the cards go in the order the engine writes the
meld (a run from its low end, jokers in the places they fill; a set's natural cards
sorted, then its jokers), and each step offers only the cards that continue some legal
meld, so every meld the engine allows is one path of steps and every path ends in one.
Every other engine action is one index. So on every position the legal actions and the
masked paths are in one-to-one correspondence (tested), and the space stays small: 1,081
indices for a 52-card deck, 2,107 for ramino's 108 cards.
"""

from __future__ import annotations

from rummykit.cards import JOKER_CODE, format_cards
from rummykit.engine.actions import DISCARDS, DRAW_PILE, DRAW_STOCK, END, Action
from rummykit.rules import Rules

__all__ = [
    "CARD_CODES",
    "DISCARD",
    "DRAW_DEEP",
    "DRAW_PILE_TOP",
    "DRAW_STOCK_INDEX",
    "END_INDEX",
    "LAYOFF",
    "LAY_MELD",
    "MELD_CARD",
    "ActionCodec",
    "max_table_melds",
]

CARD_CODES = JOKER_CODE + 1
"""Card codes: 52 natural cards, then the joker (52)."""

DRAW_STOCK_INDEX = 0
DRAW_PILE_TOP = 1
DRAW_DEEP = 2
END_INDEX = DRAW_DEEP + CARD_CODES
DISCARD = END_INDEX + 1
MELD_CARD = DISCARD + CARD_CODES
LAY_MELD = MELD_CARD + CARD_CODES
LAYOFF = LAY_MELD + 1


_KNOWN_LIMIT = 1 << 16
"""The most actions whose first index a codec keeps."""


def max_table_melds(rules: Rules) -> int:
    """The most melds a deal's table can hold: every meld has at least
    ``min(set_min, run_min)`` cards, no card is in two melds and lay-offs only add cards,
    so the deck's size divided by that (17 for 52 cards, 36 for ramino's 108)."""
    return rules.deck_size // min(rules.set_min, rules.run_min)


class ActionCodec:
    """Index <-> engine action for one rules object (see the module's table).

    >>> from rummykit.rules import preset
    >>> codec = ActionCodec(preset("classic"))
    >>> codec.size, codec.max_melds
    (1081, 17)
    >>> codec.describe(codec.index(Action.parse("layoff 7H 2")))
    'layoff 7H 2'
    """

    __slots__ = ("_known", "_table", "layoff_low", "max_melds", "rules", "size")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # For pickle and copy.deepcopy (a compiled class is made through its constructor
        # only): the codec of the same rules (the indices it kept are made again).
        return ActionCodec, (self.rules,)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.max_melds = max_table_melds(rules)
        self.layoff_low = LAYOFF + CARD_CODES * self.max_melds
        self.size = self.layoff_low + self.max_melds
        self._known: dict[Action, int] = {}
        self._table: list[Action | None] | None = None

    def index(self, action: Action) -> int:
        """The one index of a draw, ``end``, discard or lay-off (a meld is several steps:
        see :meth:`meld_steps`)."""
        match action.kind:
            case "draw-stock":
                return DRAW_STOCK_INDEX
            case "draw-pile":
                return DRAW_DEEP + action.cards[0] if action.cards else DRAW_PILE_TOP
            case "end":
                return END_INDEX
            case "discard":
                return DISCARD + action.cards[0]
            case "layoff":
                if not 1 <= action.meld <= self.max_melds:
                    raise ValueError(f"meld {action.meld} is beyond the table's bound "
                                     f"({self.max_melds} melds)")
                if action.low:
                    return self.layoff_low + action.meld - 1
                return LAYOFF + CARD_CODES * (action.meld - 1) + action.cards[0]
            case "meld":
                raise ValueError("a meld is chosen card by card: see meld_steps()")

    def indices(self, legal: list[Action]) -> list[int]:
        """The first index of each of ``legal`` (a meld's first card; several melds may
        share it)."""
        known = self._known
        out = []
        for action in legal:
            i = known.get(action)
            out.append(self._first_index(action) if i is None else i)
        return out

    def fill(self, legal: list[Action], mask: bytearray) -> None:
        """Set ``mask`` to 1 at the first index of each of ``legal`` (as :meth:`indices`,
        without the list)."""
        known = self._known
        for action in legal:
            i = known.get(action)
            mask[self._first_index(action) if i is None else i] = 1

    def _first_index(self, action: Action) -> int:
        """The first index of an action not looked up before, kept for the next time."""
        i = MELD_CARD + action.cards[0] if action.kind == "meld" else self.index(action)
        if len(self._known) < _KNOWN_LIMIT:
            self._known[action] = i
        return i

    def one_step(self, index: int) -> Action | None:
        """:meth:`action` of an index in range, looked up in a table made at the first
        call."""
        table = self._table
        if table is None:
            table = self._table = [self.action(i) for i in range(self.size)]
        return table[index]

    def meld_steps(self, action: Action) -> tuple[int, ...]:
        """The indices that choose a meld: each card in the order written, then 162."""
        return (*(MELD_CARD + c for c in action.cards), LAY_MELD)

    def steps(self, action: Action) -> tuple[int, ...]:
        """The indices that play ``action``: one, or a meld's steps."""
        return self.meld_steps(action) if action.kind == "meld" else (self.index(action),)

    def action(self, index: int) -> Action | None:
        """The engine action of a one-step index; None for a meld step (162 or 109 + c).

        An index out of range is a ValueError."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is not in 0..{self.size - 1}")
        if index == DRAW_STOCK_INDEX:
            return DRAW_STOCK
        if index == DRAW_PILE_TOP:
            return DRAW_PILE
        if index < END_INDEX:
            return Action("draw-pile", (index - DRAW_DEEP,))
        if index == END_INDEX:
            return END
        if index < MELD_CARD:
            return DISCARDS[index - DISCARD]
        if index <= LAY_MELD:
            return None
        if index < self.layoff_low:
            meld, card = divmod(index - LAYOFF, CARD_CODES)
            return Action("layoff", (card,), meld + 1)
        return Action("layoff", (JOKER_CODE,), index - self.layoff_low + 1, True)

    def describe(self, index: int) -> str:
        """The index in words: the engine notation, or the meld step."""
        action = self.action(index)
        if action is not None:
            return str(action)
        if index == LAY_MELD:
            return "lay the meld"
        return f"meld card {format_cards([index - MELD_CARD])}"


class MeldChoice:
    """The legal melds of one position as a tree of their cards: which card may come next
    after the cards chosen so far, and whether those cards are a whole meld."""

    __slots__ = ("_next", "_whole")

    def __init__(self, melds: list[tuple[int, ...]]) -> None:
        following: dict[tuple[int, ...], set[int]] = {}
        for cards in melds:
            for i in range(len(cards)):
                following.setdefault(cards[:i], set()).add(cards[i])
        self._next = following
        self._whole = set(melds)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # As the codec's: the same melds make the same tree.
        return MeldChoice, (sorted(self._whole),)

    def __deepcopy__(self, memo: dict[int, object]) -> MeldChoice:
        # The tree never changes once made: copies share it.
        return self

    def next_cards(self, chosen: tuple[int, ...]) -> set[int]:
        """The cards that continue ``chosen`` towards a legal meld."""
        return self._next.get(chosen, set())

    def is_meld(self, chosen: tuple[int, ...]) -> bool:
        return chosen in self._whole
