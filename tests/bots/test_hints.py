"""Hints (rummykit.bots.hints): the master's action for a seat, with a reason that names
what decided it, read from the seat's view only."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.bots import hints, make_bot
from rummykit.bots.hints import REASONS, hint, reason_parts, render
from rummykit.bots.master import MasterBot, Search
from rummykit.cards import parse_cards
from rummykit.engine import Action, Deal, Layout, determinize
from rummykit.engine.views import View, view
from rummykit.rules import PRESETS, Rules
from tests.engine.rules._build_basic import layout

BUDGET = 6
"""Imagined deals per hint: enough to exercise the search, few enough to stay quick."""


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text.split())]


RUN_START = "7C 8C 2D 5D KH QS 3S 6H JD 4S"
"""Seat 0's hand in the positions below: 7C 8C want a 6C or 9C, the rest is loose."""
CLUBS = "AC 2C 3C 4C 5C 6C AD 3D 4D 6D"
"""Seat 1's hand (it takes no part in the hints)."""


def position(rules: Rules, hand: str, pile: str, stock_top: str = "") -> Deal:
    """A deal from a hand-made layout: seat 0 holds ``hand`` and is to move (seat 1
    deals and holds :data:`CLUBS`)."""
    return Deal(rules, players=2, dealer=1,
                layout=layout(rules, [hand, CLUBS], pile, stock_top))


def played_views(rules_text: str, players: int, seed: int, every: int = 5) -> list[View]:
    """Views of the player to move at every ``every``-th decision of a deal of experts."""
    rules = Rules.parse(rules_text)
    deal = Deal.start(rules, players=players, dealer=0, seed=seed)
    expert = make_bot("expert")
    rng = random.Random(seed)
    out = []
    step = 0
    while not deal.is_over and step < 300:
        v = view(deal, deal.to_move)
        if step % every == 0 and len(v.legal_actions) > 1:
            out.append(v)
        deal.push(expert.choose(v, rng))
        step += 1
    return out


def test_hint_takes_the_pile_card_that_completes_a_run_and_says_so() -> None:
    """A 9C on the pile completes 7C 8C 9C: the hint takes it and names the run."""
    rules = Rules.parse("classic")
    deal = position(rules, RUN_START, pile="9C")
    h = hint(view(deal, 0), rng=random.Random(0), rollouts=BUDGET)
    assert h.action == Action("draw-pile")
    assert "takes" not in h.reason  # the reason speaks to the player: "take the 9C"
    assert h.reason.startswith("take the 9C from the pile")
    assert "completes 7C 8C 9C" in h.reason


def test_hint_declines_a_pile_card_that_joins_nothing() -> None:
    """A KD that joins nothing in hand: draw from the stock, and the reason says why."""
    rules = Rules.parse("classic")
    deal = position(rules, "7C 8C 2D 5D 10H QS 3S 6H JD 4S", pile="KD")
    h = hint(view(deal, 0), rng=random.Random(0), rollouts=BUDGET)
    assert h.action == Action("draw-stock")
    assert "KD" in h.reason and "joins no meld" in h.reason


def test_a_discard_hint_names_the_card_and_what_it_keeps() -> None:
    """After the draw, seat 0 holds 7C 8C (a run in the making) and high loose cards: the
    hint discards a card that is not 7C or 8C and says it keeps them."""
    rules = Rules.parse("classic")
    deal = position(rules, RUN_START, pile="9H", stock_top="10S")
    deal.apply(Action("draw-stock"))
    h = hint(view(deal, 0), rng=random.Random(0), rollouts=BUDGET)
    assert h.action.kind == "discard"
    thrown = str(parse_cards([str(h.action).split()[1]])[0])
    assert thrown not in ("7C", "8C")
    assert h.reason.startswith(f"discard {thrown}: {thrown} ")
    assert "keeps 7C 8C for a run" in h.reason


