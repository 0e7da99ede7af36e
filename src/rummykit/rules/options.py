"""The rules object: every row of docs/rules.md as one validated option.

A :class:`Rules` is frozen and keyword-only. The presets are instances of it, defined at
the end of this module (the string and record forms start from them; what each one plays
is in :mod:`rummykit.rules.presets`); a variant is ``rules.replace(melds_per_turn="many")``.
Each option has a string form, so ``str(rules)`` round-trips through :meth:`Rules.parse`:

>>> from rummykit.rules import Rules
>>> r = Rules.parse("classic(melds_per_turn=many, aces=high-low)")
>>> str(r)
'classic(aces=high-low,melds_per_turn=many)'
>>> Rules.parse(str(r)) == r
True

Options given per player count (hand sizes, targets, refill limits) take one number for
every count or five numbers for 2 to 6 players, separated by ``/``: ``hand_size=10/7/7/6/6``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rummykit.errors import RulesError, shown
from rummykit.rules.syntax import CallSyntaxError, parse_call
from rummykit.words import plural

__all__ = ["OPTION_CHOICES", "OPTION_HELP", "PRESETS", "PerCount", "Rules", "option_text",
           "preset"]

PerCount = tuple[int, int, int, int, int]
"""A value for each player count 2, 3, 4, 5 and 6."""

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rule of a Rummy variant. Build one from a preset; see docs/rules.md for each row."""

    preset_name: str = field(default="basic", compare=False)
    """The preset this rules object started from; ``str()`` prints options against it."""

    # The deck and the deal.
    decks: int = 1
    jokers: int = 0
    hand_size: PerCount = (10, 7, 7, 6, 6)
    first_dealer: Literal["random", "first"] = "first"
    next_dealer: Literal["left", "winner"] = "left"

    # Melds.
    aces: Literal["low", "high-low"] = "low"
    set_min: int = 3
    set_max: int = 4
    run_min: int = 3

    # The turn.
    draw_pile: Literal["top", "any"] = "top"
    melds_per_turn: Literal["one", "many"] = "many"
    taken_discard: Literal["forbidden", "last-card"] = "forbidden"
    pile_card_must_be_used: bool = False
    last_discard: Literal["optional", "required"] = "optional"
    opening: int = 0

    # When the stock runs out.
    stock_out: Literal["turn-over", "refill", "end"] = "turn-over"
    turn_overs: int = 3
    refills: PerCount = (1, 1, 1, 2, 3)

    # A deal always ends.
    repetition: int = 3

    # Scoring.
    scoring: Literal["collect", "melded", "penalty"] = "collect"
    ace_points: int = 1
    ace_low_run_points: int = 1
    court_points: int = 10
    joker_points: int = 25
    rummy_multiplier: int = 2

    # The match.
    match_end: Literal["target", "one-deal", "dealt-once", "elimination"] = "target"
    target: PerCount | None = (100, 100, 100, 100, 100)
    target_strict: bool = False
    deals: int | None = None

    high_aces: bool = field(default=False, init=False, repr=False, compare=False)
    """Whether an ace may be high (``aces=high-low``): worked out once from ``aces`` (the
    engine asks it at every meld search)."""
    _text: str = field(default="", init=False, repr=False, compare=False)
    """The string form (``str(rules)``), made the first time it is asked for (a server
    names the rules in every message it sends)."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name == "preset_name" or not f.init:
                continue
            value = getattr(self, f.name)
            spec = _SPECS[f.name]
            checked = spec.check(f.name, value)
            if checked is not value:
                object.__setattr__(self, f.name, checked)
        object.__setattr__(self, "high_aces", self.aces == "high-low")
        self._check_consistency()

    def _check_consistency(self) -> None:
        if self.set_max < self.set_min:
            raise RulesError(f"set_max={self.set_max} is below set_min={self.set_min}")
        deck = 52 * self.decks + self.jokers
        for players, size in zip(range(MIN_PLAYERS, MAX_PLAYERS + 1), self.hand_size, strict=True):
            if players * size + 2 > deck:
                raise RulesError(
                    f"hand_size={size} for {players} players needs {players * size + 2} cards "
                    f"(hands, the first discard and one in stock); the deck has {deck}"
                )
        if self.match_end == "elimination" and self.scoring != "penalty":
            raise RulesError("match_end=elimination needs scoring=penalty (totals are penalties)")
        if self.match_end in ("target", "elimination") and self.target is None and (
            self.deals is None or self.match_end == "elimination"
        ):
            raise RulesError(f"match_end={self.match_end} needs a target or a number of deals")
        if self.match_end != "target" and self.deals is not None:
            raise RulesError(f"deals= is a way to end match_end=target, not {self.match_end}")
        if self.stock_out == "end" and self.draw_pile != "any":
            raise RulesError(
                "stock_out=end ends the deal when the player to draw declines the pile, "
                "which needs draw_pile=any"
            )

    # -- string and JSON forms -------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """The options that differ from this rules object's preset, in their JSON form."""
        base = PRESETS[self.preset_name]
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "preset_name" or not f.init:
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out[f.name] = _SPECS[f.name].to_json(value)
        return out

    def to_json(self) -> str | dict[str, Any]:
        """The record form: the preset name alone, or an object with the changed options."""
        opts = self.options()
        if not opts:
            return self.preset_name
        return {"preset": self.preset_name, **opts}

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read the record form; unknown presets and options are errors that name them."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a preset name or an object with a 'preset' key")
        if "preset" not in data or not isinstance(data["preset"], str):
            raise RulesError("a rules object needs a 'preset' key with a preset name")
        options = {k: v for k, v in data.items() if k != "preset"}
        return preset(data["preset"]).replace(**options)

    def __str__(self) -> str:
        if not self._text:
            opts = self.options()
            body = ",".join(f"{k}={_SPECS[k].to_text(getattr(self, k))}" for k in opts)
            object.__setattr__(self, "_text",
                               f"{self.preset_name}({body})" if opts else self.preset_name)
        return self._text

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``preset`` or ``preset(option=value, ...)``."""
        try:
            name, pairs = parse_call(text)
        except CallSyntaxError as error:
            preset(error.name)  # an unknown preset is named before the options' syntax
            raise RulesError(_syntax_problem(error)) from None
        base = preset(name)
        options: dict[str, object] = {}
        for key, value in pairs:
            spec = _SPECS.get(key)
            if spec is None:
                raise RulesError(_unknown(key))
            options[key] = spec.from_text(key, value)
        return base.replace(**options)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset of docs/rules.md with this name."""
        return preset(name)

    def replace(self, **options: object) -> Rules:
        """A copy with some options changed; unknown options are errors that name them."""
        for key in options:
            if key not in _SPECS:
                raise RulesError(_unknown(key))
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    # -- player counts ---------------------------------------------------------------

    @property
    def player_counts(self) -> range:
        """The numbers of players these rules are played by (2 to 6)."""
        return range(MIN_PLAYERS, MAX_PLAYERS + 1)

    def check_players(self, count: int) -> None:
        """Raise :class:`RulesError` unless these rules are played by ``count`` players.

        Every entry point (deals, matches, records, the command line, the simulator, the
        web app) asks here, so the rule and its message live in one place."""
        counts = self.player_counts
        if isinstance(count, bool) or not isinstance(count, int) or count not in counts:
            raise RulesError(
                f"{plural(count, 'player') if isinstance(count, int) else count}: "
                f"{self.preset_name} is played by {counts.start} to {counts.stop - 1}"
            )

    # -- per player count ------------------------------------------------------------

    def hand_size_for(self, players: int) -> int:
        return self.hand_size[players - MIN_PLAYERS]

    def refills_for(self, players: int) -> int:
        return self.refills[players - MIN_PLAYERS]

    def target_for(self, players: int) -> int | None:
        return None if self.target is None else self.target[players - MIN_PLAYERS]

    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers


