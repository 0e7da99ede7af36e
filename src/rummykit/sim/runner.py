"""Playing the games of a simulation: one job is one deal (or match) in one seating.

Jobs are pure functions of the configuration and the job's numbers, so any backend (one
process, a process pool, a Ray cluster) gives the same outcomes in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from rummykit import record as records
from rummykit.bots import Bot, make_bot
from rummykit.engine.deal import Deal
from rummykit.engine.match import Match
from rummykit.engine.views import view
from rummykit.rules import Rules

__all__ = ["MAX_DEALS_PER_MATCH", "Config", "Job", "Outcome", "play_job"]

MAX_DEALS_PER_MATCH = 200
"""A match of bots that has not ended after this many deals is stopped as unfinished."""

ACTIONS_BOUND = 1_000_000
"""No deal comes near this many actions: the rules end every deal (a position that comes
up for the third time ends it), so passing it is an engine or bot bug, reported with the
job that shows it, never a result."""


@dataclass(frozen=True, slots=True)
class Config:
    """What a simulation plays."""

    rules: str
    players: int
    bots: tuple[str, ...]
    """One bot level per seat, in seating order of rotation 0."""
    mode: Literal["deals", "matches"] = "deals"
    count: int = 100
    seed: int = 0
    duplicate: bool = False
    """Play each deal (or match) once per rotation of the bots around the table."""
    keep_records: bool = False

    @property
    def rotations(self) -> int:
        return self.players if self.duplicate else 1

    @property
    def total(self) -> int:
        """Jobs in all: games times rotations."""
        return self.count * self.rotations

    def jobs(self) -> Iterator[Job]:
        """Every job in order, made as they are asked for (a run of ten million deals
        holds none of them in memory)."""
        for i in range(self.count):
            for r in range(self.rotations):
                yield Job(i, r)

    def labels(self) -> list[str]:
        """Distinct names for the bots (a level seated twice gets a number)."""
        out: list[str] = []
        for level in self.bots:
            name = level
            k = 2
            while name in out:
                name = f"{level} ({k})"
                k += 1
            out.append(name)
        return out


@dataclass(frozen=True, slots=True)
class Job:
    index: int
    rotation: int


@dataclass(slots=True)
class Outcome:
    """What one job produced, seat by seat (seat s was played by bot ``bot_of[s]``)."""

    index: int
    rotation: int
    bot_of: list[int]
    deal_points: list[list[int]] = field(default_factory=list)
    """Per deal, the points each seat scored."""
    deal_winners: list[int | None] = field(default_factory=list)
    deal_rummies: list[bool] = field(default_factory=list)
    deal_active: list[list[bool]] = field(default_factory=list)
    """Per deal, which seats played it (a ramino player who is out sits deals out)."""
    decisions: list[int] = field(default_factory=list)
    """Decisions per seat over the job."""
    match_winner: int | None = None
    match_finished: bool = False
    totals: list[int] = field(default_factory=list)
    record: str | None = None


def _bots_for(config: Config, rotation: int) -> tuple[list[int], list[Bot]]:
    n = config.players
    bot_of = [(seat - rotation) % n for seat in range(n)]
    return bot_of, [make_bot(config.bots[b]) for b in bot_of]


def play_job(config: Config, job: Job) -> Outcome:
    """Play one job; the result depends only on ``config`` and ``job``."""
    rules = Rules.parse(config.rules)
    n = config.players
    bot_of, bots = _bots_for(config, job.rotation)
    rngs = [random.Random(f"rummykit/sim/{config.seed}/{job.index}/{job.rotation}/{seat}")
            for seat in range(n)]
    outcome = Outcome(job.index, job.rotation, bot_of, decisions=[0] * n)
    if config.mode == "deals":
        # Each deal its own seed, so that its record (one deal, index 0) replays it,
        # refill shuffles included.
        deal = Deal.start(rules, players=n, dealer=job.index % n, seed=job_seed(config, job),
                          index=0)
        steps = 0
        while not deal.is_over:
            seat = deal.to_move
            deal.push(bots[seat].choose(view(deal, seat), rngs[seat]))
            outcome.decisions[seat] += 1
            steps += 1
            _check_bound(steps, config, job)
        _note(deal, outcome)
        outcome.totals = list(outcome.deal_points[0]) if outcome.deal_points else [0] * n
        if config.keep_records:
            rec = records.Record(
                rules, [config.labels()[b] for b in bot_of],
                [records.DealRecord([str(a) for a in deal.history], deal.dealer, deal.layout,
                                    deal.result)],
                job_seed(config, job), None)
            outcome.record = records.dumps(rec)
        return outcome
    names = [config.labels()[b] for b in bot_of]
    match = Match(rules, players=names, seed=job_seed(config, job))
    while not match.is_over and len(match.finished) < MAX_DEALS_PER_MATCH:
        deal = match.deal
        steps = 0
        while match.deal is deal and not match.is_over:
            seat = deal.to_move
            match.push(bots[seat].choose(view(match, seat), rngs[seat]))
            outcome.decisions[seat] += 1
            steps += 1
            _check_bound(steps, config, job)
    for deal in match.finished:
        _note(deal, outcome)
    outcome.match_finished = match.is_over
    outcome.match_winner = match.winner
    outcome.totals = list(match.totals)
    if config.keep_records:
        outcome.record = records.dumps(records.from_match(match))
    return outcome


def _check_bound(steps: int, config: Config, job: Job) -> None:
    if steps > ACTIONS_BOUND:
        raise RuntimeError(
            f"a deal of {config.rules} (seed {config.seed}, job {job.index}, rotation "
            f"{job.rotation}) did not end within {ACTIONS_BOUND} actions: this is a bug"
        )


def job_seed(config: Config, job: Job) -> int:
    """The seed of a job's deal or match (the same for every rotation of the seats)."""
    return config.seed * 1_000_003 + job.index


def _note(deal: Deal, outcome: Outcome) -> None:
    result = deal.result
    if result is None:
        return
    outcome.deal_points.append(list(result.points))
    outcome.deal_winners.append(result.winner)
    outcome.deal_rummies.append(result.rummy)
    outcome.deal_active.append(list(deal.active))
