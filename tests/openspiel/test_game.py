"""rummykit.openspiel: every preset as an OpenSpiel game, checked by OpenSpiel's own tests
(its random-simulation test and the API checks its test suite runs on every game) and
against the engine."""

from __future__ import annotations

import random
import unittest
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts  # noqa: E402

import rummykit.openspiel as rs  # noqa: E402
from rummykit.cards import make_deck  # noqa: E402
from rummykit.engine.actions import Action  # noqa: E402
from rummykit.engine.deal import Deal  # noqa: E402
from rummykit.engine.layout import deal_rng, shuffle  # noqa: E402
from rummykit.rl import ActionCodec, deal_rewards  # noqa: E402
from rummykit.rl.actions import LAY_MELD, MELD_CARD  # noqa: E402
from rummykit.rules import PRESETS, preset  # noqa: E402

CASES = [(name, players) for name in PRESETS for players in (2, 4)]


def load(name: str, players: int, **more: object) -> object:
    return pyspiel.load_game(rs.GAME_NAME, {"rules": name, "players": players, **more})


def playout(game: object, seed: int, every: int = 1) -> list[object]:
    """The states of one random deal (every ``every``-th, and the last), chance outcomes
    drawn by their odds."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    states = []
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            states.append(state.clone())
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, odds)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        step += 1
    states.append(state)
    return states


@pytest.mark.parametrize(("name", "players"), CASES)
@pytest.mark.long
def test_openspiel_random_simulation_test_passes(name: str, players: int) -> None:
    """OpenSpiel's own check of a game (pyspiel.random_sim_test: legal actions, chance
    outcomes, returns, strings and tensors of every player at every state,
    serialization), on whole deals of every preset."""
    pyspiel.random_sim_test(load(name, players), num_sims=1, serialize=True, verbose=False)


# The API checks OpenSpiel's test suite runs on every game (integration_tests/api_test.py),
# on the states of whole random deals (its own sampler stays near the root, which here is
# the dealing of the deck). The module is imported by the test that runs it (it brings in
# SciPy, a second or so of every test process's start).
FULL = ["test_legal_actions_empty",
        "test_current_player_returns_terminal_player_on_terminal_nodes",
        "test_information_state_no_argument_raises_on_terminal_nodes",
        "test_constant_sum"]
"""The checks of the whole-tree suite that do not need the whole tree or an information
state tensor (the game has none: see the module's text)."""


@pytest.mark.parametrize(("name", "players"), CASES)
@pytest.mark.long
def test_openspiel_api_checks_pass_on_whole_deals(name: str, players: int) -> None:
    from open_spiel.integration_tests import api_test

    partial = [m for m in dir(api_test.EnforceAPIOnPartialTreeBase) if m.startswith("test_")]
    game = load(name, players)
    states = playout(game, 0)

    class Partial(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc,name-defined]
        @classmethod
        def setUpClass(cls) -> None:
            cls.game, cls.game_name, cls.some_states = game, rs.GAME_NAME, states
            cls.game_type = game.get_type()  # type: ignore[attr-defined]

    class Full(api_test.EnforceAPIOnFullTreeBase):  # type: ignore[misc,name-defined]
        @classmethod
        def setUpClass(cls) -> None:
            cls.game, cls.game_name, cls.all_states = game, rs.GAME_NAME, states

    suite = unittest.TestSuite([*(Partial(m) for m in partial), *(Full(m) for m in FULL)])
    result = unittest.TestResult()
    suite.run(result)
    assert result.testsRun == len(partial) + len(FULL)
    assert not result.failures and not result.errors, result.failures + result.errors


def engine_deck(name: str, players: int, seed: int) -> list[int]:
    """The deck in the order the engine's own deal of ``seed`` shuffles it."""
    rules = preset(name)
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    shuffle(deck, deal_rng(seed, 0))
    return deck


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("ramino", 4), ("rummy500", 3)])
def test_chance_deals_the_deck_and_the_game_plays_as_the_engine(name: str, players: int) -> None:
    """Chance offers every card left with its share of the cards left (two copies twice as
    likely); dealt in the engine's order, the game is the engine's deal of that seed:
    the same hands, and the same legal actions, moves (a meld as its card-by-card steps)
    and returns through a whole random deal."""
    game = load(name, players)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    left = Counter(int(c) for c in make_deck(preset(name).decks, preset(name).jokers))
    for card in engine_deck(name, players, 5):
        outcomes = dict(state.chance_outcomes())
        total = sum(left.values())
        assert outcomes == {c: n / total for c, n in left.items() if n}
        state.apply_action(card)
        left[card] -= 1
    deal = Deal.start(preset(name), players=players, dealer=players - 1, seed=5)
    assert [sorted(h) for h in state.deal.hands] == [sorted(h) for h in deal.hands]
    assert state.deal.pile == deal.pile and state.deal.stock == deal.stock
    codec = ActionCodec(preset(name))
    rng = random.Random(1)
    while not deal.is_over:
        assert state.current_player() == deal.to_move
        legal = deal.legal_actions()
        assert state.legal_actions() == sorted(set(codec.indices(legal)))
        action = rng.choice(legal)
        for index in codec.steps(action):
            assert index in state.legal_actions()
            state.apply_action(index)
        deal.push(action)
    assert state.is_terminal()
    assert state.returns() == pytest.approx(deal_rewards(deal, "win", 1.0), abs=1e-12)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_meld_steps_reach_exactly_the_engine_melds() -> None:
    """At positions of random deals, the paths of meld steps from the legal first cards
    end in exactly the melds the engine allows."""
    game = load("classic", 2)
    checked = 0
    for state in playout(game, 3):
        if state.is_chance_node() or state.is_terminal() or state.choosing:
            continue
        melds = {a for a in state.deal.legal_actions() if a.kind == "meld"}
        if not melds:
            continue
        found: set[Action] = set()
        frontier = [state.child(i) for i in state.legal_actions() if MELD_CARD <= i < LAY_MELD]
        while frontier:
            s = frontier.pop()
            for i in s.legal_actions():
                if i == LAY_MELD:
                    found.add(Action("meld", s.choosing))
                else:
                    frontier.append(s.child(i))
        assert found == melds
        checked += 1
    assert checked >= 3


