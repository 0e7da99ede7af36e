"""The table page as a card table on one screen (Playwright against ``rummykit serve``):
nothing scrolls at phone and desktop sizes however full the table gets, cards are dragged
to the pile, onto a meld and onto the table, a refused drag changes nothing, no key acts
behind a dialog, a hint of a position gone by is dropped, and a finished deal is shown
before the next one. The server, the pages and the helpers are those of test_browser.py.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import connect

from rummykit.engine.match import Match
from rummykit.engine.views import view
from rummykit.rules import Rules

from . import test_browser
from ._support import bot, hello, person
from .test_browser import (
    Pages,
    Server,
    axe_problems,
    hand,
    heard_back,
    js,
    legal,
    link_token,
    open_seat,
    play_until_the_next_deal,
    ready,
    select,
    seq,
    wait_turn,
)

# The browser tests' fixtures: this module's server (SQLite), contexts, screenshots.
server = test_browser.server
pages = test_browser.pages
shot = test_browser.shot

pytestmark = pytest.mark.timeout(240)

SIZES = [(390, 844), (360, 740), (1366, 800), (1920, 1080)]
KEY = "screen-test-browser-key-0001"
"""The browser key of the person the tests drive from Python and then look at in a page."""


# -- what must stay in sight -----------------------------------------------------------


def scrolls(page: Any) -> list[str]:
    """The directions the page itself scrolls in (none, on a card table)."""
    out: list[str] = js(page, """(() => {
        const d = document.documentElement, out = [];
        const b = document.body;
        if (d.scrollHeight > d.clientHeight || b.scrollHeight > innerHeight) out.push('vertical');
        if (d.scrollWidth > d.clientWidth || b.scrollWidth > innerWidth) out.push('horizontal');
        return out; })()""")
    return out


def outside(page: Any) -> list[str]:
    """The parts of the game that are not wholly inside the window: the hand's cards, the
    stock, the pile, the action buttons and every meld."""
    out: list[str] = js(page, """(() => {
        const parts = [...document.querySelectorAll(
            '#hand .card, #stock .card, #pile-box, #actions button:not(.hidden), #melds .meld')];
        return parts.filter((n) => {
            const r = n.getBoundingClientRect(), w = innerWidth + 0.5, h = innerHeight + 0.5;
            return !r.width || r.left < -0.5 || r.top < -0.5 || r.right > w || r.bottom > h;
        }).map((n) => n.id || n.dataset.card || ('meld ' + n.dataset.meld) || n.className); })()""")
    return out


def check_every_size(page: Any, what: str, shot: Any = None) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the melds and the hand fit themselves after a resize
        assert scrolls(page) == [], (what, width, height)
        assert outside(page) == [], (what, width, height)
        assert page.locator("#hand .card").count() == len(js(page, "state.view.hand"))
        assert page.locator("#melds .meld").count() == len(js(page, "state.view.table"))
        if shot is not None:
            shot(page, f"screen-{what}-{width}x{height}")


# -- a table played from Python to a full table, then looked at in the page -------------

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def points(card: str) -> int:
    return 50 if card == "JK" else RANKS.get(card[:-1]) or int(card[:-1])


def full_table(server: Server, rules: str, players: int, seed: int, melds: int) -> str:
    """A table of people played over the live protocol until ``melds`` melds lie on it
    and it is the first seat's turn to draw; the first seat's address for a browser with
    ``KEY``. Each player melds and lays off while that keeps a fair hand, draws deep from
    the pile where it may, and discards its highest card."""
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"][:players]
    table = server.table([person(n) for n in names], rules=rules, seed=seed)
    base = server.url.replace("http", "ws")

    def until(ws: Any, test: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if message["type"] == "view" and test(message):
                return message

    with ExitStack() as stack:
        sockets = []
        for i, data in enumerate(table["seats"]):
            ws = stack.enter_context(connect(f"{base}/ws/{table['id']}"))
            key = KEY if i == 0 else f"screen-test-other-key-{i:04d}"
            ws.send(json.dumps(hello(link_token(data["link"]), key)))
            sockets.append(ws)
        views = [until(ws, lambda m: m["table"]["status"] == "playing") for ws in sockets]
        for _ in range(600):
            first = views[0]["view"]
            mine = first["to_move"] == 0 and first["phase"] == "draw"
            if len(first["table"]) >= melds and mine:
                return f"/t/{table['id']}?seat=0"
            mover = first["to_move"]
            v = views[mover]["view"]
            actions, size = v["legal_actions"], len(v["hand"])
            meld = [a for a in actions if a.startswith("meld ") and size - len(a.split()) >= 4]
            layoff = [a for a in actions if a.startswith("layoff ") and size >= 6]
            deep = [a for a in actions if a.startswith("draw pile")]
            discard = [a for a in actions if a.startswith("discard ")]
            if meld:
                action = max(meld, key=len)
            elif layoff:
                action = layoff[0]
            elif v["phase"] == "draw":
                action = max(deep, key=len) if deep and size < 18 else "draw stock"
            elif discard:
                action = max(discard, key=lambda a: points(a.split()[1]))
            else:
                action = actions[0]
            at = views[0]["table"]["seq"]
            sockets[mover].send(json.dumps({"type": "action", "action": action}))
            views = [until(ws, lambda m, at=at: m["table"]["seq"] > at) for ws in sockets]
            assert views[0]["view"]["deal_number"] == 1, "the deal ended before the table filled"
    raise AssertionError("the table never filled")


def look_as_first_seat(pages: Pages, server: Server, address: str) -> Any:
    page = pages.new()
    page.add_init_script(f"localStorage.setItem('rummykit.key', {json.dumps(KEY)})")
    page.goto(server.url + address)
    ready(page)
    page.wait_for_function("() => state.table.status === 'playing'")
    return page


# A crowded table given to the page as a view (what is tested is how it is drawn): six
# players, 18 melds, a hand of 20 cards and a whole pile of 27.
CROWDED = """() => {
  const m = JSON.parse(JSON.stringify(state));
  const suits = ["C", "D", "H", "S"];
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  m.view.table = [];
  for (let k = 0; k < 18; k++) {
    const cards = ranks.slice(k % 7, k % 7 + 3 + (k % 5)).map((r) => r + suits[k % 4]);
    m.view.table.push({ number: k + 1, kind: "run", cards, represents: cards, owner: k % 6,
                        laid_by: cards.map(() => k % 6) });
  }
  m.view.hand = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "10S", "JS", "QS", "KS",
                 "2H", "5C", "9D", "QH", "JK", "3S", "8C"];
  m.view.hand_sizes = [20, 14, 12, 9, 16, 11];
  m.view.pile = ["2D", "3D", "4D", "5S", "6S", "7S", "8S", "9S", "10D", "JD", "QD", "KD",
                 "AH", "2S", "3H", "4H", "5H", "6H", "7C", "8D", "9C", "10C", "JC", "QC", "KC",
                 "AS", "4S"];
  m.view.pile_size = m.view.pile.length;
  receive(m);
}"""


# -- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules, seats", [("rummy500", 2), ("classic", 4)],
                         ids=["two-rummy500", "four-classic"])
def test_the_table_fits_the_screen_at_the_start(server: Server, pages: Pages, shot: Any,
                                                rules: str, seats: int) -> None:
    """At the first turn, at phone and desktop sizes, the page does not scroll either way
    and the hand, the stock, the pile and the buttons are wholly in the window; axe-core
    finds nothing on the table, nor with its menu open."""
    players = [person("Ann")] + [bot(name) for name in ["Bob", "Cid", "Dan"][:seats - 1]]
    table = server.table(players, rules=rules, seed=4)
    page = open_seat(pages, server, table["seats"][0]["link"])
    wait_turn(page)
    check_every_size(page, f"start-{rules}-{seats}", shot)
    assert axe_problems(page) == []
    page.click("#btn-menu")
    page.wait_for_selector("dialog#menu[open]")
    assert scrolls(page) == []
    assert axe_problems(page) == []


@pytest.mark.parametrize("rules, seats, seed, melds",
                         [("rummy500", 2, 1, 10), ("rummy500", 4, 1, 8)], ids=["two", "four"])
def test_the_table_fits_the_screen_after_many_melds(server: Server, pages: Pages, shot: Any,
                                                    rules: str, seats: int, seed: int,
                                                    melds: int) -> None:
    """A deal played on until the table holds many melds: every meld, the hand, the stock,
    the pile and the buttons are in the window at every size, and nothing scrolls."""
    address = full_table(server, rules, seats, seed, melds)
    page = look_as_first_seat(pages, server, address)
    assert len(js(page, "state.view.table")) >= melds
    check_every_size(page, f"melds-{seats}", shot)


def test_a_crowded_table_still_fits(server: Server, pages: Pages, shot: Any) -> None:
    """Six players, 18 melds, a hand of 20 and a pile of 27 (a view given to the page):
    still no page scroll, and every part of the game in the window."""
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    table = server.table([person(n) for n in names], rules="rummy500", seed=3)
    page = open_seat(pages, server, table["seats"][0]["link"])
    page.evaluate(CROWDED)
    check_every_size(page, "crowded", shot)
    # A meld opens to be read at full size, and Escape closes it.
    page.click('#melds .meld[data-meld="5"]')
    page.wait_for_selector("dialog#meld-view[open]")
    assert page.locator("#meld-view-body .card").count() == 7
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#meld-view", state="hidden")


def grip(page: Any, card: str) -> tuple[float, float]:
    """Where to take ``card`` of the hand: a point of it that no other card of the fan
    covers, half-way down."""
    point = page.evaluate("""card => {
        const el = document.querySelector(`#hand .card[data-card="${card}"]`);
        const box = el.getBoundingClientRect(), y = box.y + box.height / 2;
        for (let dx = 2; dx < box.width; dx += 2) {
            const hit = document.elementFromPoint(box.x + dx, y);
            if (hit && el.contains(hit)) return [box.x + dx, y];
        }
        return null;
    }""", card)
    assert point is not None, f"no part of {card} shows"
    return point[0], point[1]


def drag(page: Any, card: str, target: str) -> None:
    """Picks ``card`` up from the hand with the mouse and lets it go over ``target`` (once
    the cards have stopped sliding, as a person would aim)."""
    page.wait_for_function("() => document.getAnimations().length === 0")
    x, y = grip(page, card)
    goal = page.locator(target).bounding_box()
    assert goal is not None
    to_x, to_y = goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(x + (to_x - x) * step / 5, y + (to_y - y) * step / 5)
    page.mouse.up()


def unchanged_after(page: Any, act: Any) -> str:
    """Does ``act``, waits for the page to say why not, and checks that nothing changed:
    the position, the hand, the table and the pile. The explanation."""
    position = "[state.table.seq, state.view.hand, state.view.table, state.view.pile]"
    before = js(page, position)
    page.evaluate("() => document.getElementById('why').classList.add('hidden')")
    act()
    page.wait_for_selector("#why:not(.hidden)")
    page.wait_for_timeout(200)
    assert js(page, position) == before
    text: str = page.inner_text("#why")
    return text


def test_cards_are_dragged_to_meld_lay_off_and_discard(server: Server, pages: Pages) -> None:
    """One turn played by dragging (seed 29: Ann can meld 8♠ 9♠ 10♠ after her draw, then lay
    off J♠): a card dragged to the pile before the draw is refused with the same words as
    the Discard button, and nothing changes; the three spades selected and one dragged onto
    the table are melded; J♠ dragged onto the meld is laid off; a card that fits no meld is
    refused there; a card dragged to the pile is discarded."""
    table = server.table([bot("Bob", "greedy"), person("Ann")], rules="one-deal", seed=29)
    page = open_seat(pages, server, table["seats"][1]["link"])
    wait_turn(page)
    card = hand(page)[0]
    refused = unchanged_after(page, lambda: drag(page, card, "#pile-box"))
    select(page, [card])
    assert unchanged_after(page, lambda: page.click("#btn-discard", force=True)) == refused
    page.keyboard.press("Escape")
    before = seq(page)
    page.keyboard.press("s")
    heard_back(page, before)
    assert "meld 8S 9S 10S" in legal(page)
    before = seq(page)
    select(page, ["8S", "9S"])
    drag(page, "10S", "#melds-panel")
    heard_back(page, before)
    assert js(page, "state.view.table.map(m => m.cards)") == [["8S", "9S", "10S"]]
    before = seq(page)
    drag(page, "JS", '#melds .meld[data-meld="1"]')
    heard_back(page, before)
    assert js(page, "state.view.table[0].cards") == ["8S", "9S", "10S", "JS"]
    stray = next(c for c in hand(page)
                 if not any(a.startswith(f"layoff {c} ") for a in legal(page)))
    unchanged_after(page, lambda: drag(page, stray, '#melds .meld[data-meld="1"]'))
    before = seq(page)
    held = hand(page)
    drag(page, stray, "#pile-box")
    heard_back(page, before)
    assert js(page, "state.view.pile[state.view.pile.length - 1]") == stray
    assert sorted(hand(page)) == sorted(c for c in held if c != stray)


def test_a_card_dragged_within_the_hand_moves_there(server: Server, pages: Pages) -> None:
    """Dragged onto another card of the hand, a card takes that place (nothing is played)."""
    table = server.table([person("Ann"), bot("Bob")], rules="classic", seed=8)
    page = open_seat(pages, server, table["seats"][0]["link"])
    wait_turn(page)
    first = hand(page)
    before = seq(page)
    drag(page, first[0], f'#hand .card[data-card="{first[3]}"]')
    moved = hand(page)
    assert moved[3] == first[0] and sorted(moved) == sorted(first)
    assert seq(page) == before


def test_escape_closes_every_dialog_and_no_key_acts_behind_one(server: Server,
                                                               pages: Pages) -> None:
    """The score sheet (t), the menu, a meld opened to read it: a game key pressed while one
    is open does nothing (s would draw a card), and Escape closes it."""
    from .test_table_help import meld_seed

    table = server.table([bot("Bob", "greedy"), person("Ann")], rules="one-deal",
                         seed=meld_seed("one-deal"))
    page = open_seat(pages, server, table["seats"][1]["link"])
    wait_turn(page)
    opened = {
        "sheet": lambda: page.keyboard.press("t"),
        "menu": lambda: page.click("#btn-menu"),
    }
    for name, open_it in opened.items():
        open_it()
        page.wait_for_selector(f"dialog#{name}[open]")
        for key in ("s", "p", "h", "d", "m"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)
        assert js(page, "state.view.phase") == "draw", name
        assert page.locator("#hint").is_hidden(), name
        page.keyboard.press("Escape")
        page.wait_for_selector(f"dialog#{name}", state="hidden")
    # A meld laid, then opened to be read: the same.
    before = seq(page)
    page.keyboard.press("s")
    heard_back(page, before)
    meld = next(a for a in legal(page) if a.startswith("meld "))
    select(page, meld.split()[1:])
    before = seq(page)
    page.click("#btn-meld")
    heard_back(page, before)
    page.click('#melds .meld[data-meld="1"]')
    page.wait_for_selector("dialog#meld-view[open]")
    held = hand(page)
    for key in ("Shift+ArrowRight", "u", "1", "d"):  # (space or Enter would press Close)
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert seq(page) == before + 1 and hand(page) == held
    assert page.locator("dialog#meld-view[open]").count() == 1
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#meld-view", state="hidden")


def test_a_hint_that_comes_after_the_move_is_dropped(server: Server, pages: Pages) -> None:
    """A hint asked for and a card drawn before it comes (the server's hints are held back
    on their way, as a slow search would send them): "Thinking..." goes with the move, and
    the hint of the position gone by, when it comes, is not shown."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="classic", seed=8)
    page = pages.new()
    held: list[str] = []
    to_page: list[Any] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        to_page.append(ws)
        ws.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: held.append(message)
                            if json.loads(message).get("type") == "hint" else ws.send(message))

    page.route_web_socket("**/ws/**", route)
    page.goto(server.url + table["seats"][0]["link"])
    ready(page)
    wait_turn(page)
    asked = seq(page)
    page.keyboard.press("h")
    page.wait_for_selector("#hint >> text=Thinking")
    page.keyboard.press("s")
    heard_back(page, asked)
    page.wait_for_selector("#hint", state="hidden")
    for _ in range(100):  # the hint of the position before the draw comes now
        if held:
            break
        page.wait_for_timeout(100)
    assert held and json.loads(held[0])["seq"] == asked
    to_page[0].send(held[0])
    page.wait_for_timeout(300)
    assert page.locator("#hint").is_hidden()
    assert page.get_attribute("#hint", "data-action") is None


