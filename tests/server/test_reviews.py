"""Game reviews on the server (issue: game review, "Browser"): a finished table's match or
an uploaded record is reviewed in a bounded pool with a queue, its progress followed, the
result stored so that it opens at once again (after a restart too), one review at a time
per person, and a record that is not valid refused with nothing stored."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rummykit import record as records
from rummykit.analysis import review
from rummykit.db import connect
from rummykit.db.models import ReviewJobRow, ReviewRow
from rummykit.server.app import create_app
from rummykit.server.reviews import SHARED_STALE, review_id

from ._support import Shadow
from .test_api import RULES, TWO, create, seated, step

KEY_A = "a" * 32
KEY_B = "b" * 32
KEY_C = "c" * 32


def app_client(db_url: str, **options: Any) -> TestClient:
    options = {"review_budget": "4", "review_jobs": 1, **options}
    return TestClient(create_app(db_url, bot_delay=0.0, allow_seed=True, **options))


@pytest.fixture
def reviewing(db_url: str) -> Iterator[TestClient]:
    with app_client(db_url) as client:
        yield client


def finished_table(client: TestClient, seed: int) -> str:
    table_id, tokens = create(client, TWO, seed=seed)
    shadow = Shadow(RULES, ["Ann", "Bob"], seed)
    with seated(client, table_id, tokens) as conns:
        rng = random.Random(seed)
        while not shadow.match.is_over:
            step(conns, shadow, shadow.choose(shadow.deal.to_move, rng))
    return table_id


def wait_done(client: TestClient, rid: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        state: dict[str, Any] = client.get(f"/api/reviews/{rid}").json()
        if state["status"] in ("done", "failed"):
            return state
        assert time.time() < deadline, state
        assert state["done"] <= state["total"] or state["total"] == 0
        time.sleep(0.1)


def stored(db_url: str) -> int:
    engine = connect(db_url)
    try:
        with Session(engine) as session:
            return int(session.scalar(select(func.count()).select_from(ReviewRow)) or 0)
    finally:
        engine.dispose()


@pytest.mark.postgresql
@pytest.mark.long
def test_a_finished_tables_review_is_the_librarys_and_is_kept(db_url: str) -> None:
    with app_client(db_url) as client:
        table_id = finished_table(client, 13)
        text = client.get(f"/api/tables/{table_id}/record").text
        asked = client.post("/api/reviews", json={"key": KEY_A, "table": table_id})
        assert asked.status_code == 200, asked.text
        first = asked.json()
        assert first["status"] in ("queued", "running") and first["review"] is None
        done = wait_done(client, first["id"])
        assert done["status"] == "done" and done["error"] is None
        assert done["done"] == done["total"] == len(done["review"]["decisions"]) > 0
        # The same review as the library's, worked out here apart (same budget, seeds).
        mine = review(records.loads(text), budget=4, jobs=1).to_json()
        assert done["review"]["decisions"] == mine["decisions"]
        assert done["review"]["seats"] == mine["seats"]
        # Asked again (by anyone, or as an upload of the same record): at once, stored.
        again = client.post("/api/reviews", json={"key": KEY_B, "table": table_id}).json()
        assert again["status"] == "done" and again["id"] == first["id"]
        upload = client.post("/api/reviews", json={"key": KEY_C, "record": text}).json()
        assert upload["status"] == "done" and upload["id"] == first["id"]
    assert stored(db_url) == 1
    # The statistics count the reviewed match once (asked for three times): each
    # player's accuracy is the mean over their decisions.
    with app_client(db_url) as client:
        second = finished_table(client, 17)
        other = client.post("/api/reviews", json={"key": KEY_A, "table": second}).json()
        more = wait_done(client, other["id"])["review"]
        lines = {line["player"]: line
                 for line in client.get("/api/stats", params={"preset": RULES}).json()["stats"]}
    for seat, name in enumerate(["Ann", "Bob"]):
        mine = [d["accuracy"] for d in done["review"]["decisions"] + more["decisions"]
                if d["seat"] == seat]
        assert lines[name]["reviewed"] == 2 and lines[name]["matches"] == 2
        assert lines[name]["accuracy"] == pytest.approx(sum(mine) / len(mine), abs=0.051)
    # After a restart the database answers.
    with app_client(db_url) as client:
        kept = client.get(f"/api/reviews/{first['id']}").json()
        assert kept["status"] == "done" and kept["review"] == done["review"]


def test_a_match_in_play_is_not_reviewed(reviewing: TestClient) -> None:
    table_id, _ = create(reviewing, TWO, seed=3)
    refused = reviewing.post("/api/reviews", json={"key": KEY_A, "table": table_id})
    assert refused.status_code == 409 and refused.json()["code"] == "record-not-over"
    missing = reviewing.post("/api/reviews", json={"key": KEY_A, "table": "nosuchtable"})
    assert missing.status_code == 404
    unknown = reviewing.get("/api/reviews/0123456789abcdef0123456789abcdef")
    assert unknown.status_code == 404 and unknown.json()["code"] == "no-review"


def test_a_record_that_is_not_valid_is_refused_and_nothing_stored(
        reviewing: TestClient, db_url: str) -> None:
    table_id = finished_table(reviewing, 17)
    text = reviewing.get(f"/api/tables/{table_id}/record").text
    data = json.loads(text)
    actions = data["deals"][0]["actions"]
    data["deals"][0]["actions"] = [actions[0], actions[0], *actions[2:]]  # drawn twice
    for bad in ("not json", "{}", json.dumps({"rules": "classic"}), json.dumps(data)):
        refused = reviewing.post("/api/reviews", json={"key": KEY_A, "record": bad})
        assert refused.status_code == 400, bad
        assert refused.json()["code"] == "record-invalid"
        assert refused.json()["error"].startswith("not a valid record: ")
    both = reviewing.post("/api/reviews", json={"key": KEY_A, "record": text,
                                                "table": table_id})
    assert both.status_code == 400 and both.json()["code"] == "review-what"
    bad_key = reviewing.post("/api/reviews", json={"key": "short", "record": text})
    assert bad_key.status_code == 422
    reviewing.app.state.server.max_record = len(text) - 1  # type: ignore[attr-defined]
    large = reviewing.post("/api/reviews", json={"key": KEY_A, "record": text})
    assert large.status_code == 400 and large.json()["code"] == "record-large"
    assert stored(db_url) == 0


def test_one_review_at_a_time_each_and_the_rest_queued(db_url: str) -> None:
    # A budget so big that the first review runs while the test asks for more; the
    # server runs one review at once.
    with app_client(db_url, review_budget="100000") as client:
        first_table = finished_table(client, 13)
        second_table = finished_table(client, 17)
        third = finished_table(client, 19)
        running = client.post("/api/reviews", json={"key": KEY_A, "table": first_table})
        assert running.json()["status"] == "running"
        # The same person may not start a second one while the first runs...
        busy = client.post("/api/reviews", json={"key": KEY_A, "table": second_table})
        assert busy.status_code == 429 and busy.json()["code"] == "review-busy"
        # ...but may follow the one they have, as may anyone (the same review).
        joined = client.post("/api/reviews", json={"key": KEY_B, "table": first_table})
        assert joined.json()["id"] == running.json()["id"]
        # Others wait in the queue, each told its place.
        waiting = client.post("/api/reviews", json={"key": KEY_B, "table": second_table})
        assert waiting.json()["status"] == "queued" and waiting.json()["position"] == 1
        behind = client.post("/api/reviews", json={"key": KEY_C, "table": third})
        assert behind.json()["position"] == 2
        # A full queue refuses more, with a reason.
        client.app.state.server.reviews.queue_limit = 2  # type: ignore[attr-defined]
        full = client.post("/api/reviews", json={"key": "d" * 32, "table": third})
        assert full.json()["position"] == 2  # (that one is already asked for: joined)
        fourth = finished_table(client, 23)
        refused = client.post("/api/reviews", json={"key": "d" * 32, "table": fourth})
        assert refused.status_code == 503 and refused.json()["code"] == "review-queue-full"
        state = client.get(f"/api/reviews/{running.json()['id']}").json()
        assert state["status"] == "running" and state["total"] > 0
    # Stopping the server stops the running review at once: nothing half done is kept.
    assert stored(db_url) == 0


def test_a_review_one_process_runs_is_followed_through_another(postgres_db_url: str) -> None:
    """Several server processes on one database: a page whose next question reaches
    another process sees the review's state there (never "no such review"), the other
    process does not start it again, and a process that stops lets another take over."""
    with app_client(postgres_db_url, review_budget="100000") as maker:
        blocker = finished_table(maker, 13)
        table_id = finished_table(maker, 17)
        text = maker.get(f"/api/tables/{table_id}/record").text
    with app_client(postgres_db_url, review_budget="100000") as one, \
            app_client(postgres_db_url, review_budget="100000") as other:
        first = one.post("/api/reviews", json={"key": KEY_A, "table": blocker}).json()
        assert first["status"] == "running"
        asked = one.post("/api/reviews", json={"key": KEY_B, "record": text}).json()
        assert asked["status"] == "queued" and asked["position"] == 1
        # The other process answers from the first one's shared state...
        seen = other.get(f"/api/reviews/{asked['id']}")
        assert seen.status_code == 200, seen.text
        assert seen.json()["status"] == "queued" and seen.json()["position"] == 1
        running = other.get(f"/api/reviews/{first['id']}").json()
        assert running["status"] == "running"
        # ...and asked for the same review, joins it rather than running it twice.
        again = other.post("/api/reviews", json={"key": KEY_C, "record": text}).json()
        assert again["id"] == asked["id"] and again["status"] == "queued"
        assert not other.app.state.server.reviews.known  # type: ignore[attr-defined]
        # The progress the first process writes reaches the other one.
        deadline = time.time() + 30
        while other.get(f"/api/reviews/{first['id']}").json()["done"] == 0:
            assert time.time() < deadline
            time.sleep(0.2)
    # The first process stopped: its reviews are released, another process runs them.
    with app_client(postgres_db_url, review_budget="4") as after:
        assert after.get(f"/api/reviews/{asked['id']}").status_code == 404
        restarted = after.post("/api/reviews", json={"key": KEY_A, "record": text}).json()
        assert restarted["id"] != asked["id"]  # (another budget: another review)


def test_a_review_whose_process_is_gone_is_taken_over(postgres_db_url: str) -> None:
    with app_client(postgres_db_url) as client:
        text = client.get(f"/api/tables/{finished_table(client, 13)}/record").text
        rid = client.post("/api/reviews", json={"key": KEY_A, "record": text}).json()["id"]
        assert wait_done(client, rid)["status"] == "done"
    # The same record under another budget, as a process that died left it: "running",
    # last written long ago.
    with app_client(postgres_db_url, review_budget="5") as client:
        engine = connect(postgres_db_url)
        budget = client.app.state.server.reviews.budget  # type: ignore[attr-defined]
        rid = review_id(records.loads(text), budget)
        with Session(engine) as session, session.begin():
            session.add(ReviewJobRow(
                id=rid, status="running", done=3, total=90, position=0, error=None,
                seen_at=datetime.now(UTC) - timedelta(seconds=SHARED_STALE + 1)))
        assert client.get(f"/api/reviews/{rid}").status_code == 404
        taken = client.post("/api/reviews", json={"key": KEY_B, "record": text}).json()
        assert taken["id"] == rid and taken["status"] in ("queued", "running")
        assert wait_done(client, rid)["status"] == "done"
        with Session(engine) as session:
            assert session.get(ReviewJobRow, rid) is None  # (gone with the stored review)
        engine.dispose()
