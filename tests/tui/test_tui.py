"""The terminal app of ``rummykit play``, driven by Textual's pilot: a whole deal played
by keys, the screen never showing a card of another hand that seat 0 has not seen, the
hand's own order, the legal actions and the score sheet, undo, resume, and Ctrl-C that
leaves with the record saved."""

from __future__ import annotations

import asyncio
import html
import os
import random
import re
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rummykit import record
from rummykit.bots import make_bot
from rummykit.cards import CARDS, Card
from rummykit.session import LocalGame, games_directory, pretty
from rummykit.tui import RummyApp
from rummykit.tui.app import Confirm, Message

from .._loops import run_async as run

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def screen_text(app: RummyApp) -> str:
    """Every character on the screen (from Textual's own screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def shown_hand(app: RummyApp, text: str | None = None) -> list[str]:
    """The hand's cards as the screen shows them, in their order."""
    text = screen_text(app) if text is None else text
    start = text.index("Your hand")
    line = text[start:].split("cards · ←/→")[0]
    return CARD.findall(line)


def secret_cards(game: LocalGame) -> set[str]:
    """The cards in the bots' hands that seat 0 has not seen taken from the pile."""
    v = game.view()
    taken = {pretty(c) for seat, cards in v.pile_draws if seat != 0 for c in cards}
    deal = game.match.deal
    return {pretty(CARDS[c]) for seat in range(1, deal.players)
            for c in deal.hands[seat]} - taken


async def settle(pilot: Pilot[int], app: RummyApp) -> None:
    """Let the bots play until it is the person's turn or a page is shown."""
    for _ in range(2000):
        await pilot.pause()
        if isinstance(app.screen, Message) or app.game.match.is_over:
            return
        if not app.busy and not app.game.bot_to_move:
            return
        await asyncio.sleep(0.001)
    pytest.fail("the bots did not finish their turns")


async def put_cursor_on(pilot: Pilot[int], app: RummyApp, card: Card) -> None:
    target = app.order.index(card)
    for _ in range((target - app.cursor) % len(app.order)):
        await pilot.press("right")
    assert app.order[app.cursor] == card


