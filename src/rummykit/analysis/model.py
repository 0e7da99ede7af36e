"""What a review holds: typed values, their JSON, and the rules that classify and score.

Every value here is frozen and reads back from its JSON (:meth:`Review.from_json`), so a
review stored as JSON (by the web app, or a file) is the same typed object again.

The rules, with the reasons for them:

- **Noise.** The search measures each action in imagined deals; two runs with other seeds
  disagree a little. A loss is the paired mean difference of the best action's points and
  the played one's over the same imagined deals, with its standard error (imagined deals
  drawn twice count once). A first run that finds the played action worse by more than
  :data:`SCREEN_ERRORS` standard error asks a second run with another seed to measure
  the two actions again (:mod:`rummykit.analysis.review` says how), and the loss is
  *counted* only when the second run too finds it more than :data:`NOISE_ERRORS`
  standard errors above zero: a loss is never the first run's luck (the best of several
  candidates, measured on the same deals that picked it, looks better than it is). A
  loss under the noise is reported but counts as no loss: the decision is ``good``.
- **Classes** (:data:`THRESHOLDS`): by the counted loss in points, in units of the rules'
  mean card (:func:`card_unit`: 6.5 points in ``classic``): an *inaccuracy* costs half a
  card, a *mistake* a card, a *blunder* two cards or more. One card's points is what a
  discard decides (keeping a king rather than a four costs about one unit at the count),
  so a mistake is a wrong discard's worth and a blunder two of them. The loss in deal-win
  chance is measured and shown beside it but does not class: a deal is scored in points,
  and going out is already in them (in ``rummy500`` a player can win the deal and lose on
  points; a review that named the lost deal a blunder there would mislead). lichess
  classes by a drop in its winning chances; points are Rummy's equivalent.
- **Accuracy** of a decision: ``100 * exp(-loss / (2 * unit))`` of its counted loss in
  points (:func:`decision_accuracy`): 100 for no loss, 78 for an inaccuracy's half card,
  61 for a mistake's card, 37 for a blunder's two; a seat's accuracy is the mean over its
  decisions (as lichess's is a mean over moves, of a like exponential of the loss).
- **Decisions**: every action a seat chose among two or more legal ones (a draw, each
  meld or lay-off, a discard, ``end``); an action that was the only legal one is not a
  decision and is not reviewed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from rummykit.cards import make_deck
from rummykit.engine.melds import card_points
from rummykit.errors import RummyError, shown
from rummykit.rules import Rules

__all__ = [
    "CLASSES", "FORMAT", "MISTAKES_SHOWN", "NOISE_ERRORS", "SCREEN_ERRORS", "THRESHOLDS",
    "Budget", "Class", "DealReport", "Decision", "Estimate", "Review", "ReviewError",
    "SeatReport", "card_unit", "classify", "decision_accuracy", "summarize",
]

FORMAT: Final = "rummykit-review/1"

Class = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
"""How a decision is judged: the master's best action; another within the noise or a
loss too small to name; then the named losses, least first."""
CLASSES: Final[tuple[Class, ...]] = get_args(Class)

NOISE_ERRORS: Final = 2.0
"""A loss counts only when it is this many standard errors above zero in the second run."""
SCREEN_ERRORS: Final = 1.0
"""A first run that finds the played action worse by this many standard errors asks for
the second run."""

_NAMED: Final[tuple[tuple[Class, float], ...]] = (
    ("inaccuracy", 0.5), ("mistake", 1.0), ("blunder", 2.0))
THRESHOLDS: Final[dict[str, float]] = dict(_NAMED)
"""Each named class's least counted loss, in units of :func:`card_unit`."""

MISTAKES_SHOWN: Final = 5
"""The biggest losses listed for each seat (inaccuracies and worse)."""


class ReviewError(RummyError):
    """A review that cannot be made or read: a record that does not replay, bad JSON."""


def card_unit(rules: Rules) -> float:
    """The mean points of one card of the deck in hand under ``rules``: the scale of a
    loss (6.54 in ``classic``, 7.62 in ``rummy500``, 7.96 in ``ramino`` with its jokers)."""
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    return sum(card_points(c, rules) for c in deck) / len(deck)


