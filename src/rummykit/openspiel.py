"""OpenSpiel: every rummykit rule set as an OpenSpiel game (the ``openspiel`` extra:
``pip install 'rummykit[openspiel]'``).

Importing this module registers the game ``rummykit`` with OpenSpiel::

    import pyspiel
    import rummykit.openspiel  # registers "rummykit"

    game = pyspiel.load_game("rummykit", {"rules": "ramino", "players": 4})

Parameters: ``rules`` (a preset's name or an options string such as
``"classic(melds_per_turn=many)"``), ``players``, ``reward`` (``"win"``: +1 for the best
score of the deal and -1 shared among the others, all 0 on a tie for the best;
``"points"``: a seat's points less the mean of the others' points, as the rules score
them, penalty points counted against the seat) and ``max_moves`` (see below). A game is one
deal; the seat to the dealer's left is player 0, so player 0 moves first.

Chance is explicit: the shuffle is dealt card by card, one chance node per place of the
deck (its first cards are the hands, dealt one at a time clockwise, then the first face-up
card, then the stock from its top), each outcome a card code (0 to 52, the joker 52) with
the chance of that card among those left (two copies of a card in a two-deck game are twice
as likely). Where the rules refill the stock from the pile, the refill's new order is dealt
the same way, card by card, when it happens. Nothing else is random.

Actions are the indices of :class:`rummykit.rl.ActionCodec` (the same space as the
Gymnasium and PettingZoo environments: a meld is chosen card by card, then laid). A meld's
cards are public as they are chosen (all of them are a moment later). The engine ends every
deal (by its limits on turning the pile over or refilling, and its repetition rule), but
OpenSpiel needs a bound on a game's length: after ``max_moves`` player actions (5,000 by
default; random play of every preset stays under 1,600) the game ends with every return 0.

Strings and tensors, for each player, come from the engine's view of that seat (the only
way a seat's information leaves the engine): the information state string holds the
seat's dealt hand, the first face-up card, every action in order and the cards the seat
itself drew from the stock (perfect recall); the observation string is the table now (the
seat's hand, the visible pile, the stock's size, the melds, each hand's size, the meld
being chosen); the observation tensor is the vector of :class:`rummykit.rl.Encoder`
(docs/rl.md, "Observation"), which keeps a memory of the cards each seat is known to hold.
There is no information state tensor: a perfect-recall tensor of a deal of hundreds of
actions would be enormous, and the observation tensor's memory is what learning agents use.
Factored observation strings (public information only, or the seat's private information
only) are provided too.

:meth:`RummyState.resample_from_infostate` deals the cards a player cannot see with the
engine's :func:`~rummykit.engine.sampling.determinize`, so OpenSpiel's IS-MCTS bot plays
every preset. A resampled state starts where the player is (its ``history()`` is empty);
the player's information state string in it is the same, the public part of every seat's
is the real one, and the other seats' private parts start from their sampled hands.

OpenSpiel copies a state (``clone()``, which its search algorithms call at every step) by
``copy.deepcopy`` of each of its fields. The fields are kept cheap to copy that way: the
deal copies itself as the engine does, and the lists hold values that never change, so a
copy copies the list and shares its items. A copy in the middle of a deal of ``classic``
takes about 15 microseconds (a deep copy of every object in the state took 0.9 ms).

An action that is not legal, or any action once the game is over, is a ValueError and
changes nothing. The game's name keeps an options string %-encoded, so that the name
loads the same game again (and states pickle and serialize).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar
from urllib.parse import quote, unquote

import numpy as np
import numpy.typing as npt
import pyspiel

from rummykit.cards import format_cards, make_deck
from rummykit.engine.actions import Action
from rummykit.engine.deal import Deal
from rummykit.engine.layout import layout_from_deck
from rummykit.engine.sampling import determinize
from rummykit.engine.views import view
from rummykit.rl.actions import CARD_CODES, LAY_MELD, MELD_CARD, ActionCodec, MeldChoice
from rummykit.rl.aec import deal_rewards, resolve_rules
from rummykit.rl.observation import Encoder, reference_observation
from rummykit.rules import Rules

__all__ = ["DEFAULTS", "GAME_NAME", "GameSpec", "RummyGame", "RummyObserver", "RummyState"]

GAME_NAME = "rummykit"
"""The name OpenSpiel knows the game by."""

DEFAULTS: dict[str, Any] = {"rules": "classic", "players": 2, "reward": "win",
                            "max_moves": 5000}
"""The game's parameters and their defaults."""

