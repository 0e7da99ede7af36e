"""The table's help over the live protocol: ``why`` (would this action be refused, and
why) and ``hint`` (the strongest bot's move for this seat, from its view only).

A ``why`` answers with the engine's own refusal (its message, code and params, as the
action itself would get) and plays nothing; a ``hint`` is for the seat to move, names only
cards that seat can see, and is counted for the deal's summary.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.engine.actions import Action
from rummykit.errors import IllegalActionError
from rummykit.server.app import create_app

from ._support import ActionLog, Shadow, card_words, person, seat_socket
from .test_api import RULES, SEED, Conn, create, seated
from .test_spectators import Watcher

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

NAMES = ["Anna", "Bruno"]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # Hints search for 0.05 s: the protocol is tested here, the search in test_hints.py.
    with TestClient(create_app(db_url, bot_delay=0.0, allow_seed=True, think=0.05)) as client:
        yield client


def recv_type(conn: Conn, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (views that come first are passed over)."""
    for _ in range(50):
        message = conn.recv()
        if message["type"] == kind:
            return message
        assert message["type"] == "view", message
    raise AssertionError(f"no {kind} message came")


def refusal(shadow: Shadow, text: str) -> IllegalActionError:
    """The engine's own refusal of ``text`` for the player to move."""
    with pytest.raises(IllegalActionError) as caught:
        shadow.deal.verify(Action.parse(text))
    return caught.value


def test_why_gives_the_engines_refusal_and_plays_nothing(client: TestClient) -> None:
    table_id, tokens = create(client, [person(n) for n in NAMES])
    shadow = Shadow(RULES, NAMES, SEED)
    with seated(client, table_id, tokens) as conns:
        mover = shadow.deal.to_move
        conn, other = conns[mover], conns[1 - mover]
        card = shadow.hand(mover)[0]
        # Discarding before drawing (RULES.md: a turn starts with a draw).
        conn.send({"type": "why", "action": f"discard {card}"})
        answer = conn.recv()
        expected = refusal(shadow, f"discard {card}")
        assert answer == {"type": "why", "action": f"discard {card}", "legal": False,
                          "message": str(expected), "code": expected.code,
                          "params": expected.params}
        # A meld that is not one: refused with the meld rule's own words.
        hand = shadow.hand(mover)
        conn.send({"type": "why", "action": "meld " + " ".join(hand[:3])})
        assert conn.recv()["legal"] is False
        # A legal action is said to be legal, and is not played.
        conn.send({"type": "why", "action": "draw stock"})
        assert conn.recv() == {"type": "why", "action": "draw stock", "legal": True,
                               "message": ""}
        other.quiet(0.2)
        conn.quiet(0.0)
        # The other seat is told whose turn it is; bad notation is a notation refusal.
        other.send({"type": "why", "action": "draw stock"})
        answer = other.recv()
        assert answer["legal"] is False and answer["code"] == "not-your-turn"
        assert NAMES[mover] in answer["message"]
        conn.send({"type": "why", "action": "meld XX YY"})
        assert conn.recv()["code"] == "notation"
        conn.send({"type": "why"})
        assert "needs 'action'" in conn.error()
        # Nothing was played: the first real action is still the deal's first.
        conn.act("draw stock")
        shadow.apply("draw stock")
        for c in conns.values():
            assert c.view()["view"]["history_length"] == 1


def visible_to(shadow: Shadow, seat: int) -> set[str]:
    """The cards ``seat`` can see now: its hand, the pile and the table (every card ever
    face up this deal)."""
    return set(shadow.hand(seat)) | shadow.face_up


