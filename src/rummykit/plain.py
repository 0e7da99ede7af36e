"""The terminal game's line interface (``rummykit play --plain``, or wherever the terminal
app cannot run): the board in lines of text, the person's actions typed in the record
notation. It starts, tells and stores the game through :mod:`rummykit.session`, as the
terminal app does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from rummykit.analysis import DEFAULT_BUDGET, Budget, ReviewError, review
from rummykit.bots.hints import hint
from rummykit.cards import format_cards
from rummykit.engine.actions import Action
from rummykit.engine.match import Match
from rummykit.engine.views import View
from rummykit.errors import IllegalActionError, NotationError, RecordError, RulesError
from rummykit.record import from_match
from rummykit.session import (
    PERSON,
    LocalGame,
    deal_summary,
    match_summary,
    review_lines,
    start_game,
    store_match,
)
from rummykit.words import plural

__all__ = ["HELP", "play"]

HELP = """Actions (the record notation):
  draw stock | draw pile | draw pile CARD (where any pile card may be taken)
  meld 5H 6H 7H | layoff 8H 2 | layoff JK 2 low | discard KC | end
Commands: ? lists your legal actions, hint (or h) gives the master bot's move for you and
why, help shows this, quit stops (the game is saved with --save)."""


def play(
    rules_text: str, players: int, seed: int | None, name: str, bots: str | None,
    save: str | None, stdin: TextIO, stdout: TextIO, *, stats_url: str | None = None,
    resume: str | None = None, words: Callable[[BaseException], str] = str,
    review_budget: Budget | str | int | None = None,
) -> int:
    """The terminal game's line interface: the person is seat 0, bots take the other seats.

    With ``save`` the record is written after every action. A finished match is stored in
    the statistics at ``stats_url`` ("" for the default database, None for none). A game
    that cannot start is said in one line, in ``words`` (the command line's: its flags).
    At the match's end the person is offered its review (of their own decisions, with
    ``review_budget`` or the review's default)."""
    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    try:
        game = start_game(rules_text, players, seed, name, bots, save, resume)
    except (RulesError, RecordError, ValueError) as err:
        say(f"cannot start: {words(err)}")
        return 2
    match = game.match
    # The seed would let the person work out every hand: it is told when the game stops.
    say(f"rummykit: {match.rules}, {plural(match.players, 'player')}. Type 'help' for the "
        "notation.")
    if resume:
        say(f"Going on with the game saved in {resume}.")
    finished = False
    interrupted = False
    try:
        finished = _play_loop(game, stdin, stdout, say)
    except KeyboardInterrupt:
        # Ctrl-C (at the prompt or while a bot thinks) stops the game as 'quit' does:
        # the record is saved (it was, after the last action) and the seed told.
        interrupted = True
        say("")
    match = game.match
    if finished:
        for line in match_summary(match):
            say(line)
    else:
        say("Game stopped before its end.")
    say(f"(The shuffles came from seed {game.seed}.)")
    problem = None
    if finished and stats_url is not None:
        told, failed = store_match(match, [match.names[0], *game.levels], stats_url,
                                   rated=game.rated)
        if failed:
            problem = told
        else:
            say(told)
    if not finished or problem is not None or game.save is not None:
        # A match left before its end, or one the statistics could not take, is kept.
        say(game.keep())
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    if finished and not interrupted and _offer_review(game, stdin, stdout, say,
                                                      review_budget) == "interrupted":
        return 130
    return 130 if interrupted else 0


def _offer_review(game: LocalGame, stdin: TextIO, stdout: TextIO,
                  say: Callable[[str], None], budget: Budget | str | int | None) -> str:
    """Ask whether to review the match; review the person's decisions if so. What came
    of it: "declined", "reviewed" or "interrupted" (Ctrl-C)."""
    say("Review this match? The master looks at each of your decisions and shows where "
        "the points went (y/n)")
    try:
        line = _ask(stdin, stdout)
    except (EOFError, KeyboardInterrupt):
        return "declined"
    if line is None or line.lower() not in ("y", "yes"):
        return "declined"
    shown = [0]

    def progress(done: int, total: int) -> None:
        # A line at each quarter of the way (and the first), so a long review shows life.
        if done == 0 or done == total or done * 4 // max(total, 1) > shown[0]:
            shown[0] = done * 4 // max(total, 1)
            say(f"Reviewing: {done} of {plural(total, 'decision')}")

    try:
        found = review(from_match(game.match), seats=[PERSON], progress=progress,
                       budget=DEFAULT_BUDGET if budget is None else budget)
    except KeyboardInterrupt:
        say("Review stopped.")
        return "interrupted"
    except ReviewError as err:
        say(f"The review could not be made: {err}")
        return "declined"
    for text in review_lines(found):
        say(text)
    return "reviewed"


def _play_loop(game: LocalGame, stdin: TextIO, stdout: TextIO,
               say: Callable[[str], None]) -> bool:
    """Play until the match ends (True) or the person stops (False)."""
    seen_deals = len(game.match.finished)
    while True:
        match = game.match
        if len(match.finished) > seen_deals:
            _deal_summary(match, seen_deals, say)
            seen_deals = len(match.finished)
        if match.is_over:
            return True
        if game.bot_to_move:
            seat, action = game.bot_choice()
            game.play_bot(action)
            say(f"{match.names[seat]}: {action}")
            continue
        v = game.view()
        _show(v, say)
        try:
            line = _ask(stdin, stdout)
        except EOFError:
            return False
        if line is None:
            return False
        if not line:
            continue
        if line in ("?", "legal"):
            say("Legal: " + " | ".join(str(a) for a in v.legal_actions))
            continue
        if line == "help":
            say(HELP)
            continue
        if line in ("h", "hint"):
            say("Hint: " + hint(v).reason)  # (seeded by the position: asked again, the same)
            if game.helped():
                say("(With a hint this match is no longer rated.)")
            continue
        try:
            game.play(Action.parse(line))
        except (NotationError, IllegalActionError) as err:
            say(f"Not allowed: {err}")


def _ask(stdin: TextIO, stdout: TextIO) -> str | None:
    print("> ", end="", file=stdout, flush=True)
    line = stdin.readline()
    if not line:
        return None
    text = line.strip()
    if text.lower() in ("quit", "exit"):
        return None
    return text


def _show(v: View, say: Callable[[str], None]) -> None:
    say("")
    say(f"Deal {v.deal_number}: " + ", ".join(
        f"{n} {t} ({plural(k, 'card')})"
        for n, t, k in zip(v.names, v.totals, v.hand_sizes, strict=True)))
    for meld in v.table:
        say(f"  meld {meld.number}: {format_cards(meld.cards)}   by {v.names[meld.owner]}")
    pile = format_cards(v.pile) if v.pile else "(empty)"
    say(f"  stock {v.stock_size}, pile {pile}")
    say(f"Your hand: {format_cards(v.hand)}")
    if v.must_use is not None:
        say(f"You must meld or lay off {v.must_use} this turn.")
    say("Draw: 'draw stock' or 'draw pile'." if v.phase == "draw"
        else "Meld, lay off, or discard to end your turn.")


def _deal_summary(match: Match, index: int, say: Callable[[str], None]) -> None:
    summary = deal_summary(match, index)
    say(summary.headline)
    for name, points, hand in summary.hands:
        say(f"  {name}: {format_cards(hand) or '-'}  {points:+d}")
