"""The learned hand model of ``bench/hand_model.py`` (a measurement, not part of the
master): its inputs against counts made here from the view, its chances adding up to the
hidden hand, a small training run better than chance on deals it never saw, and the odds
it hands a master.

What it was worth to the master is measured by ``bench/duel.py --hand-model``
(docs/strength.md), not here."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")

from rummykit.bots import make_bot
from rummykit.bots.master import MasterBot
from rummykit.engine import Deal
from rummykit.engine.views import View, view
from rummykit.rules import PRESETS, Rules


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "hand_model.py"
    spec = importlib.util.spec_from_file_location("bench_hand_model", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses and pickling look modules up)
    spec.loader.exec_module(module)
    return module


hm = _bench()
FEATURES, HandModel, card_rows, marginals = hm.FEATURES, hm.HandModel, hm.card_rows, \
    hm.marginals
CLASSIC = Rules.parse("classic")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def positions(rules: Rules, players: int, seed: int, every: int = 3) -> \
        list[tuple[View, Deal]]:
    """Views at every ``every``-th move of an expert deal, each with the deal as it was."""
    bot = make_bot("expert")
    rng = random.Random(seed)
    deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
    out = []
    moves = 0
    while not deal.is_over:
        v = view(deal, deal.to_move)
        if moves % every == 0:
            out.append((v, deal.copy()))
        deal.push(bot.choose(v, rng))
        moves += 1
    return out


def test_each_rows_inputs_are_the_facts_of_its_card_and_position() -> None:
    column = {name: i for i, name in enumerate(FEATURES)}
    checked = 0
    for seed in range(4):
        for v, deal in positions(CLASSIC, 2, seed):
            other = 1 - v.seat
            cards, rows, k = card_rows(v, other)
            assert cards == list(v.knowledge.unseen)
            # k: the opponent's cards this seat cannot place, from the true deal.
            assert k == sum(1 for c in deal.hands[other] if c in cards)
            for card, row in zip(cards, rows, strict=True):
                assert len(row) == len(FEATURES)
                rank, suit = card % 13, card // 13
                n = len(cards)
                if 0 < k < n:
                    assert row[column["prior"]] == pytest.approx(math.log(k / (n - k)))
                assert row[column[f"rank_{RANKS[rank]}"]] == 1
                assert sum(row[column[f"rank_{r}"]] for r in RANKS) == 1
                known = v.knowledge.known[other]
                assert row[column["held_rank"]] == sum(
                    1 for c in known if c % 13 == rank and c != card)
                assert row[column["mine_next"]] == sum(
                    1 for c in v.hand if c // 13 == suit and abs(c % 13 - rank) == 1)
                assert row[column["mine_gap"]] == sum(
                    1 for c in v.hand if c // 13 == suit and abs(c % 13 - rank) == 2)
                fits = any(card in m.cards or _extends(m.cards, card) for m in v.melds)
                assert row[column["fits_now"]] == float(fits)
                checked += 1
    assert checked > 1000


def _extends(meld: tuple[int, ...], card: int) -> bool:
    """Whether ``card`` lays off on a classic meld (no jokers): a set of three of its rank,
    or a run of its suit whose either end it continues (aces low)."""
    ranks = sorted(c % 13 for c in meld)
    if len({c % 13 for c in meld}) == 1:
        return card % 13 == ranks[0] and len(meld) < 4
    suit = meld[0] // 13
    return card // 13 == suit and card % 13 in (ranks[0] - 1, ranks[-1] + 1)


def test_a_card_the_opponent_threw_is_marked_and_spread_to_its_neighbours() -> None:
    """Seed 1 of classic 2p: each card the opponent discarded counts for the cards of its
    rank in the 'discarded_rank' inputs (in his latest turn: 'latest')."""
    for v, _ in positions(CLASSIC, 2, 1, every=1):
        other = 1 - v.seat
        last = next((a.cards[0] for s, a in reversed(v.history)
                     if s == other and a.kind == "discard"), None)
        if last is None or v.phase != "draw":
            continue
        cards, rows, _ = card_rows(v, other)
        column = FEATURES.index("discarded_rank_latest")
        for card, row in zip(cards, rows, strict=True):
            if card % 13 == last % 13 and card != last:
                assert row[column] >= 1
        return
    raise AssertionError("no position after an opponent's discard")


@pytest.mark.parametrize("k", [0, 1, 5, 9, 10])
def test_chances_add_up_to_the_cards_he_holds_and_keep_their_order(k: int) -> None:
    logits = [-2.0, -1.0, 0.0, 0.5, 0.5, 1.0, 2.0, 3.0, -4.0, 0.0]
    p = marginals(logits, k)
    assert sum(p) == pytest.approx(k, abs=1e-6)
    assert all(0 <= x <= 1 for x in p)
    for a, b in zip(logits, p, strict=True):
        for c, d in zip(logits, p, strict=True):
            if a < c:
                assert b <= d + 1e-12


def test_bad_weights_are_refused() -> None:
    good = {"features": list(FEATURES), "w1": [[0.0, 0.0]] * len(FEATURES),
            "b1": [0.0, 0.0], "w2": [1.0, 1.0], "b2": 0.0}
    HandModel(good)
    with pytest.raises(ValueError, match="features"):
        HandModel(good | {"features": list(FEATURES[:-1])})
    with pytest.raises(ValueError, match="shapes"):
        HandModel(good | {"w2": [1.0]})


def test_a_model_with_no_weights_gives_every_hidden_card_the_same_chance() -> None:
    flat = HandModel({"features": list(FEATURES), "w1": [[0.0]] * len(FEATURES),
                      "b1": [0.0], "w2": [0.0], "b2": 0.0})
    v, deal = positions(CLASSIC, 2, 7)[5]
    chances = flat.probabilities(v, 1 - v.seat)
    k = sum(1 for c in deal.hands[1 - v.seat] if c in chances)
    assert all(p == pytest.approx(k / len(chances)) for p in chances.values())


@pytest.fixture(scope="module")
def small_model() -> object:
    """A model trained here on 300 deals (the bench trains on 40,000)."""
    data = hm.collect((0, 300, False))
    return HandModel(hm.train(data, hidden=16, epochs=3, seed=0))


def test_a_small_training_run_guesses_hidden_hands_better_than_chance_on_new_deals(
        small_model: object) -> None:
    """Brier score of 'the opponent holds this card' over deals from seeds the training
    never used: the learned chances against every hidden card as likely as another."""
    learned = uniform = 0.0
    count = 0
    for seed in range(20_000_000, 20_000_010):
        for v, deal in positions(CLASSIC, 2, seed):
            other = 1 - v.seat
            chances = small_model.probabilities(v, other)  # type: ignore[attr-defined]
            k = sum(1 for c in deal.hands[other] if c in chances)
            assert sum(chances.values()) == pytest.approx(k, abs=1e-6)
            for card, p in chances.items():
                truth = 1.0 if card in deal.hands[other] else 0.0
                learned += (p - truth) ** 2
                uniform += (k / len(chances) - truth) ** 2
                count += 1
    assert count > 2500
    assert learned / count < uniform / count - 0.005


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_odds_cover_every_hidden_card_for_every_opponent(name: str,
                                                              small_model: object) -> None:
    model = small_model
    for v, _ in positions(PRESETS[name], 3, 2, every=7)[:6]:
        odds = model.odds(v)  # type: ignore[attr-defined]
        assert odds[v.seat] == {}
        for seat in range(3):
            if seat != v.seat:
                assert set(odds[seat]) == set(v.knowledge.unseen)
                assert all(0 < x < math.inf for x in odds[seat].values())


def test_a_master_given_the_models_odds_plays_a_whole_deal_the_same_twice(
        small_model: object) -> None:
    def play() -> list[str]:
        deal = Deal.start(CLASSIC, players=2, dealer=0, seed=11)
        bots = [MasterBot(rollouts=12, odds=small_model.odds),  # type: ignore[attr-defined]
                make_bot("expert")]
        rngs = [random.Random(0), random.Random(1)]
        moves = []
        while not deal.is_over:
            seat = deal.to_move
            action = bots[seat].choose(view(deal, seat), rngs[seat])
            moves.append(str(action))
            deal.apply(action)
        return moves

    assert play() == play()
