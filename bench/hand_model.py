"""A learned model of the opponent's hidden hand, trained and measured against the master's
card odds (a measurement: the master does not use it; docs/strength.md has the result).

For each card a seat cannot place, the model gives the chance that one opponent holds it:
a small neural network over public facts measured per card and shared by every card: the
card's relations to each pile card the opponent threw, took or let pass, by how long ago
(and whether it is that very card, back in the stock after a turn-over), to the cards he
is known to hold and to the seat's own hand; how many melds could still be made with it;
whether it fits a meld on the table; its rank and points; how far the deal has gone. Its
output is added to the log-odds that a card is his when every card is as likely as
another, ``log(k / (n - k))`` for ``k`` of his cards among ``n`` hidden ones.

Training: the expert plays 2-player ``classic`` deals against itself. At each draw
decision of either seat, every card that seat cannot place is one example (the inputs of
:func:`card_rows` and whether the opponent holds it). The network is fitted to them
(NumPy, Adam, cross-entropy) and written to ``--weights``. Then, on deals from other
seeds, it is measured against the master's card odds
(``rummykit.bots.inference.card_odds``) and against every hidden card being as likely: the
Brier score of "the opponent holds this card", each way's chances shifted so that they add
up to the number of his hidden cards, with a 95% interval on the difference (deals as the
unit).

In play: ``bench/duel.py --hand-model FILE`` gives its first bot, a master, the model's
odds (``MasterBot(odds=...)``), and ``bench/inference.py --hand-model FILE`` measures the
hands the search imagines with them.

Usage (about 7 minutes on 2 cores with the defaults: 40,000 training deals, 694,215
positions, 19.4 million hidden cards; 1,000 held-out deals)::

    python bench/hand_model.py
    python bench/hand_model.py --deals 2000 --test-deals 300 --weights /tmp/hm.json
    PYTHONPATH=build/compiled/src python bench/duel.py "master(rollouts=64)" \
        "master(rollouts=64)" --hand-model build/hand_model.json --deals 1000 --seed 30000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from rummykit.bots import make_bot
from rummykit.bots.inference import (
    Observations,
    card_odds,
    live_melds,
    observations,
    out_of_play,
    suit_card,
    table_at_last_turn,
)
from rummykit.cards import JOKER_CODE
from rummykit.engine import Deal
from rummykit.engine.melds import Meld, card_points, fits
from rummykit.engine.views import View, view
from rummykit.rules import Rules

_KINDS = ("discarded", "took", "declined")
_RELATIONS = ("rank", "next", "gap")
_AGES = ("latest", "recent", "older")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

FEATURES: tuple[str, ...] = (
    "prior",
    *(f"self_{kind}_{age}" for kind in _KINDS for age in _AGES),
    *(f"{kind}_{relation}_{age}" for kind in _KINDS for relation in _RELATIONS
      for age in _AGES),
    "held_rank", "held_next", "held_gap", "mine_rank", "mine_next", "mine_gap",
    "live_sets", "live_runs", "fits_last_turn", "fits_now", "points",
    *(f"rank_{rank}" for rank in _RANKS),
    "late", "live_sets_late", "live_runs_late", "points_late",
    "his_hidden", "unseen", "stock", "pile", "my_turns", "opened", "known_held",
    "turn_overs",
)
"""What the model reads of one hidden card for one opponent (see :func:`card_rows`): the
card's own facts, then the position's, the same for every card."""

_SELF = 1
_EVENTS = _SELF + len(_KINDS) * len(_AGES)
_HELD = _EVENTS + len(_KINDS) * len(_RELATIONS) * len(_AGES)
_MINE = _HELD + 3
_LIVE = _MINE + 3
_RANK = _LIVE + 5
_LATE = _RANK + len(_RANKS)
_GLOBAL = _LATE + 4


def _age(age: int) -> int:
    return 0 if age == 0 else 1 if age <= 2 else 2


def _related(card: int) -> list[tuple[int, int]]:
    """The natural cards one short of a meld with ``card``, each with how (0 the same rank,
    1 one place away in its suit, 2 two places away)."""
    rank, suit = card % 13, card // 13
    out = [(suit_card(other, rank), 0) for other in range(4) if other != suit]
    for gap in (1, 2):
        for r in (rank - gap, rank + gap):
            if 0 <= r < 13:
                out.append((suit_card(suit, r), gap))
    return out


_NEAR: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(_related(c)) for c in range(52))


def card_rows(view: View, seat: int, seen: Observations | None = None) -> \
        tuple[list[int], list[list[float]], int]:
    """For opponent ``seat`` of ``view``'s seat: the hidden cards (sorted, a card twice
    where two are hidden), each one's inputs in the order of :data:`FEATURES`, and ``k``,
    how many of them his hand holds."""
    seen = observations(view) if seen is None else seen
    knowledge = view.knowledge
    hidden = list(knowledge.unseen)
    k = sum(group.hands[seat] for group in knowledge.hidden)
    n = len(hidden)
    if not hidden:
        return [], [], k
    prior = math.log(k / (n - k)) if 0 < k < n else (-10.0 if k == 0 else 10.0)
    rules = view.rules
    # Each event and held card, spread once over the cards it goes with.
    self_events: dict[int, list[float]] = {}
    related: dict[int, list[float]] = {}
    for age, kind, other in seen.events[seat]:
        if other == JOKER_CODE:
            continue
        slot = _KINDS.index(kind)
        a = _age(age)
        self_events.setdefault(other, [0.0] * 9)[slot * 3 + a] += 1
        for card, relation in _NEAR[other]:
            related.setdefault(card, [0.0] * 27)[(slot * 3 + relation) * 3 + a] += 1
    held: dict[int, list[float]] = {}
    for other in knowledge.known[seat]:
        if other != JOKER_CODE:
            for card, relation in _NEAR[other]:
                held.setdefault(card, [0.0] * 3)[relation] += 1
    mine: dict[int, list[float]] = {}
    for other in view.hand:
        if other != JOKER_CODE:
            for card, relation in _NEAR[other]:
                mine.setdefault(card, [0.0] * 3)[relation] += 1
    out = out_of_play(view)
    last_table: Sequence[Meld] = table_at_last_turn(view, seat)
    late = seen.turns[seat] / 10
    tail = [k / 10, n / 50, view.stock_size / 50, view.pile_size / 50,
            seen.turns[view.seat] / 10, float(view.opened[seat]),
            len(knowledge.known[seat]) / 10, float(len(view.events))]
    zeros9, zeros27, zeros3 = [0.0] * 9, [0.0] * 27, [0.0] * 3
    rows: list[list[float]] = []
    for card in hidden:
        if card == JOKER_CODE:
            row = [prior] + [0.0] * (_GLOBAL - 1) + tail
            rows.append(row)
            continue
        rank = card % 13
        live_sets, live_runs = live_melds(card, out, rules)
        sets, runs = float(live_sets), float(live_runs)
        points = card_points(card, rules) / 10
        ranked = [0.0] * 13
        ranked[rank] = 1.0
        rows.append([prior, *self_events.get(card, zeros9), *related.get(card, zeros27),
                     *held.get(card, zeros3), *mine.get(card, zeros3), sets, runs,
                     float(any(fits(m, card, rules) for m in last_table)),
                     float(any(fits(m, card, rules) for m in view.melds)), points,
                     *ranked, late, sets * late, runs * late, points * late, *tail])
    return hidden, rows, k


def marginals(logits: Sequence[float], k: int) -> list[float]:
    """Each card's chance of being one of the ``k`` held, from its log-odds: the logits
    shifted by one constant so that the chances add up to ``k`` (bisection)."""
    if not logits:
        return []
    if k <= 0:
        return [0.0] * len(logits)
    if k >= len(logits):
        return [1.0] * len(logits)
    low, high = -50.0, 50.0
    for _ in range(60):
        shift = (low + high) / 2
        total = sum(_sigmoid(x + shift) for x in logits)
        if total > k:
            high = shift
        else:
            low = shift
    return [_sigmoid(x + (low + high) / 2) for x in logits]


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


class HandModel:
    """The network: one hidden layer of rectified units over :data:`FEATURES`, one output
    added to the ``prior`` feature (the log-odds when every hidden card is as likely)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        names = tuple(weights["features"])
        if names != FEATURES:
            raise ValueError("hand model: its features are not this version's")
        self.w1: list[list[float]] = [list(map(float, row)) for row in weights["w1"]]
        """One row per feature, one column per hidden unit."""
        self.b1: list[float] = [float(x) for x in weights["b1"]]
        self.w2: list[float] = [float(x) for x in weights["w2"]]
        self.b2 = float(weights["b2"])
        if len(self.w1) != len(FEATURES) or any(len(r) != len(self.b1) for r in self.w1) \
                or len(self.w2) != len(self.b1):
            raise ValueError("hand model: the weights' shapes do not agree")

    def logits(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each row's log-odds of being in the opponent's hand."""
        out = []
        w1, b1, w2, b2 = self.w1, self.b1, self.w2, self.b2
        for row in rows:
            hidden = list(b1)
            for x, weights in zip(row, w1, strict=True):
                if x:
                    hidden = [h + x * w for h, w in zip(hidden, weights, strict=True)]
            out.append(row[0] + b2 + sum(w * h for w, h in zip(w2, hidden, strict=True)
                                         if h > 0))
        return out

    def odds(self, view: View, seen: Observations | None = None) -> list[dict[int, float]]:
        """As :func:`rummykit.bots.inference.card_odds` (a master's ``odds``): for each
        seat, each hidden card's odds of being in that seat's hand; empty for the viewing
        seat and for a seat with no hidden card."""
        seen = observations(view) if seen is None else seen
        result: list[dict[int, float]] = []
        for seat in range(len(view.hand_sizes)):
            if seat == view.seat:
                result.append({})
                continue
            cards, rows, _ = card_rows(view, seat, seen)
            result.append({c: math.exp(min(x, 30.0))
                           for c, x in zip(cards, self.logits(rows), strict=True)})
        return result

    def probabilities(self, view: View, seat: int) -> dict[int, float]:
        """Each hidden card's chance of being in ``seat``'s hand (adding up to how many of
        his cards are hidden; a card hidden twice gets its chance of each copy)."""
        cards, rows, k = card_rows(view, seat)
        return dict(zip(cards, marginals(self.logits(rows), k), strict=True))


def load(path: Path) -> HandModel:
    """The model whose weights :func:`main` wrote to ``path``."""
    return HandModel(json.loads(path.read_text(encoding="utf-8")))


WEIGHTS = Path("build/hand_model.json")
"""Where the weights are written by default (build/ is not part of the repository)."""

Batch = dict[str, np.ndarray]


def collect(task: tuple[int, int, bool]) -> Batch:
    """The examples of ``deals`` deals from seed ``first`` on: inputs ``x``, labels ``y``,
    each example's position ``pos`` and deal ``deal``, each position's ``k``; with
    ``baseline`` the card odds' log-odds ``odds`` too."""
    first, deals, baseline = task
    rules = Rules.parse("classic")
    bot = make_bot("expert")
    rng = random.Random(f"hand-model/{first}")
    xs: list[list[float]] = []
    ys: list[int] = []
    pos: list[int] = []
    deal_of: list[int] = []
    ks: list[int] = []
    odds: list[float] = []
    for index in range(first, first + deals):
        deal = Deal.start(rules, players=2, dealer=index % 2, seed=index)
        while not deal.is_over:
            seat = deal.to_move
            v = view(deal, seat)
            if deal.phase == "draw":
                other = 1 - seat
                seen = observations(v)
                cards, rows, k = card_rows(v, other, seen)
                if 0 < k < len(cards):
                    held = list(deal.hands[other])
                    xs.extend(rows)
                    ys.extend(1 if c in held else 0 for c in cards)
                    pos.extend([len(ks)] * len(cards))
                    deal_of.extend([index] * len(cards))
                    ks.append(k)
                    if baseline:
                        table = card_odds(v, seen)[other]
                        odds.extend(math.log(table[c]) for c in cards)
            deal.push(bot.choose(v, rng))
    out = {"x": np.array(xs, dtype=np.float32), "y": np.array(ys, dtype=np.float32),
           "pos": np.array(pos, dtype=np.int64), "deal": np.array(deal_of, dtype=np.int64),
           "k": np.array(ks, dtype=np.int64)}
    if baseline:
        out["odds"] = np.array(odds, dtype=np.float64)
    return out


def gather(first: int, deals: int, baseline: bool, workers: int) -> Batch:
    """:func:`collect` split over ``workers`` processes, joined in order."""
    chunk = max(1, min(250, math.ceil(deals / (workers * 8))))
    tasks = [(s, min(chunk, first + deals - s), baseline)
             for s in range(first, first + deals, chunk)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(collect, tasks))
    joined: Batch = {}
    offset = 0
    for part in parts:
        part["pos"] += offset
        offset += len(part["k"])
    for key in parts[0]:
        joined[key] = np.concatenate([p[key] for p in parts])
    return joined


def train(data: Batch, hidden: int, epochs: int, seed: int) -> dict[str, object]:
    """Fit the network: logit = prior + w2 . relu(x W1 + b1) + b2, by Adam on the mean
    cross-entropy, minibatches of 4,096 examples, the step size halved for each of the
    last epochs."""
    rng = np.random.default_rng(seed)
    x, y = data["x"], data["y"]
    features = x.shape[1]
    w1 = (rng.standard_normal((features, hidden)) * math.sqrt(2 / features)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal(hidden) * 0.01).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    params = [w1, b1, w2, b2]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step, lr, size = 0, 3e-3, 4096
    for epoch in range(epochs):
        rate = lr if epoch < epochs - 2 else lr / (2 ** (epoch - epochs + 3))
        order = rng.permutation(len(y))
        total = 0.0
        for start in range(0, len(y), size):
            i = order[start:start + size]
            xb, yb = x[i], y[i]
            h = xb @ w1 + b1
            a = np.maximum(h, 0)
            logit = xb[:, 0] + a @ w2 + b2[0]
            p = 1 / (1 + np.exp(-logit))
            total += float(np.sum(np.logaddexp(0, logit) - yb * logit))
            g = (p - yb) / len(yb)
            grads = [xb.T @ (np.outer(g, w2) * (h > 0)), (np.outer(g, w2) * (h > 0)).sum(0),
                     a.T @ g, np.array([g.sum()], np.float32)]
            step += 1
            for param, grad, (m, v) in zip(params, grads, moments, strict=True):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= (rate * (m / (1 - 0.9 ** step))
                          / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)).astype(np.float32)
        print(f"  epoch {epoch + 1}/{epochs}: cross-entropy {total / len(y):.4f}",
              file=sys.stderr)
    return {"features": list(FEATURES), "w1": np.round(w1, 5).tolist(),
            "b1": np.round(b1, 5).tolist(), "w2": np.round(w2, 5).tolist(),
            "b2": round(float(b2[0]), 5)}


def shifted(logits: np.ndarray, pos: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Each position's chances from its log-odds, shifted to add up to its ``k``."""
    out = np.empty_like(logits)
    starts = np.flatnonzero(np.r_[True, pos[1:] != pos[:-1]])
    ends = np.r_[starts[1:], len(pos)]
    for start, end in zip(starts, ends, strict=True):
        out[start:end] = marginals(logits[start:end].tolist(), int(k[pos[start]]))
    return out


def brier_by_deal(p: np.ndarray, data: Batch) -> tuple[float, np.ndarray, np.ndarray]:
    """The Brier score over every example, and each deal's squared errors and counts."""
    errors = (p - data["y"]) ** 2
    deals, index = np.unique(data["deal"], return_inverse=True)
    sums = np.bincount(index, weights=errors, minlength=len(deals))
    counts = np.bincount(index, minlength=len(deals)).astype(float)
    return float(errors.mean()), sums, counts


def difference(a: tuple[float, np.ndarray, np.ndarray],
               b: tuple[float, np.ndarray, np.ndarray]) -> tuple[float, float, float]:
    """``a``'s Brier less ``b``'s, with a 95% interval (a ratio estimate over deals)."""
    _, sa, n = a
    _, sb, _ = b
    d = a[0] - b[0]
    residual = (sa - sb) - d * n
    se = math.sqrt(len(n) * float(np.sum(residual ** 2))) / float(np.sum(n)) \
        / math.sqrt(max(len(n) - 1, 1))
    return d, d - 1.96 * se, d + 1.96 * se


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40_000, help="training deals")
    parser.add_argument("--test-deals", type=int, default=1_000, help="held-out deals")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first training deal's seed")
    parser.add_argument("--weights", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = gather(args.seed, args.deals, False, args.workers)
    print(f"{len(data['k']):,} training positions, {len(data['y']):,} hidden cards "
          f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    weights = train(data, args.hidden, args.epochs, args.seed)
    del data
    args.weights.parent.mkdir(parents=True, exist_ok=True)
    args.weights.write_text(json.dumps(weights, separators=(",", ":")) + "\n", encoding="utf-8")
    test = gather(10_000_000 + args.seed, args.test_deals, True, args.workers)
    model = HandModel(weights)
    learned = np.array(model.logits(test["x"].astype(np.float64).tolist()))
    k = test["k"]
    scores = {
        "uniform": brier_by_deal(shifted(np.zeros_like(learned), test["pos"], k), test),
        "card odds": brier_by_deal(shifted(test["odds"], test["pos"], k), test),
        "learned": brier_by_deal(shifted(learned, test["pos"], k), test),
    }
    print(f"Brier of 'the opponent holds this card' on {len(k):,} held-out positions "
          f"({args.test_deals} deals), lower is better:")
    for name, score in scores.items():
        print(f"  {name:10} {score[0]:.4f}")
    d, low, high = difference(scores["learned"], scores["card odds"])
    print(f"  learned less card odds: {d:+.4f} [{low:+.4f}, {high:+.4f}]")
    print(f"wrote {args.weights} ({time.perf_counter() - start:.0f} s in all)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
