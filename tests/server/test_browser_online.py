"""Online play in Chromium, each person in a browser context of their own (their own
storage, so their own key): a seat belongs to the first browser that opens its link, a
second tab of that browser takes the seat over, everyone sees who is connected, the
browser that made the table manages its links, and "my tables" finds every seat again.
The server keeps its tables in PostgreSQL, as a server shared by many people does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from ._support import bot, person
from .test_browser import Pages, Server, axe_problems, open_seat, ready

# The browser tests' fixtures: contexts, screenshots (Chromium is the web tests'
# conftest's).
pages = test_browser.pages
shot = test_browser.shot

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module", params=["postgres"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server of this module's tests, on PostgreSQL (the database of a server shared
    by many people; skipped where PostgreSQL is not installed)."""
    yield from test_browser.module_server(request, tmp_path_factory)


def start_for_two(pages: Pages, server: Server, friend: str, public: bool = False) -> Any:
    """A new browser starts a table on the start page for itself and ``friend`` (a
    person), listed among the open tables if ``public``: its page, at the table with the
    invite sheet open."""
    page = pages.new()
    page.goto(server.url + "/")
    rows = test_browser.friends_form(page, 1, 0)
    rows.nth(1).locator("[name=name]").fill(friend)
    if public:
        page.check("#public")
    page.click("#start")
    page.wait_for_selector("#invite-sheet[open]")
    return page


