"""rummykit RL benchmark: environment steps per second, against the gin rummy environments
people use today, in one run.

What is measured, each cell with the same time budget (``--seconds``), the cells played in
turn ``--rounds`` times and each cell's best round kept (the machine may be shared):

* rummykit, for every preset and player count (``--players``): random play through the
  PettingZoo API: ``reset()``, then for each agent of ``agent_iter()`` ``last()`` and
  ``step()`` with an index drawn uniformly from the observation's ``action_mask``, until
  the deal ends. One step is one ``step()`` call of the agent to move (a meld takes a step
  per card and one to lay it; the steps of finished agents are not counted). ``raw`` is
  ``rummykit.rl.raw_env``; ``wrapped`` is ``rummykit.rl.env`` (illegal actions end the
  episode, the order of calls checked by PettingZoo's ``OrderEnforcingWrapper``). The
  legal indices are read from the mask as Gymnasium's own masked sampler
  (``Discrete.sample(mask)``) reads them, ``np.where(mask == 1)[0]``: a bool array takes
  NumPy's fast path, where ``np.flatnonzero(mask)`` on the int8 mask walks it entry by
  entry (on rummykit's 1,081 indices that alone took 11% of a classic step).
* ``rlcard_gin_rummy_env``: RLCard's gin-rummy through its RL API (``env.reset()``,
  ``env.step(action_id)`` with an action drawn from ``state['legal_actions']``), which
  encodes a 5x52 observation at every step (bench/peers.py).
* ``pettingzoo_gin_rummy``: PettingZoo's ``gin_rummy_v4`` (RLCard's game behind the
  PettingZoo API, present in PettingZoo before 1.27), played by the same loop as rummykit:
  ``raw`` is its unwrapped environment, ``wrapped`` the one ``gin_rummy_v4.env()`` gives.

* ``rummykit classic 2p gym ...``: the Gymnasium API, one learning seat against the
  ``random`` bot, ``--vector`` deals at once (16 by default), masked random indices: the
  deals as separate ``SingleAgentEnv`` objects stepped one by one in a Python loop, as
  Gymnasium's ``SyncVectorEnv`` (``make_vec(..., vectorization_mode="sync")``), and as
  the batched ``VectorRummyEnv`` (``make_vec``'s default). A step is one learner's
  index; the bots' moves in between are part of its cost.
* ``rummykit classic 2p arrays x1024``: ``BatchedRummyEnv``, ``--batch`` deals (1,024 by
  default) as NumPy arrays against the ``random`` bot, the masked random indices of the
  whole batch drawn by ``sample_masked``; a step is one learner's index, the bots' moves
  in between part of its cost.
* ``... openspiel``: random play through OpenSpiel's state API (``legal_actions()``,
  ``apply_action()``, chance outcomes drawn by their odds; a step is a player's action):
  rummykit's OpenSpiel game (``rummykit.openspiel``, classic, 2 players), and OpenSpiel's
  own gin rummy, written in C++, as its peer (``--no-openspiel`` leaves both out).

Ratios: each rummykit cell against the peer driven the same way (raw and the arrays
against RLCard's API, wrapped against PettingZoo's wrapped env). The targets: ``classic``
2-player raw at least 3x RLCard's env API, the arrays at least 10x; printed as met or
MISSED, never asserted. A peer that cannot be
imported is reported as skipped.

Usage::

    python bench/rl.py                       # every preset, 2 and 4 players
    python bench/rl.py --seconds 1 --rounds 3 --presets classic ramino --players 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from peers import PeerUnavailable, _rlcard_env, _rlcard_env_play, import_peer

TARGET = 3.0
"""classic 2-player raw steps/s over RLCard's env API."""
BATCH_TARGET = 10.0
"""classic 2-player learner steps/s of the arrays (``BatchedRummyEnv``) over RLCard's env
API."""


def play_aec(env: Any, rng: random.Random) -> int:
    """One episode of random masked play through the PettingZoo AEC API; return steps."""
    import numpy as np

    env.reset(seed=rng.getrandbits(31))
    steps = 0
    where = np.where
    randrange = rng.randrange
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        # As Gymnasium's ``Discrete.sample(mask)`` reads a mask (see the module's notes).
        legal = where(obs["action_mask"] == 1)[0]
        env.step(int(legal[randrange(len(legal))]))
        steps += 1
    return steps


