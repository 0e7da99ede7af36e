"""The pages in a real browser: Playwright (sync API) with Debian's Chromium against the app
served by ``rummykit serve`` in a subprocess. This module's server keeps its tables in
SQLite, as ``make run`` does; the online tests (test_browser_online.py) use PostgreSQL, as
a server shared by many people does, and the restart test runs on both. Every server
behaviour is also tested on both databases without a browser (test_api.py and the rest).

The player's strategy: draw from the stock (the stock card, the button or the key ``s``),
meld the longest meld on offer, else lay off, else discard the highest card. The page's own
``state`` (the last message it received) is read only to know when it has heard back and
what is legal; every move is made by clicking or typing like a person.

Screenshots of the main screens go to the test's tmp dir, and also to
``tests/server/screenshots/`` when ``RUMMYKIT_SCREENSHOTS=1``.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from rummykit import record as records
from rummykit.cards import CARDS

from ._support import Shadow, bot, hello, person
from .conftest import DATABASES, new_postgres_database, sqlite_url

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.timeout(180)

BOT_DELAY = "0.05"
SCREENSHOTS = Path(__file__).parent / "screenshots"
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
WAIT = 20_000
"""Milliseconds to wait for the page to hear back (bots think 0.05 s a move)."""


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# -- the server ----------------------------------------------------------------------


class Server:
    """``rummykit serve`` in a subprocess, on one database and one port, restartable."""

    def __init__(self, db_url: str, workdir: Path, bot_delay: str = BOT_DELAY) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.workdir = workdir
        self.port = free_port()
        self.log = workdir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "rummykit.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.db_url, "--bot-delay", self.bot_delay,
                 "--allow-seed", "--tables-per-client", "1000", "--timer-unit", "0.05",
                 "--review-budget", "4", "--review-jobs", "1"],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/presets", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def check_log(self) -> None:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        assert "Traceback" not in text, f"the server logged an error:\n{text}"

    def table(self, seats: list[dict[str, Any]], rules: str = "one-deal",
              seed: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"rules": rules, "seats": seats}
        if seed is not None:
            body["seed"] = seed
        response = httpx.post(f"{self.url}/api/tables", json=body, timeout=10)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def database(request: pytest.FixtureRequest, workdir: Path) -> str:
    if request.param == "sqlite":
        return sqlite_url(workdir)
    return new_postgres_database(request.getfixturevalue("postgres_server"), "webui")


def module_server(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a module's tests, on the database of ``request.param``."""
    workdir = tmp_path_factory.mktemp(f"server-{request.param}")
    running = Server(database(request, workdir), workdir)
    running.start()
    yield running
    running.stop()
    running.check_log()


