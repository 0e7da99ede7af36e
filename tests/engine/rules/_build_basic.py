"""Hand-made positions for the rule tests of seeds 000 (basic), 001 (one-deal) and 002
(classic).

A position is written as the hands (one string per seat), the pile (bottom card first, so
its last card is the top) and the cards on top of the stock (top first). Every other card
of the 52 goes below them on the stock in the deck's fixed order (clubs A-K, diamonds,
hearts, spades), so every layout is exactly the deck and every test is reproducible.

The "winning hand" positions give one seat the hearts from the ace up and the KD: with the
next heart from the stock that seat goes out either at once (rummy: one meld of all its
hearts, discard KD) or in two turns (meld AH 2H 3H and throw the card drawn, then lay the
other hearts off on that meld and discard KD). Both plans need one meld per turn only, so
they are legal in every preset of these seeds. The other seats just draw from the stock
and throw the card back (always legal), so their hands are scored as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rummykit.cards import RANK_NAMES, format_cards, make_deck, parse_cards
from rummykit.engine import Action, Deal, Layout, Match
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules

SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""Cards dealt by player count in seeds 000, 001 (two players: 10) and 002."""
# Seat 1's winning hand of the several-melds positions, and a seat-0 hand that shares no card
# with it, the 2S pile or the QS / KS stock tops.
MELDS3 = "2H 3H 4H 5C 5D 5S 9S 10S JS KD"
OTHER = "AC 7D JC QD KH 10D 8C 6S 3C 4D"  # 69 points


def cards(text: str) -> list[int]:
    """The cards of a space-separated string, as ints."""
    return [int(c) for c in parse_cards(text.split())]


def names(seq: Sequence[int]) -> str:
    return format_cards(seq)


def layout(rules: Rules, hands: Sequence[str], pile: str, stock_top: str = "") -> Layout:
    """The given hands, pile (bottom first) and stock top (top first); every other card of
    the deck under the stock in deck order."""
    hand_cards = [cards(h) for h in hands]
    pile_cards = cards(pile)
    top = cards(stock_top)
    used = [c for h in hand_cards for c in h] + pile_cards + top
    twice = sorted({c for c in used if used.count(c) > 1})
    if twice:
        raise AssertionError(f"used twice in the position: {names(twice)}")
    rest = [int(c) for c in make_deck(rules.decks, rules.jokers) if int(c) not in used]
    return Layout(tuple(tuple(h) for h in hand_cards), tuple(top + rest), tuple(pile_cards))


