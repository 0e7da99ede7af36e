"""Turning outcomes into results per bot, with 95% confidence intervals."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.sim.runner import Config, Outcome

__all__ = ["BotResult", "Estimate", "Report", "summarize"]

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci95": [self.low, self.high]}

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation 95% interval (the sample standard deviation)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


def wilson(successes: int, trials: int) -> Estimate:
    """A proportion with its Wilson score 95% interval."""
    if trials == 0:
        return Estimate(0.0, 0.0, 0.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Estimate(p, low, high)


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

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {
            "rules": c.rules, "players": c.players, "mode": c.mode, "count": c.count,
            "seed": c.seed, "duplicate": c.duplicate, "deals": self.deals,
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
    """Results per bot. ``outcomes`` in any order: they are sorted by job first."""
    outcomes = sorted(outcomes, key=lambda o: (o.index, o.rotation))
    labels = config.labels()
    k = len(labels)
    points: list[list[float]] = [[] for _ in range(k)]
    won = [0] * k
    rummies = [0] * k
    stalled = [0] * k
    decisions = [0] * k
    matches = [0] * k
    matches_won = [0] * k
    deals = 0
    stalemates = 0
    for o in outcomes:
        for seat, b in enumerate(o.bot_of):
            decisions[b] += o.decisions[seat]
            if config.mode == "matches":
                matches[b] += 1
                if o.match_finished and o.match_winner == seat:
                    matches_won[b] += 1
        for pts, winner, rummy, active in zip(o.deal_points, o.deal_winners, o.deal_rummies,
                                              o.deal_active, strict=True):
            deals += 1
            if winner is None:
                stalemates += 1
            for seat, b in enumerate(o.bot_of):
                if not active[seat]:
                    continue
                points[b].append(pts[seat])
                if winner is None:
                    stalled[b] += 1
                elif winner == seat:
                    won[b] += 1
                    if rummy:
                        rummies[b] += 1
    bots = []
    for b, name in enumerate(labels):
        played = len(points[b])
        bots.append(BotResult(
            name=name,
            deals=played,
            deals_won=won[b],
            win_rate=wilson(won[b], played),
            matches=matches[b],
            matches_won=matches_won[b],
            match_win_rate=wilson(matches_won[b], matches[b]),
            points_per_deal=mean_ci(points[b]),
            rummies=rummies[b],
            rummy_rate=rummies[b] / played if played else 0.0,
            stalemates=stalled[b],
            decisions_per_deal=decisions[b] / played if played else 0.0,
        ))
    return Report(config, tuple(bots), deals, stalemates, seconds)