@pytest.fixture(scope="module", params=["sqlite"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server of this module's tests, on SQLite (the database of ``make run``)."""
    yield from module_server(request, tmp_path_factory)


@pytest.fixture(params=DATABASES)
def own_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone, on a fresh database (the test may restart it)."""
    running = Server(database(request, tmp_path), tmp_path)
    running.start()
    yield running
    running.stop()
    running.check_log()


class Pages:
    """Browser contexts of one test (each its own cookies and storage: its own person)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, **options: Any) -> Any:
        """A page in a context of its own. The person asks for reduced motion unless the
        test says otherwise: cards do not slide and a deal's summary opens at once, which
        halves the browser's work per move; the tests of the motion itself and of the
        pause at a deal's end pass ``reduced_motion="no-preference"``."""
        options.setdefault("viewport", {"width": 1280, "height": 900})
        options.setdefault("reduced_motion", "reduce")
        context = self.browser.new_context(**options)
        context.set_default_timeout(WAIT)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        # The security policy forbids inline script and foreign sources: the pages must
        # never need them (a refused one is logged to the console).
        page.on("console", lambda message: self.errors.append(message.text)
                if "Content Security Policy" in message.text else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()
    assert opened.errors == [], f"JavaScript errors: {opened.errors}"


@pytest.fixture
def shot(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """``shot(page, name)``: a full-page screenshot in tmp, and in tests/server/screenshots/
    too when RUMMYKIT_SCREENSHOTS=1."""
    keep = os.environ.get("RUMMYKIT_SCREENSHOTS") == "1"
    suffix = "-postgres" if "postgres" in request.node.name else ""

    def take(page: Any, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if keep and not suffix:
            SCREENSHOTS.mkdir(exist_ok=True)
            shutil.copyfile(path, SCREENSHOTS / f"{name}.png")
        return path

    return take


# -- reading and driving a table page ------------------------------------------------


def ready(page: Any) -> None:
    page.wait_for_function("() => typeof state !== 'undefined' && state !== null")


def open_seat(pages: Pages, server: Server, link: str, **options: Any) -> Any:
    """A new page on ``link`` of ``server`` (a seat's link), once the table is shown."""
    page = pages.new(**options)
    page.goto(server.url + link)
    ready(page)
    return page


def js(page: Any, expression: str) -> Any:
    return page.evaluate(f"() => {expression}")


def seq(page: Any) -> int:
    value: int = js(page, "state.table.seq")
    return value


def legal(page: Any) -> list[str]:
    value: list[str] = js(page, "state.view.legal_actions")
    return value


def over(page: Any) -> bool:
    return bool(js(page, "state.view.match_over"))


def hand(page: Any) -> list[str]:
    value: list[str] = page.eval_on_selector_all("#hand .card",
                                                 "els => els.map(e => e.dataset.card)")
    return value


def wait_turn(page: Any) -> None:
    """Until this seat may act, or the match is over."""
    page.wait_for_function(
        "() => state && (state.view.match_over || state.view.legal_actions.length > 0)")


def wait_seq(page: Any, at_least: int) -> None:
    page.wait_for_function("n => state && state.table.seq >= n", arg=at_least)


def heard_back(page: Any, before: int) -> None:
    """The server answered the move just made (or said why not)."""
    try:
        wait_seq(page, before + 1)
    except playwright_api.TimeoutError:
        error = page.locator("#error").text_content()
        raise AssertionError(f"the move was not played; the page says: {error!r}") from None


def points(card: str) -> int:
    rank = card[:-1]
    return RANKS.get(rank) or int(rank)


def select(page: Any, cards: list[str], keyboard: bool = False) -> None:
    for card in cards:
        if keyboard:
            order = hand(page)
            target = order.index(card)
            focus: int = js(page, "focus")
            key = "ArrowRight" if target > focus else "ArrowLeft"
            for _ in range(abs(target - focus)):
                page.keyboard.press(key)
            page.keyboard.press(" ")
        else:
            page.click(f'#hand .card[data-card="{card}"]')
        pressed = page.get_attribute(f'#hand .card[data-card="{card}"]', "aria-pressed")
        assert pressed == "true", card


def pick(page: Any, action: str) -> None:
    """When the page offers several ways (#choices), take ``action``."""
    choices = page.locator("#choices button")
    if choices.count():
        page.click(f'#choices button[data-action="{action}"]')


def take_turn(page: Any, rng: random.Random, keyboard: bool = False) -> None:
    """One whole turn: draw, meld or lay off while it can, then discard."""
    before = seq(page)
    assert "draw stock" in legal(page)
    if keyboard:
        page.keyboard.press("s")
    elif rng.random() < 0.5:
        page.click("#stock .card.clickable")
    else:
        page.click("#btn-stock")
    heard_back(page, before)
    finish_turn(page, keyboard)


def play_until_the_next_deal(page: Any, rng: random.Random) -> None:
    """Take this seat's turns (the server plays the bots) until the first deal is over:
    the page then shows deal 2, or the match is over."""
    for _ in range(500):
        page.wait_for_function("() => state && (state.view.deal_number > 1 || "
                               "state.view.match_over || state.view.legal_actions.length > 0)")
        if over(page) or js(page, "state.view.deal_number") > 1:
            return
        take_turn(page, rng)


def finish_turn(page: Any, keyboard: bool = False) -> None:
    """The rest of a turn after the draw: meld or lay off while it can, then discard."""
    deal = js(page, "state.view.deal_number")
    while not over(page) and js(page, "state.view.deal_number") == deal:
        actions = legal(page)
        before = seq(page)
        melds = [a for a in actions if a.startswith("meld ")]
        layoffs = [a for a in actions if a.startswith("layoff ")]
        if melds:
            meld = max(melds, key=len)
            select(page, meld.split()[1:], keyboard)
            if keyboard:
                page.keyboard.press("m")
            else:
                page.click("#btn-meld")
            pick(page, meld)
        elif layoffs:
            layoff = layoffs[0]
            card, number = layoff.split()[1:3]
            select(page, [card], keyboard)
            if keyboard and int(number) <= 9:
                page.keyboard.press(number)
            else:
                page.click(f'#melds .meld.target[data-meld="{number}"]')
            pick(page, layoff)
        else:
            discards = [a.split()[1] for a in actions if a.startswith("discard ")]
            card = max(discards, key=points)
            select(page, [card], keyboard)
            if keyboard:
                page.keyboard.press("d")
            else:
                assert page.is_enabled("#btn-discard")
                page.click("#btn-discard")
            heard_back(page, before)
            return
        heard_back(page, before)


def play_until_over(page: Any, rng: random.Random, turns: int = 500) -> None:
    for _ in range(turns):
        wait_turn(page)
        if over(page):
            return
        take_turn(page, rng)
    raise AssertionError("the match did not end")


def snapshot(page: Any) -> dict[str, Any]:
    """What the player sees of the game (the hand as a set: the arrangement is the page's)."""
    return {
        "seq": seq(page),
        "hand": sorted(hand(page)),
        "status": page.text_content("#status"),
        # each line of each seat, shown or not (own "last" line is hidden by the layout)
        "seats": page.eval_on_selector_all(
            ".seat", "els => els.map(e => [...e.children].map(c => c.textContent))"),
        "stock": page.text_content("#stock"),
        "pile": page.eval_on_selector_all("#pile .card", "els => els.map(e => e.dataset.card)"),
        "melds": page.eval_on_selector_all("#melds .meld", "els => els.map(e => e.innerText)"),
        "log": page.inner_text("#log"),
    }


def with_seed(page: Any, seed: int) -> None:
    """The index page's tables get this seed (the page has no field for it): a known deal,
    so an unrated table (a rated one is shuffled by the server alone)."""

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed, "rated": False}))

    page.route("**/api/tables", handle)


def link_token(link: str) -> str:
    return link.split("token=", 1)[1]


# -- playing a table from Python (to finish a match quickly) -------------------------


class Seat:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def recv(self) -> dict[str, Any]:
        """The next view (who is connected, heard meanwhile, is skipped)."""
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if message["type"] != "presence":
                break
        assert message["type"] == "view", message
        return message


def finish_over_websockets(server: Server, seed: int) -> tuple[dict[str, Any], Shadow]:
    """A two-person one-deal table played to its end over the live protocol."""
    table = server.table([person("Ann"), person("Bob")], seed=seed)
    shadow = Shadow("one-deal", ["Ann", "Bob"], seed)
    rng = random.Random(seed)
    base = server.url.replace("http", "ws")
    with ExitStack() as stack:
        seats: list[Seat] = []
        for seat, data in enumerate(table["seats"]):
            seats.append(Seat(stack.enter_context(connect(f"{base}/ws/{table['id']}"))))
            seats[seat].ws.send(json.dumps(hello(link_token(data["link"]))))
            for other in seats[:-1]:
                other.recv()  # the newcomer's join
            seats[seat].recv()  # its own join
        while not shadow.match.is_over:
            text = shadow.choose(shadow.deal.to_move, rng)
            seats[shadow.deal.to_move].ws.send(json.dumps({"type": "action", "action": text}))
            shadow.apply(text)
            for seat_conn in seats:
                assert seat_conn.recv()["table"]["seq"] == shadow.seq
    return table, shadow


def friends_form(page: Any, friends: int, bots: int) -> Any:
    """The start page's "Play with friends" form, open with all its options, for
    ``friends`` and ``bots``: its seat rows."""
    page.wait_for_function("() => document.getElementById('play-now-what').textContent !== ''")
    page.click("#play-friends")
    page.select_option("#friends", str(friends))
    page.select_option("#bots", str(bots))
    page.click("#more-options summary")
    page.wait_for_selector(f"#seats .seat-row >> nth={friends + bots}")
    return page.locator("#seats .seat-row")


def one_deal_index(server: Server, pages: Pages, seed: int) -> tuple[Any, Any]:
    """A new page on the index with the one-deal preset chosen (the table's seed fixed),
    for two computer players: the page and its seat rows."""
    page = pages.new()
    with_seed(page, seed)
    page.goto(server.url + "/")
    friends_form(page, 0, 2)
    page.select_option("#preset", "one-deal")
    page.wait_for_function("() => document.getElementById('rules-text').textContent "
                           "=== 'one-deal'")
    return page, page.locator("#seats .seat-row")


# -- the tests -----------------------------------------------------------------------


def test_play_a_deal_against_two_bots(server: Server, pages: Pages, shot: Any) -> None:
    """(a) From the index page to the end of a one-deal match against two bots."""
    page, rows = one_deal_index(server, pages, seed=33)
    assert rows.count() == 3
    rows.nth(0).locator("[name=name]").fill("Ann")
    rows.nth(1).locator("[name=name]").fill("Bruno")
    rows.nth(1).locator("[name=level]").select_option("greedy")
    rows.nth(2).locator("[name=name]").fill("Carla")
    assert rows.nth(2).locator("[name=kind]").input_value() == "bot"
    assert rows.nth(0).locator("[name=level]").is_hidden()
    shot(page, "index")
    page.click("#start")
    page.wait_for_url("**/t/*")
    ready(page)
    # The others sit across the table in the order they play after Ann; Ann's own seat
    # sits with her hand.
    seats = page.locator("#seats .seat")
    assert seats.count() == 2
    assert [seats.nth(k).get_attribute("data-seat") for k in range(2)] == ["1", "2"]
    assert "Ann (you)" in page.inner_text("#me .seat")
    assert "greedy bot" in page.inner_text('.seat[data-seat="1"]')
    assert "expert bot" in page.inner_text('.seat[data-seat="2"]')
    assert "one-deal" in page.text_content("#rules")

    rng = random.Random(1)
    for turn in range(500):
        wait_turn(page)
        if over(page):
            break
        if turn == 3:
            shot(page, "table-mid-game")
        take_turn(page, rng)
    assert over(page)
    page.wait_for_selector("dialog#summary[open]")
    body = page.inner_text("#summary-body")
    assert "wins the match" in body or "no single winner" in body
    assert page.locator("#summary-body table.hands tr").count() == 4
    for selector in ("#download", "#watch", "#rematch"):
        assert page.locator(selector).is_visible()
    assert page.text_content("#status").startswith("The match is over")
    shot(page, "match-end")


def test_a_master_seat_with_its_thinking_time(server: Server, pages: Pages, shot: Any) -> None:
    """The master is offered as a level; its thinking time is asked only for a master seat,
    shown at the table, and the master plays its turns (the game goes on to the end)."""
    page, rows = one_deal_index(server, pages, seed=12)
    assert rows.nth(0).locator("[name=think]").is_hidden()  # a person's seat
    levels = rows.nth(1).locator("[name=level] option").all_inner_texts()
    assert levels == ["random", "greedy", "learned", "expert", "master"]
    assert rows.nth(1).locator("[name=think]").is_hidden()  # an expert does not think
    rows.nth(1).locator("[name=level]").select_option("master")
    assert rows.nth(1).locator("[name=think]").is_visible()
    # The server thinks 1 s (its default): the quicker times are offered, no longer one.
    offered = rows.nth(1).locator("[name=think] option").all_inner_texts()
    assert offered == ["thinks 1 s a move", "thinks 0.1 s a move", "thinks 0.3 s a move"]
    # (the quickest: the master plays every turn of the deal below)
    rows.nth(1).locator("[name=think]").select_option("0.1")
    shot(page, "index-master")
    page.click("#start")
    page.wait_for_url("**/t/*")
    ready(page)
    assert "master bot · thinks 0.1 s a move" in page.inner_text('.seat[data-seat="1"]')
    play_until_over(page, random.Random(4))
    assert over(page)


def test_two_people_play_through_an_invite_link(server: Server, pages: Pages) -> None:
    """(b) Two browsers: the host starts a table for two people and sends the invite link;
    both play the deal to its end (the guest with the keyboard), then have a rematch."""
    host = pages.new()
    with_seed(host, 24)  # 38 moves with this strategy; the seed for the index page's table
    host.goto(server.url + "/")
    rows = friends_form(host, 1, 0)
    host.select_option("#preset", "one-deal")
    assert rows.count() == 2
    rows.nth(0).locator("[name=name]").fill("Ann")
    rows.nth(1).locator("[name=name]").fill("Bea")
    assert rows.nth(1).locator("[name=level]").is_hidden()
    host.click("#start")
    host.wait_for_url("**/t/*?seat=0")
    invites = host.locator("#invite-sheet .invite-row")
    invites.first.wait_for()
    assert invites.count() == 1
    assert "Bea" in invites.first.inner_text()
    invite = invites.first.locator("input.invite-link").input_value()
    assert "/t/" in invite
    host.keyboard.press("Escape")
    ready(host)
    host.wait_for_function("() => state.table.status === 'waiting'")
    assert host.text_content("#status") == "Waiting for Bea to open their link."
    assert host.url != invite

    guest = pages.new()
    guest.goto(invite)
    ready(guest)
    for page in (host, guest):
        page.wait_for_function("() => state.table.status === 'playing'")
    assert js(host, "state.view.seat") == 0 and js(guest, "state.view.seat") == 1

    rng = random.Random(2)
    players = [host, guest]
    for _ in range(1000):
        top = max(seq(host), seq(guest))
        for page in players:
            wait_seq(page, top)
        if over(host):
            break
        mover = js(host, "state.view.to_move")
        assert js(players[1 - mover], "state.view.legal_actions.length") == 0
        wait_turn(players[mover])
        take_turn(players[mover], rng, keyboard=mover == 1)
    for page in players:
        page.wait_for_function("() => state.view.match_over")
        page.wait_for_selector("dialog#summary[open]")
    assert host.inner_text("#summary-body") == guest.inner_text("#summary-body")

    host.click("#rematch")
    # (the rematch is a new page: its modules define the state once they have loaded)
    host.wait_for_function("() => typeof state !== 'undefined' && state"
                           " && state.table.status === 'waiting'")
    rematch = guest.locator("#rematch-link")
    rematch.wait_for()
    guest.click("#rematch-link")
    guest.wait_for_url("**/t/*")
    ready(guest)
    for page in (host, guest):
        page.wait_for_function("() => state.table.status === 'playing' && state.table.seq === 0")
    assert js(host, "state.table.id") == js(guest, "state.table.id")
    assert js(host, "state.view.seat") == 0 and js(guest, "state.view.seat") == 1


def test_a_person_invites_a_program_and_plays_it_to_the_end(server: Server, pages: Pages,
                                                             shot: Any) -> None:
    """A person starts a table for two people in the browser and gives the invite link to
    a program (``rummykit bot LINK``'s play, in a thread here): the program takes the seat
    as a friend would, and they play the one-deal match to its end, each seeing the same
    result."""
    import threading

    from rummykit.bots import make_bot
    from rummykit.remote import play_at

    host = pages.new()
    with_seed(host, 24)
    host.goto(server.url + "/")
    rows = friends_form(host, 1, 0)
    host.select_option("#preset", "one-deal")
    rows.nth(0).locator("[name=name]").fill("Ann")
    rows.nth(1).locator("[name=name]").fill("Robo")
    host.click("#start")
    host.wait_for_url("**/t/*?seat=0")
    invite = host.locator("#invite-sheet .invite-row").first.locator("input.invite-link")
    invite.wait_for()
    link = invite.input_value()
    host.keyboard.press("Escape")
    ready(host)
    outcome: dict[str, Any] = {}

    def program() -> None:
        try:
            outcome["done"] = play_at(link, make_bot("expert"), rng=random.Random(4))
        except Exception as error:  # handed to the test
            outcome["error"] = error

    thread = threading.Thread(target=program, daemon=True)
    thread.start()
    host.wait_for_function("() => state.table.status === 'playing'")
    assert "Robo" in host.inner_text('.seat[data-seat="1"]')
    play_until_over(host, random.Random(2))
    host.wait_for_selector("dialog#summary[open]")
    shot(host, "program-opponent-match-end")
    thread.join(60)
    assert not thread.is_alive() and "error" not in outcome, outcome
    done = outcome["done"]
    assert done.seat == 1 and done.moves > 0 and done.refused == []
    assert done.winner == js(host, "state.view.match_winner")
    assert list(done.totals) == js(host, "state.view.totals")
    server.check_log()


def test_deal_summary_between_deals(server: Server, pages: Pages, shot: Any) -> None:
    """A match of several deals: the summary of deal 1, then deal 2 goes on."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="classic", seed=12)
    page = open_seat(pages, server, table["seats"][0]["link"])
    rng = random.Random(5)
    play_until_the_next_deal(page, rng)
    assert not over(page), "a classic match for two has two deals"
    page.wait_for_selector("dialog#summary[open]")
    body = page.inner_text("#summary-body")
    assert body.startswith("Deal 1 is over")
    assert "went out" in body or "Nobody went out" in body
    rows = page.locator("#summary-body table.hands tr")
    assert rows.count() == 3
    totals = js(page, "state.view.totals")
    for seat, name in enumerate(["Ann", "Bob"]):
        cells = rows.nth(seat + 1).locator("td")
        assert cells.nth(0).inner_text() == name
        assert cells.nth(3).inner_text() == str(totals[seat])
    shot(page, "deal-summary")
    page.click("#summary-close")
    page.wait_for_selector("dialog#summary", state="hidden")
    assert page.text_content("#deal") == "Deal 2"
    wait_turn(page)
    take_turn(page, rng)


def test_a_repeated_position_ends_the_deal_and_the_summary_says_why(
        server: Server, pages: Pages, shot: Any) -> None:
    """Two people keep taking the top discard and throwing another card until the deal's
    starting position comes up for the third time: the deal ends as a stalemate and the
    summary says why, at desktop and phone size."""
    from rummykit.engine import Match
    from rummykit.rules import preset

    seed = 31
    table = server.table([person("Ann"), person("Bea")], rules="classic", seed=seed)
    deal = Match(preset("classic"), players=["Ann", "Bea"], seed=seed).deal
    first = deal.to_move
    x, y, top = (str(CARDS[c]) for c in (deal.hands[first][0], deal.hands[1 - first][0],
                                          deal.pile[-1]))
    loop = ["draw pile", f"discard {x}", "draw pile", f"discard {y}", "draw pile",
            f"discard {top}", "draw pile", f"discard {x}", "draw pile", f"discard {y}",
            "draw pile", f"discard {top}"]
    players = [pages.new(), pages.new(viewport={"width": 390, "height": 844})]
    for seat, page in enumerate(players):
        page.goto(server.url + table["seats"][seat]["link"])
        ready(page)
    for page in players:
        page.wait_for_function("() => state.table.status === 'playing'")
    mover = first
    for n, text in enumerate(loop + loop):
        page = players[mover]
        wait_seq(page, n)
        page.keyboard.press("/")  # the action box opens with /
        page.fill("#command", text)
        page.press("#command", "Enter")
        heard_back(page, n)
        if text.startswith("discard"):
            mover = 1 - mover
    for page in players:
        page.wait_for_selector("dialog#summary[open]")
        body = page.inner_text("#summary-body")
        assert "Nobody went out: the same position came up 3 times." in body
    shot(players[0], "repetition-summary")
    shot(players[1], "repetition-summary-phone")


def test_reload_resumes(server: Server, pages: Pages, shot: Any) -> None:
    """(c) Reloading the page mid-game shows the same game; the phone layout fits."""
    table = server.table([person("Ann"), bot("Bob")], seed=5)
    link = server.url + table["seats"][0]["link"]
    page = pages.new()
    page.goto(link)
    ready(page)
    rng = random.Random(3)
    for _ in range(2):
        wait_turn(page)
        take_turn(page, rng)
    wait_turn(page)
    before = seq(page)
    page.keyboard.press("/")  # the action box opens with /
    page.fill("#command", "draw stock")
    page.press("#command", "Enter")
    heard_back(page, before)
    seen = snapshot(page)
    assert len(seen["hand"]) == 11
    assert seen["status"] == "Your turn: meld, lay off, or discard to end your turn."

    page.reload()
    ready(page)
    assert snapshot(page) == seen
    assert page.text_content("#conn") == "connected"

    # The same person on a phone: the seat is this browser's, so the phone carries its
    # key (as a person moving to another device does) and takes the seat over.
    key = page.evaluate("() => localStorage.getItem('rummykit.key')")
    phone = pages.new(viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True, device_scale_factor=2)
    phone.context.add_init_script(f"localStorage.setItem('rummykit.key', {json.dumps(key)})")
    phone.goto(link)
    ready(phone)
    assert snapshot(phone) == seen
    shot(phone, "table-phone")
    width = js(phone, "document.documentElement.scrollWidth")
    assert width <= 390, f"the table is {width}px wide on a 390px phone"

    # The desktop page says the seat is open elsewhere; "play here" takes it back, and the
    # game goes on from there (the phone now says so in its turn).
    page.wait_for_selector("#notice:not(.hidden)")
    page.click("#play-here")
    page.wait_for_function("() => state.view.legal_actions.some(a => a.startsWith('discard'))"
                           " && document.getElementById('conn').textContent === 'connected'")
    phone.wait_for_selector("#notice:not(.hidden)")
    discard = next(a.split()[1] for a in legal(page) if a.startswith("discard "))
    before = seq(page)
    select(page, [discard])
    page.click("#btn-discard")
    heard_back(page, before)


@pytest.mark.long
def test_server_restart_resumes(own_server: Server, pages: Pages) -> None:
    """(d) The server stops and starts again on the same database and port: the page
    reconnects by itself and shows the same game, which goes on."""
    table = own_server.table([person("Ann"), bot("Bob")], seed=8)
    page = open_seat(pages, own_server, table["seats"][0]["link"])
    rng = random.Random(4)
    for _ in range(3):
        wait_turn(page)
        take_turn(page, rng)
    wait_turn(page)
    assert not over(page)
    seen = snapshot(page)

    own_server.stop()
    page.wait_for_function("() => document.getElementById('conn').textContent "
                           "=== 'reconnecting…'")
    page.evaluate("() => { window.viewBefore = state; }")
    own_server.start()
    page.wait_for_function("() => document.getElementById('conn').textContent "
                           "=== 'connected'", timeout=30_000)
    # the restarted server's view, drawn
    page.wait_for_function("() => state !== window.viewBefore", timeout=30_000)
    page.wait_for_selector("#me .seat", state="visible")
    assert snapshot(page) == seen
    take_turn(page, rng)
    wait_turn(page)
    assert seq(page) >= seen["seq"] + 2  # our turn and the bot's, after the restart

    later = snapshot(page)
    page.reload()
    ready(page)
    assert snapshot(page) == later


def test_replay_from_the_match_end(server: Server, pages: Pages, shot: Any) -> None:
    """(e) The match-end dialog's "Watch the replay" steps through the whole game."""
    table, shadow = finish_over_websockets(server, seed=25)
    page = open_seat(pages, server, table["seats"][0]["link"])
    page.wait_for_selector("dialog#summary[open]")
    page.click("#watch")
    page.wait_for_url("**/replay?table=*")
    page.wait_for_selector("#viewer:not(.hidden)")
    steps = len(shadow.applied) + 1

    def at(index: int) -> None:
        action = shadow.applied[index - 1] if index else None
        expected = re.escape(f"Step {index + 1} of {steps} · deal 1 · ")
        if action is None:
            expected += "the deal"
        else:
            movers = [s for s, _a in shadow.deal.moves]
            expected += in_words(["Ann", "Bob"][movers[index - 1]], action)
        page.wait_for_function("t => new RegExp('^' + t + '$').test("
                               "document.getElementById('step').textContent)", arg=expected)

    at(0)
    assert page.locator("#hands .seat").count() == 2
    start = Shadow("one-deal", ["Ann", "Bob"], 25)
    shown = page.eval_on_selector_all("#hands .seat[data-seat='0'] .card",
                                      "els => els.map(e => e.dataset.card)")
    assert shown == start.hand(0)
    page.click("#next")
    at(1)
    page.click("#next")
    at(2)
    page.click("#prev")
    at(1)
    page.click("#last")
    at(steps - 1)
    assert "deal over" in page.text_content("#meta")
    page.click("#first")
    at(0)
    page.locator("#slider").fill("10")
    at(10)
    page.click("#step")  # the keys while the slider has the focus: see the xfail test below
    page.keyboard.press("ArrowRight")
    at(11)
    page.keyboard.press("ArrowLeft")
    at(10)
    page.keyboard.press("End")
    at(steps - 1)
    page.keyboard.press("Home")
    at(0)
    page.click("#next")
    shot(page, "replay")


SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def in_words(name: str, action: str) -> str:
    """A pattern of what the replay's step line says of ``name`` playing ``action`` (in
    words, as the log says it: never the notation)."""
    words = action.split()

    def card(code: str) -> str:
        return "joker" if code == "JK" else code[:-1] + SUIT_SIGNS[code[-1]]

    if action == "draw stock":
        return re.escape(f"{name} drew from the stock.")
    if words[:2] == ["draw", "pile"]:
        return re.escape(f"{name} took ") + ".+" + re.escape(" from the pile.")
    if words[0] == "meld":
        return re.escape(f"{name} melded {' '.join(card(c) for c in words[1:])}.")
    if words[0] == "layoff":
        return re.escape(f"{name} laid off {card(words[1])} on meld {words[2]}") + ".*"
    if words[0] == "discard":
        return re.escape(f"{name} discarded {card(words[1])}.")
    return re.escape(action)


def offline_record(seed: int, path: Path) -> Shadow:
    """A whole one-deal game played here by two greedy bots, written as a record file."""
    shadow = Shadow("one-deal", ["Ann", "Bob"], seed)
    rng = random.Random(seed)
    while not shadow.match.is_over:
        shadow.apply(shadow.choose(shadow.deal.to_move, rng))
    records.dump(records.from_match(shadow.match), path)
    return shadow


def test_replay_arrow_keys_after_the_slider(server: Server, pages: Pages,
                                            tmp_path: Path) -> None:
    offline_record(25, tmp_path / "record.json")
    page = pages.new()
    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(tmp_path / "record.json"))
    page.wait_for_selector("#viewer:not(.hidden)")
    page.locator("#slider").fill("10")
    page.wait_for_function("() => document.getElementById('step').textContent"
                           ".startsWith('Step 11 of')")
    page.keyboard.press("ArrowRight")
    time.sleep(0.2)
    assert page.text_content("#step").startswith("Step 12 of")