@pytest.mark.long
def test_a_whole_deal_played_by_keys(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    game = LocalGame.start(rules="one-deal", players=2, seed=26, name="Ann", bots="greedy",
                           save=str(save))

    async def play() -> None:
        app = RummyApp(game, bot_delay=0, stats_url=None)
        async with app.run_test(size=(120, 40)) as pilot:
            melded = 0
            for _ in range(300):
                await settle(pilot, app)
                if isinstance(app.screen, Message):
                    break
                text = screen_text(app)  # checked at each of the person's decisions
                assert not set(CARD.findall(text)) & secret_cards(app.game)
                v = app.game.view()
                assert sorted(shown_hand(app, text)) == sorted(pretty(c) for c in v.hand)
                if v.phase == "draw":
                    await pilot.press("s")
                    continue
                meld = next((a for a in v.legal_actions if a.kind == "meld"), None)
                if meld is not None:
                    # Selected from the right: a run need not be chosen in its order.
                    for code in reversed(meld.cards):
                        await put_cursor_on(pilot, app, CARDS[code])
                        await pilot.press("space")
                    await pilot.press("m")
                    melded += 1
                    continue
                discard = next(a for a in v.legal_actions if a.kind == "discard")
                await put_cursor_on(pilot, app, CARDS[discard.cards[0]])
                await pilot.press("d")
            assert isinstance(app.screen, Message) and app.screen.kind == "summary"
            summary = screen_text(app)
            assert "Deal 1 is over" in summary
            assert "Press enter to go on." in summary
            await pilot.press("enter")
            await pilot.pause()
            assert "the match is over" in screen_text(app)
            await pilot.press("q")
        assert app.return_code == 0
        outcome = record.replay(record.load(save))
        assert outcome.match.is_over and not outcome.mid_deal
        mine = [a for seat, a in outcome.match.finished[0].moves if seat == 0]
        assert sum(1 for a in mine if a.kind == "meld") == melded

    run(play())


def test_the_hand_in_your_own_order_the_legal_actions_and_the_sheet() -> None:
    game = LocalGame.start(rules="classic", players=3, seed=5, name="Ann", bots="random",
                           save=None)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            before = shown_hand(app)
            assert before == [pretty(c) for c in app.game.view().hand]  # sorted by suit
            await pilot.press("shift+right")  # the first card one place right
            assert shown_hand(app) == [before[1], before[0], *before[2:]]
            await pilot.press("o")  # by rank
            ranks = [CARDS[next(c for c in range(52) if pretty(CARDS[c]) == t)].rank
                     for t in shown_hand(app)]
            assert ranks == sorted(ranks)
            await pilot.press("question_mark")
            assert isinstance(app.screen, Message)
            legal = screen_text(app)
            for action in app.game.view().legal_actions:
                assert str(action) in legal
            await pilot.press("escape")
            await pilot.press("t")
            assert "Score sheet" in screen_text(app)
            await pilot.press("escape")
            await pilot.press("d")  # not before a draw: refused, nothing played
            await pilot.pause()
            assert app.game.match.deal.move_count == len(app.game.view().history)
            assert app.game.view().phase == "draw" and app.game.view().my_turn

    run(play())


def test_undo_takes_the_meld_back(tmp_path: Path) -> None:
    # Seed 2 of basic deals seat 0 a meld after its first draw from the stock.
    game = LocalGame.start(rules="basic", players=2, seed=2, name="Ann", bots="random",
                           save=str(tmp_path / "g.json"))

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(60):
                await settle(pilot, app)
                v = app.game.view()
                if v.phase == "draw":
                    await pilot.press("s")
                    continue
                meld = next((a for a in v.legal_actions if a.kind == "meld"), None)
                if meld is None:
                    discard = next(a for a in v.legal_actions if a.kind == "discard")
                    await put_cursor_on(pilot, app, CARDS[discard.cards[0]])
                    await pilot.press("d")
                    continue
                before = app.game.view()
                await pilot.press("u")  # nothing to take back yet
                assert app.game.view() == before
                for code in meld.cards:
                    await put_cursor_on(pilot, app, CARDS[code])
                    await pilot.press("space")
                await pilot.press("m")
                assert len(app.game.view().table) == len(before.table) + 1
                await pilot.press("u")
                assert app.game.view() == before
                assert sorted(shown_hand(app)) == sorted(pretty(c) for c in before.hand)
                return
            pytest.fail("no meld came up")

    run(play())


def test_resume_shows_the_saved_position_and_ctrl_c_keeps_the_record(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = LocalGame.start(rules="rummy500", players=3, seed=4, name="Ann",
                            bots="greedy,expert", save=str(save))
    for _ in range(25):
        if first.bot_to_move:
            first.play_bot(first.bot_choice()[1])
        else:
            first.play(first.view().legal_actions[0])

    async def play() -> None:
        game = LocalGame.resume(str(save), bots=None, save=None)
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            v = app.game.view()
            assert v.my_turn
            assert sorted(shown_hand(app)) == sorted(pretty(c) for c in v.hand)
            text = screen_text(app)
            assert "melded" in text  # rummy500's running points
            for meld in v.table:
                assert f"by {v.names[meld.owner]}" in text
            if v.phase == "draw":
                await pilot.press("s")
            if os.environ.get("RUMMYKIT_SCREENSHOTS") == "1":  # the README's picture
                app.save_screenshot("tui.svg", str(Path(__file__).parents[2] / "docs"
                                                   / "screenshots"))
            await pilot.press("ctrl+c")
        assert app.return_code == 130
        saved = record.replay(record.load(save)).match
        assert [str(a) for a in saved.deal.history] == [
            str(a) for a in app.game.match.deal.history]
        assert len(saved.deal.history) > len(first.match.deal.history)

    run(play())


def test_a_hint_stays_until_the_next_move(tmp_path: Path) -> None:
    """``h`` shows the hint (the master's move for this position) as a notice that stays
    while the person thinks, and goes with the person's next action: it never shows over
    the next position."""
    game = LocalGame.start(rules="classic", players=2, seed=3, name="Ann", bots="random",
                           save=str(tmp_path / "g.json"))

    def hints_up(app: RummyApp) -> list[str]:
        return [str(n.message) for n in list(app._notifications) if n.title == "Hint"]

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.game.view().my_turn and app.game.view().phase == "draw"
            await pilot.press("h")
            for _ in range(3000):
                await pilot.pause()
                if hints_up(app):
                    break
                await asyncio.sleep(0.005)
            shown = hints_up(app)
            assert shown and shown[0].startswith(("draw from the stock", "take the ")), shown
            await pilot.press("s")
            await settle(pilot, app)
            assert hints_up(app) == []

    run(play())


def test_a_hint_shows_its_cards_as_the_screen_does() -> None:
    """A hint's reason comes in the notation (10S, 7H, JK); the screen writes cards with
    suit symbols, so the reason is shown the same way (and a word that only looks like a
    card's start is left alone)."""
    from rummykit.tui.app import with_symbols

    assert with_symbols("discard 10S: keeps 7H 8H for a run, and JK") == (
        "discard 10♠: keeps 7♥ 8♥ for a run, and ★")
    assert with_symbols("take the QC from the pile: it completes QC QD QH") == (
        "take the Q♣ from the pile: it completes Q♣ Q♦ Q♥")
    assert with_symbols("KSA 2DX AS") == "KSA 2DX A♠"


# -- leaving, a short terminal, a long search ---------------------------------------------


def position_with_melds(players: int, melds: int) -> LocalGame:
    """A basic game (no jokers) at the person's draw with ``melds`` melds on the table,
    the person's moves the expert's."""
    for seed in range(1, 200):
        game = LocalGame.start(rules="basic", players=players, seed=seed, name="You",
                               bots="expert", save=None)
        me, rng = make_bot("expert"), random.Random(seed)
        while not game.match.is_over and not game.match.finished:
            if game.bot_to_move:
                game.play_bot(game.bot_choice()[1])
                continue
            v = game.view()
            if len(v.table) >= melds and v.phase == "draw":
                return game
            game.play(me.choose(v, rng))
    raise AssertionError("no seed reached so many melds")


def play_to_the_end(game: LocalGame, seed: int) -> None:
    """Play the match to its end, the person's moves the expert's."""
    me, rng = make_bot("expert"), random.Random(seed)
    while not game.match.is_over:
        if game.bot_to_move:
            game.play_bot(game.bot_choice()[1])
        else:
            game.play(me.choose(game.view(), rng))


@pytest.mark.parametrize("players", [2, 3])
def test_the_table_is_readable_at_80_by_24(players: int) -> None:
    game = position_with_melds(players, 5)
    table = game.view().table
    assert not any(c.is_joker for meld in table for c in meld.cards)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app).replace(" ", "")
            for meld in table:
                cards = "".join(pretty(c) for c in meld.cards)
                assert f"{meld.number}{cards}by" in text, (meld.number, cards)

    run(play())


def test_q_asks_before_leaving_and_keeps_the_match(tmp_path: Path) -> None:
    """``q`` asks first (n plays on); yes leaves, and a game played without --save is
    kept in the data directory, where the question and the app say."""
    game = LocalGame.start(rules="basic", players=2, seed=4, name="Ann", bots="random",
                           save=None)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Confirm)
            question = screen_text(app)
            assert "Leave the match?" in question
            assert str(games_directory()) in question
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, Confirm)
            assert app.is_running
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
        assert app.return_code == 0
        assert game.save is not None and game.save.parent == games_directory()
        assert app.kept is not None and str(game.save) in app.kept
        kept = record.replay(record.load(game.save)).match
        assert [str(a) for a in kept.deal.history] == [str(a) for a in game.match.deal.history]

    run(play())


