"""What the compiled build (setup.py, ``make test``) could change: how a deal is copied.

A deal is copied two ways, by allocating it without the constructor (Python) or through
the constructor's blank path (compiled, where that is the only way); both must give a
deal that plays on exactly as the original and shares nothing changeable with it. This
file runs in the engine's suite against both builds.
"""

from __future__ import annotations

import ast
import importlib.machinery
import random
from pathlib import Path

import pytest

import rummykit.engine.deal as deal_module
from rummykit.engine import Deal
from rummykit.rules import PRESETS, preset


def test_the_module_knows_whether_it_runs_compiled() -> None:
    compiled = (deal_module.__file__ or "").endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert deal_module.COMPILED is compiled


def deal_slots() -> list[str]:
    """The attributes of a deal, as its class lists them in its source (a compiled class
    has no ``__slots__`` to read)."""
    source = Path(__file__).parent.parent / "src" / "rummykit" / "engine" / "deal.py"
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ClassDef) and node.name == "Deal":
            for statement in node.body:
                if (isinstance(statement, ast.Assign)
                        and ast.unparse(statement.targets[0]) == "__slots__"):
                    names: list[str] = ast.literal_eval(statement.value)
                    return names
    raise AssertionError("Deal lists no __slots__")


SLOTS = deal_slots()


def state(deal: Deal) -> dict[str, object]:
    """Everything a deal holds, by attribute (the move log as its moves; what is kept only
    to be faster left out)."""
    out = {name: getattr(deal, name) for name in SLOTS
           if name not in ("_log", "_tracker", "_positions", "_turn_key")}
    out["moves"] = deal.moves
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_copy_plays_on_as_the_original_and_shares_nothing_it_changes(name: str) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        deal = Deal.start(preset(name), players=2 + seed % 3, dealer=0, seed=seed)
        for _ in range(rng.randrange(0, 60)):
            if deal.is_over:
                break
            deal.push(rng.choice(deal.legal_actions()))
        before = state(deal)
        copy = deal.copy()
        assert state(copy) == before
        # The copy plays to the end; the original is untouched, then plays the same moves.
        moves = []
        while not copy.is_over:
            legal = copy.legal_actions()
            moves.append(rng.choice(legal))
            copy.push(moves[-1])
        assert state(deal) == before
        for action in moves:
            assert action in deal.legal_actions()
            deal.push(action)
        assert state(deal) == state(copy)
        assert deal.result == copy.result