def dots(page: Any) -> dict[str, bool]:
    """Each person's seat as this page shows it: name -> connected."""
    seen: dict[str, bool] = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('.seat')].filter((s) => s.querySelector('.presence'))
          .map((s) => [s.querySelector('.name').textContent.replace(' (you)', ''),
                       s.querySelector('.presence').classList.contains('here')]))""")
    return seen


def test_a_link_opens_its_seat_for_one_browser_only(server: Server, pages: Pages,
                                                   shot: Any) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    ann = open_seat(pages, server, table["seats"][0]["link"])
    bob = open_seat(pages, server, table["seats"][1]["link"])
    # The address bar no longer holds the link: the browser's key opens the seat now.
    assert bob.url.endswith(f"/t/{table['id']}?seat=1")
    bob.wait_for_function("() => state.table.status === 'playing'")
    hand = bob.evaluate("() => state.view.hand")
    # Someone else with Bob's link (the table's maker, say) sees a clear refusal, no hand.
    eve = pages.new()
    eve.goto(server.url + table["seats"][1]["link"])
    eve.wait_for_selector("#notice:not(.hidden)")
    assert "belongs to the browser that opened its link first" in eve.inner_text("#notice")
    assert eve.locator("#hand .card").count() == 0
    assert eve.evaluate("() => state") is None
    shot(eve, "seat-claimed")
    # Bob reloads: still his seat, his hand.
    bob.reload()
    ready(bob)
    assert bob.evaluate("() => state.view.hand") == hand
    assert ann.locator("#notice.hidden").count() == 1


def test_a_second_tab_takes_the_seat_and_the_first_can_take_it_back(
        server: Server, pages: Pages, shot: Any) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    first = open_seat(pages, server, table["seats"][0]["link"])
    second = first.context.new_page()
    second.goto(server.url + f"/t/{table['id']}?seat=0")
    ready(second)
    first.wait_for_selector("#notice:not(.hidden)")
    assert "another tab" in first.inner_text("#notice")
    shot(first, "seat-taken-over")
    first.click("#play-here")
    second.wait_for_selector("#notice:not(.hidden)")
    first.wait_for_selector("#notice.hidden", state="attached")
    assert first.evaluate("() => state.view.seat") == 0


def test_everyone_sees_who_is_at_the_table_and_whose_turn_it_is(
        server: Server, pages: Pages) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    ann = open_seat(pages, server, table["seats"][0]["link"])
    ann.wait_for_function("() => document.querySelector('.seat .presence.here') !== null")
    assert dots(ann) == {"Ann": True, "Bob": False}
    bob = open_seat(pages, server, table["seats"][1]["link"])
    ann.wait_for_function("() => document.querySelectorAll('.seat .presence.here').length === 2")
    assert dots(bob) == {"Ann": True, "Bob": True}
    # The tab's title says whose turn it is.
    mover, waiter = (ann, bob) if ann.evaluate("() => state.view.to_move") == 0 else (bob, ann)
    mover.wait_for_function("() => document.title.startsWith('Your turn')")
    assert not waiter.title().startswith("Your turn")
    bob.close()
    ann.wait_for_function("() => document.querySelectorAll('.seat .presence.here').length === 1")
    assert dots(ann) == {"Ann": True, "Bob": False}


def test_the_maker_of_a_table_manages_its_links_and_my_tables_finds_the_seat(
        server: Server, pages: Pages, shot: Any) -> None:
    ann = start_for_two(pages, server, "Bob")
    bob_link = ann.locator("#invite-sheet input.invite-link").first.input_value()
    assert bob_link and "token=" in bob_link
    ann.keyboard.press("Escape")
    ready(ann)
    table_id = ann.evaluate("() => tableId")

    bob = pages.new()
    bob.goto(bob_link)
    ready(bob)
    ann.click("#btn-menu")  # the links are in the table's menu: the invite sheet
    ann.click("#btn-invites")
    row = ann.locator('#invite-sheet .invite-row[data-seat="1"]')
    row.locator(".invite-status", has_text="at the table").wait_for()
    assert row.locator("input").input_value() == bob_link
    assert row.locator("button.renew").is_disabled()  # Bob is here: his link stays
    if pytest.importorskip("axe_playwright_python"):
        assert axe_problems(ann) == []
    shot(ann, "invites")
    # Bob's page reloads (he is briefly away): his seat keeps its link, and the page says
    # why in words.
    bob.close()
    row.locator(".invite-status", has_text="claimed, not connected").wait_for()
    row.locator("button.renew").click()
    row.locator(".invite-note", has_text="Bob is playing this match").wait_for()
    assert row.locator("input").input_value() == bob_link
    # Bob leaves the match for good (the computer plays for him): now his seat may be
    # given to someone else.
    bob = pages.contexts[1].new_page()
    bob.goto(server.url + f"/t/{table_id}?seat=1")
    ready(bob)
    bob.once("dialog", lambda dialog: dialog.accept())  # "the computer plays for me?"
    bob.click("#btn-menu")
    bob.click("#btn-away")
    bob.wait_for_function("() => state.table.seats[1].away")
    bob.close()
    row.locator(".invite-status", has_text="claimed, not connected").wait_for()
    row.locator("button.renew").click()
    ann.wait_for_function("old => { const field = document.querySelector("
                          "'#invite-sheet .invite-row[data-seat=\"1\"] input');"
                          " return field && field.value !== old; }", arg=bob_link)
    new_link = row.locator("input").input_value()
    assert "token=" in new_link and new_link != bob_link
    row.locator(".invite-status", has_text="link not opened yet").wait_for()

    # The new link opens the seat for whoever comes with it; Bob's browser lost it.
    cid = pages.new()
    cid.goto(new_link)
    ready(cid)
    assert cid.evaluate("() => state.view.seat") == 1
    bob_again = pages.contexts[1].new_page()
    bob_again.goto(server.url + f"/t/{table_id}?seat=1")
    bob_again.wait_for_selector("#notice:not(.hidden)")

    # "My tables" on the start page lists the seat of the browser that holds it.
    cid.goto(server.url + "/")
    link = cid.locator("#mine-list a.mine-link").first
    link.wait_for()
    assert "Bob (you)" in link.inner_text()
    link.click()
    ready(cid)
    assert cid.evaluate("() => state.view.seat") == 1
    shot(ann, "invites-after")


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}])
def test_the_notices_fit_a_phone(server: Server, pages: Pages, shot: Any,
                                 size: dict[str, int]) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    open_seat(pages, server, table["seats"][1]["link"], viewport=size)
    eve = pages.new(viewport=size)
    eve.goto(server.url + table["seats"][1]["link"])
    eve.wait_for_selector("#notice:not(.hidden)")
    box = eve.locator("#notice").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    shot(eve, "seat-claimed-phone")


@pytest.fixture
def paced_server(tmp_path: Path) -> Iterator[Server]:
    """A server of one test whose bots (and stand-ins) wait 0.4 s before each move, as
    people see them: a stand-in at the usual test speed redraws the page 20 times a
    second, which a loaded machine's browser cannot keep up with."""
    running = Server(test_browser.sqlite_url(tmp_path), tmp_path, bot_delay="0.4")
    running.start()
    yield running
    running.stop()