def test_a_refill_is_dealt_by_chance() -> None:
    """limited-stock refills the stock from the pile: the new order is chance's, card by
    card among the pile's cards under its top (each with its share of the cards left),
    and the next stock draw takes the first card chance dealt."""
    game = load("limited-stock", 2)
    rng = random.Random(0)
    for _ in range(20):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node() and state.deal is not None:
                # The engine has put the pile under its top into the stock; chance orders it.
                pile, cards = state.deal.pile, Counter(state.deal.stock)
                assert len(pile) == 1 and len(state.deal.stock) > 1
                outcomes = dict(state.chance_outcomes())
                total = sum(cards.values())
                assert outcomes == {c: n / total for c, n in cards.items()}
                order = []
                while state.is_chance_node():
                    card = rng.choice([c for c, _ in state.chance_outcomes()])
                    order.append(card)
                    state.apply_action(card)
                assert state.deal.stock[::-1] == order and state.deal.pile == pile
                assert Counter(order) == cards
                seat = state.current_player()
                before = list(state.deal.hands[seat])
                state.apply_action(0)  # draw stock
                assert Counter(state.deal.hands[seat]) - Counter(before) == Counter([order[0]])
                return
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, odds)[0])
            else:
                legal = state.legal_actions()
                # Draw from the stock where possible, so that it runs out.
                state.apply_action(0 if 0 in legal else rng.choice(legal))
    pytest.fail("no refill in 20 deals")


def observed(state: object, players: int) -> tuple[object, ...]:
    """Everything a state shows: its history, its strings, each player's strings and
    observation tensor, the legal actions or chance outcomes."""
    s: object = state
    seats = range(players)
    terminal = s.is_terminal()  # type: ignore[attr-defined]
    return (
        tuple(s.history()), str(s), terminal,  # type: ignore[attr-defined]
        tuple(s.information_state_string(p) for p in seats)  # type: ignore[attr-defined]
        if not terminal else (),
        tuple(s.observation_string(p) for p in seats),  # type: ignore[attr-defined]
        tuple(tuple(s.observation_tensor(p)) for p in seats),  # type: ignore[attr-defined]
        tuple(s.chance_outcomes()) if s.is_chance_node()  # type: ignore[attr-defined]
        else tuple(s.legal_actions()),  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("ramino", 4),
                                               ("limited-stock", 2)])