def test_a_meld_hint_counts_the_points_it_takes_out_of_hand() -> None:
    rules = Rules.parse("basic")
    deal = position(rules, "7C 8C 9C 2D 5D KH QS 3S 6H JD", pile="KD", stock_top="4S")
    deal.apply(Action("draw-stock"))
    h = hint(view(deal, 0), rng=random.Random(0), rollouts=BUDGET)
    if h.action.kind == "meld":
        assert h.reason.startswith("meld 7C 8C 9C: 24 points out of your hand")
    else:
        # Going rummy pays double in basic: a meld held back is named with that reason.
        assert "holds 7C 8C 9C back to go out all at once (rummy pays 2x)" in h.reason


def test_the_only_legal_action_is_hinted_at_once() -> None:
    """With one legal action there is nothing to search: the hint is that action."""
    v = played_views("classic", 2, seed=2)[0]
    only = dataclasses.replace(v, legal_actions=v.legal_actions[:1])
    h = hint(only, rng=random.Random(0), rollouts=BUDGET)
    assert h.action == v.legal_actions[0]
    assert h.searched == 0 and "only legal action" in h.reason


def test_no_hint_for_a_seat_that_is_not_to_move() -> None:
    deal = Deal.start(Rules.parse("classic"), players=2, dealer=0, seed=1)
    with pytest.raises(ValueError, match="player to move"):
        hint(view(deal, 0), rollouts=BUDGET)


@pytest.mark.parametrize("rules_text", sorted(PRESETS))
def test_hints_are_legal_and_never_depend_on_hidden_cards(rules_text: str) -> None:
    """For positions of every preset: the hint is a legal action with a reason, and a deal
    that shows the seat the same view but deals the hidden cards otherwise gets the same
    hint (same seed, same budget). The two deals really differ in hidden cards."""
    checked = 0
    for v in played_views(rules_text, 2, seed=7, every=6)[:4]:
        seat = v.seat
        source = determinize(v, random.Random(1))
        other = determinize(v, random.Random(2))
        opponent = 1 - seat
        if sorted(source.hands[opponent]) == sorted(other.hands[opponent]) and (
                source.stock == other.stock):
            continue
        a, b = view(source, seat), view(other, seat)
        assert a.hand == b.hand and a.legal_actions == b.legal_actions
        first = hint(a, rng=random.Random(5), rollouts=BUDGET)
        second = hint(b, rng=random.Random(5), rollouts=BUDGET)
        assert first == second
        assert first.action in v.legal_actions and first.reason
        # The reason is made of pieces a front end can translate, and says the same.
        assert first.parts and all(code in REASONS for code, _ in first.parts)
        assert render(first.parts) == first.reason
        checked += 1
    assert checked >= 2


def test_a_choice_the_search_changed_says_by_how_much_and_what_going_out_counted() -> None:
    """Where the search replaced the expert's choice, the reason gives the gain it found
    and, when the search counted going out as points on top of the deal's, how many."""
    v = played_views("classic", 2, 3)[0]
    baseline, other = v.legal_actions[0], v.legal_actions[1]
    for win, code in ((20.0, "more.search-out"), (0.0, "more.search")):
        found = Search(other, baseline, (baseline, other), (0.0, 2.5), 64, 0.1, (0.0, 2.5), win)
        last = reason_parts(v, other, found)[-1]
        assert last[0] == code
        assert last[1]["gain"] == "+2.5" and last[1]["worlds"] == "64"
        assert last[1].get("win") == ("20" if win else None)
    assert "going out counted 20 points more" in render(reason_parts(v, other, Search(
        other, baseline, (baseline, other), (0.0, 2.5), 64, 0.1, (0.0, 2.5), 20.0)))
    # The master's search tells what going out counted in it (the hints' master has the
    # defaults).
    assert MasterBot(rollouts=4).search(v, random.Random(1)).win == 20.0
    assert MasterBot(rollouts=4, win=0).search(v, random.Random(1)).win == 0.0


