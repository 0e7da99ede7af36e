"""The arrays against the engine: the same deals played side by side, every step compared.

:func:`play_side_by_side` loads engine deals into a :class:`~rummykit.rl.batched.
BatchedRummyEnv` (one row each), plays masked random indices for the learner in both, and
plays every move of the batch's opponents in the engine too (each must be legal there). At
every step it compares the learner's observation, mask, reward and end with the engine's
(:class:`~rummykit.rl.aec.RummyEnv`), at every play position the legal melds, lay-offs and
discards with ``Deal.legal_actions()``, and, with a policy as the opponents, what the
policy is shown with the engine's observation and mask of its seat. The first difference
is a :class:`ParityError` that names the deal, the step and what differs.

The tests run it on a few seeds of each rule set; run from the command line, it plays as
many as asked, to look for what random play reaches once in thousands of deals::

    python -m rummykit.rl.parity --rules classic "classic(aces=high-low)" limited-stock \\
        --players 2 4 --deals 64 --seeds 20
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine.actions import Action
from rummykit.rl.actions import DISCARD, LAYOFF
from rummykit.rl.aec import RummyEnv, resolve_rules
from rummykit.rl.batched import BatchedRummyEnv, sample_masked

__all__ = ["ParityError", "batch_legal", "play_side_by_side"]

Array = npt.NDArray[Any]


class ParityError(AssertionError):
    """The arrays and the engine differ (the message says where and how)."""


def _engine_steps(env: BatchedRummyEnv, move: tuple[int, ...]) -> list[int]:
    """The action indices of one opponent move of the batch's log."""
    kind = move[1]
    if kind in (0, 1):
        return [kind]
    if kind == 5:
        return [move[2]]
    if kind == 2:
        cards = tuple(int(c) for c in env.deals.cand.seq[move[2]] if c >= 0)
        return list(env.codec.meld_steps(Action("meld", cards)))
    if kind == 3:
        return [LAYOFF + 53 * move[2] + move[3]]
    return [DISCARD + move[2]]


def batch_legal(env: BatchedRummyEnv, row: int) -> set[str]:
    """The engine actions, written out, that deal ``row`` of the batch allows its player to
    move (in play): its legal melds, lay-offs and discards."""
    deals = env.deals
    rows = np.array([row])
    out = set()
    some, melds = deals.legal_melds(rows)
    for k in np.flatnonzero(melds[0]) if len(some) else ():
        out.add(str(Action("meld", tuple(int(c) for c in deals.cand.seq[k] if c >= 0))))
    lays = deals.layoffs(rows)[0]
    for j in range(deals.melds):
        out.update(str(Action("layoff", (c,), meld=j + 1))
                   for c in range(52) if int(lays[j]) >> c & 1)
    word = int(deals.discards(rows)[0])
    out.update(str(Action("discard", (c,))) for c in range(52) if word >> c & 1)
    return out


def _same(got: Array, want: Array, what: str, row: int, step: int, env: RummyEnv) -> None:
    if not np.array_equal(got, want):
        at = np.flatnonzero(got != want)[:8].tolist()
        raise ParityError(f"deal {row}, step {step}: the {what} differs at {at} "
                          f"(arrays {got[at].tolist()}, engine {want[at].tolist()})\n"
                          f"{env.text()}")


