"""The terminal app of ``rummykit play``, driven by Textual's pilot: a whole deal played
by keys, the screen never showing a card of another hand that seat 0 has not seen, the
hand's own order, the legal actions and the score sheet, undo, resume, and Ctrl-C that
leaves with the record saved."""

from __future__ import annotations

import asyncio
import html
import os
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rummykit import record
from rummykit.cards import CARDS, Card
from rummykit.session import LocalGame, pretty
from rummykit.tui import RummyApp
from rummykit.tui.app import Message

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


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


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
                app.save_screenshot("tui.svg", str(Path(__file__).parents[1] / "docs"
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
