"""OpenSpiel's IS-MCTS bot against a rummykit bot, on rummykit's OpenSpiel game.

    python bench/ismcts.py --deals 100 --simulations 20      # (the openspiel extra)

Each deal is played twice, the seats swapped, from the same shuffle (the engine's deal of
that seed, fed to the game's chance nodes). IS-MCTS is ``open_spiel.python.algorithms.
ismcts.ISMCTSBot`` with OpenSpiel's random-rollout evaluator, ``--simulations`` per decision
(a meld chosen card by card is a decision per card) and ``--rollouts`` random playouts per
leaf; it resamples the hidden cards with the game's ``resample_from_infostate``. The other
seat is a rummykit bot (``--against``, ``expert`` by default) that sees its engine view.
Prints the deals IS-MCTS won and its points per deal (the deal's points less the other
seat's, penalty points counted against), each with a 95% interval, and the time it took
per decision. The deals run on ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rummykit.openspiel as rs
from rummykit.bots import make_bot
from rummykit.cards import make_deck
from rummykit.engine.layout import deal_rng, shuffle
from rummykit.engine.views import view
from rummykit.intervals import mean_ci, wilson
from rummykit.rl import ActionCodec, deal_rewards
from rummykit.rules import Rules


def play(args: tuple[str, str, int, int, int, int]) -> tuple[float, float, int, float]:
    """One deal, IS-MCTS at ``seat``: (its win reward, its points, its decisions, their
    seconds)."""
    rules_text, against, seed, seat, simulations, rollouts = args
    game = pyspiel.load_game(rs.GAME_NAME, {"rules": rules_text, "players": 2})
    rules = Rules.parse(rules_text)
    codec = ActionCodec(rules)
    other = make_bot(against)
    search = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed)),
        uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(seed + 1))
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    shuffle(deck, deal_rng(seed, 0))
    chance = random.Random(seed)
    bot_rng = random.Random(seed)
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    decisions, seconds = 0, 0.0
    while not state.is_terminal():
        if state.is_chance_node():  # a refill
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, odds)[0])
        elif state.current_player() == seat:
            start = time.perf_counter()
            state.apply_action(search.step(state))
            seconds += time.perf_counter() - start
            decisions += 1
        else:
            action = other.choose(view(state.deal, state.current_player()), bot_rng)
            for index in codec.steps(action):
                state.apply_action(index)
    points = deal_rewards(state.deal, "points", 1.0)[seat] if state.deal.is_over else 0.0
    return state.returns()[seat], points, decisions, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(args.rules, args.against, args.seed + d, seat, args.simulations, args.rollouts)
            for d in range(args.deals) for seat in (0, 1)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs))
    wall = time.perf_counter() - start
    won = sum(1 for r, *_ in results if r > 0)
    lost = sum(1 for r, *_ in results if r < 0)
    decisions = sum(d for *_, d, _s in results)
    thinking = sum(s for *_, s in results)
    print(f"IS-MCTS ({args.simulations} simulations, {args.rollouts} rollout(s)) against "
          f"{args.against}, {args.rules} 2 players, {len(results)} games "
          f"({args.deals} deals, seats swapped), seed {args.seed}")
    print(f"  won {won}, lost {lost}, tied {len(results) - won - lost}: "
          f"{wilson(won, len(results))}")
    print(f"  points per deal: {mean_ci([p for _r, p, *_ in results])}")
    print(f"  {decisions} decisions, {thinking / max(decisions, 1):.3f} s each; "
          f"{wall:.0f} s in all on {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