def test_only_the_drawn_card_is_new_after_an_undo(server: Server, pages: Pages) -> None:
    """Draw, meld, undo: the melded cards come back to the hand, and only the card drawn is
    marked new, with its badge in the page's language."""
    from .test_table_help import meld_seed

    table = server.table([bot("Bob", "greedy"), person("Ann")], rules="one-deal",
                         seed=meld_seed("one-deal"))
    page = open_seat(pages, server, table["seats"][1]["link"], locale="it")
    wait_turn(page)
    before = seq(page)
    page.keyboard.press("s")
    heard_back(page, before)
    drawn = page.eval_on_selector_all("#hand .card.new", "els => els.map(e => e.dataset.card)")
    assert len(drawn) == 1
    assert page.inner_text("#hand .card.new .new-badge") == "nuova"
    meld = next(a for a in legal(page) if a.startswith("meld "))
    select(page, meld.split()[1:])
    before = seq(page)
    page.click("#btn-meld")
    heard_back(page, before)
    page.keyboard.press("u")
    page.wait_for_function("n => state.table.seq === n", arg=before)
    assert page.eval_on_selector_all("#hand .card.new",
                                     "els => els.map(e => e.dataset.card)") == drawn


@pytest.mark.long
def test_the_end_of_a_deal_is_shown_before_the_next(server: Server, pages: Pages,
                                                    shot: Any) -> None:
    """A match of several deals: when deal 1 ends the page keeps its final table in view,
    the last move said, every hand face up, and then the summary; the next deal is drawn
    only once the summary is closed."""
    table = server.table([person("Ann"), bot("Bob", "greedy")], rules="classic", seed=12)
    page = open_seat(pages, server, table["seats"][0]["link"], reduced_motion="no-preference")
    rng = random.Random(5)
    play_until_the_next_deal(page, rng)
    assert js(page, "state.view.deal_number") == 2
    last = js(page, "state.view.last_deal")
    assert page.text_content("#deal") == "Deal 1"
    assert page.inner_text("#status").startswith("Deal 1 is over.")
    bob = page.locator('#seats .seat[data-seat="1"] .fan.open')
    assert bob.count() == 1 and bob.locator(".card").count() == len(last["hands"][1])
    assert sorted(hand(page)) == sorted(last["hands"][0])
    shown = page.eval_on_selector_all("#melds .meld", "els => els.map(e => "
                                      "[...e.querySelectorAll('.card')].map(c => c.dataset.card))")
    assert shown == [m["cards"] for m in last["table"]]
    page.wait_for_selector("dialog#summary[open]")
    assert page.text_content("#deal") == "Deal 1"
    shot(page, "deal-end-shown")
    page.click("#summary-close")
    page.wait_for_selector("dialog#summary", state="hidden")
    assert page.text_content("#deal") == "Deal 2"
    assert sorted(hand(page)) == sorted(js(page, "state.view.hand"))
    assert page.locator(".seat .fan.open").count() == 0


