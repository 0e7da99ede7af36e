"""Rules and presets: what varies between the rule books, as data."""

from rummykit.rules.options import OPTION_HELP, PerCount, Rules
from rummykit.rules.presets import PRESET_SOURCES, PRESET_SUMMARIES, PRESETS, preset

__all__ = [
    "OPTION_HELP",
    "PRESETS",
    "PRESET_SOURCES",
    "PRESET_SUMMARIES",
    "PerCount",
    "Rules",
    "preset",
]
