"""The learning environments: PettingZoo's own API and seed checks for every preset, the
mask against the engine's legal actions, observations that never see a hidden card, and
rewards against the engine's deal results."""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import pickle
import random
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from rummykit.engine import Deal, determinize  # noqa: E402
from rummykit.engine.actions import Action  # noqa: E402
from rummykit.engine.views import sight, view  # noqa: E402
from rummykit.errors import IllegalActionError  # noqa: E402
from rummykit.rl import (  # noqa: E402
    ENV_ID,
    ActionCodec,
    Encoder,
    RummyEnv,
    SingleAgentEnv,
    env,
    max_table_melds,
)
from rummykit.rl.actions import DISCARD, LAY_MELD, MELD_CARD, MeldChoice  # noqa: E402
from rummykit.rl.observation import SeatEncoder, reference_observation  # noqa: E402
from rummykit.rules import PRESETS, preset  # noqa: E402

TABLES = [(name, 2) for name in PRESETS] + [(name, 4) for name in PRESETS] + [("basic", 6)]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_pettingzoo_api_test_passes(rules: str, players: int) -> None:
    api_test(env(rules, players, seed=1), num_cycles=200)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_pettingzoo_seed_test_passes(rules: str, players: int) -> None:
    seed_test(lambda: env(rules, players), num_cycles=200)


def _random_positions(rules: str, players: int, seed: int, episodes: int):
    """Raw environments at every engine position of random play (the same object, moved
    on; the steps within a meld are played but not given)."""
    e = RummyEnv(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(episodes):
        e.reset()
        while not any(e.terminations.values()):
            if not e.choosing:
                yield e
            legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))


def _paths(e: RummyEnv) -> list[Action]:
    """Every engine action reachable from the mask: one index, or a meld's card steps
    followed to ``lay the meld`` (each path walked on a shallow copy of the environment:
    a meld step moves no card)."""
    out: list[Action] = []
    mask = e.observe(e.agent_selection)["action_mask"]
    for index in np.flatnonzero(mask):
        index = int(index)
        if MELD_CARD <= index < LAY_MELD:
            trial = copy.copy(e)
            trial.step(index)
            out.extend(_meld_paths(trial, (index - MELD_CARD,)))
        else:
            action = e.codec.action(index)
            assert action is not None
            out.append(action)
    return out


def _meld_paths(e: RummyEnv, chosen: tuple[int, ...]) -> list[Action]:
    out = []
    mask = e.observe(e.agent_selection)["action_mask"]
    masked = [int(i) for i in np.flatnonzero(mask)]
    assert all(MELD_CARD <= i <= LAY_MELD for i in masked), "a meld, once begun, is finished"
    assert masked, "every card chosen leads to a meld"
    for index in masked:
        if index == LAY_MELD:
            out.append(Action("meld", chosen))
        else:
            trial = copy.copy(e)
            trial.step(index)
            out.extend(_meld_paths(trial, (*chosen, index - MELD_CARD)))
    return out


@pytest.mark.parametrize(("rules", "players"), [(name, 2) for name in PRESETS]
                         + [("ramino", 4), ("rummy500", 3)])
def test_masked_paths_are_exactly_the_legal_actions(rules: str, players: int) -> None:
    melds_seen = 0
    for e in _random_positions(rules, players, seed=11, episodes=5):
        legal = e.deal.legal_actions()
        reached = _paths(e)
        assert len(reached) == len(set(reached)), "one path per action"
        assert set(reached) == set(legal)
        assert len(reached) == len(legal)
        melds_seen += sum(a.kind == "meld" for a in legal)
    assert melds_seen, "the positions played included melds"


def test_ramino_jokers_meld_and_lay_off_at_either_end() -> None:
    kinds = set()
    for e in _random_positions("ramino", 2, seed=5, episodes=6):
        for action in e.deal.legal_actions():
            if 52 in action.cards:
                kinds.add((action.kind, action.low))
    assert {("meld", False), ("layoff", False), ("layoff", True)} <= kinds


def test_rummy500_deep_pile_draws_and_end_have_their_own_indices() -> None:
    codec = ActionCodec(preset("rummy500"))
    seen = set()
    for e in _random_positions("rummy500", 2, seed=2, episodes=4):
        for action in e.deal.legal_actions():
            if action.kind in ("draw-pile", "end"):
                seen.add(action.kind + ("-deep" if action.cards else ""))
                assert codec.action(codec.index(action)) == action
    assert seen == {"draw-pile", "draw-pile-deep", "end"}


