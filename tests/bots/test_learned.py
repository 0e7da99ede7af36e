"""The learned level (``rummykit.bots.learned``): what it describes of each action, its
network against a NumPy forward pass, its shipped weights, and legal play everywhere.

Its strength is measured by ``bench/duel.py learned greedy`` (docs/bots.md), not here."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from rummykit.bots import make_bot
from rummykit.bots.learned import FEATURES, LearnedBot, Network, action_features, default_network
from rummykit.engine import Deal, Match
from rummykit.engine.actions import Action
from rummykit.engine.views import View, view
from rummykit.rules import PRESETS, Rules

from .test_bots import _play_until


class Hoarder:
    """Draws from the stock and discards, never melds: the pile grows deep."""

    name = "hoarder"

    def choose(self, v: View, rng: random.Random) -> Action:
        legal = v.legal_actions
        return next((a for a in legal if a.kind in ("draw-stock", "discard")), legal[0])


def test_every_action_is_described_by_every_feature_in_a_small_range() -> None:
    rng = random.Random(3)
    seen_kinds = set()
    deepest = 0
    for name, players, level in [(n, p, "expert") for n in PRESETS for p in (2, 4)] + [
            ("rummy500", 2, "hoarder"), ("rummy500", 3, "hoarder")]:  # (deep pile draws)
        for _once in (1,):
            match = Match(PRESETS[name], players=players, seed=players)
            bots = [make_bot(level) if level == "expert" else Hoarder()
                    for _ in range(players)]
            for _ in range(300):
                if match.is_over:
                    break
                v = view(match, match.deal.to_move)
                for action in v.legal_actions:
                    if action.kind == "draw-pile" and action.cards:
                        deepest = max(deepest, len(v.pile) - list(v.pile).index(
                            action.cards[0]))
                    x = action_features(v, action)
                    assert len(x) == len(FEATURES)
                    assert all(math.isfinite(f) and -3 <= f <= 3 for f in x), (action, x)
                    assert sum(x[:6]) == 1  # one kind of action
                    seen_kinds.add(action.kind)
                match.push(bots[match.deal.to_move].choose(v, rng))
    assert seen_kinds >= {"draw-stock", "draw-pile", "meld", "layoff", "discard"}
    assert deepest >= 20  # a draw of 20 cards or more was described too


def test_the_network_scores_as_a_numpy_forward_pass() -> None:
    rng = np.random.default_rng(0)
    features, hidden = len(FEATURES), 7
    w1 = rng.normal(size=(hidden, features))
    b1 = rng.normal(size=hidden)
    w2 = rng.normal(size=hidden)
    net = Network(tuple(map(tuple, w1.tolist())), tuple(b1.tolist()), tuple(w2.tolist()), 0.25)
    for _ in range(50):
        x = rng.normal(size=features)
        expected = float(np.maximum(w1 @ x + b1, 0) @ w2 + 0.25)
        assert net.score(x.tolist()) == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert Network.from_json(json.loads(json.dumps(net.to_json()))) == net


def test_the_shipped_weights_load_and_others_are_refused() -> None:
    net = default_network()
    assert len(net.hidden) == len(net.out) > 0
    assert all(len(row) == len(FEATURES) for row in net.hidden)
    other = {**net.to_json(), "features": ["something", "else"]}
    with pytest.raises(ValueError, match="other features"):
        Network.from_json(other)
    short = {**net.to_json(), "out": [1.0]}
    with pytest.raises(ValueError, match="sizes"):
        Network.from_json(short)
    assert make_bot("learned").name == "learned"
    assert isinstance(make_bot("learned"), LearnedBot)


def test_it_refuses_a_view_without_legal_actions() -> None:
    deal = Deal.start(Rules.parse("classic"), players=3, dealer=0, seed=4)
    idle = next(s for s in range(3) if s != deal.to_move)
    with pytest.raises(ValueError, match="not this bot's turn"):
        make_bot("learned").choose(view(deal, idle), random.Random(0))


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_it_plays_only_legal_actions_in_every_preset(preset_name: str) -> None:
    """2 to 6 players, against itself and the other quick levels, every action through
    the engine's checked path."""
    assert _play_until(Rules.parse(preset_name), "learned", 120, seed=300) >= 600
