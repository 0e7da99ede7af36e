"""The master bot (determinized search): legal, blind to hidden cards, seeded, timed, and
stronger than random.

- in every preset and player count (fixed positions, and random ones drawn by
  hypothesis), every action it returns is legal (played through the checked path,
  ``Deal.apply``) and what its search reports hangs together (the choice, the expert's
  baseline and every candidate are legal actions; one mean per candidate; at least one
  and no more imagined deals than its budget);
- it never reads hidden state: deals that show the seat the same view but hold other
  hidden cards (other opponents' hands, another stock order) give the same search, number
  for number, with the same generator and node budget, although playing the real deals
  out would have told the candidates apart by other numbers;
- with a ``rollouts`` budget it is deterministic: the same seed gives the same search
  twice, from the same bot or a fresh one (and another seed another search);
- ``think`` bounds its time (loosely: a sanity bound, not a benchmark), in ramino too,
  where one rollout can take a quarter of a second (an imagined deal still being played
  when the time is up is dropped);
- given both budgets it stops at whichever comes first: a long think runs to the count
  (and plays as the count alone would), a short one cuts a huge count off in time;
- a view without a legal action is an error; a view with one is answered at once;
- its options go through ``parse_bot`` / ``split_bots`` / ``make_bot``, and every bad spec
  is a ValueError that names what is wrong;
- a few deals of 2-player classic against random: it wins them and outscores it.

Budgets are small (2 to 6 imagined deals a decision) to keep the file fast; ramino's
rollouts are slow (seconds a search), so it gets the fewest examples.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.bots import BOTS, make_bot, parse_bot, same_bot_key, split_bots
from rummykit.bots.inference import sample_worlds
from rummykit.bots.master import MasterBot, Search
from rummykit.bots.rollout import fast_action, play_out
from rummykit.engine import Action, Deal, determinize
from rummykit.engine.views import View, view
from rummykit.rules import PRESETS, Rules

PRESET_NAMES = list(PRESETS)
CLASSIC = PRESETS["classic"]
PLAYER_COUNTS = range(2, 7)
CHEAP_PRESETS = [name for name in PRESET_NAMES if name != "ramino"]
"""The presets whose rollouts take milliseconds (a ramino search takes seconds)."""

_EXPERT = make_bot("expert")


def _reach(rules: Rules, players: int, seed: int, steps: int) -> Deal:
    """A deal after up to ``steps`` actions of seeded play, each action the expert's or a
    random legal one (by a coin): positions with melds on the table, not only early ones."""
    deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        if rng.random() < 0.5:
            action = _EXPERT.choose(view(deal, deal.to_move), rng)
        else:
            action = rng.choice(deal.legal_actions())
        deal.apply(action)
    return deal


def _decision(rules: Rules, players: int, seed: int, steps: int, *,
              choices: int = 2) -> Deal:
    """A position reached as by :func:`_reach` where the player to move has at least
    ``choices`` legal actions (a few more actions are played to get there)."""
    for attempt in range(10):  # another deal where this one ends first
        deal = _reach(rules, players, seed + 1000 * attempt, steps)
        rng = random.Random(seed)
        while not deal.is_over and len(deal.legal_actions()) < choices:
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over:
            return deal
    raise AssertionError(f"{rules}, seed {seed}: no position with {choices} choices")


def _same_search(a: Search, b: Search) -> bool:
    """Whether two searches found the same (everything but the time they took)."""
    return dataclasses.replace(a, seconds=0.0) == dataclasses.replace(b, seconds=0.0)


def _check_search(found: Search, v: View, budget: int) -> None:
    legal = set(v.legal_actions)
    assert found.choice in legal, f"chose {found.choice}; legal: {sorted(map(str, legal))}"
    assert found.baseline in legal
    assert found.baseline in found.candidates
    assert set(found.candidates) <= legal
    assert len(set(found.candidates)) == len(found.candidates)
    assert found.choice in found.candidates
    assert len(found.means) == len(found.candidates)
    assert 1 <= found.worlds <= budget
    assert found.seconds >= 0


# -- legal play ------------------------------------------------------------------------


def _play_turn(deal: Deal, bot: MasterBot, rng: random.Random, budget: int,
               decisions: int) -> int:
    """The master plays the seat to move through its turn (up to ``decisions`` actions),
    every action checked against the view's legal actions and applied through the checked
    path; the number of actions it played."""
    seat = deal.to_move
    played = 0
    while played < decisions and not deal.is_over and deal.to_move == seat:
        v = view(deal, seat)
        if len(v.legal_actions) > 1:
            # What ``choose`` returns (test_master_is_deterministic_with_a_rollout_budget),
            # with the search behind it.
            found = bot.search(v, rng)
            _check_search(found, v, budget)
            action = found.choice
        else:
            action = bot.choose(v, rng)
        assert action in v.legal_actions, (
            f"{v.rules}, {len(v.hand_sizes)} players: chose {action}; legal: "
            f"{[str(a) for a in v.legal_actions]}")
        deal.apply(action)  # raises IllegalActionError on an illegal action
        played += 1
    return played


def _decisions(preset_name: str) -> int:
    """How many of its actions in a row the master plays in the legality tests (ramino's
    searches take seconds: one)."""
    return 1 if preset_name == "ramino" else 4


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_master_plays_legal_actions_in_every_preset_and_player_count(
        preset_name: str, players: int) -> None:
    """In every preset and player count, from an early and a later position of mixed
    expert and random play, the master's actions through its turn are legal and the
    search behind each is consistent (the random positions are the next test's)."""
    rules = Rules.parse(preset_name)
    seed = 100 * players + PRESET_NAMES.index(preset_name)
    played = 0
    for steps in (3, 40):
        deal = _decision(rules, players, seed + steps, steps)
        played += _play_turn(deal, MasterBot(rollouts=2), random.Random(seed), 2,
                             _decisions(preset_name))
    assert played >= 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset_name=st.sampled_from(PRESET_NAMES), players=st.integers(2, 6),
       seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), budget=st.integers(2, 5))
