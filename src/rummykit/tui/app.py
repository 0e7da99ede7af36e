"""The Textual app: the table of one person (seat 0) against computer players."""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog, Static

from rummykit.analysis import DEFAULT_BUDGET, Budget, Review, ReviewError, Stopped, review
from rummykit.bots.hints import hint
from rummykit.cards import Card
from rummykit.engine.actions import Action
from rummykit.engine.views import View
from rummykit.errors import IllegalActionError, NotationError, RulesError
from rummykit.record import from_match
from rummykit.session import (
    PERSON,
    LocalGame,
    deal_summary,
    describe,
    games_directory,
    last_moves,
    match_end_text,
    match_summary,
    melded_points,
    pretty,
    review_tables,
    start_game,
    store_match,
)
from rummykit.words import plural

__all__ = ["RummyApp", "run_app"]

RED = "bold red"
BLACK = "bold"
COMPACT_BELOW = 34
"""Terminals fewer rows high than this get the compact layout (80x24 among them): a
shorter log and a narrower pile box, so the table keeps its rows."""


def card_text(card: Card, *, style: str = "") -> Text:
    """A card with its suit symbol, hearts and diamonds in red (a joker in magenta)."""
    colour = "bold magenta" if card.is_joker else RED if int(card.suit or 0) in (1, 2) else BLACK
    return Text(pretty(card), style=f"{colour} {style}".strip())


CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")


def with_symbols(text: str) -> str:
    """``text`` with every card written in notation (``10S``) written with its suit
    symbol, as the rest of the screen shows cards."""
    return CARD_CODE.sub(lambda found: pretty(Card.parse(found.group(0))), text)


def cards_text(cards: tuple[Card, ...] | list[Card], sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c))
    return out