@pytest.mark.parametrize("rules", list(PRESETS))
def test_every_one_step_index_round_trips(rules: str) -> None:
    codec = ActionCodec(preset(rules))
    singles = 0
    for index in range(codec.size):
        action = codec.action(index)
        if action is None:
            assert MELD_CARD <= index <= LAY_MELD
            continue
        singles += 1
        assert codec.index(action) == index
        assert Action.parse(str(action)) == action
    # 1 + 1 + 53 + 1 + 53 draws, ends and discards, 54 lay-offs per meld of the bound.
    assert singles == 109 + 54 * codec.max_melds


def test_table_bound_is_the_deck_over_the_shortest_meld() -> None:
    # 52 cards in melds of 3 or more: at most 17; ramino's 2 x 52 + 4 jokers: 36.
    assert max_table_melds(preset("classic")) == 17
    assert max_table_melds(preset("ramino")) == 36
    assert max_table_melds(preset("basic").replace(set_min=4, run_min=4)) == 13
    assert ActionCodec(preset("classic")).size == 163 + 54 * 17
    with pytest.raises(ValueError, match="beyond"):
        ActionCodec(preset("classic")).index(Action("layoff", (5,), 18))


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("ramino", 3),
                                                ("rummy500", 2), ("limited-stock", 4)])
def test_observation_never_depends_on_hidden_cards(rules: str, players: int) -> None:
    r = preset(rules)
    encoder = Encoder(r, players)
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        deal = Deal.start(r, players=players, dealer=0, seed=seed)
        for step in range(400):
            if deal.is_over:
                break
            if step % 9 == 0:
                seat = step % players
                other = determinize(deal, random.Random(seed * 1000 + step), seat=seat)
                if sorted(map(sorted, other.hands)) != sorted(map(sorted, deal.hands)):
                    checked += 1
                mine = encoder.encode(sight(deal, seat))
                assert np.array_equal(mine, encoder.encode(sight(other, seat)))
                kept = SeatEncoder(encoder, seat).encode(deal, (0,) * players)
                assert np.array_equal(kept, mine)
                assert np.array_equal(kept, SeatEncoder(encoder, seat).encode(other,
                                                                            (0,) * players))
            legal = deal.legal_actions()
            deal.push(legal[rng.randrange(len(legal))])
    assert checked > 5, "the sampled deals differed in their hidden cards"


def test_observation_sees_its_own_hand() -> None:
    # The converse of the test above: the same deal with the seat's own hand changed
    # (a card swapped with the stock) is seen differently.
    r = preset("classic")
    deal = Deal.start(r, players=2, dealer=0, seed=3)
    hands = [list(h) for h in deal.layout.hands]
    stock = list(deal.layout.stock)
    hands[0][0], stock[5] = stock[5], hands[0][0]
    swapped = Deal(r, players=2, dealer=0, seed=3,
                   layout=dataclasses.replace(deal.layout, hands=tuple(map(tuple, hands)),
                                              stock=tuple(stock)))
    encoder = Encoder(r, 2)
    assert not np.array_equal(encoder.encode(sight(deal, 0)), encoder.encode(sight(swapped, 0)))
    assert np.array_equal(encoder.encode(sight(deal, 1)), encoder.encode(sight(swapped, 1)))


def test_sight_agrees_with_view() -> None:
    rng = random.Random(4)
    for rules in ("rummy500", "ramino", "limited-stock"):
        deal = Deal.start(preset(rules), players=3, dealer=1, seed=9)
        while not deal.is_over:
            for seat in range(3):
                v, s = view(deal, seat), sight(deal, seat)
                assert sorted(s.hand) == list(v.hand)
                assert s.pile == tuple(v.pile) and s.pile_cards == v.knowledge.pile
                assert s.known == v.knowledge.known
                assert s.melds == v.melds and s.hand_sizes == v.hand_sizes
                assert s.legal_actions == v.legal_actions
                assert (s.taken, s.must_use) == (v.taken if v.taken is not None else -1,
                                                 v.must_use if v.must_use is not None else -1)
            legal = deal.legal_actions()
            deal.push(legal[rng.randrange(len(legal))])


def _play_out(e: RummyEnv, rng: random.Random) -> dict[str, float]:
    """Random play to the episode's end; each agent's rewards added up."""
    earned = dict.fromkeys(e.possible_agents, 0.0)
    while not any(e.terminations.values()):
        agent = e.agent_selection
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        for a, r in e.rewards.items():
            earned[a] += r
    return earned