def test_master_plays_legal_actions_at_random_positions(
        preset_name: str, players: int, seed: int, steps: int, budget: int) -> None:
    """From random positions (hypothesis draws the preset, the table, the deal, how far it
    was played and the master's budget), the master's actions through its turn are legal
    and the search behind each is consistent."""
    deal = _reach(Rules.parse(preset_name), players, seed, steps)
    if deal.is_over:
        return
    if preset_name == "ramino":
        budget = 2
    _play_turn(deal, MasterBot(rollouts=budget), random.Random(seed), budget,
               _decisions(preset_name))


# -- no peeking ------------------------------------------------------------------------

HIDDEN_POSITIONS = [(name, players, steps) for name in CHEAP_PRESETS
                    for players, steps in ((2, 9), (3, 25))] + [("ramino", 3, 40)]
"""Positions for the hidden-cards test (ramino's at a draw: two candidates, cheap)."""


def _other_deal(deal: Deal, seat: int, key: int) -> Deal:
    """A deal that shows ``seat`` the view of ``deal`` with the cards it cannot place
    dealt otherwise (a determinized deal of its view, other than the real one)."""
    v = view(deal, seat)
    for attempt in range(20):
        other = determinize(v, random.Random(f"{key}/{attempt}"))
        if _hidden_differs(deal, other, seat):
            return other
    raise AssertionError("every determinized deal held the real hidden cards")


def _hidden_differs(a: Deal, b: Deal, seat: int) -> bool:
    """Whether the cards ``seat`` cannot see are otherwise in ``a`` and ``b``: another
    hand of an opponent (as a set of cards), or another stock order."""
    hands = any(Counter(a.hands[s]) != Counter(b.hands[s]) for s in range(a.players)
                if s != seat)
    return hands or a.stock != b.stock


def _played_out(deal: Deal, action: Action, seed: int) -> tuple[int, ...]:
    """The points of ``deal`` played to its end after ``action`` by the rollout policy."""
    copy = deal.copy()
    copy.push(action)
    play_out(copy, random.Random(seed))
    return copy.result.points if copy.result is not None else ()


