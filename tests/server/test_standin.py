"""The turn timer and the computer player standing in for a person (online play).

The rule, as the README and the rules page state it: a table may have a turn timer (10
to 600 seconds a turn). When a person's time runs out, or when they have not been
connected on their turn for 20 seconds (less where the timer is less), the table's
stand-in bot plays for them, marked as such, until they come back: by saying so ("back"),
by playing a move themselves, or, if they lost the connection, by connecting again. A
person may also hand their seat to the stand-in and leave; that is stored, and only
"back" undoes it. The stand-in plays from that seat's view, as every bot does.

These tests run the timer fast (``timer_unit``: a timer second is 0.02 real seconds).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from rummykit.db.models import GameRow
from rummykit.server.app import create_app

from ._support import ActionLog, person, who
from .test_api import Conn, play_to_the_end, socket

UNIT = 0.02
TWO = [person("Ann"), person("Bob")]


def fast_app(db_url: str, unit: float = UNIT, bot_delay: float = 0.0) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=bot_delay, allow_seed=True,
                                 timer_unit=unit))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with fast_app(db_url) as client:
        yield client


def timed_table(client: TestClient, timer: int | None, seed: int = 5,
                standin: str | None = "random") -> tuple[str, list[str]]:
    body: dict[str, Any] = {"rules": "classic", "seats": TWO, "seed": seed, "timer": timer}
    if standin:
        body["standin"] = standin
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    return data["id"], [s["link"].split("token=", 1)[1] for s in data["seats"]]


def until(conn: Conn, done: Callable[[dict[str, Any]], bool], seconds: float = 10.0
          ) -> dict[str, Any]:
    """Read views (and presence) until one satisfies ``done``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = conn.view(timeout=seconds)
        if done(message):
            return message
    raise AssertionError("no such view came")


def test_when_time_runs_out_the_standin_plays_until_the_person_is_back(
        client: TestClient, actions_db: ActionLog) -> None:
    table_id, tokens = timed_table(client, timer=10)
    with socket(client, table_id, tokens[0]) as ws0, socket(client, table_id, tokens[1]) as ws1:
        conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
        start = until(conns[1], lambda m: m["table"]["status"] == "playing")
        mover = start["view"]["to_move"]
        other = 1 - mover
        assert start["table"]["timer"] == 10
        assert 0 < start["table"]["time_left"] <= 10
        assert not start["table"]["seats"][mover]["standin"]
        # The mover does nothing: the stand-in takes the seat and plays the whole turn.
        taken = until(conns[other], lambda m: m["table"]["seats"][mover]["standin"])
        assert taken["table"]["seq"] == 0 and taken["table"]["time_left"] is None
        after = until(conns[other], lambda m: m["view"]["to_move"] == other)
        assert after["table"]["seats"][mover]["standin"]
        stored = actions_db.rows(table_id)
        assert stored and all(seat == mover for _seq, seat, _text in stored)
        # The mover's own page hears that the computer plays for them.
        mine = until(conns[mover], lambda m: m["table"]["seq"] == after["table"]["seq"])
        assert mine["table"]["seats"][mover]["standin"] and not mine["table"]["seats"][
            mover]["away"]
        # Back: the seat is theirs again, and their next turn waits for them.
        conns[mover].send({"type": "back"})
        back = until(conns[mover], lambda m: not m["table"]["seats"][mover]["standin"])
        assert back["table"]["seq"] == after["table"]["seq"]


def test_a_person_who_plays_is_back(db_url: str) -> None:
    # The bots wait a second before each move: the person's own move comes first.
    with fast_app(db_url, bot_delay=1.0) as client:
        person_plays_and_is_back(client)