def test_ctrl_c_stops_a_long_master_search_at_once(tmp_path: Path) -> None:
    """Ctrl-C while a master bot thinks for 20 seconds leaves within a few: the search is
    stopped, not waited for, and the bot's move cut short is not played."""
    save = tmp_path / "game.json"
    game = LocalGame.start(rules="basic", players=2, seed=4, name="Ann",
                           bots="master(think=20)", save=str(save))
    assert game.bot_to_move  # the bot moves first
    before = 0
    pressed = 0.0

    async def play() -> None:
        nonlocal pressed, before
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                await asyncio.sleep(0.01)
                if app.busy:
                    break
            assert app.busy
            await asyncio.sleep(1)  # well into a search (a draw may be decided at once)
            assert app.busy
            before = len(game.match.deal.history)
            pressed = time.perf_counter()
            await pilot.press("ctrl+c")
        assert app.return_code == 130

    run(play())
    assert time.perf_counter() - pressed < 3
    assert len(game.match.deal.history) == before
    assert len(record.load(save).deals[0].actions) == before


def test_a_database_that_fails_at_the_end_is_told_and_the_record_kept(tmp_path: Path) -> None:
    """The statistics cannot take the finished match (the file is not a database): the
    app says so in one line (printed again on stderr when it closes, exit status 2) and
    keeps the record in the data directory."""
    bad = tmp_path / "bad.db"
    bad.write_text("not a database\n" * 20)
    game = LocalGame.start(rules="one-deal", players=2, seed=3, name="Ann", bots="random",
                           save=None)
    play_to_the_end(game, 3)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0, stats_url=f"sqlite:///{bad}")
        async with app.run_test(size=(120, 40)) as pilot:
            app.finish()
            await pilot.pause()
            assert app.problem == (f"Statistics not stored: cannot open the database "
                                   f"sqlite:///{bad}: file is not a database")
            assert "file is not a database" in screen_text(app)
            assert game.save is not None and game.save.parent == games_directory()
            assert record.replay(record.load(game.save)).match.is_over
            await pilot.press("q")
        assert app.return_code == 0

    run(play())