def test_the_view_of_a_new_deal_holds_the_last_deals_table() -> None:
    """Between deals the view carries the finished deal's melds, pile and last move (all
    public by then), for the page to show before the next deal."""
    rng = random.Random(1)
    match = Match(Rules.parse("classic"), players=["Ann", "Bob"], seed=12)
    while match.deal is not None and len(match.finished) == 0:
        deal = match.deal
        actions = deal.legal_actions()
        melds = [a for a in actions if a.kind == "meld"]
        match.apply(str(melds[0] if melds else rng.choice(actions)))
    done = match.finished[0]
    for seat in (0, 1):
        last = view(match, seat).to_json()["last_deal"]
        assert last["table"] == [m.to_json() for m in view(done, seat).table]
        assert last["last"] == [done.moves[-1][0], str(done.moves[-1][1])]
        assert last["hands"] == view(done, seat).to_json()["revealed_hands"]


def test_a_finger_taps_to_select_and_drags_to_discard(server: Server, pages: Pages) -> None:
    """On a touch screen at phone size: a tap selects a card, and a card dragged with a
    finger (touch events, as a phone sends them) to the pile is discarded."""
    table = server.table([person("Ann"), bot("Bob")], rules="classic", seed=8)
    page = open_seat(pages, server, table["seats"][0]["link"],
                     viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    wait_turn(page)
    before = seq(page)
    page.tap("#btn-stock")
    heard_back(page, before)
    first = hand(page)[0]
    page.tap(f'#hand .card[data-card="{first}"]')
    assert page.get_attribute(f'#hand .card[data-card="{first}"]', "aria-pressed") == "true"
    page.tap(f'#hand .card[data-card="{first}"]')
    card = next(a.split()[1] for a in legal(page) if a.startswith("discard "))
    page.wait_for_function("() => document.getAnimations().length === 0")
    x, y = grip(page, card)
    goal = page.locator("#pile-box").bounding_box()
    assert goal is not None
    to_x, to_y = goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2
    cdp = page.context.new_cdp_session(page)
    before = seq(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 8):
        point = {"x": x + (to_x - x) * step / 7, "y": y + (to_y - y) * step / 7}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    heard_back(page, before)
    assert js(page, "state.view.pile[state.view.pile.length - 1]") == card
    assert card not in hand(page)