def test_a_hint_is_for_the_seat_to_move_and_names_only_what_it_sees(
        client: TestClient) -> None:
    table_id, tokens = create(client, [person(n) for n in NAMES])
    shadow = Shadow(RULES, NAMES, SEED)
    rng = random.Random(5)
    with seated(client, table_id, tokens) as conns:
        asked = [0, 0]
        for _ in range(8):  # four turns of each seat: draws, melds and discards
            mover = shadow.deal.to_move
            conn, other = conns[mover], conns[1 - mover]
            other.send({"type": "hint"})
            assert "your own turn" in other.error()
            conn.send({"type": "hint"})
            answer = recv_type(conn, "hint")
            asked[mover] += 1
            assert answer["seq"] == shadow.seq
            legal = {str(a) for a in shadow.deal.legal_actions()}
            assert answer["action"] in legal
            assert answer["reason"]
            assert card_words(answer) <= visible_to(shadow, mover), "a hidden card named"
            # Every seat hears the new count for this deal (the summary shows it).
            for c in conns.values():
                message = c.until(lambda m: m["table"]["hints"].get("1") == asked)
                assert message["table"]["hints"] == {"1": asked}
            # Play on: the hinted move in the draw, a greedy move after.
            draw = shadow.deal.phase == "draw"
            text = answer["action"] if draw else shadow.choose(mover, rng)
            while True:
                conn.act(text)
                shadow.apply(text)
                for c in conns.values():
                    c.until(lambda m: m["table"]["seq"] == shadow.seq)
                if shadow.deal.to_move != mover or shadow.deal.is_over:
                    break
                text = shadow.choose(mover, rng)
            if shadow.deal.is_over:
                break


def test_a_hint_asked_again_in_the_same_position_is_the_same_and_counted_once(
        client: TestClient) -> None:
    """Asking twice before moving gives one answer (not a second search that may differ),
    and the deal's summary counts one hint; after a move, a new hint is counted."""
    table_id, tokens = create(client, [person(n) for n in NAMES])
    shadow = Shadow(RULES, NAMES, SEED)
    with seated(client, table_id, tokens) as conns:
        mover = shadow.deal.to_move
        conn = conns[mover]
        conn.send({"type": "hint"})
        first = recv_type(conn, "hint")
        conn.until(lambda m: m["table"]["hints"].get("1", [0, 0])[mover] == 1)
        conn.send({"type": "hint"})
        again = recv_type(conn, "hint")
        assert again == first
        counted = conn.until(lambda m: "hints" in m["table"])
        assert counted["table"]["hints"]["1"][mover] == 1
        conn.act(first["action"])
        shadow.apply(first["action"])
        conn.until(lambda m: m["table"]["seq"] == shadow.seq)
        if shadow.deal.to_move == mover and not shadow.deal.is_over:
            conn.send({"type": "hint"})
            assert recv_type(conn, "hint")["seq"] == shadow.seq
            conn.until(lambda m: m["table"]["hints"].get("1", [0, 0])[mover] == 2)


def test_a_hint_before_the_game_starts_is_refused(client: TestClient) -> None:
    table_id, tokens = create(client, [person(n) for n in NAMES])
    with seat_socket(client, table_id, tokens[0]) as ws:
        conn = Conn(ws, 0)
        conn.view()
        conn.send({"type": "hint"})
        assert "game in play" in recv_type(conn, "error")["message"]


# -- the next deal waits for the people to read the summary ----------------------------


def first_dealer_one(rules: str) -> int:
    """A seed whose first dealer is seat 1 (so seat 1, the bot, starts the second deal of
    a two-player match: the deal passes to the left)."""
    from rummykit.engine.match import Match
    from rummykit.rules import Rules

    return next(seed for seed in range(100)
                if Match(Rules.parse(rules), players=2, seed=seed).deal.dealer == 1)


def play_first_deal(conn: Conn) -> dict[str, Any]:
    """Ann draws from the stock, melds what she can and discards her highest card (the
    bot plays its own turns) until the first deal ends; the view that shows the second."""
    order = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    acted = -1  # the position last acted on: the same view may come twice
    while True:
        message = conn.view()
        view = message["view"]
        if view["deal_number"] > 1:
            return message
        legal = view["legal_actions"]
        if not legal or message["table"]["seq"] <= acted:
            continue
        acted = message["table"]["seq"]
        melds = [a for a in legal if a.startswith("meld ")]
        discards = [a for a in legal if a.startswith("discard ")]
        if "draw stock" in legal:
            conn.act("draw stock")
        elif melds:
            conn.act(melds[0])
        else:
            conn.act(max(discards, key=lambda a: order.index(a.split()[1][:-1])))