def test_a_shared_replay_link_opens_in_another_browser(server: Server, pages: Pages) -> None:
    """The match-end dialog's replay and record links hold no secret (no key, no token):
    the replay link, opened by a friend in a browser of their own (no storage, no key of
    this table), shows the replay; the record link downloads the record there too."""
    table, shadow = finish_over_websockets(server, seed=13)
    player = open_seat(pages, server, table["seats"][0]["link"])
    player.wait_for_selector("dialog#summary[open]")
    replay = player.get_attribute("#watch", "href")
    record = player.get_attribute("#download", "href")
    key = player.evaluate("() => localStorage.getItem('rummykit.key')")
    token = link_token(table["seats"][0]["link"])
    assert replay == f"/replay?table={table['id']}"
    assert record == f"/api/tables/{table['id']}/record"
    assert player.url.endswith(f"/t/{table['id']}?seat=0")  # the address bar: no token
    for secret in (key, token):
        assert secret not in replay and secret not in record and secret not in player.url

    friend = pages.new()
    friend.goto(server.url + replay)
    friend.wait_for_selector("#viewer:not(.hidden)")
    steps = len(shadow.applied) + 1
    assert friend.text_content("#step") == f"Step 1 of {steps} · deal 1 · the deal"
    assert friend.locator("#error").is_hidden()
    assert friend.evaluate("() => localStorage.getItem('rummykit.key')") != key
    answer = friend.request.get(server.url + record)
    assert answer.status == 200 and answer.json()["players"] == ["Ann", "Bob"]


