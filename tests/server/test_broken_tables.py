"""A stored table that this version can no longer rebuild: the server starts all the same.

Two tables share a database; one is damaged behind the app's back (its rules text, a stored
action, its first dealer, an action's seat). A new app on that database restores the good
table, which plays on; the damaged one is logged, marked ``broken`` in the database, never
tried again, and every way a client may reach it answers 410 with a one-line message.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from rummykit.db.models import ActionRow, TableRow

from ._support import ActionLog, Shadow, person, who
from .test_api import TWO, Conn, app_client, create, error_text, seated, socket, step

pytestmark = [
    pytest.mark.postgresql,
    pytest.mark.timeout(60),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

RULES = "one-deal"
BROKEN_MESSAGE = "this table can no longer be rebuilt by this version of rummykit"

Damage = Callable[[TableRow, list[ActionRow]], None]


def _set_rules(text: str) -> Damage:
    def damage(row: TableRow, actions: list[ActionRow]) -> None:
        row.rules = text
    return damage


def _action_refused(row: TableRow, actions: list[ActionRow]) -> None:
    # The second action follows a draw: a second draw is refused ("drawn-already").
    actions[1].text = "draw stock"


def _no_such_dealer(row: TableRow, actions: list[ActionRow]) -> None:
    row.first_dealer = 5


def _no_such_seat(row: TableRow, actions: list[ActionRow]) -> None:
    actions[0].seat = 7  # not a rules problem: the rebuild fails all the same


DAMAGES: dict[str, tuple[Damage, str]] = {
    "option no longer exists": (_set_rules("one-deal(colour=red)"), "colour"),
    "value no longer allowed": (_set_rules("one-deal(aces=sideways)"), "aces"),
    "preset no longer exists": (_set_rules("gin"), "gin"),
    "stored action refused": (_action_refused, "action 2"),
    "first dealer not a seat": (_no_such_dealer, "dealer"),
    "action of no seat": (_no_such_seat, "IndexError"),
}


def damage_table(url: str, table_id: str, damage: Damage) -> None:
    log = ActionLog(url)
    try:
        with Session(log.engine) as session:
            row = session.get(TableRow, table_id)
            assert row is not None
            actions = list(session.scalars(select(ActionRow).where(
                ActionRow.table_id == table_id).order_by(ActionRow.seq)))
            damage(row, actions)
            session.commit()
    finally:
        log.close()


def stored_status(url: str, table_id: str) -> str:
    log = ActionLog(url)
    try:
        with Session(log.engine) as session:
            row = session.get(TableRow, table_id)
            assert row is not None
            return row.status
    finally:
        log.close()


def broken_records(caplog: pytest.LogCaptureFixture, table_id: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "rummykit.server"
            and r.levelno == logging.ERROR and table_id in r.getMessage()]


def assert_gone(client: TestClient, table_id: str, tokens: list[str | None]) -> None:
    """Every way a client reaches the table answers 410 with the one-line message."""
    token = tokens[0]
    assert token is not None
    answers = {
        "state": client.get(f"/api/tables/{table_id}", headers=who(token)),
        "state, no token": client.get(f"/api/tables/{table_id}"),
        "record": client.get(f"/api/tables/{table_id}/record"),
        "frames": client.get(f"/api/tables/{table_id}/frames"),
        "rematch": client.post(f"/api/tables/{table_id}/rematch", json={"token": token}),
    }
    for what, answer in answers.items():
        assert answer.status_code == 410, (what, answer.text)
        assert error_text(answer) == BROKEN_MESSAGE, what
    page = client.get(f"/t/{table_id}", params={"token": token})
    assert page.status_code == 410
    assert BROKEN_MESSAGE in page.text and "\n" not in page.text.strip()
    with socket(client, table_id, token) as ws:
        conn = Conn(ws, -1)
        assert conn.error() == BROKEN_MESSAGE
        with pytest.raises(WebSocketDisconnect) as closed:
            conn.recv()
        assert closed.value.code == 4410
    # the rest of the app does not mind it
    assert client.get("/").status_code == 200
    assert client.get("/api/stats").status_code == 200


@pytest.mark.parametrize("case", list(DAMAGES))
def test_restore_survives_a_table_that_no_longer_rebuilds(
        db_url: str, caplog: pytest.LogCaptureFixture, case: str) -> None:
    damage, reason = DAMAGES[case]
    good = Shadow(RULES, ["Ann", "Bob"], 3)
    rng = random.Random(3)
    with app_client(db_url) as client:
        good_id, good_tokens = create(client, TWO, seed=3)
        bad_id, bad_tokens = create(client, [person("Eve"), person("Fay")], seed=5)
        bad = Shadow(RULES, ["Eve", "Fay"], 5)
        with seated(client, good_id, good_tokens) as conns:
            for _ in range(4):
                last = step(conns, good, good.choose(good.deal.to_move, rng))
        with seated(client, bad_id, bad_tokens) as conns:
            for _ in range(3):
                step(conns, bad, bad.choose(bad.deal.to_move, random.Random(5)))
    damage_table(db_url, bad_id, damage)

    caplog.set_level(logging.ERROR, logger="rummykit.server")
    with app_client(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert good_id in hub.tables and bad_id not in hub.tables
        logged = broken_records(caplog, bad_id)
        assert len(logged) == 1
        assert reason in logged[0].getMessage()
        assert stored_status(db_url, bad_id) == "broken"
        assert_gone(client, bad_id, bad_tokens)
        # the good table was restored as it was, and plays on
        state = client.get(f"/api/tables/{good_id}", headers=who(good_tokens[0]))
        assert state.status_code == 200 and state.json()["view"] == last[0]["view"]
        with socket(client, good_id, good_tokens[0]) as ws0, \
                socket(client, good_id, good_tokens[1]) as ws1:
            conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
            for seat, conn in conns.items():
                assert conn.view()["view"] == good.view_json(seat)
            for _ in range(3):
                step(conns, good, good.choose(good.deal.to_move, rng))
    assert len(broken_records(caplog, bad_id)) == 1  # said once, however often it is asked

    # The next start does not try it again; it stays broken.
    caplog.clear()
    with app_client(db_url) as client:
        assert broken_records(caplog, bad_id) == []
        assert_gone(client, bad_id, bad_tokens)
        assert client.get(f"/api/tables/{good_id}",
                          headers=who(good_tokens[1])).status_code == 200
    assert broken_records(caplog, bad_id) == []
    assert stored_status(db_url, bad_id) == "broken"
    assert stored_status(db_url, good_id) == "playing"


def test_a_table_loaded_later_that_no_longer_rebuilds(
        db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A table not rebuilt at start (a finished one) fails to rebuild when first asked for:
    the same log line, mark and 410 as at start."""
    with app_client(db_url) as client:
        table_id, tokens = create(client, TWO)
    damage_table(db_url, table_id, lambda row, _actions: (
        setattr(row, "status", "finished"), setattr(row, "rules", "one-deal(colour=red)")))

    caplog.set_level(logging.ERROR, logger="rummykit.server")
    with app_client(db_url) as client:
        assert broken_records(caplog, table_id) == []  # not at start: it was finished
        answer = client.get(f"/api/tables/{table_id}/record")
        assert answer.status_code == 410 and error_text(answer) == BROKEN_MESSAGE
        logged = broken_records(caplog, table_id)
        assert len(logged) == 1 and "colour" in logged[0].getMessage()
        assert_gone(client, table_id, tokens)
        assert len(broken_records(caplog, table_id)) == 1
    assert stored_status(db_url, table_id) == "broken"

