"""One home for how a result is valued and for the points laid on the table.

docs/rules.md: only ``penalty`` scoring (the ``ramino`` preset) makes a player's points
count against him, so that the lowest total is the best; ``melded`` scoring (``rummy500``)
scores the cards each player laid less those left in his hand. ``engine.scoring.worth``
and ``engine.scoring.melded_points`` say so once; these tests hold every reader of a
result (the match's end, the master's imagined deals, the learning environment's rewards,
the ladder, the statistics, the terminal game's and the web table's melded points) to
them, so that a copy that drifts is caught.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit.bots import make_bot
from rummykit.bots.rollout import play_out
from rummykit.engine.deal import Deal
from rummykit.engine.match import Match
from rummykit.engine.melds import hand_points
from rummykit.engine.scoring import (
    POINTS_AGAINST,
    DealResult,
    melded_points,
    points_against,
    worth,
)
from rummykit.engine.views import view
from rummykit.rules import PRESETS, Rules, preset


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_points_count_against_a_player_only_in_the_penalty_preset(name: str) -> None:
    """The rule book: ramino's hand points are penalties; every other preset's points are
    the player's own (more is better)."""
    rules = preset(name)
    assert points_against(rules) == (name == "ramino")
    assert worth(rules, 25) == (-25 if name == "ramino" else 25)
    assert worth(rules, 2.5) == (-2.5 if name == "ramino" else 2.5)
    assert ("penalty" in POINTS_AGAINST) and ("collect" not in POINTS_AGAINST)


def finished_deals(text: str, players: int, count: int) -> list[Deal]:
    """Deals of these rules played to their end (only those somebody won)."""
    out = []
    for seed in range(200):
        deal = Deal.start(Rules.parse(text), players=players, dealer=0, seed=seed)
        play_out(deal, random.Random(seed))
        if deal.result is not None and deal.result.winner is not None:
            out.append(deal)
        if len(out) == count:
            break
    assert len(out) == count
    return out


@pytest.mark.parametrize("text", ["ramino", "classic", "basic(scoring=penalty)"])
def test_the_master_and_the_learning_rewards_value_a_deal_as_worth_does(text: str) -> None:
    """The seat the master's imagined deal favours and the seat the learning environment
    rewards are the seat whose points are worth the most."""
    pytest.importorskip("pettingzoo")
    from rummykit.bots.master import _utility
    from rummykit.rl.aec import deal_rewards

    for deal in finished_deals(text, 3, 6):
        result = deal.result
        assert result is not None
        values = [worth(deal.rules, p) for p in result.points]
        utilities = [_utility(deal, seat) for seat in range(3)]
        rewards = deal_rewards(deal, "points", 1.0)
        for seat in range(3):
            others = [v for s, v in enumerate(values) if s != seat]
            assert utilities[seat] == pytest.approx(values[seat] - sum(others) / 2)
            assert rewards[seat] == pytest.approx(values[seat] - sum(others) / 2)
        best = max(values)
        if values.count(best) == 1:
            wins = deal_rewards(deal, "win", 1.0)
            assert wins[values.index(best)] == 1.0


def test_a_penalty_match_to_a_target_is_won_by_the_lowest_total() -> None:
    """``basic(scoring=penalty)``: the match ends when a total reaches 100 penalty points,
    and the player with the fewest points wins it (it used to go to the most)."""
    checked = 0
    for seed in range(30):
        match = Match(Rules.parse("basic(scoring=penalty)"), players=3, seed=seed)
        bots, rng = [make_bot("greedy") for _ in range(3)], random.Random(seed)
        while not match.is_over:
            seat = match.deal.to_move
            match.apply(bots[seat].choose(view(match, seat), rng))
        low = min(match.totals)
        if match.end == "target" and match.totals.count(low) == 1:
            assert match.winner == match.totals.index(low)
            checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize(("text", "best"), [("ramino", {"Ann": 10, "Bob": 80}),
                                             ("classic", {"Ann": 30, "Bob": 120}),
                                             ("basic(scoring=penalty)", {"Ann": 10, "Bob": 80})])
def test_the_statistics_best_total_is_the_one_worth_most(
    tmp_path: Path, text: str, best: dict[str, int]
) -> None:
    pytest.importorskip("sqlalchemy")
    from rummykit.stats import Store

    rules = Rules.parse(text)
    store = Store(f"sqlite:///{tmp_path / 'stats.db'}")
    try:
        for totals in ([30, 80], [10, 120]):
            store.add_game(rules=rules, names=["Ann", "Bob"], kinds=["person"] * 2,
                           results=[DealResult(0, False, (0, 5))], totals=totals,
                           winner=0, finished=True)
        lines = {line.player: line.best_score for line in store.lines()}
    finally:
        store.close()
    assert lines == best
    for name, totals in (("Ann", [30, 10]), ("Bob", [80, 120])):
        assert lines[name] == max(totals, key=lambda t: worth(rules, t))


def test_melded_points_are_what_the_deal_scored_before_the_hands() -> None:
    """rummy500: each player's deal points are his melded points less his hand's (the
    losers' times the rummy multiplier). The points the terminal game shows (from the
    person's view) and the web table shows come from the same function."""
    from rummykit.session import melded_points as shown_in_terminal

    for deal in finished_deals("rummy500", 2, 4):
        result = deal.result
        assert result is not None
        rules = deal.rules
        laid = melded_points(rules, deal.table, 2)
        assert laid is not None
        for seat in range(2):
            times = 1 if seat == result.winner else (
                rules.rummy_multiplier if result.rummy else 1)
            assert result.points[seat] == laid[seat] - times * hand_points(
                deal.hands[seat], rules)
    match = Match(preset("rummy500"), players=2, seed=1)
    bots, rng = [make_bot("greedy") for _ in range(2)], random.Random(1)
    while not match.deal.table:
        seat = match.deal.to_move
        match.apply(bots[seat].choose(view(match, seat), rng))
    assert shown_in_terminal(view(match, 0)) == melded_points(
        match.rules, match.deal.table, 2)
    assert melded_points(preset("classic"), match.deal.table, 2) is None
    assert shown_in_terminal(view(Match(preset("classic"), players=2), 0)) is None