@pytest.mark.parametrize("which", ["not over", "no such table"])
def test_a_replay_link_that_cannot_be_shown_says_why(server: Server, pages: Pages,
                                                     which: str) -> None:
    """A replay link of a match still in play, or of no table, says so in the page's
    language (here Italian), not in the server's English words."""
    table = server.table([person("Ann"), bot("Bob")], seed=3)
    table_id = table["id"] if which == "not over" else "0123456789ab"
    page = pages.new(locale="it-IT")
    page.goto(f"{server.url}/replay?table={table_id}")
    page.wait_for_selector("#error:not(.hidden)")
    expected = {"not over": "La partita di questo tavolo non è ancora finita: il replay si "
                            "può vedere quando finisce.",
                "no such table": "Questo tavolo non esiste: controlla il link."}[which]
    assert page.text_content("#error") == expected
    assert page.locator("#viewer").is_hidden()


def test_replay_of_a_downloaded_record(server: Server, pages: Pages, shot: Any,
                                       tmp_path: Path) -> None:
    """(e) The record downloaded from the match-end dialog, opened in the replay viewer."""
    table, shadow = finish_over_websockets(server, seed=13)
    page = pages.new(accept_downloads=True)
    page.goto(server.url + table["seats"][1]["link"])
    ready(page)
    page.wait_for_selector("dialog#summary[open]")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["players"] == ["Ann", "Bob"]

    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(saved))
    page.wait_for_selector("#viewer:not(.hidden)")
    steps = len(shadow.applied) + 1
    assert page.text_content("#step") == f"Step 1 of {steps} · deal 1 · the deal"
    page.click("#last")
    assert page.text_content("#step").startswith(f"Step {steps} of {steps} · deal 1 · ")
    last_mover = shadow.deal.moves[-1][0]
    assert re.search(in_words(["Ann", "Bob"][last_mover], shadow.applied[-1]) + "$",
                     page.text_content("#step") or "")
    page.click("#prev")
    assert page.text_content("#step").startswith(f"Step {steps - 1} of {steps}")
    assert page.locator("#error").is_hidden()
    page.click("#first")
    assert page.locator("#hands .seat").count() == 2
    shot(page, "replay-uploaded")


