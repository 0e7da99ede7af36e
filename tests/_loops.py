"""Running a coroutine from a test whatever the test process already runs."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def run_async(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coroutine`` on a loop of its own, in a thread of its own (the browser tests'
    Playwright keeps a loop running in the main thread of the process for the whole
    session, where ``asyncio.run`` refuses to start another; which tests share a process
    depends on how pytest-xdist hands them out)."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as err:  # handed to the test's thread
            errors.append(err)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]
