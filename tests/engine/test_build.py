"""What the compiled build (setup.py, ``make test``) could change: how a deal is copied.

A deal is copied two ways, by allocating it without the constructor (Python) or through
the constructor's blank path (compiled, where that is the only way); both must give a
deal that plays on exactly as the original and shares nothing changeable with it. This
file runs in the engine's suite against both builds.
"""

from __future__ import annotations

import copy
import importlib.machinery
import pickle
import random
import sys

import pytest

import rummykit.engine.deal as deal_module
from rummykit.engine import Deal, Match, determinize
from rummykit.engine.views import view
from rummykit.rules import PRESETS, preset


def test_the_module_knows_whether_it_runs_compiled() -> None:
    compiled = (deal_module.__file__ or "").endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert deal_module.COMPILED is compiled


SLOTS = deal_module._FIELDS
"""Every attribute of a deal (a compiled class has no ``__slots__`` to read)."""


def state(deal: Deal) -> dict[str, object]:
    """Everything a deal holds, by attribute (the move log as its moves; what is kept only
    to be faster left out)."""
    out = {name: getattr(deal, name) for name in SLOTS
           if name not in ("_log", "_moves", "_tracker", "_positions", "_turn_key", "_fits",
                           "_melds")}
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


def played(name: str, seed: int, moves: int) -> Match:
    """A match of ``name`` after ``moves`` random actions (fewer if it ends first)."""
    rng = random.Random(seed)
    match = Match(preset(name), players=2 + seed % 3, seed=seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.push(rng.choice(match.deal.legal_actions()))
    return match


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_deals_matches_and_knowledge_survive_pickle_and_deepcopy(name: str, how: str) -> None:
    """What worker processes and copied environments carry: a long deal (longer than the
    interpreter's recursion limit would allow link by link), a match with finished deals,
    an imagined deal of the information-set API, a seat's knowledge."""

    def again(value: object) -> object:
        return pickle.loads(pickle.dumps(value)) if how == "pickle" else copy.deepcopy(value)

    for seed, moves in ((1, 40), (2, 1500)):
        match = played(name, seed, moves)
        deal = match.deal
        world = determinize(view(match, deal.to_move), random.Random(seed))
        for original in (deal, world, *match.finished):
            restored = again(original)
            assert isinstance(restored, Deal)
            assert state(restored) == state(original)
            if not original.is_over:
                action = original.legal_actions()[0]
                assert restored.legal_actions() == original.legal_actions()
                restored.push(action)
                original.push(action)
                assert state(restored) == state(original)
        matched = again(match)
        assert isinstance(matched, Match)
        assert matched.totals == match.totals and len(matched.finished) == len(match.finished)
        assert state(matched.deal) == state(match.deal)
        knowledge = match.deal.knowledge(0)
        assert again(knowledge) == knowledge


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_deal_whose_record_holds_more_changes_than_the_recursion_limit_survives(
        how: str) -> None:
    """The public record keeps the changes of the known cards as a chain, newest first;
    a deal of many draws from the pile makes it longer than the interpreter's recursion
    limit, and a pickle or a deep copy of the deal (or of a match holding it) still
    carries it whole: the same known cards, the same changes, and the same play after."""
    limit = sys.getrecursionlimit()
    rng = random.Random(6)
    match = Match(preset("basic"), players=2, seed=6)
    deal = match.deal
    record = deal.public_record()
    while record.change_count <= limit:
        assert not deal.is_over, "the deal ended before its record was long enough"
        legal = deal.legal_actions()
        pile = [a for a in legal if a.kind == "draw-pile"]
        match.push(pile[0] if pile and rng.random() < 0.9 else rng.choice(legal))
        record = deal.public_record()

    def again(value: object) -> object:
        return pickle.loads(pickle.dumps(value)) if how == "pickle" else copy.deepcopy(value)

    restored = again(deal)
    matched = again(match)
    assert isinstance(restored, Deal) and isinstance(matched, Match)
    for other in (restored, matched.deal):
        theirs = other.public_record()
        assert theirs.change_count == record.change_count
        assert theirs.known_changes(0) == record.known_changes(0)
        assert other.known_cards() == deal.known_cards()
        assert state(other) == state(deal)
    while not deal.is_over:
        action = rng.choice(deal.legal_actions())
        for game in (deal, restored, matched.deal):
            game.push(action)
            assert game.known_cards() == deal.known_cards()
    assert restored.result == deal.result == matched.deal.result
