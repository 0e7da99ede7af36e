"""The errors rummykit raises: a small taxonomy under :class:`ValueError`.

Every message names the rule or the notation that was broken, so that a front end can
show it to a person as it is. A refused action also carries a stable machine-readable
``code`` (one of :data:`REFUSALS`) and the ``params`` that matter (cards in notation,
numbers as ints), so that a front end can explain or translate it without reading prose:

>>> err = IllegalActionError("opening: your melds this turn are worth 18; ...",
...                          code="opening-short", params={"value": 18, "needed": 50})
>>> err.code, err.params["needed"]
('opening-short', 50)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from rummykit.limits import NAME_LENGTH

__all__ = [
    "REFUSALS",
    "SHOWN_LENGTH",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "RecordError",
    "RefusalCode",
    "RulesError",
    "RummyError",
    "shown",
]


class RummyError(ValueError):
    """Base class of every error rummykit raises for bad input."""


class NotationError(RummyError):
    """A card or an action is not written in the notation of the rules."""


class RulesError(RummyError):
    """An unknown preset, an unknown option, a bad value, contradictory options or a player
    count the rules do not allow."""


class RecordError(RummyError):
    """A game record that is not valid (its format, not its play)."""


class OptionError(RummyError):
    """A value one of a function's options cannot take: ``option`` is the option's name
    (the keyword argument: ``name``, ``bots``, ``save``, ``resume``, ``workers``) and
    ``problem`` says why; the message is both (``name takes a name of 1 to 40
    characters``). A front end that knows the option by another name (the command line's
    ``--name``) writes ``problem`` after its own."""

    def __init__(self, option: str, problem: str) -> None:
        super().__init__(f"{option} {problem}")
        self.option = option
        self.problem = problem


SHOWN_LENGTH = NAME_LENGTH + 2
"""The longest value an error message shows whole: any name a person may have, with its
quotes (a longer value is cut, with "...")."""


def shown(value: object) -> str:
    """A value as an error message shows it: :data:`SHOWN_LENGTH` characters at most, and
    something for any value (Python prints no number of thousands of digits, nor a list
    nested a thousand deep), so that reporting bad input never fails itself."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        kind = "list" if isinstance(value, list) else "object" if isinstance(value, dict) else (
            "number")
        return f"<a {kind} too large to print>"
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH - 3] + "..."


RefusalCode = Literal[
    "deal-over",
    "match-over",
    "not-your-turn",
    "malformed-action",
    "draw-first",
    "drawn-already",
    "end-not-a-move",
    "end-stock-not-empty",
    "stock-empty",
    "stock-and-pile-empty",
    "pile-empty",
    "not-in-pile",
    "pile-top-only",
    "pile-card-unusable",
    "pile-draw-dead-end",
    "not-in-hand",
    "must-use-pile-card",
    "opening-short",
    "taken-discard",
    "one-meld-per-turn",
    "meld-no-natural",
    "meld-mixed",
    "set-size",
    "set-suits",
    "run-length",
    "run-sequence",
    "not-opened",
    "no-such-meld",
    "low-not-joker-on-run",
    "set-full",
    "set-rank",
    "set-suit",
    "run-suit",
    "run-end",
    "joker-high-end",
    "joker-low-end",
    "last-discard-required",
    "pile-card-stranded",
    "opening-unreachable",
    "dead-end",
]
"""Every reason an action can be refused, as a stable code."""

REFUSALS: dict[RefusalCode, str] = {
    "deal-over": "the deal is over",
    "match-over": "the match is over",
    "not-your-turn": "another player is to move",
    "malformed-action": "the action does not name the cards its kind needs",
    "draw-first": "a turn starts with a draw (params: player)",
    "drawn-already": "the player has drawn this turn already",
    "end-not-a-move": "'end' is not a move in these rules",
    "end-stock-not-empty": "'end' declines the pile only when the stock is empty",
    "stock-empty": "the stock is empty and these rules do not turn the pile over",
    "stock-and-pile-empty": "there is nothing to draw",
    "pile-empty": "the pile is empty",
    "not-in-pile": "the chosen card is not in the pile (params: card)",
    "pile-top-only": "only the top card of the pile may be taken",
    "pile-card-unusable": "a pile card taken must be melded or laid off this turn, and this "
                          "one cannot be (params: card)",
    "pile-draw-dead-end": "after taking this card no legal way to end the turn would be "
                          "left (params: card)",
    "not-in-hand": "the card is not in the player's hand (params: card)",
    "must-use-pile-card": "the card taken from the pile must be melded or laid off before "
                          "the turn ends (params: card)",
    "opening-short": "the melds of an opening turn are worth less than the opening needs "
                     "(params: value, needed)",
    "taken-discard": "the card taken from the pile may not be discarded this turn "
                     "(params: card)",
    "one-meld-per-turn": "at most one new meld per turn (lay-offs are not limited)",
    "meld-no-natural": "a meld needs a natural card (params: cards)",
    "meld-mixed": "the cards are neither one rank nor one suit (params: cards)",
    "set-size": "a set has too few or too many cards (params: cards, min, max)",
    "set-suits": "the suits of a set must all differ (params: cards)",
    "run-length": "a run is too short (params: cards, min)",
    "run-sequence": "the cards are not in sequence, or the ace is out of place "
                    "(params: cards)",
    "not-opened": "lay-offs come after the player's opening (params: needed)",
    "no-such-meld": "there is no meld with this number on the table (params: meld, melds)",
    "low-not-joker-on-run": "'low' places a joker at a run's low end, nothing else",
    "set-full": "the set holds the most cards a set may (params: card, max)",
    "set-rank": "the card is not of the set's rank (params: card, rank)",
    "set-suit": "the set has this card's suit already (params: card)",
    "run-suit": "the card is not of the run's suit (params: card, suit)",
    "run-end": "the card extends neither end of the run (params: card)",
    "joker-high-end": "the run cannot go higher (params: card)",
    "joker-low-end": "the run cannot go lower (params: card)",
    "last-discard-required": "going out needs a last discard: a card must be kept for it",
    "pile-card-stranded": "after this, the pile card that must be used could no longer be "
                          "melded or laid off (params: card)",
    "opening-unreachable": "after this, the melds of the opening turn could no longer reach "
                           "the opening (params: needed)",
    "dead-end": "after this, no legal way to end the turn would be left: the cards left may "
                "not be discarded (params: cards)",
}
"""What each refusal code means; a front end shows its own words for each."""

assert set(REFUSALS) == set(get_args(RefusalCode)), "every refusal code is described once"


class IllegalActionError(RummyError):
    """A well-formed action that the rules forbid now. The game is unchanged.

    ``code`` says which rule in a stable form (a key of :data:`REFUSALS`), ``params`` the
    cards (in notation) and numbers that matter; the message says it in English.
    """

    code: RefusalCode
    params: Mapping[str, object]

    def __init__(
        self, message: str, *, code: RefusalCode, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params) if params else {}

    def to_json(self) -> dict[str, object]:
        """The refusal as a front end receives it: message, code and params."""
        return {"message": str(self), "code": self.code, "params": dict(self.params)}
