"""Reviewing a match: the master's search at every decision, from the seat's view only.

For each decision of a record (an action chosen among two or more legal ones), the
decision's position is replayed and the seat's :func:`~rummykit.engine.views.view` taken,
and only that view goes to the search (in a worker process: the worker is never given a
card the seat could not see). The search is the hint's (:func:`rummykit.bots.hints.hint`):
the master's, seeded from the position as the hint seeds it, so the best action of a
review is the hint's at the same position with the same budget. It measures the action
played in every imagined deal too (``keep``: this changes neither its imagined deals nor
its choice).

Where the played action is not the best and the first run finds it worse by more than
:data:`~rummykit.analysis.model.SCREEN_ERRORS` standard error in points, a second run
with another seed measures the two actions alone on new imagined deals; the loss is that
run's, and counts only if it is again above the noise. A choice made among several
candidates on the same imagined deals favours the one whose deals went well, so the
first run's own figure would overstate the loss; the second run does not share its luck.
(``bench/review_noise.py`` measures how often a loss found once is found again.)

Decisions are reviewed in parallel, one per task, in ``jobs`` worker processes, and
``progress(done, total)`` is called as each one is done.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from rummykit import record as records
from rummykit.analysis.model import (
    NOISE_ERRORS,
    SCREEN_ERRORS,
    Budget,
    DealReport,
    Decision,
    Estimate,
    Review,
    ReviewError,
    card_unit,
    classify,
    decision_accuracy,
    summarize,
)
from rummykit.bots.hints import REASONS, Part, position_seed, reason_parts, render, verb
from rummykit.bots.master import MasterBot, Search, paired
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.scoring import DealResult
from rummykit.engine.views import View, view
from rummykit.errors import RecordError, shown
from rummykit.parallel import in_workers

__all__ = ["DEFAULT_BUDGET", "REVIEW_REASONS", "Position", "Stopped", "assemble",
           "decision_reason", "judge", "positions", "review"]

REVIEW_REASONS: dict[str, str] = {
    "review.took": "{name} took it from the pile",
    "review.took-melded": "{name} took it from the pile and melded it",
    "review.took-laid": "{name} took it from the pile and laid it off",
    "review.took-out": "{name} took it from the pile and went out",
    "review.better": "better",
}
"""The pieces a review adds to the hint's (:data:`rummykit.bots.hints.REASONS`): what
came of a discard, where the table saw it."""

Progress = Callable[[int, int], None]

DEFAULT_BUDGET: Final = Budget(rollouts=96)
"""The search's budget per decision by default: 96 imagined deals (a 2-deal ``classic``
match of about 70 decisions a seat is reviewed in about 10 s on 2 cores; docs/review.md)."""


class Stopped(ReviewError):
    """The review was stopped before its end (its ``stop`` event was set)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One decision to review: where it is, the seat's view there, what was played."""

    deal: int
    step: int
    seat: int
    name: str
    view: View
    played: Action
    then: Part | None = None
    """What came of a discard where the table saw it (the next player took it)."""


def positions(record: records.Record, seats: Sequence[int] | None = None) -> list[Position]:
    """Every decision of ``seats`` (every seat where None) in the record, in the order of
    play. A record that does not replay is a :class:`ReviewError`."""
    players = len(record.players)
    wanted = set(range(players) if seats is None else seats)
    for seat in wanted:
        if not 0 <= seat < players:
            raise ReviewError(f"seat {shown(seat)} is not at this table (0 to {players - 1})")
    found: list[Position] = []
    waiting: list[tuple[int, int, int, View] | None] = [None]

    def step(match: Match, number: int, text: str | None) -> None:
        before = waiting[0]
        if text is not None and before is not None:
            where, at, seat, seen = before
            found.append(Position(where, at, seat, match.names[seat], seen,
                                  Action.parse(text)))
        waiting[0] = None
        deal = match.deal
        if deal.is_over or deal.to_move not in wanted:
            return
        if len(deal.legal) < 2:
            return
        seen = view(match, deal.to_move)
        waiting[0] = (number, deal.move_count + 1, deal.to_move, seen)

    try:
        outcome = records.replay(record, step)
    except (RecordError, records.ReplayError) as err:
        raise ReviewError(f"the record does not replay: {err}") from None
    deals = [*outcome.match.finished]
    if outcome.mid_deal:
        deals.append(outcome.match.deal)
    return [_with_consequence(p, deals[p.deal - 1].moves, deals[p.deal - 1].result)
            for p in found]


