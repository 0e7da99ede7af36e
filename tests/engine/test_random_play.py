"""Random play in every preset: the invariants of RULES.md "What any engine of these rules
must get right", checked at every step of hypothesis-generated deals and matches.

- a card is never created or lost: hands + stock + pile + table is the deck (a multiset);
- every deal ends (here: within ``MAX_ACTIONS`` actions of random play);
- no dead ends: a deal that is not over always offers a legal action;
- every listed legal action passes the checked path (``verify``/``apply``), and what the
  checked path accepts is listed (for discards, lay-offs and melds);
- a random illegal action is refused with :class:`IllegalActionError` and the state is
  unchanged;
- a view never holds another seat's hand nor the stock's order;
- the same rules, seed and choices give the same deal (determinism).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import CARDS, JOKER_CODE, Card, make_deck
from rummykit.engine import Action, Deal, Layout, Match
from rummykit.engine.melds import make_meld
from rummykit.engine.views import view
from rummykit.errors import IllegalActionError, NotationError
from rummykit.rules import PRESETS, Rules, preset

PRESET_NAMES = sorted(PRESETS)
MAX_ACTIONS = 5_000
MAX_DEALS = 200

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

presets_st = st.sampled_from(PRESET_NAMES)
players_st = st.integers(min_value=2, max_value=6)
seeds_st = st.integers(min_value=0, max_value=2**32 - 1)
# The choice sequence: explicit choices for the first actions, then a seeded generator.
choices_st = st.tuples(
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
    st.integers(min_value=0, max_value=2**32 - 1),
)


class Chooser:
    """Picks an index from the choice sequence: the explicit prefix, then a seeded RNG."""

    def __init__(self, choices: tuple[list[int], int]) -> None:
        self.prefix = list(choices[0])
        self.rng = random.Random(choices[1])

    def pick(self, n: int) -> int:
        if self.prefix:
            return self.prefix.pop(0) % n
        return self.rng.randrange(n)


# -- state helpers ---------------------------------------------------------------------


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything about a deal that an action could change."""
    return (
        tuple(tuple(h) for h in deal.hands),
        tuple(deal.stock),
        tuple(deal.pile),
        tuple((m.kind, m.cards, m.layers, m.owner) for m in deal.table),
        deal.to_move,
        deal.phase,
        deal.taken,
        deal.pending,
        deal.turn_melds,
        deal.turn_overs_used,
        deal.refills_used,
        tuple(deal.opened(s) for s in range(deal.players)),
        # An action can only add to the history: its length and its last move tell (the
        # whole history, read at every check, made the random-play tests quadratic).
        deal.move_count,
        tuple(deal.moves_since(max(deal.move_count - 1, 0))),
        deal.result,
    )


def deck_counter(rules: Rules) -> Counter[int]:
    return Counter(int(c) for c in make_deck(rules.decks, rules.jokers))


def table_cards(deal: Deal) -> list[int]:
    return [c for m in deal.table for c in m.cards]


def assert_cards_conserved(deal: Deal, deck: Counter[int]) -> None:
    where = Counter(c for h in deal.hands for c in h)
    where.update(deal.stock)
    where.update(deal.pile)
    where.update(table_cards(deal))
    assert where == deck, f"cards created or lost: {where - deck} extra, {deck - where} missing"
    assert deal.card_count() == sum(deck.values())


def normal_form(rules: Rules, action: Action) -> Action:
    """A meld written in another order of the same set is the same action."""
    if action.kind != "meld":
        return action
    try:
        meld = make_meld(action.cards, rules, 0)
    except IllegalActionError:
        return action
    if meld.kind == "set":
        naturals = sorted(c for c in action.cards if c != JOKER_CODE)
        jokers = len(action.cards) - len(naturals)
        return Action("meld", (*naturals, *(JOKER_CODE,) * jokers))
    return action


# -- illegal actions ---------------------------------------------------------------------


