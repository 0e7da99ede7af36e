"""A deal's starting position: the shuffle, the dealing and the one check of a layout.

The shuffle (:mod:`rummykit.engine.shuffle`) is the engine's own, written over the
generator's raw bits, so that the same seed deals the same cards on every machine and
every Python version."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rummykit.cards import format_cards, make_deck
from rummykit.engine.shuffle import below, shuffle
from rummykit.errors import RecordError
from rummykit.rules import Rules
from rummykit.words import plural

__all__ = [
    "Layout",
    "below",
    "check_layout",
    "deal_layout",
    "deal_rng",
    "layout_from_deck",
    "refill_rng",
    "seats_from",
    "shuffle",
]


@dataclass(frozen=True, slots=True)
class Layout:
    """A deal's starting position: the hands, the stock (top card first) and the pile
    (bottom card first, so its last card is the top)."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]


# -- randomness ----------------------------------------------------------------------


def deal_rng(seed: int, index: int) -> random.Random:
    """The generator that shuffles deal ``index`` (from 0) of a match with this seed."""
    return random.Random(f"rummykit/deal/{seed}/{index}")


def refill_rng(seed: int, index: int, refill: int) -> random.Random:
    """The generator that shuffles refill ``refill`` (from 0) of deal ``index``."""
    return random.Random(f"rummykit/refill/{seed}/{index}/{refill}")


def dealer_rng(seed: int) -> random.Random:
    """The generator that picks the first dealer where the rules pick one at random."""
    return random.Random(f"rummykit/dealer/{seed}")


# -- dealing -------------------------------------------------------------------------


def seats_from(dealer: int, players: int, active: Sequence[bool] | None = None) -> list[int]:
    """Active seats clockwise, starting left of the dealer."""
    order = [(dealer + k) % players for k in range(1, players + 1)]
    return [s for s in order if active is None or active[s]]


def deal_layout(
    rules: Rules, players: int, dealer: int, seed: int, index: int,
    active: Sequence[bool] | None = None,
) -> Layout:
    """The layout the engine deals from a seed: shuffle the deck, then deal one card at a
    time clockwise from the dealer's left, then turn one card face up to start the pile;
    the rest is the stock."""
    deck = list(_deck_codes(rules.decks, rules.jokers))
    shuffle(deck, deal_rng(seed, index))
    return _dealt(rules, players, dealer, deck, active)


def layout_from_deck(
    rules: Rules, players: int, dealer: int, deck: Sequence[int],
    active: Sequence[bool] | None = None,
) -> Layout:
    """The layout dealt from ``deck`` in this order (its first card dealt first): one card
    at a time clockwise from the dealer's left, then one card face up to start the pile;
    the rest is the stock, its top the card after the pile's. ``deck`` must be the rules'
    whole deck (a ValueError otherwise)."""
    if sorted(deck) != _sorted_deck(rules.decks, rules.jokers):
        raise ValueError(f"not this rules' deck: {len(deck)} cards, "
                         f"{rules.deck_size} expected, each card as many times as it has copies")
    return _dealt(rules, players, dealer, deck, active)


def _dealt(rules: Rules, players: int, dealer: int, deck: Sequence[int],
           active: Sequence[bool] | None) -> Layout:
    """The dealing of :func:`deal_layout` and :func:`layout_from_deck` (the deck not
    checked)."""
    seats = seats_from(dealer, players, active)
    size = rules.hand_size_for(len(seats))
    # One card at a time clockwise: the k-th seat dealt to gets every len(seats)-th card
    # from the k-th on.
    count = len(seats)
    top = count * size
    hands: list[tuple[int, ...]] = [()] * players
    for k, seat in enumerate(seats):
        hands[seat] = tuple(deck[k:top:count])
    return Layout(tuple(hands), tuple(deck[top + 1:]), (deck[top],))


@cache
def _deck_codes(decks: int, jokers: int) -> tuple[int, ...]:
    """The card codes of a fresh deck, in its order (shared: never changed)."""
    return tuple(int(c) for c in make_deck(decks, jokers))


@cache
def _sorted_deck(decks: int, jokers: int) -> list[int]:
    """The card codes of a deck, sorted (shared: never changed)."""
    return sorted(_deck_codes(decks, jokers))


def check_layout(
    rules: Rules, layout: Layout, *, players: int, active: Sequence[bool] | None = None
) -> None:
    """Raise :class:`RecordError` unless ``layout`` is the rules' deck dealt to these seats.

    A hand per seat, of the size the rules deal to the number of seats in play (empty for
    a seat out of the match; without ``active``, the seats holding cards are the ones in
    play), at least one card face up on the pile, and every card of the deck exactly once
    (twice for each twin with two decks). Deals and records both check their layouts here.
    """
    if len(layout.hands) != players:
        raise RecordError(f"the layout has {plural(len(layout.hands), 'hand')} for "
                          f"{plural(players, 'player')}")
    playing = tuple(active) if active is not None else tuple(bool(h) for h in layout.hands)
    if sum(playing) < 2:
        raise RecordError("the layout deals cards to fewer than two players")
    size = rules.hand_size_for(sum(playing))
    for seat, hand in enumerate(layout.hands):
        want = size if playing[seat] else 0
        if len(hand) != want:
            raise RecordError(
                f"hand {seat + 1} has {plural(len(hand), 'card')}; the rules deal {want}"
            )
    if not layout.pile:
        raise RecordError("the layout's pile is empty: the deal turns up one card to start it")
    every = [*layout.stock, *layout.pile]
    for hand in layout.hands:
        every += hand
    every.sort()
    if every != _sorted_deck(rules.decks, rules.jokers):
        deck = Counter(_deck_codes(rules.decks, rules.jokers))
        cards = Counter(every)
        extra = sorted((cards - deck).elements())
        missing = sorted((deck - cards).elements())
        what = (f"{format_cards(extra[:5])} too often" if extra
                else f"{format_cards(missing[:5])} missing")
        raise RecordError(f"the layout is not the deck: {what}")