@pytest.mark.parametrize(("preset_name", "players", "steps"), HIDDEN_POSITIONS)
def test_master_search_ignores_the_hidden_cards(preset_name: str, players: int,
                                                steps: int) -> None:
    """Two deals that differ only in what the seat to move cannot see (checked: another
    opponent hand or stock order) give it equal views, and the master, with the same
    seeded generator and budget, the same search on both: the same action, candidates,
    means and gains. The hidden cards matter: played out from the real deals with the
    same randomness, the candidates score otherwise; a bot that read them would have
    searched other numbers."""
    rules = Rules.parse(preset_name)
    deal = _decision(rules, players, 40 + players, steps)
    seat = deal.to_move
    v = view(deal, seat)
    others = [_other_deal(deal, seat, key) for key in (1, 2)]
    for other in others:
        assert _hidden_differs(deal, other, seat)
        assert sorted(other.hands[seat]) == sorted(deal.hands[seat])
        assert view(other, seat) == v  # the same view for the seat to move
    bot = MasterBot(rollouts=3)
    found = bot.search(v, random.Random(7))
    for other in others:
        again = MasterBot(rollouts=bot.rollouts).search(view(other, seat), random.Random(7))
        assert _same_search(found, again), (found, again)
    assert bot.choose(view(others[0], seat), random.Random(7)) == found.choice
    # The real deals tell the candidates apart otherwise (with shared randomness).
    differ = [c for c in found.candidates for seed in (1, 2)
              if _played_out(deal, c, seed) != _played_out(others[0], c, seed)]
    assert differ, "the hidden cards changed no outcome: the test would not catch peeking"


def test_master_choice_ignores_the_hidden_cards_through_a_deal() -> None:
    """At every decision of the master's seat in a deal against the expert, the same
    view over other hidden cards gives the same search, so the same action (same
    generator, same budget)."""
    rules = Rules.parse("classic")
    deal = Deal.start(rules, players=2, dealer=1, seed=21)
    bot = MasterBot(rollouts=2)
    rng = random.Random(3)
    compared = 0
    while not deal.is_over and compared < 12:
        seat = deal.to_move
        v = view(deal, seat)
        if seat == 1:
            deal.apply(_EXPERT.choose(v, rng))
            continue
        other = _other_deal(deal, seat, compared)
        assert view(other, seat) == v
        found = bot.search(v, random.Random(compared))
        again = bot.search(view(other, seat), random.Random(compared))
        assert _same_search(found, again), (found, again)
        deal.apply(found.choice)
        compared += 1
    assert compared >= 8


# -- determinism -----------------------------------------------------------------------


@pytest.mark.parametrize("preset_name", CHEAP_PRESETS)
def test_master_is_deterministic_with_a_rollout_budget(preset_name: str) -> None:
    """With ``rollouts``, the same view and the same seed give the same search (action,
    candidates, means, gains, imagined deals), twice from one bot and once from a fresh
    one; and the generator is used: other seeds give other means somewhere."""
    rules = Rules.parse(preset_name)
    varied = 0
    for players, seed, steps in ((2, 3, 6), (3, 4, 20), (4, 5, 30)):
        deal = _decision(rules, players, seed, steps)
        v = view(deal, deal.to_move)
        bot = MasterBot(rollouts=4)
        first = bot.search(v, random.Random(seed))
        assert _same_search(bot.search(v, random.Random(seed)), first)
        assert _same_search(MasterBot(rollouts=4).search(v, random.Random(seed)), first)
        assert bot.choose(v, random.Random(seed)) == first.choice
        assert make_bot("master(rollouts=4)").choose(v, random.Random(seed)) == first.choice
        if bot.search(v, random.Random(seed + 1000)).means != first.means:
            varied += 1
    assert varied >= 1, "the seed changed nothing: the search is not random at all"


def test_master_decisions_do_not_depend_on_earlier_ones() -> None:
    """A bot that has searched other positions decides a position as a fresh one does."""
    rules = Rules.parse("classic")
    views = [view(d, d.to_move) for d in (
        _decision(rules, 2, 8, 4), _decision(rules, 3, 9, 15), _decision(rules, 2, 10, 30))]
    used = MasterBot(rollouts=3)
    for v in views:
        used.search(v, random.Random(1))
    for v in reversed(views):
        assert _same_search(used.search(v, random.Random(2)),
                            MasterBot(rollouts=3).search(v, random.Random(2)))


# -- time ------------------------------------------------------------------------------

THINK = 0.05
SLACK = 0.5
"""The allowance over ``think``: the search checks its clock between imagined deals, and
a test machine may be slow; this bound catches a bot that ignores its budget (or runs on
to a node count), not one a few milliseconds late."""


