"""The master bot: determinized search (Monte Carlo over the deals its view allows).

For each decision it imagines deals that agree with everything its seat has seen
(:func:`rummykit.engine.determinize`): the opponents' hidden cards are dealt by the odds
that each is in each hand, and the imagined deals are kept in proportion to how well each
imagined hand explains what its player did (:mod:`rummykit.bots.inference`). It plays
every candidate action in each imagined deal and the deal on to its end with a fast
policy (:mod:`rummykit.bots.rollout`), and keeps the action that scores best on average.

- All candidates of one imagined deal share the same rollout randomness (common random
  numbers), so their differences are measured, not their luck.
- The expert's choice is the default: another action replaces it only when its mean gain
  over the expert's, paired deal by deal over at least :data:`MIN_PAIRED` imagined deals,
  is ``margin`` standard errors above zero.
- A candidate clearly worse than the expert's choice (:data:`PRUNE` standard errors below
  it) is dropped, and its share of the time goes to the others; when none is left but the
  expert's choice, the search stops.

It is anytime (it returns the best action found when its think time is up; an imagined
deal still being played then is dropped, so even slow ramino rollouts keep to the time)
and seeded: with ``rollouts`` (a budget of imagined deals instead of seconds) and the same
generator it plays identically on every run. Given both, it stops at whichever comes
first: the count on a fast machine, the time on a slow or busy one. Its ``stop`` event,
where it has one, ends a search at once (between two imagined deals): a front end that
is closing sets it rather than wait for the think time. It sees only its view.

A review of a finished match (:mod:`rummykit.analysis`) asks the same search one thing
more: ``keep``, actions (the one the player chose) measured in every imagined deal whatever
the pruning, never chosen unless they are candidates chosen as always. They change no
choice: the search draws its imagined deals and their randomness as it would without
them, and an action that is not a candidate is never chosen. Every action's results are
kept deal by deal (:attr:`Search.sampled`): its points and whether the seat won the deal.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rummykit.bots.expert import ExpertBot
from rummykit.bots.inference import sample_worlds
from rummykit.bots.rollout import play_out
from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal
from rummykit.engine.scoring import worth
from rummykit.engine.views import View

__all__ = ["MasterBot", "OddsFunction", "Sampled", "Search", "paired"]

OddsFunction = Callable[[View], Sequence[Mapping[int, float]]]
"""A picture of the opponents' hands: for each seat of the view's table, each hidden
card's odds of being in that seat's hand (empty for the view's own seat)."""

MIN_PAIRED = 16
"""The fewest imagined deals on which a candidate must be measured before it may replace
the expert's choice (fewer give standard errors that cannot be trusted)."""
WIDTH = 4
"""How many discards a decision searches by default: the expert's cheapest (a discard of a
card in one of the hand's melds is rarely right, and each candidate searched divides the
imagined deals among more)."""
THINK = 1.0
"""The seconds a decision takes when neither ``think`` nor ``rollouts`` is given."""
PRUNE = 2.0
"""A candidate whose mean gain over the expert's choice is this many standard errors below
zero is searched no more."""
MARGIN = 1.0
"""How many standard errors another action's gain over the expert's choice must reach to
replace it, by default."""
WIN = 20.0
"""The points an imagined deal is worth more to the player who goes out, by default: the
search plays for deals won as well as for points. With :data:`MARGIN`, measured against
``margin=2,win=0`` (the defaults before): more deals won and more points in 2-player
``classic`` and ``rummy500``, more deals won in 4-player ``classic`` (points level), level
in ``ramino`` (docs/strength.md)."""


@dataclass(frozen=True, slots=True)
class Sampled:
    """One action's results in the imagined deals it was played in (the search's first
    ``len(values)``, in order: see :attr:`Search.drawn`)."""

    action: Action
    values: tuple[float, ...]
    """What each deal was worth to the seat as the search weighs it: ``points``, and the
    search's ``win`` more for going out (less for another's)."""
    points: tuple[float, ...]
    """The seat's points of each deal less the mean of the others' (higher is better,
    also where points are penalties)."""
    wins: tuple[float, ...]
    """1.0 where the seat won the deal (went out), else 0.0."""


@dataclass(slots=True)
class Search:
    """What one decision's search found (for hints, tests and measurement)."""

    choice: Action
    baseline: Action
    candidates: tuple[Action, ...]
    means: tuple[float, ...]
    worlds: int
    seconds: float
    gains: tuple[float, ...] = field(default=())
    """Each candidate's mean gain over the baseline, deal by deal."""
    win: float = 0.0
    """The points going out was worth on top of the deal's points (in ``gains`` too)."""
    sampled: tuple[Sampled, ...] = ()
    """Each candidate's results deal by deal (in the order of ``candidates``), then those
    of each ``keep`` action that is not a candidate."""
    drawn: tuple[int, ...] = ()
    """Which imagined deal each measurement was made in (a deal the resampling drew twice
    is one piece of evidence, not two): the clusters of :func:`paired`."""


class MasterBot:
    """Determinized search with inference; see the module's description.

    ``think``: seconds per decision (:data:`THINK` when neither budget is given);
    ``rollouts``: this many imagined deals per decision (deterministic when alone; with
    ``think`` too, the search stops at whichever comes first); ``margin``: how many
    standard errors a candidate's gain over the expert's choice must reach to replace it
    (:data:`MARGIN`); ``width``: how many discards are searched (the expert's cheapest;
    fewer candidates get more imagined deals each); ``win``: the points going out is worth
    on top of the deal's points (:data:`WIN`); ``stop``: an event that ends the search
    at once when set (its choice is then the best found so far, or the expert's).

    For research on the picture of the opponents' hands (no front end offers them):
    ``odds``, a function of the view that gives, for each seat, each hidden card's odds of
    being in that seat's hand, called once a decision, deals the hidden cards by those
    odds instead of the card odds (:func:`rummykit.bots.inference.card_odds`, which it must
    resemble); ``reweight=False`` keeps the imagined deals as dealt instead of in
    proportion to how well the opponents' hands explain their actions.
    ``bench/hand_model.py`` measured a learned model of the hidden hands this way
    (docs/strength.md).
    """

    name = "master"

    def __init__(self, *, think: float | None = None, rollouts: int | None = None,
                 margin: float = MARGIN, width: int = WIDTH, win: float = WIN,
                 inference: bool = True, odds: OddsFunction | None = None,
                 reweight: bool = True, stop: threading.Event | None = None) -> None:
        if (think is not None and not think > 0) or (rollouts is not None and rollouts < 1) \
                or width < 1:
            raise ValueError("master: think must be positive, rollouts and width at least 1")
        self.think = THINK if think is None and rollouts is None else think
        """The time budget in seconds; None for a count of imagined deals alone."""
        self.rollouts = rollouts
        self.margin = margin
        self.width = width
        self.win = win
        """Points added for winning the imagined deal (taken from the others where one
        of them wins): above 0, the search plays more for deals won than for points."""
        self.inference = inference
        self.odds = odds
        """Where given, the odds the hidden cards are dealt by instead of the card odds."""
        self.reweight = reweight
        """Keep the imagined deals in proportion to how well the opponents' hands explain
        their actions (:func:`rummykit.bots.inference.weight`); off, they are kept as
        dealt."""
        self.stop = stop
        self._expert = ExpertBot()
        self.last: Search | None = None

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("it is not this bot's turn: the view offers no legal action")
        if len(legal) == 1:
            self.last = None
            return legal[0]
        return self.search(view, rng).choice

    def search(self, view: View, rng: random.Random, *,
               keep: Sequence[Action] = ()) -> Search:
        """Search this decision and return what was found. ``keep``: legal actions to
        measure in every imagined deal (see the module's description); they change
        neither the imagined deals nor the choice."""
        start = time.perf_counter()
        legal = view.legal_actions
        for action in keep:
            if action not in legal:
                raise ValueError(f"keep: {action} is not a legal action here")
        baseline = self._expert.choose(view, rng)
        candidates = _candidates(view, baseline, self._expert, self.width)
        extras = tuple(dict.fromkeys(a for a in keep if a not in candidates))
        actions = candidates + extras
        if len(candidates) == 1 and not extras:
            self.last = Search(baseline, baseline, candidates, (0.0,), 0,
                               time.perf_counter() - start, (0.0,), self.win,
                               (Sampled(baseline, (), (), ()),))
            return self.last
        # The clock is read only when there is a time budget (a count alone must not
        # depend on it).
        deadline = None if self.think is None else start + self.think
        budget = self.rollouts
        base = candidates.index(baseline)
        kept = {actions.index(a) for a in keep}
        results: list[list[tuple[float, float, float]]] = [[] for _ in actions]
        # Which imagined deal each value was played in: a deal drawn twice by the
        # resampling is one piece of evidence, not two (the standard errors say so).
        drawn: list[int] = []
        # The candidates still searched: one clearly worse than the baseline is dropped,
        # and its share of the budget goes to the others. (Kept actions are measured
        # whatever; they never decide when the search stops, but for one that the
        # pruning alone would end.)
        live = list(range(len(candidates)))
        odds = self._odds(view)
        worlds = 0
        batches = 0
        batch = 8
        while True:
            pool = sample_worlds(view, rng, batch, weighted=self.inference,
                                 deadline=deadline, odds=odds, reweight=self.reweight)
            batches += 1
            first: dict[int, int] = {}  # each distinct deal of this batch, numbered
            for world in pool:
                if self._stopped():
                    break
                seed = rng.getrandbits(64)
                measured = sorted(set(live) | kept)
                played = [_rollout_result(world, actions[i], view.seat, seed, deadline,
                                          self.win) for i in measured]
                done = [result for result in played if result is not None]
                if len(done) < len(measured):
                    break  # time ran out inside this imagined deal: it does not count
                for i, result in zip(measured, done, strict=True):
                    results[i].append(result)
                drawn.append(batches * 100_000 + first.setdefault(id(world), len(first)))
                worlds += 1
                if _spent(worlds, budget, deadline) or self._stopped():
                    break
            if _spent(worlds, budget, deadline) or self._stopped():
                break
            live = [i for i in live if i == base or not _clearly_worse(
                [r[0] for r in results[i]], [r[0] for r in results[base]], drawn, PRUNE)]
            if live == [base] and not kept - {base}:
                break
            batch = min(32, batch * 2)
        values = [[r[0] for r in rows] for rows in results]
        means = tuple(sum(v) / len(v) if v else float("-inf") for v in values[:len(candidates)])
        gains = []
        choice = baseline
        best_score = 0.0
        for i, action in enumerate(candidates):
            gain, se = _paired(values[i], values[base], drawn)
            gains.append(gain)
            if i == base or i not in live or len(values[i]) < MIN_PAIRED:
                continue
            score = gain - self.margin * se
            if score > best_score:
                best_score, choice = score, action
        sampled = tuple(Sampled(action, tuple(values[i]), tuple(r[1] for r in results[i]),
                                tuple(r[2] for r in results[i]))
                        for i, action in enumerate(actions))
        self.last = Search(choice, baseline, candidates, means, worlds,
                           time.perf_counter() - start, tuple(gains), self.win, sampled,
                           tuple(drawn))
        return self.last

    def measure(self, view: View, rng: random.Random, actions: Sequence[Action]) -> Search:
        """``actions`` (legal, two or more) measured alone, each in every imagined deal of
        the search's kind (the same inference, rollouts and budget; no baseline, no
        pruning): a second opinion on what a search found. Its ``choice`` and
        ``baseline`` are the first action, its ``gains`` each one's over the first."""
        start = time.perf_counter()
        actions = tuple(dict.fromkeys(actions))
        if len(actions) < 2 or any(a not in view.legal_actions for a in actions):
            raise ValueError("measure: two or more legal actions")
        deadline = None if self.think is None else start + self.think
        results: list[list[tuple[float, float, float]]] = [[] for _ in actions]
        drawn: list[int] = []
        odds = self._odds(view)
        worlds = 0
        batches = 0
        batch = 8
        while not (_spent(worlds, self.rollouts, deadline) or self._stopped()):
            batches += 1
            first: dict[int, int] = {}
            for world in sample_worlds(view, rng, batch, weighted=self.inference,
                                       deadline=deadline, odds=odds,
                                       reweight=self.reweight):
                seed = rng.getrandbits(64)
                played = [_rollout_result(world, a, view.seat, seed, deadline, self.win)
                          for a in actions]
                done = [result for result in played if result is not None]
                if len(done) < len(actions):
                    break
                for rows, result in zip(results, done, strict=True):
                    rows.append(result)
                drawn.append(batches * 100_000 + first.setdefault(id(world), len(first)))
                worlds += 1
                if _spent(worlds, self.rollouts, deadline) or self._stopped():
                    break
            batch = min(32, batch * 2)
        values = [[r[0] for r in rows] for rows in results]
        means = tuple(sum(v) / len(v) if v else float("-inf") for v in values)
        gains = tuple(_paired(v, values[0], drawn)[0] for v in values)
        sampled = tuple(Sampled(a, tuple(values[i]), tuple(r[1] for r in results[i]),
                                tuple(r[2] for r in results[i]))
                        for i, a in enumerate(actions))
        return Search(actions[0], actions[0], actions, means, worlds,
                      time.perf_counter() - start, gains, self.win, sampled, tuple(drawn))

    def _odds(self, view: View) -> Sequence[Mapping[int, float]] | None:
        """The odds of this decision's imagined deals, where not the card odds."""
        return self.odds(view) if self.odds is not None and self.inference else None

    def _stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()


def _spent(worlds: int, budget: int | None, deadline: float | None) -> bool:
    """Whether the search is done: its count of imagined deals played, or its time up."""
    return ((budget is not None and worlds >= budget)
            or (deadline is not None and time.perf_counter() >= deadline))


def paired(values: Sequence[float], base: Sequence[float],
           drawn: Sequence[int]) -> tuple[float, float]:
    """The mean gain of ``values`` over ``base`` on the imagined deals both were measured
    in, and its standard error (see :attr:`Search.drawn`): what the search weighs a
    candidate by, and a review a loss."""
    return _paired(values, base, drawn)


def _paired(values: Sequence[float], base: Sequence[float],
            drawn: Sequence[int]) -> tuple[float, float]:
    """The mean gain of ``values`` over ``base`` on the imagined deals both were played in
    (``values`` covers the first of them: a candidate dropped early has fewer), and its
    standard error, counting the plays of one imagined deal (``drawn`` names each play's
    deal) as one cluster."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    diffs = [a - b for a, b in zip(values, base[:n], strict=True)]
    gain = sum(diffs) / n
    clusters: dict[int, float] = {}
    for d, world in zip(diffs, drawn[:n], strict=True):
        clusters[world] = clusters.get(world, 0.0) + d - gain
    if len(clusters) < 2:
        return gain, math.inf
    k = len(clusters)
    var = sum(r * r for r in clusters.values()) * k / (k - 1)
    return gain, math.sqrt(var) / n


def _clearly_worse(values: Sequence[float], base: Sequence[float], drawn: Sequence[int],
                   errors: float) -> bool:
    """Whether a candidate's gain over the baseline is below zero by ``errors`` standard
    errors, over at least 8 imagined deals."""
    gain, se = _paired(values, base, drawn)
    return len(values) >= 8 and gain + errors * se < 0


def _candidates(view: View, baseline: Action, expert: ExpertBot,
                width: int) -> tuple[Action, ...]:
    """The actions worth searching: the expert's choice and the other legal actions, with
    the pile draws of rummy500 limited to the ones nearest the top and the discards to
    the ``width`` the expert ranks cheapest (every meld and lay-off is searched)."""
    legal = list(view.legal_actions)
    out = [baseline]
    if view.phase == "draw":
        draws = [a for a in legal if a != baseline]
        deep = [a for a in draws if a.kind == "draw-pile" and a.cards]
        shallow = [a for a in draws if a not in deep]
        out += shallow + deep[:4]
        return tuple(out)
    out += [a for a in legal if a != baseline and a.kind != "discard"]
    out += [a for a in expert.ranked_discards(view)[:width] if a != baseline]
    return tuple(out)


def _rollout(world: Deal, action: Action, seat: int, seed: int,
             deadline: float | None = None, win: float = 0.0) -> float | None:
    """``action``'s value to ``seat`` in one imagined deal played out from ``seed``; None
    where the play was still going on at ``deadline``."""
    result = _rollout_result(world, action, seat, seed, deadline, win)
    return None if result is None else result[0]


def _rollout_result(world: Deal, action: Action, seat: int, seed: int,
                    deadline: float | None = None,
                    win: float = 0.0) -> tuple[float, float, float] | None:
    """``action`` played in one imagined deal and the deal played out from ``seed``: its
    value to ``seat`` (:func:`_utility`), its points (the same without ``win``) and 1.0
    where ``seat`` won it; None where the play was still going on at ``deadline``."""
    deal = world.copy()
    deal.push(action)
    if play_out(deal, random.Random(seed), deadline=deadline) is None:
        return None
    points = _utility(deal, seat)
    value = _utility(deal, seat, win) if win else points
    result = deal.result
    won = 1.0 if result is not None and result.winner == seat else 0.0
    return value, points, won


def _utility(deal: Deal, seat: int, win: float = 0.0) -> float:
    """What the deal is worth to ``seat``: its points less the mean of the others', and
    ``win`` more for going out (``win`` less, shared among the others, for another's)."""
    result = deal.result
    if result is None:
        return 0.0
    rules = deal.rules
    others = [worth(rules, p) for s, p in enumerate(result.points)
              if s != seat and deal.active[s]]
    mine = worth(rules, result.points[seat])
    value = mine - (sum(others) / len(others) if others else 0.0)
    if win and result.winner is not None:
        value += win if result.winner == seat else -win / max(1, len(others))
    return value