def person_plays_and_is_back(client: TestClient) -> None:
    table_id, tokens = timed_table(client, timer=600, seed=6)
    with socket(client, table_id, tokens[0]) as ws0, socket(client, table_id, tokens[1]) as ws1:
        conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
        start = until(conns[0], lambda m: m["table"]["status"] == "playing")
        mover = start["view"]["to_move"]
        conns[mover].send({"type": "away"})
        gone = until(conns[mover], lambda m: m["table"]["seats"][mover]["away"])
        assert gone["table"]["seats"][mover]["standin"]
        # The stand-in plays the turn; the other person plays theirs; then the person
        # who left plays a move of their own: they are back.
        until(conns[mover], lambda m: m["view"]["to_move"] != mover)
        other = 1 - mover
        conns[other].act("draw stock")
        drawn = until(conns[other], lambda m: m["view"]["phase"] == "play")
        card = drawn["view"]["hand"][0]
        conns[other].act(f"discard {card}")
        turn = until(conns[mover], lambda m: m["view"]["to_move"] == mover)
        assert turn["table"]["seats"][mover]["standin"]
        conns[mover].act("draw stock")  # before the stand-in's second is up
        mine = until(conns[mover], lambda m: not m["table"]["seats"][mover]["standin"]
                     and m["table"]["seq"] > turn["table"]["seq"])
        assert not mine["table"]["seats"][mover]["away"]


def test_a_person_who_lost_the_connection_is_played_for_and_comes_back(
        client: TestClient) -> None:
    table_id, tokens = timed_table(client, timer=600)
    with socket(client, table_id, tokens[0]) as ws0:
        ann = Conn(ws0, 0)
        with socket(client, table_id, tokens[1]) as ws1:
            start = until(Conn(ws1, 1), lambda m: m["table"]["status"] == "playing")
        # Bob has gone. If it is his turn (or once it is), the stand-in plays it after
        # the grace (20 timer seconds), long before his 600 seconds are up.
        if start["view"]["to_move"] == 0:
            ann.act("draw stock")
            hand = until(ann, lambda m: m["view"]["phase"] == "play")["view"]["hand"]
            ann.act(f"discard {hand[0]}")
        played = until(ann, lambda m: m["table"]["seats"][1]["standin"]
                       and m["view"]["to_move"] == 0, seconds=5)
        assert not played["table"]["seats"][1]["connected"]
        assert not played["table"]["seats"][1]["away"]
        # Bob connects again: his seat is his.
        with socket(client, table_id, tokens[1]) as ws1:
            again = Conn(ws1, 1).view()
            assert not again["table"]["seats"][1]["standin"]
            assert again["table"]["seats"][1]["connected"]


def test_without_a_timer_nobody_is_played_for(client: TestClient) -> None:
    table_id, tokens = timed_table(client, timer=None)
    with socket(client, table_id, tokens[0]) as ws0, socket(client, table_id, tokens[1]) as ws1:
        conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
        start = until(conns[0], lambda m: m["table"]["status"] == "playing")
        assert start["table"]["timer"] is None and start["table"]["time_left"] is None
        time.sleep(30 * UNIT)  # longer than any grace
        conns[0].quiet(0)
        assert state_of(client, table_id, tokens[0])["table"]["seq"] == 0


def state_of(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}", headers=who(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@pytest.mark.postgresql
def test_a_seat_handed_over_stays_with_the_standin_after_a_restart(db_url: str) -> None:
    with fast_app(db_url) as client:
        table_id, tokens = timed_table(client, timer=None, seed=7)
        with socket(client, table_id, tokens[0]) as ws0, \
                socket(client, table_id, tokens[1]) as ws1:
            conns = {0: Conn(ws0, 0), 1: Conn(ws1, 1)}
            start = until(conns[0], lambda m: m["table"]["status"] == "playing")
            waiting = 1 - start["view"]["to_move"]
            conns[waiting].send({"type": "away"})
            until(conns[waiting], lambda m: m["table"]["seats"][waiting]["away"])
    with fast_app(db_url) as client:
        state = state_of(client, table_id, tokens[waiting])
        seat = state["table"]["seats"][waiting]
        assert seat["away"] and seat["standin"]
        # The other person plays; the stand-in answers for the one who left.
        mover = 1 - waiting
        with socket(client, table_id, tokens[mover]) as ws:
            conn = Conn(ws, mover)
            conn.view()
            conn.act("draw stock")
            hand = until(conn, lambda m: m["view"]["phase"] == "play")["view"]["hand"]
            conn.act(f"discard {hand[0]}")
            until(conn, lambda m: m["view"]["to_move"] == mover and m["table"]["seq"] >= 4)
        with socket(client, table_id, tokens[waiting]) as ws:
            conn = Conn(ws, waiting)
            # Connecting again is not coming back from a seat handed over; "back" is.
            assert conn.view()["table"]["seats"][waiting]["standin"]
            conn.send({"type": "back"})
            until(conn, lambda m: not m["table"]["seats"][waiting]["standin"])
    with fast_app(db_url) as client:
        assert not state_of(client, table_id, tokens[waiting])["table"]["seats"][waiting][
            "away"]