def test_hint_without_a_generator_is_seeded_by_the_view() -> None:
    """No rng given: the same view gets the same hint twice."""
    v = played_views("classic", 2, seed=3, every=4)[1]
    assert hint(v, rollouts=BUDGET) == hint(v, rollouts=BUDGET)


def test_the_default_budget_is_a_count_so_a_position_asked_twice_gets_one_hint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither budget given: the search plays :data:`ROLLOUTS` imagined deals (the time
    cap only a backstop, lifted here so that a slow machine cannot cut it short), seeded
    from the position: asked twice, the same hint."""
    monkeypatch.setattr(hints, "THINK", 60.0)
    monkeypatch.setattr(hints, "ROLLOUTS", 12)
    v = played_views("classic", 2, seed=3, every=4)[2]
    first, again = hint(v), hint(v)
    assert first == again
    assert first.searched in (0, 12)


@pytest.mark.parametrize(("hand", "pile", "said"), [
    # 3H with 3S in hand: one card short of a set (what a player would call it).
    ("3S 8C 9D 5S KH QS JC 7D AS 10H", "3H", "with your 3S it is one card short of a set"),
    # 5H with 7H (no 5 of another suit): one card short of a run (6H between).
    ("7H 8C 2S QS KD 3S JC 10D AS 9C", "5H", "with your 7H it is one card short of a run"),
])
def test_a_pile_card_that_makes_no_meld_is_never_said_to(hand: str, pile: str,
                                                         said: str) -> None:
    """When the hint takes a pile card that completes no meld and fits none on the table,
    the reason says what is true of it: the card of the hand it is one short of a meld
    with."""
    rules = Rules.parse("classic")
    deal = position(rules, hand, pile=pile)
    parts = reason_parts(view(deal, 0), Action("draw-pile"))
    text = render(parts)
    assert text == f"take the {pile} from the pile: {said}"
    assert "points in melds" not in text


def test_a_pile_card_that_goes_with_nothing_is_the_searchs_choice_or_no_reason() -> None:
    """A 6H that goes with nothing in hand: where the search chose to take it over the
    expert's draw, the reason is the search's; with no search behind it, no reason is
    given rather than an untrue one."""
    rules = Rules.parse("classic")
    deal = position(rules, "KH 8S 2S QS JD 3S JC 10C AS 4S", pile="6H")
    v = view(deal, 0)
    take, stock = Action("draw-pile"), Action("draw-stock")
    assert render(reason_parts(v, take)) == "take the 6H from the pile"
    found = Search(take, stock, (stock, take), (0.0, 1.5), 64, 0.1, (0.0, 1.5), 20.0)
    text = render(reason_parts(v, take, found))
    assert text.startswith("take the 6H from the pile: the search finds your hand better "
                           "with it (the search found it +1.5 points a deal better than "
                           "draw stock over 64 imagined deals")
    kept = Search(take, take, (take, stock), (1.5, 0.0), 64, 0.1, (0.0, -1.5), 20.0)
    assert render(reason_parts(v, take, kept)) == "take the 6H from the pile"


def test_a_pair_is_not_one_card_short_where_melds_are_longer() -> None:
    """Options ``run_min=4`` (docs/rules.md): 5H and 7H are two cards short of a run, so
    the reason does not say one."""
    rules = Rules.parse("classic(run_min=4)")
    deal = position(rules, "7H 8C 2S QS KD 3S JC 10D AS 9C", pile="5H")
    text = render(reason_parts(view(deal, 0), Action("draw-pile")))
    assert "one card short" not in text


def test_layout_helper_is_the_whole_deck() -> None:
    """The positions above are real deals: every card once."""
    rules = Rules.parse("classic")
    lay: Layout = layout(rules, [RUN_START, CLUBS], pile="9C")
    every = [c for h in lay.hands for c in h] + list(lay.stock) + list(lay.pile)
    assert sorted(every) == list(range(52))
    assert cards("9C") == [lay.pile[-1]]