def _unknown(key: str) -> str:
    known = ", ".join(_SPECS)
    return f"unknown option {key!r}; the options are: {known}"


# -- option specs: one place that knows each option's values and forms -----------------


def _syntax_problem(error: CallSyntaxError) -> str:
    """A rules text's syntax error in the words of the rules."""
    text = error.text
    if error.reason == "no-equals":
        return f"{error.part!r}: write option=value"
    if error.reason == "twice":
        return f"option {error.part.partition('=')[0].strip()!r} is given twice"
    if error.reason == "empty":
        return f"{text!r}: an option is empty; write option=value between the commas"
    if error.reason == "nested":
        return f"{text!r}: options go in one pair of parentheses"
    return f"{text!r}: options go in parentheses, closed with ')'"


@dataclass(frozen=True)
class _Spec:
    kind: str  # "choice", "int", "bool", "per-count", "per-count-or-none", "int-or-none"
    help: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 10_000

    def check(self, name: str, value: object) -> object:
        if self.kind == "choice":
            if value not in self.choices:
                raise RulesError(
                    f"{name}={shown(value)} is not allowed; choose one of: "
                    f"{', '.join(self.choices)}"
                )
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"{name} must be true or false, not {shown(value)}")
            return value
        if self.kind in ("int-or-none", "per-count-or-none") and value is None:
            return None
        if self.kind in ("int", "int-or-none"):
            return self._int(name, value)
        # per-count
        if isinstance(value, int) and not isinstance(value, bool):
            value = (value,) * 5
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, tuple) or len(value) != 5:
            raise RulesError(
                f"{name} takes one number or five (for 2 to 6 players), not {shown(value)}"
            )
        return tuple(self._int(name, v) for v in value)

    def _int(self, name: str, value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{name} must be a whole number, not {shown(value)}")
        if not self.low <= value <= self.high:
            raise RulesError(f"{name}={shown(value)} is out of range ({self.low} to {self.high})")
        return value

    def to_json(self, value: object) -> object:
        if isinstance(value, tuple):
            return value[0] if len(set(value)) == 1 else list(value)
        return value

    def to_text(self, value: object) -> str:
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return str(value[0]) if len(set(value)) == 1 else "/".join(map(str, value))
        return str(value)

    def from_text(self, name: str, text: str) -> object:
        if self.kind == "choice":
            return text
        if self.kind == "bool":
            if text.lower() in ("true", "yes", "1"):
                return True
            if text.lower() in ("false", "no", "0"):
                return False
            raise RulesError(f"{name} must be true or false, not {shown(text)}")
        if text.lower() == "none" and self.kind.endswith("or-none"):
            return None
        try:
            numbers = [int(part) for part in text.split("/")]
        except ValueError:
            raise RulesError(f"{name}={shown(text)}: not a number") from None
        if self.kind.startswith("per-count"):
            return numbers[0] if len(numbers) == 1 else tuple(numbers)
        if len(numbers) != 1:
            raise RulesError(f"{name}={shown(text)}: one number")
        return numbers[0]


_SPECS: dict[str, _Spec] = {
    "decks": _Spec("int", "how many 52-card decks are shuffled together", low=1, high=2),
    "jokers": _Spec("int", "jokers added to the deck; a joker is wild in melds", low=0, high=4),
    "hand_size": _Spec("per-count", "cards dealt to each player, by player count", low=1, high=20),
    "first_dealer": _Spec(
        "choice", "who deals first: seat 0 (first) or a seat drawn from the seed (random)",
        ("random", "first"),
    ),
    "next_dealer": _Spec(
        "choice", "who deals the next deal: the player on the left or the deal's winner",
        ("left", "winner"),
    ),
    "aces": _Spec(
        "choice", "aces in runs: low only (A-2-3), or low and high (Q-K-A), never K-A-2",
        ("low", "high-low"),
    ),
    "set_min": _Spec("int", "fewest cards in a set", low=3, high=4),
    "set_max": _Spec("int", "most cards in a set (their suits all differ)", low=3, high=4),
    "run_min": _Spec("int", "fewest cards in a run", low=3, high=13),
    "draw_pile": _Spec(
        "choice", "what may be drawn from the pile: its top card, or any card with all above it",
        ("top", "any"),
    ),
    "melds_per_turn": _Spec(
        "choice", "new melds a player may lay in one turn (lay-offs are never limited)",
        ("one", "many"),
    ),
    "taken_discard": _Spec(
        "choice",
        "the card taken from the pile may not be discarded that turn; last-card allows it "
        "when it is the only card left",
        ("forbidden", "last-card"),
    ),
    "pile_card_must_be_used": _Spec(
        "bool", "the card chosen from the pile must be melded or laid off that turn"
    ),
    "last_discard": _Spec(
        "choice", "going out: by melding or laying off the last card too (optional), or only "
        "by discarding it (required)",
        ("optional", "required"),
    ),
    "opening": _Spec(
        "int", "points the melds of a player's first melding turn must reach together (0: any)",
        low=0, high=500,
    ),
    "stock_out": _Spec(
        "choice",
        "when the stock is empty: turn the pile over unshuffled (turn-over), shuffle all but "
        "its top card into a new stock a limited number of times (refill), or end the deal "
        "when the player to draw declines the pile (end)",
        ("turn-over", "refill", "end"),
    ),
    "turn_overs": _Spec(
        "int", "how often the pile may be turned over; when the stock runs out after that, "
        "the deal ends as a stalemate", low=0, high=100,
    ),
    "refills": _Spec(
        "per-count", "how often the stock may be refilled, by player count; then stalemate",
        low=0, high=100,
    ),
    "repetition": _Spec(
        "int", "a deal in which the same position (every hand, the stock in order, the pile, "
        "the table, the player to move and the phase, the turn-overs and refills used) comes "
        "up this many times ends at once as a stalemate", low=2, high=100,
    ),
    "scoring": _Spec(
        "choice",
        "deal score: the winner collects the others' hand points (collect); each player scores "
        "melded minus hand points (melded); each player adds his hand points as a penalty "
        "(penalty)",
        ("collect", "melded", "penalty"),
    ),
    "ace_points": _Spec("int", "an ace's points (in hand, in sets, high in runs)", low=1, high=50),
    "ace_low_run_points": _Spec(
        "int", "an ace's points at the low end of a melded run (A-2-3)", low=1, high=50
    ),
    "court_points": _Spec("int", "points of a J, Q or K", low=1, high=50),
    "joker_points": _Spec(
        "int", "a joker's points in hand (in a meld it counts as the card it stands for)",
        low=0, high=100,
    ),
    "rummy_multiplier": _Spec(
        "int", "what going rummy multiplies the deal's points by (1: no bonus)", low=1, high=10
    ),
    "match_end": _Spec(
        "choice",
        "when the match ends: a total reaches the target or after a number of deals (target); "
        "after one deal (one-deal); after everyone has dealt once or a total reaches the target "
        "(dealt-once); players past the target are out until one is left (elimination)",
        ("target", "one-deal", "dealt-once", "elimination"),
    ),
    "target": _Spec(
        "per-count-or-none", "the match target, by player count (none: play a number of deals)",
        low=1, high=100_000,
    ),
    "target_strict": _Spec(
        "bool", "the target counts only when a total goes past it (>), not when it reaches it"
    ),
    "deals": _Spec(
        "int-or-none", "with match_end=target: end after this many deals", low=1, high=1000
    ),
}

OPTION_HELP: dict[str, str] = {name: spec.help for name, spec in _SPECS.items()}

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    name: spec.choices for name, spec in _SPECS.items() if spec.choices}
"""The values of each option that takes one of several words."""


