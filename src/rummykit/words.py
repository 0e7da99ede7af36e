"""Words for a person: a count with its noun in the right number.

>>> plural(1, "card"), plural(2, "card"), plural(0, "match", "matches")
('1 card', '2 cards', '0 matches')
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun in its number (``nouns`` where adding an s is wrong)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