def illegal_candidates(deal: Deal, rng: random.Random) -> list[Action]:
    """Actions that the rules forbid now, whatever the position."""
    seat = deal.to_move
    hand = deal.hands[seat]
    held = Counter(hand)
    absent = [c for c in range(JOKER_CODE + 1) if held[c] == 0]
    out: list[Action] = []
    if absent:
        c = rng.choice(absent)
        out.append(Action("discard", (c,)))
        out.append(Action("layoff", (c,), max(1, len(deal.table)), False))
        if hand:
            out.append(Action("meld", (c, *rng.sample(hand, min(2, len(hand))))))
    if hand:
        c = rng.choice(hand)
        # A meld number that does not exist.
        out.append(Action("layoff", (c,), len(deal.table) + 1 + rng.randrange(3), False))
        # Fewer than three cards never form a meld.
        out.append(Action("meld", (c,)))
    if deal.phase == "draw":
        # Any play-phase action before drawing.
        if hand:
            out.append(Action("discard", (rng.choice(hand),)))
            out.append(Action("meld", tuple(rng.sample(hand, min(3, len(hand))))))
        if deal.stock and deal.rules.stock_out == "end":
            out.append(Action("end"))
        if deal.rules.stock_out != "end":
            out.append(Action("end"))
        not_in_pile = [c for c in range(JOKER_CODE + 1) if c not in deal.pile]
        if not_in_pile:
            out.append(Action("draw-pile", (rng.choice(not_in_pile),)))
        if deal.rules.draw_pile == "top" and len(deal.pile) >= 2:
            below = [c for c in deal.pile[:-1] if c != deal.pile[-1]]
            if below:
                out.append(Action("draw-pile", (rng.choice(below),)))
    elif deal.phase == "play":
        out.append(Action("draw-stock"))
        out.append(Action("draw-pile"))
        out.append(Action("end"))
    return out


def play_candidates(deal: Deal, rng: random.Random) -> Iterator[Action]:
    """Some well-formed play-phase actions with cards from the hand (legal or not)."""
    hand = deal.hands[deal.to_move]
    for c in set(hand):
        yield Action("discard", (c,))
        for number in range(1, len(deal.table) + 1):
            yield Action("layoff", (c,), number, False)
    if len(hand) >= 3:
        for _ in range(6):
            size = rng.choice((3, 4)) if len(hand) >= 4 else 3
            cards = sorted(rng.sample(hand, size))
            yield Action("meld", tuple(cards))
        # Every run of three consecutive cards the hand holds, in order.
        for a, b, c in itertools.combinations(sorted(set(hand) - {JOKER_CODE}), 3):
            if a // 13 == b // 13 == c // 13 and b == a + 1 and c == b + 1:
                yield Action("meld", (a, b, c))


# -- views -------------------------------------------------------------------------------

CARD_NAMES = {str(c) for c in CARDS}
EVENT_KEYS = frozenset({"history", "pile_draws", "legal_actions"})
PUBLIC_KEYS = frozenset({"pile", "table", "history", "pile_draws", "legal_actions", "last_deal"})


