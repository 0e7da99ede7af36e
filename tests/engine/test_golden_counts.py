"""Golden counts of legal actions for fixed positions in every preset (like chess perft).

``tests/engine/golden/legal_counts.json`` holds, for each preset, the number of legal actions at
each step of a fixed line of play and perft counts (legal action sequences of length 1 to
5) from a few of its positions; it was made once by ``tests/engine/golden/make_legal_counts.py``,
whose docstring says when to regenerate it (only on a deliberate rule change). A count
that differs is a change in what the engine allows.

The first tests check positions by hand, so that the frozen numbers rest on something a
person verified.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import Card, make_deck
from rummykit.engine import Action, Deal, Layout
from rummykit.rules import PRESETS, Rules, preset

GOLDEN = Path(__file__).parent / "golden"


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_legal_counts", GOLDEN / "make_legal_counts.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_legal_counts", module)
    spec.loader.exec_module(module)
    return module


GEN = _load_generator()
STORED: dict[str, Any] = json.loads((GOLDEN / "legal_counts.json").read_text(encoding="utf-8"))


def layout(rules: Rules, hands: list[str], pile: str, stock_top: str = "") -> Layout:
    """Hands and pile as written; the stock starts with ``stock_top`` (top first), then
    the rest of the deck in card order."""
    hand_cards = [tuple(int(Card.parse(w)) for w in h.split()) for h in hands]
    pile_cards = tuple(int(Card.parse(w)) for w in pile.split())
    top = tuple(int(Card.parse(w)) for w in stock_top.split())
    rest = Counter(int(c) for c in make_deck(rules.decks, rules.jokers))
    rest.subtract(c for h in hand_cards for c in h)
    rest.subtract(pile_cards)
    rest.subtract(top)
    assert all(k >= 0 for k in rest.values()), "a card is used twice"
    stock = top + tuple(c for c in sorted(rest) for _ in range(rest[c]))
    return Layout(tuple(hand_cards), stock, pile_cards)


def texts(actions: list[Action]) -> list[str]:
    return sorted(str(a) for a in actions)


# -- positions checked by hand ---------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("name", ["basic", "one-deal", "classic", "limited-stock"])
def test_draw_phase_has_exactly_two_actions(name: str, seed: int) -> None:
    """A draw with a non-empty stock and pile in the one-deck presets: the stock or the top
    of the pile, nothing else."""
    deal = Deal.start(preset(name), players=2 + seed, dealer=0, seed=seed)
    assert deal.phase == "draw" and deal.stock and deal.pile
    assert texts(deal.legal_actions()) == ["draw pile", "draw stock"]


KNOWN_HAND = "5H 6H 7H 8H 5C 5D 5S 9C KD JS"  # seat 1 plays first (dealer 0)
OTHER_HAND = "AC 2D 3S 4C 6C 7D 8S 10C QC KC"


def known_deal(name: str) -> Deal:
    rules = preset(name)
    return Deal(rules, players=2, dealer=0, seed=0,
                layout=layout(rules, [OTHER_HAND, KNOWN_HAND], "10D", stock_top="2C"))


@pytest.mark.parametrize("name", ["basic", "classic"])
def test_known_hand_melds_counted_by_hand(name: str) -> None:
    """5H 6H 7H 8H gives three runs (5-7, 6-8, 5-8); 5C 5D 5H 5S gives four sets of three
    and one of four: 8 melds; with the 2C drawn, 11 discards; no table: 19 actions."""
    deal = known_deal(name)
    deal.apply("draw stock")
    legal = deal.legal_actions()
    melds = [a for a in legal if a.kind == "meld"]
    assert texts(melds) == sorted([
        "meld 5H 6H 7H", "meld 6H 7H 8H", "meld 5H 6H 7H 8H",
        "meld 5C 5D 5H", "meld 5C 5D 5S", "meld 5C 5H 5S", "meld 5D 5H 5S",
        "meld 5C 5D 5H 5S",
    ])
    assert len([a for a in legal if a.kind == "discard"]) == 11
    assert len(legal) == 19
    # After the run 5H 6H 7H: the set 5C 5D 5S (not in classic: one meld a turn), the 8H
    # laid off on meld 1, and 8 discards.
    deal.apply("meld 5H 6H 7H")
    kept = ["2C", "5C", "5D", "5S", "8H", "9C", "KD", "JS"]
    expected = ["layoff 8H 1"] + [f"discard {c}" for c in kept]
    if name == "basic":
        expected.append("meld 5C 5D 5S")
    assert texts(deal.legal_actions()) == sorted(expected)
    assert len(deal.legal_actions()) == (10 if name == "basic" else 9)


def test_known_hand_after_a_pile_draw() -> None:
    """Taking the 10D from the pile: 8 melds as before, 10 discards (not the 10D)."""
    deal = known_deal("basic")
    deal.apply("draw pile")
    legal = deal.legal_actions()
    assert len(legal) == 8 + 10
    assert Action.parse("discard 10D") not in legal


def test_rummy500_pile_draws_counted_by_hand() -> None:
    """Pile 3C 9D 9S (top last). 3C (taking 9D 9S too) melds with 4C 5C; 9D melds with 9H
    9S or 10D JD; the 9S alone meets only 9H: not usable, so 'draw pile' is refused."""
    rules = preset("rummy500")
    hand = "4C 5C 9H 2D 6D 10D JD 3S 7S KS 8H QH AC"
    other = "2C 6C 7C 8C 10C JC QC KC AD 3D 4D 5D 7D"
    deal = Deal(rules, players=2, dealer=0, seed=0,
                layout=layout(rules, [other, hand], "3C 9D 9S", stock_top="2S"))
    assert texts(deal.legal_actions()) == ["draw pile 3C", "draw pile 9D", "draw stock"]


def test_ramino_opening_counted_by_hand() -> None:
    """Ramino: KD KH KS (30) and QD QH QS (30) open only together. After the kings the
    queens are the only legal action (no discard below 50, no lay-off before opening)."""
    rules = preset("ramino")
    deal = Deal(rules, players=2, dealer=0, seed=0, layout=layout(
        rules, ["2H 3H 4H 6S 7S 8S 9C 10C", "KH KS KD QH QS QD 2C 9D"], "AS", stock_top="5C"))
    deal.apply("draw stock")
    assert len(deal.legal_actions()) == 2 + 9
    deal.apply("meld KD KH KS")
    assert texts(deal.legal_actions()) == ["meld QD QH QS"]
    deal.apply("meld QD QH QS")
    assert texts(deal.legal_actions()) == ["discard 2C", "discard 5C", "discard 9D"]


def test_perft_counts_sequences() -> None:
    """perft(1) is the number of legal actions; perft(2) sums them over the children."""
    deal = known_deal("basic")
    assert GEN.perft(deal, 1) == 2
    # draw stock -> 19 actions (above); draw pile -> 18 actions (above).
    assert GEN.perft(deal, 2) == 19 + 18


def test_stored_counts_agree_with_the_hand_checks() -> None:
    """Golden positions checked by hand: basic's first draw (2 actions; 11 after the
    stock, 10 after the pile, no meld in 5C 9C JC AD 7D QD 5H 9H AS 8S + QS or 4H) and
    rummy500's (the 3H on the pile fits nothing in 5C 6C 7C 9C 10C 8D 4H 7H 2S 6S 9S 10S
    KS: only the stock; then 5C 6C 7C and 14 discards)."""
    basic = STORED["positions"]["basic"]["perft"][0]
    assert basic["step"] == 0 and basic["nodes"][:2] == [2, 21]
    rummy500 = STORED["positions"]["rummy500"]["perft"][0]
    assert rummy500["step"] == 0 and rummy500["nodes"][:2] == [1, 15]


# -- the golden file ---------------------------------------------------------------------


def test_golden_file_covers_every_preset() -> None:
    assert set(STORED["positions"]) == set(PRESETS)
    assert STORED["steps"] == GEN.STEPS and STORED["choice_seed"] == GEN.CHOICE_SEED
    for name, data in STORED["positions"].items():
        assert data["steps"], name
        assert len(data["perft"]) >= 3, name
        for p in data["perft"]:
            # perft(1) at a step is that step's number of legal actions.
            assert p["nodes"][0] == data["steps"][p["step"]][0]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_golden_legal_counts(name: str) -> None:
    stored = STORED["positions"][name]
    found = GEN.compute_one(name)
    for k, (want, got) in enumerate(zip(stored["steps"], found["steps"], strict=False)):
        assert got == want, f"{name}, step {k}: stored {want}, found {got}"
    assert len(found["steps"]) == len(stored["steps"])
    for want, got in zip(stored["perft"], found["perft"], strict=True):
        assert got == want, f"{name}, perft at step {want['step']}: stored {want}, found {got}"
    assert found["result"] == stored["result"]
    assert found == stored