def classify(loss: float, unit: float) -> Class:
    """The named class of a counted loss in points, or ``good``."""
    found: Class = "good"
    for name, cards in _NAMED:
        if loss >= cards * unit:
            found = name
    return found


def decision_accuracy(counted: float, unit: float) -> float:
    """One decision's accuracy from 0 to 100 (see the module's description)."""
    return 100.0 * math.exp(-max(counted, 0.0) / (2.0 * unit))


@dataclass(frozen=True, slots=True)
class Budget:
    """The search's budget for each decision: a count of imagined deals, seconds, or both
    (whichever runs out first). A count alone makes the review the same on every run."""

    rollouts: int | None = 96
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.rollouts is None and self.seconds is None:
            raise ValueError("a budget is a count of imagined deals, seconds, or both")
        if self.rollouts is not None and not 1 <= self.rollouts <= 100_000:
            raise ValueError(f"budget: {self.rollouts} imagined deals is out of range "
                             "(1 to 100000)")
        if self.seconds is not None and not 0.01 <= self.seconds <= 60:
            raise ValueError(f"budget: {self.seconds} seconds is out of range (0.01 to 60)")

    @classmethod
    def parse(cls, text: str | int | float | Budget) -> Budget:
        """``"96"`` (imagined deals), ``"0.5s"`` (seconds), ``"96,2s"`` (both)."""
        if isinstance(text, Budget):
            return text
        if isinstance(text, bool):
            raise ValueError(f"budget {shown(text)}: a count of imagined deals or seconds")
        if isinstance(text, int):
            return cls(rollouts=text)
        if isinstance(text, float):
            return cls(rollouts=None, seconds=text)
        rollouts: int | None = None
        seconds: float | None = None
        parts = [p.strip() for p in text.split(",")]
        if not 1 <= len(parts) <= 2 or not all(parts):
            raise ValueError(f"budget {shown(text)}: write imagined deals (96), seconds "
                             "(0.5s) or both (96,2s)")
        for part in parts:
            try:
                if part.endswith("s"):
                    if seconds is not None:
                        raise ValueError
                    seconds = float(part[:-1])
                else:
                    if rollouts is not None:
                        raise ValueError
                    rollouts = int(part)
            except ValueError:
                raise ValueError(f"budget {shown(text)}: write imagined deals (96), seconds "
                                 "(0.5s) or both (96,2s)") from None
            if seconds is not None and not math.isfinite(seconds):
                raise ValueError(f"budget {shown(text)}: seconds must be a number")
        return cls(rollouts=rollouts, seconds=seconds)

    def __str__(self) -> str:
        parts = [] if self.rollouts is None else [str(self.rollouts)]
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return ",".join(parts)


