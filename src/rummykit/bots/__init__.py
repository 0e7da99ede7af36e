"""Computer players, all behind one small interface: :class:`Bot`.

A bot is given its seat's :class:`~rummykit.engine.views.View` (which holds the legal actions)
and its own seeded random generator, and returns one of the legal actions. It sees
nothing the view does not hold.

Bots are named like rules: a level, with options in parentheses where it has some
(``master(think=0.2)``); :func:`split_bots` splits a comma list of them.
"""

from __future__ import annotations

import inspect
import random
from typing import Protocol

from rummykit.engine.actions import Action
from rummykit.engine.views import View
from rummykit.errors import OptionError, shown
from rummykit.rules.syntax import CallSyntaxError, parse_call
from rummykit.words import plural

__all__ = ["BOTS", "LEVELS", "Bot", "make_bot", "parse_bot", "same_bot_key", "seat_levels",
           "split_bots"]


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        ...


def split_bots(text: str, *, keep_empty: bool = False) -> list[str]:
    """Split a comma list of bots, keeping commas inside parentheses:
    ``"master(think=0.2,rollouts=50),expert"`` -> two bots. Empty names are left out
    unless ``keep_empty`` (to refuse them)."""
    parts = _split_keeping_empty(text)
    return parts if keep_empty else [part for part in parts if part]


def seat_levels(text: str, seats: int) -> list[str]:
    """The bot of each of ``seats`` seats from a comma list (the ``bots`` of a local game
    and of a simulation alike): one bot per seat, or fewer and the last fills the seats left.

    An empty name or more bots than seats is an :class:`~rummykit.errors.OptionError` of
    ``bots``; a bot that does not parse is a ValueError.

    >>> seat_levels("expert,random", 3)
    ['expert', 'random', 'random']
    """
    names = _split_keeping_empty(text)
    if any(not name for name in names):
        raise OptionError("bots", f"{shown(text)}: a bot name is empty; name a level "
                          f"({', '.join(BOTS)}) for each seat, with commas between")
    if len(names) > seats:
        raise OptionError("bots", f"names {plural(len(names), 'bot')} for "
                          f"{plural(seats, 'seat')}")
    for name in names:
        parse_bot(name)
    return names + [names[-1]] * (seats - len(names))


def _split_keeping_empty(text: str) -> list[str]:
    """The comma list's parts, stripped, empty ones included."""
    out: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    out.append(current.strip())
    return out


def _check_level(level: str) -> None:
    if level not in BOTS:
        raise ValueError(f"unknown bot {shown(level)}; the bots are: {', '.join(BOTS)}")


def _no_option(level: str, key: str) -> str:
    known = ", ".join(BOT_OPTIONS.get(level, {})) or "none"
    return f"bot {level} has no option {shown(key)}; its options: {known}"


def _syntax_problem(spec: str, error: CallSyntaxError) -> str:
    """A bot spec's syntax error in the words of the bots."""
    if error.reason == "no-equals":
        return f"{shown(error.part)}: write option=value"
    if error.reason == "twice":
        key = error.part.partition("=")[0].strip()
        if key not in BOT_OPTIONS.get(error.name, {}):
            return _no_option(error.name, key)
        return f"bot {error.name}: option {key} is given twice"
    if error.reason == "empty":
        return f"{shown(spec)}: an option is empty; write option=value between the commas"
    if error.reason == "unclosed":
        return f"{shown(spec)}: a bot's options go in parentheses, closed with ')'"
    return (f"{shown(spec)}: one bot is a level and one pair of parentheses "
            "(a list of bots is split on the commas outside parentheses)")


def parse_bot(spec: str) -> tuple[str, dict[str, float | int]]:
    """A bot's level and options: ``"master(think=0.5)"`` -> ``("master", {"think": 0.5})``.

    Bad text, an unknown level or option, or a bad value is a ValueError that names it."""
    try:
        level, pairs = parse_call(spec)
    except CallSyntaxError as error:
        _check_level(error.name)  # an unknown bot is named before the options' syntax
        raise ValueError(_syntax_problem(spec, error)) from None
    _check_level(level)
    options: dict[str, float | int] = {}
    allowed = BOT_OPTIONS.get(level, {})
    for key, value in pairs:
        if key not in allowed:
            raise ValueError(_no_option(level, key))
        kind, low, high = allowed[key]
        try:
            number = kind(value)
        except ValueError:
            raise ValueError(f"{key}={shown(value)}: not a number") from None
        if not (low <= number <= high) or number != number:
            raise ValueError(f"{key}={number} is out of range ({low} to {high})")
        options[key] = number
    return level, options


def same_bot_key(spec: str) -> tuple[str, tuple[tuple[str, float | int], ...]]:
    """What tells two bot specs apart: the level and every option with its default filled
    in, so that ``master`` and ``master(think=1)`` are the same bot."""
    level, options = parse_bot(spec)
    signature = inspect.signature(BOTS[level].__init__)
    defaults = {name: p.default for name, p in signature.parameters.items()
                if name in BOT_OPTIONS.get(level, {}) and isinstance(p.default, int | float)}
    if level == "master" and "think" not in options and "rollouts" not in options:
        defaults["think"] = THINK  # the time budget of a master given neither
    return level, tuple(sorted((defaults | options).items()))


def make_bot(spec: str) -> Bot:
    """The bot of this level (with options); an unknown level is an error that lists them."""
    level, options = parse_bot(spec)
    return BOTS[level](**options)


from rummykit.bots.expert import ExpertBot  # noqa: E402  (the registry needs Bot first)
from rummykit.bots.greedy import GreedyBot  # noqa: E402
from rummykit.bots.learned import LearnedBot  # noqa: E402
from rummykit.bots.master import THINK, MasterBot  # noqa: E402
from rummykit.bots.random import RandomBot  # noqa: E402

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                              "learned": LearnedBot, "expert": ExpertBot,
                              "master": MasterBot}
"""Every bot level, weakest first."""

LEVELS: tuple[str, ...] = tuple(BOTS)

BOT_OPTIONS: dict[str, dict[str, tuple[type[float] | type[int], float, float]]] = {
    "master": {"think": (float, 0.01, 60.0), "rollouts": (int, 1, 100_000),
               "margin": (float, 0.0, 10.0), "width": (int, 1, 100),
               "win": (float, 0.0, 1000.0)},
}
"""Each level's options: (type, lowest, highest)."""