class Message(ModalScreen[str | None]):
    """A page over the table (legal actions, the score sheet, a deal's summary, the
    review): escape, enter, space, q, ? or t closes it; where it offers the review
    (``offers_review``, the match's last summary), r closes it and asks for the review."""

    DEFAULT_CSS = """
    Message { align: center middle; }
    Message > VerticalScroll { width: 90%; height: auto; max-height: 90%; border: thick $accent;
                               background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,q,question_mark,t", "close", "Close"),
        Binding("r", "review", "Review", show=False),
    ]

    def __init__(self, body: RenderableType, *, kind: str, offers_review: bool = False) -> None:
        super().__init__()
        self.body = body
        self.kind = kind
        self.offers_review = offers_review

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body, id="message")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_review(self) -> None:
        if self.offers_review:
            self.dismiss("review")


class Confirm(ModalScreen[bool]):
    """A question over the table: ``y`` answers yes, ``n`` or escape no."""

    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > VerticalScroll { width: 70%; height: auto; max-height: 90%;
                               border: thick $warning; background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, body: Text) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body, id="question")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class RummyApp(App[int]):
    """``rummykit play`` in a terminal. Its return value is the exit status (130 after
    Ctrl-C); the record is saved after every action, so quitting loses nothing."""

    TITLE = "rummykit"
    CSS = """
    #top { height: auto; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #players { width: 1fr; height: auto; padding: 0 1; border: round $primary;
               border-title-align: left; text-wrap: nowrap; text-overflow: ellipsis; }
    #pile { width: 40; height: auto; padding: 0 1; border: round $primary; }
    #table { height: 1fr; padding: 0 1; border: round $primary; }
    #hand { height: auto; padding: 0 1; border: round $success; }
    #log { height: 8; border: round $primary; }
    #notation { display: none; }
    #notation.shown { display: block; }
    /* A short terminal (80x24): the table keeps the rows, the log and the pile give them. */
    .compact #table { min-height: 4; }
    .compact #pile { width: 24; }
    .compact #log { height: 4; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
        Binding("q", "quit_game", "Quit"),
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("shift+left", "move_card(-1)", "Move card", show=False),
        Binding("shift+right", "move_card(1)", "Move card", show=False),
        Binding("space", "select", "Select"),
        Binding("o", "sort", "Sort"),
        Binding("s", "draw_stock", "Stock"),
        Binding("p", "draw_pile", "Pile"),
        Binding("left_square_bracket", "pile_cursor(-1)", "Pile ←", show=False),
        Binding("right_square_bracket", "pile_cursor(1)", "Pile →", show=False),
        Binding("m", "meld", "Meld"),
        Binding("d", "discard", "Discard"),
        Binding("e", "end", "End", show=False),
        *(Binding(str(n), f"layoff({n})", f"Lay off on {n}", show=False)
          for n in range(1, 10)),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("t", "sheet", "Scores"),
        Binding("r", "review", "Review", show=False),
        Binding("question_mark", "legal", "Legal"),
        Binding("colon", "notation", "Type"),
    ]

    def __init__(self, game: LocalGame, *, bot_delay: float = 0.5, think: float = 0.5,
                 stats_url: str | None = None, review_budget: Budget | str | int = DEFAULT_BUDGET,
                 review_jobs: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.review_budget = review_budget
        """The search's budget per decision when the match is reviewed (``r``)."""
        self.review_jobs = review_jobs
        self.reviewing = False
        self.reviewed: Review | None = None
        """The review of the finished match, once made (``r`` shows it again)."""
        self.bot_delay = bot_delay
        self.think = think
        self.stats_url = stats_url
        self.hint_shown = False
        """Whether a hint's notice is up: it goes with the person's next action."""
        self.order: list[Card] = []
        """The person's hand in their own order."""
        self.by_rank = False
        self.cursor = 0
        self.selected: list[int] = []
        """Places in :attr:`order` that are selected, in the order they were chosen."""
        self.pile_at = 0
        """How deep in a spread pile ``p`` takes (0: the top card)."""
        self.fresh: Card | None = None
        self.seen_actions = 0
        self.seen_events = 0
        self.seen_deals = len(game.match.finished)
        self.hints = 0
        self.busy = False
        self.code = 0
        self.problem: str | None = None
        """What went wrong that the person must be told after the app closes (the
        statistics could not take the match): one line on stderr, exit status 2."""
        self.kept: str | None = None
        """Where the record of a match left before its end was kept, in words."""

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="players")
            yield Static(id="pile")
        yield VerticalScroll(Static(id="melds"), id="table")
        yield Static(id="hand")
        yield Input(placeholder="an action in the notation: meld 5H 6H 7H, layoff JK 2 low "
                    "(escape to close)", id="notation")
        yield RichLog(id="log", markup=False, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.size.height < COMPACT_BELOW, "compact")
        self.query_one("#table").border_title = "Table"
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#log").border_title = "What happened"
        v = self.game.view()
        self.seen_actions = v.history_length
        self.seen_events = len(v.events)
        self.log_line(Text(f"{self.game.match.rules}, {plural(len(v.names), 'player')}. "
                           "Press ? for your legal actions, : to type one."))
        self.refresh_table()
        self.after_change()

    def on_resize(self) -> None:
        self.set_class(self.size.height < COMPACT_BELOW, "compact")
        self.refresh_table()

    # -- what is shown --------------------------------------------------------------------

    def view_now(self) -> View:
        return self.game.view()

    def sync_order(self, hand: tuple[Card, ...]) -> None:
        """Keep the person's own order: cards still held stay where they were, new ones
        go to the end (and the newest is marked)."""
        left = Counter(hand)
        kept: list[Card] = []
        for c in self.order:
            if left[c]:
                kept.append(c)
                left[c] -= 1
        added = [c for c in hand if left[c] and not left.subtract([c])]
        if len(added) == 1 and self.order:
            self.fresh = added[0]
        elif added:
            self.fresh = None
        if not self.order or len(kept) + len(added) != len(hand):
            self.order = list(hand)
        else:
            self.order = kept + added
        if self.by_rank:
            self.order.sort(key=lambda c: (c.is_joker, c.rank, int(c.suit or 0)))
        self.cursor = min(self.cursor, max(len(self.order) - 1, 0))
        self.selected = [i for i in self.selected if i < len(self.order)]

    def refresh_table(self) -> None:
        v = self.view_now()
        self.sync_order(v.hand)
        self.query_one("#status", Static).update(self.status_text(v))
        self.query_one("#players", Static).update(self.players_text(v))
        self.query_one("#pile", Static).update(self.pile_text(v))
        self.query_one("#melds", Static).update(self.melds_text(v))
        self.query_one("#hand", Static).update(self.hand_text(v))

    def status_text(self, v: View) -> Text:
        text = Text(f"Deal {v.deal_number} · {v.rules.preset_name} · ", style="bold")
        if v.match_over:
            text.append("the match is over (r reviews it, q leaves)")
        elif v.my_turn:
            text.append("Your turn: ", style="bold green")
            if v.phase == "draw":
                text.append("draw from the stock (s) or the pile (p)")
            else:
                text.append("meld (m), lay off (1-9) or discard (d)")
            if v.must_use is not None:
                text.append(" · you must use ")
                text.append_text(card_text(v.must_use))
            if v.rules.opening and not v.opened[v.seat]:
                text.append(f" · opening: {v.turn_value} of {v.rules.opening} this turn")
        else:
            text.append(f"{v.names[v.to_move]} is playing…", style="italic")
        return text

    def players_text(self, v: View) -> Text:
        moves = last_moves(v)
        melded = melded_points(v)
        # One line a player, cut with an ellipsis where the box is narrow: a wrapped line
        # would take the table's rows in a short terminal.
        text = Text(no_wrap=True, overflow="ellipsis")
        for seat, name in enumerate(v.names):
            if seat:
                text.append("\n")
            turn = seat == v.to_move and v.deal_result is None
            text.append("▶ " if turn else "  ", style="bold green")
            text.append(name, style="bold" if seat == v.seat else "")
            text.append(f"  {plural(v.hand_sizes[seat], 'card')} · "
                        f"{plural(v.totals[seat], 'point')}")
            if seat == v.dealer:
                text.append(" · dealer", style="dim")
            if not v.active[seat]:
                text.append(" · out of the match", style="dim")
            if v.rules.opening:
                text.append(" · opened" if v.opened[seat] else " · not opened",
                            style="green" if v.opened[seat] else "dim")
            if melded is not None:
                text.append(f" · melded {melded[seat]}")
            if moves[seat]:
                text.append(f"  — {moves[seat]}", style="italic")
        return text

    def pile_text(self, v: View) -> Text:
        text = Text(f"Stock: {plural(v.stock_size, 'card')}\nPile: ")
        if not v.pile:
            text.append("empty")
        elif v.rules.draw_pile == "any":
            depth = self.pile_at = min(self.pile_at, len(v.pile) - 1)
            for i, c in enumerate(v.pile):
                if i:
                    text.append(" ")
                chosen = i == len(v.pile) - 1 - depth and v.my_turn and v.phase == "draw"
                text.append_text(card_text(c, style="reverse" if chosen else ""))
            text.append("\n([ ] choose the card p takes)", style="dim")
        else:
            text.append_text(card_text(v.pile[-1]))
            # (on a line of its own in the compact layout's narrow box)
            text.append(("\n" if self.has_class("compact") else "  ")
                        + f"({v.pile_size} in the pile)", style="dim")
        if v.turn_overs_used or v.refills_used:
            text.append(f"\nturned over {v.turn_overs_used}, refilled {v.refills_used}",
                        style="dim")
        return text

    def melds_text(self, v: View) -> Text:
        if not v.table:
            return Text("No melds yet.", style="dim")
        text = Text()
        for i, meld in enumerate(v.table):
            if i:
                text.append("\n")
            text.append(f"{meld.number:>2}  ", style="bold cyan")
            for k, (c, stands, by) in enumerate(zip(meld.cards, meld.represented,
                                                     meld.laid_by, strict=True)):
                if k:
                    text.append(" ")
                text.append_text(card_text(c))
                if c.is_joker:
                    text.append(f"={pretty(Card.parse(stands))}", style="magenta")
                if by != meld.owner:
                    text.append(f"({v.names[by]})", style="dim")
            text.append(f"   by {v.names[meld.owner]}", style="dim")
        return text

    def hand_text(self, v: View) -> Text:
        text = Text()
        for i, c in enumerate(self.order):
            if i:
                text.append(" ")
            style = ""
            if i in self.selected:
                style += " reverse"
            if i == self.cursor:
                style += " underline"
            text.append_text(card_text(c, style=style.strip()))
            if c == self.fresh:
                text.append("*", style="yellow")
        text.append(f"\n{plural(len(self.order), 'card')} · ←/→ move, space select, "
                    "shift+←/→ reorder, o sort", style="dim")
        return text

    def log_line(self, text: Text | str) -> None:
        self.query_one("#log", RichLog).write(text)

    # -- what happened ------------------------------------------------------------------

    def report_new(self) -> None:
        """Write every action and event since the last report to the log."""
        v = self.view_now()
        if len(self.game.match.finished) > self.seen_deals:
            return  # the deal summary says it
        draws = list(v.pile_draws)
        pile_index = sum(1 for _, a in v.history[:self.seen_actions]
                         if a.kind == "draw-pile")
        events = dict(v.events)
        for k in range(self.seen_actions, v.history_length):
            seat, action = v.history[k]
            taken: tuple[Card, ...] = ()
            if action.kind == "draw-pile":
                taken = draws[pile_index][1] if pile_index < len(draws) else ()
                pile_index += 1
            who = "You" if seat == v.seat else v.names[seat]
            self.log_line(f"{who} {describe(action, taken)}")
            if k + 1 in events:
                self.log_line(Text(f"The stock ran out: {events[k + 1]}", style="yellow"))
        self.seen_actions = v.history_length

    def after_change(self) -> None:
        """Show the new position; then the deal's summary, or the bots' turns."""
        self.report_new()
        self.refresh_table()
        match = self.game.match
        if len(match.finished) > self.seen_deals:
            index = self.seen_deals
            self.seen_deals = len(match.finished)
            self.seen_actions = 0
            self.fresh = None
            self.order = []
            self.show_summary(index)
            self.hints = 0  # (the count is of one deal's hints)
            return
        if match.is_over:
            return
        if self.game.bot_to_move and not self.busy:
            self.busy = True
            self.set_timer(max(self.bot_delay, 0.001), self.start_bot_turn)

    def show_summary(self, index: int) -> None:
        """The summary of the finished deal ``index``; after the match's last, r asks
        for its review."""
        over = self.game.match.is_over
        self.push_screen(Message(self.summary_text(index), kind="summary",
                                 offers_review=over),
                         callback=lambda answer: self.after_summary(answer == "review"))

    def after_summary(self, review_asked: bool = False) -> None:
        self.refresh_table()
        if self.game.match.is_over:
            self.finish()
            if review_asked:
                self.action_review()
            return
        self.after_change()

    def start_bot_turn(self) -> None:
        # A worker, not awaited here: while a bot thinks the app still reads keys (Ctrl-C
        # and q among them).
        self.run_worker(self.bot_turn(), group="bot", exit_on_error=True)

    async def bot_turn(self) -> None:
        if not self.game.bot_to_move:
            self.busy = False
            return
        _, action = await asyncio.to_thread(self.game.bot_choice)
        if self.game.stop.is_set():
            return  # the person is leaving: a search cut short plays nothing
        self.game.play_bot(action)
        self.busy = False
        self.after_change()

    def summary_text(self, index: int) -> Text:
        """The summary of the finished deal ``index``, with the hints asked for in it (it
        changes nothing: :meth:`after_change` starts the next deal's count)."""
        match = self.game.match
        summary = deal_summary(match, index, self.game.view().seat)
        text = Text(f"Deal {summary.number} is over\n\n", style="bold")
        text.append(summary.headline + "\n")
        for name, points, hand in summary.hands:
            text.append(f"\n{name:<12} {points:+5d}   ")
            text.append_text(cards_text([Card(c) for c in hand]))
        text.append("\n\nTotals: " + ", ".join(f"{n} {t}" for n, t in summary.totals))
        if self.hints:
            text.append(f"\nYou asked for {plural(self.hints, 'hint')} this deal.")
        if match.is_over:
            text.append("\n\n" + "\n".join(match_summary(match)), style="bold")
            text.append("\n\nReview this match? Press r: the master looks at each of your "
                        "decisions, from what you could see then, and shows where the points "
                        "went and what was better.", style="bold green")
        text.append("\n\nPress enter to go on.", style="dim")
        return text

    def finish(self) -> None:
        if self.stats_url is not None:
            told, failed = store_match(self.game.match,
                                       [self.game.names[0], *self.game.levels], self.stats_url,
                                       rated=self.game.rated)
            if failed:
                self.problem = told
                self.log_line(Text(told, style="bold red"))
                self.log_line(self.game.keep())
            else:
                self.log_line(told)
        self.log_line(Text("The match is over. r reviews it, q leaves.", style="bold"))

    # -- the review -----------------------------------------------------------------------

    def action_review(self) -> None:
        """``r``: review the person's decisions of the finished match (in a worker: the
        keys are read meanwhile, and leaving stops it), then show it."""
        if not self.game.match.is_over:
            self.notify("The review is for a finished match.")
            return
        if self.reviewed is not None:
            self.show_review(self.reviewed)
            return
        if self.reviewing:
            self.notify("The review is being made.")
            return
        self.reviewing = True
        self.run_worker(self.make_review(), group="review", exit_on_error=True)

    async def make_review(self) -> None:
        status = self.query_one("#status", Static)
        status.update(Text("Reviewing your decisions…", style="italic"))
        await asyncio.sleep(0.05)

        def progress(done: int, total: int) -> None:
            if not self.game.stop.is_set():
                self.call_from_thread(
                    status.update, Text(f"Reviewing your decisions: {done} of {total}…",
                                        style="italic"))

        try:
            found = await asyncio.to_thread(
                review, from_match(self.game.match), seats=[PERSON],
                budget=self.review_budget, jobs=self.review_jobs, progress=progress,
                stop=self.game.stop)
        except Stopped:
            return  # the person is leaving
        except ReviewError as err:
            self.notify(str(err), title="No review", severity="error")
            return
        finally:
            self.reviewing = False
            if not self.game.stop.is_set():
                status.update(self.status_text(self.view_now()))
        self.reviewed = found
        self.show_review(found)

    def show_review(self, found: Review) -> None:
        me = found.seat(PERSON)
        head = Text(f"Your review: accuracy {me.accuracy:.0f}, "
                    f"{me.points_lost_per_decision:.2f} points lost a decision\n",
                    style="bold")
        self.push_screen(Message(Group(head, *review_tables(found),
                                       Text("Press enter to close (r shows it again).",
                                            style="dim")), kind="review"))

    # -- the person's actions -------------------------------------------------------------

    def attempt(self, action: Action | str) -> bool:
        """Play the person's action; a refusal is shown and changes nothing."""
        if self.busy or not self.view_now().my_turn:
            self.notify("It is not your turn.", severity="warning")
            return False
        try:
            self.game.play(action)
        except (NotationError, IllegalActionError, RulesError, ValueError) as err:
            self.notify(str(err), title="Not allowed", severity="error", timeout=6)
            return False
        self.selected.clear()
        self.drop_hint()
        self.after_change()
        return True

    def chosen(self) -> list[Card]:
        """The selected cards, else the card under the cursor."""
        if self.selected:
            return [self.order[i] for i in self.selected]
        return [self.order[self.cursor]] if self.order else []

    def action_cursor(self, step: int) -> None:
        if self.order:
            self.cursor = (self.cursor + step) % len(self.order)
            self.refresh_table()

    def action_move_card(self, step: int) -> None:
        if not self.order:
            return
        j = (self.cursor + step) % len(self.order)
        i = self.cursor
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.selected = [j if k == i else i if k == j else k for k in self.selected]
        self.cursor = j
        self.by_rank = False
        self.refresh_table()

    def action_select(self) -> None:
        if self.order:
            if self.cursor in self.selected:
                self.selected.remove(self.cursor)
            else:
                self.selected.append(self.cursor)
            self.refresh_table()

    def action_sort(self) -> None:
        """Sort by suit, then (pressed again) by rank."""
        self.by_rank = not self.by_rank
        self.order = []
        self.selected.clear()
        self.refresh_table()
        self.notify("sorted by rank" if self.by_rank else "sorted by suit", timeout=2)

    def action_draw_stock(self) -> None:
        self.attempt(Action("draw-stock"))

    def action_draw_pile(self) -> None:
        v = self.view_now()
        if v.rules.draw_pile == "any" and v.pile:
            card = v.pile[len(v.pile) - 1 - min(self.pile_at, len(v.pile) - 1)]
            if self.attempt(Action("draw-pile", (int(card),))):
                self.pile_at = 0
            return
        self.attempt(Action("draw-pile"))

    def action_pile_cursor(self, step: int) -> None:
        self.pile_at = max(0, self.pile_at - step)
        self.refresh_table()

    def action_meld(self) -> None:
        cards = self.chosen()
        if len(cards) < 2:
            self.notify("Select the meld's cards with space first.", severity="warning")
            return
        self.attempt(self.meld_of(cards))

    def meld_of(self, cards: list[Card]) -> Action:
        """The meld of these cards: the legal one if only one order of them is legal (a
        run need not be selected in order), else in the order they were selected (where
        a joker goes is then the person's choice)."""
        asked = Action("meld", tuple(int(c) for c in cards))
        same = [a for a in self.view_now().legal_actions
                if a.kind == "meld" and sorted(a.cards) == sorted(asked.cards)]
        if asked in same or len(same) != 1:
            return asked
        return same[0]

    def action_discard(self) -> None:
        cards = self.chosen()
        if len(cards) != 1:
            self.notify("Select one card to discard.", severity="warning")
            return
        self.attempt(Action("discard", (int(cards[0]),)))

    def action_layoff(self, number: int) -> None:
        cards = self.chosen()
        if len(cards) != 1:
            self.notify("Select one card to lay off.", severity="warning")
            return
        self.attempt(Action("layoff", (int(cards[0]),), meld=number))

    def action_end(self) -> None:
        self.attempt(Action("end"))

    def action_legal(self) -> None:
        v = self.view_now()
        if not v.my_turn:
            self.notify("It is not your turn.")
            return
        body = Text("Your legal actions\n\n", style="bold")
        body.append("\n".join(str(a) for a in v.legal_actions))
        body.append("\n\n: types any of them.", style="dim")
        self.push_screen(Message(body, kind="legal"))

    def action_sheet(self) -> None:
        v = self.view_now()
        body = Text("Score sheet\n\n", style="bold")
        body.append("deal  " + "".join(f"{n[:10]:>12}" for n in v.names) + "\n")
        for d, points in enumerate(v.sheet, 1):
            body.append(f"{d:>4}  " + "".join(f"{p:>12}" for p in points) + "\n")
        body.append("total " + "".join(f"{t:>12}" for t in v.totals), style="bold")
        body.append("\n\n" + match_end_text(v.rules, len(v.names), v.match_end), style="dim")
        self.push_screen(Message(body, kind="sheet"))

    def action_hint(self) -> None:
        v = self.view_now()
        if not v.my_turn or self.busy:
            self.notify("A hint is for your turn.")
            return
        self.busy = True
        # A worker, as a bot's turn: the keys are read while the hint is worked out.
        self.run_worker(self.show_hint(v), group="hint", exit_on_error=True)

    async def show_hint(self, v: View) -> None:
        status = self.status_text(v)
        status.append(" · working out a hint…", style="italic")
        self.query_one("#status", Static).update(status)
        # Let the line reach the screen before the search takes the interpreter.
        await asyncio.sleep(0.05)
        try:
            # The hint's own budget (a count of imagined deals, seeded from the position):
            # the same position gets the same hint each time.
            found = await asyncio.to_thread(hint, v, stop=self.game.stop)
        finally:
            self.busy = False
            if not self.game.stop.is_set():
                self.query_one("#status", Static).update(self.status_text(self.view_now()))
        if self.game.stop.is_set():
            return  # the person is leaving
        self.hints += 1
        if self.game.helped():
            self.log_line(Text("With a hint this match is no longer rated.", style="dim"))
        # (the reason begins with the action: "discard KS: KS is your highest card ...")
        reason = with_symbols(found.reason)
        self.notify(reason, title="Hint", timeout=12)
        self.hint_shown = True
        self.log_line(Text(f"Hint: {reason}", style="green"))

    def drop_hint(self) -> None:
        """Take a hint's notice away: it was for the position before the last change."""
        if self.hint_shown:
            self.clear_notifications()
            self.hint_shown = False

    def action_undo(self) -> None:
        problem = self.game.undo_problem()
        if problem is not None or self.busy:
            self.notify(problem or "wait for your turn", severity="warning")
            return
        self.game.undo()
        self.drop_hint()
        self.seen_actions = self.view_now().history_length
        self.log_line("You took your last meld or lay-off back.")
        self.refresh_table()

    def action_notation(self) -> None:
        box = self.query_one("#notation", Input)
        box.add_class("shown")
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = event.input
        text = event.value.strip()
        box.value = ""
        box.remove_class("shown")
        self.set_focus(None)
        if text:
            self.attempt(text)

    def on_key(self, event: Any) -> None:
        box = self.query_one("#notation", Input)
        if event.key == "escape" and box.has_class("shown"):
            box.value = ""
            box.remove_class("shown")
            self.set_focus(None)

    def action_quit_game(self) -> None:
        """``q``: leave the match once the person says yes (at once when it is over)."""
        if self.game.match.is_over:
            self.leave(0)
            return
        where = (f"It is saved in {self.game.save}" if self.game.save is not None
                 else f"It will be saved in {games_directory()}")
        body = Text("Leave the match?\n\n", style="bold")
        body.append(f"{where}: rummykit play --resume FILE goes on with it.\n\n")
        body.append("y leaves · n (or escape) plays on", style="dim")
        self.push_screen(Confirm(body), callback=lambda yes: self.leave(0) if yes else None)

    def action_interrupt(self) -> None:
        """Ctrl-C: leave at once, status 130 (a bot's search is stopped, not waited for;
        the record is kept as after ``q``)."""
        self.leave(130)

    def leave(self, code: int) -> None:
        """Close the app: a bot's search is stopped, and a match not over is kept (in the
        data directory where there is no --save file)."""
        self.game.stop.set()
        if not self.game.match.is_over:
            self.kept = self.game.keep()
        self.exit(code, return_code=code)


def run_app(*, rules: str, players: int, seed: int | None, name: str, bots: str | None,
            save: str | None, resume: str | None, stats_url: str | None,
            words: Callable[[BaseException], str] = str) -> int:
    """Start (or resume) the game and run the app; the exit status. A game that cannot
    start is said in one line, in ``words`` (the command line's: its flags)."""
    try:
        game = start_game(rules, players, seed, name, bots, save, resume)
    except (RulesError, ValueError) as err:
        print(f"cannot start: {words(err)}", file=sys.stderr)
        return 2
    app = RummyApp(game, stats_url=stats_url)
    try:
        code = app.run()
    except KeyboardInterrupt:
        code = 130
    game.stop.set()
    print(f"(The shuffles came from seed {game.seed}.)")
    if app.kept is not None:
        print(app.kept)
    elif not game.match.is_over or game.save is not None:
        print(game.keep())
    if app.problem is not None:
        print(app.problem, file=sys.stderr)
        return 2
    return 130 if code == 130 else (code or 0)
