"""The batched environment against the engine: the same deals played side by side
(:func:`rummykit.rl.parity.play_side_by_side`: every step's observation, mask, reward and
end, every opponent move legal in the engine, the legal actions at every play position),
written deals for what random play seldom reaches, and the Gymnasium interface."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from rummykit.cards import format_cards, parse_cards
from rummykit.engine import Deal, Layout
from rummykit.engine.actions import Action
from rummykit.rl import resolve_rules
from rummykit.rl.arrays import Deals, unsupported_rule
from rummykit.rl.batched import BatchedRummyEnv, sample_masked
from rummykit.rl.parity import ParityError, main, play_side_by_side
from rummykit.rules import Rules, preset

# The arrays are not compiled; the engine they are compared with is tested against the
# compiled build by the other RL tests.
pytestmark = pytest.mark.uncompiled


@pytest.mark.parametrize(("rules", "players", "seat"), [
    ("classic", 2, 0), ("classic", 2, 1), ("classic", 4, 2), ("basic", 3, 0),
    ("one-deal", 2, 1), ("limited-stock", 2, 0), ("limited-stock", 5, 3),
    ("classic(aces=high-low)", 2, 0), ("basic(aces=high-low, run_min=4)", 3, 1),
])
def test_the_batch_plays_as_the_engine(rules: str, players: int, seat: int) -> None:
    compared = play_side_by_side(rules, players, seat, deals=32, seed=players * 7 + seat,
                                 steps=600)
    assert compared > 1000


@pytest.mark.parametrize(("rules", "players", "seat"), [("classic", 2, 1), ("basic", 4, 0)])
def test_a_policy_opponent_sees_and_plays_as_in_the_engine(rules: str, players: int,
                                                           seat: int) -> None:
    compared = play_side_by_side(rules, players, seat, deals=16, seed=3, steps=400,
                                 policy=True)
    assert compared > 1000


def test_a_difference_from_the_engine_is_found_and_named(monkeypatch: Any) -> None:
    """The side-by-side check can fail: arrays that forget the king of spades as a
    discard are caught at the first position that could discard it."""
    real = Deals.discards

    def forgetful(self: Deals, rows: Any) -> Any:
        return real(self, rows) & ~np.uint64(1 << _cards("KS")[0])

    monkeypatch.setattr(Deals, "discards", forgetful)
    with pytest.raises(ParityError, match=r"deal \d+, step \d+: the mask differs"):
        play_side_by_side("classic", 2, 0, deals=16, seed=1, steps=400)
    assert main(["--rules", "classic", "--deals", "8", "--seeds", "1"]) == 1


def test_the_command_plays_the_rule_sets_it_is_given(capsys: Any) -> None:
    assert main(["--rules", "classic", "limited-stock", "--players", "2", "--deals", "4",
                 "--seeds", "1", "--steps", "60"]) == 0
    out = capsys.readouterr().out
    assert "classic, 2 players: " in out and "limited-stock, 2 players: " in out


def test_rules_the_arrays_do_not_play_are_refused_by_name() -> None:
    assert unsupported_rule(preset("classic")) is None
    assert unsupported_rule(preset("ramino")) == "decks: one deck only"
    assert unsupported_rule(preset("rummy500")) == "draw_pile: the top card only"
    with pytest.raises(ValueError, match="scoring: collect"):
        Deals(preset("rummy500").replace(draw_pile="top", pile_card_must_be_used=False,
                                         stock_out="turn-over"), 2, 4)
    with pytest.raises(ValueError, match="decks: one deck only"):
        BatchedRummyEnv(4, "ramino", 2)


# -- written positions: the rules that random play seldom reaches ----------------------

CLASSIC = preset("classic")


def _cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text.split()))


def _start(hands: tuple[str, str], stock: str, pile: str, rules: Rules = CLASSIC) -> Deal:
    """A 2-player deal (classic unless said), seat 1 to move (seat 0 deals), from written
    cards; the rest of the deck goes to the bottom of the stock."""
    held = [_cards(h) for h in hands]
    top, up = _cards(stock), _cards(pile)
    used = {*held[0], *held[1], *top, *up}
    rest = tuple(c for c in range(52) if c not in used)
    return Deal(rules, players=2, dealer=0, layout=Layout(tuple(held), top + rest, up))


def _both(deal: Deal, moves: list[str]) -> Deals:
    """Play ``moves`` in the engine's ``deal`` and in row 0 of a Deals loaded from it,
    checking after each that both agree on who is to move and whether the deal is over."""
    deals = Deals(deal.rules, deal.players, 1)
    deals.load(0, deal)
    row = np.array([0])
    for text in moves:
        action = Action.parse(text)
        deal.apply(action)
        match action.kind:
            case "draw-stock":
                deals.draw_stock(row)
            case "draw-pile":
                deals.draw_pile(row)
            case "meld":
                bits = sum(1 << c for c in action.cards)
                deals.meld(row, np.flatnonzero(deals.cand.bits == bits))
            case "layoff":
                deals.layoff(row, np.array([action.meld - 1]), np.array(action.cards))
            case "discard":
                deals.discard(row, np.array(action.cards))
        assert (int(deals.phase[0]) == 2) == deal.is_over, text
        if not deal.is_over:
            assert int(deals.to_move[0]) == deal.to_move
    return deals


def test_seed002_going_out_in_one_turn_is_rummy_and_doubles_the_points() -> None:
    """Seed 002 (classic), scoring: the winner collects the others' hand points, doubled
    for a rummy (the whole hand out in one turn, nothing laid before)."""
    deal = _start(("2S 3S 4S 5D 6D 7D 8C 9C JD KD", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"),
                  "KS", "QC")
    deals = _both(deal, ["draw stock", "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "discard KS"])
    left = 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10
    assert deal.result is not None and deal.result.points == (0, 2 * left)
    assert [int(p) for p in deals.points[0]] == [0, 2 * left]


@pytest.mark.parametrize(("options", "run", "fits"), [
    ("", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "JH"),
    ("aces=high-low", "5H 6H 7H 8H 9H TH JH QH KH AH", "4H"),
])
def test_seed002_a_meld_that_leaves_only_the_taken_card_unplayable_is_not_legal(
        options: str, run: str, fits: str) -> None:
    """Seed 002: the card taken from the pile may not be discarded that turn, so a meld
    that would leave it alone, with nowhere to lay it off, cannot end the turn (with the
    ace high too: the run ends at the ace, so only its low end takes a card)."""
    rules = resolve_rules(f"classic({options})")
    for top, legal in (("KS", False), (fits, True)):
        deal = _start(("2S 3S 4S 5D 6D 7D 8C 9C JD KD", run), "QS", top, rules)
        deals = _both(deal, ["draw pile"])
        whole = str(Action("meld", _cards(run)))
        assert (whole in {str(a) for a in deal.legal_actions()}) is legal
        some, ok = deals.legal_melds(np.array([0]))
        k = int(np.flatnonzero(deals.cand.bits == sum(1 << c for c in _cards(run)))[0])
        assert bool(len(some) and ok[0, k]) is legal, top


def test_seed002_a_layoff_that_leaves_only_the_taken_card_needs_it_to_fit() -> None:
    """Seed 002, the taken discard: with the taken card and one other left, laying off the
    other is legal only where the taken card can follow it (here the JH onto the run the
    TH extends; the 5C nowhere)."""
    hands = ("JH 5C 2C 3C 4D 6D 7S 8S 9S QC", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH")
    for thrown, legal in (("JH", True), ("5C", False)):
        deal = _start(hands, "2S 3S", "KD")
        deals = _both(deal, ["draw stock", "meld AH 2H 3H 4H 5H 6H 7H 8H", "layoff 9H 1",
                             "discard 2S", "draw stock", f"discard {thrown}", "draw pile"])
        ten = Action("layoff", _cards("TH"), meld=1)
        assert (ten in deal.legal_actions()) is legal
        lays = int(deals.layoffs(np.array([0]))[0, 0])
        assert bool(lays >> _cards("TH")[0] & 1) is legal, thrown


def test_seed004_the_taken_card_may_go_out_as_the_last_card() -> None:
    """Seed 004 (limited-stock): a card taken from the pile may not be discarded that
    turn "unless it is the last card in hand": the whole run is melded, and the taken card
    discarded to go out."""
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"
    deal = _start(("2S 3S 4S 5D 6D 7D 8C 9C JD KD", run), "QS", "KS",
                  preset("limited-stock"))
    deals = _both(deal, ["draw pile", f"meld {run}"])
    assert "discard KS" in {str(a) for a in deal.legal_actions()}
    assert int(deals.discards(np.array([0]))[0]) == 1 << _cards("KS")[0]
    deals = _both(_start(("2S 3S 4S 5D 6D 7D 8C 9C JD KD", run), "QS", "KS",
                         preset("limited-stock")), ["draw pile", f"meld {run}", "discard KS"])
    assert int(deals.winner[0]) == 1 and int(deals.points[0, 1]) > 0


def test_a_position_that_comes_a_third_time_ends_the_deal_with_no_points() -> None:
    """RULES.md, the engine's rules: a deal whose position at the start of a turn comes
    up ``repetition`` (3) times ends with no winner. Both players take the pile card and
    throw back the one they took the turn before, so the turns go round in six."""
    hands = ("2S 3S 4S 5D 6D 7D 8C 9C JD KD", "AH 3H 5H 7H 9H JC 2C 4C 6C TC")
    deal = _start(hands, "QS", "KH")
    moves: list[str] = []
    throw = {0: "5D", 1: "AH"}
    while not deal.is_over and len(moves) < 80:
        seat = deal.to_move
        taken = format_cards([deal.pile[-1]])
        for text in ("draw pile", f"discard {throw[seat]}"):
            deal.apply(Action.parse(text))
            moves.append(text)
        throw[seat] = taken
    assert deal.result is not None and deal.result.end == "repetition"
    assert len(moves) == 24  # turns 1 and 7 counted, turn 13 the third time
    deals = _both(_start(hands, "QS", "KH"), moves)
    assert int(deals.phase[0]) == 2 and int(deals.winner[0]) == -1
    assert [int(p) for p in deals.points[0]] == [0, 0]


# -- the environment ---------------------------------------------------------------


def _run(env: BatchedRummyEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """``steps`` steps of masked random indices; every step's arrays."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs, infos["action_mask"])]
    for _ in range(steps):
        out.append(env.step(sample_masked(infos["action_mask"], rng)))
        infos = out[-1][4]
    return out