def test_a_clone_plays_on_apart_from_its_original(name: str, players: int) -> None:
    """OpenSpiel's searches clone states at every step: a clone shows what its original
    shows, and playing the clone to the end (other choices than the original's) leaves the
    original as it was, and the other way round."""
    game = load(name, players)
    rng = random.Random(7)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    clones = 0
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, odds)[0]
        else:
            action = rng.choice(state.legal_actions())
        if step % 9 == 0 and state.deal is not None:
            before = observed(state, players)
            clone = state.clone()
            assert observed(clone, players) == before
            while not clone.is_terminal():
                if clone.is_chance_node():
                    clone.apply_action(rng.choice([c for c, _ in clone.chance_outcomes()]))
                else:
                    clone.apply_action(rng.choice(clone.legal_actions()))
            assert observed(state, players) == before
            clone = state.clone()
            state.apply_action(action)
            assert observed(clone, players) == before
            clones += 1
        else:
            state.apply_action(action)
        step += 1
    assert clones > 10


def test_a_player_sees_only_its_own_cards() -> None:
    """A state resampled for a player (the cards it cannot see dealt again) gives that
    player the same information state string, observation string and tensor, while the
    hidden cards changed; its legal actions are the same where it is to move."""
    for name, players in (("classic", 2), ("ramino", 4)):
        game = load(name, players)
        changed = 0
        for state in playout(game, 7, every=37):
            if state.is_chance_node() or state.is_terminal():
                continue
            for p in range(players):
                other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
                if p == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                hidden = [sorted(h) for s, h in enumerate(state.deal.hands) if s != p]
                again = [sorted(h) for s, h in enumerate(other.deal.hands) if s != p]
                changed += hidden != again
        assert changed > 0


def test_the_information_state_remembers_the_players_own_stock_draws() -> None:
    game = load("classic", 2)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for card in engine_deck("classic", 2, 0):
        state.apply_action(card)
    top = state.deal.stock[-1]
    mover = state.current_player()
    state.apply_action(0)
    from rummykit.cards import format_cards
    assert f"draw stock ({format_cards([top])})" in state.information_state_string(mover)
    assert format_cards([top]) not in state.information_state_string(1 - mover).split("\n")[-1]


def test_points_reward_and_the_move_cap() -> None:
    game = load("classic", 2, reward="points")
    states = playout(game, 2)
    last = states[-1]
    assert last.returns() == pytest.approx(deal_rewards(last.deal, "points", 1.0), abs=1e-9)
    bound = game.max_utility()  # type: ignore[attr-defined]
    assert all(-bound <= r <= bound for r in last.returns())
    capped = load("classic", 2, max_moves=5)
    states = playout(capped, 2)
    moves = sum(1 for s in states[:-1] if not s.is_chance_node())
    assert moves == 5 and states[-1].is_terminal() and states[-1].returns() == [0.0, 0.0]
    assert not states[-1].deal.is_over


@pytest.mark.parametrize("params", [
    {"rules": "no-such-rules"}, {"players": 9}, {"reward": "money"}, {"max_moves": 0},
    {"colour": "red"},
])
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(Exception, match=r"rules|players|reward|max_moves|parameters"):
        pyspiel.load_game(rs.GAME_NAME, params)


class NoEvaluation:
    """An evaluator for OpenSpiel's IS-MCTS that values every leaf at 0 (the tree alone
    decides), so that a test plays whole deals in seconds."""

    def evaluate(self, state: object) -> list[float]:
        return [0.0] * state.num_players()  # type: ignore[attr-defined]

    def prior(self, state: object) -> list[tuple[int, float]]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("name", list(PRESETS))
