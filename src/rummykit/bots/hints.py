"""Hints: the action the strongest bot would take in a seat's place, and why, in one line.

A front end asks :func:`hint` with the view of the seat to move; the master bot searches
the decision and the reason is built from what decided it: the meld a pile card completes,
the cards a discard keeps together, the chance an opponent uses it, or the search's
measured gain where the search left the expert's choice. It reads only the view, so the
same view and seed give the same hint whatever the hidden cards are.

>>> import random
>>> from rummykit.engine import Deal
>>> from rummykit.rules import preset
>>> from rummykit.views import view
>>> deal = Deal.start(preset("classic"), players=2, dealer=0, seed=3)
>>> h = hint(view(deal, 1), rng=random.Random(0), rollouts=4)
>>> h.action in view(deal, 1).legal_actions and bool(h.reason)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots.expert import discard_costs, opponent_interest, partition
from rummykit.bots.greedy import joins, near, pile_index
from rummykit.bots.master import MasterBot, Search
from rummykit.cards import CARDS, JOKER_CODE, format_cards, without
from rummykit.engine.actions import Action
from rummykit.melds import Meld, card_points, find_melds, fits
from rummykit.rules import Rules
from rummykit.views import View

__all__ = ["Hint", "hint", "reason_for"]


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and the reason for it."""

    action: Action
    reason: str
    searched: int
    """How many imagined deals the search played (0 where there was nothing to choose)."""


def hint(view: View, *, rng: random.Random | None = None, think: float = 0.5,
         rollouts: int | None = None) -> Hint:
    """The master's action for the seat of ``view`` (whose move it must be) and its reason.

    ``think`` is the search's time in seconds, or ``rollouts`` a budget of imagined deals
    (then, with the same ``rng``, the same view always gets the same hint). Without
    ``rng`` the generator is seeded from the view's public position."""
    if not view.legal_actions:
        raise ValueError("a hint is for the player to move: this view offers no action")
    if rng is None:
        rng = random.Random(_position_seed(view))
    bot = MasterBot(think=think, rollouts=rollouts)
    if len(view.legal_actions) == 1:
        action = view.legal_actions[0]
        return Hint(action, f"{_verb(action, view)}: it is the only legal action", 0)
    found = bot.search(view, rng)
    return Hint(found.choice, reason_for(view, found.choice, found), found.worlds)


def _position_seed(view: View) -> str:
    """A seed from what the seat sees (never from hidden cards)."""
    moves = ";".join(f"{s}:{a}" for s, a in view.history)
    return f"rummykit/hint/{view.rules}/{view.seat}/{format_cards(view.hand)}/{moves}"


def reason_for(view: View, action: Action, found: Search | None = None) -> str:
    """One line that says why ``action`` is good for the seat of ``view``."""
    why = _why(view, action)
    if found is not None and found.choice != found.baseline and action in found.candidates:
        gain = found.gains[found.candidates.index(action)]
        why += (f" (the search found it {gain:+.1f} points a deal better than "
                f"{found.baseline} over {found.worlds} imagined deals)")
    return why


def _verb(action: Action, view: View) -> str:
    cards = format_cards(action.cards)
    match action.kind:
        case "draw-stock":
            return "draw from the stock"
        case "draw-pile":
            top = view.pile_top
            card = cards or (str(top) if top is not None else "")
            return f"take the {card} from the pile"
        case "meld":
            return f"meld {cards}"
        case "layoff":
            return f"lay off {cards} on meld {action.meld}"
        case "discard":
            return f"discard {cards}"
        case "end":
            return "end the deal"
    return str(action)


def _why(view: View, action: Action) -> str:
    rules = view.rules
    hand = [int(c) for c in view.hand]
    verb = _verb(action, view)
    match action.kind:
        case "draw-pile":
            taken = _taken(view, action)
            return f"{verb}: {_what_it_joins(taken[0], hand + taken[1:], view.melds, rules)}"
        case "draw-stock":
            top = view.pile_top
            if top is None:
                return f"{verb}: the pile is empty"
            if not joins(int(top), hand, rules):
                return (f"{verb}: the {top} on the pile joins no meld of yours, and taking it "
                        "would show what you collect")
            return (f"{verb}: the {top} on the pile would make a meld, but an unknown card "
                    "leaves you a better hand")
        case "meld":
            points = sum(card_points(c, rules) for c in action.cards)
            left = len(hand) - len(action.cards)
            out = " and goes out" if left == 0 else ""
            return f"{verb}: {points} points out of your hand{out}"
        case "layoff":
            points = card_points(action.cards[0], rules)
            return f"{verb}: {points} points out of your hand, into a meld on the table"
        case "discard":
            return f"{verb}: {_discard_reason(view, action.cards[0], hand)}{_held(view)}"
        case "end":
            return f"{verb}: no pile card is worth taking when the stock is empty"
    return verb


