"""The review of a match: what it judges, from what, and in which words.

- The best action of a review is the hint's at the same position (the same search with
  the same seed and budget).
- A review never uses a card the reviewed seat could not see: a record that differs only
  in cards hidden from the seat at a decision (an opponent's card it never showed, a
  stock card not drawn yet) gets the same verdict there.
- Throwing away going out at once is a blunder, and its reason is in the hint's words.
- The classes and the accuracy follow the formulas of the review's page
  (docs/review.md, ``rummykit.analysis.model``): thresholds of half a card, one and two
  cards of the rules' mean card points; accuracy ``100 exp(-loss / 2 units)``.
- The typed review and its JSON say the same and read back; a record that does not read
  or replay is a ReviewError.
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import replace

import pytest

from rummykit import record as records
from rummykit.analysis import (
    Budget,
    Position,
    Review,
    ReviewError,
    Stopped,
    card_unit,
    classify,
    decision_accuracy,
    judge,
    positions,
    review,
)
from rummykit.bots.hints import hint
from rummykit.bots.master import MasterBot
from rummykit.cards import parse_cards
from rummykit.engine import Action, Deal, Layout
from rummykit.engine.layout import deal_layout
from rummykit.engine.views import view
from rummykit.rules import preset

from ._support import played

SMALL = Budget(rollouts=12)
"""A budget small enough for tests (the verdicts are noisy, but what is tested is not)."""


def test_the_best_action_is_the_hint_at_the_same_position() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=5)
    found = positions(rec)
    assert len(found) >= 10
    for p in found[::3][:8]:
        verdict = judge(p, SMALL)
        told = hint(p.view, rollouts=SMALL.rollouts)
        assert verdict.best == str(told.action), (p.deal, p.step)
        assert verdict.played == str(p.played)


def test_the_played_action_is_measured_however_the_search_prunes() -> None:
    """Every candidate's estimate comes from the same imagined deals; the played one is
    measured in all of them (a kept action), and the search's choice does not change
    for it."""
    rec = played("one-deal", ("greedy", "random"), seed=6)
    for p in positions(rec, [1])[:6]:
        bot = MasterBot(rollouts=16)
        alone = bot.search(p.view, random.Random(1))
        kept = MasterBot(rollouts=16).search(p.view, random.Random(1), keep=(p.played,))
        assert kept.choice == alone.choice
        if kept.worlds:
            (sampled,) = [s for s in kept.sampled if s.action == p.played]
            assert len(sampled.points) == kept.worlds == len(kept.drawn)


# -- nothing hidden -------------------------------------------------------------------------


def _swapped(rec: records.Record, step: int, seat: int) -> records.Record | None:
    """``rec`` up to action ``step`` of deal 1, its layout changed in a card the seat could
    not see there: an opponent's card never shown swapped with a stock card not drawn yet
    (None where the record then does not replay)."""
    actions = rec.deals[0].actions[:step]
    deal = Deal(rec.rules, players=2, dealer=rec.deals[0].dealer or 0,
                layout=rec.deals[0].layout or deal_layout(rec.rules, 2, 0, rec.seed or 0, 0))
    for text in actions[:-1]:
        deal.apply(text)
    other = 1 - seat
    known = deal.knowledge(seat).known[other]
    hidden = sorted(set(deal.hands[other]) - set(known))
    undrawn = deal.stock[:-1]  # (top last: the top is left alone)
    if not hidden or not undrawn:
        return None
    x, y = hidden[0], undrawn[0]
    layout = deal.layout
    swap = {x: y, y: x}
    new = Layout(tuple(tuple(swap.get(c, c) for c in h) for h in layout.hands),
                 tuple(swap.get(c, c) for c in layout.stock), layout.pile)
    changed = records.Record(rec.rules, list(rec.players),
                             [records.DealRecord(list(actions), deal.dealer, new)], rec.seed)
    try:
        records.replay(changed)
    except records.ReplayError:
        return None
    return changed


def test_a_review_never_uses_a_card_the_seat_could_not_see() -> None:
    rec = played("one-deal", ("greedy", "expert"), seed=11)
    seat = 0
    compared = 0
    for p in positions(rec, [seat])[2:14:3]:
        cut = records.Record(rec.rules, list(rec.players),
                             [records.DealRecord(rec.deals[0].actions[:p.step],
                                                 rec.deals[0].dealer, rec.deals[0].layout)],
                             rec.seed)
        changed = _swapped(rec, p.step, seat)
        if changed is None:
            continue
        mine = positions(cut, [seat])[-1]
        theirs = positions(changed, [seat])[-1]
        assert (mine.deal, mine.step) == (theirs.deal, theirs.step) == (p.deal, p.step)
        # The hidden cards differ, the seat's view does not: the verdict is the same.
        real = records.replay(cut).match.deal
        fake = records.replay(changed).match.deal
        assert real.hands[1 - seat] != fake.hands[1 - seat] or real.stock != fake.stock
        assert judge(mine, SMALL) == judge(theirs, SMALL)
        compared += 1
    assert compared >= 2


def test_the_seat_is_given_its_own_view_only() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=4)
    for p in positions(rec)[:12]:
        assert p.view.seat == p.seat == p.view.to_move
        assert p.view.revealed_hands is None
        assert p.played in p.view.legal_actions and len(p.view.legal_actions) > 1


# -- what a blunder is ------------------------------------------------------------------------


def _cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text.split()))


def test_throwing_away_going_out_at_once_is_a_blunder_in_the_hints_words() -> None:
    """One-deal (RULES.md seed 001): Bruno holds 4C 5C 6C, 7D 8D 9D and JH JS JD; laid
    down, they take him out with a rummy (paid double) whenever he discards his last loose
    card. He breaks the run: he discards 4C. The review says what the hint would have."""
    rules = preset("one-deal")
    hands = ["2H 3H 5H 7H 9H 10S QS 2S 3S 4S", "4C 5C 6C 7D 8D 9D JH JS JD KS"]
    held = [c for h in hands for c in _cards(h)]
    rest = [c for c in range(52) if c not in held and c not in _cards("2D 8C")]
    random.Random(1).shuffle(rest)
    deal = Deal(rules, players=2, dealer=0,
                layout=Layout(tuple(_cards(h) for h in hands), (_cards("8C")[0], *rest),
                              _cards("2D")))
    deal.apply("draw stock")
    v = view(deal, 1)
    verdict = judge(Position(1, 2, 1, "Bruno", v, Action.parse("discard 4C")), Budget(16))
    assert verdict.cls == "blunder"
    assert verdict.counted >= 2 * card_unit(rules)
    assert verdict.accuracy < 40
    told = hint(v, rollouts=16)
    assert verdict.best == str(told.action)
    # Whatever is better keeps the melds (it lays one, or discards the loose KS).
    assert told.action.kind == "meld" or told.action == Action.parse("discard KS")
    # The hint's words, without its own search figures (the review shows its own).
    words = told.reason.split(" (the search found")[0]
    assert verdict.reason == f"discard 4C; better {words}"
    assert verdict.why and verdict.why in words


def test_classes_and_accuracy_follow_the_documented_formulas() -> None:
    unit = card_unit(preset("classic"))
    # classic: A 1, 2-10 their pips, J Q K 10: (1 + 54 + 30) / 13 points a card.
    assert unit == pytest.approx(85 / 13)
    assert classify(0.49 * unit, unit) == "good"
    assert classify(0.5 * unit, unit) == "inaccuracy"
    assert classify(1.0 * unit, unit) == "mistake"
    assert classify(2.0 * unit, unit) == "blunder"
    assert decision_accuracy(0.0, unit) == 100
    assert decision_accuracy(unit, unit) == pytest.approx(100 * math.exp(-0.5))
    assert decision_accuracy(2 * unit, unit) == pytest.approx(100 * math.exp(-1))


def test_budgets_read_as_written() -> None:
    assert Budget.parse("48") == Budget(rollouts=48)
    assert Budget.parse("0.5s") == Budget(rollouts=None, seconds=0.5)
    assert Budget.parse("48,2s") == Budget(rollouts=48, seconds=2.0)
    assert str(Budget.parse("48,2s")) == "48,2s"
    for bad in ("", "x", "0", "1s,2s", "48,", "nans", "-3"):
        with pytest.raises(ValueError):
            Budget.parse(bad)


# -- the whole review -----------------------------------------------------------------------


def test_the_review_and_its_json_say_the_same() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=8)
    seen: list[tuple[int, int]] = []
    done = review(rec, budget=8, jobs=1, progress=lambda d, t: seen.append((d, t)))
    total = len(positions(rec))
    assert seen[0] == (0, total) and seen[-1] == (total, total) and len(seen) == total + 1
    data = done.to_json()
    # The shape of the issue: these keys, others may be added.
    assert [s["seat"] for s in data["seats"]] == [0, 1]
    for s in data["seats"]:
        assert {"seat", "name", "decisions", "points_lost_per_decision", "accuracy",
                "mistakes"} <= set(s)
        assert s["name"] == rec.players[s["seat"]]
        assert 0 <= s["accuracy"] <= 100
        mine = [d for d in data["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine)
        assert s["points_lost_per_decision"] == pytest.approx(
            sum(d["counted"] for d in mine) / len(mine))
    assert len(data["decisions"]) == total
    for d in data["decisions"]:
        assert {"deal", "seat", "step", "played", "best", "loss", "class"} <= set(d)
        assert d["class"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert d["loss"] >= 0 and (d["class"] != "best" or d["played"] == d["best"])
    assert Review.from_json(data) == done
    # The deals' reports add up to the match's.
    for s in done.seats:
        assert sum(d.seat(s.seat).decisions for d in done.deals) == s.decisions
    with pytest.raises(ReviewError):
        Review.from_json({**data, "format": "other"})
    with pytest.raises(ReviewError):
        Review.from_json({**data, "decisions": [{"deal": 1}]})


def test_one_seat_alone() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=8)
    done = review(rec, budget=4, jobs=1, seats=[1])
    assert [s.seat for s in done.seats] == [1]
    assert {d.seat for d in done.decisions} == {1}
    with pytest.raises(ReviewError, match="seat 2"):
        review(rec, budget=4, jobs=1, seats=[2])


def test_a_record_that_does_not_replay_is_refused() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=8)
    broken = replace(rec.deals[0], actions=[*rec.deals[0].actions[:3], "discard 2C"])
    with pytest.raises(ReviewError, match="does not replay"):
        review(records.Record(rec.rules, rec.players, [broken], rec.seed), budget=4, jobs=1)
    with pytest.raises(ReviewError, match="not a valid record"):
        review({"format": "rummy-record/1"}, budget=4, jobs=1)


def test_a_stopped_review_says_so() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped):
        review(played(), budget=4, jobs=1, stop=stop)


def test_the_review_runs_in_worker_processes() -> None:
    rec = played("one-deal", ("greedy", "random"), seed=9)
    alone = review(rec, budget=4, jobs=1, seats=[0])
    pooled = review(rec, budget=4, jobs=2, seats=[0])
    # Seeded by the position: the same verdicts, wherever they were made.
    assert pooled.decisions == alone.decisions


def test_rummykit_review_is_the_review() -> None:
    import rummykit

    assert rummykit.review is review
