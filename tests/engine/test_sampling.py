"""determinize never deals a player in the middle of his turn a hand that cannot finish it.

RULES.md, "What any engine of these rules must get right", No dead ends: an action is legal
only if the player can still finish the turn after it; a rummy500 pile draw whose card
cannot be melded or laid off this turn is refused (seed 003, rummy500: the pile card taken
must be used), and so is a ramino meld after which the opening turn can no longer reach
50 (seed 002, ramino: the first melding turn's melds are worth 50 or more). So a player
who has drawn from the pile, or laid the first meld of his opening, holds a hand that can
finish the turn, and every seat saw the engine accept it: an imagined deal must agree.

The judge of "can finish" is the independent model of the turn in ``oracle/_oracle.py``
(written from RULES.md, brute force over every meld and lay-off; it never asks the
engine), not the engine's own search. Each position is written out card by card; the
"before" count deals the hidden cards uniformly at random (what ``determinize`` did
before it looked at the turn), to show that each position tests something.
"""

from __future__ import annotations

import random

import pytest

from rummykit.cards import make_deck
from rummykit.cards import parse_cards as _parse
from rummykit.engine import Action, Deal, Layout, determinize
from rummykit.engine.views import view
from rummykit.rules import Rules, preset

from .oracle._oracle import Turn, finishable, read_as

SAMPLES = 200


def parse_cards(text: str) -> list[int]:
    return [int(c) for c in _parse(text.split())]


def _deal(rules: Rules, hands: list[str], pile: str, stock_top: str, seed: int) -> Deal:
    """A 2-player deal with these hands (seat 0, seat 1), pile and top of the stock; the
    rest of the deck in the stock in a seeded order. Seat 1 plays first (dealer 0)."""
    held = [parse_cards(h) for h in hands]
    shown = [*parse_cards(pile), *parse_cards(stock_top)]
    rest = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    for c in [c for h in held for c in h] + shown:
        rest.remove(int(c))
    random.Random(seed).shuffle(rest)
    layout = Layout(tuple(tuple(int(c) for c in h) for h in held),
                    (*(int(c) for c in parse_cards(stock_top)), *rest),
                    tuple(int(c) for c in parse_cards(pile)))
    return Deal(rules, players=2, dealer=0, layout=layout)


def _turn(deal: Deal) -> Turn:
    """The oracle's turn of the player to move, read from the position."""
    rules = deal.rules
    seat = deal.to_move
    table = tuple(read_as(m.cards, m.kind, rules) for m in deal.table)
    assert all(r is not None for r in table)
    opening_due = bool(rules.opening) and (deal.turn_value > 0 or not deal.opened(seat))
    pile_card = deal.pending if deal.pending >= 0 else (deal.taken if deal.taken >= 0
                                                        else None)
    return Turn(hand=tuple(sorted(deal.hands[seat])), table=table,  # type: ignore[arg-type]
                melds=deal.turn_melds, value=deal.turn_value if opening_due else None,
                taken=pile_card, used_taken=0,
                chosen=deal.pending if deal.pending >= 0 else None)


def _can_finish(deal: Deal) -> bool:
    return finishable(_turn(deal), deal.rules, lenient=True)


