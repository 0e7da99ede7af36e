"""One person against computer players on this machine: what ``rummykit play`` drives,
in the line interface and in the terminal app alike.

The person sits at seat 0 and sees only seat 0's view; bots take the other seats. With a
save file the record is written after every action, atomically (a temporary file renamed
over the old one), so Ctrl-C, a closed terminal or a crash loses nothing; a saved record
that stops in the middle of a deal is resumed with :meth:`LocalGame.resume`.
"""

from __future__ import annotations

import os
import random
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from rummykit import record as records
from rummykit.bots import BOTS, Bot, make_bot, seat_levels
from rummykit.bots.master import MasterBot
from rummykit.cards import CARDS, Card
from rummykit.cliutil import UsageError, atomic_write, check_file
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.melds import laid_points
from rummykit.engine.views import View, view
from rummykit.errors import RecordError, RulesError
from rummykit.names import printable_name
from rummykit.rules import Rules
from rummykit.words import plural

__all__ = ["LocalGame", "games_directory", "last_moves", "match_end_text", "melded_points"]

PERSON = 0
"""The person's seat."""

_BOT_NAME = re.compile(r"^(" + "|".join(BOTS) + r") \d+$", re.IGNORECASE)


@dataclass
class LocalGame:
    """A match with the person at seat 0 and a bot at every other seat."""

    match: Match
    levels: list[str]
    """The bot spec of seats 1 and on."""
    seed: int
    save: Path | None = None
    bots: list[Bot] = field(init=False)
    rngs: list[random.Random] = field(init=False)
    stop: threading.Event = field(init=False, default_factory=threading.Event)
    """Set when the person leaves: a bot's search (in another thread) ends at once."""

    def __post_init__(self) -> None:
        self.bots = [make_bot(level) for level in self.levels]
        for bot in self.bots:
            if isinstance(bot, MasterBot):
                bot.stop = self.stop
        done = sum(len(d.history) for d in self.match.finished) + len(self.match.deal.history)
        # A resumed game's bots draw from the point it had reached (a fresh game from 0).
        self.rngs = [random.Random(f"rummykit/bot/{self.seed}/{seat}" + (f"/{done}" if done
                                                                          else ""))
                     for seat in range(self.match.players)]

    # -- starting ------------------------------------------------------------------------

    @classmethod
    def start(cls, *, rules: str, players: int, seed: int | None, name: str, bots: str,
              save: str | None) -> LocalGame:
        """A new match; bad input is a UsageError (or a RulesError) and nothing is written."""
        check_name(name)
        parsed = Rules.parse(rules)
        parsed.check_players(players)
        levels = seat_levels(bots, players - 1)
        target = check_file(save, "--save") if save else None
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        names = [name] + [f"{make_bot(level).name.capitalize()} {i}"
                          for i, level in enumerate(levels, 1)]
        game = cls(Match(parsed, players=names, seed=seed), levels, seed, target)
        game.write()
        return game

    @classmethod
    def resume(cls, path: str, *, bots: str | None, save: str | None) -> LocalGame:
        """Go on from the record at ``path`` (the person at seat 0). The bots are ``bots``,
        else read from the seats' names ("Expert 2" is an expert), else random. The record
        is saved to ``save``, else back to ``path``."""
        try:
            rec = records.load(path)
            outcome = records.replay(rec)
        except OSError as err:
            raise UsageError(f"--resume {path}: {err.strerror or err}") from None
        except (RecordError, records.ReplayError) as err:
            raise UsageError(f"--resume {path}: not a game to go on with: {err}") from None
        match = outcome.match
        if match.is_over:
            raise UsageError(f"--resume {path}: that match is over")
        match.auto_deal = True
        if match.deal.is_over:
            match.start_next_deal()
        others = match.players - 1
        if bots is not None:
            levels = seat_levels(bots, others)
        else:
            levels = [found.group(1).lower() if (found := _BOT_NAME.match(n)) else "random"
                      for n in match.names[1:]]
        target = check_file(save or path, "--save")
        game = cls(match, levels, rec.seed or 0, target)
        game.write()
        return game

    # -- playing -------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self.match.names)

    def view(self) -> View:
        """What the person may see: seat 0's view, never another hand."""
        return view(self.match, PERSON)

    @property
    def bot_to_move(self) -> bool:
        return not self.match.is_over and self.match.deal.to_move != PERSON

    def bot_choice(self) -> tuple[int, Action]:
        """The seat to move (a bot) and its choice, from its own view (not yet played:
        a front end may think in another thread and play it with :meth:`play_bot`)."""
        seat = self.match.deal.to_move
        assert seat != PERSON
        return seat, self.bots[seat - 1].choose(view(self.match, seat), self.rngs[seat])

    def play_bot(self, action: Action) -> None:
        self.match.apply(action)
        self.write()

    def play(self, action: Action | str) -> None:
        """The person's action, checked (an illegal one raises and changes nothing)."""
        if self.bot_to_move or self.match.is_over:
            raise UsageError("it is not your turn")
        self.match.apply(action if isinstance(action, Action) else Action.parse(action))
        self.write()

    def undo_problem(self) -> str | None:
        """Why :meth:`undo` would take nothing back now, or None. As at a web table of
        computer players: the person's last meld or lay-off of this turn, before the
        discard; never a draw (a stock card was seen) nor a discard (it ended the turn)."""
        if self.match.is_over:
            return "the match is over"
        deal = self.match.deal
        moves = deal.moves
        if deal.to_move != PERSON or not moves or moves[-1][0] != PERSON or (
                moves[-1][1].kind not in ("meld", "layoff")):
            return "only a meld or lay-off of your turn can be taken back, before your discard"
        return None

    def undo(self) -> None:
        """Take back the person's last meld or lay-off: the match is replayed without it
        (the stock in the same order)."""
        problem = self.undo_problem()
        if problem is not None:
            raise UsageError(problem)
        rec = records.from_match(self.match)
        rec.deals[-1].actions.pop()
        match = records.replay(rec).match
        match.auto_deal = True
        self.match = match
        self.write()

    def write(self) -> None:
        """Save the record as it stands (where asked), atomically."""
        if self.save is not None:
            atomic_write(self.save, records.dumps(records.from_match(self.match)))

    def keep(self) -> str:
        """Make sure the record is on disk, and say where in one line. A game played
        without ``--save`` is written to ``games/`` in the user's data directory (where a
        match left before its end, or one the statistics could not take, would otherwise
        be lost); from then on it is saved there after every action."""
        if self.save is None:
            folder = games_directory()
            stem = f"game-{datetime.now():%Y%m%d-%H%M%S}"
            place = folder / f"{stem}.json"
            try:
                folder.mkdir(parents=True, exist_ok=True)
                number = 1
                while place.exists():  # (two games left in the same second)
                    number += 1
                    place = folder / f"{stem}-{number}.json"
                atomic_write(place, records.dumps(records.from_match(self.match)))
            except OSError as err:
                return f"The record could not be saved to {place}: {err.strerror or err}"
            self.save = place
        if self.match.is_over:
            return f"Record saved to {self.save}"
        return (f"Record saved to {self.save} (rummykit play --resume {self.save} goes "
                "on with it)")