@pytest.mark.long
def test_the_standin_plays_when_time_runs_out_and_gives_the_seat_back(
        paced_server: Server, pages: Pages, shot: Any) -> None:
    """A table with a 120-second turn timer (the test server runs timers 20 times fast):
    the clock counts down on the seat to move; when Ann lets it run out, the computer
    plays for her and her page says so, until she presses "I'm back". She can also hand
    her seat over herself. (The match goes to 1,000 points: the stand-in must not finish
    it before she is back.)"""
    import httpx

    server = paced_server
    response = httpx.post(f"{server.url}/api/tables", json={
        "rules": "basic(target=1000)", "seats": [person("Ann"), bot("Bob", "random")], "seed": 4,
        "timer": 120, "standin": "greedy"}, timeout=10)
    assert response.status_code == 200, response.text
    ann = open_seat(pages, server, response.json()["seats"][0]["link"])
    # (Polled on a timer: the stand-in's moves redraw the page many times a second.)
    ann.wait_for_function(
        "() => !document.getElementById('standin').classList.contains('hidden')",
        polling=100, timeout=30_000)
    assert "computer (greedy) plays for you" in ann.inner_text("#standin")
    assert "the computer (greedy) plays for now" in ann.inner_text("#me .standin")
    shot(ann, "standin")
    # The stand-in plays on meanwhile: where a deal's summary covers the table, its own
    # "I'm back" button is the one to press. (At the test server's speed the stand-in
    # finishes a deal every few seconds, so a summary may open just as she aims: she
    # presses whichever button is on top at that moment, and again if the seat is not
    # back yet.)
    press_back = """() => {
        const summary = document.getElementById('summary');
        const button = (summary.open && document.getElementById('summary-back'))
            || document.getElementById('btn-back');
        button.click();
    }"""
    for _ in range(5):
        ann.evaluate(press_back)
        try:
            ann.wait_for_function(
                "() => document.getElementById('standin').classList.contains('hidden')",
                polling=100, timeout=5000)
            break
        except Exception:
            continue
    else:
        raise AssertionError("'I'm back' never gave her the seat back")
    # Had the stand-in just finished a deal, the finished deal stays in view (no clock)
    # until its summary, which opens a moment later, is closed: no clock runs while
    # people read it. Then her own clock runs on her turn. (On a slow machine her six
    # seconds may run out again before the page is looked at: then she is back again.)
    for _ in range(6):
        ann.wait_for_function(
            "() => document.getElementById('summary').open"
            " || !document.getElementById('standin').classList.contains('hidden')"
            " || (state.view.to_move === 0 && state.table.time_left > 0"
            " && (document.querySelector('#me .clock') || {}).textContent?.includes('s left'))",
            polling=100, timeout=30_000)
        if ann.evaluate("() => document.getElementById('summary').open"):
            ann.click("#summary-close")
        elif ann.locator("#standin:not(.hidden)").count():
            ann.evaluate(press_back)
            ann.wait_for_selector("#standin.hidden", state="attached")
        else:
            break
    else:
        raise AssertionError("her own clock never ran on her turn")
    # Handing the seat over asks first, then the computer plays until she is back.
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#btn-menu")
    ann.click("#btn-away")
    ann.wait_for_selector("#standin:not(.hidden)")
    assert "You handed your seat over" in ann.inner_text("#standin")
    assert ann.locator("#btn-away.hidden").count() == 1


def test_a_spectator_watches_without_a_hand(server: Server, pages: Pages, shot: Any) -> None:
    table = server.table([person("Ann"), bot("Bob", "greedy")], seed=4)
    ann = open_seat(pages, server, table["seats"][0]["link"])
    watcher = pages.new()
    watcher.goto(server.url + f"/t/{table['id']}?watch=1")
    ready(watcher)
    assert watcher.evaluate("() => state.view.seat") is None
    assert watcher.locator("#hand .card").count() == 0
    assert not watcher.locator("#btn-stock").is_visible()
    assert watcher.locator(".seat").count() == 2
    assert "You are watching" in watcher.inner_text("#watchers")
    ann.wait_for_function("() => document.getElementById('watchers').textContent === '1 watching'")
    # The table moves for the spectator as it does for the players.
    ann.wait_for_function("() => state.view.to_move === 0")
    ann.click("#btn-stock")
    watcher.wait_for_function("() => state.table.seq >= 1")
    assert watcher.evaluate("() => state.view.hand") == []
    shot(watcher, "spectator")


