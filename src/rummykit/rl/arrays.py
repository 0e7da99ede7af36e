"""The deals as arrays: the engine's rules for one-deck games as NumPy operations.

:class:`Deals` holds ``n`` deals, each a row of a few arrays: every hand, the known cards,
the table's melds and the cards each takes as words of 52 bits (a bit per card code), the
stock and the pile in order. Each rule is one array operation over all the rows it
concerns: :meth:`Deals.legal_melds`, :meth:`Deals.layoffs` and :meth:`Deals.discards` list
what the player to move may do, :meth:`Deals.draw_stock` to :meth:`Deals.discard` play it,
:meth:`Deals.play_random` plays as the ``random`` bot.
:class:`~rummykit.rl.batched.BatchedRummyEnv` is the Gymnasium environment over them.

What they play, card for card as the engine does (the tests play both side by side and
compare every seat's observation, mask and reward at every step): the rule sets of one
deck without jokers (aces low, or low and high: Q-K-A, never K-A-2), where only the
pile's top card may be taken, a taken card may not be discarded that turn (or only as
the last card), the last card may be melded or laid off, there is no opening, the pile
is turned over or shuffled into a new stock (a limited number of times) when the stock
runs out, and the winner collects the hand points. Those are the presets ``classic``,
``basic``, ``one-deal`` and ``limited-stock``, with their options ``aces``,
``melds_per_turn``, ``taken_discard``, ``stock_out``, ``turn_overs``, ``refills``,
``repetition``, ``first_dealer`` and ``rummy_multiplier``; :func:`unsupported_rule` names
the rule that keeps any other rules object out. A refill is shuffled as the engine
shuffles it, from the deal's seed.

A position that comes up again (the ``repetition`` rule) is recognized by a 64-bit hash
of the seat to move, the pile in order and every hand: two different positions would
have to share a hash to be taken for one another.

>>> from rummykit.rules import preset
>>> deals = Deals(preset("classic"), 2, 3)
>>> deals.deal(np.arange(3), np.random.default_rng(0))
>>> [int(x) for x in deals.stock_n], [int(x) for x in deals.pile_n]
([31, 31, 31], [1, 1, 1])
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine.deal import Deal
from rummykit.engine.layout import refill_rng
from rummykit.engine.shuffle import shuffle
from rummykit.rl.actions import max_table_melds
from rummykit.rules import Rules

__all__ = ["BIT", "CARDS", "Deals", "popcount", "unpack", "unsupported_rule"]

Array = npt.NDArray[Any]

CARDS = 52
_U = np.uint64
_SHIFTS = np.arange(CARDS, dtype=_U)
BIT = (np.ones(CARDS, dtype=_U) << _SHIFTS)
"""The bit of each card code in a hand's word."""
_ALL = _U((1 << CARDS) - 1)
_SUIT_BITS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=_U)
_RANK_BITS = np.array([sum(1 << (13 * s + r) for s in range(4)) for r in range(13)],
                      dtype=_U)
_POINTS = np.array([min(c % 13 + 1, 10) for c in range(CARDS)], dtype=np.int64)
_NO_CARD = -1
_SET, _RUN = 1, 2
_MIX = _U(0x9E3779B97F4A7C15)
_PILE_MIX = _U(0xD6E8FEB86659FD93)


def popcount(x: Array) -> Array:
    """The set bits of each uint64 word."""
    x = x - ((x >> _U(1)) & _U(0x5555555555555555))
    x = (x & _U(0x3333333333333333)) + ((x >> _U(2)) & _U(0x3333333333333333))
    x = (x + (x >> _U(4))) & _U(0x0F0F0F0F0F0F0F0F)
    return ((x * _U(0x0101010101010101)) >> _U(56)).astype(np.int64)


def unpack(words: Array) -> Array:
    """Each word's 52 card bits, as 0/1 (a last axis of 52)."""
    raw = np.ascontiguousarray(words, dtype=_U)[..., None].view(np.uint8)
    return np.unpackbits(raw, axis=-1, count=CARDS, bitorder="little")


