"""Information sets (the engine's knowledge of what one seat knows, and determinized deals).

Each expectation is checked against the real deal the knowledge was taken from (the
ground truth the engine holds) or against simple counting, never against the knowledge
code's own output:

- what a seat is told is true: the cards it "knows" are where the real deal has them, and
  the hidden places hold exactly the cards it is told it cannot place;
- a determinized deal shows the seat exactly its view, keeps every known card where it is
  known to be, deals each hidden card into each hidden place with the expected frequency
  (chi-square, fixed seed), and plays on legally to its end.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from rummykit.cards import parse_cards
from rummykit.engine import Deal, determinize
from rummykit.engine.knowledge import UNKNOWN
from rummykit.engine.views import View, view
from rummykit.rules import Rules, preset

from .rules._build_variants import deal as deal_from
from .rules._build_variants import play

PRESETS = ["basic", "one-deal", "classic", "rummy500", "limited-stock", "ramino"]


def random_deal(rules: Rules, players: int, seed: int, steps: int) -> Deal:
    """A deal after up to ``steps`` actions of seeded random play."""
    deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.push(rng.choice(deal.legal_actions()))
    return deal


def check_true(deal: Deal, seat: int) -> None:
    """What ``seat`` is told agrees with the real deal."""
    k = deal.knowledge(seat)
    assert sorted(k.hand) == sorted(deal.hands[seat])
    assert list(k.pile) == deal.pile
    top_first = deal.stock[::-1]
    assert len(k.stock) == len(top_first)
    unknown_stock = []
    for place, card in enumerate(k.stock):
        if card == UNKNOWN:
            unknown_stock.append(top_first[place])
        else:
            assert card == top_first[place]
    hidden_cards: Counter[int] = Counter(unknown_stock)
    for s in range(deal.players):
        held = Counter(deal.hands[s])
        known = Counter(k.known[s])
        assert not known - held, f"seat {s} is said to hold cards it does not hold"
        if s != seat:
            hidden_cards += held - known
            assert sum(g.hands[s] for g in k.hidden) == sum((held - known).values())
    told: Counter[int] = Counter(c for g in k.hidden for c in g.cards)
    assert told == hidden_cards
    assert Counter(k.unseen) == hidden_cards
    for group in k.hidden:
        assert group.hands[seat] == 0
        assert len(group.cards) == sum(group.hands) + len(group.stock)
    assert sorted(p for g in k.hidden for p in g.stock) == [
        i for i, card in enumerate(k.stock) if card == UNKNOWN]


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_knowledge_is_true_through_random_play(name: str, players: int) -> None:
    rules = preset(name)
    for seed in range(6):
        deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            if rng.random() < 0.2:
                check_true(deal, rng.randrange(players))
            deal.push(rng.choice(deal.legal_actions()))
        for seat in range(players):
            check_true(deal, seat)


def test_knowledge_follows_a_turned_over_stock() -> None:
    """000: the pile is turned over «without shuffling»: everybody saw it, so every stock
    place is known, and a card drawn from it is known to be in the drawer's hand."""
    d = deal_from(preset("basic"), ["AC 7D JC QD KH 10D 8C 6S 3C 4D",
                                    "2H 9H 4H 5C 7C 5S 9S 10S JS KD"], "2S", "3S",
                  rest_to="pile")
    play(d, "draw stock", "discard 3S", "draw stock")
    assert d.turn_overs_used == 1
    k = d.knowledge(0)
    assert UNKNOWN not in k.stock
    drawn = d.hands[1][-1]
    assert drawn in k.known[1]
    assert len(k.unseen) == 10  # seat 1's ten dealt cards: nothing else is hidden
    check_true(d, 0)


