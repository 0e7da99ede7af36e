"""The ladder's OpenSkill ratings beside its Bradley-Terry fit: the same games, the same
Elo scale, and the two agree."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from rummykit.ratings import SCALE, Skill
from rummykit.sim.ladder import LadderResult, openskill_ratings, run_ladder

LEVELS = ("random", "greedy", "expert")


@pytest.fixture(scope="module")
def ladder() -> LadderResult:
    # 40 deals a pair, each played twice (seats rotated): 80 games a pair, 160 a level.
    return run_ladder("classic", 2, list(LEVELS), deals=40, seed=3)


def _elo(skills: list[Skill]) -> list[float]:
    """Skills on the Elo scale, centred at 1500 (as the ladder shows them)."""
    centre = sum(s.mu for s in skills) / len(skills)
    return [1500 + SCALE * (s.mu - centre) for s in skills]


def test_openskill_orders_the_levels_the_fit_tells_apart(ladder: LadderResult) -> None:
    apart = [(a, b) for a, b in permutations(ladder.ratings, 2) if a.low > b.high]
    assert apart  # at least random is told apart from the others
    for stronger, weaker in apart:
        assert stronger.openskill > weaker.openskill, (stronger, weaker)


def test_openskill_interval_meets_the_fits_interval(ladder: LadderResult) -> None:
    """Each level's OpenSkill value lies within the fit's 95% interval widened by the
    OpenSkill interval: the two intervals overlap."""
    for r in ladder.ratings:
        spread = r.openskill_high - r.openskill
        assert spread == pytest.approx(r.openskill - r.openskill_low)
        assert spread > 0
        assert r.low - spread <= r.openskill <= r.high + spread, r


def test_openskill_is_centred_like_the_fit(ladder: LadderResult) -> None:
    mean = sum(r.openskill for r in ladder.ratings) / len(ladder.ratings)
    assert mean == pytest.approx(1500)


def test_openskill_is_in_the_json_and_the_table(ladder: LadderResult) -> None:
    data = ladder.to_json()
    for row, r in zip(data["ratings"], ladder.ratings, strict=True):
        assert set(row) == {"name", "elo", "ci95", "games", "openskill", "openskill_ci95"}
        assert row["openskill"] == r.openskill
        assert row["openskill_ci95"] == [r.openskill_low, r.openskill_high]
    lines = ladder.markdown().splitlines()
    head = lines.index("| bot | rating | 95% interval | games | OpenSkill |")
    for line, r in zip(lines[head + 2:head + 2 + len(LEVELS)], ladder.ratings, strict=True):
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert cells[0] == r.name
        assert cells[4] == f"{r.openskill:.0f} ± {r.openskill_high - r.openskill:.0f}"


def _games(truth: list[float], count: int, seed: int) -> dict[tuple[int, int], list[float]]:
    """Each pair's games drawn from Elo's model for the levels' ``truth`` ratings."""
    rng = random.Random(seed)
    games = {}
    for i, j in permutations(range(len(truth)), 2):
        if i < j:
            win = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            games[(i, j)] = [1.0 if rng.random() < win else 0.0 for _ in range(count)]
    return games


def test_openskill_finds_ratings_the_games_were_drawn_from() -> None:
    """Games drawn from Elo's model: OpenSkill on the Elo scale finds the ratings behind
    them (centred at 1500) within its 95% interval."""
    truth = [1350.0, 1500.0, 1650.0]
    skills = openskill_ratings(3, _games(truth, 120, seed=0))
    for found, sk, true in zip(_elo(skills), skills, truth, strict=True):
        assert abs(found - true) <= 1.96 * SCALE * sk.sigma, (found, true)
    assert _elo(skills) == sorted(_elo(skills))


def test_the_order_of_the_pairs_does_not_weigh() -> None:
    """The pairs' games are rated in turn: listing the pairs the other way round moves
    no level by more than a few points (rating one pair's games after another's moves
    them by tens of points here, by well over a hundred on a ladder with the random bot)."""
    games = _games([1100.0, 1600.0, 1700.0], 80, seed=1)
    forward = _elo(openskill_ratings(3, games))
    backward = _elo(openskill_ratings(3, dict(reversed(games.items()))))
    assert forward == pytest.approx(backward, abs=5)
