"""Ratings: how strong each person and each bot level is, per rule set and player count.

A rated match moves its players' ratings by the Weng-Lin method (OpenSkill's
Plackett-Luce model, which rates matches of more than two players and ties). Each player
has a skill ``mu`` and an uncertainty ``sigma``; what is shown is one number, the
conservative estimate ``mu - 3 sigma`` put on a scale like Elo's (:func:`display`).

- **Groups.** A rating belongs to a preset and a player-count group: ``2`` (a duel: one
  opponent to read), ``3-4`` and ``5-6``. Skill against one opponent is not skill at a
  table of four, and at five and six several presets deal smaller hands or a second deck,
  so those tables are apart from the common three or four.
- **Ranking.** A match ranks its players by its own outcome (:func:`ranking`): the winner
  first, then the others by how long they lasted (a Ramino player knocked out later is
  placed higher), then by their final totals (higher first; where the preset counts
  totals against a player, lower first), equal totals tied. A person who left (their
  table ended the match then, or the computer played their seat to the end) is last. A
  match of several people that the stand-ins played to its end after every one of them
  left has no outcome: it is not rated.
- **The scale.** ``display = 1500 + SCALE * ((mu - 3 sigma) - (MU - 3 SETTLED))``: a
  player whose uncertainty has settled to ``SETTLED`` at the starting skill shows 1500,
  and a difference of ``d`` shown points between settled players is a difference of
  ``d`` Elo points (``SCALE`` turns the model's logistic into Elo's). A newcomer's wide
  uncertainty shows lower (995) and is marked provisional until
  ``PROVISIONAL_MATCHES`` rated matches.
- **Bots.** A bot level starts where the bot ladder measured it (:data:`LADDER`, the Elo
  scale of ``bench/ladders.py``, mean 1500): its ``mu`` is placed so that, settled, it
  shows its ladder rating; a person starts at the ladder's mean. The ladder rates deals,
  not matches; the bots' ratings then move with the matches they play, as people's do.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce

from rummykit.engine.scoring import worth
from rummykit.rules import Rules

__all__ = [
    "BETA", "GROUPS", "LADDER", "MU", "PROVISIONAL_MATCHES", "SCALE", "SETTLED", "SIGMA",
    "Group", "Skill", "bot_start", "display", "group", "ranking", "rate",
]

Group = Literal["2", "3-4", "5-6"]
GROUPS: tuple[Group, ...] = ("2", "3-4", "5-6")

MU = 25.0
"""A newcomer's skill (OpenSkill's default)."""
SIGMA = MU / 3
"""A newcomer's uncertainty."""
BETA = MU / 6
"""The spread of one match's performance around a player's skill."""
SETTLED = 2.0
"""The uncertainty of a player rated often enough (the scale's anchor, and a bot's)."""
SCALE = 400 / (math.log(10) * math.sqrt(2 * SETTLED**2 + 2 * BETA**2))
"""Shown points per unit of skill: between two settled players the model's chance that one
beats the other, ``1 / (1 + exp(-(mu1 - mu2) / c))`` with ``c^2 = 2 SETTLED^2 + 2 BETA^2``,
is Elo's for ``SCALE`` times their skills' difference."""
PROVISIONAL_MATCHES = 10
"""Rated matches before a rating is shown without "provisional"."""

