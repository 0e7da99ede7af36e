"""Hints: the action the strongest bot would take in a seat's place, and why, in one line.

A front end asks :func:`hint` with the view of the seat to move; the master bot searches
the decision and the reason is built from what decided it: the meld a pile card completes,
the cards a discard keeps together, the chance an opponent uses it, or the search's
measured gain where the search left the expert's choice. It reads only the view, so the
same view and seed give the same hint whatever the hidden cards are.

>>> import random
>>> from rummykit.engine import Deal
>>> from rummykit.rules import preset
>>> from rummykit.engine.views import view
>>> deal = Deal.start(preset("classic"), players=2, dealer=0, seed=3)
>>> h = hint(view(deal, 1), rng=random.Random(0), rollouts=4)
>>> h.action in view(deal, 1).legal_actions and bool(h.reason)
True
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bots.expert import discard_costs, opponent_interest, partition
from rummykit.bots.greedy import joins, near, pile_index
from rummykit.bots.master import MasterBot, Search
from rummykit.cards import CARDS, JOKER_CODE, format_cards
from rummykit.engine.actions import Action
from rummykit.engine.melds import Meld, card_points, find_melds, fits, without
from rummykit.engine.views import View
from rummykit.rules import Rules

__all__ = ["REASONS", "Hint", "Part", "hint", "position_seed", "reason_for", "reason_parts",
           "render", "verb"]


THINK = 1.0
"""The longest a hint's search takes, in seconds, when neither ``think`` nor ``rollouts``
is given."""
ROLLOUTS = 128
"""The imagined deals a hint's search plays when neither ``think`` nor ``rollouts`` is
given (it stops sooner where :data:`THINK` runs out first): with the position's seed, the
same position gets the same hint each time it is asked."""

REASONS: dict[str, str] = {
    # What the hint says to do (the start of every reason).
    "verb.draw-stock": "draw from the stock",
    "verb.take": "take the {card} from the pile",
    "verb.meld": "meld {cards}",
    "verb.layoff": "lay off {cards} on meld {meld}",
    "verb.discard": "discard {cards}",
    "verb.end": "end the deal",
    # Why (after a colon).
    "why.only": "it is the only legal action",
    "why.pile-empty": "the pile is empty",
    "why.pile-useless": "the {card} on the pile joins no meld of yours, and taking it would "
                        "show what you collect",
    "why.pile-worse": "the {card} on the pile would make a meld, but an unknown card leaves "
                      "you a better hand",
    "why.completes": "it completes {cards}",
    "why.lays-off": "it lays off on meld {meld}",
    "why.near-set": "with your {cards} it is one card short of a set",
    "why.near-run": "with your {cards} it is one card short of a run",
    "why.search-take": "the search finds your hand better with it",
    "why.meld-points": "{points} points out of your hand",
    "why.meld-out": "{points} points out of your hand and goes out",
    "why.layoff-points": "{points} points out of your hand, into a meld on the table",
    "why.end": "no pile card is worth taking when the stock is empty",
    "why.better-melds": "your other cards make the better melds",
    "why.highest-close": "{card} is your highest loose card and an opponent is close to "
                         "going out",
    "why.highest-safe": "{card} is your highest loose card and fits no meld on the table",
    "why.highest": "{card} is your highest loose card",
    "why.safest": "{card} fits no meld of yours and is the safest to give",
    "why.loose": "{card} fits no meld of yours",
    # More (each with its own leading punctuation).
    "more.keeps-run": ", keeps {cards} for a run",
    "more.keeps-set": ", keeps {cards} for a set",
    "more.holds": "; holds {cards} back",
    "more.holds-rummy": "; holds {cards} back to go out all at once (rummy pays {times}x)",
    "more.search": " (the search found it {gain} points a deal better than {baseline} over "
                   "{worlds} imagined deals)",
    "more.search-out": " (the search found it {gain} points a deal better than {baseline} "
                       "over {worlds} imagined deals, going out counted {win} points more)",
}
"""Every piece a hint's reason is made of, in English: a front end translates the pieces
(:attr:`Hint.parts`: a code of this table and its params) instead of the sentence. Cards
are in the notation, ``baseline`` is an action in the notation."""

Part = tuple[str, dict[str, str]]


def render(parts: Sequence[Part]) -> str:
    """A reason's pieces as one English line: the verb, a colon, the rest."""
    texts = [REASONS[code].format(**params) for code, params in parts]
    if len(texts) == 1:
        return texts[0]
    return f"{texts[0]}: {''.join(texts[1:])}"


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and the reason for it (in English, and as pieces to translate)."""

    action: Action
    reason: str
    searched: int
    """How many imagined deals the search played (0 where there was nothing to choose)."""
    parts: tuple[Part, ...] = ()
    """The reason as codes of :data:`REASONS` with their params."""


def hint(view: View, *, rng: random.Random | None = None, think: float | None = None,
         rollouts: int | None = None, stop: threading.Event | None = None) -> Hint:
    """The master's action for the seat of ``view`` (whose move it must be) and its reason.

    ``think`` is the search's time in seconds, ``rollouts`` a budget of imagined deals
    (alone, with the same ``rng``, the same view always gets the same hint; with ``think``
    too, the search stops at whichever comes first; neither given: :data:`ROLLOUTS` and
    :data:`THINK`). Without ``rng`` the generator is seeded from the view's public
    position, so that asking again in the same position gives the same hint. ``stop``,
    once set, ends the search at once (see :class:`MasterBot`)."""
    if not view.legal_actions:
        raise ValueError("a hint is for the player to move: this view offers no action")
    if rng is None:
        rng = random.Random(position_seed(view))
    if think is None and rollouts is None:
        think, rollouts = THINK, ROLLOUTS
    bot = MasterBot(think=think, rollouts=rollouts, stop=stop)
    if len(view.legal_actions) == 1:
        action = view.legal_actions[0]
        only: tuple[Part, ...] = (_verb(action, view), ("why.only", {}))
        return Hint(action, render(only), 0, only)
    found = bot.search(view, rng)
    parts = tuple(reason_parts(view, found.choice, found))
    return Hint(found.choice, render(parts), found.worlds, parts)


def position_seed(view: View) -> str:
    """The seed of a hint's search when none is given: made of what the seat sees (never
    of a hidden card), so the same position always gets the same search; a review of a
    match seeds its search of each decision the same way."""
    moves = ";".join(f"{s}:{a}" for s, a in view.history)
    return f"rummykit/hint/{view.rules}/{view.seat}/{format_cards(view.hand)}/{moves}"


def reason_for(view: View, action: Action, found: Search | None = None) -> str:
    """One line that says why ``action`` is good for the seat of ``view``."""
    return render(reason_parts(view, action, found))


def reason_parts(view: View, action: Action, found: Search | None = None) -> list[Part]:
    """Why ``action`` is good for the seat of ``view``, as pieces of :data:`REASONS`."""
    overruled = (found is not None and found.worlds > 0 and found.choice != found.baseline
                 and action == found.choice)
    parts = _why(view, action, overruled)
    if found is not None and found.choice != found.baseline and action in found.candidates:
        gain = found.gains[found.candidates.index(action)]
        params = {"gain": f"{gain:+.1f}", "baseline": str(found.baseline),
                  "worlds": str(found.worlds)}
        if found.win:
            parts.append(("more.search-out", params | {"win": f"{found.win:g}"}))
        else:
            parts.append(("more.search", params))
    return parts


def verb(action: Action, view: View) -> Part:
    """What the action does, as the first piece of a reason ("discard KS")."""
    return _verb(action, view)


def _verb(action: Action, view: View) -> Part:
    cards = format_cards(action.cards)
    match action.kind:
        case "draw-stock":
            return "verb.draw-stock", {}
        case "draw-pile":
            top = view.pile_top
            return "verb.take", {"card": cards or (str(top) if top is not None else "")}
        case "meld":
            return "verb.meld", {"cards": cards}
        case "layoff":
            return "verb.layoff", {"cards": cards, "meld": str(action.meld)}
        case "discard":
            return "verb.discard", {"cards": cards}
    return "verb.end", {}


def _why(view: View, action: Action, overruled: bool = False) -> list[Part]:
    """The action and why; ``overruled``: the search chose it over the expert's choice."""
    rules = view.rules
    hand = [int(c) for c in view.hand]
    verb = _verb(action, view)
    match action.kind:
        case "draw-pile":
            taken = _taken(view, action)
            joins_part = _what_it_joins(taken[0], hand + taken[1:], view.melds, rules,
                                        own=hand)
            if joins_part is not None:
                return [verb, joins_part]
            # Nothing it is sure to do: the search's preference where the search chose it,
            # else the action alone (no reason is better than an untrue one).
            return [verb, ("why.search-take", {})] if overruled else [verb]
        case "draw-stock":
            top = view.pile_top
            if top is None:
                return [verb, ("why.pile-empty", {})]
            if not joins(int(top), hand, rules):
                return [verb, ("why.pile-useless", {"card": str(top)})]
            return [verb, ("why.pile-worse", {"card": str(top)})]
        case "meld":
            points = str(sum(card_points(c, rules) for c in action.cards))
            out = len(hand) == len(action.cards)
            return [verb, ("why.meld-out" if out else "why.meld-points", {"points": points})]
        case "layoff":
            points = str(card_points(action.cards[0], rules))
            return [verb, ("why.layoff-points", {"points": points})]
        case "discard":
            return [verb, *_discard_reason(view, action.cards[0], hand), *_held(view)]
    return [verb, ("why.end", {})]


