"""Legal actions against brute force and an independent model of the turn, in every preset.

How the oracle was built: positions of every preset (small hands, so brute force stays
cheap; two decks and jokers through ``ramino`` and variants) are reached by seeded random
play. At each, every candidate action is written out by brute force, with no help from the
engine: every draw form (``draw stock``, ``draw pile``, ``draw pile X`` for each pile card,
``end``), every discard of a hand card, every lay-off of each hand card on each table meld
(``low`` true and false, and one meld number past the table), and every meld written as
every ordering of every sub-multiset of 3+ cards of the hand (one ordering only when its
natural cards share neither a rank nor a suit, as no ordering of those is a meld). Then:

1. every action of ``legal_actions()`` passes ``can()`` and is played by ``apply()``;
2. every candidate that passes ``can()`` has the effect of a listed action, and listed
   actions differ pairwise in effect. The effect of an action is the state after playing
   it on a copy of the deal: every hand as a sorted list, the table's melds (a set's cards
   sorted, a run's in order), pile, stock, phase, player to move, whether the deal is over;
3. a candidate refused by ``can()`` is refused by ``apply()`` with ``IllegalActionError``
   and leaves the deal unchanged;
4. ``can()`` agrees with the rules as modelled in ``_oracle.py`` from RULES.md alone (the
   meld and lay-off rules, the taken discard, one meld per turn, the ramino opening, the
   rummy500 pile card that must be used, compulsory last discard, and "No dead ends": an
   action is legal only if the turn can still be finished, found by exhaustive search).
   The model abstains where RULES.md leaves the answer open: an empty stock (turn-over,
   refills and ``end`` are left to checks 1-3), ``low`` on a natural card or a set, a run
   written out of order, a natural card that fits both ends of a run, and discarding the
   twin of the taken card (the model decides both ways and judges only when they agree);
   and a search for a way to finish that goes past its budget.

Hands of more than ``ORDERINGS_UP_TO`` cards (a whole suit in hand, six players with eight
cards each to run the stock out) get as meld candidates every meld the model finds, each
run also written backwards, and 200 random sub-multisets. Besides random positions, a few
are written out by hand: the ramino twin lay-off, a ramino run of one natural card and four
jokers with naturals left in hand, and a whole suit in hand with aces high and low.

The model is independent of the code under test: it never calls ``rummykit.engine.melds`` nor
the engine for a judgement; the engine is only asked what it allows (``legal_actions``,
``can``, ``apply``) and for the public position (hands, table, pile, stock, phase, player
to move). What the model needs of the turn so far (the card taken from the pile, melds
laid this turn, who has opened) it tracks itself from the actions it plays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from rummykit.cards import format_cards, make_deck, parse_cards
from rummykit.engine import Action, Deal, Layout
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules, preset

from ._oracle import (
    JK,
    Reading,
    SearchTooLong,
    Turn,
    after_layoff,
    after_meld,
    canonical,
    discard_ok,
    distinct_orderings,
    finishable,
    is_sub_multiset,
    layoff_results,
    meld_value,
    melds_of,
    move_ok,
    naturals_consistent,
    rank,
    read_as,
    read_meld,
    readings_of,
    sub_multisets,
    suit,
)

CONFIGS: dict[str, Rules] = {
    "basic": preset("basic").replace(hand_size=4),
    "one-deal": preset("one-deal").replace(hand_size=5),
    "classic": preset("classic").replace(hand_size=4),
    "classic-high-low": preset("classic").replace(hand_size=5, aces="high-low"),
    "rummy500": preset("rummy500").replace(hand_size=4),
    "rummy500-required": preset("rummy500").replace(hand_size=4, last_discard="required"),
    "limited-stock": preset("limited-stock").replace(hand_size=4),
    "ramino": preset("ramino").replace(hand_size=5),
    "ramino-opening-20": preset("ramino").replace(hand_size=5, opening=20),
    "twins-jokers-required": preset("basic").replace(
        hand_size=4, decks=2, jokers=2, last_discard="required"),
}
NAMES = sorted(CONFIGS)

DEALS = 80
"""Seeded deals per configuration."""
MAX_STEPS = 60
"""Actions played per deal at most."""
MAX_PILE = 40
"""With ``draw_pile="any"`` a deal stops when the pile grows past this, so that the
brute-force enumeration stays fast."""
CHECK_EVERY = 2
"""A position is checked with probability 1/CHECK_EVERY (the others are only played)."""
ORDERINGS_UP_TO = 7
"""Hands up to this size get every ordering of every sub-multiset as a meld candidate."""


# -- positions ------------------------------------------------------------------------------


def stacked_layout(rng: random.Random, rules: Rules, players: int, style: str) -> Layout:
    """A layout whose hands come mostly from a few suits and ranks (so melds happen).

    ``style`` "joker-hand": the first player to move (seat 0) holds every joker.
    """
    deck = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    size = rules.hand_size_for(players)
    suits = rng.sample(range(4), rng.choice((1, 2)))
    start = rng.randint(0, 8)
    hot = [c for c in deck if c != JK and suit(c) in suits and start < rank(c) <= start + 6]
    hot += [c for c in deck if c != JK and rank(c) == start + 3]
    rng.shuffle(hot)
    hands: list[list[int]] = [[] for _ in range(players)]
    if style == "joker-hand":
        hands[0] = [JK] * min(rules.jokers, size - 1)
    else:
        hot += [JK] * rules.jokers
        rng.shuffle(hot)
    left = Counter(deck)
    left.subtract(c for h in hands for c in h)
    order: list[int] = []
    for c in hot:
        if left[c] > 0:
            order.append(c)
            left[c] -= 1
    rest = list(left.elements())
    rng.shuffle(rest)
    order += rest
    seat = 0
    while any(len(h) < size for h in hands):
        if len(hands[seat]) < size:
            hands[seat].append(order.pop(0))
        seat = (seat + 1) % players
    pile = (order.pop(0),)
    return Layout(hands=tuple(tuple(h) for h in hands), stock=tuple(order), pile=pile)


def new_deal(name: str, seed: int) -> Deal:
    rules = CONFIGS[name]
    rng = random.Random(f"deal/{name}/{seed}")
    players = rng.choice((2, 2, 3))
    style = rng.choice(("dealt", "stacked", "stacked", "joker-hand"))
    if style == "dealt":
        return Deal.start(rules, players=players, dealer=players - 1, seed=seed)
    if style == "joker-hand" and not rules.jokers:
        style = "stacked"
    layout = stacked_layout(rng, rules, players, style)
    return Deal(rules, players=players, dealer=players - 1, layout=layout)


@dataclass
class Tracker:
    """What the model needs of the turn so far, tracked from the actions played."""

    rules: Rules
    opened: set[int] = field(default_factory=set)
    melds: int = 0
    value: int = 0
    taken: int | None = None
    used_taken: int = 0
    chosen: int | None = None

    def new_turn(self) -> None:
        self.melds = self.value = self.used_taken = 0
        self.taken = self.chosen = None

    def play(self, deal: Deal, action: Action) -> None:
        """Play ``action`` (checked) on ``deal`` and note what it did to the turn."""
        seat = deal.to_move
        kind = action.kind
        if kind == "draw-stock":
            self.new_turn()
        elif kind == "draw-pile":
            self.new_turn()
            self.taken = action.cards[0] if action.cards else deal.pile[-1]
            if self.rules.pile_card_must_be_used:
                self.chosen = self.taken
        elif kind == "discard":
            if self.melds:
                self.opened.add(seat)
            self.new_turn()
        elif kind in ("meld", "layoff"):
            self.used_taken += sum(1 for c in action.cards if c == self.taken)
            if self.chosen is not None and self.chosen in action.cards:
                self.chosen = None
        deal.apply(action)
        if kind == "meld":
            self.melds += 1
            last = deal.table[-1]
            reading = read_as(last.cards, last.kind, self.rules)
            self.value += meld_value(reading, self.rules) if reading else 0

    def turn(self, deal: Deal, table: tuple[Reading, ...]) -> Turn:
        seat = deal.to_move
        pending = self.rules.opening > 0 and seat not in self.opened
        return Turn(
            hand=tuple(sorted(deal.hands[seat])),
            table=table,
            melds=self.melds,
            value=self.value if pending else None,
            taken=self.taken,
            used_taken=self.used_taken,
            chosen=self.chosen,
        )


# -- effects --------------------------------------------------------------------------------


def state_key(deal: Deal) -> tuple[Any, ...]:
    table = tuple(
        (m.kind, tuple(sorted(m.cards)) if m.kind == "set" else tuple(m.cards))
        for m in deal.table
    )
    return (
        tuple(tuple(sorted(h)) for h in deal.hands),
        table,
        tuple(deal.pile),
        tuple(deal.stock),
        deal.phase,
        deal.to_move,
        deal.is_over,
    )


def quick_key(deal: Deal) -> tuple[Any, ...]:
    """A cheap part of :func:`state_key`, checked after every refused action."""
    return (tuple(len(h) for h in deal.hands), len(deal.table), len(deal.pile),
            len(deal.stock), deal.phase, deal.to_move, deal.is_over,
            tuple(len(m.cards) for m in deal.table))


def effect(deal: Deal, action: Action) -> tuple[Any, ...]:
    copy = deal.copy()
    copy.apply(action)
    return state_key(copy)


# -- candidates -----------------------------------------------------------------------------


def plausible(cards: Sequence[int]) -> bool:
    """Whether some ordering could be a meld: the naturals share a rank or a suit."""
    naturals = [c for c in cards if c != JK]
    return len({rank(c) for c in naturals}) <= 1 or len({suit(c) for c in naturals}) <= 1


def meld_candidates(hand: Sequence[int], rules: Rules, rng: random.Random) -> Iterator[Action]:
    if len(hand) <= ORDERINGS_UP_TO:
        for sub in sub_multisets(hand):
            orders = distinct_orderings(sub) if plausible(sub) else {sub}
            for order in sorted(orders):
                yield Action("meld", order)
        return
    # A large hand: every meld the model finds, each run also backwards, and a sample of
    # other sub-multisets in sorted order.
    for meld in sorted(set(melds_of(tuple(sorted(hand)), rules))):
        yield Action("meld", meld)
        if len(set(meld)) > 1:
            yield Action("meld", meld[::-1])
    for _ in range(200):
        yield Action("meld", tuple(sorted(rng.sample(hand, rng.randint(3, len(hand))))))


def candidates(deal: Deal, rng: random.Random) -> Iterator[Action]:
    rules = deal.rules
    hand = sorted(deal.hands[deal.to_move])
    yield Action("draw-stock")
    yield Action("draw-pile")
    for c in sorted(set(deal.pile)):
        yield Action("draw-pile", (c,))
    yield Action("end")
    for c in sorted(set(hand)):
        yield Action("discard", (c,))
        for k in range(1, len(deal.table) + 2):
            yield Action("layoff", (c,), k, False)
            yield Action("layoff", (c,), k, True)
    yield from meld_candidates(hand, rules, rng)


# -- the model's verdict --------------------------------------------------------------------


def has_twins(rules: Rules) -> bool:
    """Whether a deal of these rules holds two equal cards: two decks, or two jokers or
    more."""
    return rules.decks > 1 or rules.jokers > 1


def judge(action: Action, deal: Deal, turn: Turn) -> bool | None:
    """What the rules say of ``action``: legal, illegal, or None where the model abstains.

    The two readings of the taken card's twin (``lenient``) are both tried only where the
    deal has twins. Without them they cannot differ: the taken card is the only copy, so
    it is either still in hand or laid this turn, and :func:`discard_ok` (the one place
    ``lenient`` is read) answers the same both ways.
    """
    readings = (False, True) if has_twins(deal.rules) else (False,)
    try:
        verdicts = {judge_once(action, deal, turn, lenient) for lenient in readings}
    except SearchTooLong:
        return None
    return verdicts.pop() if len(verdicts) == 1 else None


def judge_once(action: Action, deal: Deal, turn: Turn, lenient: bool) -> bool | None:
    rules = deal.rules
    kind = action.kind
    if deal.phase == "draw":
        if kind not in ("draw-stock", "draw-pile", "end"):
            return False
        if not deal.stock:
            return None
        if kind == "end":
            return False
        if kind == "draw-stock":
            taken: list[int] = [deal.stock[-1]]
            chosen = None
        else:
            if not deal.pile:
                return False
            pile = list(deal.pile)
            chosen = action.cards[0] if action.cards else pile[-1]
            if chosen not in pile:
                return False
            if action.cards and rules.draw_pile == "top":
                return None if chosen == pile[-1] else False
            if pile.count(chosen) > 1:
                return None
            taken = pile[pile.index(chosen):]
        after = Turn(
            hand=tuple(sorted([*turn.hand, *taken])),
            table=turn.table,
            value=turn.value,
            taken=chosen,
            chosen=chosen if rules.pile_card_must_be_used else None,
        )
        return finishable(after, rules, lenient)
    if deal.phase != "play":
        return None
    if kind == "discard":
        return discard_ok(turn, action.cards[0], rules, lenient)
    if kind == "meld":
        cards = action.cards
        if not is_sub_multiset(cards, turn.hand):
            return False
        if read_meld(cards, rules) is None:
            some_reading = bool(readings_of(tuple(sorted(cards)), rules))
            return None if some_reading and not naturals_consistent(cards, rules) else False
        return move_ok(after_meld(turn, cards, rules), rules, lenient)
    if kind == "layoff":
        c = action.cards[0]
        k = action.meld
        if not 1 <= k <= len(turn.table) or c not in turn.hand:
            return False
        reading = turn.table[k - 1]
        fits = layoff_results(reading, c, rules)
        if c == JK and reading[0] == "run":
            new = fits.get(action.low)
        else:
            if action.low or len(fits) > 1:
                return None
            new = next(iter(fits.values()), None)
        if new is None:
            return False
        return move_ok(after_layoff(turn, c, k - 1, new, rules), rules, lenient)
    return False


# -- the check of one position --------------------------------------------------------------


def check_position(deal: Deal, tracker: Tracker, rng: random.Random) -> list[str]:
    """Every disagreement at this position (empty when engine and oracle agree)."""
    problems: list[str] = []
    rules = deal.rules
    before = state_key(deal)
    quick = quick_key(deal)
    table: list[Reading] = []
    for number, m in enumerate(deal.table, 1):
        reading = read_as(m.cards, m.kind, rules)
        if reading is None:
            problems.append(f"table meld {number} ({m.kind} {format_cards(m.cards)}) is no meld")
            return problems
        table.append(reading)
    turn = tracker.turn(deal, tuple(table))
    verdicts: dict[Action, bool | None] = {}

    def verdict_of(action: Action) -> bool | None:
        if action not in verdicts:
            verdicts[action] = judge(action, deal, turn)
        return verdicts[action]

    try:
        listed = deal.legal_actions()
    except Exception as error:  # the test reports any failure to list
        return [f"legal_actions() raised {type(error).__name__}: {error}"]
    effects: dict[tuple[Any, ...], Action] = {}
    for action in listed:
        if not deal.can(action):
            problems.append(f"listed {action} fails can()")
            continue
        try:
            key = effect(deal, action)
        except IllegalActionError as error:
            problems.append(f"listed {action} is refused by apply(): {error}")
            continue
        if key in effects:
            problems.append(f"listed {effects[key]} and {action} have the same effect")
        effects[key] = action
        verdict = verdict_of(action)
        if verdict is False:
            problems.append(f"listed {action}, but the rules forbid it")
    seen = set(listed)
    tried: set[Action] = set()
    for action in candidates(deal, rng):
        if action in tried:
            continue
        tried.add(action)
        ok = deal.can(action)
        verdict = verdict_of(action)
        if verdict is not None and verdict != ok:
            says = "allow" if verdict else "forbid"
            problems.append(f"can({action}) is {ok}, but the rules {says} it")
        if ok:
            if action in seen:
                continue
            try:
                key = effect(deal, action)
            except IllegalActionError as error:
                problems.append(f"{action} passes can() but apply() refuses it: {error}")
                continue
            if key not in effects:
                problems.append(f"{action} passes can() but is not listed")
            continue
        try:
            deal.apply(action)
        except IllegalActionError:
            pass
        else:
            problems.append(f"{action} fails can() but apply() plays it")
            return problems
        if quick_key(deal) != quick:
            problems.append(f"refused {action} changed the deal")
            return problems
    if state_key(deal) != before:
        problems.append("a refused action changed the deal")
    return problems


def describe(deal: Deal, tracker: Tracker, problems: list[str]) -> str:
    seat = deal.to_move
    return (
        f"seat {seat} to move ({deal.phase}), hand {format_cards(sorted(deal.hands[seat]))}, "
        f"table {[format_cards(m.cards) for m in deal.table]}, pile {format_cards(deal.pile)}, "
        f"stock {len(deal.stock)}, opened {sorted(tracker.opened)}, taken "
        f"{format_cards([tracker.taken]) if tracker.taken is not None else '-'}; "
        f"history {[str(a) for a in deal.history]}:\n    " + "\n    ".join(problems[:4])
    )


def choose(rng: random.Random, actions: list[Action], deal: Deal) -> Action:
    """Random play that prefers melds and lay-offs and keeps hands small."""
    plays = [a for a in actions if a.kind in ("meld", "layoff")]
    if plays and rng.random() < 0.75:
        return rng.choice(plays)
    hand = len(deal.hands[deal.to_move])
    small = [a for a in actions if not (a.kind == "draw-pile" and a.cards
                                        and hand + len(deal.pile)
                                        - deal.pile.index(a.cards[0]) > ORDERINGS_UP_TO)]
    return rng.choice(small or actions)


def play_and_check(name: str, seeds: range, *, stock_out: bool = False) -> tuple[int, list[str]]:
    """Play seeded deals of a configuration and check positions along the way.

    ``stock_out``: the deals are dealt to six players from ``STOCK_OUT_CONFIGS`` and only
    positions with at most ``STOCK_LOW`` cards in the stock are checked (all of them).
    """
    checked = 0
    failures: list[str] = []
    for seed in seeds:
        if stock_out:
            rules = STOCK_OUT_CONFIGS[name]
            deal = Deal.start(rules, players=6, dealer=5, seed=seed)
        else:
            deal = new_deal(name, seed)
        tracker = Tracker(deal.rules)
        rng = random.Random(f"play/{name}/{seed}")
        for _ in range(STOCK_OUT_STEPS if stock_out else MAX_STEPS):
            if deal.is_over or (deal.rules.draw_pile == "any" and len(deal.pile) > MAX_PILE):
                break
            if (len(deal.stock) <= STOCK_LOW if stock_out
                    else rng.randrange(CHECK_EVERY) == 0):
                checked += 1
                problems = check_position(deal, tracker, rng)
                if problems:
                    failures.append(f"{name} seed {seed}: " + describe(deal, tracker, problems))
                    break
            try:
                actions = deal.legal_actions()
            except Exception:  # reported by check_position when it is checked
                break
            tracker.play(deal, choose(rng, actions, deal))
    return checked, failures


def report(failures: list[str], checked: int) -> None:
    if failures:
        failures.sort(key=len)
        shown = "\n  ".join(failures[:3])
        pytest.fail(f"{len(failures)} deals reached a disagreement ({checked} positions "
                    f"checked), e.g.:\n  {shown}", pytrace=False)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.long
def test_legal_actions_match_brute_force(name: str) -> None:
    checked, failures = play_and_check(name, range(DEALS))
    report(failures, checked)
    assert checked >= DEALS


STOCK_OUT_CONFIGS: dict[str, Rules] = {
    name: preset(name).replace(hand_size=8)
    for name in ("basic", "one-deal", "classic", "rummy500", "limited-stock", "ramino")
}
"""Six players with eight cards each leave a short stock (ramino: 59 cards)."""
STOCK_OUT_DEALS = 12
STOCK_OUT_STEPS = 400
STOCK_LOW = 1


@pytest.mark.parametrize("name", sorted(STOCK_OUT_CONFIGS))
@pytest.mark.long
def test_legal_actions_when_the_stock_runs_out(name: str) -> None:
    """Turning the pile over, refills, ``end`` and stalemates: checks 1-3 (the model
    abstains on draws from an empty stock) and the model on the turns that follow."""
    checked, failures = play_and_check(name, range(STOCK_OUT_DEALS), stock_out=True)
    report(failures, checked)
    assert checked >= STOCK_OUT_DEALS


# -- positions written out ------------------------------------------------------------------


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text.split())]


def layout(rules: Rules, hands: Sequence[str], stock_top: str, pile: str) -> Layout:
    """Hands and pile as written, the stock's top cards as written, the rest in order."""
    rest = [int(c) for c in make_deck(rules.decks, rules.jokers)]
    dealt = [cards(h) for h in hands]
    top = cards(stock_top)
    piled = cards(pile)
    for c in [*(c for h in dealt for c in h), *top, *piled]:
        rest.remove(c)
    return Layout(hands=tuple(tuple(h) for h in dealt), stock=tuple(top + rest),
                  pile=tuple(piled))


