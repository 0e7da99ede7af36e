"""The ladder: a round robin of bot levels, rated on the Elo scale.

The levels are bot specs (``random``, ``expert``, ``master(think=0.2)``, ...), each its own
name in the results. Each pair of levels plays the same deals with the seats rotated (so
both sit everywhere); each rotation of a deal is a game between the two levels, won by the
one whose seats scored more (fewer penalty points where points count against you), a draw
when they scored the same. The ratings are the Bradley-Terry fit of all the games (the
model behind Elo, fitted at once, so the order of the games does not matter), on the Elo
scale with the mean at 1500.

Their 95% intervals come from a bootstrap over whole deals: the rotations of one deal are
the same shuffle with the seats turned, so their games are correlated, not independent.
Each resample draws, pair by pair, as many deals as the pair played (with replacement) and
takes every rotation game of each drawn deal together (:func:`resample_deals`). The pairs'
points intervals are likewise over deals (each deal's mean over its rotations).

Beside the fit, the same games rate the levels by OpenSkill (:mod:`rummykit.ratings`, the
Weng-Lin method the rated matches use): every level starts at the newcomer's skill and the
games are rated one by one (:func:`openskill_ratings`), the pairs' games taken in turn,
deal by deal, so no pair's games all come first. Each level's skill ``mu`` is put on the
same Elo scale, ``1500 + SCALE * (mu - the levels' mean mu)`` (centred like the fit; with
``SCALE`` the model's chance that one settled player beats another is Elo's for the
difference), its interval ``1.96 SCALE sigma`` either side. Rated one game at a time, the
skills depend a little on the order of the games; ``sigma`` counts every game as
independent, which the rotations of a deal are not; and after a ladder's few hundred games
a level's ``sigma`` is still wider than ``SETTLED``, so a level far from the others (the
random bot) shows further from them than in the fit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, TypeVar

from rummykit.bots import same_bot_key
from rummykit.engine.scoring import worth
from rummykit.ratings import SCALE, Skill, rate
from rummykit.rules import Rules
from rummykit.sim import Config, Interrupted, Outcome, check, check_workers, simulate
from rummykit.sim.report import mean_ci

__all__ = ["LadderInterrupted", "LadderResult", "PairResult", "Rating", "check_levels",
           "openskill_ratings", "plan_ladder", "resample_deals", "run_ladder"]

T = TypeVar("T")
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    openskill: float = 1500.0
    """The OpenSkill rating of the same games on the Elo scale (centred at 1500)."""
    openskill_low: float = 1500.0
    openskill_high: float = 1500.0
    """``openskill`` less and plus 1.96 sigma (on the Elo scale)."""


@dataclass(frozen=True, slots=True)
class PairResult:
    first: str
    second: str
    deals: int
    """Games played: deals times rotations."""
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
    interrupted: bool = False
    """Stopped (Ctrl-C) before every game was played: rated on the games played."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "players": self.players, "deals": self.deals,
            "interrupted": self.interrupted,
            "ratings": [{"name": r.name, "elo": r.elo, "ci95": [r.low, r.high],
                         "games": r.games, "openskill": r.openskill,
                         "openskill_ci95": [r.openskill_low, r.openskill_high]}
                        for r in self.ratings],
            "pairs": [{"first": p.first, "second": p.second, "deals": p.deals,
                       "points_diff": p.points_diff, "ci95": [p.low, p.high]}
                      for p in self.pairs],
        }

    def markdown(self) -> str:
        lines = [
            f"## Bot ladder: `{self.rules}`, {self.players} players",
            "",
            f"Round robin, {self.deals} deals per pair with the seats rotated; ratings on "
            "the Elo scale (a Bradley-Terry fit of every game, mean 1500) with 95% "
            "bootstrap intervals over whole deals (all rotations of a deal together), "
            "strongest first. OpenSkill: the same games rated one by one by OpenSkill, on "
            "the same scale (mean 1500), with its 95% interval.",
            "",
            *(["Stopped before its end: these are the games played so far.", ""]
              if self.interrupted else []),
            "| bot | rating | 95% interval | games | OpenSkill |",
            "|---|---|---|---|---|",
        ]
        for r in self.ratings:
            lines.append(f"| {r.name} | {r.elo:.0f} | {r.low:.0f} to {r.high:.0f} | "
                         f"{r.games} | {r.openskill:.0f} "
                         f"± {r.openskill_high - r.openskill:.0f} |"
                         if r.games else f"| {r.name} | - | not played | 0 | - |")
        lines += ["", "| pair | games (deals x rotations) | points per deal, first less second "
                  "(95% CI) |",
                  "|---|---|---|"]
        for p in self.pairs:
            lines.append(f"| {p.first} vs {p.second} | {p.deals} | {p.points_diff:+.2f} "
                         f"[{p.low:+.2f}, {p.high:+.2f}] |")
        return "\n".join(lines) + "\n"


