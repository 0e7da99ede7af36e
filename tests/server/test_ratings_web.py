"""Rated tables on the server (issue: ratings and leaderboards): a rated table refuses a
chosen seed, hints and undo, each with its reason; its match moves both players' ratings
once, in the transaction that stores it; the leaderboard lists them (under a chosen name,
or not at all), and each person sees their rating's history."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rummykit.db import connect
from rummykit.db.models import GameRow, RatingChangeRow
from rummykit.ratings import MU, SIGMA, Skill, rate
from rummykit.stats import Store

from ._support import Shadow
from .test_api import RULES, TWO, bot, person, seated, step

KEYS = ["a" * 32, "b" * 32]


def rated_table(client: TestClient, seats: list[dict[str, Any]]) -> tuple[str, list[str | None],
                                                                        int]:
    """A rated table (the server shuffles): its id, tokens, and the seed the hub drew (read
    from the server's memory, so that the test can follow the deal)."""
    made = client.post("/api/tables", json={"rules": RULES, "seats": seats, "rated": True})
    assert made.status_code == 200, made.text
    data = made.json()
    tokens = [s["link"].split("token=", 1)[1] if s["link"] else None for s in data["seats"]]
    seed = client.app.state.server.hub.tables[data["id"]].seed  # type: ignore[attr-defined]
    return data["id"], tokens, seed


def play_rated(client: TestClient) -> tuple[str, Shadow]:
    table_id, tokens, seed = rated_table(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], seed)
    with seated(client, table_id, tokens, KEYS) as conns:
        rng = random.Random(seed)
        while not shadow.match.is_over:
            step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    return table_id, shadow


def changes_when_stored(client: TestClient, table_id: str) -> dict[str, Any]:
    for _ in range(200):
        answer: dict[str, Any] = client.get(f"/api/tables/{table_id}/ratings").json()
        if answer["changes"]:
            return answer
        time.sleep(0.05)
    raise AssertionError(answer)


@pytest.mark.postgresql
def test_a_rated_match_moves_both_ratings_once(client: TestClient, db_url: str) -> None:
    table_id, shadow = play_rated(client)
    answer = changes_when_stored(client, table_id)
    assert answer["rated"] is True
    winner = shadow.match.winner
    by_seat = {c["seat"]: c for c in answer["changes"]}
    # Two newcomers: the rating worked out here apart from the same two skills.
    totals = shadow.match.totals
    places = [1 if s == winner or (winner is None and totals[s] == totals[1 - s])
              else 2 if winner is not None or totals[s] < totals[1 - s] else 1
              for s in range(2)]
    expected = rate([Skill(), Skill()], places)
    for seat in range(2):
        change = by_seat[seat]
        assert change["before"] == Skill(MU, SIGMA).shown
        assert change["after"] == expected[seat].shown
        assert change["change"] == change["after"] - change["before"]
        assert change["provisional"] is True
        assert change["place"] == places[seat]
    first = places.index(1)
    if places == [1, 2] or places == [2, 1]:
        assert by_seat[first]["change"] > 0 > by_seat[1 - first]["change"]
    # The leaderboard lists both, the higher rating first.
    board = client.get("/api/ratings", params={"preset": RULES, "group": "2"}).json()
    ratings = {line["name"]: line["rating"] for line in board["lines"]}
    assert ratings == {"Ann": by_seat[0]["after"], "Bob": by_seat[1]["after"]}
    assert [line["rating"] for line in board["lines"]] == sorted(ratings.values(), reverse=True)
    # Each sees their own rating and its history.
    mine = client.post("/api/ratings/mine", json={"key": KEYS[0]}).json()
    assert [(r["preset"], r["group"], r["rating"], r["matches"]) for r in mine["ratings"]] == [
        (RULES, "2", by_seat[0]["after"], 1)]
    assert [value for _, value in mine["ratings"][0]["history"]] == [by_seat[0]["after"]]
    # ...and her result against the one person she played.
    won = int(places[0] < places[1])
    lost = int(places[0] > places[1])
    assert mine["ratings"][0]["against"] == [
        {"level": None, "won": won, "lost": lost, "tied": 1 - won - lost}]
    # Rated once: the table's end was stored once, and working the ratings out again from
    # the stored games gives the same numbers.
    engine = connect(db_url)
    try:
        with Session(engine) as session:
            assert session.scalar(select(func.count()).select_from(RatingChangeRow)) == 2
        store = Store(engine=engine)
        assert store.rerate() == 1
        board_again = client.get("/api/ratings", params={"preset": RULES, "group": "2"}).json()
        assert board_again == board
    finally:
        engine.dispose()