def test_the_same_seed_deals_and_plays_the_same_deals() -> None:
    first, again = (_run(BatchedRummyEnv(6, "classic", 2), 60, seed=4) for _ in range(2))
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a[0], b[0])
    other = _run(BatchedRummyEnv(6, "classic", 2), 0, seed=5)
    assert not np.array_equal(first[0][0], other[0][0])


def test_every_observation_lies_in_the_space_and_rewards_come_only_at_the_end() -> None:
    env = BatchedRummyEnv(16, "basic", 3, seat=2)
    space = env.single_observation_space
    ended = 0
    for obs, rewards, terminated, truncated, infos in _run(env, 300, seed=8)[1:]:
        assert all(space.contains(row) for row in obs)
        assert not truncated.any() and np.all(rewards[~terminated] == 0)
        ended += int(terminated.sum())
        # A deal that ended allows every index until it is dealt again.
        assert np.all(infos["action_mask"][terminated] == 1)
        assert np.all(infos["action_mask"][~terminated].sum(axis=1) > 0)
    assert ended > 10


def _until_a_deal_ends(env: BatchedRummyEnv, seed: int) -> tuple[Any, ...]:
    """Masked random steps until some deal ends; that step's arrays."""
    rng = np.random.default_rng(seed)
    infos = env.reset(seed=seed)[1]
    for _ in range(400):
        out = env.step(sample_masked(infos["action_mask"], rng))
        infos = out[4]
        if out[2].any():
            return out
    raise AssertionError("no deal ended in 400 steps")


