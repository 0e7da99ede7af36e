"""Work spread over worker processes that Ctrl-C ends at once.

:func:`in_workers` runs a function on each task in ``count`` worker processes and yields
the results as they come (or in the tasks' order). Each worker has a pipe of its own and
takes one task at a time, so stopping never waits on a lock a worker holds: when the
caller stops early (Ctrl-C, an error, or it closes the generator), every worker is
ended at once, wherever it is, and a Ctrl-C while the workers start is held back until
they all run (then it ends them). The simulations and the game review run here.

Ctrl-C belongs to the process that started the workers: a worker ignores it (the
terminal sends it to the whole process group), and the caller's
``KeyboardInterrupt`` ends them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Callable, Generator, Iterable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Literal, TypeVar

__all__ = ["Method", "WorkerDied", "in_workers", "start_method"]

T = TypeVar("T")
R = TypeVar("R")

Method = Literal["fork", "spawn"]
"""How a worker starts: a fork of this process, or a new interpreter."""

STOP_GRACE = 5.0
"""Seconds a worker asked to end (SIGTERM) has before it is killed."""


class WorkerDied(RuntimeError):
    """A worker process ended while it had work (killed, or out of memory)."""


def start_method() -> Method:
    """How to start workers from here: forked where this process runs one thread (a
    script then needs no ``if __name__ == "__main__"`` guard, and the workers start at
    once), else spawned afresh (forking a process that runs other threads is not safe:
    the terminal app reviews in a thread)."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def _serve(conn: Connection, function: Callable[[Any], Any]) -> None:
    """A worker: each task that comes, its result back, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            answer: tuple[bool, Any] = (True, function(task))
        except Exception as error:  # the caller raises it
            answer = (False, error)
        try:
            conn.send(answer)
        except Exception as error:  # (an answer that cannot be pickled)
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


def _start(processes: list[BaseProcess], conns: list[Connection], count: int,
           function: Callable[[T], R], method: Method) -> None:
    """Start the workers with Ctrl-C held back: a worker is born ignoring it, and the
    caller hears a Ctrl-C of these moments once they are started (the caller ends the
    ones started, whatever happens here)."""
    context = (multiprocessing.get_context("fork") if method == "fork"
               else multiprocessing.get_context("spawn"))
    blocking = hasattr(signal, "pthread_sigmask")
    if blocking:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, function), daemon=True)
            processes.append(process)
            conns.append(mine)
            process.start()
            theirs.close()
    finally:
        if blocking:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _end(processes: list[BaseProcess], conns: list[Connection], *, finished: bool) -> None:
    """Stop the workers: asked to (their work done), or ended at once."""
    if finished:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
    else:
        for process in processes:
            if process.pid is not None and process.exitcode is None:
                process.terminate()
    for process in processes:
        if process.pid is None:
            continue
        process.join(STOP_GRACE)
        if process.exitcode is None:
            process.kill()
            process.join()
    for conn in conns:
        conn.close()


def in_workers(function: Callable[[T], R], tasks: Iterable[T], count: int, *,
               ordered: bool = False, ahead: int = 1, method: Method | None = None
               ) -> Generator[R, None, None]:
    """``function(task)`` of each task, worked out in ``count`` worker processes: the
    results as they come, or in the tasks' order with ``ordered`` (then at most
    ``count * ahead`` results wait for an earlier one). Each worker holds at most
    ``ahead`` tasks. ``function`` and the tasks must pickle (``method`` "spawn" starts
    each worker afresh; the default is :func:`start_method`). An exception in
    ``function`` is raised here; the tasks are read as they are given out.

    Stopping early (an exception, Ctrl-C, or closing the generator) ends every worker
    at once; when all is done they are asked to stop."""
    if count < 1 or ahead < 1:
        raise ValueError("in_workers needs at least one worker and one task each")
    processes: list[BaseProcess] = []
    conns: list[Connection] = []
    finished = False
    try:
        _start(processes, conns, count, function, method or start_method())
        source = enumerate(tasks)
        held: dict[Connection, list[int]] = {conn: [] for conn in conns}
        waiting: dict[int, R] = {}  # (ordered) results that came before an earlier one
        given = 0
        following = 0  # (ordered) the next result to yield
        exhausted = False

        def give() -> None:
            nonlocal given, exhausted
            for conn in conns:
                while not exhausted and len(held[conn]) < ahead:
                    if ordered and given >= following + count * ahead:
                        return
                    item = next(source, None)
                    if item is None:
                        exhausted = True
                        return
                    conn.send(item[1])
                    held[conn].append(item[0])
                    given += 1

        give()
        while any(held.values()):
            for conn in wait([c for c in conns if held[c]]):
                assert isinstance(conn, Connection)
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    raise WorkerDied("a worker process ended before its work was done"
                                     ) from None
                index = held[conn].pop(0)
                if not ok:
                    raise value
                if not ordered:
                    give()
                    yield value
                    continue
                waiting[index] = value
                while following in waiting:
                    result = waiting.pop(following)
                    following += 1
                    give()
                    yield result
                give()
        finished = True
    finally:
        _end(processes, conns, finished=finished)
