"""One person against computer players on this machine: what ``rummykit play`` drives,
in the line interface (:mod:`rummykit.plain`) and in the terminal app
(:mod:`rummykit.tui`) alike. Both front ends start a game, tell a deal's and a match's end
and store a finished match through this module; neither imports the other.

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
from typing import Any

from rummykit import record as records
from rummykit.analysis import Class, Review
from rummykit.bots import BOTS, Bot, make_bot, parse_bot, seat_levels
from rummykit.bots.master import MasterBot
from rummykit.cards import CARDS, Card
from rummykit.cliutil import UsageError, atomic_write, check_file
from rummykit.engine import scoring
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.scoring import describe_end
from rummykit.engine.views import View, view
from rummykit.errors import OptionError, RecordError
from rummykit.limits import NAME_LENGTH
from rummykit.names import printable_name
from rummykit.rules import Rules
from rummykit.words import plural

__all__ = ["DealSummary", "LocalGame", "deal_summary", "games_directory", "last_moves",
           "match_end_text", "match_summary", "melded_points", "review_lines",
           "review_tables", "start_game", "store_match"]

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
    rated: bool = True
    """The match counts for the person's rating (stored rated, as the person's name):
    played from its first card, on a shuffle nobody chose, without a hint or an undo.
    :meth:`helped` clears it."""
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
        """A new match; bad input is an :class:`OptionError` (a RulesError for the rules)
        and nothing is written."""
        check_name(name)
        parsed = Rules.parse(rules)
        parsed.check_players(players)
        levels = seat_levels(bots, players - 1)
        target = check_file(save, "save") if save else None
        chosen = seed is not None
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        names = [name] + [f"{make_bot(level).name.capitalize()} {i}"
                          for i, level in enumerate(levels, 1)]
        # Rated: the preset's own rules, the levels' own settings, the server's shuffle.
        plain = str(parsed) == parsed.preset_name and not any(
            parse_bot(level)[1] for level in levels)
        game = cls(Match(parsed, players=names, seed=seed), levels, seed, target,
                   rated=plain and not chosen)
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
            raise OptionError("resume", f"{path}: {err.strerror or err}") from None
        except (RecordError, records.ReplayError) as err:
            raise OptionError("resume", f"{path}: not a game to go on with: {err}") from None
        match = outcome.match
        if match.is_over:
            raise OptionError("resume", f"{path}: that match is over")
        match.auto_deal = True
        if match.deal.is_over:
            match.start_next_deal()
        others = match.players - 1
        if bots is not None:
            levels = seat_levels(bots, others)
        else:
            levels = [found.group(1).lower() if (found := _BOT_NAME.match(n)) else "random"
                      for n in match.names[1:]]
        target = check_file(save or path, "save")
        # (what helped the person before the record was saved is not in it: unrated)
        game = cls(match, levels, rec.seed or 0, target, rated=False)
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
        self.helped()
        rec = records.from_match(self.match)
        rec.deals[-1].actions.pop()
        match = records.replay(rec).match
        match.auto_deal = True
        self.match = match
        self.write()

    def helped(self) -> bool:
        """The person had a hint or an undo: the match is no longer rated. True the
        first time (to say so once)."""
        was, self.rated = self.rated, False
        return was

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


def start_game(rules_text: str, players: int, seed: int | None, name: str, bots: str | None,
               save: str | None, resume: str | None) -> LocalGame:
    """The game ``rummykit play`` asked for: a new one, or the one saved at ``resume``
    (bad input raises, an :class:`OptionError` naming the option where it is one)."""
    if resume:
        return LocalGame.resume(resume, bots=bots, save=save)
    return LocalGame.start(rules=rules_text, players=players, seed=seed, name=name,
                           bots=bots or "random", save=save)


@dataclass(frozen=True)
class DealSummary:
    """How a finished deal ended, as both front ends tell it."""

    number: int
    """The deal's number, from 1."""
    headline: str
    """One line: "Deal 2: You go out with a rummy!", "Deal 3 ends with no one out: the
    stock ran out and the pile may not be turned over again."."""
    hands: list[tuple[str, int, list[int]]]
    """Each seat's name, what the deal added to its total, and the cards left in its hand
    (sorted)."""
    totals: list[tuple[str, int]]
    """Each seat's name and total after the deal."""