def test_next_step_deals_again_without_playing_the_action() -> None:
    env = BatchedRummyEnv(8, "classic", 2)
    done = np.flatnonzero(_until_a_deal_ends(env, seed=1)[2])
    obs, rewards, terminated, _, _ = env.step(np.zeros(8, dtype=np.int64))
    hand = obs[done, :52].sum(axis=1)
    assert np.all(hand == 10) and np.all(rewards[done] == 0) and not terminated[done].any()


def test_same_step_gives_the_final_observation_and_the_new_deal_at_once() -> None:
    env = BatchedRummyEnv(8, "classic", 2, autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _, terminated, _, infos = _until_a_deal_ends(env, seed=2)
    done = np.flatnonzero(terminated)
    assert np.array_equal(infos["_final_obs"], terminated)
    scalars = env.layout.planes * 53
    for i in done:
        final = infos["final_obs"][i]
        assert final[scalars:scalars + 3].sum() == 0  # no phase: the deal is over
        assert obs[i, :52].sum() == 10 and obs[i, scalars] == 1.0  # a new deal, to draw
    assert np.all(infos["action_mask"][done].sum(axis=1) <= 2)


def test_an_index_the_mask_refuses_ends_that_deal_and_a_malformed_batch_changes_nothing(
) -> None:
    env = BatchedRummyEnv(4, "classic", 2, illegal_reward=-3.0)
    _obs, infos = env.reset(seed=3)
    for bad in (np.zeros((2, 2), dtype=np.int64), np.zeros(4), np.zeros(3, dtype=np.int64)):
        with pytest.raises(ValueError, match="4 integer indices, one per deal"):
            env.step(bad)
    np.testing.assert_array_equal(env.action_masks(), infos["action_mask"])
    actions = sample_masked(infos["action_mask"], np.random.default_rng(0))
    actions[1] = 1080  # a joker's lay-off at the low end: never legal in classic
    actions[2] = 5000  # outside the space
    _, rewards, terminated, _, infos = env.step(actions)
    assert list(terminated) == [False, True, True, False]
    assert list(rewards) == [0.0, -3.0, -3.0, 0.0]
    assert list(infos["illegal"]) == [False, True, True, False]


def test_the_mask_returned_is_the_callers_to_change() -> None:
    env = BatchedRummyEnv(4, "classic", 2)
    _obs, infos = env.reset(seed=5)
    rng = np.random.default_rng(5)
    infos = env.step(sample_masked(infos["action_mask"], rng))[4]
    mine = infos["action_mask"]
    kept = mine.copy()
    mine[:] = 1 - mine  # a caller writing into its mask
    np.testing.assert_array_equal(env.action_masks(), kept)
    infos = env.step(sample_masked(kept, rng))[4]
    assert "illegal" not in infos  # the mask the environment checks is its own


def test_a_deal_the_bots_end_before_the_learner_moves_is_reported_at_the_next_step(
) -> None:
    # Three cards each: the players before the learner may go out at once.
    env = BatchedRummyEnv(256, "basic(hand_size=3)", 4, seat=3)
    obs, infos = env.reset(seed=11)
    scalars = env.layout.planes * 53
    over = np.flatnonzero(obs[:, scalars:scalars + 3].sum(axis=1) == 0)
    assert len(over)  # some deal ended before seat 3 could move
    assert np.all(infos["action_mask"][over] == 1)
    obs, rewards, terminated, _, infos = env.step(np.zeros(256, dtype=np.int64))
    assert np.all(terminated[over]) and np.all(rewards[over] < 0)  # another seat went out
    # Dealt again at the step after, as any deal that ended (NEXT_STEP).
    obs, rewards, terminated, _, _ = env.step(sample_masked(infos["action_mask"],
                                                            np.random.default_rng(0)))
    assert np.all(rewards[over] == 0) and not terminated[over].any()
    with pytest.raises(ValueError, match="one int for the whole batch"):
        env.reset(seed=[1, 2])  # type: ignore[arg-type]


def test_win_rewards_pay_the_winner_one_and_the_others_share_minus_one() -> None:
    env = BatchedRummyEnv(16, "classic", 3, reward="win")
    paid = [r[1][r[2]] for r in _run(env, 400, seed=6)[1:]]
    values = np.concatenate(paid)
    assert len(values) and set(np.round(values, 6)) <= {1.0, -0.5, 0.0}


def test_sample_masked_draws_each_allowed_index_alike() -> None:
    masks = np.zeros((3, 1081), dtype=np.int8)
    masks[0, [0, 500, 1080]] = 1
    masks[1, 7] = 1
    masks[2, :] = 1
    rng = np.random.default_rng(0)
    counts = np.zeros((3, 1081))
    for _ in range(3000):
        counts[np.arange(3), sample_masked(masks, rng)] += 1
    assert np.all(counts[masks == 0] == 0)
    assert counts[1, 7] == 3000
    assert np.all(np.abs(counts[0, [0, 500, 1080]] - 1000) < 120)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        BatchedRummyEnv(0)
    with pytest.raises(ValueError, match="seat 2"):
        BatchedRummyEnv(2, "classic", 2, seat=2)
    with pytest.raises(ValueError, match="reward"):
        BatchedRummyEnv(2, reward="money")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="decks: one deck only"):
        BatchedRummyEnv(2, "ramino", 2)


