"""The six presets, each tied to the rule book it comes from (docs/rules.md)."""

from __future__ import annotations

from rummykit.errors import RulesError
from rummykit.rules.options import Rules

__all__ = ["PRESETS", "PRESET_SOURCES", "preset"]

# Seed 000: basic Rummy. Every default of Rules is this preset's rule.
BASIC = Rules(preset_name="basic")

# Seed 001: one deal is the game; its winner deals the next game. "The dealer gives each
# person 10 cards": 10 for two players; for more, 000's sizes are the default.
ONE_DEAL = Rules(preset_name="one-deal", next_dealer="winner", match_end="one-deal", target=None)

# Seed 002: Classic Rummy. One meld per turn, first dealer at random, match to 100 or
# until everyone has dealt once.
CLASSIC = Rules(
    preset_name="classic",
    first_dealer="random",
    melds_per_turn="one",
    match_end="dealt-once",
)

# Seed 003: 500 Rum. 13 cards for two players, 7 otherwise; any pile card with all above
# it, the chosen card used at once; melded minus hand with the ace 15 (1 low in a run).
RUMMY500 = Rules(
    preset_name="rummy500",
    hand_size=(13, 7, 7, 7, 7),
    aces="high-low",
    draw_pile="any",
    pile_card_must_be_used=True,
    stock_out="end",
    scoring="melded",
    ace_points=15,
    ace_low_run_points=1,
    rummy_multiplier=1,
    target=(500,) * 5,
)

# Seed 004: stock refilled by shuffling a limited number of times, then stalemate; the
# taken discard may be discarded when it is the last card; targets past 100 or 200.
LIMITED_STOCK = Rules(
    preset_name="limited-stock",
    taken_discard="last-card",
    stock_out="refill",
    refills=(1, 1, 1, 2, 3),
    target=(100, 100, 200, 200, 200),
    target_strict=True,
)

# Seed 002, variant "Italian Ramino": two decks and four jokers, eight cards each, an
# opening of 50, hand points as penalties, out past 101.
RAMINO = Rules(
    preset_name="ramino",
    decks=2,
    jokers=4,
    hand_size=(8,) * 5,
    aces="high-low",
    opening=50,
    scoring="penalty",
    ace_points=11,
    ace_low_run_points=1,
    rummy_multiplier=1,
    match_end="elimination",
    target=(101,) * 5,
    target_strict=True,
)

PRESETS: dict[str, Rules] = {
    r.preset_name: r for r in (BASIC, ONE_DEAL, CLASSIC, RUMMY500, LIMITED_STOCK, RAMINO)
}
"""Every preset by name."""

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


def preset(name: str) -> Rules:
    """The preset with this name; an unknown name is an error that lists the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None