def test_uploaded_replay_shows_the_cards(server: Server, pages: Pages, tmp_path: Path) -> None:
    saved = tmp_path / "record.json"
    shadow = offline_record(25, saved)
    dealt = Shadow("one-deal", ["Ann", "Bob"], 25)
    page = pages.new()
    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(saved))
    page.wait_for_selector("#viewer:not(.hidden)")
    shown = page.eval_on_selector_all("#hands .seat[data-seat='0'] .card",
                                      "els => els.map(e => e.dataset.card)")
    assert len(shadow.applied) > 10
    assert shown == dealt.hand(0)


@pytest.mark.parametrize("which", ["wrong token", "no such table"])
def test_a_bad_link_says_so(server: Server, pages: Pages, which: str) -> None:
    table = server.table([person("Ann"), bot("Bob")])
    path = (f"/t/{table['id']}?token=not-a-token" if which == "wrong token"
            else "/t/0123456789ab?token=x")
    message = ("This link does not open a seat at this table." if which == "wrong token"
               else "There is no such table.")
    page = pages.new()
    page.goto(server.url + path)
    page.wait_for_function("t => document.getElementById('status').textContent === t",
                           arg=message)
    assert page.locator("#error").inner_text() == message


def test_a_bad_link_does_not_say_reconnecting(server: Server, pages: Pages) -> None:
    table = server.table([person("Ann"), bot("Bob")])
    page = pages.new()
    page.goto(f"{server.url}/t/{table['id']}?token=not-a-token")
    page.wait_for_function("() => document.getElementById('conn').textContent !== "
                           "'connecting…'")
    time.sleep(1.0)
    assert page.text_content("#conn") != "reconnecting…"