def deal_summary(match: Match, index: int, seat: int = PERSON) -> DealSummary:
    """The summary of the finished deal ``index`` (from 0); ``seat`` (the person) is
    "You" in it, whatever name was given. The totals are the match's as it stands."""
    deal = match.finished[index]
    result = deal.result
    assert result is not None
    names = match.names
    if result.winner is None:
        headline = (f"Deal {index + 1} ends with no one out: "
                    f"{describe_end(result, match.rules, names)}.")
    else:
        who = "You go" if result.winner == seat else f"{names[result.winner]} goes"
        headline = f"Deal {index + 1}: {who} out" + (" with a rummy!" if result.rummy else ".")
    hands = [(names[s], result.points[s], sorted(hand)) for s, hand in enumerate(deal.hands)]
    return DealSummary(index + 1, headline, hands,
                       list(zip(names, match.totals, strict=True)))


def match_summary(match: Match) -> list[str]:
    """How a finished match ended, in a few lines."""
    winner = match.winner
    lines = ["Match over. " + ", ".join(
        f"{n} {t}" for n, t in zip(match.names, match.totals, strict=True))]
    lines.append(match_end_text(match.rules, match.players, match.end))
    lines.append(f"Winner: {match.names[winner]}" if winner is not None else "No single winner.")
    settlement = match.settlement()
    if settlement is not None:
        lines.append("Settlement (the winner collects the differences): " + ", ".join(
            f"{n} {p:+d}" for n, p in zip(match.names, settlement, strict=True)))
    return lines