@pytest.mark.parametrize("wait", [0.3, 30.0])
def test_after_a_deal_the_bots_wait_for_the_summary_to_be_read(db_url: str,
                                                              wait: float) -> None:
    """A deal ends and the bot starts the next one: it waits until the person says
    "seen" (closed the summary), or at most ``summary_wait`` seconds; the table says who
    is still reading."""
    rules = "classic"
    seed = first_dealer_one(rules)
    app = create_app(db_url, bot_delay=0.0, allow_seed=True, think=0.05, summary_wait=wait)
    with TestClient(app) as client:
        table_id, tokens = create(client, [person("Ann"), {"kind": "bot", "name": "Bob",
                                                           "level": "greedy"}],
                                  rules=rules, seed=seed)
        with seat_socket(client, table_id, tokens[0]) as ws:
            conn = Conn(ws, 0)
            message = play_first_deal(conn)
            assert message["view"]["to_move"] == 1
            assert message["table"]["reading"] == [0]
            seq = message["table"]["seq"]
            if wait < 1:
                # Nobody closes the summary: the bot goes on after the wait.
                later = conn.until(lambda m: m["table"]["seq"] > seq)
                assert later["table"]["reading"] == []
                return
            conn.quiet(0.6)  # the bot waits...
            conn.send({"type": "seen"})
            assert conn.view()["table"]["reading"] == []
            # ...and plays as soon as the summary is closed.
            assert conn.until(lambda m: m["table"]["seq"] > seq)["table"]["seq"] == seq + 1


# -- undo ----------------------------------------------------------------------------------


def meld_seed(rules: str) -> int:
    """A seed where seat 1 (a person; seat 0 deals) can meld after drawing from the stock."""
    from rummykit.engine.match import Match
    from rummykit.rules import Rules

    for seed in range(500):
        match = Match(Rules.parse(rules), players=["Bob", "Ann"], seed=seed, first_dealer=0)
        if match.deal.to_move != 1:
            continue
        match.apply("draw stock")
        if any(a.kind == "meld" for a in match.deal.legal_actions()):
            return seed
    raise AssertionError("no such seed")


def comparable(message: dict[str, Any]) -> dict[str, Any]:
    """A view message less what counts actions (seq) and what says an undo is possible."""
    out = {**message, "table": {k: v for k, v in message["table"].items()
                                if k not in ("seq", "undo", "last")}}
    return out