def option_text(rules: Rules, name: str) -> str:
    """The value of option ``name`` in ``rules``, written as in a rules string."""
    return _SPECS[name].to_text(getattr(rules, name))
"""What each option changes, in a sentence: the rules page is generated from it."""


# -- the presets: each tied to the rule book it comes from (docs/rules.md) -------------

# Seed 000: basic Rummy. Every default of Rules is this preset's rule.
BASIC = Rules(preset_name="basic")

# Seed 001: one deal is the game; its winner deals the next game. "The dealer gives each
# person 10 cards": 10 for two players; for more, 000's sizes are the default.
ONE_DEAL = Rules(preset_name="one-deal", next_dealer="winner", match_end="one-deal", target=None)

# Seed 002: Classic Rummy. One meld per turn, first dealer at random, match to 100 or
# until everyone has dealt once.
CLASSIC = Rules(
    preset_name="classic",
    first_dealer="random",
    melds_per_turn="one",
    match_end="dealt-once",
)

# Seed 003: 500 Rum. 13 cards for two players, 7 otherwise; any pile card with all above
# it, the chosen card used at once; melded minus hand with the ace 15 (1 low in a run).
RUMMY500 = Rules(
    preset_name="rummy500",
    hand_size=(13, 7, 7, 7, 7),
    aces="high-low",
    draw_pile="any",
    pile_card_must_be_used=True,
    stock_out="end",
    scoring="melded",
    ace_points=15,
    ace_low_run_points=1,
    rummy_multiplier=1,
    target=(500,) * 5,
)

# Seed 004: stock refilled by shuffling a limited number of times, then stalemate; the
# taken discard may be discarded when it is the last card; targets past 100 or 200.
LIMITED_STOCK = Rules(
    preset_name="limited-stock",
    taken_discard="last-card",
    stock_out="refill",
    refills=(1, 1, 1, 2, 3),
    target=(100, 100, 200, 200, 200),
    target_strict=True,
)

# Seed 002, variant "Italian Ramino": two decks and four jokers, eight cards each, an
# opening of 50, hand points as penalties, out past 101.
RAMINO = Rules(
    preset_name="ramino",
    decks=2,
    jokers=4,
    hand_size=(8,) * 5,
    aces="high-low",
    opening=50,
    scoring="penalty",
    ace_points=11,
    ace_low_run_points=1,
    rummy_multiplier=1,
    match_end="elimination",
    target=(101,) * 5,
    target_strict=True,
)

PRESETS: dict[str, Rules] = {
    r.preset_name: r for r in (BASIC, ONE_DEAL, CLASSIC, RUMMY500, LIMITED_STOCK, RAMINO)
}
"""Every preset by name."""


def preset(name: str) -> Rules:
    """The preset with this name; an unknown name is an error that lists the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None
