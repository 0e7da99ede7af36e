"""The bots: legal play everywhere, no peeking at hidden cards, and their order of strength.

- every level (random, greedy, expert) plays thousands of decisions in every preset, with
  2 to 6 players and in option variants, and every action it returns is legal: the checked
  path (``Deal.apply`` / ``Match.apply``) raises on an illegal one;
- a bot is handed a :class:`~rummykit.engine.views.View` only: the view reaches no Deal or Match,
  and two games that differ only in what the seat cannot see give the same choice;
- in a small fixed-seed duplicate run of 2-player classic, expert beats greedy beats random.

(Timing a decision is a benchmark, not a test: see bench/.)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from rummykit.bots import BOTS, Bot, make_bot
from rummykit.engine import Action, Deal, Layout, Match
from rummykit.engine.deal import LegalActions
from rummykit.engine.views import view
from rummykit.rules import PRESETS, Rules
from rummykit.sim import Config, simulate

LEVELS = ["random", "greedy", "expert"]
"""The levels that decide at once; the master (a search) has tests of its own
(tests/bots/test_master.py) with small budgets."""
PRESET_NAMES = list(PRESETS)
PLAYER_COUNTS = range(2, 7)
VARIANTS = ["classic(melds_per_turn=many)", "basic(last_discard=required)",
            "basic(aces=high-low)"]
MAX_STEPS = 1_500
"""The legality tests stop a deal of bots after this many actions (deals of bots last a
few hundred at most, unless they loop: see test_bots_end_every_ramino_deal)."""


def test_registry_is_the_five_levels_weakest_first() -> None:
    assert list(BOTS) == ["random", "greedy", "learned", "expert", "master"]
    for level in BOTS:
        bot = make_bot(level)
        assert bot.name == level
        assert isinstance(bot, BOTS[level])


def test_unknown_level_is_an_error_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="random, greedy, learned, expert, master"):
        make_bot("grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_bot_refuses_a_view_without_legal_actions(level: str) -> None:
    deal = Deal.start(Rules.parse("classic"), players=3, dealer=0, seed=4)
    idle = next(s for s in range(3) if s != deal.to_move)
    with pytest.raises(ValueError, match="not this bot's turn"):
        make_bot(level).choose(view(deal, idle), random.Random(0))


# -- legal play ------------------------------------------------------------------------


def _play_deal(rules: Rules, players: int, seed: int, seats: list[Bot], level: str) -> int:
    """Play one deal with every action through the checked path; the decisions of the
    bots of ``level``."""
    deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed, index=seed)
    rngs = [random.Random(f"test-bots/{seed}/{seat}") for seat in range(players)]
    decisions = 0
    steps = 0
    while not deal.is_over and steps < MAX_STEPS:
        seat = deal.to_move
        v = view(deal, seat)
        action = seats[seat].choose(v, rngs[seat])
        assert action in v.legal_actions, (
            f"{seats[seat].name} chose {action} in {rules} with {players} players, deal "
            f"seed {seed}; legal: {[str(a) for a in v.legal_actions]}")
        deal.apply(action)  # raises IllegalActionError on an illegal action
        if seats[seat].name == level:
            decisions += 1
        steps += 1
    return decisions


def _seating(level: str, players: int, k: int) -> list[Bot]:
    """Even deals: the level in every seat; odd deals: the level in the even seats and
    the other levels in turn in the odd ones (other opponents, other positions)."""
    if k % 2 == 0:
        return [make_bot(level) for _ in range(players)]
    others = [lv for lv in LEVELS if lv != level]
    return [make_bot(level) if s % 2 == 0 else make_bot(others[(s // 2 + k) % 2])
            for s in range(players)]


def _play_until(rules: Rules, level: str, quota: int, seed: int) -> int:
    """Deals of every player count, at least two each and until ``level`` has made
    ``quota`` decisions at that count; the level's decisions in all."""
    total = 0
    for players in PLAYER_COUNTS:
        decisions = 0
        k = 0
        while decisions < quota or k < 2:
            deal_seed = seed + 1000 * players + k
            decisions += _play_deal(rules, players, deal_seed, _seating(level, players, k),
                                    level)
            k += 1
            assert k < 100
        total += decisions
    return total


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_bot_plays_only_legal_actions_in_every_preset(level: str, preset_name: str) -> None:
    # 5 player counts x 400: 2000 decisions per preset, 12000 per level in all.
    assert _play_until(Rules.parse(preset_name), level, 400, seed=0) >= 2000


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", LEVELS)
def test_bot_plays_only_legal_actions_in_option_variants(level: str, variant: str) -> None:
    assert _play_until(Rules.parse(variant), level, 200, seed=7000) >= 1000


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_bots_play_whole_matches_legally(preset_name: str) -> None:
    """Whole matches (later deals, ramino players out of the match, the match's views)
    with the three levels at one table."""
    rules = Rules.parse(preset_name)
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        match = Match(rules, players=players, seed=seed)
        seats = [make_bot(LEVELS[(s + seed) % 3]) for s in range(players)]
        rngs = [random.Random(f"test-bots/match/{seed}/{s}") for s in range(players)]
        actions = 0
        while not match.is_over and actions < MAX_STEPS:
            deal = match.deal
            seat = deal.to_move
            v = view(match, seat)
            assert v.active[seat] and v.legal_actions
            match.apply(seats[seat].choose(v, rngs[seat]))
            actions = 0 if match.deal is not deal else actions + 1
        assert match.is_over, f"a deal of {preset_name} ran past {MAX_STEPS} actions"
        assert match.finished and all(d.result is not None for d in match.finished)
        totals = [sum(d.result.points[s] for d in match.finished if d.result) for s in
                  range(players)]
        assert match.totals == totals