def test_openspiels_ismcts_bot_plays_whole_deals(name: str) -> None:
    game = load(name, 2)
    bot = ismcts.ISMCTSBot(game, NoEvaluation(), uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(0))
    rng = random.Random(0)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_game_string_pickle_and_openspiels_rl_environment() -> None:
    """What OpenSpiel's tools take for granted: the game made from its string, a state
    that pickles, and OpenSpiel's RL environment (the one its DQN, NFSP and policy
    gradient learners use) playing a deal to its end, the observation tensor as its
    "info_state"."""
    import pickle

    from open_spiel.python import rl_environment

    game = pyspiel.load_game("rummykit(rules=ramino,players=4)")
    assert game.num_players() == 4 and game.num_distinct_actions() == 2107
    state = playout(game, 4)[300]
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()

    classic = load("classic", 2)
    env = rl_environment.Environment(classic)
    size = classic.observation_tensor_size()  # type: ignore[attr-defined]
    assert size > 0 and env.observation_spec()["info_state"] == (size,)
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][seat]))])
    assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", ["classic", "ramino"])
def test_a_state_resampled_while_another_seat_chooses_a_meld_lets_it_finish(name: str) -> None:
    """Where seat 1 has chosen some cards of a meld, a state resampled for seat 0 gives
    seat 1 a hand that holds them and can finish a meld they begin; it plays on to the
    end of the deal. (In ramino the seat usually still needs its opening: the chosen
    cards must be dealt to it, or hardly any deal will do.)"""
    game = load(name, 2)
    found = 0
    for seed in range(40):
        for state in playout(game, seed):
            if state.is_chance_node() or state.is_terminal() or not state.choosing:
                continue
            mover = state.current_player()
            other = 1 - mover
            for k in range(5):
                again = state.resample_from_infostate(
                    other, pyspiel.UniformProbabilitySampler(0., 1.))
                hand = Counter(again.deal.hands[mover])
                assert not Counter(state.choosing) - hand
                legal = again.legal_actions()
                assert legal and all(i == LAY_MELD or MELD_CARD <= i < LAY_MELD for i in legal)
                if k == 0:
                    rng = random.Random(seed)
                    while not again.is_terminal():
                        if again.is_chance_node():
                            outcomes, odds = zip(*again.chance_outcomes(), strict=True)
                            again.apply_action(rng.choices(outcomes, odds)[0])
                        else:
                            again.apply_action(rng.choice(again.legal_actions()))
            found += 1
            break
        if found >= 3:
            return
    pytest.fail(f"only {found} deals had a meld being chosen")


def test_an_options_string_game_loads_again_from_its_name() -> None:
    """An options string's brackets and "=" are kept %-encoded in the game's name, so the
    name loads the same game, and states pickle and serialize."""
    import pickle

    game = load("classic(melds_per_turn=many)", 3)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.spec.rules == preset("classic").replace(
        melds_per_turn="many")
    state = playout(game, 1)[200]
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.history() == state.history() and str(copy) == str(state)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = load("classic", 2)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for card in engine_deck("classic", 2, 0):
        state.apply_action(card)

    def refused(index: int) -> None:
        before = (str(state), state.history(), state.legal_actions(),
                  state.information_state_string(0))
        with pytest.raises(Exception, match=r"not legal|no such action|is over"):
            state.apply_action(index)
        assert (str(state), state.history(), state.legal_actions(),
                state.information_state_string(0)) == before

    refused(MELD_CARD + 5)  # a meld step before drawing
    refused(10_000)
    state.apply_action(0)  # draw stock
    refused(0)  # a second draw
    held = set(state.deal.hands[state.current_player()])
    refused(ActionCodec(preset("classic")).index(
        Action("discard", (next(c for c in range(52) if c not in held),))))
    last = playout(game, 0)[-1]
    with pytest.raises(Exception, match="is over"):
        last.apply_action(0)
    assert last.is_terminal()


def test_resampling_keeps_the_public_and_private_parts_apart() -> None:
    """In a resampled state, the public part of any seat's perfect-recall information is
    the real one (no sampled hand in it); the private part of a seat holds its hand and
    its draws, not the face-up card; a chance node has nothing to resample."""
    from open_spiel.python.observation import make_observation

    game = load("classic", 2)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=True, public_info=False,
        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    states = playout(game, 5, every=29)
    with pytest.raises(Exception, match="chance node"):
        states[0].resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
    checked = 0
    for state in states:
        if state.is_chance_node() or state.is_terminal():
            continue
        again = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
        for seat in (0, 1):
            assert public.string_from(again, seat) == public.string_from(state, seat)
            assert "sampled" not in public.string_from(again, seat)
        mine = private.string_from(state, 0)
        assert "face up" not in mine and "dealt" in mine
        checked += 1
    assert checked >= 3
