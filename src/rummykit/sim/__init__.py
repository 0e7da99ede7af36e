"""Simulation at scale: many seeded deals or matches between bots, on one process, a pool
of processes or a Ray cluster, with the same results on each.

>>> from rummykit.sim import Config, simulate
>>> report = simulate(Config(rules="classic", players=2, bots=("greedy", "random"), count=4))
>>> [b.name for b in report.bots], report.deals
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummykit.bots import parse_bot
from rummykit.rules import Rules
from rummykit.sim.report import BotResult, Estimate, Report, summarize
from rummykit.sim.runner import Config, Job, Outcome, play_job

__all__ = [
    "BotResult",
    "Config",
    "Estimate",
    "Outcome",
    "Report",
    "check",
    "run_jobs",
    "simulate",
]

Progress = Callable[[int, int], None]
"""Called with (jobs done, jobs in all) as outcomes arrive."""

CHUNK = 16
"""Jobs sent to a worker at a time."""


def check(config: Config) -> None:
    """Raise ValueError on a configuration that cannot run (before any work starts)."""
    rules = Rules.parse(config.rules)
    rules.check_players(config.players)
    if len(config.bots) != config.players:
        raise ValueError(f"{len(config.bots)} bots for {config.players} seats: name one per seat")
    for level in config.bots:
        parse_bot(level)
    if config.count < 1:
        raise ValueError("play at least one deal or match")
    rules.hand_size_for(config.players)


def _play_chunk(config: Config, jobs: Sequence[Job]) -> list[Outcome]:
    return [play_job(config, job) for job in jobs]


def _chunks(jobs: list[Job]) -> list[list[Job]]:
    return [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]


def run_jobs(
    config: Config, *, workers: int = 1, backend: str = "local", address: str | None = None,
    progress: Progress | None = None,
) -> Iterator[Outcome]:
    """Yield the outcome of every job (in any order)."""
    jobs = config.jobs()
    total = len(jobs)
    done = 0
    for batch in _batches(config, _chunks(jobs), workers, backend, address):
        for outcome in batch:
            done += 1
            yield outcome
        if progress is not None:
            progress(done, total)


def _batches(
    config: Config, chunks: list[list[Job]], workers: int, backend: str, address: str | None,
) -> Iterator[list[Outcome]]:
    if backend == "ray":
        yield from _ray_batches(config, chunks, address)
        return
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    if workers <= 1:
        for chunk in chunks:
            yield _play_chunk(config, chunk)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, config, chunk) for chunk in chunks]
        for future in futures:
            yield future.result()


def _ray_batches(
    config: Config, chunks: list[list[Job]], address: str | None
) -> Iterator[list[Outcome]]:
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'rummykit[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote: Any = ray.remote(_play_chunk)
        pending = [remote.remote(config, chunk) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def simulate(
    config: Config, *, workers: int = 1, backend: str = "local", address: str | None = None,
    progress: Progress | None = None, on_outcome: Callable[[Outcome], None] | None = None,
) -> Report:
    """Play every job of ``config`` and summarize the results per bot."""
    check(config)
    start = time.perf_counter()
    outcomes = []
    for outcome in run_jobs(config, workers=workers, backend=backend, address=address,
                            progress=progress):
        if on_outcome is not None:
            on_outcome(outcome)
        outcomes.append(outcome)
    return summarize(config, outcomes, time.perf_counter() - start)