@pytest.mark.parametrize(("first", "second", "seed"), [
    ("greedy", "expert", 20), ("expert", "expert", 20), ("greedy", "greedy", 1)])
def test_bots_end_every_ramino_deal(first: str, second: str, seed: int) -> None:
    """Regression: before anyone had opened, greedy and expert passed the same cards
    through the pile forever in these deals (the stock never shrank)."""
    deal = Deal.start(Rules.parse("ramino"), players=2, dealer=0, seed=seed)
    seats = [make_bot(first), make_bot(second)]
    rng = random.Random(0)
    # Finished deals of these bots last ~250 actions at most (measured over 180 deals).
    for _ in range(1_000):
        if deal.is_over:
            break
        deal.apply(seats[deal.to_move].choose(view(deal, deal.to_move), rng))
    assert deal.is_over, (f"{first} vs {second}: {len(deal.history)} actions, stock still "
                          f"{len(deal.stock)}, last: {[str(a) for a in deal.history[-4:]]}")


def test_ramino_match_of_the_three_levels_ends() -> None:
    """Regression: in this match, once random was out, greedy and expert passed 4S 5H 6H
    round the pile for ever in the third deal."""
    match = Match(Rules.parse("ramino"), players=["a", "b", "c"], seed=6)
    seats = [make_bot("greedy"), make_bot("random"), make_bot("expert")]
    rng = random.Random(0)
    for _ in range(5_000):
        if match.is_over:
            break
        seat = match.deal.to_move
        match.apply(seats[seat].choose(view(match, seat), rng))
    assert match.is_over
    assert not all(match.active)  # someone went out past 101 on the way


# -- no peeking ------------------------------------------------------------------------

_ATOMS = (int, float, str, bytes, bool, type(None))
_FORBIDDEN = (Deal, Match, LegalActions, random.Random)


def _reachable(obj: object, path: str, seen: set[int]) -> Iterator[tuple[str, object]]:
    """Every object reachable from ``obj`` (through fields, attributes and items)."""
    if isinstance(obj, _ATOMS) or id(obj) in seen:
        return
    seen.add(id(obj))
    yield path, obj
    if isinstance(obj, type) or (callable(obj) and not dataclasses.is_dataclass(obj)):
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _reachable(key, f"{path}[key]", seen)
            yield from _reachable(value, f"{path}[{key!r}]", seen)
        return
    if isinstance(obj, (tuple, list, set, frozenset)):
        for i, item in enumerate(obj):
            yield from _reachable(item, f"{path}[{i}]", seen)
        return
    names: list[str] = []
    if dataclasses.is_dataclass(obj):
        names = [f.name for f in dataclasses.fields(obj)]
    for klass in type(obj).__mro__:
        names += [n for n in getattr(klass, "__slots__", ()) if n not in names]
    names += [n for n in getattr(obj, "__dict__", {}) if n not in names]
    for name in names:
        if hasattr(obj, name):
            yield from _reachable(getattr(obj, name), f"{path}.{name}", seen)