RESAMPLE_TRIES = 1000
"""How many deals :meth:`RummyState.resample_from_infostate` draws, at most, for a state in
which another seat has begun choosing a meld, to find one in which it can finish it."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Rummy (rummykit: every preset and option)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=DEFAULTS,
)


def _utility_bound(rules: Rules, reward: str) -> float:
    """No return is beyond this: 1 for ``win``; for ``points``, twice every card of the
    deck at the highest value any card may score (in hand or laid, a joker standing for
    any card) times the rummy multiplier (a seat's points less the others' mean)."""
    if reward == "win":
        return 1.0
    most = max(10, rules.ace_points, rules.ace_low_run_points, rules.court_points,
               rules.joker_points)
    return 2.0 * rules.deck_size * most * max(1, rules.rummy_multiplier)


class GameSpec:
    """What a game's states share, made once per parameters: the rules, the action
    codec, the observation encoder. Copies of a state share it (it never changes)."""

    def __init__(self, values: dict[str, Any]) -> None:
        unknown = set(values) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}: the parameters are "
                             f"{sorted(DEFAULTS)}")
        values = {**DEFAULTS, **values}
        rules = resolve_rules(unquote(str(values["rules"])))
        # The rules as OpenSpiel's game name holds them: an options string's brackets,
        # commas and "=" would read as a game of their own there, so they are written
        # %-encoded (a preset's name stays as it is), and the name loads the game again.
        values["rules"] = quote(str(rules), safe="")
        players = int(values["players"])
        rules.check_players(players)
        reward = str(values["reward"])
        if reward not in ("win", "points"):
            raise ValueError(f"reward {reward!r}: 'win' or 'points'")
        max_moves = int(values["max_moves"])
        if max_moves < 1:
            raise ValueError(f"max_moves {max_moves}: at least 1")
        self.values = values
        self.rules = rules
        self.players = players
        self.reward = reward
        self.max_moves = max_moves
        self.codec = ActionCodec(rules)
        self.encoder = Encoder(rules, players)
        self.deck_size = rules.deck_size
        self.deck = Counter(int(c) for c in make_deck(rules.decks, rules.jokers))

    def __deepcopy__(self, memo: dict[int, object]) -> GameSpec:
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return _spec, (tuple(sorted(self.values.items())),)


def _spec(values: tuple[tuple[str, Any], ...]) -> GameSpec:
    return _SPECS.get(values) or _SPECS.setdefault(values, GameSpec(dict(values)))


_SPECS: dict[tuple[tuple[str, Any], ...], GameSpec] = {}


def _spec_of(game: Any) -> GameSpec:
    """The spec of a game (made again from its parameters for a game OpenSpiel has copied
    without running its constructor)."""
    found = getattr(game, "spec", None)
    if isinstance(found, GameSpec):
        return found
    return _spec(tuple(sorted({**DEFAULTS, **dict(game.get_parameters())}.items())))


class RummyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel: untyped
    """One deal of Rummy under any rules object (see the module's text for the
    parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = GameSpec(dict(params or {}))
        rules, players = spec.rules, spec.players
        # Chance nodes: the deck, and each refill's new stock (fewer cards than the deck).
        chance_nodes = rules.deck_size * (1 + rules.refills_for(players))
        bound = _utility_bound(rules, spec.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.size,
            max_chance_outcomes=CARD_CODES,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=chance_nodes + spec.max_moves,
        )
        super().__init__(_GAME_TYPE, info, spec.values)
        self.spec = spec

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> RummyObserver:
        return RummyObserver(_spec_of(self), iig_obs_type
                             or pyspiel.IIGObservationType(perfect_recall=False), params)


_T = TypeVar("_T")


class _Items(list[_T]):
    """A list of values that never change (numbers, strings, tuples of them, actions): a
    deep copy copies the list and shares the values."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> _Items[_T]:
        return _Items(self)


class _Tally(Counter[int]):
    """A count of cards: a deep copy is a copy (its keys and counts are numbers)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> _Tally:
        return _Tally(self)


class RummyState(pyspiel.State):  # type: ignore[misc]  # pyspiel: untyped
    """A deal being dealt or played (see the module's text)."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self._spec: GameSpec = _spec_of(game)
        self._deck: _Items[int] = _Items()  # dealt by chance so far, in order
        self._left = _Tally(self._spec.deck)  # cards chance may still deal
        self._deal: Deal | None = None
        self._refill: _Items[int] | None = None  # a refill's new stock, dealt so far
        self._choosing: tuple[int, ...] = ()
        self._legal: _Items[Action] = _Items()
        self._melds: MeldChoice | None = None
        self._moves = 0
        self._capped = False
        # What every seat saw, in order: (text, seat, card the seat drew from the stock or
        # -1); a resampled state's other seats start from their sampled hands.
        self._log: _Items[tuple[str, int, int]] = _Items()
        # Each seat's first line of its information state: its private part (the hand it
        # was dealt) and the public part (the first face-up card).
        self._start: _Items[tuple[str, str]] = _Items()

    # -- the deal ----------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The engine's deal (None while the deck is being dealt)."""
        return self._deal

    @property
    def choosing(self) -> tuple[int, ...]:
        """The cards chosen so far for a new meld, in order."""
        return self._choosing

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._deal is None or self._refill is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._deal.to_move

    def is_terminal(self) -> bool:
        return self._capped or (self._deal is not None and self._deal.is_over)

    def returns(self) -> list[float]:
        deal = self._deal
        if self._capped or deal is None or not deal.is_over:
            return [0.0] * self._spec.players
        out = deal_rewards(deal, "win" if self._spec.reward == "win" else "points", 1.0)
        # Zero-sum to the last bit, as OpenSpiel checks it (-1/3 three times is not -1 in
        # floating point): the last seat dealt in takes what the others' sum leaves.
        last = max(s for s in range(deal.players) if deal.active[s])
        out[last] = 0.0
        out[last] = -sum(out)
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left
        total = sum(left.values())
        return [(card, count / total) for card, count in sorted(left.items()) if count]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        if self._choosing:
            return self._meld_steps()
        return sorted(set(self._spec.codec.indices(self._legal)))

    def _meld_steps(self) -> list[int]:
        melds = self._meld_choice()
        out = [MELD_CARD + c for c in melds.next_cards(self._choosing)]
        if melds.is_meld(self._choosing):
            out.append(LAY_MELD)
        return sorted(out)

    def _meld_choice(self) -> MeldChoice:
        if self._melds is None:
            self._melds = MeldChoice([a.cards for a in self._legal if a.kind == "meld"])
        return self._melds

    def _apply_action(self, action: int) -> None:
        """Play ``action``; one that is not legal here is a ValueError, and changes
        nothing."""
        if self.is_terminal():
            raise ValueError(f"the game is over: action {action} cannot be played")
        if self.is_chance_node():
            self._deal_card(int(action))
            return
        index = int(action)
        deal = self._deal
        assert deal is not None
        seat = deal.to_move
        codec = self._spec.codec
        legal = (self._meld_steps() if self._choosing
                 else codec.indices(self._legal) if 0 <= index < codec.size else ())
        if index not in legal:
            what = codec.describe(index) if 0 <= index < codec.size else "no such action"
            raise ValueError(f"action {index} ({what}) is not legal for seat {seat} here")
        self._moves += 1
        if MELD_CARD <= index < LAY_MELD:
            self._choosing += (index - MELD_CARD,)
            self._log.append((f"{seat}: {codec.describe(index)}", seat, -1))
            self._check_cap()
            return
        if index == LAY_MELD:
            played = Action("meld", self._choosing)
            self._choosing = ()
        else:
            found = codec.action(index)
            assert found is not None
            played = found
        refills = deal.refills_used
        deal.push(played)
        # The card a stock draw took (the stock turned over first where it was empty).
        drawn = deal.hands[seat][-1] if played.kind == "draw-stock" else -1
        self._log.append((f"{seat}: {played}", seat, drawn))
        if deal.refills_used > refills:
            # The engine has shuffled the pile into the stock: chance deals the order.
            self._refill = _Items()
            self._left = _Tally(deal.stock)
            self._log.append(("refill", -1, -1))
        self._new_position()
        self._check_cap()

    def _check_cap(self) -> None:
        if self._moves >= self._spec.max_moves and not self.is_terminal():
            self._capped = True

    def _new_position(self) -> None:
        deal = self._deal
        assert deal is not None
        self._legal = _Items(deal.legal_actions() if not deal.is_over else ())
        self._melds = None

    def _deal_card(self, card: int) -> None:
        if self._left[card] <= 0:
            raise ValueError(f"chance outcome {card} is not a card left to deal")
        self._left[card] -= 1
        if self._refill is not None:
            deal = self._deal
            assert deal is not None
            self._refill.append(card)
            if len(self._refill) == len(deal.stock):
                deal.stock = self._refill[::-1]  # the engine keeps the top card last
                self._refill = None
            return
        self._deck.append(card)
        if len(self._deck) == self._spec.deck_size:
            game = self._spec
            layout = layout_from_deck(game.rules, game.players, game.players - 1, self._deck)
            self._deal = Deal(game.rules, players=game.players, dealer=game.players - 1,
                              layout=layout)
            upcard = format_cards(layout.pile)
            self._start = _Items((f"seat {s} dealt {format_cards(sorted(layout.hands[s]))}",
                                  f"face up {upcard}") for s in range(game.players))
            self._new_position()

    # -- words -------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_cards([int(action)])}"
        return self._spec.codec.describe(int(action))

    def __str__(self) -> str:
        deal = self._deal
        if deal is None:
            return f"dealing: {len(self._deck)} of {self._spec.deck_size} cards"
        lines = [f"seat {s}: {format_cards(sorted(deal.hands[s]))}"
                 for s in range(deal.players)]
        lines.append(f"stock {format_cards(deal.stock[::-1])}")
        lines.append(f"pile {format_cards(deal.pile)}")
        lines.extend(f"meld {i + 1}: {format_cards(m.cards)}" for i, m in enumerate(deal.table))
        if self._choosing:
            lines.append(f"choosing {format_cards(self._choosing)}")
        if self._refill is not None:
            lines.append(f"refilling: {len(self._refill)} of {len(deal.stock)} cards")
        return "\n".join(lines)

    # -- resampling --------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt
        again by the engine's :func:`~rummykit.engine.sampling.determinize` (from a
        generator seeded by ``probability_sampler``, a function returning numbers in
        [0, 1), as OpenSpiel passes). Where another seat is choosing a meld card by card,
        the cards it chose are dealt to it, and only a deal in which it can finish that
        meld will do: deals are drawn until one does (:data:`RESAMPLE_TRIES` at most; then
        a ValueError). At a chance node there is nothing to resample: a ValueError."""
        deal = self._deal
        if deal is None or self._refill is not None:
            raise ValueError("a chance node has no information state to resample from: "
                             "resample where a player is to move")
        if self.is_terminal():
            return self.clone()  # type: ignore[no-any-return]  # nothing is hidden
        rng = random.Random(int(float(probability_sampler()) * (1 << 53)))
        seen = view(deal, player_id)
        chosen = self._choosing if deal.to_move != player_id else ()
        for _ in range(RESAMPLE_TRIES):
            world = determinize(seen, rng, holding=chosen)
            if not chosen or _can_go_on(world, chosen):
                break
        else:
            raise ValueError(
                f"no deal of the cards seat {player_id} cannot see, in {RESAMPLE_TRIES} "
                f"tries, lets seat {deal.to_move} finish the meld it has begun "
                f"({format_cards(chosen)}): resample at another state")
        new = RummyState(self.get_game())
        new._deck = _Items()  # the real order of the deck stays with the real state
        new._left = _Tally()
        new._deal = world
        new._choosing = self._choosing
        new._moves = self._moves
        new._log = _Items((text, seat, card if seat == player_id else -1)
                          for text, seat, card in self._log)
        new._start = _Items(
            (mine, public) if s == player_id else
            (f"seat {s} sampled {format_cards(sorted(world.hands[s]))}", public)
            for s, (mine, public) in enumerate(self._start))
        new._new_position()
        return new


def _can_go_on(world: Deal, chosen: tuple[int, ...]) -> bool:
    """Whether the player to move in ``world`` holds a legal meld that begins with the
    cards ``chosen`` (as the steps chose them)."""
    melds = MeldChoice([a.cards for a in world.legal_actions() if a.kind == "meld"])
    return bool(melds.next_cards(chosen)) or melds.is_meld(chosen)


class RummyObserver:
    """Strings and tensors of a state for one player (OpenSpiel's ``PyObserver``: see the
    module's text). The tensor is the observation vector, for the default observation
    type only (public and the player's private information, without perfect recall);
    other types have an empty tensor."""

    def __init__(self, game: GameSpec, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._spec = game
        self._recall = bool(iig_obs_type.perfect_recall)
        self._public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's private cards is not "
                             "offered: the engine shows each seat only its own")
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        with_tensor = self._public and self._private and not self._recall
        size = game.encoder.layout.size if with_tensor else 0
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = (
            {"observation": self.tensor} if with_tensor else {})

    def set_from(self, state: RummyState, player: int) -> None:
        if not self.tensor.size:
            return
        deal = state.deal
        if deal is None:
            self.tensor.fill(0.0)
            return
        mover = not deal.is_over and deal.to_move == player
        self.tensor[:] = reference_observation(self._spec.encoder, deal, player,
                                               state.choosing if mover else ())

    def string_from(self, state: RummyState, player: int) -> str:
        deal = state.deal
        if deal is None:
            return f"seat {player}: dealing"
        if self._recall:
            return self._history(state, player)
        v = view(deal, player, recent=0)
        parts = [f"seat {player}"]
        if self._private:
            parts.append(f"hand {format_cards(v.hand)}")
        if self._public:
            pile = format_cards(v.pile) if v.pile else "(empty)"
            parts += [f"to move {v.to_move} ({v.phase})", f"pile {pile}",
                      f"stock {v.stock_size}",
                      "hands " + " ".join(str(n) for n in v.hand_sizes)]
            parts += [f"meld {m.number}: {format_cards(m.cards)}" for m in v.table]
            if state.choosing:
                parts.append(f"choosing {format_cards(state.choosing)}")
        return "; ".join(parts)

    def _history(self, state: RummyState, player: int) -> str:
        mine, public = state._start[player]
        lines = ["; ".join([mine] * self._private + [public] * self._public)]
        for text, seat, card in state._log:
            if seat == player and card >= 0 and self._private:
                lines.append(f"{text} ({format_cards([card])})")
            elif self._public:
                lines.append(text)
        return "\n".join(lines)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, RummyGame)
