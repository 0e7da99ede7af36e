"""Peer engines for the rummykit benchmark, and the timing harness that run.py shares.

What is measured: random play of whole deals in other rummy engines, the same way bench/run.py
plays rummykit. At every player decision the action is drawn uniformly from the engine's own
list of legal actions; one decision is one player action. Each measurement plays deal after deal
until its time budget is spent (the clock is read after each deal, so a measurement may run over
its budget by at most one deal) and reports deals/s and decisions/s over the time it really took.
One untimed deal is played first as a warm-up. Copy rates time copying one mid-game state (the
state halfway through a sample deal) in batches until the budget is spent.

Peers (all of them are two-player gin rummy, the only rummy game each package has):

* ``open_spiel_gin_rummy``: OpenSpiel's ``gin_rummy`` (C++ engine behind the ``pyspiel``
  bindings, default parameters). Chance nodes (the deal and every stock draw) are resolved by
  sampling an outcome by its probabilities and are not counted as decisions; every other node is
  a decision, including forced ones (a single legal action, such as the pass after a knock).
  Each deal starts from ``clone()`` of one initial state rather than ``new_initial_state()``,
  which rebuilds gin_rummy's meld tables (about 100 times slower than a clone).
  Copy = ``state.clone()``.
* ``rlcard_gin_rummy``: RLCard's ``gin-rummy`` driven through ``env.game`` (the pure Python game
  engine: ``game.init_game()``, ``game.judge.get_legal_actions()``, ``game.step(action)``). This
  is the fair comparison with rummykit, which builds no observation tensors. Every
  ``game.step`` is a decision, including RLCard's forced scoring steps.
  Copy = ``copy.deepcopy(env.game)`` (RLCard has no copy method of its own).
* ``rlcard_gin_rummy_env``: the same game through RLCard's RL API (``env.reset()``,
  ``state['legal_actions']``, ``env.step(action_id)``, ``env.is_over()``), which also encodes a
  5x52 numpy observation at every step. Reported for reference: it is how RLCard is usually used.

Each ``measure_*`` function raises ``PeerUnavailable`` when its package cannot be imported, so
the caller can report the peer as skipped and go on.
"""

from __future__ import annotations

import copy
import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

#: A deal that has not ended after this many decisions is reported as an engine error.
MAX_DECISIONS_PER_DEAL = 100_000

#: Copies made between two reads of the clock.
COPY_BATCH = 256


class Rate(TypedDict):
    """Result of a play measurement."""

    deals_per_s: float
    decisions_per_s: float
    deals: int
    decisions: int
    seconds: float


class CopyRate(TypedDict):
    """Result of a copy measurement."""

    copies_per_s: float
    copies: int
    seconds: float


class PeerUnavailable(Exception):
    """A peer engine's package cannot be imported."""


class DealTooLong(RuntimeError):
    """A deal did not end within MAX_DECISIONS_PER_DEAL decisions."""


# --------------------------------------------------------------------------------------------
# Timing harness (also used by run.py for rummykit)
# --------------------------------------------------------------------------------------------


def time_deals(play_deal: Callable[[int], int], seconds: float) -> Rate:
    """Time ``play_deal(index)`` for index 0, 1, 2, ... until ``seconds`` have passed.

    ``play_deal`` plays one whole deal and returns the number of decisions taken in it.
    """
    play_deal(0)  # warm-up, untimed
    deals = 0
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        decisions += play_deal(deals)
        deals += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return Rate(
        deals_per_s=deals / elapsed,
        decisions_per_s=decisions / elapsed,
        deals=deals,
        decisions=decisions,
        seconds=elapsed,
    )


def time_copies(make_copy: Callable[[], object], seconds: float) -> CopyRate:
    """Time ``make_copy()`` in batches of COPY_BATCH until ``seconds`` have passed."""
    for _ in range(COPY_BATCH):  # warm-up, untimed
        make_copy()
    copies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(COPY_BATCH):
            make_copy()
        copies += COPY_BATCH
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return CopyRate(copies_per_s=copies / elapsed, copies=copies, seconds=elapsed)


def import_peer(module: str) -> Any:
    """Import a peer's module, turning any import failure into PeerUnavailable."""
    try:
        return importlib.import_module(module)
    except Exception as exc:  # a broken native extension can raise more than ImportError
        raise PeerUnavailable(f"cannot import {module}: {type(exc).__name__}: {exc}") from exc


# --------------------------------------------------------------------------------------------
# OpenSpiel gin_rummy
# --------------------------------------------------------------------------------------------


def _open_spiel_game() -> Any:
    pyspiel = import_peer("pyspiel")
    return pyspiel.load_game("gin_rummy")


def _open_spiel_play(state: Any, rng: random.Random, stop_after: int | None = None) -> int:
    """Play ``state`` at random to its end (or until ``stop_after`` decisions); return decisions."""
    decisions = 0
    randrange = rng.randrange
    choices = rng.choices
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choices(outcomes, probabilities)[0])
        else:
            if decisions == stop_after:
                break
            actions = state.legal_actions()
            state.apply_action(actions[randrange(len(actions))])
            decisions += 1
            if decisions > MAX_DECISIONS_PER_DEAL:
                raise DealTooLong(f"open_spiel deal over {MAX_DECISIONS_PER_DEAL} decisions")
    return decisions


