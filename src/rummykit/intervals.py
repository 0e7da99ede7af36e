"""Means and proportions with their 95% confidence intervals: the one home of the
interval arithmetic that the simulator, the ladders, the evaluation protocol of
:mod:`rummykit.rl` and the benchmarks report."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Z95", "Estimate", "mean_ci", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


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