def play(deal: Deal, tracker: Tracker, moves: str) -> None:
    for text in moves.split(","):
        tracker.play(deal, Action.parse(text.strip()))


def check_written(deal: Deal, tracker: Tracker) -> None:
    problems = check_position(deal, tracker, random.Random(0))
    assert not problems, describe(deal, tracker, problems)


def test_ramino_twin_of_the_taken_card_laid_off_to_go_out() -> None:
    """Seat 0 opened with JH QH KH and 10C 10D 10S; it takes 10H from the pile, holding its
    twin and AH. Laying off AH leaves the two 10H, which go on the run and on the set."""
    rules = preset("ramino")
    hands = ["JH QH KH 10C 10D 10S 10H AH", "10H 2C 3C 4D 6S 8S 9D JK"]
    deal = Deal(rules, players=2, dealer=1, layout=layout(rules, hands, "5D 7D", "2S"))
    tracker = Tracker(rules)
    play(deal, tracker, "draw stock, meld JH QH KH, meld 10C 10D 10S, discard 5D, "
                        "draw stock, discard 10H, draw pile")
    assert deal.can(Action.parse("layoff AH 1")), "layoff AH 1 is refused"
    check_written(deal, tracker)


def test_ramino_one_natural_and_four_jokers_replacing_naturals() -> None:
    """JK JK QH JK JK (10 to the high ace, worth 51) with KH left in hand."""
    rules = preset("ramino")
    hands = ["QH KH JK JK JK JK 2C 3D", "4C 5C 6S 7S 8D 9D 2S 3S"]
    deal = Deal(rules, players=2, dealer=1, layout=layout(rules, hands, "9H", "5S"))
    tracker = Tracker(rules)
    play(deal, tracker, "draw stock")
    meld = Action.parse("meld JK JK QH JK JK")
    assert deal.can(meld)
    check_written(deal, tracker)


