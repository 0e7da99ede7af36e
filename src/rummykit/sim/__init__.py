"""Simulation at scale: many seeded deals or matches between bots, on one process, a pool
of processes or a Ray cluster, with the same results on each.

>>> from rummykit.sim import Config, simulate
>>> report = simulate(Config(rules="classic", players=2, bots=("greedy", "random"), count=4))
>>> [b.name for b in report.bots], report.deals
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from rummykit.bots import parse_bot
from rummykit.errors import OptionError
from rummykit.parallel import in_workers
from rummykit.rules import Rules
from rummykit.sim.report import BotResult, Estimate, Report, Tally
from rummykit.sim.runner import Config, Job, Outcome, play_job

__all__ = [
    "BotResult",
    "Config",
    "Estimate",
    "Interrupted",
    "Outcome",
    "Report",
    "check",
    "check_workers",
    "run_jobs",
    "simulate",
]

Progress = Callable[[int, int], None]
"""Called with (jobs done, jobs in all) as outcomes arrive."""

CHUNK = 16
"""Jobs sent to a worker at a time."""

AHEAD = 2
"""Chunks given to a worker at a time: enough to keep every worker busy, few enough that
a long run holds almost nothing in memory."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a simulation: ``report`` holds the results of the games played."""

    def __init__(self, report: Report) -> None:
        super().__init__("interrupted")
        self.report = report


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


def check_workers(workers: int) -> None:
    """Raise an :class:`~rummykit.errors.OptionError` (of ``workers``) unless ``workers``
    is a number of processes to play on."""
    if not 1 <= workers <= 1024:
        raise OptionError("workers", f"takes 1 to 1024 processes, not {workers}")


def _play_chunk(config: Config, jobs: Sequence[Job]) -> list[Outcome]:
    return [play_job(config, job) for job in jobs]


def _chunks(jobs: Iterator[Job], size: int) -> Iterator[list[Job]]:
    while chunk := list(itertools.islice(jobs, size)):
        yield chunk


def run_jobs(
    config: Config, *, workers: int = 1, backend: str = "local", address: str | None = None,
    progress: Progress | None = None,
) -> Generator[Outcome, None, None]:
    """Yield the outcome of every job (in any order).

    Jobs are made as they are sent, a few chunks ahead of the results, so memory does not
    grow with the run. Closing the iterator (or Ctrl-C while it waits) stops the workers
    at once: queued work is dropped."""
    total = config.total
    done = 0
    for batch in _batches(config, workers, backend, address):
        for outcome in batch:
            done += 1
            yield outcome
        if progress is not None:
            progress(done, total)


def _batches(config: Config, workers: int, backend: str, address: str | None
             ) -> Iterator[list[Outcome]]:
    if backend == "ray":
        yield from _ray_batches(config, _chunks(config.jobs(), CHUNK), address)
        return
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    if workers <= 1:
        for job in config.jobs():
            yield [play_job(config, job)]
        return
    yield from _pool_batches(config, workers)


def _play_chunk_task(task: tuple[Config, list[Job]]) -> list[Outcome]:
    return _play_chunk(*task)


def _pool_batches(config: Config, workers: int) -> Iterator[list[Outcome]]:
    """The chunks played in worker processes, in their order; stopping early (Ctrl-C,
    an error, the caller gave up) ends the workers at once (:mod:`rummykit.parallel`)."""
    tasks = ((config, chunk) for chunk in _chunks(config.jobs(), CHUNK))
    yield from in_workers(_play_chunk_task, tasks, workers, ordered=True, ahead=AHEAD,
                          method="fork" if "fork" in multiprocessing.get_all_start_methods()
                          else "spawn")


def _ray_batches(
    config: Config, chunks: Iterator[list[Job]], address: str | None
) -> Iterator[list[Outcome]]:
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'rummykit[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    pending: list[Any] = []
    try:
        remote: Any = ray.remote(_play_chunk)
        ahead = 64  # chunks in flight: enough for a cluster of 16 cores
        pending = [remote.remote(config, chunk) for chunk in itertools.islice(chunks, ahead)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                chunk = next(chunks, None)
                if chunk is not None:
                    pending.append(remote.remote(config, chunk))
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


@contextlib.contextmanager
def _whole() -> Iterator[None]:
    """Ctrl-C waits while this runs (a game is saved and counted, or neither): it is
    raised as it ends."""
    caught: list[int] = []

    def later(signum: int, frame: object) -> None:
        caught.append(signum)

    try:
        previous = signal.signal(signal.SIGINT, later)
    except ValueError:  # not the main thread: no handler to hold back
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


def simulate(
    config: Config, *, workers: int = 1, backend: str = "local", address: str | None = None,
    progress: Progress | None = None, on_outcome: Callable[[Outcome], None] | None = None,
) -> Report:
    """Play every job of ``config`` and summarize the results per bot.

    Ctrl-C stops the workers and raises :class:`Interrupted` with the results so far."""
    check(config)
    check_workers(workers)
    start = time.perf_counter()
    tally = Tally(config)
    outcomes = run_jobs(config, workers=workers, backend=backend, address=address,
                        progress=progress)
    try:
        for outcome in outcomes:
            with _whole():
                if on_outcome is not None:
                    on_outcome(outcome)
                tally.add(outcome)
    except KeyboardInterrupt:
        outcomes.close()  # the workers stop here, before the results are shown
        raise Interrupted(tally.report(time.perf_counter() - start, interrupted=True)
                          ) from None
    return tally.report(time.perf_counter() - start)
