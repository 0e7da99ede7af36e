"""Inviting a friend: "Play now" and "Play with friends" on the start page, the invite sheet
the maker lands on at the table (each friend's link with Copy, Share where the browser can,
and a QR code), the QR codes the server makes (``POST /api/qr``), and the page a browser
sees when it opens the link of a seat other than its own at a table where it has one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import segno

from . import test_browser
from ._support import person
from .test_browser import Pages, Server, axe_problems, ready

pages = test_browser.pages
shot = test_browser.shot

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


# -- the QR codes of the app's own links (no browser) ---------------------------------


@pytest.fixture
def table_link(client: Any) -> str:
    """A friend's seat link, as a browser on the test server writes it out."""
    answer = client.post("/api/tables", json={"rules": "classic",
                                              "seats": [person("Ann"), person("Ben")]})
    assert answer.status_code == 200, answer.text
    link: str = answer.json()["seats"][1]["link"]
    return f"http://testserver{link}"


def test_a_seat_link_has_its_qr_code_as_a_matrix(client: Any, table_link: str) -> None:
    answer = client.post("/api/qr", json={"text": table_link})
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    data = answer.json()
    expected = segno.make_qr(table_link, error="m")
    size = expected.symbol_size(border=0)[0]
    assert data["size"] == size
    assert len(data["rows"]) == size and all(len(row) == size for row in data["rows"])
    assert set("".join(data["rows"])) == {"0", "1"}
    # The very modules segno draws for that text (a finder pattern in the corner).
    assert data["rows"] == ["".join("1" if m else "0" for m in row) for row in expected.matrix]
    assert data["rows"][0].startswith("1111111")


def test_the_watch_link_has_a_qr_code_too(client: Any, table_link: str) -> None:
    watch = table_link.split("?")[0] + "?watch=1"
    assert client.post("/api/qr", json={"text": watch}).status_code == 200


@pytest.mark.parametrize("text", [
    "",
    "hello",
    "https://evil.example/phish",
    "http://testserver/t/abc123?token=short",
    "http://testserver/t/abc123?token=" + "A" * 32 + "&next=https://evil.example",
    "javascript:alert(1)//http://testserver/t/abc123?watch=1",
    "http://testserver/t/abc123?token=" + "A" * 32 + "\n",
    "http://" + "a" * 300 + "/t/abc123?watch=1",
])
def test_a_text_that_is_not_a_link_of_the_app_is_refused(client: Any, text: str) -> None:
    answer = client.post("/api/qr", json={"text": text})
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == "qr-text"
    assert "link to a table" in body["error"] and "\n" not in body["error"]


def test_a_qr_code_is_not_made_from_an_address(client: Any, table_link: str) -> None:
    """A seat's token never goes into an address (a log line, the history): GET is no
    route of the QR codes."""
    answer = client.get("/api/qr", params={"text": table_link})
    assert answer.status_code == 405
    assert "rows" not in answer.text
    assert client.post("/api/qr", json={"link": table_link}).status_code == 422


# -- in the browser ---------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server of the browser tests here, on SQLite."""
    request.param = "sqlite"  # type: ignore[attr-defined]
    yield from test_browser.module_server(request, tmp_path_factory)


def clipboard(page: Any) -> str:
    text: str = page.evaluate("() => navigator.clipboard.readText()")
    return text


def test_play_now_opens_a_table_against_the_computer_in_one_tap(
        server: Server, pages: Pages) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now")
    page.wait_for_function("() => document.getElementById('play-now-what').textContent !== ''")
    assert "expert" in page.inner_text("#play-now-what")
    page.click("#play-now")
    page.wait_for_url("**/t/*?seat=0")
    ready(page)
    table = page.evaluate("() => state.table")
    assert table["rules"].startswith("classic")
    assert [seat["kind"] for seat in table["seats"]] == ["person", "bot"]
    assert table["seats"][1]["level"] == "expert"
    assert page.locator("#invite-sheet").count() == 0  # nobody to invite
    # Nobody typed a name: the seat is "You", said once (not "You (you)").
    page.wait_for_selector("#me .seat")
    assert "(you)" not in page.inner_text("#me .seat") and "You" in page.inner_text("#me .seat")
    # The last rules and level used are the next "Play now"'s.
    page.evaluate("""() => localStorage.setItem('rummykit.last',
        JSON.stringify({rules: 'one-deal', level: 'greedy', bots: 2}))""")
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('play-now-what').textContent !== ''")
    page.click("#play-now")
    page.wait_for_url("**/t/*?seat=0")
    ready(page)
    table = page.evaluate("() => state.table")
    assert table["rules"] == "one-deal"
    assert [seat.get("level") for seat in table["seats"]] == [None, "greedy", "greedy"]