def test_empty_name_gets_a_clear_message(server: Server, pages: Pages) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    friends_form(page, 0, 2).nth(1).locator("[name=name]").fill("  ")
    page.click("#start")
    page.wait_for_selector("#create-error:not(.hidden)")
    message = page.text_content("#create-error") or ""
    assert "name" in message.lower()
    assert "{" not in message and "loc" not in message, message


def test_greyed_buttons_say_why_and_a_hint_shows_the_move(server: Server, pages: Pages,
                                                          shot: Any) -> None:
    """A button that cannot be used says why when pressed (the page's own words where
    nothing is selected, else the engine's refusal); ``h`` asks for a hint, which names a
    legal move, marks its card and is counted in the deal's summary; the log names the
    card a pile draw took and the people by name."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="one-deal", seed=21)
    page = pages.new()
    for size, name in (({"width": 1280, "height": 900}, "desktop"),
                       ({"width": 390, "height": 844}, "phone")):
        # The phone-sized page is a second tab of the same browser: the seat is its own.
        page = page.context.new_page() if name == "phone" else page
        page.set_viewport_size(size)
        page.goto(server.url + table["seats"][0]["link"])
        ready(page)
        if name == "phone":
            # On a phone the first screen holds what a draw is chosen by: the pile, the
            # hand and the draw buttons.
            for part in ("#middle-panel", "#hand", "#btn-stock", "#btn-pile"):
                box = page.locator(part).bounding_box()
                assert box is not None and box["y"] + box["height"] <= 844, (part, box)
            break
        wait_turn(page)
        assert js(page, "state.view.phase") == "draw"
        page.click("#btn-meld", force=True)  # greyed: nothing selected
        assert page.inner_text("#why") == "Select the cards of a meld first (three or more)."
        # Three cards that make no meld: the engine's own refusal, and nothing is played.
        cards = hand(page)
        select(page, cards[:3])
        before = seq(page)
        page.click("#btn-meld", force=True)
        page.wait_for_function("() => document.getElementById('why').textContent"
                               ".includes('draw')")
        assert seq(page) == before
        page.keyboard.press("Escape")
        page.keyboard.press("h")
        page.wait_for_selector("#hint >> text=Hint:")
        hinted = page.get_attribute("#hint", "data-action")
        assert hinted in legal(page)
        shot(page, f"hint-draw-{name}")
        # Take the pile's top card (a click on the card itself): the log names it, and the
        # player; a "why" said of the position before is gone with it.
        page.click("#btn-meld", force=True)
        page.wait_for_selector("#why", state="visible")
        top = js(page, "state.view.pile[state.view.pile.length - 1]")
        page.click("#pile .card.clickable >> nth=-1")
        heard_back(page, before)
        page.wait_for_selector("#why", state="hidden")
        symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[top[-1]]
        first_line = page.text_content("#log > div")  # the newest line (the log is in the menu)
        assert first_line == f"You took {top[:-1]}{symbol} from the pile."
        page.keyboard.press("h")
        page.wait_for_selector("#hint >> text=Hint:")
        hinted = page.get_attribute("#hint", "data-action")
        assert hinted in legal(page)
        if hinted.split()[0] in ("discard", "layoff", "meld"):
            card = hinted.split()[1]
            assert "hinted" in page.get_attribute(f'#hand .card[data-card="{card}"]', "class")
        shot(page, f"hint-play-{name}")
        finish_turn(page)
        play_until_over(page, random.Random(3))
        page.wait_for_selector("dialog#summary[open]")
        assert "Hints used: Ann 2." in page.inner_text("#summary-body")
        assert "Bob" in page.inner_text("#log")
    # The phone page opened the same seat: it shows the game's end, hints counted.
    page.wait_for_selector("dialog#summary[open]")
    assert "Hints used: Ann 2." in page.inner_text("#summary-body")
    shot(page, "hint-summary-phone")


def test_a_deep_pile_card_is_taken_on_a_second_click(server: Server, pages: Pages) -> None:
    """500 Rum (seed "500 рам": any card of the pile may be taken, with every card above
    it): one click on a card below the top says what it would take and marks those cards,
    without playing; Escape lets it go; a second click takes them all."""
    table = server.table([person("Ann"), bot("Bob", "greedy")],
                         rules="rummy500(pile_card_must_be_used=false)", seed=6)
    page = open_seat(pages, server, table["seats"][0]["link"])
    rng = random.Random(6)
    for _ in range(30):
        wait_turn(page)
        assert not over(page)
        deep = [a for a in legal(page) if a.startswith("draw pile ")]
        if deep:
            break
        take_turn(page, rng)
    else:
        pytest.fail("no pile card below the top could be taken")
    pile = js(page, "state.view.pile")
    card = deep[0].split()[2]
    above = len(pile) - 1 - pile.index(card)
    target = f'#pile .card[data-card="{card}"]'
    before = seq(page)
    page.click(target)
    page.wait_for_function("() => document.getElementById('pile-note').textContent !== ''")
    more = "1 card" if above == 1 else f"{above} cards"
    assert page.inner_text("#pile-note").startswith(
        f"Take {js(page, f'cardText({card!r})')} and the {more} above it?")
    assert page.locator("#pile .card.taking").count() == above + 1
    assert seq(page) == before
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.getElementById('pile-note').textContent === ''")
    assert page.locator("#pile .card.taking").count() == 0
    # From the keyboard: Enter on the focused card twice.
    page.focus(target)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('pile-note').textContent !== ''")
    assert seq(page) == before
    page.keyboard.press("Enter")
    heard_back(page, before)
    assert js(page, "state.view.pile") == pile[:pile.index(card)]
    assert set(pile[pile.index(card):]) <= set(hand(page))


# -- everyone can play -----------------------------------------------------------------

PAGES = ["/", "/stats", "/rules", "/replay"]
SIZES = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


def axe_problems(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in ("serious", "critical")]


def sideways(page: Any) -> bool:
    """Whether the page scrolls sideways (wider than the window)."""
    return bool(js(page, "document.documentElement.scrollWidth > "
                         "document.documentElement.clientWidth"))


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
@pytest.mark.long
def test_every_page_passes_axe_and_never_scrolls_sideways(server: Server, pages: Pages,
                                                           size: dict[str, int],
                                                           shot: Any) -> None:
    """axe-core finds no serious or critical problem on any page, the table included (in
    play, with a hint and a reason shown, and with the score sheet open), and no page is
    wider than a phone."""
    pytest.importorskip("axe_playwright_python")
    page = pages.new(viewport=size)
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        assert axe_problems(page) == [], path
        assert not sideways(page), path
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="rummy500", seed=4)
    page.goto(server.url + table["seats"][0]["link"])
    ready(page)
    wait_turn(page)
    assert axe_problems(page) == [] and not sideways(page)
    page.click("#btn-discard", force=True)
    page.wait_for_selector("#why:not(.hidden)")
    page.click("#btn-stock")
    page.wait_for_function("() => state.view.phase === 'play'")
    page.keyboard.press("h")
    page.wait_for_selector("#hint >> text=Hint:")
    assert axe_problems(page) == [] and not sideways(page)
    shot(page, "table-" + ("phone" if size["width"] < 600 else "desktop"))
    page.keyboard.press("t")
    page.wait_for_selector("dialog#sheet[open]")
    assert axe_problems(page) == []


def test_cards_have_names_and_others_moves_are_announced(server: Server,
                                                         pages: Pages) -> None:
    """Every card of the hand, the pile and the stock has an accessible name ("seven of
    hearts"); what the others did is announced in words in a live region; the hand can
    be reordered from the keyboard and its order survives a reload (this deal only)."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="classic", seed=8)
    page = open_seat(pages, server, table["seats"][0]["link"])
    wait_turn(page)
    words = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
             "7": "seven", "8": "eight", "9": "nine", "10": "ten", "J": "jack",
             "Q": "queen", "K": "king"}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for card in hand(page):
        name = page.get_attribute(f'#hand .card[data-card="{card}"]', "aria-label")
        assert name is not None and name.startswith(
            f"{words[card[:-1]]} of {suits[card[-1]]}")
    assert page.get_attribute("#stock .card", "aria-label") == (
        f"stock, {js(page, 'state.view.stock_size')} cards")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    # The stock is reachable with Tab and drawn from with Enter, as a button is.
    for _ in range(60):
        page.keyboard.press("Tab")
        if js(page, "document.activeElement === document.querySelector('#stock .card')"):
            break
    else:
        raise AssertionError("Tab never reached the stock")
    before = seq(page)
    page.keyboard.press("Enter")
    heard_back(page, before)
    assert js(page, "state.view.phase") == "play"
    finish_turn(page)
    wait_turn(page)
    # Keyboard: move the focused card one place right (focus the first card, then one on).
    for _ in range(len(hand(page))):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert js(page, "focus") == 1
    first = hand(page)
    page.keyboard.press("Shift+ArrowRight")
    moved = hand(page)
    assert moved[2] == first[1] and moved[1] == first[2]
    page.reload()
    ready(page)
    assert hand(page) == moved
    # One whole turn; each of the bot's moves is announced in words as it comes.
    take_turn(page, random.Random(2))
    page.wait_for_function("() => /^Bob (discarded|melded|laid off) /.test("
                           "document.getElementById('announce').textContent)")


