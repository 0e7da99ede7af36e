"""rummykit: Rummy rules engine, records, bots and front ends."""

from rummykit.cards import Card
from rummykit.errors import (
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
    RummyError,
)
from rummykit.rules import PRESETS, Rules, preset

__all__ = [
    "PRESETS",
    "Card",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "Rules",
    "RulesError",
    "RummyError",
    "preset",
]

__version__ = "0.1.0"