LADDER: dict[str, dict[str, dict[int, int]]] = {
    "basic": {"random": {2: 954, 4: 1070}, "greedy": {2: 1544, 4: 1550},
             "learned": {2: 1637, 4: 1564}, "expert": {2: 1676, 4: 1653},
             "master": {2: 1689, 4: 1663}},
    "one-deal": {"random": {2: 953, 4: 1054}, "greedy": {2: 1547, 4: 1567},
                "learned": {2: 1615, 4: 1567}, "expert": {2: 1662, 4: 1639},
                "master": {2: 1723, 4: 1674}},
    "classic": {"random": {2: 983, 4: 1101}, "greedy": {2: 1524, 4: 1558},
               "learned": {2: 1632, 4: 1599}, "expert": {2: 1641, 4: 1568},
               "master": {2: 1721, 4: 1674}},
    "rummy500": {"random": {2: 1394, 4: 1232}, "greedy": {2: 1482, 4: 1496},
                "learned": {2: 1509, 4: 1578}, "expert": {2: 1500, 4: 1578},
                "master": {2: 1616, 4: 1617}},
    "limited-stock": {"random": {2: 1042, 4: 1197}, "greedy": {2: 1519, 4: 1544},
                     "learned": {2: 1592, 4: 1508}, "expert": {2: 1651, 4: 1599},
                     "master": {2: 1695, 4: 1653}},
    "ramino": {"random": {2: 1258, 4: 1220}, "greedy": {2: 1476, 4: 1493},
              "learned": {2: 1606, 4: 1599}, "expert": {2: 1579, 4: 1589},
              "master": {2: 1581, 4: 1599}},
}
"""The bot ladder's ratings (Elo scale, mean 1500) per preset, level and player count, from
the last run of ``bench/ladders.py`` (docs: the bot ladders): 2 players, and 4 players for
the groups of 3-4 and 5-6 (the nearest measured)."""

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


@dataclass(frozen=True)
class Skill:
    """One rating: skill, uncertainty and the rated matches behind it."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def display(mu: float, sigma: float) -> int:
    """The rating shown for a skill ``mu`` and uncertainty ``sigma`` (see the module).

    >>> display(MU, SETTLED), display(MU, SIGMA)
    (1500, 995)
    """
    return round(1500 + SCALE * ((mu - 3 * sigma) - (MU - 3 * SETTLED)))


def group(players: int) -> Group:
    """The player-count group of a match of ``players``.

    >>> group(2), group(4), group(6)
    ('2', '3-4', '5-6')
    """
    if players == 2:
        return "2"
    if players in (3, 4):
        return "3-4"
    if players in (5, 6):
        return "5-6"
    raise ValueError(f"a rated match has 2 to 6 players, not {players}")


def bot_start(preset: str | None, level: str, players: int) -> Skill:
    """Where a bot level starts: its ladder rating, settled (a level or preset the ladder
    did not measure starts as a person does). ``level`` may carry settings
    (``master(think=2)``): the base level's rating."""
    base = level.split("(", 1)[0].strip()
    measured = LADDER.get(preset or "", {}).get(base)
    if measured is None:
        return Skill()
    elo = measured[2 if players == 2 else 4]
    return Skill(mu=MU + (elo - 1500) / SCALE, sigma=SETTLED)


def ranking(rules: Rules, totals: Sequence[int], winner: int | None,
            left: Collection[int] = (), played: Sequence[int] | None = None) -> list[int]:
    """Each seat's place in a match (1 the best; equal places are ties): the winner (if
    the match has a single one) first; the others by how long they lasted (``played``,
    the deals each took part in: where players are knocked out, as in Ramino, one out
    later placed higher), then by their totals as the rules weigh them; the seats of
    people who left (``left``) last.

    >>> from rummykit.rules import preset
    >>> ranking(preset("classic"), [10, 40, 40], winner=1)
    [3, 1, 2]
    >>> ranking(preset("ramino"), [103, 140, 60], winner=2, played=[4, 6, 6])
    [3, 2, 1]
    >>> ranking(preset("classic"), [0, 30, 0], winner=None, left={1})
    [1, 3, 1]
    """

    def key(seat: int) -> tuple[int, int, int]:
        if seat in left:
            return (2, 0, 0)
        if seat == winner:
            return (0, 0, 0)
        lasted = 0 if played is None else -played[seat]
        return (1, lasted, -worth(rules, totals[seat]))

    keys = [key(seat) for seat in range(len(totals))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def rate(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The skills after one match whose seats had ``before`` and placed ``ranks``."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError("one skill and one place per seat, two seats at least")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma, old.matches + 1)
            for team, old in zip(after, before, strict=True)]