def _held(view: View) -> str:
    """What a discard leaves unmelded that could have been melded now, and why."""
    melds = [a for a in view.legal_actions if a.kind == "meld"]
    if not melds:
        return ""
    biggest = max(melds, key=lambda a: (len(a.cards), a.cards))
    rules = view.rules
    why = ""
    if rules.rummy_multiplier > 1 and not view.laid[view.seat]:
        why = f" to go out all at once (rummy pays {rules.rummy_multiplier}x)"
    return f"; holds {format_cards(_ordered(biggest.cards))} back{why}"


def _taken(view: View, action: Action) -> list[int]:
    """The cards a pile draw takes, the chosen card first."""
    return [int(c) for c in view.pile[pile_index(view, action):]]


def _what_it_joins(card: int, hand: Sequence[int], table: Sequence[Meld], rules: Rules) -> str:
    with_it = [m for m in find_melds([*hand, card], rules) if card in m]
    if with_it:
        best = max(with_it, key=lambda m: (len(m), sum(card_points(c, rules) for c in m)))
        return f"it completes {format_cards(_ordered(best))}"
    for number, meld in enumerate(table, 1):
        if fits(meld, card, rules):
            return f"it lays off on meld {number}"
    return "it gives you the most points in melds"


def _ordered(cards: Sequence[int]) -> list[int]:
    """A meld's cards as a player writes them: by rank, then suit (jokers last)."""
    return sorted(cards, key=lambda c: (c == JOKER_CODE, c % 13, c // 13))


def _discard_reason(view: View, card: int, hand: list[int]) -> str:
    rules = view.rules
    _, melds = partition(hand, rules)
    loose = without(hand, [c for m in melds for c in m])
    if card not in loose:
        return "your other cards make the better melds"
    opponents = [s for s in range(len(view.hand_sizes)) if s != view.seat and view.active[s]]
    wanted, unwanted = opponent_interest(view)
    unseen = list(view.knowledge.unseen)
    taken = -1 if view.taken is None else int(view.taken)
    pool = [c for c in loose if c not in (JOKER_CODE, taken)]
    costs = discard_costs(hand, pool or [card], rules=rules, table=view.melds, unseen=unseen,
                          opponent_sizes=[view.hand_sizes[s] for s in opponents],
                          wanted=wanted, unwanted=unwanted)
    kept = _pairs_kept(card, loose)
    points = card_points(card, rules)
    highest = max((card_points(c, rules) for c in pool), default=points)
    safe = not any(fits(m, card, rules) for m in view.melds)
    close = any(view.hand_sizes[s] <= 3 for s in opponents)
    parts: list[str] = []
    if close and points == highest:
        parts.append(f"{CARDS[card]} is your highest loose card and an opponent is close "
                     "to going out")
    elif points == highest and safe:
        parts.append(f"{CARDS[card]} is your highest card that no opponent is likely to use")
    elif points == highest:
        parts.append(f"{CARDS[card]} is your highest loose card")
    elif safe and costs.get(card, 0.0) <= min(costs.values(), default=0.0):
        parts.append(f"{CARDS[card]} fits no meld of yours and is the safest to give")
    else:
        parts.append(f"{CARDS[card]} fits no meld of yours")
    if kept:
        parts.append(f"keeps {kept}")
    return ", ".join(parts)


def _pairs_kept(card: int, loose: Sequence[int]) -> str:
    """The first pair of loose cards (other than ``card``) one card short of a meld, as
    words: "7H 8H for a run" or "9C 9D for a set"."""
    others = sorted((c for c in loose if c not in (card, JOKER_CODE)),
                    key=lambda c: (c // 13, c % 13))
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            if near(a, b):
                kind = "set" if a % 13 == b % 13 else "run"
                return f"{format_cards([a, b])} for a {kind}"
    return ""