def _uniform(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The old way: the cards ``seat`` cannot place dealt uniformly into the hidden places
    (one group here: nothing has been turned over or refilled)."""
    k = view(deal, seat).knowledge
    (group,) = k.hidden
    cards = list(group.cards)
    rng.shuffle(cards)
    world = deal.copy()
    other = 1 - seat
    world.hands[other] = [*k.known[other], *cards[:group.hands[other]]]
    return world


def rummy500_pile_draw() -> Deal:
    """Seed 003 (rummy500): Bruno (seat 1) takes 9H from the pile with 7H 8H in hand; he
    must meld or lay it off this turn, and nothing is on the table yet."""
    deal = _deal(preset("rummy500"),
                 ["2C 5C 9C QC 3D 6D 10D KD 4S 7S JS AS 2H",
                  "7H 8H 3C 6C 10C KC 4D 7D JD 5S 8S QS KH"],
                 pile="9H", stock_top="", seed=1)
    deal.apply("draw pile")
    assert deal.pending == int(parse_cards("9H")[0]) and deal.phase == "play"
    return deal


def ramino_opening() -> Deal:
    """Seed 002 (ramino): Bruno (seat 1) draws QC and lays AC 2C 3C (6 points) as the first
    meld of his opening; his KS KH KD and QH QD QC (60 more) reach the 50 this turn."""
    deal = _deal(preset("ramino"),
                 ["4D 5S 7S 9H 10H JC 2D 8D", "AC 2C 3C KS KH KD QH QD"],
                 pile="6H", stock_top="QC", seed=2)
    deal.apply("draw stock")
    deal.apply("meld AC 2C 3C")
    assert deal.turn_value == 6 and not deal.opened(1)
    return deal


POSITIONS = {"rummy500 pile draw": rummy500_pile_draw, "ramino opening": ramino_opening}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_player_mid_turn_can_finish_it_in_every_imagined_deal(name: str) -> None:
    deal = POSITIONS[name]()
    assert _can_finish(deal)  # the real hand can (the oracle agrees with the engine)
    seat = 1 - deal.to_move
    rng = random.Random(7)
    before = sum(not _can_finish(_uniform(deal, seat, rng)) for _ in range(SAMPLES))
    v = view(deal, seat)
    after = 0
    for _ in range(SAMPLES):
        world = determinize(v, rng)
        assert sorted(world.hands[seat]) == sorted(deal.hands[seat])
        assert len(world.hands[1 - seat]) == len(deal.hands[1 - seat])
        assert world.table == deal.table and world.pile == deal.pile
        after += not _can_finish(world)
    # Uniform deals break the rule in most samples; determinize in none.
    assert before > SAMPLES // 2, before
    assert after == 0


@pytest.mark.parametrize("name", POSITIONS)
def test_weighted_imagined_deals_respect_the_turn_too(name: str) -> None:
    deal = POSITIONS[name]()
    seat = 1 - deal.to_move
    v = view(deal, seat)
    # Odds that favour low cards in the mover's hand: the opposite of what finishes it.
    low = {c: 4.0 for c in range(52) if c % 13 < 5}
    odds = [{}, low] if seat == 0 else [low, {}]
    rng = random.Random(3)
    assert not any(not _can_finish(determinize(v, rng, odds=odds)) for _ in range(50))


def test_imagined_deals_keep_every_known_card_where_it_is() -> None:
    """The pile card Bruno took is his in every imagined deal, and the cards of the
    ramino meld he laid are on the table, not dealt again."""
    deal = rummy500_pile_draw()
    nine = int(parse_cards("9H")[0])
    rng = random.Random(5)
    for _ in range(50):
        world = determinize(deal, rng, seat=0)
        assert nine in world.hands[1] and nine not in world.stock
    deal = ramino_opening()
    for _ in range(20):
        world = determinize(deal, rng, seat=0)
        laid = [c for m in world.table for c in m.cards]
        everything = sorted([*world.hands[0], *world.hands[1], *world.stock, *world.pile,
                             *laid])
        assert everything == sorted(int(c) for c in make_deck(2, 4))


def test_a_deal_between_turns_is_dealt_as_before() -> None:
    """Where nobody is in the middle of a turn, nothing is owed: the samples are drawn as
    they always were (the same generator gives the same deal)."""
    deal = Deal.start(preset("classic"), players=2, dealer=0, seed=4)
    a = determinize(deal, random.Random(0), seat=0)
    b = determinize(deal, random.Random(0), seat=0)
    assert a.hands == b.hands and a.stock == b.stock
    deal.apply(Action("draw-stock"))
    # Seat 1 to play: seat 1's own view owes nothing either (its hand is its own).
    world = determinize(deal, random.Random(0), seat=1)
    assert sorted(world.hands[1]) == sorted(deal.hands[1])


def test_cards_the_seat_to_move_is_known_to_hold_are_dealt_to_it() -> None:
    """``holding``: cards the seat to move holds beyond what the view shows (a meld it
    has begun to choose, in a learning environment) are in its hand in every imagined
    deal; the rest of the deck is dealt as before; cards its hidden places cannot take
    are refused."""
    deal = Deal.start(preset("classic"), players=2, dealer=0, seed=4)
    deal.apply(Action("draw-stock"))  # seat 1 to play; seat 0 imagines seat 1's hand
    held = sorted(deal.hands[1])[:3]
    rng = random.Random(2)
    for _ in range(30):
        world = determinize(deal, rng, seat=0, holding=held)
        assert all(world.hands[1].count(c) >= held.count(c) for c in held)
        assert sorted(world.hands[0]) == sorted(deal.hands[0])
        everything = sorted([*world.hands[0], *world.hands[1], *world.stock, *world.pile])
        assert everything == sorted(int(c) for c in make_deck(1, 0))
    mine = deal.hands[0][0]  # seat 0's own card cannot be in seat 1's hand
    with pytest.raises(ValueError, match="cannot hold"):
        determinize(deal, rng, seat=0, holding=[mine])
