"""Worker processes (rummykit.parallel): every result once, errors raised, and stopping
early ends every worker at once, an idle one included."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from rummykit.parallel import WorkerDied, in_workers


def square(n: int) -> int:
    return n * n


def fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is not allowed")
    return n


def pid_of(task: tuple[int, str]) -> int:
    """Writes its worker's pid in the folder; task 0 then takes long."""
    n, folder = task
    (Path(folder) / f"{n}-{os.getpid()}").write_text("")
    if n == 0:
        time.sleep(60)
    return os.getpid()


def _workers(folder: Path, count: int) -> set[int]:
    deadline = time.time() + 30
    while len(pids := {int(f.name.split("-")[1]) for f in folder.iterdir()}) < count:
        assert time.time() < deadline
        time.sleep(0.05)
    return pids


def _alive(pids: set[int]) -> set[int]:
    return {p for p in pids if Path(f"/proc/{p}").exists()
            and Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"}


@pytest.mark.parametrize("ahead", [1, 3])
def test_every_result_comes_once(ahead: int) -> None:
    unordered = list(in_workers(square, range(50), 2, ahead=ahead))
    assert sorted(unordered) == [n * n for n in range(50)]
    assert list(in_workers(square, range(50), 3, ordered=True, ahead=ahead)) == [
        n * n for n in range(50)]


def test_spawned_workers_give_the_same_results() -> None:
    results = in_workers(square, iter(range(10)), 2, ordered=True, method="spawn")
    assert list(results) == [n * n for n in range(10)]


def test_an_error_in_a_task_is_raised_here() -> None:
    with pytest.raises(ValueError, match="three is not allowed"):
        list(in_workers(fails_on_three, range(10), 2))


def test_stopping_early_ends_a_busy_and_an_idle_worker_at_once(tmp_path: Path) -> None:
    # One worker sleeps on task 0; the other has answered task 1 and waits with nothing
    # to do.
    results = in_workers(pid_of, [(0, str(tmp_path)), (1, str(tmp_path))], 2)
    next(results)
    workers = _workers(tmp_path, 2)
    start = time.perf_counter()
    results.close()
    assert time.perf_counter() - start < 5
    assert not _alive(workers)


def test_a_worker_that_dies_is_an_error_not_a_wait(tmp_path: Path) -> None:
    results = in_workers(pid_of, [(0, str(tmp_path)), (1, str(tmp_path))], 2)
    idle = next(results)
    for pid in _workers(tmp_path, 2) - {idle}:
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(WorkerDied):
        list(results)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        next(in_workers(square, range(3), 0))