def _held(view: View) -> list[Part]:
    """What a discard leaves unmelded that could have been melded now, and why."""
    melds = [a for a in view.legal_actions if a.kind == "meld"]
    if not melds:
        return []
    biggest = max(melds, key=lambda a: (len(a.cards), a.cards))
    rules = view.rules
    cards = format_cards(_ordered(biggest.cards))
    if rules.rummy_multiplier > 1 and not view.laid[view.seat]:
        return [("more.holds-rummy", {"cards": cards, "times": str(rules.rummy_multiplier)})]
    return [("more.holds", {"cards": cards})]


def _taken(view: View, action: Action) -> list[int]:
    """The cards a pile draw takes, the chosen card first."""
    return [int(c) for c in view.pile[pile_index(view, action):]]


def _what_it_joins(card: int, hand: Sequence[int], table: Sequence[Meld],
                   rules: Rules, own: Sequence[int] = ()) -> Part | None:
    """What the pile card ``card`` does with ``hand`` (the cards held once it is taken)
    and the table, or None: it completes a meld, lays off, or is one card short of a meld
    with a card of ``own`` (the hand before the draw)."""
    with_it = [m for m in find_melds([*hand, card], rules) if card in m]
    if with_it:
        best = max(with_it, key=lambda m: (len(m), sum(card_points(c, rules) for c in m)))
        return "why.completes", {"cards": format_cards(_ordered(best))}
    for number, meld in enumerate(table, 1):
        if fits(meld, card, rules):
            return "why.lays-off", {"meld": str(number)}
    # One card short of a meld with a card of the hand: a set first, then a run.
    # (Said only where three cards make a meld: with longer melds a pair is further off;
    # never of a joker, which goes with anything.)
    if card == JOKER_CODE:
        return None
    partners = sorted((c for c in own if c != JOKER_CODE and near(card, c)
                       and (rules.set_min if c % 13 == card % 13 else rules.run_min) == 3),
                      key=lambda c: (c % 13 != card % 13, abs(c % 13 - card % 13), c))
    if partners:
        kind = "set" if partners[0] % 13 == card % 13 else "run"
        return f"why.near-{kind}", {"cards": format_cards(partners[:1])}
    return None