@pytest.mark.parametrize("body, status", [
    ({"timer": 5}, 422), ({"timer": 601}, 422), ({"timer": "soon"}, 422),
    ({"standin": "nobody"}, 400), ({"standin": "master(think=99)"}, 400),
])
def test_bad_timer_options_are_refused(client: TestClient, body: dict[str, Any],
                                       status: int) -> None:
    response = client.post("/api/tables", json={"rules": "classic", "seats": TWO, **body})
    assert response.status_code == status, response.text


# -- leaving: the others choose between the stand-in and ending the match -------------


@contextmanager
def playing(client: TestClient, table_id: str, tokens: list[str]) -> Iterator[dict[int, Conn]]:
    """Every seat connected, once the game has started."""
    with ExitStack() as stack:
        conns = {seat: Conn(stack.enter_context(socket(client, table_id, token)), seat)
                 for seat, token in enumerate(tokens)}
        until(conns[len(tokens) - 1], lambda m: m["table"]["status"] == "playing")
        yield conns


def three_people(client: TestClient) -> tuple[str, list[str]]:
    response = client.post("/api/tables", json={
        "rules": "classic", "seed": 8, "standin": "random",
        "seats": [person("Ann"), person("Bob"), person("Cid")]})
    assert response.status_code == 200, response.text
    return response.json()["id"], [s["link"].split("token=", 1)[1]
                                   for s in response.json()["seats"]]


def test_the_others_end_the_match_when_someone_leaves(db_url: str,
                                                      actions_db: ActionLog) -> None:
    with fast_app(db_url, bot_delay=0.5) as client:
        table_id, tokens = three_people(client)
        with playing(client, table_id, tokens) as conns:
            conns[1].send({"type": "vote", "end": True})  # nobody has left yet
            assert next_error(conns[1]) == "nobody has left: there is nothing to decide"
            conns[0].send({"type": "away"})
            asked = until(conns[1], lambda m: m["table"]["left"] == [0])
            assert asked["table"]["seats"][0]["standin"]
            conns[0].send({"type": "vote", "end": True})  # the one who left does not decide
            assert "the others decide" in next_error(conns[0])
            conns[2].send({"type": "vote", "end": True})  # half of the others: it ends
            ended = until(conns[1], lambda m: m["table"]["status"] == "finished")
            assert ended["table"]["ended_by"] == 0 and ended["table"]["left"] == []
            assert not ended["view"]["match_over"]
            seq = ended["table"]["seq"]
            conns[1].act("draw stock")
            assert "the match is over" in next_error(conns[1])
        assert len(actions_db.rows(table_id)) == seq
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200 and record.json()["players"] == ["Ann", "Bob", "Cid"]
        lines = client.get("/api/stats", params={"preset": "classic", "players": 3}).json()
        people = [line for line in lines["stats"] if line["kind"] == "person"]
        assert len(people) == 3
        assert all(line["matches"] == 1 and line["matches_won"] == 0 for line in people)


def next_error(conn: Conn) -> str:
    for _ in range(50):
        message = conn.recv()
        if message["type"] == "error":
            text: str = message["message"]
            return text
    raise AssertionError("no error came")


def test_the_others_keep_playing_with_the_standin_or_the_person_comes_back(
        db_url: str) -> None:
    with fast_app(db_url, bot_delay=0.5) as client:
        table_id, tokens = three_people(client)
        with playing(client, table_id, tokens) as conns:
            conns[2].send({"type": "away"})
            until(conns[0], lambda m: m["table"]["left"] == [2])
            conns[0].send({"type": "vote", "end": False})
            voted = until(conns[1], lambda m: m["table"]["votes"] == {"0": False})
            assert voted["table"]["left"] == [2]  # Bob has not chosen yet
            conns[1].send({"type": "vote", "end": False})
            kept = until(conns[1], lambda m: m["table"]["left"] == [])
            assert kept["table"]["status"] == "playing" and kept["table"]["seats"][2]["standin"]
            # Bob leaves too; then comes back before anyone chooses: nothing to decide.
            conns[1].send({"type": "away"})
            until(conns[0], lambda m: m["table"]["left"] == [1])
            conns[1].send({"type": "back"})
            back = until(conns[0], lambda m: m["table"]["left"] == [])
            assert not back["table"]["seats"][1]["standin"]
            assert back["table"]["status"] == "playing"