def rate(episode: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``episode()`` played until ``seconds`` have passed (after one
    untimed episode)."""
    episode()
    steps = 0
    start = time.perf_counter()
    while True:
        steps += episode()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def vector_cells(n: int) -> dict[str, Callable[[], Callable[[], int]]]:
    """The Gymnasium cells of ``n`` deals at once; each "episode" is 50 steps of every
    deal (a deal that ends is dealt again)."""
    import gymnasium
    import numpy as np

    import rummykit.rl as rl

    def draw(rng: Any, mask: Any) -> int:
        legal = np.where(mask == 1)[0]
        return int(legal[rng.integers(len(legal))])

    def separate() -> Callable[[], int]:
        envs = [rl.SingleAgentEnv("classic", 2, opponents="random") for _ in range(n)]
        masks = [env.reset(seed=i)[1]["action_mask"] for i, env in enumerate(envs)]
        rng = np.random.default_rng(0)

        def episode() -> int:
            for _ in range(50):
                for i, env in enumerate(envs):
                    _obs, _r, done, _t, info = env.step(draw(rng, masks[i]))
                    masks[i] = env.reset()[1]["action_mask"] if done else info["action_mask"]
            return 50 * n
        return episode

    def vector(mode: str) -> Callable[[], Callable[[], int]]:
        def cell() -> Callable[[], int]:
            v = gymnasium.make_vec(rl.ENV_ID, num_envs=n, vectorization_mode=mode,
                                   rules="classic", players=2, opponents="random")
            info = v.reset(seed=0)[1]
            rng = np.random.default_rng(0)

            def episode() -> int:
                nonlocal info
                for _ in range(50):
                    actions = np.array([draw(rng, m) for m in info["action_mask"]])
                    info = v.step(actions)[4]
                return 50 * n
            return episode
        return cell

    return {f"rummykit classic 2p gym x{n} separate": separate,
            f"rummykit classic 2p gym x{n} sync vector": vector("sync"),
            f"rummykit classic 2p gym x{n} batched": vector("vector_entry_point")}


def array_cell(n: int) -> dict[str, Callable[[], Callable[[], int]]]:
    """``BatchedRummyEnv``: ``n`` deals as arrays against the ``random`` bot, the masked
    random indices of the whole batch drawn by ``sample_masked``; each "episode" is 20
    steps of every deal."""
    def cell() -> Callable[[], int]:
        import numpy as np

        from rummykit.rl.batched import BatchedRummyEnv, sample_masked

        env = BatchedRummyEnv(n, "classic", 2)
        info = env.reset(seed=0)[1]
        rng = np.random.default_rng(0)

        def episode() -> int:
            nonlocal info
            for _ in range(20):
                info = env.step(sample_masked(info["action_mask"], rng))[4]
            return 20 * n
        return episode

    return {f"rummykit classic 2p arrays x{n}": cell}


def play_openspiel(game: Any, rng: random.Random) -> int:
    """One game of random play through OpenSpiel's state API (chance outcomes drawn by
    their odds); return the player actions (chance nodes are not counted)."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


def openspiel_cells() -> dict[str, Callable[[], Callable[[], int]]]:
    """rummykit's OpenSpiel game (classic, 2 players) and OpenSpiel's own gin rummy (C++),
    both played by the loop above."""
    def cell(name: str, params: dict[str, Any]) -> Callable[[], Callable[[], int]]:
        def make() -> Callable[[], int]:
            pyspiel = import_peer("pyspiel")
            if name == "rummykit":
                import_peer("rummykit.openspiel")
            game, rng = pyspiel.load_game(name, params), random.Random(0)
            return lambda: play_openspiel(game, rng)
        return make

    return {"rummykit classic 2p openspiel": cell("rummykit", {"rules": "classic"}),
            "open_spiel gin_rummy (C++) openspiel": cell("gin_rummy", {})}