def test_the_score_sheet_says_why_the_match_ended() -> None:
    """A classic match that ended because everyone had dealt says so, not the target."""
    for seed in range(100):
        game = LocalGame.start(rules="classic", players=2, seed=seed, name="Ann",
                               bots="expert", save=None)
        play_to_the_end(game, seed)
        if game.match.end == "dealt-once":
            break
    else:
        pytest.fail("no classic match ended with everyone having dealt")

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("t")
            await pilot.pause()
            text = screen_text(app)
            assert "The match ended when everyone had dealt once." in text
            assert "ends at 100" not in text

    run(play())


def test_the_match_end_offers_the_review_and_shows_it() -> None:
    """The match's last summary offers the review; r there reviews the person's decisions
    and shows the tables; r shows it again later."""
    game = LocalGame.start(rules="one-deal", players=2, seed=4, name="Ann", bots="random",
                           save=None)
    play_to_the_end(game, 4)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0, review_budget=4, review_jobs=1)
        async with app.run_test(size=(140, 50)) as pilot:
            app.show_summary(0)
            await pilot.pause()
            assert isinstance(app.screen, Message) and app.screen.kind == "summary"
            assert "Review this match? Press r" in screen_text(app)
            await pilot.press("r")
            for _ in range(600):
                await pilot.pause()
                if isinstance(app.screen, Message) and app.screen.kind == "review":
                    break
                await asyncio.sleep(0.05)
            assert isinstance(app.screen, Message) and app.screen.kind == "review"
            text = screen_text(app)
            assert "Your review: accuracy" in text and "Review of one-deal" in text
            assert app.reviewed is not None
            assert [s.name for s in app.reviewed.seats] == ["Ann"]
            await pilot.press("enter")
            await pilot.pause()
            assert "r reviews it, q leaves" in screen_text(app)
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, Message) and app.screen.kind == "review"
            await pilot.press("enter")
            await pilot.press("q")
        assert app.return_code == 0

    run(play())


def test_the_review_waits_for_the_match_to_end() -> None:
    game = LocalGame.start(rules="one-deal", players=2, seed=4, name="Ann", bots="random",
                           save=None)

    async def play() -> None:
        app = RummyApp(game, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            assert app.reviewed is None and not app.reviewing
            assert not isinstance(app.screen, Message)

    run(play())