def _ordered(cards: Sequence[int]) -> list[int]:
    """A meld's cards as a player writes them: by rank, then suit (jokers last)."""
    return sorted(cards, key=lambda c: (c == JOKER_CODE, c % 13, c // 13))


def _discard_reason(view: View, card: int, hand: list[int]) -> list[Part]:
    rules = view.rules
    _, melds = partition(hand, rules)
    loose = without(hand, [c for m in melds for c in m])
    if card not in loose:
        return [("why.better-melds", {})]
    opponents = [s for s in range(len(view.hand_sizes)) if s != view.seat and view.active[s]]
    wanted, unwanted = opponent_interest(view)
    unseen = list(view.knowledge.unseen)
    taken = -1 if view.taken is None else int(view.taken)
    pool = [c for c in loose if c not in (JOKER_CODE, taken)]
    costs = discard_costs(hand, pool or [card], rules=rules, table=view.melds, unseen=unseen,
                          opponent_sizes=[view.hand_sizes[s] for s in opponents],
                          wanted=wanted, unwanted=unwanted)
    points = card_points(card, rules)
    highest = max((card_points(c, rules) for c in pool), default=points)
    safe = not any(fits(m, card, rules) for m in view.melds)
    close = any(view.hand_sizes[s] <= 3 for s in opponents)
    if close and points == highest:
        code = "why.highest-close"
    elif points == highest and safe:
        code = "why.highest-safe"
    elif points == highest:
        code = "why.highest"
    elif safe and costs.get(card, 0.0) <= min(costs.values(), default=0.0):
        code = "why.safest"
    else:
        code = "why.loose"
    parts: list[Part] = [(code, {"card": str(CARDS[card])})]
    kept = _pair_kept(card, loose)
    if kept is not None:
        pair, kind = kept
        parts.append((f"more.keeps-{kind}", {"cards": format_cards(pair)}))
    return parts


def _pair_kept(card: int, loose: Sequence[int]) -> tuple[list[int], str] | None:
    """The first pair of loose cards (other than ``card``) one card short of a meld, and
    whether it is for a run or a set."""
    others = sorted((c for c in loose if c not in (card, JOKER_CODE)),
                    key=lambda c: (c // 13, c % 13))
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            if near(a, b):
                return [a, b], "set" if a % 13 == b % 13 else "run"
    return None