def unsupported_rule(rules: Rules) -> str | None:
    """Why the arrays cannot play ``rules`` (a rule in words), or None where they can."""
    checks = [
        (rules.decks == 1, "decks: one deck only"),
        (rules.jokers == 0, "jokers: none"),

        (rules.draw_pile == "top", "draw_pile: the top card only"),
        (not rules.pile_card_must_be_used, "the pile card need not be used"),
        (rules.taken_discard in ("forbidden", "last-card"),
         "taken_discard: forbidden or last-card"),
        (rules.last_discard == "optional", "last_discard: optional"),
        (rules.opening == 0, "no opening"),
        (rules.stock_out in ("turn-over", "refill"), "stock_out: turn-over or refill"),
        (rules.scoring == "collect", "scoring: collect"),
        (rules.set_max <= 4 and rules.set_min >= 2 and rules.run_min >= 2,
         "sets of at most 4, melds of 2 cards or more"),
        (rules.ace_points == 1 and rules.court_points == 10, "an ace 1, a court card 10"),
    ]
    for ok, rule in checks:
        if not ok:
            return rule
    return None


class _Candidates:
    """Every meld a hand can lay, in the order the action space chooses its cards."""

    def __init__(self, rules: Rules) -> None:
        seqs: list[list[int]] = []
        kinds: list[int] = []
        for rank in range(13):
            for size in range(rules.set_min, rules.set_max + 1):
                for suits in combinations(range(4), size):
                    seqs.append([13 * s + rank for s in suits])
                    kinds.append(_SET)
        top = _top(rules)
        ends: list[tuple[int, int]] = []
        for suit in range(4):
            for low in range(1, top + 1):
                for high in range(low + rules.run_min - 1, top + 1):
                    if high - low < 13:  # (an ace at both ends would be two aces)
                        seqs.append([13 * suit + (p - 1) % 13 for p in range(low, high + 1)])
                        kinds.append(_RUN)
                        ends.append((low, high))
        k = len(seqs)
        self.low = np.zeros(k, dtype=np.int64)
        self.high = np.zeros(k, dtype=np.int64)
        """A run's places, 1 (the ace low) to 14 (the ace high); 0 for a set."""
        self.low[k - len(ends):] = [lo for lo, _ in ends]
        self.high[k - len(ends):] = [hi for _, hi in ends]
        self.count = k
        self.kind = np.array(kinds, dtype=np.int8)
        self.key = np.array([s[0] % 13 if kd == _SET else s[-1] // 13
                             for s, kd in zip(seqs, kinds, strict=True)], dtype=np.int64)
        self.length = np.array([len(s) for s in seqs], dtype=np.int64)
        self.seq = np.full((k, 14), _NO_CARD, dtype=np.int64)
        for i, s in enumerate(seqs):
            self.seq[i, :len(s)] = s
        self.bits = np.array([sum(1 << c for c in s) for s in seqs], dtype=_U)
        self.first = self.seq[:, 0].copy()
        self.fit = _fits(self.bits, self.kind, self.key, self.low, self.high, rules)


def _top(rules: Rules) -> int:
    """A run's highest place: 14 where the ace is high too, else 13 (the king)."""
    return 14 if rules.high_aces else 13


def _fits(bits: Array, kind: Array, key: Array, low: Array, high: Array,
          rules: Rules) -> Array:
    """The cards that may be laid off on melds (any shape): a run's next card at either
    end (places 1, the ace low, to 13 or 14, the ace high), a set's missing suits while it
    has fewer than ``set_max`` cards."""
    is_run = kind == _RUN
    suit = np.where(is_run, key, 0) * 13
    below = np.where(is_run & (low > 1), BIT[suit + np.maximum(low - 2, 0)], _U(0))
    above = np.where(is_run & (high < _top(rules)), BIT[suit + high % 13], _U(0))
    is_set = (kind == _SET) & (popcount(bits) < rules.set_max)
    a_set = np.where(is_set, _RANK_BITS[np.where(is_set, key, 0)], _U(0))
    return np.where(is_run, below | above, a_set) & ~bits


