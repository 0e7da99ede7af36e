"""Game review: the master looks at every decision of a match and shows each player where
the points went.

:func:`review` replays a record and has the master's search (the hint's) weigh every
decision from the deciding seat's view at that moment, never a card it could not see:
each candidate's expected points of the deal and chance of winning it, the best action,
the loss of the one played, a class (``best``, ``good``, ``inaccuracy``, ``mistake``,
``blunder``), an accuracy from 0 to 100, and for each seat, over the match and each deal,
the points lost per decision and the biggest mistakes with a reason in the hints' words.
:mod:`rummykit.analysis.model` says how losses are measured against the search's noise,
classed and scored. ``rummykit analyze RECORD`` prints it; the result reads back from its
JSON (:meth:`Review.from_json`).

Reviewing a short 2-player record with a small budget, in this process:

>>> from rummykit.engine import Match
>>> from rummykit.record import from_match
>>> from rummykit.rules import preset
>>> from rummykit.bots import make_bot
>>> from rummykit.engine.views import view
>>> import random
>>> match = Match(preset("one-deal"), players=["Anna", "Bruno"], seed=3)
>>> rng = random.Random(0)
>>> while not match.is_over:
...     seat = match.deal.to_move
...     _ = match.apply(make_bot("greedy").choose(view(match, seat), rng))
>>> done = review(from_match(match), budget=4, jobs=1, seats=[0])
>>> [s.name for s in done.seats], 0 <= done.seat(0).accuracy <= 100
(['Anna'], True)
>>> Review.from_json(done.to_json()) == done
True
"""

from __future__ import annotations

from rummykit.analysis.model import (
    CLASSES,
    FORMAT,
    NOISE_ERRORS,
    THRESHOLDS,
    Budget,
    Class,
    DealReport,
    Decision,
    Estimate,
    Review,
    ReviewError,
    SeatReport,
    card_unit,
    classify,
    decision_accuracy,
)
from rummykit.analysis.review import (
    DEFAULT_BUDGET,
    REVIEW_REASONS,
    Position,
    Stopped,
    assemble,
    judge,
    positions,
    review,
)

__all__ = [
    "CLASSES", "DEFAULT_BUDGET", "FORMAT", "NOISE_ERRORS", "REVIEW_REASONS", "THRESHOLDS",
    "Budget", "Class", "DealReport", "Decision", "Estimate", "Position", "Review",
    "ReviewError", "SeatReport", "Stopped", "assemble", "card_unit", "classify",
    "decision_accuracy", "judge", "positions", "review",
]