def measure_open_spiel_gin_rummy(seconds: float, seed: int = 0) -> Rate:
    """Random play of OpenSpiel's gin_rummy.

    Each deal starts from a clone of one initial state: ``game.new_initial_state()`` costs
    about 1.4 ms here (it builds gin_rummy's meld tables), a clone about 13 us.
    """
    initial = _open_spiel_game().new_initial_state()
    rng = random.Random(seed)
    return time_deals(lambda _index: _open_spiel_play(initial.clone(), rng), seconds)


def measure_open_spiel_gin_rummy_copy(seconds: float, seed: int = 0) -> CopyRate:
    """``state.clone()`` of a mid-game OpenSpiel gin_rummy state."""
    game = _open_spiel_game()
    length = _open_spiel_play(game.new_initial_state(), random.Random(seed))
    state = game.new_initial_state()
    _open_spiel_play(state, random.Random(seed), stop_after=length // 2)
    return time_copies(state.clone, seconds)


# --------------------------------------------------------------------------------------------
# RLCard gin-rummy
# --------------------------------------------------------------------------------------------


def _rlcard_env(seed: int) -> Any:
    rlcard = import_peer("rlcard")
    return rlcard.make("gin-rummy", config={"seed": seed})


def _rlcard_game_play(game: Any, rng: random.Random, stop_after: int | None = None) -> int:
    """Deal a new RLCard game and play it at random through the game engine; return decisions."""
    game.init_game()
    decisions = 0
    randrange = rng.randrange
    legal_actions = game.judge.get_legal_actions
    step = game.step
    while not game.is_over():
        if decisions == stop_after:
            break
        actions = legal_actions()
        step(actions[randrange(len(actions))])
        decisions += 1
        if decisions > MAX_DECISIONS_PER_DEAL:
            raise DealTooLong(f"rlcard deal over {MAX_DECISIONS_PER_DEAL} decisions")
    return decisions


def _rlcard_env_play(env: Any, rng: random.Random) -> int:
    """Play one RLCard game at random through its RL environment API; return decisions."""
    state, _player = env.reset()
    decisions = 0
    randrange = rng.randrange
    while not env.is_over():
        actions = list(state["legal_actions"])
        state, _player = env.step(actions[randrange(len(actions))])
        decisions += 1
        if decisions > MAX_DECISIONS_PER_DEAL:
            raise DealTooLong(f"rlcard deal over {MAX_DECISIONS_PER_DEAL} decisions")
    return decisions


def measure_rlcard_gin_rummy(seconds: float, seed: int = 0) -> Rate:
    """Random play of RLCard's gin-rummy through ``env.game`` (no observation encoding)."""
    game = _rlcard_env(seed).game
    rng = random.Random(seed)
    return time_deals(lambda _index: _rlcard_game_play(game, rng), seconds)


def measure_rlcard_gin_rummy_env(seconds: float, seed: int = 0) -> Rate:
    """Random play of RLCard's gin-rummy through ``env.reset()`` / ``env.step()``."""
    env = _rlcard_env(seed)
    rng = random.Random(seed)
    return time_deals(lambda _index: _rlcard_env_play(env, rng), seconds)


def measure_rlcard_gin_rummy_copy(seconds: float, seed: int = 0) -> CopyRate:
    """``copy.deepcopy`` of a mid-game RLCard gin-rummy game."""
    game = _rlcard_env(seed).game
    length = _rlcard_game_play(game, random.Random(seed))
    game = _rlcard_env(seed).game
    _rlcard_game_play(game, random.Random(seed), stop_after=length // 2)
    return time_copies(lambda: copy.deepcopy(game), seconds)


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    """A peer engine: how to measure its play and, if it can copy a state, its copies."""

    name: str
    package: str
    description: str
    measure: Callable[[float, int], Rate]
    measure_copy: Callable[[float, int], CopyRate] | None
    players: int = 2
    rules: str = "gin_rummy"


PEERS: tuple[Peer, ...] = (
    Peer(
        name="open_spiel_gin_rummy",
        package="open_spiel",
        description="OpenSpiel gin_rummy (C++ via pyspiel)",
        measure=measure_open_spiel_gin_rummy,
        measure_copy=measure_open_spiel_gin_rummy_copy,
    ),
    Peer(
        name="rlcard_gin_rummy",
        package="rlcard",
        description="RLCard gin-rummy, env.game driven directly",
        measure=measure_rlcard_gin_rummy,
        measure_copy=measure_rlcard_gin_rummy_copy,
    ),
    Peer(
        name="rlcard_gin_rummy_env",
        package="rlcard",
        description="RLCard gin-rummy through env.reset()/env.step() (encodes observations)",
        measure=measure_rlcard_gin_rummy_env,
        measure_copy=None,
    ),
)