@pytest.mark.postgresql
def test_undo_takes_back_a_meld_that_nobody_saw(client: TestClient,
                                                actions_db: ActionLog) -> None:
    """Against computer players only, a meld of this turn is taken back before the
    discard: the seat sees exactly the position it had before the meld (its hand, the
    table, the stock's count), the stored record forgets the meld, and the stock is in the
    same order (the next card drawn is the one the shadow, which never melded, draws)."""
    rules = "one-deal"
    seed = meld_seed(rules)
    table_id, tokens = create(client, [{"kind": "bot", "name": "Bob", "level": "greedy"},
                                       person("Ann")], rules=rules, seed=seed)
    shadow = Shadow(rules, ["Bob", "Ann"], seed)
    with seat_socket(client, table_id, tokens[1]) as ws:
        conn = Conn(ws, 1)
        conn.view()
        conn.act("draw stock")
        shadow.apply("draw stock")
        before = conn.until(lambda m: m["table"]["seq"] == 1)
        assert before["table"]["undo"] is False  # a draw is never taken back
        conn.send({"type": "undo"})
        assert recv_type(conn, "error")["code"] == "undo-nothing"
        meld = next(str(a) for a in shadow.deal.legal_actions() if a.kind == "meld")
        conn.act(meld)
        after = conn.until(lambda m: m["table"]["seq"] == 2)
        assert after["table"]["undo"] is True and after["view"]["table"]
        assert [row[2] for row in actions_db.rows(table_id)] == ["draw stock", meld]
        conn.send({"type": "undo"})
        undone = conn.until(lambda m: m["table"]["seq"] == 1)
        assert comparable(undone) == comparable(before)
        assert [row[2] for row in actions_db.rows(table_id)] == ["draw stock"]
        # A hint asked after the meld is not kept past its undo: the next action takes the
        # same sequence number for another position (here the meld again, then a hint that
        # is worked out afresh and counted).
        for counted in (1, 2):
            conn.act(meld)
            conn.until(lambda m: m["table"]["seq"] == 2)
            conn.send({"type": "hint"})
            assert recv_type(conn, "hint")["seq"] == 2
            conn.until(lambda m, n=counted: m["table"]["hints"].get("1", [0, 0])[1] == n)
            conn.send({"type": "undo"})
            conn.until(lambda m: m["table"]["seq"] == 1)
        # The turn goes on from there: discard, the bot plays, then the stock gives the
        # card it would have given had the meld never been made.
        discard = next(str(a) for a in shadow.deal.legal_actions() if a.kind == "discard")
        conn.act(discard)
        shadow.apply(discard)
        message = conn.until(lambda m: m["view"]["match_over"] or (
            m["view"]["to_move"] == 1 and m["view"]["phase"] == "draw"))
        if message["view"]["match_over"]:
            return
        shadow.follow(message)
        conn.act("draw stock")
        shadow.apply("draw stock")
        drawn = conn.until(lambda m: m["table"]["seq"] == shadow.seq)
        assert sorted(drawn["view"]["hand"]) == sorted(shadow.hand(1))


def test_no_undo_when_other_people_have_seen_it(client: TestClient) -> None:
    """With another person at the table every action is seen at once: no undo."""
    rules = "one-deal"
    seed = meld_seed(rules)
    table_id, tokens = create(client, [person("Bob"), person("Ann")], rules=rules, seed=seed)
    shadow = Shadow(rules, ["Bob", "Ann"], seed)
    with seated(client, table_id, tokens) as conns:
        conns[1].act("draw stock")
        shadow.apply("draw stock")
        for conn in conns.values():
            conn.view()
        meld = next(str(a) for a in shadow.deal.legal_actions() if a.kind == "meld")
        conns[1].act(meld)
        for seat, conn in conns.items():
            assert conn.view()["table"]["undo"] is False, seat
        conns[1].send({"type": "undo"})
        assert recv_type(conns[1], "error")["code"] == "undo-seen"
        conns[0].quiet(0.1)


def test_no_undo_when_a_spectator_has_seen_it(client: TestClient) -> None:
    """A spectator sees each action at once, as people do: while anyone watches, a meld
    is not taken back (nobody may have seen it)."""
    rules = "one-deal"
    seed = meld_seed(rules)
    table_id, tokens = create(client, [{"kind": "bot", "name": "Bob", "level": "greedy"},
                                       person("Ann")], rules=rules, seed=seed)
    shadow = Shadow(rules, ["Bob", "Ann"], seed)
    with seat_socket(client, table_id, tokens[1]) as ws, \
            client.websocket_connect(f"/ws/{table_id}?watch=1") as watching:
        conn = Conn(ws, 1)
        conn.view()
        spectator = Watcher(watching, 0)
        spectator.view()
        conn.act("draw stock")
        shadow.apply("draw stock")
        conn.until(lambda m: m["table"]["seq"] == 1)
        meld = next(str(a) for a in shadow.deal.legal_actions() if a.kind == "meld")
        conn.act(meld)
        assert conn.until(lambda m: m["table"]["seq"] == 2)["table"]["undo"] is False
        seen = spectator.until(lambda m: m["table"]["seq"] == 2)
        assert seen["view"]["table"]  # the spectator sees the meld
        conn.send({"type": "undo"})
        assert recv_type(conn, "error")["code"] == "undo-seen"