def check_levels(levels: Sequence[str]) -> list[str]:
    """The levels to rate, each checked (a ValueError names a bad one): at least two, no
    level twice (``master(think=0.2)`` and ``master(think=0.20)`` are the same level, and
    so are ``master`` and ``master(think=1)``, its default)."""
    names = [level.strip() for level in levels]
    seen: dict[tuple[str, tuple[tuple[str, float | int], ...]], str] = {}
    for name in names:
        key = same_bot_key(name)
        if key in seen:
            same = "" if seen[key] == name else f" (the same as {seen[key]!r})"
            raise ValueError(f"bot {name!r} is named twice{same}: name each level once")
        seen[key] = name
    if len(names) < 2:
        raise ValueError("name at least two bot levels to rate")
    return names


def resample_deals(groups: Mapping[K, Sequence[Sequence[T]]], rng: random.Random
                   ) -> dict[K, list[T]]:
    """One bootstrap resample of games grouped by deal.

    ``groups[pair]`` holds the pair's games deal by deal (a deal's rotations together);
    each pair gets as many deals as it played, drawn with replacement, every game of a
    drawn deal taken together."""
    out: dict[K, list[T]] = {}
    for pair, deals in groups.items():
        games: list[T] = []
        for _ in deals:
            games.extend(deals[rng.randrange(len(deals))])
        out[pair] = games
    return out


class LadderInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a ladder: ``result`` rates the levels on the games played (None when
    no game was)."""

    def __init__(self, result: LadderResult | None) -> None:
        super().__init__("interrupted")
        self.result = result


def plan_ladder(rules: str, players: int, levels: Sequence[str], *, deals: int = 200,
                seed: int = 0) -> tuple[list[str], dict[tuple[int, int], Config]]:
    """The checked levels and each pair's simulation; a ValueError (or a RummyError) says
    what cannot run, before anything plays."""
    levels = check_levels(levels)
    configs: dict[tuple[int, int], Config] = {}
    for i, j in combinations(range(len(levels)), 2):
        seats = tuple(levels[i] if s % 2 == 0 else levels[j] for s in range(players))
        configs[(i, j)] = Config(rules=rules, players=players, bots=seats, count=deals,
                                 seed=seed, duplicate=True)
        check(configs[(i, j)])
    return levels, configs


def run_ladder(
    rules: str, players: int, levels: Sequence[str], *, deals: int = 200, seed: int = 0,
    workers: int = 1, progress: Callable[[int, int], None] | None = None,
    resamples: int = 200,
) -> LadderResult:
    """Play the round robin of ``levels`` (bot specs, each its name) and rate every one.

    Bad levels, rules or players are a ValueError (or a RummyError) before anything plays.
    ``progress`` gets (games played, games in all) over the whole ladder. Ctrl-C stops the
    workers and raises :class:`LadderInterrupted` with the ratings of the games played."""
    levels, configs = plan_ladder(rules, players, levels, deals=deals, seed=seed)
    check_workers(workers)
    total = sum(config.total for config in configs.values())
    before = 0

    def pair_progress(done: int, _: int) -> None:
        if progress is not None:
            progress(before + done, total)

    played: dict[tuple[int, int], list[Outcome]] = {}
    for pair, config in configs.items():
        played[pair] = []
        try:
            simulate(config, workers=workers, progress=pair_progress,
                     on_outcome=played[pair].append)
        except Interrupted:
            games = sum(len(o) for o in played.values())
            raise LadderInterrupted(
                _rate(rules, players, deals, levels, configs, played, seed, resamples,
                      interrupted=True) if games else None) from None
        before += config.total
    return _rate(rules, players, deals, levels, configs, played, seed, resamples)


def _rate(rules: str, players: int, deals: int, levels: list[str],
          configs: dict[tuple[int, int], Config], played: dict[tuple[int, int], list[Outcome]],
          seed: int, resamples: int, *, interrupted: bool = False) -> LadderResult:
    """The ratings and the pairs' results from the games each pair played."""
    parsed = Rules.parse(rules)
    pairs = []
    # The first level's score in each game (1 a win, 0.5 a draw, 0 a loss), deal by deal.
    by_deal: dict[tuple[int, int], list[list[float]]] = {}
    for (i, j), outcomes in played.items():
        config = configs[(i, j)]
        first, second = levels[i], levels[j]
        diffs: dict[int, list[float]] = {}
        for o in sorted(outcomes, key=lambda o: (o.index, o.rotation)):
            for pts in o.deal_points:
                team: dict[str, list[int]] = {first: [], second: []}
                for seat, b in enumerate(o.bot_of):
                    team[config.bots[b]].append(pts[seat])
                diff = sum(team[first]) / len(team[first]) - sum(team[second]) / len(
                    team[second])
                diffs.setdefault(o.index, []).append(worth(parsed, diff))
        if not diffs:
            continue
        by_deal[(i, j)] = [[1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in deal]
                           for deal in diffs.values()]
        est = mean_ci([sum(deal) / len(deal) for deal in diffs.values()])
        games_played = sum(len(deal) for deal in diffs.values())
        pairs.append(PairResult(first, second, games_played, est.mean, est.low, est.high))
    games = {pair: [g for deal in scores for g in deal] for pair, scores in by_deal.items()}
    elo = bradley_terry(len(levels), games)
    skills = openskill_ratings(len(levels), games)
    centre = sum(s.mu for s in skills) / len(skills)
    rng = random.Random(f"rummykit/ladder/{seed}")
    samples: list[list[float]] = [[] for _ in levels]
    for _ in range(resamples):
        for k, value in enumerate(bradley_terry(len(levels), resample_deals(by_deal, rng))):
            samples[k].append(value)
    table = []
    for k, name in enumerate(levels):
        ordered = sorted(samples[k])
        low = ordered[int(0.025 * (len(ordered) - 1))] if ordered else elo[k]
        high = ordered[int(0.975 * (len(ordered) - 1))] if ordered else elo[k]
        count = sum(len(v) for pair, v in games.items() if k in pair)
        skill = 1500 + SCALE * (skills[k].mu - centre)
        spread = 1.96 * SCALE * skills[k].sigma
        table.append(Rating(name, elo[k], low, high, count, skill, skill - spread,
                            skill + spread))
    table.sort(key=lambda r: (r.games == 0, -r.elo))  # a level not played yet: last
    return LadderResult(rules, players, deals, tuple(table), tuple(pairs), interrupted)