def cells(presets: list[str], players: list[int]) -> dict[str, Callable[[], Callable[[], int]]]:
    """Every cell: its name, and how to make its episode function."""
    import rummykit.rl as rl

    out: dict[str, Callable[[], Callable[[], int]]] = {}
    for name in presets:
        for n in players:
            for kind, make in (("raw", rl.raw_env), ("wrapped", rl.env)):
                def cell(name: str = name, n: int = n, make: Any = make) -> Callable[[], int]:
                    env, rng = make(name, n), random.Random(0)
                    return lambda: play_aec(env, rng)
                out[f"rummykit {name} {n}p {kind}"] = cell

    def rlcard() -> Callable[[], int]:
        env, rng = _rlcard_env(0), random.Random(0)
        return lambda: _rlcard_env_play(env, rng)

    def pettingzoo(kind: str) -> Callable[[], Callable[[], int]]:
        def cell() -> Callable[[], int]:
            gin = import_peer("pettingzoo.classic.gin_rummy_v4")
            env = gin.env()
            env = env.unwrapped if kind == "raw" else env
            rng = random.Random(0)
            return lambda: play_aec(env, rng)
        return cell

    out["rlcard_gin_rummy_env"] = rlcard
    out["pettingzoo_gin_rummy raw"] = pettingzoo("raw")
    out["pettingzoo_gin_rummy wrapped"] = pettingzoo("wrapped")
    return out


def main(argv: list[str] | None = None) -> int:
    from rummykit.rules import PRESETS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--vector", type=int, default=16,
                        help="deals at once in the Gymnasium cells (0: none)")
    parser.add_argument("--batch", type=int, default=1024,
                        help="deals at once in the arrays cell (0: none)")
    parser.add_argument("--no-openspiel", action="store_true",
                        help="leave out the OpenSpiel cells")
    args = parser.parse_args(argv)

    made: dict[str, Callable[[], int]] = {}
    skipped: dict[str, str] = {}
    every = cells(args.presets, args.players)
    if args.vector:
        every.update(vector_cells(args.vector))
    if args.batch:
        every.update(array_cell(args.batch))
    if not args.no_openspiel:
        every.update(openspiel_cells())
    for name, make in every.items():
        try:
            made[name] = make()
        except PeerUnavailable as exc:
            skipped[name] = str(exc)
    best: dict[str, float] = {}
    for round_ in range(args.rounds):
        for name, episode in made.items():
            best[name] = max(best.get(name, 0.0), rate(episode, args.seconds))
            print(f"round {round_ + 1}: {name}: {best[name]:,.0f}", file=sys.stderr)

    rlcard = best.get("rlcard_gin_rummy_env")
    pz = {kind: best.get(f"pettingzoo_gin_rummy {kind}") for kind in ("raw", "wrapped")}
    print(f"{'cell':40} {'steps/s':>10} {'vs RLCard API':>14} {'vs PettingZoo gin':>18}")
    for name, value in best.items():
        kind = name.rsplit(" ", 1)[-1]
        versus_rlcard = (f"{value / rlcard:.2f}x" if rlcard and name.startswith("rummykit")
                         and (kind == "raw" or " arrays " in name) else "")
        peer = pz.get(kind)
        versus_pz = f"{value / peer:.2f}x" if peer and name.startswith("rummykit") else ""
        print(f"{name:40} {value:>10,.0f} {versus_rlcard:>14} {versus_pz:>18}")
    ours, gin = (best.get(f"{n} openspiel") for n in
                 ("rummykit classic 2p", "open_spiel gin_rummy (C++)"))
    if ours and gin:
        print(f"OpenSpiel: rummykit's Python game {ours / gin:.2f}x the speed of "
              "OpenSpiel's C++ gin rummy, both through OpenSpiel's Python state API")
    for name, why in skipped.items():
        print(f"{name:40} skipped: {why}")
    classic = best.get("rummykit classic 2p raw")
    if classic and rlcard:
        ratio = classic / rlcard
        verdict = "met" if ratio >= TARGET else "MISSED"
        print(f"target: classic 2p raw >= {TARGET:.1f}x RLCard's env API: {ratio:.2f}x {verdict}")
    arrays = best.get(f"rummykit classic 2p arrays x{args.batch}")
    if arrays and rlcard:
        ratio = arrays / rlcard
        verdict = "met" if ratio >= BATCH_TARGET else "MISSED"
        print(f"target: classic 2p arrays >= {BATCH_TARGET:.0f}x RLCard's env API: "
              f"{ratio:.2f}x {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
