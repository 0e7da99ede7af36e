"""The engine: actions, the deal state machine, the match, and what each seat knows."""

from rummykit.engine.actions import DRAW_PILE, DRAW_STOCK, END, KINDS, Action, ActionKind
from rummykit.engine.deal import Deal, Event, LegalActions, Phase
from rummykit.engine.knowledge import Hidden, Knowledge
from rummykit.engine.layout import Layout, check_layout, deal_layout, shuffle
from rummykit.engine.match import Match
from rummykit.engine.sampling import determinize
from rummykit.engine.scoring import ENDINGS, DealEnd, DealResult, describe_end

__all__ = [
    "DRAW_PILE",
    "DRAW_STOCK",
    "END",
    "ENDINGS",
    "KINDS",
    "Action",
    "ActionKind",
    "Deal",
    "DealEnd",
    "DealResult",
    "Event",
    "Hidden",
    "Knowledge",
    "Layout",
    "LegalActions",
    "Match",
    "Phase",
    "check_layout",
    "deal_layout",
    "describe_end",
    "determinize",
    "shuffle",
]
