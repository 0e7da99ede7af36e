"""The ladder: a round robin of every bot level, rated with OpenSkill.

Each pair of levels plays the same deals with the seats rotated (so both sit everywhere);
a deal is one rated game between two teams, the seats of each level, ranked by the points
their seats scored (fewer penalty points rank higher where points count against you).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rummykit.rules import Rules
from rummykit.sim import Config, simulate
from rummykit.sim.report import mean_ci

__all__ = ["LadderResult", "Rating", "run_ladder"]


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative strength: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PairResult:
    first: str
    second: str
    deals: int
    points_diff: float
    """The first level's mean points per deal less the second's."""
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class LadderResult:
    rules: str
    players: int
    deals: int
    ratings: tuple[Rating, ...]
    pairs: tuple[PairResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "players": self.players, "deals": self.deals,
            "ratings": [{"name": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal,
                         "games": r.games} for r in self.ratings],
            "pairs": [{"first": p.first, "second": p.second, "deals": p.deals,
                       "points_diff": p.points_diff, "ci95": [p.low, p.high]}
                      for p in self.pairs],
        }

    def markdown(self) -> str:
        lines = [
            f"## Bot ladder: `{self.rules}`, {self.players} players",
            "",
            f"Round robin, {self.deals} deals per pair with the seats rotated; OpenSkill "
            "(Plackett-Luce) ratings, strongest first.",
            "",
            "| bot | rating (mu - 3 sigma) | mu | sigma | games |",
            "|---|---|---|---|---|",
        ]
        for r in self.ratings:
            lines.append(f"| {r.name} | {r.ordinal:.2f} | {r.mu:.2f} | {r.sigma:.2f} | "
                         f"{r.games} |")
        lines += ["", "| pair | deals | points per deal, first less second (95% CI) |",
                  "|---|---|---|"]
        for p in self.pairs:
            lines.append(f"| {p.first} vs {p.second} | {p.deals} | {p.points_diff:+.2f} "
                         f"[{p.low:+.2f}, {p.high:+.2f}] |")
        return "\n".join(lines) + "\n"


def run_ladder(
    rules: str, players: int, levels: Sequence[str], *, deals: int = 200, seed: int = 0,
    workers: int = 1, progress: Callable[[int, int], None] | None = None,
) -> LadderResult:
    """Play the round robin and rate every level."""
    from openskill.models import PlackettLuce

    penalty = Rules.parse(rules).scoring == "penalty"
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in levels}
    games = dict.fromkeys(levels, 0)
    pairs = []
    for first, second in combinations(levels, 2):
        seats = tuple(first if s % 2 == 0 else second for s in range(players))
        config = Config(rules=rules, players=players, bots=seats, count=deals, seed=seed,
                        duplicate=True)
        outcomes: list[Any] = []
        report = simulate(config, workers=workers, progress=progress,
                          on_outcome=outcomes.append)
        outcomes.sort(key=lambda o: (o.index, o.rotation))
        diffs = []
        for o in outcomes:
            for pts in o.deal_points:
                team: dict[str, list[int]] = {first: [], second: []}
                for seat, b in enumerate(o.bot_of):
                    team[seats[b]].append(pts[seat])
                a = sum(team[first]) / len(team[first])
                b_mean = sum(team[second]) / len(team[second])
                diff = (b_mean - a) if penalty else (a - b_mean)
                diffs.append(diff)
                ranks = [1.0, 1.0] if diff == 0 else [1.0, 2.0] if diff > 0 else [2.0, 1.0]
                new = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
                ratings[first], ratings[second] = new[0][0], new[1][0]
                games[first] += 1
                games[second] += 1
        est = mean_ci(diffs)
        pairs.append(PairResult(first, second, report.deals, est.mean, est.low, est.high))
    table = sorted(
        (Rating(name, float(r.mu), float(r.sigma), games[name]) for name, r in ratings.items()),
        key=lambda r: -r.ordinal,
    )
    return LadderResult(rules, players, deals, tuple(table), tuple(pairs))
