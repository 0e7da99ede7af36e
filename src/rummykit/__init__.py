"""rummykit: Rummy rules engine, records, bots and front ends.

``rummykit.review(record, budget=...)`` reviews a match (:func:`rummykit.analysis.review`);
it is imported when first asked for, so ``import rummykit`` stays light.
"""

from typing import TYPE_CHECKING, Any

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
    "review",
]

__version__ = "0.1.0"

if TYPE_CHECKING:
    from rummykit.analysis import review


def __getattr__(name: str) -> Any:
    # The review needs the bots: imported on first use only.
    if name == "review":
        from rummykit.analysis import review

        return review
    raise AttributeError(f"module 'rummykit' has no attribute {name!r}")
