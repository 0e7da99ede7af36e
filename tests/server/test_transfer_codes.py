"""Transfer codes (README, "Play from another device"): a code carries a browser's key
once, for ten minutes; a new code for the same key replaces the earlier one; making or
spending a code costs the same however many are outstanding."""

from __future__ import annotations

from typing import Any

from rummykit.server.transfers import ALPHABET, LIFETIME, TransferCodes


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_is_spent_once_and_lives_ten_minutes() -> None:
    clock = Clock()
    codes = TransferCodes(clock=clock)
    assert LIFETIME == 600
    code = codes.make("ann-key")
    assert len(code) == 8 and set(code) <= set(ALPHABET)
    assert codes.spend(code) == "ann-key"
    assert codes.spend(code) is None
    late = codes.make("ann-key")
    clock.now += LIFETIME - 1
    kept = codes.make("bob-key")
    clock.now += 2
    assert codes.spend(late) is None  # too old
    assert codes.spend(kept) == "bob-key"


def test_a_new_code_replaces_the_earlier_one() -> None:
    codes = TransferCodes(clock=Clock())
    first = codes.make("ann-key")
    second = codes.make("ann-key")
    assert codes.spend(first) is None
    assert codes.spend(second) == "ann-key"
    assert len(codes) == 0


def test_expired_codes_are_dropped() -> None:
    clock = Clock()
    codes = TransferCodes(clock=clock)
    for n in range(1000):
        codes.make(f"key-{n}")
    assert len(codes) == 1000
    clock.now += LIFETIME + 1
    codes.make("fresh")
    assert len(codes) == 1


class Untouchable(dict[str, Any]):
    """A dict that may be read and written by key, never gone through."""

    def __iter__(self) -> Any:
        raise AssertionError("went through every outstanding code")

    def items(self) -> Any:
        raise AssertionError("went through every outstanding code")

    def values(self) -> Any:
        raise AssertionError("went through every outstanding code")

    def keys(self) -> Any:
        raise AssertionError("went through every outstanding code")


def test_making_a_code_does_not_go_through_the_others() -> None:
    """With 20,000 codes outstanding, making and spending one looks at a few of them (a
    code made earlier scanned them all, 16 ms on the event loop)."""
    outstanding = 20_000
    codes = TransferCodes(clock=Clock())
    for n in range(outstanding):
        codes.make(f"key-{n}")
    codes._codes = Untouchable(codes._codes)
    codes._of_key = Untouchable(codes._of_key)
    code = codes.make("key-7")
    assert codes.spend(code) == "key-7"
    assert len(codes) == outstanding - 1
