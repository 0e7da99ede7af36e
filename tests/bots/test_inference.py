"""The master's inference: what it reads of the opponents' pile events, and that it reads
nothing hidden.

The pile events are checked against a record kept while the deal is played (the card on
top of the pile when a player drew from the stock, the card a player took, the card it
threw, and how many turns it has played since), written apart from the inference, which
must find the same from the public history of a view alone.
"""

from __future__ import annotations

import random

import pytest

from rummykit.bots import make_bot
from rummykit.bots.inference import (
    CARD_FEATURES,
    CARD_WEIGHTS,
    FEATURES,
    WEIGHTS,
    card_features,
    card_odds,
    observations,
    out_of_play,
)
from rummykit.cards import card
from rummykit.engine import Deal, determinize
from rummykit.engine.views import view
from rummykit.rules import Rules


def _played_events(rules: Rules, seed: int, stop_at: int
                   ) -> tuple[Deal, list[list[tuple[int, str, int]]]]:
    """Play ``stop_at`` actions of expert play, recording each seat's pile events as
    (turn number, kind, card) while they happen; then each event's age in turns."""
    deal = Deal.start(rules, players=2, dealer=0, seed=seed)
    bots = [make_bot("expert"), make_bot("expert")]
    rng = random.Random(seed)
    record: list[list[tuple[int, str, int]]] = [[], []]
    turns = [0, 0]
    while not deal.is_over and deal.move_count < stop_at:
        seat = deal.to_move
        action = bots[seat].choose(view(deal, seat), rng)
        top = deal.pile[-1] if deal.pile else None
        if action.kind == "draw-stock" and top is not None:
            record[seat].append((turns[seat], "declined", int(top)))
        elif action.kind == "draw-pile" and top is not None:
            record[seat].append((turns[seat], "took", int(top)))
        elif action.kind == "discard":
            record[seat].append((turns[seat], "discarded", int(action.cards[0])))
            turns[seat] += 1
        deal.push(action)
    aged = [[(max(turns[s] - 1 - t, 0) if kind != "discarded" else turns[s] - 1 - t, kind, c)
             for t, kind, c in reversed(events)] for s, events in enumerate(record)]
    return deal, aged


@pytest.mark.parametrize("seed", range(12))
def test_pile_events_match_a_record_kept_during_play(seed: int) -> None:
    """classic (seed: one pile, its top may be drawn): every discard, pile draw and pass
    of the top card, latest first, with its age in the player's turns."""
    rules = Rules.parse("classic")
    for stop_at in (9, 25, 41):
        deal, expected = _played_events(rules, seed, stop_at)
        if deal.is_over or any(index >= 0 for index, _ in view(deal, 0).events):
            continue  # a turned-over stock resets the pile (the inference stops there)
        seen = observations(view(deal, deal.to_move))
        assert [list(e) for e in seen.events] == expected
        assert list(seen.turns) == [
            sum(1 for s, a in deal.moves if s == seat and a.kind == "discard")
            for seat in range(2)]


def test_card_features_count_a_latest_discard_of_the_same_rank() -> None:
    rules = Rules.parse("classic")
    deal, _ = _played_events(rules, 3, 25)
    seen = observations(view(deal, 0))
    age, kind, thrown = next(e for e in seen.events[1] if e[1] == "discarded")
    assert kind == "discarded"
    same_rank = (thrown + 13) % 52
    f = dict(zip(CARD_FEATURES, card_features(same_rank, 1, seen, (), rules),
                 strict=True))
    when = "latest" if age == 0 else "recent" if age <= 2 else "older"
    assert f[f"discarded_rank_{when}"] >= 1


def test_card_features_see_what_is_out_of_play() -> None:
    """A card whose other three of its rank are out of play can make no set; an ace
    (low aces only, classic) is in one run of three at most, a 7 in three."""
    rules = Rules.parse("classic")
    deal, _ = _played_events(rules, 1, 5)
    seen = observations(view(deal, 0))
    seven = card("7H")
    out = {card("7S"), card("7D"), card("7C")}
    f = dict(zip(CARD_FEATURES, card_features(seven, 1, seen, (), rules, (), out),
                 strict=True))
    assert f["live_sets"] == 0
    assert f["live_runs"] == 3
    out_runs = {card("6H"), card("9H")}
    f = dict(zip(CARD_FEATURES, card_features(seven, 1, seen, (), rules, (), out_runs),
                 strict=True))
    assert f["live_runs"] == 0
    assert f["live_sets"] == 3
    ace = dict(zip(CARD_FEATURES, card_features(card("AH"), 1, seen, (), rules),
                   strict=True))
    assert ace["live_runs"] == 1
    high = Rules.parse("classic(aces=high-low)")
    ace = dict(zip(CARD_FEATURES, card_features(card("AH"), 1, seen, (), high),
                   strict=True))
    assert ace["live_runs"] == 2


def test_out_of_play_is_what_the_seat_sees_cannot_be_melded() -> None:
    rules = Rules.parse("classic")
    deal, _ = _played_events(rules, 2, 30)
    v = view(deal, 0)
    out = out_of_play(v)
    assert set(v.hand) <= out
    assert all(c in out for m in v.melds for c in m.cards)
    if v.knowledge.pile:
        assert v.knowledge.pile[-1] not in out or v.knowledge.pile[-1] in v.hand
    assert not out & set(deal.hands[1]) - set(v.hand)


def test_every_feature_has_its_weight() -> None:
    assert len(CARD_WEIGHTS) == len(CARD_FEATURES)
    assert len(WEIGHTS) == len(FEATURES)
    assert len(set(CARD_FEATURES)) == len(CARD_FEATURES)


@pytest.mark.parametrize("preset_name", ["classic", "rummy500", "ramino"])
def test_card_odds_do_not_depend_on_hidden_cards(preset_name: str) -> None:
    """Two deals that differ only in the cards seat 0 cannot see give the same odds."""
    rules = Rules.parse(preset_name)
    deal = Deal.start(rules, players=2, dealer=0, seed=11)
    bots = [make_bot("expert"), make_bot("expert")]
    rng = random.Random(4)
    while not deal.is_over and deal.move_count < 30:
        deal.push(bots[deal.to_move].choose(view(deal, deal.to_move), rng))
    v = view(deal, 0)
    other = determinize(v, random.Random(99))
    assert other.hands[1] != deal.hands[1] or other.stock != deal.stock
    assert card_odds(view(other, 0)) == card_odds(v)
