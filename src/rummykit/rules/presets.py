"""The six presets in words: the game each one plays and what sets it apart (docs/rules.md).

The presets themselves are :class:`~rummykit.rules.options.Rules` values defined with
that class (its string and record forms start from them); they are named here too.
"""

from __future__ import annotations

from rummykit.rules.options import PRESETS, preset

__all__ = ["PRESETS", "PRESET_SOURCES", "PRESET_SUMMARIES", "preset"]

PRESET_SOURCES: dict[str, str] = {
    "basic": "basic Rummy",
    "one-deal": "a one-deal Rummy",
    "classic": "Classic Rummy",
    "rummy500": "500 Rum",
    "limited-stock": "Rummy with stock-refill limits",
    "ramino": "Italian Ramino, a variant of Classic Rummy",
}
"""The game each preset plays, by its name."""

PRESET_SUMMARIES: dict[str, str] = {
    "basic": "many melds per turn, ace low, the pile turned over when the stock ends, the "
             "winner collects hand points, rummy pays double, match to 100",
    "one-deal": "as basic, but one deal is the whole game and its winner deals the next",
    "classic": "at most one meld per turn (lay-offs unlimited); the match ends when everyone "
               "has dealt once or a total reaches 100",
    "rummy500": "take any pile card with all above it if you use it at once; score melded "
                "cards minus hand; ace high or low; first to 500",
    "limited-stock": "the pile is shuffled into a new stock a limited number of times, then "
                     "stalemate; match past 100 (2-3 players) or 200 (4-6)",
    "ramino": "two decks and four jokers, 8 cards each, an opening of 50, hand points count "
              "against you, past 101 you are out",
}
"""Each preset in one line."""