@pytest.mark.parametrize("phase", ["draw", "play"])
@pytest.mark.parametrize("rules", [preset("rummy500"), preset("basic").replace(
    aces="high-low", hand_size=(13, 7, 7, 6, 6))], ids=["rummy500", "basic-high-low"])
def test_whole_suit_in_hand(rules: Rules, phase: str) -> None:
    """13 hearts in hand, aces high and low: the meld list must not break."""
    hands = ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"]
    deal = Deal(rules, players=2, dealer=1, layout=layout(rules, hands, "9S", "4D"))
    tracker = Tracker(rules)
    if phase == "play":
        play(deal, tracker, "draw stock")
    check_written(deal, tracker)


@pytest.mark.uncompiled
def test_the_oracle_judges_written_positions() -> None:
    """The model alone, on positions whose answers are worked out by hand."""
    ramino = preset("ramino")
    table: tuple[Reading, ...] = (("run", 2, 11, 14), ("set", 10, frozenset({0, 1, 3}), 3))
    ten_h, ace_h = cards("10H AH")
    # holding 10H 10H (one taken) and AH: laying off AH leaves a way out
    turn = Turn(hand=tuple(sorted([ten_h, ten_h, ace_h])), table=(("run", 2, 11, 13),
                table[1]), taken=ten_h)
    new = layoff_results(turn.table[0], ace_h, ramino)
    assert list(new) == [False]
    for lenient in (False, True):
        assert move_ok(after_layoff(turn, ace_h, 0, new[False], ramino), ramino, lenient)
    # taken card alone in hand, no lay-off: a dead end
    stuck = Turn(hand=(ten_h,), table=(), taken=ten_h)
    assert not finishable(stuck, ramino, True)
    assert finishable(stuck, preset("limited-stock"), False)
    # an opening of 36 cannot end the turn; 66 can
    short = Turn(hand=(1, 2), table=(), melds=1, value=36)
    assert not discard_ok(short, 1, ramino, True)
    assert discard_ok(Turn(hand=(1, 2), table=(), melds=1, value=66), 1, ramino, True)
    assert meld_value(("run", 2, 10, 14), ramino) == 51
    assert canonical(cards("JK 5H JK"), ramino) == tuple(sorted(cards("5H JK JK")))