def make_table_with_ben(pages: Pages, server: Server, **options: Any) -> Any:
    """A browser makes a table for itself and a friend, Ben, with "Play with friends":
    its page, at the table."""
    page = pages.new(permissions=CLIPBOARD, **options)
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('play-now-what').textContent !== ''")
    assert page.locator("#new-table").is_hidden()
    page.click("#play-friends")
    page.wait_for_selector("#seats .seat-row >> nth=1", state="attached")
    assert page.input_value("#friends") == "1" and page.input_value("#bots") == "0"
    page.click("#more-options summary")
    page.locator("#seats .seat-row").nth(0).locator("[name=name]").fill("Ann")
    page.locator("#seats .seat-row").nth(1).locator("[name=name]").fill("Ben")
    page.click("#start")
    page.wait_for_url("**/t/*?seat=0")
    return page


def test_the_maker_lands_at_the_table_with_the_invite_sheet(
        server: Server, pages: Pages, shot: Any) -> None:
    ann = make_table_with_ben(pages, server)
    ready(ann)
    sheet = ann.locator("dialog#invite-sheet[open]")
    sheet.wait_for()
    assert "token=" not in ann.url
    rows = sheet.locator(".invite-row")
    assert rows.count() == 1  # Ben's; Ann's own seat is hers already
    row = sheet.locator('.invite-row[data-seat="1"]')
    assert "Ben" in row.inner_text()
    link = row.locator("input.invite-link").input_value()
    table_id = ann.evaluate("() => tableId")
    assert link.startswith(f"{server.url}/t/{table_id}?token=")
    # Copy puts the friend's link on the clipboard.
    row.locator("button.copy").click()
    row.locator("button.copy", has_text="Copied").wait_for()
    assert clipboard(ann) == link
    # The QR code is drawn, the size segno gives that link.
    qr = row.locator("svg.qr")
    qr.wait_for()
    size = segno.make_qr(link, error="m").symbol_size(border=0)[0]
    assert qr.get_attribute("data-size") == str(size)
    assert row.locator("svg.qr rect").count() > size  # the modules, drawn
    if pytest.importorskip("axe_playwright_python"):
        assert axe_problems(ann) == []
    shot(ann, "invite-sheet")
    # Escape closes the sheet, and the table is there behind it.
    ann.keyboard.press("Escape")
    ann.wait_for_selector("#invite-sheet", state="detached")
    assert ann.evaluate("() => state.view.seat") == 0

    # Ann opens Ben's link by mistake: she is told whose it is, once, and how to go on.
    mistake = ann.context.new_page()
    mistake.goto(link)
    screen = mistake.locator("#link-of-another")
    screen.wait_for()
    assert screen.locator("h2").inner_text() == "This is Ben's link: send it to Ben."
    back = screen.locator("a.back-to-seat")
    back.wait_for()
    assert back.get_attribute("href") == f"/t/{table_id}?seat=0"
    visible = mistake.locator("main button:visible, main a:visible")
    assert visible.all_inner_texts() == ["Copy Ben's link", "Back to my seat"]
    assert mistake.locator("main :text('Ben\\'s link: send it to Ben')").count() == 1
    # Said once: the header does not repeat it, and offers no menu of a seat it lacks.
    assert "seat at this table already" not in mistake.inner_text("body")
    assert mistake.locator("#btn-menu").is_hidden()
    assert mistake.inner_text("#status") == ""  # (no "Connecting..." left standing)
    assert mistake.locator("#hand .card").count() == 0
    screen.locator("button.copy").click()
    screen.locator("button.copy", has_text="Copied").wait_for()
    assert clipboard(mistake) == link
    if pytest.importorskip("axe_playwright_python"):
        assert axe_problems(mistake) == []
    shot(mistake, "link-of-another")
    back.click()
    mistake.wait_for_url(f"**/t/{table_id}?seat=0")
    ready(mistake)

    # Ben can still open his link and play.
    ben = pages.new()
    ben.goto(link)
    ready(ben)
    assert ben.evaluate("() => state.view.seat") == 1
    ben.wait_for_function("() => state.table.status === 'playing'")
    assert ben.locator("#link-of-another").count() == 0


def test_the_invite_sheet_fits_a_phone(server: Server, pages: Pages, shot: Any) -> None:
    ann = make_table_with_ben(pages, server, viewport=PHONE)
    sheet = ann.locator("dialog#invite-sheet[open]")
    sheet.wait_for()
    sheet.locator("svg.qr").wait_for()
    for part in ("button.copy", "input.invite-link"):
        box = sheet.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] + box["height"] <= PHONE["height"], part
    shot(ann, "invite-sheet-phone")