def _with_consequence(p: Position, moves: Sequence[tuple[int, Action]],
                      result: DealResult | None) -> Position:
    """A discard's position with what the next player did with it, where he took it."""
    if p.played.kind != "discard" or p.step >= len(moves):
        return p
    taker, first = moves[p.step]
    if first.kind != "draw-pile":
        return p
    card = p.played.cards[0]
    name = p.view.names[taker]
    code = "review.took"
    for seat, action in moves[p.step + 1:]:
        if seat != taker or action.kind == "discard":
            break
        if card in action.cards:
            code = "review.took-melded" if action.kind == "meld" else "review.took-laid"
    turn_end = next((i for i in range(p.step + 1, len(moves))
                     if moves[i][0] != taker), len(moves))
    if turn_end == len(moves) and result is not None and result.winner == taker:
        code = "review.took-out"
    return Position(p.deal, p.step, p.seat, p.name, p.view, p.played, (code, {"name": name}))


# -- one decision -----------------------------------------------------------------------


def judge(position: Position, budget: Budget = DEFAULT_BUDGET,
          stop: threading.Event | None = None, *, seed: str | None = None) -> Decision:
    """Review one decision (see the module's description). ``seed``: the search's, in
    place of the hint's seed of the position (to measure the review's own noise)."""
    v = position.view
    played = position.played
    bot = MasterBot(rollouts=budget.rollouts, think=budget.seconds, stop=stop)
    seed = position_seed(v) if seed is None else seed
    found = bot.search(v, random.Random(seed), keep=(played,))
    best = found.choice
    unit = card_unit(v.rules)
    verdict = Decision(deal=position.deal, seat=position.seat, step=position.step,
                       name=position.name, played=str(played), best=str(best), loss=0.0,
                       win_loss=0.0, noise=0.0, win_noise=0.0, counted=0.0, cls="best",
                       estimates=_estimates(found), worlds=found.worlds, phase=v.phase)
    if best == played:
        return verdict
    loss, noise, win_loss, win_noise = _loss(found, best, played)
    confirmed = False
    if loss > SCREEN_ERRORS * noise:
        # Worth a second look, on imagined deals that did not choose the best.
        again = bot.measure(v, random.Random(f"{seed}/again"), (best, played))
        loss, noise, win_loss, win_noise = _loss(again, best, played)
        confirmed = True
    counted = loss if confirmed and loss > NOISE_ERRORS * noise else 0.0
    klass = classify(counted, unit)
    reason, why, then = decision_reason(position, best, found) if klass != "good" else (
        "", "", "")
    return replace(verdict, loss=max(loss, 0.0), win_loss=max(win_loss, 0.0), noise=noise,
                   win_noise=win_noise, counted=counted, cls=klass, reason=reason, why=why,
                   then=then, confirmed=confirmed, accuracy=decision_accuracy(counted, unit))


def _loss(found: Search, best: Action, played: Action) -> tuple[float, float, float, float]:
    """The points and deal-win chance ``played`` loses to ``best`` in ``found``, paired
    over the imagined deals both were measured in, with their standard errors."""
    by_action = {s.action: s for s in found.sampled}
    b, p = by_action[best], by_action[played]
    n = min(len(b.points), len(p.points))
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    loss, noise = paired(b.points[:n], p.points[:n], found.drawn)
    win_loss, win_noise = paired(b.wins[:n], p.wins[:n], found.drawn)
    return loss, noise, win_loss, win_noise


def _estimates(found: Search) -> tuple[Estimate, ...]:
    out = [Estimate(str(s.action), sum(s.points) / len(s.points), sum(s.wins) / len(s.wins),
                    len(s.points)) for s in found.sampled if s.points]
    return tuple(sorted(out, key=lambda e: (-e.points, -e.win)))


def decision_reason(position: Position, best: Action,
                    found: Search | None = None) -> tuple[str, str, str]:
    """The line that says what was played, what came of it where the table saw it, and
    the better action with the hint's reason for it; and those last two alone."""
    v = position.view
    played = render([verb(position.played, v)])
    then = ""
    if position.then is not None:
        code, params = position.then
        then = REVIEW_REASONS[code].format(**params)
        played += f" ({then})"
    # The hint's reason without its search figures (the review shows its own).
    parts = [part for part in reason_parts(v, best, found)
             if not part[0].startswith("more.search")]
    better = render(parts)
    why = "".join(REASONS[code].format(**params) for code, params in parts[1:])
    return f"{played}; {REVIEW_REASONS['review.better']} {better}", why, then


