"""The evaluation protocol (rummykit.rl.evaluate): seat-swapped deals, the policy in each
seating once, and the numbers bench/duel.py reports."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from rummykit.bots import make_bot
from rummykit.engine.actions import Action
from rummykit.engine.views import View
from rummykit.intervals import wilson
from rummykit.rl import evaluate


def lowest(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


class SeatRecorder:
    """A Bot that plays as ``random`` does and remembers the seats it was asked to play."""

    name = "recorder"

    def __init__(self) -> None:
        self.inner = make_bot("random")
        self.seats: set[int] = set()

    def choose(self, view: View, rng: random.Random) -> Action:
        self.seats.add(view.seat)
        return self.inner.choose(view, rng)


def test_the_wilson_interval_is_the_textbook_one() -> None:
    """5 of 10 at z = 1.96: centre 0.5, half width 1.96 * sqrt(0.025 + 0.0096040) / 1.384160
    = 0.2634, so 0.2366 to 0.7634 (worked by hand from Wilson's formula)."""
    rate = wilson(5, 10)
    assert (round(rate.low, 4), round(rate.high, 4)) == (0.2366, 0.7634)


def test_expert_beats_random_by_the_protocol() -> None:
    """The strong side wins most deals, with both intervals clear of an even game."""
    result = evaluate("expert", "classic", 2, against="random", deals=12, seed=3)
    assert result.games == 24
    assert result.win_rate.low > 0.5, str(result)
    assert result.points_per_deal.low > 0, str(result)
    assert result.won + result.lost <= result.games


def test_each_deal_is_played_from_both_seats() -> None:
    """Two players: a deal is played once with the policy at seat 0 and once at seat 1."""
    recorder = SeatRecorder()
    result = evaluate(recorder, "one-deal", 2, against="random", deals=1, seed=10)
    assert result.games == 2
    assert recorder.seats == {0, 1}


def test_an_odd_table_gives_the_policy_each_seat_once() -> None:
    result = evaluate(lowest, "basic", 3, against="random", deals=2, seed=1)
    assert result.games == 6


def test_the_same_arguments_give_the_same_result() -> None:
    first = evaluate(lowest, "classic", 2, against="greedy", deals=3, seed=7)
    again = evaluate(lowest, "classic", 2, against="greedy", deals=3, seed=7)
    assert first == again
    assert first.to_json()["win_rate"]["ci95"] == [first.win_rate.low, first.win_rate.high]


def test_penalty_points_count_against_the_side_that_takes_them() -> None:
    """Ramino scores penalties: a side that wins every deal has positive points per deal
    in the report (the sign is turned so that higher is better)."""
    result = evaluate("expert", "ramino", 2, against="random", deals=3, seed=2)
    assert result.won > result.lost
    assert result.points_per_deal.mean > 0, str(result)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="deals must be at least 1"):
        evaluate(lowest, deals=0)
    breaker = lambda observation, mask: int(np.flatnonzero(mask == 0)[0])  # noqa: E731
    with pytest.raises(ValueError, match="which its action mask does not allow"):
        evaluate(breaker, "classic", 2, against="random", deals=1)
