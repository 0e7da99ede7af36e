"""The match: deals one after another until the rules' end, with totals and dealers.

>>> from rummykit.rules import preset
>>> m = Match(preset("one-deal"), players=["Anna", "Bruno"], seed=3)
>>> m.deal.to_move == (m.deal.dealer + 1) % 2
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal
from rummykit.engine.layout import Layout, below, dealer_rng
from rummykit.engine.scoring import DealResult, worth
from rummykit.errors import IllegalActionError, RulesError
from rummykit.rules import Rules

__all__ = ["Match", "MatchEnd"]

MatchEnd = Literal["one-deal", "elimination", "target", "dealt-once", "deals"]
"""Why a match ended: its one deal was played; all but one player went past the limit
(ramino); a total reached the target; everyone has dealt once (classic); the agreed number
of deals was played. Where several hold after the same deal, the target is named first."""


class Match:
    """A whole match: the current deal, the finished ones and the running totals."""

    def __init__(
        self, rules: Rules, *, players: int | Sequence[str], seed: int = 0,
        first_dealer: int | None = None, layout: Layout | None = None,
    ) -> None:
        if isinstance(players, int):
            rules.check_players(players)
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = list(players)
            rules.check_players(len(names))
        self.rules = rules
        self.names = names
        self.players = len(names)
        self.seed = seed
        self.totals = [0] * self.players
        self.active = [True] * self.players
        self.finished: list[Deal] = []
        self.dealers: list[int] = []
        self._over = False
        self._winner: int | None = None
        self.end: MatchEnd | None = None
        """Why the match ended (None while it goes on): see :data:`MatchEnd`."""
        self.auto_deal = True
        """Deal the next deal as soon as one ends (records turn this off to use their layouts)."""
        if first_dealer is None:
            if rules.first_dealer == "random":
                first_dealer = below(dealer_rng(seed), self.players)
            else:
                first_dealer = 0
        if not 0 <= first_dealer < self.players:
            raise RulesError(f"dealer {first_dealer} is not a seat (0 to {self.players - 1})")
        self.deal = self._new_deal(first_dealer, layout)

    def _new_deal(self, dealer: int, layout: Layout | None) -> Deal:
        index = len(self.finished)
        self.dealers.append(dealer)
        if layout is None:
            return Deal.start(self.rules, players=self.players, dealer=dealer, seed=self.seed,
                              index=index, active=self.active)
        return Deal(self.rules, players=self.players, dealer=dealer, layout=layout,
                    seed=self.seed, index=index, active=self.active)

    # -- reading -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        """The match's winner once it is over (None while it goes on, or on a tie)."""
        return self._winner

    @property
    def deal_number(self) -> int:
        """The current deal's number, counted from 1."""
        return len(self.finished) + (0 if self._over else 1)

    @property
    def target(self) -> int | None:
        return self.rules.target_for(self.players)

    def settlement(self) -> list[int] | None:
        """Where the rules score melded cards (500 Rum), the finished match's payout: the
        winner collects from each opponent the difference between their totals.

        None while the match goes on, without a single winner, or in other scoring."""
        if not self._over or self._winner is None or self.rules.scoring != "melded":
            return None
        best = self.totals[self._winner]
        pay = [t - best if s != self._winner else 0 for s, t in enumerate(self.totals)]
        pay[self._winner] = -sum(pay)
        return pay

    def next_dealer(self) -> int:
        """Who deals after the current deal, by the rules."""
        deal = self.deal
        result = deal.result
        if self.rules.next_dealer == "winner" and result is not None and result.winner is not None:
            return result.winner
        seat = (deal.dealer + 1) % self.players
        while not self.active[seat]:
            seat = (seat + 1) % self.players
        return seat

    # -- playing -----------------------------------------------------------------------

    def apply(self, action: Action | str) -> Action:
        """Check and play an action in the current deal; a finished deal is scored and the
        next one dealt. Illegal actions raise and change nothing."""
        if self._over:
            raise IllegalActionError("the match is over", code="match-over")
        played = self.deal.apply(action)
        if self.deal.is_over:
            self._close_deal()
        return played

    def push(self, action: Action) -> None:
        """Play an engine-generated action without checking it."""
        deal = self.deal
        deal.push(action)
        if deal.phase == "over":
            self._close_deal()

    def start_next_deal(self, *, dealer: int | None = None, layout: Layout | None = None) -> None:
        """Deal the next deal (called by :meth:`apply`; records use it with their layout)."""
        if self._over:
            raise IllegalActionError("the match is over", code="match-over")
        self.deal = self._new_deal(self.next_dealer() if dealer is None else dealer, layout)

    def _close_deal(self) -> None:
        result = self.deal.result
        assert result is not None
        self.finished.append(self.deal)
        for seat, points in enumerate(result.points):
            self.totals[seat] += points
        self._check_end(result)
        if not self._over and self.auto_deal:
            self.deal = self._new_deal(self.next_dealer(), None)

    def _check_end(self, result: DealResult) -> None:
        rules = self.rules
        target = self.target
        strict = rules.target_strict

        def reached(total: int) -> bool:
            return target is not None and (total > target if strict else total >= target)

        match rules.match_end:
            case "one-deal":
                self._end(result.winner, "one-deal")
            case "elimination":
                for seat in range(self.players):
                    if self.active[seat] and reached(self.totals[seat]):
                        self.active[seat] = False
                alive = [s for s in range(self.players) if self.active[s]]
                if len(alive) <= 1:
                    self._end(alive[0] if alive else None, "elimination")
            case "target" | "dealt-once" as end:
                why: MatchEnd | None = None
                if rules.deals is not None and len(self.finished) >= rules.deals:
                    why = "deals"
                if end == "dealt-once" and len(self.finished) >= self.players:
                    why = "dealt-once"
                if any(reached(t) for t in self.totals):
                    why = "target"
                if why is not None:
                    # (where points count against a player, the lowest total is the best)
                    best = max(worth(rules, t) for t in self.totals)
                    leaders = [s for s, t in enumerate(self.totals) if worth(rules, t) == best]
                    self._end(leaders[0] if len(leaders) == 1 else None, why)

    def _end(self, winner: int | None, why: MatchEnd) -> None:
        self._over = True
        self._winner = winner
        self.end = why
