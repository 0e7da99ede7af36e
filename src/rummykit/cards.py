"""Cards and their notation.

A card is a small int: ``suit * 13 + (rank - 1)`` for the 52 natural cards (suits in the
order clubs, diamonds, hearts, spades) and 52 for a joker. :class:`Card` is an ``int``
subclass, so cards sort, hash and index tables like ints and print in the notation of
docs/rules.md:

>>> Card.parse("10h"), Card.parse("T♥"), Card.parse("as")
(Card('10H'), Card('10H'), Card('AS'))
>>> str(Card.parse("★"))
'JK'
>>> Card.parse(str(Card.parse("QD"))) == Card.parse("QD")
True

Two decks hold two copies of each natural card; copies are equal, so a hand is a
multiset of cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from rummykit.errors import NotationError

__all__ = [
    "JOKER",
    "RANK_NAMES",
    "SUIT_NAMES",
    "Card",
    "Suit",
    "card",
    "card_names",
    "format_cards",
    "make_deck",
    "parse_cards",
    "rank_of",
    "suit_of",
]


class Suit(IntEnum):
    """The four suits, in the order used for card codes and sorting."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_NAMES[self]


SUIT_NAMES = "CDHS"
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_ALIASES = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_RANK_ALIASES = {name: rank for rank, name in enumerate(RANK_NAMES) if name} | {"T": 10}

JOKER_CODE: Final = 52
"""The code of a joker."""


class Card(int):
    """One card. Construct with :meth:`parse` or :func:`card`; never by arithmetic."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == JOKER_CODE

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king); 0 for a joker."""
        return 0 if self == JOKER_CODE else self % 13 + 1

    @property
    def suit(self) -> Suit | None:
        return None if self == JOKER_CODE else Suit(self // 13)

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({_NAMES[self]!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: rank then suit, case-insensitive; ``JK`` or ``★`` for a joker."""
        stripped = text.strip()
        # Letters are ASCII: no case folding may turn another letter into one ("ſ" -> "S").
        raw = stripped.upper() if all(ch.isascii() or ch in "♣♦♥♠★" for ch in stripped) else ""
        if raw in ("JK", "★"):
            return CARDS[JOKER_CODE]
        if len(raw) < 2 or raw[-1] not in _SUIT_ALIASES or raw[:-1] not in _RANK_ALIASES:
            raise NotationError(
                f"{text!r} is not a card: write a rank (A 2-10 J Q K, T for 10) then a suit "
                "(C D H S), or JK for a joker"
            )
        return CARDS[_SUIT_ALIASES[raw[-1]] * 13 + _RANK_ALIASES[raw[:-1]] - 1]


def _name(code: int) -> str:
    if code == JOKER_CODE:
        return "JK"
    return RANK_NAMES[code % 13 + 1] + SUIT_NAMES[code // 13]


_NAMES = tuple(_name(code) for code in range(JOKER_CODE + 1))
CARDS: tuple[Card, ...] = tuple(Card(code) for code in range(JOKER_CODE + 1))
JOKER = CARDS[JOKER_CODE]


def card(code_or_text: int | str) -> Card:
    """The card with this code or notation."""
    if isinstance(code_or_text, str):
        return Card.parse(code_or_text)
    if not 0 <= code_or_text <= JOKER_CODE:
        raise NotationError(f"{code_or_text} is not a card code (0-52)")
    return CARDS[code_or_text]


def rank_of(code: int) -> int:
    """Rank 1-13 of a natural card code (0 for the joker)."""
    return 0 if code == JOKER_CODE else code % 13 + 1


def suit_of(code: int) -> int:
    """Suit 0-3 of a natural card code (4 for the joker)."""
    return code // 13


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse several cards."""
    return [Card.parse(text) for text in texts]


def card_names(cards: Iterable[int]) -> list[str]:
    """Each card's notation (a list: the JSON form of a hand or a pile)."""
    return [_NAMES[c] for c in cards]


def format_cards(cards: Iterable[int]) -> str:
    """Cards in notation, separated by spaces."""
    return " ".join(_NAMES[c] for c in cards)


def make_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """A fresh unshuffled deck: ``decks`` copies of the 52 cards, then the jokers."""
    return [CARDS[code] for _ in range(decks) for code in range(52)] + [JOKER] * jokers