def cpu_seconds() -> float:
    """This thread's CPU time, the measure of the bounds below: a bot that searches past
    its budget spends it, while the time a busy machine makes the test wait for a core
    (which the bot's own clock counts, so that it stops sooner) does not add to it."""
    return time.thread_time()


@pytest.mark.parametrize("preset_name", CHEAP_PRESETS)
def test_master_keeps_to_its_think_time(preset_name: str) -> None:
    """With ``think`` (and no rollout budget) each decision returns within think + a
    generous slack; where not one imagined deal was played out in time, the expert's
    choice stands. A loose sanity bound only: timing a decision precisely is a benchmark
    (bench/), not a unit test."""
    rules = Rules.parse(preset_name)
    for players, seed, steps in ((2, 1, 5), (4, 2, 20), (6, 3, 40)):
        deal = _decision(rules, players, seed, steps)
        v = view(deal, deal.to_move)
        bot = MasterBot(think=THINK)
        start = cpu_seconds()
        found = bot.search(v, random.Random(seed))
        elapsed = cpu_seconds() - start
        assert elapsed <= THINK + SLACK, f"{preset_name}, {players} players: {elapsed:.2f}s"
        assert found.worlds >= 1 or found.choice == found.baseline
        assert found.choice in v.legal_actions
        start = cpu_seconds()
        assert bot.choose(v, random.Random(seed)) in v.legal_actions
        assert cpu_seconds() - start <= THINK + SLACK


def test_master_keeps_to_its_think_time_in_ramino() -> None:
    """The same bound in ramino, where single rollouts are slow."""
    rules = Rules.parse("ramino")
    deal = Deal.start(rules, players=2, dealer=0, seed=1)
    rng = random.Random(1)
    for _ in range(27):
        deal.push(rng.choice(deal.legal_actions()))
    v = view(deal, deal.to_move)
    assert len(v.legal_actions) > 1
    start = cpu_seconds()
    MasterBot(think=THINK).choose(v, random.Random(0))
    elapsed = cpu_seconds() - start
    assert elapsed <= THINK + SLACK, f"think={THINK}: {elapsed:.2f}s"


def test_master_given_both_budgets_stops_at_the_first_reached() -> None:
    """``rollouts`` and ``think`` together: with time to spare the count is reached and
    the search is the count's alone (the same numbers); with a count no decision could
    reach, the time stops it."""
    rules = Rules.parse("classic")
    deal = _decision(rules, 2, 4, 7)
    v = view(deal, deal.to_move)
    assert len(v.legal_actions) > 1
    counted = MasterBot(rollouts=4).search(v, random.Random(3))
    capped = MasterBot(rollouts=4, think=60.0).search(v, random.Random(3))
    assert capped.worlds == counted.worlds == 4
    assert _same_search(capped, counted)
    start = cpu_seconds()
    cut = MasterBot(rollouts=100_000, think=THINK).search(v, random.Random(3))
    elapsed = cpu_seconds() - start
    assert elapsed <= THINK + SLACK, f"think={THINK}: {elapsed:.2f}s"
    assert cut.worlds < 100_000 and cut.choice in v.legal_actions


def test_a_count_alone_has_no_time_budget_and_neither_means_the_default_time() -> None:
    """``rollouts`` alone is a count with no clock (so it plays alike on any machine);
    neither budget is the default think time, the same bot as ``think=1``."""
    assert MasterBot(rollouts=4).think is None
    assert MasterBot().think == 1.0 and MasterBot().rollouts is None
    assert same_bot_key("master") == same_bot_key("master(think=1)")
    assert same_bot_key("master(rollouts=8)") != same_bot_key("master(rollouts=8,think=1)")
    assert same_bot_key("master(rollouts=8)") != same_bot_key("master")


# -- views without a choice ------------------------------------------------------------


