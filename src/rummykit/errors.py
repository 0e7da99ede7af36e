"""The errors rummykit raises: a small taxonomy under :class:`ValueError`.

Every message names the rule or the notation that was broken, so that a front end can
show it to a person as it is.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
    "RummyError",
]


class RummyError(ValueError):
    """Base class of every error rummykit raises for bad input."""


class NotationError(RummyError):
    """A card or an action is not written in the notation of RULES.md."""


class RulesError(RummyError):
    """An unknown preset, an unknown option, a bad value or contradictory options."""


class IllegalActionError(RummyError):
    """A well-formed action that the rules forbid now. The game is unchanged."""


class RecordError(RummyError):
    """A game record that is not valid (its format, not its play)."""