@pytest.mark.parametrize("rules", list(PRESETS))
def test_points_rewards_are_the_deal_result(rules: str) -> None:
    rng = random.Random(1)
    e = RummyEnv(rules, 2, seed=3)
    target = preset(rules).target_for(2) or 100
    sign = -1 if preset(rules).scoring == "penalty" else 1
    for _ in range(3):
        e.reset()
        earned = _play_out(e, rng)
        p0, p1 = e.deal.result.points
        assert earned["player_0"] == pytest.approx(sign * (p0 - p1) / target)
        assert earned["player_1"] == pytest.approx(sign * (p1 - p0) / target)


def test_win_rewards_three_players() -> None:
    rng = random.Random(2)
    e = RummyEnv("basic", 3, seed=8, reward="win")
    outcomes = set()
    for _ in range(6):
        e.reset()
        earned = _play_out(e, rng)
        points = e.deal.result.points
        best = max(points)
        if points.count(best) > 1:
            assert set(earned.values()) == {0.0}
            outcomes.add("tie")
            continue
        winner = points.index(best)
        for seat, agent in enumerate(e.possible_agents):
            assert earned[agent] == pytest.approx(1.0 if seat == winner else -0.5)
        outcomes.add("won")
    assert "won" in outcomes


def test_a_match_episode_pays_every_deal_and_ends_with_the_match() -> None:
    rng = random.Random(3)
    e = RummyEnv("classic", 2, seed=4, episode="match")
    e.reset()
    earned = _play_out(e, rng)
    match = e.match
    assert match.is_over and len(match.finished) >= 2
    t0, t1 = match.totals
    assert earned["player_0"] == pytest.approx((t0 - t1) / 100)


def test_an_illegal_index_ends_the_episode_in_the_wrapped_env() -> None:
    e = env("classic", 2, seed=1)
    e.reset()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    mover = e.agent_selection
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[mover] == -1.0
    # The raw environment refuses it with the rule, as the engine words it.
    raw = RummyEnv("classic", 2, seed=1)
    raw.reset()
    card = raw.deal.hands[raw.deal.to_move][0]
    with pytest.raises(IllegalActionError, match="must draw first"):
        raw.step(DISCARD + card)
    with pytest.raises(ValueError, match="not legal"):
        raw.step(LAY_MELD)


def test_reset_with_a_seed_deals_the_same_episode() -> None:
    a, b = RummyEnv("ramino", 3), RummyEnv("ramino", 3)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.deal.hands == b.deal.hands
    b.reset(seed=6)
    assert a.deal.hands != b.deal.hands


def test_render_shows_the_table_to_the_player_to_move() -> None:
    e = env("classic", 2, render_mode="ansi", seed=2)
    e.reset()
    text = e.render()
    assert isinstance(text, str)
    seat = e.unwrapped.deal.to_move
    hand = view(e.unwrapped.deal, seat).hand
    assert f"player_{seat} to move" in text and str(hand[0]) in text


def test_gymnasium_env_is_registered_and_passes_the_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    e = gymnasium.make(ENV_ID, opponents="random", rules="basic", players=3)
    check_env(e.unwrapped, skip_render_check=True)
    obs, info = e.reset(seed=1)
    done = False
    rng = random.Random(0)
    while not done:
        assert e.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, _reward, done, _truncated, info = e.step(int(legal[rng.randrange(len(legal))]))
    assert e.unwrapped.game.deal.is_over
    _obs, info = e.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, done, _truncated, info = e.step(illegal)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)


def test_single_agent_reward_is_its_seat_share() -> None:
    e = SingleAgentEnv("classic", 2, opponents="greedy", seat=1)
    rng = random.Random(1)
    for episode in range(3):
        e.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(e.action_masks())
            _obs, reward, done, _, _info = e.step(int(legal[rng.randrange(len(legal))]))
            total += reward
        p0, p1 = e.game.deal.result.points
        assert total == pytest.approx((p1 - p0) / 100)


def test_the_readme_quick_start_runs() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reinforcement learning\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1  # the PettingZoo loop; docs/rl.md's run in tests/test_readme.py
    for block in blocks:
        names: dict[str, object] = {}
        exec(compile(block, "README.md", "exec"), names)
        assert "env" in names