def deal_from(
    rules: Rules, hands: Sequence[str], pile: str, stock_top: str = "", *, dealer: int = 0
) -> Deal:
    """A deal from an explicit position (seat (dealer + 1) mod n moves first)."""
    return Deal(rules, players=len(hands), dealer=dealer,
                layout=layout(rules, hands, pile, stock_top), seed=0)


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything an action could change."""
    return (
        [list(h) for h in deal.hands], list(deal.stock), list(deal.pile), list(deal.table),
        deal.to_move, deal.phase, deal.taken, len(deal.history), deal.turn_overs_used,
        deal.result,
    )


def assert_refused(deal: Deal, action: str, reason: str) -> IllegalActionError:
    """``action`` raises IllegalActionError whose message contains ``reason`` (a regex),
    is not among the legal actions, and leaves the deal exactly as it was."""
    before = snapshot(deal)
    parsed = Action.parse(action)
    assert parsed not in deal.legal_actions()
    assert not deal.can(parsed)
    with pytest.raises(IllegalActionError, match=reason) as info:
        deal.apply(parsed)
    assert snapshot(deal) == before
    return info.value


def assert_legal(deal: Deal, action: str) -> None:
    """``action`` is listed among the legal actions and ``can`` says yes (not played)."""
    parsed = Action.parse(action)
    assert deal.can(parsed)
    assert parsed in deal.legal_actions()


def current(target: Deal | Match) -> Deal:
    return target.deal if isinstance(target, Match) else target


def pass_turn(target: Deal | Match) -> int:
    """The player to move draws from the stock and throws that card back; returns it."""
    target.apply("draw stock")
    deal = current(target)
    drawn = deal.hands[deal.to_move][-1]
    target.apply(Action("discard", (drawn,)))
    return drawn


# -- the winning-hand positions ---------------------------------------------------------


def winner_hand(size: int) -> tuple[str, str]:
    """The winner's hand for a hand size (hearts A up to size-1, and the KD) and the heart
    that completes it."""
    hearts = [f"{RANK_NAMES[r]}H" for r in range(1, size)]
    return " ".join([*hearts, "KD"]), f"{RANK_NAMES[size]}H"


def winning_layout(
    rules: Rules, *, players: int, dealer: int, winner: int, losers: Sequence[str],
    rummy: bool, pile: str = "2S",
) -> Layout:
    """A position in which ``winner`` goes out by :func:`play_win`.

    ``losers`` are the other hands clockwise from the winner's left. The stock holds one
    filler card for each pass before the winner goes out, then the heart he needs.
    """
    size = rules.hand_size_for(players)
    win, out_card = winner_hand(size)
    hands = [""] * players
    hands[winner] = win
    others = [(winner + k) % players for k in range(1, players)]
    for seat, hand in zip(others, losers, strict=True):
        hands[seat] = hand
    starter = (dealer + 1) % players
    before = (winner - starter) % players
    fillers_needed = before + (0 if rummy else players)
    used = set(cards(" ".join([*hands, pile, out_card])))
    fillers = [c for c in range(52) if c not in used][:fillers_needed]
    stock_top = " ".join([names(fillers), out_card]).strip()
    return layout(rules, hands, pile, stock_top)


def play_win(target: Deal | Match, winner: int, *, rummy: bool) -> None:
    """Play a :func:`winning_layout` deal until ``winner`` goes out (see the module doc)."""
    deal = current(target)
    while deal.to_move != winner:
        pass_turn(target)
    size = len(deal.hands[winner])
    hearts = [f"{RANK_NAMES[r]}H" for r in range(1, size + 1)]
    if rummy:
        target.apply("draw stock")
        target.apply("meld " + " ".join(hearts))
        target.apply("discard KD")
        return
    drawn = pass_turn_with_meld(target, "meld AH 2H 3H")
    assert drawn not in cards(" ".join(hearts))
    for _ in range(deal.players - 1):
        pass_turn(target)
    target.apply("draw stock")
    for heart in hearts[3:]:
        target.apply(f"layoff {heart} 1")
    target.apply("discard KD")


def pass_turn_with_meld(target: Deal | Match, meld: str) -> int:
    """Draw from the stock, lay ``meld``, throw back the card drawn; return it."""
    target.apply("draw stock")
    deal = current(target)
    drawn = deal.hands[deal.to_move][-1]
    target.apply(meld)
    target.apply(Action("discard", (drawn,)))
    return drawn


# Ten-card losing hands for two players (none holds a heart from A to 10, the KD or 2S).
LOSER_69 = "AC 7D JC QD KH 10D 8C 6S 3C 4D"
LOSER_100 = "JC JD JS QC QD QS KC KH KS 10C"
LOSER_99 = "JC JD JS QC QD QS KC KH KS 9C"
# Seven-card losing hands for three or four players (no heart from A to 7, no KD or 2S).
LOW_A = "AC 2C 3D AS 2D 3S 4C"  # 16
LOW_B = "4D 5C 5D 4S 6C 6D 5S"  # 35
LOW_C = "7C 8C 9C 10C 7D 8D 9D"  # 58


def playing(
    rules: Rules, hand: str, *, other: str, pile: str = "2S", draw: str = "KS"
) -> Deal:
    """Two players, dealer 0: seat 1 holds ``hand`` and has just drawn ``draw`` from the
    stock; seat 0 holds ``other``."""
    deal = deal_from(rules, [other, hand], pile, draw)
    deal.apply("draw stock")
    return deal
