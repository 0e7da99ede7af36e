"""The engine's shuffle, written over the generator's raw bits.

It is written over ``random.Random.getrandbits`` so that the same seed deals the same cards
on every machine and every Python version, whatever the standard library's ``shuffle``
becomes. It is the Fisher-Yates shuffle that Python 3.11's ``random.shuffle`` performs, so
the deals made before the engine had its own shuffle are dealt again exactly:

>>> import random
>>> a, b = list(range(20)), list(range(20))
>>> shuffle(a, random.Random("x"))
>>> random.Random("x").shuffle(b)
>>> a == b
True

A module of its own so that the compiled build compiles it (every deal and every imagined
deal of a search is shuffled) while the layout beside it stays Python.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import TypeVar

__all__ = ["below", "shuffle"]

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform whole number in ``[0, n)`` from the generator's raw bits: draw
    ``n.bit_length()`` bits until the number is below ``n``."""
    if n <= 0:
        raise ValueError(f"below({n}): n must be positive")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place: for each place from the last down to the second, swap
    it with a place chosen by :func:`below` among it and those before it (written out
    here, the same draws: every deal is shuffled)."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
