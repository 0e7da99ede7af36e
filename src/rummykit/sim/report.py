"""Turning outcomes into results per bot, with 95% confidence intervals."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.intervals import Z95, Estimate, mean_ci, wilson
from rummykit.sim.runner import Config, Outcome

__all__ = ["BotResult", "Estimate", "Report", "Tally", "mean_ci", "sum_ci", "summarize",
           "wilson"]

@dataclass(frozen=True, slots=True)
class BotResult:
    name: str
    deals: int
    deals_won: int
    win_rate: Estimate
    """Deals won per deal played."""
    matches: int
    matches_won: int
    match_win_rate: Estimate
    points_per_deal: Estimate
    rummies: int
    rummy_rate: float
    stalemates: int
    decisions_per_deal: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "deals": self.deals,
            "deals_won": self.deals_won,
            "win_rate": self.win_rate.to_json(),
            "matches": self.matches,
            "matches_won": self.matches_won,
            "match_win_rate": self.match_win_rate.to_json(),
            "points_per_deal": self.points_per_deal.to_json(),
            "rummies": self.rummies,
            "rummy_rate": self.rummy_rate,
            "stalemates": self.stalemates,
            "decisions_per_deal": self.decisions_per_deal,
        }


@dataclass(frozen=True, slots=True)
class Report:
    config: Config
    bots: tuple[BotResult, ...]
    deals: int
    stalemates: int
    seconds: float
    games: int = 0
    """Games played (deals or matches, each rotation one game)."""
    interrupted: bool = False
    """Stopped (Ctrl-C) before every game was played: the results of the games played."""

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {
            "rules": c.rules, "players": c.players, "mode": c.mode, "count": c.count,
            "seed": c.seed, "duplicate": c.duplicate, "deals": self.deals,
            "games": self.games, "interrupted": self.interrupted,
            "stalemates": self.stalemates, "seconds": self.seconds,
            "bots": [b.to_json() for b in self.bots],
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([
            "name", "deals", "deals_won", "win_rate", "win_rate_low", "win_rate_high",
            "matches", "matches_won", "match_win_rate", "points_per_deal",
            "points_per_deal_low", "points_per_deal_high", "rummies", "rummy_rate",
            "stalemates", "decisions_per_deal",
        ])
        for b in self.bots:
            writer.writerow([
                b.name, b.deals, b.deals_won, b.win_rate.mean, b.win_rate.low, b.win_rate.high,
                b.matches, b.matches_won, b.match_win_rate.mean, b.points_per_deal.mean,
                b.points_per_deal.low, b.points_per_deal.high, b.rummies, b.rummy_rate,
                b.stalemates, b.decisions_per_deal,
            ])
        return out.getvalue()

    def same_results(self, other: Report) -> bool:
        """Equal in everything but the time taken."""
        return self.bots == other.bots and self.deals == other.deals


def summarize(config: Config, outcomes: Sequence[Outcome], seconds: float) -> Report:
    """Results per bot. ``outcomes`` in any order: every sum is over whole numbers, so the
    order in which they arrive changes nothing."""
    tally = Tally(config)
    for outcome in outcomes:
        tally.add(outcome)
    return tally.report(seconds)


def sum_ci(n: int, total: int, squares: int) -> Estimate:
    """The mean of ``n`` whole numbers from their sum and the sum of their squares, with
    the 95% interval of :func:`mean_ci` (the same numbers, kept in constant memory)."""
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = total / n
    if n == 1:
        return Estimate(mean, mean, mean)
    var = (n * squares - total * total) / (n * (n - 1))  # exact in whole numbers until here
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    return Estimate(mean, mean - half, mean + half)


class Tally:
    """Results per bot, kept as running whole-number sums: one outcome at a time, in any
    order, in memory that does not grow with the number of games."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.labels = config.labels()
        k = len(self.labels)
        self.played = [0] * k
        self.points = [0] * k
        self.squares = [0] * k
        self.won = [0] * k
        self.rummies = [0] * k
        self.stalled = [0] * k
        self.decisions = [0] * k
        self.matches = [0] * k
        self.matches_won = [0] * k
        self.deals = 0
        self.stalemates = 0
        self.jobs = 0
        """Outcomes added so far."""

    def add(self, o: Outcome) -> None:
        self.jobs += 1
        for seat, b in enumerate(o.bot_of):
            self.decisions[b] += o.decisions[seat]
            if self.config.mode == "matches":
                self.matches[b] += 1
                if o.match_finished and o.match_winner == seat:
                    self.matches_won[b] += 1
        for pts, winner, rummy, active in zip(o.deal_points, o.deal_winners, o.deal_rummies,
                                              o.deal_active, strict=True):
            self.deals += 1
            if winner is None:
                self.stalemates += 1
            for seat, b in enumerate(o.bot_of):
                if not active[seat]:
                    continue
                self.played[b] += 1
                self.points[b] += pts[seat]
                self.squares[b] += pts[seat] * pts[seat]
                if winner is None:
                    self.stalled[b] += 1
                elif winner == seat:
                    self.won[b] += 1
                    if rummy:
                        self.rummies[b] += 1

    def report(self, seconds: float, *, interrupted: bool = False) -> Report:
        bots = []
        for b, name in enumerate(self.labels):
            played = self.played[b]
            bots.append(BotResult(
                name=name,
                deals=played,
                deals_won=self.won[b],
                win_rate=wilson(self.won[b], played),
                matches=self.matches[b],
                matches_won=self.matches_won[b],
                match_win_rate=wilson(self.matches_won[b], self.matches[b]),
                points_per_deal=sum_ci(played, self.points[b], self.squares[b]),
                rummies=self.rummies[b],
                rummy_rate=self.rummies[b] / played if played else 0.0,
                stalemates=self.stalled[b],
                decisions_per_deal=self.decisions[b] / played if played else 0.0,
            ))
        return Report(self.config, tuple(bots), self.deals, self.stalemates, seconds,
                      self.jobs, interrupted)