class Deals:
    """``n`` deals of one rules object as arrays (see the module's description): the
    engine's rules as array operations, each on the rows given."""

    def __init__(self, rules: Rules, players: int, n: int) -> None:
        reason = unsupported_rule(rules)
        if reason is not None:
            raise ValueError(f"the batched deals cannot play {rules.preset_name or 'these'} "
                             f"rules ({reason} is what they play)")
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.n = n
        self.melds = max_table_melds(rules)
        self.cand = _Candidates(rules)
        self.meld_limit = 1 if rules.melds_per_turn == "one" else 1 << 30
        self._run_starts = _U(sum(1 << (13 * s + r) for s in range(4)
                                  for r in range(13 - rules.run_min + 1)))
        """The cards a run of the shortest length can start at (not past its suit)."""
        self.hand_size = rules.hand_size[players - 2]
        p, m = players, self.melds
        self.hands = np.zeros((n, p), dtype=_U)
        self.known = np.zeros((n, p), dtype=_U)
        """The cards every player knows each seat holds (taken from the pile, or drawn
        from a turned-over stock, and not shown since)."""
        self.stock = np.zeros((n, CARDS), dtype=np.int64)
        self.stock_n = np.zeros(n, dtype=np.int64)
        self.stock_known = np.zeros(n, dtype=bool)
        self.pile = np.zeros((n, CARDS + 1), dtype=np.int64)
        self.pile_n = np.zeros(n, dtype=np.int64)
        self.pile_bits = np.zeros(n, dtype=_U)
        self.pile_hash = np.zeros((n, CARDS + 2), dtype=_U)
        self.table_bits = np.zeros(n, dtype=_U)
        self.meld_bits = np.zeros((n, m), dtype=_U)
        self.meld_kind = np.zeros((n, m), dtype=np.int8)
        self.meld_key = np.zeros((n, m), dtype=np.int64)
        self.meld_low = np.zeros((n, m), dtype=np.int64)
        self.meld_high = np.zeros((n, m), dtype=np.int64)
        """A run's places, 1 (the ace low) to 13 or 14 (the ace high)."""
        self.meld_n = np.zeros(n, dtype=np.int64)
        self.meld_fit = np.zeros((n, m), dtype=_U)
        """The cards each table meld takes as a lay-off."""
        self.table_fit = np.zeros(n, dtype=_U)
        """The cards some table meld takes."""
        self.to_move = np.zeros(n, dtype=np.int64)
        self.dealer = np.zeros(n, dtype=np.int64)
        self.phase = np.zeros(n, dtype=np.int64)
        """0 draw, 1 play, 2 over."""
        self.taken = np.full(n, _NO_CARD, dtype=np.int64)
        self.turn_melds = np.zeros(n, dtype=np.int64)
        self.turn_laid = np.zeros(n, dtype=bool)
        self.laid = np.zeros((n, p), dtype=bool)
        self.turn_overs = np.zeros(n, dtype=np.int64)
        self.refills_used = np.zeros(n, dtype=np.int64)
        self.seed = np.zeros(n, dtype=np.int64)
        self.index = np.zeros(n, dtype=np.int64)
        """Each deal's seed and index in its match: its refills are shuffled from them, as
        the engine shuffles them."""
        self._refills = rules.refills_for(players)
        self._taken_stays = rules.taken_discard == "forbidden"
        """Whether the taken card may never be discarded in its turn (else: as the last)."""
        self.points = np.zeros((n, p), dtype=np.int64)
        self.winner = np.full(n, -1, dtype=np.int64)
        self.pos_keys = np.zeros((n, 8), dtype=_U)
        self.pos_count = np.zeros((n, 8), dtype=np.int64)
        self.pos_n = np.zeros(n, dtype=np.int64)

    # -- dealing ---------------------------------------------------------------------

    def deal(self, rows: Array, rng: np.random.Generator) -> None:
        """Deal ``rows`` again: a uniform shuffle each, the dealer by the rules."""
        k = len(rows)
        if not k:
            return
        p, h = self.players, self.hand_size
        order = np.argsort(rng.random((k, CARDS)), axis=1)
        self._clear(rows)
        dealt = BIT[order[:, :p * h]].reshape(k, p, h)
        self.hands[rows] = np.bitwise_or.reduce(dealt, axis=2)
        up = order[:, p * h]
        self.pile[rows, 0] = up
        self.pile_n[rows] = 1
        self.pile_bits[rows] = BIT[up]
        self.pile_hash[rows, 1] = _pile_step(self.pile_hash[rows, 0], up)
        rest = CARDS - p * h - 1
        self.stock[rows, :rest] = order[:, p * h + 1:]
        self.stock_n[rows] = rest
        dealer = (rng.integers(0, p, size=k) if self.rules.first_dealer == "random"
                  else np.zeros(k, dtype=np.int64))
        self.dealer[rows] = dealer
        self.to_move[rows] = (dealer + 1) % p
        self.seed[rows] = rng.integers(0, 1 << 48, size=k)

    def _clear(self, rows: Array) -> None:
        for name in ("hands", "known", "stock_n", "stock_known", "pile_n", "pile_bits",
                     "table_bits", "meld_bits", "meld_fit", "table_fit", "meld_kind",
                     "meld_key", "meld_low", "meld_high", "meld_n", "phase", "turn_melds",
                     "turn_laid", "laid", "turn_overs", "refills_used", "index", "points",
                     "pos_n"):
            getattr(self, name)[rows] = 0
        self.taken[rows] = _NO_CARD
        self.winner[rows] = -1
        self.pile_hash[rows, 0] = 0

    def load(self, row: int, deal: Deal) -> None:
        """Make row ``row`` the engine's ``deal`` (at its start: no move played yet)."""
        if deal.move_count or deal.rules != self.rules or deal.players != self.players:
            raise ValueError("load a deal of these rules and players before its first move")
        rows = np.array([row])
        self._clear(rows)
        for s, hand in enumerate(deal.hands):
            self.hands[row, s] = sum(1 << c for c in hand)
        self.stock[row, :len(deal.stock)] = deal.stock
        self.stock_n[row] = len(deal.stock)
        for c in deal.pile:
            i = self.pile_n[row]
            self.pile[row, i] = c
            self.pile_hash[rows, i + 1] = _pile_step(self.pile_hash[rows, i], c)
            self.pile_n[row] = i + 1
        self.pile_bits[row] = sum(1 << c for c in deal.pile)
        self.dealer[row] = deal.dealer
        self.to_move[row] = deal.to_move
        self.seed[row] = deal.seed
        self.index[row] = deal.index

    # -- the legal actions -----------------------------------------------------------

    def legal_melds(self, rows: Array) -> tuple[Array, Array]:
        """Which candidate melds the player to move in ``rows`` (in play) may lay now:
        the places in ``rows`` that may lay one at least (or a few more), and for each of
        them a row of flags, one per candidate."""
        cand = self.cand
        hands = self.hands[rows, self.to_move[rows]]
        some = np.flatnonzero(self._may_meld(hands) & (self.turn_melds[rows] < self.meld_limit))
        if not len(some):
            return some, np.zeros((0, cand.count), dtype=bool)
        rows = rows[some]
        hand = hands[some][:, None]
        ok = (hand & cand.bits) == cand.bits
        # A turn that took the pile card must still end: what a meld leaves is not the
        # taken card alone, or that card can be laid off afterwards. Only where the rest
        # of the hand has a meld's shape (one rank, or one suit in a row) can it be.
        taken = self.taken[rows]
        tb = np.where(taken >= 0, BIT[np.maximum(taken, 0)], _U(0))
        rest = hand[:, 0] & ~tb
        low = rest & (~rest + _U(1))
        suit = _SUIT_BITS[_card_of(low) // 13]
        rank = _RANK_BITS[_card_of(low) % 13]
        shaped = (((rest & suit) == rest) & (((rest + low) & rest) == 0)) | ((rest & rank) == rest)
        if self.rules.high_aces:  # (a run to the ace high is not in a row in the word)
            shaped |= (rest & suit) == rest
        at = np.flatnonzero((taken >= 0) & ((hand[:, 0] & tb) != 0) & shaped
                            & self._taken_stays)
        if len(at):
            fit = (self.table_fit[rows[at]][:, None] | cand.fit) & tb[at, None]
            ok[at] &= ~((cand.bits == rest[at, None]) & (fit == 0))
        return some, ok

    def _may_meld(self, hands: Array) -> Array:
        """Whether each hand holds some meld's cards (a quick test on the words: three
        cards of a rank, or the run's shortest length in a row within a suit)."""
        rules = self.rules
        a, b, c, d = ((hands >> _U(13 * s)) & _U(0x1FFF) for s in range(4))
        if rules.set_min == 3:  # the ranks held three times or more
            found = ((a & b & (c | d)) | (c & d & (a | b))) != 0
        else:
            counts = [np.full(len(hands), 0x1FFF, dtype=_U)]
            counts += [np.zeros(len(hands), dtype=_U) for _ in range(4)]
            for bits in (a, b, c, d):  # counts[k]: the ranks held at least k times
                for k in range(4, 0, -1):
                    counts[k] = counts[k] | (counts[k - 1] & bits)
            found = counts[min(rules.set_min, 4)] != 0
        if rules.high_aces:  # each suit's places 1 to 14, the ace at both ends
            for bits in (a, b, c, d):
                places = bits | ((bits & _U(1)) << _U(13))
                run = places
                for k in range(1, rules.run_min):
                    run = run & (places >> _U(k))
                found = found | (run != 0)
            return found  # type: ignore[no-any-return]
        run = hands
        for k in range(1, rules.run_min):
            run = run & (hands >> _U(k))
        return found | ((run & self._run_starts) != 0)  # type: ignore[no-any-return]

    def layoffs(self, rows: Array) -> Array:
        """For each table meld of ``rows``, the cards of the mover's hand that may be laid
        off on it now, as words ``(len(rows), M)``."""
        fits = self.meld_fit[rows]
        seat = self.to_move[rows]
        hand = self.hands[rows, seat]
        out = fits & hand[:, None]
        taken = self.taken[rows]
        # Only a hand of the taken card and one other can be left with the taken card
        # alone: then the lay-off is legal where the taken card still fits somewhere.
        held = (taken >= 0) & ((hand & BIT[np.maximum(taken, 0)]) != 0) & self._taken_stays
        rare = np.flatnonzero(held & (popcount(hand) == 2) & (out != 0).any(axis=1))
        for i in rare:
            tb = int(BIT[taken[i]])
            other = int(hand[i]) & ~tb
            for j in range(int(self.meld_n[rows[i]])):
                if not int(out[i, j]) & other:
                    continue
                row = rows[i:i + 1]
                card = np.array([other.bit_length() - 1])
                low, high = self._grown_ends(row, np.array([j]), card)
                grown = self.meld_bits[row, j] | _U(other)
                new = _fits(grown, self.meld_kind[row, j], self.meld_key[row, j], low, high,
                            self.rules)[0]
                rest = np.bitwise_or.reduce(np.delete(fits[i], j))
                if not int(rest | new) & tb:
                    out[i, j] &= ~_U(other)
        return out

    def stock_drawable(self, rows: Array) -> Array:
        """Whether the mover of each of ``rows`` (drawing) may draw from the stock: it has
        cards, or the pile is there to be turned over."""
        out = self.stock_n[rows] > 0
        if self.rules.stock_out == "turn-over":
            out |= self.pile_n[rows] > 0
        return out

    def discards(self, rows: Array) -> Array:
        """The cards the mover of ``rows`` may discard, as words."""
        hand = self.hands[rows, self.to_move[rows]]
        taken = self.taken[rows]
        kept = taken >= 0
        if not self._taken_stays:  # (last-card: the taken card may go as the last one)
            kept &= popcount(hand) > 1
        return np.where(kept, hand & ~BIT[np.maximum(taken, 0)], hand)

    # -- playing ---------------------------------------------------------------------

    def draw_stock(self, rows: Array) -> None:
        if not len(rows):
            return
        over = rows[self.stock_n[rows] == 0]
        if len(over):  # the pile turned over without shuffling: its bottom card on top
            size = self.pile_n[over]
            src = np.maximum(size[:, None] - 1 - np.arange(CARDS), 0)
            self.stock[over] = np.take_along_axis(self.pile[over], src, axis=1)
            self.stock_n[over] = size
            self.pile_n[over] = 0
            self.pile_bits[over] = 0
            self.turn_overs[over] += 1
            self.stock_known[over] = True
        seat = self.to_move[rows]
        top = self.stock_n[rows] - 1
        card = self.stock[rows, top]
        self.stock_n[rows] = top
        bits = BIT[card]
        self.hands[rows, seat] |= bits
        self.known[rows, seat] |= np.where(self.stock_known[rows], bits, _U(0))
        self.phase[rows] = 1
        self.pos_n[rows] = 0  # the stock never grows back: no position comes again

    def draw_pile(self, rows: Array) -> None:
        if not len(rows):
            return
        self._count_positions(rows)
        seat = self.to_move[rows]
        top = self.pile_n[rows] - 1
        card = self.pile[rows, top]
        self.pile_n[rows] = top
        bits = BIT[card]
        self.pile_bits[rows] &= ~bits
        self.hands[rows, seat] |= bits
        self.known[rows, seat] |= bits
        self.taken[rows] = card
        self.phase[rows] = 1

    def meld(self, rows: Array, cand: Array) -> None:
        c = self.cand
        bits = c.bits[cand]
        at = self.meld_n[rows]
        self.meld_bits[rows, at] = bits
        self.meld_kind[rows, at] = c.kind[cand]
        self.meld_key[rows, at] = c.key[cand]
        self.meld_low[rows, at] = c.low[cand]
        self.meld_high[rows, at] = c.high[cand]
        self.meld_fit[rows, at] = c.fit[cand]
        self.table_fit[rows] |= c.fit[cand]
        self.meld_n[rows] = at + 1
        self.turn_melds[rows] += 1
        self._lay(rows, bits)

    def layoff(self, rows: Array, meld: Array, card: Array) -> None:
        bits = BIT[card]
        grown = self.meld_bits[rows, meld] | bits
        self.meld_bits[rows, meld] = grown
        low, high = self._grown_ends(rows, meld, card)
        self.meld_low[rows, meld] = low
        self.meld_high[rows, meld] = high
        self.meld_fit[rows, meld] = _fits(grown, self.meld_kind[rows, meld],
                                          self.meld_key[rows, meld], low, high, self.rules)
        self.table_fit[rows] = np.bitwise_or.reduce(self.meld_fit[rows], axis=1)
        self._lay(rows, bits)

    def _grown_ends(self, rows: Array, meld: Array, card: Array) -> tuple[Array, Array]:
        """A run's places once ``card`` is laid off on it: at the high end where its place
        is the one above the run (as the engine tries first), else at the low end."""
        low, high = self.meld_low[rows, meld], self.meld_high[rows, meld]
        run = self.meld_kind[rows, meld] == _RUN
        above = 13 * self.meld_key[rows, meld] + high % 13
        at_high = run & (high < _top(self.rules)) & (card == above)
        return np.where(run & ~at_high, low - 1, low), np.where(at_high, high + 1, high)

    def _lay(self, rows: Array, bits: Array) -> None:
        seat = self.to_move[rows]
        self.hands[rows, seat] &= ~bits
        self.known[rows, seat] &= ~bits
        self.table_bits[rows] |= bits
        self.turn_laid[rows] = True
        self.pos_n[rows] = 0  # cards on the table never come back
        out = self.hands[rows, seat] == 0
        if out.any():
            self._finish(rows[out], seat[out])

    def discard(self, rows: Array, card: Array) -> None:
        if not len(rows):
            return
        seat = self.to_move[rows]
        bits = BIT[card]
        self.hands[rows, seat] &= ~bits
        self.known[rows, seat] &= ~bits
        at = self.pile_n[rows]
        self.pile[rows, at] = card
        self.pile_hash[rows, at + 1] = _pile_step(self.pile_hash[rows, at], card)
        self.pile_n[rows] = at + 1
        self.pile_bits[rows] |= bits
        out = self.hands[rows, seat] == 0
        if out.any():
            self._finish(rows[out], seat[out])
        self._end_turn(rows[~out])

    def _end_turn(self, rows: Array) -> None:
        if not len(rows):
            return
        seat = self.to_move[rows]
        self.laid[rows, seat] |= self.turn_laid[rows]
        self.taken[rows] = _NO_CARD
        self.turn_melds[rows] = 0
        self.turn_laid[rows] = False
        self.to_move[rows] = (seat + 1) % self.players
        self.phase[rows] = 0
        empty = self.stock_n[rows] == 0
        if self.rules.stock_out == "refill":
            stuck = empty & ((self.refills_used[rows] >= self._refills) | (self.pile_n[rows] < 2))
            self._refill(rows[empty & ~stuck])
        else:
            stuck = empty & ((self.turn_overs[rows] >= self.rules.turn_overs)
                             | (self.pile_n[rows] == 0))
        if stuck.any():
            self._finish(rows[stuck], np.full(int(stuck.sum()), -1))
            rows = rows[~stuck]
        rows = rows[self.pos_n[rows] > 0]
        if len(rows):
            seen = self._seen(rows, self._position(rows))
            again = seen + 1 >= self.rules.repetition
            if again.any():
                self._finish(rows[again], np.full(int(again.sum()), -1))

    def _refill(self, rows: Array) -> None:
        """The pile but its top card shuffled into a new stock, as the engine shuffles it
        (from the deal's seed, index and refills so far: a few rows, now and then)."""
        for row in rows:
            size = int(self.pile_n[row])
            stock = [int(c) for c in self.pile[row, :size - 1]]
            shuffle(stock, refill_rng(int(self.seed[row]), int(self.index[row]),
                                      int(self.refills_used[row])))
            top = int(self.pile[row, size - 1])
            self.stock[row, :size - 1] = stock
            self.stock_n[row] = size - 1
            self.pile[row, 0] = top
            self.pile_n[row] = 1
            self.pile_bits[row] = BIT[top]
            self.pile_hash[row, 1] = _pile_step(self.pile_hash[row, 0], top)
            self.refills_used[row] += 1
            self.pos_n[row] = 0  # the stock grew back: no earlier position comes again

    def _finish(self, rows: Array, winner: Array) -> None:
        won = winner >= 0
        w = np.maximum(winner, 0)
        rummy = won & ~self.laid[rows, w]
        hand_points = (unpack(self.hands[rows]).astype(np.int64) @ _POINTS).sum(axis=1)
        paid = hand_points * np.where(rummy, self.rules.rummy_multiplier, 1)
        self.points[rows] = 0
        self.points[rows[won], w[won]] = paid[won]
        self.laid[rows[won], w[won]] |= self.turn_laid[rows[won]]
        self.winner[rows] = winner
        self.phase[rows] = 2

    # -- positions that come again ---------------------------------------------------

    def _position(self, rows: Array) -> Array:
        h = (self.to_move[rows].astype(_U) + _U(1)) * _MIX
        h ^= self.pile_n[rows].astype(_U)
        h = h * _MIX ^ self.pile_hash[rows, self.pile_n[rows]]
        for s in range(self.players):
            h = (h * _MIX) ^ self.hands[rows, s]
        h ^= h >> _U(29)
        h = h * _PILE_MIX
        return h ^ (h >> _U(32))

    def _hits(self, rows: Array, keys: Array) -> Array:
        """Where each of ``rows`` keeps its position ``keys`` among those it counted (a row
        of flags each, all False for a position not counted yet)."""
        live = np.arange(self.pos_keys.shape[1]) < self.pos_n[rows][:, None]
        return (self.pos_keys[rows] == keys[:, None]) & live  # type: ignore[no-any-return]

    def _seen(self, rows: Array, keys: Array) -> Array:
        """How often each of ``rows`` has counted its position ``keys``."""
        hit = self._hits(rows, keys)
        return np.where(hit.any(axis=1), self.pos_count[rows, hit.argmax(axis=1)], 0)

    def _count_positions(self, rows: Array) -> None:
        """A draw from the pile leaves the position its turn started with: count it."""
        keys = self._position(rows)
        width = self.pos_keys.shape[1]
        hit = self._hits(rows, keys)
        found = hit.any(axis=1)
        if found.any():
            self.pos_count[rows[found], hit[found].argmax(axis=1)] += 1
        new = rows[~found]
        if len(new):
            if int(self.pos_n[new].max()) >= width:
                grow = ((0, 0), (0, width))
                self.pos_keys = np.pad(self.pos_keys, grow)
                self.pos_count = np.pad(self.pos_count, grow)
            at = self.pos_n[new]
            self.pos_keys[new, at] = keys[~found]
            self.pos_count[new, at] = 1
            self.pos_n[new] = at + 1

    # -- the random bot --------------------------------------------------------------

    def play_random(self, rows: Array, rng: np.random.Generator,
                    log: list[tuple[int, ...]] | None = None) -> None:
        """One move of the mover in each of ``rows``, drawn uniformly from its legal
        actions, as the ``random`` bot plays; each is added to ``log`` (where given) as
        ``(row, kind, a, b)`` with kind 0 stock, 1 pile, 2 meld (a: candidate), 3 lay-off
        (a: meld, b: card), 4 discard (a: card) (for tests and records)."""
        u = rng.random(len(rows))
        drawing = self.phase[rows] == 0
        d = rows[drawing]
        if len(d):
            stock_ok = self.stock_drawable(d)
            pile_ok = self.pile_n[d] > 0
            pick = np.floor(u[drawing] * (stock_ok.astype(np.int64) + pile_ok)).astype(np.int64)
            to_stock = stock_ok & (pick == 0)
            self.draw_stock(d[to_stock])
            self.draw_pile(d[~to_stock])
            if log is not None:
                log += [(int(r), 0) for r in d[to_stock]] + [(int(r), 1) for r in d[~to_stock]]
        r = rows[~drawing]
        if not len(r):
            return
        some, melds = self.legal_melds(r)
        lays = self.layoffs(r)
        disc = self.discards(r)
        n_melds = np.zeros(len(r), dtype=np.int64)
        n_melds[some] = melds.sum(axis=1)
        lay_counts = popcount(lays)
        n_lays = lay_counts.sum(axis=1)
        total = n_melds + n_lays + popcount(disc)
        pick = np.minimum(np.floor(u[~drawing] * total).astype(np.int64), total - 1)
        is_meld = pick < n_melds
        is_lay = ~is_meld & (pick < n_melds + n_lays)
        is_disc = ~(is_meld | is_lay)
        if is_meld.any():
            which = _nth_true(melds[np.searchsorted(some, np.flatnonzero(is_meld))],
                              pick[is_meld])
            self.meld(r[is_meld], which)
            if log is not None:
                log += [(int(a), 2, int(b)) for a, b in zip(r[is_meld], which, strict=True)]
        if is_lay.any():
            rest = pick[is_lay] - n_melds[is_lay]
            cum = np.cumsum(lay_counts[is_lay], axis=1)
            meld = (cum <= rest[:, None]).sum(axis=1)
            before = np.take_along_axis(cum - lay_counts[is_lay], meld[:, None], axis=1)[:, 0]
            words = np.take_along_axis(lays[is_lay], meld[:, None], axis=1)[:, 0]
            card = _nth_bit(words, rest - before)
            self.layoff(r[is_lay], meld, card)
            if log is not None:
                log += [(int(a), 3, int(b), int(c))
                        for a, b, c in zip(r[is_lay], meld, card, strict=True)]
        if is_disc.any():
            rest = pick[is_disc] - n_melds[is_disc] - n_lays[is_disc]
            card = _nth_bit(disc[is_disc], rest)
            self.discard(r[is_disc], card)
            if log is not None:
                log += [(int(a), 4, int(b)) for a, b in zip(r[is_disc], card, strict=True)]


def _card_of(bit: Array) -> Array:
    """The card of each one-bit word (0 for a zero word)."""
    return np.log2(np.maximum(bit, _U(1)).astype(np.float64)).astype(np.int64)


def _pile_step(prefix: Array, card: Array | int) -> Array:
    """The pile's hash with ``card`` put on top."""
    return prefix * _PILE_MIX + (np.asarray(card).astype(_U) + _U(1))


def _nth_true(flags: Array, nth: Array) -> Array:
    """The column of each row's ``nth`` (from 0) True."""
    return (np.cumsum(flags, axis=1) <= nth[:, None]).sum(axis=1)  # type: ignore[no-any-return]


def _nth_bit(words: Array, nth: Array) -> Array:
    """The card of each word's ``nth`` (from 0) set bit, lowest first."""
    return _nth_true(unpack(words), nth)