def _positions(rules: Rules, players: int, seed: int) -> Iterator[Deal]:
    """Every position of a deal of greedy and random bots (the deal itself, mid-play)."""
    deal = Deal.start(rules, players=players, dealer=seed % players, seed=seed)
    seats = [make_bot("greedy" if s % 2 else "random") for s in range(players)]
    rng = random.Random(seed)
    while not deal.is_over and len(deal.history) < MAX_STEPS:
        yield deal
        deal.apply(seats[deal.to_move].choose(view(deal, deal.to_move), rng))
    yield deal


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_view_reaches_no_game_object_and_nothing_mutable(preset_name: str) -> None:
    rules = Rules.parse(preset_name)
    checked = 0
    reached: set[str] = set()
    for players in (2, 4):
        for deal in _positions(rules, players, 31 + players):
            for seat in range(players):
                v = view(deal, seat)
                assert dataclasses.is_dataclass(v)
                assert type(v).__dataclass_params__.frozen  # type: ignore[attr-defined]
                for path, obj in _reachable(v, "view", set()):
                    assert not isinstance(obj, _FORBIDDEN), f"{path} is a {type(obj)}"
                    # A list, dict or set could be shared with the game and changed by a bot.
                    assert not isinstance(obj, (list, dict, set)), f"{path} is mutable"
                    reached.add(type(obj).__name__)
                checked += 1
    assert checked > 100
    assert {"View", "Rules", "Meld", "MeldView", "Action", "DealResult"} <= reached


def test_reachability_walk_finds_a_buried_deal() -> None:
    """The walk above would see a game object hidden anywhere in a view-like value."""

    @dataclasses.dataclass(frozen=True)
    class Leaky:
        public: tuple[object, ...]

    deal = Deal.start(Rules.parse("basic"), players=2, dealer=0, seed=1)
    leaky = Leaky(public=(1, ("x", {"k": [deal]})))
    found = [path for path, obj in _reachable(leaky, "view", set())
             if isinstance(obj, _FORBIDDEN)]
    assert found == ["view.public[1][1]['k'][0]"]