def test_make_vec_of_the_arrays_id_gives_the_batched_environment() -> None:
    import gymnasium

    from rummykit.rl import ARRAYS_ENV_ID

    vec = gymnasium.make_vec(ARRAYS_ENV_ID, num_envs=5, rules="basic", players=3)
    assert isinstance(vec, BatchedRummyEnv) and vec.players == 3
    obs, infos = vec.reset(seed=0)
    assert obs.shape == (5, vec.layout.size) and infos["action_mask"].shape == (5, 1081)
    single = gymnasium.make(ARRAYS_ENV_ID)
    assert single.observation_space.shape == (BatchedRummyEnv(1).layout.size,)
    with pytest.raises(ValueError, match="'random' only"):
        BatchedRummyEnv(2, "classic", 2, opponents="expert")
    with pytest.raises(TypeError, match="neither 'random' nor a BatchPolicy"):
        BatchedRummyEnv(2, "classic", 2, opponents=3)  # type: ignore[arg-type]
    cheat = BatchedRummyEnv(2, "classic", 2, lambda obs, masks: np.full(len(masks), 1080),
                            seat=1)
    with pytest.raises(ValueError, match="chose index 1080"):
        cheat.reset(seed=0)  # seat 0 moves first in one deal at least
    shapeless = BatchedRummyEnv(2, "classic", 2, lambda obs, masks: np.zeros((len(masks), 1)),
                                seat=1)
    with pytest.raises(ValueError, match=r"must return \d integer indices"):
        shapeless.reset(seed=0)