def test_knowledge_of_a_refill_is_its_cards_not_their_order() -> None:
    """004: pile cards «are shuffled and turned face down to form the new stock»: every
    player knows which cards are in it, nobody their order."""
    rules = preset("limited-stock")
    for seed in range(300):
        deal = Deal.start(rules, players=2, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over and deal.refills_used == 0:
            deal.push(rng.choice(deal.legal_actions()))
        if deal.refills_used == 1 and not deal.is_over:
            break
    else:
        pytest.fail("no deal of random play reached a refill")
    k = deal.knowledge(0)
    pool = [g for g in k.hidden if g.stock and not any(g.hands)]
    assert pool, "the refilled stock is a group of its own"
    assert Counter(pool[0].cards) == Counter(deal.stock)
    check_true(deal, 0)


# -- determinized deals ----------------------------------------------------------------


def comparable(v: View) -> View:
    """A view with its legal actions in a fixed order (their order follows the hand's)."""
    from dataclasses import replace

    return replace(v, legal_actions=tuple(sorted(v.legal_actions, key=str)))


@pytest.mark.parametrize("name", PRESETS)
def test_determinized_deal_shows_the_seat_its_view(name: str) -> None:
    rules = preset(name)
    for seed in range(8):
        deal = random_deal(rules, 3, seed, 5 + 7 * seed)
        if deal.is_over:
            continue
        for seat in range(3):
            sample = determinize(deal, random.Random(seed), seat=seat)
            assert comparable(view(sample, seat)) == comparable(view(deal, seat))
            k = deal.knowledge(seat)
            assert sample.knowledge(seat) == k
            # Known cards stay where they are known to be.
            for s in range(3):
                assert not Counter(k.known[s]) - Counter(sample.hands[s])
            for place, card in enumerate(k.stock):
                if card != UNKNOWN:
                    assert sample.stock[::-1][place] == card
            assert sample.card_count() == deal.card_count()
            assert Counter(sample.all_cards()) == Counter(deal.all_cards())


def test_determinize_needs_the_whole_history_and_the_right_seat() -> None:
    deal = random_deal(preset("classic"), 2, 1, 12)
    with pytest.raises(ValueError, match="whole history"):
        determinize(view(deal, 0, recent=3), random.Random(0))
    with pytest.raises(ValueError, match="seat"):
        determinize(view(deal, 0), random.Random(0), seat=1)
    with pytest.raises(ValueError, match="seat"):
        determinize(deal, random.Random(0))


def _critical(dof: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    z = 3.0902
    return float(dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3)


def test_determinized_hidden_cards_fill_each_place_uniformly() -> None:
    """Over many samples each card the seat cannot place lands in the opponent's hand with
    probability (its hidden places) / (cards unseen), and at each hidden stock place with
    probability 1 / (cards unseen): a chi-square test over every card and place."""
    deal = random_deal(preset("classic"), 2, 11, 9)
    seat = deal.to_move
    k = deal.knowledge(seat)
    (group,) = k.hidden
    other = 1 - seat
    unseen = list(group.cards)
    places = ["hand"] + [f"stock {p}" for p in group.stock]
    expected = {"hand": group.hands[other] / len(unseen)} | {
        f"stock {p}": 1 / len(unseen) for p in group.stock}
    counts: Counter[tuple[int, str]] = Counter()
    samples = 3000
    v = view(deal, seat)
    rng = random.Random(2024)
    known_other = Counter(k.known[other])
    for _ in range(samples):
        sample = determinize(v, rng)
        for c in (Counter(sample.hands[other]) - known_other).elements():
            counts[c, "hand"] += 1
        top_first = sample.stock[::-1]
        for p in group.stock:
            counts[top_first[p], f"stock {p}"] += 1
    chi2 = 0.0
    for c in set(unseen):
        copies = unseen.count(c)
        for place in places:
            want = samples * copies * expected[place]
            chi2 += (counts[c, place] - want) ** 2 / want
    dof = (len(set(unseen)) - 1) * (len(places) - 1)
    assert chi2 < _critical(dof), (chi2, dof)


@pytest.mark.parametrize("name", PRESETS)
def test_determinized_deal_by_odds_shows_the_seat_its_view(name: str) -> None:
    """Dealt by odds (any odds), the sample still shows the seat exactly its view, the
    known cards stay put and no card is created or lost."""
    rules = preset(name)
    for seed in range(4):
        deal = random_deal(rules, 3, seed, 5 + 7 * seed)
        if deal.is_over:
            continue
        for seat in range(3):
            rng = random.Random(seed)
            odds = [{c: rng.choice([0.01, 1.0, 50.0]) for c in range(53)} for _ in range(3)]
            sample = determinize(deal, rng, seat=seat, odds=odds)
            assert comparable(view(sample, seat)) == comparable(view(deal, seat))
            k = deal.knowledge(seat)
            for s in range(3):
                assert not Counter(k.known[s]) - Counter(sample.hands[s])
            assert Counter(sample.all_cards()) == Counter(deal.all_cards())


def test_determinized_hand_by_odds_follows_the_odds() -> None:
    """Five hidden cards given odds 3 (the others 1) land in the opponent's hand far more
    often than their uniform chance (about 2.2 times here; at least 1.8 asked), every
    other card less often; odds for the wrong number of seats are an error."""
    deal = random_deal(preset("classic"), 2, 11, 9)
    seat = deal.to_move
    other = 1 - seat
    k = deal.knowledge(seat)
    (group,) = k.hidden
    unseen = sorted(set(group.cards))
    favoured = unseen[:5]
    odds: list[dict[int, float]] = [{}, {}]
    odds[other] = {c: 3.0 for c in favoured}
    v = view(deal, seat)
    rng = random.Random(7)
    samples = 3000
    known_other = Counter(k.known[other])
    hits = Counter[int]()
    for _ in range(samples):
        sample = determinize(v, rng, odds=odds)
        hits.update((Counter(sample.hands[other]) - known_other).elements())
    places = group.hands[other]
    uniform = places / len(unseen)
    for c in unseen:
        rate = hits[c] / samples
        if c in favoured:
            assert rate > uniform * 1.8, (c, rate, uniform)
        else:
            assert rate < uniform, (c, rate, uniform)
    with pytest.raises(ValueError, match="odds for 3 seats"):
        determinize(v, rng, odds=[{}, {}, {}])


@pytest.mark.parametrize("name", PRESETS)
def test_determinized_deal_plays_on_legally_to_its_end(name: str) -> None:
    rules = preset(name)
    for seed in range(6):
        deal = random_deal(rules, 2 + seed % 3, seed, 3 + 11 * seed)
        if deal.is_over:
            continue
        seat = deal.to_move
        sample = determinize(deal, random.Random(seed), seat=seat)
        rng = random.Random(seed)
        total = sample.card_count()
        while not sample.is_over:
            legal = sample.legal_actions()
            assert legal
            action = rng.choice(legal)
            sample.verify(action)
            sample.push(action)
            assert sample.card_count() == total
            for s in range(sample.players):
                check_true(sample, s)
        assert sample.result is not None


def test_determinized_deal_does_not_carry_the_real_seed_or_layout() -> None:
    """The sample must not hold what the seat may not see: not the seed the stock was
    shuffled with (a later refill would give the real order away) nor the dealt layout."""
    deal = random_deal(preset("limited-stock"), 2, 7, 6)
    sample = determinize(deal, random.Random(1), seat=deal.to_move)
    assert sample.seed != deal.seed
    assert sample.layout != deal.layout


def test_known_cards_of_a_pile_draw() -> None:
    """000: a player who takes the top discard is seen taking it: every other seat knows
    he holds it until he melds, lays off or discards it."""
    d = deal_from(preset("basic"), ["AC 7D JC QD KH 10D 8C 6S 3C 4D",
                                    "2H 9H 4H 5C 7C 5S 9S 10S JS KD"], "2S")
    play(d, "draw pile", "discard KH")
    assert d.knowledge(1).known[0] == tuple(int(c) for c in parse_cards(["2S"]))
    play(d, "draw pile", "discard KD", "draw stock", "discard 2S")
    assert d.knowledge(1).known[0] == ()
    assert d.knowledge(0).known[1] == tuple(int(c) for c in parse_cards(["KH"]))


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_known_changes_add_up_to_the_known_cards(name: str, players: int) -> None:
    """The public record's changes of the known cards, counted from the start, are the
    known cards at every step (through turned-over and refilled stocks); a copy's changes
    go their own way and leave the original's as they were."""
    rules = preset(name)
    for seed in range(4):
        deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
        rng = random.Random(seed)
        counted: list[Counter[int]] = [Counter() for _ in range(players)]
        seen = 0
        while not deal.is_over:
            deal.push(rng.choice(deal.legal_actions()))
            record = deal.public_record()
            for seat, card, delta in record.known_changes(seen):
                assert delta in (1, -1)
                counted[seat][card] += delta
            seen = record.change_count
            for seat in range(players):
                assert +counted[seat] == Counter(deal.known_cards()[seat])
            if rng.random() < 0.05 and not deal.is_over:
                copy = deal.copy()
                before = record.known_changes(0)
                copy.push(rng.choice(copy.legal_actions()))
                copy.public_record()
                assert deal.public_record().known_changes(0) == before


def test_known_changes_of_pile_draws_and_a_discard() -> None:
    """000: a card taken from the pile is known to be in the taker's hand until he
    discards it: one change adding it, one taking it away; a card drawn from the stock
    changes nothing."""
    d = deal_from(preset("basic"), ["AC 7D JC QD KH 10D 8C 6S 3C 4D",
                                    "2H 9H 4H 5C 7C 5S 9S 10S JS KD"], "2S")
    two_spades, king_hearts = (int(c) for c in parse_cards(["2S", "KH"]))
    play(d, "draw pile", "discard KH")
    assert d.public_record().known_changes(0) == [(0, two_spades, 1)]
    play(d, "draw pile", "discard KD", "draw stock")
    assert d.public_record().known_changes(1) == [(1, king_hearts, 1)]
    play(d, "discard 2S")
    assert d.public_record().known_changes(1) == [(1, king_hearts, 1), (0, two_spades, -1)]
    assert d.public_record().change_count == 3
