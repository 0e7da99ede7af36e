"""The learned bot: a small neural network that scores each legal action, trained from the
bots' self-play.

For every legal action the bot describes what it would do with a few numbers
(:data:`FEATURES`: the kind of action, how the hand's deadwood changes, the card's points,
outs and danger to give, the stock, the opponents' hand sizes, the rules' scoring), and a
network with one hidden layer scores the description; the best score is played. The
weights are fitted by imitation: on positions of games between the bots of every preset
and player count, the network learns to give the action the expert chose the highest
score (a softmax over each position's legal actions). ``examples/train_learned.py``
makes the positions, fits the weights and writes ``learned.json`` beside this module, in
one command (docs/bots.md).

Play needs no optional package: the network is a few hundred multiplications in plain
Python, well under 2 ms a decision.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from operator import mul

from rummykit.bots.expert import count_outs, opponent_interest, partition
from rummykit.bots.greedy import fits_table, pile_index, uses_card
from rummykit.cards import JOKER_CODE
from rummykit.engine.actions import Action
from rummykit.engine.melds import card_points, make_meld, meld_points, without
from rummykit.engine.scoring import points_against
from rummykit.engine.views import View

__all__ = ["FEATURES", "LearnedBot", "Network", "Position", "action_features"]

FEATURES = (
    "draw-stock", "draw-pile", "meld", "layoff", "discard", "end",
    "deadwood", "deadwood-change", "cards", "card-points", "hand-after", "goes-out",
    "outs", "fits-table", "loose", "opponent-took-near", "opponent-threw-rank", "joker",
    "pile-card-used", "pile-cards", "stock", "fewest-opponent-cards", "hand",
    "opponent-close", "rummy-pays", "melded-scoring", "penalty-scoring", "opening",
    "laid-before", "melded-this-turn", "uses-must-use", "hold-back-time", "planned-meld",
    "melded-points", "opening-progress",
)
"""What the network is told of each legal action, in order (each scaled to about 0..1, and
never past -3..3)."""


@dataclass(frozen=True)
class Network:
    """One hidden layer of ReLU units, then a linear score."""

    hidden: tuple[tuple[float, ...], ...]
    """The hidden units' weights, one row per unit, one column per feature."""
    hidden_bias: tuple[float, ...]
    out: tuple[float, ...]
    out_bias: float

    def score(self, x: Sequence[float]) -> float:
        total = self.out_bias
        for row, bias, w in zip(self.hidden, self.hidden_bias, self.out, strict=True):
            h = bias + sum(map(mul, row, x))
            if h > 0.0:
                total += w * h
        return total

    def to_json(self) -> dict[str, object]:
        return {"features": list(FEATURES), "hidden": [list(r) for r in self.hidden],
                "hidden_bias": list(self.hidden_bias), "out": list(self.out),
                "out_bias": self.out_bias}

    @classmethod
    def from_json(cls, data: object) -> Network:
        """The network :meth:`to_json` wrote; one for other features is a ValueError."""
        if not isinstance(data, dict) or data.get("features") != list(FEATURES):
            raise ValueError("these weights were fitted for other features than this "
                             "bot's: fit them again (examples/train_learned.py)")
        hidden = tuple(tuple(float(v) for v in row) for row in data["hidden"])
        if any(len(row) != len(FEATURES) for row in hidden):
            raise ValueError("a hidden unit's weights do not match the features")
        bias = tuple(float(v) for v in data["hidden_bias"])
        out = tuple(float(v) for v in data["out"])
        if not len(bias) == len(out) == len(hidden):
            raise ValueError("the layers' sizes do not match")
        return cls(hidden, bias, out, float(data["out_bias"]))


_DEFAULT: Network | None = None


def default_network() -> Network:
    """The weights shipped with rummykit (``learned.json`` beside this module)."""
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("rummykit.bots").joinpath("learned.json").read_text()
        _DEFAULT = Network.from_json(json.loads(text))
    return _DEFAULT