# -- a whole record ---------------------------------------------------------------------


def _record(source: records.Record | Mapping[str, Any] | str | os.PathLike[str]
            ) -> records.Record:
    if isinstance(source, records.Record):
        return source
    try:
        if isinstance(source, Mapping):
            return records.from_json(dict(source))
        return records.load(Path(source))
    except RecordError as err:
        raise ReviewError(f"not a valid record: {err}") from None


def review(record: records.Record | Mapping[str, Any] | str | os.PathLike[str], *,
           budget: Budget | str | int | float = DEFAULT_BUDGET, seats: Sequence[int] | None = None,
           jobs: int | None = None, progress: Progress | None = None,
           stop: threading.Event | None = None) -> Review:
    """Review every decision of ``record`` (a :class:`~rummykit.record.Record`, its JSON
    value, or the path of its file) by ``seats`` (all where None).

    ``budget``: the search's per decision (:class:`Budget`, or its text: ``"48"``
    imagined deals, ``"0.5s"``, ``"48,2s"``). ``jobs``: worker processes (default: the
    machine's cores; 1 reviews in this process). ``progress(done, total)`` is called
    after each decision. ``stop``, once set, ends the review at once with
    :class:`Stopped`. A record that cannot be read or replayed is a
    :class:`ReviewError`.
    """
    started = time.perf_counter()
    try:
        budget = Budget.parse(budget)
    except ValueError as err:
        raise ReviewError(str(err)) from None
    rec = _record(record)
    found = positions(rec, seats)
    total = len(found)
    if progress is not None:
        progress(0, total)
    jobs = max(1, min(jobs or os.cpu_count() or 1, total or 1))
    decisions: list[Decision | None] = [None] * total
    if jobs == 1:
        for i, position in enumerate(found):
            if stop is not None and stop.is_set():
                raise Stopped("the review was stopped")
            decisions[i] = judge(position, budget, stop)
            if progress is not None:
                progress(i + 1, total)
    else:
        _in_pool(found, budget, jobs, decisions, progress, stop)
    if stop is not None and stop.is_set():
        raise Stopped("the review was stopped")
    done = [d for d in decisions if d is not None]
    return assemble(rec, done, budget, seats, time.perf_counter() - started)


def assemble(record: records.Record, decisions: Sequence[Decision], budget: Budget,
             seats: Sequence[int] | None = None, seconds: float = 0.0) -> Review:
    """The review of these decisions of ``record``: every seat's reports."""
    names = tuple(record.players)
    reviewed = sorted(set(range(len(names)) if seats is None else seats))
    deals = sorted({d.deal for d in decisions} | set(range(1, len(record.deals) + 1)))
    return Review(
        rules=str(record.rules), players=names, budget=budget, unit=card_unit(record.rules),
        seats=tuple(summarize(s, names[s], decisions) for s in reviewed),
        deals=tuple(DealReport(n, tuple(summarize(s, names[s],
                                                  [d for d in decisions if d.deal == n])
                                        for s in reviewed)) for n in deals),
        decisions=tuple(decisions), seconds=seconds)


def _judge_task(task: tuple[int, Position, Budget]) -> tuple[int, Decision]:
    index, position, budget = task
    return index, judge(position, budget)


def _in_pool(found: Sequence[Position], budget: Budget, jobs: int,
             decisions: list[Decision | None], progress: Progress | None,
             stop: threading.Event | None) -> None:
    """Judge every position in ``jobs`` worker processes (:mod:`rummykit.parallel`:
    forked where this process runs one thread, else spawned); a worker is handed the
    positions only. Ctrl-C or ``stop`` ends the workers at once."""
    tasks = ((i, p, budget) for i, p in enumerate(found))
    results = in_workers(_judge_task, tasks, jobs)
    try:
        for done, (index, decision) in enumerate(results, 1):
            decisions[index] = decision
            if progress is not None:
                progress(done, len(found))
            if stop is not None and stop.is_set():
                raise Stopped("the review was stopped")
    finally:
        results.close()
