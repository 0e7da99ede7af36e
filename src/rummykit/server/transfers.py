"""One-time codes that carry a browser's key to another device.

A code is eight letters of :data:`ALPHABET`, good for ``lifetime`` seconds and spent on
its first use; a new code for the same key replaces the earlier one. Every operation
costs the same however many codes are outstanding: codes expire in the order they were
made (one lifetime for all), so the expired ones are dropped from the front of a queue,
and each key's code is found through its own index.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable

__all__ = ["ALPHABET", "CODE_LETTERS", "LIFETIME", "TransferCodes"]

LIFETIME = 600.0
"""Seconds a code stays good."""

ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""The letters of a code (none that reads like another: no I, L, O, U, 0, 1)."""

CODE_LETTERS = 8
"""The letters of a code: 30 to the 8th power codes, of which an attacker guesses none
in the tries a client is allowed."""


class TransferCodes:
    """The codes outstanding in one server process (the others hear of each code made
    or spent through the bus and :meth:`heard` / :meth:`spend`)."""

    def __init__(self, lifetime: float = LIFETIME,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = lifetime
        self.clock = clock
        self._codes: dict[str, tuple[str, float]] = {}
        """code -> (key, when it stops being good)."""
        self._of_key: dict[str, str] = {}
        """key -> its outstanding code."""
        self._made: deque[tuple[float, str]] = deque()
        """(when it stops being good, code), oldest first; spent codes stay until they
        would have expired and are skipped then."""

    def __len__(self) -> int:
        return len(self._codes)

    def make(self, key: str) -> str:
        """A new code for ``key`` (its earlier code, if any, stops working)."""
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LETTERS))
        self.heard(code, key)
        return code

    def heard(self, code: str, key: str) -> None:
        """Keep ``code`` for ``key`` (made here, or in another server process)."""
        now = self.clock()
        self._expire(now)
        earlier = self._of_key.get(key)
        if earlier is not None:
            self._codes.pop(earlier, None)
        until = now + self.lifetime
        self._codes[code] = (key, until)
        self._of_key[key] = code
        self._made.append((until, code))

    def spend(self, code: str) -> str | None:
        """The key ``code`` carries, or None (unknown, spent or too old); the code is
        spent either way."""
        now = self.clock()
        self._expire(now)
        held = self._codes.pop(code, None)
        if held is None:
            return None
        key, until = held
        if self._of_key.get(key) == code:
            del self._of_key[key]
        return key if until >= now else None

    def _expire(self, now: float) -> None:
        while self._made and self._made[0][0] < now:
            _, code = self._made.popleft()
            held = self._codes.get(code)
            if held is not None and held[1] < now:
                del self._codes[code]
                if self._of_key.get(held[0]) == code:
                    del self._of_key[held[0]]