def store_match(match: Match, players: list[str], url: str, *, rated: bool = False
                ) -> tuple[str, bool]:
    """Store a finished match in the statistics at ``url`` ("" for the default database):
    what to tell the person in one line, and whether it failed (a database that cannot be
    opened or written; a missing extra is said, not a failure). A ``rated`` match moves
    the ratings of the person (by name) and of the bot levels; the line says how."""
    try:
        from sqlalchemy.exc import DatabaseError

        from rummykit.stats import Store, StoreError, database_problem, shown_url
    except ImportError:
        return "Statistics not stored: install rummykit[sim] for the statistics store.", False
    try:
        store = Store.open(url or None)
    except StoreError as err:
        return f"Statistics not stored: {err}", True
    try:
        game_id = store.add_match(match, ["person"] + ["bot"] * (len(players) - 1),
                                  names=players, source="play", rated=rated,
                                  record=records.dumps(records.from_match(match)))
        changes = store.rating_changes(game_id) if rated else []
    except DatabaseError as err:
        return (f"Statistics not stored: cannot write to the database "
                f"{shown_url(str(store.engine.url))}: {database_problem(err)}"), True
    finally:
        store.close()
    if changes:
        mine = changes[0]
        return (f"Match stored in the statistics. Your {match.rules.preset_name or 'rules'} "
                f"rating: {mine.before} → {mine.after} ({mine.after - mine.before:+d})"
                + (", provisional" if mine.provisional else "")
                + " (rummykit stats --ratings)."), False
    return "Match stored in the statistics (rummykit stats).", False


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
    """Raise :class:`OptionError` (of ``name``) unless ``name`` is a person's name."""
    if not name.strip() or len(name) > NAME_LENGTH:
        raise OptionError("name", f"takes a name of 1 to {NAME_LENGTH} characters")
    if not printable_name(name):
        raise OptionError("name", "may hold letters, digits, spaces and punctuation, not "
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
    return scoring.melded_points(v.rules, v.melds, len(v.names))


# -- the review of a match ---------------------------------------------------------------

NAMED: tuple[Class, ...] = ("inaccuracy", "mistake", "blunder")
"""The classes named in a review's tables, least first."""

CLASS_STYLES = {"best": "green", "good": "green", "inaccuracy": "yellow",
                "mistake": "dark_orange", "blunder": "bold red"}
"""How each class of decision is coloured in the terminal."""


def review_lines(found: Review) -> list[str]:
    """A review in lines of plain text: each seat's figures, each deal's, and the biggest
    mistakes with their reasons (the line interface; the command line without Rich)."""
    lines = [f"Review of {found.rules}: {plural(len(found.decisions), 'decision')} "
             f"({found.budget} imagined deals a decision, {found.seconds:.0f} s)"]
    for s in found.seats:
        counts = ", ".join(plural(s.counts.get(k, 0), k) for k in NAMED)
        lines.append(f"  {s.name}: accuracy {s.accuracy:.0f}, "
                     f"{s.points_lost_per_decision:.2f} points lost a decision over "
                     f"{plural(s.decisions, 'decision')}; {counts}")
    for deal in found.deals:
        lines.append(f"  Deal {deal.deal}: " + "; ".join(
            f"{s.name} accuracy {s.accuracy:.0f}, {s.points_lost:.1f} points lost"
            for s in deal.seats))
    for s in found.seats:
        if s.mistakes:
            lines.append(f"Biggest mistakes of {s.name}:")
            lines.extend(f"  deal {m.deal}, action {m.step} ({m.cls}, {m.counted:.1f} "
                         f"points): {m.reason}" for m in s.mistakes)
    return lines


def review_tables(found: Review) -> list[Any]:
    """A review as Rich tables (the command line and the terminal app): the seats over
    the match, each deal, and every inaccuracy or worse with its reason."""
    from rich.table import Table
    from rich.text import Text

    seats = Table(title=f"Review of {found.rules}: {plural(len(found.decisions), 'decision')}"
                  f" ({found.budget} imagined deals a decision, {found.seconds:.0f} s)",
                  title_justify="left")
    for column in ("player", "decisions", "points lost / decision", "accuracy",
                   *NAMED):
        seats.add_column(column, justify="left" if column == "player" else "right")
    for s in found.seats:
        seats.add_row(s.name, str(s.decisions), f"{s.points_lost_per_decision:.2f}",
                      f"{s.accuracy:.0f}", *(Text(str(s.counts.get(k, 0)),
                                                  style=CLASS_STYLES[k] if s.counts.get(k)
                                                  else "") for k in NAMED))
    deals = Table(title="Deal by deal", title_justify="left")
    for column in ("deal", "player", "decisions", "points lost", "accuracy", *NAMED):
        deals.add_column(column, justify="left" if column == "player" else "right")
    for deal in found.deals:
        for s in deal.seats:
            deals.add_row(str(deal.deal), s.name, str(s.decisions), f"{s.points_lost:.1f}",
                          f"{s.accuracy:.0f}", *(str(s.counts.get(k, 0)) for k in NAMED))
    named = [d for d in found.decisions if d.named]
    worst = Table(title="Where the points went: every inaccuracy, mistake and blunder",
                  title_justify="left", show_lines=False)
    for column in ("deal", "action", "player", "class", "points lost", "played", "better"):
        worst.add_column(column, justify="right" if column in ("deal", "action",
                                                                 "points lost") else "left")
    worst.add_column("why", ratio=1)
    for d in named:
        played = f"{d.played} ({d.then})" if d.then else d.played
        worst.add_row(str(d.deal), str(d.step), d.name,
                      Text(d.cls, style=CLASS_STYLES[d.cls]), f"{d.counted:.1f}", played,
                      d.best, d.why)
    return [seats, deals, worst] if named else [seats, deals]

