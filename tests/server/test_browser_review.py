"""The game review in Chromium (issue: game review, "Browser"): from a match's end or an
uploaded record, the review starts, shows its progress, then each player's accuracy, the
graph, a mark on the timeline for each inaccuracy, mistake and blunder, and at a mark the
position with the better move drawn out; opened again it is there at once; a spectator
sees it too; a record that does not replay is not offered for review.

The test server reviews with a small budget (4 imagined deals a decision) in one process.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummykit import record as records

from . import test_browser
from ._support import Shadow
from .test_browser import Server, finish_over_websockets, open_seat

pages = test_browser.pages
shot = test_browser.shot
server = test_browser.server

pytest.importorskip("playwright.sync_api")

NAMED = ("inaccuracy", "mistake", "blunder")


def the_review(server: Server, table_id: str) -> dict[str, Any]:
    """The finished review of a table, from the API (another browser's key: it is
    everyone's)."""
    answer = httpx.post(f"{server.url}/api/reviews", json={"key": "z" * 32, "table": table_id},
                        timeout=30).json()
    assert answer["status"] == "done", answer
    review: dict[str, Any] = answer["review"]
    return review


def long_record() -> str:
    """A two-player rummy500 match played to its end (a review of some seconds at the
    test server's budget)."""
    shadow = Shadow("rummy500", ["Ann", "Bob"], 5)
    rng = random.Random(5)
    while not shadow.match.is_over:
        shadow.match.apply(shadow.choose(shadow.deal.to_move, rng))
    return records.dumps(records.from_match(shadow.match))


def test_a_review_from_the_match_end(server: Server, pages: Any, shot: Any) -> None:
    table, shadow = finish_over_websockets(server, seed=23)
    page = open_seat(pages, server, table["seats"][0]["link"])
    page.wait_for_selector("dialog#summary[open]")
    assert page.get_attribute("#review-link", "href") == f"/replay?table={table['id']}&review=1"
    page.click("#review-link")
    page.wait_for_url("**/replay?table=*")
    # It starts at once: its progress first (the page asks again each second), then the
    # review.
    page.wait_for_selector("#review-status:not(.hidden) progress")
    assert "Reviewing" in page.inner_text("#review-status") or \
        "starting" in page.inner_text("#review-status")
    page.wait_for_selector("#review-result:not(.hidden)", timeout=120_000)
    shot(page, "review")
    review = the_review(server, table["id"])
    rows = page.locator("#review-seats tr[data-seat]")
    assert rows.count() == 2
    for seat in review["seats"]:
        cells = page.locator(f'#review-seats tr[data-seat="{seat["seat"]}"] td')
        assert cells.nth(0).inner_text() == seat["name"]
        assert cells.nth(1).inner_text() == f"{seat['accuracy']:.0f}"
    named = [d for d in review["decisions"] if d["class"] in NAMED]
    assert named  # (seed 23: one mistake at this budget; the page's part is what is tested)
    assert page.locator("#review-marks .mark").count() == len(named)
    assert page.locator("#review-graph polyline").count() == 2
    first = min(named, key=lambda d: d["step"])
    page.locator("#review-list button").first.click()
    # The position before that decision: the step line names the one before it.
    assert page.text_content("#step").startswith(f"Step {first['step']} of")
    note = page.inner_text("#review-note")
    assert ["Ann", "Bob"][first["seat"]] in note and first["class"].capitalize() in note
    cards = [w for w in first["best"].split() if w[-1] in "CDHS" and len(w) <= 3]
    better = page.eval_on_selector_all(
        f'#hands .seat[data-seat="{first["seat"]}"] .card.better',
        "els => els.map(e => e.dataset.card)")
    assert cards and sorted(better) == sorted(cards)
    # A mark on the timeline goes there too, and says so.
    page.click("#first")
    page.locator("#review-marks .mark").first.click()
    assert page.text_content("#step").startswith(f"Step {first['step']} of")
    assert page.locator("#review-marks .mark.here").count() == 1
    # Opened again: there at once (stored), with no progress to wait for.
    page.reload()
    page.wait_for_selector("#review-result:not(.hidden)")
    assert page.locator("#review-status.hidden").count() == 1
    # A spectator, in a browser of their own, sees the same review.
    friend = pages.new(viewport={"width": 390, "height": 844})
    friend.goto(server.url + f"/replay?table={table['id']}&review=1")
    friend.wait_for_selector("#review-result:not(.hidden)")
    assert friend.locator("#review-marks .mark").count() == len(named)
    shot(friend, "review-phone")
    assert shadow.match.is_over
    # The statistics page shows each person's accuracy over their reviewed matches.
    page.goto(server.url + "/stats")
    row = page.locator("#stats tbody tr", has_text="Ann").first
    row.wait_for()
    ann = [d["accuracy"] for d in review["decisions"] if d["seat"] == 0]
    cell = row.locator("td").last.inner_text()
    assert cell.endswith(" (1)")
    assert float(cell.split()[0]) == pytest.approx(sum(ann) / len(ann), abs=0.051)


def test_an_uploaded_record_is_reviewed_and_a_broken_one_is_not_offered(
        server: Server, pages: Any, tmp_path: Path) -> None:
    table, _ = finish_over_websockets(server, seed=31)
    text = httpx.get(f"{server.url}/api/tables/{table['id']}/record", timeout=10).text
    good = tmp_path / "good.json"
    good.write_text(text)
    page = pages.new()
    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(good))
    page.wait_for_selector("#review-panel:not(.hidden)")
    # A second review of this browser's while its first one runs (a rummy500 match, asked
    # for through the API with this browser's key): refused with the reason, and the
    # button is there again once the first one is done.
    key = "k" * 32  # (this browser's key from now on: the page makes one when it has none)
    page.evaluate(f"localStorage.setItem('rummykit.key', '{key}')")
    first = httpx.post(f"{server.url}/api/reviews", json={"key": key, "record": long_record()},
                       timeout=30).json()
    assert first.get("status") in ("queued", "running"), first
    page.click("#review-start")
    page.wait_for_selector("#review-status.error")
    assert page.inner_text("#review-status-text") == \
        "You have a review waiting or running: one at a time."
    assert page.locator("#review-start:enabled").count() == 1
    while httpx.get(f"{server.url}/api/reviews/{first['id']}", timeout=30
                    ).json()["status"] in ("queued", "running"):
        time.sleep(0.2)
    page.click("#review-start")
    page.wait_for_selector("#review-result:not(.hidden)", timeout=120_000)
    assert page.locator("#review-status.hidden").count() == 1
    assert page.locator("#review-seats tr[data-seat]").count() == 2
    # A record that stops being legal: the viewer says where, and offers no review.
    data = json.loads(text)
    actions = data["deals"][0]["actions"]
    data["deals"][0]["actions"] = [actions[0], actions[0], *actions[2:]]
    data["deals"][0].pop("result", None)
    data.pop("result", None)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    page.set_input_files("#file", str(broken))
    page.wait_for_selector("#error:not(.hidden)")
    assert page.locator("#review-panel.hidden").count() == 1