@dataclass(frozen=True, slots=True)
class Estimate:
    """The search's estimate of one action at a decision."""

    action: str
    """The action in the record notation."""
    points: float
    """Expected points of the deal for the seat: its points less the mean of the others'
    (higher is better, also where points are penalties)."""
    win: float
    """The chance that the seat wins the deal (goes out)."""
    worlds: int
    """Imagined deals it was measured in (fewer for a candidate the search dropped)."""

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "points": self.points,
                "win": self.win, "worlds": self.worlds}


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision."""

    deal: int
    """The deal, from 1."""
    seat: int
    step: int
    """The action's number in its deal, from 1 (as a replay's messages count them)."""
    name: str
    played: str
    best: str
    loss: float
    """Points lost by the played action against the best (0 where it is the best; never
    below 0): the second run's where there was one (see :attr:`confirmed`)."""
    win_loss: float
    """The deal-win chance lost (0 to 1)."""
    noise: float
    """The standard error of ``loss``."""
    win_noise: float
    counted: float
    """The loss as it counts: ``loss`` where it is above the noise, else 0."""
    cls: Class
    reason: str = ""
    """One line, for an inaccuracy or worse: what was played, what came of it where the
    table saw it, and the better action with the hint's reason."""
    why: str = ""
    """The hint's reason for the better action, without the action ("KS is your highest
    loose card")."""
    then: str = ""
    """What came of the played action where the table saw it ("Bruno took it from the
    pile and went out"), or nothing."""
    estimates: tuple[Estimate, ...] = ()
    """The first run's estimate of every action it measured, best first."""
    worlds: int = 0
    """Imagined deals of the first run."""
    confirmed: bool = False
    """Whether a second run with another seed measured the loss (see the module)."""
    accuracy: float = 100.0
    phase: str = "play"
    """``draw`` or ``play``: the part of the turn."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "seat": self.seat, "step": self.step, "name": self.name,
            "played": self.played, "best": self.best, "loss": self.loss,
            "class": self.cls, "win_loss": self.win_loss,
            "noise": self.noise, "win_noise": self.win_noise,
            "counted": self.counted, "accuracy": self.accuracy,
            "reason": self.reason, "why": self.why, "then": self.then, "phase": self.phase,
            "worlds": self.worlds,
            "confirmed": self.confirmed,
            "estimates": [e.to_json() for e in self.estimates],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        klass = data["class"]
        if klass not in CLASSES:
            raise ReviewError(f"decision: class {shown(klass)} is not one of "
                              f"{', '.join(CLASSES)}")
        return cls(
            deal=int(data["deal"]), seat=int(data["seat"]), step=int(data["step"]),
            name=str(data.get("name", "")), played=str(data["played"]),
            best=str(data["best"]), loss=float(data["loss"]),
            win_loss=float(data.get("win_loss", 0.0)), noise=float(data.get("noise", 0.0)),
            win_noise=float(data.get("win_noise", 0.0)),
            counted=float(data.get("counted", 0.0)), cls=klass,
            reason=str(data.get("reason", "")), why=str(data.get("why", "")),
            then=str(data.get("then", "")),
            estimates=tuple(Estimate(str(e["action"]), float(e["points"]), float(e["win"]),
                                     int(e["worlds"])) for e in data.get("estimates", [])),
            worlds=int(data.get("worlds", 0)), confirmed=bool(data.get("confirmed", False)),
            accuracy=float(data.get("accuracy", 100.0)), phase=str(data.get("phase", "play")),
        )

    @property
    def named(self) -> bool:
        """Whether it is an inaccuracy, a mistake or a blunder."""
        return self.cls in ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class SeatReport:
    """One seat's decisions summed up, over the match or over one deal."""

    seat: int
    name: str
    decisions: int
    points_lost: float
    """The counted losses added up."""
    accuracy: float
    counts: Mapping[Class, int]
    """How many decisions of each class."""
    mistakes: tuple[Decision, ...] = ()
    """The biggest named losses, biggest first (at most :data:`MISTAKES_SHOWN`)."""

    @property
    def points_lost_per_decision(self) -> float:
        return self.points_lost / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "decisions": self.decisions,
            "points_lost": self.points_lost,
            "points_lost_per_decision": self.points_lost_per_decision,
            "accuracy": self.accuracy,
            "counts": {name: self.counts.get(name, 0) for name in CLASSES},
            "mistakes": [_mistake_json(d) for d in self.mistakes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], decisions: Sequence[Decision]) -> SeatReport:
        by_place = {(d.deal, d.step): d for d in decisions}
        mistakes = []
        for m in data.get("mistakes", []):
            found = by_place.get((int(m["deal"]), int(m["step"])))
            mistakes.append(found if found is not None else Decision.from_json(m))
        counts = data.get("counts", {})
        return cls(seat=int(data["seat"]), name=str(data["name"]),
                   decisions=int(data["decisions"]), points_lost=float(data["points_lost"]),
                   accuracy=float(data["accuracy"]),
                   counts={name: int(counts.get(name, 0)) for name in CLASSES},
                   mistakes=tuple(mistakes))


def _mistake_json(d: Decision) -> dict[str, Any]:
    return {"deal": d.deal, "seat": d.seat, "step": d.step, "played": d.played,
            "best": d.best, "loss": d.loss, "win_loss": d.win_loss,
            "class": d.cls, "reason": d.reason}


