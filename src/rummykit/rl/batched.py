"""Many deals as NumPy arrays, stepped together: the batched environment for training.

``BatchedRummyEnv(num_envs, rules, players, opponents)`` is a Gymnasium vector
environment like :class:`~rummykit.rl.vector.VectorRummyEnv` (one learning seat in every
deal, observations ``(num_envs, D)`` float32, masks ``(num_envs, n)`` int8 in
``infos["action_mask"]``), but its deals are the rows of :class:`~rummykit.rl.arrays.Deals`,
not engine objects, and each rule is one array operation over all the rows that it
concerns. A step of 256 deals costs less than three times a step of 16, so a large batch
is many times faster than stepping the deals one by one (bench/rl.py measures both).

It plays what :mod:`rummykit.rl.arrays` plays (``classic``, ``basic``, ``one-deal``,
``limited-stock``),
card for card as the engine does; episodes are one deal; rewards ``"points"`` or
``"win"`` (as :func:`~rummykit.rl.aec.deal_rewards`). The opponents are the ``random``
bot (each move drawn uniformly from the engine's legal actions, a whole meld being one of
them) or a :data:`BatchPolicy`: a function given the observations and masks of every deal
where an opponent is to move, that returns an index for each, as a copy of the learner
does for self-play. The deals dealt for a seed are not those :class:`VectorRummyEnv` deals
for it (each is a uniform shuffle, drawn from NumPy's generator).

The observation and the mask returned by a step are new arrays, the caller's to keep. An
index outside the action space, or one its mask does not allow, ends that deal with
``illegal_reward`` (``infos["illegal"]``), as in the other Gymnasium environments; actions
of another shape or a non-integer type are a ValueError, and change nothing. A deal that
the bots end before the learner's first move (a rummy in the first turns) is reported at
the next step: terminated, with its reward; whatever index is given for it is allowed and
not played.

>>> env = BatchedRummyEnv(4, "classic", 2)
>>> obs, infos = env.reset(seed=1)
>>> obs.shape == (4, env.single_observation_space.shape[0]), infos["action_mask"].shape
(True, (4, 1081))
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):
...     obs, rewards, terminated, truncated, infos = env.step(
...         sample_masked(infos["action_mask"], rng))
>>> bool(np.all(rewards[~terminated] == 0))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rummykit.engine.deal import Deal
from rummykit.rl.actions import DISCARD, LAY_MELD, LAYOFF, MELD_CARD, ActionCodec
from rummykit.rl.aec import RewardKind, resolve_rules
from rummykit.rl.arrays import BIT, CARDS, Deals, popcount, unpack
from rummykit.rl.observation import FIXED_PLANES, Layout
from rummykit.rules import Rules

__all__ = ["BatchPolicy", "BatchedRummyEnv", "sample_masked"]

Array = npt.NDArray[Any]

BatchPolicy: TypeAlias = Callable[[Array, Array], Array]
"""A policy over a batch: given the observations ``(k, D)`` and the action masks ``(k, n)``
of the deals where it is to move, one index for each (a copy of the learner, for
self-play over the whole batch)."""
_U = np.uint64
_ALL = _U((1 << CARDS) - 1)


def sample_masked(masks: Array, rng: np.random.Generator) -> Array:
    """One index per row of ``masks`` (each row allowing one at least), drawn uniformly
    from those the row allows: the random policy of a whole batch in a few array
    operations.

    >>> masks = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    >>> sample_masked(masks, np.random.default_rng(0))[1]
    np.int64(0)
    """
    n, width = masks.shape
    flat = np.ascontiguousarray(masks if masks.itemsize == 1 else masks != 0)
    flat = flat.view(np.uint8).reshape(-1)
    if len(flat) % 8:
        flat = np.concatenate([flat, np.zeros(8 - len(flat) % 8, dtype=np.uint8)])
    # A mask is mostly zeros: find its nonzero 8-byte words, then the bytes in them.
    hit = np.flatnonzero(flat.view(np.uint64))
    word, byte = np.nonzero(flat.reshape(-1, 8)[hit])
    at = hit[word] * 8 + byte
    rows = at // width
    cols = at - rows * width
    counts = np.bincount(rows, minlength=n)
    start = np.cumsum(counts) - counts
    return cols[start + (rng.random(len(masks)) * counts).astype(np.int64)]  # type: ignore[no-any-return]


class BatchedRummyEnv(VectorEnv[Array, Array, Array]):
    """``num_envs`` deals as arrays, one learning seat against the ``random`` bot or a
    :data:`BatchPolicy` (see the module's description); an index that the policy chooses
    and its mask does not allow, or an answer of another shape or type, is a ValueError
    raised within the step (the learner's actions played): reset() the batch then.
    ``seat``, ``reward``, ``illegal_reward`` and ``autoreset_mode`` are
    :class:`~rummykit.rl.vector.VectorRummyEnv`'s; the episode is one deal.
    ``gymnasium.make_vec(ARRAYS_ENV_ID, num_envs=N)`` makes one
    (``rummykit.rl.ARRAYS_ENV_ID``, ``"rummykit/RummyArrays-v0"``, whose single environment
    is :class:`~rummykit.rl.single.SingleAgentEnv` against ``random``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (as VectorEnv)

    def __init__(
        self, num_envs: int = 1024, rules: str | Rules = "classic", players: int = 2,
        opponents: str | BatchPolicy = "random", *, seat: int = 0,
        reward: RewardKind = "points",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if isinstance(opponents, str):
            if opponents != "random":
                raise ValueError(f"opponents {opponents!r}: of the bots, the arrays play "
                                 "'random' only (or give a BatchPolicy; VectorRummyEnv "
                                 "plays any bot)")
            self._policy: BatchPolicy | None = None
        elif callable(opponents):
            self._policy = opponents
        else:
            raise TypeError(f"opponents: {type(opponents).__name__} is neither 'random' nor "
                            "a BatchPolicy (a function of observations and masks)")
        if reward not in ("points", "win"):
            raise ValueError(f"reward {reward!r}: 'points' or 'win'")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode DISABLED is not offered: NEXT_STEP or SAME_STEP")
        self.rules = resolve_rules(rules)
        self.deals = Deals(self.rules, players, num_envs)
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode}
        self.layout = Layout(players, self.deals.melds)
        self.codec = ActionCodec(self.rules)
        low, high = self.layout.bounds()
        self.single_observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.codec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        target = self.rules.target_for(players)
        self._scale = float(target if target else 100)
        self._rng = np.random.default_rng()
        n = num_envs
        self._ended = np.zeros(n, dtype=bool)
        self._unreported = np.zeros(n, dtype=bool)
        self._illegal = np.zeros(n, dtype=bool)
        self._choose_n = np.zeros(n, dtype=np.int64)
        self._choose_bits = np.zeros(n, dtype=_U)
        self._consistent = np.zeros((n, self.deals.cand.count), dtype=bool)
        self._mask = np.zeros((n, self.codec.size), dtype=np.int8)
        self._all = np.arange(n)
        self.log: list[tuple[int, ...]] | None = None
        """Where set to a list, every move of the bots is added to it (for tests)."""

    # -- the episode -----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Array, dict[str, Any]]:
        """Deal every deal again (from ``seed``, one int for the whole batch: the same seed,
        the same deals)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise ValueError(f"seed: one int for the whole batch, not {seed!r}")
            self._rng = np.random.default_rng(seed)
        self.deals.deal(self._all, self._rng)
        self._restart(self._all)
        return self._observe(), {"action_mask": self._mask.copy()}

    def load(self, deals: list[Deal], seed: int | None = None) -> tuple[Array, dict[str, Any]]:
        """Start from the engine's ``deals`` (one per row, none moved yet) instead of new
        shuffles, the bots playing until the learner's turn (their moves drawn from
        ``seed``): for tests that play the engine beside the arrays."""
        if len(deals) != self.num_envs:
            raise ValueError(f"{len(deals)} deals for {self.num_envs} rows")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for row, deal in enumerate(deals):
            self.deals.load(row, deal)
        self._restart(self._all)
        return self._observe(), {"action_mask": self._mask.copy()}

    def _restart(self, rows: Array) -> None:
        """The bots' moves of new deals until the learner's turn, and the masks."""
        self._ended[rows] = False
        self._illegal[rows] = False
        self._choose_n[rows] = 0
        self._choose_bits[rows] = 0
        self._play_others(rows)
        self._new_masks(rows)
        # A deal the bots ended before the learner could move: its end is reported at the
        # next step, whatever index is given (every one is allowed, none is played).
        over = rows[self.deals.phase[rows] == 2]
        self._unreported[rows] = False
        self._unreported[over] = True
        self._mask[over] = 1

    def step(
        self, actions: Array,
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        n = self.num_envs
        chosen = np.asarray(actions)
        if chosen.shape != (n,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(f"actions: {n} integer indices, one per deal (not an array of "
                             f"shape {chosen.shape} and dtype {chosen.dtype})")
        chosen = chosen.astype(np.int64)
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        deals = self.deals
        # A deal the bots ended before the learner's first move is reported now, its action
        # not played; one that ended at the last step (NEXT_STEP) is dealt again.
        early = np.flatnonzero(self._unreported & ~self._ended)
        rows = np.flatnonzero(~self._unreported & ~self._ended)
        a = chosen[rows]
        legal = (a >= 0) & (a < self.codec.size)
        legal[legal] = self._mask[rows[legal], a[legal]] == 1
        self._mask = np.zeros_like(self._mask)  # (every row's is written again below)
        again = np.flatnonzero(self._ended)
        if len(again):
            deals.deal(again, self._rng)
            self._restart(again)
        self._unreported[early] = False
        terminated[early] = True
        rewards[early] = self._rewards(early)
        bad = rows[~legal]
        self._illegal[bad] = True
        rewards[bad] = self.illegal_reward
        terminated[bad] = True
        rows, a = rows[legal], a[legal]
        self._apply(rows, a)
        self._play_others(rows)
        over = rows[deals.phase[rows] == 2]
        terminated[over] = True
        rewards[over] = self._rewards(over)
        self._new_masks(rows)
        obs = self._observe()
        infos: dict[str, Any] = {}
        if len(bad):
            infos["illegal"] = np.zeros(n, dtype=bool)
            infos["illegal"][bad] = True
            infos["_illegal"] = infos["illegal"].copy()
        ended = np.flatnonzero(terminated)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and len(ended):
            final = np.empty(n, dtype=object)
            for i in ended:
                final[i] = obs[i].copy()
            infos["final_obs"], infos["_final_obs"] = final, terminated.copy()
            deals.deal(ended, self._rng)
            self._restart(ended)
            obs[ended] = self._observe(ended)
        else:
            self._ended[ended] = True
            self._mask[ended] = 1
        infos["action_mask"] = self._mask.copy()
        return obs, rewards, terminated, np.zeros(n, dtype=bool), infos

    def action_masks(self) -> Array:
        """Every deal's legal indices, one row each (as maskable learners ask)."""
        return self._mask.copy()

    def _rewards(self, rows: Array) -> Array:
        points = self.deals.points[rows].astype(np.float64)
        p = self.players
        mine = points[:, self.seat]
        if self.reward_kind == "points":
            return (mine - (points.sum(axis=1) - mine) / (p - 1)) / self._scale  # type: ignore[no-any-return]
        best = points.max(axis=1)
        alone = (points == best[:, None]).sum(axis=1) == 1
        return np.where(alone, np.where(mine == best, 1.0, -1.0 / (p - 1)), 0.0)

    # -- the learner's moves ---------------------------------------------------------

    def _apply(self, rows: Array, a: Array) -> None:
        deals = self.deals
        pick = a == 0
        deals.draw_stock(rows[pick])
        pick = a == 1
        deals.draw_pile(rows[pick])
        pick = (a >= DISCARD) & (a < MELD_CARD)
        deals.discard(rows[pick], a[pick] - DISCARD)
        pick = (a >= MELD_CARD) & (a < LAY_MELD)
        if pick.any():
            self._choose(rows[pick], a[pick] - MELD_CARD)
        pick = a == LAY_MELD
        if pick.any():
            r = rows[pick]
            done = self._consistent[r] & (deals.cand.length == self._choose_n[r][:, None])
            self._choose_n[r] = 0
            self._choose_bits[r] = 0
            deals.meld(r, done.argmax(axis=1))
        pick = a >= LAYOFF
        if pick.any():
            k = a[pick] - LAYOFF
            deals.layoff(rows[pick], k // 53, k % 53)

    def _choose(self, rows: Array, card: Array) -> None:
        cand = self.deals.cand
        k = self._choose_n[rows]
        fresh = rows[k == 0]
        if len(fresh):
            some, ok = self.deals.legal_melds(fresh)
            self._consistent[fresh] = False
            self._consistent[fresh[some]] = ok
        self._consistent[rows] &= card[:, None] == cand.seq[:, np.minimum(k, 12)].T
        self._choose_n[rows] = k + 1
        self._choose_bits[rows] |= BIT[card]

    def _play_others(self, rows: Array) -> None:
        """The bots' moves until each of ``rows`` is the learner's turn or over."""
        deals = self.deals
        while True:
            rows = rows[(deals.phase[rows] != 2) & (deals.to_move[rows] != self.seat)]
            if not len(rows):
                return
            if self._policy is None:
                deals.play_random(rows, self._rng, self.log)
            else:
                self._play_policy(rows, self._policy)

    def _play_policy(self, rows: Array, policy: BatchPolicy) -> None:
        """One index of the policy for the mover of each of ``rows``."""
        self._new_masks(rows)
        masks = self._mask[rows]
        obs = self._observe(rows, self.deals.to_move[rows])
        chosen = np.asarray(policy(obs, masks.copy()))
        if chosen.shape != (len(rows),) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(f"the opponents' policy must return {len(rows)} integer indices "
                             f"(not an array of shape {chosen.shape} and dtype {chosen.dtype})")
        chosen = chosen.astype(np.int64)
        inside = (chosen >= 0) & (chosen < self.codec.size)
        legal = inside.copy()
        legal[inside] = masks[np.flatnonzero(inside), chosen[inside]] == 1
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"the opponents' policy chose index {int(chosen[bad])} in deal "
                             f"{int(rows[bad])}, which its action mask does not allow")
        if self.log is not None:
            self.log += [(int(r), 5, int(a)) for r, a in zip(rows, chosen, strict=True)]
        self._apply(rows, chosen)

    # -- masks and observations ------------------------------------------------------

    def _new_masks(self, rows: Array) -> None:
        deals = self.deals
        mask = self._mask
        mask[rows] = 0
        rows = rows[deals.phase[rows] != 2]
        drawing = deals.phase[rows] == 0
        d = rows[drawing]
        mask[d, 0] = deals.stock_drawable(d)
        mask[d, 1] = deals.pile_n[d] > 0
        play = rows[~drawing]
        choosing = self._choose_n[play] > 0
        c = play[choosing]
        if len(c):
            cand = self.deals.cand
            k = self._choose_n[c]
            cons = self._consistent[c]
            nxt = cons & (cand.length > k[:, None])
            at, which = np.nonzero(nxt)
            mask[c[at], MELD_CARD + cand.seq[which, k[at]]] = 1
            mask[c, LAY_MELD] = (cons & (cand.length == k[:, None])).any(axis=1)
        p = play[~choosing]
        if len(p):
            mask[p, DISCARD:DISCARD + CARDS] = unpack(deals.discards(p))
            some, melds = deals.legal_melds(p)
            at, which = np.nonzero(melds)
            mask[p[some[at]], MELD_CARD + deals.cand.first[which]] = 1
            lays = deals.layoffs(p)
            has = np.flatnonzero((lays != 0).any(axis=1))
            if len(has):
                m = deals.melds
                block = np.zeros((len(has), m, 53), dtype=np.int8)
                block[:, :, :CARDS] = unpack(lays[has])
                mask[p[has], LAYOFF:LAYOFF + 53 * m] = block.reshape(len(has), m * 53)

    def _observe(self, rows: Array | None = None, seats: Array | None = None) -> Array:
        """The observation of ``seats`` (the learner's by default) in ``rows`` (every deal
        by default), as the engine's :mod:`~rummykit.rl.observation` makes it."""
        d = self.deals
        p = self.players
        every = rows is None  # (then whole arrays, not copies of their rows)
        if rows is None:
            rows = self._all
        if seats is None:
            seats = np.full(len(rows), self.seat)

        def take(a: Array) -> Array:
            return a if every else a[rows]

        n = len(rows)
        layout = self.layout
        order = [(seats + r) % p for r in range(p)]
        hands = take(d.hands)
        known = take(d.known)
        at_row = np.arange(n)
        hand = hands[at_row, seats]
        others = np.zeros(n, dtype=_U)
        for r in range(1, p):
            others |= known[at_row, order[r]]
        pile_n = take(d.pile_n)
        pile_bits = take(d.pile_bits)
        table_bits = take(d.table_bits)
        top = np.where(pile_n > 0, BIT[d.pile[rows, np.maximum(pile_n - 1, 0)]], _U(0))
        taken = take(d.taken)
        words = np.zeros((n, layout.planes), dtype=_U)
        words[:, 0] = hand
        words[:, 1] = take(self._choose_bits)
        words[:, 2] = top
        words[:, 3] = pile_bits
        words[:, 4] = np.where(taken >= 0, BIT[np.maximum(taken, 0)], _U(0))
        words[:, 5] = table_bits
        words[:, 6] = known[at_row, seats]
        for r in range(1, p):
            words[:, len(FIXED_PLANES) + r - 1] = known[at_row, order[r]]
        words[:, layout.unseen_plane] = _ALL & ~(hand | pile_bits | table_bits | others)
        meld_n = take(d.meld_n)
        words[:, layout.meld_planes:] = take(d.meld_bits)
        # Only the planes up to the last meld on any table (the others are empty).
        obs = np.zeros((n, layout.size), dtype=np.float32)
        used = layout.meld_planes + (int(meld_n.max()) if n else 0)
        raw = words[:, :used, None].view(np.uint8)  # (bit 52, the joker's, is never set)
        obs[:, :used * 53] = np.unpackbits(
            raw, axis=-1, count=53, bitorder="little").reshape(n, used * 53)
        scal = obs[:, layout.planes * 53:]
        phase_now = take(d.phase)
        over = phase_now == 2
        phase = np.where(take(self._choose_n) > 0, 2, phase_now)
        live = np.flatnonzero(~over)
        scal[live, phase[live]] = 1.0
        scal[live, 3 + (d.to_move[rows[live]] - seats[live]) % p] = 1.0
        scal[at_row, 3 + p + (take(d.dealer) - seats) % p] = 1.0
        at = 3 + 2 * p
        deck = float(CARDS)
        sizes = popcount(hands)
        laid = take(d.laid)
        points = np.where(over[:, None], take(d.points), 0) / self._scale
        for r in range(p):
            seat = order[r]
            scal[:, at + r] = sizes[at_row, seat] / deck
            scal[:, at + p + 3 + r] = 1.0  # opened: no opening rule
            scal[:, at + 2 * p + 3 + r] = laid[at_row, seat]
            scal[:, at + 3 * p + 3 + r] = 1.0  # still in the match
            scal[:, at + 4 * p + 3 + r] = np.clip(points[at_row, seat], -2.0, 2.0)
        at += p
        scal[:, at] = take(d.stock_n) / deck
        scal[:, at + 1] = pile_n / deck
        scal[:, at + 2] = meld_n / float(d.melds)
        at += 3 + 4 * p
        scal[:, at] = take(d.turn_melds) > 0
        turn_overs = take(d.turn_overs) / float(max(self.rules.turn_overs, 1))
        scal[:, at + 2] = np.minimum(1.0, turn_overs)
        refills = take(d.refills_used) / float(max(self.rules.refills_for(p), 1))
        scal[:, at + 3] = np.minimum(1.0, refills)
        return obs