@pytest.mark.parametrize("rules, seed", [("one-deal", 30), ("ramino", 8)])
@pytest.mark.long
def test_cards_move_and_end_where_the_view_puts_them(server: Server, pages: Pages,
                                                      rules: str, seed: int) -> None:
    """Draws, discards and melds slide (Web Animations run after each move, and an
    opponent's draw sends a card to his seat); once the motion is over, every card is
    where the view says, none is left displaced, and no flying copy stays behind. In
    ramino (two decks; this deal gives Ann a pair of twins) twin cards are told apart by
    their place among their twins."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules=rules, seed=seed)
    page = open_seat(pages, server, table["seats"][0]["link"], reduced_motion="no-preference")
    dealt = js(page, "state.view.hand")
    assert rules != "ramino" or len(set(dealt)) < len(dealt), "no twins dealt"
    moved = 0
    still = ("() => document.getAnimations().length === 0 && "
             "!document.querySelector('.ghost')")
    for _ in range(6):
        wait_turn(page)
        if over(page):
            break
        before = seq(page)
        page.click("#btn-stock")
        heard_back(page, before)
        moved += int(js(page, "document.getAnimations().length"))
        finish_turn(page)
        wait_turn(page)
        page.wait_for_function(still)
        shown = js(page, "[...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)")
        assert sorted(shown) == sorted(js(page, "state.view.hand"))
        pile = js(page, "[...document.querySelectorAll('#pile .card')].map(c => c.dataset.card)")
        assert pile == js(page, "state.view.pile")
        melds = js(page, "Object.fromEntries([...document.querySelectorAll('#melds .meld')]"
                         ".map(m => [m.dataset.meld, [...m.querySelectorAll('.card')]"
                         ".map(c => c.dataset.card)]))")
        assert melds == js(page, "Object.fromEntries(state.view.table.map(m => "
                                 "[String(m.number), m.cards]))")
        displaced = js(page, "[...document.querySelectorAll('.card')].filter(c => "
                             "getComputedStyle(c).transform !== 'none' && "
                             "!c.classList.contains('selected')).length")
        assert displaced == 0
    assert moved > 0, "no card moved"


# -- languages ---------------------------------------------------------------------------

CATALOGS = Path(__file__).parents[2] / "src" / "rummykit" / "web" / "static" / "i18n"


def english_leftovers(page: Any, lang: str) -> list[str]:
    """English catalog texts (or their fragments between placeholders) that show on a page
    meant to be in ``lang``: a mixed-language page."""
    english = json.loads((CATALOGS / "en.json").read_text("utf-8"))
    other = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    # The page's words, less the rules' own identifiers (option names and values, which
    # are written the same in every language, as in a rules text).
    text = js(page, "(() => { const out = []; const walk = document.createTreeWalker("
                    "document.body, NodeFilter.SHOW_TEXT); while (walk.nextNode()) { const n = "
                    "walk.currentNode; if (!n.parentElement.closest('code, .value, select, "
                    "script, .hidden')) out.push(n.textContent); } return out.join('\\n'); })()")
    # Words the other language's own texts use too (the option values they name).
    own = "\n".join(other.values())
    found = []
    for key, value in english.items():
        if other.get(key) == value:
            continue
        for piece in re.split(r"\{\w+\}", value):
            piece = piece.strip(" .,:;()")
            if len(piece) < 5 or piece in own:
                continue
            # As words of their own (option names such as stock_out are not English).
            if re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", text):
                found.append(f"{key}: {piece!r}")
    return found


@pytest.mark.parametrize("lang", ["ru", "it"])
@pytest.mark.long
def test_every_page_speaks_the_browsers_language(server: Server, pages: Pages, lang: str,
                                                  shot: Any) -> None:
    """A browser set to Russian or Italian gets every page in that language: no key
    missing from the catalog, no English text left (the table in play included, with a
    refusal explained and a hint); the switch in the header changes the language."""
    page = pages.new(locale=lang)
    for path in PAGES:
        page.goto(server.url + path)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.wait_for_load_state("networkidle")
        assert js(page, "[...missingKeys]") == [], path
        assert english_leftovers(page, lang) == [], path
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="ramino", seed=6)
    page.goto(server.url + table["seats"][0]["link"])
    ready(page)
    wait_turn(page)
    page.click("#btn-discard", force=True)  # refused: a turn starts with a draw
    page.wait_for_selector("#why:not(.hidden)")
    page.keyboard.press("h")
    page.wait_for_function("() => document.getElementById('hint').dataset.action")
    take_turn(page, random.Random(1))
    wait_turn(page)
    assert js(page, "[...missingKeys]") == []
    assert english_leftovers(page, lang) == []
    shot(page, f"table-{lang}")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    ready(page)
    assert page.text_content("#btn-stock") == "Draw stock"


def test_jokers_show_their_card_and_lay_offs_show_who_laid_them(server: Server,
                                                                pages: Pages) -> None:
    """On the table a joker shows the card it stands for, and a card laid off on another
    player's meld shows who laid it (it scores for them in rummy500). The page is given a
    view with such a table (its rendering is what is tested; Bob has not come yet, so no
    message from the server replaces it)."""
    table = server.table([person("Ann"), person("Bob")], rules="ramino", seed=2)
    page = open_seat(pages, server, table["seats"][0]["link"])
    page.evaluate("""() => {
        const message = JSON.parse(JSON.stringify(state));
        message.view.table = [{number: 1, kind: "run", cards: ["5H", "JK", "7H"],
                               represents: ["5H", "6H", "7H"], owner: 1, laid_by: [1, 1, 0]},
                              {number: 2, kind: "set", cards: ["9C", "9D", "9S", "JK"],
                               represents: ["9C", "9D", "9S", "9H"], owner: 0,
                               laid_by: [0, 0, 0, 0]}];
        receive(message);
    }""")
    joker = page.locator('#melds .meld[data-meld="1"] .card[data-card="JK"]')
    assert joker.locator(".stands").inner_text() == "=6♥"
    assert joker.get_attribute("aria-label") == "joker as six of hearts"
    set_joker = page.locator('#melds .meld[data-meld="2"] .card[data-card="JK"]')
    assert set_joker.locator(".stands").inner_text() == "=9♥"
    laid = page.locator('#melds .meld[data-meld="1"] .card[data-card="7H"]')
    assert laid.locator(".by").inner_text() == "An"
    assert "laid off by Ann" in (laid.get_attribute("aria-label") or "")
    # The owner's own cards carry no marker.
    assert page.locator('#melds .meld[data-meld="1"] .card[data-card="5H"] .by').count() == 0


def test_the_rules_page_teaches_each_rule_set(server: Server, pages: Pages) -> None:
    """The rules page explains how to play, then what is particular to each rule set, in
    sentences made from its options (RULES.md: rummy500 takes any pile card and settles
    the difference to 500; ramino has two decks, four jokers and an opening of 50, and
    past 101 a player is out; classic allows one meld a turn; limited-stock refills)."""
    page = pages.new()
    page.goto(server.url + "/rules")
    page.wait_for_selector('#presets section[data-preset="ramino"] li')
    assert "rummy" in page.inner_text("main").lower()

    def lines(name: str) -> str:
        return page.inner_text(f'#presets section[data-preset="{name}"]')

    assert "any card of the pile" in lines("rummy500")
    assert "reaches 500" in lines("rummy500") and "difference" in lines("rummy500")
    assert "Decks: 2; jokers: 4" in lines("ramino") and "worth 50 or more" in lines("ramino")
    assert "goes past 101 is out" in lines("ramino")
    assert "At most one new meld a turn" in lines("classic")
    assert "shuffled into a new stock, 1 / 1 / 1 / 2 / 3 times" in lines("limited-stock")
    assert "goes past 100 / 200" in lines("limited-stock")
    assert "One deal is the whole game" in lines("one-deal")
    assert "Cards dealt: 10 / 7 / 7 / 6 / 6" in lines("basic")
    # No project jargon: the rule books are named by their game, not by file.
    assert not re.search(r"seed \d", page.inner_text("main"))


def test_undo_a_meld_in_the_browser(server: Server, pages: Pages) -> None:
    """Against a computer player, Undo (or u) takes back the meld just laid: the cards
    return to the hand and the table is as before; before the meld (after the draw) the
    greyed Undo says that a draw is never taken back."""
    from .test_table_help import meld_seed

    seed = meld_seed("one-deal")
    table = server.table([bot("Bob", "greedy"), person("Ann")], rules="one-deal", seed=seed)
    page = open_seat(pages, server, table["seats"][1]["link"])
    wait_turn(page)
    before = seq(page)
    page.keyboard.press("s")
    heard_back(page, before)
    held = sorted(hand(page))
    page.click("#btn-undo", force=True)
    assert "a draw never" in page.inner_text("#why")
    meld = next(a for a in legal(page) if a.startswith("meld "))
    select(page, meld.split()[1:])
    before = seq(page)
    page.click("#btn-meld")
    pick(page, meld)
    heard_back(page, before)
    assert js(page, "state.view.table.length") == 1
    assert page.get_attribute("#btn-undo", "aria-disabled") == "false"
    page.keyboard.press("u")
    page.wait_for_function("n => state.table.seq === n", arg=before)
    assert sorted(hand(page)) == held
    assert page.locator("#melds .meld").count() == 0
    assert page.get_attribute("#btn-undo", "aria-disabled") == "true"


def test_the_others_sit_in_the_order_they_play_after_you(server: Server, pages: Pages,
                                                         shot: Any) -> None:
    """Four seats, yours the third: across the table sit the fourth, the first and the
    second (play passes from seat i to i + 1: RULES.md), your own seat with your hand."""
    table = server.table([bot("Bob"), bot("Cid"), person("Ann"), bot("Dan")],
                         rules="classic", seed=3)
    page = open_seat(pages, server, table["seats"][2]["link"])
    order = page.eval_on_selector_all("#seats .seat", "els => els.map(e => e.dataset.seat)")
    assert order == ["3", "0", "1"]
    assert page.get_attribute("#me .seat", "data-seat") == "2"
    wait_turn(page)
    page.wait_for_function("() => document.getAnimations().length === 0")
    shot(page, "table-four-seats")