def summarize(seat: int, name: str, decisions: Iterable[Decision]) -> SeatReport:
    """One seat's report over ``decisions`` (those of other seats are left out)."""
    own = [d for d in decisions if d.seat == seat]
    counts = {klass: sum(1 for d in own if d.cls == klass) for klass in CLASSES}
    accuracy = sum(d.accuracy for d in own) / len(own) if own else 100.0
    named = sorted((d for d in own if d.named), key=lambda d: (-d.counted, d.deal, d.step))
    return SeatReport(seat, name, len(own), sum(d.counted for d in own), accuracy, counts,
                      tuple(named[:MISTAKES_SHOWN]))


def _find(reports: Sequence[SeatReport], seat: int) -> SeatReport:
    for report in reports:
        if report.seat == seat:
            return report
    raise KeyError(f"seat {seat} was not reviewed")


@dataclass(frozen=True, slots=True)
class DealReport:
    """One deal's reports, seat by seat."""

    deal: int
    seats: tuple[SeatReport, ...]

    def seat(self, seat: int) -> SeatReport:
        """The report of one seat in this deal."""
        return _find(self.seats, seat)

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "seats": [s.to_json() for s in self.seats]}


@dataclass(frozen=True, slots=True)
class Review:
    """A whole match reviewed: per seat over the match (``seats``), per deal, and every
    decision in the order of play. :meth:`to_json` is the shape ``rummykit analyze
    --json`` prints; :meth:`from_json` reads it back."""

    rules: str
    players: tuple[str, ...]
    budget: Budget
    unit: float
    """The points of one card-unit of the thresholds (:func:`card_unit`)."""
    seats: tuple[SeatReport, ...]
    deals: tuple[DealReport, ...]
    decisions: tuple[Decision, ...]
    seconds: float = 0.0
    """How long the review took."""
    thresholds: Mapping[str, float] = field(default_factory=lambda: dict(THRESHOLDS))
    """Each named class's least loss in card units (:data:`THRESHOLDS` when made)."""

    def seat(self, seat: int) -> SeatReport:
        """The match report of one seat."""
        return _find(self.seats, seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules,
            "players": list(self.players),
            "budget": {"rollouts": self.budget.rollouts, "seconds": self.budget.seconds},
            "unit": self.unit,
            "noise_errors": NOISE_ERRORS,
            "thresholds": {name: {"points": cards * self.unit, "cards": cards}
                           for name, cards in self.thresholds.items()},
            "seconds": self.seconds,
            "seats": [s.to_json() for s in self.seats],
            "deals": [d.to_json() for d in self.deals],
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: object) -> Review:
        """Read a review's JSON (as :meth:`to_json` wrote it) back; anything else is a
        :class:`ReviewError`."""
        try:
            return _review_from_json(data)
        except ReviewError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ReviewError(f"not a review: {err!r}") from None


def _review_from_json(data: object) -> Review:
    if not isinstance(data, dict):
        raise ReviewError("a review is a JSON object")
    if data.get("format") != FORMAT:
        raise ReviewError(f"format {shown(data.get('format'))} is not {FORMAT!r}")
    decisions = tuple(Decision.from_json(d) for d in data["decisions"])
    budget = data["budget"]
    thresholds = {str(name): float(t["cards"])
                  for name, t in data.get("thresholds", {}).items()}
    return Review(
        rules=str(data["rules"]), players=tuple(str(p) for p in data["players"]),
        budget=Budget(budget.get("rollouts"), budget.get("seconds")),
        unit=float(data["unit"]),
        seats=tuple(SeatReport.from_json(s, decisions) for s in data["seats"]),
        deals=tuple(DealReport(int(d["deal"]), tuple(SeatReport.from_json(s, decisions)
                                                      for s in d["seats"]))
                    for d in data.get("deals", [])),
        decisions=decisions, seconds=float(data.get("seconds", 0.0)),
        thresholds=thresholds or dict(THRESHOLDS),
    )
