"""One client's load does not starve the others: searches are shared fairly between
clients, a table nobody is at stops playing, master tables are limited per client, and a
finished table's page and replay are not worked out again at every request."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from rummykit.server.app import MASTER_TABLES_PER_CLIENT, create_app
from rummykit.server.pool import SearchPool

from ._support import run_async
from .test_api import RULES, create, play_to_the_end, socket

pytestmark = [pytest.mark.timeout(120)]


# -- the search pool ------------------------------------------------------------------


def test_a_busy_client_does_not_delay_another_clients_search() -> None:
    """One client's tables queue many searches; another client's one search starts
    before all but the search already running (one thread here), and with two threads a
    client uses only one of them, so the other's search starts at once."""

    async def scenario(workers: int) -> list[str]:
        pool = SearchPool(workers=workers)
        for table in ("a1", "a2", "a3"):
            pool.own(table, "client-a")
        pool.own("b1", "client-b")
        order: list[str] = []
        gate = threading.Event()

        def search(name: str) -> str:
            order.append(name)
            gate.wait(10)
            return name

        jobs = [asyncio.ensure_future(pool.run(t, search, f"{t}#{n}"))
                for n in range(3) for t in ("a1", "a2", "a3")]
        await asyncio.sleep(0.1)
        jobs.append(asyncio.ensure_future(pool.run("b1", search, "b1#0")))
        await asyncio.sleep(0.1)
        started = list(order)
        gate.set()
        answers = await asyncio.gather(*jobs)
        assert answers == [f"{t}#{n}" for n in range(3) for t in ("a1", "a2", "a3")] + [
            "b1#0"]
        pool.shutdown()
        return [*started, "|", *order]

    one = run_async(scenario(1))
    # (the first search was running; then the other client's comes next)
    assert one[:2] == ["a1#0", "|"] and one[3] == "b1#0", one
    # Client a's tables take turns too: a2 and a3 before a1's second search.
    assert one[4:6] == ["a2#0", "a3#0"], one
    two = run_async(scenario(2))
    assert two[:3] == ["a1#0", "b1#0", "|"], two


def test_a_search_error_reaches_its_caller_and_the_pool_goes_on() -> None:
    async def scenario() -> None:
        pool = SearchPool(workers=1)

        def fail() -> None:
            raise ValueError("no move")

        with pytest.raises(ValueError, match="no move"):
            await pool.run("t", fail)
        assert await pool.run("t", lambda: 7) == 7
        pool.shutdown()

    run_async(scenario())


# -- a table nobody is at --------------------------------------------------------------


def test_a_table_whose_people_left_stops_playing_and_goes_on_when_they_come_back(
        db_url: str) -> None:
    """Ann hands her seat to the stand-in and leaves a table of bots: they play on for
    the idle limit (1 s here), then stop; when Ann connects again they go on."""
    app = create_app(db_url, bot_delay=0.05, allow_seed=True, idle_limit=1.0)
    with TestClient(app) as client:
        hub = app.state.hub
        table_id, tokens = create(client, [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "name": "Bob", "level": "random"},
            {"kind": "bot", "name": "Cy", "level": "random"}], rules="classic")
        with socket(client, table_id, tokens[0]) as ws:
            ws.receive_json()
            ws.send_json({"type": "away"})
            deadline = time.monotonic() + 10
            while hub.tables[table_id].seq < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
        table = hub.tables[table_id]
        assert table.seq >= 3  # the stand-in and the bots played

        def settled() -> int:
            """The table's move count once it has stopped changing for a while."""
            deadline = time.monotonic() + 20
            seen = table.seq
            while time.monotonic() < deadline:
                time.sleep(0.6)
                if table.seq == seen and table.bot_task is not None and (
                        table.bot_task.done()):
                    return seen
                seen = table.seq
            raise AssertionError("the bots never stopped")

        stopped = settled()
        assert table.status == "playing" and not table.match.is_over
        time.sleep(0.5)
        assert table.seq == stopped  # nobody is there: nothing more is played
        with socket(client, table_id, tokens[0]) as ws:
            ws.receive_json()
            deadline = time.monotonic() + 10
            while table.seq == stopped and time.monotonic() < deadline:
                time.sleep(0.05)
            assert table.seq > stopped  # Ann is back: her stand-in and the bots go on


# -- master tables -----------------------------------------------------------------------


def test_master_tables_are_limited_per_client(tmp_path: Any) -> None:
    """One place opens at most MASTER_TABLES_PER_CLIENT tables with a master bot or
    stand-in in ten minutes; then a 429 that says why, while tables without one are
    still opened."""
    app = create_app(f"sqlite:///{tmp_path / 'rummykit.db'}")
    master = {"kind": "bot", "name": "Max", "level": "master"}
    ann = {"kind": "person", "name": "Ann"}
    with TestClient(app) as client:
        for n in range(MASTER_TABLES_PER_CLIENT):
            body: dict[str, Any] = ({"rules": RULES, "seats": [ann, master]} if n % 2 else
                                    {"rules": RULES, "seats": [ann, ann | {"name": "B"}],
                                     "standin": "master"})
            assert client.post("/api/tables", json=body).status_code == 200
        for body in ({"rules": RULES, "seats": [ann, master]},
                     {"rules": RULES, "seats": [ann, ann], "standin": "master(think=0.5)"}):
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 429
            assert refused.json()["code"] == "master-limit"
            assert "master" in refused.json()["error"]
        plain = client.post("/api/tables", json={"rules": RULES, "seats": [
            ann, {"kind": "bot", "name": "Ed", "level": "expert"}], "standin": "greedy"})
        assert plain.status_code == 200


# -- finished tables -----------------------------------------------------------------------


@pytest.mark.postgresql
def test_a_finished_tables_page_and_replay_are_not_worked_out_again(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table's page answers from its stored status, without rebuilding its
    match; its replay is worked out once and then served as it was."""
    import rummykit.server.app as app_module
    import rummykit.server.hub.storage as hub_module

    app = create_app(db_url, bot_delay=0.0, allow_seed=True)
    with TestClient(app) as client:
        table_id, _, _ = play_to_the_end(client, 25)
        assert table_id not in app.state.hub.tables  # (finished and left: not in memory)
        built: list[int] = []
        real_match = hub_module.Match

        def counted(*args: Any, **kwargs: Any) -> Any:
            built.append(1)
            return real_match(*args, **kwargs)

        monkeypatch.setattr(hub_module, "Match", counted)
        for _ in range(3):
            page = client.get(f"/t/{table_id}")
            assert page.status_code == 200 and "<html" in page.text.lower()
        assert built == []
        replayed: list[int] = []
        real_frames = app_module.frames_json

        def frames_counted(record: Any) -> bytes:
            replayed.append(1)
            return real_frames(record)

        monkeypatch.setattr(app_module, "frames_json", frames_counted)
        built.clear()
        answers = [client.get(f"/api/tables/{table_id}/frames") for _ in range(3)]
        assert all(a.status_code == 200 for a in answers)
        assert answers[0].json() == answers[1].json() == answers[2].json()
        assert answers[0].json()["frames"][-1]["result"] is not None
        assert replayed == [1]
        # Worked out once: the second and third answers read no table again.
        assert len(built) <= 2  # (the first: the table read once, and its replay)