def test_leaving_and_coming_back_gives_no_more_time(db_url: str) -> None:
    """The person to move cannot hold the table by leaving and coming back: the turn
    keeps its deadline, and the stand-in plays when it passes."""
    with fast_app(db_url, unit=0.05, bot_delay=0.3) as client:
        table_id, tokens = timed_table(client, timer=10)  # half a second, here
        with playing(client, table_id, tokens) as conns:
            mover = state_of(client, table_id, tokens[0])["view"]["to_move"]
            deadline = time.monotonic() + 2.5
            while time.monotonic() < deadline:
                conns[mover].send({"type": "away"})
                conns[mover].send({"type": "back"})
                time.sleep(0.35)
            final = state_of(client, table_id, tokens[mover])
            assert final["table"]["seq"] > 0


def test_a_match_the_standins_finish_after_everyone_left_counts_for_nobody(
        db_url: str) -> None:
    """Both people hand their seats over (a rematch they both left at once): the stand-ins
    play the match to its end, and it is recorded as abandoned, not won or lost."""
    with fast_app(db_url) as client:
        response = client.post("/api/tables", json={
            "rules": "one-deal", "seed": 3, "standin": "random", "seats": TWO})
        assert response.status_code == 200, response.text
        table_id = response.json()["id"]
        tokens = [s["link"].split("token=", 1)[1] for s in response.json()["seats"]]
        with playing(client, table_id, tokens) as conns:
            conns[0].send({"type": "away"})
            until(conns[1], lambda m: m["table"]["left"] == [0])
            conns[1].send({"type": "away"})
            ended = until(conns[0], lambda m: m["table"]["status"] == "finished", 30)
            assert ended["view"]["match_over"] and ended["table"]["abandoned"]
            assert ended["table"]["ended_by"] is None
        with Session(create_engine(db_url)) as session:
            game = session.scalars(select(GameRow)).one()
            assert game.abandoned and not game.finished and game.winner is None
        lines = client.get("/api/stats", params={"preset": "one-deal"}).json()["stats"]
        people = [line for line in lines if line["kind"] == "person"]
        assert len(people) == 2
        assert all(line["matches"] == 1 and line["matches_won"] == 0 for line in people)
        # Read again from the database (a restart), the table still says so.
    with fast_app(db_url) as client:
        again = state_of(client, table_id, tokens[0])
        assert again["table"]["abandoned"]


def test_a_match_people_play_to_its_end_is_not_abandoned(db_url: str) -> None:
    """The people who stay to the end win or lose as usual."""
    with fast_app(db_url) as client:
        _, _, last = play_to_the_end(client, seed=4)
        assert not last[0]["table"]["abandoned"]
    with Session(create_engine(db_url)) as session:
        game = session.scalars(select(GameRow)).one()
        assert game.finished and not game.abandoned and game.winner is not None


def test_a_person_at_the_table_whose_time_ran_out_has_not_left(client: TestClient) -> None:
    """The rule for an abandoned match, seat by seat: the stand-in plays every person's
    seat AND each of them handed it over or is not connected. A person still at the table
    whose turn ran out has not left."""
    from rummykit.server.hub import Hub

    table_id, _ = timed_table(client, timer=10)
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]

    async def here(message: dict[str, Any]) -> None:  # a connection of seat 1
        return None

    table.seats.standing = [True, True]
    table.seats.away = [True, False]
    table.presence.sockets = {1: {here}}
    assert not Hub.nobody_played(table)  # Bob is here, only out of time
    table.presence.sockets = {}
    assert Hub.nobody_played(table)  # Bob lost his connection too
    table.seats.standing = [True, False]
    assert not Hub.nobody_played(table)  # Bob plays his own seat