def games_directory() -> Path:
    """Where a game played without ``--save`` is kept when it must be: ``games/`` in the
    user's data directory (beside the default statistics database)."""
    try:
        from platformdirs import user_data_path
    except ImportError:  # the sim extra is not installed
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        return base / "rummykit" / "games"
    return user_data_path("rummykit") / "games"


def check_name(name: str) -> None:
    if not name.strip() or len(name) > 40:
        raise RulesError("--name takes a name of 1 to 40 characters")
    if not printable_name(name):
        raise RulesError("--name may hold letters, digits, spaces and punctuation, not "
                         "control, invisible or direction-changing characters")


def match_end_text(rules: Rules, players: int, end: str | None) -> str:
    """How the match ends, for the score sheet: why it ended once it has (``end``, a
    :data:`~rummykit.engine.match.MatchEnd`), else the rule that will end it.

    >>> from rummykit.rules import preset
    >>> match_end_text(preset("classic"), 2, "dealt-once")
    'The match ended when everyone had dealt once.'
    >>> match_end_text(preset("classic"), 2, None)
    'The match ends when a total reaches 100, or when everyone has dealt once.'
    """
    target = rules.target_for(players)
    past = "passed" if rules.target_strict else "reached"
    now = "passes" if rules.target_strict else "reaches"
    match end:
        case "one-deal":
            return "The match was one deal."
        case "elimination":
            return f"The match ended with one player left whose total never {past} {target}."
        case "target":
            return f"The match ended when a total {past} {target}."
        case "dealt-once":
            return "The match ended when everyone had dealt once."
        case "deals":
            return f"The match ended after {plural(rules.deals or 0, 'deal')}."
    match rules.match_end:
        case "one-deal":
            return "The match is one deal."
        case "elimination":
            return (f"A player whose total {now} {target} is out; the match ends when one "
                    "is left.")
        case "dealt-once":
            return (f"The match ends when a total {now} {target}, or when everyone has "
                    "dealt once." if target is not None
                    else "The match ends when everyone has dealt once.")
    ways = [f"when a total {now} {target}"] if target is not None else []
    if rules.deals is not None:
        ways.append(f"after {plural(rules.deals, 'deal')}")
    return "The match ends " + ", or ".join(ways) + "."


def last_moves(v: View) -> list[str | None]:
    """What each seat did last this deal, in words any seat may see (a draw from the pile
    names the card: everyone saw it; a draw from the stock does not)."""
    out: list[str | None] = [None] * len(v.names)
    pile_draws = iter(v.pile_draws)
    for seat, action in v.history:
        out[seat] = describe(action, next(pile_draws, (seat, ()))[1]
                             if action.kind == "draw-pile" else ())
    return out


def describe(action: Action, taken: tuple[Card, ...] = ()) -> str:
    """One action in words: "took 7♥ from the pile", "melded 5♣ 6♣ 7♣"."""
    cards = " ".join(pretty(c) for c in action.card_objects)
    match action.kind:
        case "draw-stock":
            return "drew from the stock"
        case "draw-pile":
            shown = " ".join(pretty(c) for c in taken) or cards
            return f"took {shown} from the pile" if shown else "took from the pile"
        case "meld":
            return f"melded {cards}"
        case "layoff":
            return f"laid off {cards} on meld {action.meld}"
        case "discard":
            return f"discarded {cards}"
        case "end":
            return "declined the pile"


SUIT_SYMBOLS = {0: "♣", 1: "♦", 2: "♥", 3: "♠"}


def pretty(card: Card | int) -> str:
    """A card with its suit's symbol: ``7♥``, ``10♣``, ``★`` for a joker."""
    c = CARDS[card] if not isinstance(card, Card) else card
    if c.is_joker:
        return "★"
    text = str(c)
    return text[:-1] + SUIT_SYMBOLS[int(c.suit or 0)]


def melded_points(v: View) -> list[int] | None:
    """Where melded cards score (rummy500): the points each seat has laid this deal."""
    if v.rules.scoring != "melded":
        return None

    return laid_points(v.melds, v.rules, len(v.names))