def test_a_stranger_takes_a_free_seat_from_the_lobby(server: Server, pages: Pages,
                                                     shot: Any) -> None:
    ann = start_for_two(pages, server, "Guest", public=True)
    ann.keyboard.press("Escape")
    ready(ann)
    table_id = ann.evaluate("() => tableId")

    zoe = pages.new()
    zoe.goto(server.url + "/")
    entry = zoe.locator(f'#lobby-list li[data-table="{table_id}"]')
    entry.wait_for()
    assert "watch" in entry.inner_text()
    shot(zoe, "lobby")
    zoe.fill("#player-name", "Zoe")
    entry.locator("button.take").click()
    ready(zoe)
    assert zoe.evaluate("() => [state.view.seat, state.view.names[1]]") == [1, "Zoe"]
    ann.wait_for_function("() => state.table.status === 'playing' && state.view.names[1] === 'Zoe'")
    # The seat is gone from the lobby for everyone else.
    other = pages.new()
    other.goto(server.url + "/")
    other.locator(f'#lobby-list li[data-table="{table_id}"]').wait_for()
    assert other.locator(f'#lobby-list li[data-table="{table_id}"] button.take').count() == 0


def test_chat_shows_text_as_text_and_a_muted_person_is_not_shown(
        server: Server, pages: Pages, shot: Any) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    ann = open_seat(pages, server, table["seats"][0]["link"])
    bob = open_seat(pages, server, table["seats"][1]["link"])
    payload = '<img src=x onerror="window.hacked=1"><b>hi</b>'
    ann.click("#btn-menu")  # the chat is in the table's menu
    bob.click("#btn-menu")
    bob.fill("#chat-text", payload)
    bob.press("#chat-text", "Enter")
    line = ann.locator('#chat .chat-line[data-seat="1"]')
    line.wait_for()
    assert line.inner_text() == f"Bob: {payload}"
    assert ann.locator("#chat img, #chat b").count() == 0
    assert ann.evaluate("() => window.hacked") is None
    # Presence dots, the chat and its mute buttons are for everyone.
    if pytest.importorskip("axe_playwright_python"):
        assert axe_problems(ann) == []
    shot(ann, "chat")
    # Ann mutes Bob on her browser: his lines go, and stay gone after a reload.
    ann.click('#mutes button.mute[data-seat="1"]')
    assert ann.locator('#chat .chat-line[data-seat="1"]').count() == 0
    bob.fill("#chat-text", "still there?")
    bob.press("#chat-text", "Enter")
    bob.locator('#chat .chat-line >> text=still there?').wait_for()
    ann.reload()
    ready(ann)
    ann.click("#btn-menu")
    ann.wait_for_selector('#mutes button.mute[aria-pressed="true"]')
    assert ann.locator('#chat .chat-line[data-seat="1"]').count() == 0


def test_a_code_takes_the_seats_to_another_device(server: Server, pages: Pages) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    laptop = open_seat(pages, server, table["seats"][0]["link"])
    laptop.goto(server.url + "/")
    laptop.click("#devices summary")
    laptop.click("#make-code")
    laptop.wait_for_function("() => document.getElementById('code').textContent.length === 9")
    code = laptop.inner_text("#code")
    phone = pages.new(viewport={"width": 390, "height": 844})
    phone.goto(server.url + "/")
    assert phone.locator("#mine.hidden").count() == 1
    phone.click("#devices summary")
    phone.fill("#code-in", code)
    # It asks first: the code replaces this browser's own key.
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.click("#use-code")
    link = phone.locator("#mine-list a.mine-link").first
    link.wait_for()
    assert "this browser now holds" in phone.inner_text("#code-result")
    link.click()
    ready(phone)
    assert phone.evaluate("() => state.view.seat") == 0


def test_when_someone_leaves_the_others_may_end_the_match(server: Server, pages: Pages,
                                                          shot: Any) -> None:
    table = server.table([person("Ann"), person("Bob")], seed=4)
    ann = open_seat(pages, server, table["seats"][0]["link"])
    bob = open_seat(pages, server, table["seats"][1]["link"])
    bob.wait_for_function("() => state.table.status === 'playing'")
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#btn-menu")
    bob.click("#btn-away")
    ann.wait_for_selector("#left-box:not(.hidden)")
    assert "Bob left the match" in ann.inner_text("#left-text")
    assert bob.locator("#left-box.hidden").count() == 1
    shot(ann, "someone-left")
    ann.click("#btn-end-match")
    ann.wait_for_selector("dialog#summary[open]")
    assert "The match ended: Bob left." in ann.inner_text("#summary-body")
    assert "nobody won it" in ann.inner_text("#summary-body")
    bob.wait_for_function("() => state.table.ended_by === 1")