def card_lists(
    value: Any, path: tuple[str, ...] = (), skip: frozenset[str] = frozenset()
) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """Every non-empty list of card names in a JSON value, with its path (top-level keys in
    ``skip`` are left out)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not path and key in skip:
                continue
            yield from card_lists(item, (*path, str(key)))
    elif isinstance(value, list):
        if value and all(isinstance(x, str) and x in CARD_NAMES for x in value):
            yield path, value
        for i, item in enumerate(value):
            if isinstance(item, (list, dict)):
                yield from card_lists(item, (*path, str(i)))


def card_tokens(value: Any) -> Counter[str]:
    """Every card named anywhere in a JSON value (in lists or in action strings)."""
    found: list[str] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            found.extend(w for w in item.split() if w in CARD_NAMES)
    return Counter(found)


def names(cards: list[int]) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def public_cards(deal: Deal) -> set[str]:
    """Cards that everyone has seen in this deal: the first pile card, every card named by
    an action (discards, melds, lay-offs, chosen pile cards), and every card taken from the
    pile (the cards above a chosen one included)."""
    seen = set(names(list(deal.layout.pile)))
    for action in deal.history:
        seen.update(names(list(action.cards)))
    seen.update(names(list(deal.pile)))
    seen.update(names(table_cards(deal)))
    return seen


def assert_view_private(game: Match | Deal, deal: Deal, seat: int) -> None:
    v = view(game, seat)
    data = v.to_json()
    json.dumps(data)  # JSON-ready
    hand = deal.hands[seat]
    over = deal.is_over
    assert list(v.hand) == sorted(hand)
    assert sorted(data["hand"]) == sorted(names(hand))
    assert data["hand_sizes"] == [len(h) for h in deal.hands]
    assert v.stock_size == len(deal.stock)
    assert v.pile_size == len(deal.pile)
    if deal.rules.draw_pile == "any":
        assert data["pile"] == names(deal.pile)
    else:
        assert data["pile"] == names(deal.pile[-1:])
    assert [m["cards"] for m in data["table"]] == [names(list(m.cards)) for m in deal.table]
    if seat == deal.to_move and not over:
        assert [Action.parse(a) for a in data["legal_actions"]] == deal.legal_actions()
    else:
        assert data["legal_actions"] == []
    if over:
        return
    assert data["revealed_hands"] is None
    # No card list equal to another seat's hand, unless that hand is public knowledge
    # anyway (equal to the viewer's own hand, the visible pile or a meld: two decks).
    public_lists = [Counter(data["hand"]), Counter(data["pile"])] + [
        Counter(m["cards"]) for m in data["table"]
    ]
    private_lists = [(path, Counter(cards)) for path, cards in card_lists(data, skip=PUBLIC_KEYS)]
    for other in range(deal.players):
        if other == seat or not deal.hands[other]:
            continue
        theirs = Counter(names(deal.hands[other]))
        if theirs in public_lists:
            continue
        for path, cards in private_lists:
            assert cards != theirs, f"seat {seat} sees seat {other}'s hand at {path}"
    # The stock's order is never in a view. (The last deal's record is left out: it was
    # all shown when that deal ended, before this deal's stock was shuffled, and a short
    # stock can match one of its hands by chance.)
    stock_top_first = names(deal.stock[::-1])
    if len(stock_top_first) >= 2:
        for path, cards in card_lists(data, skip=EVENT_KEYS | {"last_deal"}):
            assert cards not in (stock_top_first, stock_top_first[::-1]), (
                f"seat {seat} sees the stock order at {path}"
            )
    # One deck: a card that was never face up and is not in the viewer's hand is named
    # nowhere in the view (another hand's cards, the stock's cards).
    if deal.rules.decks == 1 and deal.rules.jokers == 0:
        secret = CARD_NAMES - public_cards(deal) - set(data["hand"]) - {"JK"}
        # (The history is public and grows by one action a step: only its end is new.)
        recent = {k: v for k, v in data.items() if k not in ("last_deal", "history")}
        named = card_tokens(recent) + card_tokens(data["history"][-2:])
        leaked = sorted(set(named) & secret)
        assert not leaked, f"seat {seat} sees cards never shown: {leaked}"


# -- one deal of random play -----------------------------------------------------------


def play_deal(
    deal: Deal,
    chooser: Chooser,
    rng: random.Random,
    *,
    check_everything: bool,
    game: Match | Deal | None = None,
) -> list[tuple[int, str]]:
    """Play a deal to its end by random legal actions through the checked path, checking
    the invariants; return the trace (number of legal actions, action chosen)."""
    rules = deal.rules
    deck = deck_counter(rules)
    trace: list[tuple[int, str]] = []
    game = deal if game is None else game
    assert_cards_conserved(deal, deck)
    if deal.move_count == 0:
        with pytest.raises(IndexError):
            deal.last_move()
    while not deal.is_over:
        assert len(trace) < MAX_ACTIONS, f"the deal did not end within {MAX_ACTIONS} actions"
        legal = deal.legal_actions()
        assert legal, f"dead end: no legal action in phase {deal.phase} after {deal.history[-5:]}"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        if check_everything:
            for action in legal:
                deal.verify(action)  # every listed action passes the checked path
            # Every seat's view now and then, the mover's and one other seat's often (a view
            # holds the whole public history, so all of them at every step is slow).
            step = len(trace)
            if step % 20 == 0:
                seats = list(range(deal.players))
            elif step < 40 or step % 3 == 0:
                seats = [deal.to_move, rng.randrange(deal.players)]
            else:
                seats = []
            for seat in seats:
                assert_view_private(game, deal, seat)
            # Random illegal actions: refused, naming the rule; the state is unchanged.
            before = snapshot(deal)
            for action in illegal_candidates(deal, rng):
                assert action not in legal
                with pytest.raises(IllegalActionError) as err:
                    deal.apply(action)
                assert str(err.value)
                assert not deal.can(action)
                assert snapshot(deal) == before, f"{action} changed the state"
            # What the checked path accepts is listed (the listing is complete).
            if deal.phase == "play":
                listed = {normal_form(rules, a) for a in legal}
                for action in play_candidates(deal, rng):
                    accepted = deal.can(action)
                    assert accepted == (normal_form(rules, action) in listed), (
                        f"{action}: can() says {accepted} but the legal list disagrees"
                    )
                assert snapshot(deal) == before
        action = legal[chooser.pick(len(legal))]
        mover = deal.to_move
        trace.append((len(legal), str(action)))
        played = deal.apply(str(action)) if check_everything else deal.apply(action)
        assert played == action
        assert_cards_conserved(deal, deck)
        assert deal.moves_since(deal.move_count - 1)[0][1] == action
        assert deal.last_move() == (mover, action)
    # Over: nothing more is accepted.
    assert deal.legal_actions() == []
    before = snapshot(deal)
    for text in ("draw stock", "draw pile", "end"):
        with pytest.raises(IllegalActionError):
            deal.apply(text)
    assert snapshot(deal) == before
    result = deal.result
    assert result is not None
    assert len(result.points) == deal.players
    if result.winner is None:
        assert not result.rummy
    else:
        assert deal.hands[result.winner] == []
    if check_everything:
        for seat in range(deal.players):
            assert_view_private(game, deal, seat)
    return trace


@SETTINGS
@given(preset_name=presets_st, players=players_st, seed=seeds_st, choices=choices_st)
@pytest.mark.long
def test_random_deal_invariants(
    preset_name: str, players: int, seed: int, choices: tuple[list[int], int]
) -> None:
    rules = preset(preset_name)
    dealer = seed % players
    deal = Deal.start(rules, players=players, dealer=dealer, seed=seed)
    assert deal.to_move == (dealer + 1) % players
    assert all(len(h) == rules.hand_size_for(players) for h in deal.hands)
    trace = play_deal(deal, Chooser(choices), random.Random(seed), check_everything=True)

    # Determinism: the same rules, seed and choices give the same deal, step by step.
    again = Deal.start(rules, players=players, dealer=dealer, seed=seed)
    assert again.layout == deal.layout
    trace2 = play_deal(again, Chooser(choices), random.Random(seed), check_everything=False)
    assert trace2 == trace
    assert again.result == deal.result
    assert snapshot(again) == snapshot(deal)
    assert again.history == deal.history


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_every_preset_and_player_count(preset_name: str, players: int) -> None:
    """The same checks as above for every preset and player count, whatever hypothesis
    draws (one fixed seed each)."""
    seed = 1000 + 10 * players + PRESET_NAMES.index(preset_name)
    deal = Deal.start(preset(preset_name), players=players, dealer=players - 1, seed=seed)
    assert deal.to_move == 0
    play_deal(deal, Chooser(([], seed)), random.Random(seed), check_everything=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset_name=presets_st, players=players_st, seed=seeds_st, choices=choices_st)
def test_random_match_invariants(
    preset_name: str, players: int, seed: int, choices: tuple[list[int], int]
) -> None:
    """Whole matches: totals are the sums of the deals' points, every deal is dealt by the
    rules' next dealer, the match ends, and it replays identically.

    Random players rarely reach a target (in rummy500 their totals mostly fall), so the
    target presets play at most ``deals=4`` deals here."""
    rules = preset(preset_name)
    if rules.match_end == "target":
        rules = rules.replace(deals=4)
    chooser = Chooser(choices)
    match = Match(rules, players=players, seed=seed)
    deals_seen = 0
    while not match.is_over:
        assert len(match.finished) < MAX_DEALS, "the match did not end"
        deal = match.deal
        assert all(
            len(h) == (rules.hand_size_for(sum(match.active)) if match.active[s] else 0)
            for s, h in enumerate(deal.hands)
        )
        steps = 0
        while not match.is_over and match.deal is deal:
            assert steps < MAX_ACTIONS
            legal = deal.legal_actions()
            assert legal
            if steps % 50 == 0:
                for seat in range(players):
                    assert_view_private(match, deal, seat)
            match.apply(legal[chooser.pick(len(legal))])
            steps += 1
        deals_seen += 1
        assert len(match.finished) == deals_seen
        assert match.finished[-1] is deal and deal.is_over
        if not match.is_over:
            nxt = match.deal
            result = deal.result
            assert result is not None
            if rules.next_dealer == "winner" and result.winner is not None:
                assert nxt.dealer == result.winner
            else:
                expect = (deal.dealer + 1) % players
                while not match.active[expect]:
                    expect = (expect + 1) % players
                assert nxt.dealer == expect
    if rules.deals is not None:
        assert len(match.finished) <= rules.deals
    if rules.match_end == "one-deal":
        assert len(match.finished) == 1
    if rules.match_end == "dealt-once":
        assert len(match.finished) <= players
    sums = [sum(d.result.points[s] for d in match.finished if d.result) for s in range(players)]
    assert match.totals == sums
    if match.winner is not None:
        assert 0 <= match.winner < players
    # The same seed and choices give the same match.
    again = Match(rules, players=players, seed=seed)
    chooser = Chooser(choices)
    while not again.is_over:
        legal = again.deal.legal_actions()
        again.apply(legal[chooser.pick(len(legal))])
    assert again.totals == match.totals
    assert again.winner == match.winner
    assert [d.history for d in again.finished] == [d.history for d in match.finished]


# -- targeted checks of the same invariants ----------------------------------------------


def test_illegal_action_kinds_are_refused_by_phase() -> None:
    """Each kind of illegal action named by the brief, in a known position."""
    deal = Deal.start(preset("classic"), players=2, dealer=0, seed=11)
    before = snapshot(deal)
    hand = deal.hands[deal.to_move]
    missing = next(c for c in range(52) if c not in hand and c not in deal.pile)
    for text in (f"discard {CARDS[hand[0]]}", f"meld {CARDS[hand[0]]} {CARDS[hand[1]]} "
                 f"{CARDS[hand[2]]}", "end", f"draw pile {CARDS[missing]}"):
        with pytest.raises(IllegalActionError):
            deal.apply(text)
        assert snapshot(deal) == before
    with pytest.raises(IllegalActionError, match="must draw first"):
        deal.apply(f"discard {CARDS[hand[0]]}")
    deal.apply("draw stock")
    before = snapshot(deal)
    hand = deal.hands[deal.to_move]
    missing = next(c for c in range(52) if c not in hand)
    cases = {
        "draw stock": "drawn already",
        "draw pile": "drawn already",
        f"discard {CARDS[missing]}": "not in your hand",
        f"layoff {CARDS[hand[0]]} 1": "no meld 1",
        f"layoff {CARDS[hand[0]]} 7": "no meld 7",
        "end": "end",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            deal.apply(text)
        assert snapshot(deal) == before


def test_notation_errors_change_nothing() -> None:
    deal = Deal.start(preset("basic"), players=3, dealer=0, seed=2)
    before = snapshot(deal)
    for text in ("draw", "fly away", "discard XX", "meld", "layoff 5H", ""):
        with pytest.raises(NotationError):
            deal.apply(text)
    assert snapshot(deal) == before


def _layout(rules: Rules, hands: list[str], pile: str) -> Layout:
    """A layout with these hands and pile; the rest of the deck is the stock (in order)."""
    hand_cards = [tuple(int(Card.parse(w)) for w in h.split()) for h in hands]
    pile_cards = tuple(int(Card.parse(w)) for w in pile.split())
    rest = Counter(int(c) for c in make_deck(rules.decks, rules.jokers))
    rest.subtract(c for h in hand_cards for c in h)
    rest.subtract(pile_cards)
    stock = tuple(c for c in sorted(rest) for _ in range(rest[c]))
    return Layout(tuple(hand_cards), stock, pile_cards)


def test_rummy500_required_last_discard_pile_draw_is_no_dead_end() -> None:
    rules = Rules.parse("rummy500(hand_size=2,last_discard=required)")
    deal = Deal(rules, players=2, dealer=0, layout=_layout(rules, ["2C 9D", "5H 6H"], "7H"))
    # 7H can be used only in 5H 6H 7H, which would leave no card to discard.
    assert Action.parse("draw pile") not in deal.legal_actions()
    with pytest.raises(IllegalActionError):
        deal.apply("draw pile")


def test_rummy500_opening_pile_draw_is_no_dead_end() -> None:
    rules = Rules.parse("rummy500(hand_size=2,opening=50)")
    deal = Deal(rules, players=2, dealer=0, layout=_layout(rules, ["2C 9D", "5H 6H"], "7H"))
    # 5H 6H 7H is worth 18 < 50: the 7H could not be melded this turn.
    assert Action.parse("draw pile") not in deal.legal_actions()
    with pytest.raises(IllegalActionError):
        deal.apply("draw pile")


def test_rummy500_pile_draw_that_can_be_used_is_legal() -> None:
    """The control case of the two above: with the default rules the draw is legal and
    the player goes out with the meld."""
    rules = Rules.parse("rummy500(hand_size=2)")
    deal = Deal(rules, players=2, dealer=0, layout=_layout(rules, ["2C 9D", "5H 6H"], "7H"))
    assert Action.parse("draw pile") in deal.legal_actions()
    deal.apply("draw pile")
    assert deal.legal_actions() == [Action.parse("meld 5H 6H 7H")]
    deal.apply("meld 5H 6H 7H")
    assert deal.is_over and deal.result is not None and deal.result.winner == 1


def test_low_joker_layoff_on_a_set_is_refused() -> None:
    """'low' places a joker at a run's low end: on a set it is refused (one notation for
    one lay-off), and the state is unchanged."""
    rules = preset("ramino")
    deal = Deal(rules, players=2, dealer=0, layout=_layout(
        rules, ["2C 3C 4C 5C 6C 7C 8C 9C", "KH KS KD QH QS QD JK 2D"], "9H"))
    deal.apply("draw stock")
    deal.apply("meld KD KH KS")
    deal.apply("meld QD QH QS")  # 60: seat 1 has opened
    assert deal.can(Action.parse("layoff JK 1"))
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="low"):
        deal.apply("layoff JK 1 low")
    assert snapshot(deal) == before


def test_turn_over_limit_ends_the_deal() -> None:
    """A deal always ends: with turn_overs=0 the first empty stock is a stalemate."""
    rules = preset("basic").replace(turn_overs=0)
    deal = Deal.start(rules, players=2, dealer=0, seed=4)
    turns = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        draw = [a for a in legal if a.kind == "draw-stock"]
        discards = [a for a in legal if a.kind == "discard"]
        deal.apply(draw[0] if draw else (discards[-1] if discards else legal[0]))
        turns += 1
        assert turns < 200
    assert deal.result is not None
    assert deal.stock == [] and deal.turn_overs_used == 0
    assert deal.result.winner is None and deal.result.points == (0, 0)


DIGEST_SCRIPT = """
import hashlib, sys
from rummykit.engine import Deal
from rummykit.rules import PRESETS, preset
h = hashlib.sha256()
for name in sorted(PRESETS):
    for players in (2, 5):
        deal = Deal.start(preset(name), players=players, dealer=1, seed=77)
        k = 0
        while not deal.is_over:
            legal = deal.legal_actions()
            h.update(repr([str(a) for a in legal]).encode())
            # Always the stock when it can be drawn (a pile-only cycle may never end).
            stock = [a for a in legal if a.kind == "draw-stock"]
            deal.apply(stock[0] if stock else legal[(k * 7919) % len(legal)])
            k += 1
        h.update(repr((deal.result, deal.hands, deal.stock, deal.pile)).encode())
print(h.hexdigest())
"""


def test_same_seed_same_deal_in_other_processes() -> None:
    """Determinism does not hang on the process: the same digest of whole deals (every
    legal-action list, the result, the final position) under different hash seeds."""
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-c", DIGEST_SCRIPT], capture_output=True,
                              text=True, env=env, timeout=120, check=True)
        digests.add(proc.stdout.strip())
    # And the same as in this process.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(DIGEST_SCRIPT, {})
    digests.add(out.getvalue().strip())
    assert len(digests) == 1
    assert len(digests.pop()) == 64