def _hide_differently(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A copy of ``deal`` with the cards ``seat`` cannot see (the other hands and the
    stock) dealt out again at random, every hand keeping its size."""
    other = deal.copy()
    hidden = [c for s in range(deal.players) if s != seat for c in deal.hands[s]]
    hidden += deal.stock
    rng.shuffle(hidden)
    for s in range(deal.players):
        if s != seat:
            size = len(deal.hands[s])
            other.hands[s] = hidden[:size]
            hidden = hidden[size:]
    other.stock = hidden
    return other


def _differs(a: Deal, b: Deal) -> bool:
    return a.hands != b.hands or a.stock != b.stock


@pytest.mark.parametrize("level", LEVELS)
def test_bot_choice_ignores_hidden_cards_in_a_hand_made_layout(level: str) -> None:
    """Two deals built from layouts that agree on seat 0's hand, the pile and the stock's
    top card, with the opponent's hand and the rest of the stock different: seat 0's whole
    first turn has the same views, so the same choices."""
    rules = Rules.parse("classic")
    base = Deal.start(rules, players=2, dealer=1, seed=12).layout
    mine, theirs = base.hands
    rest = list(theirs) + list(base.stock[1:])
    random.Random(5).shuffle(rest)
    other = Layout(hands=(mine, tuple(rest[:len(theirs)])),
                   stock=(base.stock[0], *rest[len(theirs):]), pile=base.pile)
    first = Deal(rules, players=2, dealer=1, layout=base, seed=12)
    second = Deal(rules, players=2, dealer=1, layout=other, seed=12)
    assert first.to_move == second.to_move == 0
    assert sorted(theirs) != sorted(other.hands[1]) and base.stock != other.stock
    bot = make_bot(level)
    steps = 0
    while first.to_move == 0 and not first.is_over:
        v1, v2 = view(first, 0), view(second, 0)
        assert v1 == v2
        choice = bot.choose(v1, random.Random(steps))
        assert bot.choose(v2, random.Random(steps)) == choice
        first.apply(choice)
        second.apply(choice)
        steps += 1
        assert steps < 20
    assert steps >= 2  # a draw, then at least the discard


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_bot_choice_ignores_hidden_cards_mid_deal(level: str, preset_name: str) -> None:
    """At every decision of a deal, the same view over different hidden cards (other
    hands, stock order) gives the same action with the same random generator."""
    rules = Rules.parse(preset_name)
    bot = make_bot(level)
    shuffler = random.Random(99)
    compared = 0
    for players in (2, 3, 5):
        for deal in _positions(rules, players, 50 + players):
            if deal.is_over:
                continue
            seat = deal.to_move
            other = _hide_differently(deal, seat, shuffler)
            v = view(deal, seat)
            assert view(other, seat) == v  # the view hides all of it
            if not _differs(deal, other):
                continue
            a = bot.choose(v, random.Random(compared))
            b = bot.choose(view(other, seat), random.Random(compared))
            assert a == b, f"{level} chose {a} or {b} from one view"
            assert isinstance(a, Action)
            compared += 1
    assert compared >= 60


# -- strength --------------------------------------------------------------------------


def _duplicate_edge(first: str, second: str, deals: int, seed: int) -> tuple[float, float]:
    """``first``'s mean points per deal less ``second``'s in a duplicate 2-player classic
    run (each deal played twice, seats swapped), and the first's lower 95% bound less the
    second's upper one."""
    report = simulate(Config(rules="classic", players=2, bots=(first, second), count=deals,
                             seed=seed, duplicate=True), workers=2)
    a, b = report.bots
    assert (a.name, b.name) == (first, second)
    assert a.deals == b.deals == 2 * deals
    return a.points_per_deal.mean - b.points_per_deal.mean, (
        a.points_per_deal.low - b.points_per_deal.high)


def test_greedy_beats_random() -> None:
    edge, separated = _duplicate_edge("greedy", "random", 150, seed=1)
    assert edge > 0
    assert separated > 0  # by far: greedy scores ~47 points a deal, random ~0


def test_expert_beats_greedy() -> None:
    # The expert's edge is ~1 point a deal (sd ~8 paired): 650 deals put the mean ~5
    # standard errors above zero for this seed.
    edge, _ = _duplicate_edge("expert", "greedy", 650, seed=2)
    assert edge > 0


def test_expert_counts_the_unseen_cards_once_and_remembers_the_first_face_up_card() -> None:
    """The expert's unseen cards are exactly the cards it cannot place: the opponent's
    hand and the stock. The pile's top is not counted twice, and the first face-up card
    (9S) is still known once another card covers it. The expected set comes from the deal
    itself, not from the bot."""
    from rummykit.bots.expert import _unseen

    rules = Rules.parse("classic")
    expert = make_bot("expert")
    for seed in range(20):  # the first deal whose face-up card is still on the pile, covered
        deal = Deal.start(rules, players=2, dealer=1, seed=seed)
        first_up = deal.pile[-1]
        rng = random.Random(0)
        for _ in range(12):  # six turns
            deal.push(expert.choose(view(deal, deal.to_move), rng))
        if first_up in deal.pile[:-1]:
            break
    assert first_up in deal.pile[:-1]
    for seat in (0, 1):
        v = view(deal, seat)
        unseen = _unseen(v)
        known_elsewhere = set(v.knowledge.known[1 - seat])
        hidden = [c for c in [*deal.hands[1 - seat], *deal.stock] if c not in known_elsewhere]
        assert sorted(unseen) == sorted(hidden)
        assert first_up not in unseen and len(set(unseen)) == len(unseen)
