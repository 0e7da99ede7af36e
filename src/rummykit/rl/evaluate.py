"""The evaluation protocol: how a policy's strength is measured and reported.

:func:`evaluate` plays a policy against a bot level on seat-swapped deals: each deal is
dealt from its own seed and played once with the policy in every other seat and once with
the seats exchanged (at an odd player count: once with the policy in each seat, the bot in
all the others), so the luck of the deal cancels out. It reports what ``bench/duel.py``
reports for two bots: deals won (with a 95% Wilson interval) and the mean points per deal
more than the opponents' (95% normal interval over the deals, each deal's games together
as one unit; where the rules score penalties, as ramino does, the sign is turned so that
higher is better).

>>> import numpy as np
>>> lowest = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> result = evaluate(lowest, "one-deal", 2, against="random", deals=2, seed=1)
>>> result.games, result.won + result.lost <= result.games
(4, True)
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from rummykit.bots import Bot, make_bot
from rummykit.engine.views import view
from rummykit.intervals import Estimate, mean_ci, wilson
from rummykit.rl.single import Policy, SingleAgentEnv
from rummykit.rules import Rules

__all__ = ["Evaluation", "evaluate"]


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate` (the policy's side; ``games`` counts every seating
    of every deal)."""

    rules: str
    players: int
    against: str
    deals: int
    games: int
    won: int
    """Games the policy's side won (a deal's winner sat at one of its seats)."""
    lost: int
    """Games another seat won (the rest had no single winner)."""
    win_rate: Estimate
    """Games won per game, with its 95% Wilson interval."""
    points_per_deal: Estimate
    """The policy's mean points per deal less the opponents', each deal's games together
    as one unit, with its 95% interval."""

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": self.players, "against": self.against,
                "deals": self.deals, "games": self.games, "won": self.won, "lost": self.lost,
                "win_rate": self.win_rate.to_json(),
                "points_per_deal": self.points_per_deal.to_json()}

    def __str__(self) -> str:
        w, p = self.win_rate, self.points_per_deal
        return (f"against {self.against}, {self.rules}, {self.players} players, {self.deals} "
                f"deals ({self.games} games): won {self.won} ({w.mean:.1%}, 95% CI "
                f"{w.low:.1%} to {w.high:.1%}); points per deal {p.mean:+.2f} "
                f"(95% CI {p.low:+.2f} to {p.high:+.2f})")


def _seatings(players: int) -> list[list[bool]]:
    """For each game of a deal, which seats the policy plays."""
    if players % 2 == 0:
        return [[(seat + turn) % 2 == 0 for seat in range(players)] for turn in (0, 1)]
    return [[seat == turn for seat in range(players)] for turn in range(players)]


def evaluate(policy: Policy | Bot | str, rules: str | Rules = "classic", players: int = 2,
             *, against: str = "expert", deals: int = 200, seed: int = 0) -> Evaluation:
    """Play ``policy`` (a :data:`~rummykit.rl.single.Policy` over indices, a
    :class:`~rummykit.bots.Bot` or a level) against the bot level ``against`` on
    ``deals`` seat-swapped deals of ``rules`` (see the module's description); deal ``i``
    is dealt from ``seed + i``, so two policies evaluated with the same arguments meet
    the same deals."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    me: Policy | Bot = make_bot(policy) if isinstance(policy, str) else policy
    is_bot = callable(getattr(me, "choose", None))
    seatings = _seatings(players)
    won = lost = games = 0
    diffs: list[float] = []
    rules_text = ""
    for i in range(deals):
        diff = 0.0
        for mine in seatings:
            learner = mine.index(True)
            others = [me if mine[(learner + k) % players] else make_bot(against)
                      for k in range(1, players)]
            env = SingleAgentEnv(rules, players, opponents=others, seat=learner)
            rules_text = str(env.game.rules)
            obs, info = env.reset(seed=seed + i)
            done = False
            steps: list[int] = []  # a bot's action still to be played, index by index
            rng = random.Random(f"evaluate/{seed + i}/{learner}")
            while not done:
                if is_bot:
                    if not steps:
                        bot: Bot = me  # type: ignore[assignment]
                        steps = _steps(env, bot, rng)
                    index = steps.pop(0)
                else:
                    chooser: Policy = me  # type: ignore[assignment]
                    index = int(chooser(obs, info["action_mask"]))
                obs, _reward, done, _truncated, info = env.step(index)
                if info.get("illegal"):
                    raise ValueError(f"the policy chose index {index}, which its action "
                                     "mask does not allow")
            result = env.game.deal.result
            assert result is not None
            sign = -1.0 if env.game.rules.scoring == "penalty" else 1.0
            ours = [sign * p for seat, p in enumerate(result.points) if mine[seat]]
            theirs = [sign * p for seat, p in enumerate(result.points) if not mine[seat]]
            diff += statistics.mean(ours) - statistics.mean(theirs)
            games += 1
            if result.winner is not None:
                if mine[result.winner]:
                    won += 1
                else:
                    lost += 1
        diffs.append(diff / len(seatings))
    return Evaluation(rules=rules_text, players=players, against=against, deals=deals,
                      games=games, won=won, lost=lost, win_rate=wilson(won, games),
                      points_per_deal=mean_ci(diffs))


def _steps(env: SingleAgentEnv, bot: Bot, rng: random.Random) -> list[int]:
    """The indices of the action ``bot`` chooses at the learner's seat."""
    game = env.game
    assert game.match is not None
    action = bot.choose(view(game.match, env.seat), rng)
    return list(game.codec.steps(action))
