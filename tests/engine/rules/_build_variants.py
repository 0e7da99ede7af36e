"""Hand-made positions for the rule tests of rummy500, limited-stock and ramino.

A position is written as the hands (one string per seat), the pile (bottom card first, so
the last card is the top) and the cards on top of the stock (top first). Every other card
of the rules' deck goes, in the deck's fixed order, below those on the stock, or with
``rest_to="pile"`` under the pile (so that the stock holds only the chosen cards). With two
decks each card exists twice and there are four jokers (``JK``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rummykit.cards import format_cards, make_deck, parse_cards
from rummykit.engine import Deal, Layout, Match
from rummykit.rules import Rules


def cards(text: str) -> list[int]:
    """The cards of a space-separated string, as ints."""
    return [int(c) for c in parse_cards(text.split())]


def layout(
    rules: Rules, hands: Sequence[str], pile: str, stock_top: str = "", *,
    rest_to: str = "stock",
) -> Layout:
    """An explicit layout: the given hands, pile and stock top, every other card of the
    deck in deck order under the stock (or under the pile with ``rest_to="pile"``)."""
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    left = Counter(deck)
    hand_cards = [cards(h) for h in hands]
    pile_cards = cards(pile)
    top_cards = cards(stock_top)
    for group in (*hand_cards, pile_cards, top_cards):
        for c in group:
            if left[c] == 0:
                raise AssertionError(f"{format_cards([c])} is used more often than the deck has")
            left[c] -= 1
    rest: list[int] = []
    for c in deck:
        if left[c]:
            rest.append(c)
            left[c] -= 1
    if rest_to == "stock":
        stock = top_cards + rest
    elif rest_to == "pile":
        stock = top_cards
        pile_cards = rest + pile_cards
    else:
        raise AssertionError(f"rest_to={rest_to!r}")
    return Layout(tuple(tuple(h) for h in hand_cards), tuple(stock), tuple(pile_cards))


def deal(
    rules: Rules, hands: Sequence[str], pile: str, stock_top: str = "", *,
    dealer: int | None = None, rest_to: str = "stock", seed: int = 0,
) -> Deal:
    """A deal from an explicit layout; by default the last seat deals, so seat 0 starts."""
    players = len(hands)
    return Deal(
        rules, players=players, dealer=players - 1 if dealer is None else dealer,
        layout=layout(rules, hands, pile, stock_top, rest_to=rest_to), seed=seed,
    )


def match(
    rules: Rules, hands: Sequence[str], pile: str, stock_top: str = "", *,
    totals: Sequence[int] | None = None, dealer: int | None = None, rest_to: str = "stock",
    seed: int = 0,
) -> Match:
    """A match whose first deal is an explicit layout, with running totals set beforehand."""
    players = len(hands)
    m = Match(
        rules, players=players, seed=seed,
        first_dealer=players - 1 if dealer is None else dealer,
        layout=layout(rules, hands, pile, stock_top, rest_to=rest_to),
    )
    if totals is not None:
        m.totals[:] = list(totals)
    return m


def play(game: Deal | Match, *actions: str) -> None:
    """Apply several actions (checked)."""
    for action in actions:
        game.apply(action)


def snapshot(d: Deal) -> dict[str, Any]:
    """Everything an illegal action must leave untouched."""
    return {
        "hands": [sorted(h) for h in d.hands],
        "stock": list(d.stock),
        "pile": list(d.pile),
        "table": [(m.kind, m.cards, m.layers, m.owner) for m in d.table],
        "to_move": d.to_move,
        "phase": d.phase,
        "taken": d.taken,
        "pending": d.pending,
        "history": d.history,
        "opened": [d.opened(s) for s in range(d.players)],
        "turn_melds": d.turn_melds,
        "turn_value": d.turn_value,
    }


def _no_shuffle(items: list[Any], rng: object) -> None:
    """Stands for the engine's shuffle when dealing: leaves the deck as it is."""
    return None


def no_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``Deal.start`` deal from the unshuffled deck (AC..KC, AD..KD, AH..KH, AS..KS,
    then the second deck and the jokers), to check the order of the deal itself."""
    import rummykit.engine.layout as layout_module

    monkeypatch.setattr(layout_module, "shuffle", _no_shuffle)


def hand(d: Deal, seat: int) -> str:
    """A seat's hand in notation, sorted (for readable asserts)."""
    return format_cards(sorted(d.hands[seat]))