def openskill_ratings(n: int, games: Mapping[tuple[int, int], Sequence[float]]
                      ) -> list[Skill]:
    """The skills of ``n`` levels, each starting at the newcomer's, after every game.

    ``games[(i, j)]`` holds level i's score against level j in each game (1, 0.5 a draw,
    0), in the order played (deal by deal). Rated one at a time, the games are taken in
    rounds: round ``t`` rates each pair's ``t``-th game, the pairs in their order turned by
    ``t`` places (each pair first as often as the others), so neither a pair's place in
    the round robin nor when it was played weighs on the skills."""
    skills = [Skill() for _ in range(n)]
    pairs = list(games)
    for t in range(max((len(scores) for scores in games.values()), default=0)):
        shift = t % len(pairs)
        for i, j in pairs[shift:] + pairs[:shift]:
            if t < len(games[(i, j)]):
                score = games[(i, j)][t]
                ranks = [1, 2] if score == 1 else [2, 1] if score == 0 else [1, 1]
                skills[i], skills[j] = rate([skills[i], skills[j]], ranks)
    return skills


def bradley_terry(n: int, games: dict[tuple[int, int], list[float]]) -> list[float]:
    """Elo-scale ratings (mean 1500) that best explain the games' scores.

    ``games[(i, j)]`` holds level i's score against level j in each game. One virtual
    draw per pair keeps a level that never wins (or never loses) finite."""
    wins = [0.5 * sum(1 for (i, j) in games if k in (i, j)) for k in range(n)]
    count: dict[tuple[int, int], float] = {}
    for (i, j), scores in games.items():
        wins[i] += sum(scores)
        wins[j] += len(scores) - sum(scores)
        count[(i, j)] = len(scores) + 1.0
    strength = [1.0] * n
    for _ in range(500):
        new = []
        for k in range(n):
            denominator = sum(c / (strength[i] + strength[j])
                              for (i, j), c in count.items() if k in (i, j))
            new.append(wins[k] / denominator if denominator else strength[k])
        scale = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / scale for x in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return [1500 + 400 * math.log10(x) for x in strength]