def test_master_refuses_a_view_without_legal_actions() -> None:
    """Another seat's turn, or a deal that is over: no legal action, a ValueError."""
    deal = Deal.start(Rules.parse("classic"), players=3, dealer=0, seed=4)
    idle = next(s for s in range(3) if s != deal.to_move)
    with pytest.raises(ValueError, match="not this bot's turn"):
        MasterBot(rollouts=2).choose(view(deal, idle), random.Random(0))
    rng = random.Random(4)
    while not deal.is_over:
        deal.apply(_EXPERT.choose(view(deal, deal.to_move), rng))
    for seat in range(3):
        assert view(deal, seat).legal_actions == ()
        with pytest.raises(ValueError, match="not this bot's turn"):
            MasterBot(rollouts=2).choose(view(deal, seat), random.Random(0))


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_master_plays_a_single_legal_action_at_once(preset_name: str) -> None:
    """With one legal action the master returns it without searching: given a minute to
    think (the most its options allow), it answers in well under a second."""
    rules = Rules.parse(preset_name)
    found = 0
    for seed in range(40):
        deal = Deal.start(rules, players=2, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over and len(deal.legal_actions()) != 1:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        v = view(deal, deal.to_move)
        (only,) = v.legal_actions
        start = cpu_seconds()
        assert MasterBot(think=60.0).choose(v, random.Random(0)) == only
        assert cpu_seconds() - start < 1.0
        found += 1
        if found == 2:
            break
    assert found == 2, f"no position with a single legal action in {preset_name}"


# -- options ---------------------------------------------------------------------------


def test_master_bot_options() -> None:
    """A master's options are read with their types, spaces allowed, and given to the
    bot; without options it has the class's defaults (a time budget)."""
    assert parse_bot("master") == ("master", {})
    assert parse_bot("master()") == ("master", {})
    level, options = parse_bot(" master( think = 0.5 , rollouts=8,margin=2 ) ")
    assert (level, options) == ("master", {"think": 0.5, "rollouts": 8, "margin": 2.0})
    assert type(options["rollouts"]) is int and type(options["think"]) is float
    assert type(options["margin"]) is float
    bot = make_bot("master(think=0.25,rollouts=3,margin=0)")
    assert isinstance(bot, MasterBot) and bot.name == "master"
    assert (bot.think, bot.rollouts, bot.margin) == (0.25, 3, 0.0)
    default, plain = make_bot("master"), MasterBot()
    assert isinstance(default, MasterBot)
    assert (default.think, default.rollouts, default.margin, default.inference) == (
        plain.think, plain.rollouts, plain.margin, plain.inference)
    assert default.rollouts is None  # a time budget, not a node budget
    # The ends of the ranges are allowed.
    assert parse_bot("master(think=0.01,rollouts=1)")[1] == {"think": 0.01, "rollouts": 1}
    assert parse_bot("master(think=60,rollouts=100000,margin=10)")[1] == {
        "think": 60.0, "rollouts": 100_000, "margin": 10.0}
    for level in BOTS:
        assert parse_bot(level) == (level, {})
        assert make_bot(f"{level}()").name == level


def test_split_bots_keeps_commas_inside_parentheses() -> None:
    assert split_bots("master(think=0.2,rollouts=5),expert") == [
        "master(think=0.2,rollouts=5)", "expert"]
    assert split_bots(" random , greedy,, master(rollouts=2 , margin=1) ,") == [
        "random", "greedy", "master(rollouts=2 , margin=1)"]
    assert split_bots("expert") == ["expert"]
    assert split_bots("") == []
    bots = [make_bot(spec) for spec in split_bots("master(think=0.2,rollouts=5),expert")]
    assert [b.name for b in bots] == ["master", "expert"]
    assert isinstance(bots[0], MasterBot) and bots[0].rollouts == 5
    # An unclosed parenthesis swallows the rest of the list, and is refused as one bot.
    (spec,) = split_bots("master(think=0.2,expert")
    with pytest.raises(ValueError, match=r"closed with '\)'"):
        parse_bot(spec)


@pytest.mark.parametrize(("spec", "named"), [
    ("grandmaster", r"unknown bot 'grandmaster'.*random, greedy, learned, expert, master"),
    ("grandmaster(think=1)", r"unknown bot 'grandmaster'"),
    ("Master", r"unknown bot 'Master'"),
    ("", r"unknown bot ''"),
    ("master(depth=3)", r"no option 'depth'; its options: think, rollouts, margin"),
    ("master(inference=0)", r"no option 'inference'"),
    ("expert(think=1)", r"bot expert has no option 'think'; its options: none"),
    ("master(think=0)", r"think=0\.0 is out of range \(0\.01 to 60\.0\)"),
    ("master(think=-1)", r"think=-1\.0 is out of range"),
    ("master(think=61)", r"think=61\.0 is out of range"),
    ("master(think=nan)", r"think=nan is out of range"),
    ("master(think=inf)", r"think=inf is out of range"),
    ("master(rollouts=0)", r"rollouts=0 is out of range \(1 to 100000\)"),
    ("master(rollouts=100001)", r"rollouts=100001 is out of range"),
    ("master(margin=-0.5)", r"margin=-0\.5 is out of range"),
    ("master(think=fast)", r"think='fast': not a number"),
    ("master(think=)", r"think='': not a number"),
    ("master(rollouts=2.5)", r"rollouts='2\.5': not a number"),
    ("master(rollouts=ten)", r"rollouts='ten': not a number"),
    ("master(think=0.5", r"'master\(think=0\.5': .*closed with '\)'"),
    ("master(", r"closed with '\)'"),
    ("master(think)", r"'think': write option=value"),
    ("master(think=0.5,think=2)", r"option think is given twice"),
    ("master(think=0.5))", r"one bot is a level and one pair of parentheses"),
    ("master(think=0.5),expert", r"a list of bots is split on the commas outside"),
    ("master((think=1))", r"one pair of parentheses"),
])
def test_bad_bot_specs_are_errors_naming_the_problem(spec: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        parse_bot(spec)
    with pytest.raises(ValueError, match=named):
        make_bot(spec)


def test_master_refuses_bad_budgets_when_built_directly() -> None:
    for kwargs in ({"think": 0.0}, {"think": -1.0}, {"think": float("nan")},
                   {"rollouts": 0}, {"rollouts": -3}, {"width": 0}):
        with pytest.raises(ValueError, match="think must be positive, rollouts and width at"):
            MasterBot(**kwargs)


def test_win_adds_its_points_for_going_out_and_takes_them_from_the_others() -> None:
    """``win``: an imagined deal is worth ``win`` more to the player who went out, and
    ``win`` less, shared, to each of the others; a deal nobody won is worth its points
    alone. The deals are played to their end by the rollout policy."""
    from rummykit.bots.master import _utility

    checked = {2: False, 3: False}
    for players in (2, 3):
        for seed in range(20):
            deal = Deal.start(Rules.parse("classic"), players=players, dealer=0, seed=seed)
            play_out(deal, random.Random(seed))
            result = deal.result
            assert result is not None
            if result.winner is None:
                continue
            checked[players] = True
            for seat in range(players):
                plain = _utility(deal, seat)
                points = result.points
                assert plain == pytest.approx(points[seat] - sum(
                    p for s, p in enumerate(points) if s != seat) / (players - 1))
                bonus = 12.5 if seat == result.winner else -12.5 / (players - 1)
                assert _utility(deal, seat, 12.5) == pytest.approx(plain + bonus)
            break
    assert all(checked.values()), "no deal of the sample was won"
    assert parse_bot("master(rollouts=8,win=20)")[1] == {"rollouts": 8, "win": 20.0}
    bot = make_bot("master(rollouts=8,win=20)")
    assert isinstance(bot, MasterBot) and bot.win == 20.0
    # The defaults are the setting measured best (docs/strength.md): for deals won as
    # well as points, with a margin of one standard error.
    assert (MasterBot().win, MasterBot().margin) == (20.0, 1.0)
    points_alone = make_bot("master(win=0)")
    assert isinstance(points_alone, MasterBot) and points_alone.win == 0.0
    with pytest.raises(ValueError, match="out of range"):
        parse_bot("master(win=-1)")


# -- strength --------------------------------------------------------------------------


def test_master_beats_random() -> None:
    """Four deals of 2-player classic, the master (6 imagined deals a decision) in either
    seat against random: it wins at least three and scores more points over the four
    (random rarely melds: a smoke test that the search plays to win, not a measure)."""
    rules = Rules.parse("classic")
    won = 0
    points = [0, 0]  # the master's, random's
    for k in range(4):
        mine = k % 2
        seats = [make_bot("master(rollouts=6)"), make_bot("random")]
        if mine:
            seats.reverse()
        deal = Deal.start(rules, players=2, dealer=k % 2, seed=100 + k)
        rngs = [random.Random(f"test-master/{k}/{seat}") for seat in range(2)]
        for _ in range(1_000):
            if deal.is_over:
                break
            seat = deal.to_move
            deal.apply(seats[seat].choose(view(deal, seat), rngs[seat]))
        result = deal.result
        assert result is not None, f"deal {k} did not end"
        won += result.winner == mine
        points[0] += result.points[mine]
        points[1] += result.points[1 - mine]
    assert won >= 3, f"the master won {won} of 4 deals against random"
    assert points[0] > points[1]


# -- which discards are searched -------------------------------------------------------


@pytest.mark.parametrize("name", CHEAP_PRESETS)
def test_width_searches_the_experts_cheapest_discards_and_every_meld(name: str) -> None:
    """``width`` discards are searched, the expert's first choice and then its cheapest
    by its own discard costs (a card of one of the hand's best melds last); every meld and
    lay-off is searched whatever the width."""
    from rummykit.bots.expert import ExpertBot, discard_costs, opponent_interest, partition

    expert = ExpertBot()
    checked = 0
    for seed in range(60):
        deal = _reach(PRESETS[name], 2, seed, 6 + seed % 9)
        if deal.is_over or deal.phase != "play":
            continue
        v = view(deal, deal.to_move)
        ranked = expert.ranked_discards(v)
        discards = [a for a in v.legal_actions if a.kind == "discard"]
        assert sorted(map(str, ranked)) == sorted(map(str, discards))
        choice = expert.choose(v, random.Random(0))
        if choice.kind == "discard":
            assert ranked[0] == choice
        # After the first: loose cards before cards of the hand's best melds, each group
        # from cheapest to dearest by the expert's own costs.
        hand = [int(c) for c in v.hand]
        _, melds = partition(hand, v.rules)
        in_melds = [c for m in melds for c in m]
        loose = list(hand)
        for c in in_melds:
            loose.remove(c)
        wanted, unwanted = opponent_interest(v)
        costs = discard_costs(hand, [a.cards[0] for a in ranked], rules=v.rules,
                              table=v.melds, unseen=list(v.knowledge.unseen),
                              opponent_sizes=[v.hand_sizes[1 - v.seat]],
                              wanted=wanted, unwanted=unwanted)
        keys = [(a.cards[0] not in loose, costs[a.cards[0]]) for a in ranked[1:]]
        assert keys == sorted(keys)
        for width in (1, 3):
            bot = MasterBot(rollouts=2, width=width)
            found = bot.search(v, random.Random(1))
            searched = [a for a in found.candidates if a.kind == "discard"]
            expected = ranked[:width]
            if found.baseline.kind == "discard":
                assert searched[0] == found.baseline
            assert set(searched) == set(expected) | (
                {found.baseline} if found.baseline.kind == "discard" else set())
            others = {a for a in v.legal_actions if a.kind != "discard"}
            assert others <= set(found.candidates)
        checked += 1
    assert checked >= 10


# -- the rollout policy ----------------------------------------------------------------


def test_rollout_policy_models_the_experts_play() -> None:
    """The opponents in a search's imagined deals play the fast rollout policy, and most
    opponents a master meets play like the expert: over 40 deals of 2-player classic
    played by the expert, the policy draws as the expert does every time and chooses the
    expert's discard in at least 85% of its discards (it measured 94%; the policy before
    it, the highest card short of a meld partner, 72%)."""
    rules = Rules.parse("classic")
    expert = make_bot("expert")
    rng = random.Random(3)
    same = Counter[str]()
    total = Counter[str]()
    for k in range(40):
        deal = Deal.start(rules, players=2, dealer=k % 2, seed=500 + k)
        while not deal.is_over:
            v = view(deal, deal.to_move)
            chosen = expert.choose(v, rng)
            if len(v.legal_actions) > 1 and chosen.kind in ("draw-stock", "draw-pile",
                                                            "discard"):
                kind = "discard" if chosen.kind == "discard" else "draw"
                total[kind] += 1
                same[kind] += fast_action(deal, random.Random(k)) == chosen
            deal.push(chosen)
    assert total["discard"] > 500 and total["draw"] > 500
    assert same["draw"] == total["draw"]
    assert same["discard"] >= 0.85 * total["discard"], (same, total)


# -- what a review asks of the search --------------------------------------------------


@pytest.mark.parametrize("preset_name", ["classic", "rummy500"])
def test_kept_actions_change_no_choice_and_are_measured_in_every_imagined_deal(
        preset_name: str) -> None:
    """``keep`` (a review's played action) measures an action in every imagined deal
    whatever the pruning, and the search chooses as it does without it: every legal
    action kept in turn, at positions of seeded play (32 imagined deals, enough for the
    search to leave the expert's choice)."""
    rules = Rules.parse(preset_name)
    for seed, steps in ((3, 6), (5, 25)):
        deal = _decision(rules, 2, seed, steps, choices=3)
        v = view(deal, deal.to_move)
        alone = MasterBot(rollouts=32).search(v, random.Random(seed))
        for action in v.legal_actions[:4]:
            kept = MasterBot(rollouts=32).search(v, random.Random(seed), keep=(action,))
            assert kept.choice == alone.choice
            assert kept.candidates == alone.candidates
            (sampled,) = [s for s in kept.sampled if s.action == action]
            if kept.worlds:
                assert len(sampled.points) == len(sampled.wins) == kept.worlds
                assert set(sampled.wins) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="not a legal action"):
        MasterBot(rollouts=4).search(v, random.Random(1), keep=(Action.parse("discard JK"),))


def test_measure_plays_the_actions_alone_on_the_same_imagined_deals() -> None:
    deal = _decision(Rules.parse("classic"), 2, 9, 10, choices=3)
    v = view(deal, deal.to_move)
    a, b = v.legal_actions[:2]
    found = MasterBot(rollouts=12).measure(v, random.Random(2), (a, b))
    assert found.candidates == (a, b) and found.worlds == 12 == len(found.drawn)
    assert all(len(s.points) == 12 for s in found.sampled)
    # The gain of each over the first, deal by deal (paired), and the first's over itself.
    assert found.gains[0] == 0.0
    diffs = [x - y for x, y in zip(found.sampled[1].values, found.sampled[0].values,
                                   strict=True)]
    assert found.gains[1] == pytest.approx(sum(diffs) / len(diffs))
    with pytest.raises(ValueError):
        MasterBot(rollouts=4).measure(v, random.Random(2), (a,))


@pytest.mark.parametrize("reweight", [True, False])
def test_imagined_deals_follow_the_odds_they_are_given(reweight: bool) -> None:
    """``sample_worlds(odds=...)``: a hidden card with overwhelming odds for the opponent
    is in his hand in every imagined deal, reweighed or not; one with odds near zero is
    in none (while the hand is not full of such cards)."""
    deal = _decision(CLASSIC, 2, 5, 14)
    v = view(deal, deal.to_move)
    other = 1 - v.seat
    hidden = list(v.knowledge.unseen)
    sure, never = hidden[0], hidden[-1]
    odds: list[dict[int, float]] = [{}, {}]
    odds[other] = {c: 1e12 if c == sure else 1e-12 if c == never else 1.0 for c in hidden}
    worlds = sample_worlds(v, random.Random(2), 12, odds=odds, reweight=reweight)
    assert len(worlds) == 12
    for world in worlds:
        assert sure in world.hands[other] and never not in world.hands[other]
        assert sorted(world.hands[v.seat]) == sorted(v.hand)


def test_a_master_deals_by_the_odds_it_is_given_once_a_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``MasterBot(odds=f, reweight=...)``: ``f`` is asked once a searched decision, with
    the decision's view, and its odds and ``reweight`` reach every draw of imagined deals;
    without ``odds`` the search draws by the card odds, reweighed."""
    import rummykit.bots.master as master_module

    draws: list[tuple[object, bool]] = []
    real = master_module.sample_worlds

    def recording(v: View, rng: random.Random, count: int, **kw: object) -> list[Deal]:
        draws.append((kw.get("odds"), bool(kw.get("reweight"))))
        return real(v, rng, count, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(master_module, "sample_worlds", recording)
    asked: list[View] = []
    given: list[dict[int, float]] = []

    def flat(v: View) -> list[dict[int, float]]:
        asked.append(v)
        given[:] = [{} if s == v.seat else dict.fromkeys(v.knowledge.unseen, 1.0)
                    for s in range(len(v.hand_sizes))]
        return given

    deal = _decision(CLASSIC, 2, 9, 10)
    v = view(deal, deal.to_move)
    MasterBot(rollouts=24, odds=flat, reweight=False).search(v, random.Random(0))
    assert asked == [v] and draws and all(o is given and not r for o, r in draws)
    draws.clear()
    MasterBot(rollouts=24).search(v, random.Random(0))
    assert draws and all(o is None and r for o, r in draws)