def play_side_by_side(rules: str, players: int, seat: int, deals: int, seed: int,
                      steps: int, policy: bool = False) -> int:
    """Play ``deals`` engine deals (seeds ``seed * 1000 + i``) in both for up to ``steps``
    learner steps, comparing at every step; return the observations compared. With
    ``policy``, the opponents are a policy of masked random indices instead of the
    ``random`` bot. A deal the opponents end before the learner's first move is not
    compared."""
    made = resolve_rules(rules)
    engines = [RummyEnv(made, players, illegal_reward=None) for _ in range(deals)]
    for number, e in enumerate(engines):
        e.reset(seed=seed * 1000 + number)
    shown: list[tuple[Array, Array]] = []
    choices = np.random.default_rng(seed + 1)

    def random_policy(obs: Array, masks: Array) -> Array:
        shown.extend(zip(obs, masks, strict=True))
        return sample_masked(masks, choices)

    batch = BatchedRummyEnv(deals, made, players, random_policy if policy else "random",
                            seat=seat)
    log: list[tuple[int, ...]] = []
    batch.log = log
    agent = engines[0].possible_agents[seat]
    step = 0

    def mirror(moves: list[tuple[int, ...]], seen: list[tuple[Array, Array]]) -> None:
        """Play the opponents' moves in the engine (and compare what a policy saw)."""
        for move in moves:
            e = engines[move[0]]
            if move[1] == 5:
                obs, mask = seen.pop(0)
                view = e.observe(e.agent_selection)
                _same(obs, view["observation"], "observation shown to the policy", move[0],
                      step, e)
                _same(mask, view["action_mask"], "mask shown to the policy", move[0], step, e)
            for index in _engine_steps(batch, move):
                if not e._mask[index]:
                    raise ParityError(f"deal {move[0]}, step {step}: the opponents played "
                                      f"{batch.codec.describe(index)}, not legal in the "
                                      f"engine\n{e.text()}")
                e.step(index)

    obs, infos = batch.load([e.deal for e in engines], seed=seed)
    mirror(log, shown)
    log.clear()
    live = np.array([not e.terminations[agent] for e in engines])
    rng = np.random.default_rng(seed)
    compared = 0
    for step in range(1, steps + 1):
        for i in np.flatnonzero(live):
            e = engines[i]
            view = e.observe(agent)
            _same(obs[i], view["observation"], "observation", int(i), step, e)
            _same(infos["action_mask"][i], view["action_mask"], "mask", int(i), step, e)
            if e.deal.phase == "play" and not e.choosing:
                ours, theirs = batch_legal(batch, int(i)), {str(a) for a in
                                                            e.deal.legal_actions()}
                if ours != theirs:
                    raise ParityError(f"deal {i}, step {step}: legal actions only in the "
                                      f"arrays {sorted(ours - theirs)}, only in the engine "
                                      f"{sorted(theirs - ours)}\n{e.text()}")
            compared += 1
        if not live.any():
            break
        actions = sample_masked(infos["action_mask"], rng)
        obs, rewards, terminated, _, infos = batch.step(actions)
        for i in np.flatnonzero(live):
            engines[i].step(int(actions[i]))
        # The deals that ended before are dealt again in the batch only: leave out their
        # moves, and what the policy was shown for them.
        kept = [(m, shown.pop(0) if m[1] == 5 else None) for m in log]
        kept = [(m, seen) for m, seen in kept if live[m[0]]]
        log.clear()
        mirror([m for m, _ in kept], [seen for _, seen in kept if seen is not None])
        for i in np.flatnonzero(live):
            e = engines[i]
            paid = e._cumulative_rewards[agent]
            if bool(terminated[i]) != e.terminations[agent] or abs(rewards[i] - paid) > 1e-9:
                raise ParityError(f"deal {i}, step {step}: the arrays say ended "
                                  f"{bool(terminated[i])}, reward {rewards[i]}; the engine "
                                  f"{e.terminations[agent]}, {paid}\n{e.text()}")
            if terminated[i]:
                _same(obs[i], e.observe(agent)["observation"], "last observation", int(i),
                      step, e)
                live[i] = False
    return compared


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["classic"],
                        help="rule sets (a preset or an options string)")
    parser.add_argument("--players", nargs="+", type=int, default=[2])
    parser.add_argument("--deals", type=int, default=64, help="deals at once")
    parser.add_argument("--seeds", type=int, default=4, help="batches of each")
    parser.add_argument("--steps", type=int, default=800, help="most learner steps a batch")
    parser.add_argument("--policy", action="store_true",
                        help="a policy as the opponents instead of the random bot")
    args = parser.parse_args(argv)
    for rules in args.rules:
        for players in args.players:
            start, compared = time.perf_counter(), 0
            for seed in range(args.seeds):
                try:
                    compared += play_side_by_side(rules, players, seed % players,
                                                  args.deals, seed, args.steps, args.policy)
                except ParityError as err:
                    print(f"{rules}, {players} players, seed {seed}: {err}")
                    return 1
            print(f"{rules}, {players} players: {compared:,} observations alike "
                  f"({args.seeds} x {args.deals} deals, {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
