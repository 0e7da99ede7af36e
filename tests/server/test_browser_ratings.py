"""Ratings in Chromium (issue: ratings and leaderboards, "Where it shows"): the start
page's tables are rated unless the maker says otherwise; a rated table has no hint and no
undo; after a rated match each player sees the change ("995 → 1086 (+91)"); the
statistics page shows the leaderboard, the person's own rating with its history, and the
choice of a name on the leaderboard or none, in English, Italian and Russian."""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from . import test_browser
from ._support import hello, person
from .test_browser import Server, link_token, ready

pages = test_browser.pages
shot = test_browser.shot
server = test_browser.server

pytest.importorskip("playwright.sync_api")

ANN, BOB = "A" * 32, "B" * 32


def with_key(page: Any, key: str) -> None:
    """This browser's key from the first page on (as if it had made it)."""
    page.context.add_init_script(f"localStorage.setItem('rummykit.key', '{key}')")


def finish_rated(server: Server, rng: random.Random) -> dict[str, Any]:
    """A rated two-person one-deal table, played to its end over the live protocol by
    each seat's own view (the server shuffled it: nobody here knows the deal)."""
    made = httpx.post(f"{server.url}/api/tables", json={
        "rules": "one-deal", "seats": [person("Ann"), person("Bob")], "rated": True},
        timeout=10)
    assert made.status_code == 200, made.text
    table: dict[str, Any] = made.json()
    base = server.url.replace("http", "ws")

    def view_where(ws: Any, wanted: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            assert message.get("type") != "error", message
            if message.get("type") == "view" and wanted(message):
                return message

    with ExitStack() as stack:
        sockets = []
        for data, key in zip(table["seats"], (ANN, BOB), strict=True):
            ws = stack.enter_context(connect(f"{base}/ws/{table['id']}"))
            ws.send(json.dumps(hello(link_token(data["link"]), key)))
            sockets.append(ws)
        last = [view_where(ws, lambda m: m["table"]["status"] == "playing") for ws in sockets]
        while not last[0]["view"]["match_over"]:
            seq = last[0]["table"]["seq"]
            mover = last[0]["view"]["to_move"]
            legal = last[mover]["view"]["legal_actions"]
            # Melds and lay-offs first (the deal ends sooner), at a pace the server allows.
            going = [a for a in legal if a.startswith(("meld", "layoff"))] or legal
            time.sleep(0.03)
            sockets[mover].send(json.dumps({"type": "action", "action": rng.choice(going)}))
            last = [view_where(ws, lambda m, s=seq: m["table"]["seq"] > s)
                    for ws in sockets]
    return table


@pytest.mark.parametrize("lang", ["en", "it", "ru"])
@pytest.mark.long
def test_ratings_after_a_rated_match_and_on_the_leaderboard(
        server: Server, pages: Any, shot: Any, lang: str) -> None:
    table = finish_rated(server, random.Random(lang))
    answer = httpx.get(f"{server.url}/api/tables/{table['id']}/ratings", timeout=10).json()
    assert answer["rated"] and len(answer["changes"]) == 2
    ann = next(c for c in answer["changes"] if c["seat"] == 0)
    # Ann's browser, at the end of the match: each player's change.
    page = pages.new(locale=lang)
    with_key(page, ANN)
    page.goto(server.url + f"/t/{table['id']}?seat=0")
    ready(page)
    page.wait_for_selector("dialog#summary[open] #rating-changes span[data-seat='0']")
    said = page.inner_text("#rating-changes span[data-seat='0']")
    sign = "+" if ann["change"] >= 0 else ""
    assert f"Ann {ann['before']} → {ann['after']} ({sign}{ann['change']})" in said
    shot(page, f"rated-end-{lang}")
    # The statistics page: the leaderboard of one-deal, two players...
    page.goto(server.url + "/stats")
    page.select_option("#board-preset", "one-deal")
    page.wait_for_selector("#board tbody tr td:nth-child(2)")
    names = page.eval_on_selector_all("#board tbody tr td:nth-child(2)",
                                      "els => els.map(e => e.textContent)")
    assert "Ann" in names or "Annie" in names  # (an earlier language's test may rename her)
    heading = {"en": "Leaderboard", "it": "Classifica", "ru": "Таблица лидеров"}[lang]
    assert page.inner_text("#board-panel h2") == heading
    # ...her own rating, with a point of history per rated match...
    mine = page.locator(".my-rating[data-preset='one-deal'][data-group='2']")
    mine.wait_for()
    points = mine.locator("polyline").get_attribute("points") or ""
    mine_api = httpx.post(f"{server.url}/api/ratings/mine", json={"key": ANN}, timeout=10).json()
    rating = next(r for r in mine_api["ratings"] if r["preset"] == "one-deal")
    assert len(points.split()) == len(rating["history"]) == rating["matches"]
    assert mine.inner_text().startswith("one-deal, ") and str(rating["rating"]) in \
        mine.inner_text()
    # ...her results by opponent (here Bob, a person: one result per match)...
    against = page.locator("table.against[data-preset='one-deal'][data-group='2'] tbody tr")
    assert against.count() == len(rating["against"]) >= 1
    row = rating["against"][-1]
    cells = against.nth(len(rating["against"]) - 1).locator("td").all_inner_texts()
    assert cells == [str(row["won"]), str(row["lost"]), str(row["tied"])]
    assert row["won"] + row["lost"] + row["tied"] == rating["matches"]
    shot(page, f"leaderboard-{lang}")
    # ...and her choice: another name, then none at all.
    page.fill("#board-name", "Annie")
    page.click("#board-save")
    page.wait_for_function("() => [...document.querySelectorAll('#board tbody td')]"
                           ".some(td => td.textContent === 'Annie')")
    page.check("#board-hidden")
    page.click("#board-save")
    page.wait_for_function("() => ![...document.querySelectorAll('#board tbody td')]"
                           ".some(td => td.textContent === 'Annie')")
    page.uncheck("#board-hidden")
    page.fill("#board-name", "")
    page.click("#board-save")
    page.wait_for_function("() => [...document.querySelectorAll('#board tbody td')]"
                           ".some(td => td.textContent === 'Ann')")


def test_the_start_page_makes_rated_tables_without_hint_or_undo(
        server: Server, pages: Any) -> None:
    page = pages.new()
    page.goto(server.url + "/")
    page.wait_for_function("() => !document.getElementById('play-now').disabled")
    page.click("#play-friends")
    assert page.is_checked("#rated")
    made: list[dict[str, Any]] = []
    page.on("request", lambda r: made.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/api/tables") and r.method == "POST" else None)
    page.click("#start")
    page.wait_for_url("**/t/*")
    ready(page)
    assert made and made[0]["rated"] is True
    assert page.locator("#btn-hint").is_hidden() and page.locator("#btn-undo").is_hidden()
    assert "rated" in page.inner_text("#rules")
    # Unchecked, the next table is not rated (and the choice is kept for "Play now").
    page.goto(server.url + "/")
    page.wait_for_function("() => !document.getElementById('play-now').disabled")
    page.click("#play-friends")
    page.uncheck("#rated")
    page.click("#start")
    page.wait_for_url("**/t/*")
    ready(page)
    assert made[-1]["rated"] is False
    assert page.locator("#btn-hint").is_visible()
    page.goto(server.url + "/")
    page.wait_for_function("() => !document.getElementById('play-now').disabled")
    page.click("#play-now")
    page.wait_for_url("**/t/*")
    assert made[-1]["rated"] is False