def test_a_chosen_name_or_none_on_the_leaderboard(client: TestClient) -> None:
    play_rated(client)
    table_id, _ = play_rated(client)
    changes_when_stored(client, table_id)
    named = client.post("/api/ratings/name", json={"key": KEYS[0], "name": "Annie"})
    assert named.status_code == 200 and named.json()["name"] == "Annie"
    names = [line["name"] for line in
             client.get("/api/ratings", params={"preset": RULES}).json()["lines"]]
    assert sorted(names) == ["Annie", "Bob"]
    hidden = client.post("/api/ratings/name", json={"key": KEYS[1], "hidden": True})
    assert hidden.json()["hidden"] is True
    names = [line["name"] for line in
             client.get("/api/ratings", params={"preset": RULES}).json()["lines"]]
    assert names == ["Annie"]
    # Nor is Bob's rating shown at the end of his table.
    seats = [c["seat"] for c in client.get(f"/api/tables/{table_id}/ratings").json()["changes"]]
    assert seats == [0]
    bad = client.post("/api/ratings/name", json={"key": KEYS[0], "name": "a\u202eb"})
    assert bad.status_code == 400 and bad.json()["code"] == "name-invalid"
    unknown = client.get("/api/ratings", params={"preset": "gin"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "no-preset"


def test_a_rated_table_refuses_a_seed_hints_and_undo(client: TestClient) -> None:
    seeded = client.post("/api/tables", json={"rules": RULES, "seats": TWO, "seed": 3,
                                              "rated": True})
    assert seeded.status_code == 400 and seeded.json()["code"] == "rated-seed"
    # A rating is per preset and per level: no house rules, no level's settings changed.
    for body, code in (({"rules": "one-deal(aces=high-low)", "seats": TWO}, "rated-rules"),
                       ({"rules": RULES, "seats": [person("Ann"),
                                                   bot("Bob", "master(think=0.01)")]},
                        "rated-level"),
                       ({"rules": RULES, "seats": TWO, "standin": "master(think=0.01)"},
                        "rated-level")):
        refused = client.post("/api/tables", json={**body, "rated": True})
        assert refused.status_code == 400 and refused.json()["code"] == code, refused.text
    assert not client.app.state.server.hub.tables  # type: ignore[attr-defined]
    table_id, tokens, seed = rated_table(client, [person("Ann"), bot("Bob", "greedy")])
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert ws.receive_json()["type"] == "view"
        for asked, code in (("hint", "rated-hint"), ("undo", "rated-undo")):
            ws.send_json({"type": asked})
            for _ in range(20):  # (the views of the bot's moves may come first)
                message = ws.receive_json()
                if message["type"] == "error":
                    break
            assert message["code"] == code, message
    del seed


def test_a_seat_played_without_a_browser_key_leaves_the_match_unrated(
        client: TestClient, db_url: str) -> None:
    """A person is rated by their browser's key: a seat played through its link alone
    (an API client sending no key) has nobody to rate, so the match is stored unrated."""
    table_id, tokens, seed = rated_table(client, TWO)
    shadow = Shadow(RULES, ["Ann", "Bob"], seed)
    with seated(client, table_id, tokens) as conns:
        rng = random.Random(seed)
        while not shadow.match.is_over:
            step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    engine = connect(db_url)
    try:
        deadline = time.monotonic() + 10
        while True:
            with Session(engine) as session:
                game = session.scalar(select(GameRow))
                if game is not None:
                    assert not game.rated
                    assert session.scalar(
                        select(func.count()).select_from(RatingChangeRow)) == 0
                    break
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        engine.dispose()
    assert client.get(f"/api/tables/{table_id}/ratings").json() == {"rated": True,
                                                                     "changes": []}
