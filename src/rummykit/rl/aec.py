"""The PettingZoo environment: every seat a learning agent, one action at a time (AEC).

It follows PettingZoo's classic environments: agents ``player_0`` to ``player_{n-1}``
(seat numbers), a ``Dict`` observation of ``observation`` (:mod:`rummykit.rl.observation`)
and ``action_mask`` (int8, 1 for the legal indices of :mod:`rummykit.rl.actions`; all 0
for a seat not to move), rewards when a deal ends, and ``render_mode`` ``"ansi"`` (the
text returned) or ``"human"`` (the text printed).

>>> from rummykit.rl import env
>>> e = env("classic", players=2, seed=7)
>>> e.reset()
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()), reward, terminated
(2, 0.0, False)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.cards import format_cards
from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal
from rummykit.engine.match import Match
from rummykit.engine.scoring import worth
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError
from rummykit.rl.actions import LAY_MELD, MELD_CARD, ActionCodec, MeldChoice
from rummykit.rl.observation import Encoder, SeatEncoder
from rummykit.rules import Rules

__all__ = ["Episode", "RewardKind", "RummyEnv", "deal_rewards", "env", "match_rewards",
           "resolve_rules"]

Episode = Literal["deal", "match"]
"""One deal per episode, or a whole match (rewards still come at the end of each deal)."""

RewardKind = Literal["points", "win"]
"""What a deal pays: its points (normalised), or +1 for the best score and -1 shared
among the others."""

Observation = dict[str, npt.NDArray[Any]]


def resolve_rules(rules: str | Rules) -> Rules:
    """A rules object from itself, a preset's name or an options string
    (``"classic(melds_per_turn=many)"``)."""
    return rules if isinstance(rules, Rules) else Rules.parse(rules)


def _relative(scores: list[float], seats: list[int]) -> dict[int, float]:
    """Each seat's score less the mean of the other seats' scores (a zero-sum share)."""
    total = sum(scores[s] for s in seats)
    others = len(seats) - 1
    return {s: scores[s] - (total - scores[s]) / others for s in seats}


def deal_rewards(deal: Deal, kind: RewardKind, scale: float) -> list[float]:
    """What each seat earns when ``deal`` ends: zero-sum among the seats dealt in.

    A deal's points count as the rules score them (penalty points against the seat that
    takes them). ``points``: a seat's points less the mean of the others', divided by
    ``scale``. ``win``: +1 to the one seat with the best score, and -1 shared equally by
    the others (all 0 when several share the best score)."""
    result = deal.result
    if result is None:
        raise ValueError("the deal is not over")
    scores = [worth(deal.rules, float(p)) for p in result.points]
    seats = [s for s in range(deal.players) if deal.active[s]]
    out = [0.0] * deal.players
    if kind == "points":
        for s, value in _relative(scores, seats).items():
            out[s] = value / scale
        return out
    best = max(scores[s] for s in seats)
    leaders = [s for s in seats if scores[s] == best]
    if len(leaders) == 1:
        for s in seats:
            out[s] = 1.0 if s == leaders[0] else -1.0 / (len(seats) - 1)
    return out


def match_rewards(match: Match) -> list[float]:
    """``win`` for a whole match: +1 to its winner, -1 shared by the others (all 0 when
    it ends without a single winner)."""
    out = [0.0] * match.players
    if match.winner is not None:
        for s in range(match.players):
            out[s] = 1.0 if s == match.winner else -1.0 / (match.players - 1)
    return out


class RummyEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo: untyped
    """A Rummy deal or match under any rules object, every seat an agent.

    ``rules``: a :class:`~rummykit.rules.Rules`, a preset's name or an options string.
    ``episode``: ``"deal"`` (one deal) or ``"match"`` (deals until the match ends).
    ``reward``: ``"points"`` (a deal's points, zero-sum, divided by the match target, 100
    where the rules have none) or ``"win"`` (+1 and -1; in a match episode, for winning
    the match, paid at its end). ``seed``: the generator that deals each episode, unless
    :meth:`reset` is given one. ``illegal_reward``: None (an index the mask does not
    allow raises the reason), or what an agent gets for one, the episode ending there.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "rummykit_rummy_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, rules: str | Rules = "classic", players: int = 2, render_mode: str | None = None,
        seed: int | None = None, *, episode: Episode = "deal", reward: RewardKind = "points",
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules)
        self.rules.check_players(players)
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: the modes are 'ansi' and 'human'")
        if episode not in ("deal", "match"):
            raise ValueError(f"episode {episode!r}: 'deal' or 'match'")
        if reward not in ("points", "win"):
            raise ValueError(f"reward {reward!r}: 'points' or 'win'")
        self.players = players
        self.render_mode = render_mode
        self.episode: Episode = episode
        self.reward_kind: RewardKind = reward
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.codec = ActionCodec(self.rules)
        self._one_step = [self.codec.one_step(i) for i in range(self.codec.size)]
        """The engine action of each index that plays one (None for a meld's steps)."""
        self.encoder = Encoder(self.rules, players)
        self._seat_encoders = [SeatEncoder(self.encoder, seat) for seat in range(players)]
        self._seat_of = {f"player_{i}": i for i in range(players)}
        target = self.rules.target_for(players)
        self.reward_scale = float(target if target else 100)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        low, high = self.encoder.layout.bounds()
        size = self.codec.size
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = random.Random(seed)
        self.match: Match | None = None
        self._choosing: tuple[int, ...] = ()
        self._legal: list[Action] = []
        self._melds: MeldChoice | None = None
        self._mask = bytearray(size)
        """The mover's mask (1 for each legal index), as bytes: cheap to fill and to read."""
        self._no_mask = bytearray(size)
        self._observed: dict[str, Observation] = {}
        self.rewards: dict[str, float] = {}
        self._paying = False
        """Whether ``rewards`` holds what a deal paid at the last step (else all are 0)."""
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match(self.rules, players=self.players, seed=self._seeds.getrandbits(48))
        # One deal per episode: the deal stays in place once over (no next deal is dealt).
        self.match.auto_deal = self.episode == "match"
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._choosing = ()
        self._paying = False
        self._new_position()
        if self.render_mode == "human":
            self.render()

    @property
    def deal(self) -> Deal:
        """The deal being played (the last one once a match episode is over)."""
        if self.match is None:
            raise RuntimeError("reset() the environment first")
        return self.match.deal

    @property
    def choosing(self) -> tuple[int, ...]:
        """The cards chosen so far for a new meld, in order (empty between melds)."""
        return self._choosing

    def _new_position(self) -> None:
        """After an engine action: the legal actions, the mask and the agent to move."""
        assert self.match is not None
        deal = self.match.deal
        self._observed = {}
        legal = self._legal = deal.legal_actions()
        self._melds = None  # made at the first meld step
        mask = bytearray(self.codec.size)
        self.codec.fill(legal, mask)
        self._mask = mask
        self.agent_selection = self.possible_agents[deal.to_move]

    def _choose(self, card: int) -> None:
        """A meld step: ``card`` joins the meld being chosen."""
        self._choosing += (card,)
        self._observed = {}
        melds = self._melds
        if melds is None:
            melds = self._melds = MeldChoice([a.cards for a in self._legal if a.kind == "meld"])
        mask = bytearray(self.codec.size)
        for nxt in melds.next_cards(self._choosing):
            mask[MELD_CARD + nxt] = 1
        if melds.is_meld(self._choosing):
            mask[LAY_MELD] = 1
        self._mask = mask

    def observe(self, agent: str) -> Observation:
        kept = self._observed.get(agent)
        if kept is not None:
            return kept
        match = self.match
        assert match is not None
        mover = agent == self.agent_selection and not self.terminations.get(agent, True)
        out: Observation = {
            "observation": self._seat_encoders[self._seat_of[agent]].encode(
                match.deal, match.totals, self._choosing if mover else ()),
            "action_mask": np.array(self._mask if mover else self._no_mask, dtype=np.int8),
        }
        self._observed[agent] = out
        return out

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        if action is None:
            raise IllegalActionError(f"{agent} is to move: None is no action",
                                     code="malformed-action")
        index = int(action)
        if not 0 <= index < self.codec.size or not self._mask[index]:
            if self.illegal_reward is None or not 0 <= index < self.codec.size:
                self._refuse(index)
            self._end_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._paying:  # a deal paid at the last step: its rewards are cleared now
            self._clear_rewards()
            self._paying = False
        if MELD_CARD <= index < LAY_MELD:
            self._choose(index - MELD_CARD)
            return
        played: Action | None
        if index == LAY_MELD:
            played = Action("meld", self._choosing)
            self._choosing = ()
        else:
            played = self._one_step[index]
            assert played is not None
        deal = match.deal
        match.push(played)
        if deal.phase == "over":
            self._deal_over(deal)
        if not self.terminations[agent]:  # (every agent's ends at once)
            self._new_position()
        else:
            self._observed = {}
        if self._paying:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str) -> None:
        """End the episode for an illegal index, as PettingZoo's ``TerminateIllegalWrapper``
        does: every agent done, ``illegal_reward`` for ``agent``, 0 for the others."""
        assert self.illegal_reward is not None
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()
        self._observed = {}

    def _refuse(self, index: int) -> None:
        """Raise the reason ``index`` is not legal: the engine's rule where it names an
        engine action, else a ValueError."""
        if not 0 <= index < self.codec.size:
            raise ValueError(f"action {index} is not in 0..{self.codec.size - 1}")
        action = self.codec.action(index)
        if self._choosing:
            raise ValueError(f"action {index} ({self.codec.describe(index)}) is not legal "
                             f"here: finish the meld begun with {format_cards(self._choosing)}")
        if action is not None:
            self.deal.verify(action)
        raise ValueError(f"action {index} ({self.codec.describe(index)}) is not legal here")

    def _deal_over(self, deal: Deal) -> None:
        assert self.match is not None
        ends = self.episode == "deal" or self.match.is_over
        if self.reward_kind == "points" or self.episode == "deal":
            paid = deal_rewards(deal, self.reward_kind, self.reward_scale)
        else:
            paid = match_rewards(self.match) if self.match.is_over else [0.0] * self.players
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = paid[seat]
        self._paying = True
        if ends:
            self.terminations = dict.fromkeys(self.agents, True)

    # -- showing -----------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as the player to move sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def text(self) -> str:
        """The table as the player to move sees it, in words."""
        if self.match is None:
            return "(not dealt yet: reset() the environment)"
        seat = self.deal.to_move
        v = view(self.match, seat, recent=0)
        lines = [f"Deal {v.deal_number}, {self.possible_agents[seat]} to move ({v.phase}); "
                 + ", ".join(f"{a}: {t} points, {k} cards" for a, t, k in
                             zip(self.possible_agents, v.totals, v.hand_sizes, strict=True))]
        for meld in v.table:
            lines.append(f"  meld {meld.number}: {format_cards(meld.cards)}")
        lines.append(f"  stock {v.stock_size}, pile "
                     + (format_cards(v.pile) if v.pile else "(empty)"))
        lines.append(f"  hand: {format_cards(v.hand)}")
        if self._choosing:
            lines.append(f"  meld chosen so far: {format_cards(self._choosing)}")
        if v.deal_result is not None:
            result = v.deal_result
            lines.append("  the deal is over: "
                         + ("nobody went out" if result.winner is None
                            else f"{self.possible_agents[result.winner]} went out")
                         + "; points " + " ".join(f"{p:+d}" for p in result.points))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(
    rules: str | Rules = "classic", players: int = 2, render_mode: str | None = None,
    seed: int | None = None, *, episode: Episode = "deal", reward: RewardKind = "points",
    illegal_reward: float = -1.0,
) -> AECEnv[str, Observation, int]:
    """The environment as PettingZoo's classic environments come: an illegal action ends
    the episode with ``illegal_reward`` for its agent (done by the environment itself, as
    PettingZoo's ``TerminateIllegalWrapper`` would, one wrapper fewer to pass through at
    every call), an index outside the space raises, and the order of calls is checked
    (``OrderEnforcingWrapper``)."""
    raw = RummyEnv(rules, players, render_mode, seed, episode=episode, reward=reward,
                   illegal_reward=illegal_reward)
    wrapped: AECEnv[str, Observation, int] = wrappers.OrderEnforcingWrapper(raw)
    return wrapped
