"""How a deal ends and what it scores, by the rules' scoring.

- ``collect``: whoever went out collects every other hand's points (nothing in a
  stalemate);
- ``melded``: each player scores the cards he laid on the table less the cards in his
  hand (also when nobody went out);
- ``penalty``: each player but the winner takes his hand's points as a penalty (nothing
  in a stalemate).

Going rummy multiplies the losers' hand points by ``rummy_multiplier``.

Where the scoring is ``penalty`` a player's points count against him: the lowest total is
the best. :func:`worth` is the one place that says so; the match's end, the computer
players, the learning environment, the ladder and the statistics all ask it (or
:data:`POINTS_AGAINST`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar, get_args

from rummykit.engine.melds import Meld, hand_points, laid_points
from rummykit.rules import Rules

__all__ = ["ENDINGS", "POINTS_AGAINST", "DealEnd", "DealResult", "deal_points", "describe_end",
           "melded_points", "points_against", "worth"]

POINTS_AGAINST: frozenset[str] = frozenset({"penalty"})
"""The scorings whose points count against the player who takes them (the lowest total is
the best). The statistics' SQL reads it to pick each player's best total."""

Points = TypeVar("Points", int, float)


def points_against(rules: Rules) -> bool:
    """Whether a player's points count against him under these rules (``penalty``)."""
    return rules.scoring in POINTS_AGAINST


def worth(rules: Rules, points: Points) -> Points:
    """What ``points`` (a deal's, a total, a difference) are worth to the player who has
    them, where more is always better: the points themselves, or their negative where
    they count against him.

    >>> from rummykit.rules import preset
    >>> worth(preset("classic"), 25), worth(preset("ramino"), 25)
    (25, -25)
    """
    return -points if points_against(rules) else points


def melded_points(rules: Rules, table: Sequence[Meld], players: int) -> list[int] | None:
    """Where melded cards score (``melded``, rummy500): the points each player has laid on
    ``table`` this deal; None in other scoring."""
    if rules.scoring != "melded":
        return None
    return laid_points(table, rules, players)

DealEnd = Literal["out", "turn-overs", "refills", "declined", "repetition"]
"""Why a deal ended: a player went out; the stock ran out once the pile could no longer be
turned over (or both were empty); the stock ran out once the refills were used up; the
player to draw declined the pile on an empty stock (``end``); the same position came up
for the rules' ``repetition``-th time."""

ENDINGS: dict[DealEnd, str] = {
    "out": "{winner} went out",
    "turn-overs": "the stock ran out and the pile may not be turned over again",
    "refills": "the stock ran out and may not be refilled again",
    "declined": "the stock is empty and the pile was declined",
    "repetition": "the same position came up {repetition} times",
}
"""How each ending is told to a person (``describe_end`` fills in the names)."""

assert set(ENDINGS) == set(get_args(DealEnd))


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: ``winner`` went out (None in a stalemate), whether it was rummy,
    and what the deal adds to each player's total. ``end`` says why it ended; it is not
    part of a record's result and is left out of comparisons."""

    winner: int | None
    rummy: bool
    points: tuple[int, ...]
    end: DealEnd | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        """The result as a record holds it (docs/records.md: exactly these three keys)."""
        return {"winner": self.winner, "rummy": self.rummy, "points": list(self.points)}


def describe_end(result: DealResult, rules: Rules, names: Sequence[str]) -> str:
    """Why the deal ended, in words: "Anna went out", "the same position came up 3 times"."""
    if result.end is None:
        return "nobody went out" if result.winner is None else f"{names[result.winner]} went out"
    winner = names[result.winner] if result.winner is not None else "nobody"
    return ENDINGS[result.end].format(winner=winner, repetition=rules.repetition)


def deal_points(
    rules: Rules, hands: Sequence[Sequence[int]], table: Sequence[Meld],
    active: Sequence[bool], winner: int | None, rummy: bool,
) -> tuple[int, ...]:
    """What the deal adds to each player's total."""
    multiplier = rules.rummy_multiplier if rummy else 1
    in_hand = [hand_points(h, rules) for h in hands]
    players = len(hands)
    match rules.scoring:
        case "collect":
            if winner is None:
                return (0,) * players
            return tuple(multiplier * sum(in_hand) if s == winner else 0 for s in range(players))
        case "penalty":
            if winner is None:
                return (0,) * players
            return tuple(0 if s == winner else multiplier * in_hand[s] for s in range(players))
        case "melded":
            laid = laid_points(table, rules, players)
            return tuple(
                laid[s] - (1 if s == winner else multiplier) * in_hand[s] if active[s] else 0
                for s in range(players)
            )
