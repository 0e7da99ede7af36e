"""Melds: checking a meld or a lay-off, listing the melds a hand can form, and the best
partition of a hand (the least deadwood).

A run's cards are held in order, so a joker's place fixes the card it stands for. Run
positions go from 1 (a low ace) to 13 (king), or 14 (a high ace) when the rules let aces
be high. A set's jokers stand for suits the set lacks.

>>> from rummykit.rules import preset
>>> from rummykit.cards import parse_cards
>>> m = make_meld(parse_cards(["QH", "KH", "AH"]), preset("rummy500"), owner=0)
>>> m.kind, m.low, m.high
('run', 12, 14)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import FrozenInstanceError
from functools import cache
from itertools import combinations
from typing import ClassVar, Final, Literal

from rummykit.cards import JOKER_CODE, RANK_NAMES, SUIT_NAMES, format_cards
from rummykit.errors import IllegalActionError
from rummykit.rules import Rules

__all__ = [
    "LayoffTargets",
    "Meld",
    "MeldKind",
    "best_deadwood",
    "card_points",
    "find_melds",
    "fit_mask",
    "fits",
    "forms_meld_with",
    "hand_points",
    "laid_points",
    "layoff",
    "layoff_ends",
    "layoff_problem",
    "layoff_targets",
    "make_meld",
    "meld_points",
    "melding_cards",
    "most_meld_points",
    "outs_in_masks",
    "pack",
    "shortest_meld_with",
    "suit_masks",
    "without",
]

MeldKind = Literal["set", "run"]


class Meld:
    """A meld on the table. Immutable: a lay-off makes a new one.

    Written out rather than a frozen dataclass so that the compiled build makes one with
    a native constructor (a lay-off or a search makes melds all the time); it compares,
    hashes and prints as that dataclass would.
    """

    __slots__ = ("_fits", "_fits_for", "_hash", "_points", "_targets", "cards", "high", "kind",
                 "layers", "low", "owner", "rank", "suit")
    __match_args__: ClassVar[tuple[str, ...]] = ("kind", "cards", "layers", "owner", "rank",
                                                 "suit", "low", "high")

    kind: MeldKind
    cards: tuple[int, ...]
    """The cards; in a run from the low end up, jokers in the places they fill."""
    layers: tuple[int, ...]
    """Who laid each card (parallel to ``cards``): lay-offs score for who laid them."""
    owner: int
    """The player who laid the meld down."""
    rank: int
    """A set's rank (1-13; 0 for a run)."""
    suit: int
    """A run's suit (0-3; 0 for a set)."""
    low: int
    """A run's lowest position (1 = low ace; 0 for a set)."""
    high: int
    """A run's highest position (14 = high ace; 0 for a set)."""
    _targets: tuple[Rules, LayoffTargets] | None
    """What :func:`layoff_targets` found, kept with the rules it was found under."""
    _points: tuple[Rules, int] | None
    """What :func:`meld_points` of all its cards came to, kept with the rules."""
    _fits: int
    _fits_for: Rules | None
    """What :func:`fit_mask` found, and the rules it was found under (two plain fields
    rather than a pair: the compiled lay-off listing reads them for every table meld)."""
    _hash: int | None

    def __init__(self, kind: MeldKind, cards: tuple[int, ...], layers: tuple[int, ...],
                 owner: int, rank: int = 0, suit: int = 0, low: int = 0,
                 high: int = 0) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "layers", layers)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "_targets", None)
        object.__setattr__(self, "_points", None)
        object.__setattr__(self, "_fits", 0)
        object.__setattr__(self, "_fits_for", None)
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple[object, ...]:
        return (self.kind, self.cards, self.layers, self.owner, self.rank, self.suit,
                self.low, self.high)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"Meld(kind={self.kind!r}, cards={self.cards!r}, layers={self.layers!r}, "
                f"owner={self.owner!r}, rank={self.rank!r}, suit={self.suit!r}, "
                f"low={self.low!r}, high={self.high!r})")

    def __reduce__(self) -> tuple[type[Meld], tuple[object, ...]]:
        # Pickled and copied without what it keeps (a string's hash differs between
        # processes, so a kept hash must not travel).
        return (Meld, self._fields())

    def __hash__(self) -> int:
        # The hash of the compared fields, made once (the
        # turn search keys its memo on whole tables).
        h = self._hash
        if h is None:
            h = hash(self._fields())
            object.__setattr__(self, "_hash", h)
        return h

    def __str__(self) -> str:
        return format_cards(self.cards)

    def represented(self) -> list[str]:
        """What each card stands for, in notation: jokers become the card they fill."""
        if self.kind == "run":
            return [_pos_name(self.low + i, self.suit) for i in range(len(self.cards))]
        missing = [s for s in range(4) if not any(
            c != JOKER_CODE and c // 13 == s for c in self.cards)]
        out = []
        for c in self.cards:
            if c == JOKER_CODE:
                out.append(RANK_NAMES[self.rank] + SUIT_NAMES[missing.pop(0)] if missing else "JK")
            else:
                out.append(RANK_NAMES[c % 13 + 1] + SUIT_NAMES[c // 13])
        return out


def _pos_name(position: int, suit: int) -> str:
    rank = 1 if position == 14 else position
    return RANK_NAMES[rank] + SUIT_NAMES[suit]


# -- points --------------------------------------------------------------------------


def _rank_points(rank: int, rules: Rules) -> int:
    """Points of a natural rank: aces and court cards by the rules, others pip."""
    if rank == 1:
        return rules.ace_points
    return rules.court_points if rank > 10 else rank


def card_points(code: int, rules: Rules) -> int:
    """A card's points in hand: jokers, aces and court cards by the rules, others pip."""
    if code == JOKER_CODE:
        return rules.joker_points
    return _rank_points(code % 13 + 1, rules)


def hand_points(hand: Iterable[int], rules: Rules) -> int:
    """The points of the cards in a hand."""
    return sum(card_points(c, rules) for c in hand)


def without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    """The hand less one copy of each of ``cards`` (all of which it holds)."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def meld_points(meld: Meld, rules: Rules, by: int | None = None) -> int:
    """The points of a meld's cards (of those laid by ``by`` if given).

    A joker counts as the card it stands for; an ace counts ``ace_low_run_points`` at the
    low end of a run (position 1) and ``ace_points`` elsewhere (position 14 is a high ace).
    The points of all the cards are kept on the meld (an opening's search adds them up
    over and over).
    """
    if by is None:
        kept = meld._points
        if kept is not None and kept[0] is rules:
            return kept[1]
        total = _meld_points(meld, rules, None)
        object.__setattr__(meld, "_points", (rules, total))
        return total
    return _meld_points(meld, rules, by)


def _meld_points(meld: Meld, rules: Rules, by: int | None) -> int:
    total = 0
    for points, layer in zip(_placed_points(meld, rules), meld.layers, strict=True):
        if by is None or layer == by:
            total += points
    return total


def laid_points(melds: Iterable[Meld], rules: Rules, players: int) -> list[int]:
    """The points of the cards each player has laid in ``melds``, seat by seat: what
    :func:`meld_points` with ``by`` adds up over the melds, in one pass over their cards
    (where melded cards score, every deal ends with it)."""
    totals = [0] * players
    for meld in melds:
        for points, layer in zip(_placed_points(meld, rules), meld.layers, strict=True):
            totals[layer] += points
    return totals


def _placed_points(meld: Meld, rules: Rules) -> list[int]:
    """The points of each card of ``meld`` where it lies: a set's cards (jokers too) those
    of its rank; a run's those of the place they fill, an ace ``ace_low_run_points`` at
    the low end (place 1) and ``ace_points`` at the high end (place 14)."""
    if meld.kind == "set":
        return [_rank_points(meld.rank, rules)] * len(meld.cards)
    return [rules.ace_low_run_points if place == 1
            else _rank_points(1 if place == 14 else place, rules)
            for place in range(meld.low, meld.low + len(meld.cards))]


_most_points: Final[dict[int, tuple[Rules, tuple[int, ...]]]] = {}
""":func:`most_meld_points` by the id of the rules object (a rules object's own hash
is made anew from every option at each call)."""


def most_meld_points(rules: Rules) -> tuple[int, ...]:
    """The most each card code can add to :func:`meld_points` in any meld: a natural card
    the points of its rank, an ace also those of a low ace in a run, a joker those of the
    card worth most. An opening's search uses them to give up on cards that cannot reach
    the opening whatever melds they make."""
    kept = _most_points.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    ace = max(rules.ace_points, rules.ace_low_run_points)
    naturals = [ace if r == 1 else _rank_points(r, rules) for r in range(1, 14)]
    most = (*naturals * 4, max(ace, *naturals))
    if len(_most_points) >= 64:
        _most_points.clear()
    _most_points[id(rules)] = (rules, most)
    return most


# -- checking ------------------------------------------------------------------------


_MADE_LIMIT: Final = 1 << 14
_made: Final[dict[tuple[object, ...], Meld]] = {}
"""Melds made lately, by their cards, owner and the options that decide them: a search
makes the same melds over and over, and a meld never changes."""


def make_meld(cards: Sequence[int], rules: Rules, owner: int) -> Meld:
    """The meld these cards form, or :class:`IllegalActionError` saying why not.

    Cards whose natural cards all share a rank form a set (a lone natural card with jokers
    only while the meld is no longer than a set may be); otherwise a run, read in the order
    written. An ace in a run is low (A-2-3) or, where the rules let it, high (Q-K-A), never
    both in one run, so a run spans at most 13 places.
    """
    key = (tuple(cards), owner, rules.set_min, rules.set_max, rules.run_min, rules.aces)
    meld = _made.get(key)
    if meld is None:
        meld = _make_meld(cards, rules, owner)
        if len(_made) >= _MADE_LIMIT:
            _made.clear()
        _made[key] = meld
    return meld


def _make_meld(cards: Sequence[int], rules: Rules, owner: int) -> Meld:
    naturals = [c for c in cards if c != JOKER_CODE]
    if not naturals:
        shown = format_cards(cards)
        raise IllegalActionError(f"{shown} is not a meld: a meld needs a natural card",
                                 code="meld-no-natural", params={"cards": shown})
    ranks = {c % 13 for c in naturals}
    if len(ranks) == 1 and (len(naturals) > 1 or len(cards) <= rules.set_max):
        return _make_set(cards, naturals, rules, owner)
    return _make_run(cards, naturals, rules, owner)


def _make_set(cards: Sequence[int], naturals: list[int], rules: Rules, owner: int) -> Meld:
    if not rules.set_min <= len(cards) <= rules.set_max:
        shown = format_cards(cards)
        raise IllegalActionError(
            f"{shown} is not a meld: a set is {rules.set_min} to {rules.set_max} cards of one "
            "rank", code="set-size",
            params={"cards": shown, "min": rules.set_min, "max": rules.set_max},
        )
    suits = [c // 13 for c in naturals]
    if len(set(suits)) != len(suits):
        shown = format_cards(cards)
        raise IllegalActionError(f"{shown} is not a meld: the suits of a set must all differ",
                                 code="set-suits", params={"cards": shown})
    ordered = tuple(sorted(naturals)) + (JOKER_CODE,) * (len(cards) - len(naturals))
    return Meld("set", ordered, (owner,) * len(cards), owner, rank=naturals[0] % 13 + 1)


def _make_run(cards: Sequence[int], naturals: list[int], rules: Rules, owner: int) -> Meld:
    if len({c // 13 for c in naturals}) > 1:
        shown = format_cards(cards)
        raise IllegalActionError(
            f"{shown} is not a meld: a set is cards of one rank, a run cards of one suit",
            code="meld-mixed", params={"cards": shown},
        )
    if len(cards) < rules.run_min:
        shown = format_cards(cards)
        raise IllegalActionError(
            f"{shown} is not a meld: a run is {rules.run_min} or more cards in sequence",
            code="run-length", params={"cards": shown, "min": rules.run_min},
        )
    first = next(i for i, c in enumerate(cards) if c != JOKER_CODE)
    rank = cards[first] % 13 + 1
    starts = [rank - first] + ([14 - first] if rank == 1 and rules.high_aces else [])
    for low in starts:
        high = low + len(cards) - 1
        if not _span_allowed(low, high, rules):
            continue
        if all(
            c == JOKER_CODE or _fits(c % 13 + 1, low + i, rules) for i, c in enumerate(cards)
        ):
            return Meld(
                "run", tuple(cards), (owner,) * len(cards), owner,
                suit=naturals[0] // 13, low=low, high=high,
            )
    if rules.high_aces:
        why = "cards of one suit in sequence, the ace low or high but never K-A-2"
    else:
        why = "cards of one suit in sequence, with the ace low only (A-2-3)"
    shown = format_cards(cards)
    raise IllegalActionError(f"{shown} is not a meld: a run is {why}, written in order",
                             code="run-sequence", params={"cards": shown})


def _span_allowed(low: int, high: int, rules: Rules) -> bool:
    """Whether a run may cover places ``low`` to ``high``: from the low ace (1) up to the
    king (13), or the high ace (14) where aces may be high, never both aces at once."""
    top = 14 if rules.high_aces else 13
    return low >= 1 and high <= top and not (low == 1 and high == 14)


def _fits(rank: int, position: int, rules: Rules) -> bool:
    return rank == position or (rank == 1 and position == 14 and rules.high_aces)


def layoff_problem(
    meld: Meld, code: int, rules: Rules, low: bool = False
) -> IllegalActionError | None:
    """Why ``code`` cannot be laid off on ``meld`` (with a joker at a run's low end when
    ``low``), or None when it fits. This and :func:`layoff_ends` ask the one predicate that
    decides whether a card fits a meld; :func:`layoff` and :func:`fits` ask them."""
    why = _misfit(meld, code, rules, low)
    if why is None:
        return None
    card_text = format_cards([code])
    match why:
        case "low-not-joker-on-run":
            message = "'low' places a joker at a run's low end; other lay-offs take no 'low'"
            params: dict[str, object] = {}
        case "set-full":
            message = f"{card_text} does not fit: a set holds at most {rules.set_max} cards"
            params = {"card": card_text, "max": rules.set_max}
        case "set-rank":
            message = f"{card_text} does not fit: the set is of {RANK_NAMES[meld.rank]}s"
            params = {"card": card_text, "rank": RANK_NAMES[meld.rank]}
        case "set-suit":
            message = f"{card_text} does not fit: the set has that suit already"
            params = {"card": card_text}
        case "joker-low-end":
            message = "JK does not fit: the run cannot go lower"
            params = {"card": card_text}
        case "joker-high-end":
            message = ("JK does not fit: the run cannot go higher (write 'layoff JK N low' for "
                       "its low end)")
            params = {"card": card_text}
        case "run-suit":
            message = f"{card_text} does not fit: the run is in {SUIT_NAMES[meld.suit]}"
            params = {"card": card_text, "suit": SUIT_NAMES[meld.suit]}
        case "run-end":
            message = (f"{card_text} does not fit: a lay-off on a run must extend it at one end"
                       + ("" if rules.high_aces else " (aces are low only)"))
            params = {"card": card_text}
    return IllegalActionError(message, code=why, params=params)


LayoffMisfit = Literal["low-not-joker-on-run", "set-full", "set-rank", "set-suit",
                       "joker-low-end", "joker-high-end", "run-suit", "run-end"]


def _misfit(meld: Meld, code: int, rules: Rules, low: bool) -> LayoffMisfit | None:
    """The one predicate: why ``code`` does not fit ``meld``, or None when it does."""
    if low and (code != JOKER_CODE or meld.kind != "run"):
        return "low-not-joker-on-run"
    if meld.kind == "set":
        if len(meld.cards) >= rules.set_max:
            return "set-full"
        if code == JOKER_CODE:
            return None
        if code % 13 + 1 != meld.rank:
            return "set-rank"
        if any(c != JOKER_CODE and c // 13 == code // 13 for c in meld.cards):
            return "set-suit"
        return None
    if code == JOKER_CODE:
        if low:
            return None if _span_allowed(meld.low - 1, meld.high, rules) else "joker-low-end"
        return None if _span_allowed(meld.low, meld.high + 1, rules) else "joker-high-end"
    if code // 13 != meld.suit:
        return "run-suit"
    if _run_end(meld, code % 13 + 1, rules) is None:
        return "run-end"
    return None


def _run_end(meld: Meld, rank: int, rules: Rules) -> bool | None:
    """Where a natural card of the run's suit extends it: False at the high end (tried
    first), True at the low end, None if at neither."""
    if _span_allowed(meld.low, meld.high + 1, rules) and _fits(rank, meld.high + 1, rules):
        return False
    if _span_allowed(meld.low - 1, meld.high, rules) and _fits(rank, meld.low - 1, rules):
        return True
    return None


def layoff_ends(meld: Meld, code: int, rules: Rules) -> tuple[bool, ...]:
    """The ways ``code`` can be laid off on ``meld``, as the ``low`` flags of the lay-off
    action: ``()`` when it does not fit, ``(False,)`` for a natural card (its place is
    fixed) or a joker on a set, and for a joker on a run the ends it can take."""
    if code == JOKER_CODE and meld.kind == "run":
        return tuple(low for low in (False, True) if _misfit(meld, code, rules, low) is None)
    return (False,) if _misfit(meld, code, rules, False) is None else ()


class LayoffTargets:
    """The cards that can be laid off on one meld (see :func:`layoff_targets`); never
    changed once made (the fields are final: read-only in the compiled build)."""

    __slots__ = ("cards", "ends", "mask")

    def __init__(self, cards: frozenset[int], ends: tuple[tuple[bool, ...], ...]) -> None:
        self.cards: Final = cards
        """The codes of the cards that fit."""
        self.ends: Final = ends
        """:func:`layoff_ends` of every card code: ``ends[code]``."""
        mask = 0
        for code in cards:
            mask |= 1 << code
        self.mask: Final = mask
        """The cards that fit as a bit mask (bit ``c`` for card code ``c``)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LayoffTargets):
            return NotImplemented
        return self.cards == other.cards and self.ends == other.ends

    def __hash__(self) -> int:
        return hash((self.cards, self.ends))

    def __repr__(self) -> str:
        return f"LayoffTargets(cards={self.cards!r}, ends={self.ends!r})"

    def __reduce__(self) -> tuple[type[LayoffTargets], tuple[object, ...]]:
        # Copied and pickled through its constructor (the compiled class has no
        # instance dictionary for the default protocol to use).
        return (LayoffTargets, (self.cards, self.ends))


def layoff_targets(meld: Meld, rules: Rules) -> LayoffTargets:
    """The cards that can be laid off on ``meld``, each with its :func:`layoff_ends`.

    Only a card of the set's rank, a card of the run's suit just beyond one of its ends,
    or a joker can fit; :func:`layoff_ends` decides each of those. A meld never changes,
    so the answer is kept on it (a lay-off makes a new meld), and melds alike share one
    (:data:`_TARGETS`)."""
    kept = meld._targets
    if kept is not None and kept[0] is rules:
        return kept[1]
    # What decides the answer (see _misfit): a set's rank, the suits of its natural cards
    # and its size, with the rules' set_max; a run's suit and ends, with whether aces may
    # be high.
    if meld.kind == "set":
        suits = 0
        for c in meld.cards:
            if c != JOKER_CODE:
                suits |= 1 << c // 13
        key = (((rules.set_max * 64 + len(meld.cards)) * 16 + suits) * 16 + meld.rank) * 2
    else:
        key = (((meld.suit * 16 + meld.low) * 16 + meld.high) * 2 + rules.high_aces) * 2 + 1
    targets = _TARGETS.get(key)
    if targets is None:
        targets = _TARGETS[key] = _layoff_targets(meld, rules)
    object.__setattr__(meld, "_targets", (rules, targets))
    return targets


_TARGETS: Final[dict[int, LayoffTargets]] = {}
""":func:`layoff_targets` by one whole-number key of what decides them (a few hundred at
most: the melds of a game share them)."""


def _layoff_targets(meld: Meld, rules: Rules) -> LayoffTargets:
    """:func:`layoff_targets` worked out from the one predicate."""
    if meld.kind == "set":
        candidates = [s * 13 + meld.rank - 1 for s in range(4)]
    else:
        candidates = [meld.suit * 13 + (0 if p == 14 else p - 1)
                      for p in (meld.high + 1, meld.low - 1) if 1 <= p <= 14]
    ends: list[tuple[bool, ...]] = [()] * (JOKER_CODE + 1)
    fitting = []
    for code in (*candidates, JOKER_CODE):
        ends[code] = layoff_ends(meld, code, rules)
        if ends[code]:
            fitting.append(code)
    return LayoffTargets(frozenset(fitting), tuple(ends))


def fit_mask(meld: Meld, rules: Rules) -> int:
    """The cards that can be laid off on ``meld`` as a bit mask (bit ``c`` for card code
    ``c``): a hand's lay-offs on a table are found by a bit test per meld. Kept on the
    meld, as :func:`layoff_targets` is."""
    if meld._fits_for is rules:
        return meld._fits
    mask = layoff_targets(meld, rules).mask
    object.__setattr__(meld, "_fits", mask)
    object.__setattr__(meld, "_fits_for", rules)
    return mask


def fits(meld: Meld, code: int, rules: Rules) -> bool:
    """Whether ``code`` can be laid off on ``meld`` in some way."""
    return code in layoff_targets(meld, rules).cards


def layoff(meld: Meld, code: int, rules: Rules, by: int, low: bool = False) -> Meld:
    """The meld with ``code`` laid off on it by player ``by``, or
    :class:`IllegalActionError` saying why it does not fit.

    A joker extends a run at its high end, or its low end with ``low``; a natural card
    extends the end its rank fits.
    """
    if low not in layoff_targets(meld, rules).ends[code]:
        problem = layoff_problem(meld, code, rules, low)
        assert problem is not None  # layoff_targets asks the same predicate
        raise problem
    if meld.kind == "set":
        # The natural cards in order, then the jokers (whose code is above every natural
        # card's): the card goes after those not above it, a twin after its twin.
        cards = meld.cards
        i = 0
        while i < len(cards) and cards[i] <= code:
            i += 1
        layers = meld.layers
        return Meld("set", (*cards[:i], code, *cards[i:]), (*layers[:i], by, *layers[i:]),
                    meld.owner, rank=meld.rank)
    if code == JOKER_CODE:
        at_low = low
    else:
        # The card fits (asked above): at the high end where its place is the one above
        # the run (tried first, as :func:`_run_end` does), else at the low end.
        rank = code % 13 + 1
        at_low = not (rank == meld.high + 1 or (rank == 1 and meld.high == 13
                                                 and meld.low > 1 and rules.high_aces))
    if at_low:
        return Meld("run", (code, *meld.cards), (by, *meld.layers), meld.owner,
                    suit=meld.suit, low=meld.low - 1, high=meld.high)
    return Meld("run", (*meld.cards, code), (*meld.layers, by), meld.owner,
                suit=meld.suit, low=meld.low, high=meld.high + 1)


# -- listing the melds of a hand -----------------------------------------------------
#
# The melds of a hand depend only on which ranks it holds in each suit (a bitmask per
# suit) and, with jokers, on how many jokers it holds. The melds of each mask are listed
# once and kept (the tables below), so listing a hand's melds is a few lookups.


@cache
def _intervals(mask: int, run_min: int) -> tuple[tuple[int, int], ...]:
    """Every interval of consecutive set bits (positions 1..14) of length >= run_min."""
    out = []
    pos = 1
    while pos <= 14:
        if mask >> pos & 1:
            start = pos
            while pos <= 14 and mask >> pos & 1:
                pos += 1
            end = pos - 1
            for lo in range(start, end - run_min + 2):
                for hi in range(lo + run_min - 1, end + 1):
                    out.append((lo, hi))
        else:
            pos += 1
    return tuple(out)


@cache
def _subsets(mask: int, set_min: int, set_max: int) -> tuple[tuple[int, ...], ...]:
    """Subsets (as suit tuples) of a 4-bit suit mask with set_min..set_max members."""
    suits = [s for s in range(4) if mask >> s & 1]
    out = []
    for sub in range(1, 16):
        if sub & mask == sub and set_min <= sub.bit_count() <= set_max:
            out.append(tuple(s for s in suits if sub >> s & 1))
    return tuple(out)


@cache
def _set_melds(suits: int, rank: int, set_min: int, set_max: int) -> tuple[tuple[int, ...], ...]:
    """The sets (no jokers) of the cards of ``rank`` in the suits of the 4-bit mask."""
    return tuple(tuple(s * 13 + rank - 1 for s in sub)
                 for sub in _subsets(suits, set_min, set_max))


@cache
def _run_melds(positions: int, suit: int, run_min: int) -> tuple[tuple[int, ...], ...]:
    """The runs (no jokers) of the cards of ``suit`` at the positions of the mask (bit 1 a
    low ace, 14 a high ace)."""
    base = suit * 13 - 1
    return tuple(
        tuple(base + (1 if p == 14 else p) for p in range(lo, hi + 1))
        for lo, hi in _intervals(positions, run_min)
        if not (lo == 1 and hi == 14)  # the ace is low or high in a run, never both
    )


def find_melds(hand: Sequence[int], rules: Rules) -> list[tuple[int, ...]]:
    """Every distinct meld the hand can form, each as its cards in notation order.

    Without jokers: every set of ``set_min``..``set_max`` suits of a rank and every run
    of ``run_min`` or more. With jokers, also every way to fill gaps (or replace natural
    cards) with the jokers the hand holds.
    """
    packed = 0
    for c in hand:
        packed |= _PACKED_BIT[c]
    # Bit r + 1 of a suit's mask for the rank-r card of the suit (bit 1: the ace).
    clubs = packed & _SUIT_MASK
    diamonds = packed >> 15 & _SUIT_MASK
    hearts = packed >> 30 & _SUIT_MASK
    spades = packed >> 45 & _SUIT_MASK
    if packed >> 60:  # a joker
        return _find_with_jokers(clubs, diamonds, hearts, spades, hand.count(JOKER_CODE),
                                 rules)
    out: list[tuple[int, ...]] = []
    # The ranks held in three suits or more (a set needs set_min >= 3 of them).
    ranks = clubs & diamonds & (hearts | spades) | hearts & spades & (clubs | diamonds)
    while ranks:
        rank = (ranks & -ranks).bit_length() - 1
        ranks &= ranks - 1
        suits = (clubs >> rank & 1 | (diamonds >> rank & 1) << 1 | (hearts >> rank & 1) << 2
                 | (spades >> rank & 1) << 3)
        key = ((rules.set_max * 8 + rules.set_min) * 16 + rank) * 16 + suits
        sets = _SETS.get(key)
        if sets is None:
            sets = _SETS[key] = _set_melds(suits, rank, rules.set_min, rules.set_max)
        out.extend(sets)
    high = rules.high_aces
    run_min = rules.run_min
    for s, m in enumerate((clubs, diamonds, hearts, spades)):
        if high and m & 2:
            m |= 1 << 14
        # Three places in a row at least (run_min is 3 or more).
        if m & m >> 1 & m >> 2:
            key = (run_min * 4 + s) << 16 | m
            runs = _RUNS.get(key)
            if runs is None:
                runs = _RUNS[key] = _run_melds(m, s, run_min)
            out.extend(runs)
    return out


_PACKED_BIT: Final = tuple(2 << code % 13 << 15 * (code // 13) for code in range(JOKER_CODE + 1))
"""Each card's bit in the four suit masks of a hand packed into one number, fifteen bits a
suit (the joker's is bit 61: any bit from 60 up tells of a joker)."""
_SUIT_MASK: Final = (1 << 15) - 1

_SETS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
_RUNS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
""":func:`_set_melds` and :func:`_run_melds` by one whole-number key each: a lookup that
compiles to a plain dictionary read (:func:`find_melds` asks them at every turn)."""


def suit_masks(cards: Iterable[int], into: list[int] | None = None) -> tuple[list[int], int]:
    """The suit masks of ``cards`` as :func:`find_melds` makes them (bit r + 1 of mask s
    for the card of rank r in suit s; bit 1 the ace; a fifth mask is set by jokers), and
    how many jokers they hold. With ``into``, the cards are added to those masks."""
    packed = 0
    jokers = 0
    for c in cards:
        packed |= _PACKED_BIT[c]
        if c == JOKER_CODE:
            jokers += 1
    masks = [packed & _SUIT_MASK, packed >> 15 & _SUIT_MASK, packed >> 30 & _SUIT_MASK,
             packed >> 45 & _SUIT_MASK, 2 if jokers else 0]
    if into is None:
        return masks, jokers
    for s in range(5):
        into[s] |= masks[s]
    return into, jokers


def forms_meld_with(card: int, masks: Sequence[int], rules: Rules) -> bool:
    """Whether cards without jokers whose :func:`suit_masks` are ``masks``, among them the
    natural ``card``, form a meld holding ``card``: what ``any(card in m for m in
    find_melds(cards))`` answers, from a few bit tests instead of the list (a pile card
    that must be used asks this of every depth of the pile)."""
    return _shortest_with_masks(card, list(masks), rules.set_min, rules.run_min,
                                rules.high_aces) > 0


def shortest_meld_with(card: int, masks: Sequence[int], rules: Rules) -> int:
    """The fewest cards of a meld holding natural ``card`` that cards without jokers whose
    :func:`suit_masks` are ``masks`` (``card`` among them) can form, or 0 where they form
    none: ``min(len(m) for m in find_melds(cards) if card in m)`` from a few bit tests.

    A set holding the card needs its rank in ``set_min`` suits (``set_min`` of them make a
    set, never more than ``set_max``); a run needs ``run_min`` consecutive places, one of
    them the card's (an ace's place 14 too where aces may be high). No run of
    ``run_min`` <= 13 places has both aces, so the K-A-2 rule never forbids one found
    here. A longer meld holding the card always holds a shortest one: ``set_min`` of its
    suits, ``run_min`` of its places around the card.
    """
    return _shortest_with_masks(card, list(masks), rules.set_min, rules.run_min,
                                rules.high_aces)


def _shortest_with_masks(card: int, masks: list[int], set_min: int, run_min: int,
                         high_aces: bool) -> int:
    """:func:`shortest_meld_with` under the rules' ``set_min``, ``run_min`` and
    ``high_aces`` (read once by a caller that asks of many cards); ``masks`` a list of
    the four suit masks (a list so that the compiled build indexes it natively)."""
    place = card % 13 + 1
    in_set = ((masks[0] >> place & 1) + (masks[1] >> place & 1) + (masks[2] >> place & 1)
              + (masks[3] >> place & 1)) >= set_min
    if in_set and set_min <= run_min:
        return set_min  # no run holding the card is shorter
    m = masks[card // 13]
    if high_aces and m & 2:  # an ace held is also place 14
        m |= 1 << 14
    # The places that start run_min places held in a row; one of them must start a run
    # holding the card's place (the ace's place 14 too, where aces may be high).
    starts = m
    for step in range(1, run_min):
        starts &= m >> step
    first = place - run_min + 1  # the lowest place a run holding the card can start at
    if starts and (starts & ((2 << place) - (1 << (first if first > 1 else 1))) or (
            high_aces and place == 1 and starts & ((2 << 14) - (1 << (15 - run_min))))):
        return run_min
    return set_min if in_set else 0


def pack(cards: list[int]) -> int:
    """The suit masks of ``cards`` packed into one number as :func:`find_melds` packs a
    hand: fifteen bits a suit, bit r + 1 of suit s's for the card of rank r (bit 1 the
    ace); any bit from 60 up tells of a joker. (A list: compiled, its items are read
    natively.)"""
    packed = 0
    for c in cards:
        packed |= _PACKED_BIT[c]
    return packed


def melding_cards(packed: int, set_min: int, run_min: int, high_aces: bool) -> int:
    """Of the natural cards ``packed`` (:func:`pack`), those in some meld of them, packed
    the same way: every card of a rank held in ``set_min`` suits or more, and every card
    in ``run_min`` or more places of a suit held in a row (an ace also at place 14 where
    aces may be high). :func:`forms_meld_with` for every card at once, in a few
    whole-number operations: a pile card that must be used asks it of the whole pile.

    The suits cannot run into each other: bit 0 of each suit's fifteen is never set, so no
    row of places crosses from one suit into the next."""
    clubs = packed & _SUIT_MASK
    diamonds = packed >> 15 & _SUIT_MASK
    hearts = packed >> 30 & _SUIT_MASK
    spades = packed >> 45 & _SUIT_MASK
    if set_min == 3:
        ranks = clubs & diamonds & (hearts | spades) | hearts & spades & (clubs | diamonds)
    else:  # set_min is 3 or 4
        ranks = clubs & diamonds & hearts & spades
    out = packed & ranks * _EVERY_SUIT
    places = packed
    if high_aces:
        places |= (places & _ACES) << 13
    if run_min == 3:  # the usual rule, written out (in Python a loop costs more)
        starts = places & places >> 1 & places >> 2
        covered = starts | starts << 1 | starts << 2
    else:
        starts = places  # the places that start run_min places held in a row
        for step in range(1, run_min):
            starts &= places >> step
        covered = starts
        for step in range(1, run_min):
            covered |= starts << step
    if starts:
        if high_aces:  # an ace at place 14 is the card at place 1
            covered |= covered >> 13 & _ACES
        out |= covered & packed
    return out


_EVERY_SUIT: Final = 1 | 1 << 15 | 1 << 30 | 1 << 45
"""A rank's mask times this is its bits in all four suits of a packed mask."""
_ACES: Final = 2 * _EVERY_SUIT
"""The aces (place 1) of the four suits of a packed mask."""


_RANK_CARDS: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
"""The four natural cards of each rank (0-12) as a bit mask (bit ``c`` for card ``c``)."""


def outs_in_masks(card: int, held: int, unseen: int) -> int:
    """The outs of natural ``card`` in a hand: how many of the ``unseen`` cards would make
    a meld of three with it and one card of the hand, counted once for each such card of
    the hand (a card two places away and one place away both count the card between).
    ``held`` is the hand and ``unseen`` the cards counted, as bit masks (bit ``c`` for
    card ``c``), and no unseen card is one the hand holds: each unseen card of the rank
    where the hand holds another card of it, and each unseen card of the suit that makes
    three in a row with ``card`` and a card of the hand (aces low). A few bit tests, for
    the bots, which ask it of every card they might throw."""
    rank = card % 13
    base = card - rank
    outs = 0
    if held & _RANK_CARDS[rank] & ~(1 << card):
        outs = (unseen & _RANK_CARDS[rank]).bit_count()
    # The suit's ranks two places up, so that rank - 2 is bit ``rank`` (none negative).
    mine = (held >> base & 0x1FFF & ~(1 << rank)) << 2
    free = (unseen >> base & 0x1FFF) << 2
    if mine >> (rank + 3) & 1:  # rank + 1 held: rank - 1 or rank + 2 completes
        outs += (free >> (rank + 1) & 1) + (free >> (rank + 4) & 1)
    if mine >> (rank + 1) & 1:  # rank - 1 held: rank - 2 or rank + 1
        outs += (free >> rank & 1) + (free >> (rank + 3) & 1)
    if mine >> (rank + 4) & 1:  # rank + 2 held: rank + 1 between
        outs += free >> (rank + 3) & 1
    if mine >> rank & 1:  # rank - 2 held: rank - 1 between
        outs += free >> (rank + 1) & 1
    return outs


def _find_with_jokers(
    clubs: int, diamonds: int, hearts: int, spades: int, jokers: int, rules: Rules
) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    set_min = rules.set_min
    set_max = rules.set_max
    set_key = ((set_max * 8 + set_min) * 16 + jokers) * 16
    held = clubs | diamonds | hearts | spades
    while held:
        rank = (held & -held).bit_length() - 1
        held &= held - 1
        suits = (clubs >> rank & 1 | (diamonds >> rank & 1) << 1 | (hearts >> rank & 1) << 2
                 | (spades >> rank & 1) << 3)
        key = (set_key + rank) * 16 + suits
        sets = _JOKER_SETS.get(key)
        if sets is None:
            sets = _JOKER_SETS[key] = _joker_set_melds(suits, rank, jokers, set_min, set_max)
        out.extend(sets)
    run_min = rules.run_min
    high = rules.high_aces
    top = 14 if high else 13
    run_key = ((run_min * 8 + set_max) * 16 + jokers) * 2 + high
    for s, m in enumerate((clubs, diamonds, hearts, spades)):
        if m:
            if high and m & 2:
                m |= 1 << 14
            key = (run_key * 4 + s) << 15 | m
            runs = _JOKER_RUNS.get(key)
            if runs is None:
                if len(_JOKER_RUNS) >= _JOKER_RUNS_LIMIT:
                    _JOKER_RUNS.clear()
                runs = _JOKER_RUNS[key] = _joker_run_melds(m, s, jokers, run_min, set_max,
                                                           top)
            out.extend(runs)
    return out


_JOKER_SETS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
_JOKER_RUNS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
_JOKER_RUNS_LIMIT: Final = 1 << 15
""":func:`_joker_set_melds` and :func:`_joker_run_melds` by one whole-number key each
(the runs' table is emptied when it grows past its limit)."""


def _joker_set_melds(
    suits: int, rank: int, jokers: int, set_min: int, set_max: int
) -> tuple[tuple[int, ...], ...]:
    """The sets of the cards of ``rank`` in the suits of the 4-bit mask and up to
    ``jokers`` jokers."""
    out = []
    for sub in range(1, 16):
        if sub & suits != sub:
            continue
        k = sub.bit_count()
        naturals = tuple(s * 13 + rank - 1 for s in range(4) if sub >> s & 1)
        for size in range(max(set_min, k), min(set_max, k + jokers) + 1):
            out.append(naturals + (JOKER_CODE,) * (size - k))
    return tuple(out)


def _joker_run_melds(
    positions: int, suit: int, jokers: int, run_min: int, set_max: int, top: int
) -> tuple[tuple[int, ...], ...]:
    """The runs of the cards of ``suit`` at the positions of the mask (bit 1 a low ace,
    14 a high ace, ``top`` the highest place) and up to ``jokers`` jokers, in gaps or in
    place of natural cards."""
    out = []
    for lo in range(1, top + 1):
        # Grow the run upwards from lo; once it lacks more cards than there are
        # jokers, every longer run from lo does too.
        present: list[int] = []
        missing = 0
        for hi in range(lo, top + 1):
            if positions >> hi & 1:
                present.append(hi)
            else:
                missing += 1
                if missing > jokers:
                    break
            length = hi - lo + 1
            if length < run_min or not present:
                continue
            if lo == 1 and hi == 14:
                continue  # the ace is low or high in a run, never both
            if len(present) == 1 and length <= set_max:
                continue  # one natural and jokers reads as a set in notation
            spare = jokers - missing
            for replaced in _replacements(present, spare, length, set_max):
                out.append(tuple(
                    JOKER_CODE if (p in replaced or not positions >> p & 1)
                    else suit * 13 + (0 if p == 14 else p - 1)
                    for p in range(lo, hi + 1)
                ))
    return tuple(out)


def _replacements(
    present: list[int], spare: int, length: int, set_max: int
) -> list[frozenset[int]]:
    """Ways to put up to ``spare`` jokers in place of the natural cards at ``present``
    positions, keeping the meld readable as a run: at least two natural cards left, or one
    when the meld is longer than a set can be."""
    fewest = 1 if length > set_max else 2
    out: list[frozenset[int]] = [frozenset()]
    for k in range(1, min(spare, len(present) - fewest) + 1):
        for combo in combinations(present, k):
            out.append(frozenset(combo))
    return out


# -- the best partition of a hand ----------------------------------------------------


def best_deadwood(hand: Sequence[int], rules: Rules) -> tuple[int, list[tuple[int, ...]]]:
    """The least hand points left after laying down disjoint melds, and those melds.

    >>> from rummykit.rules import preset
    >>> from rummykit.cards import parse_cards
    >>> points, melds = best_deadwood(parse_cards("5H 6H 7H 7C 7D KS".split()), preset("basic"))
    >>> points, [format_cards(m) for m in melds]
    (21, ['7C 7D 7H'])
    """
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    candidates = find_melds(hand, rules)
    memo: dict[tuple[int, ...], tuple[int, list[tuple[int, ...]]]] = {}

    def solve(remaining: tuple[int, ...]) -> tuple[int, list[tuple[int, ...]]]:
        if remaining in memo:
            return memo[remaining]
        best: tuple[int, list[tuple[int, ...]]] = (hand_points(remaining, rules), [])
        if remaining:
            first = remaining[0]
            rest_counts: dict[int, int] = {}
            for c in remaining:
                rest_counts[c] = rest_counts.get(c, 0) + 1
            # Either the first card stays deadwood, or it goes into some meld.
            skip = solve(remaining[1:])
            if skip[0] + card_points(first, rules) < best[0]:
                best = (skip[0] + card_points(first, rules), skip[1])
            for meld in candidates:
                if first not in meld:
                    continue
                need: dict[int, int] = {}
                for c in meld:
                    need[c] = need.get(c, 0) + 1
                if any(rest_counts.get(c, 0) < k for c, k in need.items()):
                    continue
                left = list(remaining)
                for c in meld:
                    left.remove(c)
                sub = solve(tuple(left))
                if sub[0] < best[0]:
                    best = (sub[0], [meld, *sub[1]])
        memo[remaining] = best
        return best

    return solve(tuple(sorted(hand)))