def test_the_training_example_learns_from_a_deal() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "train_classic.py"
    spec = importlib.util.spec_from_file_location("train_classic", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    e = RummyEnv("classic", 2)
    learner = example.Learner(e.codec.size, e.encoder.layout.size, rate=0.05)
    rng = np.random.default_rng(0)
    for _ in range(3):
        reward = example.play(e, learner, rng)
        p0, p1 = e.deal.result.points
        assert reward == pytest.approx((p0 - p1) / 100)
    assert np.abs(learner.w).sum() > 0, "deals with a reward move the weights"


@pytest.mark.parametrize("reward", ["points", "win"])
def test_a_ramino_match_episode_runs_to_the_last_player_left(reward: str) -> None:
    rng = random.Random(0)
    e = RummyEnv("ramino", 3, seed=2, episode="match", reward=reward)
    e.reset()
    earned = dict.fromkeys(e.possible_agents, 0.0)
    while not any(e.terminations.values()):
        seat = e.possible_agents.index(e.agent_selection)
        assert e.match.active[seat], "a player past the limit is never asked to move"
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        for agent, r in e.rewards.items():
            earned[agent] += r
    match = e.match
    assert match.is_over and match.end == "elimination" and len(match.finished) >= 2
    assert sum(earned.values()) == pytest.approx(0.0)
    winner = e.possible_agents[match.winner]
    if reward == "win":
        assert earned == {a: 1.0 if a == winner else -0.5 for a in e.possible_agents}
    else:
        # Each deal: a seat's penalty against it, less the mean of the others dealt in, per 101.
        expected = dict.fromkeys(e.possible_agents, 0.0)
        for deal in match.finished:
            seats = [s for s in range(3) if deal.active[s]]
            for s in seats:
                others = [deal.result.points[o] for o in seats if o != s]
                expected[e.possible_agents[s]] += (
                    -deal.result.points[s] + sum(others) / len(others)) / 101
        assert earned == pytest.approx(expected)


def _reference_mask(e: RummyEnv, agent: str) -> np.ndarray:
    """The mask made from scratch: the engine's legal actions of the seat to move, or the
    meld steps that continue the cards chosen so far."""
    mask = np.zeros(e.codec.size, dtype=np.int8)
    if agent != e.agent_selection or e.terminations[agent]:
        return mask
    legal = e.deal.legal_actions()
    if not e.choosing:
        mask[[e.codec.indices([a])[0] for a in legal]] = 1
        return mask
    tree = MeldChoice([a.cards for a in legal if a.kind == "meld"])
    for card in tree.next_cards(e.choosing):
        mask[MELD_CARD + card] = 1
    if tree.is_meld(e.choosing):
        mask[LAY_MELD] = 1
    return mask


@pytest.mark.parametrize(("rules", "players", "episode"), [
    *[(name, 2, "deal") for name in PRESETS], ("classic", 3, "deal"), ("basic", 6, "deal"),
    ("ramino", 4, "deal"), ("rummy500", 4, "deal"), ("classic", 2, "match"),
    ("ramino", 3, "match"),
])
@pytest.mark.parametrize("who", ["mover", "everyone"])
def test_kept_observations_and_masks_equal_the_ones_made_from_scratch(
        rules: str, players: int, episode: str, who: str) -> None:
    # The environment keeps each seat's observation between steps and encodes again only
    # what changed; at every step of random episodes it must equal the observation
    # encoded from the seat's sight, and the mask the one made from the legal actions.
    # "mover": only the seat to move looks (so a seat's kept vector is several actions
    # old, as in training); "everyone": every seat looks at every step.
    e = RummyEnv(rules, players, seed=11, episode=episode)  # type: ignore[arg-type]
    rng = random.Random(11)
    steps = 0
    for _ in range(2 if episode == "match" else 6):
        e.reset()
        while not all(e.terminations.values()) and steps < 6000:
            looking = e.agents if who == "everyone" else [e.agent_selection]
            for agent in looking:
                seat = e.possible_agents.index(agent)
                obs = e.observe(agent)
                mover = agent == e.agent_selection and not e.terminations[agent]
                expected = reference_observation(e.encoder, e.match, seat,
                                                 e.choosing if mover else ())
                assert np.array_equal(obs["observation"], expected), (rules, steps, agent)
                assert obs["observation"].dtype == np.float32
                assert np.array_equal(obs["action_mask"], _reference_mask(e, agent))
            legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    assert steps > 100


def test_a_copied_environment_keeps_observing_its_own_deal() -> None:
    # Each seat's kept observation is an array and a numpy view of it: a deep copy (or a
    # pickle) must get both anew, and go on agreeing with the encoding from scratch.
    e = RummyEnv("classic", 2, seed=5)
    e.reset()
    rng = random.Random(5)
    for _ in range(12):
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    for twin in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        for env_ in (twin, e):
            for _ in range(20):
                if any(env_.terminations.values()):
                    break
                agent = env_.agent_selection
                seat = env_.possible_agents.index(agent)
                obs = env_.observe(agent)["observation"]
                assert np.array_equal(obs, reference_observation(env_.encoder, env_.match,
                                                                 seat, env_.choosing))
                legal = np.flatnonzero(env_.observe(agent)["action_mask"])
                env_.step(int(legal[rng.randrange(len(legal))]))
