"""Actions and their notation (docs/rules.md, "Notation").

>>> a = Action.parse("meld 5h 6h 7h")
>>> str(a), a.kind
('meld 5H 6H 7H', 'meld')
>>> str(Action.parse("layoff ★ 2 LOW"))
'layoff JK 2 low'
>>> Action.parse(str(a)) == a
True
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, get_args

from rummykit.cards import CARDS, Card, format_cards
from rummykit.errors import NotationError

__all__ = [
    "DISCARDS", "DRAW_PILE", "DRAW_STOCK", "END", "KINDS", "PILE_DRAWS", "Action", "ActionKind",
    "layoff_action", "meld_action",
]

ActionKind = Literal["draw-stock", "draw-pile", "meld", "layoff", "discard", "end"]
"""The kinds of action."""

KINDS: Final[tuple[ActionKind, ...]] = get_args(ActionKind)


_TEXTS: dict[Action, str] = {}
"""The notation of the actions written so far (a server writes the same few hundred
actions in every message it sends), up to :data:`_TEXTS_KEPT` of them."""
_TEXTS_KEPT: Final = 100_000


class Action(NamedTuple):
    """One player action. Immutable and hashable; ``str()`` gives the record notation."""

    kind: ActionKind
    """One of ``draw-stock``, ``draw-pile``, ``meld``, ``layoff``, ``discard``, ``end``."""
    cards: tuple[int, ...] = ()
    """The cards it names: the chosen pile card, the meld, the laid-off or discarded card."""
    meld: int = 0
    """For a lay-off: the meld's number, counted from 1 in the order melds reached the table."""
    low: bool = False
    """For a joker laid off on a run: at its low end."""

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = self._text()
            if len(_TEXTS) < _TEXTS_KEPT:
                _TEXTS[self] = text
        return text

    def _text(self) -> str:
        match self.kind:
            case "draw-stock":
                return "draw stock"
            case "draw-pile":
                return "draw pile " + format_cards(self.cards) if self.cards else "draw pile"
            case "layoff":
                return (f"layoff {format_cards(self.cards)} {self.meld}"
                        + (" low" if self.low else ""))
            case "end":
                return "end"
            case "meld" | "discard":
                return f"{self.kind} {format_cards(self.cards)}"

    @property
    def card_objects(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self.cards)

    @staticmethod
    def parse(text: object) -> Action:
        """Parse one action in the record notation; bad notation (or anything but a string)
        raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"an action is a string, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise NotationError("an empty action: write draw, meld, layoff, discard or end")
        verb, rest = _keyword(words[0]), words[1:]
        match verb:
            case "draw":
                return _parse_draw(text, [_keyword(w) for w in rest])
            case "meld":
                if not rest:
                    raise NotationError(f"{text!r}: name the cards of the meld")
                return Action("meld", tuple(Card.parse(w) for w in rest))
            case "layoff":
                low = len(rest) == 3 and _keyword(rest[2]) == "low"
                if len(rest) != 2 + low:
                    raise NotationError(f"{text!r}: write 'layoff CARD MELD' (and 'low' for a "
                                        "joker at a run's low end)")
                number = rest[1]
                if not (number.isascii() and number.isdigit()) or not 1 <= len(number) <= 6 \
                        or int(number) < 1:
                    raise NotationError(f"{text!r}: the meld number counts from 1")
                return Action("layoff", (Card.parse(rest[0]),), int(number), low)
            case "discard":
                if len(rest) != 1:
                    raise NotationError(f"{text!r}: write 'discard CARD'")
                return Action("discard", (Card.parse(rest[0]),))
            case "end":
                if rest:
                    raise NotationError(f"{text!r}: 'end' takes nothing more")
                return END
        raise NotationError(
            f"{text!r}: unknown action {words[0]!r}; the actions are draw, meld, layoff, "
            "discard and end"
        )


def _keyword(word: str) -> str:
    """A word of the notation, any case; letters are ASCII (no case folding may turn
    another letter into one: the Kelvin sign is not a k)."""
    return word.lower() if word.isascii() else word


def _parse_draw(text: str, rest: list[str]) -> Action:
    match rest:
        case ["stock"]:
            return DRAW_STOCK
        case ["pile"]:
            return DRAW_PILE
        case ["pile", chosen]:
            return Action("draw-pile", (Card.parse(chosen),))
        case ["stock", *_]:
            raise NotationError(f"{text!r}: 'draw stock' takes nothing more")
        case ["pile", *_]:
            raise NotationError(f"{text!r}: write 'draw pile' or 'draw pile CARD'")
    raise NotationError(f"{text!r}: write 'draw stock' or 'draw pile'")


DRAW_STOCK: Final = Action("draw-stock")
DRAW_PILE: Final = Action("draw-pile")
END: Final = Action("end")
DISCARDS: Final[tuple[Action, ...]] = tuple(Action("discard", (code,)) for code in range(53))
"""The discard of each card code, made once (``DISCARDS[code]``)."""
PILE_DRAWS: Final[tuple[Action, ...]] = tuple(Action("draw-pile", (code,)) for code in range(53))
"""The draw from the pile from each card code up, made once (``PILE_DRAWS[code]``)."""

_MELD_ACTIONS: Final[dict[tuple[int, ...], Action]] = {}
_LAYOFF_ACTIONS: Final[dict[int, Action]] = {}


def meld_action(cards: tuple[int, ...]) -> Action:
    """``Action("meld", cards)``, made once per meld (listing the legal actions offers the
    same melds turn after turn)."""
    action = _MELD_ACTIONS.get(cards)
    if action is None:
        if len(_MELD_ACTIONS) >= 100_000:
            _MELD_ACTIONS.clear()
        action = _MELD_ACTIONS[cards] = Action("meld", cards)
    return action


def layoff_action(card: int, meld: int, low: bool) -> Action:
    """``Action("layoff", (card,), meld, low)``, made once."""
    key = (meld * 2 + low) * 64 + card
    action = _LAYOFF_ACTIONS.get(key)
    if action is None:
        action = _LAYOFF_ACTIONS[key] = Action("layoff", (card,), meld, low)
    return action
