"""The engine: actions, the deal state machine and the match."""

from rummykit.engine.actions import DRAW_PILE, DRAW_STOCK, END, Action
from rummykit.engine.deal import Deal, DealResult, Layout, LegalActions, shuffled_layout
from rummykit.engine.match import Match

__all__ = [
    "DRAW_PILE",
    "DRAW_STOCK",
    "END",
    "Action",
    "Deal",
    "DealResult",
    "Layout",
    "LegalActions",
    "Match",
    "shuffled_layout",
]