class Position:
    """What every action's description shares, computed once a decision (pass it to
    :func:`action_features` for each action of the same view)."""

    def __init__(self, view: View) -> None:
        rules = self.rules = view.rules
        self.view = view
        self.hand = [int(c) for c in view.hand]
        self.deadwood, melds = partition(self.hand, rules)
        in_melds = [c for m in melds for c in m]
        self.loose = without(self.hand, in_melds)
        self.planned = {tuple(sorted(m)) for m in melds}
        self.unseen = set(view.knowledge.unseen)
        seat = view.seat
        opponents = [view.hand_sizes[s] for s in range(len(view.hand_sizes))
                     if s != seat and view.active[s]]
        self.fewest = min(opponents, default=0)
        self.wanted, self.unwanted = opponent_interest(view)
        deck = rules.decks * 52 + rules.jokers
        self.context = [
            view.stock_size / deck, self.fewest / 10, len(self.hand) / 10,
            1.0 if self.fewest <= 3 else 0.0,
            1.0 if rules.rummy_multiplier > 1 else 0.0,
            1.0 if rules.scoring == "melded" else 0.0,
            1.0 if points_against(rules) else 0.0,
            1.0 if rules.opening else 0.0,
            1.0 if view.laid[seat] else 0.0,
            1.0 if view.melds_this_turn else 0.0,
        ]
        self.hold_time = 1.0 if self.fewest >= 5 and view.stock_size >= 10 else 0.0
        self.opening = (min(2.0, view.turn_value / rules.opening) if rules.opening else 0.0)

    def deadwood_without(self, cards: Sequence[int]) -> int:
        if len(cards) == 1 and cards[0] in self.loose:
            return self.deadwood - card_points(cards[0], self.rules)
        return partition(without(self.hand, cards), self.rules)[0]


def action_features(view: View, action: Action, position: Position | None = None
                    ) -> list[float]:
    """The description of ``action`` in ``view`` that the network scores (:data:`FEATURES`)."""
    p = position or Position(view)
    rules = p.rules
    kind = action.kind
    cards = list(action.cards)
    after = len(p.hand)
    change = 0.0
    outs = fits = loose = near = threw = joker = used = taken = planned = melded = 0.0
    uses_must = 0.0
    if kind == "draw-pile":
        index = pile_index(view, action)
        pile = [int(c) for c in view.pile[index:]]
        taken = len(pile) / 10
        after += len(pile)
        used = 1.0 if uses_card(view, pile[0], pile[1:]) else 0.0
        deadwood, _ = partition(p.hand + pile, rules)
        change = (deadwood - p.deadwood) / 20
        cards = pile
    elif kind == "draw-stock":
        after += 1
    elif kind in ("meld", "layoff", "discard"):
        after -= len(cards)
        change = (p.deadwood_without(cards) - p.deadwood) / 20
        if kind == "meld":
            planned = 1.0 if tuple(sorted(cards)) in p.planned else 0.0
            if rules.scoring == "melded":
                melded = meld_points(make_meld(tuple(cards), rules, view.seat), rules) / 30
        card = cards[0]
        loose = 1.0 if card in p.loose else 0.0
        uses_must = 1.0 if view.must_use is not None and view.must_use in cards else 0.0
        if kind == "discard":
            joker = 1.0 if card == JOKER_CODE else 0.0
            if card != JOKER_CODE:
                outs = count_outs(card, p.hand, p.unseen, rules) / 8
                fits = 1.0 if fits_table(view.melds, card, rules) else 0.0
                rank, suit = card % 13, card // 13
                near = 1.0 if any(w != JOKER_CODE and (w % 13 == rank or (
                    w // 13 == suit and abs(w % 13 - rank) <= 2)) for w in p.wanted) else 0.0
                threw = 1.0 if rank in p.unwanted else 0.0
    goes_out = 1.0 if kind in ("meld", "layoff", "discard") and after == 0 else 0.0
    return [
        1.0 if kind == "draw-stock" else 0.0, 1.0 if kind == "draw-pile" else 0.0,
        1.0 if kind == "meld" else 0.0, 1.0 if kind == "layoff" else 0.0,
        1.0 if kind == "discard" else 0.0, 1.0 if kind == "end" else 0.0,
        _clip(p.deadwood / 50), _clip(change), _clip(len(cards) / 10),
        _clip(sum(card_points(c, rules) for c in cards) / 30), _clip(after / 10), goes_out,
        outs, fits, loose, near, threw, joker, used, _clip(taken),
        *p.context, uses_must, p.hold_time, planned, melded, p.opening,
    ]


def _clip(value: float) -> float:
    """``value`` within -3..3 (a deep pile taken whole in rummy500 would go far past the
    range the others lie in)."""
    return -3.0 if value < -3.0 else 3.0 if value > 3.0 else value


class LearnedBot:
    """The learned level: see the module's description. ``network`` replaces the shipped
    weights (a training loop's own)."""

    name = "learned"

    def __init__(self, network: Network | None = None) -> None:
        self.network = network or default_network()

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("it is not this bot's turn: the view offers no legal action")
        if len(legal) == 1:
            return legal[0]
        position = Position(view)
        score = self.network.score
        best = max(range(len(legal)),
                   key=lambda i: score(action_features(view, legal[i], position)))
        return legal[best]
